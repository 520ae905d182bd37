/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audit.h - the records hijack(1) writes of every entry, and the policy
 * that governs them (hijack(1), AUDIT).
 *
 * Why not in libhijack: what an entry leaves behind is the command's
 * policy, not the library's.  A program built on libhijack keeps its own
 * trail, and libhijack's ABI and dependencies stay free of libsystemd and
 * libaudit.  Like libhijack, nothing here prints or exits: functions
 * return 0 or a negative errno, and the CLI says what went wrong.
 */
#ifndef HIJACK_AUDIT_H
#define HIJACK_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hijack.h"

/* The default policy file; configure --with-policy-file changes it. */
#ifndef HIJACK_POLICY_FILE
#define HIJACK_POLICY_FILE "/etc/hijack/hijack.conf"
#endif

/*
 * The longest one step of a send may hold an entry: the journal's, the
 * syslog's (tried only when the journal failed), and the kernel's two
 * (is auditd there, then the record).  A record so waits one second at
 * the very worst, an entry two; with nothing stuck, not at all.
 */
#define AUDIT_SEND_TIMEOUT_MS 250

/*
 * Bounds of the escaped text fields: a record is never larger.  With its
 * name, HIJACK_ARGV= and 4064 bytes stay under the 4096 past which
 * journalctl shows a field only with --all.
 */
#define AUDIT_ARGV_MAX 4064
#define AUDIT_TEXT_MAX 512
#define AUDIT_REASON_MAX 1024

/* ------------------------------------------------------------------ policy */

/**
 * struct audit_policy - /etc/hijack/hijack.conf, or its defaults.
 * @audit: write records at all (audit = on).
 * @require_reason: an entry without --reason is refused.
 * @fail_closed: an entry whose start record no destination accepted is
 *	refused (on-audit-failure = refuse); else it goes on with a warning.
 * @recording: recording = on was asked: reserved for session recording,
 *	not yet supported (the CLI warns and records nothing more).
 */
struct audit_policy {
	bool audit;
	bool require_reason;
	bool fail_closed;
	bool recording;
};

#define AUDIT_POLICY_DEFAULT                                    \
	{                                                       \
		.audit = true, .require_reason = false,         \
		.fail_closed = false, .recording = false,       \
	}

/* One problem found in the policy file, for the CLI's one-line warning. */
typedef void (*audit_warn_fn)(void *userdata, const char *msg);

/*
 * Read @path into @ret (which holds the defaults on entry).  A missing
 * file is no error (-ENOENT, defaults kept).  A file not owned by root,
 * writable by group or others, in a directory that is, or not a regular
 * file, is ignored as a whole: -EPERM, with @warn told why.  A bad line is
 * skipped, each with a warning.
 */
int audit_policy_load(const char *path, struct audit_policy *ret,
		      audit_warn_fn warn, void *userdata);

/* ------------------------------------------------------------------ record */

enum audit_event {
	AUDIT_START,	/* the command (copy, tools) is about to start */
	AUDIT_END,	/* it ended, or entering failed after the start record */
	AUDIT_FAILED,	/* refused or failed before a start record */
	_AUDIT_EVENT_MAX,
};

enum audit_mode {
	AUDIT_MODE_COMMAND,	/* a command without a terminal of its own */
	AUDIT_MODE_PTY,		/* an interactive session on a new pty */
	AUDIT_MODE_TOOLS,	/* --tools */
	AUDIT_MODE_READ_FILE,	/* --read-file */
	AUDIT_MODE_WRITE_FILE,	/* --write-file */
};

/* One field of a record: a lower-case key and an escaped value. */
struct audit_kv {
	const char *key;
	const char *value;
};

#define AUDIT_FIELDS_MAX 64

/**
 * struct audit_entry - everything the records of one entry say.
 *
 * Filled by audit_entry_init() (caller, session id, clock) and by the CLI
 * (target, mode, result); the text fields hold escaped, bounded copies
 * (audit_escape()), so that no record can be forged by what a user typed
 * or a container is called.
 */
struct audit_entry {
	char session[33];	/* 128 random bits, hex */
	/* the caller */
	uid_t uid;
	uid_t loginuid;		/* (uid_t)-1: unset */
	uint32_t sessionid;	/* the kernel's audit session; -1: unset */
	pid_t pid;		/* hijack itself */
	pid_t ppid;		/* the process that ran it */
	char tty[64];
	/* the target */
	char target[AUDIT_TEXT_MAX];	/* as given: [ENGINE:]NAME or pid:PID */
	char engine[32];
	char name[AUDIT_TEXT_MAX];
	char id[AUDIT_TEXT_MAX];
	pid_t target_pid;	/* 0: not yet known */
	unsigned long long pidfd_ino;
	unsigned long long ns_ino[_HIJACK_NS_MAX];
	unsigned int ns_entered;	/* HIJACK_NS_BIT()s */
	char kept[128];		/* parts of the confinement kept as the caller's */
	uid_t run_uid;		/* what the command runs as */
	bool have_plan;
	/* what was done */
	enum audit_mode mode;
	char argv[AUDIT_ARGV_MAX];
	size_t argc;
	size_t argv_bytes;	/* the arguments' length before escaping */
	bool argv_truncated;
	char path[AUDIT_TEXT_MAX];	/* --read-file, --write-file */
	/*
	 * Not filled yet (the copy runs in libhijack's child, which writes
	 * the caller's fd itself): the place for the size and SHA-256 of
	 * what a copy moved.  Recorded when set.
	 */
	long long file_bytes;	/* -1: unknown */
	char file_sha256[65];	/* "": unknown */
	char setenv_names[AUDIT_TEXT_MAX];	/* names only: values may be secret */
	char reason[AUDIT_REASON_MAX];
	/* how it ended */
	int exit_status;
	char error[AUDIT_TEXT_MAX];	/* why it failed, "" if it did not */
	unsigned long long start_usec;	/* CLOCK_REALTIME */
	unsigned long long start_mono;	/* CLOCK_MONOTONIC, for the duration */
	unsigned long long duration_usec;
};

/* Fill the caller's part, a new session id and the start time. */
int audit_entry_init(struct audit_entry *e);

/* The command line: escaped, joined by spaces, bounded. */
void audit_entry_set_argv(struct audit_entry *e, char *const argv[]);

/* What the plan says: target pid, namespaces, kept parts, uid. */
void audit_entry_set_plan(struct audit_entry *e, const struct hijack_plan *p,
			  int pidfd);

/* The container the target was named as. */
void audit_entry_set_container(struct audit_entry *e,
			       const struct hijack_container *c);

/* --setenv VAR=VALUE...: the names only. */
void audit_entry_set_setenv(struct audit_entry *e, char *const *setenv);

/* The end: exit status (as hijack(1) exits), error text, duration. */
void audit_entry_finish(struct audit_entry *e, int exit_status,
			const char *error);

/*
 * The fields of @event, in order, into @kv (AUDIT_FIELDS_MAX of them);
 * values point into @e or into @buf (@buflen bytes).  Returns their number.
 */
size_t audit_fields(const struct audit_entry *e, enum audit_event event,
		    struct audit_kv *kv, char *buf, size_t buflen);

/* A one-line summary for MESSAGE and the syslog MSG, escaped. */
void audit_summary(const struct audit_entry *e, enum audit_event event,
		   char *buf, size_t buflen);

const char *audit_event_name(enum audit_event event);
const char *audit_mode_name(enum audit_mode mode);

/*
 * Copy @s into @buf escaped: bytes outside printable ASCII, and the
 * backslash, double quote and right bracket (which end a syslog value),
 * become \xHH (the backslash \\); with @keep_space a space stays, else it
 * is \x20 too (so that words of a command line stay apart).  At most
 * @buflen - 1 bytes are written, never half an escape.  Returns true when
 * all of @s fitted.
 */
bool audit_escape(const char *s, bool keep_space, char *buf, size_t buflen);

/* --------------------------------------------------------- destinations */

/* Which destinations took a record (a mask of these bits). */
enum {
	AUDIT_DEST_JOURNAL = 1u << 0,
	AUDIT_DEST_SYSLOG = 1u << 1,
	AUDIT_DEST_KERNEL = 1u << 2,
};

/*
 * Write one record everywhere it should go: the journal when journald
 * runs, else syslog (/dev/log); and the kernel's audit log when auditd
 * runs.  Returns the mask of destinations that accepted it (0: none); in
 * @reterr_why, when none did, the reasons; in @ret_none_runs (optional),
 * whether that was because none of them runs at all.
 */
unsigned int audit_write(const struct audit_entry *e, enum audit_event event,
			 char *reterr_why, size_t whylen, bool *ret_none_runs);

/*
 * Start loading libsystemd on a thread of its own when a journal runs,
 * to have it ready by the first record (journal.c says why).  The first
 * audit_journal_send() waits for it.
 */
void audit_journal_prepare(void);

/* Each destination: 0 when it took the record, -ENOENT when it is absent. */
int audit_journal_send(const struct audit_entry *e, enum audit_event event);
int audit_syslog_send(const struct audit_entry *e, enum audit_event event);
int audit_kernel_send(const struct audit_entry *e, enum audit_event event);

/*
 * Run @fn(@arg) with a timer that interrupts a blocking system call in it
 * after @ms milliseconds (it then sees EINTR).  Returns what @fn returned,
 * or -ETIMEDOUT when the timer fired and @fn failed.
 */
int audit_with_timeout(int (*fn)(void *arg), void *arg, unsigned int ms);

/* The time left until @deadline_mono (CLOCK_MONOTONIC µs), in ms, >= 0. */
unsigned long long audit_now_mono(void);

#endif /* HIJACK_AUDIT_H */
