// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel.c - records to the kernel's audit log, through libaudit, as
 * sudo writes its USER_CMD records: type USER_CMD, the fields as
 * key=value pairs, every text value encoded by audit_encode_nv_string()
 * (quoted, or hex when it holds a space), so that ausearch reads them
 * back and no value can pose as another field.  The kernel adds the
 * caller's pid, uid, auid, ses and LSM label, which no caller can forge.
 *
 * Only when auditing is enabled and an audit daemon is registered: with
 * none, the kernel would print each record to its ring buffer, where
 * nobody keeps them.
 *
 * Why a process of its own: when the daemon stops reading and the
 * kernel's backlog is full, the kernel holds every sender of a netlink
 * audit message, in an uninterruptible sleep, for the backlog wait time
 * (60 s by default), and libaudit retries the waits that a signal cuts
 * short.  No timer in hijack's own process can bound that; a process
 * that hijack stops waiting for can (finish_sender()).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libaudit.h>

#include "audit.h"
#include "macro.h"

/* Each text value, before encoding: the message stays under libaudit's. */
#define KERNEL_VALUE_MAX 1024

/*
 * Whether a daemon takes the records, as this process found it.  The
 * question is the dear part of a record (the kernel starts a thread to
 * answer each one), so it is asked once a process: a hijack process
 * writes the records of one entry (or of one --end-session), and its
 * later records go where its first went, nowhere when no daemon ran,
 * without the question when one did.  Left unknown after a question
 * that failed otherwise (late, refused), so that the next record asks
 * again.
 */
static enum {
	KERNEL_LOG_UNKNOWN,
	KERNEL_LOG_NONE,
	KERNEL_LOG_RUNNING,
} kernel_log;

/* Is auditing on, with a daemon taking the records? */
static int ask_status(int fd, bool *ret_running)
{
	struct audit_reply rep;
	int r, tries;

	r = audit_request_status(fd);
	if (r < 0)
		return r;
	for (tries = 0; tries < 8; tries++) {
		r = audit_get_reply(fd, &rep, GET_REPLY_BLOCKING, 0);
		if (r < 0)
			return r;
		if (rep.type == AUDIT_GET) {
			*ret_running = rep.status->enabled && rep.status->pid;
			return 0;
		}
	}
	return -EPROTO;
}

/*
 * The sender's stack: libaudit's buffers take about 30 KiB of it.  One
 * for the process, so that the second record of an entry finds its pages
 * there already; a sender left asleep never runs on it again (below).
 */
#define SENDER_STACK (128 * 1024)
static char sender_stack[SENDER_STACK] __attribute__((aligned(64)));
/* How long a killed sender may take to be gone before it is left. */
#define SENDER_KILL_WAIT_MS 100

struct sender {
	int fd;
	int result;
	bool ask;		/* ask first whether a daemon runs */
	const char *msg;	/* the record */
	const char *tty;
};

/*
 * The sender: ask (when @ask), then send.  It runs in a process that shares hijack's
 * memory (CLONE_VM), because a copy of hijack's page tables costs a
 * millisecond on some virtual machines, twice an entry.  So it calls
 * nothing but libaudit's question and send, which use their own stack
 * frames and system calls (no allocation: the terminal is looked up
 * beforehand), with every signal blocked, while hijack waits in ppoll()
 * with every signal blocked too.  Beside it hijack runs only the few
 * calls between clone() and ppoll(), none of which reads errno: the
 * sender shares the thread block too, errno with it, and a libc call of
 * hijack's that failed would find the sender's errno in place of its
 * own (reading the target's limits once failed so).  Its exit status is
 * the errno of what failed, ENOENT for "no audit log to write to".
 */
static int sender_main(void *arg)
{
	const struct sender *s = arg;
	bool running = false;
	int r;

	/*
	 * Its descriptor table is a copy of hijack's: keep only the audit
	 * socket, or a sender the kernel holds would hold hijack's output,
	 * its terminal and the target's pidfd as long, and whoever reads
	 * hijack's output would wait for the kernel, not for hijack.  The
	 * system call itself, as nothing but libaudit is to run here.
	 */
	if (s->fd > 0)
		(void)syscall(SYS_close_range, 0U, (unsigned int)s->fd - 1, 0U);
	(void)syscall(SYS_close_range, (unsigned int)s->fd + 1, ~0U, 0U);
	if (s->ask) {
		r = ask_status(s->fd, &running);
	} else {
		r = 0;
		running = true;
	}
	/*
	 * A caller without CAP_AUDIT_CONTROL may not ask, nor without
	 * CAP_AUDIT_WRITE write: for it, as for a kernel without a daemon,
	 * there is no audit log to write to, which is no failure to warn of.
	 */
	if (r == -EPERM || r == -EACCES || (r == 0 && !running))
		return ENOENT;
	if (r < 0)
		return -r < 256 ? -r : EIO;
	errno = 0;
	r = audit_log_user_message(s->fd, AUDIT_USER_CMD, s->msg, NULL, NULL,
				   s->tty, s->result);
	if (r > 0)
		return 0;
	r = errno ? errno : EIO;
	return r == EPERM || r == EACCES ? ENOENT : r < 256 ? r : EIO;
}

/*
 * Wait on @pidfd for the sender until @deadline (audit_now_mono() µs),
 * with @all signals blocked.  True when it exited.
 */
static bool sender_exited(int pidfd, unsigned long long deadline,
			  const sigset_t *all)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	unsigned long long now = audit_now_mono(), left;
	struct timespec ts;

	left = now >= deadline ? 0 : deadline - now;
	ts.tv_sec = (time_t)(left / 1000000);
	ts.tv_nsec = (long)(left % 1000000) * 1000L;
	/* Nothing interrupts it: every signal is blocked, in @all too. */
	return ppoll(&p, 1, &ts, all) > 0;
}

/*
 * Start the sender on @s, its pidfd in *@ret_pidfd; with every signal
 * blocked, which it keeps (hijack's own mask is as it was on return).
 */
static int start_sender(struct sender *s, int *ret_pidfd)
{
	sigset_t all, old;
	pid_t pid;
	int r = 0;

	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = clone(sender_main, sender_stack + SENDER_STACK,
		    CLONE_VM | CLONE_PIDFD | SIGCHLD, s, ret_pidfd);
	if (pid < 0)
		r = -errno;
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}

/*
 * Wait for the sender of @pidfd until @deadline, and close @pidfd.  Its
 * exit status as a negative errno; -ETIMEDOUT when it was late, and was
 * killed.
 */
static int finish_sender(int pidfd, unsigned long long deadline)
{
	_cleanup_close_ int fd = pidfd;
	sigset_t all, old;
	siginfo_t si = { 0 };
	int r;

	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!sender_exited(fd, deadline, &all)) {
		/*
		 * Late.  A sender asleep in the kernel dies on SIGKILL or,
		 * when the kernel holds it uninterruptibly (a full backlog),
		 * as soon as it returns, before it runs another instruction
		 * of its own.  A process still asleep is reaped by init
		 * once hijack is gone.
		 */
		(void)pidfd_send_signal(fd, SIGKILL, NULL, 0);
		if (sender_exited(fd, audit_now_mono() +
				  SENDER_KILL_WAIT_MS * 1000ULL, &all))
			(void)waitid(P_PIDFD, (id_t)fd, &si, WEXITED);
		r = -ETIMEDOUT;
	} else if (waitid(P_PIDFD, (id_t)fd, &si, WEXITED) < 0) {
		r = -errno;
	} else {
		r = si.si_code == CLD_EXITED ? -si.si_status : -EIO;
	}
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}

/* Remember what a sender found; return @r. */
static int learn(int r)
{
	if (r == 0)
		kernel_log = KERNEL_LOG_RUNNING;
	else if (r == -ENOENT)
		kernel_log = KERNEL_LOG_NONE;
	return r;
}

/* Is @err audit_open()'s way of saying the kernel has no audit? */
static bool no_audit(int err)
{
	return err == EINVAL || err == EPROTONOSUPPORT || err == EAFNOSUPPORT;
}

/* The terminal libaudit would name, looked up here: it may allocate. */
static void find_tty(char *buf, size_t len)
{
	int i;

	for (i = 0; i <= 2; i++)
		if (isatty(i) && ttyname_r(i, buf, len) == 0) {
			if (strncmp(buf, "/dev/", 5) == 0)
				memmove(buf, buf + 5, strlen(buf + 5) + 1);
			return;
		}
	/* Empty: libaudit writes terminal=? */
	buf[0] = '\0';
}

/*
 * Append " key=value" to @msg, @value encoded; false when it is full.
 * A value cut to KERNEL_VALUE_MAX sets *@cut.
 */
static bool append(char *msg, size_t len, const char *key, const char *value,
		   bool *cut)
{
	char v[KERNEL_VALUE_MAX + 1];
	size_t n = strlen(msg), l = strlen(value);
	char *enc;
	int w;

	if (l > KERNEL_VALUE_MAX) {
		*cut = true;
		l = KERNEL_VALUE_MAX;
		/* Never half of a \xHH escape. */
		while (l > 0 && l > KERNEL_VALUE_MAX - 4 && value[l - 1] != '\\')
			l--;
		if (l > 0 && value[l - 1] == '\\')
			l--;
	}
	memcpy(v, value, l);
	v[l] = '\0';
	enc = audit_encode_nv_string(key, v, 0);
	if (!enc)
		return false;
	w = snprintf(msg + n, len - n, "%s%s", n ? " " : "", enc);
	free(enc);
	if (w < 0 || (size_t)w >= len - n) {
		msg[n] = '\0';
		return false;
	}
	return true;
}

int audit_kernel_send(const struct audit_entry *e, enum audit_event event)
{
	char numbuf[1024], msg[MAX_AUDIT_MESSAGE_LENGTH - 1024];
	struct audit_kv kv[AUDIT_FIELDS_MAX];
	char tty[64], name[64];
	unsigned long long deadline;
	int fd, pidfd = -EBADF, r;
	struct sender s;
	size_t nkv, i;
	bool cut;

	/* 500 ms for the question and the record together. */
	deadline = audit_now_mono() + 2ULL * AUDIT_SEND_TIMEOUT_MS * 1000ULL;
	if (kernel_log == KERNEL_LOG_NONE)
		return -ENOENT;
	/* A kernel without audit says so here, without a process. */
	fd = audit_open();
	if (fd < 0)
		return no_audit(errno) ? -ENOENT : -errno;
	msg[0] = '\0';
	/*
	 * The kernel's pid= is the sender's below: hijack_pid says whose it
	 * was, as the journal's _PID does.
	 */
	(void)snprintf(msg, sizeof(msg), "op=hijack-%s hijack_pid=%d",
		       audit_event_name(event), (int)getpid());
	nkv = audit_fields(e, event, kv, numbuf, sizeof(numbuf));
	for (i = 1; i < nkv; i++) {
		/* ausearch -i would read "mode" as a file's mode. */
		const char *key = strcmp(kv[i].key, "mode") == 0 ? "entry_mode" :
								  kv[i].key;

		cut = false;
		if (!append(msg, sizeof(msg), key, kv[i].value, &cut))
			break;
		/*
		 * Said beside the value, so that a padded command cannot
		 * hide its tail from this log without a trace.
		 */
		if (cut)
			(void)snprintf(name, sizeof(name), "%s_cut", key);
		if (cut && !append(msg, sizeof(msg), name, "yes", &cut))
			break;
	}
	s = (struct sender){
		.fd = fd,
		.msg = msg,
		.tty = tty,
		.ask = kernel_log != KERNEL_LOG_RUNNING,
		.result = event == AUDIT_START || event == AUDIT_END_SESSION ||
			  (event == AUDIT_END && !e->error[0]),
	};
	find_tty(tty, sizeof(tty));
	r = start_sender(&s, &pidfd);
	/* A sender left asleep has its own copy of the descriptor table. */
	audit_close(fd);
	return r < 0 ? r : learn(finish_sender(pidfd, deadline));
}
