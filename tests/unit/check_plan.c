// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_plan - pinning targets and building plans against real tasks in
 * fresh namespaces (src/libhijack/target.c, plan.c, explain.c), and what
 * the accessors of a plan give.
 */
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

#define TARGET_FLAGS (CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWNS)

static pid_t target;

static void setup(void)
{
	target = tl_spawn_target(TARGET_FLAGS);
	ck_assert_int_gt(target, 0);
}

static void teardown(void)
{
	tl_kill_target(target);
}

START_TEST(open_rejects_bad_pids)
{
	struct hijack_target *t = NULL;
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hijack_target_open(0, &t, &d), -EINVAL);
	ck_assert_int_eq(d.step, HIJACK_STEP_TARGET);
	ck_assert_str_eq(d.detail, "pid 0 is not a process id");
	ck_assert_int_eq(hijack_target_open(-1, &t, &d), -EINVAL);
	/* Above the largest pid_max the kernel allows. */
	ck_assert_int_eq(hijack_target_open(4194304, &t, &d), -ESRCH);
	ck_assert_str_eq(d.detail, "pid 4194304");
	ck_assert_ptr_null(t);
}
END_TEST

START_TEST(pinned_target_notices_exit)
{
	struct hijack_target *t = NULL;
	struct hijack_plan *p = NULL;
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_diag d = { 0 };
	pid_t pid = fork();

	if (pid == 0) {
		pause();
		_exit(0);
	}
	ck_assert_int_eq(hijack_target_open(pid, &t, &d), 0);
	ck_assert_int_eq(hj_target_alive(t), 0);
	ck_assert_int_eq(hijack_target_pid(t), pid);
	(void)kill(pid, SIGKILL);
	(void)waitpid(pid, NULL, 0);
	/* Reaped: the pid may already belong to someone else. */
	ck_assert_int_eq(hj_target_alive(t), -ESRCH);
	ck_assert_int_lt(hijack_plan_build(t, &o, &p, &d), 0);
	ck_assert_ptr_null(p);
	hijack_target_free(t);
}
END_TEST

/* A plan on @target, or NULL where @expect is an error. */
static struct hijack_plan *plan_for(const struct hijack_opts *o, int expect)
{
	struct hijack_target *t = NULL;
	struct hijack_plan *p = NULL;
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hijack_target_open(target, &t, &d), 0);
	ck_assert_int_eq(hijack_plan_build(t, o, &p, &d), expect);
	/* A failed build leaves its output alone. */
	if (expect < 0)
		ck_assert_ptr_null(p);
	hijack_target_free(t);
	return p;
}

START_TEST(default_enters_what_differs)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	struct stat st;
	int i;

	p = plan_for(&o, 0);
	ck_assert_uint_eq(p->ns_mask, HIJACK_NS_BIT(HIJACK_NS_UTS) |
				     HIJACK_NS_BIT(HIJACK_NS_IPC) |
				     HIJACK_NS_BIT(HIJACK_NS_NET) |
				     HIJACK_NS_BIT(HIJACK_NS_MNT));
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		char path[64];

		if (!p->ns[i].ino)
			continue;
		(void)snprintf(path, sizeof(path), "/proc/%d/ns/%s",
			       (int)target, hijack_ns_name(i));
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_uint_eq(p->ns[i].ino, st.st_ino);
		ck_assert_uint_eq(p->ns[i].dev, st.st_dev);
		ck_assert_int_eq(p->ns[i].enter,
				 !!(p->ns_mask & HIJACK_NS_BIT(i)));
	}
	/*
	 * The user namespace is shared, so never entered: nor asked of
	 * hijack(2), which refuses one's own with EINVAL, as setns(2) does.
	 */
	ck_assert(!p->ns[HIJACK_NS_USER].enter);
	ck_assert_uint_eq(hj_syscall_ns_mask(p) & CLONE_NEWUSER, 0);
	ck_assert_int_eq(p->method, HIJACK_METHOD_PIDFD);
	ck_assert_int_eq(p->method_fallback, HIJACK_METHOD_NSFD);
	ck_assert_str_eq(p->root, "/");
	hijack_plan_free(p);
}
END_TEST

START_TEST(select_and_exclude)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;

	o.ns_select = HIJACK_NS_BIT(HIJACK_NS_NET) |
		      HIJACK_NS_BIT(HIJACK_NS_PID);
	p = plan_for(&o, 0);
	/* pid is shared with the target: selected, but nothing to enter. */
	ck_assert_uint_eq(p->ns_mask, HIJACK_NS_BIT(HIJACK_NS_NET));
	hijack_plan_free(p);

	o.ns_select = 0;
	o.ns_exclude = HIJACK_NS_BIT(HIJACK_NS_MNT) |
		       HIJACK_NS_BIT(HIJACK_NS_NET);
	p = plan_for(&o, 0);
	ck_assert_uint_eq(p->ns_mask, HIJACK_NS_BIT(HIJACK_NS_UTS) |
				     HIJACK_NS_BIT(HIJACK_NS_IPC));
	ck_assert(!p->ns[HIJACK_NS_MNT].enter);
	hijack_plan_free(p);
}
END_TEST

START_TEST(method_names)
{
	int i;

	for (i = 0; i < _HIJACK_METHOD_MAX; i++)
		ck_assert_int_eq(hijack_method_from_name(hijack_method_name(i)), i);
	ck_assert_int_eq(hijack_method_from_name("bogus"), -EINVAL);
	ck_assert_int_eq(hijack_method_from_name(""), -EINVAL);
	/* Out of range: "unknown", never NULL (include/hijack.h). */
	ck_assert_str_eq(hijack_method_name(_HIJACK_METHOD_MAX), "unknown");
	ck_assert_str_eq(hijack_method_name((enum hijack_method)-1), "unknown");
}
END_TEST

START_TEST(methods)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_diag d = { 0 };
	struct hijack_target *t = NULL;
	struct hijack_plan *p = NULL;

	o.method = HIJACK_METHOD_NSFD;
	p = plan_for(&o, 0);
	ck_assert_int_eq(p->method, HIJACK_METHOD_NSFD);
	ck_assert_int_eq(p->method_fallback, HIJACK_METHOD_AUTO);
	hijack_plan_free(p);
	p = NULL;

	o.method = HIJACK_METHOD_SYSCALL;
	ck_assert_int_eq(hijack_target_open(target, &t, &d), 0);
	if (hj_syscall_nr() < 0) {
		ck_assert_int_eq(hijack_plan_build(t, &o, &p, &d), -ENOSYS);
		ck_assert_int_eq(d.step, HIJACK_STEP_PLAN);
	} else {
		ck_assert_int_eq(hijack_plan_build(t, &o, &p, &d), 0);
		ck_assert_int_eq(p->method, HIJACK_METHOD_SYSCALL);
		hijack_plan_free(p);
		p = NULL;
		/* A subset of namespaces cannot be done in one call. */
		o.ns_select = HIJACK_NS_BIT(HIJACK_NS_NET);
		ck_assert_int_eq(hijack_plan_build(t, &o, &p, &d),
				 -EOPNOTSUPP);
	}
	ck_assert_ptr_null(p);
	hijack_target_free(t);
}
END_TEST

START_TEST(dirs)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	char cwd[4096];

	o.root_mode = HIJACK_DIR_KEEP;
	o.wd_mode = HIJACK_DIR_KEEP;
	p = plan_for(&o, 0);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_str_eq(p->wd, cwd);
	ck_assert_str_eq(p->root, "/");
	hijack_plan_free(p);

	o.root_mode = HIJACK_DIR_PATH;
	o.root_path = "/srv/root";
	o.wd_mode = HIJACK_DIR_PATH;
	o.wd_path = "var/lib";
	p = plan_for(&o, 0);
	ck_assert_str_eq(p->root, "/srv/root");
	ck_assert_str_eq(p->wd, "var/lib");
	hijack_plan_free(p);

	o.wd_path = "";
	(void)plan_for(&o, -EINVAL);
}
END_TEST

/*
 * The plan's paths are its own allocations, as long as they come: a path
 * longer than PATH_MAX is the kernel's to refuse at chroot or chdir, and
 * the policy file's name is kept as given.
 */
START_TEST(long_paths)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	static char deep[3 * PATH_MAX];
	char *dir, policy[PATH_MAX];
	size_t i;

	for (i = 0; i + 2 < sizeof(deep); i += 2)
		memcpy(deep + i, "/d", 2);
	o.root_mode = HIJACK_DIR_PATH;
	o.root_path = deep;
	o.wd_mode = HIJACK_DIR_PATH;
	o.wd_path = deep + 1;
	p = plan_for(&o, 0);
	ck_assert_str_eq(p->root, deep);
	ck_assert_str_eq(p->wd, deep + 1);
	ck_assert_ptr_null(p->seccomp_file);
	hijack_plan_free(p);

	/*
	 * No policy named, or one that cannot be read, fails the plan; a
	 * readable one's name is kept in a copy of the plan's own.
	 */
	o = (struct hijack_opts)HIJACK_OPTS_INIT;
	o.seccomp = HIJACK_FROM_FILE;
	(void)plan_for(&o, -EINVAL);
	o.seccomp_file = "/nonexistent/policy";
	(void)plan_for(&o, -ENOENT);

	dir = tl_mkdtemp();
	tl_write(dir, "policy", "default allow\nerrno EACCES chmod\n");
	(void)snprintf(policy, sizeof(policy), "%s/policy", dir);
	o.seccomp_file = policy;
	p = plan_for(&o, 0);
	ck_assert_str_eq(p->seccomp_file, policy);
	ck_assert_ptr_ne(p->seccomp_file, policy);
	ck_assert_uint_gt(p->nfilters, 0);
	hijack_plan_free(p);
	tl_rmtree(dir);
}
END_TEST

START_TEST(confinement_parts)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	char *setenv[] = { "HIJACK_UNIT=1", NULL };
	bool found = false;
	char **e;

	o.setenv = setenv;
	p = plan_for(&o, 0);
	/* The target is a forked copy of this process: same ids and caps. */
	ck_assert_uint_eq(p->target_creds.uid, getuid());
	ck_assert_uint_eq(p->creds.euid, geteuid());
	ck_assert_int_eq(p->creds_mode, HIJACK_FROM_TARGET);
	ck_assert_uint_eq(p->caps.prm, p->target_caps.prm);
	ck_assert_uint_eq(p->caps.bnd, p->target_caps.bnd);
	ck_assert_str_eq(p->caps_note, "");
	ck_assert_uint_gt(p->ncgroups, 0);
	for (size_t i = 0; i < p->ncgroups; i++)
		ck_assert(!p->cgroups[i].join);
	ck_assert_uint_eq(p->nfilters, 0);
	for (e = p->envp; e && *e; e++)
		found |= strcmp(*e, "HIJACK_UNIT=1") == 0;
	ck_assert(found);
	hijack_plan_free(p);

	o.setenv = NULL;
	o.creds = HIJACK_KEEP;
	o.user = "root";
	(void)plan_for(&o, -EINVAL);
}
END_TEST

/*
 * What a plan with @o gives of the target's: its environment and working
 * directory (true when they are the target's), why not, and whether the
 * reset environment has its fixed PATH and HOME.
 */
struct freer_view {
	bool env, wd, path, home;
	const char *env_why, *wd_why;
};

static struct freer_view view_of(const struct hijack_opts *o)
{
	struct hijack_plan *p = plan_for(o, 0);
	struct freer_view v = {
		.env = p->env_mode == HIJACK_FROM_TARGET,
		.wd = p->wd_mode == HIJACK_DIR_TARGET,
		.env_why = p->env_why,
		.wd_why = p->wd_why,
	};
	char **e;

	if (!v.wd)
		ck_assert_str_eq(p->wd, "/");
	for (e = p->envp; *e; e++) {
		v.path |= strcmp(*e, "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin") == 0;
		v.home |= strcmp(*e, "HOME=/") == 0;
	}
	hijack_plan_free(p);
	return v;
}

/* Case @i of a command freer than the target: @o set so, and the reason. */
static const char *freer_than_target(int i, struct hijack_opts *o)
{
	switch (i) {
	case 0: o->user = "65534";
		return "the command runs with ids other than the target's";
	case 1: o->group = "65534";
		return "the command runs with ids other than the target's";
	case 2: o->creds = HIJACK_KEEP;
		return "the command runs with ids other than the target's";
	case 3: o->caps = HIJACK_KEEP;
		return "the command keeps the caller's capabilities";
	case 4: o->seccomp = HIJACK_NONE;
		return "the command has a seccomp filter other than the target's";
	case 5: o->lsm = HIJACK_KEEP;
		return "the command keeps the caller's LSM label";
	case 6: o->cgroup = HIJACK_KEEP;
		return "the command stays in the caller's cgroups";
	case 7: o->limits = HIJACK_KEEP;
		return "the command keeps the caller's resource limits";
	case 8: o->preserve_fds = 1;
		return "the command gets file descriptors of the caller's";
	case 9: o->root_mode = HIJACK_DIR_KEEP;
		return "the command has a root directory other than the target's";
	case 10: o->ns_exclude = HIJACK_NS_BIT(HIJACK_NS_NET);
		return "the command stays outside a namespace of the target";
	default: return NULL;
	}
}

/*
 * The target's environment and working directory are the defaults only
 * for a command confined as the target is; any other gets the reset
 * environment, with a fixed PATH and HOME, and "/", unless the caller
 * asked for the target's by name, part by part.
 */
START_TEST(freer_command_not_given_the_targets)
{
	const unsigned int env = HIJACK_PART_BIT(HIJACK_PART_ENV);
	const unsigned int wd = HIJACK_PART_BIT(HIJACK_PART_WD);
	struct freer_view v;
	const char *want;
	int i;

	for (i = 0; ; i++) {
		struct hijack_opts o = HIJACK_OPTS_INIT;

		want = freer_than_target(i, &o);
		if (!want)
			break;
		v = view_of(&o);
		ck_assert(!v.env && !v.wd && v.path && v.home);
		ck_assert_pstr_eq(v.env_why, want);
		ck_assert_pstr_eq(v.wd_why, want);
		/* Asked for by name, the target's it is, part by part. */
		o.target_anyway = env;
		v = view_of(&o);
		ck_assert(v.env && !v.wd);
		ck_assert_ptr_null(v.env_why);
		o.target_anyway = wd;
		v = view_of(&o);
		ck_assert(!v.env && v.wd);
		ck_assert_ptr_null(v.wd_why);
		/* A caller built before the field existed cannot ask. */
		o.target_anyway = env | wd;
		o.struct_size = offsetof(struct hijack_opts, target_anyway);
		v = view_of(&o);
		ck_assert(!v.env && !v.wd);
	}
	ck_assert_int_eq(i, 11);
	{
		struct hijack_opts o = HIJACK_OPTS_INIT;

		/* The target's own confinement: its environment and cwd. */
		v = view_of(&o);
		ck_assert(v.env && v.wd);
		ck_assert_ptr_null(v.env_why);
		ck_assert_ptr_null(v.wd_why);
		/* An explicit reset or path is not explained as a default. */
		o.user = "65534";
		o.env = HIJACK_RESET;
		o.wd_mode = HIJACK_DIR_PATH;
		o.wd_path = "/";
		v = view_of(&o);
		ck_assert(!v.env && !v.wd && v.path && v.home);
		ck_assert_ptr_null(v.env_why);
		ck_assert_ptr_null(v.wd_why);
	}
}
END_TEST

/*
 * A target whose real and effective ids differ runs a setuid program: its
 * environment and working directory are its caller's, not its own.
 */
START_TEST(setuid_target_not_its_own)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct freer_view v;
	pid_t twin = target;
	int ready[2];
	char c;

	ck_assert_int_eq(pipe2(ready, O_CLOEXEC), 0);
	target = fork();
	ck_assert_int_ge(target, 0);
	if (target == 0) {
		if (setresuid(65534, 0, 0) < 0)
			_exit(1);
		(void)write(ready[1], "r", 1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	close(ready[0]);
	v = view_of(&o);
	ck_assert(!v.env && !v.wd);
	ck_assert_pstr_eq(v.env_why, "the target runs a setuid or setgid program, whose environment and working directory its caller chose");
	(void)kill(target, SIGKILL);
	(void)waitpid(target, NULL, 0);
	target = twin;
}
END_TEST

START_TEST(terminal)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	unsigned int ttys = 0;
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (isatty(fd))
			ttys |= 1u << fd;
	/* auto: exactly the fds that are terminals here. */
	p = plan_for(&o, 0);
	ck_assert_int_eq(p->pty_mode, HIJACK_PTY_AUTO);
	ck_assert_uint_eq(p->pty_fds, ttys);
	hijack_plan_free(p);

	o.pty = HIJACK_PTY_ALWAYS;
	p = plan_for(&o, 0);
	ck_assert_uint_eq(p->pty_fds, 07);
	hijack_plan_free(p);

	o.pty = HIJACK_PTY_NEVER;
	p = plan_for(&o, 0);
	ck_assert_uint_eq(p->pty_fds, 0);
	hijack_plan_free(p);

	/* A caller built before the field existed gets the default. */
	o.pty = HIJACK_PTY_ALWAYS;
	o.struct_size = offsetof(struct hijack_opts, pty);
	p = plan_for(&o, 0);
	ck_assert_int_eq(p->pty_mode, HIJACK_PTY_AUTO);
	ck_assert_uint_eq(p->pty_fds, ttys);
	hijack_plan_free(p);

	o.struct_size = sizeof(o);
	o.pty = (enum hijack_pty)42;
	(void)plan_for(&o, -EINVAL);
}
END_TEST

START_TEST(root_exec_never_gains)
{
	struct hijack_caps t = { .inh = 0, .prm = 0x3, .eff = 0x3,
				 .bnd = 0xff, .amb = 0 };
	struct hijack_caps c;
	char note[160];

	/* A root exec would give I|B = 0xff: B is lowered to P. */
	hj_caps_plan(&t, true, false, &c, note, sizeof(note));
	ck_assert_uint_eq(c.bnd, 0x3);
	ck_assert_uint_eq(c.prm, 0x3);
	ck_assert_str_ne(note, "");
	/* no_new_privs caps the exec at P already: nothing to lower. */
	hj_caps_plan(&t, true, true, &c, note, sizeof(note));
	ck_assert_uint_eq(c.bnd, 0xff);
	ck_assert_str_eq(note, "");
	/* Non-root: exec keeps only the ambient set; say so. */
	hj_caps_plan(&t, false, false, &c, note, sizeof(note));
	ck_assert_uint_eq(c.bnd, 0xff);
	ck_assert_str_ne(note, "");
}
END_TEST

START_TEST(bad_opts)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;

	o.struct_size = 8;
	(void)plan_for(&o, -EINVAL);
	o.struct_size = sizeof(o);
	o.ns_select = 1u << 30;
	(void)plan_for(&o, -EINVAL);
}
END_TEST

/* What a program outside the library reads of a plan. */
START_TEST(accessors)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	dev_t dev = 0;
	ino_t ino = 0;
	int i;

	o.caps = HIJACK_KEEP;
	o.seccomp = HIJACK_NONE;
	o.root_mode = HIJACK_DIR_PATH;
	o.root_path = "/";
	o.pty = HIJACK_PTY_ALWAYS;
	p = plan_for(&o, 0);
	ck_assert_int_eq(hijack_plan_pid(p), target);
	ck_assert_uint_eq(hijack_plan_ns_mask(p), p->ns_mask);
	ck_assert_uint_eq(hijack_plan_uid(p), p->creds.uid);
	ck_assert_uint_eq(hijack_plan_pty_fds(p), 07);
	for (i = 0; i < _HIJACK_NS_MAX; i++) {
		int r = hijack_plan_ns_inode(p, i, &dev, &ino);

		if (!p->ns[i].ino) {
			ck_assert_int_eq(r, -ENOENT);
			continue;
		}
		ck_assert_int_eq(r, 0);
		ck_assert_uint_eq(dev, p->ns[i].dev);
		ck_assert_uint_eq(ino, p->ns[i].ino);
		/* Either output may be left out. */
		ck_assert_int_eq(hijack_plan_ns_inode(p, i, NULL, NULL), 0);
	}
	ck_assert_int_eq(hijack_plan_ns_inode(p, _HIJACK_NS_MAX, &dev, &ino),
			 -EINVAL);
	ck_assert_int_eq(hijack_plan_ns_inode(p, (enum hijack_ns)-1, NULL, NULL),
			 -EINVAL);

	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_ROOT), HIJACK_DIR_PATH);
	/* Freer than the target: "/", not its working directory. */
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_WD), HIJACK_DIR_PATH);
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_CREDS), HIJACK_FROM_TARGET);
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_CAPS), HIJACK_KEEP);
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_CGROUP), HIJACK_FROM_TARGET);
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_SECCOMP), HIJACK_NONE);
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_LSM), HIJACK_FROM_TARGET);
	/* Kept capabilities and no filter: not the target's environment. */
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_ENV), HIJACK_RESET);
	ck_assert_int_eq(hijack_plan_mode(p, HIJACK_PART_LIMITS), HIJACK_FROM_TARGET);
	ck_assert_int_eq(hijack_plan_mode(p, _HIJACK_PART_MAX), -EINVAL);
	ck_assert_int_eq(hijack_plan_mode(p, (enum hijack_part)-1), -EINVAL);
	hijack_plan_free(p);
	hijack_plan_free(NULL);
}
END_TEST

/*
 * A target found as a container hands the plan a copy of it; one pinned
 * by pid hands none.  The plan outlives the target.
 */
START_TEST(container_from_target)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_target *t = NULL;
	struct hijack_plan *p = NULL;
	struct hijack_container c;
	struct hijack_diag d = { 0 };
	char name[32];

	(void)snprintf(name, sizeof(name), "pid:%d", (int)target);
	ck_assert_int_eq(hijack_container_find(name, &c, &d), 0);
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), 0);
	ck_assert_int_eq(hijack_plan_build(t, &o, &p, &d), 0);
	hijack_target_free(t);
	ck_assert_ptr_nonnull(p->container);
	ck_assert_ptr_ne(p->container, &c);
	ck_assert_str_eq(p->container->engine, "pid");
	ck_assert_int_eq(p->container->pid, target);
	hijack_plan_free(p);

	p = plan_for(&o, 0);
	ck_assert_ptr_null(p->container);
	hijack_plan_free(p);
}
END_TEST

/* Print @p as text into @buf. */
static void print_text(const struct hijack_plan *p, char *buf, size_t size)
{
	FILE *f = fmemopen(buf, size - 1, "w");

	ck_assert_ptr_nonnull(f);
	memset(buf, 0, size);
	ck_assert_int_eq(hijack_plan_print(p, false, f), 0);
	fclose(f);
}

/*
 * The caller's side is read when the plan is built: a caller that changes
 * its limits afterwards (this test case runs in a process of its own)
 * still sees the plan as it was decided.
 */
START_TEST(caller_at_build)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	static char before[65536], after[65536];
	struct rlimit rl;

	p = plan_for(&o, 0);
	ck_assert_uint_eq(p->caller.creds.uid, getuid());
	ck_assert_uint_eq(p->caller.creds.egid, getegid());
	ck_assert_uint_eq(p->caller.creds.ngroups, 0);
	ck_assert(p->caller.have_caps);
	ck_assert(p->caller.limits.have & BIT(RLIMIT_NOFILE));
	print_text(p, before, sizeof(before));
	/* The target is a copy of this process: no limit differs. */
	ck_assert_ptr_nonnull(strstr(before, "every resource limit as the caller's"));

	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_uint_gt(rl.rlim_cur, 64);
	rl.rlim_cur = 64;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	print_text(p, after, sizeof(after));
	ck_assert_str_eq(after, before);
	hijack_plan_free(p);

	/* A plan built now compares with the new limit. */
	p = plan_for(&o, 0);
	print_text(p, after, sizeof(after));
	ck_assert_ptr_nonnull(strstr(after, "differing: nofile"));
	hijack_plan_free(p);

	/* Kept limits: nothing of the caller's to compare, none read. */
	o.limits = HIJACK_KEEP;
	p = plan_for(&o, 0);
	ck_assert_uint_eq(p->caller.limits.have, 0);
	hijack_plan_free(p);
}
END_TEST

START_TEST(explain_json)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_plan *p;
	char buf[65536] = { 0 };
	FILE *f;

	p = plan_for(&o, 0);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(hijack_plan_print(p, true, f), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\"net\":{\"caller\""));
	ck_assert_ptr_nonnull(strstr(buf, "\"action\":\"enter\",\"enter\":true"));
	ck_assert_ptr_nonnull(strstr(buf, "\"user\":{"));
	ck_assert_ptr_nonnull(strstr(buf, "\"action\":\"same\",\"enter\":false"));
	ck_assert_int_eq(buf[0], '{');
	ck_assert_ptr_nonnull(strstr(buf, "\"seccomp\":{\"mode\":\"target\""));
	ck_assert_str_eq(buf + strlen(buf) - 2, "}\n");
	hijack_plan_free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("plan");
	TCase *any = tcase_create("unprivileged");
	TCase *priv = tcase_create("namespaces");

	tcase_add_test(any, open_rejects_bad_pids);
	tcase_add_test(any, pinned_target_notices_exit);
	tcase_add_test(any, root_exec_never_gains);
	tcase_add_test(any, method_names);
	suite_add_tcase(s, any);

	/* Registered only where namespaces can be made: no false failures. */
	if (tl_have_root()) {
		tcase_add_checked_fixture(priv, setup, teardown);
		tcase_add_test(priv, default_enters_what_differs);
		tcase_add_test(priv, select_and_exclude);
		tcase_add_test(priv, methods);
		tcase_add_test(priv, dirs);
		tcase_add_test(priv, long_paths);
		tcase_add_test(priv, bad_opts);
		tcase_add_test(priv, confinement_parts);
		tcase_add_test(priv, freer_command_not_given_the_targets);
		tcase_add_test(priv, setuid_target_not_its_own);
		tcase_add_test(priv, terminal);
		tcase_add_test(priv, accessors);
		tcase_add_test(priv, container_from_target);
		tcase_add_test(priv, caller_at_build);
		tcase_add_test(priv, explain_json);
		suite_add_tcase(s, priv);
	} else {
		printf("# SKIP namespace cases: they need root to create namespaces\n");
	}
	return tl_run(s);
}
