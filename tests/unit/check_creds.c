// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_creds - the target's ids from its status text, --user and --group
 * looked up in the container's own account files, and becoming them
 * (src/libhijack/creds.c).  The target is a fixture directory laid out as
 * /proc/PID: its "root" is the container's root.
 */
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

static char *dir;
static struct hijack_target t = { .pidfd = -EBADF, .procfd = -EBADF };

static const char passwd[] =
	"root:x:0:0:root:/root:/bin/sh\n"
	"daemon:x:1:1::/:/usr/sbin/nologin\n"
	"alice:x:1000:1000:Alice:/home/alice:/bin/sh\n"
	"bob:x:1001:100::/home/bob:/bin/sh\n"
	"2000:x:3000:3000:a name that is a number:/:/bin/sh\n";
static const char group[] =
	"root:x:0:\n"
	"users:x:100:alice\n"
	"alice:x:1000:alice\n"
	"wheel:x:10:bob,alice\n"
	"audio:x:29:bob\n"
	"video:x:44:alicex,xalice\n";

static void setup(void)
{
	t.procfd = tl_fixture_open(&dir);
	tl_write(dir, "root/etc/passwd", passwd);
	tl_write(dir, "root/etc/group", group);
	t.pid = getpid();
}

static void teardown(void)
{
	tl_fixture_close(&dir, t.procfd);
}

/* Credentials as the target had them before any override. */
static struct hijack_creds start(void)
{
	struct hijack_creds c = { 5, 5, 5, 5, 6, 6, 6, 6, 0, NULL };

	c.groups = malloc(2 * sizeof(gid_t));
	ck_assert_ptr_nonnull(c.groups);
	c.groups[0] = 7;
	c.groups[1] = 8;
	c.ngroups = 2;
	return c;
}

static void assert_ids(const struct hijack_creds *c, uid_t uid, gid_t gid)
{
	ck_assert_uint_eq(c->uid, uid);
	ck_assert_uint_eq(c->euid, uid);
	ck_assert_uint_eq(c->suid, uid);
	ck_assert_uint_eq(c->fsuid, uid);
	ck_assert_uint_eq(c->gid, gid);
	ck_assert_uint_eq(c->egid, gid);
	ck_assert_uint_eq(c->sgid, gid);
	ck_assert_uint_eq(c->fsgid, gid);
}

/* Remove @rel of the fixture; its path in @path, if wanted. */
static void remove_file(const char *rel, char *path, size_t size)
{
	char buf[1100];

	if (!path)
		path = buf, size = sizeof(buf);
	(void)snprintf(path, size, "%s/%s", dir, rel);
	ck_assert_int_eq(unlink(path), 0);
}

START_TEST(user_by_name)
{
	struct hijack_creds c = start();
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hj_creds_override(&t, "alice", NULL, &c, &d), 0);
	assert_ids(&c, 1000, 1000);
	/* The primary group first, once; then her memberships in file order. */
	ck_assert_uint_eq(c.ngroups, 3);
	ck_assert_uint_eq(c.groups[0], 1000);
	ck_assert_uint_eq(c.groups[1], 100);
	ck_assert_uint_eq(c.groups[2], 10);
	ck_assert_int_eq(hj_creds_override(&t, "bob", NULL, &c, &d), 0);
	assert_ids(&c, 1001, 100);
	ck_assert_uint_eq(c.ngroups, 3);
	ck_assert_uint_eq(c.groups[1], 10);
	ck_assert_uint_eq(c.groups[2], 29);
	hj_creds_free(&c);
	ck_assert_ptr_null(c.groups);
	ck_assert_uint_eq(c.ngroups, 0);
}
END_TEST

START_TEST(user_by_number)
{
	struct hijack_creds c = start();
	struct hijack_diag d = { 0 };

	/* A number with an entry takes the entry's group and groups ... */
	ck_assert_int_eq(hj_creds_override(&t, "1", NULL, &c, &d), 0);
	assert_ids(&c, 1, 1);
	ck_assert_uint_eq(c.ngroups, 1);
	ck_assert_uint_eq(c.groups[0], 1);
	/* ... a number names a uid, even where a user is called that ... */
	ck_assert_int_eq(hj_creds_override(&t, "2000", NULL, &c, &d), 0);
	ck_assert_uint_eq(c.uid, 2000);
	/* ... and one without an entry keeps the gid and drops the groups. */
	hj_creds_free(&c);
	c = start();
	ck_assert_int_eq(hj_creds_override(&t, "4242", NULL, &c, &d), 0);
	assert_ids(&c, 4242, 6);
	ck_assert_uint_eq(c.ngroups, 0);
	ck_assert_ptr_null(c.groups);
	hj_creds_free(&c);
}
END_TEST

START_TEST(user_unknown)
{
	static const char *const bad[] = { "mallory", "-1", "4294967295",
					   "99999999999999999999", "1000x", " 1000",
					   "alic", "+1000", " -18446744069414584322", "" };
	struct hijack_creds c = start();
	struct hijack_diag d = { 0 };
	char want[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(hj_creds_override(&t, bad[i], NULL, &c, &d) == -ENOENT,
			      "--user '%s' was taken", bad[i]);
		ck_assert_int_eq(d.step, HIJACK_STEP_CREDS);
		/* Nothing changed on failure. */
		assert_ids(&c, 5, 6);
		ck_assert_uint_eq(c.ngroups, 2);
	}
	(void)snprintf(want, sizeof(want), "user '' in /etc/passwd of pid %d",
		       (int)getpid());
	ck_assert_str_eq(d.detail, want);
	hj_creds_free(&c);
}
END_TEST

START_TEST(group_override)
{
	struct hijack_creds c = start();
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hj_creds_override(&t, NULL, "wheel", &c, &d), 0);
	assert_ids(&c, 5, 10);
	/* --group alone leaves the supplementary groups. */
	ck_assert_uint_eq(c.ngroups, 2);
	ck_assert_int_eq(hj_creds_override(&t, NULL, "555", &c, &d), 0);
	ck_assert_uint_eq(c.gid, 555);
	ck_assert_int_eq(hj_creds_override(&t, NULL, "nogroup", &c, &d), -ENOENT);
	ck_assert_uint_eq(c.gid, 555);
	/* Both: the user's groups, then the group named replaces the gid. */
	ck_assert_int_eq(hj_creds_override(&t, "alice", "audio", &c, &d), 0);
	ck_assert_uint_eq(c.uid, 1000);
	ck_assert_uint_eq(c.gid, 29);
	ck_assert_uint_eq(c.ngroups, 3);
	hj_creds_free(&c);
}
END_TEST

START_TEST(no_account_files)
{
	struct hijack_creds c = start();
	struct hijack_diag d = { 0 };

	remove_file("root/etc/passwd", NULL, 0);
	remove_file("root/etc/group", NULL, 0);
	/* Numbers need no file; names cannot be found without one. */
	ck_assert_int_eq(hj_creds_override(&t, "7", "8", &c, &d), 0);
	assert_ids(&c, 7, 8);
	ck_assert_int_eq(hj_creds_override(&t, "root", NULL, &c, &d), -ENOENT);
	ck_assert_int_eq(hj_creds_override(&t, NULL, "root", &c, &d), -ENOENT);
	/* An empty file holds no entry. */
	tl_write(dir, "root/etc/passwd", "");
	ck_assert_int_eq(hj_creds_override(&t, "root", NULL, &c, &d), -ENOENT);
	ck_assert_int_eq(hj_creds_override(&t, "0", NULL, &c, &d), 0);
	ck_assert_uint_eq(c.uid, 0);
	hj_creds_free(&c);
}
END_TEST

/* The container's files are hostile: what they point at is not read. */
START_TEST(hostile_account_files)
{
	struct hijack_creds c = start();
	struct hijack_diag d = { 0 };
	char path[1100];

	remove_file("root/etc/passwd", path, sizeof(path));
	/* The host's own passwd surely has root: the container's has none. */
	ck_assert_int_eq(symlink("/../../../../../../../etc/shadow/../passwd",
				 path), 0);
	ck_assert_int_eq(hj_creds_override(&t, "root", NULL, &c, &d), -ENOENT);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	ck_assert_int_eq(hj_creds_override(&t, "root", NULL, &c, &d), -EINVAL);
	ck_assert_int_eq(d.step, HIJACK_STEP_CREDS);
	ck_assert_ptr_nonnull(strstr(d.detail, "/etc/passwd of pid "));
	ck_assert_ptr_nonnull(strstr(d.detail, "is not a regular file"));
	/* A numeric --user is refused too: the entry would have said more. */
	ck_assert_int_eq(hj_creds_override(&t, "0", NULL, &c, &d), -EINVAL);
	assert_ids(&c, 5, 6);
	hj_creds_free(&c);
}
END_TEST

START_TEST(read_from_status)
{
	static const char status[] =
		"Name:\tsh\n"
		"Uid:\t1\t2\t3\t4\n"
		"Gid:\t5\t6\t7\t8\n"
		"Groups:\t10 20 30 \n";
	struct hijack_creds c;
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hj_creds_read(&t, status, false, &c, &d), 0);
	ck_assert_uint_eq(c.uid, 1);
	ck_assert_uint_eq(c.euid, 2);
	ck_assert_uint_eq(c.suid, 3);
	ck_assert_uint_eq(c.fsuid, 4);
	ck_assert_uint_eq(c.gid, 5);
	ck_assert_uint_eq(c.egid, 6);
	ck_assert_uint_eq(c.sgid, 7);
	ck_assert_uint_eq(c.fsgid, 8);
	ck_assert_uint_eq(c.ngroups, 3);
	ck_assert_uint_eq(c.groups[2], 30);
	hj_creds_free(&c);
	ck_assert_int_eq(hj_creds_read(&t, "Uid:\t1\t2\t3\nGid:\t5\t6\t7\t8\nGroups:\n",
				       false, &c, &d), -EBADMSG);
	ck_assert_int_eq(d.step, HIJACK_STEP_OPEN);
	ck_assert_int_eq(hj_creds_read(&t, "Uid:\t1\t2\t3\t4\nGid:\t5\t6\t7\t8\n",
				       false, &c, &d), -ENOENT);
}
END_TEST

/* In a user namespace the ids are translated; unmapped groups are left out. */
START_TEST(read_through_maps)
{
	static const char status[] =
		"Uid:\t100000\t100000\t100000\t100000\n"
		"Gid:\t100005\t100005\t100005\t100005\n"
		"Groups:\t100005 65534 100007\n";
	struct hijack_creds c;
	struct hijack_diag d = { 0 };

	tl_write(dir, "uid_map", "0 100000 65536\n");
	tl_write(dir, "gid_map", "0 100000 65536\n");
	ck_assert_int_eq(hj_creds_read(&t, status, true, &c, &d), 0);
	assert_ids(&c, 0, 5);
	ck_assert_uint_eq(c.ngroups, 2);
	ck_assert_uint_eq(c.groups[0], 5);
	ck_assert_uint_eq(c.groups[1], 7);
	hj_creds_free(&c);
	/* A uid outside the map cannot be taken inside. */
	tl_write(dir, "uid_map", "0 200000 65536\n");
	ck_assert_int_eq(hj_creds_read(&t, status, true, &c, &d), -ERANGE);
	ck_assert_int_eq(d.step, HIJACK_STEP_CREDS);
}
END_TEST

START_TEST(apply_becomes_them)
{
	gid_t groups[] = { 1000, 100, 10 }, got[8];
	struct hijack_creds c = { 1000, 1001, 1002, 1000, 100, 101, 102, 100,
				  3, groups };
	struct hijack_diag d = { 0 };
	uid_t u[3];
	gid_t g[3];

	tl_no_leak_check();

	ck_assert_int_eq(hj_creds_apply(&c, &d), 0);
	ck_assert_int_eq(getresuid(&u[0], &u[1], &u[2]), 0);
	ck_assert_uint_eq(u[0], 1000);
	ck_assert_uint_eq(u[1], 1001);
	ck_assert_uint_eq(u[2], 1002);
	ck_assert_int_eq(getresgid(&g[0], &g[1], &g[2]), 0);
	ck_assert_uint_eq(g[0], 100);
	ck_assert_uint_eq(g[1], 101);
	ck_assert_uint_eq(g[2], 102);
	/* The kernel keeps the groups sorted. */
	ck_assert_int_eq(getgroups(8, got), 3);
	ck_assert_uint_eq(got[0], 10);
	ck_assert_uint_eq(got[1], 100);
	ck_assert_uint_eq(got[2], 1000);
	/* Unprivileged now: going back is refused, and said so. */
	c.uid = c.euid = c.suid = 0;
	ck_assert_int_eq(hj_creds_apply(&c, &d), -EPERM);
	ck_assert_int_eq(d.step, HIJACK_STEP_CREDS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("creds");
	TCase *any = tcase_create("fixture");
	TCase *priv = tcase_create("apply");

	tcase_add_checked_fixture(any, setup, teardown);
	tcase_add_test(any, user_by_name);
	tcase_add_test(any, user_by_number);
	tcase_add_test(any, user_unknown);
	tcase_add_test(any, group_override);
	tcase_add_test(any, no_account_files);
	tcase_add_test(any, hostile_account_files);
	tcase_add_test(any, read_from_status);
	tcase_add_test(any, read_through_maps);
	suite_add_tcase(s, any);
	if (tl_have_root()) {
		tcase_add_test(priv, apply_becomes_them);
		suite_add_tcase(s, priv);
	} else {
		printf("# SKIP hj_creds_apply: changing ids needs root\n");
	}
	return tl_run(s);
}
