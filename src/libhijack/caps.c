// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * caps.c - capability sets, with libcap: read the target's, predict what
 * execve() will make of them, and set them.
 *
 * What counts is what the command holds after execve(), and execve()
 * recomputes the sets (capabilities(7), "Transformation of capabilities
 * during execve()").  For a program without file capabilities:
 *   - a non-root command gets P' = E' = the ambient set; I and B are kept;
 *   - a root command gets P' = E' = I | B, and the ambient set is cleared,
 *     unless no_new_privs limits P' to the permitted set before exec.
 * So the command is given the target's I, B and A, and the target's P and
 * E as its last pre-exec state.  If the root rule would then hand it more
 * than the target's permitted set, B and I are lowered to that set: the
 * command may end up stricter than its target, never freer.
 */
#include <fcntl.h>
#include <stdio.h>
#include <linux/securebits.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "internal.h"

static void cap_freep(cap_t *c)
{
	if (*c)
		(void)cap_free(*c);
}

static void iab_freep(cap_iab_t *c)
{
	if (*c)
		(void)cap_free(*c);
}

#define _cleanup_cap_ _cleanup_(cap_freep)
#define _cleanup_iab_ _cleanup_(iab_freep)

static unsigned long long all_caps(void)
{
	int n = cap_max_bits();

	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

static int from_libcap(cap_t c, cap_iab_t iab, struct hijack_caps *ret)
{
	struct hijack_caps r = { 0 };
	cap_flag_value_t v;
	cap_value_t i;

	for (i = 0; i < cap_max_bits() && i < 64; i++) {
		unsigned long long bit = 1ULL << i;

		if (cap_get_flag(c, i, CAP_PERMITTED, &v) < 0)
			return -errno;
		if (v)
			r.prm |= bit;
		if (cap_get_flag(c, i, CAP_EFFECTIVE, &v) < 0)
			return -errno;
		if (v)
			r.eff |= bit;
		if (cap_get_flag(c, i, CAP_INHERITABLE, &v) < 0)
			return -errno;
		if (v)
			r.inh |= bit;
		if (cap_iab_get_vector(iab, CAP_IAB_AMB, i))
			r.amb |= bit;
		/* libcap's IAB holds the bounding set as what is blocked. */
		if (!cap_iab_get_vector(iab, CAP_IAB_BOUND, i))
			r.bnd |= bit;
	}
	*ret = r;
	return 0;
}

int hj_caps_read(pid_t pid, struct hijack_caps *ret, struct hijack_diag *d)
{
	_cleanup_cap_ cap_t c = NULL;
	_cleanup_iab_ cap_iab_t iab = NULL;
	int r;

	/* pid 0 means "this process" to libcap. */
	c = cap_get_pid(pid);
	iab = pid ? cap_iab_get_pid(pid) : cap_iab_get_proc();
	if (!c || !iab)
		return hj_diag_set(d, HIJACK_STEP_CAPS, errno,
				   "capability sets of pid %d", (int)pid);
	r = from_libcap(c, iab, ret);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, r, "capability sets of pid %d",
				   (int)pid);
	return 0;
}

/*
 * This process's own sets, as hj_caps_read(0) gives them, from
 * /proc/self/status: libcap reads the bounding and ambient sets with a
 * prctl() per capability, some 80 system calls, a tenth of a millisecond
 * that every plan would pay only for what --explain compares with; the
 * status file has all five sets in one read.  Masked as from_libcap()
 * masks them.
 */
int hj_caps_read_self(struct hijack_caps *ret)
{
	static const char *const keys[] = { "CapInh", "CapPrm", "CapEff",
					    "CapBnd", "CapAmb" };
	_cleanup_free_ char *status = NULL;
	struct hijack_caps c;
	unsigned long long *sets[] = { &c.inh, &c.prm, &c.eff, &c.bnd, &c.amb };
	char buf[32], *end;
	size_t i;
	int r;

	r = hj_read_at(AT_FDCWD, "/proc/self/status", &status, NULL);
	if (r < 0)
		return r;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		if (hj_status_field(status, keys[i], buf, sizeof(buf)) < 0)
			return -EBADMSG;
		errno = 0;
		*sets[i] = strtoull(buf, &end, 16) & all_caps();
		if (errno || end == buf || *end)
			return -EBADMSG;
	}
	*ret = c;
	return 0;
}

/*
 * Decide the sets to give before exec so that exec yields the target's
 * (see the top of the file).  @root: the command runs with uid or euid 0
 * in its user namespace.  @nnp: no_new_privs will be set.
 */
void hj_caps_plan(const struct hijack_caps *target, bool root, bool nnp,
		  struct hijack_caps *ret, char *note, size_t size)
{
	struct hijack_caps c = *target;
	unsigned long long gained;

	note[0] = '\0';
	if (root && !nnp) {
		gained = (c.inh | c.bnd) & ~c.prm & all_caps();
		if (gained) {
			c.bnd &= c.prm;
			c.inh &= c.prm;
			(void)snprintf(note, size,
				       "bounding and inheritable lowered by %#llx: a root exec would gain them",
				       gained);
		}
	} else if (!root && (c.prm & ~c.amb)) {
		(void)snprintf(note, size,
			       "after exec the command holds the ambient set %#llx; the target also holds %#llx",
			       c.amb, c.prm & ~c.amb);
	}
	*ret = c;
}

static int set_flags(cap_t c, cap_flag_t flag, unsigned long long mask)
{
	cap_value_t i;

	for (i = 0; i < cap_max_bits() && i < 64; i++)
		if (cap_set_flag(c, flag, 1, &i,
				 (mask >> i) & 1 ? CAP_SET : CAP_CLEAR) < 0)
			return -errno;
	return 0;
}

/*
 * First half, while still privileged: raise the effective set to use
 * CAP_SETPCAP, then set inheritable, ambient and bounding at once.
 */
int hj_caps_apply_iab(const struct hijack_caps *want, struct hijack_diag *d)
{
	_cleanup_cap_ cap_t c = NULL;
	_cleanup_iab_ cap_iab_t iab = NULL;
	cap_value_t i;

	c = cap_get_proc();
	if (!c || cap_fill(c, CAP_EFFECTIVE, CAP_PERMITTED) < 0 ||
	    cap_set_proc(c) < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, errno,
				   "raise the effective set");

	iab = cap_iab_init();
	if (!iab)
		return hj_diag_set(d, HIJACK_STEP_CAPS, errno, "cap_iab_init");
	for (i = 0; i < cap_max_bits() && i < 64; i++) {
		unsigned long long bit = 1ULL << i;

		if (cap_iab_set_vector(iab, CAP_IAB_INH, i,
				       want->inh & bit ? CAP_SET : CAP_CLEAR) < 0 ||
		    cap_iab_set_vector(iab, CAP_IAB_AMB, i,
				       want->amb & bit ? CAP_SET : CAP_CLEAR) < 0 ||
		    cap_iab_set_vector(iab, CAP_IAB_BOUND, i,
				       want->bnd & bit ? CAP_CLEAR : CAP_SET) < 0)
			return hj_diag_set(d, HIJACK_STEP_CAPS, errno,
					   "capability %d", (int)i);
	}
	if (cap_iab_set_proc(iab) < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, errno,
				   "set inheritable %#llx, ambient %#llx, bounding %#llx",
				   want->inh, want->amb, want->bnd);
	return 0;
}

/* Second half: the final permitted, effective and inheritable sets. */
int hj_caps_apply_final(const struct hijack_caps *want, struct hijack_diag *d)
{
	_cleanup_cap_ cap_t c = cap_init();

	if (!c || set_flags(c, CAP_PERMITTED, want->prm) < 0 ||
	    set_flags(c, CAP_EFFECTIVE, want->eff) < 0 ||
	    set_flags(c, CAP_INHERITABLE, want->inh) < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, ENOMEM, "cap_init");
	if (cap_set_proc(c) < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, errno,
				   "set permitted %#llx, effective %#llx",
				   want->prm, want->eff);
	(void)prctl(PR_SET_KEEPCAPS, 0);
	return 0;
}

/*
 * The copier of hijack_file_copy() does not exec, so the kernel never
 * applies the transformation at the top of this file: apply it here, to
 * the sets the confinement left, so that the copier holds what a command
 * would hold after execve() of a program without file capabilities.
 * Only P and E matter to a process that will not exec; both can only be
 * lowered.
 */
int hj_caps_as_after_exec(struct hijack_diag *d)
{
	bool nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
	_cleanup_cap_ cap_t c = NULL;
	_cleanup_iab_ cap_iab_t iab = NULL;
	struct hijack_caps now, after = { 0 };
	uid_t ruid, euid, suid;
	bool root;
	int bits, r;

	c = cap_get_proc();
	iab = cap_iab_get_proc();
	if (!c || !iab || getresuid(&ruid, &euid, &suid) < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, errno,
				   "read own capability sets");
	r = from_libcap(c, iab, &now);
	if (r < 0)
		return hj_diag_set(d, HIJACK_STEP_CAPS, r,
				   "read own capability sets");
	bits = prctl(PR_GET_SECUREBITS);
	root = (ruid == 0 || euid == 0) &&
	       !(bits >= 0 && (bits & SECBIT_NOROOT));
	if (root) {
		after.prm = now.inh | now.bnd;
		if (nnp)
			after.prm &= now.prm;
		/* The file's effective bit counts as set for euid 0 only. */
		after.eff = euid == 0 ? after.prm : 0;
	} else {
		after.prm = after.eff = now.amb;
	}
	after.prm &= now.prm;
	after.eff &= after.prm;
	after.inh = now.inh;
	return hj_caps_apply_final(&after, d);
}
