// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fixture - make a real target for hijack's tests: a task in fresh mnt,
 * uts, ipc, net, pid, cgroup and time namespaces, optionally under a user
 * namespace owned by an unprivileged uid, optionally chrooted.
 *
 *   fixture [--userns UID] [--root DIR] [--cwd DIR] [--hostname NAME]
 *           [--no-time]
 *	Prints the target's pid (as the caller sees it) on stdout once the
 *	target is ready, then stays until the target dies; SIGTERM or SIGINT
 *	kill the target.  The target is pid 1 of its pid namespace and has
 *	its own /proc mounted.
 *
 *   fixture --run-as UID -- COMMAND [ARG...]
 *	Run COMMAND as UID (gid UID, no supplementary groups): how the tests
 *	become an unprivileged caller without depending on setpriv or su.
 *
 *   fixture --ns-id TYPE
 *	Print "dev:ino" of /proc/self/ns/TYPE as stat -c %d:%i does, for
 *	comparing namespaces by (device, inode) as the kernel selftests do.
 *
 * Static, so that it runs in the QEMU initramfs as on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

struct cfg {
	long userns_uid;	/* -1: no user namespace */
	const char *root;
	const char *cwd;
	const char *hostname;
	int time_ns;
};

static pid_t target_pid;

static void die(const char *what)
{
	fprintf(stderr, "fixture: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

/* Become @uid and create a user namespace in which @uid is root. */
static void enter_own_userns(long uid)
{
	char map[64];

	if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		die("drop to uid");
	/* Dropping uid cleared dumpable; the tests' caller must read /proc. */
	if (prctl(PR_SET_DUMPABLE, 1) < 0)
		die("PR_SET_DUMPABLE");
	if (unshare(CLONE_NEWUSER) < 0)
		die("unshare user");
	(void)snprintf(map, sizeof(map), "0 %ld 1\n", uid);
	write_file("/proc/self/uid_map", map);
	write_file("/proc/self/setgroups", "deny\n");
	write_file("/proc/self/gid_map", map);
	if (setresuid(0, 0, 0) < 0 || setresgid(0, 0, 0) < 0)
		die("become root in user namespace");
}

static void target_main(const struct cfg *c, int ready)
{
	char path[4096];

	if (sethostname(c->hostname, strlen(c->hostname)) < 0)
		die("sethostname");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("make / private");
	(void)snprintf(path, sizeof(path), "%s/proc", c->root ? c->root : "");
	/* Its own /proc, so that ps inside lists its own pid 1. */
	if (mount("proc", path, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0 && c->userns_uid < 0)
		die("mount proc");
	if (c->root && chroot(c->root) < 0)
		die("chroot");
	if (chdir(c->cwd ? c->cwd : "/") < 0)
		die("chdir");
	if (write(ready, "R", 1) != 1)
		die("ready");
	close(ready);
	for (;;) {
		/* pid 1 of its namespace: reap whatever is reparented here. */
		if (wait(NULL) < 0 && errno == ECHILD)
			pause();
	}
}

/*
 * In the outer child, target_pid is the target: SIGKILL, as pid 1 of its
 * namespace ignores what it has no handler for.  In the main process it is
 * the outer child, which is asked to do that and then exits.
 */
static int in_main = 0;

static void on_signal(int sig)
{
	(void)sig;
	if (target_pid > 0)
		(void)kill(target_pid, in_main ? SIGTERM : SIGKILL);
}

static int make_target(const struct cfg *c)
{
	int flags = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET |
		    CLONE_NEWPID | CLONE_NEWCGROUP;
	int sync[2], status;
	pid_t outer;
	char b;

	if (pipe2(sync, O_CLOEXEC) < 0)
		die("pipe");
	outer = fork();
	if (outer < 0)
		die("fork");
	if (outer == 0) {
		/* The outer child creates the namespaces, so the caller keeps its own. */
		if (c->userns_uid >= 0)
			enter_own_userns(c->userns_uid);
		if (c->time_ns) {
			if (unshare(CLONE_NEWTIME) < 0)
				die("unshare time");
			/* An offset makes the time namespace observable. */
			write_file("/proc/self/timens_offsets",
				   "monotonic 86400 0\n");
		}
		if (unshare(flags) < 0)
			die("unshare");
		target_pid = fork();
		if (target_pid < 0)
			die("fork target");
		if (target_pid == 0) {
			close(sync[0]);
			target_main(c, sync[1]);
		}
		close(sync[1]);
		if (read(sync[0], &b, 1) != 1)
			_exit(1);
		printf("%d\n", (int)target_pid);
		fflush(stdout);
		signal(SIGTERM, on_signal);
		signal(SIGINT, on_signal);
		while (waitpid(target_pid, &status, 0) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(sync[0]);
	close(sync[1]);
	in_main = 1;
	target_pid = outer;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (waitpid(outer, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int run_as(long uid, char **argv)
{
	if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		die("drop to uid");
	execvp(argv[0], argv);
	die(argv[0]);
	return 1;
}

static int ns_id(const char *type)
{
	char path[64];
	struct stat st;

	(void)snprintf(path, sizeof(path), "/proc/self/ns/%s", type);
	if (stat(path, &st) < 0)
		die(path);
	/* The same "%d:%i" as stat(1) prints. */
	printf("%lu:%lu\n", (unsigned long)st.st_dev, (unsigned long)st.st_ino);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userns", required_argument, NULL, 'u' },
		{ "root", required_argument, NULL, 'r' },
		{ "cwd", required_argument, NULL, 'c' },
		{ "hostname", required_argument, NULL, 'h' },
		{ "no-time", no_argument, NULL, 'T' },
		{ "run-as", required_argument, NULL, 'a' },
		{ "ns-id", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct cfg c = { .userns_uid = -1, .hostname = "hijack-target",
			 .time_ns = 1 };
	long run_uid = -1;
	int o;

	while ((o = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (o) {
		case 'u':
			c.userns_uid = strtol(optarg, NULL, 10);
			break;
		case 'r':
			c.root = optarg;
			break;
		case 'c':
			c.cwd = optarg;
			break;
		case 'h':
			c.hostname = optarg;
			break;
		case 'T':
			c.time_ns = 0;
			break;
		case 'a':
			run_uid = strtol(optarg, NULL, 10);
			break;
		case 'n':
			return ns_id(optarg);
		default:
			fprintf(stderr, "fixture: bad usage\n");
			return 2;
		}
	}
	if (run_uid >= 0) {
		if (optind >= argc) {
			fprintf(stderr, "fixture: --run-as needs a command\n");
			return 2;
		}
		return run_as(run_uid, argv + optind);
	}
	/* A time namespace needs Linux 5.6: go without it where it is missing. */
	if (c.time_ns && access("/proc/self/ns/time", F_OK) < 0)
		c.time_ns = 0;
	return make_target(&c);
}
