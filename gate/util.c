// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util.c - the helpers the benchmark programs share (see util.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "util.h"

static void vsay(const char *fmt, va_list ap)
{
	int saved = errno;

	fputs(program_name, stderr);
	fputs(": ", stderr);
	/* for a %m in @fmt: the writes above may have set errno */
	errno = saved;
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	errno = saved;
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	exit(status);
}

int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * A child that failed means the operation did not happen, and a batch
 * that counts it would under-report the cost: so a caller makes it an
 * error, never a sample.
 */
int reap(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return fail("%s: waitpid: %m", what);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		return fail("%s: child exited with status %d", what,
			    WEXITSTATUS(status));
	return fail("%s: child killed by signal %d", what, WTERMSIG(status));
}

/* read() or write() until @len bytes have gone: one loop for both. */
static bool transfer_all(int fd, char *p, size_t len, bool out)
{
	while (len) {
		ssize_t n = out ? write(fd, p, len) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

bool read_all(int fd, void *buf, size_t len)
{
	return transfer_all(fd, buf, len, false);
}

bool write_all(int fd, const void *buf, size_t len)
{
	/* transfer_all() only reads from @buf when it writes */
	return transfer_all(fd, (char *)buf, len, true);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

bool parse_double(const char *arg, double *ret)
{
	char *end;

	errno = 0;
	*ret = strtod(arg, &end);
	return !errno && end != arg && !*end;
}

bool parse_ull(const char *arg, unsigned long long *ret)
{
	char *end;

	errno = 0;
	*ret = strtoull(arg, &end, 10);
	return !errno && end != arg && !*end && arg[0] != '-';
}
