// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * container-proof.c - that a pid an engine gave is still its container's.
 *
 * The pid is stale the moment it is read.  Each engine records a proof of
 * identity with it (the init's start time, or a mark in its cgroup path);
 * hijack_container_open() pins the pid and checks the pinned task against
 * that proof, and only then is the pid safe to use.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Field 22 of /proc/PID/stat, counted after the last ')' of the comm. */
int hj_proc_start_ticks(int procfd, unsigned long long *ret)
{
	_cleanup_free_ char *buf = NULL;
	const char *p;
	int field, r;

	r = hj_read_at(procfd, "stat", &buf, NULL);
	if (r < 0)
		return r;
	p = strrchr(buf, ')');
	if (!p)
		return -EBADMSG;
	/* After ')' comes field 3, the state. */
	for (field = 2; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EBADMSG;
	}
	if (sscanf(p + 1, "%llu", ret) != 1)
		return -EBADMSG;
	return 0;
}

/*
 * Whether a recorded init still runs: the task with its pid started when
 * the record says.  runc and crun test the same to call a container
 * stopped; a stale record (a container killed without "delete") is not
 * listed.  Only a filter: hijack_container_open() checks again after
 * pinning.
 */
bool hj_init_alive(const struct hijack_container *c)
{
	_cleanup_close_ int fd = -EBADF;
	unsigned long long ticks;
	char path[32];

	(void)snprintf(path, sizeof(path), "/proc/%d", (int)c->pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	return hj_proc_start_ticks(fd, &ticks) == 0 && ticks == c->start_ticks;
}

/*
 * Whether a line of /proc/PID/cgroup has @mark as a whole path component,
 * allowing for the decoration engines put around ids ("libpod-ID.scope",
 * "docker-ID.scope").  A substring anywhere would let "web" match "web2".
 */
bool hj_cgroup_has_mark(const char *cgroup_file, const char *mark)
{
	size_t n = strlen(mark);
	const char *p = cgroup_file;

	if (!n)
		return false;
	while ((p = strstr(p, mark))) {
		char before = p == cgroup_file ? '\n' : p[-1];
		char after = p[n];

		if ((before == '/' || before == '-') &&
		    (after == '\0' || after == '\n' || after == '/' ||
		     after == '.'))
			return true;
		p++;
	}
	return false;
}

HIJACK_EXPORT int hijack_container_open(const struct hijack_container *c,
					struct hijack_target **ret,
					struct hijack_diag *d)
{
	struct hijack_target *t = NULL;
	_cleanup_free_ char *cg = NULL;
	unsigned long long ticks;
	bool proved = false;
	int r;

	r = hijack_target_open(c->pid, &t, d);
	if (r < 0) {
		if (r == -ESRCH)
			(void)hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
					  "%s:%s stopped (its init, pid %d, has exited)",
					  c->engine, c->name, (int)c->pid);
		return r;
	}
	if (strcmp(c->engine, "pid") == 0)
		goto done;

	if (c->start_ticks) {
		r = hj_proc_start_ticks(t->procfd, &ticks);
		if (r < 0 || ticks != c->start_ticks)
			goto not_it;
		proved = true;
	}
	if (c->cgroup_mark[0]) {
		r = hj_read_at(t->procfd, "cgroup", &cg, NULL);
		if (r < 0 || !hj_cgroup_has_mark(cg, c->cgroup_mark))
			goto not_it;
		proved = true;
	}
	if (!proved)
		goto not_it;
	/* The proof was read from the pinned task's /proc directory: it
	 * holds only while that task still holds the pid. */
	if (hijack_target_alive(t) < 0)
		goto stopped;
done:
	*ret = t;
	return 0;
not_it:
	/* A dead init (a zombie not yet reaped) still has its pid. */
	if (hijack_target_alive(t) < 0)
		goto stopped;
	r = hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
			"pid %d is no longer %s:%s's (restarted since it was found?)",
			(int)c->pid, c->engine, c->name);
	goto fail;
stopped:
	r = hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
			"%s:%s stopped (its init, pid %d, has exited)",
			c->engine, c->name, (int)c->pid);
fail:
	hijack_target_free(t);
	return r;
}
