// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz-options - libFuzzer harness for the command line parser
 * (src/cli/options.c).  An input is the words after "hijack", each ended
 * by a NUL byte (the last one need not be), as the kernel hands argv to
 * main(): so every byte but NUL can appear in a word.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options.h"

/* More words than this only repeat what fewer already reach. */
#define MAX_WORDS 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_WORDS + 2], *buf, *w;
	struct cli_args a = { .opts = HIJACK_OPTS_INIT };
	char err[256];
	int argc = 1;

	/* A private, NUL-terminated copy: the parser may keep pointers. */
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "hijack";
	for (w = buf; w < buf + size && argc <= MAX_WORDS; w += strlen(w) + 1)
		argv[argc++] = w;
	argv[argc] = NULL;

	err[0] = '\0';
	if (cli_parse(argc, argv, &a, err, sizeof(err)) < 0) {
		/*
		 * A refusal must say why.  (It may quote the user's bytes as
		 * they are: making them safe for a terminal is the printer's
		 * job, src/cli/main.c.)
		 */
		if (!err[0])
			abort();
	} else if (a.action != CLI_HELP && a.action != CLI_VERSION &&
		   a.action != CLI_LIST && a.action != CLI_SESSIONS &&
		   a.action != CLI_END_SESSION &&
		   (!a.argv || !a.argv[0] ||
		    (a.opts.pid <= 0) == !(a.target && *a.target))) {
		/* A run needs a command and one target: a pid or a name. */
		abort();
	} else if ((a.action == CLI_LIST || a.action == CLI_SESSIONS ||
		    a.action == CLI_END_SESSION) &&
		   (a.target || a.opts.pid > 0)) {
		/* --list, --sessions and --end-session take no target. */
		abort();
	}
	cli_free(&a);
	free(buf);
	return 0;
}
