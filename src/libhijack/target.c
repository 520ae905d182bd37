// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * target.c - name a task by pid, hold it by pidfd.
 *
 * A pid is only a number: between reading it and acting on it, the task may
 * exit and the number go to someone else.  So the pidfd is taken first, the
 * /proc/PID directory is opened second, and then the pidfd is asked whether
 * its task still holds the pid.  If it does, the directory is the pinned
 * task's, because a pid is not reused before its task is reaped.  Every
 * later read goes through that directory fd, never through the path again.
 *
 * That holds only if /proc speaks of the pid namespace the pid was given
 * in.  A /proc mounted from another one (a private mount namespace, a
 * container's /proc bind-mounted over the host's) names a different task
 * by the same number: the plan would be read from one process and the
 * namespaces entered through another.  So the pidfd is asked, through that
 * same /proc, what number its task has there (fdinfo "Pid:", counted in
 * the pid namespace of the /proc instance it is read from), and that must
 * be the number the directory was opened by.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>

#include "internal.h"

/*
 * Is @pidfd's task numbered @pid in the /proc of @procroot?  A /proc of a
 * pid namespace that cannot see the caller has no "self": that /proc can
 * prove nothing, and is refused too.
 */
static int check_pin(int procroot, int pidfd, pid_t pid, char *nspid,
		     size_t size, struct hijack_diag *d)
{
	_cleanup_free_ char *info = NULL;
	char path[64], buf[32];
	long nr;
	int r;

	(void)snprintf(path, sizeof(path), "self/fdinfo/%d", pidfd);
	r = hj_read_at(procroot, path, &info, NULL);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, r,
				   "pid %d: /proc/%s (is /proc of another pid namespace?)",
				   (int)pid, path);
	r = hj_status_field(info, "Pid", buf, sizeof(buf));
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, r,
				   "pid %d: no Pid: in /proc/%s", (int)pid, path);
	nr = strtol(buf, NULL, 10);
	if (nr == -1)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d exited while being opened", (int)pid);
	if (nr == 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d: /proc belongs to another pid namespace, which the task is not in",
				   (int)pid);
	if (nr != pid)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d: /proc belongs to another pid namespace, where the task is %ld",
				   (int)pid, nr);
	/* For hj_target_check_status(); none without CONFIG_PID_NS. */
	if (hj_status_field(info, "NSpid", nspid, size) < 0)
		*nspid = '\0';
	return 0;
}

HIJACK_EXPORT int hijack_target_open(pid_t pid, struct hijack_target **ret,
				     struct hijack_diag *d)
{
	_cleanup_close_ int pidfd = -EBADF, procfd = -EBADF, procroot = -EBADF;
	char path[32];
	struct hijack_target *t;
	int r;

	if (pid <= 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
				   "pid %d is not a process id", (int)pid);

	pidfd = pidfd_open(pid, 0);
	if (pidfd < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, errno, "pid %d",
				   (int)pid);

	/* One /proc for both looks, whatever is mounted there meanwhile. */
	procroot = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procroot < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, errno, "/proc");
	(void)snprintf(path, sizeof(path), "%d", (int)pid);
	procfd = openat(procroot, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, errno == ENOENT ?
				   ESRCH : errno, "/proc/%s", path);

	if (pidfd_send_signal(pidfd, 0, NULL, 0) < 0 && errno == ESRCH)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d exited while being opened", (int)pid);
	t = calloc(1, sizeof(*t));
	if (!t)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ENOMEM, "pid %d",
				   (int)pid);
	r = check_pin(procroot, pidfd, pid, t->nspid, sizeof(t->nspid), d);
	if (r < 0) {
		free(t);
		return r;
	}
	t->pid = pid;
	t->pidfd = TAKE_FD(pidfd);
	t->procfd = TAKE_FD(procfd);
	*ret = t;
	return 0;
}

HIJACK_EXPORT void hijack_target_free(struct hijack_target *t)
{
	if (!t)
		return;
	close_fdp(&t->pidfd);
	close_fdp(&t->procfd);
	free(t->container);
	free(t);
}

HIJACK_EXPORT int hijack_target_pidfd(const struct hijack_target *t)
{
	return t->pidfd;
}

HIJACK_EXPORT pid_t hijack_target_pid(const struct hijack_target *t)
{
	return t->pid;
}

/* A pidfd polls readable once its task has exited. */
int hj_target_alive(const struct hijack_target *t)
{
	struct pollfd p = { .fd = t->pidfd, .events = POLLIN };
	int r;

	r = poll(&p, 1, 0);
	if (r < 0)
		return -errno;
	return r > 0 ? -ESRCH : 0;
}

int hj_target_check(const struct hijack_target *t, struct hijack_diag *d)
{
	int r = hj_target_alive(t);

	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, r, "pid %d exited",
				   (int)t->pid);
	return 0;
}

/*
 * The status text read through the pinned /proc/PID must be the pidfd's
 * task's: the same "NSpid:" (its number in the /proc's pid namespace and
 * in every one below) that the pidfd's fdinfo gave through that /proc.
 */
int hj_target_check_status(const struct hijack_target *t, const char *status,
			   struct hijack_diag *d)
{
	char nspid[sizeof(t->nspid)] = "";

	if (!*t->nspid)
		return 0;
	if (hj_status_field(status, "NSpid", nspid, sizeof(nspid)) < 0 ||
	    strcmp(nspid, t->nspid) != 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d: /proc/%d/status is not the pinned task's (NSpid %s, not %s)",
				   (int)t->pid, (int)t->pid, nspid, t->nspid);
	return 0;
}
