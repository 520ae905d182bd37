// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * freezer.c - whether a freezer holds the command, asked when the caller
 * wants it to end and it has not (spawn-wait.c).
 *
 * Everything asked here is the container's to arrange: which cgroup each
 * of the command's threads is in (v1 moves threads one at a time, v2 has
 * threaded cgroups), how deep, under which names, and which other tasks
 * share it.  So the look asks every thread, walks each path one name at a
 * time, reads the freezer's setting rather than its progress where the
 * progress can be held back, and believes a state only of a cgroup that
 * still lists the thread.  An answer it cannot give is "cannot tell"
 * (-errno), which the caller takes as frozen.
 */
#include <dirent.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/*
 * The threads asked at most: a command held by a freezer would keep the
 * caller waiting while the look counted.  Past them the look answers
 * with what it found (a JVM may well have more, and is not to be killed
 * for it); the caller's second signal ends a command that is held
 * anyway (spawn-wait.c: end_held()).
 */
#define THREADS_MAX 1024

/*
 * v2's setting, cgroup.freeze, of the cgroup @fd: 1 set, 0 not.  Its
 * progress, "frozen" in cgroup.events, turns 1 only once every task below
 * is frozen, and a task asleep in an uninterruptible wait (a FUSE request
 * the container never answers) is never frozen: a container could keep
 * the command frozen and the progress 0 for as long as it liked.  A
 * kernel without the v2 freezer has no such file: not set.
 */
static int freeze_set(int fd)
{
	_cleanup_free_ char *s = NULL;
	int r = hj_read_at(fd, "cgroup.freeze", &s, NULL);

	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	return s[0] == '1';
}

/*
 * The directory @rel ("/a/b", as /proc/PID/cgroup gives it) below @dir, an
 * O_PATH fd, opened one name at a time: a container may nest its cgroups
 * deeper than PATH_MAX, which open() refuses as one path.  cgroupfs has no
 * symlinks, so one met here is refused rather than followed.  With @v2,
 * *@set says whether the freezer is set there or on any cgroup on the way
 * (v1's state already says a parent's): a cgroup never changes parent,
 * so those are its ancestors for good.
 */
static int open_below(int dir, const char *rel, bool v2, bool *set)
{
	_cleanup_close_ int cur = -EBADF;
	char name[NAME_MAX + 1];
	const char *s = rel, *e;
	int fd, r;

	cur = fcntl(dir, F_DUPFD_CLOEXEC, 3);
	if (cur < 0)
		return -errno;
	*set = false;
	for (s += strspn(s, "/"); *s; s = e + strspn(e, "/")) {
		e = strchrnul(s, '/');
		if ((size_t)(e - s) > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(name, s, (size_t)(e - s));
		name[e - s] = '\0';
		if (!strcmp(name, ".."))
			return -EINVAL;
		fd = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		(void)close(cur);
		cur = fd;
		if (v2 && !*set) {
			r = freeze_set(cur);
			if (r < 0)
				return r;
			*set = r;
		}
	}
	return TAKE_FD(cur);
}

/*
 * The root of @g's hierarchy as /proc/self/cgroup counts paths from: the
 * host's mount of it when the plan found one whose path ends in the
 * target's, else a private mount of the hierarchy.
 */
static int open_root(const struct hijack_cgroup *g)
{
	_cleanup_free_ char *root = NULL;
	size_t len, plen;
	int fd;

	if (g->dir && g->path) {
		len = strlen(g->dir);
		plen = strcmp(g->path, "/") ? strlen(g->path) : 0;
		if (len >= plen && !strcmp(g->dir + len - plen, g->path + (plen ? 0 : 1))) {
			root = strndup(g->dir, len - plen);
			if (!root)
				return -ENOMEM;
			fd = open(*root ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
			return fd < 0 ? -errno : fd;
		}
	}
	return hj_cgroup_mount_hierarchy(g->controllers);
}

/* Is @id a line of @list, a cgroup's list of pids or thread ids? */
static bool lists_id(const char *list, pid_t id)
{
	const char *s;
	char *end;
	long v;

	for (s = list; *s; s = *end ? end + 1 : end) {
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno)
			return false;
		if (v == id && (*end == '\n' || !*end))
			return true;
		end += strcspn(end, "\n");
	}
	return false;
}

/*
 * Is thread @tid held by @g's freezer?  Asked of the cgroup it is in now
 * (the container may have moved it), from its own /proc/.../cgroup
 * (@text): v1's freezer.state (FREEZING counts: a task that cannot be
 * frozen keeps it there, the others frozen), v2's cgroup.freeze here and
 * above.  1 frozen, 0 not, or -errno when the cgroup cannot be named: the
 * kernel cuts a path at PATH_MAX - 1 characters, and the cut path may
 * name another cgroup the container made; a name on the way that is gone
 * was renamed or removed under the look, which the container can do.  A
 * hierarchy's root has no freezer to ask (and cannot be frozen), and one
 * hijack cannot open is not the container's doing: not frozen, as far as
 * the look can tell.
 *
 * A name leads to a cgroup only as it stood when it was looked up: the
 * container may swap two cgroups' names between the read of @text and
 * the open, and hand the look a thawed sibling.  So the state counts only
 * if @tid is still listed in the cgroup the state was read from, read
 * through the same fd after the state: "tasks" on v1, "cgroup.threads"
 * on v2, both of thread ids.
 */
static int frozen_in(const struct hijack_cgroup *g, int root,
		     const char *text, pid_t tid)
{
	_cleanup_free_ char *rel = NULL, *state = NULL, *ids = NULL;
	_cleanup_close_ int dir = -EBADF;
	bool v2 = !*g->controllers, set = false;
	int r;

	rel = hj_cgroup_path_of(text, g->controllers);
	if (!rel)
		return -ENOENT;
	if (strlen(rel) >= PATH_MAX - 1)
		return -ENAMETOOLONG;
	if (!rel[strspn(rel, "/")])
		return 0;
	if (root < 0)
		return 0;
	dir = open_below(root, rel, v2, &set);
	if (dir < 0)
		return dir;
	if (!v2) {
		r = hj_read_at(dir, "freezer.state", &state, NULL);
		if (r < 0)
			return r;
		set = !strncmp(state, "FROZEN", 6) || !strncmp(state, "FREEZING", 8);
	}
	r = hj_read_at(dir, v2 ? "cgroup.threads" : "tasks", &ids, NULL);
	if (r < 0)
		return r;
	if (!lists_id(ids, tid))
		return -ESTALE;
	return set;
}

/* Is @name among the controllers of @list ("cpu,freezer"), an option list? */
static bool has_controller(const char *list, const char *name)
{
	char *val = NULL;
	size_t vlen = 0;

	return mnt_optstr_get_option(list, name, &val, &vlen) == 0;
}

/*
 * Thread @tid of @pid on every freezer hierarchy of the plan, whose roots
 * are @roots (-errno for one hijack cannot open; -EBADF for one without a
 * freezer).  A thread that has ended meanwhile holds nothing: 0.
 */
static int thread_frozen(const struct hijack_plan *p, const int *roots,
			 pid_t pid, pid_t tid)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	int r, ret = 0;
	size_t i;

	(void)snprintf(path, sizeof(path), "/proc/%d/task/%d/cgroup", (int)pid,
		       (int)tid);
	r = hj_read_at(AT_FDCWD, path, &text, NULL);
	if (r == -ENOENT || r == -ESRCH)
		return 0;
	if (r < 0)
		return r;
	for (i = 0; i < p->ncgroups; i++) {
		if (roots[i] == -EBADF)
			continue;
		r = frozen_in(&p->cgroups[i], roots[i], text, tid);
		if (r > 0)
			return 1;
		if (r < 0 && ret == 0)
			ret = r;
	}
	/* Listed nowhere it claimed to be, because it has ended since. */
	if (ret == -ESTALE) {
		(void)snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid,
			       (int)tid);
		if (access(path, F_OK) < 0 && errno == ENOENT)
			return 0;
	}
	return ret;
}

/*
 * Is the command @pid held by a freezer?  Any of its threads may be the
 * one a signal waits for (the others may block it), so each is asked:
 * 1 when one is frozen, 0 when none is, else -errno.
 */
/* Every thread of @pid, each hierarchy's root opened once for them all. */
static int threads_frozen(const struct hijack_plan *p, const int *roots,
			  pid_t pid)
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *e;
	char path[64];
	int r, ret = 0;
	size_t n = 0;
	char *end;
	long tid;

	(void)snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	r = hj_opendir(path, &dir);
	if (r <= 0)
		return r;	/* gone: it has ended */
	while ((errno = 0, e = readdir(dir))) {
		tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0)
			continue;
		if (++n > THREADS_MAX)
			break;
		r = thread_frozen(p, roots, pid, (pid_t)tid);
		if (r > 0)
			return 1;
		if (r < 0 && ret == 0)
			ret = r;
	}
	if (n <= THREADS_MAX && errno)
		return -errno;
	return ret;
}

int hj_cgroup_frozen(const struct hijack_plan *p, pid_t pid)
{
	int *roots;
	size_t i;
	int r;

	roots = calloc(p->ncgroups ? p->ncgroups : 1, sizeof(*roots));
	if (!roots)
		return -ENOMEM;
	for (i = 0; i < p->ncgroups; i++) {
		const struct hijack_cgroup *g = &p->cgroups[i];

		roots[i] = *g->controllers && !has_controller(g->controllers, "freezer") ?
				   -EBADF : open_root(g);
	}
	r = threads_frozen(p, roots, pid);
	for (i = 0; i < p->ncgroups; i++)
		if (roots[i] >= 0)
			(void)close(roots[i]);
	free(roots);
	return r;
}
