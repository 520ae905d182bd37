/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats.h - the statistics of the fork-path gate (see METHOD.md, section 4).
 *
 * All functions are pure: they take arrays of samples and fill result
 * structures.  Distribution quantiles come from GSL.
 */
#ifndef HIJACK_BENCH_STATS_H
#define HIJACK_BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One side's description: location, spread and a Student's t interval. */
struct stats_summary {
	size_t n;
	double min, max, median, mean, sd;
	double ci_lo, ci_hi;	/* t interval for the mean; = mean when n < 2 */
};

void stats_summarise(const double *v, size_t n, double conf,
		     struct stats_summary *s);

double stats_median(const double *v, size_t n);
double stats_mean(const double *v, size_t n);

/*
 * P(U <= u) for the Mann-Whitney statistic U of samples of sizes n and m
 * under the null hypothesis (no shift, no ties).  Exact when n * m is
 * small enough to count, else the normal approximation with continuity
 * correction.
 */
double stats_mw_cdf(size_t n, size_t m, double u);

/* True when stats_mw_cdf() is exact for these sizes. */
bool stats_mw_exact(size_t n, size_t m);

/*
 * Hodges-Lehmann estimate of the shift y - x with its distribution-free
 * interval: the order statistics D(k) and D(nm + 1 - k) of the n * m
 * pairwise differences, k the largest index with P(U <= k - 1) <= alpha.
 * alpha is the error rate of each side, so the interval covers the shift
 * with probability >= 1 - 2 alpha.  When no k >= 1 exists (too few
 * samples for alpha) the bounds are -inf/+inf.
 */
struct stats_shift {
	double est;		/* median of the pairwise differences */
	double lo, hi;
	size_t k;		/* order statistic used, 0 when unbounded */
	double coverage;	/* the actual two-sided coverage, >= 1 - 2 alpha */
};

int stats_hl_shift(const double *x, size_t n, const double *y, size_t m,
		   double alpha, struct stats_shift *out);

/*
 * One-sided p-values of the shifted Mann-Whitney test against a margin
 * delta on the same scale as x and y:
 *   p_above: evidence that the shift exceeds delta (H0: shift <= delta)
 *   p_below: evidence that the shift is below delta (H0: shift >= delta)
 * Ties with delta count against rejection, so p <= alpha exactly when the
 * stats_hl_shift() interval at that alpha lies entirely beyond delta.
 */
int stats_mw_margin_p(const double *x, size_t n, const double *y, size_t m,
		      double delta, double *p_above, double *p_below);

/*
 * Two-sided Mann-Whitney p of "no difference": exact for small samples
 * (counted without ties, enumerated over the relabellings with ties),
 * else the normal approximation with the tie correction.
 */
int stats_mw_p(const double *x, size_t n, const double *y, size_t m,
	       double *p, double *u);

/*
 * Percentile bootstrap interval for median(y) / median(x), resampling each
 * side independently, B times, from a GSL generator seeded with seed.
 */
int stats_bootstrap_ratio(const double *x, size_t n, const double *y,
			  size_t m, double conf, unsigned int B,
			  unsigned long seed, double *lo, double *hi);

/* Student's t comparison of means with a pooled SD, as ministat prints it. */
struct stats_tline {
	bool valid;		/* n, m >= 2 */
	bool significant;	/* the interval of the difference excludes 0 */
	double diff, err;	/* mean(y) - mean(x) +/- err */
	double pct, pct_err;	/* the same relative to mean(x), in percent */
	double pooled_sd;
};

void stats_student(const double *x, size_t n, const double *y, size_t m,
		   double conf, struct stats_tline *t);

/*
 * Holm's step-down procedure: reject[i] is set for the hypotheses rejected
 * at family-wise error rate alpha.  Entries with p < 0 take no part.
 */
int stats_holm(const double *p, size_t k, double alpha, bool *reject);

#endif
