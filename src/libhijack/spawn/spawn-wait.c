// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * spawn-wait.c - hijack's side once the command's process exists: read the
 * status pipe for its exec or for why it failed, reap it, say why it died
 * before its exec, and wait for it while handing on the signals meant for
 * it and relaying its terminal.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

#include "spawn-internal.h"

/*
 * While the command's process prepares (@child, or the intermediate that
 * forks it, @cmd once reported), it is in the target's pid namespace as
 * the host's root or as the command's user: a process of the container
 * with the same uid may signal it.  A SIGSTOP would leave hijack reading
 * the status pipe for ever, and so would a step that blocks (a FUSE mount
 * of the container's that never answers), with the caller's Ctrl-C
 * blocked for forwarding.  So until the exec, a stop of either, or
 * SIGINT, SIGTERM, SIGHUP or SIGQUIT for hijack, ends @child and @cmd
 * (SIGKILL), and the entry (125).  A process that has exec'd, or a
 * payload that never execs, under way (@running), gets those signals
 * instead, and only the payload's stop ends it.  Return the negative
 * errno of the diagnostic when the entry ends so, 0 when nothing happened.
 */
static const int guard_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };

static void end(pid_t child, pid_t cmd)
{
	(void)kill(child, SIGKILL);
	if (cmd > 0 && cmd != child)
		(void)kill(cmd, SIGKILL);
}

static int never_execd(pid_t pid);

/*
 * The status pipe's EOF may still be unread when the command has exec'd:
 * a command that exec'd and then stops, or is to be signalled, is the
 * command's to handle, not a failure to start.  Its flags tell
 * (never_execd()); a payload under way that never execs does not.
 */
static bool execd(pid_t child, bool running)
{
	return !running && never_execd(child) == 0;
}

/*
 * A stop of @pid before it exec'd (or, @running, ended).  The command is
 * hijack's child from its birth (CLONE_PARENT), so it can be asked too.
 */
static bool stopped_early(pid_t pid, bool running, int *ret_sig)
{
	siginfo_t info = { 0 };

	if (waitid(P_PID, (id_t)pid, &info, WSTOPPED | WNOHANG | WNOWAIT) < 0 ||
	    info.si_pid != pid || info.si_code != CLD_STOPPED ||
	    execd(pid, running))
		return false;
	*ret_sig = info.si_status;
	return true;
}

/* End the entry if @child or @cmd was stopped before its exec. */
static int check_stops(pid_t child, pid_t cmd, bool running,
		       const char *name, struct hijack_diag *d)
{
	int sig;

	if (!stopped_early(child, running, &sig) &&
	    !(cmd > 0 && cmd != child && stopped_early(cmd, running, &sig)))
		return 0;
	if (running && cmd == child) {
		/*
		 * A payload under way that never execs: told to end, as by
		 * the caller, it cleans up after itself (HJ_PAYLOAD_NOEXEC);
		 * one stopped again is killed when the wait for it runs out
		 * (wait_noexec()).
		 */
		(void)kill(child, SIGTERM);
		(void)kill(child, SIGCONT);
	} else {
		end(child, cmd);
	}
	return hj_diag_set(d, HIJACK_STEP_WAIT, EINTR,
			   "the %s's process was stopped (%s) before it %s: a process of the target can signal it",
			   name, strsignal(sig), running ? "ended" : "started");
}

static int guard(int sfd, pid_t child, pid_t cmd, bool running,
		 const char *name, struct hijack_diag *d)
{
	struct signalfd_siginfo si;
	int r;

	while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
		/*
		 * A payload under way that never execs hears them as a
		 * command would, and ends cleaning up after itself
		 * (HJ_PAYLOAD_NOEXEC): 128+N, as before its start.
		 */
		if (si.ssi_signo != SIGCHLD) {
			if (running || execd(cmd > 0 ? cmd : child, false)) {
				(void)kill(cmd > 0 ? cmd : child,
					   (int)si.ssi_signo);
				continue;
			}
			end(child, cmd);
			return hj_diag_set(d, HIJACK_STEP_WAIT, EINTR,
					   "%s before the %s started",
					   strsignal((int)si.ssi_signo), name);
		}
		r = check_stops(child, cmd, running, name, d);
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * Read the status pipe to EOF.  Return 0 when the command exec'd, or the
 * negative errno the failing process reported.  *ret_pid and *ret_method
 * (if not NULL) are updated from the intermediate's message.  EOF without
 * the command's last word (MSG_EXEC) means its process died before the
 * exec: -ECANCELED, and hj_died_before_exec() says why.  With @child
 * (> 0) the wait is guarded as above; @running: a payload that never
 * execs is under way (after MSG_STARTED); @name: what messages call the
 * payload (struct hj_payload).
 *
 * @go (if not NULL) is the write end the forked shape's command waits on
 * before its first step: one byte once its pid is here and the entry
 * stands, or, if the entry was ended first, the command is killed and
 * the pipe closed.  A command whose pid never came (the intermediate was
 * killed in between) reads EOF when the caller closes it, and gives up.
 */
int hj_read_status(int fd, pid_t *ret_pid, enum hijack_method *ret_method,
		   pid_t child, bool running, const char *name, int *go,
		   struct hijack_diag *d)
{
	_cleanup_close_ int sfd = -EBADF;
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN } };
	bool exec = false, started = false;
	struct msg m;
	sigset_t set;
	ssize_t n;
	size_t i;
	int r = 0;

	if (child > 0) {
		(void)sigemptyset(&set);
		for (i = 0; i < ARRAY_SIZE(guard_signals); i++)
			(void)sigaddset(&set, guard_signals[i]);
		/* Blocked since before the fork (spawn.c): none is lost. */
		sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
		p[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	}
	for (;;) {
		/*
		 * Once the entry has failed, its processes are dead or dying
		 * (end()), and their EOF comes at once; unless a freezer
		 * cgroup of the target's holds them, where SIGKILL waits for
		 * the thaw (cgroup v1).  The caller does not wait for that.
		 */
		if (sfd >= 0 && r < 0 && poll(p, 1, KILL_WAIT_MS) == 0)
			return r;
		if (sfd >= 0 && r == 0) {
			if (poll(p, 2, -1) < 0 && errno != EINTR)
				return hj_diag_set(d, HIJACK_STEP_WAIT, errno, "poll");
			if (p[1].revents & POLLIN)
				r = guard(sfd, child, *ret_pid, running, name, d);
			/* A command not yet let on gives up at once. */
			if (r < 0 && go)
				close_fdp(go);
			if (!(p[0].revents & (POLLIN | POLLHUP)))
				continue;
		}
		n = read(fd, &m, sizeof(m));
		if (n == 0)
			return r == 0 && !exec ? -ECANCELED : r;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return hj_diag_set(d, HIJACK_STEP_WAIT, errno,
					   "status pipe");
		}
		if (n != sizeof(m))
			return hj_diag_set(d, HIJACK_STEP_WAIT, EPROTO,
					   "short status message");
		if (m.kind == MSG_PID) {
			*ret_pid = m.pid;
			if (ret_method)
				*ret_method = m.method;
			/*
			 * The SIGCHLD of the command's stop may have been read
			 * while its pid was still unknown: look again.
			 */
			if (sfd >= 0 && r == 0)
				r = check_stops(child, m.pid, running, name, d);
			/*
			 * EPIPE: the command's process died before it read
			 * the byte; its EOF follows, and says so (-ECANCELED).
			 */
			if (go && r == 0) {
				r = hj_send_go(*go);
				if (r == -EPIPE)
					r = 0;
				else if (r < 0)
					r = hj_diag_set(d, HIJACK_STEP_FORK, -r,
							"starting the command");
			}
			if (r < 0)
				(void)kill(m.pid, SIGKILL);
			if (go)
				close_fdp(go);
			if (started)
				return r;
		} else if (m.kind == MSG_EXEC) {
			exec = true;
		} else if (m.kind == MSG_STARTED) {
			/*
			 * A payload may start before the intermediate that
			 * forked it has said its pid: that comes next.
			 */
			started = true;
			if (*ret_pid > 0)
				return r;
		} else if (r == 0) {
			if (d)
				*d = m.diag;
			r = -m.diag.err;
		}
	}
}

int hj_reap(pid_t pid, int *ret_status)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (ret_status)
		*ret_status = status;
	return 0;
}

/*
 * Does @pid, a child of hijack's that was sent SIGKILL or is ending,
 * show as dead (not reaped) by @deadline (hj_now_ms())?  1 if so, 0 if
 * not, or a negative errno when its pidfd cannot tell.  A process of a
 * cgroup v1 freezer that the target froze does not: a fatal signal waits
 * there for the thaw, and the process runs no instruction of its own
 * before it dies.  Whatever hijack leaves so goes to init (or the
 * caller's subreaper) when hijack exits.
 */
static int dead_by(pid_t pid, long long deadline)
{
	_cleanup_close_ int pfd = pidfd_open(pid, 0);
	struct pollfd p = { .fd = pfd, .events = POLLIN };
	long long left;
	int n;

	if (pfd < 0)
		return -errno;
	do {
		left = deadline - hj_now_ms();
		n = poll(&p, 1, left > 0 ? (int)left : 0);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int dead_within(pid_t pid)
{
	return dead_by(pid, hj_now_ms() + KILL_WAIT_MS);
}

/* Reap @pid if it is dead by @deadline; else -ETIMEDOUT. */
int hj_reap_by(pid_t pid, int *ret_status, long long deadline)
{
	/* No pidfd (before Linux 5.3): the plain wait. */
	if (dead_by(pid, deadline) == 0)
		return -ETIMEDOUT;
	return hj_reap(pid, ret_status);
}

/* Reap @pid if it is dead within KILL_WAIT_MS; else -ETIMEDOUT. */
int hj_reap_within(pid_t pid, int *ret_status)
{
	return hj_reap_by(pid, ret_status, hj_now_ms() + KILL_WAIT_MS);
}

/*
 * Did @pid, sent SIGKILL, exec before it died?  Asked once it shows as
 * dead, left unreaped; false if it is not dead by @deadline or /proc
 * cannot tell.
 */
bool hj_execd_once_dead(pid_t pid, long long deadline)
{
	return dead_by(pid, deadline) == 1 && never_execd(pid) == 0;
}

/*
 * Nothing half-done: a started command that hijack can no longer talk to
 * or wait for goes, rather than outlive the failure unwatched (the hangup
 * it gets when hijack exits may be ignored).  Only for a child not yet
 * reaped, whose pid cannot have gone to another process.
 */
void hj_kill_reap(pid_t pid)
{
	(void)kill(pid, SIGKILL);
	(void)hj_reap_within(pid, NULL);
}

/* How long a dying pid namespace init is given to show as gone. */
#define INIT_EXIT_WAIT_MS 1000

/*
 * The command's process @pid died before its exec: reap it and say why,
 * as hijack's own failure.  Most often the target went first, and took its
 * pid namespace, with everything inside, along.
 */
int hj_died_before_exec(struct spawn *s, pid_t pid, struct hijack_diag *d)
{
	struct pollfd pfd = { .fd = s->t->pidfd, .events = POLLIN };
	int status = 0;

	if (pid > 0)
		(void)hj_reap(pid, &status);
	/*
	 * A pid namespace's init finishes exiting only once every other
	 * member is reaped, the process just reaped included: give it a
	 * moment, in this failure path only, to show as gone.
	 */
	if (pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		(void)poll(&pfd, 1, INIT_EXIT_WAIT_MS);
	if (hj_target_alive(s->t) < 0)
		return hj_diag_set(d, HIJACK_STEP_TARGET, ESRCH,
				   "pid %d exited before the command started",
				   (int)s->p->pid);
	if (pid > 0 && WIFSIGNALED(status))
		return hj_diag_set(d, HIJACK_STEP_FORK, ECANCELED,
				   "the command's process was killed by signal %d before exec",
				   WTERMSIG(status));
	return hj_diag_set(d, HIJACK_STEP_FORK, ECANCELED,
			   "the command's process exited before exec");
}

/*
 * "Forked but didn't exec": set in every new process, cleared by execve()
 * alone, once past its point of no return (after the old memory is gone,
 * before the new program's first instruction), and never set again.  The
 * kernel shows it in /proc/PID/stat's flags, and ps(1) as F 1.
 */
#define PF_FORKNOEXEC 0x00000040

/*
 * Did @pid, dead and not reaped, die before its exec?  1 if so, 0 if it
 * exec'd, or a negative errno if /proc cannot tell.
 *
 * Why this and not the status pipe: its EOF comes as well from an exec
 * (close-on-exec) as from a death, and MSG_EXEC is sent before execve(),
 * which may then be held and killed (the target's death kills its pid
 * namespace, hijack's child with it).  Why a zombie's flags: they are
 * final, so asking once the process is dead has no race with the exec,
 * and its pid cannot go to another process before it is reaped.  Its
 * number in the /proc read from is the pidfd's "Pid:" there: a /proc of
 * another pid namespace would otherwise show another process.
 */
static int never_execd(pid_t pid)
{
	_cleanup_close_ int procroot = -EBADF, pidfd = -EBADF;
	_cleanup_free_ char *info = NULL, *stat = NULL;
	unsigned long flags;
	char path[64], nr[32];
	const char *end;
	int r;

	procroot = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procroot < 0)
		return -errno;
	pidfd = pidfd_open(pid, 0);
	if (pidfd < 0)
		return -errno;
	(void)snprintf(path, sizeof(path), "self/fdinfo/%d", pidfd);
	r = hj_read_at(procroot, path, &info, NULL);
	if (r >= 0)
		r = hj_status_field(info, "Pid", nr, sizeof(nr));
	if (r < 0)
		return r;
	if (strtol(nr, NULL, 10) != pid)
		return -ESRCH;
	(void)snprintf(path, sizeof(path), "%d/stat", (int)pid);
	r = hj_read_at(procroot, path, &stat, NULL);
	if (r < 0)
		return r;
	/*
	 * The name may hold ") ": it ends at the last one.  Then come
	 * state, ppid, pgrp, session, tty_nr, tpgid and flags.
	 */
	end = strrchr(stat, ')');
	if (!end || sscanf(end + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) != 1)
		return -EPROTO;
	return (flags & PF_FORKNOEXEC) ? 1 : 0;
}

/*
 * Reap the command's process, ended (hj_wait_forwarding()), into
 * *ret_status; unless a signal killed it before its exec, however late:
 * then the command never ran, and that is hijack's failure (125), told by
 * hj_died_before_exec(), not the command's death (128+N).  A payload
 * that never execs has none: MSG_STARTED was its start.
 */
int hj_reap_command(struct spawn *s, pid_t pid, int *ret_status,
		    struct hijack_diag *d)
{
	siginfo_t si = { 0 };
	int r;

	if (!(s->pl->flags & HJ_PAYLOAD_NOEXEC) &&
	    waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) == 0 &&
	    (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)) {
		r = never_execd(pid);
		if (r > 0)
			return hj_died_before_exec(s, pid, d);
		if (r < 0) {
			(void)hj_reap(pid, NULL);
			return hj_diag_set(d, HIJACK_STEP_WAIT, -r,
					   "whether pid %d's command started (/proc/%d/stat)",
					   (int)s->p->pid, (int)pid);
		}
	}
	return hj_reap(pid, ret_status);
}

/*
 * The caller asked the command to end, and it has not: if a freezer of
 * its cgroup holds it, it cannot act on the signal, and the caller would
 * wait for the thaw.  It is killed then (a v2 freezer lets it die: its
 * status is 128+9); one that a v1 freezer holds dies only at the thaw,
 * and hijack ends the entry without it.  A command that is not frozen
 * handles the signal as it likes (a shell ignores SIGINT).  One whose
 * cgroup cannot be named (the container nested it past PATH_MAX) is
 * taken as frozen: a look that answered "not frozen" there would let the
 * container keep the caller waiting for ever.
 */
static int end_frozen(const struct hijack_plan *p, pid_t pid,
		      struct hijack_diag *d)
{
	int r = hj_cgroup_frozen(p, pid);

	if (r == 0)
		return 0;
	(void)kill(pid, SIGKILL);
	if (dead_within(pid) == 1)
		return 0;
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_WAIT, -r,
				   "the command (pid %d) did not end when asked, in a cgroup hijack cannot read: killed, it has not died yet",
				   (int)pid);
	return hj_diag_set(d, HIJACK_STEP_WAIT, EINTR,
			   "the command (pid %d) is held by its cgroup's freezer: killed, it ends when thawed",
			   (int)pid);
}

/*
 * The caller asked the command to end a second time, at least a second
 * after the first, and it has not ended: whatever holds it (a freezer the
 * look could not see, a CPU throttle, a process that stops it again and
 * again, an uninterruptible wait on a mount of the container's, a tracer),
 * the caller gets the terminal back.  It is killed and the entry ends
 * with its status (128+9), or 125 when it has not died within a second.
 */
static int end_held(pid_t pid, struct hijack_diag *d)
{
	(void)kill(pid, SIGKILL);
	if (dead_within(pid) == 1)
		return 0;
	return hj_diag_set(d, HIJACK_STEP_WAIT, EINTR,
			   "the command (pid %d) did not end when asked twice: killed, it has not died yet",
			   (int)pid);
}

/*
 * Wait until the command has ended, handing on the signals meant for it
 * and relaying its terminal; leave it unreaped, for hj_reap_command().
 * The signals are blocked and read from a signalfd, so none is lost
 * between waitid() and sleeping, and nothing runs in a signal handler.
 *
 * The command is always in a session of its own (child_session()), which
 * the caller's terminal cannot reach: what the kernel raises for that
 * terminal (Ctrl-C, Ctrl-\, a hangup) reaches hijack alone, and is
 * forwarded like a signal sent by a process.  A resize resizes the
 * command's own terminal when it has one, and is forwarded otherwise.
 * A SIGTERM, SIGINT, SIGHUP or SIGQUIT that reaches hijack a second or
 * more after an earlier one, the command still there, ends it
 * (end_held()): the first lets the command end as it likes, the second
 * is the caller's way out of whatever the container holds it with.
 */
int hj_wait_forwarding(const struct hijack_plan *p, pid_t pid,
		       const sigset_t *set, struct hj_pty *pty,
		       struct hijack_diag *d)
{
	_cleanup_close_ int sfd = -EBADF;
	struct pollfd pfd[1 + HJ_PTY_POLLFDS];
	struct signalfd_siginfo si;
	long long look = -1;	/* when to look for a freezer, if asked to end */
	long long again = -1;	/* from when a second ask ends the command */
	siginfo_t info;
	int n, err;

	sfd = signalfd(-1, set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		err = errno;
		hj_kill_reap(pid);
		return hj_diag_set(d, HIJACK_STEP_WAIT, err, "signalfd");
	}

	for (;;) {
		info.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &info,
			   WEXITED | WNOHANG | WNOWAIT) == 0) {
			if (info.si_pid == pid)
				break;
		} else if (errno != EINTR) {
			return hj_diag_set(d, HIJACK_STEP_WAIT, errno,
					   "command pid %d", (int)pid);
		}
		pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		n = 1 + hj_pty_pollfds(pty, pfd + 1);
		/*
		 * A fixed moment, not a quiet second: the terminal's traffic
		 * (which the container can make) must not put it off.
		 */
		err = poll(pfd, (nfds_t)n, look < 0 ? -1 :
			   (int)(look > hj_now_ms() ? look - hj_now_ms() : 0));
		if (err < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			hj_kill_reap(pid);
			return hj_diag_set(d, HIJACK_STEP_WAIT, err, "poll");
		}
		if (look >= 0 && hj_now_ms() >= look) {
			/* Looked at again only when asked again. */
			look = -1;
			err = end_frozen(p, pid, d);
			if (err < 0)
				return err;
			continue;
		}
		hj_pty_handle(pty, pfd + 1, n - 1);
		/* Ctrl-C on the command's own terminal: as a forwarded SIGINT. */
		if (pty->typed_intr) {
			pty->typed_intr = false;
			if (look < 0)
				look = hj_now_ms() + KILL_WAIT_MS;
		}
		while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGCHLD)
				continue;
			if (pty->fds && si.ssi_signo == SIGWINCH) {
				hj_pty_resize(pty);
				continue;
			}
			(void)kill(pid, (int)si.ssi_signo);
			/*
			 * A stopped command would hold a SIGTERM, SIGINT,
			 * SIGHUP or SIGQUIT until someone continued it, and
			 * hijack would wait for ever: continue it, as a
			 * shell does for a stopped job it kills.
			 */
			if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT ||
			    si.ssi_signo == SIGHUP || si.ssi_signo == SIGQUIT) {
				(void)kill(pid, SIGCONT);
				if (again >= 0 && hj_now_ms() >= again) {
					err = end_held(pid, d);
					if (err < 0)
						return err;
					break;
				}
				if (again < 0)
					again = hj_now_ms() + KILL_WAIT_MS;
				if (look < 0)
					look = hj_now_ms() + KILL_WAIT_MS;
			}
		}
	}
	/* Consume what arrived too late to forward, so it does not hit us. */
	while (read(sfd, &si, sizeof(si)) == sizeof(si))
		;
	return 0;
}
