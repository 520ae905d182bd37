// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * example.c - libhijack in a dozen lines: pin a pid, build the plan, print
 * it, run a command inside.  Build it with
 *	cc example.c $(pkg-config --cflags --libs hijack) -o example
 * and run it as root:  ./example PID COMMAND [ARG...]
 */
#include <hijack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int main(int argc, char *argv[])
{
	struct hijack_opts opts = HIJACK_OPTS_INIT;
	struct hijack_diag diag = { 0 };
	struct hijack_target *t = NULL;
	struct hijack_plan *plan = NULL;
	struct hijack_result res;
	int r;

	if (argc < 3) {
		fprintf(stderr, "usage: %s PID COMMAND [ARG...]\n", argv[0]);
		return 125;
	}
	opts.pid = atoi(argv[1]);
	r = hijack_target_open(opts.pid, &t, &diag);
	if (r == 0)
		r = hijack_plan_build(t, &opts, &plan, &diag);
	if (r == 0) {
		r = hijack_plan_print(plan, false, stdout);
		fflush(stdout);
		if (r == 0)
			r = hijack_run(t, plan, argv + 2, NULL, &res, &diag);
		hijack_plan_free(plan);
	}
	hijack_target_free(t);
	if (r < 0) {
		fprintf(stderr, "example: %s: %s: %s\n", hijack_step_name(diag.step),
			diag.detail, strerror(-r));
		return 125;
	}
	return WIFEXITED(res.status) ? WEXITSTATUS(res.status) : 128 + WTERMSIG(res.status);
}
