// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record.c - what a record of an entry says, the same for every
 * destination: the caller, the target, what was done, how it ended.
 * journal.c, syslog.c and kernel.c only put these fields into their own
 * format.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libaudit.h>

#include "audit.h"

static const char *const event_names[_AUDIT_EVENT_MAX] = {
	[AUDIT_START] = "start",
	[AUDIT_END] = "end",
	[AUDIT_FAILED] = "failed",
	[AUDIT_END_SESSION] = "end-session",
};

const char *audit_event_name(enum audit_event event)
{
	return event < _AUDIT_EVENT_MAX ? event_names[event] : "unknown";
}

const char *audit_mode_name(enum audit_mode mode)
{
	switch (mode) {
	case AUDIT_MODE_COMMAND:
		return "command";
	case AUDIT_MODE_PTY:
		return "pty";
	case AUDIT_MODE_TOOLS:
		return "tools";
	case AUDIT_MODE_READ_FILE:
		return "read-file";
	case AUDIT_MODE_WRITE_FILE:
		return "write-file";
	}
	return "unknown";
}

static unsigned long long clock_usec(clockid_t id)
{
	struct timespec ts;

	(void)clock_gettime(id, &ts);
	return (unsigned long long)ts.tv_sec * 1000000ULL +
	       (unsigned long long)ts.tv_nsec / 1000;
}

unsigned long long audit_now_mono(void)
{
	return clock_usec(CLOCK_MONOTONIC);
}

/* The first of fds 0-2 that is a terminal: where the caller sits. */
static void caller_tty(char *buf, size_t len)
{
	char name[64];
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if (ttyname_r(fd, name, sizeof(name)) == 0) {
			(void)audit_escape(name, false, buf, len);
			return;
		}
	}
	(void)snprintf(buf, len, "none");
}

int audit_entry_init(struct audit_entry *e)
{
	unsigned char rnd[16];
	size_t i;

	memset(e, 0, sizeof(*e));
	/*
	 * The session id ties the start record to the end record.  Random,
	 * not a counter: nobody can predict it to pose as another's session.
	 */
	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		return -errno;
	for (i = 0; i < sizeof(rnd); i++)
		(void)snprintf(e->session + 2 * i, 3, "%02x", rnd[i]);
	e->uid = getuid();
	/* libaudit reads /proc/self/loginuid and /proc/self/sessionid. */
	e->loginuid = audit_getloginuid();
	e->sessionid = audit_get_session();
	e->pid = getpid();
	e->ppid = getppid();
	caller_tty(e->tty, sizeof(e->tty));
	e->file_bytes = -1;
	e->run_uid = (uid_t)-1;
	e->start_usec = clock_usec(CLOCK_REALTIME);
	e->start_mono = clock_usec(CLOCK_MONOTONIC);
	return 0;
}

void audit_entry_set_argv(struct audit_entry *e, char *const argv[])
{
	size_t n = 0, i;

	e->argc = 0;
	e->argv_bytes = 0;
	e->argv_truncated = false;
	e->argv[0] = '\0';
	for (i = 0; argv && argv[i]; i++) {
		size_t len = strlen(argv[i]);

		e->argc++;
		e->argv_bytes += len + (i > 0);
		if (e->argv_truncated)
			continue;
		/* A space between words: inside a word it is \x20. */
		if (i > 0) {
			if (n + 2 > sizeof(e->argv)) {
				e->argv_truncated = true;
				continue;
			}
			e->argv[n++] = ' ';
			e->argv[n] = '\0';
		}
		if (!audit_escape(argv[i], false, e->argv + n, sizeof(e->argv) - n))
			e->argv_truncated = true;
		n += strlen(e->argv + n);
	}
}

void audit_entry_set_container(struct audit_entry *e,
			       const struct hijack_container *c)
{
	(void)audit_escape(c->engine, false, e->engine, sizeof(e->engine));
	(void)audit_escape(c->name, false, e->name, sizeof(e->name));
	(void)audit_escape(c->id, false, e->id, sizeof(e->id));
}

/* Append ",word" (or "word" first) to @buf, bounded. */
static void add_word(char *buf, size_t len, const char *word)
{
	size_t n = strlen(buf);

	(void)snprintf(buf + n, len - n, "%s%s", n ? "," : "", word);
}

void audit_entry_set_plan(struct audit_entry *e, const struct hijack_plan *p,
			  int pidfd)
{
	struct stat st;
	ino_t ino;
	int i;

	e->have_plan = true;
	e->target_pid = hijack_plan_pid(p);
	if (pidfd >= 0 && fstat(pidfd, &st) == 0)
		e->pidfd_ino = (unsigned long long)st.st_ino;
	/* 0 for a type the kernel lacks: audit_fields() leaves it out. */
	for (i = 0; i < _HIJACK_NS_MAX; i++)
		e->ns_ino[i] = hijack_plan_ns_inode(p, i, NULL, &ino) == 0 ?
			       (unsigned long long)ino : 0;
	e->ns_entered = hijack_plan_ns_mask(p);
	e->run_uid = hijack_plan_uid(p);
	/*
	 * What the command keeps of the caller rather than takes from the
	 * target: each is a way out of the container's confinement, and so
	 * what a reader of the records asks about first.
	 */
	static const struct {
		enum hijack_part part;
		int mode;	/* the plan's mode that records it */
		const char *word;
	} parts[] = {
		{ HIJACK_PART_CREDS, HIJACK_KEEP, "creds" },
		{ HIJACK_PART_CAPS, HIJACK_KEEP, "caps" },
		{ HIJACK_PART_CGROUP, HIJACK_KEEP, "cgroups" },
		{ HIJACK_PART_SECCOMP, HIJACK_NONE, "seccomp-none" },
		{ HIJACK_PART_LSM, HIJACK_KEEP, "lsm" },
		{ HIJACK_PART_LIMITS, HIJACK_KEEP, "limits" },
		{ HIJACK_PART_ENV, HIJACK_KEEP, "env" },
	};

	e->kept[0] = '\0';
	for (i = 0; i < (int)(sizeof(parts) / sizeof(parts[0])); i++)
		if (hijack_plan_mode(p, parts[i].part) == parts[i].mode)
			add_word(e->kept, sizeof(e->kept), parts[i].word);
	/* The caller's root or a path: not the target's, either way. */
	if (hijack_plan_mode(p, HIJACK_PART_ROOT) != HIJACK_DIR_TARGET)
		add_word(e->kept, sizeof(e->kept), "root");
	if (!e->kept[0])
		(void)snprintf(e->kept, sizeof(e->kept), "none");
}

void audit_entry_set_setenv(struct audit_entry *e, char *const *setenv)
{
	char name[AUDIT_TEXT_MAX];
	size_t n = 0, i;

	e->setenv_names[0] = '\0';
	for (i = 0; setenv && setenv[i]; i++) {
		const char *eq = strchr(setenv[i], '=');
		size_t len = eq ? (size_t)(eq - setenv[i]) : strlen(setenv[i]);

		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, setenv[i], len);
		name[len] = '\0';
		if (n && n + 1 < sizeof(e->setenv_names))
			e->setenv_names[n++] = ',';
		(void)audit_escape(name, false, e->setenv_names + n,
				   sizeof(e->setenv_names) - n);
		n += strlen(e->setenv_names + n);
	}
}

void audit_entry_finish(struct audit_entry *e, int exit_status,
			const char *error)
{
	e->exit_status = exit_status;
	(void)audit_escape(error ? error : "", true, e->error, sizeof(e->error));
	e->duration_usec = audit_now_mono() - e->start_mono;
}

/* Numbers go into @buf, one after the other. */
struct numbuf {
	char *buf;
	size_t len, used;
};

static const char *num(struct numbuf *nb, const char *fmt, unsigned long long v)
{
	char *s = nb->buf + nb->used;
	int r;

	if (nb->used >= nb->len)
		return "";
	r = snprintf(s, nb->len - nb->used, fmt, v);
	if (r < 0 || (size_t)r >= nb->len - nb->used) {
		*s = '\0';
		nb->used = nb->len;
		return s;
	}
	nb->used += (size_t)r + 1;
	return s;
}

#define ADD(k, v)                                               \
	do {                                                    \
		if (n < AUDIT_FIELDS_MAX)                       \
			kv[n++] = (struct audit_kv){ (k), (v) }; \
	} while (0)
#define ADDU(k, v) ADD((k), num(&nb, "%llu", (unsigned long long)(v)))

size_t audit_fields(const struct audit_entry *e, enum audit_event event,
		    struct audit_kv *kv, char *buf, size_t buflen)
{
	struct numbuf nb = { buf, buflen, 0 };
	size_t n = 0;
	int i;

	ADD("event", audit_event_name(event));
	ADD("session", e->session);
	ADDU("caller_uid", e->uid);
	ADDU("caller_loginuid", e->loginuid);
	ADDU("caller_sessionid", e->sessionid);
	ADDU("caller_pid", e->ppid);
	ADD("caller_tty", e->tty);
	ADD("target", e->target);
	if (e->engine[0])
		ADD("engine", e->engine);
	if (e->name[0])
		ADD("container_name", e->name);
	if (e->id[0])
		ADD("container_id", e->id);
	if (e->target_pid > 0)
		ADDU("target_pid", e->target_pid);
	if (e->have_plan) {
		size_t room;
		char *ent;

		ADDU("pidfd_ino", e->pidfd_ino);
		/* "ns_mnt", "ns_net", ...: the names are libhijack's. */
		for (i = 0; i < _HIJACK_NS_MAX; i++) {
			char *key = buf + nb.used;

			if (!e->ns_ino[i] || nb.used + 16 > buflen)
				continue;
			nb.used += (size_t)snprintf(key, 16, "ns_%s",
						    hijack_ns_name(i)) + 1;
			ADDU(key, e->ns_ino[i]);
		}
		/* The entered types, as a comma list; "none" if none. */
		ent = buf + nb.used;
		room = nb.used < buflen ? buflen - nb.used : 0;
		if (room > 5) {
			*ent = '\0';
			for (i = 0; i < _HIJACK_NS_MAX; i++)
				if (e->ns_entered & HIJACK_NS_BIT(i) &&
				    strlen(ent) + 8 < room)
					add_word(ent, room, hijack_ns_name(i));
			if (!*ent)
				(void)snprintf(ent, room, "none");
			nb.used += strlen(ent) + 1;
			ADD("ns_entered", ent);
		}
		ADD("kept", e->kept);
		if (e->run_uid != (uid_t)-1)
			ADDU("run_uid", e->run_uid);
	}
	ADD("mode", audit_mode_name(e->mode));
	if (e->mode == AUDIT_MODE_READ_FILE || e->mode == AUDIT_MODE_WRITE_FILE) {
		ADD("path", e->path);
	} else {
		ADD("argv", e->argv);
		/* An end-session record quotes the ended entry's file. */
		if (event != AUDIT_END_SESSION) {
			ADDU("argc", e->argc);
			ADDU("argv_bytes", e->argv_bytes);
			if (e->argv_truncated)
				ADD("argv_truncated", "1");
		}
	}
	if (e->setenv_names[0])
		ADD("setenv_names", e->setenv_names);
	if (e->reason[0])
		ADD("reason", e->reason);
	if (e->recording[0])
		ADD("recording", e->recording);
	if (event == AUDIT_END_SESSION) {
		/* The caller fields above are the ender's; these the ended's. */
		ADDU("session_caller_uid", e->ended_uid);
		ADDU("session_caller_loginuid", e->ended_loginuid);
		ADDU("session_hijack_pid", e->ended_pid);
		ADD("outcome", e->outcome);
		ADDU("grace_sec", e->grace_sec);
		return n;
	}
	if (e->session_file[0])
		ADD("session_file", e->session_file);
	if (event == AUDIT_START)
		return n;
	if (e->ended_by_set) {
		ADD("ended_by", "end-session");
		ADDU("ended_by_uid", e->ended_by_uid);
		ADDU("ended_by_loginuid", e->ended_by_loginuid);
		ADDU("ended_by_pid", e->ended_by_pid);
	}
	if (e->recording_end[0])
		ADD("recording_end", e->recording_end);
	if (e->recording_dropped)
		ADDU("recording_dropped_bytes", e->recording_dropped);
	if (e->recording_marker_missing)
		ADD("recording_marker", "missing");
	ADDU("exit_status", e->exit_status);
	ADDU("duration_usec", e->duration_usec);
	if (e->error[0])
		ADD("error", e->error);
	if (e->file_bytes >= 0)
		ADDU("file_bytes", e->file_bytes);
	if (e->file_sha256[0])
		ADD("file_sha256", e->file_sha256);
	return n;
}

void audit_summary(const struct audit_entry *e, enum audit_event event,
		   char *buf, size_t buflen)
{
	const char *what = e->mode == AUDIT_MODE_READ_FILE ||
					   e->mode == AUDIT_MODE_WRITE_FILE ?
				   e->path :
				   e->argv;

	switch (event) {
	case AUDIT_START:
		(void)snprintf(buf, buflen, "uid %u entered %s (%s): %.200s%s",
			       (unsigned int)e->uid, e->target,
			       audit_mode_name(e->mode), what,
			       strlen(what) > 200 ? "..." : "");
		break;
	case AUDIT_END:
		(void)snprintf(buf, buflen,
			       "uid %u left %s (%s): exit status %d after %llu.%03llu s",
			       (unsigned int)e->uid, e->target,
			       audit_mode_name(e->mode), e->exit_status,
			       e->duration_usec / 1000000,
			       e->duration_usec / 1000 % 1000);
		break;
	case AUDIT_END_SESSION:
		(void)snprintf(buf, buflen,
			       "uid %u ended session %s of uid %u in %s (%s): %s",
			       (unsigned int)e->uid, e->session,
			       (unsigned int)e->ended_uid, e->target,
			       audit_mode_name(e->mode), e->outcome);
		break;
	default:
		(void)snprintf(buf, buflen, "uid %u could not enter %s (%s): %s",
			       (unsigned int)e->uid, e->target,
			       audit_mode_name(e->mode), e->error);
		break;
	}
}
