/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * testlib.h - shared helpers of the Check suites: real targets in fresh
 * namespaces, and privilege probes that decide which cases can run.
 */
#ifndef HIJACK_TESTLIB_H
#define HIJACK_TESTLIB_H

#include <check.h>
#include <stdbool.h>
#include <sys/types.h>

/* True when the tests may create namespaces: root in the initial ns. */
bool tl_have_root(void);

/*
 * Start a child in new namespaces (CLONE_NEW* @flags) that waits until
 * killed; return its pid once it is in them, or -1.
 */
pid_t tl_spawn_target(int flags);

/* Kill and reap a target. */
void tl_kill_target(pid_t pid);

/*
 * A scratch directory for fixture files (mkdtemp under $TMPDIR or /tmp):
 * returns its path, which tl_rmtree() removes with everything in it.
 * Fixtures are files a unit test lays out the way /proc/PID or a
 * container's root would be, to drive a module without a real target.
 */
char *tl_mkdtemp(void);
void tl_rmtree(char *dir);

/*
 * Write @content to @rel under @dir, making the directories on the way;
 * aborts the test case on failure.
 */
void tl_write(const char *dir, const char *rel, const char *content);

/* An fd of @dir (O_PATH when @path_only), or the test case fails. */
int tl_open_dir(const char *dir, bool path_only);

/*
 * A target made of fixture files: a scratch directory (in *@ret_dir) that
 * a case lays out as /proc/PID, and an fd of it for the target's procfd.
 * tl_fixture_close() closes the fd and removes the directory.
 */
int tl_fixture_open(char **ret_dir);
void tl_fixture_close(char **dir, int fd);

/*
 * Run a suite with TAP on stdout.  Return the exit status for main():
 * 0 when every case passed, 1 otherwise.
 */
int tl_run(Suite *s);

/*
 * tl_no_leak_check() - skip LeakSanitizer's check at this process's exit.
 *
 * For a test child that leaves itself where LeakSanitizer cannot work:
 * it stops the process's threads with ptrace and reads /proc/self, which
 * fails after a change of uid (the process is no longer dumpable) or
 * under a /proc of another pid namespace, and then exits 1 whatever the
 * test said.  Only make check-asan builds have the check; elsewhere this
 * does nothing.
 */
void tl_no_leak_check(void);

#endif
