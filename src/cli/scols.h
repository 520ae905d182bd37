/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scols.h - libsmartcols, opened when a table is printed (--list,
 * --sessions), not linked: every entry paid for loading and relocating it
 * (0.15 ms of CPU) and only the listings use it.
 */
#ifndef HIJACK_CLI_SCOLS_H
#define HIJACK_CLI_SCOLS_H

#include <libsmartcols.h>

#define SCOLS_FN(fn) __typeof__(fn) *fn
struct scols_api {
	SCOLS_FN(scols_new_table);
	SCOLS_FN(scols_table_enable_json);
	SCOLS_FN(scols_table_set_name);
	SCOLS_FN(scols_table_new_column);
	SCOLS_FN(scols_column_set_json_type);
	SCOLS_FN(scols_table_new_line);
	SCOLS_FN(scols_line_set_data);
	SCOLS_FN(scols_print_table);
	SCOLS_FN(scols_unref_table);
	/* Optional (NULL when missing): for text escaped already. */
	SCOLS_FN(scols_table_enable_noencoding);
};
#undef SCOLS_FN

/* Fill @a, or say why not and exit 125 (@what: "list", "sessions"). */
void scols_open(struct scols_api *a, const char *what);

#endif
