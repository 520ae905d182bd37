// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * journal.c - records to the systemd journal, through libsystemd's
 * sd_journal_sendv(): every field a journal field of its own
 * (HIJACK_TARGET=..., HIJACK_ARGV=...), MESSAGE_ID fixed per kind of
 * record so that journalctl -x explains it (catalog/hijack.catalog), and
 * journald's own trusted fields (_UID, _PID, _CAP_EFFECTIVE, ...) beside
 * them, which no caller can forge.
 *
 * libsystemd is opened here, not linked: loading it and its compression
 * and crypto libraries is most of what a record costs an entry (about
 * 4 ms of CPU on a small VM where page faults are dear), paid only when a
 * journal is there to take the record (as libsmartcols and liblxc are
 * opened only by what needs them).  And it is opened early, by
 * audit_journal_prepare() on a thread of its own, while the main thread
 * finds the container and makes the plan: on a machine with a core to
 * spare the entry does not wait for it.  The thread is joined before the
 * first record, so none runs when libhijack forks the command.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <syslog.h>

#include <systemd/sd-journal.h>

#include "audit.h"

/* Where libsystemd sends to; without it no journal runs. */
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

static __typeof__(sd_journal_sendv) *sendv_fn;
static pthread_t loader;
static bool loading;

static void *load_libsystemd(void *arg)
{
	void *h = dlopen(LIBSYSTEMD_SONAME, RTLD_LAZY | RTLD_LOCAL);

	(void)arg;
	if (h)
		sendv_fn = (__typeof__(sendv_fn))dlsym(h, "sd_journal_sendv");
	return NULL;
}

static bool journal_runs(void)
{
	struct stat st;

	return stat(JOURNAL_SOCKET, &st) == 0 && S_ISSOCK(st.st_mode);
}

void audit_journal_prepare(void)
{
	if (loading || sendv_fn || !journal_runs())
		return;
	loading = pthread_create(&loader, NULL, load_libsystemd, NULL) == 0;
}

static void join_loader(void)
{
	if (loading) {
		(void)pthread_join(loader, NULL);
		loading = false;
	}
}

static int open_libsystemd(void)
{
	join_loader();
	if (!sendv_fn)
		(void)load_libsystemd(NULL);
	return sendv_fn ? 0 : -ENOPKG;
}

struct journal_msg {
	struct iovec iov[AUDIT_FIELDS_MAX + 5];
	int n;
};

static int do_send(void *arg)
{
	struct journal_msg *m = arg;

	return sendv_fn(m->iov, m->n);
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
	size_t nkv, i;
	int r;

	/*
	 * sd_journal_send() says nothing when the socket is missing (it
	 * returns 0): ask first, so that "no journal" is known and syslog
	 * is used instead.
	 */
	if (!journal_runs()) {
		/* Never leave the loader running past this point. */
		join_loader();
		return -ENOENT;
	}
	r = open_libsystemd();
	if (r < 0)
		return r;
	audit_summary(e, event, message + 8, sizeof(message) - 8);
	memcpy(message, "MESSAGE=", 8);
	(void)snprintf(msgid, sizeof(msgid), "MESSAGE_ID=%s", message_ids[event]);
	(void)snprintf(prio, sizeof(prio), "PRIORITY=%d",
		       event == AUDIT_FAILED ? LOG_WARNING : LOG_NOTICE);
	m.iov[m.n++] = (struct iovec){ message, strlen(message) };
	m.iov[m.n++] = (struct iovec){ msgid, strlen(msgid) };
	m.iov[m.n++] = (struct iovec){ prio, strlen(prio) };
	m.iov[m.n++] = (struct iovec){ "SYSLOG_IDENTIFIER=hijack", 24 };
	/* authpriv: who entered where is for the administrators. */
	m.iov[m.n++] = (struct iovec){ "SYSLOG_FACILITY=10", 18 };
	nkv = audit_fields(e, event, kv, numbuf, sizeof(numbuf));
	r = 0;
	for (i = 0; i < nkv; i++) {
		char *s = field(kv[i].key, kv[i].value);

		if (!s) {
			r = -ENOMEM;
			break;
		}
		m.iov[m.n++] = (struct iovec){ s, strlen(s) };
	}
	if (r == 0)
		r = audit_with_timeout(do_send, &m, AUDIT_SEND_TIMEOUT_MS);
	for (i = 5; i < (size_t)m.n; i++)
		free(m.iov[i].iov_base);
	return r;
}
