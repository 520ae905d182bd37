// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * check_engine - naming containers (src/libhijack/engines/container.c,
 * engine-*.c)
 * against state recorded from the engines themselves in tests/unit/data:
 * runc's state.json and Docker's and Podman's API answers were recorded on
 * Debian 12 with the engines of tests/deps.sh; crun's status, machinectl's
 * output and an Incus answer follow those engines' formats, since crun,
 * machined and Incus cannot run on our machines (README.md).  Then the
 * proof hijack_container_open() demands, against real child processes.
 */
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engines/engines.h"
#include "testlib.h"

static char *slurp(const char *rel, size_t *len)
{
	char path[4096], *buf = NULL;
	size_t n;

	(void)snprintf(path, sizeof(path), "%s/%s", TEST_DATA, rel);
	ck_assert_int_eq(hj_read_at(AT_FDCWD, path, &buf, &n), 0);
	if (len)
		*len = n;
	return buf;
}

/* The list comes from the engine table: each engine once, "pid" last. */
START_TEST(engine_names_from_table)
{
	static const char *const want[] = { "lxc",	  "incus", "docker",
					    "podman",	  "machine",
					    "containerd", "runc",  "crun",
					    "pid" };
	const char *const *names = hj_engine_names();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ck_assert_ptr_nonnull(names[i]);
		ck_assert_str_eq(names[i], want[i]);
	}
	ck_assert_ptr_null(names[i]);
	/* The same array every time. */
	ck_assert_ptr_eq(hj_engine_names(), names);
}
END_TEST

START_TEST(runc_state)
{
	struct hijack_container c;
	size_t len;
	char *s = slurp("runc/web/state.json", &len);

	ck_assert_int_eq(hj_runc_parse_state(s, len, "runc", NULL, &c), 0);
	ck_assert_str_eq(c.engine, "runc");
	ck_assert_str_eq(c.name, "web");
	ck_assert_str_eq(c.id, "web");
	ck_assert_int_eq(c.pid, 14819);
	ck_assert_uint_eq(c.start_ticks, 26166);
	/* containerd names its tasks NAMESPACE/ID. */
	ck_assert_int_eq(hj_runc_parse_state(s, len, "containerd", "default/web",
					     &c), 0);
	ck_assert_str_eq(c.name, "default/web");
	ck_assert_str_eq(c.id, "web");
	free(s);
}
END_TEST

/* Whatever a state file holds, a bad one is -EBADMSG and nothing else. */
START_TEST(runc_state_hostile)
{
	static const char *const bad[] = {
		"", "[]", "{", "{\"id\":\"web\"}",
		"{\"id\":\"web\",\"init_process_pid\":0,\"init_process_start\":5}",
		"{\"id\":\"web\",\"init_process_pid\":-4,\"init_process_start\":5}",
		"{\"id\":\"web\",\"init_process_pid\":4294967297,\"init_process_start\":5}",
		"{\"id\":\"web\",\"init_process_pid\":\"42\",\"init_process_start\":5}",
		"{\"id\":7,\"init_process_pid\":42,\"init_process_start\":5}",
		"{\"id\":\"web\",\"init_process_pid\":42,\"init_process_start\":0}",
	};
	struct hijack_container c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(hj_runc_parse_state(bad[i], strlen(bad[i]), "runc",
						  NULL, &c) == -EBADMSG,
			      "accepted: %s", bad[i]);
}
END_TEST

START_TEST(crun_status)
{
	struct hijack_container c;
	size_t len;
	char *s = slurp("crun/web/status", &len);

	ck_assert_int_eq(hj_crun_parse_status(s, len, "web", &c), 0);
	ck_assert_str_eq(c.engine, "crun");
	ck_assert_str_eq(c.name, "web");
	ck_assert_int_eq(c.pid, 4242);
	ck_assert_uint_eq(c.start_ticks, 263473330);
	ck_assert_int_eq(hj_crun_parse_status("{\"pid\":1}", 9, "web", &c),
			 -EBADMSG);
	free(s);
}
END_TEST

START_TEST(docker_api)
{
	struct hj_ctlist l = { 0 };
	struct hijack_container *web = NULL;
	size_t len, i;
	char *s = slurp("docker/containers.json", &len);

	ck_assert_int_eq(hj_docker_parse_list(s, len, "docker", &l), 0);
	ck_assert_uint_eq(l.n, 2);
	for (i = 0; i < l.n; i++) {
		ck_assert_int_eq(l.v[i].pid, 0);	/* the list has none */
		ck_assert_str_eq(l.v[i].cgroup_mark, l.v[i].id);
		if (strcmp(l.v[i].name, "web") == 0)
			web = &l.v[i];
	}
	ck_assert_ptr_nonnull(web);
	ck_assert_str_eq(web->id,
			 "afdfa87e3f977fb9e31cd749b46aeb36aa20e00e75608d493bd2301eefefc43d");
	free(s);

	s = slurp("docker/inspect-web.json", &len);
	ck_assert_int_eq(hj_docker_parse_inspect(s, len, web), 0);
	ck_assert_int_eq(web->pid, 22765);
	/* An answer about another container is not taken. */
	web->id[0] = '0';
	web->pid = 0;
	ck_assert_int_eq(hj_docker_parse_inspect(s, len, web), -EBADMSG);
	ck_assert_int_eq(web->pid, 0);
	free(s);
	hj_ctlist_free(&l);
}
END_TEST

/* Names and ids from a daemon reach terminals and request lines. */
START_TEST(docker_api_hostile)
{
	static const char list[] =
		"[{\"Id\":\"abc\",\"Names\":[\"/ok\"],\"State\":\"running\"},"
		"{\"Id\":\"../../x\",\"Names\":[\"/path\"],\"State\":\"running\"},"
		"{\"Id\":\"abd\",\"Names\":[\"/es\\u001b[2Jc\"],\"State\":\"running\"},"
		"{\"Id\":\"abe\",\"Names\":[\"/gone\"],\"State\":\"exited\"},"
		"{\"Id\":\"abf\",\"Names\":[],\"State\":\"running\"},"
		"{\"Id\":\"ABF\",\"Names\":[\"/upper\"],\"State\":\"running\"},"
		"7]";
	static const char stopped[] =
		"{\"Id\":\"abc\",\"State\":{\"Running\":false,\"Pid\":0}}";
	struct hj_ctlist l = { 0 };

	ck_assert_int_eq(hj_docker_parse_list(list, sizeof(list) - 1, "docker",
					      &l), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].name, "ok");
	ck_assert_int_eq(hj_docker_parse_inspect(stopped, sizeof(stopped) - 1,
						 &l.v[0]), -ESRCH);
	ck_assert_int_eq(hj_docker_parse_list("{}", 2, "docker", &l),
			 -EBADMSG);
	hj_ctlist_free(&l);
}
END_TEST

START_TEST(podman_ps)
{
	struct hj_ctlist l = { 0 };
	size_t len;
	char *s = slurp("podman/ps.json", &len);

	ck_assert_int_eq(hj_podman_parse_ps(s, len, &l), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].engine, "podman");
	ck_assert_str_eq(l.v[0].name, "web");
	ck_assert_int_eq(l.v[0].pid, 22965);
	ck_assert_str_eq(l.v[0].cgroup_mark, l.v[0].id);
	free(s);
	hj_ctlist_free(&l);
}
END_TEST

START_TEST(machinectl_show)
{
	struct hj_ctlist l = { 0 };
	char *s = slurp("machine/show.txt", NULL);

	/* The VM and the machine without a leader are left out. */
	ck_assert_int_eq(hj_machine_parse_show(s, &l), 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].name, "web");
	ck_assert_str_eq(l.v[0].id, "5e9f1b0c7a3d4e2f8b6a1c9d0e7f3a2b");
	ck_assert_int_eq(l.v[0].pid, 4242);
	ck_assert_str_eq(l.v[0].cgroup_mark, "machine-web.scope");
	free(s);
	hj_ctlist_free(&l);
}
END_TEST

START_TEST(incus_api)
{
	struct hj_ctlist l = { 0 };
	size_t len;
	char *s = slurp("incus/instances.json", &len);

	/* Running containers only; a name with a control character is not. */
	ck_assert_int_eq(hj_incus_parse(s, len, &l), 0);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_str_eq(l.v[0].name, "web");
	ck_assert_int_eq(l.v[0].pid, 4242);
	ck_assert_str_eq(l.v[0].cgroup_mark, "lxc.payload.web");
	ck_assert_str_eq(l.v[1].name, "api");
	ck_assert_str_eq(l.v[1].cgroup_mark, "lxc.payload.shop_api");
	free(s);
	hj_ctlist_free(&l);
}
END_TEST

/*
 * An instance whose mark would not fit is not listed: cut short,
 * "lxc.payload.PROJECT_NAME" could be the whole mark of another instance
 * (one of a project named by its beginning), and prove nothing.
 */
START_TEST(incus_mark_too_long)
{
	char project[400], text[1024];
	struct hj_ctlist l = { 0 };

	memset(project, 'p', sizeof(project) - 1);
	project[sizeof(project) - 1] = '\0';
	(void)snprintf(text, sizeof(text),
		       "{\"metadata\":[{\"name\":\"web\",\"type\":\"container\","
		       "\"status\":\"Running\",\"project\":\"%s\","
		       "\"state\":{\"pid\":4242}}]}", project);
	ck_assert_int_eq(hj_incus_parse(text, strlen(text), &l), 0);
	ck_assert_uint_eq(l.n, 0);
	hj_ctlist_free(&l);
}
END_TEST

START_TEST(cgroup_marks)
{
	static const char v1[] = "12:pids:/docker/abc\n0::/docker/abc\n";
	static const char scope[] = "0::/machine.slice/libpod-abc.scope\n";
	static const char lxc[] = "0::/lxc.payload.web/init\n";

	ck_assert(hj_cgroup_has_mark(v1, "docker", "abc"));
	ck_assert(!hj_cgroup_has_mark(v1, "docker", "ab"));
	ck_assert(!hj_cgroup_has_mark(v1, "docker", "bc"));
	ck_assert(hj_cgroup_has_mark(scope, "podman", "abc"));
	ck_assert(hj_cgroup_has_mark(lxc, "lxc", "lxc.payload.web"));
	ck_assert(!hj_cgroup_has_mark(lxc, "lxc", "lxc.payload.we"));
	ck_assert(!hj_cgroup_has_mark("0::/lxc.payload.web2\n", "lxc", "lxc.payload.web"));
	ck_assert(!hj_cgroup_has_mark(lxc, "lxc", ""));
}
END_TEST

/*
 * Each engine's mark ends where its own format says: at "/" or the end of
 * the path, or at the decoration its cgroup driver puts around an id;
 * never at a "." or "-" that only starts another container's name.
 */
START_TEST(cgroup_mark_boundaries)
{
	static const struct {
		const char *engine, *mark, *cgroup;
		bool want;
	} cases[] = {
		/* LXC and Incus: "lxc.payload.NAME", whole. */
		{ "lxc", "lxc.payload.web", "0::/lxc.payload.web\n", true },
		{ "lxc", "lxc.payload.web", "0::/lxc.payload.web.1\n", false },
		{ "lxc", "lxc.payload.web", "0::/lxc.payload.web.1/init\n", false },
		{ "lxc", "lxc.payload.web", "0::/lxc.payload.web-2\n", false },
		{ "lxc", "lxc.payload.web", "0::/lxc.payload.web_x\n", false },
		{ "lxc", "lxc.payload.web", "0::/x-lxc.payload.web\n", false },
		{ "lxc", "lxc.payload.web", "0::/lxc.payload.web.scope\n", false },
		{ "lxc", "lxc.payload.web", "4:pids:/lxc.payload.web\n", true },
		{ "lxc", "lxc.payload.web", "4:lxc.payload.web:/\n", false },
		/* Below another container's mark, its own subtree. */
		{ "lxc", "lxc.payload.web", "0::/lxc.payload.evil/lxc.payload.web\n", false },
		{ "lxc", "lxc.payload.web", "0::/user.slice/lxc.payload.web/init\n", true },
		{ "incus", "lxc.payload.p_web", "0::/lxc.payload.p_web\n", true },
		{ "incus", "lxc.payload.web", "0::/lxc.payload.web.1\n", false },
		/* Docker: "/docker/ID" (cgroupfs), "docker-ID.scope" (systemd). */
		{ "docker", "abc", "0::/docker/abc\n", true },
		{ "docker", "abc", "0::/system.slice/docker-abc.scope\n", true },
		{ "docker", "abc", "0::/system.slice/docker-abc.scope/init\n", true },
		{ "docker", "abc", "0::/docker/abc.1\n", false },
		{ "docker", "abc", "0::/docker/abcd\n", false },
		{ "docker", "abc", "0::/system.slice/docker-abc.scopex\n", false },
		{ "docker", "abc", "0::/system.slice/docker-abcd.scope\n", false },
		{ "docker", "abc", "0::/system.slice/libpod-abc.scope\n", false },
		{ "docker", "abc", "0::/x-abc\n", false },
		/* Podman: "libpod-ID.scope", "libpod_parent/libpod-ID". */
		{ "podman", "abc", "0::/machine.slice/libpod-abc.scope\n", true },
		{ "podman", "abc", "0::/machine.slice/libpod-abc.scope/container\n", true },
		{ "podman", "abc", "0::/libpod_parent/libpod-abc\n", true },
		{ "podman", "abc", "0::/machine.slice/libpod-conmon-abc.scope\n", false },
		{ "podman", "abc", "0::/libpod_parent/libpod-abc.1\n", false },
		/* machined: the unit, whole. */
		{ "machine", "machine-web.scope", "0::/machine.slice/machine-web.scope\n", true },
		{ "machine", "machine-web.scope", "0::/machine.slice/machine-web.scope.d\n", false },
		{ "machine", "machine-web", "0::/machine.slice/machine-web.scope\n", false },
		/* No mark, or one that is a path, matches nothing. */
		{ "lxc", "", "0::/\n", false },
		{ "lxc", "lxc.payload.web/init", "0::/lxc.payload.web/init\n", false },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		ck_assert_msg(hj_cgroup_has_mark(cases[i].cgroup, cases[i].engine,
						 cases[i].mark) == cases[i].want,
			      "%s mark '%s' in '%s': expected %s", cases[i].engine,
			      cases[i].mark, cases[i].cgroup,
			      cases[i].want ? "a match" : "none");
}
END_TEST

/* A state directory like containerd's: tasks/NS/ID and runc/NS/ID. */
static void write_state(const char *dir, const char *id, pid_t pid,
			unsigned long long ticks)
{
	char path[4096];
	json_t *j;
	size_t len;
	char *s = slurp("runc/web/state.json", &len);

	j = json_loadb(s, len, 0, NULL);
	ck_assert_ptr_nonnull(j);
	json_object_set_new(j, "id", json_string(id));
	json_object_set_new(j, "init_process_pid", json_integer(pid));
	json_object_set_new(j, "init_process_start", json_integer((json_int_t)ticks));
	(void)snprintf(path, sizeof(path), "%s/%s", dir, id);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/%s/state.json", dir, id);
	ck_assert_int_eq(json_dump_file(j, path, 0), 0);
	json_decref(j);
	free(s);
}

static pid_t child(unsigned long long *ticks)
{
	char path[32];
	int fd;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	(void)snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(hj_proc_start_ticks(fd, ticks), 0);
	close(fd);
	return pid;
}

static void reap(pid_t pid)
{
	(void)kill(pid, SIGKILL);
	(void)waitpid(pid, NULL, 0);
}

START_TEST(containerd_layout)
{
	static const char *const hints[] = { "w", "default/we", "x", "moby/web" };
	static const size_t found[] = { 1, 1, 0, 0 };
	char root[] = "/tmp/check_engine.XXXXXX", path[4096], runc[4096];
	struct hj_ctlist l = { 0 };
	unsigned long long ticks;
	pid_t pid = child(&ticks);
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(root));
	(void)snprintf(path, sizeof(path), "%s/tasks", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/tasks/default", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/tasks/default/web", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/tasks/default/old", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/runc", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/runc/default", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	write_state(path, "web", pid, ticks);
	/* A stale record: the pid lives, but it started at another time. */
	write_state(path, "old", pid, ticks + 1);

	(void)snprintf(runc, sizeof(runc), "%s/runc", root);
	(void)snprintf(path, sizeof(path), "%s/tasks", root);
	ck_assert_int_eq(hj_containerd_list_root(&l, path, runc), 1);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].name, "default/web");
	ck_assert_str_eq(l.v[0].id, "web");
	ck_assert_int_eq(l.v[0].pid, pid);
	hj_ctlist_free(&l);
	/* A hint skips what cannot match, by id or by NAMESPACE/ID. */
	for (i = 0; i < ARRAY_SIZE(hints); i++) {
		l.hint = hints[i];
		ck_assert_int_eq(hj_containerd_list_root(&l, path, runc), 1);
		ck_assert_uint_eq(l.n, found[i]);
		hj_ctlist_free(&l);
	}
	l.hint = NULL;
	ck_assert_int_eq(hj_containerd_list_root(&l, "/nonexistent", "/x"), 0);
	reap(pid);
	(void)snprintf(path, sizeof(path), "rm -rf '%s'", root);
	ck_assert_int_eq(system(path), 0);
}
END_TEST

/*
 * Whoever can write in a runtime's root must not stall the search or point
 * it elsewhere: a FIFO for a state file (opened for reading, it would wait
 * for a writer), a symlink to a valid record kept out of the root, and a
 * record larger than any runtime writes are each passed over.
 */
START_TEST(runc_root_hostile)
{
	char *root = tl_mkdtemp(), *out = tl_mkdtemp(), path[4096], from[4096];
	struct hj_ctlist l = { 0 };
	unsigned long long ticks;
	pid_t pid = child(&ticks);
	int fd;

	write_state(root, "web", pid, ticks);
	(void)snprintf(path, sizeof(path), "%s/fifo", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/fifo/state.json", root);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	write_state(out, "link", pid, ticks);
	(void)snprintf(path, sizeof(path), "%s/link", root);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	(void)snprintf(path, sizeof(path), "%s/link/state.json", root);
	(void)snprintf(from, sizeof(from), "%s/link/state.json", out);
	ck_assert_int_eq(symlink(from, path), 0);
	write_state(root, "big", pid, ticks);
	(void)snprintf(path, sizeof(path), "%s/big/state.json", root);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, HJ_STATE_MAX + 1), 0);
	ck_assert_int_eq(close(fd), 0);

	ck_assert_int_eq(hj_runc_list_root(&l, "runc", root), 1);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].name, "web");
	hj_ctlist_free(&l);
	reap(pid);
	tl_rmtree(out);
	tl_rmtree(root);
}
END_TEST

/* crun's root: a running container is listed, a stale record is not. */
START_TEST(crun_root)
{
	char *root = tl_mkdtemp(), text[128];
	struct hj_ctlist l = { 0 };
	unsigned long long ticks;
	pid_t pid = child(&ticks);

	(void)snprintf(text, sizeof(text),
		       "{\"pid\":%d,\"process-start-time\":%llu}", (int)pid,
		       ticks);
	tl_write(root, "web/status", text);
	(void)snprintf(text, sizeof(text),
		       "{\"pid\":%d,\"process-start-time\":%llu}", (int)pid,
		       ticks + 1);
	tl_write(root, "old/status", text);

	ck_assert_int_eq(hj_crun_list_root(&l, root), 1);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].engine, "crun");
	ck_assert_str_eq(l.v[0].name, "web");
	ck_assert_int_eq(l.v[0].pid, pid);
	ck_assert_uint_eq(l.v[0].start_ticks, ticks);
	hj_ctlist_free(&l);
	l.hint = "x";
	ck_assert_int_eq(hj_crun_list_root(&l, root), 1);
	ck_assert_uint_eq(l.n, 0);
	l.hint = NULL;
	ck_assert_int_eq(hj_crun_list_root(&l, "/nonexistent"), 0);
	reap(pid);
	tl_rmtree(root);
}
END_TEST

/* The last component of the task's cgroup v2 path ("0::/a/b" gives "b"). */
static bool own_cgroup(pid_t pid, char *buf, size_t size)
{
	char path[64], *text = NULL, *line, *slash, *nl;
	bool ok = false;

	(void)snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	if (hj_read_at(AT_FDCWD, path, &text, NULL) < 0)
		return false;
	line = strstr(text, "0::/");
	if (line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		slash = strrchr(line, '/');
		ok = slash[1] && hj_copy(buf, size, slash + 1) == 0;
	}
	free(text);
	return ok;
}

static void wait_zombie(pid_t pid)
{
	char path[64], *text = NULL;
	int i;

	(void)snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 500; i++) {
		ck_assert_int_eq(hj_read_at(AT_FDCWD, path, &text, NULL), 0);
		if (strstr(strrchr(text, ')'), ") Z ")) {
			free(text);
			return;
		}
		free(text);
		usleep(10000);
	}
	ck_abort_msg("pid %d did not become a zombie", (int)pid);
}

/* hijack_container_open(): the pinned task must carry the proof. */
START_TEST(open_demands_proof)
{
	struct hijack_container c = { .engine = "runc", .name = "web",
				      .id = "web" };
	struct hijack_target *t = NULL;
	struct hijack_diag d = { 0 };
	unsigned long long ticks;
	char expect[160], mark[256];
	pid_t pid = child(&ticks);

	c.pid = pid;
	c.start_ticks = ticks;
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), 0);
	ck_assert_int_eq(hijack_target_pid(t), pid);
	hijack_target_free(t);
	t = NULL;

	/* Another start time: the pid now belongs to someone else. */
	c.start_ticks = ticks + 1;
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), -ESRCH);
	ck_assert_ptr_null(t);
	(void)snprintf(expect, sizeof(expect),
		       "pid %d is no longer runc:web's (restarted since it was found?)",
		       (int)pid);
	ck_assert_str_eq(d.detail, expect);

	/* No proof at all is no proof. */
	c.start_ticks = 0;
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), -ESRCH);

	/* The cgroup: the right one passes, another does not. */
	if (own_cgroup(pid, mark, sizeof(mark))) {
		(void)hj_copy(c.cgroup_mark, sizeof(c.cgroup_mark), mark);
		ck_assert_int_eq(hijack_container_open(&c, &t, &d), 0);
		hijack_target_free(t);
		t = NULL;
	}
	(void)hj_copy(c.cgroup_mark, sizeof(c.cgroup_mark), "docker-0000");
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), -ESRCH);

	/* "pid:N" names the task itself: no proof to ask for. */
	(void)hj_copy(c.engine, sizeof(c.engine), "pid");
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), 0);
	hijack_target_free(t);
	t = NULL;

	/* Dead but not reaped, then reaped: stopped, either way. */
	(void)hj_copy(c.engine, sizeof(c.engine), "runc");
	c.start_ticks = ticks;
	c.cgroup_mark[0] = '\0';
	(void)kill(pid, SIGKILL);
	wait_zombie(pid);
	(void)snprintf(expect, sizeof(expect),
		       "runc:web stopped (its init, pid %d, has exited)", (int)pid);
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), -ESRCH);
	ck_assert_str_eq(d.detail, expect);
	(void)waitpid(pid, NULL, 0);
	ck_assert_int_eq(hijack_container_open(&c, &t, &d), -ESRCH);
	ck_assert_str_eq(d.detail, expect);
	ck_assert_ptr_null(t);
}
END_TEST

START_TEST(find_rejects_bad_targets)
{
	struct hijack_container c;
	struct hijack_diag d = { 0 };

	ck_assert_int_eq(hijack_container_find("rkt:web", &c, &d), -EINVAL);
	ck_assert_str_eq(d.detail, "unknown engine 'rkt' in 'rkt:web' (known: lxc incus docker podman machine containerd runc crun pid)");
	ck_assert_int_eq(hijack_container_find("docker:", &c, &d), -EINVAL);
	ck_assert_int_eq(hijack_container_find("we\tb", &c, &d), -EINVAL);
	ck_assert_int_eq(hijack_container_find("pid:12x", &c, &d), -EINVAL);
	ck_assert_int_eq(hijack_container_find("pid:-1", &c, &d), -EINVAL);
	/* Incus cannot be installed on Debian 12: never present here. */
	if (access("/var/lib/incus/unix.socket", F_OK) < 0) {
		ck_assert_int_eq(hijack_container_find("incus:web", &c, &d), -ENOENT);
		ck_assert_str_eq(d.detail, "no running container 'web': incus is not installed or not running here");
	}
	ck_assert_int_eq(hijack_container_find("pid:4242", &c, &d), 0);
	ck_assert_str_eq(c.engine, "pid");
	ck_assert_int_eq(c.pid, 4242);
}
END_TEST

Suite *engine_suite(void);
Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("parsers");

	tcase_add_test(tc, engine_names_from_table);
	tcase_add_test(tc, runc_state);
	tcase_add_test(tc, runc_state_hostile);
	tcase_add_test(tc, crun_status);
	tcase_add_test(tc, docker_api);
	tcase_add_test(tc, docker_api_hostile);
	tcase_add_test(tc, podman_ps);
	tcase_add_test(tc, machinectl_show);
	tcase_add_test(tc, incus_api);
	tcase_add_test(tc, incus_mark_too_long);
	tcase_add_test(tc, cgroup_marks);
	tcase_add_test(tc, cgroup_mark_boundaries);
	suite_add_tcase(s, tc);
	tc = tcase_create("proof");
	tcase_add_test(tc, containerd_layout);
	tcase_add_test(tc, runc_root_hostile);
	tcase_add_test(tc, crun_root);
	tcase_add_test(tc, open_demands_proof);
	tcase_add_test(tc, find_rejects_bad_targets);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(engine_suite());
}
