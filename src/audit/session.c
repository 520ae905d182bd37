// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * session.c - live sessions (hijack(1), AUDIT, "Live sessions"): while an
 * entry runs, hijack keeps a small file that says who is inside which
 * container, which hijack --sessions lists and hijack --end-session acts
 * on.
 *
 * Whoever could write such a file could make root's --sessions show
 * anything, and make --end-session signal whatever process it names.  So
 * nothing here is taken on trust:
 *  - the directory is reached from "/" one component at a time with
 *    O_NOFOLLOW, each component root's and writable by nobody else, and
 *    everything after is done relative to its fd, never by path again;
 *  - a file is read only when it is a regular file (looked at without
 *    following a link, then the opened fd compared with that), root's,
 *    0600 at most, with one link, and at most SESSION_FILE_MAX bytes; and
 *    then only as JSON with the expected keys and types, its text bounded
 *    and printable ASCII (what audit_escape() makes), its id its name's;
 *  - what a file says about its hijack is checked against the live
 *    process through a pidfd (session_proc_check()).
 * Only a hijack running as root in the initial user namespace writes
 * here (the CLI decides, sessions-cli.c); nothing here prints or exits.
 *
 * A file is written whole under a temporary name (a dot first: listings
 * skip those) and renamed into place, so that a reader never sees half
 * of one; --end-session's marker replaces it the same way, but only
 * while it is there (RENAME_EXCHANGE), so that a session that has just
 * ended is never brought back.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "audit.h"
#include "macro.h"

#define SESSION_FORMAT 1
#define SESSION_ID_LEN 32
/* A temporary file older than this is a dead writer's (--prune). */
#define TEMPORARY_STALE_SEC 60

const char *session_state_name(enum session_state state, bool json)
{
	switch (state) {
	case SESSION_RUNNING:
		return "running";
	case SESSION_ENDING:
		return "ending";
	case SESSION_ENDED:
		return json ? "ended-without-end-record" :
			      "ended without an end record";
	}
	return "unknown";
}

/* ------------------------------------------------------------ processes */

/* Read a small /proc file whole into @buf; its length, or a negative errno. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	_cleanup_close_ int fd = -EBADF;
	size_t n = 0;
	ssize_t r;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < len - 1) {
		r = read(fd, buf + n, len - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return (ssize_t)n;
}

/*
 * /proc/PID/stat: its state (field 3), parent (4) and start time (22).
 * The command name (2) may hold spaces and parentheses: fields are
 * counted from the last ')'.
 */
static int proc_stat(pid_t pid, char *ret_state, pid_t *ret_ppid,
		     unsigned long long *ret_start)
{
	char path[64], buf[2048], *p, *tok, *save = NULL;
	ssize_t r;
	int field;

	(void)snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = read_small(path, buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	p = strrchr(buf, ')');
	if (!p)
		return -EBADMSG;
	for (field = 3, tok = strtok_r(p + 1, " \n", &save); tok;
	     field++, tok = strtok_r(NULL, " \n", &save)) {
		if (field == 3 && ret_state)
			*ret_state = tok[0];
		else if (field == 4 && ret_ppid)
			*ret_ppid = (pid_t)strtol(tok, NULL, 10);
		else if (field == 22) {
			*ret_start = strtoull(tok, NULL, 10);
			return 0;
		}
	}
	return -EBADMSG;
}

static int boot_id(char ret[37])
{
	char buf[64];
	ssize_t r = read_small("/proc/sys/kernel/random/boot_id", buf,
			       sizeof(buf));

	if (r < 0)
		return (int)r;
	if (r < 36)
		return -EBADMSG;
	memcpy(ret, buf, 36);
	ret[36] = '\0';
	return 0;
}

static int ino_of(const char *path, unsigned long long *ret_dev,
		  unsigned long long *ret_ino)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (ret_dev)
		*ret_dev = (unsigned long long)st.st_dev;
	*ret_ino = (unsigned long long)st.st_ino;
	return 0;
}

int session_proc_self(struct session_proc *ret)
{
	int r;

	*ret = (struct session_proc){ .pid = getpid() };
	r = proc_stat(ret->pid, NULL, NULL, &ret->start_time);
	if (r == 0)
		r = ino_of("/proc/self/exe", &ret->exe_dev, &ret->exe_ino);
	if (r == 0)
		r = ino_of("/proc/self/ns/pid", NULL, &ret->pidns_ino);
	if (r == 0)
		r = boot_id(ret->boot_id);
	return r;
}

int session_proc_check(const struct session_proc *p, int *ret_pidfd)
{
	_cleanup_close_ int pidfd = -EBADF;
	unsigned long long start = 0, dev = 0, ino = 0, pidns = 0;
	char path[64], now_boot[37], state = '?';
	int r;

	r = boot_id(now_boot);
	if (r < 0)
		return r;
	/* A file that outlived its boot (a /run that is not a tmpfs). */
	if (strcmp(now_boot, p->boot_id) != 0)
		return SESSION_ENDED;
	r = ino_of("/proc/self/ns/pid", NULL, &pidns);
	if (r < 0)
		return r;
	if (pidns != p->pidns_ino)
		return -EXDEV;
	pidfd = pidfd_open(p->pid, 0);
	if (pidfd < 0)
		return errno == ESRCH ? SESSION_ENDED : -errno;
	r = proc_stat(p->pid, &state, NULL, &start);
	if (r == -ENOENT || r == -ESRCH)
		return SESSION_ENDED;
	if (r < 0)
		return r;
	/* A zombie has ended: only its parent has not looked yet. */
	if (state == 'Z' || state == 'X' || start != p->start_time)
		return SESSION_ENDED;
	(void)snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->pid);
	r = ino_of(path, &dev, &ino);
	if (r == -ENOENT || r == -ESRCH)
		return SESSION_ENDED;
	if (r < 0)
		return r;
	if (dev != p->exe_dev || ino != p->exe_ino)
		return SESSION_ENDED;
	/* Alive now, so alive since the pidfd: what /proc said was its. */
	if (pidfd_send_signal(pidfd, 0, NULL, 0) < 0)
		return errno == ESRCH ? SESSION_ENDED : -errno;
	if (ret_pidfd)
		*ret_pidfd = TAKE_FD(pidfd);
	return SESSION_RUNNING;
}

/* ------------------------------------------------------------ the format */

int session_from_entry(struct live_session *ret, const struct audit_entry *e)
{
	bool copy = e->mode == AUDIT_MODE_READ_FILE ||
		    e->mode == AUDIT_MODE_WRITE_FILE;

	memset(ret, 0, sizeof(*ret));
	(void)snprintf(ret->id, sizeof(ret->id), "%s", e->session);
	ret->uid = e->uid;
	ret->loginuid = e->loginuid;
	ret->sessionid = e->sessionid;
	ret->caller_pid = e->ppid;
	(void)snprintf(ret->tty, sizeof(ret->tty), "%s", e->tty);
	(void)snprintf(ret->target, sizeof(ret->target), "%s", e->target);
	(void)snprintf(ret->engine, sizeof(ret->engine), "%s", e->engine);
	(void)snprintf(ret->name, sizeof(ret->name), "%s", e->name);
	(void)snprintf(ret->ct_id, sizeof(ret->ct_id), "%s", e->id);
	ret->target_pid = e->target_pid;
	ret->mode = e->mode;
	if (copy)
		(void)snprintf(ret->path, sizeof(ret->path), "%s", e->path);
	else
		(void)snprintf(ret->argv, sizeof(ret->argv), "%s", e->argv);
	ret->since_usec = e->start_usec;
	return session_proc_self(&ret->hijack);
}

/* Unsigned values go out as JSON's signed 64 bits, and come back so. */
#define JI(v) ((json_int_t)(v))

static json_t *to_json(const struct live_session *s)
{
	json_t *j;

	j = json_pack("{s:i, s:s, s:{s:I, s:I, s:I, s:I, s:I, s:s},"
		      " s:{s:I, s:I, s:I, s:I, s:s},"
		      " s:{s:s, s:s, s:s, s:s, s:I},"
		      " s:s, s:s, s:s, s:I}",
		      "version", SESSION_FORMAT, "session", s->id,
		      "hijack", "pid", JI(s->hijack.pid),
		      "start_time", JI(s->hijack.start_time),
		      "exe_dev", JI(s->hijack.exe_dev),
		      "exe_ino", JI(s->hijack.exe_ino),
		      "pidns", JI(s->hijack.pidns_ino),
		      "boot_id", s->hijack.boot_id,
		      "caller", "uid", JI(s->uid), "loginuid", JI(s->loginuid),
		      "sessionid", JI(s->sessionid), "pid", JI(s->caller_pid),
		      "tty", s->tty,
		      "target", "target", s->target, "engine", s->engine,
		      "name", s->name, "id", s->ct_id, "pid", JI(s->target_pid),
		      "mode", audit_mode_name(s->mode), "argv", s->argv,
		      "path", s->path, "since_usec", JI(s->since_usec));
	if (!j || !s->ending.set)
		return j;
	if (json_object_set_new(j, "ending",
				json_pack("{s:I, s:I, s:I, s:I}",
					  "uid", JI(s->ending.uid),
					  "loginuid", JI(s->ending.loginuid),
					  "pid", JI(s->ending.pid),
					  "usec", JI(s->ending.usec))) < 0) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* What went wrong with a file, for the warning. */
#define BAD(...)                                                \
	({                                                      \
		(void)snprintf(why, whylen, __VA_ARGS__);       \
		-EBADMSG;                                       \
	})

/* Text that hijack wrote: printable ASCII, shorter than @len. */
static int get_text(json_t *obj, const char *key, char *buf, size_t len,
		    char *why, size_t whylen)
{
	json_t *v = json_object_get(obj, key);
	const char *s;
	size_t n, i;

	if (!json_is_string(v))
		return BAD("\"%s\": missing or not a string", key);
	s = json_string_value(v);
	n = json_string_length(v);
	if (n >= len)
		return BAD("\"%s\": longer than %zu bytes", key, len - 1);
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < ' ' || (unsigned char)s[i] >= 0x7f)
			return BAD("\"%s\": not escaped text", key);
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

static int get_num(json_t *obj, const char *key, long long min, long long max,
		   long long *ret, char *why, size_t whylen)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v))
		return BAD("\"%s\": missing or not an integer", key);
	*ret = json_integer_value(v);
	if (*ret < min || *ret > max)
		return BAD("\"%s\": out of range", key);
	return 0;
}

static json_t *get_object(json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_object(v) ? v : NULL;
}

/* A number of the file: its object, key, bounds, and where it goes. */
struct num_field {
	json_t *obj;
	const char *key;
	long long min, max;
	long long *ret;
};

/* A text of the file, bounded by its buffer. */
struct text_field {
	json_t *obj;
	const char *key;
	char *buf;
	size_t len;
};

static int get_all(const struct num_field *nums, size_t nnums,
		   const struct text_field *texts, size_t ntexts, char *why,
		   size_t whylen)
{
	size_t i;
	int r;

	for (i = 0; i < nnums; i++)
		if ((r = get_num(nums[i].obj, nums[i].key, nums[i].min,
				 nums[i].max, nums[i].ret, why, whylen)) < 0)
			return r;
	for (i = 0; i < ntexts; i++)
		if ((r = get_text(texts[i].obj, texts[i].key, texts[i].buf,
				  texts[i].len, why, whylen)) < 0)
			return r;
	return 0;
}

#define TEXT(o, k, b) { (o), (k), (b), sizeof(b) }

/* --end-session's marker, when there is one. */
static int ending_from_json(json_t *e, struct session_ending *ret, char *why,
			    size_t whylen)
{
	long long uid, loginuid, pid, usec;
	const struct num_field nums[] = {
		{ e, "uid", 0, UINT32_MAX, &uid },
		{ e, "loginuid", 0, UINT32_MAX, &loginuid },
		{ e, "pid", 1, INT_MAX, &pid },
		{ e, "usec", 0, LLONG_MAX, &usec },
	};
	int r;

	if (!json_is_object(e))
		return BAD("\"ending\": not an object");
	r = get_all(nums, ARRAY_SIZE(nums), NULL, 0, why, whylen);
	if (r < 0)
		return r;
	*ret = (struct session_ending){
		.set = true,
		.uid = (uid_t)uid,
		.loginuid = (uid_t)loginuid,
		.pid = (pid_t)pid,
		.usec = (unsigned long long)usec,
	};
	return 0;
}

/* Each key as session_publish() writes it, or the file is not believed. */
static int from_json(json_t *j, struct live_session *s, char *why,
		     size_t whylen)
{
	json_t *h = get_object(j, "hijack"), *c = get_object(j, "caller");
	json_t *t = get_object(j, "target"), *e = json_object_get(j, "ending");
	long long version, hpid, start, dev, ino, pidns, uid, loginuid, sid,
		cpid, tpid, since;
	/* The inodes and devices are unsigned 64 bits, sent as signed. */
	const struct num_field nums[] = {
		{ j, "version", SESSION_FORMAT, SESSION_FORMAT, &version },
		{ h, "pid", 1, INT_MAX, &hpid },
		{ h, "start_time", 0, LLONG_MAX, &start },
		{ h, "exe_dev", LLONG_MIN, LLONG_MAX, &dev },
		{ h, "exe_ino", LLONG_MIN, LLONG_MAX, &ino },
		{ h, "pidns", LLONG_MIN, LLONG_MAX, &pidns },
		{ c, "uid", 0, UINT32_MAX, &uid },
		{ c, "loginuid", 0, UINT32_MAX, &loginuid },
		{ c, "sessionid", 0, UINT32_MAX, &sid },
		{ c, "pid", 0, INT_MAX, &cpid },
		{ t, "pid", 0, INT_MAX, &tpid },
		{ j, "since_usec", 0, LLONG_MAX, &since },
	};
	char mode[16];
	const struct text_field texts[] = {
		TEXT(j, "session", s->id),
		TEXT(h, "boot_id", s->hijack.boot_id),
		TEXT(c, "tty", s->tty),
		TEXT(t, "target", s->target),
		TEXT(t, "engine", s->engine),
		TEXT(t, "name", s->name),
		TEXT(t, "id", s->ct_id),
		TEXT(j, "mode", mode),
		TEXT(j, "argv", s->argv),
		TEXT(j, "path", s->path),
	};
	int m, r;

	memset(s, 0, sizeof(*s));
	if (!json_is_object(j))
		return BAD("not a JSON object");
	/* The version first: a later format is said to be one. */
	r = get_num(j, "version", SESSION_FORMAT, SESSION_FORMAT, &version, why,
		    whylen);
	if (r < 0)
		return r;
	if (!h || !c || !t)
		return BAD("\"hijack\", \"caller\" or \"target\" missing");
	r = get_all(nums, ARRAY_SIZE(nums), texts, ARRAY_SIZE(texts), why,
		    whylen);
	if (r < 0)
		return r;
	for (m = AUDIT_MODE_COMMAND; m <= AUDIT_MODE_WRITE_FILE; m++)
		if (strcmp(mode, audit_mode_name((enum audit_mode)m)) == 0)
			break;
	if (m > AUDIT_MODE_WRITE_FILE)
		return BAD("\"mode\": unknown");
	s->mode = (enum audit_mode)m;
	s->hijack.pid = (pid_t)hpid;
	s->hijack.start_time = (unsigned long long)start;
	s->hijack.exe_dev = (unsigned long long)dev;
	s->hijack.exe_ino = (unsigned long long)ino;
	s->hijack.pidns_ino = (unsigned long long)pidns;
	s->uid = (uid_t)uid;
	s->loginuid = (uid_t)loginuid;
	s->sessionid = (uint32_t)sid;
	s->caller_pid = (pid_t)cpid;
	s->target_pid = (pid_t)tpid;
	s->since_usec = (unsigned long long)since;
	return e ? ending_from_json(e, &s->ending, why, whylen) : 0;
}

/* ------------------------------------------------------------- the files */

bool session_name_valid(const char *name)
{
	size_t i;

	for (i = 0; i < SESSION_ID_LEN; i++)
		if (!isdigit((unsigned char)name[i]) &&
		    !(name[i] >= 'a' && name[i] <= 'f'))
			return false;
	return strcmp(name + SESSION_ID_LEN, ".json") == 0;
}

bool session_id_prefix_valid(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 8 || n > SESSION_ID_LEN)
		return false;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * Is the directory (or component) @st one to trust?  Owned by root (or
 * @owner), and nobody else may write in it: a directory others may write
 * to lets them put a name where ours goes.  A sticky directory of root's
 * (/tmp) on the way is no such risk: the next component must then be
 * ours, and others cannot rename or remove what is not theirs in it.
 */
static const char *untrusted(const struct stat *st, uid_t owner, bool last)
{
	if (!S_ISDIR(st->st_mode))
		return "not a directory";
	if (st->st_uid != 0 && st->st_uid != owner)
		return owner == 0 ? "not owned by root" : "not owned by root or the caller";
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return NULL;
	if (!last && st->st_uid == 0 && st->st_mode & S_ISVTX)
		return NULL;
	return "writable by group or others";
}

int session_dir_open(const char *dir, bool create, uid_t owner,
		     char *reterr_why, size_t whylen)
{
	_cleanup_close_ int fd = -EBADF;
	char path[PATH_MAX], shown[PATH_MAX] = "", *comp, *next, *save = NULL;
	const char *bad;
	struct stat st;
	bool last;

	if (dir[0] != '/' || strlen(dir) >= sizeof(path)) {
		(void)snprintf(reterr_why, whylen, "%s: not an absolute path", dir);
		return -EINVAL;
	}
	(void)snprintf(path, sizeof(path), "%s", dir);
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		(void)snprintf(reterr_why, whylen, "/: %s", strerror(errno));
		return -errno;
	}
	bad = untrusted(&st, owner, false);
	if (bad) {
		(void)snprintf(reterr_why, whylen, "/: %s", bad);
		return -EPERM;
	}
	for (comp = strtok_r(path, "/", &save); comp; comp = next) {
		int nfd, err;

		next = strtok_r(NULL, "/", &save);
		last = !next;
		(void)snprintf(shown + strlen(shown), sizeof(shown) - strlen(shown),
			       "/%s", comp);
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, comp, last ? 0700 : 0755) < 0 &&
			    errno != EEXIST) {
				err = errno;
				(void)snprintf(reterr_why, whylen, "%s: %s", shown,
					       strerror(err));
				return -err;
			}
			nfd = openat(fd, comp,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd < 0) {
			err = errno;
			(void)snprintf(reterr_why, whylen, "%s: %s", shown,
				       err == ELOOP || err == ENOTDIR ?
					       "a symlink or not a directory" :
					       strerror(err));
			return -err;
		}
		close_fdp(&fd);
		fd = nfd;
		if (fstat(fd, &st) < 0) {
			err = errno;
			(void)snprintf(reterr_why, whylen, "%s: %s", shown,
				       strerror(err));
			return -err;
		}
		bad = untrusted(&st, owner, last);
		if (bad) {
			(void)snprintf(reterr_why, whylen, "%s: %s", shown, bad);
			return -EPERM;
		}
	}
	return TAKE_FD(fd);
}

/* @s as JSON under the temporary name @tmp of @dirfd, 0600. */
static int write_temporary(int dirfd, const char *tmp,
			   const struct live_session *s)
{
	_cleanup_close_ int fd = -EBADF;
	json_t *j = to_json(s);
	FILE *f;
	int r;

	if (!j)
		return -ENOMEM;
	fd = openat(dirfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	f = fd >= 0 ? fdopen(fd, "we") : NULL;
	if (!f) {
		r = -errno;
		json_decref(j);
		if (fd >= 0)
			(void)unlinkat(dirfd, tmp, 0);
		return r;
	}
	TAKE_FD(fd);
	r = json_dumpf(j, f, JSON_COMPACT | JSON_PRESERVE_ORDER) < 0 ||
			    fputc('\n', f) == EOF ?
		    -EIO :
		    0;
	json_decref(j);
	/* A short write shows at the latest in fclose(). */
	if (fclose(f) != 0 && r == 0)
		r = errno ? -errno : -EIO;
	if (r < 0)
		(void)unlinkat(dirfd, tmp, 0);
	return r;
}

int session_publish(int dirfd, const struct live_session *s)
{
	char tmp[64], name[48];
	int r;

	(void)snprintf(tmp, sizeof(tmp), ".%s.%d.tmp", s->id, (int)getpid());
	(void)snprintf(name, sizeof(name), "%s.json", s->id);
	r = write_temporary(dirfd, tmp, s);
	if (r < 0)
		return r;
	if (renameat2(dirfd, tmp, dirfd, name, RENAME_NOREPLACE) == 0)
		return 0;
	r = -errno;
	/* A filesystem without renameat2() flags: link, which never replaces. */
	if (r == -EINVAL && linkat(dirfd, tmp, dirfd, name, 0) == 0)
		r = 0;
	else if (r == -EINVAL)
		r = -errno;
	(void)unlinkat(dirfd, tmp, 0);
	return r;
}

int session_mark_ending(int dirfd, const struct live_session *s,
			const struct session_ending *ending)
{
	struct live_session *marked = malloc(sizeof(*marked));
	char tmp[64], name[48];
	int r;

	if (!marked)
		return -ENOMEM;
	*marked = *s;
	marked->ending = *ending;
	marked->ending.set = true;
	(void)snprintf(tmp, sizeof(tmp), ".%s.%d.end.tmp", s->id, (int)getpid());
	(void)snprintf(name, sizeof(name), "%s.json", s->id);
	r = write_temporary(dirfd, tmp, marked);
	free(marked);
	if (r < 0)
		return r;
	/*
	 * Exchange, not rename: when hijack has removed its file meanwhile
	 * (its entry ended), a rename would make a new one that nobody
	 * removes; the exchange fails with ENOENT instead.
	 */
	r = renameat2(dirfd, tmp, dirfd, name, RENAME_EXCHANGE) < 0 ? -errno : 0;
	if (r == -EINVAL)
		r = -EOPNOTSUPP;
	/* The old contents now, or the unused new ones. */
	(void)unlinkat(dirfd, tmp, 0);
	return r;
}

int session_read(int dirfd, const char *name, uid_t owner,
		 struct live_session *ret, char *reterr_why, size_t whylen)
{
	_cleanup_close_ int fd = -EBADF;
	_cleanup_free_ char *buf = NULL;
	char *why = reterr_why;
	struct stat st0, st;
	json_error_t jerr;
	size_t n = 0;
	ssize_t got;
	json_t *j;
	int r;

	/* Looked at first without opening: a device is never opened. */
	if (fstatat(dirfd, name, &st0, AT_SYMLINK_NOFOLLOW) < 0) {
		r = -errno;
		(void)snprintf(why, whylen, "%s", strerror(errno));
		return r;
	}
	if (S_ISLNK(st0.st_mode)) {
		(void)snprintf(why, whylen, "a symlink");
		return -ELOOP;
	}
	if (!S_ISREG(st0.st_mode)) {
		(void)snprintf(why, whylen, "not a regular file");
		return -EINVAL;
	}
	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = -errno;
		(void)snprintf(why, whylen, "%s", strerror(errno));
		return r;
	}
	if (st.st_dev != st0.st_dev || st.st_ino != st0.st_ino) {
		(void)snprintf(why, whylen, "replaced while read");
		return -EAGAIN;
	}
	if (st.st_uid != owner) {
		(void)snprintf(why, whylen, "owned by uid %u, not %s",
			       (unsigned int)st.st_uid, owner ? "the caller" : "root");
		return -EPERM;
	}
	if (st.st_mode & 07177) {
		(void)snprintf(why, whylen, "mode %04o, not 0600",
			       (unsigned int)(st.st_mode & 07777));
		return -EPERM;
	}
	if (st.st_nlink != 1) {
		(void)snprintf(why, whylen, "%lu links, not one",
			       (unsigned long)st.st_nlink);
		return -EPERM;
	}
	if (st.st_size > SESSION_FILE_MAX) {
		(void)snprintf(why, whylen, "larger than %d KiB",
			       SESSION_FILE_MAX / 1024);
		return -EFBIG;
	}
	buf = malloc(SESSION_FILE_MAX + 1);
	if (!buf)
		return -ENOMEM;
	/* Bounded whatever st_size said: the file may grow meanwhile. */
	while (n <= SESSION_FILE_MAX) {
		got = read(fd, buf + n, SESSION_FILE_MAX + 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			(void)snprintf(why, whylen, "%s", strerror(errno));
			return r;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (n > SESSION_FILE_MAX) {
		(void)snprintf(why, whylen, "larger than %d KiB",
			       SESSION_FILE_MAX / 1024);
		return -EFBIG;
	}
	j = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &jerr);
	if (!j) {
		/* jansson quotes the text: the CLI escapes what it shows. */
		(void)snprintf(why, whylen, "not JSON: line %d: %s", jerr.line,
			       jerr.text);
		return -EBADMSG;
	}
	r = from_json(j, ret, why, whylen);
	json_decref(j);
	if (r < 0)
		return r;
	if (strncmp(name, ret->id, SESSION_ID_LEN) != 0 ||
	    strlen(ret->id) != SESSION_ID_LEN) {
		(void)snprintf(why, whylen, "its session id is not its name's");
		return -EBADMSG;
	}
	return 0;
}

/* ----------------------------------------------------------- the listing */

static int by_since(const void *a, const void *b)
{
	const struct live_session *x = a, *y = b;

	if (x->since_usec != y->since_usec)
		return x->since_usec < y->since_usec ? -1 : 1;
	return strcmp(x->id, y->id);
}

static DIR *open_listing(int dirfd)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d) {
		close_fdp(&fd);
		return NULL;
	}
	rewinddir(d);
	return d;
}

int session_list(int dirfd, uid_t owner, struct live_session **ret,
		 size_t *ret_n, audit_warn_fn warn, void *userdata)
{
	_cleanup_closedir_ DIR *d = open_listing(dirfd);
	struct live_session *v = NULL, *nv;
	size_t n = 0, cap = 0, seen = 0;
	struct dirent *de;
	char why[512];

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (++seen > SESSIONS_SCAN_MAX) {
			audit_warnf(warn, userdata,
			      "more than %d names in the directory: the rest not looked at",
			      SESSIONS_SCAN_MAX);
			break;
		}
		/* ".", "..", and the temporary files of writers. */
		if (de->d_name[0] == '.')
			continue;
		if (!session_name_valid(de->d_name)) {
			audit_warnf(warn, userdata, "%s: not a session file, skipped",
			      de->d_name);
			continue;
		}
		if (n == SESSIONS_MAX) {
			audit_warnf(warn, userdata,
			      "more than %d session files: the rest not listed",
			      SESSIONS_MAX);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		if (session_read(dirfd, de->d_name, owner, &v[n], why,
				 sizeof(why)) < 0) {
			audit_warnf(warn, userdata, "%s: %s, skipped", de->d_name, why);
			continue;
		}
		n++;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_since);
	*ret = v;
	*ret_n = n;
	return 0;
}

int session_find(int dirfd, const char *prefix, char *ret_name,
		 size_t *ret_count)
{
	_cleanup_closedir_ DIR *d = NULL;
	char lower[SESSION_ID_LEN + 1];
	size_t len = strlen(prefix), i, seen = 0, count = 0;
	struct dirent *de;
	struct stat st;

	if (!session_id_prefix_valid(prefix))
		return -EINVAL;
	for (i = 0; i <= len; i++)
		lower[i] = (char)tolower((unsigned char)prefix[i]);
	if (ret_count)
		*ret_count = 0;
	if (len == SESSION_ID_LEN) {
		(void)snprintf(ret_name, 40, "%s.json", lower);
		if (fstatat(dirfd, ret_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return -errno;
		if (ret_count)
			*ret_count = 1;
		return 0;
	}
	d = open_listing(dirfd);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && ++seen <= SESSIONS_SCAN_MAX) {
		if (!session_name_valid(de->d_name) ||
		    strncmp(de->d_name, lower, len) != 0)
			continue;
		/* A valid name: the id, ".json" and its NUL. */
		if (!count++)
			memcpy(ret_name, de->d_name, SESSION_ID_LEN + 6);
	}
	if (ret_count)
		*ret_count = count;
	return count == 1 ? 0 : count ? -ENOTUNIQ : -ENOENT;
}

int session_prune_temporaries(int dirfd)
{
	_cleanup_closedir_ DIR *d = open_listing(dirfd);
	struct dirent *de;
	struct stat st;
	size_t len, seen = 0;
	time_t now = time(NULL);
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)) && ++seen <= SESSIONS_SCAN_MAX) {
		len = strlen(de->d_name);
		if (de->d_name[0] != '.' || len < 5 ||
		    strcmp(de->d_name + len - 4, ".tmp") != 0)
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_mtime > now - TEMPORARY_STALE_SEC)
			continue;
		if (unlinkat(dirfd, de->d_name, 0) == 0)
			n++;
	}
	return n;
}

int session_children(pid_t pid, int *ret, size_t max)
{
	_cleanup_closedir_ DIR *tasks = NULL;
	char path[64], buf[4096], *tok, *save;
	struct dirent *de;
	size_t n = 0, seen = 0;

	(void)snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	tasks = opendir(path);
	if (!tasks)
		return -errno;
	while ((de = readdir(tasks)) && ++seen <= SESSION_TASKS_MAX) {
		if (de->d_name[0] == '.')
			continue;
		(void)snprintf(path, sizeof(path), "/proc/%d/task/%.16s/children",
			       (int)pid, de->d_name);
		if (read_small(path, buf, sizeof(buf)) < 0)
			continue;
		save = NULL;
		for (tok = strtok_r(buf, " \n", &save); tok && n < max;
		     tok = strtok_r(NULL, " \n", &save)) {
			_cleanup_close_ int fd = -EBADF;
			unsigned long long start;
			pid_t child = (pid_t)strtol(tok, NULL, 10), ppid = 0;

			if (child <= 0)
				continue;
			fd = pidfd_open(child, 0);
			/* Its parent read after the pidfd, and it alive after. */
			if (fd < 0 || proc_stat(child, NULL, &ppid, &start) < 0 ||
			    ppid != pid || pidfd_send_signal(fd, 0, NULL, 0) < 0)
				continue;
			ret[n++] = TAKE_FD(fd);
		}
	}
	return (int)n;
}
