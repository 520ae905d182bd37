// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * spawn-prepare.c - what hijack opens and decides on the host before the
 * fork, while the host's /proc and mounts are still in view: the target's
 * root and working directory, the cgroup files the child writes, the
 * status pipe and the command's terminal; and the fork itself, into the
 * target's cgroup v2 where the kernel can, of a child that is not
 * dumpable.  spawn.c puts these together.
 */
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "spawn-internal.h"

static int open_dirs(struct spawn *s, struct hijack_diag *d)
{
	const struct hijack_plan *p = s->p;

	/* Opened now: once in the target's mount namespace, /proc/PID may be gone. */
	if (p->root_mode == HIJACK_DIR_TARGET) {
		s->rootfd = openat(s->t->procfd, "root",
				   O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (s->rootfd < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, errno,
					   "/proc/%d/root", (int)p->pid);
	}
	if (p->wd_mode == HIJACK_DIR_TARGET) {
		s->cwdfd = openat(s->t->procfd, "cwd",
				  O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (s->cwdfd < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, errno,
					   "/proc/%d/cwd", (int)p->pid);
	}
	return 0;
}

/*
 * Before fork, on the host: what the child writes to join cgroups, and the
 * v2 directory it may be born in instead, by clone3() or by hijack(2)
 * with HIJACK_INTO_CGROUP (the version 1 hierarchies are always the
 * child's to join).
 */
static int open_cgroups(struct spawn *s, struct hijack_diag *d)
{
	const struct hijack_plan *p = s->p;
	size_t i;

	if (p->cgroup_mode != HIJACK_FROM_TARGET || !p->ncgroups)
		return 0;
	s->cgfds = malloc(p->ncgroups * sizeof(int));
	if (!s->cgfds)
		return hj_diag_set(d, HIJACK_STEP_CGROUP, ENOMEM, "cgroups");
	/* Every entry valid before any open: hj_spawn_close() closes them all. */
	for (i = 0; i < p->ncgroups; i++)
		s->cgfds[i] = -EBADF;
	return hj_cgroup_open(p, s->cgfds, &s->cg2fd, d);
}

/*
 * On the host, before the fork: the directories and cgroup files the child
 * needs, where hijack's arguments are, the status pipe, and the command's
 * terminal.
 */
int hj_spawn_prepare(struct spawn *s, struct hijack_diag *d)
{
	int fds[2], r;

	/* A view the payload builds has its own root and cwd. */
	r = (s->pl->flags & HJ_PAYLOAD_OWN_MOUNTS) ? 0 : open_dirs(s, d);
	if (r < 0)
		return r;
	r = open_cgroups(s, d);
	if (r < 0)
		return r;
	/* The command opens its exec label file here, not in a container's /proc. */
	if (hj_lsm_wanted(s->p)) {
		s->procdir = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (s->procdir < 0)
			return hj_diag_set(d, HIJACK_STEP_LSM, errno, "/proc");
	}
	r = hj_args_read(&s->args);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, -r, "/proc/self/stat");
	if (pipe2(fds, O_CLOEXEC) < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno, "status pipe");
	s->status_r = fds[0];
	s->status_w = fds[1];
	if (!(s->pl->flags & HJ_PAYLOAD_NOEXEC))
		return hj_pty_prepare(s->pty, s->p, d);
	/* No terminal: its bytes go to the caller's fds as they are. */
	if (hj_go_channel(fds) < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno, "%s's start pipe",
				   s->pl->name);
	s->ack_r = fds[0];
	s->ack_w = fds[1];
	return 0;
}

/*
 * fork(), but born in the target's cgroup v2 when there is one to join:
 * clone3(CLONE_INTO_CGROUP) (Linux 5.7) saves the child a migration.
 * Kernels without it get a plain fork(), and so does a caller that
 * clone3() refuses the cgroup to: the child then writes cgroup.procs,
 * whose refusal, by the same rules, says more.  A lack of memory or pids
 * or a cgroup that takes no processes (EBUSY) is the same either way.
 */
static pid_t fork_into_cgroup(struct spawn *s)
{
	struct clone_args a = {
		.flags = CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
		.cgroup = (unsigned long long)s->cg2fd,
	};
	long pid;

	if (s->cg2fd < 0)
		return fork();
	pid = syscall(SYS_clone3, &a, sizeof(a));
	if (pid >= 0) {
		if (pid == 0)
			s->cg_joined_v2 = true;
		return (pid_t)pid;
	}
	if (errno == EAGAIN || errno == ENOMEM || errno == EBUSY)
		return -1;
	return fork();
}

/*
 * Fork the intermediate, non-dumpable from its first instant, as the
 * command it forks is then to its exec.  Until then each holds a copy of
 * hijack's memory: the caller's environment and arguments, and
 * whatever else of the host is in it.  Once it runs with the target's
 * credentials in the target's pid namespace, a process of the container
 * with the same uid and capabilities could ptrace it or read its
 * /proc/PID/{environ,mem}; the kernel makes it non-dumpable only when its
 * uid or gid changes, not when it stays root in a container that shares
 * the caller's user namespace, nor when a rootless caller becomes the
 * root of a user namespace it owns.  Non-dumpable, only CAP_SYS_PTRACE
 * over the user namespace of its memory, the caller's, reaches it.
 *
 * No call in the child can do it early enough: the command is born in
 * the target's pid namespace, where the container sees it at once.
 * Dumpability belongs to the memory map, which a fork copies with
 * its flags, so hijack lowers its own for the moment of the fork and
 * raises it again.  A hijack that is not dumpable to begin with (after a
 * setuid exec) stays so, and its children with it.  execve() sets the
 * command's anew by the usual rules, so that once it runs it is exactly
 * as dumpable as a process the container starts itself.
 */
pid_t hj_fork_child(struct spawn *s)
{
	bool lowered = false;
	pid_t pid;
	int err;

	if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 1) {
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
			return -1;
		lowered = true;
	}
	pid = fork_into_cgroup(s);
	if (pid == 0)
		return 0;
	err = errno;
	if (lowered)
		(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	errno = err;
	return pid;
}

/*
 * The intermediate forks the command as hijack's child (CLONE_PARENT), a
 * copy of its own memory, as fork() would.  clone3() (Linux 5.3) first:
 * clone(2)'s argument order differs by architecture.  The child's exit
 * signal is the intermediate's own, SIGCHLD: clone3() wants none named
 * with CLONE_PARENT.
 */
pid_t hj_fork_command(void)
{
	struct clone_args a = { .flags = CLONE_PARENT };
	long pid;

	pid = syscall(SYS_clone3, &a, sizeof(a));
	if (pid < 0 && errno == ENOSYS)
#if defined(__s390__)
		pid = syscall(SYS_clone, 0, CLONE_PARENT | SIGCHLD);
#else
		pid = syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
#endif
	return (pid_t)pid;
}

/*
 * Close what was opened for the child, once it is forked or cannot be: the
 * status pipe's read end stays, hijack's to read.
 */
void hj_spawn_close(struct spawn *s)
{
	size_t j;
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++)
		close_fdp(&s->nsfds[i]);
	for (j = 0; s->cgfds && j < s->p->ncgroups; j++)
		close_fdp(&s->cgfds[j]);
	free(s->cgfds);
	s->cgfds = NULL;
	close_fdp(&s->cg2fd);
	close_fdp(&s->procdir);
	close_fdp(&s->rootfd);
	close_fdp(&s->cwdfd);
	close_fdp(&s->status_w);
	close_fdp(&s->go_r);
	close_fdp(&s->go_w);
	close_fdp(&s->ack_r);
}
