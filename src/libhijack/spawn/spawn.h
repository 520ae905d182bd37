/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * spawn/spawn.h - what the executor (spawn/) offers the rest of the
 * library: hj_spawn() and the payload interface.  Its own parts share
 * spawn-internal.h beside it, which no other folder includes.
 *
 * Included by its path, "spawn/spawn.h", from outside this folder: with
 * -I of this folder, its name would hide the C library's <spawn.h> from
 * engines/tool.c.
 */
#ifndef HIJACK_SPAWN_H
#define HIJACK_SPAWN_H

#include "internal.h"

/*
 * The executor.  hj_spawn() starts a process in the target, confines it
 * as the plan says, and hands it over to a payload: what the process is
 * there for.  A payload is a table of hooks and flags, and a pointer that
 * the executor passes to every hook untouched, in the manner of LXC's
 * lxc_attach(exec_function, exec_payload).  Each hook is called at one
 * fixed point of the executor's sequence, whose order spawn.c and
 * spawn-child.c explain; any but @run may be NULL.
 *
 * The payloads (../payloads/): command.c execs the caller's argv
 * (hijack_run()), tools.c execs it in a view of the host's programs
 * (hijack_run_tools()), files.c copies a file in place of the exec
 * (hijack_file_copy()).  They include this header; the executor
 * includes none of theirs.
 */

/*
 * Never execs: hijack's own code runs in the child to its end.  It gets
 * no terminal of its own (its bytes go to the caller's fds as they are),
 * says MSG_STARTED where an exec would have closed the status pipe, and
 * does nothing before hijack has taken it as started: killed before
 * that, it has made nothing to leave behind (a copy, no temporary file).
 * From then to its end it is guarded as a command is until its exec: the
 * caller's SIGINT, SIGTERM, SIGHUP and SIGQUIT are forwarded to it, and
 * a stop by the container gets it SIGTERM, so it is to clean up after
 * itself on those; SIGKILL comes only to one that has not ended a second
 * later.  It stays non-dumpable to its end: its memory is hijack's, the
 * host's.
 */
#define HJ_PAYLOAD_NOEXEC BIT(0)
/*
 * A mount view of its own, built by @host_view: the target's mount
 * namespace is not entered, nor its root and working directory taken.
 */
#define HJ_PAYLOAD_OWN_MOUNTS BIT(1)

struct hj_payload {
	const char *name;	/* what messages call it: "command", "copy" */
	enum hijack_step step;	/* HJ_PAYLOAD_NOEXEC: of a failure to start it */
	unsigned int flags;	/* HJ_PAYLOAD_* */
	/*
	 * In the caller, before anything is opened for the child: refuse
	 * what the payload cannot keep safe, and copy to the heap whatever
	 * the child reads after it hid hijack's own arguments
	 * (hj_args_hide()), since the caller's may be those very bytes.
	 */
	int (*prepare)(void *arg, const struct hijack_plan *p,
		       struct hijack_diag *d);
	/*
	 * In the forked shape's intermediate, in the target's cgroups and in
	 * none of its namespaces yet: the host is still in view.
	 * *ret_ptsdir may name a devpts that the command's new terminal is to
	 * come from.  The syscall shape has no intermediate: a payload with
	 * this hook refuses that method in @prepare.
	 */
	int (*host_view)(void *arg, const struct hijack_target *t,
			 const struct hijack_plan *p, int *ret_ptsdir,
			 struct hijack_diag *d);
	/* In the child: change the capabilities it is to end with. */
	void (*caps)(void *arg, struct hijack_caps *c);
	/*
	 * In the child, after the resource limits and before the fd barrier
	 * and seccomp, with CAP_SETPCAP still effective.
	 */
	int (*confine)(void *arg, struct hijack_diag *d);
	/* HJ_PAYLOAD_NOEXEC: an fd of the caller's to keep open, or -1. */
	int (*keep_fd)(void *arg);
	/*
	 * In the child, confined, last: exec, and return only on failure
	 * (-ENOENT when there is no such command); or, HJ_PAYLOAD_NOEXEC,
	 * do the work and return 0 or a negative errno.  @d says why.
	 */
	int (*run)(void *arg, const struct hijack_plan *p,
		   struct hijack_diag *d);
};

int hj_spawn(const struct hijack_target *t, const struct hijack_plan *p,
	     const struct hj_payload *pl, void *arg,
	     const struct hijack_relay_tap *tap, struct hijack_result *ret,
	     struct hijack_diag *d);

#endif /* HIJACK_SPAWN_H */
