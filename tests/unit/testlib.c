// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

bool tl_have_root(void)
{
	return geteuid() == 0;
}

pid_t tl_spawn_target(int flags)
{
	int sv[2];
	pid_t pid;
	char c = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(sv[0]);
		if (unshare(flags) < 0)
			_exit(1);
		/* Ready: the parent may look at /proc/PID/ns now. */
		if (write(sv[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(sv[1]);
	if (read(sv[0], &c, 1) != 1) {
		close(sv[0]);
		tl_kill_target(pid);
		return -1;
	}
	close(sv[0]);
	return pid;
}

void tl_kill_target(pid_t pid)
{
	if (pid <= 0)
		return;
	(void)kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int tl_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

char *tl_mkdtemp(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	ck_assert_int_ge(asprintf(&dir, "%s/hijack-unit.XXXXXX",
				  tmp && *tmp ? tmp : "/tmp"), 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

void tl_rmtree(char *dir)
{
	if (!dir)
		return;
	/* FTW_PHYS: a fixture's symlinks are removed, not followed. */
	(void)nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

void tl_write(const char *dir, const char *rel, const char *content)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	ck_assert_int_lt(snprintf(path, sizeof(path), "%s/%s", dir, rel),
			 (int)sizeof(path));
	for (slash = path + strlen(dir) + 1; (slash = strchr(slash, '/'));
	     slash++) {
		*slash = '\0';
		ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
		*slash = '/';
	}
	f = fopen(path, "we");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(content, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

int tl_open_dir(const char *dir, bool path_only)
{
	int fd = open(dir, (path_only ? O_PATH : O_RDONLY) | O_DIRECTORY |
		      O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	return fd;
}

int tl_fixture_open(char **ret_dir)
{
	*ret_dir = tl_mkdtemp();
	return tl_open_dir(*ret_dir, false);
}

void tl_fixture_close(char **dir, int fd)
{
	(void)close(fd);
	tl_rmtree(*dir);
	*dir = NULL;
}

/* LeakSanitizer asks this hook before its exit check (lsan_interface.h). */
static volatile int leak_check_off;

int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return leak_check_off;
}

void tl_no_leak_check(void)
{
	leak_check_off = 1;
}
