// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * forkbench-harness.c - how a workload is measured: a batch of n
 * operations is timed with CLOCK_MONOTONIC, with the getrusage() deltas
 * of the process and of its reaped children; n is calibrated so that a
 * batch lasts --min-batch-ms; warm-up batches are discarded until two
 * agree; sample i runs with its stack frames at i/n of a page; and every
 * workload runs in a fresh child of the harness.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <alloca.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "forkbench.h"

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * 1000;
}

/*
 * Make the next fork of this pid namespace get pid b->pid_base.  The cost
 * of allocating a pid depends on its number (the depth of the pid IDR, the
 * search after pid_max wraps), and which numbers a workload gets depends on
 * how many processes ran before it, that is on the randomised order.
 * Restarting every batch at the same number removes that from the samples.
 */
static int reset_pid(const struct bench *b)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu", b->pid_base - 1);
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return fail("--pid-base: /proc/sys/kernel/ns_last_pid: %m");
	if (write(fd, buf, len) != len) {
		close(fd);
		return fail("--pid-base: writing ns_last_pid: %m");
	}
	close(fd);
	return 0;
}

/*
 * Run one batch of sample @slot with its frames at page offset @slot/n of
 * the stack, n being the workload's number of samples.
 *
 * On the instruction clock a fork's cost depends on where the forking
 * frames lie relative to a page boundary: the stack pages that parent and
 * child write after the fork each cost a copy-on-write fault, about 1000
 * instructions.  Measured: at one offset in ten, spawn-1 cost 4.5% more
 * than at the other nine, in every boot; and the offset a process starts
 * at moves with the size of its environment, which the gate varies from
 * boot to boot.  That is a property of forkbench, not of the code under
 * test: so the samples of every boot visit the same spread of offsets
 * (sample i at i/n of the page), whatever the environment, and measure the
 * average over a page.
 */
static int __attribute__((noinline))
batch_at(struct bench *b, const struct workload *w, uint64_t iters,
	 size_t slot)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t page = (uintptr_t)getpagesize();
	uintptr_t at = (slot * page / samples_of(b, w)) & ~(uintptr_t)15;
	volatile char *below = alloca(((sp - at) & (page - 1)) + 16);

	below[0] = 0;
	return w->batch(b, iters);
}

static int take_sample(struct bench *b, const struct workload *w,
		       uint64_t iters, struct sample *s, size_t slot)
{
	struct rusage self0, self1, kids0, kids1;
	uint64_t t0, t1;

	if (b->pid_base && reset_pid(b))
		return -1;
	s->cpu = sched_getcpu();
	getrusage(RUSAGE_SELF, &self0);
	getrusage(RUSAGE_CHILDREN, &kids0);
	b->batch_ns = 0;
	t0 = now_ns();
	if (batch_at(b, w, iters, slot))
		return -1;
	t1 = now_ns();
	if (b->batch_ns)
		t1 = t0 + b->batch_ns;
	getrusage(RUSAGE_SELF, &self1);
	getrusage(RUSAGE_CHILDREN, &kids1);
	s->cpu_end = sched_getcpu();

	s->ops = iters * ops_per_iter(b, w);
	s->elapsed_ns = t1 - t0;
	s->ns_per_op = (double)s->elapsed_ns / s->ops;
	s->user_ns = tv_ns(&self1.ru_utime) - tv_ns(&self0.ru_utime);
	s->sys_ns = tv_ns(&self1.ru_stime) - tv_ns(&self0.ru_stime);
	s->cusr_ns = tv_ns(&kids1.ru_utime) - tv_ns(&kids0.ru_utime);
	s->csys_ns = tv_ns(&kids1.ru_stime) - tv_ns(&kids0.ru_stime);
	return 0;
}

/* What measure() found besides the samples. */
struct measured {
	uint64_t iters;		/* operations per batch */
	uint64_t nr;		/* samples recorded */
	uint32_t warmup;	/* full batches discarded after calibration */
	uint32_t settled;	/* whether the last two of them agreed */
	double warm_ns[WARMUP_SHOWN];	/* their ns/op */
};

/*
 * Calibrate, warm up and sample one workload in the calling process.  The
 * calibration doubles the batch until it lasts --min-batch-ms; those batches
 * are the first part of the warm-up (they also pull every target into the
 * page cache).  Then at least --warmup full batches are discarded, and more
 * until two in a row agree within --settle, at most --warmup-max.
 *
 * Why not a fixed count: what ran before can leave the kernel in a state
 * that takes a while to wear off.  After spawn-big frees its 256 MiB, exec's
 * first batches ran 30-45% slow on the instruction clock; two fixed warm-up
 * batches did not always cover that, and the slow phase could also end the
 * calibration early with too small a batch.  A batch that comes out shorter
 * than --min-batch-ms is the sign of the latter: the batch doubles and the
 * agreement starts over.
 */
static int measure(struct bench *b, const struct workload *w,
		   struct sample *out, size_t max, struct measured *m)
{
	struct sample s;
	uint64_t iters = b->fixed_iters ? b->fixed_iters : 1;
	uint64_t start;
	double prev = 0;
	uint32_t warm = 0;
	bool settled = b->warmup == 0 || b->settle <= 0;
	size_t nr = 0;

	if (!b->fixed_iters) {
		for (;;) {
			if (take_sample(b, w, iters, &s, 0))
				return -1;
			if (s.elapsed_ns >= b->min_batch_ns || iters >= (1ULL << 40))
				break;
			iters *= 2;
		}
	}
	while (warm < b->warmup_max) {
		bool agree;

		if (warm >= b->warmup && settled)
			break;
		if (take_sample(b, w, iters, &s, 0))
			return -1;
		if (warm < WARMUP_SHOWN)
			m->warm_ns[warm] = s.ns_per_op;
		warm++;
		if (!b->fixed_iters && s.elapsed_ns < b->min_batch_ns &&
		    iters < (1ULL << 40)) {
			iters *= 2;
			prev = 0;
			settled = b->settle <= 0;
			continue;
		}
		agree = prev > 0 &&
			fabs(s.ns_per_op - prev) <= b->settle * fmin(s.ns_per_op, prev);
		settled = b->settle <= 0 || agree;
		prev = s.ns_per_op;
	}
	if (warm < b->warmup)
		settled = false;

	start = now_ns();
	while (nr < max) {
		if (take_sample(b, w, iters, &out[nr], nr))
			return -1;
		nr++;
		if (b->duration > 0 &&
		    now_ns() - start >= (uint64_t)(b->duration * NSEC_PER_SEC))
			break;
	}
	m->iters = iters;
	m->nr = nr;
	m->warmup = warm;
	m->settled = settled;
	return 0;
}

/*
 * The child's side of measure_in_pidns(): descend @w->pidns_depth pid
 * namespaces, measure as pid 1 of the innermost and write the samples to
 * @fd.  Every level but the last waits for its child and exits with its
 * status.
 */
static void __attribute__((noreturn))
measure_as_pid1(struct bench *b, const struct workload *w,
		struct sample *out, size_t max, int fd)
{
	struct measured hdr;

	for (unsigned int level = 0; level < w->pidns_depth; level++) {
		pid_t child;

		if (unshare(CLONE_NEWPID)) {
			fail("%s: unshare(CLONE_NEWPID): %m", w->name);
			_exit(errno == EPERM ? CHILD_NO_PERMISSION : CHILD_FAILED);
		}
		child = fork();
		if (child < 0) {
			fail("%s: fork: %m", w->name);
			_exit(CHILD_FAILED);
		}
		if (child > 0) {
			int status;

			close(fd);
			if (waitpid(child, &status, 0) < 0)
				_exit(CHILD_FAILED);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : CHILD_FAILED);
		}
	}
	if (getpid() != 1) {
		fail("%s: not pid 1 in the new namespace", w->name);
		_exit(CHILD_FAILED);
	}
	if (measure(b, w, out, max, &hdr))
		_exit(CHILD_FAILED);
	if (!write_all(fd, &hdr, sizeof(hdr)) ||
	    !write_all(fd, out, hdr.nr * sizeof(*out)))
		_exit(CHILD_FAILED);
	_exit(CHILD_OK);
}

/*
 * Descend @depth pid namespaces and measure there; the samples come back
 * over a pipe.  unshare(CLONE_NEWPID) only moves the caller's future
 * children, and once the namespace's first child (its init) has exited
 * every later fork() in the caller fails with ENOMEM: so the unsharing is
 * done in throw-away children, never in the harness.
 *
 *   harness -- fork --> A: unshare, fork --> B (pid 1 in ns 1)
 *                        B: unshare, fork --> C (pid 1 in ns 2) ...
 *   the innermost process measures and writes its samples to the pipe;
 *   every level reaps its child and passes its exit status up.
 */
static int measure_in_pidns(struct bench *b, const struct workload *w,
			    struct sample *out, size_t max, struct measured *m)
{
	int fds[2], status;
	pid_t pid;
	struct measured hdr;
	bool short_read;

	if (pipe2(fds, O_CLOEXEC))
		return fail("%s: pipe: %m", w->name);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return fail("%s: fork: %m", w->name);
	}
	if (pid == 0) {
		close(fds[0]);
		measure_as_pid1(b, w, out, max, fds[1]);
	}
	close(fds[1]);
	short_read = !read_all(fds[0], &hdr, sizeof(hdr)) || hdr.nr > max ||
		     !read_all(fds[0], out, hdr.nr * sizeof(*out));
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0)
		return fail("%s: waitpid: %m", w->name);
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_NO_PERMISSION)
		return SETUP_SKIP;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != CHILD_OK)
		return fail("%s: measuring process failed", w->name);
	if (short_read)
		return fail("%s: short read of the samples", w->name);
	*m = hdr;
	return 0;
}

static int set_affinity(struct bench *b, const struct workload *w, bool *pinned)
{
	cpu_set_t set;

	*pinned = b->pin && w->role == ROLE_PRIMARY && !w->own_affinity;
	if (!*pinned)
		return sched_setaffinity(0, sizeof(b->all_cpus), &b->all_cpus);
	CPU_ZERO(&set);
	CPU_SET(b->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return fail("cannot pin to CPU %d: %m", b->cpu);
	return 0;
}

/*
 * Set up, measure and tear down one workload in the calling process.
 * Returns 0, SETUP_SKIP or -1, with the reason for the latter two in why.
 */
static int measure_workload(struct bench *b, const struct workload *w,
			    struct sample *out, size_t max, struct measured *m,
			    char *why, size_t whylen)
{
	int ret;

	if (w->setup) {
		ret = w->setup(b);
		if (ret == SETUP_SKIP) {
			snprintf(why, whylen, "not supported here");
			return SETUP_SKIP;
		}
		if (ret) {
			snprintf(why, whylen, "setup failed");
			if (w->teardown)
				w->teardown(b);
			return -1;
		}
	}
	if (w->pidns_depth)
		ret = measure_in_pidns(b, w, out, max, m);
	else
		ret = measure(b, w, out, max, m);
	if (w->teardown)
		w->teardown(b);
	if (ret == SETUP_SKIP) {
		say("skipping %s: no permission for pid namespaces", w->name);
		snprintf(why, whylen, "no permission for pid namespaces");
	} else if (ret) {
		snprintf(why, whylen, "measurement failed");
	}
	return ret;
}

struct runner_report {
	int32_t status;		/* 0, SETUP_SKIP or -1 */
	struct measured m;
	char why[sizeof(((struct result *)0)->reason)];
};

/*
 * Every workload runs in a fresh child of the harness, a copy of the same
 * untouched process each time.  A workload can change its process for
 * good: on the instruction clock, spawn costs 40% more in a process that
 * has once run pthread_create() (measured with the threads workload before
 * spawn).  Run in one process, the randomised workload order would turn
 * that into spurious variance between boots, or into a bias when the order
 * is fixed.  The harness itself allocates nothing between runners (the
 * sample buffers exist before the first one), so each runner starts from
 * the same memory layout.
 */
void run_workload(struct bench *b, struct result *r)
{
	const struct workload *w = r->w;
	struct runner_report rep = { .status = -1 };
	int fds[2], status;
	pid_t pid;

	r->state = RESULT_ERROR;
	if (set_affinity(b, w, &r->pinned)) {
		snprintf(r->reason, sizeof(r->reason), "cannot set CPU affinity");
		return;
	}
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(r->reason, sizeof(r->reason), "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(r->reason, sizeof(r->reason), "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		rep.status = measure_workload(b, w, r->samples, samples_of(b, w),
					      &rep.m, rep.why, sizeof(rep.why));
		if (rep.status)
			rep.m.nr = 0;
		if (!write_all(fds[1], &rep, sizeof(rep)) ||
		    !write_all(fds[1], r->samples, rep.m.nr * sizeof(*r->samples)))
			_exit(CHILD_FAILED);
		_exit(CHILD_OK);
	}
	close(fds[1]);
	if (!read_all(fds[0], &rep, sizeof(rep)) || rep.m.nr > samples_of(b, w) ||
	    !read_all(fds[0], r->samples, rep.m.nr * sizeof(*r->samples))) {
		rep.status = -1;
		rep.m.nr = 0;
		snprintf(rep.why, sizeof(rep.why), "the measuring process died");
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rep.why[sizeof(rep.why) - 1] = '\0';
	memcpy(r->reason, rep.why, sizeof(r->reason));
	r->iters = rep.m.iters;
	r->nr_samples = rep.m.nr;
	r->warmup = rep.m.warmup;
	r->settled = rep.m.settled;
	memcpy(r->warm_ns, rep.m.warm_ns, sizeof(r->warm_ns));
	if (rep.status == SETUP_SKIP)
		r->state = RESULT_SKIPPED;
	else if (rep.status == 0)
		r->state = RESULT_OK;
}
