// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * forkbench-files.c - the files the workloads run: the exec target, a copy
 * of forkbench for the execl chain and the storm script, all in a private
 * directory in memory, so that they cost the same in every boot.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>

#include "forkbench.h"

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif

/*
 * The exec target: an ELF file with one PT_LOAD segment whose code is
 * exit_group(0).  Writing it here saves shipping a second binary into the
 * initramfs, and it is the smallest thing execve() can load, so the exec
 * workload measures the kernel rather than a loader.
 */
static int write_target(const char *path)
{
#ifdef __x86_64__
	static const unsigned char code[] = {
		0xb8, 0xe7, 0x00, 0x00, 0x00,	/* mov $231, %eax (exit_group) */
		0x31, 0xff,			/* xor %edi, %edi */
		0x0f, 0x05,			/* syscall */
	};
	const uint64_t base = 0x400000;
	unsigned char image[sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) + sizeof(code)];
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT, ELFOSABI_SYSV },
		.e_type = ET_EXEC,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_entry = base + sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr),
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 1,
	};
	Elf64_Phdr ph = {
		.p_type = PT_LOAD,
		.p_flags = PF_R | PF_X,
		.p_offset = 0,
		.p_vaddr = base,
		.p_paddr = base,
		.p_filesz = sizeof(image),
		.p_memsz = sizeof(image),
		.p_align = 0x1000,
	};
	int fd;

	memcpy(image, &eh, sizeof(eh));
	memcpy(image + sizeof(eh), &ph, sizeof(ph));
	memcpy(image + sizeof(eh) + sizeof(ph), code, sizeof(code));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
	if (fd < 0)
		return fail("%s: %m", path);
	if (write(fd, image, sizeof(image)) != (ssize_t)sizeof(image)) {
		close(fd);
		return fail("%s: write: %m", path);
	}
	return close(fd) ? fail("%s: close: %m", path) : 0;
#else
	return fail("no built-in exec target for this architecture: use --target");
#endif
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail("%s: %m", from);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return fail("%s: %m", to);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	}
	close(in);
	if (n < 0 || close(out))
		return fail("copying %s to %s: %m", from, to);
	return 0;
}

static int write_storm(const char *path, const char *target)
{
	FILE *f;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0 || !(f = fdopen(fd, "w")))
		return fail("%s: %m", path);
	/*
	 * Pipelines (concurrent children), subshells, command substitution
	 * and exec of an external program: the kinds of fork a shell script
	 * does.  No background jobs: a shell gives them /dev/null as stdin,
	 * and a bare initramfs may have no /dev/null.  set -e makes a failed
	 * step fail the run rather than quietly measure less work.
	 */
	fprintf(f,
		"set -e\n"
		"i=0\n"
		"while [ $i -lt 10 ]; do\n"
		"\t%s | %s\n"
		"\t( %s )\n"
		"\t( : ) | %s\n"
		"\tx=$(%s)\n"
		"\ti=$((i + 1))\n"
		"done\n", target, target, target, target, target);
	return fclose(f) ? fail("%s: %m", path) : 0;
}

#ifndef RAMFS_MAGIC
#define RAMFS_MAGIC 0x858458f6
#endif

static bool in_memory(const char *path)
{
	struct statfs sfs;

	return !statfs(path, &sfs) &&
	       (sfs.f_type == TMPFS_MAGIC || sfs.f_type == RAMFS_MAGIC);
}

/*
 * A directory for the targets: the first candidate in memory (tmpfs, or the
 * ramfs of an initramfs) that allows exec, else the first that works at all.
 * --tmpdir is taken as given.
 */
static int make_tmpdir(struct bench *b)
{
	const char *cands[7];
	size_t nr = 0;
	const char *env;

	if (b->tmpdir_base) {
		cands[nr++] = b->tmpdir_base;
	} else {
		env = getenv("FORKBENCH_TMPDIR");
		if (env && *env)
			cands[nr++] = env;
		cands[nr++] = "/dev/shm";
		env = getenv("TMPDIR");
		if (env && *env)
			cands[nr++] = env;
		cands[nr++] = "/tmp";
		cands[nr++] = "/run";
		cands[nr++] = "/";
	}
	for (int pass = 0; pass < 2 && !b->tmpdir[0]; pass++) {
		for (size_t i = 0; i < nr; i++) {
			struct statvfs vfs;

			if (statvfs(cands[i], &vfs) || (vfs.f_flag & ST_NOEXEC))
				continue;
			if (pass == 0 && !b->tmpdir_base && !in_memory(cands[i]))
				continue;
			snprintf(b->tmpdir, sizeof(b->tmpdir), "%s%sforkbench.XXXXXX",
				 cands[i], cands[i][strlen(cands[i]) - 1] == '/' ? "" : "/");
			if (mkdtemp(b->tmpdir))
				break;
			b->tmpdir[0] = '\0';
		}
	}
	if (!b->tmpdir[0])
		return fail("no usable temporary directory (try --tmpdir)");
	b->tmpdir_is_tmpfs = in_memory(b->tmpdir);
	if (!b->tmpdir_is_tmpfs)
		say("warning: %s is not in memory (tmpfs)", b->tmpdir);
	return 0;
}

/* @dir/@name into @path, which holds PATH_MAX bytes. */
static int path_in(char *path, const char *dir, const char *name)
{
	if (snprintf(path, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		return fail("%s/%s: name too long", dir, name);
	return 0;
}

int prepare_files(struct bench *b)
{
	if (make_tmpdir(b) || path_in(b->target, b->tmpdir, "target") ||
	    path_in(b->self, b->tmpdir, "forkbench") ||
	    path_in(b->storm, b->tmpdir, "storm.sh"))
		return -1;
	if (b->target_arg) {
		if (copy_file(b->target_arg, b->target, 0755))
			return -1;
	} else if (write_target(b->target)) {
		return -1;
	}
	b->made_target = true;
	if (copy_file("/proc/self/exe", b->self, 0755))
		return -1;
	b->made_self = true;
	if (write_storm(b->storm, b->target))
		return -1;
	b->made_storm = true;
	return 0;
}

void remove_files(struct bench *b)
{
	if (b->made_target)
		unlink(b->target);
	if (b->made_self)
		unlink(b->self);
	if (b->made_storm)
		unlink(b->storm);
	if (b->tmpdir[0])
		rmdir(b->tmpdir);
}
