// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_limits - resource limits and oom_score_adj (src/libhijack/limits.c):
 * the target's from a fixture /proc/PID/limits, the caller's, and setting
 * them, stricter never looser when a value is out of reach.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/resource.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

static char *dir;
static struct hijack_target t = { .pidfd = -EBADF, .procfd = -EBADF };

/* As fs/proc/base.c prints it, with one row from a newer kernel. */
static const char limits[] =
	"Limit                     Soft Limit           Hard Limit           Units     \n"
	"Max cpu time              unlimited            unlimited            seconds   \n"
	"Max file size             unlimited            unlimited            bytes     \n"
	"Max data size             unlimited            unlimited            bytes     \n"
	"Max stack size            8388608              unlimited            bytes     \n"
	"Max core file size        0                    unlimited            bytes     \n"
	"Max resident set          unlimited            unlimited            bytes     \n"
	"Max processes             63422                63422                processes \n"
	"Max open files            1024                 524288               files     \n"
	"Max locked memory         8388608              8388608              bytes     \n"
	"Max address space         unlimited            unlimited            bytes     \n"
	"Max file locks            unlimited            unlimited            locks     \n"
	"Max pending signals       63422                63422                signals   \n"
	"Max msgqueue size         819200               819200               bytes     \n"
	"Max nice priority         0                    0                    \n"
	"Max realtime priority     0                    0                    \n"
	"Max realtime timeout      unlimited            unlimited            us        \n"
	"Max future thing          1                    2                    things    \n";

static void setup(void)
{
	t.procfd = tl_fixture_open(&dir);
	t.pid = getpid();
}

static void teardown(void)
{
	tl_fixture_close(&dir, t.procfd);
}

/* Act as a caller without CAP_SYS_RESOURCE, if we had it. */
static void drop_sys_resource(void)
{
	cap_value_t v = CAP_SYS_RESOURCE;
	cap_t c;

	if (!tl_have_root())
		return;
	c = cap_get_proc();
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(cap_set_flag(c, CAP_EFFECTIVE, 1, &v, CAP_CLEAR), 0);
	ck_assert_int_eq(cap_set_proc(c), 0);
	(void)cap_free(c);
}

START_TEST(names)
{
	ck_assert_str_eq(hj_rlimit_name(RLIMIT_NOFILE), "nofile");
	ck_assert_str_eq(hj_rlimit_name(RLIMIT_CPU), "cpu");
	ck_assert_str_eq(hj_rlimit_name(RLIMIT_RTTIME), "rttime");
	ck_assert_str_eq(hj_rlimit_name(-1), "unknown");
	ck_assert_str_eq(hj_rlimit_name(HIJACK_NRLIMITS), "unknown");
}
END_TEST

START_TEST(read_target)
{
	struct hijack_limits l;
	struct hijack_diag d = { 0 };

	tl_write(dir, "limits", limits);
	tl_write(dir, "oom_score_adj", "-17\n");
	ck_assert_int_eq(hj_limits_read(&t, &l, &d), 0);
	ck_assert_uint_eq(l.have, (1u << HIJACK_NRLIMITS) - 1);
	ck_assert_uint_eq(l.lim[RLIMIT_NOFILE].cur, 1024);
	ck_assert_uint_eq(l.lim[RLIMIT_NOFILE].max, 524288);
	ck_assert_uint_eq(l.lim[RLIMIT_CORE].cur, 0);
	ck_assert(l.lim[RLIMIT_CORE].max == (unsigned long long)RLIM_INFINITY);
	ck_assert(l.lim[RLIMIT_RTTIME].cur == (unsigned long long)RLIM_INFINITY);
	ck_assert_uint_eq(l.lim[RLIMIT_STACK].cur, 8388608);
	ck_assert_int_eq(l.oom_score_adj, -17);
}
END_TEST

START_TEST(read_target_partial_and_bad)
{
	struct hijack_limits l;
	struct hijack_diag d = { 0 };

	/* Rows the kernel lacks are left out of @have. */
	tl_write(dir, "limits",
		 "Limit   Soft Limit Hard Limit Units\n"
		 "Max open files            64                   128                  files\n");
	tl_write(dir, "oom_score_adj", "1000\n");
	ck_assert_int_eq(hj_limits_read(&t, &l, &d), 0);
	ck_assert_uint_eq(l.have, 1u << RLIMIT_NOFILE);
	ck_assert_uint_eq(l.lim[RLIMIT_NOFILE].cur, 64);
	ck_assert_int_eq(l.oom_score_adj, 1000);
	/* A value that is not a number is an error, not a zero. */
	tl_write(dir, "limits", "Max open files            lots                 128                  files\n");
	ck_assert_int_eq(hj_limits_read(&t, &l, &d), -EINVAL);
	ck_assert_int_eq(d.step, HIJACK_STEP_LIMITS);
	tl_write(dir, "limits", "Max open files            64\n");
	ck_assert_int_eq(hj_limits_read(&t, &l, &d), -EINVAL);
	tl_write(dir, "limits", "Max open files            64                   -1                   files\n");
	ck_assert_int_eq(hj_limits_read(&t, &l, &d), -EINVAL);
	tl_write(dir, "limits", "Max open files            99999999999999999999999 1                files\n");
	ck_assert_int_eq(hj_limits_read(&t, &l, &d), -EINVAL);
	/* A prefix of a known row is not that row. */
	tl_write(dir, "limits", "Max open filesystems      1                    1                    files\n");
	ck_assert_int_eq(hj_limits_read(&t, &l, &d), 0);
	ck_assert_uint_eq(l.have, 0);
}
END_TEST

START_TEST(read_self)
{
	struct hijack_limits l;
	struct hijack_diag d = { 0 };
	struct rlimit rl;

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_int_eq(hj_limits_read(NULL, &l, &d), 0);
	ck_assert(l.have & (1u << RLIMIT_NOFILE));
	ck_assert_uint_eq(l.lim[RLIMIT_NOFILE].cur, rl.rlim_cur);
	ck_assert_uint_eq(l.lim[RLIMIT_NOFILE].max, rl.rlim_max);
}
END_TEST

START_TEST(apply)
{
	struct hijack_limits want = { 0 };
	struct hijack_diag d = { 0 };
	struct rlimit rl;

	want.have = 1u << RLIMIT_NOFILE | 1u << RLIMIT_CORE;
	want.lim[RLIMIT_NOFILE].cur = 64;
	want.lim[RLIMIT_NOFILE].max = 128;
	want.lim[RLIMIT_CORE].cur = 0;
	want.lim[RLIMIT_CORE].max = 0;
	ck_assert_int_eq(hj_limits_apply(&want, &d), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_uint_eq(rl.rlim_cur, 64);
	ck_assert_uint_eq(rl.rlim_max, 128);
	ck_assert_int_eq(getrlimit(RLIMIT_CORE, &rl), 0);
	ck_assert_uint_eq(rl.rlim_max, 0);
	/* A hard limit cannot go up without privilege: ours stays, lower. */
	want.have = 1u << RLIMIT_NOFILE;
	want.lim[RLIMIT_NOFILE].cur = 100;
	want.lim[RLIMIT_NOFILE].max = 1000;
	drop_sys_resource();
	ck_assert_int_eq(hj_limits_apply(&want, &d), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_uint_eq(rl.rlim_cur, 100);
	ck_assert_uint_eq(rl.rlim_max, 128);
	want.lim[RLIMIT_NOFILE].cur = 500;
	ck_assert_int_eq(hj_limits_apply(&want, &d), 0);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_uint_eq(rl.rlim_cur, 128);
	/* A soft limit above its own hard one is the caller's error. */
	want.lim[RLIMIT_NOFILE].cur = 100;
	want.lim[RLIMIT_NOFILE].max = 50;
	ck_assert_int_eq(hj_limits_apply(&want, &d), -EINVAL);
	ck_assert_str_eq(d.detail, "nofile limit");
}
END_TEST

static int oom_now(void)
{
	char *buf = NULL;
	int v;

	ck_assert_int_eq(hj_read_at(AT_FDCWD, "/proc/self/oom_score_adj", &buf,
				    NULL), 0);
	v = atoi(buf);
	free(buf);
	return v;
}

START_TEST(oom_swap)
{
	struct hijack_diag d = { 0 };
	int old, start = oom_now(), mine;

	ck_assert_int_eq(hj_oom_swap(start, &old, &d), 0);
	ck_assert_int_eq(old, start);
	mine = start < 900 ? start + 100 : start;
	ck_assert_int_eq(hj_oom_swap(mine, &old, &d), 0);
	ck_assert_int_eq(old, start);
	ck_assert_int_eq(oom_now(), mine);
	/* Lower than we may go: left higher, stricter, and no error. */
	drop_sys_resource();
	ck_assert_int_eq(hj_oom_swap(-1000, &old, &d), 0);
	ck_assert_int_eq(old, mine);
	ck_assert_int_eq(oom_now(), mine);
	ck_assert_int_eq(hj_oom_swap(1001, &old, &d), -EINVAL);
	ck_assert_int_eq(d.step, HIJACK_STEP_LIMITS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("fixture");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, names);
	tcase_add_test(tc, read_target);
	tcase_add_test(tc, read_target_partial_and_bad);
	tcase_add_test(tc, read_self);
	tcase_add_test(tc, apply);
	tcase_add_test(tc, oom_swap);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
