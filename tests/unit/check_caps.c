// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_caps - capability sets (src/libhijack/caps.c): reading them, the
 * prediction of what execve() makes of them, and setting them.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

#define BIT(c) (1ULL << (c))

/* One "CapXxx:" mask of /proc/PID/status, the kernel's own account. */
static unsigned long long status_mask(pid_t pid, const char *key)
{
	char path[64], *buf = NULL, val[32];
	unsigned long long v;

	(void)snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	ck_assert_int_eq(hj_read_at(AT_FDCWD, path, &buf, NULL), 0);
	ck_assert_int_eq(hj_status_field(buf, key, val, sizeof(val)), 0);
	free(buf);
	v = strtoull(val, NULL, 16);
	return v;
}

static void assert_matches_status(const struct hijack_caps *c, pid_t pid)
{
	ck_assert_uint_eq(c->inh, status_mask(pid, "CapInh"));
	ck_assert_uint_eq(c->prm, status_mask(pid, "CapPrm"));
	ck_assert_uint_eq(c->eff, status_mask(pid, "CapEff"));
	ck_assert_uint_eq(c->bnd, status_mask(pid, "CapBnd"));
	ck_assert_uint_eq(c->amb, status_mask(pid, "CapAmb"));
}

START_TEST(read_self_and_other)
{
	struct hijack_caps c;
	struct hijack_diag d = { 0 };
	int sync[2];
	char ready;
	pid_t pid;

	ck_assert_int_eq(hj_caps_read(0, &c, &d), 0);
	assert_matches_status(&c, getpid());
	/* Another task: a child that dropped part of its bounding set. */
	ck_assert_int_eq(pipe2(sync, O_CLOEXEC), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (tl_have_root())
			(void)prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0);
		(void)!write(sync[1], "r", 1);
		pause();
		_exit(0);
	}
	(void)close(sync[1]);
	ck_assert_int_eq(read(sync[0], &ready, 1), 1);
	(void)close(sync[0]);
	ck_assert_int_eq(hj_caps_read(pid, &c, &d), 0);
	assert_matches_status(&c, pid);
	if (tl_have_root())
		ck_assert(!(c.bnd & BIT(CAP_NET_RAW)));
	(void)kill(pid, SIGKILL);
	(void)waitpid(pid, NULL, 0);
	ck_assert_int_lt(hj_caps_read(pid, &c, &d), 0);
	ck_assert_int_eq(d.step, HIJACK_STEP_CAPS);
}
END_TEST

/*
 * The caller's own sets from its status file are libcap's, whatever they
 * are: full, and with part of the bounding set and an inheritable and
 * ambient capability changed where root may change them.
 */
START_TEST(read_self_as_libcap)
{
	const cap_value_t kill_cap = CAP_KILL;
	struct hijack_caps fast, slow;
	struct hijack_diag d = { 0 };
	cap_t c;

	ck_assert_int_eq(hj_caps_read_self(&fast), 0);
	ck_assert_int_eq(hj_caps_read(0, &slow, &d), 0);
	ck_assert_mem_eq(&fast, &slow, sizeof(fast));
	if (!tl_have_root())
		return;
	/* This test case runs in a process of its own. */
	ck_assert_int_eq(prctl(PR_CAPBSET_DROP, CAP_NET_RAW, 0, 0, 0), 0);
	c = cap_get_proc();
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(cap_set_flag(c, CAP_INHERITABLE, 1, &kill_cap, CAP_SET), 0);
	ck_assert_int_eq(cap_set_proc(c), 0);
	(void)cap_free(c);
	ck_assert_int_eq(prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_KILL, 0, 0),
			 0);
	ck_assert_int_eq(hj_caps_read_self(&fast), 0);
	ck_assert_int_eq(hj_caps_read(0, &slow, &d), 0);
	ck_assert_mem_eq(&fast, &slow, sizeof(fast));
	ck_assert(!(fast.bnd & BIT(CAP_NET_RAW)));
	ck_assert(fast.amb & BIT(CAP_KILL));
}
END_TEST

/* A root exec would gain I | B: both are cut to what the target holds. */
START_TEST(plan_root)
{
	struct hijack_caps t = {
		.inh = BIT(CAP_KILL),
		.prm = BIT(CAP_CHOWN) | BIT(CAP_SETUID),
		.eff = BIT(CAP_CHOWN),
		.bnd = BIT(CAP_CHOWN) | BIT(CAP_SETUID) | BIT(CAP_SYS_ADMIN),
		.amb = 0,
	}, r;
	char note[160];

	hj_caps_plan(&t, true, false, &r, note, sizeof(note));
	ck_assert_uint_eq(r.bnd, BIT(CAP_CHOWN) | BIT(CAP_SETUID));
	ck_assert_uint_eq(r.inh, 0);
	ck_assert_uint_eq(r.prm, t.prm);
	ck_assert_uint_eq(r.eff, t.eff);
	ck_assert_ptr_nonnull(strstr(note, "lowered by 0x200020"));
	/* Nothing to gain: unchanged, no note. */
	t.inh = 0;
	t.bnd = t.prm;
	hj_caps_plan(&t, true, false, &r, note, sizeof(note));
	ck_assert_mem_eq(&r, &t, sizeof(r));
	ck_assert_str_eq(note, "");
	/* no_new_privs keeps P' within P: nothing to lower either. */
	t.bnd |= BIT(CAP_SYS_ADMIN);
	hj_caps_plan(&t, true, true, &r, note, sizeof(note));
	ck_assert_mem_eq(&r, &t, sizeof(r));
	ck_assert_str_eq(note, "");
}
END_TEST

/* A non-root command ends with the ambient set: said when that is less. */
START_TEST(plan_non_root)
{
	struct hijack_caps t = {
		.inh = BIT(CAP_NET_BIND_SERVICE),
		.prm = BIT(CAP_NET_BIND_SERVICE) | BIT(CAP_KILL),
		.eff = BIT(CAP_NET_BIND_SERVICE),
		.bnd = ~0ULL,
		.amb = BIT(CAP_NET_BIND_SERVICE),
	}, r;
	char note[160];

	hj_caps_plan(&t, false, false, &r, note, sizeof(note));
	ck_assert_mem_eq(&r, &t, sizeof(r));
	ck_assert_str_eq(note, "after exec the command holds the ambient set 0x400; the target also holds 0x20");
	t.prm = t.amb;
	hj_caps_plan(&t, false, true, &r, note, sizeof(note));
	ck_assert_str_eq(note, "");
	/* The note is cut to its buffer, never overflows it. */
	t.prm |= BIT(CAP_KILL);
	memset(note, 'x', sizeof(note));
	hj_caps_plan(&t, false, false, &r, note, 8);
	ck_assert_uint_eq(strlen(note), 7);
	ck_assert_int_eq(note[8], 'x');
}
END_TEST

/* The two halves together give exactly the sets asked for. */
START_TEST(apply_sets)
{
	struct hijack_caps want = {
		.inh = BIT(CAP_KILL),
		.prm = BIT(CAP_KILL) | BIT(CAP_CHOWN),
		.eff = BIT(CAP_CHOWN),
		.bnd = BIT(CAP_KILL) | BIT(CAP_CHOWN) | BIT(CAP_SETPCAP),
		.amb = BIT(CAP_KILL),
	}, got;
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hj_caps_apply_iab(&want, &d), 0);
	ck_assert_int_eq(hj_caps_apply_final(&want, &d), 0);
	ck_assert_int_eq(hj_caps_read(0, &got, &d), 0);
	ck_assert_uint_eq(got.inh, want.inh);
	ck_assert_uint_eq(got.prm, want.prm);
	ck_assert_uint_eq(got.eff, want.eff);
	ck_assert_uint_eq(got.bnd, want.bnd);
	ck_assert_uint_eq(got.amb, want.amb);
	assert_matches_status(&got, getpid());
	/* Keep-caps is off again: a later uid change drops them. */
	ck_assert_int_eq(prctl(PR_GET_KEEPCAPS), 0);
	/* Without CAP_SETPCAP left, the bounding set cannot change. */
	want.bnd = BIT(CAP_KILL);
	ck_assert_int_eq(hj_caps_apply_iab(&want, &d), -EPERM);
	ck_assert_int_eq(d.step, HIJACK_STEP_CAPS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("caps");
	TCase *any = tcase_create("sets");
	TCase *priv = tcase_create("apply");

	tcase_add_test(any, read_self_and_other);
	tcase_add_test(any, read_self_as_libcap);
	tcase_add_test(any, plan_root);
	tcase_add_test(any, plan_non_root);
	suite_add_tcase(s, any);
	if (tl_have_root()) {
		tcase_add_test(priv, apply_sets);
		suite_add_tcase(s, priv);
	} else {
		printf("# SKIP setting capability sets needs root\n");
	}
	return tl_run(s);
}
