/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg.h - a picture of a comparison: per workload, the two sides' samples
 * side by side on one axis, with the verdict.
 */
#ifndef HIJACK_BENCH_SVG_H
#define HIJACK_BENCH_SVG_H

#include <stddef.h>
#include <stdio.h>

struct svg_panel {
	const char *name;
	const char *base_label, *cand_label;
	const double *x, *y;
	size_t n, m;
	double ratio, lo, hi;
	double limit;		/* baseline median x (1 + margin): a dashed line */
	const char *verdict;
};

/* Write the panels as one standalone SVG document. */
void svg_write(FILE *f, const char *title, const struct svg_panel *p,
	       size_t nr);

#endif
