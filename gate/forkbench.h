/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkbench.h - what the parts of forkbench share:
 *
 *   forkbench.c            the command line, then run, then report
 *   forkbench-workloads.c  the workloads and their table
 *   forkbench-files.c      the exec target, the self copy and the storm
 *                          script, in a directory in memory
 *   forkbench-harness.c    calibration, warm-up, samples, one runner
 *                          process per workload
 *   forkbench-report.c     the table and the JSON document with the
 *                          environment it was measured in
 *
 * See gate/README.md for why the measurement is shaped
 * as it is.
 */
#ifndef HIJACK_BENCH_FORKBENCH_H
#define HIJACK_BENCH_FORKBENCH_H

#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* The "forkbench" member of the JSON document, and --version. */
#define FORKBENCH_VERSION "1"
/* Argument that turns forkbench into one link of the execl chain. */
#define EXECL_CHAIN_ARG "--execl-chain"
/* The warm-up batches a report shows: the first ones, which tell. */
#define WARMUP_SHOWN 16

/* forkbench's exit status (README.md, "Exit status"). */
enum fb_exit {
	FB_EXIT_OK = 0,		/* every workload ran, or was skipped saying why */
	FB_EXIT_FAILED = 1,	/* a workload failed, or forkbench could not start */
	FB_EXIT_USAGE = 2,
};

/*
 * How forkbench's own helper processes end: their parent reads the status
 * (reap(), measure_in_pidns()), and reap() prints the number of a failure.
 */
enum child_exit {
	CHILD_OK = 0,
	CHILD_FAILED = 1,
	CHILD_BAD_COUNT = 2,	/* an execl chain link given a bad count */
	CHILD_NOT_RELEASED = 3,	/* a copy of run_copies() was never released */
	/* no privilege to unshare a pid namespace: the workload is skipped */
	CHILD_NO_PERMISSION = 77,
};

enum role { ROLE_PRIMARY, ROLE_SECONDARY, ROLE_CONTROL };

extern const char *const role_name[];

/* What a setup function returns, besides 0 and -1, when it printed why. */
enum { SETUP_SKIP = 1 };

struct sample {
	uint64_t ops;		/* operations in this batch */
	uint64_t elapsed_ns;
	double ns_per_op;
	uint64_t user_ns, sys_ns;	/* this process */
	uint64_t cusr_ns, csys_ns;	/* reaped children */
	int cpu, cpu_end;	/* CPU of the measuring process */
};

struct bench;

struct workload {
	const char *name;
	enum role role;
	const char *what;
	/* operations per iteration: the batch function is given iterations */
	unsigned int ops_per_iter;
	/* nesting depth of pid namespaces to measure in, 0 for none */
	unsigned int pidns_depth;
	/* never pin: the workload needs every CPU (it pins its own copies) */
	bool own_affinity;
	/* returns 0, or SETUP_SKIP after printing why, or -1 */
	int (*setup)(struct bench *b);
	int (*batch)(struct bench *b, uint64_t iters);
	void (*teardown)(struct bench *b);
};

/*
 * The workloads in the order of --list, the canonical order.  The count is
 * a constant for the arrays sized by it; the table checks it.
 */
#define NR_WORKLOADS 23
extern const struct workload workloads[];

struct result {
	const struct workload *w;
	struct sample *samples;
	size_t nr_samples;
	uint64_t iters;
	bool pinned;
	uint32_t warmup;	/* full batches discarded after calibration */
	bool settled;		/* the last two of them agreed (--settle) */
	double warm_ns[WARMUP_SHOWN];	/* ns/op of the first of them */
	enum { RESULT_OK, RESULT_SKIPPED, RESULT_ERROR } state;
	char reason[128];	/* why skipped, or what failed */
};

struct bench {
	/* options */
	size_t samples;
	size_t samples_other;	/* of secondary and control workloads */
	bool samples_given;
	uint64_t min_batch_ns;
	uint64_t fixed_iters;
	unsigned int warmup;
	unsigned int warmup_max;
	double settle;		/* relative; 0: --warmup batches, no more */
	bool as_listed;
	double duration;
	bool have_seed;
	uint64_t seed;
	bool json;
	bool pin;
	int cpu;
	bool keep_aslr;
	size_t big_mib;
	unsigned int busy;
	unsigned int copies;
	unsigned long pid_base;	/* 0: leave pid allocation alone */
	const char *tmpdir_base;
	const char *target_arg;
	char **tags;
	size_t nr_tags;

	/* state */
	int nr_cpus;
	cpu_set_t all_cpus;
	char tmpdir[PATH_MAX];
	bool tmpdir_is_tmpfs;	/* tmpfs or ramfs */
	char target[PATH_MAX];	/* exec target: exits 0 at once */
	char self[PATH_MAX];	/* copy of this program, for execl */
	char storm[PATH_MAX];	/* storm shell script */
	bool made_target, made_self, made_storm;
	void *big;
	int semid;
	int pipe_to[2], pipe_from[2];
	pid_t pipe_peer;
	/* set by a batch that times itself (see run_copies()), else 0 */
	uint64_t batch_ns;
};

/* forkbench-workloads.c */
unsigned int ops_per_iter(const struct bench *b, const struct workload *w);
size_t samples_of(const struct bench *b, const struct workload *w);
void __attribute__((noreturn)) execl_chain(const char *self, const char *count);

/* forkbench-files.c */
int prepare_files(struct bench *b);
void remove_files(struct bench *b);

/* forkbench-harness.c */
void run_workload(struct bench *b, struct result *r);

/* forkbench-report.c */
void print_json(const struct bench *b, FILE *f, const struct result *res,
		size_t nr);
void print_table(FILE *f, const struct result *res, size_t nr);

#endif
