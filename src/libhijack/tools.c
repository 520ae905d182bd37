// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tools.c - hijack --tools: the host's programs inside the container's
 * world.  The command is confined as any other (namespaces but mnt,
 * cgroups, credentials, capabilities, seccomp, LSM, limits) but sees a
 * mount namespace made for it alone:
 *
 *   /                  the caller's filesystem (shell, strace, gdb, ...)
 *   /run/hijack/root   the container's root and mounts (or --tools=DIR)
 *   /proc              a new procfs of the container's pid namespace
 *   cwd                the target's working directory under DIR
 *
 * It is a private copy of the caller's mount namespace, so nothing of it
 * reaches the host's mount table or the container's, and it ends with its
 * last process.
 *
 * Not a door.  The command holds the host's filesystem as its root while
 * it lives in the container's pid namespace with the container's
 * credentials.  The container's processes reach another process's root,
 * cwd, fds, map_files, memory and environment, and ptrace it, only through
 * ptrace_may_access(), and after the uid/gid and dumpability checks of
 * kernel/ptrace.c every LSM stack has commoncap's
 * cap_ptrace_access_check(): a caller without CAP_SYS_PTRACE over the
 * target's user namespace passes only if the target's permitted set is a
 * subset of the caller's (effective set for /proc files, permitted set
 * for ptrace(2)).
 *
 * So the command holds, beside the container's capabilities, one that the
 * container does not: CAP_WAKE_ALARM (arming timers that wake a suspended
 * machine), or CAP_BLOCK_SUSPEND when the container has that one.  Its
 * permitted set is then never a subset of a container process's, and the
 * container is kept out of its /proc entries and from ptrace.  The mark
 * is in its bounding, inheritable and permitted sets (and ambient, for a
 * non-root command), so it survives every execve() and fork of the
 * command and its descendants, and the shells' privilege drops, which are
 * about ids.  The command can still trace the container's processes:
 * their permitted sets are subsets of its.
 *
 * Refused: a container that holds CAP_SYS_PTRACE (it passes the check) or
 * both marks.  Before exec, hijack's child is non-dumpable too.  This is
 * the one way --tools is more privileged than the target, and the reason.
 *
 * Weaker ways, tried and dropped (16-tools.t caught each):
 *  - non-dumpable alone: execve() makes a process dumpable again unless
 *    its ids differ or it gains capabilities, so emptying P before exec
 *    (root regains I | B) protects the first program only, not what its
 *    shell runs next;
 *  - an effective or real gid of its own (no caller matches all three
 *    gids, and exec keeps such a process non-dumpable): dash and bash
 *    drop the difference at start, and a real gid of its own would keep
 *    the command from tracing the container (PTRACE_MODE_REALCREDS).
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "internal.h"

static int sys_open_tree(int dfd, const char *path, unsigned int flags)
{
	return (int)syscall(SYS_open_tree, dfd, path, flags);
}

static int sys_move_mount(int from_dfd, const char *from, int to_dfd,
			  const char *to, unsigned int flags)
{
	return (int)syscall(SYS_move_mount, from_dfd, from, to_dfd, to, flags);
}

#define TREE_CLONE (OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE)

int hj_tools_check(const struct hijack_plan *p, int *ret_marker,
		   struct hijack_diag *d)
{
	unsigned long long bnd = p->target_caps.bnd;

	if (p->caps_mode != HIJACK_FROM_TARGET)
		return hj_diag_set(d, HIJACK_STEP_PLAN, EINVAL,
				   "--tools takes the target's capabilities (no --caps=keep)");
	if (p->method == HIJACK_METHOD_SYSCALL)
		return hj_diag_set(d, HIJACK_STEP_PLAN, EOPNOTSUPP,
				   "--tools with --method=syscall (use pidfd or nsfd)");
	if (bnd & (1ULL << CAP_SYS_PTRACE))
		return hj_diag_set(d, HIJACK_STEP_PLAN, EPERM,
				   "--tools: the container holds CAP_SYS_PTRACE and could reach the host's files through the command");
	if (!(bnd & (1ULL << CAP_WAKE_ALARM)))
		*ret_marker = CAP_WAKE_ALARM;
	else if (!(bnd & (1ULL << CAP_BLOCK_SUSPEND)))
		*ret_marker = CAP_BLOCK_SUSPEND;
	else
		return hj_diag_set(d, HIJACK_STEP_PLAN, EPERM,
				   "--tools: the container holds CAP_WAKE_ALARM and CAP_BLOCK_SUSPEND, so nothing marks the command as not the container's");
	return 0;
}

/* Add the mark (see the top of this file) to the sets the command gets. */
void hj_tools_caps(struct hijack_caps *c, int marker, bool root)
{
	unsigned long long bit = 1ULL << marker;

	c->bnd |= bit;
	c->inh |= bit;
	c->prm |= bit;
	c->eff |= bit;
	/* execve() gives a non-root program the ambient set only. */
	if (!root)
		c->amb |= bit;
}

/*
 * Put @from's entry @name at the same name under @to: a directory or file
 * as a bind mount of it (with what is mounted below it), a symlink as a
 * copy.
 */
static int bind_back(int from, int to, const char *name)
{
	_cleanup_close_ int tree = -EBADF, fd = -EBADF;
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(from, name, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		target[n] = '\0';
		return symlinkat(target, to, name) < 0 ? -errno : 0;
	}
	if (S_ISDIR(st.st_mode)) {
		if (mkdirat(to, name, st.st_mode & 07777) < 0)
			return -errno;
	} else {
		fd = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			    0600);
		if (fd < 0)
			return -errno;
	}
	tree = sys_open_tree(from, name, TREE_CLONE | AT_SYMLINK_NOFOLLOW);
	if (tree < 0)
		return -errno;
	return sys_move_mount(tree, "", to, name, MOVE_MOUNT_F_EMPTY_PATH) < 0 ?
	       -errno : 0;
}

/*
 * Make /run/hijack/root exist without writing to the host: a tmpfs over
 * /run in this mount namespace only, with every entry of the old /run
 * bound back under its name, and the mount point made on the tmpfs.
 */
static int make_run_dir(struct hijack_diag *d)
{
	_cleanup_close_ int old = -EBADF, run = -EBADF;
	struct dirent *e;
	DIR *dir;
	int r = 0, fd;

	old = sys_open_tree(AT_FDCWD, "/run", TREE_CLONE);
	if (old < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "clone /run");
	if (mount("tmpfs", "/run", "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755,size=4m") < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "tmpfs on /run");
	run = open("/run", O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd = openat(old, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (run < 0 || fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			(void)close(fd);
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "read /run");
	}
	while (r == 0 && (e = readdir(dir))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		r = bind_back(old, run, e->d_name);
		if (r < 0)
			(void)hj_diag_set(d, HIJACK_STEP_ROOT, r, "/run/%s",
					  e->d_name);
	}
	(void)closedir(dir);
	if (r < 0)
		return r;
	if ((mkdirat(run, "hijack", 0755) < 0 && errno != EEXIST) ||
	    (mkdirat(run, "hijack/root", 0755) < 0 && errno != EEXIST))
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "/run/hijack/root");
	return 0;
}

int hj_tools_child(const struct hijack_target *t, const char *dir,
		   const char *cwd, bool cwd_given, struct hijack_diag *d)
{
	_cleanup_close_ int own = -EBADF, ct = -EBADF, tree = -EBADF;
	_cleanup_close_ int cwdfd = -EBADF;

	/* Until exec makes it so for good: see the top of this file. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "PR_SET_DUMPABLE");
	own = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	ct = openat(t->procfd, "ns/mnt", O_RDONLY | O_CLOEXEC);
	if (own < 0 || ct < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno,
				   "mount namespaces (own and pid %d's)",
				   (int)t->pid);
	/* A tree can be cloned only from inside its own mount namespace. */
	if (setns(ct, CLONE_NEWNS) < 0)
		return hj_diag_set(d, HIJACK_STEP_SETNS, errno,
				   "mnt of pid %d", (int)t->pid);
	tree = sys_open_tree(AT_FDCWD, "/", TREE_CLONE);
	if (tree < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "clone the root of pid %d", (int)t->pid);
	if (setns(own, CLONE_NEWNS) < 0 || unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "a private mount namespace for --tools");
	if (!dir) {
		if (make_run_dir(d) < 0)
			return -d->err;
		dir = HIJACK_TOOLS_DIR;
	}
	if (sys_move_mount(tree, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "mount pid %d's root on %s", (int)t->pid, dir);
	/* Born in the container's pid namespace: this procfs is its. */
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno,
				   "the container's /proc");
	/*
	 * The working directory under DIR: the target's, or its root when
	 * that is gone; or the one --wd named, which must exist (a relative
	 * one starts at the container's root).  The path is the container's:
	 * looked up in its tree (hj_root_open()), since a symlink swapped
	 * into it would lead, from the host's root, to a host directory.
	 */
	cwdfd = cwd[0] && (cwd_given || cwd[0] == '/') ?
		hj_root_open(tree, cwd, O_PATH | O_DIRECTORY) : -EBADF;
	if (cwdfd >= 0 && fchdir(cwdfd) == 0)
		return 0;
	if (cwd_given)
		return hj_diag_set(d, HIJACK_STEP_CWD, cwdfd < 0 ? -cwdfd : errno,
				   "--wd %s in pid %d's root", cwd, (int)t->pid);
	if (chdir(dir) < 0)
		return hj_diag_set(d, HIJACK_STEP_CWD, errno, "%s", dir);
	return 0;
}
