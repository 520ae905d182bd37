// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * diag.c - error context for the caller to print: which step, on what.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const step_names[_HIJACK_STEP_MAX] = {
	[HIJACK_STEP_NONE] = "none",
	[HIJACK_STEP_OPTIONS] = "options",
	[HIJACK_STEP_TARGET] = "target",
	[HIJACK_STEP_OPEN] = "open",
	[HIJACK_STEP_PLAN] = "plan",
	[HIJACK_STEP_FORK] = "fork",
	[HIJACK_STEP_SETNS] = "setns",
	[HIJACK_STEP_SYSCALL] = "hijack(2)",
	[HIJACK_STEP_ROOT] = "root",
	[HIJACK_STEP_CWD] = "cwd",
	[HIJACK_STEP_CGROUP] = "cgroup",
	[HIJACK_STEP_CREDS] = "credentials",
	[HIJACK_STEP_CAPS] = "capabilities",
	[HIJACK_STEP_SECCOMP] = "seccomp",
	[HIJACK_STEP_LSM] = "lsm",
	[HIJACK_STEP_ENV] = "environment",
	[HIJACK_STEP_FDS] = "fds",
	[HIJACK_STEP_EXEC] = "exec",
	[HIJACK_STEP_WAIT] = "wait",
	[HIJACK_STEP_PTY] = "terminal",
	[HIJACK_STEP_LIMITS] = "limits",
	[HIJACK_STEP_FILE] = "file",
};

HIJACK_EXPORT const char *hijack_step_name(enum hijack_step step)
{
	if ((unsigned int)step >= _HIJACK_STEP_MAX)
		return "unknown";
	return step_names[step];
}

/*
 * Record a failure and return it as a negative errno, so that a caller can
 * write "return hj_diag_set(...)" in one line.  @err may be given either
 * way round; the diag always holds it positive.
 */
int hj_diag_set(struct hijack_diag *d, enum hijack_step step, int err,
		const char *fmt, ...)
{
	va_list ap;

	if (err < 0)
		err = -err;
	if (err == 0)
		err = EIO;
	if (d) {
		d->step = step;
		d->err = err;
		va_start(ap, fmt);
		(void)vsnprintf(d->detail, sizeof(d->detail), fmt, ap);
		va_end(ap);
	}
	return -err;
}
