// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc.c - small reads from a pinned target's /proc directory.
 *
 * Every read goes through the directory fd opened when the target was
 * pinned (target.c), never through a path built from the pid again.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "internal.h"

int hj_read_some(int fd, char **buf, size_t *size, size_t *len, size_t max)
{
	ssize_t n;
	char *nbuf;

	if (*len + 1 >= *size) {
		/* Room for @max bytes, one more to tell, and the NUL. */
		size_t want = *size ? 2 * *size : 8192;

		if (want > max + 2)
			want = max + 2;
		nbuf = realloc(*buf, want);
		if (!nbuf)
			return -ENOMEM;
		*buf = nbuf;
		*size = want;
	}
	n = read(fd, *buf + *len, *size - *len - 1);
	if (n < 0)
		return errno == EINTR ? -EAGAIN : -errno;
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	if (*len > max)
		return -EFBIG;
	return n > 0;
}

/*
 * Read a whole file, @name relative to @dirfd, into a new NUL-terminated
 * buffer.  @ret_len gets the length without the terminator (files like
 * environ hold NULs of their own).  A file of more than @max bytes is
 * refused with -EFBIG after reading @max + 1 of them, never cut: the
 * files read here are the target's /proc entries, whose size the
 * container chooses for some (environ), and a part of them would be a
 * different content, not a shorter one.
 */
int hj_read_at_max(int dirfd, const char *name, size_t max, char **ret,
		   size_t *ret_len)
{
	_cleanup_close_ int fd = -EBADF;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, size = 0;
	int r;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		r = hj_read_some(fd, &buf, &size, &len, max);
	while (r > 0 || r == -EAGAIN);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(buf);
	if (ret_len)
		*ret_len = len;
	return 0;
}

/* The bound of hj_read_at(): see hj_proc_max(). */
#define PROC_FILE_MAX (1u << 20)

int hj_read_at(int dirfd, const char *name, char **ret, size_t *ret_len)
{
	return hj_read_at_max(dirfd, name, PROC_FILE_MAX, ret, ret_len);
}

/*
 * How much of each /proc/PID file hijack reads, and why that much: what
 * the kernel can write there for a task, with room to spare, but never
 * what a container could make of it.  environ is the one a task sets
 * itself, at no cost: exec copies at most 6 MiB of arguments and
 * environment (fs/exec.c: 3/4 of _STK_LIM), and PR_SET_MM_MAP, which
 * needs no capability, may point it at any amount of memory afterwards.
 * The other files are the kernel's text, the largest of them status with
 * up to 65536 supplementary groups (some 720 KiB) and cgroup with a
 * PATH_MAX path per hierarchy: 1 MiB holds either.
 */
static const struct {
	const char *name;
	size_t max;
	const char *why;
} proc_max[] = {
	{ "environ", 6u << 20, "the most an exec passes" },
};

size_t hj_proc_max(const char *name, const char **ret_why)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(proc_max); i++)
		if (strcmp(name, proc_max[i].name) == 0) {
			if (ret_why)
				*ret_why = proc_max[i].why;
			return proc_max[i].max;
		}
	if (ret_why)
		*ret_why = "more than the kernel writes there";
	return PROC_FILE_MAX;
}

/*
 * The failure to read /proc/PID/@name for @step, naming the bound when it
 * was the size.
 */
int hj_proc_fail(struct hijack_diag *d, enum hijack_step step, pid_t pid,
		 const char *name, int err)
{
	const char *why;
	size_t max = hj_proc_max(name, &why);

	if (err == -EFBIG || err == EFBIG)
		return hj_diag_set(d, step, err,
				   "/proc/%d/%s is larger than %zu MiB (%s): refused",
				   (int)pid, name, max >> 20, why);
	return hj_diag_set(d, step, err, "/proc/%d/%s", (int)pid, name);
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
 * Open a directory of the host's that may be missing: an engine's state
 * directory (the engine is not installed or never ran), a task list.
 * Return 1 with @ret set, 0 when it does not exist, or -errno.
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
 * Where this process's arguments are: [arg_start, arg_end) of its memory,
 * fields 48 and 49 of /proc/self/stat (Linux 3.5), which the kernel shows
 * whole to the process itself.  The command's name (field 2) may hold
 * spaces and parentheses, so the fields are counted from its last ')'.
 */
int hj_args_read(struct hj_args *ret)
{
	unsigned long start = 0, end = 0;
	char buf[1024];
	const char *p;
	int field, r;

	r = hj_read_line("/proc/self/stat", buf, sizeof(buf));
	if (r < 0)
		return r;
	p = strrchr(buf, ')');
	if (!p)
		return -EPROTO;
	/* Fields 3 to 47, then the two wanted. */
	for (p++, field = 3; field < 48 && *p; field++) {
		p += strspn(p, " ");
		p += strcspn(p, " ");
	}
	if (field != 48 || sscanf(p, "%lu %lu", &start, &end) != 2)
		return -EPROTO;
	if (end < start || end - start > HJ_ARGS_MAX)
		return -ERANGE;
	ret->start = (char *)start;
	ret->len = end - start;
	return 0;
}

/*
 * Hide the arguments from /proc/PID/cmdline, which any process that sees
 * this one may read, dumpable or not: in a child's own copy of the memory
 * only (hijack's stay as they are), once what the child uses of them was
 * copied elsewhere (hj_spawn()).  The name stays, for ps(1).
 */
void hj_args_hide(const struct hj_args *a)
{
	static const char name[] = "hijack";

	if (!a->len)
		return;
	memset(a->start, 0, a->len);
	if (a->len > sizeof(name))
		memcpy(a->start, name, sizeof(name));
}

/*
 * Open @rel from the directory @dir (which this takes over) one component
 * at a time, each with O_NOFOLLOW, so that no symlink is followed at all:
 * what openat2()'s RESOLVE_* flags do, for kernels (before 5.6) and
 * seccomp filters without it.  ".." is refused unless @dotdot (it would
 * climb above a root that is not the process's own).
 */
static int open_nofollow(int dir, const char *rel, int flags, bool dotdot)
{
	_cleanup_close_ int cur = dir;
	char part[256];
	const char *p, *slash;
	size_t len;
	int fd;

	if (cur < 0)
		return cur;
	for (p = rel; (slash = strchr(p, '/')); p = slash + 1) {
		len = (size_t)(slash - p);
		if (len >= sizeof(part))
			return -ENAMETOOLONG;
		if (!len)
			continue;
		memcpy(part, p, len);
		part[len] = '\0';
		if (!dotdot && strcmp(part, "..") == 0)
			return -EXDEV;
		fd = openat(cur, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		close_fdp(&cur);
		cur = fd;
	}
	if (!dotdot && strcmp(p, "..") == 0)
		return -EXDEV;
	fd = openat(cur, *p ? p : ".", flags | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * Open @rel, a path in the container whose root directory is @rootfd, the
 * way the container itself would see it, and nothing else:
 *  - looked up with @rootfd as "/" (RESOLVE_IN_ROOT): an absolute symlink
 *    or ".." stays inside, instead of reaching the host's files; no magic
 *    links (/proc/self/fd/N) to jump through either;
 *  - @flags as openat()'s (O_CLOEXEC is added).
 * Without openat2() no symlink is followed (open_nofollow()), and a ".."
 * component, which would climb above @rootfd, is refused.
 */
int hj_root_open(int rootfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
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
	fd = fcntl(rootfd, F_DUPFD_CLOEXEC, 3);
	return open_nofollow(fd < 0 ? -errno : fd, rel, flags, false);
}

/*
 * Open @path as open() would, but through no magic link: /proc/PID/fd/N,
 * exe, cwd, root and map_files/ lead to whatever a process holds, not to
 * a name, and the process looking them up holds things of the host (the
 * file copier of files.c: the caller's stdin and stdout, hijack's
 * binary).  Absolute and relative symlinks are followed, within the
 * process's root.  Without openat2() (an old kernel, or a container's
 * seccomp filter that refuses it) no symlink is followed at all.
 */
int hj_open_nomagic(const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned int)(flags | O_CLOEXEC),
		.resolve = RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return fd < 0 ? -errno : fd;
	fd = open(*path == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	return open_nofollow(fd < 0 ? -errno : fd, path, flags, true);
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

/* A /proc file of the target, within its bound (hj_proc_max()). */
int hj_proc_read(const struct hijack_target *t, const char *name,
		 char **ret, size_t *ret_len)
{
	return hj_read_at_max(t->procfd, name, hj_proc_max(name, NULL), ret,
			      ret_len);
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
