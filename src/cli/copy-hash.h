/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * copy-hash.h - the size and SHA-256 of what a file copy moved, counted
 * by hijack outside the container (copy-hash.c says how).
 */
#ifndef HIJACK_CLI_COPY_HASH_H
#define HIJACK_CLI_COPY_HASH_H

#include <sys/types.h>
#include <stdbool.h>

#include "hijack.h"

struct copy_hash {
	pid_t pid;		/* the hasher's parent, gone at once */
	int child_end;		/* the data pipe's end the copy gets */
	int stop;		/* closed when the copy is over */
	int result;		/* the hasher's "BYTES HEX" */
};

/*
 * Put a pipe and a hashing process between @f's copy and the caller's fd:
 * @f->fd becomes the pipe's end for the copy.  0 or a negative errno.
 */
int copy_hash_start(struct copy_hash *h, struct hijack_file *f);

/*
 * The copy has ended: let the hasher pass on what is left, and return
 * the byte count and the SHA-256 (64 hex digits) of what went through,
 * or a negative errno when they are not known.  Frees everything.
 */
int copy_hash_finish(struct copy_hash *h, unsigned long long *ret_bytes,
		     char ret_hex[65]);

/* Stop and free, after a failure. */
void copy_hash_abandon(struct copy_hash *h);

#endif
