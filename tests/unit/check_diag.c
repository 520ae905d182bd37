// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_diag - step names and the caller-owned diagnostic
 * (src/libhijack/diag.c).
 */
#include <string.h>

#include "internal.h"
#include "testlib.h"

START_TEST(step_names)
{
	int i;

	for (i = 0; i < _HIJACK_STEP_MAX; i++) {
		ck_assert_ptr_nonnull(hijack_step_name(i));
		ck_assert_str_ne(hijack_step_name(i), "unknown");
	}
	ck_assert_str_eq(hijack_step_name(HIJACK_STEP_SYSCALL), "hijack(2)");
	ck_assert_str_eq(hijack_step_name(HIJACK_STEP_CREDS), "credentials");
	ck_assert_str_eq(hijack_step_name(_HIJACK_STEP_MAX), "unknown");
	ck_assert_str_eq(hijack_step_name((enum hijack_step)-1), "unknown");
}
END_TEST

START_TEST(diag_set)
{
	struct hijack_diag d = { 0 };
	char longer[2 * sizeof(d.detail)];

	/* Either sign in, a negative errno out, and the same in the diag. */
	ck_assert_int_eq(hj_diag_set(&d, HIJACK_STEP_SETNS, EPERM, "ns %s", "mnt"),
			 -EPERM);
	ck_assert_int_eq(hj_diag_set(&d, HIJACK_STEP_SETNS, -EPERM, "ns %s", "mnt"),
			 -EPERM);
	ck_assert_int_eq(d.step, HIJACK_STEP_SETNS);
	ck_assert_int_eq(d.err, EPERM);
	ck_assert_str_eq(d.detail, "ns mnt");
	/* A failure is never reported as success. */
	ck_assert_int_eq(hj_diag_set(&d, HIJACK_STEP_WAIT, 0, "x"), -EIO);
	ck_assert_int_eq(d.err, EIO);
	/* The diagnostic is optional ... */
	ck_assert_int_eq(hj_diag_set(NULL, HIJACK_STEP_WAIT, ENOENT, "x"), -ENOENT);
	/* ... and a detail longer than it is cut, terminated. */
	memset(longer, 'z', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	ck_assert_int_eq(hj_diag_set(&d, HIJACK_STEP_OPEN, E2BIG, "%s", longer),
			 -E2BIG);
	ck_assert_uint_eq(strlen(d.detail), sizeof(d.detail) - 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("diag");

	tcase_add_test(tc, step_names);
	tcase_add_test(tc, diag_set);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
