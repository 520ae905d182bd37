// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * syslog.c - records to syslog (/dev/log) when no journal runs, as one
 * RFC 5424 message each, the fields as structured data:
 *
 *   <85>1 2024-05-01T22:14:03.123456Z host hijack 4242 start
 *       [hijack@32473 event="start" session="..." target="web" ...] MSG
 *
 * 32473 is the private enterprise number RFC 5612 sets aside for
 * examples: hijack has none of its own, and RFC 5424 wants one in a
 * structured-data id that is not IANA's.
 *
 * glibc's syslog(3) neither writes RFC 5424 nor bounds its wait (it
 * blocks on a full socket), so the message is sent here: on a socket of
 * our own, non-blocking, with poll() for the rest of the time allowed.
 * Every value was escaped (escape.c), so a message is one line with no
 * '"', '\\' to misread or ']' that would end the data early.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "macro.h"

#define SYSLOG_SOCKET "/dev/log"
/* rsyslog's and syslog-ng's default limit on a message. */
#define SYSLOG_MAX 8192

/* Append to @buf what fits, keeping it terminated. */
static void put(char *buf, size_t len, size_t *n, const char *s)
{
	size_t l = strlen(s);

	if (*n + l >= len)
		l = *n < len - 1 ? len - 1 - *n : 0;
	memcpy(buf + *n, s, l);
	*n += l;
	buf[*n] = '\0';
}

static size_t format(const struct audit_entry *e, enum audit_event event,
		     char *buf, size_t len)
{
	char numbuf[1024], head[640], host[256], hostesc[256], msg[1024];
	struct audit_kv kv[AUDIT_FIELDS_MAX];
	struct timespec ts;
	struct tm tm;
	size_t nkv, i, n = 0;
	int pri = LOG_AUTHPRIV | (event == AUDIT_FAILED ? LOG_WARNING : LOG_NOTICE);

	(void)clock_gettime(CLOCK_REALTIME, &ts);
	(void)gmtime_r(&ts.tv_sec, &tm);
	if (gethostname(host, sizeof(host)) < 0 || !host[0])
		(void)snprintf(host, sizeof(host), "-");
	host[sizeof(host) - 1] = '\0';
	(void)audit_escape(host, false, hostesc, sizeof(hostesc));
	(void)snprintf(head, sizeof(head),
		       "<%d>1 %04d-%02d-%02dT%02d:%02d:%02d.%06ldZ %s hijack %d %s [hijack@32473",
		       pri, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		       tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000,
		       hostesc, (int)e->pid, audit_event_name(event));
	put(buf, len, &n, head);
	nkv = audit_fields(e, event, kv, numbuf, sizeof(numbuf));
	for (i = 0; i < nkv; i++) {
		/*
		 * The escaped value's backslashes are doubled, as RFC 5424
		 * wants of a PARAM-VALUE: a reader that undoes that gets
		 * the escaped text back, which then reads as in the journal.
		 */
		char v[AUDIT_ARGV_MAX * 2 + 1];
		const char *p;
		size_t k = 0;

		for (p = kv[i].value; *p && k + 2 < sizeof(v); p++) {
			if (*p == '\\')
				v[k++] = '\\';
			v[k++] = *p;
		}
		v[k] = '\0';
		put(buf, len, &n, " ");
		put(buf, len, &n, kv[i].key);
		put(buf, len, &n, "=\"");
		put(buf, len, &n, v);
		put(buf, len, &n, "\"");
	}
	/* Never cut inside the structured data: end it, whatever fits. */
	if (n + 2 >= len)
		n = len - 3;
	if (n > 0 && buf[n - 1] == '\\')
		n--;
	buf[n] = '\0';
	put(buf, len, &n, "] ");
	audit_summary(e, event, msg, sizeof(msg));
	put(buf, len, &n, msg);
	return n;
}

int audit_syslog_send(const struct audit_entry *e, enum audit_event event)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = SYSLOG_SOCKET };
	_cleanup_close_ int fd = -EBADF;
	unsigned long long deadline;
	char buf[SYSLOG_MAX];
	struct stat st;
	size_t len;

	/*
	 * A /dev/log that is no socket is no syslog daemon, whoever asks:
	 * connect() would say so to root (ECONNREFUSED) but "permission
	 * denied" to a user who may not write the file.
	 */
	if (stat(SYSLOG_SOCKET, &st) < 0 || !S_ISSOCK(st.st_mode))
		return -ENOENT;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return errno == ECONNREFUSED ? -ENOENT : -errno;
	len = format(e, event, buf, sizeof(buf));
	deadline = audit_now_mono() + AUDIT_SEND_TIMEOUT_MS * 1000ULL;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		unsigned long long now;

		if (send(fd, buf, len, MSG_NOSIGNAL) >= 0)
			return 0;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		/* The reader's queue is full: wait for room, not forever. */
		now = audit_now_mono();
		if (now >= deadline)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, (int)((deadline - now + 999) / 1000)) < 0 &&
		    errno != EINTR)
			return -errno;
	}
}
