// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctresolve TARGET - the two halves of naming a container, with a pause
 * between them, so a test can stop or restart the container exactly there:
 * hijack_container_find() and print "ENGINE NAME ID PID"; wait for a line
 * on stdin; hijack_container_open() and print "pinned PID".  Exits 125 with
 * hijack's message when either half refuses.
 *
 * ctresolve --plan PID - a long-lived library caller: hijack_plan_build()
 * for PID, print "plan ERRNO DETAIL" (0 and nothing on success), then live
 * on until a line comes on stdin, so a test can look at the target while
 * the caller that built the plan still runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hijack.h"

static int plan(pid_t pid)
{
	struct hijack_opts o = HIJACK_OPTS_INIT;
	struct hijack_target *t = NULL;
	struct hijack_diag d = { 0 };
	struct hijack_plan p;
	char line[16];
	int r;

	if (hijack_target_open(pid, &t, &d) < 0) {
		fprintf(stderr, "ctresolve: %s: %s\n", d.detail, strerror(d.err));
		return 125;
	}
	o.pid = pid;
	r = hijack_plan_build(t, &o, &p, &d);
	printf("plan %d %s\n", -r, r < 0 ? d.detail : "");
	fflush(stdout);
	if (r == 0)
		hijack_plan_clear(&p);
	r = fgets(line, sizeof(line), stdin) ? 0 : 2;
	hijack_target_free(t);
	return r;
}

int main(int argc, char **argv)
{
	struct hijack_target *t = NULL;
	struct hijack_container c;
	struct hijack_diag d;
	char line[16];

	if (argc == 3 && !strcmp(argv[1], "--plan"))
		return plan(atoi(argv[2]));
	if (argc != 2) {
		fputs("usage: ctresolve TARGET | --plan PID\n", stderr);
		return 2;
	}
	if (hijack_container_find(argv[1], &c, &d) < 0)
		goto fail;
	printf("%s %s %s %d\n", c.engine, c.name, c.id, (int)c.pid);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 2;
	if (hijack_container_open(&c, &t, &d) < 0)
		goto fail;
	printf("pinned %d\n", (int)hijack_target_pid(t));
	hijack_target_free(t);
	return 0;
fail:
	fprintf(stderr, "ctresolve: %s: %s\n", d.detail, strerror(d.err));
	return 125;
}
