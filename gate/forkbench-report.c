// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * forkbench-report.c - the results, as a table for people or as one JSON
 * document for benchcmp (README.md, "Output").  The document records the
 * environment too: which kernel binary, which machine, which options, so
 * that a result can be traced and redone.
 *
 * The JSON layout is fixed: the gate's per-boot files are compared across
 * versions of forkbench, and input.c reads them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/personality.h>
#include <sys/utsname.h>

#include "forkbench.h"
#include "jsonw.h"

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* First line of a small file, without its newline; "" when unreadable. */
static char *read_line(const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");

	if (f) {
		if (getline(&line, &cap, f) < 0) {
			free(line);
			line = NULL;
		}
		fclose(f);
	}
	if (!line)
		return strdup("");
	line[strcspn(line, "\n")] = '\0';
	return line;
}

static char *cpu_model(void)
{
	char *line = NULL;
	size_t cap = 0;
	char *model = NULL;
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		model = strdup(colon);
		break;
	}
	free(line);
	if (f)
		fclose(f);
	return model ? model : strdup("");
}

/*
 * The kernel's GNU build ID, from the ELF notes the kernel exports, as hex;
 * "" when there is none.  It names the exact kernel binary a result came
 * from, which the release string does not.
 */
static char *kernel_build_id(void)
{
	unsigned char buf[4096];
	char *hex = calloc(1, 2 * 64 + 1);
	ssize_t len = 0;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (!hex)
		die(FB_EXIT_FAILED, "out of memory");
	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf));
		close(fd);
	}
	/* Elf64_Nhdr and Elf32_Nhdr are the same: three 32-bit words */
	for (ssize_t off = 0; off + (ssize_t)sizeof(Elf64_Nhdr) <= len;) {
		Elf64_Nhdr nh;
		size_t name, desc;

		memcpy(&nh, buf + off, sizeof(nh));
		name = (nh.n_namesz + 3) & ~3U;
		desc = (nh.n_descsz + 3) & ~3U;
		if (off + sizeof(nh) + name + desc > (size_t)len)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + off + sizeof(nh), "GNU", 4) && nh.n_descsz <= 64) {
			const unsigned char *id = buf + off + sizeof(nh) + name;

			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(hex + 2 * i, "%02x", id[i]);
			break;
		}
		off += sizeof(nh) + name + desc;
	}
	return hex;
}

/* The value of word "key=value" on the kernel command line, or NULL. */
static char *cmdline_word(const char *cmdline, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = cmdline; p && *p;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return strndup(p + klen + 1, len - klen - 1);
		p += len;
	}
	return NULL;
}

static const char *json_bool(bool v)
{
	return v ? "true" : "false";
}

/* One "key": "value" member of the env object, after the first. */
static void json_env_string(FILE *f, const char *key, const char *value)
{
	fprintf(f, ",\n    \"%s\": ", key);
	hj_json_string(f, value);
}

/*
 * The CPU vulnerabilities and their mitigations, as the kernel reports
 * them: they change the cost of every system call and context switch.
 */
static void json_mitigations(FILE *f)
{
	static const char dir[] = "/sys/devices/system/cpu/vulnerabilities";
	DIR *vulns = opendir(dir);
	struct dirent *de;
	bool first = true;

	fprintf(f, ",\n    \"mitigations\": {");
	while (vulns && (de = readdir(vulns))) {
		char path[PATH_MAX];
		char *val;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		val = read_line(path);
		fprintf(f, "%s\n      ", first ? "" : ",");
		hj_json_string(f, de->d_name);
		fputs(": ", f);
		hj_json_string(f, val);
		free(val);
		first = false;
	}
	if (vulns)
		closedir(vulns);
	fputc('}', f);
}

/* --tag KEY=VALUE..., each checked for its '=' by the command line. */
static void json_tags(const struct bench *b, FILE *f)
{
	fprintf(f, ",\n    \"tags\": {");
	for (size_t i = 0; i < b->nr_tags; i++) {
		char *eq = strchr(b->tags[i], '=');

		fprintf(f, "%s\n      ", i ? "," : "");
		*eq = '\0';
		hj_json_string(f, b->tags[i]);
		fputs(": ", f);
		hj_json_string(f, eq + 1);
		*eq = '=';
	}
	fputc('}', f);
}

/*
 * Where the accelerator comes from: the kernel command line's
 * hijack_accel=, else the harness, which may know better than the guest
 * (--tag accelerator=...), else it is unknown.
 */
static char *accelerator(const struct bench *b, const char *cmdline)
{
	char *accel = cmdline_word(cmdline, "hijack_accel");

	for (size_t i = 0; !accel && i < b->nr_tags; i++)
		if (!strncmp(b->tags[i], "accelerator=", 12))
			accel = strdup(b->tags[i] + 12);
	return accel;
}

static void json_env(const struct bench *b, FILE *f)
{
	struct utsname u;
	char *cmdline = read_line("/proc/cmdline");
	char *version = read_line("/proc/version");
	char *aslr = read_line("/proc/sys/kernel/randomize_va_space");
	char *model = cpu_model();
	char *accel = accelerator(b, cmdline);
	char *build_id = kernel_build_id();

	uname(&u);
	fprintf(f, "  \"env\": {\n    \"sysname\": ");
	hj_json_string(f, u.sysname);
	json_env_string(f, "release", u.release);
	json_env_string(f, "version", u.version);
	json_env_string(f, "build_id", build_id);
	json_env_string(f, "machine", u.machine);
	json_env_string(f, "proc_version", version);
	json_env_string(f, "cmdline", cmdline);
	fprintf(f, ",\n    \"nr_cpus\": %d", b->nr_cpus);
	json_env_string(f, "cpu_model", model);
	json_env_string(f, "accelerator", accel ? accel : "unknown");
	json_env_string(f, "randomize_va_space", aslr);
	fprintf(f, ",\n    \"addr_no_randomize\": %s",
		json_bool(personality(0xffffffff) & ADDR_NO_RANDOMIZE));
	fprintf(f, ",\n    \"tmpdir_in_memory\": %s",
		json_bool(b->tmpdir_is_tmpfs));
	json_mitigations(f);
	json_tags(b, f);
	fprintf(f, "\n  },\n");
	free(cmdline);
	free(version);
	free(aslr);
	free(model);
	free(accel);
	free(build_id);
}

/* The options, and the order the workloads ran in (after --seed). */
static void json_options(const struct bench *b, FILE *f,
			 const struct result *res, size_t nr)
{
	fprintf(f, "  \"options\": {\n");
	fprintf(f, "    \"samples\": %zu,\n    \"samples_other\": %zu,\n"
		"    \"min_batch_ms\": %.3f,\n",
		b->samples, b->samples_other, b->min_batch_ns / 1e6);
	fprintf(f, "    \"warmup_batches\": %u,\n    \"warmup_max\": %u,\n"
		"    \"settle_pct\": %g,\n    \"duration_s\": %g,\n",
		b->warmup, b->warmup_max, 100 * b->settle, b->duration);
	if (b->have_seed)
		fprintf(f, "    \"seed\": %" PRIu64 ",\n", b->seed);
	else
		fprintf(f, "    \"seed\": null,\n");
	fprintf(f, "    \"order_as_listed\": %s,\n", json_bool(b->as_listed));
	fprintf(f, "    \"pin\": %s,\n    \"cpu\": %d,\n", json_bool(b->pin),
		b->cpu);
	fprintf(f, "    \"big_mib\": %zu,\n    \"busy\": %u,\n",
		b->big_mib, b->busy);
	fprintf(f, "    \"copies\": %u,\n    \"pid_base\": %lu,\n    \"order\": [",
		b->copies, b->pid_base);
	for (size_t i = 0; i < nr; i++) {
		fputs(i ? ", " : "", f);
		hj_json_string(f, res[i].w->name);
	}
	fprintf(f, "]\n  },\n");
}

static void json_samples(FILE *f, const struct result *r)
{
	fprintf(f, ",\n      \"samples\": [");
	for (size_t j = 0; j < r->nr_samples; j++) {
		const struct sample *s = &r->samples[j];

		fprintf(f, "%s\n        {\"ns_per_op\": %.3f, \"batch\": %" PRIu64
			", \"elapsed_ns\": %" PRIu64 ", \"user_ns\": %" PRIu64
			", \"sys_ns\": %" PRIu64 ", \"cusr_ns\": %" PRIu64
			", \"csys_ns\": %" PRIu64 ", \"cpu\": %d, \"cpu_end\": %d}",
			j ? "," : "", s->ns_per_op, s->ops, s->elapsed_ns,
			s->user_ns, s->sys_ns, s->cusr_ns, s->csys_ns,
			s->cpu, s->cpu_end);
	}
	fprintf(f, "%s]", r->nr_samples ? "\n      " : "");
}

static void json_workload(FILE *f, const struct result *r)
{
	fprintf(f, "\n    {\n      \"name\": ");
	hj_json_string(f, r->w->name);
	fprintf(f, ",\n      \"role\": \"%s\",\n      \"what\": ",
		role_name[r->w->role]);
	hj_json_string(f, r->w->what);
	fprintf(f, ",\n      \"pinned\": %s,\n      \"iterations\": %" PRIu64,
		json_bool(r->pinned), r->iters);
	if (r->state == RESULT_OK) {
		fprintf(f, ",\n      \"warmup\": %" PRIu32 ",\n      \"settled\": %s"
			",\n      \"warmup_ns_per_op\": [",
			r->warmup, json_bool(r->settled));
		for (uint32_t j = 0; j < r->warmup && j < WARMUP_SHOWN; j++)
			fprintf(f, "%s%.3f", j ? ", " : "", r->warm_ns[j]);
		fputc(']', f);
	} else {
		fprintf(f, ",\n      \"%s\": ",
			r->state == RESULT_SKIPPED ? "skipped" : "error");
		hj_json_string(f, r->reason);
	}
	json_samples(f, r);
	fprintf(f, "\n    }");
}

void print_json(const struct bench *b, FILE *f, const struct result *res,
		size_t nr)
{
	fprintf(f, "{\n  \"forkbench\": " FORKBENCH_VERSION ",\n  \"unit\": \"ns/op\",\n");
	json_env(b, f);
	json_options(b, f, res, nr);
	fprintf(f, "  \"workloads\": [");
	for (size_t i = 0; i < nr; i++) {
		fputs(i ? "," : "", f);
		json_workload(f, &res[i]);
	}
	fprintf(f, "\n  ]\n}\n");
}

void print_table(FILE *f, const struct result *res, size_t nr)
{
	fprintf(f, "%-12s %-9s %3s %9s %12s %12s %12s %6s %12s\n", "workload",
		"role", "n", "batch", "median", "min", "max", "cv%",
		"sys/op");
	for (size_t i = 0; i < nr; i++) {
		const struct result *r = &res[i];
		size_t n = r->nr_samples;
		double *v, *sys, mean = 0, var = 0;

		if (r->state != RESULT_OK || !n) {
			fprintf(f, "%-12s %-9s %s: %s\n", r->w->name,
				role_name[r->w->role],
				r->state == RESULT_SKIPPED ? "skipped" : "error",
				r->state != RESULT_OK ? r->reason : "no samples");
			continue;
		}
		v = calloc(n, sizeof(*v));
		sys = calloc(n, sizeof(*sys));
		if (!v || !sys)
			die(FB_EXIT_FAILED, "out of memory");
		for (size_t j = 0; j < n; j++) {
			const struct sample *s = &r->samples[j];

			v[j] = s->ns_per_op;
			sys[j] = (double)(s->sys_ns + s->csys_ns) / s->ops;
			mean += v[j] / n;
		}
		for (size_t j = 0; j < n; j++)
			var += (v[j] - mean) * (v[j] - mean) / (n > 1 ? n - 1 : 1);
		fprintf(f, "%-12s %-9s %3zu %9" PRIu64 " %12.1f", r->w->name,
			role_name[r->w->role], n, r->samples[0].ops,
			median_of(v, n));
		fprintf(f, " %12.1f %12.1f %6.2f %12.1f\n", v[0], v[n - 1],
			mean > 0 ? 100 * sqrt(var) / mean : 0,
			median_of(sys, n));
		free(v);
		free(sys);
	}
	fprintf(f, "(ns per operation, CLOCK_MONOTONIC; sys/op = system time of process and children)\n");
}
