// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cgroup.c - the target's cgroups on every hierarchy, found with libmount,
 * and joining them.
 *
 * Hosts here run a hybrid layout: v1 hierarchies (one per controller or
 * controller group, plus named ones like name=systemd) and v2 under
 * /sys/fs/cgroup/unified; others run v2 alone.  /proc/PID/cgroup lists one
 * line per hierarchy, "ID:CONTROLLERS:PATH" (CONTROLLERS empty for v2).
 * Each is matched to a mount of the caller's mount table by filesystem
 * type and, for v1, by the controllers in the superblock options.
 *
 * Joining writes "0" (the writer itself) into each directory, through fds
 * opened on the host before any namespace is entered: inside the target's
 * mount namespace the host's cgroup mounts are not there, and inside its
 * cgroup namespace the caller's own cgroup would be out of reach for the
 * move.
 *
 * On v1 hierarchies the file is "tasks", not "cgroup.procs".  Moving a
 * whole thread group takes the kernel's global cgroup_threadgroup_rwsem
 * for writing, which waits for an RCU grace period: 3.6 ms for two
 * hierarchies on the hosts here, against 0.1 ms for moving the one thread
 * through "tasks", which the kernel does without that lock.  The mover is
 * single-threaded, so moving its thread moves all of it.  On v2 the child
 * is born in place by clone3(CLONE_INTO_CGROUP) instead (spawn-prepare.c).
 */
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>

#include "internal.h"

static void free_cgroup(struct hijack_cgroup *c)
{
	free(c->controllers);
	free(c->path);
	free(c->self_path);
	free(c->dir);
}

void hj_cgroups_free(struct hijack_cgroup *cg, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free_cgroup(&cg[i]);
	free(cg);
}

static void table_unref(struct libmnt_table **tb)
{
	mnt_unref_table(*tb);
}

/* Does the v1 mount @fs carry every controller of @list ("cpu,cpuacct")? */
static bool mount_has_controllers(struct libmnt_fs *fs, const char *list)
{
	const char *opts = mnt_fs_get_fs_options(fs);
	char name[64];
	const char *p = list;

	if (!opts)
		return false;
	while (*p) {
		size_t len = strcspn(p, ",");
		char *val = NULL;
		size_t vlen = 0;

		if (len >= sizeof(name))
			return false;
		memcpy(name, p, len);
		name[len] = '\0';
		if (strncmp(name, "name=", 5) == 0) {
			/* Named hierarchies carry "name=X" as an option. */
			if (mnt_optstr_get_option(opts, "name", &val, &vlen) != 0 ||
			    vlen != strlen(name + 5) ||
			    strncmp(val, name + 5, vlen) != 0)
				return false;
		} else if (mnt_optstr_get_option(opts, name, &val, &vlen) != 0) {
			return false;
		}
		p += len;
		p += *p == ',';
	}
	return true;
}

/* The host directory of cgroup @path on the hierarchy of @controllers. */
static char *find_dir(struct libmnt_table *tb, const char *controllers,
		      const char *path)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	char *dir = NULL;

	if (!it)
		return NULL;
	while (!dir && mnt_table_next_fs(tb, it, &fs) == 0) {
		const char *type = mnt_fs_get_fstype(fs);
		const char *root = mnt_fs_get_root(fs);
		const char *target = mnt_fs_get_target(fs);
		size_t rlen;

		if (!type || !target || !root)
			continue;
		if (*controllers ? strcmp(type, "cgroup") != 0 ||
				   !mount_has_controllers(fs, controllers)
				 : strcmp(type, "cgroup2") != 0)
			continue;
		/* A mount of a subtree serves only paths below its root. */
		rlen = strcmp(root, "/") == 0 ? 0 : strlen(root);
		if (rlen && (strncmp(path, root, rlen) != 0 ||
			     (path[rlen] != '/' && path[rlen] != '\0')))
			continue;
		if (asprintf(&dir, "%s%s", target, path + rlen) < 0)
			dir = NULL;
	}
	mnt_free_iter(it);
	return dir;
}

/* The path of the line of @controllers in a /proc/PID/cgroup text. */
char *hj_cgroup_path_of(const char *text, const char *controllers)
{
	const char *line, *end, *c, *p;
	size_t clen = strlen(controllers);

	for (line = text; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		c = strchr(line, ':');
		if (!c || c > end)
			continue;
		p = memchr(c + 1, ':', (size_t)(end - c - 1));
		if (!p || (size_t)(p - c - 1) != clen ||
		    strncmp(c + 1, controllers, clen) != 0)
			continue;
		return strndup(p + 1, (size_t)(end - p - 1));
	}
	return NULL;
}

int hj_cgroup_plan(const struct hijack_target *t, struct hijack_plan *p,
		   struct hijack_diag *d)
{
	_cleanup_(table_unref) struct libmnt_table *tb = NULL;
	_cleanup_free_ char *text = NULL, *self = NULL;
	struct hijack_cgroup *cg = NULL, *ncg;
	const char *line, *end;
	size_t n = 0;
	int r;

	r = hj_proc_read(t, "cgroup", &text, NULL);
	if (r < 0)
		return hj_proc_fail(d, HIJACK_STEP_OPEN, t->pid, "cgroup", r);
	{
		struct hijack_target me = { .procfd = open("/proc/self",
					    O_RDONLY | O_DIRECTORY | O_CLOEXEC) };

		if (me.procfd < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, errno, "/proc/self");
		r = hj_proc_read(&me, "cgroup", &self, NULL);
		(void)close(me.procfd);
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_OPEN, r, "/proc/self/cgroup");
	}
	tb = mnt_new_table_from_file("/proc/self/mountinfo");
	if (!tb)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno ? errno : EINVAL,
				   "/proc/self/mountinfo");

	for (line = text; *line; line = *end ? end + 1 : end) {
		const char *c, *q;
		struct hijack_cgroup *g;

		end = strchrnul(line, '\n');
		c = strchr(line, ':');
		q = c ? memchr(c + 1, ':', (size_t)(end - c - 1)) : NULL;
		if (!c || c > end || !q)
			continue;
		ncg = realloc(cg, (n + 1) * sizeof(*cg));
		if (!ncg)
			goto nomem;
		cg = ncg;
		g = &cg[n++];
		memset(g, 0, sizeof(*g));
		g->controllers = strndup(c + 1, (size_t)(q - c - 1));
		g->path = strndup(q + 1, (size_t)(end - q - 1));
		if (!g->controllers || !g->path)
			goto nomem;
		g->self_path = hj_cgroup_path_of(self, g->controllers);
		/*
		 * NULL: the hierarchy is not mounted here.  It is joined all
		 * the same (hj_cgroup_open()): skipping it would leave the
		 * command outside the target's limits on it.
		 */
		g->dir = find_dir(tb, g->controllers, g->path);
		g->join = p->cgroup_mode == HIJACK_FROM_TARGET &&
			  (!g->self_path || strcmp(g->self_path, g->path) != 0);
	}
	p->cgroups = cg;
	p->ncgroups = n;
	return 0;
nomem:
	hj_cgroups_free(cg, n);
	return hj_diag_set(d, HIJACK_STEP_CGROUP, ENOMEM, "cgroups of pid %d",
			   (int)t->pid);
}

/*
 * The root of a hierarchy that is not mounted where hijack runs, mounted
 * for hijack alone: a detached mount (fsopen(), Linux 5.2) that no other
 * process sees and that goes with its last fd.  Asking for exactly the
 * controllers (or name=) of the hierarchy gives its existing superblock.
 */
int hj_cgroup_mount_hierarchy(const char *controllers)
{
	_cleanup_close_ int fs = -EBADF;
	char name[64];
	const char *p;
	int mfd;

	fs = fsopen(*controllers ? "cgroup" : "cgroup2", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	if (*controllers && strncmp(controllers, "name=", 5) == 0 &&
	    !strchr(controllers, ',') &&
	    fsconfig(fs, FSCONFIG_SET_FLAG, "none", NULL, 0) < 0)
		return -errno;
	for (p = controllers; *p; p += *p == ',') {
		size_t len = strcspn(p, ",");

		if (len >= sizeof(name))
			return -ENAMETOOLONG;
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		if (strncmp(name, "name=", 5) == 0) {
			if (fsconfig(fs, FSCONFIG_SET_STRING, "name", name + 5, 0) < 0)
				return -errno;
		} else if (fsconfig(fs, FSCONFIG_SET_FLAG, name, NULL, 0) < 0) {
			return -errno;
		}
	}
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -errno;
	mfd = fsmount(fs, FSMOUNT_CLOEXEC, 0);
	return mfd < 0 ? -errno : mfd;
}

/* The directory of @g, an O_PATH fd: by its host path, or privately mounted. */
static int open_dir(const struct hijack_cgroup *g, struct hijack_diag *d)
{
	_cleanup_close_ int mnt = -EBADF;
	const char *rel;
	int fd;

	if (g->dir) {
		fd = open(g->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return hj_diag_set(d, HIJACK_STEP_CGROUP, errno, "%s",
					   g->dir);
		return fd;
	}
	mnt = hj_cgroup_mount_hierarchy(g->controllers);
	if (mnt < 0)
		return hj_diag_set(d, HIJACK_STEP_CGROUP, mnt,
				   "hierarchy %s of the target is not mounted here and cannot be mounted (--cgroups=keep to run outside it)",
				   *g->controllers ? g->controllers : "cgroup2");
	rel = g->path + strspn(g->path, "/");
	fd = openat(mnt, *rel ? rel : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return hj_diag_set(d, HIJACK_STEP_CGROUP, errno, "%s:%s",
				   *g->controllers ? g->controllers : "cgroup2",
				   g->path);
	return fd;
}

/*
 * Before fork: the cgroup.procs (v1: tasks) files to write, on the host,
 * and the v2 directory for clone3() in *ret_v2dir.  @fds and *ret_v2dir
 * must hold -EBADF on entry; what was opened before a failure is left in
 * them for the caller to close.
 */
int hj_cgroup_open(const struct hijack_plan *p, int *fds, int *ret_v2dir,
		   struct hijack_diag *d)
{
	size_t i;

	for (i = 0; i < p->ncgroups; i++) {
		const struct hijack_cgroup *g = &p->cgroups[i];
		_cleanup_close_ int dir = -EBADF;
		const char *file = *g->controllers ? "tasks" : "cgroup.procs";

		if (!g->join)
			continue;
		dir = open_dir(g, d);
		if (dir < 0)
			return dir;
		fds[i] = openat(dir, file, O_WRONLY | O_CLOEXEC);
		if (fds[i] < 0)
			return hj_diag_set(d, HIJACK_STEP_CGROUP, errno, "%s/%s",
					   g->dir ? g->dir : g->path, file);
		if (!*g->controllers)
			*ret_v2dir = TAKE_FD(dir);
	}
	return 0;
}

/* In the child, before entering namespaces: move itself. */
int hj_cgroup_join(const struct hijack_plan *p, const int *fds,
		   struct hijack_diag *d)
{
	size_t i;

	for (i = 0; i < p->ncgroups; i++) {
		const struct hijack_cgroup *g = &p->cgroups[i];

		if (fds[i] < 0)
			continue;
		if (write(fds[i], "0", 1) == 1)
			continue;
		if (errno == EBUSY)
			/* cgroup v2 keeps processes out of inner nodes. */
			return hj_diag_set(d, HIJACK_STEP_CGROUP, EBUSY,
					   "%s: cgroup v2 refuses processes in a cgroup with controllers enabled for its children; use --cgroups=keep",
					   g->dir);
		return hj_diag_set(d, HIJACK_STEP_CGROUP, errno, "join %s%s%s",
				   *g->controllers ? g->controllers : "v2", ":",
				   g->path);
	}
	return 0;
}
