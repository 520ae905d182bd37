// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_explain - the two writers of a plan
 * (src/libhijack/render/explain-text.c, explain-json.c), given what they
 * show (struct hj_explain) rather than a real target: the parts
 * 18-explain.t cannot reach on its hosts (a container, a fallback method,
 * hijack(2), an active LSM, a terminal, unreadable caller capabilities,
 * hierarchies not mounted here, limits of every kind), byte for byte, and
 * the JSON against jansson's strict parser, its keys in the order
 * hijack(1), JSON OUTPUT, lists them.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>

#include "render/explain.h"
#include "testlib.h"

static struct hijack_ns_state ns[_HIJACK_NS_MAX];
static gid_t groups[] = { 27, 1000 };
static struct hijack_cgroup cgroups[] = {
	{ "", "/web", "/", "/sys/fs/cgroup/web", true },
	{ "pids", "/web", "/", NULL, true },
	{ "cpu,cpuacct", "/", "/", "/sys/fs/cgroup/cpu,cpuacct", false },
	{ "name=x", "/", "/", NULL, false },
};
static struct hijack_container ct = {
	.engine = "docker", .name = "web", .id = "0123abcd", .pid = 4242,
	.state = "running",
};
static struct hijack_creds creds = { 33, 33, 33, 33, 33, 33, 33, 33, 2, groups };
static struct hijack_caps caps = { 0, 0x420, 0x420, 0x423, 0x420 };
static struct hijack_limits limits;
/* The caller: root without capabilities, no limit on cpu. */
static struct hijack_creds caller_creds;
static struct hijack_caps caller_caps;
static struct hijack_limits caller_limits = {
	.have = BIT(RLIMIT_CPU),
	.lim[RLIMIT_CPU] = { RLIM_INFINITY, RLIM_INFINITY },
};

/* Everything shown at least once, the caller's state fixed. */
static void full(struct hj_explain *v)
{
	int i;

	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		ns[i].self_dev = ns[i].dev = makedev(0, 4);
		ns[i].self_ino = 4026531830u + i;
		ns[i].ino = ns[i].self_ino + (i == HIJACK_NS_NET ? 400 : 0);
		ns[i].enter = i == HIJACK_NS_NET;
	}
	ns[HIJACK_NS_TIME].ino = 0;
	ns[HIJACK_NS_UTS].ino += 300;

	limits = (struct hijack_limits){ 0 };
	for (i = 0; i < HIJACK_NRLIMITS; i++) {
		limits.lim[i].cur = limits.lim[i].max = RLIM_INFINITY;
		if (i == RLIMIT_CPU || i == RLIMIT_NOFILE || i == RLIMIT_FSIZE)
			limits.have |= BIT(i);
	}
	limits.lim[RLIMIT_NOFILE].cur = 777;
	limits.lim[RLIMIT_NOFILE].max = 888;
	limits.lim[RLIMIT_FSIZE].cur = 9223372036854775808ULL;
	limits.oom_score_adj = 123;

	*v = (struct hj_explain){
		.container = &ct,
		.pid = 4242,
		.method = HIJACK_METHOD_PIDFD,
		.fallback = HIJACK_METHOD_NSFD,
		.syscall_nr = 470,
		.ns = ns,
		.root_mode = HIJACK_DIR_TARGET,
		.root = "/",
		.wd_mode = HIJACK_DIR_PATH,
		.wd = "/srv/a \"b\"\\c\x9b\xc3\xa9\xff",
		.creds_mode = HIJACK_FROM_TARGET,
		.creds = &creds,
		.target_creds = &creds,
		.caller_creds = &caller_creds,
		.caps_mode = HIJACK_FROM_TARGET,
		.caps = &caps,
		.target_caps = &caps,
		.caller_caps = &caller_caps,
		.have_caller_caps = false,
		.caps_note = "no CAP_SETPCAP",
		.securebits_copied = true,
		.cgroup_mode = HIJACK_FROM_TARGET,
		.cgroups = cgroups,
		.ncgroups = ARRAY_SIZE(cgroups),
		.seccomp_mode = HIJACK_FROM_FILE,
		.target_seccomp = 2,
		.target_nnp = true,
		.nnp = true,
		.nfilters = 1,
		.lsm = "apparmor",
		.lsm_mode = HIJACK_FROM_TARGET,
		.lsm_label = "docker-default (enforce)",
		.mark = -1,
		.env_mode = HIJACK_RESET,
		.env_why = "the command runs with ids other than the target's",
		.nenv = 1,
		.preserve_fds = 2,
		.pty_mode = HIJACK_PTY_AUTO,
		.pty_fds = BIT(0) | BIT(2),
		.limits_mode = HIJACK_FROM_TARGET,
		.limits = &limits,
		.caller_limits = &caller_limits,
	};
}

/* The writer's output, as a string of its own (free it). */
static char *render(const struct hj_explain *v, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(json ? hj_explain_json(v, f) : hj_explain_text(v, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/*
 * @out is @want, or the case fails showing where they part (Check's own
 * message would be too long for it to carry).
 */
static void same(const char *out, const char *want)
{
	size_t i = 0;

	while (out[i] && out[i] == want[i])
		i++;
	if (out[i] || want[i])
		ck_abort_msg("differ at byte %zu: got \"%.60s\", want \"%.60s\"",
			     i, out + i, want + i);
}

START_TEST(text_full)
{
	struct hj_explain v;
	char *out;

	full(&v);
	out = render(&v, false);
	same(out,
		"container: docker:web\n"
		"id:      0123abcd\n"
		"state:   running\n"
		"init:    pid 4242\n"
		"target:  pid 4242\n"
		"method:  pidfd (falls back to nsfd); kernel has hijack(2) as syscall 470\n"
		"ns       caller         target         action\n"
		"user     4026531830     4026531830     same\n"
		"cgroup   4026531831     4026531831     same\n"
		"ipc      4026531832     4026531832     same\n"
		"uts      4026531833     4026532133     skip\n"
		"net      4026531834     4026532234     enter\n"
		"pid      4026531835     4026531835     same\n"
		"mnt      4026531836     4026531836     same\n"
		"time     4026531837     0              unsupported\n"
		"root:    / (target)\n"
		"cwd:     /srv/a \"b\"\\c\x9b\xc3\xa9\xff (path)\n"
		"creds:   target: uid 33/33/33 gid 33/33/33 groups 27,1000 (caller uid 0/0/0 gid 0/0/0 groups -)\n"
		"caps:    target\n"
		"  command inh 0000000000000000 prm 0000000000000420 eff 0000000000000420 bnd 0000000000000423 amb 0000000000000420\n"
		"  target  inh 0000000000000000 prm 0000000000000420 eff 0000000000000420 bnd 0000000000000423 amb 0000000000000420\n"
		"  note:   no CAP_SETPCAP\n"
		"  securebits: the target's, copied by hijack(2)\n"
		"cgroups: target\n"
		"  (v2)                 /web (caller /) join /sys/fs/cgroup/web\n"
		"  pids                 /web (caller /) join (not mounted here: mounted for hijack alone)\n"
		"  cpu,cpuacct          / (caller /) same\n"
		"  name=x               / (caller /) not mounted here\n"
		"seccomp: file; target mode 2, no_new_privs yes; command gets 1 filter(s) from the policy file, no_new_privs yes\n"
		"lsm:     apparmor, target: docker-default (enforce)\n"
		"env:     reset: 1 variable\n"
		"  note:   not the target's, as the command runs with ids other than the target's (--env=target gives it anyway)\n"
		"fds:     0-2 and 3-4\n"
		"tty:     auto: a new pseudo-terminal from the target's /dev/ptmx on fds 0,2, relayed\n"
		"limits:  target: oom_score_adj 123 (caller 0); differing: fsize 9223372036854775808/unlimited, nofile 777/888\n");
	free(out);
}
END_TEST

START_TEST(json_full)
{
	struct hj_explain v;
	char *out;

	full(&v);
	out = render(&v, true);
	same(out,
		"{\"container\":{\"engine\":\"docker\",\"name\":\"web\",\"id\":\"0123abcd\",\"state\":\"running\",\"pid\":4242},"
		"\"pid\":4242,\"method\":\"pidfd\",\"fallback\":\"nsfd\",\"syscall_nr\":470,"
		"\"namespaces\":{"
		"\"user\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531830},\"target\":{\"dev\":\"0:4\",\"ino\":4026531830},\"action\":\"same\",\"enter\":false},"
		"\"cgroup\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531831},\"target\":{\"dev\":\"0:4\",\"ino\":4026531831},\"action\":\"same\",\"enter\":false},"
		"\"ipc\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531832},\"target\":{\"dev\":\"0:4\",\"ino\":4026531832},\"action\":\"same\",\"enter\":false},"
		"\"uts\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531833},\"target\":{\"dev\":\"0:4\",\"ino\":4026532133},\"action\":\"skip\",\"enter\":false},"
		"\"net\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531834},\"target\":{\"dev\":\"0:4\",\"ino\":4026532234},\"action\":\"enter\",\"enter\":true},"
		"\"pid\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531835},\"target\":{\"dev\":\"0:4\",\"ino\":4026531835},\"action\":\"same\",\"enter\":false},"
		"\"mnt\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531836},\"target\":{\"dev\":\"0:4\",\"ino\":4026531836},\"action\":\"same\",\"enter\":false},"
		"\"time\":{\"caller\":{\"dev\":\"0:4\",\"ino\":4026531837},\"target\":{\"dev\":\"0:4\",\"ino\":0},\"action\":\"unsupported\",\"enter\":false}},"
		"\"root\":{\"mode\":\"target\",\"path\":\"/\"},"
		"\"cwd\":{\"mode\":\"path\",\"path\":\"/srv/a \\\"b\\\"\\\\c\\u009b\xc3\xa9\\u00ff\",\"why\":null},"
		"\"creds\":{\"mode\":\"target\","
		"\"command\":{\"uid\":[33,33,33],\"gid\":[33,33,33],\"groups\":[27,1000]},"
		"\"target\":{\"uid\":[33,33,33],\"gid\":[33,33,33],\"groups\":[27,1000]},"
		"\"caller\":{\"uid\":[0,0,0],\"gid\":[0,0,0]}},"
		"\"caps\":{\"mode\":\"target\","
		"\"command\":{\"inh\":\"0000000000000000\",\"prm\":\"0000000000000420\",\"eff\":\"0000000000000420\",\"bnd\":\"0000000000000423\",\"amb\":\"0000000000000420\"},"
		"\"target\":{\"inh\":\"0000000000000000\",\"prm\":\"0000000000000420\",\"eff\":\"0000000000000420\",\"bnd\":\"0000000000000423\",\"amb\":\"0000000000000420\"},"
		"\"caller\":{\"inh\":\"0000000000000000\",\"prm\":\"0000000000000000\",\"eff\":\"0000000000000000\",\"bnd\":\"0000000000000000\",\"amb\":\"0000000000000000\"},"
		"\"note\":\"no CAP_SETPCAP\",\"mark\":null},"
		"\"cgroups\":{\"mode\":\"target\",\"hierarchies\":["
		"{\"controllers\":\"\",\"target\":\"/web\",\"caller\":\"/\",\"dir\":\"/sys/fs/cgroup/web\",\"join\":true},"
		"{\"controllers\":\"pids\",\"target\":\"/web\",\"caller\":\"/\",\"dir\":null,\"join\":true},"
		"{\"controllers\":\"cpu,cpuacct\",\"target\":\"/\",\"caller\":\"/\",\"dir\":\"/sys/fs/cgroup/cpu,cpuacct\",\"join\":false},"
		"{\"controllers\":\"name=x\",\"target\":\"/\",\"caller\":\"/\",\"dir\":null,\"join\":false}]},"
		"\"seccomp\":{\"mode\":\"file\",\"target_mode\":2,\"target_no_new_privs\":true,\"filters\":1,\"no_new_privs\":true},"
		"\"lsm\":{\"active\":\"apparmor\",\"mode\":\"target\",\"label\":\"docker-default (enforce)\"},"
		"\"env\":{\"mode\":\"reset\",\"count\":1,\"why\":\"the command runs with ids other than the target's\"},"
		"\"preserve_fds\":2,"
		"\"pty\":{\"mode\":\"auto\",\"fds\":[0,2]},"
		"\"limits\":{\"mode\":\"target\",\"oom_score_adj\":123,\"rlimits\":{"
		"\"cpu\":[\"unlimited\",\"unlimited\"],"
		"\"fsize\":[9.2233720368547758e18,\"unlimited\"],"
		"\"nofile\":[777,888]}}}\n");
	free(out);
}
END_TEST

/* What is usual goes unsaid in the text; the JSON still says it. */
START_TEST(text_plain)
{
	struct hj_explain v;
	char *out;

	full(&v);
	v.container = NULL;
	v.fallback = HIJACK_METHOD_AUTO;
	v.syscall_nr = -ENOSYS;
	v.have_caller_caps = true;
	v.caps_note = "";
	v.securebits_copied = false;
	v.ncgroups = 0;
	v.seccomp_mode = HIJACK_NONE;
	v.lsm = NULL;
	v.env_why = NULL;
	v.nenv = 0;
	v.preserve_fds = 0;
	v.pty_mode = HIJACK_PTY_NEVER;
	v.pty_fds = 0;
	v.limits_mode = HIJACK_KEEP;
	out = render(&v, false);
	ck_assert_ptr_nonnull(strstr(out,
		"target:  pid 4242\n"
		"method:  pidfd; kernel has no hijack(2)\n"));
	ck_assert_ptr_nonnull(strstr(out,
		"  caller  inh 0000000000000000 prm 0000000000000000 eff 0000000000000000 bnd 0000000000000000 amb 0000000000000000\n"
		"  securebits: left at the kernel default: no interface reads another task's\n"
		"cgroups: target\n"
		"seccomp: none; target mode 2, no_new_privs yes; command gets 1 filter(s), no_new_privs yes\n"
		"lsm:     no AppArmor or SELinux active: nothing to apply\n"
		"env:     reset: 0 variables\n"
		"fds:     0-2\n"
		"tty:     never: fds 0-2 passed on as they are, a terminal among them too\n"
		"limits:  keep: the caller's resource limits and oom_score_adj\n"));
	free(out);

	out = render(&v, true);
	ck_assert_ptr_nonnull(strstr(out,
		"{\"pid\":4242,\"method\":\"pidfd\",\"fallback\":null,\"syscall_nr\":null,"));
	ck_assert_ptr_nonnull(strstr(out,
		"\"lsm\":{\"active\":null,\"mode\":\"target\",\"label\":\"docker-default (enforce)\"},"
		"\"env\":{\"mode\":\"reset\",\"count\":0,\"why\":null},\"preserve_fds\":0,"
		"\"pty\":{\"mode\":\"never\",\"fds\":[]},\"limits\":{\"mode\":\"keep\"}}\n"));
	free(out);
}
END_TEST

/* The keys hijack(1) lists in JSON OUTPUT, in its order. */
START_TEST(json_parses_in_order)
{
	static const char *const keys[] = {
		"container", "pid", "method", "fallback", "syscall_nr",
		"namespaces", "root", "cwd", "creds", "caps", "cgroups",
		"seccomp", "lsm", "env", "preserve_fds", "pty", "limits",
	};
	struct hj_explain v;
	json_error_t err;
	const char *key;
	json_t *doc, *val;
	size_t i = 0;
	char *out;

	full(&v);
	out = render(&v, true);
	doc = json_loads(out, JSON_REJECT_DUPLICATES, &err);
	ck_assert_msg(doc, "not JSON: %s", err.text);
	json_object_foreach(doc, key, val) {
		ck_assert_uint_lt(i, ARRAY_SIZE(keys));
		ck_assert_str_eq(key, keys[i++]);
	}
	ck_assert_uint_eq(i, ARRAY_SIZE(keys));
	/* Each byte that is not UTF-8 read back as the character of its number. */
	val = json_object_get(json_object_get(doc, "cwd"), "path");
	ck_assert_ptr_nonnull(json_string_value(val));
	ck_assert_str_eq(json_string_value(val), "/srv/a \"b\"\\c\xc2\x9b\xc3\xa9\xc3\xbf");
	json_decref(doc);
	free(out);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("explain");
	TCase *tc = tcase_create("explain");

	tcase_add_test(tc, text_full);
	tcase_add_test(tc, json_full);
	tcase_add_test(tc, text_plain);
	tcase_add_test(tc, json_parses_in_order);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
