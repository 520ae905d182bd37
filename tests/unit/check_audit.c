// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_audit - the escaping and bounds of the audit records, and the
 * policy file's checks (src/audit/escape.c, record.c, policy.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "testlib.h"

START_TEST(escape_everything_but_printable)
{
	char buf[64];

	ck_assert(audit_escape("a b\n\"]\\\x1b\xc3\xa9", false, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "a\\x20b\\x0a\\x22\\x5d\\\\\\x1b\\xc3\\xa9");
	ck_assert(audit_escape("a b", true, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "a b");
}
END_TEST

START_TEST(escape_never_cuts_an_escape)
{
	char buf[6];

	/* "ab" fits; "\x0a" needs 4 more bytes and a NUL, with 4 left: stop. */
	ck_assert(!audit_escape("ab\ncd", false, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "ab");
	ck_assert(!audit_escape("abcde\\", false, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "abcde");
	ck_assert(!audit_escape("x", false, buf, 0));
}
END_TEST

START_TEST(argv_bounded_and_counted)
{
	static char big[200000];
	char *argv[] = { "sh", big, "x y", NULL };
	struct audit_entry *e = calloc(1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	memset(big, 'z', sizeof(big) - 1);
	audit_entry_set_argv(e, argv);
	ck_assert_uint_eq(e->argc, 3);
	ck_assert_uint_eq(e->argv_bytes, 2 + 1 + (sizeof(big) - 1) + 1 + 3);
	ck_assert(e->argv_truncated);
	ck_assert_uint_lt(strlen(e->argv), AUDIT_ARGV_MAX);
	argv[1] = "a\nb";
	audit_entry_set_argv(e, argv);
	ck_assert(!e->argv_truncated);
	ck_assert_str_eq(e->argv, "sh a\\x0ab x\\x20y");
	free(e);
}
END_TEST

START_TEST(setenv_names_only)
{
	char *setenv[] = { "TOKEN=s3cr3t", "B=", NULL };
	struct audit_entry *e = calloc(1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	audit_entry_set_setenv(e, setenv);
	ck_assert_str_eq(e->setenv_names, "TOKEN,B");
	free(e);
}
END_TEST

static int warnings;

static void count_warning(void *userdata, const char *msg)
{
	(void)userdata;
	(void)msg;
	warnings++;
}

START_TEST(policy_checks)
{
	struct audit_policy p = AUDIT_POLICY_DEFAULT;
	char *dir = tl_mkdtemp(), path[4096];

	(void)snprintf(path, sizeof(path), "%s/hijack.conf", dir);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	tl_write(dir, "hijack.conf",
		 "# comment\n audit = off \nrequire-reason=yes\non-audit-failure = refuse\n"
		 "recording = on\nbogus = 1\naudit = maybe\nno equals sign\n");
	ck_assert_int_eq(chmod(path, 0644), 0);
	warnings = 0;
	if (getuid() == 0) {
		ck_assert_int_eq(audit_policy_load(path, &p, count_warning, NULL), 0);
		ck_assert(!p.audit && p.require_reason && p.fail_closed && p.recording);
		/* The unknown key, the bad value, the line without "=". */
		ck_assert_int_eq(warnings, 3);
	}
	/* Writable by the group: ignored as a whole, one warning. */
	p = (struct audit_policy)AUDIT_POLICY_DEFAULT;
	warnings = 0;
	ck_assert_int_eq(chmod(path, 0664), 0);
	ck_assert_int_eq(audit_policy_load(path, &p, count_warning, NULL), -EPERM);
	ck_assert(p.audit && !p.require_reason && !p.fail_closed);
	ck_assert_int_eq(warnings, 1);
	/* A directory others may write in: the same. */
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(audit_policy_load(path, &p, count_warning, NULL), -EPERM);
	/* No file: the defaults, silently. */
	warnings = 0;
	ck_assert_int_eq(audit_policy_load("/nonexistent/hijack.conf", &p,
					   count_warning, NULL), -ENOENT);
	ck_assert_int_eq(warnings, 0);
	tl_rmtree(dir);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		escape_everything_but_printable, escape_never_cuts_an_escape,
		argv_bounded_and_counted, setenv_names_only, policy_checks,
	};
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("audit");
	size_t i;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
