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

/* What the destinations tried so far did with a record. */
struct outcome {
	unsigned int took;	/* AUDIT_DEST_* that took it */
	bool none;		/* none of them runs */
	char reasons[256];	/* why each that runs did not take it */
};

/* Note what one destination did (@r from its send); return @r. */
static int note(int r, unsigned int dest, const char *name, struct outcome *o)
{
	size_t n = strlen(o->reasons);

	o->none &= r == -ENOENT;
	if (r == 0)
		o->took |= dest;
	else if (n < sizeof(o->reasons))
		(void)snprintf(o->reasons + n, sizeof(o->reasons) - n,
			       "%s%s: %s", n ? "; " : "", name,
			       r == -ENOENT ? "not running" : strerror(-r));
	return r;
}

unsigned int audit_write(const struct audit_entry *e, enum audit_event event,
			 char *reterr_why, size_t whylen, bool *ret_none_runs)
{
	struct outcome o = { .none = true };

	if (note(audit_journal_send(e, event), AUDIT_DEST_JOURNAL, "journal",
		 &o) != 0)
		(void)note(audit_syslog_send(e, event), AUDIT_DEST_SYSLOG,
			   "syslog", &o);
	(void)note(audit_kernel_send(e, event), AUDIT_DEST_KERNEL, "audit", &o);
	if (!o.took && reterr_why && whylen)
		(void)snprintf(reterr_why, whylen, "%s", o.reasons);
	if (ret_none_runs)
		*ret_none_runs = o.none && !o.took;
	return o.took;
}
