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
 * that hijack stops waiting for can.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libaudit.h>

#include "audit.h"
#include "macro.h"

/* Each text value, before encoding: the message stays under libaudit's. */
#define KERNEL_VALUE_MAX 1024

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
 * The sender, in its own process: ask, then send.  Its exit status is
 * the errno of what failed, ENOENT for "no audit log to write to".
 */
static _Noreturn void sender(int fd, const char *msg, int result)
{
	bool running = false;
	int r;

	r = ask_status(fd, &running);
	/*
	 * A caller without CAP_AUDIT_CONTROL may not ask, nor without
	 * CAP_AUDIT_WRITE write: for it, as for a kernel without a daemon,
	 * there is no audit log to write to, which is no failure to warn of.
	 */
	if (r == -EPERM || r == -EACCES || (r == 0 && !running))
		_exit(ENOENT);
	if (r < 0)
		_exit(-r < 256 ? -r : EIO);
	errno = 0;
	r = audit_log_user_message(fd, AUDIT_USER_CMD, msg, NULL, NULL, NULL,
				   result);
	if (r > 0)
		_exit(0);
	r = errno ? errno : EIO;
	_exit(r == EPERM || r == EACCES ? ENOENT : r < 256 ? r : EIO);
}

/*
 * Wait for the sender until @deadline (audit_now_mono() µs).  Its exit
 * status as a negative errno; -ETIMEDOUT, the sender killed, when late.
 */
static int wait_sender(pid_t pid, unsigned long long deadline)
{
	_cleanup_close_ int pidfd = pidfd_open(pid, 0);
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	unsigned long long now;
	siginfo_t si = { 0 };
	int r;

	if (pidfd < 0) {
		r = -errno;
		(void)kill(pid, SIGKILL);
		(void)waitid(P_PID, (id_t)pid, &si, WEXITED);
		return r;
	}
	for (;;) {
		now = audit_now_mono();
		r = poll(&p, 1, now >= deadline ? 0 :
			 (int)((deadline - now + 999) / 1000));
		if (r > 0)
			break;
		if (r == 0 || errno != EINTR) {
			/*
			 * Not waited for: it may sleep in the kernel until
			 * the backlog wait is over, and dies then.  Reaped by
			 * init once hijack is gone; a zombie till then.
			 */
			(void)pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
			return -ETIMEDOUT;
		}
	}
	if (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED) < 0)
		return -errno;
	if (si.si_code != CLD_EXITED)
		return -EIO;
	return -si.si_status;
}

/* Append " key=value" to @msg, @value encoded; false when it is full. */
static bool append(char *msg, size_t len, const char *key, const char *value)
{
	char v[KERNEL_VALUE_MAX + 1];
	size_t n = strlen(msg), l = strlen(value);
	char *enc;
	int w;

	if (l > KERNEL_VALUE_MAX) {
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
	unsigned long long deadline;
	size_t nkv, i;
	pid_t pid;
	int fd, result;

	/* A kernel without audit says so here, without a process. */
	fd = audit_open();
	if (fd < 0)
		return errno == EINVAL || errno == EPROTONOSUPPORT ||
				       errno == EAFNOSUPPORT ?
			       -ENOENT :
			       -errno;
	msg[0] = '\0';
	/*
	 * The kernel's pid= is the sender's below: hijack_pid says whose it
	 * was, as the journal's _PID does.
	 */
	(void)snprintf(msg, sizeof(msg), "op=hijack-%s hijack_pid=%d",
		       audit_event_name(event), (int)getpid());
	nkv = audit_fields(e, event, kv, numbuf, sizeof(numbuf));
	for (i = 1; i < nkv; i++)
		if (!append(msg, sizeof(msg), kv[i].key, kv[i].value))
			break;
	result = event == AUDIT_START || event == AUDIT_END_SESSION ||
		 (event == AUDIT_END && !e->error[0]);
	deadline = audit_now_mono() + 2ULL * AUDIT_SEND_TIMEOUT_MS * 1000ULL;
	pid = fork();
	if (pid == 0)
		sender(fd, msg, result);
	audit_close(fd);
	if (pid < 0)
		return -errno;
	return wait_sender(pid, deadline);
}
