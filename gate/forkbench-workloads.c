// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * forkbench-workloads.c - the workloads of the fork-path gate.
 *
 * Every workload is a "batch" function that performs a given number of
 * iterations of its operation, with an optional setup and teardown around
 * all its batches in the runner process (forkbench-harness.c).  The table
 * at the end gives each its name, role and what one operation is; its
 * order is the canonical order of --list.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

#include "forkbench.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

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
			_exit(EXIT_EXEC_FAILED);
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
		_exit(EXIT_EXEC_FAILED);
	}
	return reap(pid, "execl");
}

/* One link of the chain: exec @self with one less in the count, or exit. */
void execl_chain(const char *self, const char *count)
{
	char *end;
	unsigned long long left;
	char next[32];

	errno = 0;
	left = strtoull(count, &end, 10);
	if (errno || *end || left == 0)
		_exit(CHILD_BAD_COUNT);
	if (left == 1)
		_exit(CHILD_OK);
	snprintf(next, sizeof(next), "%llu", left - 1);
	{
		char *const argv[] = { "forkbench", EXECL_CHAIN_ARG, next, NULL };
		char *const envp[] = { NULL };

		execve(self, argv, envp);
	}
	_exit(EXIT_EXEC_FAILED);
}

static int shell_setup(struct bench *b)
{
	(void)b;
	if (access("/bin/sh", X_OK)) {
		say("skipping: /bin/sh: %m");
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
		_exit(EXIT_EXEC_FAILED);
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
				_exit(CHILD_NOT_RELEASED);
			_exit(fn(b, iters, started) ? CHILD_FAILED : CHILD_OK);
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
			say("skipping: no SysV IPC");
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

/*
 * sysvsem's lockunlock: @procs processes take and give back one
 * semaphore, busy_in = busy_out = --busy between, as the measurements of
 * a semaphore change were taken (a pid lookup across pid namespaces in
 * ipc/sem.c cost about 9% at 1 process and 25-30% at 2 and 4).  The copies
 * may run on any CPU: the contention between them is what is measured,
 * so they are never pinned.  On one CPU, 2 and 4 processes measure the
 * scheduler as much as the semaphore, and scatter: their intervals say
 * so, and their margins are fitted to that (METHOD.md).
 */
static int sem_procs(struct bench *b, unsigned int procs, uint64_t iters,
		     const char *name)
{
	bool pin = b->pin;
	int ret;

	b->pin = false;
	ret = run_copies(b, procs, iters, sem_copy, name);
	b->pin = pin;
	return ret;
}

static int sem1_batch(struct bench *b, uint64_t iters)
{
	return sem_procs(b, 1, iters, "sem-1");
}

static int sem2_batch(struct bench *b, uint64_t iters)
{
	return sem_procs(b, 2, iters, "sem-2");
}

static int sem4_batch(struct bench *b, uint64_t iters)
{
	return sem_procs(b, 4, iters, "sem-4");
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
				_exit(CHILD_FAILED);
		_exit(CHILD_OK);
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
		say("skipping spawn-cn: proc connector: %m (CONFIG_PROC_EVENTS?)");
		if (fd >= 0)
			close(fd);
		return SETUP_SKIP;
	}
	r = cn_mcast(fd, PROC_CN_MCAST_LISTEN);
	if (!r)
		r = cn_ack(fd);
	if (r) {
		say("skipping spawn-cn: listening to proc events: %s",
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
				_exit(CHILD_FAILED);
			if (p[1].revents) {
				(void)cn_mcast(fd, PROC_CN_MCAST_IGNORE);
				_exit(CHILD_OK);
			}
			/* ENOBUFS: events were dropped; carry on listening. */
			if (p[0].revents && recv(fd, msg, sizeof(msg), MSG_DONTWAIT) < 0 &&
			    errno != EAGAIN && errno != EINTR && errno != ENOBUFS)
				_exit(CHILD_FAILED);
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
		say("skipping: clone3: %m");
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
		say("skipping: no pid namespaces");
		return SETUP_SKIP;
	}
	return 0;
}

const char *const role_name[] = {
	[ROLE_PRIMARY] = "primary",
	[ROLE_SECONDARY] = "secondary",
	[ROLE_CONTROL] = "control",
};

/*
 * .ops_per_iter 0: one iteration is one operation of each copy, which
 * ops_per_iter() counts.
 */
const struct workload workloads[] = {
	{ .name = "spawn", .role = ROLE_PRIMARY,
	  .what = "fork, child _exit(0), waitpid",
	  .ops_per_iter = 1, .batch = spawn_batch },
	{ .name = "exec", .role = ROLE_PRIMARY,
	  .what = "fork + execve of a static _exit(0) target on tmpfs",
	  .ops_per_iter = 1, .batch = exec_batch },
	{ .name = "execl", .role = ROLE_SECONDARY,
	  .what = "self re-exec chain without fork, per exec",
	  .ops_per_iter = 1, .batch = execl_batch },
	{ .name = "shell-1", .role = ROLE_SECONDARY,
	  .what = "fork + /bin/sh -c target",
	  .ops_per_iter = 1, .setup = shell_setup, .batch = shell1_batch },
	{ .name = "shell-8", .role = ROLE_SECONDARY,
	  .what = "8 concurrent /bin/sh -c target, per shell",
	  .ops_per_iter = 8, .setup = shell_setup, .batch = shell8_batch },
	{ .name = "spawn-1", .role = ROLE_PRIMARY,
	  .what = "spawn in one copy",
	  .ops_per_iter = 1, .own_affinity = true, .batch = spawn1_batch },
	{ .name = "spawn-N", .role = ROLE_PRIMARY,
	  .what = "spawn in --copies (nr_cpus) parallel copies, per spawn",
	  .ops_per_iter = 0, .own_affinity = true, .batch = spawnn_batch },
	{ .name = "pidns-1", .role = ROLE_PRIMARY,
	  .what = "spawn inside a pid namespace",
	  .ops_per_iter = 1, .pidns_depth = 1, .setup = pidns_setup,
	  .batch = spawn_batch },
	{ .name = "pidns-3", .role = ROLE_PRIMARY,
	  .what = "spawn inside 3 nested pid namespaces",
	  .ops_per_iter = 1, .pidns_depth = 3, .setup = pidns_setup,
	  .batch = spawn_batch },
	{ .name = "ps", .role = ROLE_SECONDARY,
	  .what = "/proc walk like ps axf (stat, status, cmdline)",
	  .ops_per_iter = 1, .batch = ps_batch },
	{ .name = "sem-1", .role = ROLE_SECONDARY,
	  .what = "sysvsem lockunlock: 1 process, one semaphore, per lock+unlock",
	  .ops_per_iter = 1, .own_affinity = true, .setup = sem_setup,
	  .batch = sem1_batch, .teardown = sem_teardown },
	{ .name = "sem-2", .role = ROLE_SECONDARY,
	  .what = "sysvsem lockunlock: 2 processes, per lock+unlock",
	  .ops_per_iter = 2, .own_affinity = true, .setup = sem_setup,
	  .batch = sem2_batch, .teardown = sem_teardown },
	{ .name = "sem-4", .role = ROLE_SECONDARY,
	  .what = "sysvsem lockunlock: 4 processes, per lock+unlock",
	  .ops_per_iter = 4, .own_affinity = true, .setup = sem_setup,
	  .batch = sem4_batch, .teardown = sem_teardown },
	{ .name = "storm", .role = ROLE_SECONDARY,
	  .what = "fork-heavy shell script, per script run",
	  .ops_per_iter = 1, .setup = shell_setup, .batch = storm_batch },
	{ .name = "syscall", .role = ROLE_CONTROL,
	  .what = "syscall(SYS_getppid)",
	  .ops_per_iter = 1, .batch = getppid_batch },
	{ .name = "getpid", .role = ROLE_CONTROL,
	  .what = "syscall(SYS_getpid)",
	  .ops_per_iter = 1, .batch = getpid_batch },
	{ .name = "pipe", .role = ROLE_CONTROL,
	  .what = "pipe ping-pong with a peer process, per round trip",
	  .ops_per_iter = 1, .setup = pipe_setup, .batch = pipe_batch,
	  .teardown = pipe_teardown },
	{ .name = "threads", .role = ROLE_SECONDARY,
	  .what = "pthread_create + pthread_join",
	  .ops_per_iter = 1, .batch = threads_batch },
	{ .name = "vfork", .role = ROLE_SECONDARY,
	  .what = "vfork, child _exit(0), waitpid",
	  .ops_per_iter = 1, .batch = vfork_batch },
	{ .name = "posix_spawn", .role = ROLE_SECONDARY,
	  .what = "posix_spawn of the target + waitpid",
	  .ops_per_iter = 1, .batch = posix_spawn_batch },
	{ .name = "clone3", .role = ROLE_SECONDARY,
	  .what = "raw clone3 (exit_signal SIGCHLD), child exits",
	  .ops_per_iter = 1, .setup = clone3_setup, .batch = clone3_batch },
	{ .name = "spawn-cn", .role = ROLE_SECONDARY,
	  .what = "spawn while a process listens to proc connector events",
	  .ops_per_iter = 1, .setup = cn_setup, .batch = spawn_batch,
	  .teardown = cn_teardown },
	/*
	 * Last in the unshuffled order: after its 256 MiB are freed, the next
	 * workload's first batches ran 43% slow (exec, instruction clock),
	 * long enough to miscalibrate its batch size and skew its boot.
	 */
	{ .name = "spawn-big", .role = ROLE_PRIMARY,
	  .what = "spawn with touched anonymous memory (--big-mib)",
	  .ops_per_iter = 1, .setup = big_setup, .batch = spawn_batch,
	  .teardown = big_teardown },
};

_Static_assert(ARRAY_SIZE(workloads) == NR_WORKLOADS,
	       "NR_WORKLOADS is the number of workloads");

/*
 * Samples recorded for @w: --samples-other (default --samples) for the
 * secondary and control workloads.  Their margins are twice the primaries' or they
 * only have to stay put, so the gate spends fewer batches on them and the
 * time saved on more boots (gate/README.md).
 */
size_t samples_of(const struct bench *b, const struct workload *w)
{
	return w->role == ROLE_PRIMARY ? b->samples : b->samples_other;
}

unsigned int ops_per_iter(const struct bench *b, const struct workload *w)
{
	if (w->ops_per_iter)
		return w->ops_per_iter;
	/* spawn-N counts every copy's operations */
	return b->copies;
}
