// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * engine-common.c - what the engines (engine-*.c) share: the list they
 * add their containers to, and reading a runtime's state directory, whose
 * files whoever can write there controls.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "engines.h"
#include "render/jsonw.h"

int hj_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

/*
 * Names from engines end up on terminals, in JSON and in shells' command
 * lines: refuse control characters, the C1 ones (U+0080 to U+009F, which
 * terminals may obey like ESC sequences) included, and what is not UTF-8.
 */
bool hj_printable(const char *s)
{
	unsigned int cp;
	size_t n;

	for (; *s; s += n) {
		n = hj_utf8_char(s, &cp);
		if (!n || cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			return false;
	}
	return true;
}

struct hijack_container *hj_ctlist_add(struct hj_ctlist *l,
				       const char *engine, const char *name,
				       const char *id)
{
	struct hijack_container *c, *v;

	if (!*name || !hj_printable(name) || !hj_printable(id))
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
 * $XDG_RUNTIME_DIR for a user (runc, crun and podman agree on that), and
 * for a user without it (su, cron) under /run/user/UID, which is what the
 * variable names when a login sets it.  Never root's /run for a user:
 * with root's podman service running there, the user got EACCES from its
 * socket, and the listing failed where "podman ps" as the user would
 * have found the container.
 */
int hj_runtime_path(const char *rel, char *buf, size_t size)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (geteuid() == 0)
		n = snprintf(buf, size, "/run/%s", rel);
	else if (xdg && *xdg == '/')
		n = snprintf(buf, size, "%s/%s", xdg, rel);
	else
		n = snprintf(buf, size, "/run/user/%u/%s",
			     (unsigned int)geteuid(), rel);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

bool hj_hint_allows(const struct hj_ctlist *l, const char *s)
{
	return !l->hint || strncmp(s, l->hint, strlen(l->hint)) == 0;
}

/*
 * Record that @engine found @name but does not believe what says it runs
 * (why: the rest, printf-style).  Best effort: a refusal that cannot be
 * recorded only loses its note, the container is not listed either way.
 */
void hj_ctlist_refuse(struct hj_ctlist *l, const char *engine,
		      const char *name, const char *fmt, ...)
{
	struct hj_refusal *v, *r;
	va_list ap;

	if (!*name || !hj_printable(name))
		return;
	v = reallocarray(l->refused, l->n_refused + 1, sizeof(*v));
	if (!v)
		return;
	l->refused = v;
	r = &v[l->n_refused];
	if (hj_copy(r->engine, sizeof(r->engine), engine) < 0 ||
	    hj_copy(r->name, sizeof(r->name), name) < 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	l->n_refused++;
}

void hj_ctlist_free(struct hj_ctlist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
	free(l->refused);
	l->refused = NULL;
	l->n_refused = 0;
}
