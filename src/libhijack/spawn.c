// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * spawn.c - start the command inside the target, wait for it, forward
 * signals to it, and bring back why it could not start.
 *
 * The pid namespace is special: setns() of a pid namespace only decides
 * where the caller's *children* go.  So the command must be a child created
 * after the pid namespace was entered.  Two shapes do that:
 *
 * direct (a caller privileged in its own user namespace; the common case):
 *
 *   hijack                                   command
 *   setns(pid ns, for children only)
 *   fork() -------------------------------> enter the other namespaces,
 *   setns(own pid ns): undo the above         root, cwd, fd barrier, exec
 *   read status pipe until EOF <------------ (or: send diag, _exit 125..127)
 *   wait, forwarding signals
 *
 * relay (a caller that gets privilege only from the target's user
 * namespace, and so cannot setns the pid namespace before entering it):
 *
 *   hijack (child subreaper)     intermediate              command
 *   fork() --------------------> enter all namespaces
 *                                fork() -----------------> root, cwd, exec
 *   read pid <------------------ send command's pid; _exit(0)
 *   reap intermediate; the command is now hijack's child
 *   wait, forwarding signals
 *
 * The hijack(2) system call does all of the first shape in the kernel.
 *
 * The status pipe is O_CLOEXEC: it reads EOF once every process holding
 * its write end has exec'd or exited; a message before EOF is a failure
 * report, sent as one write() below PIPE_BUF, so it arrives whole.
 *
 * hijack_file_copy() runs the same way, but the confined child copies a
 * file (files.c) instead of exec'ing: it says MSG_STARTED where the exec
 * would have closed the pipe, and a failure of the copy comes after it,
 * read once the child has ended.
 */
#include <fcntl.h>
#include <linux/close_range.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/keyctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "internal.h"

extern char **environ;

static const int forwarded_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH,
};

enum msg_kind {
	MSG_DIAG = 1,
	MSG_PID,
	MSG_EXEC,	/* the command's process is about to exec */
	MSG_STARTED,	/* a file copy begins: as good as an exec */
};

struct msg {
	enum msg_kind kind;
	pid_t pid;
	struct hijack_diag diag;
};

struct spawn {
	const struct hijack_target *t;
	const struct hijack_plan *p;
	char *const *argv;
	const struct hijack_file *file;	/* copy this instead of exec */
	bool tools;			/* --tools: the host's view (tools.c) */
	const char *tools_dir;
	const char *tools_cwd;		/* the target's, under tools_dir */
	char tools_buf[4096];		/* tools_cwd read here, if not planned */
	int tools_marker;		/* the capability that marks it */
	enum hijack_method method;	/* pidfd or nsfd once decided */
	unsigned int child_mask;	/* namespaces the child enters */
	int nsfds[_HIJACK_NS_MAX];
	int rootfd;
	int cwdfd;
	int status_w;
	int status_r;		/* hijack's end: the command closes its copy */
	bool relay;		/* the command's parent is the intermediate */
	int relay_pidfd;	/* the intermediate, as the command sees it */
	int *cgfds;		/* cgroup.procs per hierarchy, or -EBADF */
	int cg2fd;		/* v2 directory for CLONE_INTO_CGROUP */
	bool cg_joined_v2;	/* born there by clone3() */
	int lsmfd;
	unsigned int kernel_took;	/* HIJACK_TAKE_* done by hijack(2) */
	struct hj_pty *pty;
	sigset_t oldmask;
};

static void send_msg(int fd, const struct msg *m)
{
	/* Nobody to tell if this fails: the exit status still says 125. */
	(void)!write(fd, m, sizeof(*m));
}

static _Noreturn void child_fail(struct spawn *s, const struct hijack_diag *d,
				 int code)
{
	struct msg m = { .kind = MSG_DIAG, .diag = *d };

	send_msg(s->status_w, &m);
	_exit(code);
}

/* Enter the namespaces of s->child_mask, falling back from pidfd to nsfd. */
static int child_enter_ns(struct spawn *s, struct hijack_diag *d)
{
	int r;

	if (!s->child_mask)
		return 0;
	if (s->method == HIJACK_METHOD_PIDFD) {
		r = hj_ns_enter_pidfd(s->t->pidfd, s->child_mask, s->t->pid, d);
		/* EINVAL: a kernel before 5.8 does not take pidfds. */
		if (r != -EINVAL || s->p->method_fallback != HIJACK_METHOD_NSFD)
			return r;
	}
	r = hj_ns_open_fds(s->t, s->child_mask, s->nsfds, d);
	if (r < 0)
		return r;
	return hj_ns_enter_fds(s->nsfds, s->child_mask, s->t->pid, d);
}

static int child_dirs(struct spawn *s, struct hijack_diag *d)
{
	const struct hijack_plan *p = s->p;

	if (s->rootfd >= 0) {
		if (fchdir(s->rootfd) < 0 || chroot(".") < 0)
			return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
					   "root of pid %d", (int)p->pid);
	} else if (p->root_mode == HIJACK_DIR_PATH) {
		if (chroot(p->root) < 0)
			return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "%s",
					   p->root);
	}

	if (s->cwdfd >= 0) {
		if (fchdir(s->cwdfd) < 0)
			return hj_diag_set(d, HIJACK_STEP_CWD, errno,
					   "cwd of pid %d", (int)p->pid);
	} else if (p->wd_mode != HIJACK_DIR_TARGET || p->root_mode != HIJACK_DIR_TARGET) {
		/*
		 * An explicit or kept working directory is a path looked up
		 * in the new root; relative paths start at that root.
		 */
		if ((p->wd[0] != '/' && chdir("/") < 0) || chdir(p->wd) < 0)
			return hj_diag_set(d, HIJACK_STEP_CWD, errno, "%s",
					   p->wd);
	}
	return 0;
}

/*
 * Mark every fd above 2 close-on-exec rather than closing it: the status
 * pipe must stay usable until the exec succeeds.
 */
static int child_fd_barrier(unsigned int preserve, struct hijack_diag *d)
{
	unsigned int first = 3 + preserve;
	long max, fd;
	int fl;

	/*
	 * Preserved fds are left as they are: the caller's own are not
	 * close-on-exec, and hijack's, which may have landed in that range
	 * when the caller left it empty, all are.
	 */
	if (close_range(first, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return 0;
	max = sysconf(_SC_OPEN_MAX);
	for (fd = first; fd < max; fd++) {
		fl = fcntl((int)fd, F_GETFD);
		if (fl >= 0 && !(fl & FD_CLOEXEC) &&
		    fcntl((int)fd, F_SETFD, fl | FD_CLOEXEC) < 0)
			return hj_diag_set(d, HIJACK_STEP_FDS, errno, "fd %ld",
					   fd);
	}
	return 0;
}

/*
 * Install the filters.  Without no_new_privs the kernel wants
 * CAP_SYS_ADMIN; a command that has neither gets no_new_privs added, as
 * seccomp(2) itself demands: stricter than the target, never looser.
 */
static int child_seccomp(struct spawn *s, struct hijack_diag *d)
{
	int r = hj_seccomp_install(s->p, d);

	if (r == -EACCES && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0)
		r = hj_seccomp_install(s->p, d);
	return r;
}

/*
 * A session of the command's own, in every method and whether or not it
 * gets a new terminal: a process that shares the caller's session can
 * open /dev/tty, the caller's controlling terminal, even when none of its
 * fds is a terminal, and type into the caller's shell with TIOCSTI.  In a
 * new session it has no controlling terminal until pty.c gives it its own.
 */
static int child_session(struct hijack_diag *d)
{
	if (setsid() < 0)
		return hj_diag_set(d, HIJACK_STEP_PTY, errno, "setsid");
	return 0;
}

/*
 * A new, empty session keyring, as runc exec gives: the caller's would
 * otherwise be inherited, and with it every key the caller's login put
 * there, readable by a command of the same uid.  Joined after the
 * credentials change, so that the keyring is the command's user's.  A
 * kernel without keys (ENOSYS) has no caller's keyring to leak either.
 */
static int child_keyring(struct hijack_diag *d)
{
	if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 &&
	    errno != ENOSYS)
		return hj_diag_set(d, HIJACK_STEP_CREDS, errno,
				   "a new session keyring");
	return 0;
}

/*
 * When hijack dies, the command gets SIGHUP, as when its terminal hangs
 * up (which is what happens to a command with a terminal of its own: the
 * master closes with hijack).  Set after the credentials, because a change
 * of uid or gid clears it.  The relay shape's parent is the intermediate,
 * which exits at once and hands the command to hijack (a subreaper): the
 * signal is asked for once that is done, which the intermediate's pidfd
 * tells (it polls readable only after the children were handed on), or
 * the intermediate's exit would send it.  The status pipe tells whether
 * hijack died before this took effect: its read end is hijack's alone
 * once the command closed its own copy.
 */
static int child_parent_death(struct spawn *s, struct hijack_diag *d)
{
	struct pollfd p = { .fd = s->status_w, .events = POLLOUT };
	struct pollfd q = { .fd = s->relay_pidfd, .events = POLLIN };

	if (s->relay) {
		while (poll(&q, 1, -1) < 0)
			if (errno != EINTR)
				return hj_diag_set(d, HIJACK_STEP_FORK, errno,
						   "wait for the relay to exit");
		close_fdp(&s->relay_pidfd);
	}
	if (prctl(PR_SET_PDEATHSIG, SIGHUP) < 0)
		return hj_diag_set(d, HIJACK_STEP_FORK, errno, "PR_SET_PDEATHSIG");
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		return hj_diag_set(d, HIJACK_STEP_FORK, ESRCH,
				   "hijack exited before the command started");
	return 0;
}

/*
 * The confinement, in this order and for these reasons:
 *  1. credentials: setgroups/setresgid/setresuid while still privileged,
 *     capabilities kept across the uid change; then, as the command's
 *     user, a new session keyring, the parent-death signal (which a uid
 *     change would clear), and the new terminal, if any, so that it is
 *     theirs;
 *  2. inheritable, ambient and bounding sets, which need CAP_SETPCAP;
 *  3. no_new_privs;
 *  4. the LSM exec label, written before the fd barrier closes nothing
 *     it needs, and taking effect only at exec;
 *  5. the fd barrier: every fd above 2 (plus --preserve-fds) close-on-exec;
 *  6. seccomp last, because a filter may forbid the calls above; the final
 *     permitted/effective sets go just before it when no_new_privs allows
 *     the filters without CAP_SYS_ADMIN, just after it otherwise.
 * With hijack(2) taking the credentials, 1, 2 and 4 were done by the kernel.
 */
static int child_confine(struct spawn *s, struct hijack_diag *d)
{
	const struct hijack_plan *p = s->p;
	bool creds = !(s->kernel_took & HIJACK_TAKE_CRED);
	bool final_caps = creds && p->caps_mode == HIJACK_FROM_TARGET;
	struct hijack_caps caps = p->caps;
	int r;

	/* --tools: one capability the container lacks marks it (tools.c). */
	if (s->tools)
		hj_tools_caps(&caps, s->tools_marker, p->creds.euid == 0);

	if (creds && p->creds_mode == HIJACK_FROM_TARGET) {
		r = hj_creds_apply(&p->creds, d);
		if (r < 0)
			return r;
	}
	r = child_keyring(d);
	if (r < 0)
		return r;
	r = child_parent_death(s, d);
	if (r < 0)
		return r;
	/* As the command's user: a new terminal belongs to its opener. */
	r = hj_pty_child(s->pty, d);
	if (r < 0)
		return r;
	if (final_caps) {
		r = hj_caps_apply_iab(&caps, d);
		if (r < 0)
			return r;
	}
	if (p->nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, errno,
				   "PR_SET_NO_NEW_PRIVS");
	if (creds && p->lsm_mode == HIJACK_FROM_TARGET) {
		if (s->lsmfd < 0) {
			s->lsmfd = hj_lsm_open(p, d);
			if (s->lsmfd < 0 && s->lsmfd != -EBADF)
				return s->lsmfd;
		}
		r = hj_lsm_apply(p, s->lsmfd, d);
		if (r < 0)
			return r;
	}
	/* After every open but the exec's: RLIMIT_NOFILE may be small. */
	if (p->limits_mode == HIJACK_FROM_TARGET) {
		r = hj_limits_apply(&p->limits, d);
		if (r < 0)
			return r;
	}
	r = child_fd_barrier(p->preserve_fds, d);
	if (r < 0)
		return r;
	if (!p->nnp && p->nfilters) {
		r = child_seccomp(s, d);
		if (r < 0)
			return r;
	}
	if (final_caps) {
		r = hj_caps_apply_final(&caps, d);
		if (r < 0)
			return r;
	}
	if (p->nnp && p->nfilters)
		return child_seccomp(s, d);
	return 0;
}

/* Exit status of a copy that failed on the file: as cat(1)'s. */
#define FILE_FAILED 1

/*
 * Close every fd but 0-2, the status pipe and the copy's own: an exec
 * would have closed them (they are close-on-exec since the fd barrier),
 * and some are the host's (/proc/PID, cgroup files, namespaces).
 */
static int close_span(int first, int last)
{
	return first > last ? 0 : close_range((unsigned int)first,
					      (unsigned int)last, 0);
}

static void close_all_but(int keep1, int keep2)
{
	int lo = keep1 < keep2 ? keep1 : keep2;
	int hi = keep1 < keep2 ? keep2 : keep1;
	long fd, max;

	if (close_span(3, lo - 1) == 0 && close_span(lo + 1, hi - 1) == 0 &&
	    close_range((unsigned int)hi + 1, ~0U, 0) == 0)
		return;
	/* A filter may refuse close_range(2); close(2) it cannot. */
	max = sysconf(_SC_OPEN_MAX);
	for (fd = 3; fd < max; fd++)
		if (fd != keep1 && fd != keep2)
			(void)close((int)fd);
}

/*
 * The copy, in place of the exec: first become what the exec would have
 * made of us.  Its fds are closed, its capabilities transformed as
 * execve() would (caps.c), and it is made non-dumpable: its memory is
 * hijack's, the host's, and must not be read or traced from the container.
 */
static _Noreturn void child_file(struct spawn *s)
{
	struct msg m = { .kind = MSG_STARTED };
	struct hijack_diag d = { 0 };
	int keep = s->file->fd > 2 ? s->file->fd : s->status_w;

	close_all_but(s->status_w, keep);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) {
		(void)hj_diag_set(&d, HIJACK_STEP_FDS, errno, "PR_SET_DUMPABLE");
		child_fail(s, &d, 125);
	}
	if (hj_caps_as_after_exec(&d) < 0)
		child_fail(s, &d, 125);
	send_msg(s->status_w, &m);
	(void)sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
	if (hj_file_child(s->file, &d) < 0)
		child_fail(s, &d, FILE_FAILED);
	_exit(0);
}

static _Noreturn void child_exec(struct spawn *s)
{
	struct hijack_diag d = { 0 };
	struct msg m = { .kind = MSG_EXEC };
	int code, err;

	close_fdp(&s->status_r);
	if (child_session(&d) < 0 || (!s->tools && child_dirs(s, &d) < 0) ||
	    child_confine(s, &d) < 0)
		child_fail(s, &d, 125);
	if (s->file)
		child_file(s);

	(void)sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
	/*
	 * The last word before the exec: a process that dies without it
	 * died before the command ran, which is hijack's failure (125), not
	 * the command's (128+N).
	 */
	send_msg(s->status_w, &m);
	/* Set first: execvp() searches the PATH of the new environment. */
	environ = s->p->envp;
	execvp(s->argv[0], s->argv);

	/* As shells do: 127 when there is no such command, 126 otherwise. */
	err = errno;
	code = err == ENOENT ? 127 : 126;
	/* A distroless container: say what can still be done. */
	if (code == 127 && !s->tools && access("/bin/sh", X_OK) < 0)
		(void)hj_diag_set(&d, HIJACK_STEP_EXEC, ENOENT,
				  "%s (the container has no /bin/sh; hijack --tools runs the host's programs in it)",
				  s->argv[0]);
	else
		(void)hj_diag_set(&d, HIJACK_STEP_EXEC, err, "%s", s->argv[0]);
	child_fail(s, &d, code);
}

/* Move into the target's cgroups while the host's mounts are in view. */
static void child_cgroups(struct spawn *s)
{
	struct hijack_diag d = { 0 };

	size_t i;

	if (!s->cgfds)
		return;		/* nothing to join */
	/* clone3() already put us into the v2 one. */
	for (i = 0; s->cg_joined_v2 && i < s->p->ncgroups; i++)
		if (!*s->p->cgroups[i].controllers)
			close_fdp(&s->cgfds[i]);
	if (hj_cgroup_join(s->p, s->cgfds, &d) < 0)
		child_fail(s, &d, 125);
}

/*
 * Say why a fork failed.  Once its pid namespace's init has died, the
 * kernel refuses new members with ENOMEM: that is the target exiting
 * under us, and is named as such.
 */
static int fork_failed(struct spawn *s, int err, struct hijack_diag *d)
{
	if (hijack_target_alive(s->t) < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d exited while being entered",
				   (int)s->p->pid);
	if (err == EBUSY)
		return hj_diag_set(d, HIJACK_STEP_CGROUP, EBUSY,
				   "cgroup v2 of pid %d refuses new processes (controllers enabled for its children); use --cgroups=keep",
				   (int)s->p->pid);
	return hj_diag_set(d, HIJACK_STEP_FORK, err, "command in pid %d's namespaces",
			   (int)s->p->pid);
}

/* The intermediate of the relay shape: enter, fork the command, report. */
static _Noreturn void child_relay(struct spawn *s)
{
	struct hijack_diag d = { 0 };
	struct msg m = { .kind = MSG_PID };
	pid_t pid;

	child_cgroups(s);
	if (s->tools) {
		(void)hj_diag_set(&d, HIJACK_STEP_PLAN, EOPNOTSUPP,
				  "--tools needs a caller privileged on the host");
		child_fail(s, &d, 125);
	}
	if (child_enter_ns(s, &d) < 0)
		child_fail(s, &d, 125);
	s->relay_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (s->relay_pidfd < 0) {
		(void)hj_diag_set(&d, HIJACK_STEP_FORK, errno, "pidfd of the relay");
		child_fail(s, &d, 125);
	}
	pid = fork();
	if (pid < 0) {
		(void)fork_failed(s, errno, &d);
		child_fail(s, &d, 125);
	}
	if (pid == 0)
		child_exec(s);
	m.pid = pid;
	send_msg(s->status_w, &m);
	_exit(0);
}

static _Noreturn void child_direct(struct spawn *s)
{
	struct hijack_diag d = { 0 };

	child_cgroups(s);
	/* /proc/thread-self is this process's only until the mount ns changes. */
	s->lsmfd = s->p->lsm_mode == HIJACK_FROM_TARGET ? hj_lsm_open(s->p, &d) : -EBADF;
	if (s->lsmfd < 0 && s->lsmfd != -EBADF)
		child_fail(s, &d, 125);
	/* Host side still: build the view, then enter all but mnt. */
	if (s->tools && hj_tools_child(s->t, s->tools_dir, s->tools_cwd, &d) < 0)
		child_fail(s, &d, 125);
	if (child_enter_ns(s, &d) < 0)
		child_fail(s, &d, 125);
	child_exec(s);
}

/*
 * Put the caller's future children into the target's pid namespace.
 * Return -EPERM when only the target's user namespace could allow it.
 */
static int enter_pid_for_children(struct spawn *s, struct hijack_diag *d)
{
	unsigned int pid = HIJACK_NS_BIT(HIJACK_NS_PID);
	int r;

	if (s->method == HIJACK_METHOD_PIDFD) {
		r = hj_ns_enter_pidfd(s->t->pidfd, pid, s->t->pid, d);
		if (r != -EINVAL || s->p->method_fallback != HIJACK_METHOD_NSFD)
			return r;
		s->method = HIJACK_METHOD_NSFD;
	}
	r = hj_ns_open_fds(s->t, pid, s->nsfds, d);
	if (r < 0)
		return r;
	return hj_ns_enter_fds(s->nsfds, pid, s->t->pid, d);
}

static int spawn_syscall(struct spawn *s, struct hijack_diag *d)
{
	int flags = hj_syscall_flags(s->p);
	long pid;

	if (flags < 0)
		return hj_diag_set(d, HIJACK_STEP_PLAN, flags,
				   "plan not possible with hijack(2)");
	s->kernel_took = (unsigned int)flags;
	pid = hj_syscall_hijack(s->p, s->t->pidfd);
	if (pid < 0)
		return hj_diag_set(d, HIJACK_STEP_SYSCALL, errno,
				   "hijack(2) of pid %d, flags %#x",
				   (int)s->p->pid, (unsigned int)flags);
	if (pid == 0) {
		if (flags & HIJACK_TAKE_FS) {
			/* The kernel gave us the target's root and cwd already. */
			close_fdp(&s->rootfd);
			close_fdp(&s->cwdfd);
		}
		if (!(flags & HIJACK_TAKE_CGROUP))
			child_cgroups(s);
		child_exec(s);
	}
	return (int)pid;
}

/*
 * Read the status pipe to EOF.  Return 0 when the command exec'd, or the
 * negative errno the failing process reported.  *ret_pid is updated from a
 * relay's message.  EOF without the command's last word (MSG_EXEC) means
 * its process died before the exec: -ECANCELED, and died_before_exec()
 * says why.
 */
static int read_status(int fd, pid_t *ret_pid, struct hijack_diag *d)
{
	bool exec = false;
	struct msg m;
	ssize_t n;
	int r = 0;

	for (;;) {
		n = read(fd, &m, sizeof(m));
		if (n == 0)
			return r == 0 && !exec ? -ECANCELED : r;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return hj_diag_set(d, HIJACK_STEP_WAIT, errno,
					   "status pipe");
		}
		if (n != sizeof(m))
			return hj_diag_set(d, HIJACK_STEP_WAIT, EPROTO,
					   "short status message");
		if (m.kind == MSG_PID) {
			*ret_pid = m.pid;
		} else if (m.kind == MSG_EXEC) {
			exec = true;
		} else if (m.kind == MSG_STARTED) {
			return r;
		} else if (r == 0) {
			if (d)
				*d = m.diag;
			r = -m.diag.err;
		}
	}
}

static int reap(pid_t pid, int *ret_status)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (ret_status)
		*ret_status = status;
	return 0;
}

/*
 * Nothing half-done: a started command that hijack can no longer talk to
 * or wait for goes, rather than outlive the failure unwatched (the hangup
 * it gets when hijack exits may be ignored).  Only for a child not yet
 * reaped, whose pid cannot have gone to another process.
 */
static void kill_reap(pid_t pid)
{
	(void)kill(pid, SIGKILL);
	(void)reap(pid, NULL);
}

/*
 * The command's process @pid died before its exec: reap it and say why,
 * as hijack's own failure.  Most often the target went first, and took its
 * pid namespace, with everything inside, along.
 */
static int died_before_exec(struct spawn *s, pid_t pid, struct hijack_diag *d)
{
	struct pollfd pfd = { .fd = s->t->pidfd, .events = POLLIN };
	int status = 0;

	if (pid > 0)
		(void)reap(pid, &status);
	/*
	 * A pid namespace's init finishes exiting only once every other
	 * member is reaped, the process just reaped included: give it a
	 * moment, in this failure path only, to show as gone.
	 */
	if (pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		(void)poll(&pfd, 1, 1000);
	if (hijack_target_alive(s->t) < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d exited before the command started",
				   (int)s->p->pid);
	if (pid > 0 && WIFSIGNALED(status))
		return hj_diag_set(d, HIJACK_STEP_FORK, ECANCELED,
				   "the command's process was killed by signal %d before exec",
				   WTERMSIG(status));
	return hj_diag_set(d, HIJACK_STEP_FORK, ECANCELED,
			   "the command's process exited before exec");
}

/*
 * Wait for the command, handing on the signals meant for it and relaying
 * its terminal.  The signals are blocked and read from a signalfd, so none
 * is lost between waitpid() and sleeping, and nothing runs in a signal
 * handler.
 *
 * The command is always in a session of its own (child_session()), which
 * the caller's terminal cannot reach: what the kernel raises for that
 * terminal (Ctrl-C, Ctrl-\, a hangup) reaches hijack alone, and is
 * forwarded like a signal sent by a process.  A resize resizes the
 * command's own terminal when it has one, and is forwarded otherwise.
 */
static int wait_forwarding(pid_t pid, const sigset_t *set,
			   struct hj_pty *pty, int *ret_status,
			   struct hijack_diag *d)
{
	_cleanup_close_ int sfd = -EBADF;
	struct pollfd pfd[1 + HJ_PTY_POLLFDS];
	struct signalfd_siginfo si;
	int status, n, err;
	pid_t r;

	sfd = signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		err = errno;
		kill_reap(pid);
		return hj_diag_set(d, HIJACK_STEP_WAIT, err, "signalfd");
	}

	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return hj_diag_set(d, HIJACK_STEP_WAIT, errno,
					   "command pid %d", (int)pid);
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		n = 1 + hj_pty_pollfds(pty, pfd + 1);
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			kill_reap(pid);
			return hj_diag_set(d, HIJACK_STEP_WAIT, err, "poll");
		}
		hj_pty_handle(pty, pfd + 1, n - 1);
		while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGCHLD)
				continue;
			if (pty->fds && si.ssi_signo == SIGWINCH)
				hj_pty_resize(pty);
			else
				(void)kill(pid, (int)si.ssi_signo);
		}
	}
	/* Consume what arrived too late to forward, so it does not hit us. */
	while (read(sfd, &si, sizeof(si)) == sizeof(si))
		;
	*ret_status = status;
	return 0;
}

static void spawn_close(struct spawn *s)
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
	close_fdp(&s->lsmfd);
	close_fdp(&s->rootfd);
	close_fdp(&s->cwdfd);
	close_fdp(&s->status_w);
}

/* Before fork, on the host: what the child writes to join cgroups. */
static int open_cgroups(struct spawn *s, struct hijack_diag *d)
{
	const struct hijack_plan *p = s->p;
	size_t i;

	if (p->cgroup_mode != HIJACK_FROM_TARGET || !p->ncgroups)
		return 0;
	if (p->method == HIJACK_METHOD_SYSCALL &&
	    (hj_syscall_flags(p) & HIJACK_TAKE_CGROUP))
		return 0;
	s->cgfds = malloc(p->ncgroups * sizeof(int));
	if (!s->cgfds)
		return hj_diag_set(d, HIJACK_STEP_CGROUP, ENOMEM, "cgroups");
	/* Every entry valid before any open: spawn_close() closes them all. */
	for (i = 0; i < p->ncgroups; i++)
		s->cgfds[i] = -EBADF;
	return hj_cgroup_open(p, s->cgfds, &s->cg2fd, d);
}

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
 * fork(), but born in the target's cgroup v2 when there is one to join:
 * clone3(CLONE_INTO_CGROUP) (Linux 5.7) saves the child a migration.
 * Kernels without it get a plain fork(), and the child writes
 * cgroup.procs itself.
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
	if (errno == ENOSYS || errno == E2BIG || errno == EINVAL)
		return fork();
	return -1;
}

/* Start the command; return its pid, or a negative errno. */
static int start(struct spawn *s, int status_r, int *ret_subreaper,
		 struct hijack_diag *d)
{
	_cleanup_close_ int ownpid = -EBADF;
	bool relay = false;
	pid_t pid, cmd = 0;
	int r, status = 0;

	if (s->p->method == HIJACK_METHOD_SYSCALL) {
		pid = spawn_syscall(s, d);
		if (pid < 0)
			return pid;
		cmd = pid;
		goto started;
	}

	if (s->p->method == HIJACK_METHOD_NSFD) {
		r = hj_ns_open_fds(s->t, s->p->ns_mask, s->nsfds, d);
		if (r < 0)
			return r;
	}

	if (s->child_mask & HIJACK_NS_BIT(HIJACK_NS_PID)) {
		ownpid = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
		if (ownpid < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, errno,
					   "/proc/self/ns/pid");
		r = enter_pid_for_children(s, d);
		if (r == -EPERM &&
		    (s->child_mask & HIJACK_NS_BIT(HIJACK_NS_USER))) {
			relay = true;
			close_fdp(&ownpid);
		} else if (r < 0) {
			return r;
		} else {
			s->child_mask &= ~HIJACK_NS_BIT(HIJACK_NS_PID);
		}
	}

	s->relay = relay;
	if (relay) {
		/* Remember the caller's setting, to give it back afterwards. */
		if (prctl(PR_GET_CHILD_SUBREAPER, ret_subreaper) < 0 ||
		    prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
			return hj_diag_set(d, HIJACK_STEP_FORK, errno,
					   "PR_SET_CHILD_SUBREAPER");
	}

	pid = relay ? fork() : fork_into_cgroup(s);
	if (pid < 0) {
		r = fork_failed(s, errno, d);
		goto undo_pidns;
	}
	if (pid == 0) {
		close_fdp(&s->status_r);
		if (relay)
			child_relay(s);
		child_direct(s);
	}
	cmd = pid;
	r = 0;
	close_fdp(&s->status_w);
undo_pidns:
	/* Our own later children belong where they did before. */
	if (ownpid >= 0)
		(void)setns(ownpid, CLONE_NEWPID);
	if (r < 0)
		return r;
	if (relay) {
		/* The intermediate exits as soon as it has reported. */
		cmd = 0;
		r = read_status(status_r, &cmd, d);
		(void)reap(pid, &status);
		if (r == -ECANCELED && cmd > 0)
			return died_before_exec(s, cmd, d);
		if (r < 0 && r != -ECANCELED) {
			if (cmd > 0)
				(void)reap(cmd, NULL);
			return r;
		}
		if (cmd <= 0)
			return hj_diag_set(d, HIJACK_STEP_FORK, ECHILD,
					   "relay for pid %d exited with status %d",
					   (int)s->p->pid, status);
		return cmd;
	}
started:
	close_fdp(&s->status_w);
	r = read_status(status_r, &cmd, d);
	if (r == -ECANCELED)
		return died_before_exec(s, cmd, d);
	if (r < 0) {
		(void)reap(cmd, NULL);
		return r;
	}
	return cmd;
}

/*
 * --tools: refuse what tools.c cannot keep safe, keep the mount namespace
 * for the view of its own, remember the target's cwd (a path inside the
 * container, used only under the tools directory).
 */
static int spawn_tools_setup(struct spawn *s, const struct hj_spawn_how *how,
			     struct hijack_diag *d)
{
	ssize_t n;
	int r;

	if (how->tools_dir && how->tools_dir[0] != '/')
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "--tools directory '%s': an absolute path",
				   how->tools_dir);
	r = hj_tools_check(s->p, &s->tools_marker, d);
	if (r < 0)
		return r;
	s->tools = true;
	s->tools_dir = how->tools_dir;
	s->child_mask &= ~HIJACK_NS_BIT(HIJACK_NS_MNT);
	/* The plan read it already, in the default --wd=target. */
	if (s->p->wd_mode == HIJACK_DIR_TARGET) {
		s->tools_cwd = s->p->wd;
		return 0;
	}
	n = readlinkat(s->t->procfd, "cwd", s->tools_buf,
		       sizeof(s->tools_buf) - 1);
	s->tools_buf[n > 0 ? n : 0] = '\0';
	s->tools_cwd = s->tools_buf;
	return 0;
}

int hj_spawn(const struct hijack_target *t, const struct hijack_plan *p,
	     char *const argv[], const struct hj_spawn_how *how,
	     struct hijack_result *ret, struct hijack_diag *d)
{
	const struct hijack_file *file = how ? how->file : NULL;
	struct spawn s = {
		.t = t, .p = p, .argv = argv, .file = file, .method = p->method,
		.child_mask = p->ns_mask, .rootfd = -EBADF, .cwdfd = -EBADF,
		.status_w = -EBADF, .status_r = -EBADF, .cg2fd = -EBADF,
		.lsmfd = -EBADF, .relay_pidfd = -EBADF,
	};
	_cleanup_close_ int status_r = -EBADF;
	struct hj_pty pty;
	int subreaper = -1, oom = 0;
	int fds[2], i, r, status = 0;
	sigset_t set;
	pid_t cmd;

	for (i = 0; i < _HIJACK_NS_MAX; i++)
		s.nsfds[i] = -EBADF;
	hj_pty_init(&pty);
	s.pty = &pty;
	if (!file && (!argv || !argv[0]))
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "no command");
	if (how && how->tools) {
		r = spawn_tools_setup(&s, how, d);
		if (r < 0)
			return r;
	}

	r = s.tools ? 0 : open_dirs(&s, d);
	if (r < 0)
		goto out;
	r = open_cgroups(&s, d);
	if (r < 0)
		goto out;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		r = hj_diag_set(d, HIJACK_STEP_OPEN, errno, "status pipe");
		goto out;
	}
	status_r = fds[0];
	s.status_r = status_r;
	s.status_w = fds[1];
	/* A copy's bytes go to the caller's fds as they are. */
	r = file ? 0 : hj_pty_prepare(&pty, p, d);
	if (r < 0)
		goto out;
	/* The command inherits the target's OOM score from us (limits.c). */
	if (p->limits_mode == HIJACK_FROM_TARGET) {
		r = hj_oom_swap(p->limits.oom_score_adj, &oom, d);
		if (r < 0)
			goto out;
	}

	(void)sigemptyset(&set);
	for (i = 0; i < (int)ARRAY_SIZE(forwarded_signals); i++)
		(void)sigaddset(&set, forwarded_signals[i]);
	(void)sigaddset(&set, SIGCHLD);
	(void)sigprocmask(SIG_BLOCK, &set, &s.oldmask);

	r = start(&s, status_r, &subreaper, d);
	if (p->limits_mode == HIJACK_FROM_TARGET)
		(void)hj_oom_swap(oom, &oom, NULL);
	spawn_close(&s);
	if (r > 0) {
		cmd = r;
		r = hj_pty_start(&pty, d);
		if (r < 0)
			kill_reap(cmd);
		else
			r = wait_forwarding(cmd, &set, &pty, &status, d);
		/*
		 * What the copy said after MSG_STARTED, if it failed; it never
		 * sends MSG_EXEC, so its EOF alone means it ended.
		 */
		if (r == 0 && file) {
			r = read_status(status_r, &cmd, d);
			if (r == -ECANCELED)
				r = 0;
		}
		if (r == 0 && ret) {
			ret->status = status;
			ret->pid = cmd;
			ret->method = s.method;
		}
	}
	(void)sigprocmask(SIG_SETMASK, &s.oldmask, NULL);
	if (subreaper >= 0)
		(void)prctl(PR_SET_CHILD_SUBREAPER, subreaper);
out:
	hj_pty_finish(&pty);
	spawn_close(&s);
	return r < 0 ? r : 0;
}

HIJACK_EXPORT int hijack_run(const struct hijack_target *t,
			     const struct hijack_plan *p, char *const argv[],
			     struct hijack_result *ret, struct hijack_diag *d)
{
	return hj_spawn(t, p, argv, NULL, ret, d);
}

HIJACK_EXPORT int hijack_run_tools(const struct hijack_target *t,
				   const struct hijack_plan *p,
				   const char *dir, char *const argv[],
				   struct hijack_result *ret,
				   struct hijack_diag *d)
{
	struct hj_spawn_how how = { .tools = true, .tools_dir = dir };

	return hj_spawn(t, p, argv, &how, ret, d);
}
