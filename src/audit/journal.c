// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal.c - records to the systemd journal, in journald's native
 * protocol: every field a journal field of its own (HIJACK_TARGET=...,
 * HIJACK_ARGV=...), MESSAGE_ID fixed per kind of record so that
 * journalctl -x explains it (catalog/hijack.catalog), and journald's own
 * trusted fields (_UID, _PID, _CAP_EFFECTIVE, ...) beside them, which it
 * takes from the socket and no caller can forge.
 *
 * Why not libsystemd's sd_journal_sendv(), which sends the same datagram:
 * Debian 12's libsystemd0 brings libgcrypt, liblzma, libzstd, liblz4 and
 * libgpg-error with it, and mapped into hijack they made every entry
 * dearer by a fifth, not in loading them (a thread hid most of that) but
 * in every process hijack forks afterwards, which copies their written
 * pages and their page tables (an entry, auditing off, side by side:
 * median 24.8 ms without them, 29.5 ms with libsystemd preloaded; the
 * README quotes the run).  The protocol is journald's stable,
 * documented interface for clients that do not link libsystemd: one
 * datagram to /run/systemd/journal/socket, a field per line as
 * "NAME=value\n", or, for a value holding a newline, "NAME\n", its length
 * as 64 bits little-endian, the value and "\n".  A record here is bounded
 * (audit.h) far below what a datagram carries, so the large-message path
 * (a sealed memfd passed instead) is not needed: a record too large for
 * the socket fails with EMSGSIZE and goes to syslog.
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include "audit.h"

/* Where journald listens; without it no journal runs. */
#define JOURNAL_SOCKET "/run/systemd/journal/socket"

/*
 * One MESSAGE_ID per kind of record, made once with systemd-id128 new
 * and never changed: they are what journalctl MESSAGE_ID=... and the
 * catalog match on.
 */
static const char *const message_ids[_AUDIT_EVENT_MAX] = {
	[AUDIT_START] = "2eb84e2ca95444e3b97bf7ef5fc2c499",
	[AUDIT_END] = "9fe93aa1ceea423a8a8983939d15c300",
	[AUDIT_FAILED] = "f7c3ed08a83e47c7bedd047cc727a3ad",
	[AUDIT_END_SESSION] = "5a5ac10585a24c60aa29978e854d9b1f",
};

/*
 * Where records go; only a unit test points it elsewhere.  Never from the
 * environment: a caller could then send its own records nowhere.
 */
const char *audit_journal_socket = JOURNAL_SOCKET;

static bool journal_runs(void)
{
	struct stat st;

	return stat(audit_journal_socket, &st) == 0 && S_ISSOCK(st.st_mode);
}

/*
 * The datagram: up to three pieces per field (the field, and for a value
 * with a newline its length and the value apart), and its newline.
 */
struct journal_msg {
	struct iovec iov[4 * (AUDIT_FIELDS_MAX + 5)];
	uint64_t len[AUDIT_FIELDS_MAX + 5];
	int n, nfields;
};

/* Add "NAME=value" (@kv, which it stays) to @m in the protocol's form. */
static void add_field(struct journal_msg *m, const char *kv, size_t size)
{
	const char *eq = memchr(kv, '=', size);
	size_t name = (size_t)(eq - kv);

	if (!memchr(eq + 1, '\n', size - name - 1)) {
		m->iov[m->n++] = (struct iovec){ (void *)kv, size };
	} else {
		m->len[m->nfields] = htole64(size - name - 1);
		m->iov[m->n++] = (struct iovec){ (void *)kv, name };
		m->iov[m->n++] = (struct iovec){ (void *)"\n", 1 };
		m->iov[m->n++] = (struct iovec){ &m->len[m->nfields], 8 };
		m->iov[m->n++] = (struct iovec){ (void *)(eq + 1), size - name - 1 };
	}
	m->iov[m->n++] = (struct iovec){ (void *)"\n", 1 };
	m->nfields++;
}

/*
 * One datagram, on a socket of its own that waits at most the audit
 * bound for room in journald's queue (a stuck journald must not hold the
 * entry): then -ETIMEDOUT.
 */
static int send_msg(struct journal_msg *m)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = AUDIT_SEND_TIMEOUT_MS / 1000,
			      .tv_usec = AUDIT_SEND_TIMEOUT_MS % 1000 * 1000 };
	struct msghdr mh = { .msg_name = &sa, .msg_namelen = sizeof(sa),
			     .msg_iov = m->iov, .msg_iovlen = (size_t)m->n };
	int fd, r = 0;

	if (strlen(audit_journal_socket) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, audit_journal_socket);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    sendmsg(fd, &mh, MSG_NOSIGNAL) < 0)
		r = errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT : -errno;
	(void)close(fd);
	return r;
}

/* "HIJACK_" and the key in upper case, then "=value", in @out. */
static char *field(const char *key, const char *value)
{
	size_t klen = strlen(key), vlen = strlen(value), i;
	char *s = malloc(7 + klen + 1 + vlen + 1);

	if (!s)
		return NULL;
	memcpy(s, "HIJACK_", 7);
	for (i = 0; i < klen; i++)
		s[7 + i] = key[i] >= 'a' && key[i] <= 'z' ? key[i] - 'a' + 'A' : key[i];
	s[7 + klen] = '=';
	memcpy(s + 8 + klen, value, vlen + 1);
	return s;
}

int audit_journal_send(const struct audit_entry *e, enum audit_event event)
{
	char numbuf[1024], message[1024], msgid[64], prio[16];
	struct audit_kv kv[AUDIT_FIELDS_MAX];
	struct journal_msg m = { .n = 0 };
	char *owned[AUDIT_FIELDS_MAX];
	size_t nkv, i, nowned = 0;
	int r;

	/* A missing socket is "no journal": syslog is used instead. */
	if (!journal_runs())
		return -ENOENT;
	audit_summary(e, event, message + 8, sizeof(message) - 8);
	memcpy(message, "MESSAGE=", 8);
	(void)snprintf(msgid, sizeof(msgid), "MESSAGE_ID=%s", message_ids[event]);
	(void)snprintf(prio, sizeof(prio), "PRIORITY=%d",
		       event == AUDIT_FAILED ? LOG_WARNING : LOG_NOTICE);
	add_field(&m, message, strlen(message));
	add_field(&m, msgid, strlen(msgid));
	add_field(&m, prio, strlen(prio));
	add_field(&m, "SYSLOG_IDENTIFIER=hijack", 24);
	/* authpriv: who entered where is for the administrators. */
	add_field(&m, "SYSLOG_FACILITY=10", 18);
	nkv = audit_fields(e, event, kv, numbuf, sizeof(numbuf));
	r = 0;
	for (i = 0; i < nkv; i++) {
		char *s = field(kv[i].key, kv[i].value);

		if (!s) {
			r = -ENOMEM;
			break;
		}
		owned[nowned++] = s;
		add_field(&m, s, strlen(s));
	}
	if (r == 0)
		r = send_msg(&m);
	for (i = 0; i < nowned; i++)
		free(owned[i]);
	return r;
}
