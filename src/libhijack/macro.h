/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * macro.h - the small vocabulary every libhijack file uses: cleanup
 * attributes, ownership transfer, array sizes.
 */
#ifndef HIJACK_MACRO_H
#define HIJACK_MACRO_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define HIJACK_EXPORT __attribute__((visibility("default")))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Bit @n of a mask: of fds, of namespaces, of resource limits. */
#define BIT(n) (1u << (n))

#define _cleanup_(f) __attribute__((cleanup(f)))

/* A parameter that a function of a table of hooks has no use for. */
#define _unused_ __attribute__((unused))

/* Close an fd on scope exit, keeping errno: cleanup must not hide a cause. */
static inline void close_fdp(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;

		(void)close(*fd);
		errno = saved;
		*fd = -EBADF;
	}
}
#define _cleanup_close_ _cleanup_(close_fdp)

static inline void freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

/*
 * funcp(), the cleanup of a pointer freed by func(), keeping errno.  The
 * streams and directories are only read here: a failing close loses
 * nothing.
 */
#define DEFINE_CLEANUP_FUNC(type, func)         \
	static inline void func##p(type *p)     \
	{                                       \
		if (*p) {                       \
			int saved_ = errno;     \
						\
			(void)func(*p);         \
			errno = saved_;         \
		}                               \
	}

DEFINE_CLEANUP_FUNC(FILE *, fclose)
#define _cleanup_fclose_ _cleanup_(fclosep)
DEFINE_CLEANUP_FUNC(DIR *, closedir)
#define _cleanup_closedir_ _cleanup_(closedirp)

/* Hand an fd or pointer on: the cleanup of the old name then does nothing. */
#define TAKE_FD(fd)                     \
	({                              \
		int _fd_ = (fd);        \
		(fd) = -EBADF;          \
		_fd_;                   \
	})

#define TAKE_PTR(p)                             \
	({                                      \
		typeof(p) _p_ = (p);            \
		(p) = NULL;                     \
		_p_;                            \
	})

#endif /* HIJACK_MACRO_H */
