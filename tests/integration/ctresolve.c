// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ctresolve TARGET - the two halves of naming a container, with a pause
 * between them, so a test can stop or restart the container exactly there:
 * hijack_container_find() and print "ENGINE NAME ID PID"; wait for a line
 * on stdin; hijack_container_open() and print "pinned PID".  Exits 125 with
 * hijack's message when either half refuses.
 */
#include <stdio.h>
#include <string.h>

#include "hijack.h"

int main(int argc, char **argv)
{
	struct hijack_target *t = NULL;
	struct hijack_container c;
	struct hijack_diag d;
	char line[16];

	if (argc != 2) {
		fputs("usage: ctresolve TARGET\n", stderr);
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
