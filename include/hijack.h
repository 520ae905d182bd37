/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hijack.h - enter a running task's container: the public interface of
 * libhijack.
 *
 * Every function returns 0 (or a non-negative value) on success and a
 * negative errno on failure.  None of them prints or exits: on failure the
 * optional struct hijack_diag says which step failed and on what, and the
 * caller decides how to report it.
 */
#ifndef HIJACK_H
#define HIJACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum hijack_ns - the namespace types hijack knows.
 * @HIJACK_NS_USER: user namespace (/proc/PID/ns/user).
 * @HIJACK_NS_CGROUP: cgroup namespace.
 * @HIJACK_NS_IPC: System V IPC and POSIX message queue namespace.
 * @HIJACK_NS_UTS: host and domain name namespace.
 * @HIJACK_NS_NET: network namespace.
 * @HIJACK_NS_PID: pid namespace (entered by the command, a new child).
 * @HIJACK_NS_MNT: mount namespace.
 * @HIJACK_NS_TIME: time namespace (Linux 5.6).
 * @_HIJACK_NS_MAX: the number of types; not a type.
 *
 * The order is the one in which namespaces are entered by the nsfd method
 * when the user namespace is not involved; see ns.c for why.
 */
enum hijack_ns {
	HIJACK_NS_USER,
	HIJACK_NS_CGROUP,
	HIJACK_NS_IPC,
	HIJACK_NS_UTS,
	HIJACK_NS_NET,
	HIJACK_NS_PID,
	HIJACK_NS_MNT,
	HIJACK_NS_TIME,
	_HIJACK_NS_MAX,
};

/**
 * HIJACK_NS_BIT() - the bit of one namespace type in a namespace mask.
 * @t: an enum hijack_ns.
 */
#define HIJACK_NS_BIT(t) (1u << (t))
/** HIJACK_NS_ALL - every namespace type hijack knows. */
#define HIJACK_NS_ALL ((1u << _HIJACK_NS_MAX) - 1)

/**
 * enum hijack_method - how the namespaces are entered.
 * @HIJACK_METHOD_AUTO: the syscall when the kernel has it and the plan
 *	allows it, else pidfd, else nsfd.
 * @HIJACK_METHOD_PIDFD: one setns(pidfd, mask) call (Linux 5.8).
 * @HIJACK_METHOD_NSFD: one setns() per /proc/PID/ns file.
 * @HIJACK_METHOD_SYSCALL: the hijack(2) system call of kernel-patch/.
 * @_HIJACK_METHOD_MAX: the number of methods; not a method.
 */
enum hijack_method {
	HIJACK_METHOD_AUTO,
	HIJACK_METHOD_PIDFD,
	HIJACK_METHOD_NSFD,
	HIJACK_METHOD_SYSCALL,
	_HIJACK_METHOD_MAX,
};

/**
 * enum hijack_dir_mode - where the root or working directory comes from.
 * @HIJACK_DIR_TARGET: the target's (/proc/PID/root or /proc/PID/cwd).
 * @HIJACK_DIR_KEEP: the caller's.
 * @HIJACK_DIR_PATH: an explicit path, resolved inside the new root.
 */
enum hijack_dir_mode {
	HIJACK_DIR_TARGET,
	HIJACK_DIR_KEEP,
	HIJACK_DIR_PATH,
};

/**
 * enum hijack_step - the steps of an entry, named in error reports.
 * @HIJACK_STEP_NONE: no step (no failure).
 * @HIJACK_STEP_OPTIONS: checking struct hijack_opts.
 * @HIJACK_STEP_TARGET: pinning the target.
 * @HIJACK_STEP_OPEN: opening the target's files under /proc/PID.
 * @HIJACK_STEP_PLAN: deciding the plan.
 * @HIJACK_STEP_FORK: creating the command's process.
 * @HIJACK_STEP_SETNS: joining namespaces with setns(2).
 * @HIJACK_STEP_SYSCALL: the hijack(2) system call.
 * @HIJACK_STEP_ROOT: changing the root directory.
 * @HIJACK_STEP_CWD: changing the working directory.
 * @HIJACK_STEP_CGROUP: joining cgroups.
 * @HIJACK_STEP_CREDS: setting groups, gid and uid.
 * @HIJACK_STEP_CAPS: setting capability sets and securebits.
 * @HIJACK_STEP_SECCOMP: no_new_privs and seccomp filters.
 * @HIJACK_STEP_LSM: the LSM exec label.
 * @HIJACK_STEP_ENV: building the environment.
 * @HIJACK_STEP_FDS: closing or passing on file descriptors.
 * @HIJACK_STEP_EXEC: executing the command.
 * @HIJACK_STEP_WAIT: waiting for the command.
 * @HIJACK_STEP_PTY: the command's pseudo-terminal.
 * @HIJACK_STEP_LIMITS: resource limits and OOM score adjustment.
 * @HIJACK_STEP_FILE: reading or writing a file inside the target
 *	(hijack_file_copy()).
 * @_HIJACK_STEP_MAX: the number of steps; not a step.
 */
enum hijack_step {
	HIJACK_STEP_NONE,
	HIJACK_STEP_OPTIONS,
	HIJACK_STEP_TARGET,
	HIJACK_STEP_OPEN,
	HIJACK_STEP_PLAN,
	HIJACK_STEP_FORK,
	HIJACK_STEP_SETNS,
	HIJACK_STEP_SYSCALL,
	HIJACK_STEP_ROOT,
	HIJACK_STEP_CWD,
	HIJACK_STEP_CGROUP,
	HIJACK_STEP_CREDS,
	HIJACK_STEP_CAPS,
	HIJACK_STEP_SECCOMP,
	HIJACK_STEP_LSM,
	HIJACK_STEP_ENV,
	HIJACK_STEP_FDS,
	HIJACK_STEP_EXEC,
	HIJACK_STEP_WAIT,
	HIJACK_STEP_PTY,
	HIJACK_STEP_LIMITS,
	HIJACK_STEP_FILE,
	_HIJACK_STEP_MAX,
};

/**
 * struct hijack_diag - what went wrong, filled only on failure.
 * @step: the step that failed.
 * @err: the positive errno of the failure.
 * @detail: what the step was working on, e.g. "setns mnt of pid 42".
 */
struct hijack_diag {
	enum hijack_step step;
	int err;
	char detail[256];
};

/**
 * enum hijack_part_mode - where one part of the confinement comes from.
 * @HIJACK_FROM_TARGET: copied from the target (the default).
 * @HIJACK_KEEP: the caller's, unchanged.
 * @HIJACK_NONE: none at all (seccomp: no filter; environment: empty).
 * @HIJACK_FROM_FILE: from a file (seccomp: a policy file).
 * @HIJACK_RESET: the caller's, reset (environment only): of the caller's
 *	variables only those that describe the terminal and the locale, as
 *	sudo's env_reset keeps them (the list is in hijack(1), --env).
 */
enum hijack_part_mode {
	HIJACK_FROM_TARGET,
	HIJACK_KEEP,
	HIJACK_NONE,
	HIJACK_FROM_FILE,
	HIJACK_RESET,
};

/**
 * enum hijack_pty - whether the command gets a terminal of its own.
 * @HIJACK_PTY_AUTO: each of fds 0-2 that is a terminal is replaced by a
 *	new pseudo-terminal from the command's own /dev/ptmx, and hijack_run()
 *	relays between the two (the default): the caller's terminal never
 *	reaches the container, where TIOCSTI could type into it.
 * @HIJACK_PTY_ALWAYS: all three are replaced, terminals or not.
 * @HIJACK_PTY_NEVER: fds 0-2 are passed on as they are, terminals too.
 */
enum hijack_pty {
	HIJACK_PTY_AUTO,
	HIJACK_PTY_ALWAYS,
	HIJACK_PTY_NEVER,
};

/**
 * struct hijack_opts - what the caller asks for.
 * @struct_size: sizeof(struct hijack_opts) as the caller was compiled;
 *	lets later versions grow the structure without breaking callers.
 * @pid: the target, as seen in the caller's pid namespace.
 * @ns_select: namespace types asked for by name; 0 means "every type whose
 *	namespace differs from the caller's".
 * @ns_exclude: namespace types never to enter.
 * @method: see enum hijack_method.
 * @root_mode: root directory; @root_path with HIJACK_DIR_PATH.
 * @root_path: the explicit root directory, with HIJACK_DIR_PATH.
 * @wd_mode: working directory; @wd_path with HIJACK_DIR_PATH.
 * @wd_path: the explicit working directory, with HIJACK_DIR_PATH
 *	(relative paths are taken from the new root).
 * @creds: uid, gid and supplementary groups: target's or kept.
 * @user: with @creds from the target, a user (name or number) to run as
 *	instead; names are looked up in the target's root.  NULL: none.
 * @group: likewise, a group to run as.  NULL: none.
 * @caps: capability sets and securebits: target's or kept.
 * @cgroup: cgroup membership on every hierarchy: target's or kept.
 * @seccomp: no_new_privs and seccomp filters: target's, none, or from the
 *	policy file @seccomp_file.
 * @seccomp_file: a policy file (see hijack(1)), with HIJACK_FROM_FILE.
 * @lsm: LSM exec label: target's or kept.
 * @env: environment: target's (plus TERM when stdin is a terminal), kept,
 *	reset or none.  With the target's, a command freer than the target
 *	(see @target_anyway) gets HIJACK_RESET instead.
 * @setenv: NULL-terminated "VAR=VALUE" strings applied last, or NULL.
 * @preserve_fds: fds 3 .. 3+N-1 are passed on as well.
 * @pty: see enum hijack_pty.
 * @limits: resource limits and OOM score adjustment: target's or kept.
 * @target_anyway: HIJACK_PART_BIT()s of HIJACK_PART_ENV and
 *	HIJACK_PART_WD: take that part from the target (@env
 *	HIJACK_FROM_TARGET, @wd_mode HIJACK_DIR_TARGET) even for a command
 *	freer than the target, as the caller asked for exactly that.  A
 *	command is freer when it runs with other ids, keeps a part of the
 *	caller's confinement or its file descriptors, has another root
 *	directory or stays out of a namespace of the target, or when the
 *	target's environment is not its own (it runs a setuid program).
 *	Without the bit such a command gets HIJACK_RESET and "/" instead: the
 *	container's LD_PRELOAD, PYTHONPATH or BASH_ENV, or the modules and
 *	configuration in the target's working directory, would run the
 *	container's code with what the command has beyond the target.
 *
 * Initialise with HIJACK_OPTS_INIT and change what differs.
 */
struct hijack_opts {
	size_t struct_size;
	pid_t pid;
	unsigned int ns_select;
	unsigned int ns_exclude;
	enum hijack_method method;
	enum hijack_dir_mode root_mode;
	const char *root_path;
	enum hijack_dir_mode wd_mode;
	const char *wd_path;
	enum hijack_part_mode creds;
	const char *user;
	const char *group;
	enum hijack_part_mode caps;
	enum hijack_part_mode cgroup;
	enum hijack_part_mode seccomp;
	const char *seccomp_file;
	enum hijack_part_mode lsm;
	enum hijack_part_mode env;
	char *const *setenv;
	unsigned int preserve_fds;
	enum hijack_pty pty;
	enum hijack_part_mode limits;
	unsigned int target_anyway;
};

/**
 * HIJACK_OPTS_INIT - the defaults: everything from the target.
 */
#define HIJACK_OPTS_INIT                                        \
	{                                                       \
		.struct_size = sizeof(struct hijack_opts),      \
		.pid = 0,                                       \
		.ns_select = 0,                                 \
		.ns_exclude = 0,                                \
		.method = HIJACK_METHOD_AUTO,                   \
		.root_mode = HIJACK_DIR_TARGET,                 \
		.root_path = NULL,                              \
		.wd_mode = HIJACK_DIR_TARGET,                   \
		.wd_path = NULL,                                \
		.creds = HIJACK_FROM_TARGET,                    \
		.user = NULL,                                   \
		.group = NULL,                                  \
		.caps = HIJACK_FROM_TARGET,                     \
		.cgroup = HIJACK_FROM_TARGET,                   \
		.seccomp = HIJACK_FROM_TARGET,                  \
		.seccomp_file = NULL,                           \
		.lsm = HIJACK_FROM_TARGET,                      \
		.env = HIJACK_FROM_TARGET,                      \
		.setenv = NULL,                                 \
		.preserve_fds = 0,                              \
		.pty = HIJACK_PTY_AUTO,                         \
		.limits = HIJACK_FROM_TARGET,                   \
		.target_anyway = 0,                             \
	}

/*
 * A pinned target task.  Opaque: made by hijack_target_open(), released by
 * hijack_target_free().
 */
struct hijack_target;

/**
 * hijack_target_open() - pin a task by pid.
 * @pid: the task, as seen in the caller's pid namespace; must be > 0.
 * @ret: on success, the new target; free it with hijack_target_free().
 * @reterr_diag: optional, filled on failure.
 *
 * From this moment the task is held by a pidfd; every later look at
 * /proc/PID goes through a directory fd opened after the pidfd and checked
 * against it, so a pid reused by another process is an error (-ESRCH).
 * A target pinned here names no container (hijack_container_open() is
 * the one that does).
 *
 * Return: 0, -EINVAL for a pid <= 0, -ESRCH when there is no such task.
 */
int hijack_target_open(pid_t pid, struct hijack_target **ret,
		       struct hijack_diag *reterr_diag);

/**
 * hijack_target_free() - release a target and close its pidfd.
 * @t: from hijack_target_open(); NULL is allowed and does nothing.
 */
void hijack_target_free(struct hijack_target *t);

/**
 * hijack_target_pidfd() - the pidfd pinning a target.
 * @t: the target.
 *
 * The fd stays owned by @t: do not close it; it is closed by
 * hijack_target_free().  It is opened O_CLOEXEC.
 *
 * Return: the pidfd (a non-negative fd).
 */
int hijack_target_pidfd(const struct hijack_target *t);

/**
 * hijack_target_pid() - the pid of a target.
 * @t: the target.
 *
 * Return: the pid of @t as seen in the caller's pid namespace.
 */
pid_t hijack_target_pid(const struct hijack_target *t);

/**
 * hijack_ns_name() - the canonical name of a namespace type.
 * @ns: an enum hijack_ns.
 *
 * Return: a static string ("mnt", "uts", "ipc", "net", "pid", "user",
 * "cgroup", "time"); "unknown" for a value outside enum hijack_ns, never
 * NULL, so that the result can always be printed.
 */
const char *hijack_ns_name(enum hijack_ns ns);

/**
 * hijack_ns_parse_list() - parse a comma-separated list of type names.
 * @list: e.g. "mnt,uts,net"; "all" selects every type.
 * @ret_mask: on success, the HIJACK_NS_BIT()s.
 * @reterr_bad: optional; on failure, points into @list at the bad name.
 * @reterr_len: optional; on failure, the length of the bad name.
 * Return: 0, or -EINVAL for an empty list, an empty item or an unknown name.
 */
int hijack_ns_parse_list(const char *list, unsigned int *ret_mask,
			 const char **reterr_bad, size_t *reterr_len);

/**
 * hijack_env_valid() - check one environment assignment.
 * @kv: a string such as "VAR=VALUE".
 *
 * Return: true when @kv is a "VAR=VALUE" assignment with a non-empty name,
 * as struct hijack_opts.setenv takes; false otherwise.
 */
bool hijack_env_valid(const char *kv);

/**
 * hijack_method_from_name() - parse a method name.
 * @name: "auto", "pidfd", "nsfd" or "syscall".
 *
 * Return: the enum hijack_method, or -EINVAL for any other name.
 */
int hijack_method_from_name(const char *name);

/**
 * hijack_method_name() - the name of a method.
 * @m: an enum hijack_method.
 *
 * Return: a static string ("auto", "pidfd", "nsfd", "syscall");
 * "unknown" for a value outside enum hijack_method, never NULL, so that
 * the result can always be printed.
 */
const char *hijack_method_name(enum hijack_method m);

/**
 * hijack_step_name() - the name of a step, for messages.
 * @step: an enum hijack_step, usually struct hijack_diag.step.
 *
 * Return: a short lower-case static string such as "setns" or "exec";
 * "unknown" for a value outside enum hijack_step, never NULL.
 */
const char *hijack_step_name(enum hijack_step step);

/*
 * Everything an entry will do, decided before it starts.  Opaque: made by
 * hijack_plan_build(), released by hijack_plan_free().  The accessors
 * below give what a caller may need to act on; hijack_plan_print() shows
 * all of it.
 */
struct hijack_plan;

/**
 * hijack_plan_build() - decide what an entry into @t will do.
 * @t: the target.
 * @opts: the request.
 * @ret: on success, the new plan; free it with hijack_plan_free().
 * @reterr_diag: optional, filled on failure.
 *
 * Reads everything it needs from the host's /proc before anything is
 * entered, and the caller's side of what hijack_plan_print() compares
 * with (its ids, capabilities and resource limits, besides its namespaces
 * and cgroups).  Nothing is changed in the caller, except that copying the
 * target's seccomp filters needs a brief ptrace seize and interrupt of the
 * target (it is resumed at once).  The plan keeps no pointer into @opts,
 * which may be freed or changed once this returns, nor into @t, which
 * hijack_run() and the other functions that carry a plan out take again.
 * A target of hijack_container_open() gives the plan a copy of its
 * container, which hijack_plan_print() names.
 *
 * Return: 0, or a negative errno: -ESRCH when the target exited,
 * -EINVAL for contradictory options, -ENOSYS for the syscall method on a
 * kernel without it, -EOPNOTSUPP for a plan the method cannot carry out,
 * -ENOMEM.
 */
int hijack_plan_build(const struct hijack_target *t,
		      const struct hijack_opts *opts, struct hijack_plan **ret,
		      struct hijack_diag *reterr_diag);

/**
 * hijack_plan_free() - release a plan and everything it holds.
 * @plan: from hijack_plan_build(); NULL is allowed and does nothing.
 */
void hijack_plan_free(struct hijack_plan *plan);

/**
 * hijack_plan_pid() - the target a plan enters.
 * @plan: the plan.
 *
 * Return: the target's pid, as seen in the caller's pid namespace.
 */
pid_t hijack_plan_pid(const struct hijack_plan *plan);

/**
 * hijack_plan_ns_mask() - the namespace types a plan enters.
 * @plan: the plan.
 *
 * A type asked for (struct hijack_opts @ns_select, less @ns_exclude) is
 * entered only when the target's namespace of that type is not the
 * caller's already.
 *
 * Return: the HIJACK_NS_BIT()s of the types the command enters.
 */
unsigned int hijack_plan_ns_mask(const struct hijack_plan *plan);

/**
 * hijack_plan_ns_inode() - the identity of one of the target's namespaces.
 * @plan: the plan.
 * @ns: the namespace type.
 * @ret_dev: optional; the device of the namespace, as stat(2) of
 *	/proc/PID/ns/TYPE gives it.
 * @ret_ino: optional; its inode, likewise.
 *
 * Read when the plan was built, for every type the kernel has, entered or
 * not; for a type in hijack_plan_ns_mask() it is the namespace the command
 * will be in (for the others, the caller's is).
 *
 * Return: 0; -EINVAL for an @ns outside enum hijack_ns; -ENOENT when the
 * kernel has no namespaces of that type (nothing is written then).
 */
int hijack_plan_ns_inode(const struct hijack_plan *plan, enum hijack_ns ns,
			 dev_t *ret_dev, ino_t *ret_ino);

/**
 * hijack_plan_uid() - the user a plan runs the command as.
 * @plan: the plan.
 *
 * Return: the real user id of the command: the target's, or that of
 * struct hijack_opts @user, as the target's user namespace numbers it when
 * the plan enters that namespace; the caller's own with kept credentials.
 */
uid_t hijack_plan_uid(const struct hijack_plan *plan);

/**
 * enum hijack_part - the parts of an entry whose source a request chooses,
 *	each named after its member of struct hijack_opts.
 * @HIJACK_PART_ROOT: the root directory (@root_mode).
 * @HIJACK_PART_WD: the working directory (@wd_mode).
 * @HIJACK_PART_CREDS: uids, gids and groups (@creds).
 * @HIJACK_PART_CAPS: capability sets and securebits (@caps).
 * @HIJACK_PART_CGROUP: cgroup membership (@cgroup).
 * @HIJACK_PART_SECCOMP: no_new_privs and seccomp filters (@seccomp).
 * @HIJACK_PART_LSM: the LSM exec label (@lsm).
 * @HIJACK_PART_ENV: the environment (@env).
 * @HIJACK_PART_LIMITS: resource limits and OOM score adjustment (@limits).
 * @_HIJACK_PART_MAX: the number of parts; not a part.
 */
enum hijack_part {
	HIJACK_PART_ROOT,
	HIJACK_PART_WD,
	HIJACK_PART_CREDS,
	HIJACK_PART_CAPS,
	HIJACK_PART_CGROUP,
	HIJACK_PART_SECCOMP,
	HIJACK_PART_LSM,
	HIJACK_PART_ENV,
	HIJACK_PART_LIMITS,
	_HIJACK_PART_MAX,
};

/**
 * HIJACK_PART_BIT - a part's bit in struct hijack_opts.target_anyway.
 * @part: an enum hijack_part.
 */
#define HIJACK_PART_BIT(part) (1u << (part))

/**
 * hijack_plan_mode() - where a plan takes one part of the entry from.
 * @plan: the plan.
 * @part: the part.
 *
 * Tells, for instance, which parts the command keeps as the caller's
 * (HIJACK_KEEP, HIJACK_DIR_KEEP) rather than taking them from the target:
 * what an audit record of the entry asks about first.
 *
 * Return: for HIJACK_PART_ROOT and HIJACK_PART_WD an enum hijack_dir_mode,
 * for the other parts an enum hijack_part_mode, as in struct hijack_opts
 * (a member the caller's struct_size left out counts as its default);
 * -EINVAL for a @part outside enum hijack_part.
 */
int hijack_plan_mode(const struct hijack_plan *plan, enum hijack_part part);

/**
 * hijack_plan_pty_fds() - which of the command's fds 0-2 get a new
 *	pseudo-terminal.
 * @plan: the plan.
 *
 * Decided by struct hijack_opts @pty and, with HIJACK_PTY_AUTO, by which
 * of the caller's fds 0-2 were terminals when the plan was built.
 *
 * Return: bit N set: fd N of the command is the new pseudo-terminal, which
 * hijack_run() relays to and from the caller's fd N; 0 for none.
 */
unsigned int hijack_plan_pty_fds(const struct hijack_plan *plan);

/**
 * hijack_plan_print() - write a plan for people or scripts.
 * @plan: the plan.
 * @json: false for text, true for one JSON object on one line, whose
 *	keys hijack(1) lists in its section JSON OUTPUT.
 * @f: where to write.
 *
 * Reads the plan alone: what it compares with the caller's is the caller
 * as it was when the plan was built.
 *
 * Return: 0, -ENOMEM when the JSON could not be built, or -EIO when
 * writing failed.
 */
int hijack_plan_print(const struct hijack_plan *plan, bool json, FILE *f);

/**
 * struct hijack_result - how the command ended.
 * @status: its wait status (see waitpid(2)).
 * @pid: its pid in the caller's pid namespace.
 * @method: the method that was used in the end.
 */
struct hijack_result {
	int status;
	pid_t pid;
	enum hijack_method method;
};

/**
 * enum hijack_relay_dir - which way relayed terminal bytes went.
 * @HIJACK_RELAY_OUTPUT: from the command's terminal to the caller's.
 * @HIJACK_RELAY_INPUT: from the caller's input to the command's terminal.
 */
enum hijack_relay_dir {
	HIJACK_RELAY_OUTPUT,
	HIJACK_RELAY_INPUT,
};

/**
 * struct hijack_relay_tap - a copy of what the terminal relay moves, for a
 *	session recording.
 * @struct_size: sizeof(struct hijack_relay_tap) as the caller was compiled.
 * @fn: called with each chunk (at most 4096 bytes) the relay has read, in
 *	the order read, before the chunk is written on.  The relay waits for
 *	it: it must return quickly, whatever it does with the bytes.
 * @userdata: passed to @fn.
 *
 * Only bytes that go through the relay are seen: with no pseudo-terminal
 * (hijack_plan_pty_fds() is 0) @fn is never called.  The end-of-file
 * character the relay sends when a non-terminal input ends is not shown:
 * nobody typed it.
 */
struct hijack_relay_tap {
	size_t struct_size;
	void (*fn)(void *userdata, enum hijack_relay_dir dir, const void *buf,
		   size_t len);
	void *userdata;
};

/**
 * hijack_run() - carry out a plan: run @argv inside the target and wait.
 * @t: the target of the plan.
 * @plan: from hijack_plan_build().
 * @argv: the command; argv[0] is searched in PATH inside the new root.
 * @tap: optional: shown a copy of what the terminal relay moves (a session
 *	recording); NULL for none.
 * @ret: how the command ended; written when 0 is returned.
 * @reterr_diag: optional, filled on failure.
 *
 * The command runs as a child of the caller and a member of the target's
 * pid namespace.  Until it ends, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1,
 * SIGUSR2 and SIGWINCH sent to the caller are forwarded to it.  Only fds 0,
 * 1 and 2 are passed on (plus struct hijack_opts @preserve_fds).  Those of
 * them in hijack_plan_pty_fds() are replaced by a new pseudo-terminal from
 * inside the target, which this function relays to the caller's fds 0-2
 * while the command runs, with a terminal among them in raw mode until it
 * returns; the caller's SIGWINCH then resizes the command's terminal
 * instead.
 * A command that has not ended a second after a SIGINT, SIGTERM, SIGHUP
 * or SIGQUIT is killed when a cgroup freezer holds it; so is any command
 * still there when a second such signal comes a second or more after the
 * first, whatever holds it (the container may hold it where no freezer
 * shows).
 *
 * Return: 0 when the command was started and has ended, whatever its status;
 * a negative errno when it could not be started: in that case nothing of
 * the command ran.  -ENOENT / -EACCES (with step HIJACK_STEP_EXEC) tell a
 * missing or non-executable command.  -EINTR (step HIJACK_STEP_WAIT) also
 * when the command, killed as above, had not died a second later: it has
 * run, and dies when whatever holds it lets go.  -EINVAL (step
 * HIJACK_STEP_OPTIONS) for a @tap whose @struct_size is too small or whose
 * @fn is NULL.
 */
int hijack_run(const struct hijack_target *t, const struct hijack_plan *plan,
	       char *const argv[], const struct hijack_relay_tap *tap,
	       struct hijack_result *ret, struct hijack_diag *reterr_diag);

/**
 * HIJACK_TOOLS_DIR - where hijack_run_tools() mounts the container's root
 *	by default.
 */
#define HIJACK_TOOLS_DIR "/run/hijack/root"

/**
 * HIJACK_TOOLS_PATH - the PATH that hijack(1) gives a --tools command: the
 *	program directories of the view.
 */
#define HIJACK_TOOLS_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

/**
 * hijack_run_tools() - run the host's programs in the target's
 *	confinement, with a filesystem view made for debugging.
 * @t: the target of the plan.
 * @plan: from hijack_plan_build(); its mount namespace and root choices
 *	are not used, and its working directory is looked up in the
 *	container's tree under @dir.  Its environment may not be the
 *	target's (HIJACK_RESET is meant for this).
 * @dir: where the container's root appears in the view: an absolute path,
 *	made there (not inside the view's own mounts, listed below), or NULL
 *	for HIJACK_TOOLS_DIR.
 * @argv: the command; argv[0] is searched in the view, in the PATH of the
 *	plan's environment (hijack(1) sets HIJACK_TOOLS_PATH).
 * @tap: optional, as for hijack_run().
 * @ret: how the command ended; written when 0 is returned.
 * @reterr_diag: optional, filled on failure.
 *
 * As hijack_run(), but the command gets a mount namespace of its own,
 * whose root is a new tmpfs holding the host's /usr, /bin, /sbin and /lib*
 * (read-only, nosuid, nodev), a few files of the host's /etc (read-only),
 * the container's own /proc, /sys and /dev mounts, a /tmp of its own, and
 * the container's root and mounts on @dir; nothing else of the host.  Every
 * mount of it is private.  Its working directory is the plan's under @dir
 * (the target's, or its root when that is gone; a directory the plan names
 * must exist).  Every other part of the plan applies, with three changes:
 * the command also holds one capability the container lacks
 * (CAP_WAKE_ALARM, else CAP_BLOCK_SUSPEND), kept across uid changes by
 * SECBIT_NO_SETUID_FIXUP (locked), so that the kernel's ptrace access
 * check keeps the container's processes from its /proc entries and from
 * ptrace; it lacks CAP_SYS_ADMIN and CAP_DAC_READ_SEARCH when the target
 * shares the caller's user namespace; and RLIMIT_CORE is 0.  See hijack(1),
 * SECURITY.
 *
 * Return: as hijack_run(); with step HIJACK_STEP_PLAN, -EPERM for a target
 * holding CAP_SYS_PTRACE (or both marks), -EOPNOTSUPP for the syscall
 * method, -EINVAL for a plan keeping the caller's capabilities or taking
 * the target's environment.
 */
int hijack_run_tools(const struct hijack_target *t,
		     const struct hijack_plan *plan, const char *dir,
		     char *const argv[], const struct hijack_relay_tap *tap,
		     struct hijack_result *ret,
		     struct hijack_diag *reterr_diag);

/**
 * enum hijack_file_op - which way hijack_file_copy() copies.
 * @HIJACK_FILE_READ: the file inside the target to the caller's fd.
 * @HIJACK_FILE_WRITE: the caller's fd to the file inside the target,
 *	replacing it atomically.
 */
enum hijack_file_op {
	HIJACK_FILE_READ,
	HIJACK_FILE_WRITE,
};

/**
 * struct hijack_file - a file to copy into or out of the target.
 * @op: see enum hijack_file_op.
 * @path: the file, looked up inside the target (its root; a relative path
 *	from its working directory).
 * @fd: the caller's side: read to its end for HIJACK_FILE_WRITE, written
 *	to for HIJACK_FILE_READ.  Never closed.
 * @mode: HIJACK_FILE_WRITE only: the permission bits (07777 at most) of the
 *	new file, or -1 for those of the file it replaces, 0644 for a new one.
 */
struct hijack_file {
	enum hijack_file_op op;
	const char *path;
	int fd;
	int mode;
};

/**
 * hijack_file_copy() - copy a file into or out of the target, with no
 *	program of the target's involved.
 * @t: the target of the plan.
 * @plan: from hijack_plan_build(); its pseudo-terminal is not used.
 * @f: what to copy.
 * @max_size: the most bytes read from the target's file (a larger one is
 *	refused, -EFBIG); %HIJACK_FILE_MAX_DEFAULT unless the caller has a
 *	reason for another.  Not used by a write, whose input is the caller's.
 * @ret: how the copying process ended; written when 0 is returned.
 * @reterr_diag: optional, filled on failure.
 *
 * The copy is done by a child of the caller that has entered and is
 * confined exactly as hijack_run()'s command would be (namespaces, root,
 * cgroups, credentials, capabilities, seccomp filters), except for the
 * LSM label, which the kernel applies only at exec.  So @path, and every
 * symlink on the way, resolves inside the target's root, with its user's
 * permissions.  A write goes to a new file in the same directory, which is
 * fsync()ed and renamed over @path: a copy that fails or is interrupted
 * leaves the old file whole.  The last component of @path, when a symlink,
 * is followed (inside the target).  Signals are forwarded as by
 * hijack_run().
 *
 * What the target controls is typed and bounded.  A file read must be a
 * regular file (opened O_NONBLOCK, its type checked on the opened fd: no
 * FIFO, device or socket), found through no /proc magic link and on no
 * proc filesystem (the copier has not exec'd: /proc/self would show the
 * caller's environment, memory and fds), and of at most
 * @max_size bytes, both before the first byte and while copying.  A write's
 * directory is found through no magic link either, and the file it
 * replaces must be a regular file.
 *
 * Return: 0 when the copy was done, or when the copying process was killed
 * by a signal (@ret tells); a negative errno otherwise.  Step
 * HIJACK_STEP_FILE means the file itself failed (-ENOENT, -EACCES,
 * -EISDIR, -ENOSPC, -EROFS, -ELOOP, -EINVAL for a file of another type or
 * of /proc, -EFBIG for one over the bound, ...), any other step that
 * entering did.  A read refused before its first byte has written
 * nothing to @f->fd; one that fails later (-EFBIG: the file grew past the
 * bound while being copied; a read error) has written part of the file.
 */
int hijack_file_copy(const struct hijack_target *t,
		     const struct hijack_plan *plan,
		     const struct hijack_file *f, uint64_t max_size,
		     struct hijack_result *ret,
		     struct hijack_diag *reterr_diag);

/**
 * HIJACK_FILE_MAX_DEFAULT - the most bytes hijack_file_copy() reads: 1 GiB,
 *	more than a file copied by hand out of a container holds (a
 *	configuration, a log, a core dump of a small service), less than a
 *	sparse or endless file would fill the caller's disk with.
 */
#define HIJACK_FILE_MAX_DEFAULT (UINT64_C(1) << 30)

/**
 * struct hijack_container - a running container, as its engine records it.
 * @engine: the engine's name: "lxc", "docker", "podman", "runc", "crun",
 *	"containerd", "incus", "machine" or "pid".
 * @name: the name users give it (containerd: "NAMESPACE/ID").
 * @id: the engine's id for it (the name again where the engine has none).
 * @pid: its init process, in the caller's pid namespace.
 * @state: the engine's word for its state ("running", "created", ...), or
 *	"refused" for an entry of hijack_containers_list() that an engine
 *	found but does not believe (then @pid is 0).
 * @start_ticks: the init's start time in clock ticks after boot, as
 *	/proc/PID/stat field 22 gives it, when the engine records it; else 0.
 * @cgroup_mark: a cgroup path component that only this container's tasks
 *	have (e.g. the full docker id), when the engine's cgroups tell; else "".
 *
 * @start_ticks and @cgroup_mark are the proof hijack_container_open() asks
 * of the pinned task: one of the two, at least, is set by every engine but
 * "pid".
 */
struct hijack_container {
	char engine[16];
	char name[256];
	char id[160];
	pid_t pid;
	char state[32];
	unsigned long long start_ticks;
	char cgroup_mark[320];
};

/**
 * hijack_containers_list() - the running containers of every engine present.
 * @engine: only this engine, or NULL for all of them.
 * @ret: on success, a malloc'ed array; free() it.
 * @ret_n: its length.
 * @reterr_diag: optional, filled on failure.
 *
 * A container that two engines know (docker's are containerd's "moby/ID"
 * and runc's too) is listed once, under the engine that made it.  An
 * engine that is not installed or not running adds nothing.  After the
 * running containers come those an engine refused to believe, with
 * @state "refused" and no pid (hijack_container_find() on the name says
 * why; hijack_container_open() refuses them).
 *
 * Return: 0, or a negative errno (-ENOENT: @engine is not known; an
 * engine asked for by name that cannot be read gives its own error).
 */
int hijack_containers_list(const char *engine, struct hijack_container **ret,
			   size_t *ret_n, struct hijack_diag *reterr_diag);

/**
 * hijack_container_find() - resolve a TARGET to one running container.
 * @target: "[ENGINE:]NAME"; NAME is a name or a full id, matched whole,
 *	or a unique prefix of at least 12 hex digits of an id the engine
 *	generated (64 hex digits), never the start of a name; "pid:PID"
 *	names a task directly.
 * @ret: on success, the container.
 * @reterr_diag: optional, filled on failure; its detail lists the
 *	candidates ("docker:web lxc:web") or the engines searched.
 *
 * Without ENGINE every engine present is searched.  An exact name or id
 * wins over id prefixes.
 *
 * Return: 0; -ENOENT when nothing matches; -ENOTUNIQ when several
 * containers match; -EPERM when the only match is one its engine does not
 * believe (an LXC monitor socket held by another user; the detail says
 * who); -EINVAL for a malformed @target or unknown engine;
 * another negative errno when the named engine cannot be read.
 */
int hijack_container_find(const char *target, struct hijack_container *ret,
			  struct hijack_diag *reterr_diag);

/**
 * hijack_container_open() - pin a found container's init, race-free.
 * @c: from hijack_container_find() or hijack_containers_list().
 * @ret: on success, the pinned target; free it with hijack_target_free().
 * @reterr_diag: optional, filled on failure.
 *
 * The pid is pinned with a pidfd first (hijack_target_open()); then the
 * pinned task must still be the container's: its start time must be the
 * one the engine recorded, and its cgroup must carry the container's mark.
 * A container stopped or restarted since it was found is refused, never
 * replaced by whatever now has its pid.  The target keeps a copy of @c:
 * a plan built on it shows the container (hijack_plan_print()).
 *
 * Return: 0, -ESRCH when the task is gone or is no longer the container's.
 */
int hijack_container_open(const struct hijack_container *c,
			  struct hijack_target **ret,
			  struct hijack_diag *reterr_diag);

#ifdef __cplusplus
}
#endif

#endif /* HIJACK_H */
