// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sessions-cli.c - live sessions (hijack(1), AUDIT, "Live sessions"):
 * the file each entry keeps while it runs, hijack --sessions, which lists
 * them, and hijack --end-session, which ends one.  The files are made and
 * checked in src/audit/session.c; this file decides who writes them, and
 * says in one line each what went wrong.
 *
 * Only root in the initial user namespace writes, lists or ends: the
 * directory is root's alone, so that no file in it can have been planted
 * by anyone else; an unprivileged entry has no file (its records say
 * session_file=none:unprivileged), as a file it could write is one that
 * root's --sessions could not believe.
 *
 * --end-session, in order:
 *
 *   find the file, read it, check its hijack is alive: a pidfd first,
 *     then /proc/PID (start time, executable), then the pidfd still alive
 *   write the marker (who ends it) into the file, while it is there
 *   SIGHUP through the pidfd: hijack hands it to the command, which
 *     ends; hijack reads the marker, removes the file, writes its end
 *     record (ended_by=end-session) and exits
 *   after --grace seconds, if hijack still runs: SIGKILL to its children
 *     (the command), checked through pidfds too; hijack then ends as
 *     above, with the command's 137
 *   3 s later, if hijack still runs (stopped, or stuck): SIGKILL to it,
 *     and its file removed here, as nobody else will
 *   the end-session record, with the outcome
 *
 * No pid is ever signalled by number: a pid reused by another process
 * between the check and the signal cannot be hit.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "macro.h"
#include "scols.h"
#include "sessions-cli.h"

#define EXIT_NO_SESSION 1
#define EXIT_HIJACK_FAILED 125
/* How long hijack has to finish after its command was killed. */
#define AFTER_COMMAND_KILL_MS 3000
/* How long a SIGKILLed hijack has to be gone. */
#define AFTER_KILL_MS 2000
/* The most children of a hijack killed: its command and its intermediate. */
#define CHILDREN_MAX 16
/* Warnings of one listing, then one line for the rest. */
#define WARNINGS_MAX 16

/*
 * Root in the initial user namespace: uid 0 that maps to uid 0 of the
 * whole range.  A root of a user namespace is not: the directory is not
 * its to write or read.
 */
static bool privileged(void)
{
	unsigned long inner, outer, count;
	char line[128];
	FILE *f;
	int n;

	if (geteuid() != 0)
		return false;
	f = fopen("/proc/self/uid_map", "re");
	if (!f)
		return false;
	n = fgets(line, sizeof(line), f) ? sscanf(line, "%lu %lu %lu", &inner,
						  &outer, &count) :
					   0;
	/* A second line means a map of pieces: not the initial one. */
	if (n == 3 && fgets(line, sizeof(line), f))
		n = 0;
	(void)fclose(f);
	return n == 3 && inner == 0 && outer == 0 && count == 4294967295UL;
}

/* A message for the terminal: its parts may be a file's name or text. */
static void say(const char *prefix, const char *msg)
{
	char esc[2048];

	(void)audit_escape_display(msg, esc, sizeof(esc));
	fprintf(stderr, "hijack: %s%s\n", prefix, esc);
}

/* ---------------------------------------------------- an entry's own file */

void cli_session_begin(struct cli_audit *au)
{
	struct audit_entry *e = &au->entry;
	struct live_session *s;
	char why[512];
	int dirfd, r;

	if (!privileged()) {
		(void)snprintf(e->session_file, sizeof(e->session_file),
			       "none:unprivileged");
		return;
	}
	dirfd = session_dir_open(HIJACK_SESSIONS_DIR, true, 0, why, sizeof(why));
	if (dirfd < 0) {
		/* One line: the entry goes on, and its own output follows. */
		(void)snprintf(why + strlen(why), sizeof(why) - strlen(why),
			       ": this entry is not listed by hijack --sessions");
		say("warning: sessions: ", why);
		(void)snprintf(e->session_file, sizeof(e->session_file),
			       "none:refused");
		return;
	}
	s = malloc(sizeof(*s));
	r = s ? session_from_entry(s, e) : -ENOMEM;
	if (r == 0)
		r = session_publish(dirfd, s);
	free(s);
	if (r < 0) {
		fprintf(stderr, "hijack: warning: sessions: %s: cannot write this entry's file (%s): it is not listed by hijack --sessions\n",
			HIJACK_SESSIONS_DIR, strerror(-r));
		(void)snprintf(e->session_file, sizeof(e->session_file),
			       "none:%s", strerror(-r));
		(void)close(dirfd);
		return;
	}
	au->session_dirfd = dirfd;
	au->session_listed = true;
	(void)snprintf(e->session_file, sizeof(e->session_file), "%s/%s.json",
		       HIJACK_SESSIONS_DIR, e->session);
}

void cli_session_end(struct cli_audit *au)
{
	struct audit_entry *e = &au->entry;
	struct live_session *s;
	char name[48], why[512];

	if (!au->session_listed)
		return;
	au->session_listed = false;
	(void)snprintf(name, sizeof(name), "%s.json", e->session);
	s = malloc(sizeof(*s));
	if (s && session_read(au->session_dirfd, name, 0, s, why,
			      sizeof(why)) == 0 && s->ending.set) {
		e->ended_by_set = true;
		e->ended_by_uid = s->ending.uid;
		e->ended_by_loginuid = s->ending.loginuid;
		e->ended_by_pid = s->ending.pid;
	}
	free(s);
	(void)unlinkat(au->session_dirfd, name, 0);
	close_fdp(&au->session_dirfd);
}

/* ---------------------------------------------------------- --sessions */

struct warnings {
	size_t n;
};

static void warn_line(void *userdata, const char *msg)
{
	struct warnings *w = userdata;

	if (w->n++ < WARNINGS_MAX)
		say("warning: sessions: ", msg);
	else if (w->n == WARNINGS_MAX + 1)
		fputs("hijack: warning: sessions: more files skipped\n", stderr);
}

static void format_since(unsigned long long usec, bool utc, char *buf,
			 size_t len)
{
	time_t t = (time_t)(usec / 1000000);
	struct tm tm;

	if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) ||
	    !strftime(buf, len, utc ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d %H:%M:%S",
		      &tm))
		(void)snprintf(buf, len, "%llu", usec / 1000000);
}

/* ENGINE:NAME, or the target as given (pid:PID). */
static void target_of(const struct live_session *s, char *buf, size_t len)
{
	if (s->name[0] && s->engine[0])
		(void)snprintf(buf, len, "%s:%s", s->engine, s->name);
	else
		(void)snprintf(buf, len, "%s", s->target);
}

static const char *command_of(const struct live_session *s)
{
	return s->mode == AUDIT_MODE_READ_FILE || s->mode == AUDIT_MODE_WRITE_FILE ?
		       s->path :
		       s->argv;
}

static int print_table(const struct live_session *v, const int *state,
		       size_t n)
{
	static const char *const cols[] = {
		"SESSION", "STATE", "PID", "UID", "LOGINUID", "TTY",
		"TARGET", "MODE", "COMMAND", "SINCE",
	};
	struct libscols_table *tb;
	struct scols_api sc;
	size_t i, c;
	int r;

	scols_open(&sc, "sessions");
	tb = sc.scols_new_table();
	if (!tb)
		return -ENOMEM;
	/*
	 * Every cell is escaped here, to printable ASCII: libsmartcols's
	 * own encoding would escape the backslashes of that escaping again
	 * ("\x0a" shown as "\x5cx0a"), and the table would no longer read
	 * like the records.
	 */
	if (sc.scols_table_enable_noencoding)
		sc.scols_table_enable_noencoding(tb, 1);
	for (c = 0; c < ARRAY_SIZE(cols); c++)
		if (!sc.scols_table_new_column(tb, cols[c], 0,
					       c == 8 ? SCOLS_FL_TRUNC : 0))
			goto oom;
	for (i = 0; i < n; i++) {
		char pid[16], uid[16], luid[16], target[AUDIT_TEXT_MAX * 2],
			since[64], cell[AUDIT_ARGV_MAX + 64];
		const char *data[ARRAY_SIZE(cols)];
		struct libscols_line *ln;

		if (state[i] < 0)
			continue;
		(void)snprintf(pid, sizeof(pid), "%d", (int)v[i].hijack.pid);
		(void)snprintf(uid, sizeof(uid), "%u", (unsigned int)v[i].uid);
		if (v[i].loginuid == (uid_t)-1)
			(void)snprintf(luid, sizeof(luid), "-");
		else
			(void)snprintf(luid, sizeof(luid), "%u",
				       (unsigned int)v[i].loginuid);
		target_of(&v[i], target, sizeof(target));
		format_since(v[i].since_usec, false, since, sizeof(since));
		data[0] = v[i].id;
		data[1] = session_state_name((enum session_state)state[i], false);
		data[2] = pid;
		data[3] = uid;
		data[4] = luid;
		data[5] = v[i].tty;
		data[6] = target;
		data[7] = audit_mode_name(v[i].mode);
		data[8] = command_of(&v[i]);
		data[9] = since;
		ln = sc.scols_table_new_line(tb, NULL);
		if (!ln)
			goto oom;
		for (c = 0; c < ARRAY_SIZE(cols); c++) {
			/*
			 * The file was checked to hold printable ASCII only;
			 * escaped again all the same, for the terminal.
			 */
			(void)audit_escape_display(data[c], cell, sizeof(cell));
			if (sc.scols_line_set_data(ln, c, cell))
				goto oom;
		}
	}
	r = sc.scols_print_table(tb);
	sc.scols_unref_table(tb);
	return r < 0 ? -EIO : 0;
oom:
	sc.scols_unref_table(tb);
	return -ENOMEM;
}

/* A uid that may be unset ((uid_t)-1): null then. */
static json_t *uid_or_null(uid_t uid)
{
	return uid == (uid_t)-1 ? json_null() : json_integer(uid);
}

static json_t *session_json(const struct live_session *s, int state)
{
	bool copy = s->mode == AUDIT_MODE_READ_FILE ||
		    s->mode == AUDIT_MODE_WRITE_FILE;
	char since[64], target[AUDIT_TEXT_MAX * 2];
	json_t *j;

	format_since(s->since_usec, true, since, sizeof(since));
	target_of(s, target, sizeof(target));
	j = json_pack("{s:s, s:s, s:I, s:I, s:I, s:o, s:o, s:I, s:s,"
		      " s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:o, s:o, s:s, s:I}",
		      "session", s->id,
		      "state", session_state_name((enum session_state)state, true),
		      "pid", (json_int_t)s->hijack.pid,
		      "pid_start_time", (json_int_t)s->hijack.start_time,
		      "uid", (json_int_t)s->uid,
		      "loginuid", uid_or_null(s->loginuid),
		      "audit_session", s->sessionid == (uint32_t)-1 ?
					       json_null() :
					       json_integer(s->sessionid),
		      "caller_pid", (json_int_t)s->caller_pid,
		      "tty", s->tty,
		      "target", target, "target_as_given", s->target,
		      "engine", s->engine, "name", s->name, "id", s->ct_id,
		      "target_pid", (json_int_t)s->target_pid,
		      "mode", audit_mode_name(s->mode),
		      "command", copy ? json_null() : json_string(s->argv),
		      "path", copy ? json_string(s->path) : json_null(),
		      "since", since, "since_usec", (json_int_t)s->since_usec);
	if (j && s->ending.set)
		(void)json_object_set_new(
			j, "ending",
			json_pack("{s:I, s:o, s:I, s:I}", "uid",
				  (json_int_t)s->ending.uid, "loginuid",
				  uid_or_null(s->ending.loginuid), "pid",
				  (json_int_t)s->ending.pid, "usec",
				  (json_int_t)s->ending.usec));
	return j;
}

static int print_json(const struct live_session *v, const int *state, size_t n)
{
	json_t *root, *arr = json_array();
	size_t i;
	int r;

	if (!arr)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (state[i] >= 0 &&
		    json_array_append_new(arr, session_json(&v[i], state[i])) < 0) {
			json_decref(arr);
			return -ENOMEM;
		}
	root = json_pack("{s:o}", "sessions", arr);
	if (!root)
		return -ENOMEM;
	/* ASCII: the text is, and stays so whatever a later version adds. */
	r = json_dumpf(root, stdout,
		       JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(root);
	if (r < 0)
		return -EIO;
	fputc('\n', stdout);
	return 0;
}

int cli_sessions(const struct cli_args *a)
{
	_cleanup_close_ int dirfd = -EBADF;
	_cleanup_free_ struct live_session *v = NULL;
	_cleanup_free_ int *state = NULL;
	struct warnings w = { 0 };
	char why[512], name[48];
	size_t n = 0, i, pruned = 0;
	int r;

	if (!privileged()) {
		fputs("hijack: sessions: only root may list sessions (their files are root's alone; see hijack(1), AUDIT)\n",
		      stderr);
		return EXIT_HIJACK_FAILED;
	}
	dirfd = session_dir_open(HIJACK_SESSIONS_DIR, false, 0, why, sizeof(why));
	if (dirfd < 0 && dirfd != -ENOENT) {
		say("sessions: ", why);
		return EXIT_HIJACK_FAILED;
	}
	if (dirfd >= 0) {
		r = session_list(dirfd, 0, &v, &n, warn_line, &w);
		if (r < 0) {
			fprintf(stderr, "hijack: sessions: %s: %s\n",
				HIJACK_SESSIONS_DIR, strerror(-r));
			return EXIT_HIJACK_FAILED;
		}
	}
	state = calloc(n ? n : 1, sizeof(*state));
	if (!state) {
		fprintf(stderr, "hijack: sessions: %s\n", strerror(ENOMEM));
		return EXIT_HIJACK_FAILED;
	}
	for (i = 0; i < n; i++) {
		r = session_proc_check(&v[i].hijack, NULL);
		if (r == SESSION_RUNNING && v[i].ending.set)
			r = SESSION_ENDING;
		state[i] = r;
		(void)snprintf(name, sizeof(name), "%s.json", v[i].id);
		if (r < 0) {
			(void)snprintf(why, sizeof(why), "%s: %s, skipped", name,
				       r == -EXDEV ? "written in another pid namespace, whose pids cannot be checked here" :
						     strerror(-r));
			warn_line(&w, why);
		} else if (r == SESSION_ENDED && a->prune &&
			   unlinkat(dirfd, name, 0) == 0) {
			/* Its hijack is gone for good: nothing can revive it. */
			state[i] = -ENOENT;
			pruned++;
		}
	}
	if (a->prune && dirfd >= 0)
		(void)session_prune_temporaries(dirfd);
	if (pruned)
		fprintf(stderr, "hijack: sessions: removed the files of %zu session%s that ended without an end record\n",
			pruned, pruned == 1 ? "" : "s");
	r = a->json ? print_json(v, state, n) : print_table(v, state, n);
	if (r < 0) {
		fprintf(stderr, "hijack: sessions: %s\n", strerror(-r));
		return EXIT_HIJACK_FAILED;
	}
	return EXIT_SUCCESS;
}

/* ------------------------------------------------------- --end-session */

/* Has the process of @pidfd ended within @ms? */
static bool ended_within(int pidfd, unsigned int ms)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	unsigned long long deadline = audit_now_mono() + ms * 1000ULL, now;
	int r;

	for (;;) {
		now = audit_now_mono();
		r = poll(&p, 1, now >= deadline ? 0 : (int)((deadline - now + 999) / 1000));
		if (r > 0)
			return true;
		if (r == 0 || errno != EINTR)
			return false;
	}
}

/*
 * SIGKILL to the children of hijack (@pid, @pidfd): the command, which
 * ignored SIGHUP.  The children are found by @pid's number; hijack still
 * there after they were (@pidfd, which a reused number cannot fool) shows
 * that the number was still its own when their parent was read.
 */
static size_t kill_children(pid_t pid, int pidfd)
{
	int fds[CHILDREN_MAX];
	int n = session_children(pid, fds, CHILDREN_MAX), i;
	bool ours = pidfd_send_signal(pidfd, 0, NULL, 0) == 0;
	size_t killed = 0;

	for (i = 0; i < n; i++) {
		if (ours && pidfd_send_signal(fds[i], SIGKILL, NULL, 0) == 0)
			killed++;
		(void)close(fds[i]);
	}
	return killed;
}

struct ender {
	const struct cli_args *a;
	struct audit_entry *e;	/* the end-session record */
	struct live_session *s;
	char name[48];
	int dirfd;
	int pidfd;
};

/* The end-session record, through the same destinations as an entry's. */
static void record(struct ender *x, const char *outcome)
{
	struct audit_policy policy = AUDIT_POLICY_DEFAULT;
	struct audit_entry *e = x->e;
	const struct live_session *s = x->s;
	char why[256] = "";
	bool none_runs;

	(void)audit_policy_load(HIJACK_POLICY_FILE, &policy, NULL, NULL);
	if (!policy.audit)
		return;
	/* The ended entry's session and target; the caller is the ender. */
	(void)snprintf(e->session, sizeof(e->session), "%s", s->id);
	(void)snprintf(e->target, sizeof(e->target), "%s", s->target);
	(void)snprintf(e->engine, sizeof(e->engine), "%s", s->engine);
	(void)snprintf(e->name, sizeof(e->name), "%s", s->name);
	(void)snprintf(e->id, sizeof(e->id), "%s", s->ct_id);
	e->target_pid = s->target_pid;
	e->mode = s->mode;
	(void)snprintf(e->argv, sizeof(e->argv), "%s", s->argv);
	(void)snprintf(e->path, sizeof(e->path), "%s", s->path);
	if (x->a->reason)
		(void)audit_escape(x->a->reason, true, e->reason,
				   sizeof(e->reason));
	e->ended_uid = s->uid;
	e->ended_loginuid = s->loginuid;
	e->ended_pid = s->hijack.pid;
	(void)snprintf(e->outcome, sizeof(e->outcome), "%s", outcome);
	e->grace_sec = x->a->grace;
	audit_entry_finish(e, 0, NULL);
	/*
	 * Never refused for want of a record, whatever on-audit-failure
	 * says: stopping an entry is what an administrator may need most
	 * when the logs are down.
	 */
	if (!audit_write(e, AUDIT_END_SESSION, why, sizeof(why), &none_runs) &&
	    !none_runs)
		fprintf(stderr, "hijack: warning: audit: no destination took the end-session record (%s)\n",
			why);
}

/* Find, read and check the session; EXIT_SUCCESS when it runs. */
static int find_session(struct ender *x)
{
	const char *id = x->a->end_session;
	char why[512], esc[128];
	size_t count = 0;
	int r;

	(void)audit_escape_display(id, esc, sizeof(esc));
	r = session_dir_open(HIJACK_SESSIONS_DIR, false, 0, why, sizeof(why));
	if (r == -ENOENT) {
		fprintf(stderr, "hijack: end-session: no session %s\n", esc);
		return EXIT_NO_SESSION;
	}
	if (r < 0) {
		say("end-session: ", why);
		return EXIT_HIJACK_FAILED;
	}
	x->dirfd = r;
	r = session_find(x->dirfd, id, x->name, &count);
	if (r == -ENOTUNIQ) {
		fprintf(stderr, "hijack: end-session: %zu sessions begin with %s: give more of the id\n",
			count, esc);
		return EXIT_HIJACK_FAILED;
	}
	if (r < 0) {
		fprintf(stderr, "hijack: end-session: no session %s\n", esc);
		return r == -ENOENT ? EXIT_NO_SESSION : EXIT_HIJACK_FAILED;
	}
	r = session_read(x->dirfd, x->name, 0, x->s, why, sizeof(why));
	if (r == -ENOENT) {
		fprintf(stderr, "hijack: end-session: no session %s (it has just ended)\n",
			esc);
		return EXIT_NO_SESSION;
	}
	if (r < 0) {
		fprintf(stderr, "hijack: end-session: %s/%s: ",
			HIJACK_SESSIONS_DIR, x->name);
		say("", why);
		return EXIT_HIJACK_FAILED;
	}
	r = session_proc_check(&x->s->hijack, &x->pidfd);
	if (r == SESSION_ENDED) {
		fprintf(stderr, "hijack: end-session: session %s is not running: its hijack (pid %d) ended without an end record, or the pid is another process's now (hijack --sessions --prune removes the file)\n",
			x->s->id, (int)x->s->hijack.pid);
		return EXIT_NO_SESSION;
	}
	if (r < 0) {
		fprintf(stderr, "hijack: end-session: session %s: %s\n",
			x->s->id,
			r == -EXDEV ? "written in another pid namespace, whose pids cannot be checked here" :
				      strerror(-r));
		return EXIT_HIJACK_FAILED;
	}
	return EXIT_SUCCESS;
}

/* SIGHUP, then the grace, then SIGKILLs: the outcome. */
static const char *end_it(struct ender *x)
{
	struct session_ending ending = {
		.uid = x->e->uid,
		.loginuid = x->e->loginuid,
		.pid = getpid(),
		.usec = x->e->start_usec,
	};
	int r;

	r = session_mark_ending(x->dirfd, x->s, &ending);
	if (r == -ENOENT)
		return NULL;
	if (r < 0)
		fprintf(stderr, "hijack: warning: end-session: cannot mark %s/%s (%s): its end record will not say that it was ended\n",
			HIJACK_SESSIONS_DIR, x->name, strerror(-r));
	if (pidfd_send_signal(x->pidfd, SIGHUP, NULL, 0) < 0) {
		if (errno == ESRCH)
			return NULL;
		fprintf(stderr, "hijack: end-session: SIGHUP to pid %d: %s\n",
			(int)x->s->hijack.pid, strerror(errno));
		return "failed";
	}
	if (ended_within(x->pidfd, x->a->grace * 1000U))
		return "hangup";
	/* hijack itself then ends as it would: its end record says 137. */
	if (kill_children(x->s->hijack.pid, x->pidfd) &&
	    ended_within(x->pidfd, AFTER_COMMAND_KILL_MS))
		return "command-killed";
	if (pidfd_send_signal(x->pidfd, SIGKILL, NULL, 0) < 0 && errno != ESRCH) {
		fprintf(stderr, "hijack: end-session: SIGKILL to pid %d: %s\n",
			(int)x->s->hijack.pid, strerror(errno));
		return "failed";
	}
	/* The command, when there was none to kill before (stopped, racing). */
	(void)kill_children(x->s->hijack.pid, x->pidfd);
	if (!ended_within(x->pidfd, AFTER_KILL_MS)) {
		fprintf(stderr, "hijack: end-session: pid %d did not end after SIGKILL\n",
			(int)x->s->hijack.pid);
		return "failed";
	}
	/* It wrote no end record and left its file: this record is its end. */
	(void)unlinkat(x->dirfd, x->name, 0);
	return "killed";
}

int cli_end_session(const struct cli_args *a)
{
	struct ender x = { .a = a, .dirfd = -EBADF, .pidfd = -EBADF };
	const char *outcome;
	char esc[128];
	int rc;

	if (!session_id_prefix_valid(a->end_session)) {
		(void)audit_escape_display(a->end_session, esc, sizeof(esc));
		fprintf(stderr, "hijack: end-session: invalid session id '%s': 8 to 32 hex digits of one (hijack --sessions lists them)\n",
			esc);
		return EXIT_HIJACK_FAILED;
	}
	if (!privileged()) {
		fputs("hijack: end-session: only root may end a session (see hijack(1), AUDIT)\n",
		      stderr);
		return EXIT_HIJACK_FAILED;
	}
	x.e = calloc(1, sizeof(*x.e));
	x.s = calloc(1, sizeof(*x.s));
	if (!x.e || !x.s || audit_entry_init(x.e) < 0) {
		fprintf(stderr, "hijack: end-session: %s\n", strerror(ENOMEM));
		rc = EXIT_HIJACK_FAILED;
		goto out;
	}
	rc = find_session(&x);
	if (rc != EXIT_SUCCESS)
		goto out;
	outcome = end_it(&x);
	if (!outcome) {
		fprintf(stderr, "hijack: end-session: session %s ended by itself meanwhile\n",
			x.s->id);
		rc = EXIT_NO_SESSION;
		goto out;
	}
	record(&x, outcome);
	if (strcmp(outcome, "failed") == 0) {
		rc = EXIT_HIJACK_FAILED;
		goto out;
	}
	if (strcmp(outcome, "hangup") == 0)
		printf("session %s ended: its hijack (pid %d) exited on SIGHUP\n",
		       x.s->id, (int)x.s->hijack.pid);
	else if (strcmp(outcome, "command-killed") == 0)
		printf("session %s ended: its command did not end on SIGHUP within %u s and was killed (SIGKILL); its hijack (pid %d) then exited\n",
		       x.s->id, a->grace, (int)x.s->hijack.pid);
	else
		printf("session %s ended: its hijack (pid %d) did not exit and was killed (SIGKILL), leaving no end record\n",
		       x.s->id, (int)x.s->hijack.pid);
	rc = EXIT_SUCCESS;
out:
	close_fdp(&x.pidfd);
	close_fdp(&x.dirfd);
	free(x.e);
	free(x.s);
	return rc;
}
