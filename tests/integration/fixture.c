// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fixture - make a real target for hijack's tests: a task in fresh mnt,
 * uts, ipc, net, pid, cgroup and time namespaces, optionally under a user
 * namespace owned by an unprivileged uid, optionally chrooted.
 *
 *   fixture [--userns UID] [--root DIR] [--cwd DIR] [--hostname NAME]
 *           [--no-time] [--devpts]
 *	Prints the target's pid (as the caller sees it) on stdout once the
 *	target is ready, then stays until the target dies; SIGTERM or SIGINT
 *	kill the target.  The target is pid 1 of its pid namespace and has
 *	its own /proc mounted; with --devpts also a devpts instance of its
 *	own on /dev/pts, as container runtimes give theirs.
 *
 *   Confinement, applied by the target to itself once it is ready (for the
 *   parity tests):
 *	--cgroup NAME	 a child cgroup NAME of the fixture's own, on every
 *			 mounted hierarchy (v1 and v2), removed at the end
 *	--cgroup-max N	 ... on the first N mounted hierarchies only
 *	--threads N	 N - 1 more threads in the target, all sleeping
 *	--leader-exits	 with --threads: the main thread then exits alone
 *	--uid N --gid N	 run as uid/gid N
 *	--groups A,B,..	 supplementary groups
 *	--caps A,B,..	 capability numbers kept: permitted, effective,
 *			 inheritable and ambient; everything else also
 *			 dropped from the bounding set but A,B and --bound
 *	--bound A,B,..	 further capability numbers left in the bounding set
 *	--nnp		 no_new_privs
 *	--deny-mkdir	 a seccomp filter: mkdir and mkdirat fail with EPERM
 *			 (repeatable: one more filter each time)
 *	--rlimit R:S:H	 resource R (an RLIMIT_* number) limited to soft S,
 *			 hard H (repeatable); set before any namespace, so
 *			 that a hard limit may be raised
 *	--oom N		 oom_score_adj N, likewise
 *
 *   fixture --run-as UID -- COMMAND [ARG...]
 *	Run COMMAND as UID (gid UID, no supplementary groups): how the tests
 *	become an unprivileged caller without depending on setpriv or su.
 *
 *   fixture --ns-id TYPE
 *	Print "dev:ino" of /proc/self/ns/TYPE as stat -c %d:%i does, for
 *	comparing namespaces by (device, inode) as the kernel selftests do.
 *
 * Static, so that it runs in the QEMU initramfs as on the host.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <mntent.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <getopt.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

struct cfg {
	long userns_uid;	/* -1: no user namespace */
	const char *root;
	const char *cwd;
	const char *hostname;
	int time_ns;
	int devpts;
	const char *cgroup;
	long uid, gid;		/* -1: unchanged */
	gid_t groups[32];
	int ngroups;		/* -1: unchanged */
	unsigned long long caps;	/* kept; ~0: unchanged */
	unsigned long long bound;
	int nnp;
	int deny_mkdir;
};

static char cgroup_dirs[32][8192];
static int ncgroup_dirs;
static int cgroup_max = 32;	/* --cgroup-max */
static long nthreads = 1;	/* --threads */
static int leader_exits;	/* --leader-exits */

static pid_t target_pid;

static void die(const char *what)
{
	fprintf(stderr, "fixture: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

/* Become @uid and create a user namespace in which @uid is root. */
static void enter_own_userns(long uid)
{
	char map[64];

	if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		die("drop to uid");
	/* Dropping uid cleared dumpable; the tests' caller must read /proc. */
	if (prctl(PR_SET_DUMPABLE, 1) < 0)
		die("PR_SET_DUMPABLE");
	if (unshare(CLONE_NEWUSER) < 0)
		die("unshare user");
	(void)snprintf(map, sizeof(map), "0 %ld 1\n", uid);
	write_file("/proc/self/uid_map", map);
	write_file("/proc/self/setgroups", "deny\n");
	write_file("/proc/self/gid_map", map);
	if (setresuid(0, 0, 0) < 0 || setresgid(0, 0, 0) < 0)
		die("become root in user namespace");
}

static unsigned long long parse_list(const char *s, gid_t *out, int *n)
{
	unsigned long long mask = 0;
	char *end;

	if (n)
		*n = 0;
	while (*s) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s)
			break;
		if (out && *n < 32)
			out[(*n)++] = (gid_t)v;
		if (v < 64)
			mask |= 1ULL << v;
		s = *end ? end + 1 : end;
	}
	return mask;
}

/* The fixture's own path on the hierarchy mounted with @opts. */
static int own_cgroup(const char *type, const char *opts, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		char ctl[256];
		size_t len;

		if (!c2)
			continue;
		len = (size_t)(c2 - c1 - 1);
		if (len >= sizeof(ctl))
			continue;
		memcpy(ctl, c1 + 1, len);
		ctl[len] = '\0';
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(type, "cgroup2") == 0 ? len == 0 : len > 0) {
			/* v1: every controller of the line among the mount options */
			char *tok, *save = NULL;
			int all = 1;

			for (tok = strtok_r(ctl, ",", &save); tok && len;
			     tok = strtok_r(NULL, ",", &save))
				if (!hasmntopt(&(struct mntent){ .mnt_opts = (char *)opts }, tok))
					all = 0;
			if (all) {
				snprintf(buf, size, "%s", c2 + 1);
				found = 1;
			}
		}
	}
	fclose(f);
	return found;
}

/* Make and enter a child cgroup on every mounted hierarchy. */
static void join_new_cgroups(const char *name)
{
	FILE *m = setmntent("/proc/self/mounts", "re");
	struct mntent *e;
	char own[4096], dir[8192], path[8300], val[256];

	if (!m)
		die("/proc/self/mounts");
	while ((e = getmntent(m))) {
		int is_v2 = strcmp(e->mnt_type, "cgroup2") == 0;

		if (!is_v2 && strcmp(e->mnt_type, "cgroup") != 0)
			continue;
		if (!own_cgroup(e->mnt_type, e->mnt_opts, own, sizeof(own)))
			continue;
		if (ncgroup_dirs >= cgroup_max)
			break;
		snprintf(dir, sizeof(dir), "%s%s/%s", e->mnt_dir,
			 strcmp(own, "/") ? own : "", name);
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			die(dir);
		if (ncgroup_dirs < 32)
			snprintf(cgroup_dirs[ncgroup_dirs++], sizeof(dir), "%s", dir);
		/* A new v1 cpuset has no cpus or mems: give it its parent's. */
		if (hasmntopt(e, "cpuset")) {
			const char *files[] = { "cpuset.cpus", "cpuset.mems" };
			int i;

			for (i = 0; i < 2; i++) {
				FILE *f;

				snprintf(path, sizeof(path), "%s/../%s", dir, files[i]);
				f = fopen(path, "re");
				if (!f || !fgets(val, sizeof(val), f))
					die(path);
				fclose(f);
				snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
				write_file(path, val);
			}
		}
		snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
		write_file(path, "0");
	}
	endmntent(m);
}

/* The directories join_new_cgroups() made, found again from here. */
static void collect_cgroup_dirs(const char *name)
{
	FILE *m = setmntent("/proc/self/mounts", "re");
	struct mntent *e;
	char own[4096];

	if (!m)
		return;
	while ((e = getmntent(m)) && ncgroup_dirs < cgroup_max) {
		if (strcmp(e->mnt_type, "cgroup2") && strcmp(e->mnt_type, "cgroup"))
			continue;
		if (!own_cgroup(e->mnt_type, e->mnt_opts, own, sizeof(own)))
			continue;
		snprintf(cgroup_dirs[ncgroup_dirs++], sizeof(cgroup_dirs[0]),
			 "%s%s/%s", e->mnt_dir, strcmp(own, "/") ? own : "", name);
	}
	endmntent(m);
}

static void remove_cgroups(void)
{
	int i, tries;

	/* The dead target leaves its cgroups a moment after it is reaped. */
	for (i = 0; i < ncgroup_dirs; i++)
		for (tries = 0; tries < 50 && rmdir(cgroup_dirs[i]) < 0 &&
				errno == EBUSY; tries++)
			usleep(20000);
}

static void set_caps(unsigned long long keep)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };
	int i;

	d[0].permitted = d[0].effective = d[0].inheritable = (uint32_t)keep;
	d[1].permitted = d[1].effective = d[1].inheritable = (uint32_t)(keep >> 32);
	if (syscall(SYS_capset, &h, d) < 0)
		die("capset");
	for (i = 0; i < 64; i++)
		if ((keep >> i) & 1 &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, i, 0, 0) < 0)
			die("raise ambient");
}

static void deny_mkdir(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdir, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mkdirat, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		die("seccomp");
}

/* Confine the target as the options say: bounding set, ids, caps, filters. */
static void confine(const struct cfg *c)
{
	int i;

	if (c->caps != ~0ULL)
		for (i = 0; i <= CAP_LAST_CAP; i++)
			if (!(((c->caps | c->bound) >> i) & 1) &&
			    prctl(PR_CAPBSET_DROP, i, 0, 0, 0) < 0)
				die("drop from bounding set");
	if (c->ngroups >= 0 && setgroups((size_t)c->ngroups, c->groups) < 0)
		die("setgroups");
	if (c->gid >= 0 && setresgid(c->gid, c->gid, c->gid) < 0)
		die("setresgid");
	if (prctl(PR_SET_KEEPCAPS, 1) < 0)
		die("keepcaps");
	if (c->uid >= 0 && setresuid(c->uid, c->uid, c->uid) < 0)
		die("setresuid");
	if (c->caps != ~0ULL)
		set_caps(c->caps);
	if (c->nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die("no_new_privs");
	if (c->deny_mkdir) {
		/* Without no_new_privs, installing needs CAP_SYS_ADMIN. */
		if (!c->nnp && c->caps != ~0ULL && !((c->caps >> CAP_SYS_ADMIN) & 1) &&
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			die("no_new_privs");
		for (i = 0; i < c->deny_mkdir; i++)
			deny_mkdir();
	}
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void target_main(const struct cfg *c, int ready)
{
	char path[4096];

	if (sethostname(c->hostname, strlen(c->hostname)) < 0)
		die("sethostname");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("make / private");
	(void)snprintf(path, sizeof(path), "%s/proc", c->root ? c->root : "");
	/* Its own /proc, so that ps inside lists its own pid 1. */
	if (mount("proc", path, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0 && c->userns_uid < 0)
		die("mount proc");
	(void)snprintf(path, sizeof(path), "%s/dev/pts", c->root ? c->root : "");
	/* /dev/ptmx finds the instance mounted beside it, on /dev/pts. */
	if (c->devpts && mount("devpts", path, "devpts", MS_NOSUID | MS_NOEXEC,
			       "newinstance,ptmxmode=0666,mode=0620") < 0)
		die("mount devpts");
	if (c->root && chroot(c->root) < 0)
		die("chroot");
	if (chdir(c->cwd ? c->cwd : "/") < 0)
		die("chdir");
	confine(c);
	for (long i = 1; i < nthreads; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, sleeper, NULL))
			die("pthread_create");
	}
	if (write(ready, "R", 1) != 1)
		die("ready");
	close(ready);
	/* The main thread only: the others run on, the leader a zombie. */
	if (leader_exits && nthreads > 1)
		syscall(SYS_exit, 0);
	for (;;) {
		/* pid 1 of its namespace: reap whatever is reparented here. */
		if (wait(NULL) < 0 && errno == ECHILD)
			pause();
	}
}

/*
 * In the outer child, target_pid is the target: SIGKILL, as pid 1 of its
 * namespace ignores what it has no handler for.  In the main process it is
 * the outer child, which is asked to do that and then exits.
 */
static int in_main = 0;

static void on_signal(int sig)
{
	(void)sig;
	if (target_pid > 0)
		(void)kill(target_pid, in_main ? SIGTERM : SIGKILL);
}

static int make_target(const struct cfg *c)
{
	int flags = CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET |
		    CLONE_NEWPID | CLONE_NEWCGROUP;
	int sync[2], status;
	pid_t outer;
	char b;

	if (pipe2(sync, O_CLOEXEC) < 0)
		die("pipe");
	outer = fork();
	if (outer < 0)
		die("fork");
	if (outer == 0) {
		/* The outer child creates the namespaces, so the caller keeps its own. */
		/* Before the cgroup namespace, so that it is rooted there. */
		if (c->cgroup)
			join_new_cgroups(c->cgroup);
		if (c->userns_uid >= 0)
			enter_own_userns(c->userns_uid);
		if (c->time_ns) {
			if (unshare(CLONE_NEWTIME) < 0)
				die("unshare time");
			/* An offset makes the time namespace observable. */
			write_file("/proc/self/timens_offsets",
				   "monotonic 86400 0\n");
		}
		if (unshare(flags) < 0)
			die("unshare");
		target_pid = fork();
		if (target_pid < 0)
			die("fork target");
		if (target_pid == 0) {
			close(sync[0]);
			target_main(c, sync[1]);
		}
		close(sync[1]);
		if (read(sync[0], &b, 1) != 1)
			_exit(1);
		printf("%d\n", (int)target_pid);
		fflush(stdout);
		signal(SIGTERM, on_signal);
		signal(SIGINT, on_signal);
		while (waitpid(target_pid, &status, 0) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(sync[0]);
	close(sync[1]);
	in_main = 1;
	target_pid = outer;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	while (waitpid(outer, &status, 0) < 0)
		if (errno != EINTR)
			die("waitpid");
	if (c->cgroup) {
		/* The outer child made them; this process removes them. */
		ncgroup_dirs = 0;
		collect_cgroup_dirs(c->cgroup);
		remove_cgroups();
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

static int run_as(long uid, char **argv)
{
	if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
	    setresuid(uid, uid, uid) < 0)
		die("drop to uid");
	execvp(argv[0], argv);
	die(argv[0]);
	return 1;
}

static int ns_id(const char *type)
{
	char path[64];
	struct stat st;

	(void)snprintf(path, sizeof(path), "/proc/self/ns/%s", type);
	if (stat(path, &st) < 0)
		die(path);
	/* The same "%d:%i" as stat(1) prints. */
	printf("%lu:%lu\n", (unsigned long)st.st_dev, (unsigned long)st.st_ino);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userns", required_argument, NULL, 'u' },
		{ "root", required_argument, NULL, 'r' },
		{ "cwd", required_argument, NULL, 'c' },
		{ "hostname", required_argument, NULL, 'h' },
		{ "no-time", no_argument, NULL, 'T' },
		{ "devpts", no_argument, NULL, 'P' },
		{ "run-as", required_argument, NULL, 'a' },
		{ "ns-id", required_argument, NULL, 'n' },
		{ "cgroup", required_argument, NULL, 'g' },
		{ "uid", required_argument, NULL, 'U' },
		{ "gid", required_argument, NULL, 'G' },
		{ "groups", required_argument, NULL, 'S' },
		{ "caps", required_argument, NULL, 'C' },
		{ "bound", required_argument, NULL, 'B' },
		{ "nnp", no_argument, NULL, 'N' },
		{ "deny-mkdir", no_argument, NULL, 'D' },
		{ "cgroup-max", required_argument, NULL, 'M' },
		{ "threads", required_argument, NULL, 'H' },
		{ "leader-exits", no_argument, NULL, 'E' },
		{ "rlimit", required_argument, NULL, 'L' },
		{ "oom", required_argument, NULL, 'O' },
		{ NULL, 0, NULL, 0 },
	};
	struct cfg c = { .userns_uid = -1, .hostname = "hijack-target",
			 .time_ns = 1, .uid = -1, .gid = -1, .ngroups = -1,
			 .caps = ~0ULL };
	long run_uid = -1;
	int o;

	while ((o = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (o) {
		case 'u':
			c.userns_uid = strtol(optarg, NULL, 10);
			break;
		case 'r':
			c.root = optarg;
			break;
		case 'c':
			c.cwd = optarg;
			break;
		case 'h':
			c.hostname = optarg;
			break;
		case 'T':
			c.time_ns = 0;
			break;
		case 'P':
			c.devpts = 1;
			break;
		case 'a':
			run_uid = strtol(optarg, NULL, 10);
			break;
		case 'n':
			return ns_id(optarg);
		case 'g':
			c.cgroup = optarg;
			break;
		case 'U':
			c.uid = strtol(optarg, NULL, 10);
			break;
		case 'G':
			c.gid = strtol(optarg, NULL, 10);
			break;
		case 'S':
			parse_list(optarg, c.groups, &c.ngroups);
			break;
		case 'C':
			c.caps = parse_list(optarg, NULL, NULL);
			break;
		case 'B':
			c.bound = parse_list(optarg, NULL, NULL);
			break;
		case 'N':
			c.nnp = 1;
			break;
		case 'D':
			c.deny_mkdir++;
			break;
		case 'M':
			cgroup_max = atoi(optarg);
			break;
		case 'E':
			leader_exits = 1;
			break;
		case 'H':
			nthreads = atol(optarg);
			break;
		case 'L': {
			unsigned long long cur, max;
			struct rlimit rl;
			int res;

			if (sscanf(optarg, "%d:%llu:%llu", &res, &cur, &max) != 3) {
				fprintf(stderr, "fixture: --rlimit R:SOFT:HARD\n");
				return 2;
			}
			rl.rlim_cur = cur;
			rl.rlim_max = max;
			if (setrlimit((__rlimit_resource_t)res, &rl) < 0)
				die("setrlimit");
			break;
		}
		case 'O': {
			FILE *f = fopen("/proc/self/oom_score_adj", "we");

			if (!f || fprintf(f, "%d", atoi(optarg)) < 0 || fclose(f))
				die("oom_score_adj");
			break;
		}
		default:
			fprintf(stderr, "fixture: bad usage\n");
			return 2;
		}
	}
	if (run_uid >= 0) {
		if (optind >= argc) {
			fprintf(stderr, "fixture: --run-as needs a command\n");
			return 2;
		}
		return run_as(run_uid, argv + optind);
	}
	/* A time namespace needs Linux 5.6: go without it where it is missing. */
	if (c.time_ns && access("/proc/self/ns/time", F_OK) < 0)
		c.time_ns = 0;
	return make_target(&c);
}
