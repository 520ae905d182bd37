// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_env - the command's environment (src/libhijack/env.c): the
 * target's from a fixture environ file, the caller's, none, and --setenv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

static char *dir;
static struct hijack_target t = { .pidfd = -EBADF, .procfd = -EBADF };

static void setup(void)
{
	t.procfd = tl_fixture_open(&dir);
	t.pid = getpid();
}

static void teardown(void)
{
	tl_fixture_close(&dir, t.procfd);
}

/* An environ file: NUL-separated, as the kernel shows it. */
static void write_environ(const char *data, size_t len)
{
	char path[1100];
	FILE *f;

	(void)snprintf(path, sizeof(path), "%s/environ", dir);
	f = fopen(path, "we");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static size_t count(char **envp)
{
	size_t n = 0;

	while (envp[n])
		n++;
	return n;
}

START_TEST(valid_assignments)
{
	ck_assert(hijack_env_valid("A=1"));
	ck_assert(hijack_env_valid("A="));
	ck_assert(hijack_env_valid("A=B=C"));
	ck_assert(hijack_env_valid("PATH=/bin:/usr/bin"));
	ck_assert(!hijack_env_valid("=1"));
	ck_assert(!hijack_env_valid("="));
	ck_assert(!hijack_env_valid("A"));
	ck_assert(!hijack_env_valid(""));
}
END_TEST

START_TEST(from_target)
{
	static const char environ_file[] =
		"A=1\0B=2\0=hidden\0noassignment\0A=3\0EMPTY=\0";
	char *const assign[] = { "B=override", "C=new", NULL };
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan p = { 0 };
	struct hijack_diag d = { 0 };

	/* Malformed entries are dropped; a later one of a name wins. */
	write_environ(environ_file, sizeof(environ_file) - 1);
	o.env = HIJACK_FROM_TARGET;
	o.setenv = assign;
	(void)unsetenv("TERM");
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	ck_assert_uint_eq(count(p.envp), 4);
	ck_assert_str_eq(p.envp[0], "A=3");
	ck_assert_str_eq(p.envp[1], "B=override");
	ck_assert_str_eq(p.envp[2], "EMPTY=");
	ck_assert_str_eq(p.envp[3], "C=new");
	hj_env_free(p.envp);
}
END_TEST

START_TEST(from_empty_or_missing_target)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan p = { 0 };
	struct hijack_diag d = { 0 };

	o.env = HIJACK_FROM_TARGET;
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), -ENOENT);
	ck_assert_int_eq(d.step, HIJACK_STEP_ENV);
	ck_assert_ptr_null(p.envp);
	/* A kernel thread, or a process that cleared it, has none. */
	write_environ("", 0);
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	ck_assert_uint_eq(count(p.envp), 0);
	hj_env_free(p.envp);
	/* No trailing NUL on the last entry. */
	write_environ("X=1\0Y=2", 7);
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	ck_assert_uint_eq(count(p.envp), 2);
	ck_assert_str_eq(p.envp[1], "Y=2");
	hj_env_free(p.envp);
}
END_TEST

START_TEST(from_target_bounded)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan p = { 0 };
	struct hijack_diag d = { 0 };
	size_t size = 7u << 20, i;
	char *big = malloc(size);

	ck_assert_ptr_nonnull(big);
	o.env = HIJACK_FROM_TARGET;
	(void)unsetenv("TERM");
	/* More than exec passes: refused, naming the file and the bound. */
	memset(big, 'a', size);
	memcpy(big, "A=", 2);
	write_environ(big, size);
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), -EFBIG);
	ck_assert_int_eq(d.step, HIJACK_STEP_ENV);
	ck_assert_ptr_nonnull(strstr(d.detail, "environ is larger than 6 MiB"));
	ck_assert_ptr_null(p.envp);
	/* Within the bytes, but too many strings for exec's count. */
	for (i = 0; i + 4 <= (5u << 20); i += 4)
		memcpy(big + i, "A=1", 4);
	write_environ(big, 5u << 20);
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), -E2BIG);
	/* 100000 names, 50000 different: each once, in order, quickly. */
	memset(big, 0, size);
	for (i = 0; i < 100000; i++)
		(void)snprintf(big + 10 * i, 10, "V%06zu=", i % 50000);
	write_environ(big, 10 * 100000);
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	ck_assert_str_eq(p.envp[0], "V000000=");
	ck_assert_str_eq(p.envp[49999], "V049999=");
	ck_assert_ptr_null(p.envp[50000]);
	hj_env_free(p.envp);
	free(big);
}
END_TEST

START_TEST(keep_and_none)
{
	char *const assign[] = { "HJ_UNIT_B=2", NULL };
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan p = { 0 };
	struct hijack_diag d = { 0 };
	size_t i, found = 0;

	ck_assert_int_eq(setenv("HJ_UNIT_A", "1", 1), 0);
	ck_assert_int_eq(setenv("HJ_UNIT_B", "1", 1), 0);
	o.env = HIJACK_KEEP;
	o.setenv = assign;
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	for (i = 0; p.envp[i]; i++) {
		found += strcmp(p.envp[i], "HJ_UNIT_A=1") == 0;
		found += strcmp(p.envp[i], "HJ_UNIT_B=2") == 0;
		ck_assert_str_ne(p.envp[i], "HJ_UNIT_B=1");
	}
	ck_assert_uint_eq(found, 2);
	hj_env_free(p.envp);
	o.env = HIJACK_NONE;
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	ck_assert_uint_eq(count(p.envp), 1);
	ck_assert_str_eq(p.envp[0], "HJ_UNIT_B=2");
	hj_env_free(p.envp);
	hj_env_free(NULL);
}
END_TEST

/* HIJACK_RESET: the caller's terminal and locale, nothing that runs code. */
START_TEST(reset)
{
	static const char *const kept[] = {
		"TERM=xterm", "LANG=C.UTF-8", "LC_ALL=C", "COLUMNS=80", "TZ=UTC",
	};
	static const char *const dropped[] = {
		"LD_PRELOAD=/x.so", "BASH_ENV=/x", "ENV=/x", "PYTHONPATH=/x",
		"PERL5OPT=-Mx", "GCONV_PATH=/x", "HOME=/x", "PATH=.", "LC_=x",
		"TERMINFO=/x", "LANGX=1",
	};
	char *const path[] = { "PATH=/opt/bin", NULL };
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan p = { 0 };
	struct hijack_diag d = { 0 };
	size_t i;

	ck_assert_int_eq(clearenv(), 0);
	for (i = 0; i < ARRAY_SIZE(kept); i++)
		ck_assert_int_eq(putenv((char *)kept[i]), 0);
	for (i = 0; i < ARRAY_SIZE(dropped); i++)
		ck_assert_int_eq(putenv((char *)dropped[i]), 0);
	o.env = HIJACK_RESET;
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	ck_assert_uint_eq(count(p.envp), ARRAY_SIZE(kept) + 2);
	for (i = 0; i < ARRAY_SIZE(kept); i++)
		ck_assert_str_eq(p.envp[i], kept[i]);
	/* Neither the caller's PATH and HOME nor the target's: fixed ones. */
	ck_assert_str_eq(p.envp[i],
			 "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	ck_assert_str_eq(p.envp[i + 1], "HOME=/");
	hj_env_free(p.envp);

	/* --setenv still has the last word. */
	o.setenv = path;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), 0);
	ck_assert_str_eq(p.envp[ARRAY_SIZE(kept)], "PATH=/opt/bin");
	hj_env_free(p.envp);
}
END_TEST

START_TEST(malformed_setenv)
{
	char *const assign[] = { "GOOD=1", "=bad", NULL };
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan p = { 0 };
	struct hijack_diag d = { 0 };

	o.env = HIJACK_NONE;
	o.setenv = assign;
	p.env_mode = o.env;
	ck_assert_int_eq(hj_env_plan(&t, &o, &p, &d), -EINVAL);
	ck_assert_int_eq(d.step, HIJACK_STEP_ENV);
	ck_assert_str_eq(d.detail, "malformed assignment '=bad': VAR=VALUE expected");
	ck_assert_ptr_null(p.envp);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("env");
	TCase *tc = tcase_create("fixture");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, valid_assignments);
	tcase_add_test(tc, from_target);
	tcase_add_test(tc, from_target_bounded);
	tcase_add_test(tc, from_empty_or_missing_target);
	tcase_add_test(tc, keep_and_none);
	tcase_add_test(tc, reset);
	tcase_add_test(tc, malformed_setenv);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
