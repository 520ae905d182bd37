// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_cgroup - finding the target's cgroups (src/libhijack/cgroup.c):
 * a fixture /proc/PID/cgroup read against this process's mount table,
 * which the root cases lay out themselves in a private mount namespace.
 */
#include <fcntl.h>
#include <mntent.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

static char *dir;
static struct hijack_target t = { .pidfd = -EBADF, .procfd = -EBADF };
static struct hijack_plan p;

static void setup(void)
{
	t.procfd = tl_fixture_open(&dir);
	t.pid = getpid();
	memset(&p, 0, sizeof(p));
	p.cgroup_mode = HIJACK_FROM_TARGET;
}

static void teardown(void)
{
	hj_cgroups_free(p.cgroups, p.ncgroups);
	tl_fixture_close(&dir, t.procfd);
}

static void plan(const char *cgroup_file)
{
	struct hijack_diag d = { 0 };

	hj_cgroups_free(p.cgroups, p.ncgroups);
	p.cgroups = NULL;
	p.ncgroups = 0;
	tl_write(dir, "cgroup", cgroup_file);
	ck_assert_int_eq(hj_cgroup_plan(&t, &p, &d), 0);
}

/* This process's own line for @controllers, from /proc/self/cgroup. */
static void self_path(const char *controllers, char *buf, size_t size)
{
	char *text = NULL, *line, *save = NULL, want[80];

	(void)snprintf(want, sizeof(want), ":%s:", controllers);
	ck_assert_int_eq(hj_read_at(AT_FDCWD, "/proc/self/cgroup", &text, NULL), 0);
	buf[0] = '\0';
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, want))
			(void)snprintf(buf, size, "%s", strstr(line, want) + strlen(want));
	free(text);
}

START_TEST(parse_lines)
{
	struct hijack_diag d = { 0 };

	plan("garbage\n"
	     "1:onlyone\n"
	     "\n"
	     "12:cpu,cpuacct:/a/b\n"
	     "3:name=hjunit-none:/x:y\n"
	     "0::/c");
	ck_assert_uint_eq(p.ncgroups, 3);
	ck_assert_str_eq(p.cgroups[0].controllers, "cpu,cpuacct");
	ck_assert_str_eq(p.cgroups[0].path, "/a/b");
	ck_assert_str_eq(p.cgroups[1].controllers, "name=hjunit-none");
	ck_assert_str_eq(p.cgroups[1].path, "/x:y");
	/* No such hierarchy here: nowhere to find it, but joined all the same. */
	ck_assert_ptr_null(p.cgroups[1].dir);
	ck_assert_ptr_null(p.cgroups[1].self_path);
	ck_assert(p.cgroups[1].join);
	ck_assert_str_eq(p.cgroups[2].controllers, "");
	ck_assert_str_eq(p.cgroups[2].path, "/c");
	plan("");
	ck_assert_uint_eq(p.ncgroups, 0);
	/* A target without the file: its pid is named. */
	ck_assert_int_eq(unlinkat(t.procfd, "cgroup", 0), 0);
	ck_assert_int_eq(hj_cgroup_plan(&t, &p, &d), -ENOENT);
	ck_assert_int_eq(d.step, HIJACK_STEP_OPEN);
}
END_TEST

/* Only a cgroup other than the caller's own needs joining. */
START_TEST(join_what_differs)
{
	char mine[512], text[600];

	self_path("", mine, sizeof(mine));
	(void)snprintf(text, sizeof(text), "0::%s\n", mine);
	plan(text);
	ck_assert_uint_eq(p.ncgroups, 1);
	ck_assert_str_eq(p.cgroups[0].self_path, mine);
	ck_assert(!p.cgroups[0].join);
	(void)snprintf(text, sizeof(text), "0::%s/hjunit-elsewhere\n",
		       strcmp(mine, "/") ? mine : "");
	plan(text);
	ck_assert(p.cgroups[0].join);
	/* --keep-cgroup joins nothing. */
	p.cgroup_mode = HIJACK_KEEP;
	plan(text);
	ck_assert(!p.cgroups[0].join);
}
END_TEST

/* Take every cgroup mount out of this (private) mount namespace. */
static void unmount_cgroups(void)
{
	struct mntent *m;
	bool again = true;
	FILE *f;

	while (again) {
		again = false;
		f = setmntent("/proc/self/mounts", "re");
		ck_assert_ptr_nonnull(f);
		while ((m = getmntent(f)))
			if (strncmp(m->mnt_type, "cgroup", 6) == 0 &&
			    umount2(m->mnt_dir, MNT_DETACH) == 0)
				again = true;
		(void)endmntent(f);
	}
}

static void mkdir_in(const char *rel, char *ret, size_t size)
{
	(void)snprintf(ret, size, "%s/%s", dir, rel);
	ck_assert_int_eq(mkdir(ret, 0755), 0);
}

/*
 * The host directory of each hierarchy, against a mount table made here:
 * a private mount namespace without the host's cgroup mounts, then a v1
 * controller, a named v1 hierarchy of our own, a bind mount of a subtree
 * of it, and cgroup2.
 */
START_TEST(find_dirs)
{
	char cpu[1100], named[1100], sub[1100], v2[1100], opts[64], want[1200];
	const char *name = opts + strlen("none,");

	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	unmount_cgroups();
	plan("1:cpu:/a\n0::/b\n");
	ck_assert_ptr_null(p.cgroups[0].dir);
	ck_assert_ptr_null(p.cgroups[1].dir);

	mkdir_in("cpu", cpu, sizeof(cpu));
	mkdir_in("named", named, sizeof(named));
	mkdir_in("sub", sub, sizeof(sub));
	mkdir_in("v2", v2, sizeof(v2));
	ck_assert_int_eq(mount("cgroup", cpu, "cgroup", 0, "cpu"), 0);
	/*
	 * One fixed name: a v1 hierarchy outlives its last mount here even
	 * without children (measured: one left per run with a name of its
	 * own), and mounting the same name again reuses it.
	 */
	(void)snprintf(opts, sizeof(opts), "none,name=hjunit");
	ck_assert_int_eq(mount("cgroup", named, "cgroup", 0, opts), 0);
	ck_assert_int_eq(mount("cgroup2", v2, "cgroup2", 0, NULL), 0);

	/* Every controller of a line must be on the mount. */
	plan("1:cpu:/a/b\n2:cpu,cpuacct:/a\n3:cpuacct:/a\n0::/c/d\n");
	(void)snprintf(want, sizeof(want), "%s/a/b", cpu);
	ck_assert_str_eq(p.cgroups[0].dir, want);
	ck_assert_ptr_null(p.cgroups[1].dir);
	ck_assert_ptr_null(p.cgroups[2].dir);
	(void)snprintf(want, sizeof(want), "%s/c/d", v2);
	ck_assert_str_eq(p.cgroups[3].dir, want);

	/* Named hierarchies match by the whole name. */
	(void)snprintf(want, sizeof(want), "5:%s:/q\n5:%sx:/q\n5:%.*s:/q\n", name,
		       name, (int)strlen(name) - 1, name);
	plan(want);
	(void)snprintf(want, sizeof(want), "%s/q", named);
	ck_assert_str_eq(p.cgroups[0].dir, want);
	ck_assert_ptr_null(p.cgroups[1].dir);
	ck_assert_ptr_null(p.cgroups[2].dir);

	/* A mount of a subtree serves the paths below its root, no others. */
	(void)snprintf(want, sizeof(want), "%s/s", named);
	ck_assert_int_eq(mkdir(want, 0755), 0);
	ck_assert_int_eq(mount(want, sub, NULL, MS_BIND, NULL), 0);
	ck_assert_int_eq(umount2(named, 0), 0);
	(void)snprintf(want, sizeof(want), "5:%s:/s/t/u\n5:%s:/s\n5:%s:/st\n5:%s:/\n",
		       name, name, name, name);
	plan(want);
	(void)snprintf(want, sizeof(want), "%s/t/u", sub);
	ck_assert_str_eq(p.cgroups[0].dir, want);
	ck_assert_str_eq(p.cgroups[1].dir, sub);
	ck_assert_ptr_null(p.cgroups[2].dir);
	ck_assert_ptr_null(p.cgroups[3].dir);

	/* Leave no cgroup behind: the named hierarchy goes with it. */
	ck_assert_int_eq(mount("cgroup", named, "cgroup", 0, opts), 0);
	ck_assert_int_eq(umount2(sub, 0), 0);
	(void)snprintf(want, sizeof(want), "%s/s", named);
	ck_assert_int_eq(rmdir(want), 0);
	ck_assert_int_eq(umount2(named, 0), 0);
	ck_assert_int_eq(umount2(cpu, 0), 0);
	ck_assert_int_eq(umount2(v2, 0), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cgroup");
	TCase *any = tcase_create("fixture");
	TCase *priv = tcase_create("mounts");

	tcase_add_checked_fixture(any, setup, teardown);
	tcase_add_test(any, parse_lines);
	tcase_add_test(any, join_what_differs);
	suite_add_tcase(s, any);
	if (tl_have_root()) {
		tcase_add_checked_fixture(priv, setup, teardown);
		tcase_add_test(priv, find_dirs);
		suite_add_tcase(s, priv);
	} else {
		printf("# SKIP mount table cases: mounting cgroup hierarchies needs root\n");
	}
	return tl_run(s);
}
