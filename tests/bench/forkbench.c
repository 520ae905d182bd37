// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * forkbench - the workloads of the fork-path regression gate.
 *
 * Every workload is a "batch" function that performs n operations.  The
 * harness calibrates n during warm-up so that one batch lasts at least
 * --min-batch-ms, then records --samples batches, each timed with
 * CLOCK_MONOTONIC and accompanied by the getrusage() deltas of the process
 * and of its reaped children.  See tests/bench/README.md and GATE.md for why
 * the measurement is shaped like this.
 *
 * The program must run as PID 1's child in a busybox initramfs as well as on
 * a host, so it needs nothing but a kernel: it is built with gcc -static and
 * writes its own exec target (a 129-byte ELF file) to a tmpfs directory.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <poll.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "jsonw.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

#define FORKBENCH_VERSION "1"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_SEC 1000000000ULL
/* Argument that turns forkbench into one link of the execl chain. */
#define EXECL_CHAIN_ARG "--execl-chain"

extern char **environ;

enum role { ROLE_PRIMARY, ROLE_SECONDARY, ROLE_CONTROL };

static const char *const role_name[] = {
	[ROLE_PRIMARY] = "primary",
	[ROLE_SECONDARY] = "secondary",
	[ROLE_CONTROL] = "control",
};

struct sample {
	uint64_t ops;		/* operations in this batch */
	uint64_t elapsed_ns;
	double ns_per_op;
	uint64_t user_ns, sys_ns;	/* this process */
	uint64_t cusr_ns, csys_ns;	/* reaped children */
	int cpu, cpu_end;	/* CPU of the measuring process */
};

struct bench;

struct workload {
	const char *name;
	enum role role;
	const char *what;
	/* operations per iteration: the batch function is given iterations */
	unsigned int ops_per_iter;
	/* nesting depth of pid namespaces to measure in, 0 for none */
	unsigned int pidns_depth;
	/* never pin: the workload needs every CPU (it pins its own copies) */
	bool own_affinity;
	/* returns 0, or a positive "skip" code after printing why, or -1 */
	int (*setup)(struct bench *b);
	int (*batch)(struct bench *b, uint64_t iters);
	void (*teardown)(struct bench *b);
};

enum { SETUP_SKIP = 1 };

/* The warm-up batches a report shows: the first ones, which tell. */
#define WARMUP_SHOWN 16

struct result {
	const struct workload *w;
	struct sample *samples;
	size_t nr_samples;
	uint64_t iters;
	bool pinned;
	uint32_t warmup;	/* full batches discarded after calibration */
	bool settled;		/* the last two of them agreed (--settle) */
	double warm_ns[WARMUP_SHOWN];	/* ns/op of the first of them */
	enum { RESULT_OK, RESULT_SKIPPED, RESULT_ERROR } state;
	char reason[128];	/* why skipped, or what failed */
};

struct bench {
	/* options */
	size_t samples;
	bool samples_given;
	uint64_t min_batch_ns;
	uint64_t fixed_iters;
	unsigned int warmup;
	unsigned int warmup_max;
	double settle;		/* relative; 0: --warmup batches, no more */
	bool as_listed;
	double duration;
	bool have_seed;
	uint64_t seed;
	bool json;
	bool pin;
	int cpu;
	bool keep_aslr;
	size_t big_mib;
	unsigned int sem_procs;
	unsigned int busy;
	unsigned int copies;
	unsigned long pid_base;	/* 0: leave pid allocation alone */
	const char *tmpdir_base;
	const char *target_arg;
	char **tags;
	size_t nr_tags;

	/* state */
	int nr_cpus;
	cpu_set_t all_cpus;
	char tmpdir[PATH_MAX];
	bool tmpdir_is_tmpfs;	/* tmpfs or ramfs */
	char target[PATH_MAX];	/* exec target: exits 0 at once */
	char self[PATH_MAX];	/* copy of this program, for execl */
	char storm[PATH_MAX];	/* storm shell script */
	bool made_target, made_self, made_storm;
	void *big;
	int semid;
	int pipe_to[2], pipe_from[2];
	pid_t pipe_peer;
	/* set by a batch that times itself (see run_copies()), else 0 */
	uint64_t batch_ns;
};

/* A message about a workload that could not run; returns -1 for chaining. */
static int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	fputs("forkbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	errno = saved;
	return -1;
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fputs("forkbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILURE);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * 1000;
}

/*
 * Reap one child and insist that it exited 0.  A child that failed means the
 * operation did not happen, and a batch that counts it would under-report the
 * cost, so it is an error, never a sample.
 */
static int reap(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return fail("%s: waitpid: %m", what);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return fail("%s: child exited with status %d", what,
			    WEXITSTATUS(status));
	return fail("%s: child killed by signal %d", what, WTERMSIG(status));
}

/* ---- workloads ---------------------------------------------------------- */

static int spawn_batch(struct bench *b, uint64_t iters)
{
	(void)b;
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return fail("spawn: fork: %m");
		if (pid == 0)
			_exit(0);
		if (reap(pid, "spawn"))
			return -1;
	}
	return 0;
}

static int big_setup(struct bench *b)
{
	size_t len = b->big_mib << 20;
	long page = sysconf(_SC_PAGESIZE);

	b->big = mmap(NULL, len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->big == MAP_FAILED) {
		b->big = NULL;
		return fail("spawn-big: mmap %zu MiB: %m", b->big_mib);
	}
	/*
	 * Transparent huge pages would copy one PMD instead of 512 PTEs and
	 * make the cost depend on whether khugepaged got there first; the
	 * workload is about dup_mmap() over ordinary pages.
	 */
	(void)madvise(b->big, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += page)
		((volatile char *)b->big)[off] = 1;
	return 0;
}

static void big_teardown(struct bench *b)
{
	if (b->big)
		munmap(b->big, b->big_mib << 20);
	b->big = NULL;
}

static int exec_batch(struct bench *b, uint64_t iters)
{
	char *const argv[] = { b->target, NULL };
	char *const envp[] = { NULL };

	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return fail("exec: fork: %m");
		if (pid == 0) {
			execve(b->target, argv, envp);
			_exit(127);
		}
		if (reap(pid, "exec"))
			return -1;
	}
	return 0;
}

/*
 * execl: one child walks a chain of iters execs of this program without
 * forking; the count travels in argv (see execl_chain()).
 */
static int execl_batch(struct bench *b, uint64_t iters)
{
	char count[32];
	pid_t pid;

	snprintf(count, sizeof(count), "%" PRIu64, iters);
	pid = fork();
	if (pid < 0)
		return fail("execl: fork: %m");
	if (pid == 0) {
		char *const argv[] = { "forkbench", EXECL_CHAIN_ARG, count, NULL };
		char *const envp[] = { NULL };

		execve(b->self, argv, envp);
		_exit(127);
	}
	return reap(pid, "execl");
}

static void __attribute__((noreturn)) execl_chain(const char *self, const char *count)
{
	char *end;
	unsigned long long left;
	char next[32];

	errno = 0;
	left = strtoull(count, &end, 10);
	if (errno || *end || left == 0)
		_exit(2);
	if (left == 1)
		_exit(0);
	snprintf(next, sizeof(next), "%llu", left - 1);
	{
		char *const argv[] = { "forkbench", EXECL_CHAIN_ARG, next, NULL };
		char *const envp[] = { NULL };

		execve(self, argv, envp);
	}
	_exit(127);
}

static int shell_setup(struct bench *b)
{
	(void)b;
	if (access("/bin/sh", X_OK)) {
		fprintf(stderr, "forkbench: skipping: /bin/sh: %m\n");
		return SETUP_SKIP;
	}
	return 0;
}

static pid_t start_shell(const char *script, const char *arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *const envp[] = { "PATH=/bin:/usr/bin", NULL };

		if (arg)
			execle("/bin/sh", "sh", "-c", arg, (char *)NULL, envp);
		else
			execle("/bin/sh", "sh", script, (char *)NULL, envp);
		_exit(127);
	}
	return pid;
}

static int shell_n(struct bench *b, uint64_t iters, unsigned int conc,
		   const char *name)
{
	pid_t pids[8];

	for (uint64_t i = 0; i < iters; i++) {
		unsigned int started;
		int ret = 0;

		for (started = 0; started < conc; started++) {
			pids[started] = start_shell(NULL, b->target);
			if (pids[started] < 0) {
				ret = fail("%s: fork: %m", name);
				break;
			}
		}
		for (unsigned int j = 0; j < started; j++)
			if (reap(pids[j], name))
				ret = -1;
		if (ret)
			return ret;
	}
	return 0;
}

static int shell1_batch(struct bench *b, uint64_t iters)
{
	return shell_n(b, iters, 1, "shell-1");
}

static int shell8_batch(struct bench *b, uint64_t iters)
{
	return shell_n(b, iters, 8, "shell-8");
}

/* Pin to the n-th (modulo their number) of the CPUs we may use. */
static void pin_to_nth_cpu(const struct bench *b, unsigned int n)
{
	int count = CPU_COUNT(&b->all_cpus), cpu = -1;
	cpu_set_t set;

	if (count <= 0)
		return;
	n %= count;
	do {
		cpu++;
		while (!CPU_ISSET(cpu, &b->all_cpus))
			cpu++;
	} while (n--);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Run @copies processes that each perform @iters operations of @fn, started
 * together through a pipe that they all block on: the parent closes its end
 * once every copy exists, so fork latency of the copies is not measured
 * unevenly.  Copy i is pinned to the i-th usable CPU (modulo their number)
 * when pinning is on.
 */
static int run_copies(struct bench *b, unsigned int copies, uint64_t iters,
		      int (*fn)(struct bench *, uint64_t, unsigned int),
		      const char *name)
{
	pid_t *pids = calloc(copies, sizeof(*pids));
	int gate[2];
	unsigned int started;
	uint64_t t0;
	int ret = 0;

	if (!pids)
		return fail("%s: out of memory", name);
	if (pipe2(gate, O_CLOEXEC)) {
		free(pids);
		return fail("%s: pipe: %m", name);
	}
	for (started = 0; started < copies; started++) {
		pid_t pid = fork();

		if (pid < 0) {
			ret = fail("%s: fork: %m", name);
			break;
		}
		if (pid == 0) {
			char c;

			close(gate[1]);
			if (b->pin)
				pin_to_nth_cpu(b, started);
			if (read(gate[0], &c, 1) < 0)
				_exit(3);
			_exit(fn(b, iters, started) ? 1 : 0);
		}
		pids[started] = pid;
	}
	close(gate[0]);
	/*
	 * The clock starts when the copies are released, not before they
	 * were forked: creating them is not the workload.
	 */
	t0 = now_ns();
	close(gate[1]);
	for (unsigned int j = 0; j < started; j++)
		if (reap(pids[j], name))
			ret = -1;
	b->batch_ns = now_ns() - t0;
	free(pids);
	return ret;
}

static int spawn_copy(struct bench *b, uint64_t iters, unsigned int idx)
{
	(void)idx;
	return spawn_batch(b, iters);
}

static int spawn1_batch(struct bench *b, uint64_t iters)
{
	return run_copies(b, 1, iters, spawn_copy, "spawn-1");
}

static int spawnn_batch(struct bench *b, uint64_t iters)
{
	return run_copies(b, b->copies, iters, spawn_copy, "spawn-N");
}

/* Read a whole small /proc file, as ps does for every task. */
static void slurp(int dirfd, const char *name)
{
	char buf[4096];
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;		/* the task exited meanwhile: as ps */
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

static int ps_batch(struct bench *b, uint64_t iters)
{
	(void)b;
	for (uint64_t i = 0; i < iters; i++) {
		DIR *proc = opendir("/proc");
		struct dirent *de;

		if (!proc)
			return fail("ps: /proc: %m");
		while ((de = readdir(proc))) {
			int fd;

			if (de->d_name[0] < '0' || de->d_name[0] > '9')
				continue;
			fd = openat(dirfd(proc), de->d_name,
				    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				continue;
			slurp(fd, "stat");
			slurp(fd, "status");
			slurp(fd, "cmdline");
			close(fd);
		}
		closedir(proc);
	}
	return 0;
}

static int sem_setup(struct bench *b)
{
	b->semid = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	if (b->semid < 0) {
		if (errno == ENOSYS) {
			fprintf(stderr, "forkbench: skipping: no SysV IPC\n");
			return SETUP_SKIP;
		}
		return fail("sem: semget: %m");
	}
	if (semctl(b->semid, 0, SETVAL, 1) < 0)
		return fail("sem: semctl SETVAL: %m");
	return 0;
}

static void sem_teardown(struct bench *b)
{
	if (b->semid >= 0)
		(void)semctl(b->semid, 0, IPC_RMID);
	b->semid = -1;
}

static void busy_loop(unsigned int n)
{
	for (volatile unsigned int i = 0; i < n; i++)
		;
}

static int sem_copy(struct bench *b, uint64_t iters, unsigned int idx)
{
	struct sembuf down = { .sem_num = 0, .sem_op = -1 };
	struct sembuf up = { .sem_num = 0, .sem_op = 1 };

	(void)idx;
	for (uint64_t i = 0; i < iters; i++) {
		if (semop(b->semid, &down, 1))
			return fail("sem: semop down: %m");
		busy_loop(b->busy);	/* busy_in */
		if (semop(b->semid, &up, 1))
			return fail("sem: semop up: %m");
		busy_loop(b->busy);	/* busy_out */
	}
	return 0;
}

static int sem_batch(struct bench *b, uint64_t iters)
{
	/*
	 * The copies may run on any CPU: the contention between them is what
	 * the sysvsem seed measured.  run_copies() pins them only if pinning
	 * is on, and sem is a control, so it is not.
	 */
	bool pin = b->pin;
	int ret;

	b->pin = false;
	ret = run_copies(b, b->sem_procs, iters, sem_copy, "sem");
	b->pin = pin;
	return ret;
}

static int storm_batch(struct bench *b, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = start_shell(b->storm, NULL);

		if (pid < 0)
			return fail("storm: fork: %m");
		if (reap(pid, "storm"))
			return -1;
	}
	return 0;
}

static int getppid_batch(struct bench *b, uint64_t iters)
{
	(void)b;
	/* syscall() so that no library cache answers instead of the kernel */
	for (uint64_t i = 0; i < iters; i++)
		(void)syscall(SYS_getppid);
	return 0;
}

static int getpid_batch(struct bench *b, uint64_t iters)
{
	(void)b;
	for (uint64_t i = 0; i < iters; i++)
		(void)syscall(SYS_getpid);
	return 0;
}

/*
 * pipe: a peer process echoes every 4-byte token back; it lives across all
 * batches so that its creation is not timed.
 */
static int pipe_setup(struct bench *b)
{
	if (pipe2(b->pipe_to, O_CLOEXEC) || pipe2(b->pipe_from, O_CLOEXEC))
		return fail("pipe: pipe2: %m");
	b->pipe_peer = fork();
	if (b->pipe_peer < 0)
		return fail("pipe: fork: %m");
	if (b->pipe_peer == 0) {
		uint32_t token;

		close(b->pipe_to[1]);
		close(b->pipe_from[0]);
		while (read(b->pipe_to[0], &token, sizeof(token)) == sizeof(token))
			if (write(b->pipe_from[1], &token, sizeof(token)) != sizeof(token))
				_exit(1);
		_exit(0);
	}
	close(b->pipe_to[0]);
	close(b->pipe_from[1]);
	return 0;
}

static int pipe_batch(struct bench *b, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		uint32_t token = (uint32_t)i, back;

		if (write(b->pipe_to[1], &token, sizeof(token)) != sizeof(token))
			return fail("pipe: write: %m");
		if (read(b->pipe_from[0], &back, sizeof(back)) != sizeof(back) ||
		    back != token)
			return fail("pipe: peer did not echo");
	}
	return 0;
}

static void pipe_teardown(struct bench *b)
{
	if (b->pipe_peer <= 0)
		return;
	close(b->pipe_to[1]);
	close(b->pipe_from[0]);
	(void)reap(b->pipe_peer, "pipe");
	b->pipe_peer = 0;
}

/*
 * spawn-cn: spawn while a process listens on the proc connector for
 * PROC_EVENTS (seed 002, the fork connector thread): with a listener,
 * every fork and exit also builds and multicasts an event.  The listener
 * drains its socket, so that the kernel delivers rather than drops.  Its
 * state is file-static, not in struct bench, to keep the workload in one
 * piece.  Needs CONFIG_PROC_EVENTS and CAP_NET_ADMIN: without them the
 * workload is skipped, saying why.
 */
static pid_t cn_listener;
static int cn_stop = -1;	/* closing it tells the listener to go */

/* Ask for (or stop) the proc events on @fd; the kernel acks (below). */
static int cn_mcast(int fd, enum proc_cn_mcast_op op)
{
	char buf[NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(op))] = { 0 };
	struct nlmsghdr *nl = (struct nlmsghdr *)buf;
	struct cn_msg *cn = NLMSG_DATA(nl);

	nl->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + sizeof(op));
	nl->nlmsg_type = NLMSG_DONE;
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(op);
	memcpy(cn->data, &op, sizeof(op));
	return send(fd, buf, nl->nlmsg_len, 0) < 0 ? -errno : 0;
}

/*
 * The kernel answers LISTEN with a PROC_EVENT_NONE carrying an error
 * (EPERM without CAP_NET_ADMIN): wait for it among other tasks' events.
 */
static int cn_ack(int fd)
{
	for (int tries = 0; tries < 1000; tries++) {
		char msg[4096] __attribute__((aligned(NLMSG_ALIGNTO)));
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct nlmsghdr *nl = (struct nlmsghdr *)msg;
		struct proc_event *ev;
		ssize_t n;

		if (poll(&p, 1, 2000) <= 0)
			return -ETIMEDOUT;
		n = recv(fd, msg, sizeof(msg), 0);
		if (n < 0)
			return -errno;
		if (!NLMSG_OK(nl, (size_t)n) || nl->nlmsg_len <
		    NLMSG_LENGTH(sizeof(struct cn_msg) + sizeof(*ev)))
			continue;
		ev = (struct proc_event *)((struct cn_msg *)NLMSG_DATA(nl))->data;
		if (ev->what == PROC_EVENT_NONE)
			return -(int)ev->event_data.ack.err;
	}
	return -ETIMEDOUT;
}

static int cn_setup(struct bench *b)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = CN_IDX_PROC };
	int fd, stop[2], r;

	(void)b;
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "forkbench: skipping spawn-cn: proc connector: %m (CONFIG_PROC_EVENTS?)\n");
		if (fd >= 0)
			close(fd);
		return SETUP_SKIP;
	}
	r = cn_mcast(fd, PROC_CN_MCAST_LISTEN);
	if (!r)
		r = cn_ack(fd);
	if (r) {
		fprintf(stderr, "forkbench: skipping spawn-cn: listening to proc events: %s\n",
			strerror(-r));
		close(fd);
		return SETUP_SKIP;
	}
	if (pipe2(stop, O_CLOEXEC)) {
		close(fd);
		return fail("spawn-cn: pipe2: %m");
	}
	cn_listener = fork();
	if (cn_listener < 0) {
		close(fd);
		return fail("spawn-cn: fork: %m");
	}
	if (cn_listener == 0) {
		close(stop[1]);
		for (;;) {
			struct pollfd p[2] = { { .fd = fd, .events = POLLIN },
					       { .fd = stop[0], .events = POLLIN } };
			char msg[4096];

			if (poll(p, 2, -1) < 0 && errno != EINTR)
				_exit(1);
			if (p[1].revents) {
				(void)cn_mcast(fd, PROC_CN_MCAST_IGNORE);
				_exit(0);
			}
			/* ENOBUFS: events were dropped; carry on listening. */
			if (p[0].revents && recv(fd, msg, sizeof(msg), MSG_DONTWAIT) < 0 &&
			    errno != EAGAIN && errno != EINTR && errno != ENOBUFS)
				_exit(1);
		}
	}
	close(fd);
	close(stop[0]);
	cn_stop = stop[1];
	return 0;
}

static void cn_teardown(struct bench *b)
{
	(void)b;
	if (cn_listener <= 0)
		return;
	close(cn_stop);
	cn_stop = -1;
	(void)reap(cn_listener, "spawn-cn listener");
	cn_listener = 0;
}

static void *thread_fn(void *arg)
{
	return arg;
}

static int threads_batch(struct bench *b, uint64_t iters)
{
	(void)b;
	for (uint64_t i = 0; i < iters; i++) {
		pthread_t t;
		int err = pthread_create(&t, NULL, thread_fn, NULL);

		if (err) {
			errno = err;
			return fail("threads: pthread_create: %m");
		}
		err = pthread_join(t, NULL);
		if (err) {
			errno = err;
			return fail("threads: pthread_join: %m");
		}
	}
	return 0;
}

/*
 * The child borrows this stack frame until it exits: keep that frame small
 * and separate from the loop so no loop variable can be clobbered.
 */
static pid_t __attribute__((noinline)) vfork_one(void)
{
	pid_t pid = vfork();

	if (pid == 0)
		_exit(0);
	return pid;
}

static int vfork_batch(struct bench *b, uint64_t iters)
{
	(void)b;
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = vfork_one();

		if (pid < 0)
			return fail("vfork: vfork: %m");
		if (reap(pid, "vfork"))
			return -1;
	}
	return 0;
}

static int posix_spawn_batch(struct bench *b, uint64_t iters)
{
	char *const argv[] = { b->target, NULL };
	char *const envp[] = { NULL };

	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid;
		int err = posix_spawn(&pid, b->target, NULL, NULL, argv, envp);

		if (err) {
			errno = err;
			return fail("posix_spawn: %s: %m", b->target);
		}
		if (reap(pid, "posix_spawn"))
			return -1;
	}
	return 0;
}

/* The first version of struct clone_args (CLONE_ARGS_SIZE_VER0). */
struct fb_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls;
};

static int clone3_setup(struct bench *b)
{
	(void)b;
	/* size 0 is always EINVAL where clone3 exists */
	if (syscall(SYS_clone3, NULL, 0) < 0 && errno == ENOSYS) {
		fprintf(stderr, "forkbench: skipping: clone3: %m\n");
		return SETUP_SKIP;
	}
	return 0;
}

static int clone3_batch(struct bench *b, uint64_t iters)
{
	struct fb_clone_args args = { .exit_signal = SIGCHLD };

	(void)b;
	for (uint64_t i = 0; i < iters; i++) {
		long pid = syscall(SYS_clone3, &args, sizeof(args));

		if (pid < 0)
			return fail("clone3: %m");
		/*
		 * The child must not return into libc: glibc does not know
		 * it was cloned and its cached tid is the parent's.
		 */
		if (pid == 0)
			syscall(SYS_exit_group, 0);
		if (reap(pid, "clone3"))
			return -1;
	}
	return 0;
}

static int pidns_setup(struct bench *b)
{
	(void)b;
	if (access("/proc/self/ns/pid", F_OK) && errno == ENOENT) {
		fprintf(stderr, "forkbench: skipping: no pid namespaces\n");
		return SETUP_SKIP;
	}
	return 0;
}

static const struct workload workloads[] = {
	{ "spawn", ROLE_PRIMARY, "fork, child _exit(0), waitpid",
	  1, 0, false, NULL, spawn_batch, NULL },
	{ "exec", ROLE_PRIMARY, "fork + execve of a static _exit(0) target on tmpfs",
	  1, 0, false, NULL, exec_batch, NULL },
	{ "execl", ROLE_SECONDARY, "self re-exec chain without fork, per exec",
	  1, 0, false, NULL, execl_batch, NULL },
	{ "shell-1", ROLE_SECONDARY, "fork + /bin/sh -c target",
	  1, 0, false, shell_setup, shell1_batch, NULL },
	{ "shell-8", ROLE_SECONDARY, "8 concurrent /bin/sh -c target, per shell",
	  8, 0, false, shell_setup, shell8_batch, NULL },
	{ "spawn-1", ROLE_PRIMARY, "spawn in one copy",
	  1, 0, true, NULL, spawn1_batch, NULL },
	{ "spawn-N", ROLE_PRIMARY, "spawn in --copies (nr_cpus) parallel copies, per spawn",
	  0, 0, true, NULL, spawnn_batch, NULL },
	{ "pidns-1", ROLE_PRIMARY, "spawn inside a pid namespace",
	  1, 1, false, pidns_setup, spawn_batch, NULL },
	{ "pidns-3", ROLE_PRIMARY, "spawn inside 3 nested pid namespaces",
	  1, 3, false, pidns_setup, spawn_batch, NULL },
	{ "ps", ROLE_SECONDARY, "/proc walk like ps axf (stat, status, cmdline)",
	  1, 0, false, NULL, ps_batch, NULL },
	{ "sem", ROLE_CONTROL, "--sem-procs processes lock/unlock one SysV semaphore",
	  0, 0, true, sem_setup, sem_batch, sem_teardown },
	{ "storm", ROLE_SECONDARY, "fork-heavy shell script, per script run",
	  1, 0, false, shell_setup, storm_batch, NULL },
	{ "syscall", ROLE_CONTROL, "syscall(SYS_getppid)",
	  1, 0, false, NULL, getppid_batch, NULL },
	{ "getpid", ROLE_CONTROL, "syscall(SYS_getpid)",
	  1, 0, false, NULL, getpid_batch, NULL },
	{ "pipe", ROLE_CONTROL, "pipe ping-pong with a peer process, per round trip",
	  1, 0, false, pipe_setup, pipe_batch, pipe_teardown },
	{ "threads", ROLE_SECONDARY, "pthread_create + pthread_join",
	  1, 0, false, NULL, threads_batch, NULL },
	{ "vfork", ROLE_SECONDARY, "vfork, child _exit(0), waitpid",
	  1, 0, false, NULL, vfork_batch, NULL },
	{ "posix_spawn", ROLE_SECONDARY, "posix_spawn of the target + waitpid",
	  1, 0, false, NULL, posix_spawn_batch, NULL },
	{ "clone3", ROLE_SECONDARY, "raw clone3 (exit_signal SIGCHLD), child exits",
	  1, 0, false, clone3_setup, clone3_batch, NULL },
	{ "spawn-cn", ROLE_SECONDARY, "spawn while a process listens to proc connector events",
	  1, 0, false, cn_setup, spawn_batch, cn_teardown },
	/*
	 * Last in the unshuffled order: after its 256 MiB are freed, the next
	 * workload's first batches ran 43% slow (exec, instruction clock),
	 * long enough to miscalibrate its batch size and skew its boot.
	 */
	{ "spawn-big", ROLE_PRIMARY, "spawn with touched anonymous memory (--big-mib)",
	  1, 0, false, big_setup, spawn_batch, big_teardown },
};

static unsigned int ops_per_iter(const struct bench *b, const struct workload *w)
{
	if (w->ops_per_iter)
		return w->ops_per_iter;
	/* the two multi-copy workloads count every copy's operations */
	return w->batch == sem_batch ? b->sem_procs : b->copies;
}

/* ---- targets on tmpfs --------------------------------------------------- */

/*
 * The exec target: an ELF file with one PT_LOAD segment whose code is
 * exit_group(0).  Writing it here saves shipping a second binary into the
 * initramfs, and it is the smallest thing execve() can load, so the exec
 * workload measures the kernel rather than a loader.
 */
static int write_target(const char *path)
{
#ifdef __x86_64__
	static const unsigned char code[] = {
		0xb8, 0xe7, 0x00, 0x00, 0x00,	/* mov $231, %eax (exit_group) */
		0x31, 0xff,			/* xor %edi, %edi */
		0x0f, 0x05,			/* syscall */
	};
	const uint64_t base = 0x400000;
	unsigned char image[sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) + sizeof(code)];
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT, ELFOSABI_SYSV },
		.e_type = ET_EXEC,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_entry = base + sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr),
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 1,
	};
	Elf64_Phdr ph = {
		.p_type = PT_LOAD,
		.p_flags = PF_R | PF_X,
		.p_offset = 0,
		.p_vaddr = base,
		.p_paddr = base,
		.p_filesz = sizeof(image),
		.p_memsz = sizeof(image),
		.p_align = 0x1000,
	};
	int fd;

	memcpy(image, &eh, sizeof(eh));
	memcpy(image + sizeof(eh), &ph, sizeof(ph));
	memcpy(image + sizeof(eh) + sizeof(ph), code, sizeof(code));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (fd < 0)
		return fail("%s: %m", path);
	if (write(fd, image, sizeof(image)) != (ssize_t)sizeof(image)) {
		close(fd);
		return fail("%s: write: %m", path);
	}
	return close(fd) ? fail("%s: close: %m", path) : 0;
#else
	return fail("no built-in exec target for this architecture: use --target");
#endif
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail("%s: %m", from);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return fail("%s: %m", to);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	}
	close(in);
	if (n < 0 || close(out))
		return fail("copying %s to %s: %m", from, to);
	return 0;
}

static int write_storm(const char *path, const char *target)
{
	FILE *f;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0 || !(f = fdopen(fd, "w")))
		return fail("%s: %m", path);
	/*
	 * Pipelines (concurrent children), subshells, command substitution
	 * and exec of an external program: the kinds of fork a shell script
	 * does.  No background jobs: a shell gives them /dev/null as stdin,
	 * and a bare initramfs may have no /dev/null.  set -e makes a failed
	 * step fail the run rather than quietly measure less work.
	 */
	fprintf(f,
		"set -e\n"
		"i=0\n"
		"while [ $i -lt 10 ]; do\n"
		"\t%s | %s\n"
		"\t( %s )\n"
		"\t( : ) | %s\n"
		"\tx=$(%s)\n"
		"\ti=$((i + 1))\n"
		"done\n", target, target, target, target, target);
	return fclose(f) ? fail("%s: %m", path) : 0;
}

#ifndef RAMFS_MAGIC
#define RAMFS_MAGIC 0x858458f6
#endif

static bool in_memory(const char *path)
{
	struct statfs sfs;

	return !statfs(path, &sfs) &&
	       (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC);
}

/*
 * A directory for the targets: the first candidate in memory (tmpfs, or the
 * ramfs of an initramfs) that allows exec, else the first that works at all.
 * --tmpdir is taken as given.
 */
static int make_tmpdir(struct bench *b)
{
	const char *cands[7];
	size_t nr = 0;
	const char *env;

	if (b->tmpdir_base) {
		cands[nr++] = b->tmpdir_base;
	} else {
		env = getenv("FORKBENCH_TMPDIR");
		if (env && *env)
			cands[nr++] = env;
		cands[nr++] = "/dev/shm";
		env = getenv("TMPDIR");
		if (env && *env)
			cands[nr++] = env;
		cands[nr++] = "/tmp";
		cands[nr++] = "/run";
		cands[nr++] = "/";
	}
	for (int pass = 0; pass < 2 && !b->tmpdir[0]; pass++) {
		for (size_t i = 0; i < nr; i++) {
			struct statvfs vfs;

			if (statvfs(cands[i], &vfs) || (vfs.f_flag & ST_NOEXEC))
				continue;
			if (pass == 0 && !b->tmpdir_base && !in_memory(cands[i]))
				continue;
			snprintf(b->tmpdir, sizeof(b->tmpdir), "%s%sforkbench.XXXXXX",
				 cands[i], cands[i][strlen(cands[i]) - 1] == '/' ? "" : "/");
			if (mkdtemp(b->tmpdir))
				break;
			b->tmpdir[0] = '\0';
		}
	}
	if (!b->tmpdir[0])
		return fail("no usable temporary directory (try --tmpdir)");
	b->tmpdir_is_tmpfs = in_memory(b->tmpdir);
	if (!b->tmpdir_is_tmpfs)
		fprintf(stderr, "forkbench: warning: %s is not in memory (tmpfs)\n",
			b->tmpdir);
	return 0;
}

static int prepare_files(struct bench *b)
{
	if (make_tmpdir(b))
		return -1;
	snprintf(b->target, sizeof(b->target), "%s/target", b->tmpdir);
	snprintf(b->self, sizeof(b->self), "%s/forkbench", b->tmpdir);
	snprintf(b->storm, sizeof(b->storm), "%s/storm.sh", b->tmpdir);
	if (b->target_arg) {
		if (copy_file(b->target_arg, b->target, 0755))
			return -1;
	} else if (write_target(b->target)) {
		return -1;
	}
	b->made_target = true;
	if (copy_file("/proc/self/exe", b->self, 0755))
		return -1;
	b->made_self = true;
	if (write_storm(b->storm, b->target))
		return -1;
	b->made_storm = true;
	return 0;
}

static void remove_files(struct bench *b)
{
	if (b->made_target)
		unlink(b->target);
	if (b->made_self)
		unlink(b->self);
	if (b->made_storm)
		unlink(b->storm);
	if (b->tmpdir[0])
		rmdir(b->tmpdir);
}

/* ---- the harness -------------------------------------------------------- */

/*
 * Make the next fork of this pid namespace get pid b->pid_base.  The cost
 * of allocating a pid depends on its number (the depth of the pid IDR, the
 * search after pid_max wraps), and which numbers a workload gets depends on
 * how many processes ran before it, that is on the randomised order.
 * Restarting every batch at the same number removes that from the samples.
 */
static int reset_pid(const struct bench *b)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu", b->pid_base - 1);
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return fail("--pid-base: /proc/sys/kernel/ns_last_pid: %m");
	if (write(fd, buf, len) != len) {
		close(fd);
		return fail("--pid-base: writing ns_last_pid: %m");
	}
	close(fd);
	return 0;
}

static int take_sample(struct bench *b, const struct workload *w,
		       uint64_t iters, struct sample *s)
{
	struct rusage self0, self1, kids0, kids1;
	uint64_t t0, t1;

	if (b->pid_base && reset_pid(b))
		return -1;
	s->cpu = sched_getcpu();
	getrusage(RUSAGE_SELF, &self0);
	getrusage(RUSAGE_CHILDREN, &kids0);
	b->batch_ns = 0;
	t0 = now_ns();
	if (w->batch(b, iters))
		return -1;
	t1 = now_ns();
	if (b->batch_ns)
		t1 = t0 + b->batch_ns;
	getrusage(RUSAGE_SELF, &self1);
	getrusage(RUSAGE_CHILDREN, &kids1);
	s->cpu_end = sched_getcpu();

	s->ops = iters * ops_per_iter(b, w);
	s->elapsed_ns = t1 - t0;
	s->ns_per_op = (double)s->elapsed_ns / s->ops;
	s->user_ns = tv_ns(&self1.ru_utime) - tv_ns(&self0.ru_utime);
	s->sys_ns = tv_ns(&self1.ru_stime) - tv_ns(&self0.ru_stime);
	s->cusr_ns = tv_ns(&kids1.ru_utime) - tv_ns(&kids0.ru_utime);
	s->csys_ns = tv_ns(&kids1.ru_stime) - tv_ns(&kids0.ru_stime);
	return 0;
}

/* What measure() found besides the samples. */
struct measured {
	uint64_t iters;		/* operations per batch */
	uint64_t nr;		/* samples recorded */
	uint32_t warmup;	/* full batches discarded after calibration */
	uint32_t settled;	/* whether the last two of them agreed */
	double warm_ns[WARMUP_SHOWN];	/* their ns/op */
};

/*
 * Calibrate, warm up and sample one workload in the calling process.  The
 * calibration doubles the batch until it lasts --min-batch-ms; those batches
 * are the first part of the warm-up (they also pull every target into the
 * page cache).  Then at least --warmup full batches are discarded, and more
 * until two in a row agree within --settle, at most --warmup-max.
 *
 * Why not a fixed count: what ran before can leave the kernel in a state
 * that takes a while to wear off.  After spawn-big frees its 256 MiB, exec's
 * first batches ran 30-45% slow on the instruction clock; two fixed warm-up
 * batches did not always cover that, and the slow phase could also end the
 * calibration early with too small a batch.  A batch that comes out shorter
 * than --min-batch-ms is the sign of the latter: the batch doubles and the
 * agreement starts over.
 */
static int measure(struct bench *b, const struct workload *w,
		   struct sample *out, size_t max, struct measured *m)
{
	struct sample s;
	uint64_t iters = b->fixed_iters ? b->fixed_iters : 1;
	uint64_t start;
	double prev = 0;
	uint32_t warm = 0;
	bool settled = b->warmup == 0 || b->settle <= 0;
	size_t nr = 0;

	if (!b->fixed_iters) {
		for (;;) {
			if (take_sample(b, w, iters, &s))
				return -1;
			if (s.elapsed_ns >= b->min_batch_ns || iters >= (1ULL << 40))
				break;
			iters *= 2;
		}
	}
	while (warm < b->warmup_max) {
		bool agree;

		if (warm >= b->warmup && settled)
			break;
		if (take_sample(b, w, iters, &s))
			return -1;
		if (warm < WARMUP_SHOWN)
			m->warm_ns[warm] = s.ns_per_op;
		warm++;
		if (!b->fixed_iters && s.elapsed_ns < b->min_batch_ns &&
		    iters < (1ULL << 40)) {
			iters *= 2;
			prev = 0;
			settled = b->settle <= 0;
			continue;
		}
		agree = prev > 0 &&
			fabs(s.ns_per_op - prev) <= b->settle * fmin(s.ns_per_op, prev);
		settled = b->settle <= 0 || agree;
		prev = s.ns_per_op;
	}
	if (warm < b->warmup)
		settled = false;

	start = now_ns();
	while (nr < max) {
		if (take_sample(b, w, iters, &out[nr]))
			return -1;
		nr++;
		if (b->duration > 0 &&
		    now_ns() - start >= (uint64_t)(b->duration * NSEC_PER_SEC))
			break;
	}
	m->iters = iters;
	m->nr = nr;
	m->warmup = warm;
	m->settled = settled;
	return 0;
}

static bool read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

static bool write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

/*
 * Descend @depth pid namespaces and measure there; the samples come back
 * over a pipe.  unshare(CLONE_NEWPID) only moves the caller's future
 * children, and once the namespace's first child (its init) has exited
 * every later fork() in the caller fails with ENOMEM: so the unsharing is
 * done in throw-away children, never in the harness (KERNEL-NOTES.md).
 *
 *   harness -- fork --> A: unshare, fork --> B (pid 1 in ns 1)
 *                        B: unshare, fork --> C (pid 1 in ns 2) ...
 *   the innermost process measures and writes its samples to the pipe;
 *   every level reaps its child and passes its exit status up.
 */
static int measure_in_pidns(struct bench *b, const struct workload *w,
			    struct sample *out, size_t max, struct measured *m)
{
	int fds[2];
	pid_t pid;
	struct measured hdr;
	int ret = 0;

	if (pipe2(fds, O_CLOEXEC))
		return fail("%s: pipe: %m", w->name);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return fail("%s: fork: %m", w->name);
	}
	if (pid == 0) {
		close(fds[0]);
		for (unsigned int level = 0; level < w->pidns_depth; level++) {
			pid_t child;

			if (unshare(CLONE_NEWPID)) {
				fail("%s: unshare(CLONE_NEWPID): %m", w->name);
				_exit(errno == EPERM ? 77 : 1);
			}
			child = fork();
			if (child < 0) {
				fail("%s: fork: %m", w->name);
				_exit(1);
			}
			if (child > 0) {
				int status;

				close(fds[1]);
				if (waitpid(child, &status, 0) < 0)
					_exit(1);
				_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
			}
		}
		if (getpid() != 1) {
			fail("%s: not pid 1 in the new namespace", w->name);
			_exit(1);
		}
		if (measure(b, w, out, max, &hdr))
			_exit(1);
		if (!write_all(fds[1], &hdr, sizeof(hdr)) ||
		    !write_all(fds[1], out, hdr.nr * sizeof(*out)))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (!read_all(fds[0], &hdr, sizeof(hdr)) || hdr.nr > max ||
	    !read_all(fds[0], out, hdr.nr * sizeof(*out)))
		ret = -1;
	close(fds[0]);
	{
		int status;

		if (waitpid(pid, &status, 0) < 0)
			return fail("%s: waitpid: %m", w->name);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
			return SETUP_SKIP;
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return fail("%s: measuring process failed", w->name);
	}
	if (ret)
		return fail("%s: short read of the samples", w->name);
	*m = hdr;
	return 0;
}

static int set_affinity(struct bench *b, const struct workload *w, bool *pinned)
{
	cpu_set_t set;

	*pinned = b->pin && w->role == ROLE_PRIMARY && !w->own_affinity;
	if (!*pinned)
		return sched_setaffinity(0, sizeof(b->all_cpus), &b->all_cpus);
	CPU_ZERO(&set);
	CPU_SET(b->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return fail("cannot pin to CPU %d: %m", b->cpu);
	return 0;
}

/*
 * Set up, measure and tear down one workload in the calling process.
 * Returns 0, SETUP_SKIP or -1, with the reason for the latter two in why.
 */
static int measure_workload(struct bench *b, const struct workload *w,
			    struct sample *out, size_t max, struct measured *m,
			    char *why, size_t whylen)
{
	int ret;

	if (w->setup) {
		ret = w->setup(b);
		if (ret == SETUP_SKIP) {
			snprintf(why, whylen, "not supported here");
			return SETUP_SKIP;
		}
		if (ret) {
			snprintf(why, whylen, "setup failed");
			if (w->teardown)
				w->teardown(b);
			return -1;
		}
	}
	if (w->pidns_depth)
		ret = measure_in_pidns(b, w, out, max, m);
	else
		ret = measure(b, w, out, max, m);
	if (w->teardown)
		w->teardown(b);
	if (ret == SETUP_SKIP) {
		fprintf(stderr, "forkbench: skipping %s: no permission for pid namespaces\n",
			w->name);
		snprintf(why, whylen, "no permission for pid namespaces");
	} else if (ret) {
		snprintf(why, whylen, "measurement failed");
	}
	return ret;
}

struct runner_report {
	int32_t status;		/* 0, SETUP_SKIP or -1 */
	struct measured m;
	char why[sizeof(((struct result *)0)->reason)];
};

/*
 * Every workload runs in a fresh child of the harness, a copy of the same
 * untouched process each time.  A workload can change its process for
 * good: on the instruction clock, spawn costs 40% more in a process that
 * has once run pthread_create() (measured with the threads workload before
 * spawn).  Run in one process, the randomised workload order would turn
 * that into spurious variance between boots, or into a bias when the order
 * is fixed.  The harness itself allocates nothing between runners (the
 * sample buffers exist before the first one), so each runner starts from
 * the same memory layout.
 */
static void run_workload(struct bench *b, struct result *r)
{
	const struct workload *w = r->w;
	struct runner_report rep = { .status = -1 };
	int fds[2], status;
	pid_t pid;

	r->state = RESULT_ERROR;
	if (set_affinity(b, w, &r->pinned)) {
		snprintf(r->reason, sizeof(r->reason), "cannot set CPU affinity");
		return;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(r->reason, sizeof(r->reason), "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(r->reason, sizeof(r->reason), "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		rep.status = measure_workload(b, w, r->samples, b->samples,
					      &rep.m, rep.why, sizeof(rep.why));
		if (rep.status)
			rep.m.nr = 0;
		if (!write_all(fds[1], &rep, sizeof(rep)) ||
		    !write_all(fds[1], r->samples, rep.m.nr * sizeof(*r->samples)))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (!read_all(fds[0], &rep, sizeof(rep)) || rep.m.nr > b->samples ||
	    !read_all(fds[0], r->samples, rep.m.nr * sizeof(*r->samples))) {
		rep.status = -1;
		rep.m.nr = 0;
		snprintf(rep.why, sizeof(rep.why), "the measuring process died");
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rep.why[sizeof(rep.why) - 1] = '\0';
	memcpy(r->reason, rep.why, sizeof(r->reason));
	r->iters = rep.m.iters;
	r->nr_samples = rep.m.nr;
	r->warmup = rep.m.warmup;
	r->settled = rep.m.settled;
	memcpy(r->warm_ns, rep.m.warm_ns, sizeof(r->warm_ns));
	if (rep.status == SETUP_SKIP)
		r->state = RESULT_SKIPPED;
	else if (rep.status == 0)
		r->state = RESULT_OK;
}

/* ---- reporting ---------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* First line of a small file, without its newline; "" when unreadable. */
static char *read_line(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");

	if (f) {
		if (getline(&line, &cap, f) < 0) {
			free(line);
			line = NULL;
		}
		fclose(f);
	}
	if (!line)
		return strdup("");
	line[strcspn(line, "\n")] = '\0';
	return line;
}

static char *cpu_model(void)
{
	char *line = NULL;
	size_t cap = 0;
	char *model = NULL;
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		model = strdup(colon);
		break;
	}
	free(line);
	if (f)
		fclose(f);
	return model ? model : strdup("");
}

/*
 * The kernel's GNU build ID, from the ELF notes the kernel exports, as hex;
 * "" when there is none.  It names the exact kernel binary a result came
 * from, which the release string does not.
 */
static char *kernel_build_id(void)
{
	unsigned char buf[4096];
	char *hex = calloc(1, 2 * 64 + 1);
	ssize_t len = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (!hex)
		die("out of memory");
	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf));
		close(fd);
	}
	/* Elf64_Nhdr and Elf32_Nhdr are the same: three 32-bit words */
	for (ssize_t off = 0; off + (ssize_t)sizeof(Elf64_Nhdr) <= len;) {
		Elf64_Nhdr nh;
		size_t name, desc;

		memcpy(&nh, buf + off, sizeof(nh));
		name = (nh.n_namesz + 3) & ~3U;
		desc = (nh.n_descsz + 3) & ~3U;
		if (off + sizeof(nh) + name + desc > (size_t)len)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + off + sizeof(nh), "GNU", 4) && nh.n_descsz <= 64) {
			const unsigned char *id = buf + off + sizeof(nh) + name;

			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(hex + 2 * i, "%02x", id[i]);
			break;
		}
		off += sizeof(nh) + name + desc;
	}
	return hex;
}

/* The value of word "key=value" on the kernel command line, or NULL. */
static char *cmdline_word(const char *cmdline, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = cmdline; p && *p;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return strndup(p + klen + 1, len - klen - 1);
		p += len;
	}
	return NULL;
}

static void json_env(struct bench *b, FILE *f, const struct workload **order,
		     size_t nr)
{
	struct utsname u;
	char *cmdline = read_line("/proc/cmdline");
	char *version = read_line("/proc/version");
	char *aslr = read_line("/proc/sys/kernel/randomize_va_space");
	char *model = cpu_model();
	char *accel = cmdline_word(cmdline, "hijack_accel");
	char *build_id = kernel_build_id();
	DIR *vulns;

	/* the harness may know better than the guest: --tag accelerator=... */
	for (size_t i = 0; !accel && i < b->nr_tags; i++)
		if (!strncmp(b->tags[i], "accelerator=", 12))
			accel = strdup(b->tags[i] + 12);

	uname(&u);
	fprintf(f, "  \"env\": {\n    \"sysname\": ");
	hj_json_string(f, u.sysname);
	fprintf(f, ",\n    \"release\": ");
	hj_json_string(f, u.release);
	fprintf(f, ",\n    \"version\": ");
	hj_json_string(f, u.version);
	fprintf(f, ",\n    \"build_id\": ");
	hj_json_string(f, build_id);
	fprintf(f, ",\n    \"machine\": ");
	hj_json_string(f, u.machine);
	fprintf(f, ",\n    \"proc_version\": ");
	hj_json_string(f, version);
	fprintf(f, ",\n    \"cmdline\": ");
	hj_json_string(f, cmdline);
	fprintf(f, ",\n    \"nr_cpus\": %d,\n    \"cpu_model\": ", b->nr_cpus);
	hj_json_string(f, model);
	fprintf(f, ",\n    \"accelerator\": ");
	hj_json_string(f, accel ? accel : "unknown");
	fprintf(f, ",\n    \"randomize_va_space\": ");
	hj_json_string(f, aslr);
	fprintf(f, ",\n    \"addr_no_randomize\": %s",
		personality(0xffffffff) & ADDR_NO_RANDOMIZE ? "true" : "false");
	fprintf(f, ",\n    \"tmpdir_in_memory\": %s",
		b->tmpdir_is_tmpfs ? "true" : "false");
	fprintf(f, ",\n    \"mitigations\": {");
	vulns = opendir("/sys/devices/system/cpu/vulnerabilities");
	if (vulns) {
		struct dirent *de;
		bool first = true;

		while ((de = readdir(vulns))) {
			char path[PATH_MAX];
			char *val;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/vulnerabilities/%s",
				 de->d_name);
			val = read_line(path);
			fprintf(f, "%s\n      ", first ? "" : ",");
			hj_json_string(f, de->d_name);
			fputs(": ", f);
			hj_json_string(f, val);
			free(val);
			first = false;
		}
		closedir(vulns);
	}
	fprintf(f, "},\n    \"tags\": {");
	for (size_t i = 0; i < b->nr_tags; i++) {
		char *eq = strchr(b->tags[i], '=');

		fprintf(f, "%s\n      ", i ? "," : "");
		*eq = '\0';
		hj_json_string(f, b->tags[i]);
		fputs(": ", f);
		hj_json_string(f, eq + 1);
		*eq = '=';
	}
	fprintf(f, "}\n  },\n  \"options\": {\n");
	fprintf(f, "    \"samples\": %zu,\n    \"min_batch_ms\": %.3f,\n",
		b->samples, b->min_batch_ns / 1e6);
	fprintf(f, "    \"warmup_batches\": %u,\n    \"warmup_max\": %u,\n"
		"    \"settle_pct\": %g,\n    \"duration_s\": %g,\n",
		b->warmup, b->warmup_max, 100 * b->settle, b->duration);
	if (b->have_seed)
		fprintf(f, "    \"seed\": %" PRIu64 ",\n", b->seed);
	else
		fprintf(f, "    \"seed\": null,\n");
	fprintf(f, "    \"order_as_listed\": %s,\n", b->as_listed ? "true" : "false");
	fprintf(f, "    \"pin\": %s,\n    \"cpu\": %d,\n", b->pin ? "true" : "false",
		b->cpu);
	fprintf(f, "    \"big_mib\": %zu,\n    \"sem_procs\": %u,\n    \"busy\": %u,\n",
		b->big_mib, b->sem_procs, b->busy);
	fprintf(f, "    \"copies\": %u,\n    \"pid_base\": %lu,\n    \"order\": [",
		b->copies, b->pid_base);
	for (size_t i = 0; i < nr; i++) {
		fputs(i ? ", " : "", f);
		hj_json_string(f, order[i]->name);
	}
	fprintf(f, "]\n  },\n");
	free(cmdline);
	free(version);
	free(aslr);
	free(model);
	free(accel);
	free(build_id);
}

static void print_json(struct bench *b, FILE *f, struct result *res,
		       const struct workload **order, size_t nr)
{
	fprintf(f, "{\n  \"forkbench\": " FORKBENCH_VERSION ",\n  \"unit\": \"ns/op\",\n");
	json_env(b, f, order, nr);
	fprintf(f, "  \"workloads\": [");
	for (size_t i = 0; i < nr; i++) {
		struct result *r = &res[i];

		fprintf(f, "%s\n    {\n      \"name\": ", i ? "," : "");
		hj_json_string(f, r->w->name);
		fprintf(f, ",\n      \"role\": \"%s\",\n      \"what\": ",
			role_name[r->w->role]);
		hj_json_string(f, r->w->what);
		fprintf(f, ",\n      \"pinned\": %s,\n      \"iterations\": %" PRIu64,
			r->pinned ? "true" : "false", r->iters);
		if (r->state == RESULT_OK) {
			fprintf(f, ",\n      \"warmup\": %" PRIu32 ",\n      \"settled\": %s"
				",\n      \"warmup_ns_per_op\": [",
				r->warmup, r->settled ? "true" : "false");
			for (uint32_t j = 0; j < r->warmup && j < WARMUP_SHOWN; j++)
				fprintf(f, "%s%.3f", j ? ", " : "", r->warm_ns[j]);
			fputc(']', f);
		}
		if (r->state != RESULT_OK) {
			fprintf(f, ",\n      \"%s\": ",
				r->state == RESULT_SKIPPED ? "skipped" : "error");
			hj_json_string(f, r->reason);
		}
		fprintf(f, ",\n      \"samples\": [");
		for (size_t j = 0; j < r->nr_samples; j++) {
			struct sample *s = &r->samples[j];

			fprintf(f, "%s\n        {\"ns_per_op\": %.3f, \"batch\": %" PRIu64
				", \"elapsed_ns\": %" PRIu64 ", \"user_ns\": %" PRIu64
				", \"sys_ns\": %" PRIu64 ", \"cusr_ns\": %" PRIu64
				", \"csys_ns\": %" PRIu64 ", \"cpu\": %d, \"cpu_end\": %d}",
				j ? "," : "", s->ns_per_op, s->ops, s->elapsed_ns,
				s->user_ns, s->sys_ns, s->cusr_ns, s->csys_ns,
				s->cpu, s->cpu_end);
		}
		fprintf(f, "%s]\n    }", r->nr_samples ? "\n      " : "");
	}
	fprintf(f, "\n  ]\n}\n");
}

static void print_table(FILE *f, struct result *res, size_t nr)
{
	fprintf(f, "%-12s %-9s %3s %9s %12s %12s %12s %6s %12s\n", "workload",
		"role", "n", "batch", "median", "min", "max", "cv%",
		"sys/op");
	for (size_t i = 0; i < nr; i++) {
		struct result *r = &res[i];
		size_t n = r->nr_samples;
		double *v, *sys, mean = 0, var = 0;

		if (r->state != RESULT_OK || !n) {
			fprintf(f, "%-12s %-9s %s: %s\n", r->w->name,
				role_name[r->w->role],
				r->state == RESULT_SKIPPED ? "skipped" : "error",
				r->state != RESULT_OK ? r->reason : "no samples");
			continue;
		}
		v = calloc(n, sizeof(*v));
		sys = calloc(n, sizeof(*sys));
		if (!v || !sys)
			die("out of memory");
		for (size_t j = 0; j < n; j++) {
			struct sample *s = &r->samples[j];

			v[j] = s->ns_per_op;
			sys[j] = (double)(s->sys_ns + s->csys_ns) / s->ops;
			mean += v[j] / n;
		}
		for (size_t j = 0; j < n; j++)
			var += (v[j] - mean) * (v[j] - mean) / (n > 1 ? n - 1 : 1);
		fprintf(f, "%-12s %-9s %3zu %9" PRIu64 " %12.1f", r->w->name,
			role_name[r->w->role], n, r->samples[0].ops,
			median_of(v, n));
		fprintf(f, " %12.1f %12.1f %6.2f %12.1f\n", v[0], v[n - 1],
			mean > 0 ? 100 * sqrt(var) / mean : 0,
			median_of(sys, n));
		free(v);
		free(sys);
	}
	fprintf(f, "(ns per operation, CLOCK_MONOTONIC; sys/op = system time of process and children)\n");
}

/* ---- command line ------------------------------------------------------- */

static void usage(void)
{
	printf("Usage: forkbench [options]\n\n"
	       "Measure the cost of process creation and its controls.\n\n"
	       "Options:\n"
	       "  -w, --workloads=LIST    comma-separated workloads (default: all), run\n"
	       "                          in the order of --list whatever LIST's order\n"
	       "  -l, --list              list the workloads and their roles\n"
	       "  -n, --samples=N         samples per workload (default 10)\n"
	       "  -m, --min-batch-ms=MS   minimum duration of one batch (default 10)\n"
	       "      --batch=N           fixed iterations per batch, no calibration\n"
	       "      --warmup=N          warm-up batches after calibration (default 2)\n"
	       "      --settle=PCT        then warm up until two batches in a row agree\n"
	       "                          within PCT (default 2; 0: exactly --warmup)\n"
	       "      --warmup-max=N      at most N warm-up batches (default 10)\n"
	       "      --order=listed      run --workloads as listed, repeats allowed\n"
	       "                          (default: the order of --list)\n"
	       "  -d, --duration=SECS     stop sampling a workload after SECS\n"
	       "  -s, --seed=N            randomise the workload order with seed N\n"
	       "  -j, --json              print one JSON document\n"
	       "  -t, --tag=KEY=VALUE     record KEY=VALUE in the environment\n"
	       "      --cpu=N             CPU for pinned (primary) workloads (default 0)\n"
	       "      --no-pin            never pin\n"
	       "      --aslr              keep address space randomisation\n"
	       "      --big-mib=N         memory of spawn-big in MiB (default 256)\n"
	       "      --copies=N          copies of spawn-N (default nr_cpus)\n"
	       "      --pid-base=N        start every batch's forks at pid N (ns_last_pid)\n"
	       "      --sem-procs=N       processes of sem (default 4)\n"
	       "      --busy=N            busy_in/busy_out loop of sem (default 10)\n"
	       "      --tmpdir=DIR        where to put the targets (default a tmpfs)\n"
	       "      --target=PATH       exec target instead of the built-in one\n"
	       "  -h, --help              display this help\n"
	       "  -V, --version           display version\n\n"
	       "Exit status: 0 all requested workloads ran, 1 a workload failed,\n"
	       "2 usage error.  See tests/bench/README.md.\n");
}

static unsigned long long parse_num(const char *arg, const char *opt,
				    unsigned long long min, unsigned long long max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "forkbench: --%s: '%s' is not a number in [%llu, %llu]\n",
			opt, arg, min, max);
		exit(2);
	}
	return v;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static const struct workload *find_workload(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
		if (strlen(workloads[i].name) == len &&
		    !strncmp(workloads[i].name, name, len))
			return &workloads[i];
	return NULL;
}

/*
 * Turn address space randomisation off for this process and everything it
 * starts: the page-table footprint of fork depends on the layout otherwise,
 * and changes run to run.  personality() takes effect at the next execve, so
 * re-execute once.
 */
static void no_aslr(char **argv)
{
	int pers = personality(0xffffffff);

	if (pers < 0 || (pers & ADDR_NO_RANDOMIZE))
		return;
	if (personality(pers | ADDR_NO_RANDOMIZE) < 0) {
		fprintf(stderr, "forkbench: warning: personality: %m: ASLR stays on\n");
		return;
	}
	execv("/proc/self/exe", argv);
	fprintf(stderr, "forkbench: warning: re-exec /proc/self/exe: %m: ASLR stays on\n");
}

enum {
	OPT_BATCH = CHAR_MAX + 1,
	OPT_WARMUP,
	OPT_WARMUP_MAX,
	OPT_SETTLE,
	OPT_ORDER,
	OPT_CPU,
	OPT_NO_PIN,
	OPT_ASLR,
	OPT_BIG_MIB,
	OPT_COPIES,
	OPT_PID_BASE,
	OPT_SEM_PROCS,
	OPT_BUSY,
	OPT_TMPDIR,
	OPT_TARGET,
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "workloads", required_argument, NULL, 'w' },
		{ "list", no_argument, NULL, 'l' },
		{ "samples", required_argument, NULL, 'n' },
		{ "min-batch-ms", required_argument, NULL, 'm' },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "warmup-max", required_argument, NULL, OPT_WARMUP_MAX },
		{ "settle", required_argument, NULL, OPT_SETTLE },
		{ "order", required_argument, NULL, OPT_ORDER },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "tag", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "no-pin", no_argument, NULL, OPT_NO_PIN },
		{ "aslr", no_argument, NULL, OPT_ASLR },
		{ "big-mib", required_argument, NULL, OPT_BIG_MIB },
		{ "copies", required_argument, NULL, OPT_COPIES },
		{ "pid-base", required_argument, NULL, OPT_PID_BASE },
		{ "sem-procs", required_argument, NULL, OPT_SEM_PROCS },
		{ "busy", required_argument, NULL, OPT_BUSY },
		{ "tmpdir", required_argument, NULL, OPT_TMPDIR },
		{ "target", required_argument, NULL, OPT_TARGET },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench b = {
		.samples = 10,
		.min_batch_ns = 10 * 1000000ULL,
		.warmup = 2,
		.settle = 0.02,
		.pin = true,
		.big_mib = 256,
		.sem_procs = 4,
		.busy = 10,
		.semid = -1,
	};
	const struct workload *order[ARRAY_SIZE(workloads)];
	bool chosen[ARRAY_SIZE(workloads)] = { false };
	bool warmup_max_given = false;
	char **saved_argv;
	const char *list = NULL;
	struct result *res;
	size_t nr = 0;
	bool failed = false;
	int c;

	/* one link of the execl chain: nothing else may run before it */
	if (argc == 3 && !strcmp(argv[1], EXECL_CHAIN_ARG))
		execl_chain("/proc/self/exe", argv[2]);

	/* getopt permutes argv; the ASLR re-exec needs it as it was */
	saved_argv = calloc(argc + 1, sizeof(*saved_argv));
	if (!saved_argv)
		die("out of memory");
	memcpy(saved_argv, argv, argc * sizeof(*argv));

	while ((c = getopt_long(argc, argv, "w:ln:m:d:s:jt:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			list = optarg;
			break;
		case 'l':
			for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
				printf("%-12s %-9s %s\n", workloads[i].name,
				       role_name[workloads[i].role],
				       workloads[i].what);
			return 0;
		case 'n':
			b.samples = parse_num(optarg, "samples", 1, 100000);
			b.samples_given = true;
			break;
		case 'm': {
			char *end;

			errno = 0;
			double ms = strtod(optarg, &end);

			if (errno || *end || !(ms >= 0) || ms > 1e6) {
				fprintf(stderr, "forkbench: --min-batch-ms: bad value '%s'\n", optarg);
				return 2;
			}
			b.min_batch_ns = (uint64_t)(ms * 1e6);
			break;
		}
		case OPT_BATCH:
			b.fixed_iters = parse_num(optarg, "batch", 1, 1ULL << 40);
			break;
		case OPT_WARMUP:
			b.warmup = parse_num(optarg, "warmup", 0, 1000);
			break;
		case OPT_WARMUP_MAX:
			b.warmup_max = parse_num(optarg, "warmup-max", 0, 1000);
			warmup_max_given = true;
			break;
		case OPT_SETTLE: {
			char *end;

			errno = 0;
			double pct = strtod(optarg, &end);

			if (errno || *end || end == optarg || !(pct >= 0) || pct > 100) {
				fprintf(stderr, "forkbench: --settle: '%s' is not a percentage in [0, 100]\n",
					optarg);
				return 2;
			}
			b.settle = pct / 100;
			break;
		}
		case OPT_ORDER:
			if (strcmp(optarg, "listed") && strcmp(optarg, "canonical")) {
				fprintf(stderr, "forkbench: --order: expected 'listed' or 'canonical', not '%s'\n",
					optarg);
				return 2;
			}
			b.as_listed = !strcmp(optarg, "listed");
			break;
		case 'd': {
			char *end;

			errno = 0;
			b.duration = strtod(optarg, &end);
			if (errno || *end || !(b.duration > 0)) {
				fprintf(stderr, "forkbench: --duration: bad value '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 's':
			b.seed = parse_num(optarg, "seed", 0, UINT64_MAX);
			b.have_seed = true;
			break;
		case 'j':
			b.json = true;
			break;
		case 't':
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				fprintf(stderr, "forkbench: --tag: expected KEY=VALUE, got '%s'\n", optarg);
				return 2;
			}
			b.tags = realloc(b.tags, (b.nr_tags + 1) * sizeof(*b.tags));
			if (!b.tags)
				die("out of memory");
			b.tags[b.nr_tags++] = optarg;
			break;
		case OPT_CPU:
			b.cpu = parse_num(optarg, "cpu", 0, CPU_SETSIZE - 1);
			break;
		case OPT_NO_PIN:
			b.pin = false;
			break;
		case OPT_ASLR:
			b.keep_aslr = true;
			break;
		case OPT_BIG_MIB:
			b.big_mib = parse_num(optarg, "big-mib", 1, 1 << 20);
			break;
		case OPT_COPIES:
			b.copies = parse_num(optarg, "copies", 1, 4096);
			break;
		case OPT_PID_BASE:
			b.pid_base = parse_num(optarg, "pid-base", 2, 1 << 22);
			break;
		case OPT_SEM_PROCS:
			b.sem_procs = parse_num(optarg, "sem-procs", 1, 4096);
			break;
		case OPT_BUSY:
			b.busy = parse_num(optarg, "busy", 0, 1 << 30);
			break;
		case OPT_TMPDIR:
			b.tmpdir_base = optarg;
			break;
		case OPT_TARGET:
			b.target_arg = optarg;
			break;
		case 'h':
			usage();
			return 0;
		case 'V':
			printf("forkbench %s\n", FORKBENCH_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'forkbench --help' for more information.\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "forkbench: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	/* --duration alone means "sample until the time is up" */
	if (b.duration > 0 && !b.samples_given)
		b.samples = 100000;

	if (!warmup_max_given)
		b.warmup_max = b.warmup > 10 ? b.warmup : 10;
	if (b.warmup_max < b.warmup) {
		fprintf(stderr, "forkbench: --warmup-max (%u) is less than --warmup (%u)\n",
			b.warmup_max, b.warmup);
		return 2;
	}
	if (b.as_listed && !list) {
		fprintf(stderr, "forkbench: --order=listed needs --workloads\n");
		return 2;
	}
	if (list) {
		/*
		 * LIST chooses; the order stays the canonical one unless
		 * --order=listed: a workload's cost depends on what ran
		 * before it (spawn-big slows the next one's first batches
		 * by up to 45%), so a user's order must not change a result.
		 */
		for (const char *p = list; *p;) {
			size_t len = strcspn(p, ",");
			const struct workload *w = find_workload(p, len);

			if (!w) {
				fprintf(stderr, "forkbench: unknown workload '%.*s' (see --list)\n",
					(int)len, p);
				return 2;
			}
			if (chosen[w - workloads] && !b.as_listed) {
				fprintf(stderr, "forkbench: --workloads: '%s' is listed twice\n",
					w->name);
				return 2;
			}
			if (nr == ARRAY_SIZE(order)) {
				fprintf(stderr, "forkbench: too many workloads\n");
				return 2;
			}
			chosen[w - workloads] = true;
			order[nr++] = w;
			p += len + (p[len] == ',');
		}
		if (!nr) {
			fprintf(stderr, "forkbench: --workloads: empty list\n");
			return 2;
		}
		if (!b.as_listed) {
			nr = 0;
			for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
				if (chosen[i])
					order[nr++] = &workloads[i];
		}
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
			order[nr++] = &workloads[i];
	}
	if (b.have_seed) {
		uint64_t state = b.seed;

		/* Fisher-Yates; the seed is in the report, so it can be redone */
		for (size_t i = nr - 1; i > 0; i--) {
			size_t j = splitmix64(&state) % (i + 1);
			const struct workload *t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
	}

	if (!b.keep_aslr)
		no_aslr(saved_argv);
	free(saved_argv);

	b.nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (b.nr_cpus < 1)
		b.nr_cpus = 1;
	if (!b.copies)
		b.copies = b.nr_cpus;
	if (sched_getaffinity(0, sizeof(b.all_cpus), &b.all_cpus))
		die("sched_getaffinity: %m");
	if (b.pin && !CPU_ISSET(b.cpu, &b.all_cpus))
		die("CPU %d is not available to this process", b.cpu);

	if (prepare_files(&b)) {
		remove_files(&b);
		return 1;
	}
	res = calloc(nr, sizeof(*res));
	if (!res)
		die("out of memory");
	for (size_t i = 0; i < nr; i++) {
		res[i].w = order[i];
		res[i].samples = calloc(b.samples, sizeof(*res[i].samples));
		if (!res[i].samples)
			die("out of memory");
	}
	for (size_t i = 0; i < nr; i++) {
		run_workload(&b, &res[i]);
		if (res[i].state == RESULT_ERROR) {
			fprintf(stderr, "forkbench: %s: %s\n", order[i]->name,
				res[i].reason);
			failed = true;
		}
	}
	remove_files(&b);

	if (b.json)
		print_json(&b, stdout, res, order, nr);
	else
		print_table(stdout, res, nr);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "forkbench: write error on stdout\n");
		return 1;
	}
	for (size_t i = 0; i < nr; i++) {
		free(res[i].samples);
	}
	free(res);
	free(b.tags);
	return failed ? 1 : 0;
}
