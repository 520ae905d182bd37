/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * engines/engines.h - naming containers, private to this folder (and to
 * the unit tests of it): the rest of the library and the command reach it
 * through hijack_container_*() of include/hijack.h.  Each engine is one
 * file with one struct hj_engine, on the helpers of engine-common.c;
 * container.c does the matching and the de-duplication, container-proof.c
 * the pinning, so an engine only reads its own records.  http.c and
 * tool.c are how engines ask a daemon or a command-line tool.
 */
#ifndef HIJACK_ENGINES_H
#define HIJACK_ENGINES_H

#include "internal.h"

struct hj_ctlist {
	struct hijack_container *v;
	size_t n, cap;
	/*
	 * When set, only containers whose name or id starts with it can
	 * match: an engine whose every entry costs a parse or a round trip
	 * may skip the others (hj_hint_allows()).  NULL lists everything.
	 */
	const char *hint;
	/*
	 * What an engine found but does not believe (hj_ctlist_refuse()):
	 * never a candidate, but said when its name is asked for or listed.
	 */
	struct hj_refusal *refused;
	size_t n_refused;
};

struct hj_refusal {
	char engine[16];
	char name[256];
	char why[320];
};

struct hj_engine {
	const char *name;
	/*
	 * Append the engine's running containers to @l.  Return 1 when the
	 * engine is present (even with no containers), 0 when it is not
	 * (not installed, daemon not running), or a negative errno.  An
	 * entry may leave pid 0 when the engine's list does not tell it;
	 * inspect() then completes the entries that matter.
	 */
	int (*list)(struct hj_ctlist *l);
	/* Fill in pid, state and proof of one entry; NULL when list() does. */
	int (*inspect)(struct hijack_container *c);
};

extern const struct hj_engine hj_engine_lxc, hj_engine_docker,
	hj_engine_podman, hj_engine_runc, hj_engine_crun,
	hj_engine_containerd, hj_engine_incus, hj_engine_machine;

struct hijack_container *hj_ctlist_add(struct hj_ctlist *l,
				       const char *engine, const char *name,
				       const char *id);
void hj_ctlist_refuse(struct hj_ctlist *l, const char *engine,
		      const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void hj_ctlist_free(struct hj_ctlist *l);
bool hj_hint_allows(const struct hj_ctlist *l, const char *s);
/* An engine's record or API answer: at most this, within this time. */
#define HJ_STATE_MAX (16u << 20)
#define HJ_STATE_TIMEOUT_MS 5000
int hj_state_read(int dirfd, const char *name, char **ret, size_t *ret_len);
int hj_state_dirs(struct hj_ctlist *l, const char *engine, const char *root,
		  int (*add)(struct hj_ctlist *l, const char *engine, int cfd,
			     const char *id));
int hj_runtime_path(const char *rel, char *buf, size_t size);
int hj_copy(char *dst, size_t size, const char *src);
bool hj_printable(const char *s);
/* The engines in the order they are searched, "pid" last, NULL-terminated. */
const char *const *hj_engine_names(void);
int hj_proc_start_ticks(int procfd, unsigned long long *ret);
bool hj_init_alive(const struct hijack_container *c);
bool hj_cgroup_has_mark(const char *cgroup_file, const char *engine,
			const char *mark);

/* engine-runc.c: a runc/libcontainer state.json, also used by containerd */
int hj_runc_parse_state(const char *json, size_t len, const char *engine,
			const char *name, struct hijack_container *ret);
int hj_runc_add(struct hj_ctlist *l, const char *engine, int cfd,
		const char *id, const char *name);
int hj_runc_list_root(struct hj_ctlist *l, const char *engine,
		      const char *root);
/* engine-crun.c */
int hj_crun_parse_status(const char *json, size_t len, const char *id,
			 struct hijack_container *ret);
int hj_crun_list_root(struct hj_ctlist *l, const char *root);
/* engine-containerd.c */
int hj_containerd_list_root(struct hj_ctlist *l, const char *tasks,
			    const char *runc_root);
/* engine-machine.c */
int hj_machine_parse(const char *block, struct hijack_container *ret);
int hj_machine_parse_show(const char *text, struct hj_ctlist *l);

/* http.c: one GET over a unix socket (Docker/Podman/Incus APIs) */
int hj_read_fd_all(int fd, size_t max, int timeout_ms, char **ret,
		   size_t *ret_len);
int hj_http_get(const char *socket_path, const char *path, char **ret_body,
		size_t *ret_len);
int hj_api_get(const char *socket_path, const char *path, char **ret_body,
	       size_t *ret_len);
/* engine-docker.c: the Docker Engine API, also spoken by Podman */
int hj_docker_parse_list(const char *json, size_t len, const char *engine,
			 struct hj_ctlist *l);
int hj_docker_parse_inspect(const char *json, size_t len,
			    struct hijack_container *c);
int hj_docker_api_list(struct hj_ctlist *l, const char *engine,
		       const char *sock);
int hj_docker_api_inspect(struct hijack_container *c, const char *sock);
/* engine-podman.c */
int hj_podman_parse_ps(const char *json, size_t len, struct hj_ctlist *l);
/* tool.c */
int hj_run_tool(char *const argv[], char **ret, size_t *ret_len);
/* engine-incus.c */
int hj_incus_parse(const char *json, size_t len, struct hj_ctlist *l);

#endif /* HIJACK_ENGINES_H */
