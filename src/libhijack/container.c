// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * container.c - name a container instead of a pid.
 *
 * Each engine (engine-*.c) only reads its own record of its containers and
 * says, for each, its name, id, init pid and a proof of identity.  This file
 * does what is common: matching "[ENGINE:]NAME" against every engine
 * present, folding the same container seen by two engines into one, and,
 * once a pid is chosen, pinning it and checking the pinned task against the
 * proof.  The pid an engine gives is stale the moment it is read; only the
 * check after pinning makes it safe to use.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/*
 * The search order, which is also the order of preference when one
 * container shows up in several engines: the engine that made it comes
 * before the lower layers it uses (docker's containers are containerd's
 * "moby/ID" and runc's too; podman's are runc's or crun's).
 */
static const struct hj_engine *const engines[] = {
	&hj_engine_lxc,	       &hj_engine_incus,  &hj_engine_docker,
	&hj_engine_podman,     &hj_engine_machine, &hj_engine_containerd,
	&hj_engine_runc,       &hj_engine_crun,
};

static const char *const engine_names[] = {
	"lxc",	      "incus", "docker", "podman", "machine",
	"containerd", "runc",  "crun",	 "pid",	   NULL,
};

HIJACK_EXPORT const char *const *hijack_engine_names(void)
{
	return engine_names;
}

int hj_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

/* Names from engines end up on terminals: refuse control characters. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

struct hijack_container *hj_ctlist_add(struct hj_ctlist *l,
				       const char *engine, const char *name,
				       const char *id)
{
	struct hijack_container *c, *v;

	if (!*name || !printable(name) || !printable(id))
		return NULL;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;

		v = reallocarray(l->v, cap, sizeof(*v));
		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	c = &l->v[l->n];
	memset(c, 0, sizeof(*c));
	if (hj_copy(c->engine, sizeof(c->engine), engine) < 0 ||
	    hj_copy(c->name, sizeof(c->name), name) < 0 ||
	    hj_copy(c->id, sizeof(c->id), *id ? id : name) < 0)
		return NULL;
	(void)hj_copy(c->state, sizeof(c->state), "running");
	l->n++;
	return c;
}

/*
 * Open an engine's state directory.  Return 1 with @ret set, 0 when it
 * does not exist (the engine is not installed or never ran), or -errno.
 */
int hj_opendir(const char *path, DIR **ret)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	*ret = fdopendir(fd);
	if (!*ret) {
		close_fdp(&fd);
		return -errno;
	}
	return 1;
}

/*
 * Call @add for each container directory of a runtime's state @root (runc
 * and crun keep one per container, named after its id): entries a hint
 * rules out, dot entries and symlinks are not opened.  Return 1 when the
 * root exists, 0 when it does not, or -errno.
 */
int hj_state_dirs(struct hj_ctlist *l, const char *engine, const char *root,
		  int (*add)(struct hj_ctlist *l, const char *engine, int cfd,
			     const char *id))
{
	_cleanup_closedir_ DIR *dir = NULL;
	struct dirent *de;
	int r;

	r = hj_opendir(root, &dir);
	if (r <= 0)
		return r;
	while ((de = readdir(dir))) {
		_cleanup_close_ int cfd = -EBADF;

		if (de->d_name[0] == '.' || !hj_hint_allows(l, de->d_name))
			continue;
		cfd = openat(dirfd(dir), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd >= 0)
			(void)add(l, engine, cfd, de->d_name);
	}
	return 1;
}

/*
 * Read an engine's record @name under @dirfd.  Whoever can write in a
 * state directory must not make hijack block (a FIFO), read elsewhere (a
 * symlink), or allocate without end: a regular file, not followed, of at
 * most the size an API answer may have (http.c).
 */
int hj_state_read(int dirfd, const char *name, char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = -EBADF;
	struct stat st;
	size_t len;
	int r;

	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EBADMSG;
	r = hj_read_fd_all(fd, HJ_STATE_MAX, HJ_STATE_TIMEOUT_MS, ret, &len);
	if (r == 0 && ret_len)
		*ret_len = len;
	return r;
}

/*
 * Where a runtime keeps its state: under /run for root, under
 * $XDG_RUNTIME_DIR for a user (runc, crun and podman agree on that).
 */
int hj_runtime_path(const char *rel, char *buf, size_t size)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (geteuid() == 0 || !xdg || *xdg != '/')
		n = snprintf(buf, size, "/run/%s", rel);
	else
		n = snprintf(buf, size, "%s/%s", xdg, rel);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool hj_hint_allows(const struct hj_ctlist *l, const char *s)
{
	return !l->hint || strncmp(s, l->hint, strlen(l->hint)) == 0;
}

void hj_ctlist_free(struct hj_ctlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static const struct hj_engine *engine_by_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++)
		if (strlen(engines[i]->name) == len &&
		    strncmp(engines[i]->name, name, len) == 0)
			return engines[i];
	return NULL;
}

static int engine_rank(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++)
		if (strcmp(engines[i]->name, name) == 0)
			return (int)i;
	return (int)ARRAY_SIZE(engines);
}

/* Complete one entry whose engine's list did not tell everything. */
static int inspect(struct hijack_container *c)
{
	const struct hj_engine *e = engine_by_name(c->engine,
						   strlen(c->engine));

	if (c->pid > 0 || !e || !e->inspect)
		return 0;
	return e->inspect(c);
}

/*
 * Keep the first of the entries with the same pid, in engine order: the
 * same container seen through a lower layer is not a second candidate.
 * Entries without a pid (not running after all) are dropped.
 */
static void fold(struct hj_ctlist *l)
{
	size_t i, j, n = 0;

	for (i = 0; i < l->n; i++) {
		struct hijack_container *c = &l->v[i];
		bool dup = c->pid <= 0;

		for (j = 0; j < n && !dup; j++) {
			if (l->v[j].pid != c->pid)
				continue;
			dup = true;
			if (engine_rank(c->engine) < engine_rank(l->v[j].engine))
				l->v[j] = *c;
		}
		if (!dup)
			l->v[n++] = *c;
	}
	l->n = n;
}

/*
 * Ask one engine, or all; @searched gets the names of the engines present.
 * Without an engine named, one that cannot be read (a daemon's socket we
 * may not open) is passed over: the container may be elsewhere.
 */
static int collect(const struct hj_engine *only, struct hj_ctlist *l,
		   char *searched, size_t size, struct hijack_diag *d)
{
	size_t i, len = 0;
	int r;

	if (searched)
		searched[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(engines); i++) {
		const struct hj_engine *e = engines[i];

		if (only && e != only)
			continue;
		r = e->list(l);
		if (r < 0 && only)
			return hj_diag_set(d, HIJACK_STEP_TARGET, -r,
					   "reading %s's containers", e->name);
		if (r <= 0 || !searched)
			continue;
		r = snprintf(searched + len, size - len, "%s%s",
			     len ? ", " : "", e->name);
		if (r > 0 && (size_t)r < size - len)
			len += (size_t)r;
	}
	if (searched && !len)
		(void)hj_copy(searched, size, "none present");
	return 0;
}

static int by_engine(const struct hijack_container *a,
		     const struct hijack_container *b)
{
	int r = engine_rank(a->engine) - engine_rank(b->engine);

	return r ? r : strcmp(a->name, b->name);
}

static int cmp_containers(const void *a, const void *b)
{
	return by_engine(a, b);
}

HIJACK_EXPORT int hijack_containers_list(const char *engine,
					 struct hijack_container **ret,
					 size_t *ret_n, struct hijack_diag *d)
{
	const struct hj_engine *only = NULL;
	struct hj_ctlist l = { 0 };
	size_t i;
	int r;

	if (engine) {
		only = engine_by_name(engine, strlen(engine));
		if (!only)
			return hj_diag_set(d, HIJACK_STEP_TARGET, ENOENT,
					   "unknown engine '%s'", engine);
	}
	r = collect(only, &l, NULL, 0, d);
	if (r < 0)
		goto fail;
	for (i = 0; i < l.n; i++)
		if (inspect(&l.v[i]) < 0)
			l.v[i].pid = 0;
	fold(&l);
	qsort(l.v, l.n, sizeof(*l.v), cmp_containers);
	*ret = l.v;
	*ret_n = l.n;
	return 0;
fail:
	hj_ctlist_free(&l);
	return r;
}

/* 2: the name or the full id; 1: a prefix of the id; 0: no match. */
static int match(const struct hijack_container *c, const char *name)
{
	size_t n = strlen(name);

	if (strcmp(c->name, name) == 0 || strcmp(c->id, name) == 0)
		return 2;
	/* containerd: "ID" means "default/ID". */
	if (strcmp(c->engine, "containerd") == 0 &&
	    strncmp(c->name, "default/", 8) == 0 && strcmp(c->name + 8, name) == 0)
		return 2;
	if (n && strncmp(c->id, name, n) == 0)
		return 1;
	/* containerd: "NAMESPACE/ID-PREFIX". */
	if (strcmp(c->engine, "containerd") == 0 && strchr(name, '/') &&
	    strncmp(c->name, name, n) == 0)
		return 1;
	return 0;
}

static int find_pid(const char *s, struct hijack_container *ret,
		    struct hijack_diag *d)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT32_MAX || !isdigit(*s))
		return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
				   "invalid pid '%s' in pid:PID", s);
	memset(ret, 0, sizeof(*ret));
	(void)hj_copy(ret->engine, sizeof(ret->engine), "pid");
	(void)hj_copy(ret->name, sizeof(ret->name), s);
	(void)hj_copy(ret->id, sizeof(ret->id), s);
	(void)hj_copy(ret->state, sizeof(ret->state), "running");
	ret->pid = (pid_t)v;
	return 0;
}

HIJACK_EXPORT int hijack_container_find(const char *target,
					struct hijack_container *ret,
					struct hijack_diag *d)
{
	const struct hj_engine *only = NULL;
	struct hj_ctlist l = { 0 };
	const char *name = target, *colon;
	char searched[160], names[200];
	size_t i, n = 0, len = 0;
	int best = 0, r;

	colon = strchr(target, ':');
	if (colon) {
		if (colon - target == 3 && strncmp(target, "pid", 3) == 0)
			return find_pid(colon + 1, ret, d);
		only = engine_by_name(target, (size_t)(colon - target));
		if (!only)
			return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
					   "unknown engine '%.*s' in '%s' (known: lxc incus docker podman machine containerd runc crun pid)",
					   (int)(colon - target), target, target);
		name = colon + 1;
	}
	if (!*name || !printable(name))
		return hj_diag_set(d, HIJACK_STEP_TARGET, EINVAL,
				   "empty or unprintable container name");

	/* Entries that cannot match need not be read whole. */
	l.hint = name;
	r = collect(only, &l, searched, sizeof(searched), d);
	if (r < 0)
		goto out;

	/* Exact names and ids win over prefixes, as in docker. */
	for (i = 0; i < l.n; i++) {
		int m = match(&l.v[i], name);

		if (m > best) {
			best = m;
			n = 0;
		}
		if (m && m == best)
			l.v[n++] = l.v[i];
	}
	l.n = n;
	for (i = 0; i < l.n; i++)
		if (inspect(&l.v[i]) < 0)
			l.v[i].pid = 0;
	fold(&l);

	if (l.n == 0 && only && strcmp(searched, "none present") == 0) {
		r = hj_diag_set(d, HIJACK_STEP_TARGET, ENOENT,
				"no running container '%s': %s is not installed or not running here",
				name, only->name);
		goto out;
	}
	if (l.n == 0) {
		r = hj_diag_set(d, HIJACK_STEP_TARGET, ENOENT,
				"no running container '%s' (searched: %s)",
				name, searched);
		goto out;
	}
	if (l.n > 1) {
		qsort(l.v, l.n, sizeof(*l.v), cmp_containers);
		names[0] = '\0';
		for (i = 0; i < l.n; i++) {
			r = snprintf(names + len, sizeof(names) - len, "%s%s:%s",
				     i ? " " : "", l.v[i].engine, l.v[i].name);
			if (r < 0 || (size_t)r >= sizeof(names) - len)
				break;
			len += (size_t)r;
		}
		r = hj_diag_set(d, HIJACK_STEP_TARGET, ENOTUNIQ,
				"'%s' matches several containers: %s", name,
				names);
		goto out;
	}
	*ret = l.v[0];
	r = 0;
out:
	hj_ctlist_free(&l);
	return r;
}

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

HIJACK_EXPORT int hijack_container_print(const struct hijack_container *c,
					 bool json, FILE *f)
{
	json_t *j;
	int r;

	if (!json) {
		fprintf(f, "container: %s:%s\nid:      %s\nstate:   %s\ninit:    pid %d\n",
			c->engine, c->name, c->id, c->state, (int)c->pid);
		return ferror(f) ? -EIO : 0;
	}
	/* jansson escapes, and refuses what is not UTF-8. */
	j = json_pack("{s:s,s:s,s:s,s:s,s:i}", "engine", c->engine, "name",
		      c->name, "id", c->id, "state", c->state, "pid",
		      (int)c->pid);
	if (!j)
		return -EILSEQ;
	r = json_dumpf(j, f, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	return r < 0 || ferror(f) ? -EIO : 0;
}
