// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * audit-cli.c - hijack's own record of each entry (hijack(1), AUDIT).
 * The records are made in src/audit/; this file decides when they are
 * written and tells the user, in one line each, what went wrong with
 * them (the one other place of the CLI that prints).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "audit-cli.h"
#include "macro.h"
#include "sessions-cli.h"

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

	*au = (struct cli_audit){ .policy = AUDIT_POLICY_DEFAULT,
				  .session_dirfd = -EBADF };
	(void)audit_policy_load(HIJACK_POLICY_FILE, &au->policy, warn_line, NULL);
	au->on = au->policy.audit;
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

/* An entry that cannot be recorded as the policy or --record asks: 125. */
static _Noreturn void refuse_unrecorded(struct cli_audit *au, const char *why)
{
	char error[AUDIT_TEXT_MAX];

	fprintf(stderr, "hijack: record: %s\n", why);
	(void)snprintf(error, sizeof(error), "recording: %s", why);
	audit_entry_finish(&au->entry, EXIT_HIJACK_FAILED, error);
	if (au->on)
		(void)audit_write(&au->entry, AUDIT_FAILED, NULL, 0, NULL);
	exit(EXIT_HIJACK_FAILED);
}

/*
 * The recording, made by hijack outside the container: nothing the
 * container controls names the directory or the file.  Decided on what
 * the engine reported (engine and name), not on what the caller typed,
 * so that an id or an id prefix does not slip past "record = web*".  An
 * entry by --pid names no container: it is engine "pid" with no name,
 * which only "pid:*" (or "always") records; hijack(1) says so.
 */
static void start_recording(struct cli_audit *au, const struct cli_args *a,
			    const struct hijack_plan *plan,
			    const struct hijack_container *ct)
{
	struct audit_entry *e = &au->entry;
	struct recording_info info = {
		.dir = au->policy.record_dir,
		.session = e->session,
		.target = e->target,
		.width = 80,
		.height = 24,
		.timestamp = e->start_usec / 1000000,
		.input = au->policy.record_input,
		.relayed = hijack_plan_pty_fds(plan) != 0,
	};
	char why[512] = "", term[64];
	struct winsize ws;
	int dirfd, fd, r;

	if (a->copy || !(a->record || audit_policy_records(&au->policy,
							   ct ? ct->engine : "pid",
							   ct ? ct->name : "")))
		return;
	for (fd = 0; fd <= 2; fd++)
		if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col) {
			info.width = ws.ws_col;
			info.height = ws.ws_row;
			break;
		}
	(void)audit_escape(getenv("TERM") ? getenv("TERM") : "", false, term,
			   sizeof(term));
	info.term = term;
	dirfd = recording_dir_check(au->policy.record_dir, why, sizeof(why));
	if (dirfd < 0)
		refuse_unrecorded(au, why);
	r = recording_open(&au->rec, dirfd, &info, why, sizeof(why));
	(void)close(dirfd);
	if (r < 0)
		refuse_unrecorded(au, why);
	(void)audit_escape(recording_path(au->rec), false, e->recording,
			   sizeof(e->recording));
	au->tap = (struct hijack_relay_tap){
		.struct_size = sizeof(au->tap),
		.fn = recording_tap,
		.userdata = au->rec,
	};
	/* Never silent: --record asked for what cannot be had. */
	if (!info.relayed && a->record)
		fprintf(stderr, "hijack: warning: record: no terminal is relayed (--no-pty, or none of fds 0-2 is a terminal): %s says so and records nothing else\n",
			e->recording);
}

const struct hijack_relay_tap *cli_audit_tap(const struct cli_audit *au)
{
	return au->rec ? &au->tap : NULL;
}

/* What ends hijack by default and is held while the start record goes. */
static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/*
 * A signal that came while the start record was sent (which may take a
 * second when a destination is stuck) ends the entry before the command
 * started, recorded, as it would have killed hijack without a word.
 * Only signals the caller did not block (@held): a blocked one waits.
 */
static void end_if_signalled(struct cli_audit *au, const sigset_t *held,
			     const sigset_t *old)
{
	const struct timespec now = { 0 };
	struct hijack_diag d = { .step = HIJACK_STEP_WAIT, .err = EINTR };
	int sig = sigtimedwait(held, NULL, &now);

	if (sig <= 0) {
		(void)sigprocmask(SIG_SETMASK, old, NULL);
		return;
	}
	(void)snprintf(d.detail, sizeof(d.detail),
		       "%s before the command started", strsignal(sig));
	fprintf(stderr, "hijack: %s\n", d.detail);
	cli_audit_end(au, 128 + sig, &d);
	exit(128 + sig);
}

/* The start record; refused or warned of, as the policy says. */
static void start_record(struct cli_audit *au)
{
	struct audit_entry *e = &au->entry;
	char why[256] = "";
	bool none_runs;

	if (audit_write(e, AUDIT_START, why, sizeof(why), &none_runs)) {
		au->started = true;
		return;
	}
	if (au->policy.fail_closed) {
		fprintf(stderr, "hijack: audit: no destination took the start record (%s), and %s says on-audit-failure = refuse\n",
			why, HIJACK_POLICY_FILE);
		cli_session_end(au);
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

void cli_audit_start(struct cli_audit *au, const struct cli_args *a,
		     const struct hijack_plan *plan,
		     const struct hijack_target *t,
		     const struct hijack_container *ct)
{
	struct audit_entry *e = &au->entry;
	sigset_t held, old;
	size_t i;

	start_recording(au, a, plan, ct);
	/* The records and the live session's file say the same. */
	audit_entry_set_plan(e, plan, hijack_target_pidfd(t));
	if (ct)
		audit_entry_set_container(e, ct);
	else
		(void)snprintf(e->engine, sizeof(e->engine), "pid");
	e->mode = mode_of(a, hijack_plan_pty_fds(plan) != 0);
	/*
	 * Whatever the policy says of records: --sessions and --end-session
	 * are how an administrator sees and stops entries, not a trail.
	 */
	cli_session_begin(au);
	if (!au->on)
		return;
	(void)sigemptyset(&held);
	(void)sigprocmask(SIG_SETMASK, NULL, &old);
	for (i = 0; i < ARRAY_SIZE(held_signals); i++)
		if (!sigismember(&old, held_signals[i]))
			(void)sigaddset(&held, held_signals[i]);
	(void)sigprocmask(SIG_BLOCK, &held, NULL);
	start_record(au);
	end_if_signalled(au, &held, &old);
}


/* The recording's end, into the end record; said on stderr when early. */
static void end_recording(struct cli_audit *au)
{
	struct audit_entry *e = &au->entry;
	struct recording_result res;

	if (!au->rec)
		return;
	(void)recording_close(au->rec, &res);
	au->rec = NULL;
	if (res.err)
		(void)snprintf(e->recording_end, sizeof(e->recording_end),
			       "%s: %s", recording_end_name(res.end),
			       strerror(res.err));
	else
		(void)snprintf(e->recording_end, sizeof(e->recording_end), "%s",
			       recording_end_name(res.end));
	e->recording_dropped = res.dropped;
	e->recording_marker_missing = res.end != RECORDING_END_COMPLETE &&
				      !res.marker_written;
	if (res.end != RECORDING_END_COMPLETE &&
	    res.end != RECORDING_END_NO_TERMINAL)
		fprintf(stderr, "hijack: warning: record: the recording ended early (%s): %llu bytes of the session not recorded\n",
			e->recording_end, res.dropped);
}

void cli_audit_end(struct cli_audit *au, int exit_status,
		   const struct hijack_diag *d)
{
	char error[AUDIT_TEXT_MAX] = "";

	/* First: a listing must not show as running what has ended. */
	cli_session_end(au);
	end_recording(au);
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
