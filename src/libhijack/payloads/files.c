// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * files.c - copy a file into or out of a container with no program of the
 * container's: hijack's own child does it, in place of exec, once it has
 * entered and is confined as a command would be.  The copy is a payload
 * of the executor's that never execs (file_payload below; HJ_PAYLOAD_NOEXEC
 * in spawn/spawn.h says what the executor does for it).
 *
 * Why inside and not from the host through /proc/PID/root: every path
 * component, symlinks included, then resolves against the container's
 * root and mounts, with the container user's permissions, so a container
 * cannot point a copy at a host file (the class of CVE-2018-15664, where
 * "docker cp" followed a symlink swapped in by the container).
 *
 * What the container chooses is typed and bounded (hijack(1), SECURITY):
 *  - a file read is a regular file, opened O_NONBLOCK (a FIFO put in its
 *    place cannot hang the copy) and checked with fstat() on the fd that
 *    is read, never by its name before;
 *  - no /proc: the copier has not exec'd, so its memory, environment and
 *    fds are hijack's, the host's; /proc/self/environ would be the
 *    caller's environment, /proc/self/fd/1 the caller's stdout.  The
 *    lookup goes through no magic link (hj_open_nomagic()), and a file of
 *    a proc filesystem, wherever it is mounted, is refused by fstatfs();
 *  - at most the bound the caller gave, checked against the size before
 *    the first byte and enforced while copying: a file that grows past it
 *    ends the copy with an error, it is not cut short in silence;
 *  - a write goes to a new file beside the old one and replaces it only
 *    when whole; its directory is looked up through no magic link either,
 *    and an old file that is not a regular one is refused.
 *
 * The child runs under the target's seccomp filters, so it keeps to calls
 * every container profile allows (Docker's default, runc's and LXC's):
 * openat2 (openat when refused), read, write, fstat/newfstatat, fstatfs,
 * fchmod, fchown, fsync, renameat, unlinkat, rt_sigaction, close (and
 * sync_file_range, which may fail).  No sendfile or splice (an allow-list
 * may omit them), no O_TMPFILE (not every filesystem has it, and linking
 * it needs /proc or CAP_DAC_READ_SEARCH).
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "payloads.h"

/*
 * As big as cat(1)'s buffer: one read and one write per 128 KiB.  Static:
 * this runs in a forked child of a caller that may have threads, where
 * malloc() is not safe, and 128 KiB is much for a stack.
 */
static char buf[128 * 1024];

/* Set by the handler: a forwarded SIGINT/SIGTERM/SIGHUP/SIGQUIT ends the copy. */
static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/*
 * Catch the signals hijack forwards, without SA_RESTART, so that a blocked
 * read returns EINTR and the temporary file can be removed before the
 * signal is re-raised: "interrupted" then leaves nothing behind but with
 * SIGKILL, which cannot be caught.
 */
static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	(void)sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		(void)sigaction(sigs[i], &sa, NULL);
}

static _Noreturn void reraise(int sig)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t set;

	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(sig, &sa, NULL);
	(void)sigemptyset(&set);
	(void)sigaddset(&set, sig);
	(void)sigprocmask(SIG_UNBLOCK, &set, NULL);
	(void)raise(sig);
	_exit(128 + sig);
}

/*
 * One line that says what failed in the container's terms.  The caller
 * prints strerror(err) after it.
 */
static int file_fail(struct hijack_diag *d, const struct hijack_file *f,
		     const char *path, int err)
{
	const char *verb = f->op == HIJACK_FILE_READ ? "reading" : "writing";

	switch (err) {
	case ENOENT:
		if (f->op == HIJACK_FILE_WRITE)
			break;
		return hj_diag_set(d, HIJACK_STEP_FILE, err,
				   "reading %s: not in the container", path);
	case EACCES:
	case EPERM:
		return hj_diag_set(d, HIJACK_STEP_FILE, err,
				   "%s %s as uid %u gid %u in the container (--user picks another)",
				   verb, path, (unsigned int)geteuid(),
				   (unsigned int)getegid());
	case EISDIR:
		return hj_diag_set(d, HIJACK_STEP_FILE, err,
				   "%s %s: a directory in the container", verb,
				   path);
	case ENOSPC:
	case EDQUOT:
		return hj_diag_set(d, HIJACK_STEP_FILE, err,
				   "writing %s: the container's filesystem is full; the old file is unchanged",
				   path);
	case EROFS:
		return hj_diag_set(d, HIJACK_STEP_FILE, err,
				   "writing %s: the container mounts it read-only",
				   path);
	case ELOOP:
		return hj_diag_set(d, HIJACK_STEP_FILE, err,
				   "%s %s: a symlink loop, or a /proc link to a process's files (refused)",
				   verb, path);
	default:
		break;
	}
	return hj_diag_set(d, HIJACK_STEP_FILE, err, "%s %s in the container",
			   verb, path);
}

/* Start writeback every so many bytes of a new file (see copy_fd()). */
#define WRITEBACK_STEP (8 << 20)

/*
 * Copy @in to @out until end of file, @max bytes at most.  Return 0,
 * -EINTR when a caught signal stopped it, -EFBIG (an input error) when
 * there was more than @max, or a negative errno; *@ret_in_err says which
 * side failed.  One byte more than @max is asked for, so that a file of
 * exactly @max bytes is copied and a longer one is told.  With @writeback
 * (@out is the new file), writeback is started behind the copy, so that
 * the final fsync() finds little left to write instead of the whole file;
 * a filter or kernel that refuses sync_file_range() only makes that
 * fsync() slower.
 */
static int copy_fd(int in, int out, uint64_t max, bool writeback,
		   bool *ret_in_err)
{
	uint64_t done = 0, flushed = 0;
	size_t off, want;
	ssize_t n, w;

	for (;;) {
		if (stop_sig)
			return -EINTR;
		want = max - done < sizeof(buf) ? (size_t)(max - done) + 1 :
						  sizeof(buf);
		n = read(in, buf, want);
		if (n == 0)
			return 0;
		if (n > 0 && done + (uint64_t)n > max) {
			*ret_in_err = true;
			return -EFBIG;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*ret_in_err = true;
			return -errno;
		}
		for (off = 0; off < (size_t)n; off += (size_t)w) {
			w = write(out, buf + off, (size_t)n - off);
			if (w < 0 && errno == EINTR && !stop_sig) {
				w = 0;
				continue;
			}
			if (w < 0) {
				*ret_in_err = false;
				return stop_sig ? -EINTR : -errno;
			}
		}
		done += n;
		if (writeback && done - flushed >= WRITEBACK_STEP) {
			if (sync_file_range(out, (off_t)flushed,
					    (off_t)(done - flushed),
					    SYNC_FILE_RANGE_WRITE) < 0)
				writeback = false;
			flushed = done;
		}
	}
}

/* @size in @out as a bound is given: "1 GiB", "512 KiB", "1000 bytes". */
static const char *size_str(uint64_t size, char *out, size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB",
					     "TiB", "PiB", "EiB" };
	unsigned int u = 0;

	while (size && size % 1024 == 0 && u + 1 < ARRAY_SIZE(units)) {
		size /= 1024;
		u++;
	}
	(void)snprintf(out, len, "%llu %s", (unsigned long long)size,
		       units[u]);
	return out;
}

/* What a file of @mode is, for a refusal. */
static const char *kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	default:
		return "not a regular file";
	}
}

/*
 * Open the file to read and prove it one: a regular file, of no proc
 * filesystem, of at most @max bytes now.  Nothing has been written yet
 * when this refuses.
 */
static int open_source(const struct hijack_file *f, uint64_t max,
		       struct hijack_diag *d)
{
	_cleanup_close_ int fd = -EBADF;
	char a[32], b[32];
	struct statfs sfs;
	struct stat st;

	fd = hj_open_nomagic(f->path, O_RDONLY | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return file_fail(d, f, f->path, -fd);
	if (fstat(fd, &st) < 0)
		return file_fail(d, f, f->path, errno);
	if (S_ISDIR(st.st_mode))
		return file_fail(d, f, f->path, EISDIR);
	if (!S_ISREG(st.st_mode))
		return hj_diag_set(d, HIJACK_STEP_FILE, EINVAL,
				   "reading %s: %s in the container, not a regular file (refused)",
				   f->path, kind(st.st_mode));
	/* Unknown is refused too: a filter that denies fstatfs() hides /proc. */
	if (fstatfs(fd, &sfs) < 0)
		return hj_diag_set(d, HIJACK_STEP_FILE, errno,
				   "reading %s: cannot tell its filesystem (fstatfs)",
				   f->path);
	if (sfs.f_type == PROC_SUPER_MAGIC)
		return hj_diag_set(d, HIJACK_STEP_FILE, EINVAL,
				   "reading %s: a /proc file, a process's state (the copier's own is hijack's), not a file (refused)",
				   f->path);
	if (st.st_size < 0 || (uint64_t)st.st_size > max)
		return hj_diag_set(d, HIJACK_STEP_FILE, EFBIG,
				   "reading %s: %s, more than the bound of %s (--max-size)",
				   f->path, size_str((uint64_t)st.st_size, a, sizeof(a)),
				   size_str(max, b, sizeof(b)));
	return TAKE_FD(fd);
}

/*
 * Without a name of its own for the output (the caller's fd, the CLI's
 * standard output), a copy that fails midway has written part of the
 * file there; the error says so, and the caller's status tells.
 */
static int file_read(const struct hijack_file *f, uint64_t max,
		     struct hijack_diag *d)
{
	_cleanup_close_ int fd = -EBADF;
	bool in_err = false;
	char b[32];
	int r;

	fd = open_source(f, max, d);
	if (fd < 0)
		return fd;
	r = copy_fd(fd, f->fd, max, false, &in_err);
	if (r == -EINTR)
		reraise(stop_sig);
	if (r == -EFBIG)
		return hj_diag_set(d, HIJACK_STEP_FILE, r,
				   "reading %s: it grew past the bound of %s (--max-size) while being copied; the output is incomplete",
				   f->path, size_str(max, b, sizeof(b)));
	if (r < 0 && in_err)
		return file_fail(d, f, f->path, -r);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_FILE, r,
				   "reading %s: writing it out", f->path);
	return 0;
}

/* Split @path into its directory (in @dir) and last component. */
static int split_path(const char *path, char *dir, size_t size,
		      const char **ret_base)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t len;

	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return -EISDIR;
	if (!slash) {
		len = 1;
		dir[0] = '.';
	} else {
		len = slash == path ? 1 : (size_t)(slash - path);
		if (len >= size)
			return -ENAMETOOLONG;
		memcpy(dir, path, len);
	}
	dir[len] = '\0';
	*ret_base = base;
	return 0;
}

/*
 * The new file, opened exclusively under a name no one else uses: the
 * pid is unique in the container's pid namespace while we live, the
 * counter covers a name left by a copy killed earlier with the same pid.
 */
static int open_temp(int dirfd, const char *base, char *name, size_t size)
{
	unsigned int i;
	int fd;

	for (i = 0; i < 100; i++) {
		(void)snprintf(name, size, ".%.200s.hijack-%d-%u", base,
			       (int)getpid(), i);
		fd = openat(dirfd, name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

/*
 * Fill the temporary file, give it its mode (and the old file's owner
 * when we may), make it durable, put it in place.
 */
static int fill_and_rename(const struct hijack_file *f, int dirfd,
			   const char *base, const char *path,
			   const struct stat *old, struct hijack_diag *d)
{
	_cleanup_close_ int fd = -EBADF;
	char tmp[NAME_MAX + 1];
	bool in_err = false;
	mode_t mode;
	int r;

	fd = open_temp(dirfd, base, tmp, sizeof(tmp));
	if (fd < 0)
		return file_fail(d, f, path, -fd);
	r = copy_fd(f->fd, fd, UINT64_MAX, true, &in_err);
	if (r == -EINTR) {
		(void)unlinkat(dirfd, tmp, 0);
		reraise(stop_sig);
	}
	if (r < 0 && in_err) {
		r = hj_diag_set(d, HIJACK_STEP_FILE, r,
				"writing %s: reading the input; the old file is unchanged",
				path);
		goto fail;
	}
	if (r < 0)
		goto fail_file;
	/* Owner first: chown clears the set-id bits that fchmod sets. */
	if (old && (old->st_uid != geteuid() || old->st_gid != getegid()))
		(void)!fchown(fd, old->st_uid, old->st_gid);
	mode = f->mode >= 0 ? (mode_t)f->mode :
	       old ? old->st_mode & 07777 : 0644;
	if (fchmod(fd, mode) < 0 || fsync(fd) < 0) {
		r = -errno;
		goto fail_file;
	}
	r = close(TAKE_FD(fd));
	if (r < 0) {
		r = -errno;
		goto fail_file;
	}
	/* Told to end while it finished: the old file stays. */
	if (stop_sig) {
		(void)unlinkat(dirfd, tmp, 0);
		reraise(stop_sig);
	}
	if (renameat(dirfd, tmp, dirfd, base) < 0) {
		r = -errno;
		goto fail_file;
	}
	/* The rename is durable once the directory is; O_PATH cannot fsync. */
	(void)fsync(dirfd);
	return 0;
fail_file:
	r = file_fail(d, f, path, -r);
fail:
	(void)unlinkat(dirfd, tmp, 0);
	return r;
}

static int file_write(const struct hijack_file *f, struct hijack_diag *d)
{
	_cleanup_close_ int dirfd = -EBADF, probe = -EBADF;
	char real[PATH_MAX], dir[PATH_MAX];
	const char *path = f->path, *base;
	struct stat st;
	bool exists;
	int r;

	/*
	 * A symlink as last component is followed, as cat > PATH would,
	 * resolved by the kernel inside the container's root.
	 */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!realpath(path, real))
			return file_fail(d, f, path, errno);
		path = real;
	}
	r = split_path(path, dir, sizeof(dir), &base);
	if (r < 0)
		return file_fail(d, f, path, -r);

	/* No magic link: /proc/self/fd/N may be a directory of the host. */
	dirfd = hj_open_nomagic(dir, O_RDONLY | O_DIRECTORY);
	/* Search permission is enough to create and rename in it. */
	if (dirfd == -EACCES)
		dirfd = hj_open_nomagic(dir, O_PATH | O_DIRECTORY);
	if (dirfd == -ENOENT || dirfd == -ENOTDIR)
		return hj_diag_set(d, HIJACK_STEP_FILE, dirfd,
				   "writing %s: no directory %s in the container",
				   path, dir);
	if (dirfd < 0)
		return file_fail(d, f, path, -dirfd);

	exists = fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!exists && errno != ENOENT)
		return file_fail(d, f, path, errno);
	if (exists && S_ISDIR(st.st_mode))
		return file_fail(d, f, path, EISDIR);
	if (exists && !S_ISREG(st.st_mode))
		return hj_diag_set(d, HIJACK_STEP_FILE, EINVAL,
				   "writing %s: not a regular file in the container",
				   path);
	/*
	 * Renaming over a file needs only the directory's permission; ask
	 * the kernel whether the user may write the file itself, as any
	 * writer would have to (this also tells a read-only mount).
	 */
	if (exists) {
		probe = openat(dirfd, base,
			       O_WRONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW |
			       O_CLOEXEC);
		/* A running program's file may be renamed over, not opened. */
		if (probe < 0 && errno != ETXTBSY)
			return file_fail(d, f, path, errno);
		/* Swapped for a FIFO or a device since: refused all the same. */
		if (probe >= 0 && (fstat(probe, &st) < 0 || !S_ISREG(st.st_mode)))
			return hj_diag_set(d, HIJACK_STEP_FILE, EINVAL,
					   "writing %s: not a regular file in the container",
					   path);
	}
	return fill_and_rename(f, dirfd, base, path, exists ? &st : NULL, d);
}

/* A copy as hijack_file_copy() hands it to the executor's hooks. */
struct file_copy {
	struct hijack_file f;
	uint64_t max;		/* the most bytes read */
	char *path;		/* f.path once copied, freed with the copy */
};

static void file_copy_done(struct file_copy *c)
{
	free(c->path);
	c->path = NULL;
}

/*
 * In the caller: the child hides hijack's own arguments (hj_args_hide())
 * before it copies, and the caller's path may be those very bytes.
 */
static int file_prepare(void *arg, _unused_ const struct hijack_plan *p,
			struct hijack_diag *d)
{
	struct file_copy *c = arg;

	c->path = strdup(c->f.path);
	if (!c->path)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, ENOMEM, "arguments");
	c->f.path = c->path;
	return 0;
}

/* The caller's fd, kept open once the child closed every other. */
static int file_keep_fd(void *arg)
{
	const struct file_copy *c = arg;

	return c->f.fd;
}

/* In the confined child, in place of the exec. */
static int file_run(void *arg, _unused_ const struct hijack_plan *p,
		    struct hijack_diag *d)
{
	const struct file_copy *c = arg;

	catch_signals();
	if (c->f.op == HIJACK_FILE_READ)
		return file_read(&c->f, c->max, d);
	return file_write(&c->f, d);
}

/* What it is, then its hooks in the order the executor calls them. */
static const struct hj_payload file_payload = {
	.name = "copy", .step = HIJACK_STEP_FILE, .flags = HJ_PAYLOAD_NOEXEC,
	.prepare = file_prepare, .keep_fd = file_keep_fd, .run = file_run,
};

HIJACK_EXPORT int hijack_file_copy(const struct hijack_target *t,
				   const struct hijack_plan *plan,
				   const struct hijack_file *f, uint64_t max_size,
				   struct hijack_result *ret,
				   struct hijack_diag *d)
{
	_cleanup_(file_copy_done) struct file_copy c = { .max = max_size };

	if (!f || !f->path || !*f->path || f->fd < 0 ||
	    (f->op != HIJACK_FILE_READ && f->op != HIJACK_FILE_WRITE))
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "file to copy: a path and an fd are needed");
	if (f->mode < -1 || f->mode > 07777 ||
	    (f->op == HIJACK_FILE_READ && f->mode != -1))
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "file mode %#o: 07777 at most, for a write only",
				   (unsigned int)f->mode);
	c.f = *f;
	return hj_spawn(t, plan, &file_payload, &c, NULL, ret, d);
}
