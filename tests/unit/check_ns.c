// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_ns - namespace names and lists (src/libhijack/ns.c).
 */
#include <sched.h>
#include <string.h>

#include "internal.h"
#include "testlib.h"

START_TEST(names_round_trip)
{
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++)
		ck_assert_int_eq(hj_ns_from_name(hijack_ns_name(i)), i);
	ck_assert_int_eq(hj_ns_from_name("mount"), HIJACK_NS_MNT);
	ck_assert_int_eq(hj_ns_from_name("mn"), -EINVAL);
	ck_assert_int_eq(hj_ns_from_name(""), -EINVAL);
	ck_assert_int_eq(hj_ns_from_name("MNT"), -EINVAL);
	/* Out of range: "unknown", never NULL (include/hijack.h). */
	ck_assert_str_eq(hijack_ns_name(_HIJACK_NS_MAX), "unknown");
	ck_assert_str_eq(hijack_ns_name((enum hijack_ns)-1), "unknown");
}
END_TEST

START_TEST(list_parses)
{
	unsigned int m = 0;

	ck_assert_int_eq(hijack_ns_parse_list("mnt", &m, NULL, NULL), 0);
	ck_assert_uint_eq(m, HIJACK_NS_BIT(HIJACK_NS_MNT));
	ck_assert_int_eq(hijack_ns_parse_list("net,uts,mount", &m, NULL, NULL), 0);
	ck_assert_uint_eq(m, HIJACK_NS_BIT(HIJACK_NS_NET) |
			     HIJACK_NS_BIT(HIJACK_NS_UTS) |
			     HIJACK_NS_BIT(HIJACK_NS_MNT));
	ck_assert_int_eq(hijack_ns_parse_list("all", &m, NULL, NULL), 0);
	ck_assert_uint_eq(m, HIJACK_NS_ALL);
	ck_assert_int_eq(hijack_ns_parse_list("user,user", &m, NULL, NULL), 0);
	ck_assert_uint_eq(m, HIJACK_NS_BIT(HIJACK_NS_USER));
}
END_TEST

START_TEST(list_rejects)
{
	static const struct {
		const char *list;
		const char *bad;
		size_t len;
	} cases[] = {
		{ "", "", 0 },
		{ "mnt,", "", 0 },
		{ ",mnt", ",mnt", 0 },
		{ "mnt,,net", ",net", 0 },
		{ "mnt,bogus,net", "bogus,net", 5 },
		{ "pid ", "pid ", 4 },
	};
	unsigned int m = 12345;
	const char *bad;
	size_t i, len;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bad = NULL;
		len = 99;
		ck_assert_int_eq(hijack_ns_parse_list(cases[i].list, &m, &bad,
						      &len), -EINVAL);
		ck_assert_str_eq(bad, cases[i].bad);
		ck_assert_uint_eq(len, cases[i].len);
		/* Nothing is returned on failure. */
		ck_assert_uint_eq(m, 12345);
	}
}
END_TEST

START_TEST(clone_flags)
{
	ck_assert_int_eq(hj_ns_mask_to_clone(0), 0);
	ck_assert_int_eq(hj_ns_mask_to_clone(HIJACK_NS_BIT(HIJACK_NS_MNT)),
			 CLONE_NEWNS);
	ck_assert_int_eq(hj_ns_mask_to_clone(HIJACK_NS_BIT(HIJACK_NS_USER) |
					     HIJACK_NS_BIT(HIJACK_NS_PID)),
			 CLONE_NEWUSER | CLONE_NEWPID);
	ck_assert_int_eq(hj_ns_mask_to_clone(HIJACK_NS_ALL),
			 CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC |
			 CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWUSER |
			 CLONE_NEWCGROUP | 0x80 /* CLONE_NEWTIME */);
}
END_TEST

/* The user namespace leads the table: see the comment on hj_ns_info. */
START_TEST(user_first)
{
	ck_assert_int_eq(HIJACK_NS_USER, 0);
	ck_assert_str_eq(hj_ns_info[0].name, "user");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ns");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, names_round_trip);
	tcase_add_test(tc, list_parses);
	tcase_add_test(tc, list_rejects);
	tcase_add_test(tc, clone_flags);
	tcase_add_test(tc, user_first);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
