// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hjshim.so - an LD_PRELOAD spy and brake for hijack's hardening tests
 * (12-hardening.t).  Races that the kernel decides in microseconds (a
 * target dying, its pid going to another task) are made to happen at the
 * one moment a test needs, by holding hijack there until the test has set
 * the scene.  hijack itself is not changed and cannot tell.
 *
 *   HJ_SHIM_DIR=DIR	where the shim talks to the test
 *   HJ_SHIM_HOOK=seize	ptrace(PTRACE_SEIZE, ...) waits first
 *   HJ_SHIM_HOOK=interrupt	ptrace(PTRACE_INTERRUPT, ...) waits first
 *   HJ_SHIM_HOOK=barrier	close_range() (the fd barrier, the last step
 *			of the command's setup) waits first
 *   HJ_SHIM_HOOK=signalfd	signalfd() fails with EMFILE (hijack's wait
 *			for a started command)
 *   HJ_SHIM_HOOK=cmdfork	clone3() with CLONE_PARENT (the intermediate
 *			forking the command) waits after it, in the
 *			intermediate, before it tells hijack the pid
 *   HJ_SHIM_HOOK=copystart	a file copy's start message (the status
 *			pipe's MSG_STARTED, whose kind is 4) waits before
 *			it is written
 *
 * Waiting means: create DIR/stalled, then wait (up to 30 s) for DIR/go.
 * Every ptrace() call is logged to DIR/ptrace.log as "REQUEST PID".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <linux/sched.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static const char *shim_path(const char *name, char *buf, size_t size)
{
	const char *dir = getenv("HJ_SHIM_DIR");

	if (!dir)
		return NULL;
	(void)snprintf(buf, size, "%s/%s", dir, name);
	return buf;
}

static int hooked(const char *what)
{
	const char *hook = getenv("HJ_SHIM_HOOK");

	return hook && strcmp(hook, what) == 0;
}

static void stall(void)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	char path[4096];
	int fd, i;

	if (!shim_path("stalled", path, sizeof(path)))
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	shim_path("go", path, sizeof(path));
	for (i = 0; i < 3000 && access(path, F_OK) != 0; i++)
		nanosleep(&ts, NULL);
}

long ptrace(enum __ptrace_request req, ...)
{
	long (*real)(enum __ptrace_request, pid_t, void *, void *);
	char path[4096];
	void *addr, *data;
	va_list ap;
	pid_t pid;
	FILE *f;

	va_start(ap, req);
	pid = va_arg(ap, pid_t);
	addr = va_arg(ap, void *);
	data = va_arg(ap, void *);
	va_end(ap);

	if (shim_path("ptrace.log", path, sizeof(path))) {
		f = fopen(path, "ae");
		if (f) {
			fprintf(f, "%d %d\n", (int)req, (int)pid);
			fclose(f);
		}
	}
	if ((req == PTRACE_SEIZE && hooked("seize")) ||
	    (req == PTRACE_INTERRUPT && hooked("interrupt")))
		stall();
	real = (long (*)(enum __ptrace_request, pid_t, void *, void *))
		dlsym(RTLD_NEXT, "ptrace");
	return real(req, pid, addr, data);
}

int close_range(unsigned int first, unsigned int last, int flags)
{
	int (*real)(unsigned int, unsigned int, int);

	if (hooked("barrier"))
		stall();
	real = (int (*)(unsigned int, unsigned int, int))dlsym(RTLD_NEXT,
							      "close_range");
	return real(first, last, flags);
}

int signalfd(int fd, const sigset_t *mask, int flags)
{
	int (*real)(int, const sigset_t *, int);

	if (hooked("signalfd")) {
		errno = EMFILE;
		return -1;
	}
	real = (int (*)(int, const sigset_t *, int))dlsym(RTLD_NEXT,
							  "signalfd");
	return real(fd, mask, flags);
}

/*
 * Every argument passed on as a long, as the x86-64 and arm64 calling
 * conventions allow for a variadic call: the shim's tests run there.
 */
long syscall(long nr, ...)
{
	long (*real)(long, ...);
	long a[6], ret;
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	ret = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == SYS_clone3 && ret > 0 && hooked("cmdfork") &&
	    (((const struct clone_args *)a[0])->flags & CLONE_PARENT))
		stall();
	return ret;
}

/* The value of MSG_STARTED in spawn-internal.h: what a copy says first. */
#define SHIM_MSG_STARTED 4

ssize_t write(int fd, const void *buf, size_t count)
{
	ssize_t (*real)(int, const void *, size_t);
	struct stat st;
	int kind;

	if (hooked("copystart") && count >= sizeof(kind)) {
		memcpy(&kind, buf, sizeof(kind));
		if (kind == SHIM_MSG_STARTED && fstat(fd, &st) == 0 &&
		    S_ISFIFO(st.st_mode))
			stall();
	}
	real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, count);
}
