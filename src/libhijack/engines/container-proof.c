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

#include "engines.h"

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
 * How engines decorate a mark in their cgroup paths, besides the bare
 * component ("/docker/ID", "/lxc.payload.NAME", "machine-NAME.scope"):
 * the systemd cgroup driver's scopes, and Podman's cgroupfs "libpod-ID".
 * Nothing else is accepted around a mark: "lxc.payload.web" followed by
 * ".1" is another container, web.1.
 */
static const struct mark_form {
	const char *engine, *prefix, *suffix;
} mark_forms[] = {
	{ "docker", "docker-", ".scope" },
	{ "podman", "libpod-", ".scope" },
	{ "podman", "libpod-", "" },
};

#define LXC_PAYLOAD "lxc.payload."

static bool has_affixes(const char *s, size_t len, const char *prefix,
			const char *mark, const char *suffix)
{
	size_t p = strlen(prefix), m = strlen(mark), x = strlen(suffix);

	return len == p + m + x && memcmp(s, prefix, p) == 0 &&
	       memcmp(s + p, mark, m) == 0 && memcmp(s + p + m, suffix, x) == 0;
}

static bool is_mark(const char *s, size_t len, const char *engine,
		    const char *mark)
{
	size_t i;

	if (has_affixes(s, len, "", mark, ""))
		return true;
	for (i = 0; i < ARRAY_SIZE(mark_forms); i++)
		if (strcmp(mark_forms[i].engine, engine) == 0 &&
		    has_affixes(s, len, mark_forms[i].prefix, mark,
				mark_forms[i].suffix))
			return true;
	return false;
}

/*
 * Whether the cgroup path [@p, @end) has @mark as one whole component.
 * LXC's marks count only as the first "lxc.payload." component: below it
 * is the container's own subtree, where a container with a delegated
 * cgroup can make "lxc.payload.OTHER" for a container it is not.
 */
static bool path_has_mark(const char *p, const char *end, const char *engine,
			  const char *mark)
{
	bool lxc = strncmp(mark, LXC_PAYLOAD, strlen(LXC_PAYLOAD)) == 0;

	while (p < end) {
		const char *c = memchr(p, '/', (size_t)(end - p));
		size_t len;

		if (!c)
			c = end;
		len = (size_t)(c - p);
		if (len && is_mark(p, len, engine, mark))
			return true;
		if (lxc && len >= strlen(LXC_PAYLOAD) &&
		    memcmp(p, LXC_PAYLOAD, strlen(LXC_PAYLOAD)) == 0)
			return false;
		p = c + 1;
	}
	return false;
}

/*
 * Whether a line of /proc/PID/cgroup ("ID:CONTROLLERS:PATH") has @mark,
 * as @engine writes it, as a whole component of its path.  A substring
 * anywhere would let "web" match "web2", and a prefix "web" match "web.1".
 */
bool hj_cgroup_has_mark(const char *cgroup_file, const char *engine,
			const char *mark)
{
	const char *line, *end, *path;

	if (!*mark || strchr(mark, '/'))
		return false;
	for (line = cgroup_file; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		path = memchr(line, ':', (size_t)(end - line));
		if (path)
			path = memchr(path + 1, ':', (size_t)(end - path - 1));
		if (path && path_has_mark(path + 1, end, engine, mark))
			return true;
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

	if (strcmp(c->state, "refused") == 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, EPERM,
				   "%s:%s was not believed by its engine's checks",
				   c->engine, c->name);
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
		if (r < 0 || !hj_cgroup_has_mark(cg, c->engine, c->cgroup_mark))
			goto not_it;
		proved = true;
	}
	if (!proved)
		goto not_it;
	/* The proof was read from the pinned task's /proc directory: it
	 * holds only while that task still holds the pid. */
	if (hj_target_alive(t) < 0)
		goto stopped;
done:
	t->container = malloc(sizeof(*t->container));
	if (!t->container) {
		r = hj_diag_set(d, HIJACK_STEP_TARGET, ENOMEM, "%s:%s",
				c->engine, c->name);
		goto fail;
	}
	*t->container = *c;
	*ret = t;
	return 0;
not_it:
	/* A dead init (a zombie not yet reaped) still has its pid. */
	if (hj_target_alive(t) < 0)
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
