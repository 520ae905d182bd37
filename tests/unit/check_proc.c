// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_proc - reads from a target's /proc directory and from a
 * container's root (src/libhijack/proc.c), against fixture files.
 *
 * hj_root_read() reads files a container controls: every case here is
 * one a hostile container could stage, and each must be refused without
 * reading a byte of the host or hanging.
 */
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "testlib.h"

static char *dir;	/* the fixture: dir/host holds "host", dir/root is the container */
static char root[1024];
static int rootfd = -EBADF;

static void setup(void)
{
	dir = tl_mkdtemp();
	tl_write(dir, "secret", "host\n");
	tl_write(dir, "root/secret", "container\n");
	tl_write(dir, "root/etc/passwd", "root:x:0:0::/root:/bin/sh\n");
	(void)snprintf(root, sizeof(root), "%s/root", dir);
	rootfd = tl_open_dir(root, true);
}

static void teardown(void)
{
	(void)close(rootfd);
	tl_rmtree(dir);
	dir = NULL;
}

/* Make @rel in the container a symlink to @to. */
static void link_in_root(const char *to, const char *rel)
{
	char path[4096];

	(void)snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(symlink(to, path), 0);
}

/* Read @rel: 0 and its text in @ret, or the negative errno. */
static int read_rel(const char *rel, size_t max, char *ret, size_t size)
{
	char *buf = NULL;
	size_t len = 99;
	int r = hj_root_read(rootfd, rel, max, &buf, &len);

	if (r < 0) {
		ck_assert_ptr_null(buf);
		return r;
	}
	ck_assert_uint_eq(len, strlen(buf));
	ck_assert_uint_lt(len, size);
	memcpy(ret, buf, len + 1);
	free(buf);
	return 0;
}

START_TEST(root_read_regular)
{
	char text[64];

	ck_assert_int_eq(read_rel("etc/passwd", 4096, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "root:x:0:0::/root:/bin/sh\n");
	ck_assert_int_eq(read_rel("etc/shadow", 4096, text, sizeof(text)), -ENOENT);
	/* An empty file is a file with nothing in it, not an error. */
	tl_write(root, "etc/group", "");
	ck_assert_int_eq(read_rel("etc/group", 4096, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "");
}
END_TEST

START_TEST(root_read_symlinks_stay_inside)
{
	char text[64], host[4096];

	/* Absolute and climbing links resolve in the container's root ... */
	link_in_root("/secret", "etc/abs");
	ck_assert_int_eq(read_rel("etc/abs", 4096, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "container\n");
	link_in_root("../../../../../../secret", "etc/up");
	ck_assert_int_eq(read_rel("etc/up", 4096, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "container\n");
	ck_assert_int_eq(read_rel("../../secret", 4096, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "container\n");
	/* ... so the host's path of a host file names nothing there. */
	(void)snprintf(host, sizeof(host), "%s/secret", dir);
	link_in_root(host, "etc/host");
	ck_assert_int_eq(read_rel("etc/host", 4096, text, sizeof(text)), -ENOENT);
	/* A directory symlinked out of the root is the container's too. */
	link_in_root(dir, "hostdir");
	ck_assert_int_eq(read_rel("hostdir/secret", 4096, text, sizeof(text)),
			 -ENOENT);
}
END_TEST

START_TEST(root_read_refuses_fifo)
{
	char path[4096], text[64];
	time_t start = time(NULL);

	(void)snprintf(path, sizeof(path), "%s/etc/fifo", root);
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	/* No writer: a blocking open would hang here for ever. */
	ck_assert_int_eq(read_rel("etc/fifo", 4096, text, sizeof(text)), -EINVAL);
	ck_assert_int_lt(time(NULL) - start, 5);
	link_in_root("/etc/fifo", "etc/tofifo");
	ck_assert_int_eq(read_rel("etc/tofifo", 4096, text, sizeof(text)), -EINVAL);
}
END_TEST

START_TEST(root_read_refuses_dirs_and_sockets)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char text[64];
	int s;

	ck_assert_int_eq(read_rel("etc", 4096, text, sizeof(text)), -EINVAL);
	ck_assert_int_eq(read_rel("", 4096, text, sizeof(text)), -ENOENT);
	ck_assert_int_lt((int)snprintf(sa.sun_path, sizeof(sa.sun_path),
				       "%s/etc/sock", root),
			 (int)sizeof(sa.sun_path));
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	/* open(2) of a socket fails with ENXIO before fstat() is reached. */
	ck_assert_int_eq(read_rel("etc/sock", 4096, text, sizeof(text)), -ENXIO);
	(void)close(s);
}
END_TEST

/* Devices need root to make: a container's root can hold any. */
START_TEST(root_read_refuses_devices)
{
	char path[4096], text[64];

	(void)snprintf(path, sizeof(path), "%s/etc/zero", root);
	ck_assert_int_eq(mknod(path, S_IFCHR | 0644, makedev(1, 5)), 0);
	ck_assert_int_eq(read_rel("etc/zero", 4096, text, sizeof(text)), -EINVAL);
	(void)snprintf(path, sizeof(path), "%s/etc/loop", root);
	ck_assert_int_eq(mknod(path, S_IFBLK | 0644, makedev(7, 0)), 0);
	ck_assert_int_eq(read_rel("etc/loop", 4096, text, sizeof(text)), -EINVAL);
}
END_TEST

START_TEST(root_read_size_bound)
{
	char text[64];

	tl_write(root, "etc/ten", "123456789\n");
	ck_assert_int_eq(read_rel("etc/ten", 10, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "123456789\n");
	/* One byte over: refused whole, never cut to the bound. */
	ck_assert_int_eq(read_rel("etc/ten", 9, text, sizeof(text)), -EFBIG);
	ck_assert_int_eq(read_rel("etc/ten", 0, text, sizeof(text)), -EFBIG);
}
END_TEST

/*
 * Kernels before 5.6 have no openat2(): a filter makes it ENOSYS here, and
 * the fallback must then follow no symlink at all.
 */
START_TEST(root_read_without_openat2)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	char text[64];

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
					  SCMP_SYS(openat2), 0), 0);
	ck_assert_int_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ck_assert_int_eq(seccomp_load(ctx), 0);
	seccomp_release(ctx);

	ck_assert_int_eq(read_rel("etc/passwd", 4096, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "root:x:0:0::/root:/bin/sh\n");
	ck_assert_int_eq(read_rel("etc/missing", 4096, text, sizeof(text)),
			 -ENOENT);
	link_in_root("/secret", "etc/abs");
	ck_assert_int_eq(read_rel("etc/abs", 4096, text, sizeof(text)), -ELOOP);
	link_in_root(dir, "hostdir");
	ck_assert_int_eq(read_rel("hostdir/secret", 4096, text, sizeof(text)),
			 -ENOTDIR);
	ck_assert_int_eq(read_rel("etc", 4096, text, sizeof(text)), -EINVAL);
	ck_assert_int_eq(read_rel("etc/passwd", 3, text, sizeof(text)), -EFBIG);
	/* A path as the container names it: absolute, doubled slashes. */
	ck_assert_int_eq(read_rel("/etc//passwd", 4096, text, sizeof(text)), 0);
	ck_assert_str_eq(text, "root:x:0:0::/root:/bin/sh\n");
	/* ".." would climb above the root fd: refused, not followed. */
	ck_assert_int_eq(read_rel("../secret", 4096, text, sizeof(text)),
			 -EXDEV);
	ck_assert_int_eq(read_rel("etc/../../secret", 4096, text, sizeof(text)),
			 -EXDEV);
}
END_TEST

/* A directory of the container, as build_view() in tools.c opens the cwd. */
START_TEST(root_open_dirs)
{
	int fd;
	struct stat a, b;

	ck_assert_int_eq(fstat(rootfd, &a), 0);
	/* "/" and "" are the root itself; ".." cannot leave it. */
	fd = hj_root_open(rootfd, "/", O_PATH | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &b), 0);
	ck_assert(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	(void)close(fd);
	fd = hj_root_open(rootfd, "/etc/../..", O_PATH | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &b), 0);
	ck_assert(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	(void)close(fd);
	/* A symlink to a host directory resolves inside the root. */
	link_in_root(dir, "hostdir");
	ck_assert_int_eq(hj_root_open(rootfd, "/hostdir", O_PATH | O_DIRECTORY),
			 -ENOENT);
}
END_TEST

START_TEST(status_fields)
{
	static const char status[] =
		"Name:\tsh\n"
		"Uidx:\t9\n"
		"Uid:\t1000\t1001\t1002\t1003\n"
		"Groups:\t\n"
		"NSpid:\t42  7";	/* no newline at the end */
	char buf[32];

	ck_assert_int_eq(hj_status_field(status, "Uid", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "1000\t1001\t1002\t1003");
	ck_assert_int_eq(hj_status_field(status, "Name", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "sh");
	ck_assert_int_eq(hj_status_field(status, "Groups", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(hj_status_field(status, "NSpid", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "42  7");
	/* A key is matched whole, at the start of a line. */
	ck_assert_int_eq(hj_status_field(status, "Ui", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(hj_status_field(status, "sh", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(hj_status_field("", "Uid", buf, sizeof(buf)), -ENOENT);
	/* A value that does not fit is an error, not a truncated value. */
	ck_assert_int_eq(hj_status_field(status, "Uid", buf, 19), -ENAMETOOLONG);
	ck_assert_int_eq(hj_status_field(status, "Uid", buf, 20), 0);
}
END_TEST

START_TEST(map_ids)
{
	struct hijack_target t = { .pid = getpid(), .pidfd = -EBADF };
	unsigned long id = 7;

	tl_write(dir, "uid_map", "         0     100000      65536\n"
				  "     65536       1000          1\n");
	t.procfd = tl_open_dir(dir, false);
	ck_assert_int_eq(hj_proc_map_id(&t, "uid_map", 100000, &id), 0);
	ck_assert_uint_eq(id, 0);
	ck_assert_int_eq(hj_proc_map_id(&t, "uid_map", 165535, &id), 0);
	ck_assert_uint_eq(id, 65535);
	ck_assert_int_eq(hj_proc_map_id(&t, "uid_map", 1000, &id), 0);
	ck_assert_uint_eq(id, 65536);
	id = 7;
	ck_assert_int_eq(hj_proc_map_id(&t, "uid_map", 165536, &id), -ERANGE);
	ck_assert_int_eq(hj_proc_map_id(&t, "uid_map", 99999, &id), -ERANGE);
	ck_assert_int_eq(hj_proc_map_id(&t, "uid_map", 0, &id), -ERANGE);
	ck_assert_uint_eq(id, 7);
	ck_assert_int_eq(hj_proc_map_id(&t, "gid_map", 0, &id), -ENOENT);
	/* An empty map (a user namespace not yet mapped) maps nothing. */
	tl_write(dir, "gid_map", "");
	ck_assert_int_eq(hj_proc_map_id(&t, "gid_map", 0, &id), -ERANGE);
	(void)close(t.procfd);
}
END_TEST

START_TEST(read_at_whole_files)
{
	char big[20000], *buf = NULL;
	size_t len = 0;
	int fd = tl_open_dir(dir, false);

	/* Longer than the first buffers: read to the end, with its NULs. */
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	big[5000] = '\n';
	tl_write(dir, "big", big);
	ck_assert_int_eq(hj_read_at(fd, "big", &buf, &len), 0);
	ck_assert_uint_eq(len, sizeof(big) - 1);
	ck_assert_str_eq(buf, big);
	free(buf);
	/* A bound: exactly the file is read, one byte less refused. */
	ck_assert_int_eq(hj_read_at_max(fd, "big", sizeof(big) - 1, &buf, &len), 0);
	ck_assert_uint_eq(len, sizeof(big) - 1);
	free(buf);
	buf = NULL;
	ck_assert_int_eq(hj_read_at_max(fd, "big", sizeof(big) - 2, &buf, &len),
			 -EFBIG);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(hj_read_at(fd, "nothing", &buf, &len), -ENOENT);
	ck_assert_int_eq(hj_read_at(AT_FDCWD, "/proc/self/environ", &buf, NULL), 0);
	free(buf);
	(void)close(fd);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("proc");
	TCase *any = tcase_create("fixture");
	TCase *priv = tcase_create("devices");

	tcase_add_checked_fixture(any, setup, teardown);
	tcase_add_test(any, root_read_regular);
	tcase_add_test(any, root_open_dirs);
	tcase_add_test(any, root_read_symlinks_stay_inside);
	tcase_add_test(any, root_read_refuses_fifo);
	tcase_add_test(any, root_read_refuses_dirs_and_sockets);
	tcase_add_test(any, root_read_size_bound);
	tcase_add_test(any, root_read_without_openat2);
	tcase_add_test(any, status_fields);
	tcase_add_test(any, map_ids);
	tcase_add_test(any, read_at_whole_files);
	suite_add_tcase(s, any);
	if (tl_have_root()) {
		tcase_add_checked_fixture(priv, setup, teardown);
		tcase_add_test(priv, root_read_refuses_devices);
		suite_add_tcase(s, priv);
	} else {
		printf("# SKIP device cases: making device nodes needs root\n");
	}
	return tl_run(s);
}
