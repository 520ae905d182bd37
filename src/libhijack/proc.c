// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc.c - small reads from a pinned target's /proc directory.
 *
 * Every read goes through the directory fd opened when the target was
 * pinned (target.c), never through a path built from the pid again.
 */
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "internal.h"

/*
 * Read a whole file, @name relative to @dirfd, into a new NUL-terminated
 * buffer.  @ret_len gets the length without the terminator (files like
 * environ hold NULs of their own).
 */
int hj_read_at(int dirfd, const char *name, char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = -EBADF;
	size_t len = 0, size = 4096;
	char *buf = NULL, *nbuf;
	ssize_t n;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (!buf || len + 1 >= size) {
			size *= 2;
			nbuf = realloc(buf, size);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*ret = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
}

/*
 * The first line of a small file of the host's own (/sys, /proc/self),
 * without its newline, cut to @size - 1 bytes.  For files the kernel
 * writes, not a container: those go through hj_root_read().
 */
int hj_read_line(const char *path, char *buf, size_t size)
{
	_cleanup_close_ int fd = -EBADF;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/*
 * Open @rel, a path in the container whose root directory is @rootfd, the
 * way the container itself would see it, and nothing else:
 *  - looked up with @rootfd as "/" (RESOLVE_IN_ROOT): an absolute symlink
 *    or ".." stays inside, instead of reaching the host's files; no magic
 *    links (/proc/self/fd/N) to jump through either;
 *  - @flags as openat()'s (O_CLOEXEC is added).
 * Kernels before 5.6 lack openat2(): there every component is opened
 * with O_NOFOLLOW instead, so that no symlink is followed at all, and a
 * ".." component, which would climb above @rootfd, is refused.
 */
int hj_root_open(int rootfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	_cleanup_close_ int dir = -EBADF;
	char part[256];
	const char *p, *slash;
	size_t len;
	int fd;

	/* "/" names the root; "" names nothing, as for openat(). */
	if (*rel == '/') {
		rel += strspn(rel, "/");
		if (!*rel)
			rel = ".";
	}
	fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return fd < 0 ? -errno : fd;
	/* EPERM too: a seccomp filter of the caller's may refuse the new call. */
	dir = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	if (dir < 0)
		return -errno;
	for (p = rel; (slash = strchr(p, '/')); p = slash + 1) {
		len = (size_t)(slash - p);
		if (len >= sizeof(part))
			return -ENAMETOOLONG;
		if (!len)
			continue;
		memcpy(part, p, len);
		part[len] = '\0';
		if (strcmp(part, "..") == 0)
			return -EXDEV;
		fd = openat(dir, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		close_fdp(&dir);
		dir = fd;
	}
	if (strcmp(p, "..") == 0)
		return -EXDEV;
	fd = openat(dir, p, (int)how.flags | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

/*
 * Read @rel in the container whose root is @rootfd (hj_root_open()):
 *  - opened O_NONBLOCK, so that a FIFO put there cannot hang hijack, and
 *    read only if it is a regular file (no /dev/zero, no sockets);
 *  - at most @max bytes: a larger file is refused, never truncated, since
 *    a cut line could name a different user.
 */
int hj_root_read(int rootfd, const char *rel, size_t max, char **ret,
		 size_t *ret_len)
{
	_cleanup_close_ int fd = -EBADF;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, size;
	struct stat st;
	ssize_t n;

	fd = hj_root_open(rootfd, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_size < 0 || (size_t)st.st_size > max)
		return -EFBIG;
	size = (size_t)st.st_size;
	buf = malloc(size + 2);
	if (!buf)
		return -ENOMEM;
	/* One byte more than fstat() said: a file still growing is refused. */
	while (len <= size) {
		n = read(fd, buf + len, size + 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > size)
		return -EBUSY;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

/* The same for a /proc file of the target. */
int hj_proc_read(const struct hijack_target *t, const char *name,
		 char **ret, size_t *ret_len)
{
	return hj_read_at(t->procfd, name, ret, ret_len);
}

/*
 * The value of one "Key:\tvalue" line of a /proc/PID/status text, copied
 * into @buf.  The format is documented in proc(5) and stable; no library
 * of ours reads it.  The kernel renders the whole file on every read, so
 * the plan reads it once and asks this for each field.
 */
int hj_status_field(const char *status, const char *key, char *buf,
		    size_t size)
{
	size_t klen = strlen(key);
	const char *line, *end;

	for (line = status; line && *line; line = end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		if (strncmp(line, key, klen) != 0 || line[klen] != ':')
			continue;
		line += klen + 1;
		line += strspn(line, " \t");
		if (!end)
			end = line + strlen(line);
		if ((size_t)(end - line) >= size)
			return -ENAMETOOLONG;
		memcpy(buf, line, (size_t)(end - line));
		buf[end - line] = '\0';
		return 0;
	}
	return -ENOENT;
}

/*
 * Translate an id as the caller sees it into the id the target's user
 * namespace gives it, using /proc/PID/{uid,gid}_map (whose middle column
 * is in the reader's namespace).  -ERANGE when it is not mapped there.
 */
int hj_proc_map_id(const struct hijack_target *t, const char *map,
		   unsigned long id, unsigned long *ret)
{
	_cleanup_free_ char *buf = NULL;
	unsigned long inside, outside, count;
	const char *p;
	int r, n;

	r = hj_proc_read(t, map, &buf, NULL);
	if (r < 0)
		return r;
	for (p = buf; *p; ) {
		if (sscanf(p, "%lu %lu %lu%n", &inside, &outside, &count, &n) != 3)
			break;
		if (id >= outside && id - outside < count) {
			*ret = inside + (id - outside);
			return 0;
		}
		p += n;
		p += strspn(p, " \t\n");
	}
	return -ERANGE;
}
