// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * write.c - where a record goes.  The journal when journald runs, else
 * syslog: one of the two, since journald reads /dev/log too and would
 * otherwise keep every record twice.  The kernel's audit log as well when
 * an audit daemon runs: it is the one a root inside the host cannot edit
 * quietly.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "audit.h"

static void why(char *buf, size_t len, const char *dest, int err)
{
	size_t n = strlen(buf);

	if (n < len)
		(void)snprintf(buf + n, len - n, "%s%s: %s", n ? "; " : "", dest,
			       err == -ENOENT ? "not running" : strerror(-err));
}

unsigned int audit_write(const struct audit_entry *e, enum audit_event event,
			 char *reterr_why, size_t whylen, bool *ret_none_runs)
{
	unsigned int took = 0;
	char reasons[256] = "";
	bool none = true;
	int r;

	r = audit_journal_send(e, event);
	none &= r == -ENOENT;
	if (r == 0) {
		took |= AUDIT_DEST_JOURNAL;
	} else {
		why(reasons, sizeof(reasons), "journal", r);
		r = audit_syslog_send(e, event);
		none &= r == -ENOENT;
		if (r == 0)
			took |= AUDIT_DEST_SYSLOG;
		else
			why(reasons, sizeof(reasons), "syslog", r);
	}
	r = audit_kernel_send(e, event);
	none &= r == -ENOENT;
	if (r == 0)
		took |= AUDIT_DEST_KERNEL;
	else
		why(reasons, sizeof(reasons), "audit", r);
	if (!took && reterr_why && whylen)
		(void)snprintf(reterr_why, whylen, "%s", reasons);
	if (ret_none_runs)
		*ret_none_runs = none && !took;
	return took;
}
