// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * forkbench - the workloads of the fork-path regression gate.
 *
 * Every workload is a "batch" function that performs n operations.  The
 * harness calibrates n during warm-up so that one batch lasts at least
 * --min-batch-ms, then records --samples batches, each timed with
 * CLOCK_MONOTONIC and accompanied by the getrusage() deltas of the process
 * and of its reaped children.  See gate/README.md for why the
 * measurement is shaped like this.
 *
 * The program must run as PID 1's child in a busybox initramfs as well as on
 * a host, so it needs nothing but a kernel: it is built with gcc -static and
 * writes its own exec target (a 129-byte ELF file) to a tmpfs directory.
 *
 * This file is the command line, and main(): parse, run, report.  The
 * other parts are listed in forkbench.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/personality.h>

#include "forkbench.h"

const char program_name[] = "forkbench";

enum {
	OPT_BATCH = CHAR_MAX + 1,
	OPT_WARMUP,
	OPT_WARMUP_MAX,
	OPT_SETTLE,
	OPT_ORDER,
	OPT_CPU,
	OPT_NO_PIN,
	OPT_ASLR,
	OPT_BIG_MIB,
	OPT_COPIES,
	OPT_PID_BASE,
	OPT_SAMPLES_OTHER,
	OPT_BUSY,
	OPT_TMPDIR,
	OPT_TARGET,
};

static void usage(void)
{
	printf("Usage: forkbench [options]\n\n"
	       "Measure the cost of process creation and its controls.\n\n"
	       "Options:\n"
	       "  -w, --workloads=LIST    comma-separated workloads (default: all), run\n"
	       "                          in the order of --list whatever LIST's order\n"
	       "  -l, --list              list the workloads and their roles\n"
	       "  -n, --samples=N         samples per workload (default 10)\n"
	       "      --samples-other=N   samples per secondary and control workload\n"
	       "                          (default: --samples)\n"
	       "  -m, --min-batch-ms=MS   minimum duration of one batch (default 10)\n"
	       "      --batch=N           fixed iterations per batch, no calibration\n"
	       "      --warmup=N          warm-up batches after calibration (default 2)\n"
	       "      --settle=PCT        then warm up until two batches in a row agree\n"
	       "                          within PCT (default 2; 0: exactly --warmup)\n"
	       "      --warmup-max=N      at most N warm-up batches (default 10)\n"
	       "      --order=listed      run --workloads as listed, repeats allowed\n"
	       "                          (default: the order of --list)\n"
	       "  -d, --duration=SECS     stop sampling a workload after SECS\n"
	       "  -s, --seed=N            randomise the workload order with seed N\n"
	       "  -j, --json              print one JSON document\n"
	       "  -t, --tag=KEY=VALUE     record KEY=VALUE in the environment\n"
	       "      --cpu=N             CPU for pinned (primary) workloads (default 0)\n"
	       "      --no-pin            never pin\n"
	       "      --aslr              keep address space randomisation\n"
	       "      --big-mib=N         memory of spawn-big in MiB (default 256)\n"
	       "      --copies=N          copies of spawn-N (default nr_cpus)\n"
	       "      --pid-base=N        start every batch's forks at pid N (ns_last_pid)\n"
	       "      --busy=N            busy_in/busy_out loop of sem-1/2/4 (default 10)\n"
	       "      --tmpdir=DIR        where to put the targets (default a tmpfs)\n"
	       "      --target=PATH       exec target instead of the built-in one\n"
	       "  -h, --help              display this help\n"
	       "  -V, --version           display version\n\n"
	       "Exit status: 0 all requested workloads ran, 1 a workload failed,\n"
	       "2 usage error.  See gate/README.md.\n");
}

/* A number option in [@min, @max]; anything else is a usage error. */
static unsigned long long parse_num(const char *arg, const char *opt,
				    unsigned long long min, unsigned long long max)
{
	unsigned long long v;

	if (!parse_ull(arg, &v) || v < min || v > max)
		die(FB_EXIT_USAGE, "--%s: '%s' is not a number in [%llu, %llu]",
		    opt, arg, min, max);
	return v;
}

static void list_workloads(void)
{
	for (size_t i = 0; i < NR_WORKLOADS; i++)
		printf("%-12s %-9s %s\n", workloads[i].name,
		       role_name[workloads[i].role], workloads[i].what);
}

static void add_tag(struct bench *b, char *arg)
{
	if (!strchr(arg, '=') || arg[0] == '=')
		die(FB_EXIT_USAGE, "--tag: expected KEY=VALUE, got '%s'", arg);
	b->tags = realloc(b->tags, (b->nr_tags + 1) * sizeof(*b->tags));
	if (!b->tags)
		die(FB_EXIT_FAILED, "out of memory");
	b->tags[b->nr_tags++] = arg;
}

/* The options that take a number with a decimal point. */
static void parse_fraction(struct bench *b, int opt, const char *arg)
{
	double v;
	bool ok = parse_double(arg, &v);

	switch (opt) {
	case 'm':
		/* "" has always been taken as 0 ms: kept so */
		if ((!ok && *arg) || !(v >= 0) || v > 1e6)
			die(FB_EXIT_USAGE, "--min-batch-ms: bad value '%s'", arg);
		b->min_batch_ns = (uint64_t)(v * 1e6);
		break;
	case OPT_SETTLE:
		if (!ok || !(v >= 0) || v > 100)
			die(FB_EXIT_USAGE, "--settle: '%s' is not a percentage in [0, 100]",
			    arg);
		b->settle = v / 100;
		break;
	case 'd':
		if (!ok || !(v > 0))
			die(FB_EXIT_USAGE, "--duration: bad value '%s'", arg);
		b->duration = v;
		break;
	}
}

/* What the command line says besides the options kept in struct bench. */
struct choice {
	const char *list;	/* --workloads, or NULL for all of them */
	bool warmup_max_given;
};

/*
 * One option.  A long switch, one case an option: a table would have to
 * hide the fields' different types behind offsets.
 */
static void parse_option(struct bench *b, struct choice *ch, int opt, char *arg)
{
	switch (opt) {
	case 'w':
		ch->list = arg;
		break;
	case 'n':
		b->samples = parse_num(arg, "samples", 1, 100000);
		b->samples_given = true;
		break;
	case OPT_SAMPLES_OTHER:
		b->samples_other = parse_num(arg, "samples-other", 1, 100000);
		break;
	case 'm':
	case OPT_SETTLE:
	case 'd':
		parse_fraction(b, opt, arg);
		break;
	case OPT_BATCH:
		b->fixed_iters = parse_num(arg, "batch", 1, 1ULL << 40);
		break;
	case OPT_WARMUP:
		b->warmup = parse_num(arg, "warmup", 0, 1000);
		break;
	case OPT_WARMUP_MAX:
		b->warmup_max = parse_num(arg, "warmup-max", 0, 1000);
		ch->warmup_max_given = true;
		break;
	case OPT_ORDER:
		if (strcmp(arg, "listed") && strcmp(arg, "canonical"))
			die(FB_EXIT_USAGE, "--order: expected 'listed' or 'canonical', not '%s'",
			    arg);
		b->as_listed = !strcmp(arg, "listed");
		break;
	case 's':
		b->seed = parse_num(arg, "seed", 0, UINT64_MAX);
		b->have_seed = true;
		break;
	case 'j':
		b->json = true;
		break;
	case 't':
		add_tag(b, arg);
		break;
	case OPT_CPU:
		b->cpu = parse_num(arg, "cpu", 0, CPU_SETSIZE - 1);
		break;
	case OPT_NO_PIN:
		b->pin = false;
		break;
	case OPT_ASLR:
		b->keep_aslr = true;
		break;
	case OPT_BIG_MIB:
		b->big_mib = parse_num(arg, "big-mib", 1, 1 << 20);
		break;
	case OPT_COPIES:
		b->copies = parse_num(arg, "copies", 1, 4096);
		break;
	case OPT_PID_BASE:
		b->pid_base = parse_num(arg, "pid-base", 2, 1 << 22);
		break;
	case OPT_BUSY:
		b->busy = parse_num(arg, "busy", 0, 1 << 30);
		break;
	case OPT_TMPDIR:
		b->tmpdir_base = arg;
		break;
	case OPT_TARGET:
		b->target_arg = arg;
		break;
	}
}

static void parse_command_line(int argc, char **argv, struct bench *b,
			       struct choice *ch)
{
	static const struct option longopts[] = {
		{ "workloads", required_argument, NULL, 'w' },
		{ "list", no_argument, NULL, 'l' },
		{ "samples", required_argument, NULL, 'n' },
		{ "samples-other", required_argument, NULL, OPT_SAMPLES_OTHER },
		{ "min-batch-ms", required_argument, NULL, 'm' },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "warmup-max", required_argument, NULL, OPT_WARMUP_MAX },
		{ "settle", required_argument, NULL, OPT_SETTLE },
		{ "order", required_argument, NULL, OPT_ORDER },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "tag", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "no-pin", no_argument, NULL, OPT_NO_PIN },
		{ "aslr", no_argument, NULL, OPT_ASLR },
		{ "big-mib", required_argument, NULL, OPT_BIG_MIB },
		{ "copies", required_argument, NULL, OPT_COPIES },
		{ "pid-base", required_argument, NULL, OPT_PID_BASE },
		{ "busy", required_argument, NULL, OPT_BUSY },
		{ "tmpdir", required_argument, NULL, OPT_TMPDIR },
		{ "target", required_argument, NULL, OPT_TARGET },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "w:ln:m:d:s:jt:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			list_workloads();
			exit(FB_EXIT_OK);
		case 'h':
			usage();
			exit(FB_EXIT_OK);
		case 'V':
			printf("forkbench %s\n", FORKBENCH_VERSION);
			exit(FB_EXIT_OK);
		case '?':
			fprintf(stderr, "Try 'forkbench --help' for more information.\n");
			exit(FB_EXIT_USAGE);
		default:
			parse_option(b, ch, c, optarg);
		}
	}
	if (optind < argc)
		die(FB_EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	/* --duration alone means "sample until the time is up" */
	if (b->duration > 0 && !b->samples_given)
		b->samples = 100000;
	if (!b->samples_other)
		b->samples_other = b->samples;
	if (!ch->warmup_max_given)
		b->warmup_max = b->warmup > 10 ? b->warmup : 10;
	if (b->warmup_max < b->warmup)
		die(FB_EXIT_USAGE, "--warmup-max (%u) is less than --warmup (%u)",
		    b->warmup_max, b->warmup);
	if (b->as_listed && !ch->list)
		die(FB_EXIT_USAGE, "--order=listed needs --workloads");
}

static const struct workload *find_workload(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_WORKLOADS; i++)
		if (strlen(workloads[i].name) == len &&
		    !strncmp(workloads[i].name, name, len))
			return &workloads[i];
	return NULL;
}

/*
 * The workloads to run, into @order; returns how many.  LIST chooses; the
 * order stays the canonical one unless --order=listed: a workload's cost
 * depends on what ran before it (spawn-big slows the next one's first
 * batches by up to 45%), so a user's order must not change a result.
 */
static size_t choose_workloads(const struct bench *b, const char *list,
			       const struct workload **order)
{
	bool chosen[NR_WORKLOADS] = { false };
	size_t nr = 0;

	if (!list) {
		for (size_t i = 0; i < NR_WORKLOADS; i++)
			order[nr++] = &workloads[i];
		return nr;
	}
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		const struct workload *w = find_workload(p, len);

		if (!w)
			die(FB_EXIT_USAGE, "unknown workload '%.*s' (see --list)",
			    (int)len, p);
		if (chosen[w - workloads] && !b->as_listed)
			die(FB_EXIT_USAGE, "--workloads: '%s' is listed twice", w->name);
		if (nr == NR_WORKLOADS)
			die(FB_EXIT_USAGE, "too many workloads");
		chosen[w - workloads] = true;
		order[nr++] = w;
		p += len + (p[len] == ',');
	}
	if (!nr)
		die(FB_EXIT_USAGE, "--workloads: empty list");
	if (!b->as_listed) {
		nr = 0;
		for (size_t i = 0; i < NR_WORKLOADS; i++)
			if (chosen[i])
				order[nr++] = &workloads[i];
	}
	return nr;
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fisher-Yates; the seed is in the report, so it can be redone. */
static void shuffle(uint64_t seed, const struct workload **order, size_t nr)
{
	uint64_t state = seed;

	for (size_t i = nr - 1; i > 0; i--) {
		size_t j = splitmix64(&state) % (i + 1);
		const struct workload *t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

/*
 * Turn address space randomisation off for this process and everything it
 * starts: the page-table footprint of fork depends on the layout otherwise,
 * and changes run to run.  personality() takes effect at the next execve, so
 * re-execute once.
 */
static void no_aslr(char **argv)
{
	int pers = personality(0xffffffff);

	if (pers < 0 || (pers & ADDR_NO_RANDOMIZE))
		return;
	if (personality(pers | ADDR_NO_RANDOMIZE) < 0) {
		say("warning: personality: %m: ASLR stays on");
		return;
	}
	execv("/proc/self/exe", argv);
	say("warning: re-exec /proc/self/exe: %m: ASLR stays on");
}

/* The CPUs: how many, which ones this process may use, --copies' default. */
static void find_cpus(struct bench *b)
{
	b->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (b->nr_cpus < 1)
		b->nr_cpus = 1;
	if (!b->copies)
		b->copies = b->nr_cpus;
	if (sched_getaffinity(0, sizeof(b->all_cpus), &b->all_cpus))
		die(FB_EXIT_FAILED, "sched_getaffinity: %m");
	if (b->pin && !CPU_ISSET(b->cpu, &b->all_cpus))
		die(FB_EXIT_FAILED, "CPU %d is not available to this process", b->cpu);
}

/*
 * The results and their sample buffers, all allocated before the first
 * runner is forked: the harness allocates nothing between runners.
 */
static struct result *new_results(const struct bench *b,
				  const struct workload **order, size_t nr)
{
	struct result *res = calloc(nr, sizeof(*res));

	if (!res)
		die(FB_EXIT_FAILED, "out of memory");
	for (size_t i = 0; i < nr; i++) {
		res[i].w = order[i];
		res[i].samples = calloc(samples_of(b, res[i].w),
					sizeof(*res[i].samples));
		if (!res[i].samples)
			die(FB_EXIT_FAILED, "out of memory");
	}
	return res;
}

static void free_results(struct result *res, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(res[i].samples);
	free(res);
}

/* Run every workload in turn; false if one of them failed. */
static bool run(struct bench *b, struct result *res, size_t nr)
{
	bool ok = true;

	for (size_t i = 0; i < nr; i++) {
		run_workload(b, &res[i]);
		if (res[i].state == RESULT_ERROR) {
			fail("%s: %s", res[i].w->name, res[i].reason);
			ok = false;
		}
	}
	return ok;
}

static bool report(const struct bench *b, const struct result *res, size_t nr)
{
	if (b->json)
		print_json(b, stdout, res, nr);
	else
		print_table(stdout, res, nr);
	if (fflush(stdout) || ferror(stdout)) {
		fail("write error on stdout");
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	struct bench b = {
		.samples = 10,
		.min_batch_ns = 10 * NSEC_PER_MSEC,
		.warmup = 2,
		.settle = 0.02,
		.pin = true,
		.big_mib = 256,
		.busy = 10,
		.semid = -1,
	};
	struct choice ch = { 0 };
	const struct workload *order[NR_WORKLOADS];
	char **saved_argv;
	struct result *res;
	size_t nr;
	bool ok;

	/* one link of the execl chain: nothing else may run before it */
	if (argc == 3 && !strcmp(argv[1], EXECL_CHAIN_ARG))
		execl_chain("/proc/self/exe", argv[2]);

	/* getopt permutes argv; the ASLR re-exec needs it as it was */
	saved_argv = calloc(argc + 1, sizeof(*saved_argv));
	if (!saved_argv)
		die(FB_EXIT_FAILED, "out of memory");
	memcpy(saved_argv, argv, argc * sizeof(*argv));
	parse_command_line(argc, argv, &b, &ch);
	nr = choose_workloads(&b, ch.list, order);
	if (b.have_seed)
		shuffle(b.seed, order, nr);
	if (!b.keep_aslr)
		no_aslr(saved_argv);
	free(saved_argv);
	find_cpus(&b);

	if (prepare_files(&b)) {
		remove_files(&b);
		return FB_EXIT_FAILED;
	}
	res = new_results(&b, order, nr);
	ok = run(&b, res, nr);
	remove_files(&b);

	if (!report(&b, res, nr))
		return FB_EXIT_FAILED;
	free_results(res, nr);
	free(b.tags);
	return ok ? FB_EXIT_OK : FB_EXIT_FAILED;
}
