/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain.h - what hijack_plan_print() shows, gathered once from the plan
 * by hj_explain_read() (explain.c), then written either as text
 * (explain-text.c) or as JSON (explain-json.c).
 *
 * The two writers read nothing but this, and this reads nothing but the
 * plan: the caller's side of each comparison is the caller as it was when
 * the plan was built (struct hj_caller).
 */
#ifndef HIJACK_EXPLAIN_H
#define HIJACK_EXPLAIN_H

#include <stdio.h>

#include "internal.h"

struct hj_explain {
	/* The target, how it is entered, its namespaces. */
	const struct hijack_container *container;	/* NULL: named by pid */
	pid_t pid;
	enum hijack_method method;
	enum hijack_method fallback;	/* HIJACK_METHOD_AUTO: none */
	long syscall_nr;		/* <= 0: the kernel has no hijack(2) */
	const struct hijack_ns_state *ns;	/* _HIJACK_NS_MAX, by enum hijack_ns */

	/* Root and working directory. */
	enum hijack_dir_mode root_mode, wd_mode;
	const char *root, *wd;
	const char *wd_why;		/* NULL, or why "/" by default */

	/* Credentials and capabilities: the command's, the target's, the caller's. */
	enum hijack_part_mode creds_mode;
	const struct hijack_creds *creds, *target_creds, *caller_creds;
	enum hijack_part_mode caps_mode;
	const struct hijack_caps *caps, *target_caps, *caller_caps;
	bool have_caller_caps;		/* false: the text leaves them out */
	const char *caps_note;		/* "" for none */
	bool securebits_copied;		/* hijack(2) copies the target's */

	/* Cgroups. */
	enum hijack_part_mode cgroup_mode;
	const struct hijack_cgroup *cgroups;
	size_t ncgroups;

	/* Seccomp and LSM. */
	enum hijack_part_mode seccomp_mode;
	int target_seccomp;
	bool target_nnp, nnp;
	size_t nfilters;
	const char *lsm;		/* NULL: none active */
	enum hijack_part_mode lsm_mode;
	const char *lsm_label;

	/* Environment, fds, terminal. */
	int mark;			/* -1: none */
	const char *mark_note;		/* NULL, or why none where wanted */
	enum hijack_part_mode env_mode;
	const char *env_why;		/* NULL, or why reset by default */
	size_t nenv;
	unsigned int preserve_fds;
	enum hijack_pty pty_mode;
	unsigned int pty_fds;		/* bit N: fd N is the new terminal's */

	/* Resource limits: the target's, and the caller's to compare. */
	enum hijack_part_mode limits_mode;
	const struct hijack_limits *limits, *caller_limits;

};

/* explain.c */
void hj_explain_read(const struct hijack_plan *p, struct hj_explain *ret);
const char *hj_explain_part_name(enum hijack_part_mode m);
const char *hj_explain_dir_name(enum hijack_dir_mode m);
const char *hj_explain_pty_name(enum hijack_pty m);
const char *hj_explain_ns_action(const struct hijack_ns_state *s);

/* explain-text.c: return 0, or -EIO when writing failed. */
int hj_explain_text(const struct hj_explain *v, FILE *f);

/* explain-json.c: return 0, -ENOMEM, or -EIO when writing failed. */
int hj_explain_json(const struct hj_explain *v, FILE *f);

#endif
