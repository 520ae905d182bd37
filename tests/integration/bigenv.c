// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bigenv - a container's process that makes its /proc/PID/environ as large
 * as it likes, at no cost but memory of its own (20-bounds.t).
 *
 *   bigenv [MIB [many]]     (default 128)
 *
 * It maps MIB MiB, fills them with "A=aaa...\0" entries (with "many",
 * "V0000001=\0" and on: as many different short variables as fit, which
 * a legitimate exec may pass too, up to 6 MiB) and points its
 * environment there with prctl(PR_SET_MM, PR_SET_MM_MAP): that needs no
 * capability (only a change of the exe link would), just a kernel built
 * with CONFIG_CHECKPOINT_RESTORE, as distributions build theirs.  The
 * PR_SET_MM_ENV_START/END pair would need CAP_SYS_RESOURCE of the initial
 * user namespace, which no container has.  Then it prints "ready" and
 * waits for signals; SIGTERM ends it.
 *
 * The other fields of struct prctl_mm_map must be given too: they are the
 * process's own, from /proc/self/stat (proc(5), fields 26-28 and 45-49).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <linux/prctl.h>

static void on_term(int sig)
{
	(void)sig;
	_exit(0);
}

/* Field @n (1-based, as proc(5) counts) of /proc/self/stat. */
static unsigned long long stat_field(const char *stat, int n)
{
	const char *p = strrchr(stat, ')');
	int field;

	/* After ')' comes field 3. */
	for (field = 2; p && field < n; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

int main(int argc, char **argv)
{
	size_t size = (size_t)(argc > 1 ? atoi(argv[1]) : 128) << 20;
	struct prctl_mm_map m = { .exe_fd = (__u32)-1 };
	char stat[4096], *env, *p;
	bool many = argc > 2 && strcmp(argv[2], "many") == 0;
	size_t entry = many ? 11 : 4096, i = 0;
	FILE *f;

	f = fopen("/proc/self/stat", "re");
	if (!f || !fgets(stat, sizeof(stat), f)) {
		perror("bigenv: /proc/self/stat");
		return 1;
	}
	fclose(f);
	env = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (env == MAP_FAILED) {
		perror("bigenv: mmap");
		return 1;
	}
	for (p = env; p + entry <= env + size; p += entry) {
		if (many) {
			(void)snprintf(p, entry, "V%07zu=", i++ % 10000000);
			continue;
		}
		memcpy(p, "A=", 2);
		memset(p + 2, 'a', entry - 3);
		p[entry - 1] = '\0';
	}
	m.start_code = stat_field(stat, 26);
	m.end_code = stat_field(stat, 27);
	m.start_stack = stat_field(stat, 28);
	m.start_data = stat_field(stat, 45);
	m.end_data = stat_field(stat, 46);
	m.start_brk = stat_field(stat, 47);
	m.brk = (unsigned long)sbrk(0);
	m.arg_start = stat_field(stat, 48);
	m.arg_end = stat_field(stat, 49);
	m.env_start = (unsigned long)env;
	m.env_end = (unsigned long)(p);
	if (prctl(PR_SET_MM, PR_SET_MM_MAP, &m, sizeof(m), 0) < 0) {
		fprintf(stderr, "bigenv: PR_SET_MM_MAP: %s\n", strerror(errno));
		return 1;
	}
	(void)signal(SIGTERM, on_term);
	(void)signal(SIGINT, on_term);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
