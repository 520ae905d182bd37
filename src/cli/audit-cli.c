// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * audit-cli.c - hijack's own record of each entry (hijack(1), AUDIT).
 * The records are made in src/audit/; this file decides when they are
 * written and tells the user, in one line each, what went wrong with
 * them (the one other place of the CLI that prints).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit-cli.h"

#define EXIT_HIJACK_FAILED 125

static void warn_line(void *userdata, const char *msg)
{
	(void)userdata;
	/* The policy code escaped what it quotes from the file. */
	fprintf(stderr, "hijack: warning: %s\n", msg);
}

static enum audit_mode mode_of(const struct cli_args *a, bool pty)
{
	if (a->copy)
		return a->file.op == HIJACK_FILE_READ ? AUDIT_MODE_READ_FILE :
							AUDIT_MODE_WRITE_FILE;
	if (a->tools)
		return AUDIT_MODE_TOOLS;
	return pty ? AUDIT_MODE_PTY : AUDIT_MODE_COMMAND;
}

void cli_audit_begin(struct cli_audit *au, const struct cli_args *a)
{
	struct audit_entry *e = &au->entry;
	char target[32];

	*au = (struct cli_audit){ .policy = AUDIT_POLICY_DEFAULT };
	(void)audit_policy_load(HIJACK_POLICY_FILE, &au->policy, warn_line, NULL);
	if (au->policy.recording)
		fprintf(stderr, "hijack: warning: %s: recording = on is not yet supported: nothing is recorded beyond the start and end records\n",
			HIJACK_POLICY_FILE);
	au->on = au->policy.audit;
	if (au->on)
		audit_journal_prepare();
	if (audit_entry_init(e) < 0) {
		/* No session id (no getrandom()): nothing can be recorded. */
		fprintf(stderr, "hijack: audit: cannot make a session id: %s\n",
			strerror(errno));
		exit(EXIT_HIJACK_FAILED);
	}
	if (a->target) {
		(void)audit_escape(a->target, false, e->target, sizeof(e->target));
	} else {
		(void)snprintf(target, sizeof(target), "pid:%d", (int)a->opts.pid);
		(void)snprintf(e->target, sizeof(e->target), "%s", target);
	}
	e->mode = mode_of(a, false);
	if (a->copy)
		(void)audit_escape(a->file.path, false, e->path, sizeof(e->path));
	else
		audit_entry_set_argv(e, a->argv);
	audit_entry_set_setenv(e, a->opts.setenv);
	if (a->reason)
		(void)audit_escape(a->reason, true, e->reason, sizeof(e->reason));

	if (au->policy.require_reason && !a->reason) {
		fprintf(stderr, "hijack: audit: %s requires a --reason for every entry\n",
			HIJACK_POLICY_FILE);
		/* The refusal is recorded too: someone tried. */
		audit_entry_finish(e, EXIT_HIJACK_FAILED,
				   "refused: no --reason, which the policy requires");
		if (au->on)
			(void)audit_write(e, AUDIT_FAILED, NULL, 0, NULL);
		exit(EXIT_HIJACK_FAILED);
	}
}

void cli_audit_start(struct cli_audit *au, const struct cli_args *a,
		     const struct hijack_plan *plan,
		     const struct hijack_target *t,
		     const struct hijack_container *ct)
{
	struct audit_entry *e = &au->entry;
	char why[256] = "";
	bool none_runs;

	if (!au->on)
		return;
	audit_entry_set_plan(e, plan, hijack_target_pidfd(t));
	if (ct)
		audit_entry_set_container(e, ct);
	else
		(void)snprintf(e->engine, sizeof(e->engine), "pid");
	e->mode = mode_of(a, plan->pty_fds != 0);
	if (audit_write(e, AUDIT_START, why, sizeof(why), &none_runs)) {
		au->started = true;
		return;
	}
	if (au->policy.fail_closed) {
		fprintf(stderr, "hijack: audit: no destination took the start record (%s), and %s says on-audit-failure = refuse\n",
			why, HIJACK_POLICY_FILE);
		exit(EXIT_HIJACK_FAILED);
	}
	/*
	 * A machine that runs no journal, no syslog daemon and no audit
	 * daemon keeps no logs at all: saying so on every entry would only
	 * bury the command's own messages.  A destination that runs and
	 * failed (a timeout, a refusal) is worth the warning.
	 */
	if (!none_runs)
		fprintf(stderr, "hijack: warning: audit: no destination took the start record (%s)\n",
			why);
	/* The end record would not fare better. */
	au->on = false;
}

void cli_audit_end(struct cli_audit *au, int exit_status,
		   const struct hijack_diag *d)
{
	char error[AUDIT_TEXT_MAX] = "";

	if (!au->on)
		return;
	if (d)
		(void)snprintf(error, sizeof(error), "%s: %s: %s",
			       hijack_step_name(d->step), d->detail,
			       strerror(d->err));
	audit_entry_finish(&au->entry, exit_status, error);
	(void)audit_write(&au->entry, au->started ? AUDIT_END : AUDIT_FAILED,
			  NULL, 0, NULL);
}
