// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel's facts (kernel_facts.c) read from a fake procfs, sysfs and
 * /boot: the config's options and hash (gzip or plain), the preemption
 * model a PREEMPT_DYNAMIC kernel takes from its command line, the
 * accelerator only from benchcore's own word, and the warnings a debug
 * kernel, an interpreter and emulation get.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "kernel_facts.h"

static char root[PATH_MAX];

static void mkdirs(const char *path)
{
	char dir[PATH_MAX * 2];

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", dir, strerror(errno));
		*p = '/';
	}
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdirs(path);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_gz(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	gzFile gz;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdirs(path);
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	assert_true(gzputs(gz, text) > 0);
	gzclose(gz);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(root, sizeof(root), "%s/bc-kfacts-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

static const char *opt(const struct bc_kernel_facts *kf, const char *name)
{
	for (size_t i = 0; i < kf->opt_cnt; i++)
		if (!strcmp(kf->opts[i].name, name))
			return kf->opts[i].set ? kf->opts[i].value : "(not set)";
	return NULL;
}

static const char debian_like[] =
	"#\n# Automatically generated file; DO NOT EDIT.\n#\n"
	"CONFIG_CC_VERSION_TEXT=\"gcc-12 (Debian 12.2.0-14) 12.2.0\"\n"
	"CONFIG_BPF_SYSCALL=y\nCONFIG_BPF_JIT=y\n# CONFIG_BPF_JIT_ALWAYS_ON is not set\n"
	"CONFIG_DEBUG_INFO_BTF=y\nCONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_PREEMPT_DYNAMIC=y\n"
	"CONFIG_HZ=250\nCONFIG_DEBUG_LIST=y\n";

/* /boot/config-RELEASE when there is no /proc/config.gz; a Debian kernel's
 * options, no warning for its cheap debug options. */
static void test_boot_config(void **state)
{
	struct bc_kernel_facts kf;
	char warn[4][320];

	(void)state;
	put("boot/config-6.1.0-57-amd64", debian_like);
	put("proc/cmdline", "console=ttyS0 quiet\n");
	put("proc/meminfo", "MemTotal:        2030000 kB\nMemFree: 1 kB\n");
	put("proc/sys/net/core/bpf_jit_enable", "1\n");
	put("proc/sys/net/core/bpf_jit_harden", "0\n");
	put("sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n");
	put("sys/devices/system/cpu/vulnerabilities/spectre_v2", "Mitigation: Retpolines\n");
	put("sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
	bc_kernel_facts_read(root, "6.1.0-57-amd64", &kf);
	assert_string_equal(kf.config_source, "/boot/config-6.1.0-57-amd64");
	assert_int_equal(strlen(kf.config_hash), 16);
	assert_string_equal(opt(&kf, "CONFIG_BPF_JIT"), "y");
	assert_string_equal(opt(&kf, "CONFIG_BPF_JIT_ALWAYS_ON"), "(not set)");
	assert_string_equal(opt(&kf, "CONFIG_HZ"), "250");
	assert_string_equal(kf.preemption, "dynamic: voluntary");
	assert_string_equal(kf.accelerator, "");
	assert_int_equal(kf.memory_bytes, 2030000ULL * 1024);
	assert_string_equal(kf.clocksource, "tsc");
	assert_int_equal(kf.jit_enable, 1);
	assert_int_equal(kf.mitigation_cnt, 2);
	/* in name order */
	assert_string_equal(kf.mitigations[0].name, "meltdown");
	assert_string_equal(kf.mitigations[1].state, "Mitigation: Retpolines");
	assert_int_equal(bc_kernel_facts_warnings(&kf, warn, 4), 0);
}

/* /proc/config.gz first; the hash is the options', not the comments';
 * preempt= picks the model of a dynamic kernel; a debug kernel, the
 * interpreter and TCG each say so. */
static void test_proc_config_gz(void **state)
{
	struct bc_kernel_facts a, b;
	char warn[4][320], other[PATH_MAX + 64], val[16];
	size_t n;

	(void)state;
	put_gz("proc/config.gz", debian_like);
	put("proc/cmdline", "preempt=full benchcore.accel=tcg -- benchcore.accel=kvm\n");
	put("proc/sys/net/core/bpf_jit_enable", "0\n");
	bc_kernel_facts_read(root, "6.1.0-57-amd64", &a);
	assert_string_equal(a.config_source, "/proc/config.gz");
	assert_string_equal(a.preemption, "dynamic: full");
	assert_string_equal(a.accelerator, "tcg");
	n = bc_kernel_facts_warnings(&a, warn, 4);
	assert_int_equal(n, 2);
	assert_non_null(strstr(warn[0], "emulation (QEMU TCG"));
	assert_non_null(strstr(warn[1], "bpf_jit_enable = 0"));

	/* another comment, the same options: the same hash */
	snprintf(other, sizeof(other), "# Linux/x86 6.1.0 Kernel Configuration\n%s", debian_like);
	put_gz("proc/config.gz", other);
	bc_kernel_facts_read(root, "6.1.0-57-amd64", &b);
	assert_string_equal(a.config_hash, b.config_hash);

	/* lockdep and KASAN on: one warning naming both */
	snprintf(other, sizeof(other), "%sCONFIG_LOCKDEP=y\nCONFIG_KASAN=y\n", debian_like);
	put_gz("proc/config.gz", other);
	put("proc/cmdline", "benchcore.accel=qemu\n");
	put("proc/sys/net/core/bpf_jit_enable", "1\n");
	bc_kernel_facts_read(root, "6.1.0-57-amd64", &b);
	assert_string_not_equal(a.config_hash, b.config_hash);
	assert_string_equal(b.accelerator, "");	/* not a word benchcore writes */
	n = bc_kernel_facts_warnings(&b, warn, 4);
	assert_int_equal(n, 1);
	assert_non_null(strstr(warn[0], "CONFIG_LOCKDEP, CONFIG_KASAN"));

	/* the lookup the vm command checks an image's config with */
	snprintf(other, sizeof(other), "%s/proc/config.gz", root);
	assert_int_equal(bc_kconfig_lookup(other, "CONFIG_BPF_SYSCALL", val, sizeof(val)), 1);
	assert_string_equal(val, "y");
	assert_int_equal(bc_kconfig_lookup(other, "CONFIG_BPF_JIT_ALWAYS_ON", val, sizeof(val)), 0);
	snprintf(other, sizeof(other), "%s/nope", root);
	assert_true(bc_kconfig_lookup(other, "CONFIG_BPF_SYSCALL", val, sizeof(val)) < 0);
}

/* No config, no /proc: nothing known, nothing guessed, no warning. */
static void test_nothing(void **state)
{
	struct bc_kernel_facts kf;
	char warn[4][320], empty[PATH_MAX + 8];

	(void)state;
	snprintf(empty, sizeof(empty), "%s/empty", root);
	mkdir(empty, 0755);
	bc_kernel_facts_read(empty, "6.1.0", &kf);
	assert_int_equal(kf.opt_cnt, 0);
	assert_string_equal(kf.config_source, "");
	assert_string_equal(kf.preemption, "");
	assert_int_equal(kf.jit_enable, -1);
	assert_int_equal(kf.memory_bytes, 0);
	assert_int_equal(bc_kernel_facts_warnings(&kf, warn, 4), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_boot_config, setup, teardown),
		cmocka_unit_test_setup_teardown(test_proc_config_gz, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
