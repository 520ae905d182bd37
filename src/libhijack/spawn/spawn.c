// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * spawn.c - start the command inside the target, wait for it, forward
 * signals to it, and bring back why it could not start.
 *
 * The pid namespace is special: setns() of a pid namespace only decides
 * where the caller's *children* go.  So the command must be a child created
 * after the pid namespace was entered.  And it must not be seen there
 * before it is in the target's other namespaces: a process of the
 * container may open /proc/PID/mountinfo, or the files of /proc/PID/net,
 * of any process of its pid namespace, with no ptrace check, and the file
 * shows the namespace the process is in at the moment of the open.  So an
 * intermediate, in hijack's own pid namespace where the container cannot
 * see it, enters everything and then forks the command, which is born in
 * all of the target's namespaces at once:
 *
 *   hijack                       intermediate               command
 *   fork() --------------------> join the cgroups
 *                                enter every namespace,
 *                                pid for its children
 *                                hide hijack's argv
 *                                clone(CLONE_PARENT) ------> root, cwd,
 *   read pid <------------------ send the command's pid      confinement,
 *   reap the intermediate        _exit(0)                    exec
 *   read status pipe until EOF <---------------------------- (or: send diag,
 *   wait, forwarding signals                                  _exit 125..127)
 *
 * CLONE_PARENT makes the command hijack's child from its first instant, so
 * that hijack waits for it, and it hears of hijack's death, as of a child
 * hijack forked itself.  The intermediate enters the namespaces in one
 * setns(pidfd, mask), or per /proc/PID/ns file in the order ns.c gives,
 * which works for a caller privileged on the host as for one that is
 * privileged only in the target's user namespace.
 *
 * The hijack(2) system call does all of this in the kernel, and creates
 * the command in every namespace at once.
 *
 * The status pipe is O_CLOEXEC: it reads EOF once every process holding
 * its write end has exec'd or exited; a message before EOF is a failure
 * report, sent as one write() below PIPE_BUF, so it arrives whole.  EOF
 * after MSG_EXEC, the last message before execve(), cannot tell an exec
 * from a death inside or just before execve(): the dead process's own
 * flags tell that, before it is reaped (hj_reap_command()).
 *
 * What the command's process runs is its payload's (struct hj_payload in
 * spawn.h): this executor calls the payload's hooks at fixed points
 * and knows nothing else of it.  A payload that never execs
 * (HJ_PAYLOAD_NOEXEC) runs the same way, but says MSG_STARTED where the
 * exec would have closed the pipe, and a failure of its work comes after
 * it, read once the child has ended.
 *
 * This file has the two ways, a function each (start_syscall(),
 * start_forked()), ending alike in wait_exec().  What is
 * opened on the host before the fork is in spawn-prepare.c, what the
 * command's process does up to its exec in spawn-child.c, and the status
 * pipe's reading and the waiting in spawn-wait.c.
 */
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "spawn-internal.h"

static const int forwarded_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH,
};

/*
 * Say why a fork failed.  Once its pid namespace's init has died, the
 * kernel refuses new members with ENOMEM: that is the target exiting
 * under us, and is named as such.
 */
static int fork_failed(struct spawn *s, int err, struct hijack_diag *d)
{
	if (hj_target_alive(s->t) < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d exited while being entered",
				   (int)s->p->pid);
	if (err == EBUSY)
		return hj_diag_set(d, HIJACK_STEP_CGROUP, EBUSY,
				   "cgroup v2 of pid %d refuses new processes (controllers enabled for its children); use --cgroups=keep",
				   (int)s->p->pid);
	return hj_diag_set(d, HIJACK_STEP_FORK, err, "command in pid %d's namespaces",
			   (int)s->p->pid);
}

/*
 * The shapes' common end, in hijack: read the status pipe until the
 * command exec'd, and return its pid; or reap what is left of it and
 * return why it did not.  The caller closed its own copy of the write
 * end, or the pipe would never read EOF.
 *
 * @inter is the intermediate, else 0.  It is reaped once the pipe is
 * read.  The command's pid then comes from its message, and without one
 * (the intermediate failed) there is none.
 */
static int wait_exec(struct spawn *s, pid_t cmd, pid_t inter,
		     struct hijack_diag *d)
{
	long long deadline;
	int r, status = 0;

	r = hj_read_status(s->status_r, &cmd, &s->method,
			   cmd > 0 ? cmd : inter, false, s->pl->name,
			   inter > 0 ? &s->go_w : NULL, d);
	close_fdp(&s->go_w);	/* the command waiting on it gives up */
	/*
	 * Either may be held by a frozen cgroup of the target: not for
	 * ever, and the waits for both share one bound, so that the caller
	 * who ended the entry waits KILL_WAIT_MS here at most, not one for
	 * each process and question.
	 */
	deadline = hj_now_ms() + KILL_WAIT_MS;
	if (inter > 0)
		(void)hj_reap_by(inter, &status, deadline);
	if (r == -ECANCELED && cmd > 0)
		return hj_died_before_exec(s, cmd, d);
	if (r < 0 && r != -ECANCELED) {
		if (cmd <= 0)
			return r;
		/*
		 * Nothing half-done: whatever failed, the command goes (it is
		 * ending already when it said why).  Ended at the very moment
		 * of its exec, it did run: its death is then its own (128+N).
		 */
		(void)kill(cmd, SIGKILL);
		if (!(s->pl->flags & HJ_PAYLOAD_NOEXEC) &&
		    hj_execd_once_dead(cmd, deadline))
			return cmd;
		(void)hj_reap_by(cmd, NULL, deadline);
		return r;
	}
	/* Only the intermediate starts without the command's pid. */
	if (cmd <= 0 && WIFSIGNALED(status))
		return hj_diag_set(d, HIJACK_STEP_FORK, ECHILD,
				   "the process entering pid %d's namespaces was killed by signal %d (a limit of its cgroup?)",
				   (int)s->p->pid, WTERMSIG(status));
	if (cmd <= 0)
		return hj_diag_set(d, HIJACK_STEP_FORK, ECHILD,
				   "the process entering pid %d's namespaces exited with status %d",
				   (int)s->p->pid, WEXITSTATUS(status));
	return cmd;
}

/* hijack(2): the kernel enters, and forks the command, in one call. */
static int start_syscall(struct spawn *s, struct hijack_diag *d)
{
	/* Never 0 with this method: hijack_plan_build() saw to it. */
	unsigned int flags = s->p->syscall_flags;
	long pid;

	s->kernel_took = flags;
	pid = hj_syscall_hijack(s->p, s->t->pidfd, s->cg2fd);
	if (pid < 0 && errno == EBUSY && (flags & HIJACK_INTO_CGROUP))
		return fork_failed(s, errno, d);	/* as clone3() says it */
	if (pid < 0)
		return hj_diag_set(d, HIJACK_STEP_SYSCALL, errno,
				   "hijack(2) of pid %d, flags %#x",
				   (int)s->p->pid, flags);
	if (pid == 0) {
		/* Seen by the container from here: hide what it need not see. */
		hj_args_hide(&s->args);
		if (flags & HIJACK_TAKE_FS) {
			/* The kernel gave us the target's root and cwd already. */
			close_fdp(&s->rootfd);
			close_fdp(&s->cwdfd);
		}
		/* Born in the v2 cgroup; the v1 hierarchies are ours to join. */
		s->cg_joined_v2 = flags & HIJACK_INTO_CGROUP;
		hj_child_cgroups(s);
		hj_child_exec(s);
	}
	close_fdp(&s->status_w);
	return wait_exec(s, (pid_t)pid, 0, d);
}

/*
 * The intermediate: in hijack's pid namespace, where the container cannot
 * see it, join the cgroups and run the payload's host_view hook while the
 * host is in view, enter every namespace, then fork the command as
 * hijack's child.
 */
static _Noreturn void child_intermediate(struct spawn *s)
{
	struct hijack_diag d = { 0 };
	struct msg m = { .kind = MSG_PID };
	pid_t pid;
	char go;

	close_fdp(&s->go_w);	/* hijack's alone: the command sees its EOF */
	close_fdp(&s->ack_w);	/* and the start pipe's, if any */
	hj_child_cgroups(s);
	if (s->pl->host_view &&
	    s->pl->host_view(s->arg, s->t, s->p, &s->pty->ptsdir, &d) < 0)
		hj_child_fail(s, &d, CHILD_EXIT_FAILED);
	if (hj_child_enter_ns(s, &d) < 0)
		hj_child_fail(s, &d, CHILD_EXIT_FAILED);
	hj_args_hide(&s->args);
	pid = hj_fork_command();
	if (pid < 0) {
		(void)fork_failed(s, errno, &d);
		hj_child_fail(s, &d, CHILD_EXIT_FAILED);
	}
	if (pid == 0) {
		/*
		 * Nothing until hijack knows this pid: it lets us on, or
		 * closes the pipe when it ended the entry in between.
		 */
		if (read(s->go_r, &go, 1) != 1)
			_exit(CHILD_EXIT_FAILED);
		close_fdp(&s->go_r);
		hj_child_exec(s);
	}
	close_fdp(&s->go_r);
	m.pid = pid;
	m.method = s->method;
	hj_send_msg(s->status_w, &m);
	_exit(0);
}

/*
 * Fork the intermediate, which forks the command; wait for the command's
 * exec.  Every namespace of the plan is the intermediate's to enter.
 */
static int start_forked(struct spawn *s, struct hijack_diag *d)
{
	int go[2];
	pid_t pid;
	int r;

	if (s->method == HIJACK_METHOD_NSFD) {
		r = hj_ns_open_fds(s->t, s->p->ns_mask, s->nsfds, d);
		if (r < 0)
			return r;
	}
	if (hj_go_channel(go) < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno, "start pipe");
	s->go_r = go[0];
	s->go_w = go[1];
	pid = hj_fork_child(s);
	if (pid < 0) {
		r = fork_failed(s, errno, d);
		close_fdp(&s->go_r);
		close_fdp(&s->go_w);
		return r;
	}
	if (pid == 0) {
		close_fdp(&s->status_r);
		child_intermediate(s);
	}
	close_fdp(&s->status_w);
	close_fdp(&s->go_r);
	return wait_exec(s, 0, pid, d);
}

/*
 * A payload that never execs (HJ_PAYLOAD_NOEXEC) is hijack's own code,
 * not a command: until it ends it is guarded as a command's process is
 * until its exec (a stop from the container ends it: 125), the caller's
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT reach it (it cleans up and ends
 * with 128+N), and what it said after MSG_STARTED, if it failed, is read
 * to its EOF.  It never sends MSG_EXEC, so that EOF alone means it ended.
 * Left unreaped.
 *
 * It does nothing before hijack has taken it as started: told to end
 * before that, it is killed, and killed halfway through its work it
 * could not clean up after itself.  The byte on the start pipe is that
 * word, and from here on the signals are forwarded to it.
 */
static int wait_noexec(struct spawn *s, pid_t pid, struct hijack_diag *d)
{
	int r;

	r = hj_send_go(s->ack_w);
	if (r == -EPIPE)	/* it died first: most often with the target */
		return hj_died_before_exec(s, pid, d);
	if (r < 0) {
		hj_kill_reap(pid);
		return hj_diag_set(d, s->pl->step, -r, "starting the %s",
				   s->pl->name);
	}
	close_fdp(&s->ack_w);
	r = hj_read_status(s->status_r, &pid, NULL, pid, true, s->pl->name,
			   NULL, d);

	if (r == -ECANCELED)
		return 0;
	if (r < 0 && hj_reap_within(pid, NULL) == -ETIMEDOUT)
		hj_kill_reap(pid);
	return r;
}

/* Take back a blocked @sig that is pending, so that unblocking it is quiet. */
static void take_pending(int sig)
{
	const struct timespec now = { 0, 0 };
	sigset_t one;

	(void)sigemptyset(&one);
	(void)sigaddset(&one, sig);
	(void)sigtimedwait(&one, NULL, &now);
}

/*
 * Start the command and wait for it, with the signals meant for it blocked
 * in hijack from before the fork, so that none is lost, to its end.
 */
static int run(struct spawn *s, struct hijack_result *ret,
	       struct hijack_diag *d)
{
	const struct hijack_plan *p = s->p;
	int oom = 0;
	int i, r, status = 0;
	sigset_t set, block;
	pid_t cmd;

	/* The command inherits the target's OOM score from us (limits.c). */
	if (p->limits_mode == HIJACK_FROM_TARGET) {
		r = hj_oom_swap(p->limits.oom_score_adj, &oom, d);
		if (r < 0)
			return r;
	}

	(void)sigemptyset(&set);
	for (i = 0; i < (int)ARRAY_SIZE(forwarded_signals); i++)
		(void)sigaddset(&set, forwarded_signals[i]);
	(void)sigaddset(&set, SIGCHLD);
	/*
	 * SIGPIPE too, not to be forwarded: the relay writes to the caller's
	 * output, and a reader that went away must end the session as a
	 * hangup of the command's terminal (pty.c), with its end record, not
	 * kill hijack.  One that this raised is taken back below: none can
	 * be pending from before, unless the caller blocked it already.
	 */
	block = set;
	(void)sigaddset(&block, SIGPIPE);
	(void)sigprocmask(SIG_BLOCK, &block, &s->oldmask);

	if (p->method == HIJACK_METHOD_SYSCALL)
		r = start_syscall(s, d);
	else
		r = start_forked(s, d);
	if (p->limits_mode == HIJACK_FROM_TARGET)
		(void)hj_oom_swap(oom, &oom, NULL);
	hj_spawn_close(s);
	if (r > 0) {
		cmd = r;
		r = hj_pty_start(s->pty, d);
		if (r < 0)
			hj_kill_reap(cmd);
		else if (s->pl->flags & HJ_PAYLOAD_NOEXEC)
			r = wait_noexec(s, cmd, d);
		else
			r = hj_wait_forwarding(p, cmd, &set, s->pty, d);
		if (r == 0)
			r = hj_reap_command(s, cmd, &status, d);
		if (r == 0 && ret) {
			ret->status = status;
			ret->pid = cmd;
			ret->method = s->method;
		}
	}
	if (!sigismember(&s->oldmask, SIGPIPE))
		take_pending(SIGPIPE);
	(void)sigprocmask(SIG_SETMASK, &s->oldmask, NULL);
	return r;
}

/* A caller compiled against an older, smaller struct has no @fn to call. */
static int check_tap(const struct hijack_relay_tap *tap, struct hijack_diag *d)
{
	if (tap && (tap->struct_size < offsetof(struct hijack_relay_tap, userdata) +
					       sizeof(tap->userdata) ||
		    !tap->fn))
		return hj_diag_set(d, HIJACK_STEP_OPTIONS, EINVAL,
				   "struct hijack_relay_tap");
	return 0;
}

/*
 * The executor's entry (spawn.h): run @pl in the target, handed @arg,
 * with @tap (or NULL) shown what is relayed of a new terminal.
 */
int hj_spawn(const struct hijack_target *t, const struct hijack_plan *p,
	     const struct hj_payload *pl, void *arg,
	     const struct hijack_relay_tap *tap, struct hijack_result *ret,
	     struct hijack_diag *d)
{
	struct spawn s = {
		.t = t, .p = p, .pl = pl, .arg = arg, .method = p->method,
		.child_mask = p->ns_mask, .rootfd = -EBADF, .cwdfd = -EBADF,
		.status_w = -EBADF, .status_r = -EBADF, .cg2fd = -EBADF,
		.procdir = -EBADF, .go_w = -EBADF, .go_r = -EBADF,
		.ack_w = -EBADF, .ack_r = -EBADF,
	};
	struct hj_pty pty;
	int i, r;

	r = check_tap(tap, d);
	if (r < 0)
		return r;
	for (i = 0; i < _HIJACK_NS_MAX; i++)
		s.nsfds[i] = -EBADF;
	hj_pty_init(&pty);
	pty.tap = tap;
	s.pty = &pty;
	if (pl->prepare) {
		r = pl->prepare(arg, p, d);
		if (r < 0)
			return r;
	}
	/*
	 * The view is built in the intermediate, which hijack(2) has none
	 * of: a payload refuses that method itself, with its own words, and
	 * this holds one that forgot to, rather than start it without.
	 */
	if ((pl->host_view || (pl->flags & HJ_PAYLOAD_OWN_MOUNTS)) &&
	    p->method == HIJACK_METHOD_SYSCALL)
		return hj_diag_set(d, HIJACK_STEP_PLAN, EOPNOTSUPP,
				   "a %s in a view of its own with --method=syscall",
				   pl->name);
	/* The view the payload builds replaces the target's mounts. */
	if (pl->flags & HJ_PAYLOAD_OWN_MOUNTS)
		s.child_mask &= ~HIJACK_NS_BIT(HIJACK_NS_MNT);

	r = hj_spawn_prepare(&s, d);
	if (r >= 0)
		r = run(&s, ret, d);
	hj_pty_finish(&pty);
	hj_spawn_close(&s);
	close_fdp(&s.status_r);
	close_fdp(&s.ack_w);
	return r < 0 ? r : 0;
}
