// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stats.c - distribution-free comparison of two samples for the gate.
 *
 * The gate's data are per-boot medians of a benchmark, often identical to
 * the last digit between boots (the instruction clock), sometimes skewed and
 * noisy (real time).  Means and t tests assume neither, so the decision rests
 * on the Hodges-Lehmann shift and its Mann-Whitney interval; t and the
 * bootstrap are reported beside it for readers who know them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "stats.h"
#include "util.h"

/* Above this many pairs the U distribution is approximated, not counted. */
#define MW_EXACT_MAX_PAIRS 4096

static double *sorted_copy(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));

	if (!c)
		return NULL;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	return c;
}

static double median_sorted(const double *v, size_t n)
{
	if (!n)
		return NAN;
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_median(const double *v, size_t n)
{
	double *c = sorted_copy(v, n);
	double med;

	if (!c)
		return NAN;
	med = median_sorted(c, n);
	free(c);
	return med;
}

/*
 * The mean of one boot's batches: on the instruction clock there are no
 * outliers to resist, and each batch holds a whole number of timer ticks,
 * so the median snaps to batches with one count of ticks while the mean
 * takes every tick at its share (RESULTS.md).
 */
double stats_mean(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return n ? sum / n : NAN;
}

void stats_summarise(const double *v, size_t n, double conf,
		     struct stats_summary *s)
{
	double *c = sorted_copy(v, n);
	double sum = 0, ss = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!c || !n) {
		free(c);
		s->min = s->max = s->median = s->mean = s->ci_lo = s->ci_hi = NAN;
		return;
	}
	s->min = c[0];
	s->max = c[n - 1];
	s->median = median_sorted(c, n);
	for (size_t i = 0; i < n; i++)
		sum += c[i];
	/* identical values (the instruction clock) have exactly no spread */
	s->mean = c[0] == c[n - 1] ? c[0] : sum / n;
	for (size_t i = 0; i < n; i++)
		ss += (c[i] - s->mean) * (c[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	s->ci_lo = s->ci_hi = s->mean;
	if (n > 1) {
		double t = gsl_cdf_tdist_Pinv(1 - (1 - conf) / 2, n - 1);

		s->ci_lo = s->mean - t * s->sd / sqrt(n);
		s->ci_hi = s->mean + t * s->sd / sqrt(n);
	}
	free(c);
}

bool stats_mw_exact(size_t n, size_t m)
{
	return n && m && n * m <= MW_EXACT_MAX_PAIRS;
}

/*
 * Frequencies of U for sizes (n, m), by the recurrence on the largest of
 * the n + m values: if it belongs to y it beats all i values of x,
 *   f(i, j; u) = f(i, j - 1; u - i) + f(i - 1, j; u),
 * computed row by row over i.  Counts reach C(n + m, n), which a double
 * holds with relative error 1e-16 far beyond the sizes counted here.
 * Returns a normalised array of n * m + 1 probabilities.
 */
static double *mw_pmf(size_t n, size_t m)
{
	double *prev, *cur, *pmf = NULL, total = 0;
	size_t len;

	/* the distribution is the same for (m, n): keep the rows short */
	if (m > n) {
		size_t t = m;

		m = n;
		n = t;
	}
	len = n * m + 1;
	prev = calloc((m + 1) * len, sizeof(double));
	cur = calloc((m + 1) * len, sizeof(double));

	if (!prev || !cur)
		goto out;
	/* row i = 0: no x values, U = 0 whatever j is */
	for (size_t j = 0; j <= m; j++)
		prev[j * len] = 1;
	for (size_t i = 1; i <= n; i++) {
		memset(cur, 0, (m + 1) * len * sizeof(double));
		cur[0] = 1;	/* j = 0: U = 0 */
		for (size_t j = 1; j <= m; j++) {
			double *f = cur + j * len;
			const double *left = cur + (j - 1) * len;
			const double *up = prev + j * len;

			for (size_t u = 0; u <= i * j; u++)
				f[u] = up[u] + (u >= i ? left[u - i] : 0);
		}
		memcpy(prev, cur, (m + 1) * len * sizeof(double));
	}
	pmf = malloc(len * sizeof(double));
	if (!pmf)
		goto out;
	for (size_t u = 0; u < len; u++)
		total += prev[m * len + u];
	for (size_t u = 0; u < len; u++)
		pmf[u] = prev[m * len + u] / total;
out:
	free(prev);
	free(cur);
	return pmf;
}

/* A one-entry cache: the gate asks about the same sizes over and over. */
static struct {
	size_t n, m;
	double *cdf;
} mw_cache;

static const double *mw_exact_cdf(size_t n, size_t m)
{
	double *pmf;

	if (mw_cache.cdf && mw_cache.n == n && mw_cache.m == m)
		return mw_cache.cdf;
	pmf = mw_pmf(n, m);
	if (!pmf)
		return NULL;
	for (size_t u = 1; u <= n * m; u++)
		pmf[u] += pmf[u - 1];
	free(mw_cache.cdf);
	mw_cache.n = n;
	mw_cache.m = m;
	mw_cache.cdf = pmf;
	return pmf;
}

double stats_mw_cdf(size_t n, size_t m, double u)
{
	double mu = n * m / 2.0;
	double sigma = sqrt(n * m * (n + m + 1) / 12.0);

	if (u < 0)
		return 0;
	if (u >= (double)(n * m))
		return 1;
	if (stats_mw_exact(n, m)) {
		const double *cdf = mw_exact_cdf(n, m);

		if (cdf)
			return cdf[(size_t)floor(u)];
	}
	return gsl_cdf_ugaussian_P((floor(u) + 0.5 - mu) / sigma);
}

static double *pair_differences(const double *x, size_t n, const double *y,
				size_t m)
{
	double *d = malloc(n * m * sizeof(*d));

	if (!d)
		return NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			d[i * m + j] = y[j] - x[i];
	qsort(d, n * m, sizeof(*d), cmp_double);
	return d;
}

int stats_hl_shift(const double *x, size_t n, const double *y, size_t m,
		   double alpha, struct stats_shift *out)
{
	size_t nm = n * m, k = 0;
	double *d;

	if (!n || !m)
		return -EINVAL;
	d = pair_differences(x, n, y, m);
	if (!d)
		return -ENOMEM;
	out->est = median_sorted(d, nm);
	/* P(U <= k - 1) grows with k: walk up while it stays within alpha */
	while (k < (nm + 1) / 2 && stats_mw_cdf(n, m, k) <= alpha)
		k++;
	out->k = k;
	if (k == 0) {
		out->lo = -INFINITY;
		out->hi = INFINITY;
		out->coverage = 1;
	} else {
		out->lo = d[k - 1];
		out->hi = d[nm - k];
		out->coverage = 1 - 2 * stats_mw_cdf(n, m, k - 1);
	}
	free(d);
	return 0;
}

int stats_mw_margin_p(const double *x, size_t n, const double *y, size_t m,
		      double delta, double *p_above, double *p_below)
{
	size_t le = 0, ge = 0;

	if (!n || !m)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < m; j++) {
			double d = y[j] - x[i];

			le += d <= delta;
			ge += d >= delta;
		}
	}
	/*
	 * Few differences at or below delta is evidence for a shift above
	 * it; under H0 (shift = delta) that count is distributed as U.
	 */
	*p_above = stats_mw_cdf(n, m, le);
	*p_below = stats_mw_cdf(n, m, ge);
	return 0;
}

/* Above this many arrangements, ties are handled by the approximation. */
#define MW_ENUM_MAX 200000

struct mw_enum {
	const double *rank;	/* midranks of the pooled sample */
	size_t N;
	double mu, dev;		/* E[U] and the observed |U - E[U]| */
	double offset;		/* m (m + 1) / 2 */
	double extreme, total;
};

/* Every choice of m of the N pooled values as "y": count the extreme ones. */
static void mw_enumerate(struct mw_enum *e, size_t i, size_t left, double sum)
{
	if (!left) {
		double u = sum - e->offset;

		e->total++;
		/* midrank sums are multiples of 1/2: exact in a double */
		if (fabs(u - e->mu) >= e->dev - 1e-9)
			e->extreme++;
		return;
	}
	if (e->N - i < left)
		return;
	mw_enumerate(e, i + 1, left - 1, sum + e->rank[i]);
	mw_enumerate(e, i + 1, left, sum);
}

static double binomial(size_t N, size_t k)
{
	double c = 1;

	for (size_t i = 1; i <= k; i++)
		c = c * (N - k + i) / i;
	return c;
}

/*
 * The two-sided p of U with ties.  Under the null the distribution of U
 * is that of random relabellings of these very values, midranks and all:
 * counted here, where the normal approximation is poor (5 equal values
 * against 5 other equal ones: 0.004 instead of 2/252).  @all is the
 * pooled sample, sorted; -1 without memory.
 */
static double mw_tied_p(const double *all, size_t N, size_t m, double u,
			double mu)
{
	double *rank = malloc(N * sizeof(*rank));
	struct mw_enum e = { .rank = rank, .N = N, .mu = mu,
			     .dev = fabs(u - mu),
			     .offset = m * (m + 1) / 2.0 };

	if (!rank)
		return -1;
	for (size_t i = 0; i < N;) {
		size_t j = i;

		while (j < N && all[j] == all[i])
			j++;
		for (size_t k = i; k < j; k++)
			rank[k] = (i + 1 + j) / 2.0;
		i = j;
	}
	mw_enumerate(&e, 0, m, 0);
	free(rank);
	return fmin(1, e.extreme / e.total);
}

int stats_mw_p(const double *x, size_t n, const double *y, size_t m,
	       double *p, double *u_out)
{
	size_t N = n + m;
	double *all, u = 0, ties = 0, mu, var, z;
	bool tied = false;

	if (!n || !m)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			u += (y[j] > x[i]) + 0.5 * (y[j] == x[i]);
	*u_out = u;
	all = malloc(N * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, x, n * sizeof(*x));
	memcpy(all + n, y, m * sizeof(*y));
	qsort(all, N, sizeof(*all), cmp_double);
	for (size_t i = 0; i < N;) {
		size_t j = i;

		while (j < N && all[j] == all[i])
			j++;
		if (j - i > 1) {
			double t = j - i;

			ties += t * t * t - t;
			tied = true;
		}
		i = j;
	}
	mu = n * m / 2.0;
	/*
	 * With ties, for small samples, count the distribution: the normal
	 * approximation is poor there (mw_tied_p()).
	 */
	if (tied && binomial(N, m) <= MW_ENUM_MAX) {
		double tied_p = mw_tied_p(all, N, m, u, mu);

		free(all);
		if (tied_p < 0)
			return -ENOMEM;
		*p = tied_p;
		return 0;
	}
	free(all);
	if (!tied && stats_mw_exact(n, m)) {
		double lo = u <= mu ? u : n * m - u;

		*p = fmin(1, 2 * stats_mw_cdf(n, m, lo));
		return 0;
	}
	var = n * m / 12.0 * ((N + 1) - ties / ((double)N * (N - 1)));
	if (var <= 0) {
		/* every value equal: nothing distinguishes the samples */
		*p = 1;
		return 0;
	}
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	*p = z <= 0 ? 1 : fmin(1, 2 * gsl_cdf_ugaussian_Q(z));
	return 0;
}

int stats_bootstrap_ratio(const double *x, size_t n, const double *y,
			  size_t m, double conf, unsigned int B,
			  unsigned long seed, double *lo, double *hi)
{
	gsl_rng *rng;
	double *rx, *ry, *ratio;
	int ret = 0;

	if (!n || !m || B < 2)
		return -EINVAL;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	rx = malloc(n * sizeof(*rx));
	ry = malloc(m * sizeof(*ry));
	ratio = malloc(B * sizeof(*ratio));
	if (!rng || !rx || !ry || !ratio) {
		ret = -ENOMEM;
		goto out;
	}
	gsl_rng_set(rng, seed);
	for (unsigned int b = 0; b < B; b++) {
		for (size_t i = 0; i < n; i++)
			rx[i] = x[gsl_rng_uniform_int(rng, n)];
		for (size_t j = 0; j < m; j++)
			ry[j] = y[gsl_rng_uniform_int(rng, m)];
		qsort(rx, n, sizeof(*rx), cmp_double);
		qsort(ry, m, sizeof(*ry), cmp_double);
		ratio[b] = median_sorted(ry, m) / median_sorted(rx, n);
	}
	qsort(ratio, B, sizeof(*ratio), cmp_double);
	{
		double a = (1 - conf) / 2;
		size_t il = (size_t)floor(a * (B - 1));
		size_t ih = (size_t)ceil((1 - a) * (B - 1));

		*lo = ratio[il];
		*hi = ratio[ih < B ? ih : B - 1];
	}
out:
	free(rx);
	free(ry);
	free(ratio);
	if (rng)
		gsl_rng_free(rng);
	return ret;
}

void stats_student(const double *x, size_t n, const double *y, size_t m,
		   double conf, struct stats_tline *t)
{
	struct stats_summary sx, sy;
	double s2, t_q;

	memset(t, 0, sizeof(*t));
	if (n < 2 || m < 2)
		return;
	stats_summarise(x, n, conf, &sx);
	stats_summarise(y, m, conf, &sy);
	s2 = ((n - 1) * sx.sd * sx.sd + (m - 1) * sy.sd * sy.sd) / (n + m - 2);
	t->valid = true;
	t->pooled_sd = sqrt(s2);
	t_q = gsl_cdf_tdist_Pinv(1 - (1 - conf) / 2, n + m - 2);
	t->diff = sy.mean - sx.mean;
	t->err = t_q * t->pooled_sd * sqrt(1.0 / n + 1.0 / m);
	t->significant = fabs(t->diff) > t->err;
	t->pct = 100 * t->diff / sx.mean;
	t->pct_err = 100 * t->err / sx.mean;
}

int stats_holm(const double *p, size_t k, double alpha, bool *reject)
{
	size_t *idx = malloc((k ? k : 1) * sizeof(*idx));
	size_t nr = 0;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		reject[i] = false;
		if (p[i] >= 0)
			idx[nr++] = i;
	}
	/* insertion sort by p: families are a few dozen hypotheses */
	for (size_t i = 1; i < nr; i++) {
		size_t v = idx[i], j = i;

		while (j > 0 && p[idx[j - 1]] > p[v]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
	for (size_t r = 0; r < nr; r++) {
		if (p[idx[r]] > alpha / (nr - r))
			break;
		reject[idx[r]] = true;
	}
	free(idx);
	return 0;
}
