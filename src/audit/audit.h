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
 * (is auditd there, then the record; kernel.c waits for both at once,
 * and 100 ms more for a late sender to go).  A record so waits 1.1 s
 * at the very worst, an entry 2.2 s; with nothing stuck, not at all.
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

/* Where recordings go unless the policy says record-dir. */
#define RECORDING_DIR_DEFAULT "/var/log/hijack/sessions"

/* When sessions are recorded (record = ...). */
enum audit_record {
	AUDIT_RECORD_NEVER,	/* only on --record */
	AUDIT_RECORD_ALWAYS,
	AUDIT_RECORD_MATCHING,	/* targets matching @record_patterns */
};

#define AUDIT_PATTERNS_MAX 1024

/**
 * struct audit_policy - /etc/hijack/hijack.conf, or its defaults.
 * @audit: write records at all (audit = on).
 * @require_reason: an entry without --reason is refused.
 * @fail_closed: an entry whose start record no destination accepted is
 *	refused (on-audit-failure = refuse); else it goes on with a warning.
 * @record: which sessions are recorded whether or not --record is given.
 * @record_patterns: with AUDIT_RECORD_MATCHING, the words of the value:
 *	ENGINE:GLOB or GLOB (a container name, fnmatch(3)), space-separated.
 * @record_input: what the caller types is recorded too (record-input).
 * @record_dir: where recordings go (record-dir).
 */
struct audit_policy {
	bool audit;
	bool require_reason;
	bool fail_closed;
	enum audit_record record;
	char record_patterns[AUDIT_PATTERNS_MAX];
	bool record_input;
	char record_dir[256];
};

#define AUDIT_POLICY_DEFAULT                                    \
	{                                                       \
		.audit = true, .require_reason = false,         \
		.fail_closed = false,                           \
		.record = AUDIT_RECORD_NEVER,                   \
		.record_input = false,                          \
		.record_dir = RECORDING_DIR_DEFAULT,            \
	}

/*
 * Does the policy record an entry into a container of @engine named
 * @name (both as the engine reported them, not as the caller typed)?
 */
bool audit_policy_records(const struct audit_policy *p, const char *engine,
			  const char *name);

/*
 * One problem found in a file (the policy file, a session file), for the
 * CLI's one-line warning.
 */
typedef void (*audit_warn_fn)(void *userdata, const char *msg);

/* Tell @warn (when not NULL) a message made as printf() makes it. */
void audit_warnf(audit_warn_fn warn, void *userdata, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

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
	AUDIT_END_SESSION,	/* hijack --end-session ended another's entry */
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
	/* What a copy moved, counted and hashed by hijack (file-copy.c). */
	long long file_bytes;	/* -1: unknown */
	char file_sha256[65];	/* "": unknown */
	char setenv_names[AUDIT_TEXT_MAX];	/* names only: values may be secret */
	/* the session's recording, "" for none; how it ended (end record) */
	char recording[AUDIT_TEXT_MAX];
	char recording_end[64];
	unsigned long long recording_dropped;
	bool recording_marker_missing;
	char reason[AUDIT_REASON_MAX];
	/* its file under HIJACK_SESSIONS_DIR, or "none:WHY" (session.c) */
	char session_file[AUDIT_TEXT_MAX];
	/* An entry that hijack --end-session ended: who did (end record). */
	bool ended_by_set;
	uid_t ended_by_uid;
	uid_t ended_by_loginuid;
	pid_t ended_by_pid;
	/*
	 * An end-session record: @session and the target fields are the
	 * ended entry's, the caller fields the ender's; whose entry it was,
	 * and how it ended.
	 */
	uid_t ended_uid;
	uid_t ended_loginuid;
	pid_t ended_pid;	/* its hijack */
	char outcome[32];
	unsigned int grace_sec;
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

/* journald's socket; a unit test alone points it elsewhere. */
extern const char *audit_journal_socket;

/* Each destination: 0 when it took the record, -ENOENT when it is absent. */
int audit_journal_send(const struct audit_entry *e, enum audit_event event);
int audit_syslog_send(const struct audit_entry *e, enum audit_event event);
int audit_kernel_send(const struct audit_entry *e, enum audit_event event);

/* The time left until @deadline_mono (CLOCK_MONOTONIC µs), in ms, >= 0. */
unsigned long long audit_now_mono(void);

/* -------------------------------------------------------------- recording */

/*
 * The relay copies each chunk into a ring of RECORDING_RING bytes that a
 * writer thread empties to disk: a burst of this size never waits.  When
 * the ring is full, the relay waits for room RECORDING_STALL_MS at most;
 * then the recording ends ("stalled") and the session goes on.  At the
 * end hijack waits RECORDING_CLOSE_MS at most for the writer to finish.
 */
#define RECORDING_RING (4u << 20)
#define RECORDING_STALL_MS 500
#define RECORDING_CLOSE_MS 2000

/* How a recording ended (the end record's recording_end). */
enum recording_end {
	RECORDING_END_COMPLETE,	/* everything relayed is in the file */
	RECORDING_END_DISK_FULL,	/* ENOSPC or EDQUOT */
	RECORDING_END_WRITE_ERROR,	/* any other failed write */
	RECORDING_END_STALLED,	/* the disk did not keep up within the bounds */
	RECORDING_END_NO_TERMINAL,	/* nothing was relayed to record */
};

const char *recording_end_name(enum recording_end end);

/* What the header says, and what is recorded. */
struct recording_info {
	const char *dir;	/* as the policy names it, for the path */
	const char *session;	/* the records' session id: the file's name */
	const char *target;	/* escaped */
	const char *term;	/* $TERM of the caller, for the player */
	unsigned int width, height;
	unsigned long long timestamp;	/* Unix time of the start */
	bool input;		/* record input as well */
	bool relayed;		/* a terminal is relayed: else only a marker */
};

struct recording_result {
	enum recording_end end;
	int err;			/* the errno that ended it, if any */
	unsigned long long dropped;	/* relayed bytes not recorded */
	unsigned long long bytes;	/* size of the file */
	bool marker_written;		/* the line saying why it ended */
};

struct recording;

/*
 * Make @dir (0700, root's) if it is missing and open it, refusing a
 * symlink, a directory not owned by root, or one writable by group or
 * others.  Returns the directory's fd, or a negative errno with a
 * one-line reason in @reterr_why.
 */
int recording_dir_check(const char *dir, char *reterr_why, size_t whylen);

/*
 * Create SESSION.cast in @dirfd (O_EXCL, O_NOFOLLOW, 0600) and write its
 * header; with !@info->relayed, also the line that says nothing else
 * will be.  0 or a negative errno, with a reason in @reterr_why.
 */
int recording_open(struct recording **ret, int dirfd,
		   const struct recording_info *info, char *reterr_why,
		   size_t whylen);

const char *recording_path(const struct recording *r);

/*
 * Valid UTF-8 @in as the inside of a JSON string into @out (6 * @len
 * bytes of room), with every control character escaped; returns the
 * length written.
 */
size_t recording_json_escape(const char *in, size_t len, char *out);

/* A struct hijack_relay_tap's fn: @userdata is the struct recording. */
void recording_tap(void *userdata, enum hijack_relay_dir dir, const void *buf,
		   size_t len);

/* Finish the file (bounded, RECORDING_CLOSE_MS) and free @r. */
enum recording_end recording_close(struct recording *r,
				   struct recording_result *ret);

/* ---------------------------------------------------------- live sessions */

/*
 * Where a running entry says so, one file each: SESSION.json, root's,
 * 0600, in a directory of root's, 0700 (session.c says why each check).
 * configure --with-sessions-dir changes it; the environment never does.
 */
#ifndef HIJACK_SESSIONS_DIR
#define HIJACK_SESSIONS_DIR "/run/hijack/sessions"
#endif

/* The most bytes of a session file read: hijack writes about 1 KiB. */
#define SESSION_FILE_MAX (64 * 1024)
/* The most session files a listing reads; the rest get one warning. */
#define SESSIONS_MAX 1024
/* The most names of the directory looked at to find a session. */
#define SESSIONS_SCAN_MAX 65536

/*
 * A process, told apart from any later one with its pid: the start time
 * is /proc/PID/stat's field 22 (clock ticks since boot), and its
 * executable's device and inode say it is a hijack (a pid reused within
 * the same tick by another program still differs there).  The boot id
 * and the pid namespace say which pids the pid is one of.
 */
struct session_proc {
	pid_t pid;
	unsigned long long start_time;
	unsigned long long exe_dev, exe_ino;
	unsigned long long pidns_ino;
	char boot_id[37];
};

/* The marker hijack --end-session puts in a file before its SIGHUP. */
struct session_ending {
	bool set;
	uid_t uid;
	uid_t loginuid;
	pid_t pid;
	unsigned long long usec;	/* CLOCK_REALTIME */
};

/**
 * struct live_session - what a session file says, every text escaped as
 * in the records (audit_escape()) and so printable ASCII only.
 */
struct live_session {
	char id[33];
	struct session_proc hijack;
	uid_t uid;
	uid_t loginuid;
	uint32_t sessionid;
	pid_t caller_pid;
	char tty[64];
	char target[AUDIT_TEXT_MAX];
	char engine[32];
	char name[AUDIT_TEXT_MAX];
	char ct_id[AUDIT_TEXT_MAX];
	pid_t target_pid;
	enum audit_mode mode;
	char argv[AUDIT_ARGV_MAX];	/* a command, or "" */
	char path[AUDIT_TEXT_MAX];	/* a file copy's, or "" */
	unsigned long long since_usec;	/* CLOCK_REALTIME */
	struct session_ending ending;
};

enum session_state {
	SESSION_RUNNING,
	SESSION_ENDING,		/* running, with an --end-session marker */
	SESSION_ENDED,		/* its hijack is gone: no end record */
};

const char *session_state_name(enum session_state state, bool json);

/* The caller's own process, as a session file names it. */
int session_proc_self(struct session_proc *ret);

/* A session file's contents for @e, hijack being this process. */
int session_from_entry(struct live_session *ret, const struct audit_entry *e);

/*
 * Open @dir, each component with O_NOFOLLOW from "/", each owned by
 * @owner or root and writable by nobody else (a root-owned sticky
 * directory such as /tmp excepted, but never the last).  With @create,
 * missing components are made (0755, the last 0700).  Returns the fd, or
 * -ENOENT when it is missing (without @create), or a negative errno with
 * a one-line reason in @reterr_why.
 */
int session_dir_open(const char *dir, bool create, uid_t owner,
		     char *reterr_why, size_t whylen);

/* A file name of the directory that is a session's: ID.json. */
bool session_name_valid(const char *name);

/* 8 to 32 hex digits (either case): a session id or a prefix of one. */
bool session_id_prefix_valid(const char *s);

/*
 * Write @s as @dirfd's "ID.json" atomically (a temporary name, then
 * rename without replacing).  0 or a negative errno.
 */
int session_publish(int dirfd, const struct live_session *s);

/*
 * Read @name of @dirfd: a regular file (no symlink followed), owned by
 * @owner, mode 0600 or less, one link, at most SESSION_FILE_MAX bytes,
 * JSON of the expected fields and types, text fields bounded and
 * printable ASCII, its id its name's.  0, or a negative errno with a
 * one-line reason in @reterr_why.
 */
int session_read(int dirfd, const char *name, uid_t owner,
		 struct live_session *ret, char *reterr_why, size_t whylen);

/*
 * Is @p the process that wrote the file, alive?  SESSION_RUNNING (with
 * a pidfd of it in @ret_pidfd, if not NULL) or SESSION_ENDED; -EXDEV when
 * it cannot be told (another boot's pid namespace, or another pid
 * namespace than the caller's); another negative errno on failure.  The
 * pidfd is opened first and /proc read after, then the pidfd asked
 * whether its process still lives: so what was read is that process's.
 */
int session_proc_check(const struct session_proc *p, int *ret_pidfd);

/*
 * The --end-session marker: rewrite @s's file with @ending, atomically,
 * only while the file is there (renameat2(RENAME_EXCHANGE)): -ENOENT
 * when its hijack removed it meanwhile.
 */
int session_mark_ending(int dirfd, const struct live_session *s,
			const struct session_ending *ending);

/*
 * Every session file of @dirfd (owned by @owner), at most SESSIONS_MAX,
 * oldest first, into *@ret (free() it); what is skipped, and why, is told
 * to @warn.  0 or a negative errno.
 */
int session_list(int dirfd, uid_t owner, struct live_session **ret,
		 size_t *ret_n, audit_warn_fn warn, void *userdata);

/*
 * The one session whose id begins with @prefix (session_id_prefix_valid),
 * its file name into @ret_name (at least 40 bytes).  -ENOENT for none,
 * -ENOTUNIQ for several (their number in *@ret_count).
 */
int session_find(int dirfd, const char *prefix, char *ret_name,
		 size_t *ret_count);

/*
 * Pidfds of the children of @pid (hijack's command, which hijack
 * --end-session kills when SIGHUP did not end it), at most @max into
 * @ret, each checked after its pidfd was opened to be a live child of
 * @pid.  Their number, or a negative errno.
 */
#define SESSION_TASKS_MAX 64
int session_children(pid_t pid, int *ret, size_t max);

/*
 * Remove temporary files of writers that died (older than a minute).
 * Returns how many.
 */
int session_prune_temporaries(int dirfd);

/*
 * Escape @s for a terminal: printable ASCII passes (what session files
 * hold), anything else is \xHH.  Bounded as audit_escape().
 */
bool audit_escape_display(const char *s, char *buf, size_t buflen);

#endif /* HIJACK_AUDIT_H */
