// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_target - the pin's own checks (src/libhijack/target.c): a task that
 * exits, a status text that is not the pinned task's, and a /proc of
 * another pid namespace mounted where hijack looks.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

START_TEST(status_must_be_the_pinned_tasks)
{
	struct hijack_target *t = NULL;
	struct hijack_diag d = { 0 };
	char *status = NULL, want[64], forged[256];

	ck_assert_int_eq(hijack_target_open(getpid(), &t, &d), 0);
	ck_assert_int_eq(hj_read_at(AT_FDCWD, "/proc/self/status", &status, NULL), 0);
	ck_assert_int_eq(hj_status_field(status, "NSpid", want, sizeof(want)), 0);
	/* The pin took the fdinfo's NSpid, which is the status text's. */
	ck_assert_str_eq(t->nspid, want);
	ck_assert_int_eq(hj_target_check_status(t, status, &d), 0);
	free(status);
	(void)snprintf(forged, sizeof(forged), "Name:\tx\nNSpid:\t%s 1\n", want);
	ck_assert_int_eq(hj_target_check_status(t, forged, &d), -ESRCH);
	ck_assert_int_eq(d.step, HIJACK_STEP_TARGET);
	ck_assert_ptr_nonnull(strstr(d.detail, "is not the pinned task's"));
	ck_assert_int_eq(hj_target_check_status(t, "Name:\tx\n", &d), -ESRCH);
	/* A pin made without NSpid (no CONFIG_PID_NS) has nothing to compare. */
	t->nspid[0] = '\0';
	ck_assert_int_eq(hj_target_check_status(t, "Name:\tx\n", &d), 0);
	hijack_target_free(t);
	hijack_target_free(NULL);
}
END_TEST

START_TEST(check_notices_exit)
{
	struct hijack_target *t = NULL;
	struct hijack_diag d = { 0 };
	char want[64];
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(hijack_target_open(pid, &t, &d), 0);
	ck_assert_int_eq(hj_target_check(t, &d), 0);
	ck_assert_int_ge(hijack_target_pidfd(t), 0);
	(void)kill(pid, SIGKILL);
	/* Dead but not reaped: the pidfd already says so. */
	while (hj_target_alive(t) == 0)
		usleep(1000);
	ck_assert_int_eq(hj_target_check(t, &d), -ESRCH);
	(void)snprintf(want, sizeof(want), "pid %d exited", (int)pid);
	ck_assert_str_eq(d.detail, want);
	(void)waitpid(pid, NULL, 0);
	hijack_target_free(t);
}
END_TEST

/*
 * A /proc of a child pid namespace mounted over this one: /proc/1 there is
 * the namespace's init, not the host's, and the pin must refuse it rather
 * than read one task and enter another.
 */
START_TEST(foreign_proc_refused)
{
	struct hijack_target *t = NULL;
	struct hijack_diag d = { 0 };
	int sync[2];
	char c;
	pid_t init;

	tl_no_leak_check();

	ck_assert_int_eq(unshare(CLONE_NEWNS | CLONE_NEWPID), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(pipe(sync), 0);
	init = fork();
	ck_assert_int_ge(init, 0);
	if (init == 0) {
		/* pid 1 of the new namespace, in our mount namespace. */
		if (mount("proc", "/proc", "proc", 0, NULL) < 0)
			_exit(1);
		(void)!write(sync[1], "m", 1);
		pause();
		_exit(0);
	}
	ck_assert_int_eq(read(sync[0], &c, 1), 1);
	ck_assert_int_eq(hijack_target_open(1, &t, &d), -ENOENT);
	ck_assert_ptr_null(t);
	ck_assert_ptr_nonnull(strstr(d.detail, "is /proc of another pid namespace?"));
	/* Our own pid there is a different task, or none: refused too. */
	ck_assert_int_lt(hijack_target_open(getpid(), &t, &d), 0);
	ck_assert_ptr_null(t);
	(void)kill(init, SIGKILL);
	(void)waitpid(init, NULL, 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("target");
	TCase *any = tcase_create("pin");
	TCase *priv = tcase_create("foreign-proc");

	tcase_add_test(any, status_must_be_the_pinned_tasks);
	tcase_add_test(any, check_notices_exit);
	suite_add_tcase(s, any);
	if (tl_have_root()) {
		tcase_add_test(priv, foreign_proc_refused);
		suite_add_tcase(s, priv);
	} else {
		printf("# SKIP a foreign /proc: mounting one needs root\n");
	}
	return tl_run(s);
}
