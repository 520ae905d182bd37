// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * explain.c - show a plan without carrying it out (--explain).
 *
 * hj_explain_read() gathers what is shown, section by section, into a
 * struct hj_explain; the text printer (explain-text.c) and the JSON
 * renderer (explain-json.c) write that.  The two forms do not say the
 * same things in the same order: the text is sentences, compares the
 * command with the caller and leaves out what is usual; the JSON gives
 * every field, under the keys hijack(1) lists in JSON OUTPUT.
 */
#include "explain.h"

void hj_explain_read(const struct hijack_plan *p, struct hj_explain *ret)
{
	size_t n = 0;

	*ret = (struct hj_explain){ 0 };

	ret->container = p->container;
	ret->pid = p->pid;
	ret->method = p->method;
	ret->fallback = p->method_fallback;
	ret->syscall_nr = p->syscall_nr;
	ret->ns = p->ns;

	ret->root_mode = p->root_mode;
	ret->root = p->root;
	ret->wd_mode = p->wd_mode;
	ret->wd_why = p->wd_why;
	ret->wd = p->wd;

	ret->creds_mode = p->creds_mode;
	ret->creds = &p->creds;
	ret->target_creds = &p->target_creds;
	ret->caller_creds = &p->caller.creds;
	ret->caps_mode = p->caps_mode;
	ret->caps = &p->caps;
	ret->target_caps = &p->target_caps;
	ret->caller_caps = &p->caller.caps;
	ret->have_caller_caps = p->caller.have_caps;
	ret->caps_note = p->caps_note;
	ret->securebits_copied = p->syscall_flags & HIJACK_TAKE_CRED;

	ret->cgroup_mode = p->cgroup_mode;
	ret->cgroups = p->cgroups;
	ret->ncgroups = p->ncgroups;

	ret->seccomp_mode = p->seccomp_mode;
	ret->target_seccomp = p->target_seccomp;
	ret->target_nnp = p->target_nnp;
	ret->nfilters = p->nfilters;
	ret->nnp = p->nnp;
	ret->lsm = p->lsm[0] ? p->lsm : NULL;
	ret->lsm_mode = p->lsm_mode;
	ret->lsm_label = p->lsm_label;

	while (p->envp && p->envp[n])
		n++;
	ret->mark = p->mark;
	ret->mark_note = p->mark_note;
	ret->env_mode = p->env_mode;
	ret->env_why = p->env_why;
	ret->nenv = n;
	ret->preserve_fds = p->preserve_fds;
	ret->pty_mode = p->pty_mode;
	ret->pty_fds = p->pty_fds;

	ret->limits_mode = p->limits_mode;
	ret->limits = &p->limits;
	ret->caller_limits = &p->caller.limits;
}

const char *hj_explain_dir_name(enum hijack_dir_mode m)
{
	switch (m) {
	case HIJACK_DIR_TARGET:
		return "target";
	case HIJACK_DIR_KEEP:
		return "keep";
	case HIJACK_DIR_PATH:
		return "path";
	}
	return "unknown";
}

const char *hj_explain_part_name(enum hijack_part_mode m)
{
	switch (m) {
	case HIJACK_FROM_TARGET:
		return "target";
	case HIJACK_KEEP:
		return "keep";
	case HIJACK_NONE:
		return "none";
	case HIJACK_FROM_FILE:
		return "file";
	case HIJACK_RESET:
		return "reset";
	}
	return "unknown";
}

const char *hj_explain_pty_name(enum hijack_pty m)
{
	switch (m) {
	case HIJACK_PTY_AUTO:
		return "auto";
	case HIJACK_PTY_ALWAYS:
		return "always";
	case HIJACK_PTY_NEVER:
		return "never";
	}
	return "unknown";
}

const char *hj_explain_ns_action(const struct hijack_ns_state *s)
{
	if (!s->ino)
		return "unsupported";
	if (s->enter)
		return "enter";
	if (s->ino == s->self_ino && s->dev == s->self_dev)
		return "same";
	return "skip";
}

HIJACK_EXPORT int hijack_plan_print(const struct hijack_plan *p, bool json,
				    FILE *f)
{
	struct hj_explain v;

	hj_explain_read(p, &v);
	return json ? hj_explain_json(&v, f) : hj_explain_text(&v, f);
}
