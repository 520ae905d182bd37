// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc.c - small reads from a pinned target's /proc directory.
 *
 * Every read goes through the directory fd opened when the target was
 * pinned (target.c), never through a path built from the pid again.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

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
