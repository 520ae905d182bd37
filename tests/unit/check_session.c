// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_session - the live sessions' files (src/audit/session.c): what
 * is written, what is read back, and every file that must not be
 * believed; the process check against pid reuse; the end-session record.
 * The files are the caller's here (session_read()'s @owner), so that the
 * suite runs unprivileged; hijack itself asks for root's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit.h"
#include "testlib.h"

#define ID "0123456789abcdef0123456789abcdef"
#define NAME ID ".json"

/* A session of this process, as hijack would write it. */
static void make_session(struct live_session *s, const char *id)
{
	struct audit_entry *e = calloc(1, sizeof(*e));
	char *argv[] = { "sh", "-c", "printf '\033]0;x\a'\n\xc2\x9b", NULL };

	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(audit_entry_init(e), 0);
	(void)snprintf(e->session, sizeof(e->session), "%s", id);
	(void)snprintf(e->target, sizeof(e->target), "docker:web");
	(void)snprintf(e->engine, sizeof(e->engine), "docker");
	ck_assert(audit_escape("we\nb\x1b", false, e->name, sizeof(e->name)));
	e->target_pid = 1;
	e->mode = AUDIT_MODE_PTY;
	audit_entry_set_argv(e, argv);
	ck_assert_int_eq(session_from_entry(s, e), 0);
	free(e);
}

static int open_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	return fd;
}

/* Replace the session file with @text, 0600. */
static void plant(const char *dir, const char *name, const char *text)
{
	char path[4096];

	(void)snprintf(path, sizeof(path), "%s/%s", dir, name);
	(void)unlink(path);
	tl_write(dir, name, text);
	ck_assert_int_eq(chmod(path, 0600), 0);
}

START_TEST(names_and_prefixes)
{
	ck_assert(session_name_valid(NAME));
	ck_assert(!session_name_valid("0123456789ABCDEF0123456789abcdef.json"));
	ck_assert(!session_name_valid(ID));
	ck_assert(!session_name_valid(ID ".json.tmp"));
	ck_assert(!session_name_valid("." ID ".1.tmp"));
	ck_assert(session_id_prefix_valid("01234567"));
	ck_assert(session_id_prefix_valid("0123456789ABCDEF"));
	ck_assert(session_id_prefix_valid(ID));
	ck_assert(!session_id_prefix_valid("0123456"));
	ck_assert(!session_id_prefix_valid(ID "0"));
	ck_assert(!session_id_prefix_valid("0123456g"));
	ck_assert(!session_id_prefix_valid("../../etc/passwd"));
	ck_assert(!session_id_prefix_valid(""));
}
END_TEST

START_TEST(display_escape)
{
	char buf[64];

	/* Escaped text passes as it is; anything else is \xHH. */
	ck_assert(audit_escape_display("a\\x0ab c", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "a\\x0ab c");
	ck_assert(audit_escape_display("\x1b[2J\n\xc2\x9b\x9b\x7f", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "\\x1b[2J\\x0a\\xc2\\x9b\\x9b\\x7f");
	ck_assert(!audit_escape_display("abc\n", buf, 6));
	ck_assert_str_eq(buf, "abc");
}
END_TEST

START_TEST(publish_and_read_back)
{
	struct live_session *s = calloc(1, sizeof(*s)), *r = calloc(1, sizeof(*r));
	char *dir = tl_mkdtemp(), why[512], path[4096];
	struct stat st;
	int fd;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(r);
	make_session(s, ID);
	fd = open_dir(dir);
	ck_assert_int_eq(session_publish(fd, s), 0);
	(void)snprintf(path, sizeof(path), "%s/" NAME, dir);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	ck_assert_uint_eq(st.st_nlink, 1);
	/* Never twice: the id is the file's. */
	ck_assert_int_eq(session_publish(fd, s), -EEXIST);
	ck_assert_int_eq(session_read(fd, NAME, getuid(), r, why, sizeof(why)), 0);
	ck_assert_str_eq(r->id, ID);
	ck_assert_str_eq(r->argv, s->argv);
	/* What was escaped stays so: nothing raw comes back. */
	ck_assert_str_eq(r->name, "we\\x0ab\\x1b");
	ck_assert_ptr_null(strchr(r->argv, '\033'));
	ck_assert_str_eq(r->engine, "docker");
	ck_assert_int_eq(r->mode, AUDIT_MODE_PTY);
	ck_assert_int_eq(r->hijack.pid, getpid());
	ck_assert_uint_eq(r->hijack.start_time, s->hijack.start_time);
	ck_assert_uint_eq(r->hijack.exe_ino, s->hijack.exe_ino);
	ck_assert_str_eq(r->hijack.boot_id, s->hijack.boot_id);
	ck_assert_uint_eq(r->since_usec, s->since_usec);
	ck_assert(!r->ending.set);
	/* Another owner than the one asked for: not believed. */
	ck_assert_int_eq(session_read(fd, NAME, getuid() + 1, r, why, sizeof(why)),
			 -EPERM);
	(void)close(fd);
	tl_rmtree(dir);
	free(s);
	free(r);
}
END_TEST

START_TEST(files_not_believed)
{
	struct live_session *s = calloc(1, sizeof(*s));
	char *dir = tl_mkdtemp(), why[512], path[4096], other[4096];
	char *big = malloc(SESSION_FILE_MAX + 2);
	int fd;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(big);
	fd = open_dir(dir);
	(void)snprintf(path, sizeof(path), "%s/" NAME, dir);

	/* A symlink, even to a good file: never followed. */
	make_session(s, "ffffffffffffffffffffffffffffffff");
	ck_assert_int_eq(session_publish(fd, s), 0);
	ck_assert_int_eq(symlink("ffffffffffffffffffffffffffffffff.json", path), 0);
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -ELOOP);
	ck_assert_str_eq(why, "a symlink");
	ck_assert_int_eq(unlink(path), 0);

	/* A FIFO: refused before it is opened (an open would block). */
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EINVAL);
	ck_assert_int_eq(unlink(path), 0);

	/* Readable by others, or a second link. */
	make_session(s, ID);
	ck_assert_int_eq(session_publish(fd, s), 0);
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EPERM);
	ck_assert_int_eq(chmod(path, 0600), 0);
	(void)snprintf(other, sizeof(other), "%s/hardlink", dir);
	ck_assert_int_eq(link(path, other), 0);
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EPERM);
	ck_assert_int_eq(unlink(other), 0);

	/* Larger than the bound. */
	memset(big, ' ', SESSION_FILE_MAX + 1);
	big[SESSION_FILE_MAX + 1] = '\0';
	plant(dir, NAME, big);
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EFBIG);

	/* Not JSON, JSON of the wrong shape, raw control characters. */
	plant(dir, NAME, "{\"version\": 1, \"session\": \x1b");
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EBADMSG);
	plant(dir, NAME, "[1, 2, 3]");
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EBADMSG);
	plant(dir, NAME, "{\"version\": 2}");
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EBADMSG);
	ck_assert_str_eq(why, "\"version\": out of range");
	plant(dir, NAME, "{\"version\": 1, \"version\": 1}");
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EBADMSG);
	plant(dir, NAME, "{\"version\": 1, \"session\": \"a\\u0000b\"}");
	ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)), -EBADMSG);
	(void)unlink(path);

	/* A good file changed one field at a time. */
	{
		static const struct {
			const char *from, *to, *why;
		} edits[] = {
			{ "\"mode\":\"pty\"", "\"mode\":\"root-shell\"", "\"mode\": unknown" },
			{ "\"mode\":\"pty\"", "\"mode\":7", "\"mode\": missing or not a string" },
			{ "\"engine\":\"docker\"", "\"engine\":\"dock\\u001b[2Jer\"",
			  "\"engine\": not escaped text" },
			{ "\"engine\":\"docker\"", "\"engine\":\"\\u009b\"",
			  "\"engine\": not escaped text" },
			{ "\"tty\":\"", "\"tty\":\"x\\u007f", "\"tty\": not escaped text" },
			{ "\"session\":\"" ID, "\"session\":\"" "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
			  "its session id is not its name's" },
			{ "\"version\":1", "\"version\":\"1\"", "\"version\": missing or not an integer" },
		};
		size_t i;

		for (i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
			char text[8192], *at, edited[8192];
			FILE *f;
			size_t n;

			make_session(s, ID);
			(void)unlink(path);
			ck_assert_int_eq(session_publish(fd, s), 0);
			f = fopen(path, "re");
			ck_assert_ptr_nonnull(f);
			n = fread(text, 1, sizeof(text) - 1, f);
			text[n] = '\0';
			(void)fclose(f);
			at = strstr(text, edits[i].from);
			ck_assert_msg(at != NULL, "%s not in %s", edits[i].from, text);
			(void)snprintf(edited, sizeof(edited), "%.*s%s%s", (int)(at - text),
				       text, edits[i].to, at + strlen(edits[i].from));
			plant(dir, NAME, edited);
			ck_assert_int_eq(session_read(fd, NAME, getuid(), s, why, sizeof(why)),
					 -EBADMSG);
			ck_assert_str_eq(why, edits[i].why);
		}
	}
	(void)close(fd);
	tl_rmtree(dir);
	free(big);
	free(s);
}
END_TEST

START_TEST(process_checks)
{
	struct live_session *s = calloc(1, sizeof(*s));
	struct session_proc p;
	int pidfd = -1, status;
	pid_t child;

	ck_assert_ptr_nonnull(s);
	make_session(s, ID);
	ck_assert_int_eq(session_proc_check(&s->hijack, &pidfd), SESSION_RUNNING);
	ck_assert_int_ge(pidfd, 0);
	(void)close(pidfd);
	/* The same pid, started at another time: another process. */
	p = s->hijack;
	p.start_time++;
	ck_assert_int_eq(session_proc_check(&p, NULL), SESSION_ENDED);
	/* The same pid and start, another program. */
	p = s->hijack;
	p.exe_ino++;
	ck_assert_int_eq(session_proc_check(&p, NULL), SESSION_ENDED);
	/* Another boot's file. */
	p = s->hijack;
	p.boot_id[0] = p.boot_id[0] == '0' ? '1' : '0';
	ck_assert_int_eq(session_proc_check(&p, NULL), SESSION_ENDED);
	/* Another pid namespace's pids: cannot be told here. */
	p = s->hijack;
	p.pidns_ino++;
	ck_assert_int_eq(session_proc_check(&p, NULL), -EXDEV);
	/* A pid that has exited and been reaped. */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	p = s->hijack;
	p.pid = child;
	ck_assert_int_eq(session_proc_check(&p, NULL), SESSION_ENDED);
	/* A zombie: ended, though its pid still answers. */
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0)
		_exit(0);
	ck_assert_int_eq(waitid(P_PID, (id_t)child, &(siginfo_t){ 0 },
				WEXITED | WNOWAIT), 0);
	p = s->hijack;
	p.pid = child;
	ck_assert_int_eq(session_proc_check(&p, NULL), SESSION_ENDED);
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	free(s);
}
END_TEST

START_TEST(marker_only_while_there)
{
	struct live_session *s = calloc(1, sizeof(*s)), *r = calloc(1, sizeof(*r));
	struct session_ending end = { .uid = 7, .loginuid = 1000, .pid = 42, .usec = 5 };
	char *dir = tl_mkdtemp(), why[512], path[4096];
	int fd;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(r);
	fd = open_dir(dir);
	make_session(s, ID);
	ck_assert_int_eq(session_publish(fd, s), 0);
	ck_assert_int_eq(session_mark_ending(fd, s, &end), 0);
	ck_assert_int_eq(session_read(fd, NAME, getuid(), r, why, sizeof(why)), 0);
	ck_assert(r->ending.set);
	ck_assert_uint_eq(r->ending.uid, 7);
	ck_assert_uint_eq(r->ending.loginuid, 1000);
	ck_assert_int_eq(r->ending.pid, 42);
	ck_assert_str_eq(r->argv, s->argv);
	/* Its hijack removed it: the marker makes no new file. */
	(void)snprintf(path, sizeof(path), "%s/" NAME, dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(session_mark_ending(fd, s, &end), -ENOENT);
	ck_assert_int_eq(access(path, F_OK), -1);
	/* And leaves no temporary file behind either way. */
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	(void)close(fd);
	tl_rmtree(dir);
	free(s);
	free(r);
}
END_TEST

static char warned[4096];

static void note(void *userdata, const char *msg)
{
	size_t n = strlen(warned);

	(void)userdata;
	(void)snprintf(warned + n, sizeof(warned) - n, "%s|", msg);
}

START_TEST(listing_and_finding)
{
	struct live_session *s = calloc(1, sizeof(*s)), *v = NULL;
	char *dir = tl_mkdtemp(), name[48], path[4096];
	size_t n = 0, count = 0;
	int fd;

	ck_assert_ptr_nonnull(s);
	fd = open_dir(dir);
	make_session(s, "aaaaaaaa00000000000000000000000b");
	s->since_usec = 200;
	ck_assert_int_eq(session_publish(fd, s), 0);
	make_session(s, "aaaaaaaa00000000000000000000000a");
	s->since_usec = 100;
	ck_assert_int_eq(session_publish(fd, s), 0);
	make_session(s, "bbbbbbbb00000000000000000000000a");
	s->since_usec = 300;
	ck_assert_int_eq(session_publish(fd, s), 0);
	plant(dir, "cccccccc00000000000000000000000a.json", "not json");
	plant(dir, "notes.txt", "x");
	plant(dir, ".dddddddd00000000000000000000000a.1.tmp", "half");
	(void)snprintf(path, sizeof(path), "%s/eeeeeeee00000000000000000000000a.json", dir);
	ck_assert_int_eq(symlink("/etc/passwd", path), 0);

	warned[0] = '\0';
	ck_assert_int_eq(session_list(fd, getuid(), &v, &n, note, NULL), 0);
	ck_assert_uint_eq(n, 3);
	/* Oldest first. */
	ck_assert_str_eq(v[0].id, "aaaaaaaa00000000000000000000000a");
	ck_assert_str_eq(v[1].id, "aaaaaaaa00000000000000000000000b");
	ck_assert_str_eq(v[2].id, "bbbbbbbb00000000000000000000000a");
	ck_assert_msg(strstr(warned, "cccccccc00000000000000000000000a.json: not JSON") != NULL,
		      "%s", warned);
	ck_assert_msg(strstr(warned, "eeeeeeee00000000000000000000000a.json: a symlink, skipped") != NULL,
		      "%s", warned);
	ck_assert_msg(strstr(warned, "notes.txt: not a session file, skipped") != NULL,
		      "%s", warned);
	/* The temporary file is not mentioned: writers' own. */
	ck_assert_ptr_null(strstr(warned, ".tmp"));
	free(v);

	ck_assert_int_eq(session_find(fd, "bbbbbbbb", name, &count), 0);
	ck_assert_str_eq(name, "bbbbbbbb00000000000000000000000a.json");
	ck_assert_int_eq(session_find(fd, "AAAAAAAA", name, &count), -ENOTUNIQ);
	ck_assert_uint_eq(count, 2);
	ck_assert_int_eq(session_find(fd, "aaaaaaaa00000000000000000000000b", name, &count), 0);
	ck_assert_int_eq(session_find(fd, "99999999", name, &count), -ENOENT);
	ck_assert_int_eq(session_find(fd, "../etc/x", name, &count), -EINVAL);
	(void)close(fd);
	tl_rmtree(dir);
	free(s);
}
END_TEST

START_TEST(directory_checks)
{
	char *dir = tl_mkdtemp(), sub[4096], why[512], link[4096];
	struct stat st;
	int fd;

	(void)snprintf(sub, sizeof(sub), "%s/hijack/sessions", dir);
	ck_assert_int_eq(session_dir_open(sub, false, getuid(), why, sizeof(why)),
			 -ENOENT);
	fd = session_dir_open(sub, true, getuid(), why, sizeof(why));
	ck_assert_msg(fd >= 0, "%s", why);
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	(void)close(fd);
	ck_assert_int_eq(chmod(sub, 0770), 0);
	ck_assert_int_lt(session_dir_open(sub, false, getuid(), why, sizeof(why)), 0);
	ck_assert_msg(strstr(why, "writable by group or others") != NULL, "%s", why);
	ck_assert_int_eq(chmod(sub, 0700), 0);
	/* A symlink anywhere on the way. */
	(void)snprintf(link, sizeof(link), "%s/link", dir);
	(void)snprintf(sub, sizeof(sub), "%s/hijack", dir);
	ck_assert_int_eq(symlink(sub, link), 0);
	(void)snprintf(sub, sizeof(sub), "%s/link/sessions", dir);
	/* O_NOFOLLOW with O_DIRECTORY: ENOTDIR or ELOOP, by kernel. */
	fd = session_dir_open(sub, true, getuid(), why, sizeof(why));
	ck_assert(fd == -ENOTDIR || fd == -ELOOP);
	ck_assert_msg(strstr(why, "/link: a symlink or not a directory") != NULL,
		      "%s", why);
	ck_assert_int_eq(session_dir_open("relative/dir", false, getuid(), why,
					  sizeof(why)), -EINVAL);
	tl_rmtree(dir);
}
END_TEST

START_TEST(end_session_fields)
{
	struct audit_entry *e = calloc(1, sizeof(*e));
	struct audit_kv kv[AUDIT_FIELDS_MAX];
	char buf[1024], summary[1024];
	size_t n, i;
	bool outcome = false, start_file = false;

	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(audit_entry_init(e), 0);
	(void)snprintf(e->target, sizeof(e->target), "lxc:web");
	(void)snprintf(e->outcome, sizeof(e->outcome), "hangup");
	(void)snprintf(e->session_file, sizeof(e->session_file), "none:unprivileged");
	e->ended_uid = 1000;
	n = audit_fields(e, AUDIT_END_SESSION, kv, buf, sizeof(buf));
	for (i = 0; i < n; i++) {
		if (strcmp(kv[i].key, "outcome") == 0)
			outcome = strcmp(kv[i].value, "hangup") == 0;
		ck_assert_str_ne(kv[i].key, "exit_status");
		ck_assert_str_ne(kv[i].key, "argc");
	}
	ck_assert(outcome);
	ck_assert_str_eq(kv[0].value, "end-session");
	audit_summary(e, AUDIT_END_SESSION, summary, sizeof(summary));
	ck_assert_msg(strstr(summary, "ended session") && strstr(summary, "of uid 1000"),
		      "%s", summary);
	n = audit_fields(e, AUDIT_START, kv, buf, sizeof(buf));
	for (i = 0; i < n; i++)
		if (strcmp(kv[i].key, "session_file") == 0)
			start_file = strcmp(kv[i].value, "none:unprivileged") == 0;
	ck_assert(start_file);
	e->ended_by_set = true;
	e->ended_by_uid = 0;
	n = audit_fields(e, AUDIT_END, kv, buf, sizeof(buf));
	for (i = 0; i < n && strcmp(kv[i].key, "ended_by"); i++)
		;
	ck_assert_uint_lt(i, n);
	ck_assert_str_eq(kv[i].value, "end-session");
	free(e);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		names_and_prefixes, display_escape, publish_and_read_back,
		files_not_believed, process_checks, marker_only_while_there,
		listing_and_finding, directory_checks, end_session_fields,
	};
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("session");
	size_t i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
