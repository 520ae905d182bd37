/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hijack-abi.h - the user-space ABI of the hijack(2) system call of
 * kernel-patch/ (its include/uapi/linux/hijack.h), for the headers of
 * kernels that lack it: the number, the flags and the first version of
 * struct hijack_args.  No other dependency, so that the static benchmark
 * programs of tests/bench include it as well as the library.
 *
 *	long hijack(int pidfd, unsigned int ns_mask, unsigned int flags,
 *		    struct hijack_args *args, size_t size);
 *
 * The patch is not upstream, so the number is reserved nowhere but in the
 * patch: syscall.c uses it only after a probe (hj_syscall_nr()).
 * Alpha, m68k, MIPS, PA-RISC, SuperH and SPARC have no entry for it: their
 * tables number calls their own way, and the patch leaves them out.
 */
#ifndef HIJACK_ABI_H
#define HIJACK_ABI_H

#include <stdint.h>
#include <sys/syscall.h>

#ifndef __NR_hijack
#if defined(__alpha__) || defined(__m68k__) || defined(__mips__) || \
	defined(__hppa__) || defined(__sh__) || defined(__sparc__)
#define __NR_hijack -1	/* not wired: syscall() fails with ENOSYS */
#else
#define __NR_hijack 500	/* asm-generic, x86, arm, powerpc, s390, ... */
#endif
#endif

#define HIJACK_TAKE_FS 0x01u
#define HIJACK_INTO_CGROUP 0x02u
#define HIJACK_TAKE_CRED 0x04u
#define HIJACK_PIDFD 0x08u

/* struct hijack_args, first version: the flags and ns_mask are arguments. */
struct hj_hijack_args {
	uint64_t pidfd;		/* with HIJACK_PIDFD: int * for the child's pidfd */
	uint64_t exit_signal;
	uint64_t cgroup;	/* with HIJACK_INTO_CGROUP: a cgroup v2 dir fd */
};

#define HJ_HIJACK_ARGS_SIZE_VER0 24

_Static_assert(sizeof(struct hj_hijack_args) == HJ_HIJACK_ARGS_SIZE_VER0,
	       "struct hijack_args, version 0");

#endif /* HIJACK_ABI_H */
