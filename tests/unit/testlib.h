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
 * Run a suite with TAP on stdout.  Return the exit status for main():
 * 0 when every case passed, 1 otherwise.
 */
int tl_run(Suite *s);

#endif
