/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audit-cli.h - the records of one entry as the command writes them: the
 * policy read, a start record before the command runs, an end record
 * after, a "failed" record for an entry that never started
 * (hijack(1), AUDIT).
 */
#ifndef HIJACK_CLI_AUDIT_H
#define HIJACK_CLI_AUDIT_H

#include <stdbool.h>

#include "audit.h"
#include "options.h"

struct cli_audit {
	struct audit_policy policy;
	struct audit_entry entry;
	bool on;		/* records are written */
	bool started;		/* the start record was written */
	struct recording *rec;	/* the session's recording, or NULL */
	struct hijack_relay_tap tap;	/* feeds @rec */
	/* The entry's file under HIJACK_SESSIONS_DIR (sessions-cli.c). */
	bool session_listed;
	int session_dirfd;
};

/*
 * Read the policy (warning on stderr about a file it ignores) and note
 * what @a asks for.  Exits 125, after a "failed" record, when the policy
 * wants a --reason that @a lacks.
 */
void cli_audit_begin(struct cli_audit *au, const struct cli_args *a);

/*
 * The plan is made: start the session's recording when --record or the
 * policy asks for one (exits 125, after a "failed" record, when it cannot
 * be made), write the live session's file (hijack --sessions), then the
 * start record.  With on-audit-failure = refuse and no destination taking
 * it, exits 125; otherwise a warning.
 */
void cli_audit_start(struct cli_audit *au, const struct cli_args *a,
		     const struct hijack_plan *plan,
		     const struct hijack_target *t,
		     const struct hijack_container *ct);

/* What the relay shows the recording; NULL when nothing is recorded. */
const struct hijack_relay_tap *cli_audit_tap(const struct cli_audit *au);

/*
 * The entry is over with @exit_status (as hijack exits); @d, if not NULL,
 * says why it failed.  Removes the live session's file, then writes the
 * end record (saying so when hijack --end-session ended it), or the
 * "failed" record when no start record was written.
 */
void cli_audit_end(struct cli_audit *au, int exit_status,
		   const struct hijack_diag *d);

#endif
