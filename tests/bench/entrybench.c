// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * entrybench - what one entry into a container costs, by way of entry.
 *
 * Each mode repeats one entry of a program into a target and waits for it:
 *
 *   exec PROG          fork + execve: no entry at all, the floor
 *   cmd ARGV...        fork + execve of a whole tool (hijack, nsenter)
 *   syscall PID PROG   hijack(2): one call creates the child inside PID's
 *                      namespaces, root, cwd, cgroup v2 and credentials
 *   setns PID PROG     the same by hand, as a tool without hijack(2) must:
 *                      fork, join PID's cgroup, setns(pidfd) into every
 *                      namespace that differs, fork again (the pid and time
 *                      namespaces take effect only in children), execve
 *
 * The last two are the kernel's two paths with nothing of a tool around
 * them: their difference is what the hijack system call saves.  Every
 * entered program must exit 0, or the run stops.
 *
 * The batch length is calibrated, a batch is thrown away as warm-up, and the
 * median of the samples is printed as one "entry" line that
 * tests/bench/entry-vm.sh collects.  It is meant for the instruction clock
 * (QEMU -icount), where a nanosecond is an instruction and one run is
 * enough; on a host the figures carry the host's noise.  Static, so it runs
 * in the kernel harness's busybox initramfs.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "hijack-abi.h"
#include "util.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#define MAX_SAMPLES 1000

enum { EXIT_BAD_USAGE = 2 };

/*
 * How the setns path's middle process says which of its steps failed;
 * reap() prints the number.
 */
enum setns_exit {
	SETNS_EXIT_CGROUP = 120,
	SETNS_EXIT_SETNS,
	SETNS_EXIT_FORK,
	SETNS_EXIT_WAIT,
	SETNS_EXIT_KILLED,
};

struct entry {
	const char *mode;
	void (*one)(const struct entry *e);	/* one entry, waited for */
	char **argv;		/* what the entered child executes */
	int pidfd;		/* the target, for syscall and setns */
	unsigned long ns_mask;	/* the target's namespaces that are not ours */
	int cgroup_procs;	/* the target's v2 cgroup.procs, for setns */
	int cgroup_dir;		/* its directory, for syscall */
};

extern char **environ;

const char program_name[] = "entrybench";

/* Wait for @pid; anything but exit 0 stops the run (a failed entry is cheap). */
static void wait_entered(pid_t pid, const char *what)
{
	if (reap(pid, what))
		exit(EXIT_FAILURE);
}

static void exec_child(const struct entry *e)
{
	execve(e->argv[0], e->argv, environ);
	_exit(EXIT_EXEC_FAILED);
}

static void one_fork(const struct entry *e)
{
	pid_t pid = fork();

	if (pid < 0)
		die(EXIT_FAILURE, "fork: %m");
	if (pid == 0)
		exec_child(e);
	wait_entered(pid, e->mode);
}

static void one_syscall(const struct entry *e)
{
	struct hj_hijack_args args = {
		.exit_signal = SIGCHLD,
		.cgroup = (uint64_t)e->cgroup_dir,
	};
	unsigned int flags = HIJACK_TAKE_FS | HIJACK_INTO_CGROUP |
			     HIJACK_TAKE_CRED;
	long pid = syscall(__NR_hijack, (long)e->pidfd, e->ns_mask,
			   (unsigned long)flags, &args, sizeof(args), 0L);

	if (pid < 0)
		die(EXIT_FAILURE, "hijack(2): %m (is this the patched kernel?)");
	if (pid == 0)
		exec_child(e);
	wait_entered((pid_t)pid, e->mode);
}

static void one_setns(const struct entry *e)
{
	pid_t pid = fork();

	if (pid < 0)
		die(EXIT_FAILURE, "fork: %m");
	if (pid == 0) {
		pid_t inner;
		int status;

		/* The cgroup first: after setns the host's hierarchy is gone. */
		if (pwrite(e->cgroup_procs, "0", 1, 0) != 1)
			_exit(SETNS_EXIT_CGROUP);
		if (setns(e->pidfd, (int)e->ns_mask))
			_exit(SETNS_EXIT_SETNS);
		inner = fork();
		if (inner < 0)
			_exit(SETNS_EXIT_FORK);
		if (inner == 0)
			exec_child(e);
		if (waitpid(inner, &status, 0) != inner)
			_exit(SETNS_EXIT_WAIT);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : SETNS_EXIT_KILLED);
	}
	wait_entered(pid, e->mode);
}

static void run_batch(const struct entry *e, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++)
		e->one(e);
}

static uint64_t timed_batch(const struct entry *e, uint64_t iters)
{
	uint64_t t0 = now_ns();

	run_batch(e, iters);
	return now_ns() - t0;
}

/* The namespaces of @pid that are not the caller's, as CLONE_NEW* flags. */
static unsigned long differing_namespaces(pid_t pid)
{
	static const struct {
		const char *name;
		unsigned long flag;
	} nss[] = {
		{ "mnt", CLONE_NEWNS },	    { "uts", CLONE_NEWUTS },
		{ "ipc", CLONE_NEWIPC },    { "net", CLONE_NEWNET },
		{ "pid", CLONE_NEWPID },    { "user", CLONE_NEWUSER },
		{ "cgroup", CLONE_NEWCGROUP }, { "time", CLONE_NEWTIME },
	};
	unsigned long mask = 0;

	for (size_t i = 0; i < ARRAY_SIZE(nss); i++) {
		char path[64];
		struct stat mine, theirs;

		snprintf(path, sizeof(path), "/proc/self/ns/%s", nss[i].name);
		if (stat(path, &mine))
			continue;	/* a kernel without this namespace type */
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, nss[i].name);
		if (stat(path, &theirs))
			die(EXIT_FAILURE, "%s: %m", path);
		if (mine.st_ino != theirs.st_ino || mine.st_dev != theirs.st_dev)
			mask |= nss[i].flag;
	}
	return mask;
}

/* The target's cgroup directory on the v2 hierarchy at /sys/fs/cgroup. */
static int open_cgroup_dir(pid_t pid)
{
	char path[4096 + 64], line[4096];
	struct statfs sfs;
	FILE *f;
	int fd = -1;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "re");
	if (!f)
		die(EXIT_FAILURE, "%s: %m", path);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::/", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s", line + 3);
		fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			die(EXIT_FAILURE, "%s: %m", path);
		/* A host with v1 hierarchies there has a tmpfs instead. */
		if (fstatfs(fd, &sfs) < 0 || sfs.f_type != CGROUP2_SUPER_MAGIC)
			die(EXIT_FAILURE, "%s: not on cgroup2", path);
		break;
	}
	fclose(f);
	if (fd < 0)
		die(EXIT_FAILURE, "pid %d has no cgroup v2 line", (int)pid);
	return fd;
}

static unsigned long parse_num(const char *s, const char *what, unsigned long max)
{
	unsigned long long v;

	if (!parse_ull(s, &v) || v < 1 || v > max)
		die(EXIT_BAD_USAGE, "%s: '%s' is not a number in [1, %lu]", what,
		    s, max);
	return v;
}

static void __attribute__((noreturn)) usage(int status)
{
	fprintf(status ? stderr : stdout,
		"usage: entrybench [-n SAMPLES] [-m MIN_BATCH_MS] MODE ARGS...\n"
		"  exec PROG | cmd ARGV... | syscall PID PROG | setns PID PROG\n");
	exit(status);
}

/* MODE ARGS... into @e: the entry to time and what it runs. */
static void pick_mode(struct entry *e, int argc, char **argv)
{
	e->mode = argv[0];
	if (!strcmp(e->mode, "exec") || !strcmp(e->mode, "cmd")) {
		if (!strcmp(e->mode, "exec") && argc != 2)
			usage(EXIT_BAD_USAGE);
		e->one = one_fork;
		e->argv = &argv[1];
	} else if (!strcmp(e->mode, "syscall") || !strcmp(e->mode, "setns")) {
		pid_t pid;

		if (argc != 3)
			usage(EXIT_BAD_USAGE);
		pid = (pid_t)parse_num(argv[1], "PID", INT32_MAX);
		e->argv = &argv[2];
		e->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
		if (e->pidfd < 0)
			die(EXIT_FAILURE, "pidfd_open %d: %m", (int)pid);
		e->ns_mask = differing_namespaces(pid);
		e->cgroup_dir = open_cgroup_dir(pid);
		if (!strcmp(e->mode, "setns")) {
			e->one = one_setns;
			e->cgroup_procs = openat(e->cgroup_dir, "cgroup.procs",
						 O_WRONLY | O_CLOEXEC);
			if (e->cgroup_procs < 0)
				die(EXIT_FAILURE, "cgroup.procs of pid %d: %m",
				    (int)pid);
		} else {
			e->one = one_syscall;
		}
	} else {
		fprintf(stderr, "entrybench: unknown mode '%s'\n", e->mode);
		usage(EXIT_BAD_USAGE);
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "samples", required_argument, NULL, 'n' },
		{ "min-batch-ms", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static double ns_per_op[MAX_SAMPLES];
	unsigned long samples = 7, min_ms = 200;
	struct entry e = { .pidfd = -1, .cgroup_procs = -1, .cgroup_dir = -1 };
	uint64_t iters = 1;
	int c;

	/* "+": the command of cmd has options of its own. */
	while ((c = getopt_long(argc, argv, "+n:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			samples = parse_num(optarg, "--samples", MAX_SAMPLES);
			break;
		case 'm':
			min_ms = parse_num(optarg, "--min-batch-ms", 60000);
			break;
		case 'h':
			usage(0);
		default:
			usage(EXIT_BAD_USAGE);
		}
	}
	if (argc - optind < 2)
		usage(EXIT_BAD_USAGE);
	pick_mode(&e, argc - optind, &argv[optind]);
	if (access(e.argv[0], X_OK))
		die(EXIT_FAILURE, "%s: %m", e.argv[0]);

	/* Double the batch until it lasts min_ms, then one more as warm-up. */
	while (timed_batch(&e, iters) < min_ms * NSEC_PER_MSEC) {
		if (iters > (1ULL << 30))
			die(EXIT_FAILURE, "%s: a batch never reaches %lu ms", e.mode, min_ms);
		iters *= 2;
	}
	run_batch(&e, iters);
	for (unsigned long i = 0; i < samples; i++)
		ns_per_op[i] = (double)timed_batch(&e, iters) / (double)iters;
	qsort(ns_per_op, samples, sizeof(ns_per_op[0]), cmp_double);
	printf("entry mode=%s iters=%" PRIu64 " samples=%lu median_ns=%.0f min_ns=%.0f max_ns=%.0f ns_mask=%#lx\n",
	       e.mode, iters, samples, ns_per_op[samples / 2], ns_per_op[0],
	       ns_per_op[samples - 1], e.ns_mask);
	return 0;
}
