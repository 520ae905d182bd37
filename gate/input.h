/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * input.h - read the two sides of a comparison for benchcmp.
 *
 * A side is named by one command-line argument: a file, a comma-separated
 * list of files, or a directory (its regular files, in name order).  Files
 * are ministat style (one number per line, first column, '#' comments) or
 * forkbench JSON.  A side of one file gives its samples as they are; a side
 * of several files is a side of per-file medians: each file is one boot,
 * and batches within a boot are not independent samples.
 */
#ifndef HIJACK_BENCH_INPUT_H
#define HIJACK_BENCH_INPUT_H

#include <stdbool.h>
#include <stddef.h>

struct series {
	char *name;		/* workload; "" for ministat input */
	char *role;		/* "primary", "secondary", "control" or NULL */
	double *v;
	size_t n;
};

/* Where a side's numbers came from: one entry per file (per boot). */
struct side_file {
	char *path;
	/* from forkbench's "env", NULL for ministat files */
	char *release, *version, *build_id, *cmdline, *accelerator, *clock;
};

struct side {
	char *label;		/* the argument as given */
	bool json;
	size_t nr_files;
	struct side_file *files;
	struct series *series;
	size_t nr_series;
};

/*
 * Load a side.  field is the forkbench sample member to use: "ns_per_op",
 * or any other counter, then divided by the sample's "batch" to give a
 * per-operation figure.  A side of several files gets one value per file:
 * the median of its samples, or with boot_mean their mean.  On failure returns -1 with a one-line message
 * in err naming the file and the place: a line of a ministat file or of a
 * JSON syntax error, else the workload and sample of a forkbench document.
 */
int side_load(const char *arg, const char *field, bool boot_mean,
	      struct side *side, char *err, size_t errlen);

void side_free(struct side *side);

const struct series *side_find(const struct side *side, const char *name);

#endif
