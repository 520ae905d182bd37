/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * plan.h - struct hijack_plan, the hand-off between reading the target
 * (plan.c, plan-confine.c and the modules they call) and acting on it
 * (spawn*.c, tools*.c, files.c, explain.c).
 *
 * The library's own: include/hijack.h declares the type and nothing of
 * its layout, so that a caller holds only a pointer from
 * hijack_plan_build() and reads the few values it needs through the
 * accessors of plan.c.  The plan can then grow, or change a field, without
 * a new soname.  The unit tests, linked against libhijack-testing.la,
 * include this header and build plans by hand.  The member types keep the
 * hijack_ names they had when they were public.
 */
#ifndef HIJACK_PLAN_H
#define HIJACK_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "hijack.h"

/**
 * struct hijack_ns_state - one namespace type as planned.
 * @dev: device of the target's namespace of this type (0 if the kernel
 *	lacks the type); with @ino, its identity.
 * @ino: inode of the target's namespace of this type (0 likewise).
 * @self_dev: device of the caller's namespace of this type.
 * @self_ino: inode of the caller's namespace of this type.
 * @enter: it will be entered.
 */
struct hijack_ns_state {
	dev_t dev;
	ino_t ino;
	dev_t self_dev;
	ino_t self_ino;
	bool enter;
};

/**
 * struct hijack_creds - uids, gids and supplementary groups.
 * @uid: real user id.
 * @euid: effective user id.
 * @suid: saved set-user-id.
 * @fsuid: filesystem user id.
 * @gid: real group id.
 * @egid: effective group id.
 * @sgid: saved set-group-id.
 * @fsgid: filesystem group id.
 * @ngroups: number of supplementary groups in @groups.
 * @groups: the supplementary groups (owned by the plan).
 */
struct hijack_creds {
	uid_t uid, euid, suid, fsuid;
	gid_t gid, egid, sgid, fsgid;
	size_t ngroups;
	gid_t *groups;
};

/**
 * struct hijack_caps - capability sets as bit masks (bit N: capability N).
 * @inh: inheritable set.
 * @prm: permitted set.
 * @eff: effective set.
 * @bnd: bounding set.
 * @amb: ambient set.
 */
struct hijack_caps {
	unsigned long long inh, prm, eff, bnd, amb;
};

/**
 * HIJACK_NRLIMITS - resource limits known: RLIMIT_CPU to RLIMIT_RTTIME.
 */
#define HIJACK_NRLIMITS 16

/**
 * struct hijack_limits - resource limits and OOM score adjustment of a task.
 * @have: bit N set: @lim[N] holds resource N (an RLIMIT_* number).
 * @lim: soft (@cur) and hard (@max) limit; ~0ULL is RLIM_INFINITY.
 * @oom_score_adj: as in /proc/PID/oom_score_adj, -1000 to 1000.
 */
struct hijack_limits {
	unsigned int have;
	struct {
		unsigned long long cur, max;
	} lim[HIJACK_NRLIMITS];
	int oom_score_adj;
};

/**
 * struct hijack_cgroup - one cgroup hierarchy of the target.
 * @controllers: as in /proc/PID/cgroup: "" for v2, "cpu,cpuacct",
 *	"name=systemd", ...
 * @path: the target's cgroup in it.
 * @self_path: the caller's.
 * @dir: the cgroup's directory on the host, or NULL when the hierarchy is
 *	not mounted here.
 * @join: the command will be moved into it.
 */
struct hijack_cgroup {
	char *controllers;
	char *path;
	char *self_path;
	char *dir;
	bool join;
};

/**
 * struct hj_caller - the caller's side of what --explain compares the plan
 *	with, read by hijack_plan_build() (plan_caller()), so that printing
 *	reads the plan alone and shows it as it was decided.  The caller's
 *	namespaces and cgroups are in @ns and @cgroups of the plan already.
 * @creds: the caller's real, effective and saved ids, the filesystem ids
 *	taken as the effective ones; no groups (the text shows "-").
 * @caps: the caller's capability sets, when @have_caps.
 * @have_caps: @caps could be read; if not, the text leaves them out.
 * @limits: the caller's resource limits and oom_score_adj, read only when
 *	the command takes the target's (all zero otherwise, or when they
 *	could not be read).
 */
struct hj_caller {
	struct hijack_creds creds;
	struct hijack_caps caps;
	bool have_caps;
	struct hijack_limits limits;
};

/**
 * struct hijack_plan - everything an entry will do, decided before it
 *	starts.  Everything it points to is its own: hijack_plan_free()
 *	releases it.
 * @pid: the target.
 * @ns: per namespace type, indexed by enum hijack_ns.
 * @ns_mask: HIJACK_NS_BIT()s of the types to enter.
 * @method: the method that will be used (never HIJACK_METHOD_AUTO).
 * @method_fallback: with AUTO: the method to fall back to if the kernel
 *	refuses @method at run time (HIJACK_METHOD_AUTO for none).
 * @syscall_nr: the hijack(2) number read from the kernel, or -1.
 * @syscall_flags: with HIJACK_METHOD_SYSCALL, the flags hijack(2) is
 *	called with (see hijack(2)), decided with the rest of the plan; 0 with
 *	another method.
 * @root_mode: where the root directory comes from.
 * @root: the root directory: the path as the target sees it (its
 *	/proc/PID/root link, whatever its length), "/" for the caller's, or
 *	the explicit path.
 * @wd_mode: where the working directory comes from.
 * @wd: the working directory, likewise (the caller's from getcwd()).
 * @wd_why: with "/" where the target's was asked for by default, what
 *	made it so (a string constant); else NULL.
 * @creds_mode: HIJACK_FROM_TARGET or HIJACK_KEEP.
 * @creds: what the command runs as (the target's unless overridden).
 * @target_creds: the target's, for --explain.
 * @caps_mode: HIJACK_FROM_TARGET or HIJACK_KEEP.
 * @caps: the sets the command is given before exec.
 * @target_caps: the target's.
 * @caps_note: why @caps differ from @target_caps, or "".
 * @mark: the capability added to @caps so that the container's processes
 *	cannot ptrace a command freer than the target (plan_mark() in
 *	plan-confine.c), or -1 for none.
 * @mark_note: why there is no mark where one was wanted, or NULL.
 * @cgroup_mode: HIJACK_FROM_TARGET or HIJACK_KEEP.
 * @cgroups: the target's hierarchies, @ncgroups of them.
 * @ncgroups: the number of entries in @cgroups.
 * @nnp: no_new_privs will be set.
 * @target_nnp: the target has no_new_privs.
 * @seccomp_mode: where the filters come from.
 * @target_seccomp: the target's seccomp mode (0 none, 1 strict, 2 filter).
 * @nfilters: filters that will be installed, oldest first in @filters.
 * @filters: opaque; struct sock_fprog per filter.
 * @seccomp_file: the policy file, with HIJACK_FROM_FILE; else NULL.
 * @lsm_mode: HIJACK_FROM_TARGET or HIJACK_KEEP.
 * @lsm: the active LSM that will label the command ("apparmor",
 *	"selinux"), or "" when none is active.
 * @lsm_label: the target's label, applied at exec.  Bounded, unlike the
 *	paths (a longer one is refused): hj_lsm_apply() formats it in the
 *	command's process, on its stack, where nothing is allocated.
 * @env_mode: where the environment comes from.
 * @env_why: with HIJACK_RESET where the target's was asked for by default,
 *	what made it so (a string constant); else NULL.
 * @envp: the command's environment (NULL-terminated).
 * @preserve_fds: fds above 2 passed on.
 * @pty_mode: see enum hijack_pty.
 * @pty_fds: bit N set: fd N (0-2) of the command is the new
 *	pseudo-terminal's; 0 for none.
 * @limits_mode: HIJACK_FROM_TARGET or HIJACK_KEEP.
 * @limits: the target's, given to the command with HIJACK_FROM_TARGET.
 * @container: the container the target was opened from
 *	(hijack_container_open()), copied from the target: hijack_plan_print()
 *	shows it; NULL for a target of hijack_target_open().
 * @caller: the caller as it was when the plan was built, for
 *	hijack_plan_print() only.
 */
struct hijack_plan {
	pid_t pid;
	struct hijack_ns_state ns[_HIJACK_NS_MAX];
	unsigned int ns_mask;
	enum hijack_method method;
	enum hijack_method method_fallback;
	long syscall_nr;
	unsigned int syscall_flags;
	enum hijack_dir_mode root_mode;
	char *root;
	enum hijack_dir_mode wd_mode;
	char *wd;
	const char *wd_why;

	enum hijack_part_mode creds_mode;
	struct hijack_creds creds;
	struct hijack_creds target_creds;
	enum hijack_part_mode caps_mode;
	struct hijack_caps caps;
	struct hijack_caps target_caps;
	char caps_note[160];
	int mark;
	const char *mark_note;
	enum hijack_part_mode cgroup_mode;
	struct hijack_cgroup *cgroups;
	size_t ncgroups;
	bool nnp;
	bool target_nnp;
	enum hijack_part_mode seccomp_mode;
	int target_seccomp;
	size_t nfilters;
	void *filters;
	char *seccomp_file;
	enum hijack_part_mode lsm_mode;
	char lsm[32];
	char lsm_label[256];
	enum hijack_part_mode env_mode;
	const char *env_why;
	char **envp;
	unsigned int preserve_fds;
	enum hijack_pty pty_mode;
	unsigned int pty_fds;
	enum hijack_part_mode limits_mode;
	struct hijack_limits limits;
	struct hijack_container *container;
	struct hj_caller caller;
};

#endif /* HIJACK_PLAN_H */
