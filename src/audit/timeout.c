// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * timeout.c - a bound on a blocking call we do not own.
 *
 * libaudit waits for the kernel's answer on a socket it opens and keeps
 * to itself, and takes no timeout: a kernel audit queue that is stuck
 * would then hold every entry.  So the call runs under a one-shot timer
 * whose signal, caught without SA_RESTART, makes the system call it
 * blocks in fail with EINTR, which libaudit returns as an error.  (The
 * journal's socket is hijack's own, bounded by SO_SNDTIMEO: journal.c.)  The timer signals this thread only (SIGEV_THREAD_ID), so
 * another thread of the process is never interrupted by it.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"

static volatile sig_atomic_t fired;

static void on_alarm(int sig)
{
	(void)sig;
	fired = 1;
}

int audit_with_timeout(int (*fn)(void *arg), void *arg, unsigned int ms)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old_sa;
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID,
				.sigev_signo = SIGALRM };
	struct itimerspec its = {
		.it_value = { .tv_sec = ms / 1000,
			      .tv_nsec = (long)(ms % 1000) * 1000000L },
	};
	sigset_t alrm, old_mask;
	timer_t timer;
	int r;

	sev._sigev_un._tid = gettid();
	(void)sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: the blocked call must return, not resume. */
	sa.sa_flags = 0;
	if (sigaction(SIGALRM, &sa, &old_sa) < 0)
		return -errno;
	(void)sigemptyset(&alrm);
	(void)sigaddset(&alrm, SIGALRM);
	(void)sigprocmask(SIG_UNBLOCK, &alrm, &old_mask);
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer) < 0) {
		r = -errno;
		goto out;
	}
	fired = 0;
	if (timer_settime(timer, 0, &its, NULL) < 0) {
		r = -errno;
		(void)timer_delete(timer);
		goto out;
	}
	r = fn(arg);
	(void)timer_delete(timer);
	if (fired && r < 0)
		r = -ETIMEDOUT;
out:
	(void)sigprocmask(SIG_SETMASK, &old_mask, NULL);
	(void)sigaction(SIGALRM, &old_sa, NULL);
	return r;
}
