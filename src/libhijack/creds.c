// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * creds.c - uids, gids and supplementary groups: read the target's,
 * resolve --user/--group inside its root, and become them.
 */
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "internal.h"

void hj_creds_free(struct hijack_creds *c)
{
	free(c->groups);
	c->groups = NULL;
	c->ngroups = 0;
}

static int parse_ids(const char *s, unsigned long ids[4])
{
	return sscanf(s, "%lu %lu %lu %lu", &ids[0], &ids[1], &ids[2],
		      &ids[3]) == 4 ? 0 : -EBADMSG;
}

bool hj_creds_same(const struct hijack_creds *a, const struct hijack_creds *b)
{
	return a->uid == b->uid && a->euid == b->euid && a->suid == b->suid &&
	       a->fsuid == b->fsuid && a->gid == b->gid && a->egid == b->egid &&
	       a->sgid == b->sgid && a->fsgid == b->fsgid &&
	       a->ngroups == b->ngroups &&
	       (!a->ngroups ||
		memcmp(a->groups, b->groups, a->ngroups * sizeof(gid_t)) == 0);
}

/*
 * Ids in /proc/PID/status are as the caller's user namespace sees them;
 * the command needs them as the target's sees them, because it will call
 * setresuid() from inside.  Without a user namespace of its own both are
 * the same.
 */
static int to_target_ns(const struct hijack_target *t, bool userns,
			const char *map, unsigned long *id)
{
	if (!userns)
		return 0;
	return hj_proc_map_id(t, map, *id, id);
}

int hj_creds_read(const struct hijack_target *t, const char *status,
		  bool userns, struct hijack_creds *ret, struct hijack_diag *d)
{
	struct hijack_creds c = { 0 };
	unsigned long u[4], g[4], id;
	char line[4096], *p, *end;
	int r, i;

	if ((r = hj_status_field(status, "Uid", line, sizeof(line))) < 0 ||
	    (r = parse_ids(line, u)) < 0 ||
	    (r = hj_status_field(status, "Gid", line, sizeof(line))) < 0 ||
	    (r = parse_ids(line, g)) < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, r,
				   "/proc/%d/status: uids and gids", (int)t->pid);
	for (i = 0; i < 4; i++) {
		if ((r = to_target_ns(t, userns, "uid_map", &u[i])) < 0 ||
		    (r = to_target_ns(t, userns, "gid_map", &g[i])) < 0)
			return hj_diag_set(d, HIJACK_STEP_CREDS, r,
					   "ids of pid %d in its user namespace",
					   (int)t->pid);
	}
	c.uid = u[0], c.euid = u[1], c.suid = u[2], c.fsuid = u[3];
	c.gid = g[0], c.egid = g[1], c.sgid = g[2], c.fsgid = g[3];

	r = hj_status_field(status, "Groups", line, sizeof(line));
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, r,
				   "/proc/%d/status: groups", (int)t->pid);
	for (p = line; *p; p = end) {
		gid_t *ng;

		errno = 0;
		id = strtoul(p, &end, 10);
		if (end == p)
			break;
		/* Groups unmapped in its namespace mean nothing inside: skip. */
		if (to_target_ns(t, userns, "gid_map", &id) < 0)
			continue;
		ng = realloc(c.groups, (c.ngroups + 1) * sizeof(*ng));
		if (!ng) {
			hj_creds_free(&c);
			return hj_diag_set(d, HIJACK_STEP_CREDS, ENOMEM, "groups");
		}
		c.groups = ng;
		c.groups[c.ngroups++] = (gid_t)id;
	}
	*ret = c;
	return 0;
}

static bool is_number(const char *s, unsigned long *ret)
{
	char *end;

	/*
	 * Digits only: strtoul() would also take leading blanks, a sign and
	 * a negation that wraps ("-18446744069414584322" is 4294967294).
	 */
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*ret = strtoul(s, &end, 10);
	return !errno && !*end && *ret < (unsigned long)(uid_t)-1;
}

/* Larger account files than this are refused rather than read in part. */
#define ACCOUNT_FILE_MAX (16u << 20)

/* An account file of the container, in memory, for the libc parsers. */
struct account_file {
	FILE *f;	/* NULL: there is no such file */
	char *buf;
	bool read;	/* looked for already: rewind, do not read again */
};

static void account_file_close(struct account_file *a)
{
	if (a->f)
		fclose(a->f);
	free(a->buf);
	*a = (struct account_file){ 0 };
}

/*
 * A file of the target's root @rootfd, e.g. "etc/passwd", read as the
 * container sees it (hj_root_read()): hostile input that may be a symlink
 * out of the container, a FIFO or a device.  No such file is not an
 * error: --user with a number needs none.  Read once per entry: a second
 * call rewinds what the first read.
 */
static int account_file_open(const struct hijack_target *t, int rootfd,
			     const char *rel, struct account_file *a,
			     struct hijack_diag *d)
{
	size_t len;
	int r;

	if (a->read) {
		if (a->f)
			rewind(a->f);
		return 0;
	}
	a->read = true;
	r = hj_root_read(rootfd, rel, ACCOUNT_FILE_MAX, &a->buf, &len);
	if (r == -ENOENT)
		return 0;
	if (r == -EINVAL)
		return hj_diag_set(d, HIJACK_STEP_CREDS, EINVAL,
				   "/%s of pid %d is not a regular file", rel,
				   (int)t->pid);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_CREDS, r, "/%s of pid %d", rel,
				   (int)t->pid);
	/* fmemopen() refuses a size of 0: an empty file holds no entry. */
	if (!len)
		return 0;
	a->f = fmemopen(a->buf, len, "r");
	if (!a->f)
		return hj_diag_set(d, HIJACK_STEP_CREDS, errno, "/%s", rel);
	return 0;
}

/* The supplementary groups @grp (the target's /etc/group) gives @name. */
static int groups_of(FILE *grp, const char *name, gid_t primary,
		     struct hijack_creds *c, struct hijack_diag *d)
{
	struct group *gr;
	char **m;
	gid_t *ng;

	c->ngroups = 0;
	free(c->groups);
	c->groups = malloc(sizeof(gid_t));
	if (!c->groups)
		return hj_diag_set(d, HIJACK_STEP_CREDS, ENOMEM, "groups of '%s'",
				   name);
	c->groups[c->ngroups++] = primary;
	while (grp && (gr = fgetgrent(grp))) {
		for (m = gr->gr_mem; *m; m++)
			if (strcmp(*m, name) == 0)
				break;
		if (!*m || gr->gr_gid == primary)
			continue;
		ng = realloc(c->groups, (c->ngroups + 1) * sizeof(*ng));
		if (!ng)
			return hj_diag_set(d, HIJACK_STEP_CREDS, ENOMEM,
					   "groups of '%s'", name);
		c->groups = ng;
		c->groups[c->ngroups++] = gr->gr_gid;
	}
	return 0;
}

/*
 * An account database of the container (/etc/passwd, /etc/group): its
 * file, and how an entry of it is read and matched.
 */
struct account_db {
	const char *rel;	/* under the target's root */
	const char *what;	/* for messages: "user" */
	void *(*next)(FILE *f);
	bool (*is)(const void *ent, const char *name, bool numeric,
		   unsigned long id);
	struct account_file file;
};

static void account_db_close(struct account_db *db)
{
	account_file_close(&db->file);
}

static void *next_user(FILE *f)
{
	return fgetpwent(f);
}

static bool user_is(const void *ent, const char *name, bool numeric,
		    unsigned long id)
{
	const struct passwd *pw = ent;

	return numeric ? pw->pw_uid == id : strcmp(pw->pw_name, name) == 0;
}

static void *next_group(FILE *f)
{
	return fgetgrent(f);
}

static bool group_is(const void *ent, const char *name, bool numeric,
		     unsigned long id)
{
	const struct group *gr = ent;

	return numeric ? gr->gr_gid == id : strcmp(gr->gr_name, name) == 0;
}

/*
 * Look @name up in @db: the entry of that name or, for a number, of that
 * id.  A number needs no entry: *@ret is then NULL and *@ret_id the
 * number; a name must have one.  The entry lives until the next lookup.
 */
static int account_find(const struct hijack_target *t, int rootfd,
			struct account_db *db, const char *name, void **ret,
			unsigned long *ret_id, struct hijack_diag *d)
{
	unsigned long id = 0;
	bool numeric = is_number(name, &id);
	void *ent = NULL;
	int r;

	r = account_file_open(t, rootfd, db->rel, &db->file, d);
	if (r < 0)
		return r;
	while (db->file.f && (ent = db->next(db->file.f)))
		if (db->is(ent, name, numeric, id))
			break;
	if (!ent && !numeric)
		return hj_diag_set(d, HIJACK_STEP_CREDS, ENOENT,
				   "%s '%s' in /%s of pid %d", db->what, name,
				   db->rel, (int)t->pid);
	*ret = ent;
	*ret_id = id;
	return 0;
}

/*
 * --user and --group: names are looked up in the target's root, because
 * that is where the ids mean something; numbers are taken as they are.
 * The root and each file are opened once, however many lookups use them.
 */
int hj_creds_override(const struct hijack_target *t, const char *user,
		      const char *group, struct hijack_creds *c,
		      struct hijack_diag *d)
{
	_cleanup_(account_db_close) struct account_db pwd = {
		.rel = "etc/passwd", .what = "user", .next = next_user,
		.is = user_is,
	};
	_cleanup_(account_db_close) struct account_db grp = {
		.rel = "etc/group", .what = "group", .next = next_group,
		.is = group_is,
	};
	_cleanup_close_ int rootfd = -EBADF;
	struct passwd *pw;
	struct group *gr;
	unsigned long id;
	void *ent;
	int r;

	if (!user && !group)
		return 0;
	rootfd = openat(t->procfd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return hj_diag_set(d, HIJACK_STEP_OPEN, errno, "/proc/%d/root",
				   (int)t->pid);
	if (user) {
		r = account_find(t, rootfd, &pwd, user, &ent, &id, d);
		if (r < 0)
			return r;
		pw = ent;
		c->uid = c->euid = c->suid = c->fsuid = pw ? pw->pw_uid : id;
		if (pw) {
			c->gid = c->egid = c->sgid = c->fsgid = pw->pw_gid;
			r = account_file_open(t, rootfd, grp.rel, &grp.file, d);
			if (r < 0)
				return r;
			r = groups_of(grp.file.f, pw->pw_name, pw->pw_gid, c, d);
			if (r < 0)
				return r;
		} else {
			/* A uid without an entry keeps the gid, and no groups. */
			hj_creds_free(c);
		}
	}
	if (group) {
		r = account_find(t, rootfd, &grp, group, &ent, &id, d);
		if (r < 0)
			return r;
		gr = ent;
		c->gid = c->egid = c->sgid = c->fsgid = gr ? gr->gr_gid : id;
	}
	return 0;
}

/*
 * Become @c.  Capabilities are kept across the uid change (PR_SET_KEEPCAPS)
 * because the capability step after this one still needs CAP_SETPCAP; it
 * sets the final sets itself.
 */
int hj_creds_apply(const struct hijack_creds *c, struct hijack_diag *d)
{
	if (setgroups(c->ngroups, c->groups) < 0) {
		/*
		 * A user namespace whose setgroups is "deny" (as unprivileged
		 * ones are) cannot change groups at all: the command keeps
		 * the ones entering gave it, which it shows as the overflow
		 * gid.  Anything else is a real failure.
		 */
		int err = errno;
		char buf[8] = "";

		(void)hj_read_line("/proc/self/setgroups", buf, sizeof(buf));
		if (err != EPERM || strncmp(buf, "deny", 4) != 0)
			return hj_diag_set(d, HIJACK_STEP_CREDS, err,
					   "setgroups (%zu groups)", c->ngroups);
	}
	if (setresgid(c->gid, c->egid, c->sgid) < 0)
		return hj_diag_set(d, HIJACK_STEP_CREDS, errno,
				   "setresgid %u %u %u", (unsigned int)c->gid,
				   (unsigned int)c->egid, (unsigned int)c->sgid);
	if (prctl(PR_SET_KEEPCAPS, 1) < 0)
		return hj_diag_set(d, HIJACK_STEP_CREDS, errno, "PR_SET_KEEPCAPS");
	if (setresuid(c->uid, c->euid, c->suid) < 0)
		return hj_diag_set(d, HIJACK_STEP_CREDS, errno,
				   "setresuid %u %u %u", (unsigned int)c->uid,
				   (unsigned int)c->euid, (unsigned int)c->suid);
	return 0;
}
