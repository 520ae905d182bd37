/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util.h - the small vocabulary the benchmark programs share (forkbench,
 * benchcmp, entrybench, gensamples): messages and exits, reaping a child,
 * whole reads and writes, the clock, numbers from the command line.
 *
 * It depends on nothing but libc, because forkbench and entrybench are
 * built static for a busybox initramfs.
 */
#ifndef HIJACK_BENCH_UTIL_H
#define HIJACK_BENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/*
 * The status a forked child ends with when its execve() failed: what a
 * shell returns for a command it cannot run.
 */
#define EXIT_EXEC_FAILED 127

/*
 * The name that starts every message, "forkbench: ...".  Each program
 * defines it, so that the forked and re-executed copies of a program say
 * the same whatever argv[0] they were given.
 */
extern const char program_name[];

/* "PROGRAM: message" on stderr: a warning, or why something is skipped. */
void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...);

/* "PROGRAM: message" on stderr, then exit(@status). */
void __attribute__((noreturn, format(printf, 2, 3)))
die(int status, const char *fmt, ...);

/*
 * "PROGRAM: message" on stderr for an operation that could not be done;
 * returns -1 for the caller to pass on, and leaves errno as it was.
 */
int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...);

/*
 * Reap @pid and insist that it exited 0: 0 if it did, else -1 after a
 * message naming @what and how the child ended.
 */
int reap(pid_t pid, const char *what);

/* All of @len bytes, retrying short transfers and EINTR; false otherwise. */
bool read_all(int fd, void *buf, size_t len);
bool write_all(int fd, const void *buf, size_t len);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t now_ns(void);

/* qsort() comparison of doubles, ascending. */
int cmp_double(const void *a, const void *b);

/*
 * @arg as one whole number, nothing before or after it.  parse_ull()
 * refuses a sign, which strtoull() would take and negate.  The callers
 * check the range and word their own messages.
 */
bool parse_double(const char *arg, double *ret);
bool parse_ull(const char *arg, unsigned long long *ret);

#endif
