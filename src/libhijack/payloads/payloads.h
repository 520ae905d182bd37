/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * payloads/payloads.h - what the payloads (command.c, tools.c,
 * tools-view.c, files.c) share among themselves.  Each is a struct
 * hj_payload handed to hj_spawn() (spawn/spawn.h); nothing outside this
 * folder includes this header.
 */
#ifndef HIJACK_PAYLOADS_H
#define HIJACK_PAYLOADS_H

#include "spawn/spawn.h"

/* command.c: the default payload's command, which tools.c execs too */
struct hj_command {
	char *const *argv;	/* the caller's */
	char **own;		/* hijack's copy of it, what the child execs */
};

int hj_command_prepare(struct hj_command *c, struct hijack_diag *d);
void hj_command_done(struct hj_command *c);
int hj_command_exec(const struct hj_command *c, char **envp,
		    struct hijack_diag *d);

/* tools-view.c: the --tools view (tools.c) */
int hj_tools_view(const struct hijack_target *t, const char *dir,
		  int *ret_pts, struct hijack_diag *d);

#endif /* HIJACK_PAYLOADS_H */
