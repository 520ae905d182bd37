// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * benchcmp - judge a candidate against a baseline: PASS, FAIL or
 * INCONCLUSIVE, with stated confidence (gate/METHOD.md).
 *
 * The decision, per workload, on costs (lower is better):
 *   R = candidate / baseline, estimated by exp(Hodges-Lehmann shift of the
 *   logs), with the distribution-free Mann-Whitney interval of that shift;
 *   PASS when the upper bound < 1 + margin, FAIL when the lower bound >
 *   1 + margin, INCONCLUSIVE otherwise or with fewer than --min-samples a
 *   side.
 * Each bound is a one-sided test at alpha = (1 - confidence) / 2.  Rows
 * form families by role (primary, secondary, control); within a family the
 * FAIL tests and the PASS tests are each corrected with Holm's step-down
 * method, so neither a false FAIL nor a false PASS anywhere in a family is
 * likelier than alpha.  With --looks M
 * (a group-sequential schedule of M looks at growing data) alpha is split
 * evenly over the looks, a Bonferroni bound on the chance that any look
 * errs: repeated looking cannot manufacture a verdict.
 *
 * Control workloads (role "control" in forkbench JSON) are paths the change
 * under test does not touch; if one moves by more than the margin either
 * way the run measured the machine, and the result is INVALID.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "input.h"
#include "jsonw.h"
#include "stats.h"
#include "svg.h"
#include "util.h"

#define BENCHCMP_VERSION "1"

enum verdict { V_PASS, V_FAIL, V_INCONCLUSIVE, V_STEADY, V_MOVED };

static const char *const verdict_name[] = {
	[V_PASS] = "PASS",
	[V_FAIL] = "FAIL",
	[V_INCONCLUSIVE] = "INCONCLUSIVE",
	[V_STEADY] = "STEADY",
	[V_MOVED] = "MOVED",
};

enum exit_code {
	EXIT_PASS = 0,
	EXIT_FAILED = 1,
	EXIT_BAD_INPUT = 2,
	EXIT_INVALID = 3,
	EXIT_INCONCLUSIVE = 4,
};

enum output { OUT_TABLE, OUT_JSON, OUT_KTAP };

struct opts {
	double margin;		/* fraction: 0.01 is 1% */
	double margin_secondary;
	double confidence;
	bool higher_is_better;
	enum output output;
	unsigned int look, looks;
	size_t min_samples;
	unsigned int bootstrap;
	unsigned long seed;
	const char *field;
	bool boot_mean;		/* --per-boot=mean: a boot's value is its mean */
	const char *clock;	/* "real", "instruction", "emulator" or NULL */
	const char *svg;	/* write a picture here */
	const char *ministat_dir;	/* write one-number-per-line files here */
	/* --margin-for NAME=PCT: a workload's own margin, over its role's */
	struct margin_for {
		char name[64];
		double margin;
	} margin_for[64];
	size_t nr_margin_for;
};

struct row {
	const char *name;	/* workload, or the candidate's label */
	const char *role;
	const struct side *cand_side;
	const double *x, *y;	/* baseline, candidate: raw values */
	size_t n, m;
	double margin;
	bool control;

	struct stats_summary sx, sy;
	/* on the cost scale: log(cost), so a regression is a positive shift */
	struct stats_shift shift;
	double ratio, lo, hi;	/* candidate / baseline, in the input's units */
	double boot_lo, boot_hi;
	double mw_p, mw_u;
	double p_fail, p_pass;	/* one-sided, against the margin; -1: not tested */
	bool reject_fail, reject_pass;
	struct stats_tline t;
	enum verdict verdict;
	char reason[160];
};

enum family { FAMILY_PRIMARY, FAMILY_SECONDARY, FAMILY_CONTROL, NR_FAMILIES };

/* Everything compared and concluded, from the sides to the exit code. */
struct comparison {
	struct side base;
	struct side *cands;
	size_t nr_cands;
	struct row *rows;	/* a row per workload and candidate */
	size_t nr;
	double alpha;		/* per side, per look */
	size_t family_size[NR_FAMILIES];	/* rows tested, per Holm family */
	char *overall;
	int code;
};

const char program_name[] = "benchcmp";

/* Input that cannot be judged, including no memory to judge it: exit 2. */
#define bad_input(...) die(EXIT_BAD_INPUT, __VA_ARGS__)

static double *log_costs(const double *v, size_t n, bool higher_is_better)
{
	double *l = malloc((n ? n : 1) * sizeof(*l));

	if (!l)
		bad_input("out of memory");
	for (size_t i = 0; i < n; i++)
		l[i] = higher_is_better ? -log(v[i]) : log(v[i]);
	return l;
}

static void analyse(const struct opts *o, struct row *r, double alpha)
{
	double conf_look = 1 - 2 * alpha;
	double *lx = log_costs(r->x, r->n, o->higher_is_better);
	double *ly = log_costs(r->y, r->m, o->higher_is_better);
	double delta = log1p(r->margin);
	double moved_below = -delta;

	stats_summarise(r->x, r->n, conf_look, &r->sx);
	stats_summarise(r->y, r->m, conf_look, &r->sy);
	if (stats_hl_shift(lx, r->n, ly, r->m, alpha, &r->shift))
		bad_input("out of memory");
	/* back from the cost scale to candidate / baseline in input units */
	if (o->higher_is_better) {
		r->ratio = exp(-r->shift.est);
		r->lo = exp(-r->shift.hi);
		r->hi = exp(-r->shift.lo);
	} else {
		r->ratio = exp(r->shift.est);
		r->lo = exp(r->shift.lo);
		r->hi = exp(r->shift.hi);
	}
	if (stats_mw_p(r->x, r->n, r->y, r->m, &r->mw_p, &r->mw_u) ||
	    stats_bootstrap_ratio(r->x, r->n, r->y, r->m, conf_look, o->bootstrap,
				  o->seed, &r->boot_lo, &r->boot_hi))
		bad_input("out of memory");
	stats_student(r->x, r->n, r->y, r->m, conf_look, &r->t);

	r->p_fail = r->p_pass = -1;
	if (r->n < o->min_samples || r->m < o->min_samples)
		goto out;
	if (r->control) {
		/*
		 * A control is tested both ways against the margin: p_fail
		 * for "costlier by more than the margin", p_pass for
		 * "cheaper by more than the margin".
		 */
		(void)stats_mw_margin_p(lx, r->n, ly, r->m, delta, &r->p_fail,
					&(double){ 0 });
		(void)stats_mw_margin_p(lx, r->n, ly, r->m, moved_below,
					&(double){ 0 }, &r->p_pass);
	} else {
		(void)stats_mw_margin_p(lx, r->n, ly, r->m, delta, &r->p_fail,
					&r->p_pass);
	}
out:
	free(lx);
	free(ly);
}

static void decide(const struct opts *o, struct row *r, double alpha)
{
	bool faster = r->shift.est < 0;

	if (r->n < o->min_samples || r->m < o->min_samples) {
		r->verdict = V_INCONCLUSIVE;
		snprintf(r->reason, sizeof(r->reason),
			 "fewer than %zu samples a side: no decision",
			 o->min_samples);
		return;
	}
	if (r->control) {
		r->verdict = r->reject_fail || r->reject_pass ? V_MOVED : V_STEADY;
		snprintf(r->reason, sizeof(r->reason), r->verdict == V_MOVED ?
			 "control moved by more than %.3g%%: the run measured the machine" :
			 "control not shown to move by more than %.3g%%",
			 100 * r->margin);
		return;
	}
	if (r->reject_fail) {
		r->verdict = V_FAIL;
		snprintf(r->reason, sizeof(r->reason),
			 "slower by more than %.3g%%", 100 * r->margin);
	} else if (r->reject_pass) {
		r->verdict = V_PASS;
		snprintf(r->reason, sizeof(r->reason),
			 "shown to cost less than %.3g%% more", 100 * r->margin);
	} else if (r->p_fail <= alpha || r->p_pass <= alpha) {
		/* the row alone would decide; the family correction does not */
		r->verdict = V_INCONCLUSIVE;
		snprintf(r->reason, sizeof(r->reason),
			 "beyond the %.3g%% margin alone, not after Holm's correction",
			 100 * r->margin);
	} else {
		r->verdict = V_INCONCLUSIVE;
		snprintf(r->reason, sizeof(r->reason),
			 "interval straddles the %.3g%% margin%s", 100 * r->margin,
			 faster ? " (candidate looks faster)" : "");
	}
	/*
	 * Wall-clock times under plain TCG measure the emulator, not the kernel:
	 * reported, never a PASS.
	 */
	if (r->verdict == V_PASS && o->clock && !strcmp(o->clock, "emulator")) {
		r->verdict = V_INCONCLUSIVE;
		snprintf(r->reason, sizeof(r->reason),
			 "emulator wall clock: may not PASS");
	}
}

static const char *const family_name[] = {
	[FAMILY_PRIMARY] = "primary",
	[FAMILY_SECONDARY] = "secondary",
	[FAMILY_CONTROL] = "control",
};

/* Rows without a role (ministat inputs) count as primary. */
static enum family row_family(const struct row *r)
{
	if (r->role && !strcmp(r->role, "secondary"))
		return FAMILY_SECONDARY;
	if (r->control)
		return FAMILY_CONTROL;
	return FAMILY_PRIMARY;
}

/*
 * Holm over each family of rows: the primary workloads (the gate's verdict
 * rests on all of them at once), the secondary ones, which have their own margin, and the
 * controls.  Within a family the FAIL tests and the PASS tests are
 * corrected separately, so neither kind of false verdict in a family is
 * likelier than alpha.
 *
 * The family's size decides what few boots can prove: with 5 against 5
 * the smallest p is 1/252 = 0.0040, so Holm can decide nothing in a
 * family of more than 12 rows at alpha = 5%; with 6 against 6 (1/924) up
 * to 46 rows.
 */
/*
 * The verdict of the primary family alone, which decides whether the gate
 * takes more boots: "none" when no workload is primary.
 */
static const char *primary_verdict(const struct row *rows, size_t nr)
{
	bool any = false, fail = false, inconc = false;

	for (size_t i = 0; i < nr; i++) {
		if (row_family(&rows[i]) != FAMILY_PRIMARY)
			continue;
		any = true;
		fail |= rows[i].verdict == V_FAIL;
		inconc |= rows[i].verdict == V_INCONCLUSIVE;
	}
	if (!any)
		return "none";
	return fail ? "FAIL" : inconc ? "INCONCLUSIVE" : "PASS";
}

static void holm_family(struct row *rows, size_t nr, enum family fam,
			double alpha, size_t *ret_size)
{
	double *pf = malloc((nr ? nr : 1) * sizeof(*pf));
	double *pp = malloc((nr ? nr : 1) * sizeof(*pp));
	bool *rf = malloc((nr ? nr : 1) * sizeof(*rf));
	bool *rp = malloc((nr ? nr : 1) * sizeof(*rp));
	size_t size = 0;

	if (!pf || !pp || !rf || !rp)
		bad_input("out of memory");
	for (size_t i = 0; i < nr; i++) {
		bool in = row_family(&rows[i]) == fam;

		pf[i] = in ? rows[i].p_fail : -1;
		pp[i] = in ? rows[i].p_pass : -1;
		size += in && rows[i].p_fail >= 0;
	}
	if (stats_holm(pf, nr, alpha, rf) || stats_holm(pp, nr, alpha, rp))
		bad_input("out of memory");
	for (size_t i = 0; i < nr; i++) {
		if (row_family(&rows[i]) != fam)
			continue;
		rows[i].reject_fail = rf[i];
		rows[i].reject_pass = rp[i];
	}
	*ret_size = size;
	free(pf);
	free(pp);
	free(rf);
	free(rp);
}

static const char *verdict_label(const struct opts *o, enum verdict v)
{
	static char buf[64];

	if (o->clock && !strcmp(o->clock, "instruction") &&
	    (v == V_PASS || v == V_FAIL)) {
		snprintf(buf, sizeof(buf), "%s (instruction model)", verdict_name[v]);
		return buf;
	}
	return verdict_name[v];
}

/*
 * Half the width of the ratio interval, relative.  With the same spread, a
 * true change must exceed the margin by about this much before the lower
 * bound clears the margin: the "smallest detectable slowdown" the report
 * states.
 */
static double halfwidth(const struct row *r)
{
	return sqrt(r->hi / r->lo) - 1;
}

/* ---- output ------------------------------------------------------------- */

static void print_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g", v);
	else
		fputs("null", f);
}

/* The files of a side and the environment each one recorded. */
static void json_files(FILE *f, const struct side *side)
{
	fputs("[", f);
	for (size_t i = 0; i < side->nr_files; i++) {
		const struct side_file *sf = &side->files[i];

		fputs(i ? ",\n        {\"path\": " : "\n        {\"path\": ", f);
		hj_json_string_or_null(f, sf->path);
		fputs(", \"release\": ", f);
		hj_json_string_or_null(f, sf->release);
		fputs(", \"version\": ", f);
		hj_json_string_or_null(f, sf->version);
		fputs(", \"build_id\": ", f);
		hj_json_string_or_null(f, sf->build_id);
		fputs(", \"accelerator\": ", f);
		hj_json_string_or_null(f, sf->accelerator);
		fputs(", \"clock\": ", f);
		hj_json_string_or_null(f, sf->clock);
		fputs(", \"cmdline\": ", f);
		hj_json_string_or_null(f, sf->cmdline);
		fputs("}", f);
	}
	fputs("]", f);
}

static void json_side(FILE *f, const char *label, const struct stats_summary *s,
		      const double *v, size_t n)
{
	fputs("{\"label\": ", f);
	hj_json_string(f, label);
	fprintf(f, ", \"n\": %zu, \"median\": ", s->n);
	print_num(f, s->median);
	fputs(", \"mean\": ", f);
	print_num(f, s->mean);
	fputs(", \"sd\": ", f);
	print_num(f, s->sd);
	fputs(", \"mean_ci\": [", f);
	print_num(f, s->ci_lo);
	fputs(", ", f);
	print_num(f, s->ci_hi);
	fputs("], \"values\": [", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		print_num(f, v[i]);
	}
	fputs("]}", f);
}

static void json_string_or_null(FILE *f, const char *s)
{
	if (s)
		hj_json_string(f, s);
	else
		fputs("null", f);
}

/* "[lo, hi]" */
static void json_interval(FILE *f, double lo, double hi)
{
	fputc('[', f);
	print_num(f, lo);
	fputs(", ", f);
	print_num(f, hi);
	fputc(']', f);
}

static void json_settings(const struct opts *o, const struct comparison *c,
			  FILE *f)
{
	fprintf(f, "  \"settings\": {\"confidence\": ");
	print_num(f, o->confidence);
	fputs(", \"alpha_per_side_per_look\": ", f);
	print_num(f, c->alpha);
	fputs(", \"margin\": ", f);
	print_num(f, o->margin);
	fputs(", \"margin_secondary\": ", f);
	print_num(f, o->margin_secondary);
	fprintf(f, ", \"higher_is_better\": %s, \"look\": %u, \"looks\": %u, "
		"\"min_samples\": %zu, \"bootstrap\": %u, \"seed\": %lu, \"field\": ",
		o->higher_is_better ? "true" : "false", o->look, o->looks,
		o->min_samples, o->bootstrap, o->seed);
	hj_json_string(f, o->field);
	fprintf(f, ", \"per_boot\": \"%s\"", o->boot_mean ? "mean" : "median");
	fputs(", \"clock\": ", f);
	json_string_or_null(f, o->clock);
	fprintf(f, ", \"baseline_files\": %zu, \"holm_families\": {",
		c->base.nr_files);
	for (int fam = 0; fam < NR_FAMILIES; fam++)
		fprintf(f, "%s\"%s\": %zu", fam ? ", " : "", family_name[fam],
			c->family_size[fam]);
	fputs("}},\n", f);
}

static void json_inputs(const struct comparison *c, FILE *f)
{
	fputs("  \"inputs\": {\n    \"baseline\": {\"label\": ", f);
	hj_json_string(f, c->base.label);
	fputs(", \"files\": ", f);
	json_files(f, &c->base);
	fputs("}", f);
	for (size_t i = 0; i < c->nr_cands; i++) {
		fprintf(f, ",\n    \"candidate%zu\": {\"label\": ", i + 1);
		hj_json_string(f, c->cands[i].label);
		fputs(", \"files\": ", f);
		json_files(f, &c->cands[i]);
		fputs("}", f);
	}
	fputs("\n  },\n", f);
}

static void json_student(FILE *f, const struct stats_tline *t)
{
	if (!t->valid) {
		fputs("null", f);
		return;
	}
	fputs("{\"diff\": ", f);
	print_num(f, t->diff);
	fputs(", \"err\": ", f);
	print_num(f, t->err);
	fputs(", \"pct\": ", f);
	print_num(f, t->pct);
	fputs(", \"pct_err\": ", f);
	print_num(f, t->pct_err);
	fputs(", \"pooled_sd\": ", f);
	print_num(f, t->pooled_sd);
	fprintf(f, ", \"significant\": %s}", t->significant ? "true" : "false");
}

static void json_row(const struct opts *o, const struct side *base,
		     const struct row *r, FILE *f)
{
	fputs("{\"workload\": ", f);
	hj_json_string(f, r->name);
	fputs(", \"role\": ", f);
	json_string_or_null(f, r->role);
	fputs(", \"margin\": ", f);
	print_num(f, r->margin);
	fputs(",\n     \"baseline\": ", f);
	json_side(f, base->label, &r->sx, r->x, r->n);
	fputs(",\n     \"candidate\": ", f);
	json_side(f, r->cand_side->label, &r->sy, r->y, r->m);
	fputs(",\n     \"ratio\": ", f);
	print_num(f, r->ratio);
	fputs(", \"ci\": ", f);
	json_interval(f, r->lo, r->hi);
	fputs(", \"ci_halfwidth\": ", f);
	print_num(f, isfinite(r->lo) && isfinite(r->hi) ? halfwidth(r) : NAN);
	fputs(", \"ci_coverage\": ", f);
	print_num(f, r->shift.coverage);
	fputs(", \"bootstrap_ci\": ", f);
	json_interval(f, r->boot_lo, r->boot_hi);
	fputs(", \"mann_whitney_u\": ", f);
	print_num(f, r->mw_u);
	fputs(", \"mann_whitney_p\": ", f);
	print_num(f, r->mw_p);
	fputs(", \"p_fail\": ", f);
	print_num(f, r->p_fail >= 0 ? r->p_fail : NAN);
	fputs(", \"p_pass\": ", f);
	print_num(f, r->p_pass >= 0 ? r->p_pass : NAN);
	fputs(",\n     \"student_t\": ", f);
	json_student(f, &r->t);
	fputs(",\n     \"verdict\": ", f);
	hj_json_string(f, verdict_label(o, r->verdict));
	fputs(", \"reason\": ", f);
	hj_json_string(f, r->reason);
	fputs("}", f);
}

static void print_json(const struct opts *o, const struct comparison *c)
{
	FILE *f = stdout;

	fprintf(f, "{\n  \"benchcmp\": " BENCHCMP_VERSION ",\n");
	json_settings(o, c, f);
	json_inputs(c, f);
	fputs("  \"rows\": [", f);
	for (size_t i = 0; i < c->nr; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		json_row(o, &c->base, &c->rows[i], f);
	}
	fputs("\n  ],\n  \"verdict\": ", f);
	hj_json_string(f, c->overall);
	fputs(",\n  \"primary\": ", f);
	hj_json_string(f, primary_verdict(c->rows, c->nr));
	fprintf(f, ",\n  \"exit\": %d\n}\n", c->code);
}

static void print_bound(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.5f", v);
	else
		fputs(v > 0 ? "+inf" : "-inf", f);
}

static void print_row_text(const struct opts *o, FILE *f, const struct row *r,
			   const char *base_label, double conf_look)
{
	fprintf(f, "%s (%s, margin %.3g%%)\n", r->name,
		r->role ? r->role : "primary", 100 * r->margin);
	fprintf(f, "  baseline   n=%-4zu median %-14.6g mean %.6g +/- %.3g  %s\n",
		r->sx.n, r->sx.median, r->sx.mean, r->sx.ci_hi - r->sx.mean,
		base_label);
	fprintf(f, "  candidate  n=%-4zu median %-14.6g mean %.6g +/- %.3g  %s\n",
		r->sy.n, r->sy.median, r->sy.mean, r->sy.ci_hi - r->sy.mean,
		r->cand_side->label);
	fprintf(f, "  ratio %.5f  HL %.1f%% CI [", r->ratio, 100 * conf_look);
	print_bound(f, r->lo);
	fputs(", ", f);
	print_bound(f, r->hi);
	fprintf(f, "]  bootstrap [%.5f, %.5f]  Mann-Whitney p=%.3g\n",
		r->boot_lo, r->boot_hi, r->mw_p);
	if (isfinite(r->lo) && isfinite(r->hi))
		fprintf(f, "  resolution: +/-%.3g%%: with this spread only a change beyond about %.3g%% (margin + half-width) can FAIL\n",
			100 * halfwidth(r), 100 * (r->margin + halfwidth(r)));
	if (!r->t.valid)
		fprintf(f, "  (Student's t needs 2 samples a side)\n");
	else if (r->t.significant)
		fprintf(f, "  Difference at %.1f%% confidence: %+.6g +/- %.6g, %+.4g%% +/- %.4g%% (Student's t, pooled s = %.6g)\n",
			100 * conf_look, r->t.diff, r->t.err, r->t.pct,
			r->t.pct_err, r->t.pooled_sd);
	else
		fprintf(f, "  No difference proven at %.1f%% confidence (Student's t, pooled s = %.6g)\n",
			100 * conf_look, r->t.pooled_sd);
	if (r->p_fail >= 0)
		fprintf(f, "  against the margin: p(slower by more) = %.3g, p(not slower by as much) = %.3g (before Holm)\n",
			r->p_fail, r->p_pass);
	fprintf(f, "  verdict: %s: %s\n\n", verdict_label(o, r->verdict), r->reason);
}

static void print_table(const struct opts *o, const struct comparison *c)
{
	FILE *f = stdout;
	const struct side *base = &c->base;
	const struct row *rows = c->rows;
	size_t nr = c->nr;
	double alpha = c->alpha;
	double conf_look = 1 - 2 * alpha;
	double worst = 0;
	size_t w = 8;

	fprintf(f, "%s, %s; confidence %.4g%% (%.3g%% a side", o->field,
		o->higher_is_better ? "higher is better" : "lower is better",
		100 * o->confidence, 100 * (1 - o->confidence) / 2);
	if (o->looks > 1)
		fprintf(f, ", look %u of %u: %.3g%% a side per look", o->look,
			o->looks, 100 * alpha);
	fprintf(f, "), Holm within each family (");
	for (int fam = 0; fam < NR_FAMILIES; fam++)
		fprintf(f, "%s%s %zu", fam ? ", " : "", family_name[fam],
			c->family_size[fam]);
	fprintf(f, ")%s%s\n\n", o->clock ? ", clock: " : "",
		o->clock ? o->clock : "");
	for (size_t i = 0; i < nr; i++)
		print_row_text(o, f, &rows[i], base->label, conf_look);
	for (size_t i = 0; i < nr; i++)
		if (strlen(rows[i].name) > w)
			w = strlen(rows[i].name);
	fprintf(f, "%-*s %4s %4s %9s  %-22s %8s  %s\n", (int)w, "workload",
		"n", "m", "ratio", "interval", "detects", "verdict");
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		bool finite = isfinite(r->lo) && isfinite(r->hi);

		fprintf(f, "%-*s %4zu %4zu %9.5f  [", (int)w, r->name, r->n, r->m,
			r->ratio);
		print_bound(f, r->lo);
		fputs(", ", f);
		print_bound(f, r->hi);
		fputs(finite ? "]  " : "]     ", f);
		/* the smallest slowdown that could FAIL with this spread */
		if (finite)
			fprintf(f, "%7.3f%%", 100 * (r->margin + halfwidth(r)));
		else
			fprintf(f, "%8s", "-");
		fprintf(f, "  %s\n", verdict_label(o, r->verdict));
		if (row_family(r) == FAMILY_PRIMARY &&
		    (!finite || r->margin + halfwidth(r) > worst))
			worst = finite ? r->margin + halfwidth(r) : INFINITY;
	}
	fprintf(f, "overall: %s\n", c->overall);
	fprintf(f, "primary: %s\n", primary_verdict(rows, nr));
	if (worst > 0 && isfinite(worst))
		fprintf(f, "smallest slowdown detectable in every primary workload: %.3f%%\n",
			100 * worst);
	else if (worst > 0)
		fputs("smallest slowdown detectable in every primary workload: none (too few samples)\n",
		      f);
}

static void print_ktap(const struct opts *o, const struct comparison *c)
{
	FILE *f = stdout;
	const struct row *rows = c->rows;
	size_t nr = c->nr;

	fprintf(f, "KTAP version 1\n1..%zu\n", nr);
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		bool bad = r->verdict == V_FAIL || r->verdict == V_MOVED;

		fprintf(f, "# %s: ratio %.5f [", r->name, r->ratio);
		print_bound(f, r->lo);
		fputs(", ", f);
		print_bound(f, r->hi);
		fprintf(f, "] n=%zu m=%zu MW p=%.3g: %s: %s\n", r->n, r->m,
			r->mw_p, verdict_label(o, r->verdict), r->reason);
		/* only SKIP may follow the name: KTAP reads '#' as a directive */
		fprintf(f, "%s %zu %s", bad ? "not ok" : "ok", i + 1, r->name);
		if (r->verdict == V_INCONCLUSIVE)
			fputs(" # SKIP inconclusive", f);
		fputc('\n', f);
	}
	{
		size_t pass = 0, fail = 0, skip = 0;

		for (size_t i = 0; i < nr; i++) {
			enum verdict v = rows[i].verdict;

			fail += v == V_FAIL || v == V_MOVED;
			skip += v == V_INCONCLUSIVE;
			pass += v == V_PASS || v == V_STEADY;
		}
		/* the summary line kselftest's ksft_print_cnts() prints */
		fprintf(f, "# Totals: pass:%zu fail:%zu xfail:0 xpass:0 skip:%zu error:0\n",
			pass, fail, skip);
	}
	fprintf(f, "# overall: %s\n", c->overall);
}

/* ---- files for other tools ---------------------------------------------- */

static void write_svg(const struct opts *o, const struct side *base,
		      const struct row *rows, size_t nr)
{
	struct svg_panel *p = calloc(nr ? nr : 1, sizeof(*p));
	char title[512];
	FILE *f;

	if (!p)
		bad_input("out of memory");
	for (size_t i = 0; i < nr; i++) {
		p[i] = (struct svg_panel){
			.name = rows[i].name,
			.base_label = base->label,
			.cand_label = rows[i].cand_side->label,
			.x = rows[i].x, .n = rows[i].n,
			.y = rows[i].y, .m = rows[i].m,
			.ratio = rows[i].ratio, .lo = rows[i].lo, .hi = rows[i].hi,
			/* where the candidate's median would sit at the margin */
			.limit = rows[i].control ? NAN : o->higher_is_better ?
				 rows[i].sx.median / (1 + rows[i].margin) :
				 rows[i].sx.median * (1 + rows[i].margin),
			.verdict = verdict_name[rows[i].verdict],
		};
	}
	snprintf(title, sizeof(title), "%s vs %s (%s%s%s, %.4g%% confidence)",
		 rows[0].cand_side->label, base->label, o->field,
		 o->clock ? ", clock " : "", o->clock ? o->clock : "",
		 100 * o->confidence);
	f = fopen(o->svg, "we");
	if (!f)
		bad_input("%s: %s", o->svg, strerror(errno));
	svg_write(f, title, p, nr);
	if (fclose(f))
		bad_input("%s: %s", o->svg, strerror(errno));
	free(p);
}

static void write_one_ministat(const char *dir, const char *workload,
			       const char *side, const char *label,
			       const char *field, const double *v, size_t n)
{
	char path[4096], name[256];
	FILE *f;
	size_t k = 0;

	/* a ministat row is named by a path: keep it one file name */
	for (const char *s = workload; *s && k < sizeof(name) - 1; s++)
		name[k++] = (*s == '/' || *s == ' ') ? '_' : *s;
	name[k] = '\0';
	snprintf(path, sizeof(path), "%s/%s.%s", dir, k ? name : "values", side);
	f = fopen(path, "we");
	if (!f)
		bad_input("%s: %s", path, strerror(errno));
	fprintf(f, "# %s, %s, %s\n", workload, label, field);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%.10g\n", v[i]);
	if (fclose(f))
		bad_input("%s: %s", path, strerror(errno));
}

/* WORKLOAD.baseline and WORKLOAD.candidate[N], one number per line. */
static void write_ministat(const struct opts *o, const struct side *base,
			   const struct row *rows, size_t nr, size_t nr_cands,
			   const struct side *cands)
{
	if (mkdir(o->ministat_dir, 0777) && errno != EEXIST)
		bad_input("%s: %s", o->ministat_dir, strerror(errno));
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		char side[32] = "candidate";

		if (nr_cands > 1)
			snprintf(side, sizeof(side), "candidate%zu",
				 (size_t)(r->cand_side - cands) + 1);
		write_one_ministat(o->ministat_dir, r->name, "baseline",
				   base->label, o->field, r->x, r->n);
		write_one_ministat(o->ministat_dir, r->name, side,
				   r->cand_side->label, o->field, r->y, r->m);
	}
}

/* ---- command line ------------------------------------------------------- */

static void usage(void)
{
	printf("Usage: benchcmp [options] BASELINE CANDIDATE...\n\n"
	       "Judge each CANDIDATE against BASELINE: PASS, FAIL or INCONCLUSIVE.\n"
	       "A side is a file, a comma-separated list of files or a directory;\n"
	       "files are ministat style (one number per line, '#' comments) or\n"
	       "forkbench JSON.  Several files on a side: one per-file median each.\n\n"
	       "Options:\n"
	       "  -m, --margin=PCT            allowed slowdown, percent (default 1)\n"
	       "      --margin-secondary=PCT  margin of secondary workloads (default 2 x margin)\n"
	       "      --margin-for=NAME=PCT   margin of workload NAME, whatever its role\n"
	       "                              (repeatable; e.g. fitted to its A/A spread)\n"
	       "  -c, --confidence=PCT        two-sided confidence level (default 90)\n"
	       "  -H, --higher-is-better      values are rates, not costs\n"
	       "  -j, --json                  print one JSON document\n"
	       "  -k, --ktap                  print KTAP for kernel CI\n"
	       "      --look=K --looks=M      this is look K of M planned looks\n"
	       "      --min-samples=N         fewest samples a side to decide (default 5)\n"
	       "      --bootstrap=B           bootstrap resamples (default 4000)\n"
	       "      --seed=N                bootstrap seed (default 1)\n"
	       "      --field=NAME            forkbench sample field (default ns_per_op;\n"
	       "                              others are divided by the batch size)\n"
	       "      --per-boot=median|mean  one boot's value from its batches (default\n"
	       "                              median; mean on the instruction clock)\n"
	       "      --clock=real|instruction|emulator\n"
	       "                              what the times measured; labels verdicts,\n"
	       "                              and 'emulator' never PASSes\n"
	       "      --svg=FILE              draw the samples of both sides per workload\n"
	       "      --ministat-dir=DIR      write DIR/WORKLOAD.baseline and .candidate\n"
	       "  -h, --help                  display this help\n"
	       "  -V, --version               display version\n\n"
	       "Exit status: 0 all PASS, 1 a FAIL, 2 bad input, 3 INVALID (a control\n"
	       "moved), 4 an INCONCLUSIVE and no FAIL.  See gate/README.md.\n");
}

static double parse_pct(const char *arg, const char *opt, double lo, double hi)
{
	double v;

	if (!parse_double(arg, &v) || !(v > lo && v < hi))
		bad_input("--%s: '%s' is not a number in (%g, %g)", opt, arg, lo, hi);
	return v;
}

/* A margin in percent, as a fraction: not negative, not absurd. */
static double parse_margin(const char *arg, const char *opt)
{
	double v = parse_pct(arg, opt, -100, 1e6) / 100;

	if (v < 0)
		bad_input("--%s: must not be negative", opt);
	return v;
}

static unsigned long parse_uint(const char *arg, const char *opt,
				unsigned long lo, unsigned long hi)
{
	unsigned long long v;

	if (!parse_ull(arg, &v) || v < lo || v > hi)
		bad_input("--%s: '%s' is not an integer in [%lu, %lu]", opt, arg,
			  lo, hi);
	return v;
}

enum {
	OPT_MARGIN_SECONDARY = CHAR_MAX + 1,
	OPT_MARGIN_FOR,
	OPT_LOOK,
	OPT_LOOKS,
	OPT_MIN_SAMPLES,
	OPT_BOOTSTRAP,
	OPT_SEED,
	OPT_FIELD,
	OPT_PER_BOOT,
	OPT_CLOCK,
	OPT_SVG,
	OPT_MINISTAT_DIR,
};

/*
 * One option.  A long switch, one case an option: most are one call
 * that checks the value and says what is wrong with it.
 */
static void parse_option(struct opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'm':
		o->margin = parse_margin(arg, "margin");
		break;
	case OPT_MARGIN_SECONDARY:
		o->margin_secondary = parse_margin(arg, "margin-secondary");
		break;
	case OPT_MARGIN_FOR: {
		struct margin_for *mf = &o->margin_for[o->nr_margin_for];
		const char *eq = strchr(arg, '=');

		if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(mf->name))
			bad_input("--margin-for: expected NAME=PCT, got '%s'", arg);
		if (o->nr_margin_for == ARRAY_SIZE(o->margin_for))
			bad_input("--margin-for: more than %zu workloads",
				  ARRAY_SIZE(o->margin_for));
		memcpy(mf->name, arg, (size_t)(eq - arg));
		mf->name[eq - arg] = '\0';
		mf->margin = parse_margin(eq + 1, "margin-for");
		o->nr_margin_for++;
		break;
	}
	case 'c':
		o->confidence = parse_pct(arg, "confidence", 0, 100) / 100;
		break;
	case 'H':
		o->higher_is_better = true;
		break;
	case 'j':
		o->output = OUT_JSON;
		break;
	case 'k':
		o->output = OUT_KTAP;
		break;
	case OPT_LOOK:
		o->look = parse_uint(arg, "look", 1, 1000);
		break;
	case OPT_LOOKS:
		o->looks = parse_uint(arg, "looks", 1, 1000);
		break;
	case OPT_MIN_SAMPLES:
		o->min_samples = parse_uint(arg, "min-samples", 1, 1000000);
		break;
	case OPT_BOOTSTRAP:
		o->bootstrap = parse_uint(arg, "bootstrap", 100, 10000000);
		break;
	case OPT_SEED:
		o->seed = parse_uint(arg, "seed", 0, ULONG_MAX);
		break;
	case OPT_FIELD:
		o->field = arg;
		break;
	case OPT_PER_BOOT:
		if (!strcmp(arg, "mean"))
			o->boot_mean = true;
		else if (strcmp(arg, "median"))
			bad_input("--per-boot: expected median or mean, got '%s'", arg);
		break;
	case OPT_CLOCK:
		if (strcmp(arg, "real") && strcmp(arg, "instruction") &&
		    strcmp(arg, "emulator"))
			bad_input("--clock: expected real, instruction or emulator, got '%s'",
				  arg);
		o->clock = arg;
		break;
	case OPT_SVG:
		o->svg = arg;
		break;
	case OPT_MINISTAT_DIR:
		o->ministat_dir = arg;
		break;
	}
}

/* The options into @o; returns the index in @argv of the BASELINE. */
static int parse_command_line(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "margin", required_argument, NULL, 'm' },
		{ "margin-secondary", required_argument, NULL, OPT_MARGIN_SECONDARY },
		{ "margin-for", required_argument, NULL, OPT_MARGIN_FOR },
		{ "confidence", required_argument, NULL, 'c' },
		{ "higher-is-better", no_argument, NULL, 'H' },
		{ "json", no_argument, NULL, 'j' },
		{ "ktap", no_argument, NULL, 'k' },
		{ "look", required_argument, NULL, OPT_LOOK },
		{ "looks", required_argument, NULL, OPT_LOOKS },
		{ "min-samples", required_argument, NULL, OPT_MIN_SAMPLES },
		{ "bootstrap", required_argument, NULL, OPT_BOOTSTRAP },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "field", required_argument, NULL, OPT_FIELD },
		{ "per-boot", required_argument, NULL, OPT_PER_BOOT },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "ministat-dir", required_argument, NULL, OPT_MINISTAT_DIR },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "m:c:HjkhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
			exit(EXIT_PASS);
		case 'V':
			printf("benchcmp %s\n", BENCHCMP_VERSION);
			exit(EXIT_PASS);
		case '?':
			fprintf(stderr, "Try 'benchcmp --help' for more information.\n");
			exit(EXIT_BAD_INPUT);
		default:
			parse_option(o, c, optarg);
		}
	}
	if (argc - optind < 2) {
		fprintf(stderr, "benchcmp: need a BASELINE and at least one CANDIDATE\n"
			"Try 'benchcmp --help' for more information.\n");
		exit(EXIT_BAD_INPUT);
	}
	if (o->look > o->looks)
		bad_input("--look %u is beyond --looks %u", o->look, o->looks);
	if (o->margin_secondary < 0)
		o->margin_secondary = 2 * o->margin;
	return optind;
}

/* The baseline, argv[0], and the candidates after it, all of one format. */
static void load_sides(const struct opts *o, int argc, char **argv,
		       struct comparison *c)
{
	char err[512];

	if (side_load(argv[0], o->field, o->boot_mean, &c->base, err, sizeof(err)))
		bad_input("%s", err);
	/*
	 * Batches of one boot share its layout and timer phase: they are not
	 * independent samples, and an interval from them is too narrow.
	 */
	if (c->base.json && c->base.nr_files == 1)
		fprintf(stderr, "benchcmp: warning: %s is one forkbench run: its batches are not independent samples; give one file per boot\n",
			c->base.label);
	c->nr_cands = argc - 1;
	c->cands = calloc(c->nr_cands, sizeof(*c->cands));
	if (!c->cands)
		bad_input("out of memory");
	for (size_t i = 0; i < c->nr_cands; i++) {
		struct side *cand = &c->cands[i];

		if (side_load(argv[1 + i], o->field, o->boot_mean, cand, err,
			      sizeof(err)))
			bad_input("%s", err);
		if (cand->json != c->base.json)
			bad_input("%s: is %s but the baseline %s is %s",
				  cand->label, cand->json ? "JSON" : "ministat",
				  c->base.label, c->base.json ? "JSON" : "ministat");
	}
}

/* A workload's margin: its own (--margin-for), else its role's. */
static double margin_of(const struct opts *o, const struct series *s)
{
	for (size_t i = 0; i < o->nr_margin_for; i++)
		if (!strcmp(o->margin_for[i].name, s->name))
			return o->margin_for[i].margin;
	return s->role && !strcmp(s->role, "secondary") ? o->margin_secondary :
							  o->margin;
}

/* A row for each workload of the baseline that a candidate has too. */
static void pair_rows(const struct opts *o, struct comparison *c)
{
	const struct side *base = &c->base;

	for (size_t i = 0; i < c->nr_cands; i++) {
		for (size_t k = 0; k < base->nr_series; k++) {
			const struct series *bs = &base->series[k];
			const struct series *cs = side_find(&c->cands[i], bs->name);
			struct row *r;

			if (!cs) {
				fprintf(stderr, "benchcmp: warning: workload '%s' is not in %s\n",
					bs->name, c->cands[i].label);
				continue;
			}
			c->rows = realloc(c->rows, (c->nr + 1) * sizeof(*c->rows));
			if (!c->rows)
				bad_input("out of memory");
			r = &c->rows[c->nr++];
			*r = (struct row){
				.name = base->json ? bs->name : c->cands[i].label,
				.role = bs->role,
				.cand_side = &c->cands[i],
				.x = bs->v, .n = bs->n,
				.y = cs->v, .m = cs->n,
				.control = bs->role && !strcmp(bs->role, "control"),
				.margin = margin_of(o, bs),
			};
		}
	}
	if (!c->nr)
		bad_input("no workload appears on both sides");
}

/* Every row's verdict, then the overall one and the exit code. */
static void judge(const struct opts *o, struct comparison *c)
{
	bool any_fail = false, any_inconc = false, any_moved = false;
	const char *overall;

	c->alpha = (1 - o->confidence) / 2 / o->looks;
	for (size_t i = 0; i < c->nr; i++)
		analyse(o, &c->rows[i], c->alpha);
	for (int fam = 0; fam < NR_FAMILIES; fam++)
		holm_family(c->rows, c->nr, fam, c->alpha, &c->family_size[fam]);
	for (size_t i = 0; i < c->nr; i++) {
		decide(o, &c->rows[i], c->alpha);
		any_fail |= c->rows[i].verdict == V_FAIL;
		any_inconc |= c->rows[i].verdict == V_INCONCLUSIVE;
		any_moved |= c->rows[i].verdict == V_MOVED;
	}
	if (any_moved) {
		overall = "INVALID";
		c->code = EXIT_INVALID;
	} else if (any_fail) {
		overall = "FAIL";
		c->code = EXIT_FAILED;
	} else if (any_inconc) {
		overall = "INCONCLUSIVE";
		c->code = EXIT_INCONCLUSIVE;
	} else {
		overall = verdict_label(o, V_PASS);
		c->code = EXIT_PASS;
	}
	/* verdict_label() reuses one buffer: keep the overall string apart */
	c->overall = strdup(overall);
	if (!c->overall)
		bad_input("out of memory");
}

static void report(const struct opts *o, const struct comparison *c)
{
	if (o->svg)
		write_svg(o, &c->base, c->rows, c->nr);
	if (o->ministat_dir)
		write_ministat(o, &c->base, c->rows, c->nr, c->nr_cands, c->cands);

	switch (o->output) {
	case OUT_JSON:
		print_json(o, c);
		break;
	case OUT_KTAP:
		print_ktap(o, c);
		break;
	default:
		print_table(o, c);
		break;
	}
	if (fflush(stdout) || ferror(stdout))
		bad_input("write error on stdout");
}

static void free_comparison(struct comparison *c)
{
	free(c->overall);
	free(c->rows);
	for (size_t i = 0; i < c->nr_cands; i++)
		side_free(&c->cands[i]);
	free(c->cands);
	side_free(&c->base);
}

int main(int argc, char **argv)
{
	struct opts o = {
		.margin = 0.01,
		.margin_secondary = -1,
		.confidence = 0.90,
		.look = 1,
		.looks = 1,
		.min_samples = 5,
		.bootstrap = 4000,
		.seed = 1,
		.field = "ns_per_op",
	};
	struct comparison c = { 0 };
	int first = parse_command_line(argc, argv, &o);
	int code;

	load_sides(&o, argc - first, &argv[first], &c);
	pair_rows(&o, &c);
	judge(&o, &c);
	report(&o, &c);
	code = c.code;
	free_comparison(&c);
	return code;
}
