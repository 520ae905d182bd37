// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_syscall - what one hijack(2) call can carry out of a plan, and the
 * namespaces it is asked for (src/libhijack/syscall.c), on plans built by
 * hand.
 */
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

/* A v1 hierarchy and the v2 one, both to join. */
static struct hijack_cgroup both_versions[] = {
	{ .controllers = (char *)"memory", .path = (char *)"/web", .join = true },
	{ .controllers = (char *)"", .path = (char *)"/web", .join = true },
};

/*
 * Every namespace type differs from the caller's, both cgroups too; all
 * modes "target".
 */
static void all_differ(struct hijack_plan *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		p->ns[i].dev = p->ns[i].self_dev = 4;
		p->ns[i].ino = 100 + i;
		p->ns[i].self_ino = 200 + i;
	}
	p->ns_mask = HIJACK_NS_ALL;
	p->cgroups = both_versions;
	p->ncgroups = ARRAY_SIZE(both_versions);
}

START_TEST(whole_target)
{
	struct hijack_plan p;

	all_differ(&p);
	ck_assert_int_eq(hj_syscall_flags(&p), HJ_SYSCALL_NS | HIJACK_TAKE_FS |
			 HIJACK_INTO_CGROUP | HIJACK_TAKE_CRED);
	ck_assert_uint_eq(hj_syscall_ns_mask(&p),
			  CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET |
			  CLONE_NEWPID | CLONE_NEWUSER | CLONE_NEWCGROUP |
			  CLONE_NEWTIME);
}
END_TEST

/* The target's root comes only with its mount namespace. */
START_TEST(root_needs_mount_namespace)
{
	struct hijack_plan p;

	all_differ(&p);
	p.ns_mask = HIJACK_NS_BIT(HIJACK_NS_NET);
	ck_assert_uint_eq(hj_syscall_ns_mask(&p), CLONE_NEWNET);
	ck_assert_int_eq(hj_syscall_flags(&p), -EOPNOTSUPP);
	/* Our own mount namespace: entering it only brings the root along. */
	p.ns[HIJACK_NS_MNT].self_ino = p.ns[HIJACK_NS_MNT].ino;
	ck_assert_uint_eq(hj_syscall_ns_mask(&p), CLONE_NEWNET | CLONE_NEWNS);
	ck_assert_int_gt(hj_syscall_flags(&p), 0);
	/* ... but the same inode on another device is another namespace. */
	p.ns[HIJACK_NS_MNT].self_dev = 5;
	ck_assert_uint_eq(hj_syscall_ns_mask(&p), CLONE_NEWNET);
	/* The caller's root in the target's mount table: not one call. */
	all_differ(&p);
	p.root_mode = HIJACK_DIR_KEEP;
	ck_assert_int_eq(hj_syscall_flags(&p), -EOPNOTSUPP);
	p.ns_mask &= ~HIJACK_NS_BIT(HIJACK_NS_MNT);
	ck_assert_int_eq(hj_syscall_flags(&p), HJ_SYSCALL_NS |
			 HIJACK_INTO_CGROUP | HIJACK_TAKE_CRED);
}
END_TEST

START_TEST(parts)
{
	struct hijack_plan p;
	gid_t a[] = { 1, 2 }, b[] = { 1, 3 };

	all_differ(&p);
	p.root_mode = HIJACK_DIR_KEEP;
	p.ns_mask = 0;
	ck_assert_int_eq(hj_syscall_flags(&p), HIJACK_INTO_CGROUP | HIJACK_TAKE_CRED);
	p.cgroup_mode = HIJACK_KEEP;
	ck_assert_int_eq(hj_syscall_flags(&p), HIJACK_TAKE_CRED);
	/*
	 * The kernel starts the child only in a v2 cgroup: the v1 hierarchies
	 * it joins itself, so they alone make no flag.
	 */
	p.cgroup_mode = HIJACK_FROM_TARGET;
	both_versions[1].join = false;
	ck_assert_int_eq(hj_syscall_flags(&p), HIJACK_TAKE_CRED);
	both_versions[1].join = true;
	p.ncgroups = 1;
	ck_assert_int_eq(hj_syscall_flags(&p), HIJACK_TAKE_CRED);
	p.ncgroups = 0;
	ck_assert_int_eq(hj_syscall_flags(&p), HIJACK_TAKE_CRED);
	p.creds.uid = 1;
	ck_assert_int_eq(hj_syscall_flags(&p), -EOPNOTSUPP);
	p.creds.uid = 0;
	/* Credentials only when they are exactly the target's. */
	p.caps.amb = 1;
	ck_assert_int_eq(hj_syscall_flags(&p), -EOPNOTSUPP);
	p.caps.amb = 0;
	p.creds.ngroups = p.target_creds.ngroups = 2;
	p.creds.groups = a;
	p.target_creds.groups = b;
	ck_assert_int_eq(hj_syscall_flags(&p), -EOPNOTSUPP);
	p.target_creds.groups = a;
	ck_assert_int_eq(hj_syscall_flags(&p), HIJACK_TAKE_CRED);
	p.lsm_mode = HIJACK_KEEP;
	ck_assert_int_eq(hj_syscall_flags(&p), -EOPNOTSUPP);
	p.lsm_mode = HIJACK_FROM_TARGET;
	p.creds.fsuid = 7;
	ck_assert_int_eq(hj_syscall_flags(&p), -EOPNOTSUPP);
}
END_TEST

/*
 * The probe answers a number only where hijack(2) answers as hijack(2)
 * does (the patched kernel's side is tests/kernel/'s); elsewhere -ENOSYS,
 * whatever else owns the number, and the same every time.
 */
START_TEST(syscall_nr)
{
	long nr = hj_syscall_nr();

	ck_assert(nr == -ENOSYS || nr > 0);
	ck_assert_int_eq(hj_syscall_nr(), nr);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("syscall");
	TCase *tc = tcase_create("flags");

	tcase_add_test(tc, whole_target);
	tcase_add_test(tc, root_needs_mount_namespace);
	tcase_add_test(tc, parts);
	tcase_add_test(tc, syscall_nr);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
