/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * option-values.h - the parsers of option values, for options.c.  Each
 * returns 0, or -EINVAL with a one-line message naming the option and
 * what it wants in @err (@errlen bytes).
 */
#ifndef HIJACK_CLI_OPTION_VALUES_H
#define HIJACK_CLI_OPTION_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "options.h"

/* Set the message and give the error: in functions with err and errlen. */
#define fail(...)                                                   \
	({                                                          \
		(void)snprintf(err, errlen, __VA_ARGS__);           \
		-EINVAL;                                            \
	})

int optval_pid(const char *s, pid_t *ret, char *err, size_t errlen);
int optval_ns(const char *list, const char *opt, unsigned int *mask,
	      char *err, size_t errlen);
int optval_dir(const char *s, const char *opt, bool absolute,
	       enum hijack_dir_mode *mode, const char **path, char *err,
	       size_t errlen);
int optval_part(const char *s, const char *opt, const char *none_word,
		enum hijack_part_mode *ret, char *err, size_t errlen);
int optval_mode(const char *s, int *ret, char *err, size_t errlen);
/* --grace: whole seconds, 0 to CLI_GRACE_MAX. */
int optval_grace(const char *s, unsigned int *ret, char *err, size_t errlen);
int optval_size(const char *s, const char *opt, uint64_t *ret, char *err,
		size_t errlen);
int optval_seccomp(const char *s, struct hijack_opts *o, char *err,
		   size_t errlen);
int optval_preserve_fds(const char *s, unsigned int *ret, char *err,
			size_t errlen);
/* -m, -u, ... (nsenter's): add the type to @mask, or -EINVAL. */
int optval_short_ns(int c, unsigned int *mask);

int cli_add_setenv(struct cli_args *a, const char *kv, char *err,
		   size_t errlen);
bool cli_has_setenv(const struct cli_args *a, const char *name);
int cli_set_file(struct cli_args *a, enum hijack_file_op op,
		 const char *path, char *err, size_t errlen);

#endif
