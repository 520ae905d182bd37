// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tools-view.c - the filesystem view of a --tools command: a mount
 * namespace of its own, whose root is a new tmpfs:
 *
 *   /usr, /bin, /sbin, /lib*   the host's, read-only, nosuid, nodev
 *   /etc                       read-only: the few host files that the
 *                              host's programs need to run (host_etc[]),
 *                              and a nsswitch.conf and hosts of our own
 *   /proc, /sys, /dev          the container's own mounts, as it has them
 *                              (its runtime's masked and read-only paths
 *                              included), but for a devpts of the view's
 *                              own on /dev/pts
 *   /tmp                       a tmpfs of the command's own, also HOME
 *   /run/hijack/root           the container's root and mounts (or DIR)
 *
 * The old root is unmounted after pivot_root(), so nothing else of the
 * host (its /root, /home, /var, /etc/shadow, other containers' roots) is
 * in the view, by any path.  Every mount of the view is private: nothing
 * mounted in it reaches the container, and the container's later mounts
 * stay out of it.  Why so little, and what keeps the container out of
 * it: tools.c.
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

#include "payloads.h"

static int sys_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

static int sys_move_mount(int from_dfd, const char *from, int to_dfd,
			  const char *to, unsigned int flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}

static int sys_mount_setattr(int dfd, const char *path, unsigned int flags,
			     struct mount_attr *attr)
{
	return (int)syscall(SYS_mount_setattr, dfd, path, flags, attr,
			    sizeof(*attr));
}

static int sys_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}

#define TREE_CLONE (OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE)
#define HOST_ATTRS (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)

/* The host's program and library directories (symlinks on merged /usr). */
static const char *const host_dirs[] = {
	"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32",
};

/*
 * The host's /etc entries in the view, each for a reason; missing ones
 * are skipped.  No secret is among them (no shadow, no keys, no sudoers),
 * and no file that makes the loader or a shell run something: no
 * ld.so.preload, no profile.d.
 */
static const char *const host_etc[] = {
	"ld.so.cache", "ld.so.conf", "ld.so.conf.d", /* the dynamic loader */
	"alternatives",			/* Debian's vi, editor, awk, ... links */
	"localtime",			/* the caller's time zone */
	"terminfo", "inputrc", "bash.bashrc", /* the terminal, the shell */
	"protocols", "services", "ethertypes", "rpc", /* ss, tcpdump */
	"gdb",				/* gdb's system-wide settings */
	"magic", "mime.types", "locale.alias",
};

/*
 * The host's accounts, system ones only: the users that the host's
 * programs drop to (tcpdump to its own), not the people of the host.
 */
static const char *const host_accounts[] = { "passwd", "group" };

#define SYSTEM_ID_MAX 999	/* Debian's system ids: 0-999 */
#define ACCOUNTS_MAX (1U << 20)

/* Copy @name's lines whose third field (the id) is a system one. */
static int write_accounts(int etc, const char *name, struct hijack_diag *d)
{
	_cleanup_free_ char *text = NULL;
	_cleanup_close_ int fd = -EBADF;
	char *line, *save = NULL, *id;
	unsigned long n;
	int r;

	r = hj_read_at_max(AT_FDCWD, name, ACCOUNTS_MAX, &text, NULL);
	if (r == -ENOENT)
		return 0;
	fd = openat(etc, name + strlen("/etc/"), O_WRONLY | O_CREAT | O_EXCL |
		    O_CLOEXEC, 0644);
	if (r < 0 || fd < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, r < 0 ? -r : errno,
				   "%s in the view", name);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		id = strchr(line, ':');
		id = id ? strchr(id + 1, ':') : NULL;
		n = id ? strtoul(id + 1, NULL, 10) : ULONG_MAX;
		if ((n <= SYSTEM_ID_MAX || n == 65534) &&
		    (write(fd, line, strlen(line)) < 0 || write(fd, "\n", 1) < 0))
			return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
					   "%s in the view", name);
	}
	return 0;
}

/* Written into the view: name lookups from files only, no NSS service. */
static const struct {
	const char *name;
	const char *text;
} own_etc[] = {
	{ "nsswitch.conf", "passwd: files\ngroup: files\nshadow: files\n"
			   "hosts: files dns\nnetworks: files\n"
			   "protocols: files\nservices: files\n"
			   "ethers: files\nrpc: files\n" },
	{ "hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost\n" },
};

/* The container's own special filesystems, with the type each must be. */
static const struct {
	const char *name;
	unsigned long magic;	/* 0: any */
} ct_dirs[] = {
	{ "proc", PROC_SUPER_MAGIC },
	{ "sys", SYSFS_MAGIC },
	{ "dev", 0 },
};

/* What hj_tools_view() collects before it builds the view. */
struct view {
	int host[ARRAY_SIZE(host_dirs)];	/* clone, or -EBADF */
	char *host_link[ARRAY_SIZE(host_dirs)];	/* or the symlink's text */
	int etc[ARRAY_SIZE(host_etc)];
	int ct[ARRAY_SIZE(ct_dirs)];		/* or -EBADF: a fallback */
	int root;				/* the container's root */
	int pts;				/* the view's devpts, or -EBADF */
};

static void view_free(struct view *v)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(host_dirs); i++) {
		close_fdp(&v->host[i]);
		free(v->host_link[i]);
	}
	for (i = 0; i < ARRAY_SIZE(host_etc); i++)
		close_fdp(&v->etc[i]);
	for (i = 0; i < ARRAY_SIZE(ct_dirs); i++)
		close_fdp(&v->ct[i]);
	close_fdp(&v->root);
}

/* Clone the host's /usr, /lib, ... and /etc entries, or note symlinks. */
static int collect_host(struct view *v, struct hijack_diag *d)
{
	_cleanup_close_ int root = -EBADF, etc = -EBADF;
	char link[PATH_MAX];
	struct stat st;
	size_t i;
	ssize_t n;

	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	etc = open("/etc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 || etc < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "the host's / and /etc");
	for (i = 0; i < ARRAY_SIZE(host_dirs); i++) {
		if (fstatat(root, host_dirs[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			n = readlinkat(root, host_dirs[i], link, sizeof(link) - 1);
			if (n < 0)
				return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
						   "/%s", host_dirs[i]);
			link[n] = '\0';
			v->host_link[i] = strdup(link);
			if (!v->host_link[i])
				return hj_diag_set(d, HIJACK_STEP_ROOT, ENOMEM,
						   "/%s", host_dirs[i]);
		} else if (S_ISDIR(st.st_mode)) {
			v->host[i] = sys_open_tree(root, host_dirs[i],
						   TREE_CLONE | AT_SYMLINK_NOFOLLOW);
			if (v->host[i] < 0)
				return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
						   "clone the host's /%s",
						   host_dirs[i]);
		}
	}
	for (i = 0; i < ARRAY_SIZE(host_etc); i++) {
		/* Symlinks followed: localtime leads into /usr/share. */
		v->etc[i] = sys_open_tree(etc, host_etc[i], TREE_CLONE);
		if (v->etc[i] < 0 && errno != ENOENT)
			return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
					   "clone the host's /etc/%s",
					   host_etc[i]);
	}
	return 0;
}

/*
 * A clone of a shared mount joins its peer group: made private before it
 * is attached, so that nothing mounted on it (the view's devpts, anything
 * later) reaches the container, and nothing of the container's reaches it.
 */
static int make_private(int fd)
{
	struct mount_attr a = { .propagation = MS_PRIVATE };

	return sys_mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a);
}

/*
 * In the container's mount namespace: clone the target's root, and its
 * /proc, /sys and /dev if each is a directory of the right type.  The
 * names are looked up one component below the target's root, without
 * following a symlink the container put there.
 */
static int collect_container(const struct hijack_target *t, struct view *v,
			     struct hijack_diag *d)
{
	_cleanup_close_ int root = -EBADF;
	struct statfs sfs;
	struct stat st;
	size_t i;

	v->root = sys_open_tree(t->procfd, "root", TREE_CLONE);
	root = openat(t->procfd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (v->root < 0 || root < 0 || make_private(v->root) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "clone the root of pid %d", (int)t->pid);
	for (i = 0; i < ARRAY_SIZE(ct_dirs); i++) {
		v->ct[i] = sys_open_tree(root, ct_dirs[i].name,
					 TREE_CLONE | AT_SYMLINK_NOFOLLOW);
		if (v->ct[i] < 0)
			continue;
		if (make_private(v->ct[i]) < 0 ||
		    fstat(v->ct[i], &st) < 0 || !S_ISDIR(st.st_mode) ||
		    fstatfs(v->ct[i], &sfs) < 0 ||
		    (ct_dirs[i].magic &&
		     (unsigned long)sfs.f_type != ct_dirs[i].magic))
			close_fdp(&v->ct[i]);
	}
	return 0;
}

/* Mount the detached tree @fd on @name under @dir, made first. */
static int attach(int fd, int dir, const char *name, bool is_dir)
{
	_cleanup_close_ int mp = -EBADF;

	if (is_dir) {
		if (mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
			return -errno;
	} else {
		mp = openat(dir, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (mp < 0)
			return -errno;
	}
	return sys_move_mount(fd, "", dir, name, MOVE_MOUNT_F_EMPTY_PATH) < 0 ?
	       -errno : 0;
}

/* A detached tree made read-only, nosuid and nodev, all of it. */
static int host_attrs(int fd)
{
	struct mount_attr a = { .attr_set = HOST_ATTRS };

	return sys_mount_setattr(fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a) < 0 ?
	       -errno : 0;
}

static int write_file(int dir, const char *name, const char *text)
{
	_cleanup_close_ int fd = -EBADF;
	size_t len = strlen(text);

	fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	return write(fd, text, len) == (ssize_t)len ? 0 : -EIO;
}

static int place_host(struct view *v, int top, struct hijack_diag *d)
{
	_cleanup_close_ int etc = -EBADF;
	struct stat st;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(host_dirs); i++) {
		if (v->host_link[i])
			r = symlinkat(v->host_link[i], top, host_dirs[i]) < 0 ?
			    -errno : 0;
		else if (v->host[i] < 0)
			continue;
		else if ((r = host_attrs(v->host[i])) == 0)
			r = attach(v->host[i], top, host_dirs[i], true);
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_ROOT, -r,
					   "the host's /%s in the view",
					   host_dirs[i]);
	}
	if (mkdirat(top, "etc", 0755) < 0 ||
	    (etc = openat(top, "etc", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "/etc in the view");
	for (i = 0; i < ARRAY_SIZE(host_etc); i++) {
		if (v->etc[i] < 0)
			continue;
		r = fstat(v->etc[i], &st) < 0 ? -errno : host_attrs(v->etc[i]);
		if (r == 0)
			r = attach(v->etc[i], etc, host_etc[i], S_ISDIR(st.st_mode));
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_ROOT, -r,
					   "the host's /etc/%s in the view",
					   host_etc[i]);
	}
	for (i = 0; i < ARRAY_SIZE(host_accounts); i++) {
		char path[32];

		(void)snprintf(path, sizeof(path), "/etc/%s", host_accounts[i]);
		r = write_accounts(etc, path, d);
		if (r < 0)
			return r;
	}
	for (i = 0; i < ARRAY_SIZE(own_etc); i++) {
		r = write_file(etc, own_etc[i].name, own_etc[i].text);
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_ROOT, -r,
					   "/etc/%s in the view", own_etc[i].name);
	}
	return 0;
}

/*
 * A devpts instance of the view's own, so that the command's terminal is
 * one no process of the container can open: the container's root could
 * otherwise open the command's /dev/pts/N, read what the caller types and
 * write to the caller's screen.  It goes on /dev/pts when that is a
 * directory (a symlink of the container's is not followed), else on
 * /run/hijack/pts; the container's /dev is never written to.  pty.c opens
 * its ptmx through the fd left in *ret_pts, not by a path that the
 * container's /dev (its ptmx, a symlink) could lead elsewhere.
 */
static int own_devpts(const char *at, int *ret_pts, struct hijack_diag *d)
{
	_cleanup_close_ int fs = -EBADF, mnt = -EBADF, pts = -EBADF;

	/* No symlink the container put there is followed. */
	pts = open(at, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pts < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "/%s in the view", at);
	fs = (int)syscall(SYS_fsopen, "devpts", FSOPEN_CLOEXEC);
	if (fs < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "ptmxmode", "0666", 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0600", 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "a devpts of the view's own");
	mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
			   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
	if (mnt < 0 ||
	    sys_move_mount(mnt, "", pts, "", MOVE_MOUNT_F_EMPTY_PATH |
			   MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "a devpts of the view's own on /%s", at);
	*ret_pts = TAKE_FD(mnt);
	return 0;
}

/* Where /dev/pts could not take it: /run/hijack/pts, made in the view. */
static int own_devpts_run(int *ret_pts, struct hijack_diag *d)
{
	if ((mkdir("run", 0755) < 0 && errno != EEXIST) ||
	    (mkdir("run/hijack", 0755) < 0 && errno != EEXIST) ||
	    mkdir("run/hijack/pts", 0755) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "/run/hijack/pts in the view");
	return own_devpts("run/hijack/pts", ret_pts, d);
}

/*
 * The container's /proc, /sys and /dev.  Where it has no /proc of its
 * own, a new one of its pid namespace, with the process directories only
 * (subset=pid: no /proc/sys, no kcore, nothing its runtime would have
 * masked); where it has no /sys or /dev, an empty directory.
 */
static int place_container(struct view *v, int top, struct hijack_diag *d)
{
	struct stat st;
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(ct_dirs); i++) {
		r = v->ct[i] >= 0 ? attach(v->ct[i], top, ct_dirs[i].name, true) :
		    mkdirat(top, ct_dirs[i].name, 0755) < 0 ? -errno : 0;
		if (r < 0)
			return hj_diag_set(d, HIJACK_STEP_ROOT, -r,
					   "the container's /%s in the view",
					   ct_dirs[i].name);
	}
	if (v->ct[0] < 0 &&
	    mount("proc", "proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "subset=pid") < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "a /proc of the container's processes");
	if (v->ct[2] < 0 && mkdir("dev/pts", 0755) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "/dev/pts in the view");
	/* Not a directory of the container's: /run/hijack/pts, later. */
	if (fstatat(AT_FDCWD, "dev/pts", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	return own_devpts("dev/pts", &v->pts, d);
}

/*
 * Make @dir (absolute) in the view, a component at a time.  Its first
 * component must be new: not the root, nor a directory of the view's own,
 * even one on its tmpfs (the container's root over /etc would make its
 * ld.so.preload the loader's, over /bin its programs the host's), nor one
 * of its mounts.  What follows is then on the view's tmpfs.
 */
static int make_dir(int top, const char *dir, struct hijack_diag *d)
{
	_cleanup_free_ char *copy = strdup(dir);
	_cleanup_close_ int cur = -EBADF;
	char *name, *save = NULL;
	bool first = true;
	int next;

	if (!copy)
		return hj_diag_set(d, HIJACK_STEP_ROOT, ENOMEM, "%s", dir);
	cur = fcntl(top, F_DUPFD_CLOEXEC, 3);
	if (cur < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "%s", dir);
	name = strtok_r(copy, "/", &save);
	if (!name)
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "--tools directory '%s': not the root", dir);
	for (; name; name = strtok_r(NULL, "/", &save), first = false) {
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
					   "--tools directory '%s': no . or ..",
					   dir);
		if (mkdirat(cur, name, 0755) < 0 &&
		    (errno != EEXIST || first))
			return errno == EEXIST ?
			       hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
					   "--tools directory '%s': /%s is the view's own",
					   dir, name) :
			       hj_diag_set(d, HIJACK_STEP_ROOT, errno, "%s", dir);
		next = openat(cur, name, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			      O_CLOEXEC);
		if (next < 0)
			return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "%s", dir);
		(void)close(cur);
		cur = next;
	}
	return 0;
}

/*
 * A tmpfs on /tmp, the root of the view, in this (new, private) mount
 * namespace: /tmp only because it is a directory every system has.  The
 * view is built from inside it, where the mounts by path go; its /tmp is
 * a tmpfs of its own, before --tools=DIR is made, which may not be in it.
 */
static int view_root(int *ret_top, struct hijack_diag *d)
{
	if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755,size=1m") < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "a tmpfs for the view");
	*ret_top = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (*ret_top < 0 || fchdir(*ret_top) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "the view");
	if (mkdir("tmp", 0755) < 0 ||
	    mount("tmpfs", "tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "/tmp in the view");
	return 0;
}

/*
 * Into the view: it becomes the root, the old one is unmounted, every
 * mount is made private and the root read-only.
 */
static int enter_view(int top, struct hijack_diag *d)
{
	struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY };

	if (fchdir(top) < 0 || sys_pivot_root(".", ".") < 0 ||
	    umount2(".", MNT_DETACH) < 0 || chdir("/") < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "pivot_root into the view");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "private mounts in the view");
	if (sys_mount_setattr(AT_FDCWD, "/", 0, &ro) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "a read-only root for the view");
	return 0;
}

static int build(const struct hijack_target *t, const char *dir,
		 struct view *v, struct hijack_diag *d)
{
	_cleanup_close_ int own = -EBADF, ct = -EBADF, top = -EBADF;
	_cleanup_close_ int at = -EBADF;
	int r;

	own = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	ct = openat(t->procfd, "ns/mnt", O_RDONLY | O_CLOEXEC);
	if (own < 0 || ct < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno,
				   "mount namespaces (own and pid %d's)",
				   (int)t->pid);
	r = collect_host(v, d);
	if (r < 0)
		return r;
	/* A tree can be cloned only from inside its own mount namespace. */
	if (setns(ct, CLONE_NEWNS) < 0)
		return hj_diag_set(d, HIJACK_STEP_SETNS, errno,
				   "mnt of pid %d", (int)t->pid);
	r = collect_container(t, v, d);
	if (r < 0)
		return r;
	if (setns(own, CLONE_NEWNS) < 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "a private mount namespace for --tools");
	r = view_root(&top, d);
	if (r < 0)
		return r;
	r = place_host(v, top, d);
	if (r < 0)
		return r;
	r = place_container(v, top, d);
	if (r < 0)
		return r;
	r = make_dir(top, dir, d);
	if (r == 0 && v->pts < 0)
		r = own_devpts_run(&v->pts, d);
	if (r < 0)
		return r;
	at = openat(top, dir + 1, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (at < 0 ||
	    sys_move_mount(v->root, "", at, "", MOVE_MOUNT_F_EMPTY_PATH |
			   MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "mount pid %d's root on %s", (int)t->pid, dir);
	return enter_view(top, d);
}

/*
 * Build the view and make it this process's root, with every mount of it
 * private; the caller then takes its working directory in it.  *ret_pts
 * is the view's devpts, for the command's terminal.
 */
int hj_tools_view(const struct hijack_target *t, const char *dir,
		  int *ret_pts, struct hijack_diag *d)
{
	struct view v = { .root = -EBADF, .pts = -EBADF };
	size_t i;
	int r;

	for (i = 0; i < ARRAY_SIZE(host_dirs); i++)
		v.host[i] = -EBADF;
	for (i = 0; i < ARRAY_SIZE(host_etc); i++)
		v.etc[i] = -EBADF;
	for (i = 0; i < ARRAY_SIZE(ct_dirs); i++)
		v.ct[i] = -EBADF;
	r = build(t, dir, &v, d);
	view_free(&v);
	if (r == 0)
		*ret_pts = TAKE_FD(v.pts);
	close_fdp(&v.pts);
	return r;
}
