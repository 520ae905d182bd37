// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * seccomp.c - the command's seccomp filters: the target's, copied
 * (seccomp-copy.c), or a policy file compiled with libseccomp
 * (seccomp-policy.c).  Kept oldest first, and installed in that order as
 * the very last step before exec.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include "internal.h"

void hj_filters_free(void *filters, size_t n)
{
	struct sock_fprog *f = filters;
	size_t i;

	for (i = 0; i < n; i++)
		free(f[i].filter);
	free(f);
}

/* Append @insns, which the plan then owns, as the newest filter. */
int hj_filters_add(struct hijack_plan *p, struct sock_filter *insns,
		   unsigned short len)
{
	struct sock_fprog *f = realloc(p->filters,
				       (p->nfilters + 1) * sizeof(*f));

	if (!f)
		return -ENOMEM;
	p->filters = f;
	f[p->nfilters].len = len;
	f[p->nfilters].filter = insns;
	p->nfilters++;
	return 0;
}

/* In the child, last before exec. */
int hj_seccomp_install(const struct hijack_plan *p, struct hijack_diag *d)
{
	const struct sock_fprog *f = p->filters;
	size_t i;

	for (i = 0; i < p->nfilters; i++)
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &f[i]) < 0)
			return hj_diag_set(d, HIJACK_STEP_SECCOMP, errno,
					   "install filter %zu of %zu", i + 1,
					   p->nfilters);
	return 0;
}
