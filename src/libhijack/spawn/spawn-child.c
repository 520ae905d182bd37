// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * spawn-child.c - what the command's process does between the fork and the
 * exec: enter the namespaces, join the cgroups, take the root and working
 * directory, then the confinement of child_confine(), in its order; and
 * the hand-over to the payload, which execs or, never exec'ing, does its
 * work in the exec's place.  Whatever fails here is reported on the
 * status pipe and ends the process with 125 (spawn.c).
 *
 * The shapes that fork these processes are in spawn.c; everything here
 * runs in a child, never in hijack itself.
 */
#include <fcntl.h>
#include <linux/close_range.h>
#include <linux/keyctl.h>
#include <poll.h>
#include <signal.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "spawn-internal.h"

_Noreturn void hj_child_fail(struct spawn *s, const struct hijack_diag *d,
			     enum child_exit code)
{
	struct msg m = { .kind = MSG_DIAG, .diag = *d };

	hj_send_msg(s->status_w, &m);
	_exit(code);
}

/*
 * Non-dumpable again after a change of credentials.  Born so
 * (hj_fork_child()), the process must stay so until its exec, but the
 * kernel sets dumpability to fs.suid_dumpable whenever the effective ids
 * change or the capabilities are not a subset of the old ones (entering a
 * user namespace one does not own), and a system set to debug setuid
 * programs has 1 there: dumpable.
 */
static int child_nodump(struct hijack_diag *d)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return hj_diag_set(d, HIJACK_STEP_CREDS, errno, "PR_SET_DUMPABLE");
	return 0;
}

static int enter_ns(struct spawn *s, struct hijack_diag *d)
{
	int r;

	if (s->method == HIJACK_METHOD_PIDFD) {
		r = hj_ns_enter_pidfd(s->t->pidfd, s->child_mask, s->t->pid, d);
		/* EINVAL: a kernel before 5.8 does not take pidfds. */
		if (r != -EINVAL || s->p->method_fallback != HIJACK_METHOD_NSFD)
			return r;
		s->method = HIJACK_METHOD_NSFD;	/* reported to hijack */
	}
	r = hj_ns_open_fds(s->t, s->child_mask, s->nsfds, d);
	if (r < 0)
		return r;
	return hj_ns_enter_fds(s->nsfds, s->child_mask, s->t->pid, d);
}

/*
 * Enter the namespaces of s->child_mask, falling back from pidfd to nsfd;
 * a user namespace among them changes the credentials.
 */
int hj_child_enter_ns(struct spawn *s, struct hijack_diag *d)
{
	int r;

	if (!s->child_mask)
		return 0;
	r = enter_ns(s, d);
	return r < 0 ? r : child_nodump(d);
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
 * With hijack(2) taking them, the credentials are the target's at the
 * moment of the call, while the plan (the environment and working
 * directory among them) was made for the ones read before: a target that
 * ran a setuid program in between would hand its new ids a plan made for
 * its old ones.  They must be the plan's.
 */
static int child_creds_as_planned(const struct hijack_plan *p,
				  struct hijack_diag *d)
{
	struct hijack_creds now = { 0 };
	_cleanup_free_ gid_t *groups = NULL;
	int n;

	(void)getresuid(&now.uid, &now.euid, &now.suid);
	(void)getresgid(&now.gid, &now.egid, &now.sgid);
	/* An invalid id changes nothing, and gives the current one. */
	now.fsuid = (uid_t)setfsuid((uid_t)-1);
	now.fsgid = (gid_t)setfsgid((gid_t)-1);
	/* As many as the plan's: more compare unequal (getgroups() fails). */
	if (p->creds.ngroups) {
		groups = calloc(p->creds.ngroups, sizeof(*groups));
		if (!groups)
			return hj_diag_set(d, HIJACK_STEP_CREDS, ENOMEM,
					   "groups of pid %d", (int)p->pid);
	}
	n = getgroups((int)p->creds.ngroups, groups);
	if (n >= 0) {
		now.groups = groups;
		now.ngroups = (size_t)n;
	}
	if (n < 0 || !hj_creds_same(&now, &p->creds))
		return hj_diag_set(d, HIJACK_STEP_CREDS, EAGAIN,
				   "the credentials of pid %d changed during the entry",
				   (int)p->pid);
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
 * of uid or gid clears it.  Its parent is hijack from its birth
 * (CLONE_PARENT); the status pipe tells whether hijack died before this
 * took effect: its read end is hijack's alone once the command closed its
 * own copy.
 */
static int child_parent_death(struct spawn *s, struct hijack_diag *d)
{
	struct pollfd p = { .fd = s->status_w, .events = POLLOUT };

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
 *     capabilities kept across the uid change, and not dumpable whatever
 *     the change made of that (child_nodump()); then, as the command's
 *     user, a new session keyring, the parent-death signal (which a uid
 *     change would clear), and the new terminal, if any, so that it is
 *     theirs;
 *  2. inheritable, ambient and bounding sets, which need CAP_SETPCAP;
 *  3. no_new_privs;
 *  4. the LSM exec label, written before the fd barrier closes nothing
 *     it needs, and taking effect only at exec;
 *  5. the payload's own confinement, if any, after the limits and while
 *     CAP_SETPCAP is still effective;
 *  6. the fd barrier: every fd above 2 (plus --preserve-fds) close-on-exec;
 *  7. seccomp last, because a filter may forbid the calls above; the final
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

	/* The payload may mark the command with a capability of its own. */
	if (s->pl->caps)
		s->pl->caps(s->arg, &caps);

	if (creds && p->creds_mode == HIJACK_FROM_TARGET) {
		r = hj_creds_apply(&p->creds, d);
		if (r < 0)
			return r;
		r = child_nodump(d);
		if (r < 0)
			return r;
	}
	if (!creds) {
		r = child_creds_as_planned(p, d);
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
	if (creds && hj_lsm_wanted(p)) {
		r = hj_lsm_apply(p, s->procdir, d);
		if (r < 0)
			return r;
	}
	/* After every open but the exec's: RLIMIT_NOFILE may be small. */
	if (p->limits_mode == HIJACK_FROM_TARGET) {
		r = hj_limits_apply(&p->limits, d);
		if (r < 0)
			return r;
	}
	/* After the limits, with CAP_SETPCAP still effective. */
	if (s->pl->confine) {
		r = s->pl->confine(s->arg, d);
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

/*
 * Close every fd but 0-2, the status pipe and the payload's own: an exec
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
 * A payload that never execs, in place of the exec: first become what the
 * exec would have made of us.  Its fds are closed and its capabilities
 * transformed as execve() would (caps.c).  It stays non-dumpable to its
 * end, as it was born (hj_fork_child()) and kept after each change of
 * credentials (child_nodump()): its memory is hijack's, the host's.
 * Having said MSG_STARTED, it waits for hijack's word on the start pipe
 * before the payload's work begins; EOF there means the entry was ended
 * meanwhile.
 */
static _Noreturn void child_noexec(struct spawn *s)
{
	struct msg m = { .kind = MSG_STARTED };
	struct hijack_diag d = { 0 };
	int fd = s->pl->keep_fd ? s->pl->keep_fd(s->arg) : -1;
	int keep = fd > 2 ? fd : s->status_w;
	ssize_t n;
	char go;

	if (hj_caps_as_after_exec(&d) < 0)
		hj_child_fail(s, &d, CHILD_EXIT_FAILED);
	hj_send_msg(s->status_w, &m);
	while ((n = read(s->ack_r, &go, 1)) != 1)
		if (n == 0 || errno != EINTR)
			_exit(CHILD_EXIT_FAILED);
	close_all_but(s->status_w, keep);
	(void)sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
	if (s->pl->run(s->arg, s->p, &d) < 0)
		hj_child_fail(s, &d, CHILD_EXIT_RUN_FAILED);
	_exit(0);
}

/*
 * The end of every shape: the command's process leaves the caller's session,
 * takes its root and working directory (unless the payload built a view of
 * its own in the intermediate), is confined, and is handed to the payload.
 */
_Noreturn void hj_child_exec(struct spawn *s)
{
	bool own_mounts = s->pl->flags & HJ_PAYLOAD_OWN_MOUNTS;
	struct hijack_diag d = { 0 };
	struct msg m = { .kind = MSG_EXEC };
	int r;

	close_fdp(&s->status_r);
	close_fdp(&s->ack_w);	/* hijack's alone, or no EOF for the payload */
	if (child_session(&d) < 0 || (!own_mounts && child_dirs(s, &d) < 0) ||
	    child_confine(s, &d) < 0)
		hj_child_fail(s, &d, CHILD_EXIT_FAILED);
	if (s->pl->flags & HJ_PAYLOAD_NOEXEC)
		child_noexec(s);

	(void)sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
	/*
	 * The last word before the exec: a process that dies without it
	 * died before the command ran, which is hijack's failure (125), not
	 * the command's (128+N).  One that dies after it may still have
	 * died before its exec took effect: hj_reap_command() tells.
	 */
	hj_send_msg(s->status_w, &m);
	r = s->pl->run(s->arg, s->p, &d);

	/* As shells do: 127 when there is no such command, 126 otherwise. */
	hj_child_fail(s, &d, r == -ENOENT ? CHILD_EXIT_NOT_FOUND :
						CHILD_EXIT_CANNOT_EXEC);
}

/* Move into the target's cgroups while the host's mounts are in view. */
void hj_child_cgroups(struct spawn *s)
{
	struct hijack_diag d = { 0 };
	size_t i;

	if (!s->cgfds)
		return;		/* nothing to join */
	/* clone3() or hijack(2) already put us into the v2 one. */
	for (i = 0; s->cg_joined_v2 && i < s->p->ncgroups; i++)
		if (!*s->p->cgroups[i].controllers)
			close_fdp(&s->cgfds[i]);
	if (hj_cgroup_join(s->p, s->cgfds, &d) < 0)
		hj_child_fail(s, &d, CHILD_EXIT_FAILED);
}
