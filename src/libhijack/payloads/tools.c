// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * tools.c - hijack --tools: the host's programs inside the container's
 * world, and nothing else of the host.
 *
 * The command is confined as any other (namespaces but mnt, cgroups,
 * credentials, capabilities, seccomp, LSM, limits) and gets a mount
 * namespace made for it alone (tools-view.c): the host's program
 * directories read-only, a few files of its /etc, the container's /proc,
 * /sys and /dev as the container has them, a /tmp of its own, and the
 * container's root on /run/hijack/root; nothing else of the host.  It is
 * a payload of the executor's (tools_payload, at the end of this file),
 * whose hooks below are each called at the point their comments give.
 *
 * Why so little: anything the command runs may be the container's code.
 * A program from the container's tree, a .gdbinit or .git/config in the
 * working directory, a variable the image set: all run with the command's
 * privileges and its view.  So the view holds the host's programs and
 * nothing worth stealing, the environment is the caller's reduced to the
 * terminal and locale (the CLI sees to it: hijack_run_tools() refuses the
 * target's environment), and core dumps are off (RLIMIT_CORE 0, soft and
 * hard), since a dump lands in the working directory: the container's.
 *
 * Not a door.  The container's processes reach another process's root,
 * cwd, fds, map_files, memory and environment, and ptrace it, only through
 * ptrace_may_access(), and after the uid/gid and dumpability checks of
 * kernel/ptrace.c every LSM stack has commoncap's
 * cap_ptrace_access_check(): a caller without CAP_SYS_PTRACE over the
 * target's user namespace passes only if the target's permitted set is a
 * subset of the caller's (effective set for /proc files, permitted set
 * for ptrace(2)).  So the command holds, beside the container's
 * capabilities, one that the container does not: CAP_WAKE_ALARM, or
 * CAP_BLOCK_SUSPEND when the container has that one.  The mark is in its
 * bounding, inheritable and permitted sets (and ambient, for a non-root
 * command), so it survives every execve() and fork, and it survives a
 * change of uid too: SECBIT_NO_SETUID_FIXUP, locked, keeps setuid() from
 * clearing the permitted and ambient sets (su, runuser, setpriv --reuid),
 * and the ambient mark then carries through the next execve() as the only
 * capability a non-root program gets.  A program that drops capabilities
 * by name can still drop the mark; what the container then reaches is the
 * view above, which holds nothing of the host's but its programs.
 *
 * One path stays open, in the kernel: on recent kernels mm_access() lets
 * a caller that is perfmon_capable() (CAP_PERFMON or CAP_SYS_ADMIN in the
 * initial user namespace) read any process's environ, maps, auxv and
 * smaps without the check above.  A container that holds either in the
 * host's user namespace reads the command's environment that way: it is
 * the caller's terminal and locale, PATH and HOME, and what --setenv adds.
 *
 * Refused: a container that holds CAP_SYS_PTRACE (it passes the check) or
 * both marks.  Withheld: CAP_SYS_ADMIN and CAP_DAC_READ_SEARCH when the
 * container shares the caller's user namespace, which owns the view: the
 * first would unmount or remount the view (a writable /usr), the second
 * opens any file of a filesystem the view shows by its handle
 * (open_by_handle_at(2)), the host's root filesystem included.
 */
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "payloads.h"

/* The capability that marks the command, and those it lacks. */
struct tools_caps {
	int marker;
	unsigned long long withheld;
};

/* A run as hijack_run_tools() hands it to the executor's hooks. */
struct tools_run {
	struct hj_command cmd;
	/*
	 * NULL: HIJACK_TOOLS_DIR.  The caller's bytes, not copied: only the
	 * intermediate reads it, before it hides hijack's arguments.
	 */
	const char *dir;
	struct tools_caps caps;
};

static int check_plan(const struct hijack_plan *p, struct tools_caps *ret,
		      struct hijack_diag *d)
{
	const struct hijack_ns_state *user = &p->ns[HIJACK_NS_USER];
	unsigned long long bnd = p->target_caps.bnd;

	if (p->caps_mode != HIJACK_FROM_TARGET)
		return hj_diag_set(d, HIJACK_STEP_PLAN, EINVAL,
				   "--tools takes the target's capabilities (no --caps=keep)");
	if (p->method == HIJACK_METHOD_SYSCALL)
		return hj_diag_set(d, HIJACK_STEP_PLAN, EOPNOTSUPP,
				   "--tools with --method=syscall (use pidfd or nsfd)");
	if (p->env_mode == HIJACK_FROM_TARGET)
		return hj_diag_set(d, HIJACK_STEP_PLAN, EINVAL,
				   "--tools never gives the container's environment to the host's programs (name variables with --setenv)");
	if (bnd & (1ULL << CAP_SYS_PTRACE))
		return hj_diag_set(d, HIJACK_STEP_PLAN, EPERM,
				   "--tools: the container holds CAP_SYS_PTRACE and could reach the host's files through the command");
	if (!(bnd & (1ULL << CAP_WAKE_ALARM)))
		ret->marker = CAP_WAKE_ALARM;
	else if (!(bnd & (1ULL << CAP_BLOCK_SUSPEND)))
		ret->marker = CAP_BLOCK_SUSPEND;
	else
		return hj_diag_set(d, HIJACK_STEP_PLAN, EPERM,
				   "--tools: the container holds CAP_WAKE_ALARM and CAP_BLOCK_SUSPEND, so nothing marks the command as not the container's");
	/* The view's mount namespace belongs to the caller's user namespace. */
	ret->withheld = 0;
	if (user->dev == user->self_dev && user->ino == user->self_ino)
		ret->withheld = 1ULL << CAP_SYS_ADMIN |
				1ULL << CAP_DAC_READ_SEARCH;
	return 0;
}

/*
 * In the caller: refuse what this file cannot keep safe.  The command
 * starts in the plan's working directory (the target's unless --wd said
 * otherwise), a path inside the container that build_view() looks up only
 * under the tools directory.
 */
static int tools_prepare(void *arg, const struct hijack_plan *p,
			 struct hijack_diag *d)
{
	struct tools_run *tr = arg;
	int r;

	r = hj_command_prepare(&tr->cmd, d);
	if (r < 0)
		return r;
	if (tr->dir && tr->dir[0] != '/')
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "--tools directory '%s': an absolute path",
				   tr->dir);
	return check_plan(p, &tr->caps, d);
}

/*
 * The mark in, the withheld out (see the top of this file).  The mark is
 * ambient for a root command too: execve() gives a non-root program the
 * ambient set only, and a root command may become one with setuid().
 */
static void mark_caps(void *arg, struct hijack_caps *c)
{
	const struct tools_caps *tc = &((const struct tools_run *)arg)->caps;
	unsigned long long bit = 1ULL << tc->marker;

	c->bnd = (c->bnd | bit) & ~tc->withheld;
	c->inh = (c->inh | bit) & ~tc->withheld;
	c->prm = (c->prm | bit) & ~tc->withheld;
	c->eff = (c->eff | bit) & ~tc->withheld;
	c->amb = (c->amb | bit) & ~tc->withheld;
}

/*
 * The mark survives a change of uid, and no core dump is written: set in
 * the command's process once its capabilities are set, while it still
 * holds CAP_SETPCAP (which the securebits need).  The securebits are
 * locked, so the command cannot take them back.
 */
static int lock_mark(_unused_ void *arg, struct hijack_diag *d)
{
	struct rlimit none = { 0, 0 };
	int bits = prctl(PR_GET_SECUREBITS);

	if (bits < 0 ||
	    prctl(PR_SET_SECUREBITS, bits | SECBIT_NO_SETUID_FIXUP |
		  SECBIT_NO_SETUID_FIXUP_LOCKED) < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, errno,
				   "--tools: SECBIT_NO_SETUID_FIXUP");
	if (setrlimit(RLIMIT_CORE, &none) < 0)
		return hj_diag_set(d, HIJACK_STEP_LIMITS, errno,
				   "--tools: RLIMIT_CORE 0");
	return 0;
}

/*
 * In the intermediate, before it enters the target's namespaces: the view
 * (tools-view.c), and the command's working directory in it.
 */
static int build_view(void *arg, const struct hijack_target *t,
		      const struct hijack_plan *p, int *ret_pts,
		      struct hijack_diag *d)
{
	const struct tools_run *tr = arg;
	const char *dir = tr->dir ? tr->dir : HIJACK_TOOLS_DIR;
	const char *cwd = p->wd;
	bool cwd_given = p->wd_mode != HIJACK_DIR_TARGET;
	_cleanup_close_ int cwdfd = -EBADF, tree = -EBADF;
	int r;

	/* Not dumpable since its fork (hj_fork_child()), to its exec. */
	r = hj_tools_view(t, dir, ret_pts, d);
	if (r < 0)
		return r;
	tree = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tree < 0)
		return hj_diag_set(d, HIJACK_STEP_ROOT, errno, "%s", dir);
	/*
	 * The working directory under DIR: the target's, or its root when
	 * that is gone; or the one --wd named, which must exist (a relative
	 * one starts at the container's root).  The path is the container's:
	 * looked up in its tree (hj_root_open()), since a symlink swapped
	 * into it would lead elsewhere in the view.
	 */
	cwdfd = cwd[0] && (cwd_given || cwd[0] == '/') ?
		hj_root_open(tree, cwd, O_PATH | O_DIRECTORY) : -EBADF;
	if (cwdfd >= 0 && fchdir(cwdfd) == 0)
		return 0;
	if (cwd_given)
		return hj_diag_set(d, HIJACK_STEP_CWD, cwdfd < 0 ? -cwdfd : errno,
				   "--wd %s in pid %d's root", cwd, (int)t->pid);
	if (fchdir(tree) < 0)
		return hj_diag_set(d, HIJACK_STEP_CWD, errno, "%s", dir);
	return 0;
}

/* Exec from the view: a command not found there gets no hint of --tools. */
static int tools_exec(void *arg, const struct hijack_plan *p,
		      struct hijack_diag *d)
{
	const struct tools_run *tr = arg;

	return hj_command_exec(&tr->cmd, p->envp, d);
}

/* What it is, then its hooks in the order the executor calls them. */
static const struct hj_payload tools_payload = {
	.name = "command", .flags = HJ_PAYLOAD_OWN_MOUNTS,
	.prepare = tools_prepare, .host_view = build_view, .caps = mark_caps,
	.confine = lock_mark, .run = tools_exec,
};

static void tools_run_done(struct tools_run *tr)
{
	hj_command_done(&tr->cmd);
}

HIJACK_EXPORT int hijack_run_tools(const struct hijack_target *t,
				   const struct hijack_plan *p,
				   const char *dir, char *const argv[],
				   const struct hijack_relay_tap *tap,
				   struct hijack_result *ret,
				   struct hijack_diag *d)
{
	_cleanup_(tools_run_done) struct tools_run tr = {
		.cmd.argv = argv, .dir = dir,
	};

	return hj_spawn(t, p, &tools_payload, &tr, tap, ret, d);
}
