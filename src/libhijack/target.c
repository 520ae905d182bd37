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
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/pidfd.h>

#include "internal.h"

HIJACK_EXPORT int hijack_target_open(pid_t pid, struct hijack_target **ret,
				     struct hijack_diag *d)
{
	_cleanup_close_ int pidfd = -EBADF, procfd = -EBADF;
	char path[32];
	struct hijack_target *t;

	if (pid <= 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
				   "pid %d is not a process id", (int)pid);

	pidfd = pidfd_open(pid, 0);
	if (pidfd < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, errno, "pid %d",
				   (int)pid);

	(void)snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	procfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, errno == ENOENT ?
				   ESRCH : errno, "%s", path);

	if (pidfd_send_signal(pidfd, 0, NULL, 0) < 0 && errno == ESRCH)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d exited while being opened", (int)pid);

	t = calloc(1, sizeof(*t));
	if (!t)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ENOMEM, "pid %d",
				   (int)pid);
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
HIJACK_EXPORT int hijack_target_alive(const struct hijack_target *t)
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
	int r = hijack_target_alive(t);

	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, r, "pid %d exited",
				   (int)t->pid);
	return 0;
}
