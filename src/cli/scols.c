// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scols.c - libsmartcols for the listings, through dlopen() (scols.h).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "scols.h"

#define EXIT_HIJACK_FAILED 125

void scols_open(struct scols_api *a, const char *what)
{
	void *h = dlopen(SMARTCOLS_SONAME, RTLD_LAZY | RTLD_LOCAL);

#define SCOLS_SYM(fn) (a->fn = h ? (__typeof__(a->fn))dlsym(h, #fn) : NULL)
	if (!SCOLS_SYM(scols_new_table) | !SCOLS_SYM(scols_table_enable_json) |
	    !SCOLS_SYM(scols_table_set_name) | !SCOLS_SYM(scols_table_new_column) |
	    !SCOLS_SYM(scols_column_set_json_type) |
	    !SCOLS_SYM(scols_table_new_line) | !SCOLS_SYM(scols_line_set_data) |
	    !SCOLS_SYM(scols_print_table) | !SCOLS_SYM(scols_unref_table)) {
		fprintf(stderr, "hijack: %s: cannot load %s\n", what,
			SMARTCOLS_SONAME);
		exit(EXIT_HIJACK_FAILED);
	}
	(void)SCOLS_SYM(scols_table_enable_noencoding);
#undef SCOLS_SYM
}
