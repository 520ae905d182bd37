// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * seccomp-copy.c - the target's seccomp filters, copied for the command.
 *
 * The kernel hands out a task's filters only to a tracer that has it in a
 * ptrace-stop (PTRACE_SECCOMP_GET_FILTER, CAP_SYS_ADMIN, and a kernel with
 * CONFIG_CHECKPOINT_RESTORE).  So the target is seized and interrupted for
 * the time it takes to copy them, then detached, which resumes it: a stop
 * of well under a millisecond, which the target can notice only as an
 * interrupted blocking call that restarts.  Index 0 is the newest filter;
 * they are kept oldest first, the order in which they were installed and
 * must be installed again.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>

#include "internal.h"

/*
 * A filter that answers with SECCOMP_RET_USER_NOTIF hands those calls to a
 * supervisor holding a listener fd; a copy would have none, and the calls
 * would fail with ENOSYS instead of being served.  Such a target cannot be
 * imitated faithfully.
 */
static bool uses_user_notif(const struct sock_filter *insns, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (insns[i].code == (BPF_RET | BPF_K) &&
		    (insns[i].k & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_USER_NOTIF)
			return true;
	return false;
}

/* How long a target is given to stop for its filters to be read. */
#define STOP_WAIT_MS 1000

/*
 * The target died seized.  A traced process's death is told to its
 * tracer first, and its parent learns of it only once the tracer has
 * waited for it: so wait, unless the caller is that parent, for whom the
 * same wait would be the reaping (its exit status) it is owed.
 */
static void let_dead_go(const struct hijack_target *t)
{
	_cleanup_free_ char *status = NULL;
	siginfo_t info;
	char ppid[32];

	if (hj_proc_read(t, "status", &status, NULL) < 0 ||
	    hj_status_field(status, "PPid", ppid, sizeof(ppid)) < 0 ||
	    atoi(ppid) == (int)getpid())
		return;
	(void)waitid(P_PID, (id_t)t->pid, &info, WEXITED | WNOHANG | __WALL);
}

/*
 * Seize the target and interrupt it into a ptrace-stop.  Return 0 when it
 * is stopped (and must be detached, with *ret_sig), or a negative errno
 * when it is not held (detached already, or gone).
 *
 * The stop may be a signal's rather than the interrupt's: a signal that
 * came between the seize and the interrupt stops a tracee first, and a
 * detach with 0 would throw it away; *ret_sig hands it back.  Stops are
 * waited for without WEXITED, so that a target that is the caller's own
 * child and dies meanwhile is left for the caller to reap; its pidfd
 * tells that it died (let_dead_go()).
 */
static int seize_stopped(const struct hijack_target *t, unsigned long count,
			 int *ret_sig, struct hijack_diag *d)
{
	siginfo_t info;
	int r, ms;

	if (ptrace(PTRACE_SEIZE, t->pid, 0, 0) < 0)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, errno,
				   "seize pid %d to read its %lu seccomp filters",
				   (int)t->pid, count);
	/*
	 * ptrace() takes a pid, not the pidfd: if the target died before the
	 * seize, the number may have gone to an unrelated task, now seized.
	 * The pidfd tells: while its task has not exited, the pid is still
	 * its own.  An unproven task is neither stopped nor read; a seize
	 * does not stop it, and it is let go as soon as it stops on its own
	 * (the detach below) or when hijack exits.
	 */
	if (hj_target_alive(t) < 0) {
		r = hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				"pid %d exited before its seccomp filters could be read",
				(int)t->pid);
		goto detach;
	}
	if (ptrace(PTRACE_INTERRUPT, t->pid, 0, 0) < 0) {
		r = hj_diag_set(d, HIJACK_STEP_SECCOMP, errno,
				"interrupt pid %d", (int)t->pid);
		goto detach;
	}
	/*
	 * The stop comes at once, unless a freezer of the target's cgroup
	 * holds it: then the stop, and the detach, wait for the thaw, which
	 * the caller is not made to wait for.  A seize left so ends with
	 * hijack.
	 */
	for (ms = 0;; ms++) {
		info.si_pid = 0;
		r = waitid(P_PID, (id_t)t->pid, &info, WSTOPPED | WNOHANG | __WALL);
		/* ECHILD too when it died: a zombie is not waited for here. */
		if (r < 0 && errno != EINTR && hj_target_alive(t) == 0) {
			r = hj_diag_set(d, HIJACK_STEP_SECCOMP, errno,
					"wait for pid %d to stop", (int)t->pid);
			goto detach;
		}
		if (r == 0 && info.si_pid == t->pid)
			break;
		if (hj_target_alive(t) < 0) {
			let_dead_go(t);
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, ESRCH,
					   "pid %d exited while its filters were read",
					   (int)t->pid);
		}
		if (ms == STOP_WAIT_MS)
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, ETIMEDOUT,
					   "pid %d did not stop, to have its seccomp filters read, within %d ms (a freezer of its cgroup holds it?)",
					   (int)t->pid, STOP_WAIT_MS);
		(void)nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	/* An event stop carries the event above the signal; a signal's not. */
	*ret_sig = info.si_status >> 8 ? 0 : info.si_status;
	return 0;
detach:
	(void)ptrace(PTRACE_DETACH, t->pid, 0, 0);
	return r;
}

/*
 * Filter @i of the stopped target, newly allocated, its length in *@ret_n:
 * 0; 1 when @i is past the oldest filter; or a negative errno.
 */
static int read_filter(const struct hijack_target *t, unsigned long i,
		       struct sock_filter **ret, long *ret_n,
		       struct hijack_diag *d)
{
	struct sock_filter *insns;
	long n;

	n = ptrace(PTRACE_SECCOMP_GET_FILTER, t->pid, (void *)i, NULL);
	if (n < 0 && errno == ENOENT)
		return 1;
	if (n <= 0 || n > BPF_MAXINSNS)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, n < 0 ? errno : EBADMSG,
				   "read seccomp filter %lu of pid %d", i,
				   (int)t->pid);
	insns = calloc((size_t)n, sizeof(*insns));
	if (!insns || ptrace(PTRACE_SECCOMP_GET_FILTER, t->pid, (void *)i,
			     insns) != n) {
		free(insns);
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, errno ? errno : EIO,
				   "read seccomp filter %lu of pid %d", i,
				   (int)t->pid);
	}
	if (uses_user_notif(insns, (size_t)n)) {
		free(insns);
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EOPNOTSUPP,
				   "filter %lu of pid %d hands calls to a user-space supervisor (SECCOMP_RET_USER_NOTIF), which a copy cannot reach; use --seccomp=none or --seccomp=FILE",
				   i, (int)t->pid);
	}
	*ret = insns;
	*ret_n = n;
	return 0;
}

/* Every filter of the stopped target, into @p oldest first. */
static int read_filters(const struct hijack_target *t, struct hijack_plan *p,
			struct hijack_diag *d)
{
	struct sock_filter *insns = NULL;
	unsigned long i;
	long n = 0;
	int r;

	/* Newest first from the kernel; collect, then reverse. */
	for (i = 0;; i++) {
		r = read_filter(t, i, &insns, &n, d);
		if (r < 0)
			return r;
		if (r > 0)
			break;
		r = hj_filters_add(p, insns, (unsigned short)n);
		if (r < 0) {
			free(insns);
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, -r, "filters");
		}
	}
	for (i = 0; i < p->nfilters / 2; i++) {
		struct sock_fprog *f = p->filters, tmp = f[i];

		f[i] = f[p->nfilters - 1 - i];
		f[p->nfilters - 1 - i] = tmp;
	}
	return 0;
}

static int copy_filters(const struct hijack_target *t, struct hijack_plan *p,
			unsigned long count, struct hijack_diag *d)
{
	int r, sig = 0;

	r = seize_stopped(t, count, &sig, d);
	if (r < 0)
		return r;
	r = read_filters(t, p, d);
	(void)ptrace(PTRACE_DETACH, t->pid, 0, (void *)(long)sig);
	return r;
}

int hj_seccomp_plan_target(const struct hijack_target *t, const char *status,
			   struct hijack_plan *p, struct hijack_diag *d)
{
	char buf[64];
	unsigned long count = 0;
	int r;

	if (hj_status_field(status, "Seccomp", buf, sizeof(buf)) < 0)
		return 0;	/* a kernel without seccomp */
	p->target_seccomp = atoi(buf);
	if (hj_status_field(status, "Seccomp_filters", buf, sizeof(buf)) == 0)
		count = strtoul(buf, NULL, 10);

	if (p->seccomp_mode != HIJACK_FROM_TARGET)
		return 0;
	if (p->target_seccomp == SECCOMP_MODE_STRICT)
		return hj_diag_set(d, HIJACK_STEP_SECCOMP, EOPNOTSUPP,
				   "pid %d is in strict seccomp mode, which allows no exec; use --seccomp=none or --seccomp=FILE",
				   (int)t->pid);
	if (p->target_seccomp != SECCOMP_MODE_FILTER)
		return 0;
	r = copy_filters(t, p, count, d);
	if (r < 0)
		return r;
	return hj_target_check(t, d);
}
