/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sessions-cli.h - live sessions as the command has them (hijack(1),
 * AUDIT, "Live sessions"): each entry's file while it runs, hijack
 * --sessions, hijack --end-session.
 */
#ifndef HIJACK_CLI_SESSIONS_H
#define HIJACK_CLI_SESSIONS_H

#include "audit-cli.h"
#include "options.h"

/*
 * Write the entry's session file, when hijack runs as root in the
 * initial user namespace; say in the entry's session_file why not
 * otherwise (a warning on stderr when the directory is refused).
 */
void cli_session_begin(struct cli_audit *au);

/*
 * Read back --end-session's marker into the end record's fields, and
 * remove the file.  Does nothing when there is none.
 */
void cli_session_end(struct cli_audit *au);

/* hijack --sessions [--json] [--prune]: the exit status. */
int cli_sessions(const struct cli_args *a);

/* hijack --end-session ID: the exit status. */
int cli_end_session(const struct cli_args *a);

#endif
