// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gensamples - deterministic synthetic samples for the benchcmp tests.
 *
 *   gensamples [--seed S] [--n N] [--mean M] [--noise PCT] [--shift PCT]
 *              [--json NAME[:ROLE[:SHIFT]],...]
 *
 * Prints N values M * (1 + shift) * (1 + noise * Z), Z standard normal from
 * GSL's MT19937 seeded with S, one per line (ministat format), or with
 * --json a minimal forkbench document with those values as the ns_per_op of
 * every named workload (each workload draws its own values, shifted by its
 * own SHIFT percent when given).
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "util.h"

enum { EXIT_GEN_FAILED = 1, EXIT_BAD_USAGE = 2 };

const char program_name[] = "gensamples";

static double num(const char *arg, const char *opt)
{
	double v;

	if (!parse_double(arg, &v))
		die(EXIT_BAD_USAGE, "--%s: bad number '%s'", opt, arg);
	return v;
}

/* One value: @mean shifted by @shift, with relative normal noise. */
static double draw(gsl_rng *rng, double mean, double shift, double noise)
{
	return mean * (1 + shift) * (1 + noise * gsl_ran_ugaussian(rng));
}

/*
 * A minimal forkbench document: each workload of @list (NAME[:ROLE[:SHIFT]],
 * comma-separated) with @n samples of its own.
 */
static void print_json(gsl_rng *rng, char *list, long n, double mean,
		       double noise, double shift)
{
	bool first = true;

	printf("{\"forkbench\": 1, \"unit\": \"ns/op\", \"workloads\": [");
	for (char *w = strtok(list, ","); w; w = strtok(NULL, ",")) {
		char *role = strchr(w, ':');
		char *wshift = NULL;
		double ws = shift;

		if (role) {
			*role++ = '\0';
			wshift = strchr(role, ':');
		}
		if (wshift) {
			*wshift++ = '\0';
			ws = num(wshift, "json") / 100;
		}
		printf("%s\n  {\"name\": \"%s\", \"role\": \"%s\", \"samples\": [",
		       first ? "" : ",", w, role && *role ? role : "primary");
		for (long i = 0; i < n; i++)
			printf("%s{\"ns_per_op\": %.6f, \"batch\": 100}",
			       i ? ", " : "", draw(rng, mean, ws, noise));
		printf("]}");
		first = false;
	}
	printf("\n]}\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "n", required_argument, NULL, 'n' },
		{ "mean", required_argument, NULL, 'm' },
		{ "noise", required_argument, NULL, 'e' },
		{ "shift", required_argument, NULL, 'd' },
		{ "json", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long seed = 1;
	long n = 10;
	double mean = 1000, noise = 0, shift = 0;
	char *json = NULL;
	gsl_rng *rng;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			seed = (unsigned long)num(optarg, "seed");
			break;
		case 'n':
			n = (long)num(optarg, "n");
			break;
		case 'm':
			mean = num(optarg, "mean");
			break;
		case 'e':
			noise = num(optarg, "noise") / 100;
			break;
		case 'd':
			shift = num(optarg, "shift") / 100;
			break;
		case 'j':
			json = optarg;
			break;
		default:
			return EXIT_BAD_USAGE;
		}
	}
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		return EXIT_GEN_FAILED;
	gsl_rng_set(rng, seed);
	if (!json) {
		for (long i = 0; i < n; i++)
			printf("%.6f\n", draw(rng, mean, shift, noise));
	} else {
		print_json(rng, json, n, mean, noise, shift);
	}
	gsl_rng_free(rng);
	return 0;
}
