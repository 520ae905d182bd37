// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_tool - running an engine's command-line tool and taking its
 * output (src/libhijack/engines/tool.c), with sh standing in for the tool.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/engines.h"
#include "testlib.h"

static int run(const char *script, char **out, size_t *len)
{
	char *const argv[] = { "sh", "-c", (char *)script, NULL };

	return hj_run_tool(argv, out, len);
}

START_TEST(output_taken)
{
	char *out = NULL;
	size_t len = 0;

	/* Only stdout is taken; stdin is /dev/null, not the caller's. */
	ck_assert_int_eq(run("echo out; echo err >&2; cat", &out, &len), 1);
	ck_assert_str_eq(out, "out\n");
	ck_assert_uint_eq(len, 4);
	free(out);
	ck_assert_int_eq(run("printf 'a\\0b'", &out, &len), 1);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(memcmp(out, "a\0b", 3), 0);
	free(out);
	ck_assert_int_eq(run("true", &out, &len), 1);
	ck_assert_uint_eq(len, 0);
	free(out);
}
END_TEST

START_TEST(failures)
{
	char *const missing[] = { "hijack-unit-no-such-tool", NULL };
	char *out = NULL;
	size_t len = 0;

	/*
	 * A tool that is not installed: the engine is not there, no error.
	 * (On a PATH with a directory the caller may not search, the lookup
	 * fails with EACCES instead, which is an error: a PATH of our own.)
	 */
	ck_assert_int_eq(setenv("PATH", "/usr/bin:/bin", 1), 0);
	ck_assert_int_eq(hj_run_tool(missing, &out, &len), 0);
	/* A tool that fails says nothing we can trust, whatever it printed. */
	ck_assert_int_eq(run("echo partial; exit 3", &out, &len), -EPROTO);
	ck_assert_int_eq(run("kill -9 $$", &out, &len), -EPROTO);
	/*
	 * Nothing is handed back on failure: a caller's cleanup must not
	 * free what hj_run_tool() already freed.
	 */
	ck_assert_ptr_null(out);
	/* A tool that would say too much is stopped, not waited for. */
	ck_assert_int_eq(run("exec yes", &out, &len), -EFBIG);
	ck_assert_ptr_null(out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tool");
	TCase *tc = tcase_create("tool");

	tcase_add_test(tc, output_taken);
	tcase_add_test(tc, failures);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
