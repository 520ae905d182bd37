// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-policy - libFuzzer harness for the seccomp policy file parser
 * (hj_seccomp_plan_stream() in src/libhijack/seccomp.c).  An input is a
 * policy file; whatever it holds, the parser must either compile one
 * filter or refuse with a one-line reason and plan nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hijack_plan p = { 0 };
	struct hijack_diag d = { 0 };
	FILE *f;
	int r;

	if (!size)
		return 0;	/* fmemopen() refuses an empty buffer */
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	r = hj_seccomp_plan_stream(f, "fuzz", &p, &d);
	fclose(f);
	if (r < 0 ? p.nfilters != 0 || !d.detail[0] ||
			    strchr(d.detail, '\n') :
		    p.nfilters != 1 || !p.filters)
		abort();
	hj_filters_free(p.filters, p.nfilters);
	return 0;
}
