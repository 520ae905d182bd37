/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hijack-abi.h - the user-space ABI of the hijack(2) system call of
 * kernel-patch/ (its include/uapi/linux/hijack.h), for the headers of
 * kernels that lack it: the number, the flags and the first version of
 * struct hijack_args.  No other dependency, so that the static benchmark
 * programs of tests/bench include it as well as the library.
 *
 * The patch is not upstream, so the number is reserved nowhere but in the
 * patch: syscall.c uses it only after a probe (hijack_syscall_nr()).
 */
#ifndef HIJACK_ABI_H
#define HIJACK_ABI_H

#include <stdint.h>
#include <sys/syscall.h>

#ifndef __NR_hijack
#if defined(__alpha__)
#define __NR_hijack 573
#elif defined(__mips__)
#define __NR_hijack (__NR_Linux + 463)
#else
#define __NR_hijack 463	/* asm-generic, x86, arm, powerpc, s390, ... */
#endif
#endif

#define HIJACK_TAKE_FS 0x01u
#define HIJACK_TAKE_CGROUP 0x02u
#define HIJACK_TAKE_CRED 0x04u

/* struct hijack_args, first version. */
struct hj_hijack_args {
	uint64_t flags;
	uint64_t target;
	uint64_t ns_mask;
	uint64_t pidfd;
	uint64_t exit_signal;
};

#define HJ_HIJACK_ARGS_SIZE_VER0 40

_Static_assert(sizeof(struct hj_hijack_args) == HJ_HIJACK_ARGS_SIZE_VER0,
	       "struct hijack_args, version 0");

#endif /* HIJACK_ABI_H */
