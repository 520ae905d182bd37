// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_seccomp - the policy file parser (src/libhijack/seccomp.c).  The
 * compiled filters are installed in a child and judged by what the
 * kernel then does to a system call, not by looking at the BPF.
 */
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

static struct hijack_plan plan;
static struct hijack_diag diag;

/* Parse @text as a policy file named "p"; return what the parser did. */
static int parse(const char *text, size_t len)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int r;

	ck_assert_ptr_nonnull(f);
	hj_filters_free(plan.filters, plan.nfilters);
	plan.filters = NULL;
	plan.nfilters = 0;
	memset(&diag, 0, sizeof(diag));
	r = hj_seccomp_plan_stream(f, "p", &plan, &diag);
	fclose(f);
	return r;
}

#define PARSE(s) parse((s), sizeof(s) - 1)

static void teardown(void)
{
	hj_filters_free(plan.filters, plan.nfilters);
	memset(&plan, 0, sizeof(plan));
}

/*
 * Install the plan's filters in a child that then calls getppid(); return
 * the signal that ended it, or 0 if it exited normally.
 */
static int getppid_under_plan(void)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct hijack_diag d = { 0 };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    hj_seccomp_install(&plan, &d) < 0)
			_exit(2);
		(void)syscall(SYS_getppid);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		return WTERMSIG(status);
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	return 0;
}

/*
 * A rule line naming more system calls than the parser once kept (64
 * tokens): every name counts, the last one too.  This was a bypass: the
 * names past the 64th stayed allowed.
 */
START_TEST(long_rule_line_rules_every_name)
{
	char text[16384];
	size_t len;
	int nr, names = 0;

	len = (size_t)snprintf(text, sizeof(text),
			       "default allow\nkill_process");
	/* 100 harmless calls the child never makes, then getppid. */
	for (nr = 0; names < 100 && nr < 1000; nr++) {
		char *n = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

		if (n && strcmp(n, "getppid") != 0 && strcmp(n, "exit") != 0 &&
		    strcmp(n, "exit_group") != 0) {
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						" %s", n);
			names++;
		}
		free(n);
	}
	ck_assert_int_eq(names, 100);
	len += (size_t)snprintf(text + len, sizeof(text) - len, " getppid\n");
	ck_assert_uint_lt(len, sizeof(text));

	ck_assert_int_eq(parse(text, len), 0);
	ck_assert_uint_eq(plan.nfilters, 1);
	ck_assert_int_eq(getppid_under_plan(), SIGSYS);

	/* The control: the same call is allowed when no rule names it. */
	ck_assert_int_eq(PARSE("default allow\nkill_process getpid\n"), 0);
	ck_assert_int_eq(getppid_under_plan(), 0);
}
END_TEST

/* One line of any length is read whole, never cut. */
START_TEST(very_long_line_is_read_whole)
{
	static char text[20000];
	size_t len;

	len = (size_t)snprintf(text, sizeof(text), "default allow\n");
	/* Blanks past the old 4096-byte buffer, then the name. */
	memset(text + len, ' ', 9000);
	len += 9000;
	len += (size_t)snprintf(text + len, sizeof(text) - len,
				"# no rule here\nkill_process");
	memset(text + len, '\t', 9000);
	len += 9000;
	len += (size_t)snprintf(text + len, sizeof(text) - len, "getppid");
	ck_assert_int_eq(parse(text, len), 0);
	ck_assert_int_eq(getppid_under_plan(), SIGSYS);
}
END_TEST

START_TEST(actions)
{
	ck_assert_int_eq(PARSE("# deny\ndefault allow\n"
			       "errno EPERM ptrace\nerrno 13 chroot\n"
			       "trace 7 acct\nlog uname\ntrap swapon\n"
			       "kill reboot\nkill_thread kexec_load\n"
			       "kill_process getppid # last\n"),
			 0);
	ck_assert_int_eq(getppid_under_plan(), SIGSYS);
	ck_assert_int_eq(PARSE("default errno ENOSYS\nallow exit_group\n"), 0);
}
END_TEST

/* Every malformed file is refused with its line named; nothing is planned. */
START_TEST(errors)
{
	static const struct {
		const char *text;
		size_t len;
		const char *detail;
	} bad[] = {
#define BAD(t, d) { t, sizeof(t) - 1, d }
		BAD("", "p: no 'default ACTION' line"),
		BAD("# only a comment\n", "p: no 'default ACTION' line"),
		BAD("kill getpid\n",
		    "p:1: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\ndefault kill\n",
		    "p:2: expected one 'default ACTION' line first"),
		BAD("default\n", "p:1: expected one 'default ACTION' line first"),
		BAD("default allow getpid\n",
		    "p:1: expected one 'default ACTION' line first"),
		BAD("default errno\n",
		    "p:1: expected one 'default ACTION' line first"),
		BAD("default allow\nkill\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\nerrno EPERM\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\nerrno ENOTANERRNO getpid\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\nerrno 4096 getpid\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\ntrace x getpid\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\ntrace 65536 getpid\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\ntrace -1 getpid\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\nfrobnicate getpid\n",
		    "p:2: expected 'ACTION SYSCALL...' after a 'default' line"),
		BAD("default allow\nkill getpid no_such_call\n",
		    "p:2: unknown system call 'no_such_call'"),
		/* A NUL would have hidden "getppid" from the parser. */
		BAD("default allow\nkill getpid\0 getppid\n",
		    "p:2: NUL byte in a line"),
		BAD("default allow\nkill getpid\0 getppid",
		    "p:2: NUL byte in a line"),
#undef BAD
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(parse(bad[i].text, bad[i].len) == -EINVAL,
			      "case %zu accepted", i);
		ck_assert_int_eq(diag.step, HIJACK_STEP_SECCOMP);
		ck_assert_str_eq(diag.detail, bad[i].detail);
		ck_assert_uint_eq(plan.nfilters, 0);
	}
}
END_TEST

/* The file-path entry point reports a missing file by name. */
START_TEST(missing_file)
{
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hj_seccomp_plan_file("/nonexistent/policy", &plan, &d),
			 -ENOENT);
	ck_assert_str_eq(d.detail, "policy /nonexistent/policy");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("seccomp");
	TCase *tc = tcase_create("policy");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, long_rule_line_rules_every_name);
	tcase_add_test(tc, very_long_line_is_read_whole);
	tcase_add_test(tc, actions);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, missing_file);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
