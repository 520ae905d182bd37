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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libaudit.h>

#include "audit.h"

/* Each text value, before encoding: the message stays under libaudit's. */
#define KERNEL_VALUE_MAX 1024

struct status_req {
	int fd;
	bool running;
};

/* Is auditing on, with a daemon taking the records? */
static int ask_status(void *arg)
{
	struct status_req *q = arg;
	struct audit_reply rep;
	int r, tries;

	r = audit_request_status(q->fd);
	if (r < 0)
		return r;
	for (tries = 0; tries < 8; tries++) {
		r = audit_get_reply(q->fd, &rep, GET_REPLY_BLOCKING, 0);
		if (r < 0)
			return r;
		if (rep.type == AUDIT_GET) {
			q->running = rep.status->enabled && rep.status->pid;
			return 0;
		}
	}
	return -EPROTO;
}

struct send_req {
	int fd;
	const char *msg;
	int result;
};

static int do_send(void *arg)
{
	struct send_req *s = arg;
	int r;

	r = audit_log_user_message(s->fd, AUDIT_USER_CMD, s->msg, NULL, NULL,
				   NULL, s->result);
	return r <= 0 ? (errno ? -errno : -EIO) : 0;
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
	struct status_req q = { .running = false };
	struct send_req s;
	size_t nkv, i;
	int fd, r;

	fd = audit_open();
	if (fd < 0)
		return errno == EINVAL || errno == EPROTONOSUPPORT ||
				       errno == EAFNOSUPPORT ?
			       -ENOENT :
			       -errno;
	q.fd = fd;
	r = audit_with_timeout(ask_status, &q, AUDIT_SEND_TIMEOUT_MS);
	/*
	 * A caller without CAP_AUDIT_CONTROL may not ask, nor without
	 * CAP_AUDIT_WRITE write: for it, as for a kernel without a daemon,
	 * there is no audit log to write to, which is no failure to warn of.
	 */
	if (r == -EPERM || r == -EACCES)
		r = -ENOENT;
	if (r < 0 || !q.running) {
		audit_close(fd);
		return r < 0 ? r : -ENOENT;
	}
	msg[0] = '\0';
	(void)snprintf(msg, sizeof(msg), "op=hijack-%s", audit_event_name(event));
	nkv = audit_fields(e, event, kv, numbuf, sizeof(numbuf));
	for (i = 1; i < nkv; i++)
		if (!append(msg, sizeof(msg), kv[i].key, kv[i].value))
			break;
	s = (struct send_req){ fd, msg,
			       event == AUDIT_START || event == AUDIT_END_SESSION ||
				       (event == AUDIT_END && !e->error[0]) };
	r = audit_with_timeout(do_send, &s, AUDIT_SEND_TIMEOUT_MS);
	audit_close(fd);
	return r == -EPERM || r == -EACCES ? -ENOENT : r;
}
