// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * limits.c - the target's resource limits and OOM score adjustment.
 *
 * Runtimes confine a container with these as much as with cgroups: a low
 * RLIMIT_NOFILE or RLIMIT_NPROC, a core size of 0, an oom_score_adj that
 * makes it the first to go when memory runs out.  A command entered with
 * the caller's limits would escape all of them.
 *
 * Raising a hard limit above one's own, or lowering oom_score_adj, needs
 * CAP_SYS_RESOURCE in the initial user namespace, which a process that
 * joined a container's user namespace no longer has.  Where that leaves
 * the target's value out of reach, the command keeps the caller's lower
 * hard limit, or its higher oom_score_adj: stricter than the target,
 * never looser.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "internal.h"

/* By RLIMIT_* number: prlimit(1)'s name, and the row of /proc/PID/limits. */
static const struct {
	const char *name;
	const char *row;
} rlimits[HIJACK_NRLIMITS] = {
	[RLIMIT_CPU] = { "cpu", "Max cpu time" },
	[RLIMIT_FSIZE] = { "fsize", "Max file size" },
	[RLIMIT_DATA] = { "data", "Max data size" },
	[RLIMIT_STACK] = { "stack", "Max stack size" },
	[RLIMIT_CORE] = { "core", "Max core file size" },
	[RLIMIT_RSS] = { "rss", "Max resident set" },
	[RLIMIT_NPROC] = { "nproc", "Max processes" },
	[RLIMIT_NOFILE] = { "nofile", "Max open files" },
	[RLIMIT_MEMLOCK] = { "memlock", "Max locked memory" },
	[RLIMIT_AS] = { "as", "Max address space" },
	[RLIMIT_LOCKS] = { "locks", "Max file locks" },
	[RLIMIT_SIGPENDING] = { "sigpending", "Max pending signals" },
	[RLIMIT_MSGQUEUE] = { "msgqueue", "Max msgqueue size" },
	[RLIMIT_NICE] = { "nice", "Max nice priority" },
	[RLIMIT_RTPRIO] = { "rtprio", "Max realtime priority" },
	[RLIMIT_RTTIME] = { "rttime", "Max realtime timeout" },
};

const char *hj_rlimit_name(int resource)
{
	if (resource < 0 || resource >= HIJACK_NRLIMITS || !rlimits[resource].name)
		return "unknown";
	return rlimits[resource].name;
}

static int parse_value(const char *s, unsigned long long *ret)
{
	char *end;

	if (strcmp(s, "unlimited") == 0) {
		*ret = (unsigned long long)RLIM_INFINITY;
		return 0;
	}
	/* Digits only: strtoull() reads "-1" as the largest value, unlimited. */
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*ret = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/*
 * The target's limits from /proc/PID/limits, read through the pinned
 * directory like every other look at the target: prlimit(2) would name it
 * by a pid again, and wants CAP_SYS_RESOURCE for a task of another user,
 * which root in a container host's sandbox may lack.  The format is the
 * kernel's (fs/proc/base.c): a header, then one row per resource, a
 * fixed name followed by the soft and the hard limit.
 */
static int read_target(const struct hijack_target *t, struct hijack_limits *ret,
		       struct hijack_diag *d)
{
	_cleanup_free_ char *buf = NULL;
	char soft[32], hard[32], *line, *save = NULL;
	size_t len;
	int r, i;

	r = hj_proc_read(t, "limits", &buf, NULL);
	if (r < 0)
		return hj_proc_fail(d, HIJACK_STEP_LIMITS, t->pid, "limits", r);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < HIJACK_NRLIMITS; i++) {
			len = strlen(rlimits[i].row);
			if (strncmp(line, rlimits[i].row, len) == 0 && line[len] == ' ')
				break;
		}
		if (i == HIJACK_NRLIMITS)
			continue;	/* the header, or a resource newer than us */
		if (sscanf(line + len, "%31s %31s", soft, hard) != 2 ||
		    parse_value(soft, &ret->lim[i].cur) < 0 ||
		    parse_value(hard, &ret->lim[i].max) < 0)
			return hj_diag_set(d, HIJACK_STEP_LIMITS, EINVAL,
					   "/proc/%d/limits: '%s'", (int)t->pid, line);
		ret->have |= BIT(i);
	}
	return 0;
}

/* @t: the target, or NULL for the caller. */
int hj_limits_read(const struct hijack_target *t, struct hijack_limits *ret,
		   struct hijack_diag *d)
{
	_cleanup_free_ char *buf = NULL;
	struct rlimit rl;
	int r, i;

	*ret = (struct hijack_limits){ 0 };
	if (t) {
		r = read_target(t, ret, d);
		if (r < 0)
			return r;
		r = hj_proc_read(t, "oom_score_adj", &buf, NULL);
	} else {
		for (i = 0; i < HIJACK_NRLIMITS; i++) {
			if (getrlimit((__rlimit_resource_t)i, &rl) < 0)
				continue;	/* a resource this kernel lacks */
			ret->have |= BIT(i);
			ret->lim[i].cur = rl.rlim_cur;
			ret->lim[i].max = rl.rlim_max;
		}
		r = hj_read_at(AT_FDCWD, "/proc/self/oom_score_adj", &buf, NULL);
	}
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_LIMITS, r, "oom_score_adj of pid %d",
				   (int)(t ? t->pid : getpid()));
	ret->oom_score_adj = atoi(buf);
	return 0;
}

/*
 * Set the caller's own oom_score_adj to @adj, returning the old one in
 * @ret_old: hijack holds the target's value while it creates the command,
 * which inherits it at fork.  Done here rather than in the command
 * because only the host's user namespace may lower it, and because the
 * command may have lost the right to its own /proc files by then (a
 * credential change makes it non-dumpable until exec).  A lower value the
 * caller may not take is left higher: stricter, never looser.
 */
int hj_oom_swap(int adj, int *ret_old, struct hijack_diag *d)
{
	_cleanup_close_ int fd = -EBADF;
	char buf[16];
	ssize_t n;

	fd = open("/proc/self/oom_score_adj", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return hj_diag_set(d, HIJACK_STEP_LIMITS, errno,
				   "/proc/self/oom_score_adj");
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return hj_diag_set(d, HIJACK_STEP_LIMITS, n < 0 ? errno : EIO,
				   "/proc/self/oom_score_adj");
	buf[n] = '\0';
	*ret_old = atoi(buf);
	if (adj == *ret_old)
		return 0;
	n = snprintf(buf, sizeof(buf), "%d", adj);
	if (pwrite(fd, buf, (size_t)n, 0) == n)
		return 0;
	if ((errno == EACCES || errno == EPERM) && adj < *ret_old)
		return 0;
	return hj_diag_set(d, HIJACK_STEP_LIMITS, errno, "oom_score_adj %d", adj);
}

/* In the command's process, after the credentials, before exec. */
int hj_limits_apply(const struct hijack_limits *want, struct hijack_diag *d)
{
	struct rlimit rl, now;
	int i;

	for (i = 0; i < HIJACK_NRLIMITS; i++) {
		if (!(want->have & BIT(i)))
			continue;
		rl.rlim_cur = want->lim[i].cur;
		rl.rlim_max = want->lim[i].max;
		if (setrlimit((__rlimit_resource_t)i, &rl) == 0)
			continue;
		if (errno != EPERM ||
		    getrlimit((__rlimit_resource_t)i, &now) < 0)
			return hj_diag_set(d, HIJACK_STEP_LIMITS, errno,
					   "%s limit", hj_rlimit_name(i));
		/* The hard limit cannot go up: keep ours, which is lower. */
		if (rl.rlim_max > now.rlim_max)
			rl.rlim_max = now.rlim_max;
		if (rl.rlim_cur > rl.rlim_max)
			rl.rlim_cur = rl.rlim_max;
		if (setrlimit((__rlimit_resource_t)i, &rl) < 0)
			return hj_diag_set(d, HIJACK_STEP_LIMITS, errno,
					   "%s limit", hj_rlimit_name(i));
	}
	return 0;
}
