// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The trigger plugin's requirement table: every benchmark declares exactly
 * the attach type its name promises (no substitution), drives it the way
 * the kernel runner does, names programs that exist in trigger.bpf.c (the
 * kfunc driver in trig_kfunc.bpf.c, and trigger.bpf.c declares no kfunc)
 * with the matching SEC(), and the exported descriptor lists the same
 * benchmarks in the same order. Plus the two parsers the plugin relies on
 * (CPU lists, /proc/self/maps). No BPF, no root.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <benchcore/benchcore.h>

#include "trigger_spec.h"
#include "usdt_note.h"

/* What each name promises, written down independently of the table. */
static const struct {
	const char *name;
	enum bc_attach_kind kind;	/* 0: nothing attached */
	enum trig_driver driver;
} expected[] = {
	{ "trig-kernel-count", 0, BC_TRIG_DRV_KERNEL_COUNT },
	{ "trig-syscall-count", 0, BC_TRIG_DRV_SYSCALL_COUNT },
	{ "trig-usermode-count", 0, BC_TRIG_DRV_USER_COUNT },
	{ "trig-tp", BC_ATTACH_TP, BC_TRIG_DRV_KFUNC },
	{ "trig-rawtp", BC_ATTACH_RAW_TP, BC_TRIG_DRV_KFUNC },
	{ "trig-fentry", BC_ATTACH_FENTRY, BC_TRIG_DRV_HELPER },
	{ "trig-fexit", BC_ATTACH_FEXIT, BC_TRIG_DRV_HELPER },
	{ "trig-fmodret", BC_ATTACH_FMOD_RET, BC_TRIG_DRV_KFUNC },
	{ "trig-kprobe", BC_ATTACH_KPROBE, BC_TRIG_DRV_HELPER },
	{ "trig-kretprobe", BC_ATTACH_KRETPROBE, BC_TRIG_DRV_HELPER },
	{ "trig-kprobe-multi", BC_ATTACH_KPROBE_MULTI, BC_TRIG_DRV_HELPER },
	{ "trig-kretprobe-multi", BC_ATTACH_KRETPROBE_MULTI, BC_TRIG_DRV_HELPER },
	{ "trig-kprobe-multi-all", BC_ATTACH_KPROBE_MULTI, BC_TRIG_DRV_HELPER },
	{ "trig-kretprobe-multi-all", BC_ATTACH_KRETPROBE_MULTI, BC_TRIG_DRV_HELPER },
	{ "trig-uprobe-nop", BC_ATTACH_UPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-nop", BC_ATTACH_URETPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uprobe-push", BC_ATTACH_UPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-push", BC_ATTACH_URETPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uprobe-ret", BC_ATTACH_UPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-ret", BC_ATTACH_URETPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uprobe-nop5", BC_ATTACH_UPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-nop5", BC_ATTACH_URETPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uprobe-multi-nop", BC_ATTACH_UPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-multi-nop", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uprobe-multi-push", BC_ATTACH_UPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-multi-push", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uprobe-multi-ret", BC_ATTACH_UPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-multi-ret", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uprobe-multi-nop5", BC_ATTACH_UPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-uretprobe-multi-nop5", BC_ATTACH_URETPROBE_MULTI, BC_TRIG_DRV_UPROBED_CALL },
	/* A USDT probe is a uprobe on the site its note names. */
	{ "trig-usdt-nop", BC_ATTACH_UPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-usdt-nop5", BC_ATTACH_UPROBE, BC_TRIG_DRV_UPROBED_CALL },
	{ "trig-testrun", 0, BC_TRIG_DRV_TESTRUN },
	{ "trig-testrun-on-cpu", 0, BC_TRIG_DRV_TESTRUN_ON_CPU },
	{ "trig-syscall-on-cpu", BC_ATTACH_TP, BC_TRIG_DRV_SYSCALL_ON_CPU },
};

#define EXPECTED_CNT (sizeof(expected) / sizeof(expected[0]))

static void test_every_bench_declares_its_own_attach_type(void **state)
{
	(void)state;
	assert_int_equal(trig_spec_cnt, EXPECTED_CNT);
	for (size_t i = 0; i < EXPECTED_CNT; i++) {
		const struct trig_spec *s = trig_spec_find(expected[i].name);

		if (!s)
			fail_msg("%s has no requirement entry", expected[i].name);
		if (s->kind != expected[i].kind || s->driver != expected[i].driver)
			fail_msg("%s declares kind %d driver %d, expected kind %d driver %d",
				 s->name, s->kind, s->driver, expected[i].kind,
				 expected[i].driver);
	}
	assert_null(trig_spec_find("trig-nope"));
	assert_null(trig_spec_find(NULL));
}

static void test_names_unique_and_baselines_first(void **state)
{
	(void)state;
	for (size_t i = 0; i < trig_spec_cnt; i++) {
		assert_int_equal(strncmp(trig_specs[i].name, "trig-", 5), 0);
		for (size_t j = i + 1; j < trig_spec_cnt; j++)
			assert_string_not_equal(trig_specs[i].name, trig_specs[j].name);
	}
	/* The report order: every number has its reference above it. */
	assert_string_equal(trig_specs[0].name, "trig-kernel-count");
	assert_string_equal(trig_specs[1].name, "trig-syscall-count");
	assert_string_equal(trig_specs[2].name, "trig-usermode-count");
}

static void test_driver_and_batching_rules(void **state)
{
	(void)state;
	for (size_t i = 0; i < trig_spec_cnt; i++) {
		const struct trig_spec *s = &trig_specs[i];
		bool batched_driver = s->driver == BC_TRIG_DRV_KERNEL_COUNT ||
				      s->driver == BC_TRIG_DRV_HELPER ||
				      s->driver == BC_TRIG_DRV_KFUNC;
		bool test_run = batched_driver || s->driver == BC_TRIG_DRV_TESTRUN ||
				s->driver == BC_TRIG_DRV_TESTRUN_ON_CPU;

		/* --trig-batch-iters applies exactly to the batched drivers. */
		assert_int_equal(s->batched, batched_driver);
		/* Whatever BPF_PROG_TEST_RUN runs must be named. */
		assert_int_equal(s->driver_prog != NULL, test_run);
		if (s->driver == BC_TRIG_DRV_KFUNC)
			assert_string_equal(s->driver_prog, "trig_driver_kfunc");
		if (s->driver == BC_TRIG_DRV_HELPER)
			assert_string_equal(s->driver_prog, "trig_driver");
		/* Only the two user-space baselines run without BPF. */
		assert_int_equal(!s->needs_bpf, s->driver == BC_TRIG_DRV_SYSCALL_COUNT ||
						 s->driver == BC_TRIG_DRV_USER_COUNT);
		/* An attach type needs a program to attach, and vice versa. */
		assert_int_equal(s->kind != 0, s->prog != NULL);
		/* tp/... attaches through tracefs; nothing else needs it. */
		assert_int_equal(s->needs_tracefs, s->kind == BC_ATTACH_TP);
		assert_non_null(s->attach_point);
		assert_true(s->attach_point[0] != '\0');
	}
}

static bool is_uprobe_kind(enum bc_attach_kind k)
{
	return k == BC_ATTACH_UPROBE || k == BC_ATTACH_URETPROBE ||
	       k == BC_ATTACH_UPROBE_MULTI || k == BC_ATTACH_URETPROBE_MULTI;
}

static void test_uprobe_targets_cover_every_case(void **state)
{
	unsigned int seen[BC_ATTACH_OTHER + 1][BC_TRIG_TARGET_USDT_NOP5 + 1] = { { 0 } };

	(void)state;
	for (size_t i = 0; i < trig_spec_cnt; i++) {
		const struct trig_spec *s = &trig_specs[i];

		if (is_uprobe_kind(s->kind)) {
			assert_int_not_equal(s->target, BC_TRIG_TARGET_NONE);
			assert_string_equal(s->prog, "trig_uprobe");
			seen[s->kind][s->target]++;
		} else if (s->driver != BC_TRIG_DRV_USER_COUNT) {
			assert_int_equal(s->target, BC_TRIG_TARGET_NONE);
		}
	}
	/* nop, push, ret and nop5, each under all four uprobe flavours,
	 * once; the two USDT sites as uprobes, once each. */
	for (int k = BC_ATTACH_UPROBE; k <= BC_ATTACH_URETPROBE_MULTI; k++) {
		for (int t = BC_TRIG_TARGET_NOP; t <= BC_TRIG_TARGET_NOP5; t++)
			assert_int_equal(seen[k][t], 1);
		for (int t = BC_TRIG_TARGET_USDT_NOP; t <= BC_TRIG_TARGET_USDT_NOP5; t++)
			assert_int_equal(seen[k][t], k == BC_ATTACH_UPROBE);
	}
	assert_true(trig_target_x86_only(BC_TRIG_TARGET_NOP5));
	assert_true(trig_target_x86_only(BC_TRIG_TARGET_USDT_NOP));
	assert_false(trig_target_x86_only(BC_TRIG_TARGET_NOP));
}

/* Reads a whole file; /proc files have no size, so read until EOF. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, len = 0, n;
	char *buf = malloc(cap);

	if (!f)
		fail_msg("cannot open %s: %s", path, strerror(errno));
	assert_non_null(buf);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			buf = realloc(buf, cap *= 2);
			assert_non_null(buf);
		}
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* The SEC() a program of this kind must carry in trigger.bpf.c. */
static const char *sec_prefix(enum bc_attach_kind k)
{
	switch (k) {
	case BC_ATTACH_FENTRY: return "SEC(\"?fentry/";
	case BC_ATTACH_FEXIT: return "SEC(\"?fexit/";
	case BC_ATTACH_FMOD_RET: return "SEC(\"?fmod_ret/";
	case BC_ATTACH_KPROBE: return "SEC(\"?kprobe/";
	case BC_ATTACH_KRETPROBE: return "SEC(\"?kretprobe/";
	case BC_ATTACH_KPROBE_MULTI: return "SEC(\"?kprobe.multi/";
	case BC_ATTACH_KRETPROBE_MULTI: return "SEC(\"?kretprobe.multi/";
	case BC_ATTACH_TP: return "SEC(\"?tp/";
	case BC_ATTACH_RAW_TP: return "SEC(\"?raw_tp/";
	case BC_ATTACH_UPROBE:
	case BC_ATTACH_URETPROBE:
	case BC_ATTACH_UPROBE_MULTI:
	case BC_ATTACH_URETPROBE_MULTI: return "SEC(\"?uprobe";
	default: return "SEC(\"?raw_tp";	/* drivers, run by BPF_PROG_TEST_RUN */
	}
}

/* The SEC() line right above "int <prog>(" in file `what` must start
 * with `want`. */
static void assert_prog_section_in(const char *src, const char *what, const char *prog,
				   const char *want)
{
	char decl[128];
	const char *at, *line;

	snprintf(decl, sizeof(decl), "\nint %s(", prog);
	at = strstr(src, decl);
	if (!at)
		fail_msg("%s has no program %s", what, prog);
	/* `at` is the newline ending the SEC() line: walk to its start. */
	line = at;
	while (line > src && line[-1] != '\n')
		line--;
	if (strncmp(line, want, strlen(want)) != 0)
		fail_msg("program %s: expected %s...), found %.40s", prog, want, line);
}

static void assert_prog_section(const char *src, const char *prog, const char *want)
{
	assert_prog_section_in(src, "trigger.bpf.c", prog, want);
}

/* The kfunc driver is bc_trigger_tp_driver.bpf.h's raw_tp program, named
 * in trig_kfunc.bpf.c. */
static void assert_kfunc_driver(const char *src, const char *prog)
{
	char decl[128];

	snprintf(decl, sizeof(decl), "\nBC_TRIGGER_TP_DRIVER(%s)", prog);
	if (!strstr(src, decl))
		fail_msg("trig_kfunc.bpf.c does not define %s with BC_TRIGGER_TP_DRIVER()", prog);
}

static void test_programs_exist_with_matching_section(void **state)
{
	char *src = read_text(BC_TEST_SOURCE_DIR "/plugins/trigger/trigger.bpf.c");
	char *kfunc_src = read_text(BC_TEST_SOURCE_DIR "/plugins/trigger/trig_kfunc.bpf.c");

	(void)state;
	/* libbpf resolves a kfunc extern for the whole object, and without
	 * CAP_SYS_ADMIN fails all of it where vmlinux lacks the kfunc: the
	 * programs that need none must not share an object with one. */
	if (strstr(src, "__ksym"))
		fail_msg("trigger.bpf.c declares a kfunc (__ksym): it belongs in an object of "
			 "its own, as trig_kfunc.bpf.c");
	for (size_t i = 0; i < trig_spec_cnt; i++) {
		const struct trig_spec *s = &trig_specs[i];

		if (s->prog)
			assert_prog_section(src, s->prog, sec_prefix(s->kind));
		if (s->driver_prog && s->driver == BC_TRIG_DRV_KFUNC)
			assert_kfunc_driver(kfunc_src, s->driver_prog);
		else if (s->driver_prog)
			assert_prog_section(src, s->driver_prog, sec_prefix(0));
		if (s->syscall_alt)
			assert_prog_section(src, s->syscall_alt->prog, sec_prefix(s->kind));
		if (s->attach_all_prog)
			assert_prog_section(src, s->attach_all_prog, sec_prefix(s->kind));
	}
	free(kfunc_src);
	free(src);
}

/* The exported descriptor: same benchmarks, same order, each carrying its
 * own spec (.priv), the roles the runner's line shape comes from, the
 * batch option exactly where a run is a batch. */
static void test_descriptor_matches_table(void **state)
{
	const struct bc_plugin_desc *pd;
	size_t n = 0;
	void *h;

	(void)state;
	h = dlopen(BC_TEST_PLUGIN_DIR "/trigger.so", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fail_msg("dlopen trigger.so: %s", dlerror());
	pd = dlsym(h, BC_PLUGIN_SYMBOL);
	assert_non_null(pd);
	assert_string_equal(pd->name, "trigger");
	assert_int_equal(pd->abi_major, BC_ABI_MAJOR);
	assert_true(pd->opts_size > 0);
	for (const struct bc_bench_desc *const *b = pd->benches; *b && n < trig_spec_cnt;
	     b++, n++) {
		const struct bc_bench_desc *d = *b;
		const struct trig_spec *priv = d->priv;
		bool has_batch = false, has_driver = false;

		assert_string_equal(d->name, trig_specs[n].name);
		/* The plugin's own copy of the table, this benchmark's entry. */
		assert_non_null(priv);
		assert_string_equal(priv->name, d->name);
		assert_non_null(d->description);
		/* Filled, or (ABI 2.3, BC_BENCH()) left out: the default of
		 * one producer or more and no consumers. */
		if (d->producers.sz) {
			assert_int_equal(d->producers.sz, sizeof(struct bc_thread_range));
			assert_int_equal(d->producers.min, 1);
		} else {
			assert_int_equal(d->producers.min + d->producers.max + d->producers.def, 0);
		}
		if (d->consumers.sz)
			assert_int_equal(d->consumers.sz, sizeof(struct bc_thread_range));
		assert_int_equal(d->consumers.max, 0);
		assert_int_equal(d->consumers.def, 0);
		assert_int_equal(d->metric_cnt, 2);
		assert_string_equal(d->metrics[0].name, "hits");
		assert_int_equal(d->metrics[0].kind, BC_METRIC_COUNTER);
		assert_int_equal(d->metrics[0].role, BC_ROLE_HITS);
		assert_string_equal(d->metrics[1].name, "runs");
		assert_int_equal(d->metrics[1].kind, BC_METRIC_COUNTER);
		assert_int_equal(d->metrics[1].role, BC_ROLE_AUX);
		for (unsigned int i = 0; i < d->option_cnt; i++) {
			const struct bc_option *o = &d->options[i];

			assert_int_equal(o->sz, sizeof(struct bc_option));
			assert_true(o->offset < pd->opts_size);
			if (!strcmp(o->name, "trig-batch-iters")) {
				has_batch = true;
				assert_int_equal(o->type, BC_OPT_INT);
				assert_int_equal(o->min, 1);
				assert_int_equal(o->max, BC_TRIG_BATCH_MAX);
				assert_int_equal(atoi(o->def), BC_TRIG_BATCH_DEFAULT);
			} else if (!strcmp(o->name, "trig-driver")) {
				has_driver = true;
				assert_int_equal(o->type, BC_OPT_ENUM);
				assert_string_equal(o->def, "auto");
				assert_string_equal(o->words[BC_TRIG_DRIVE_SYSCALL], "syscall");
			} else {
				fail_msg("%s: unexpected option --%s", d->name, o->name);
			}
		}
		assert_int_equal(has_batch, trig_specs[n].batched);
		assert_int_equal(has_driver, trig_specs[n].syscall_alt != NULL);
		assert_non_null(d->probe);
		assert_non_null(d->validate);
		assert_non_null(d->setup);
		assert_non_null(d->producer);
		assert_non_null(d->measure);
		assert_non_null(d->teardown);
	}
	assert_int_equal(n, trig_spec_cnt);
	/* Then the record-passing baselines (trig_ipc.c), which the table
	 * does not describe: their own callbacks, hits and drops first. */
	{
		static const char *const rest[] = {
			"trig-user-ringbuf-timer", "trig-user-ringbuf-syscall", "trig-unix-socket",
			"trig-shared-memory", "trig-shared-memory-eventfd", NULL,
		};
		const struct bc_bench_desc *const *b = pd->benches + trig_spec_cnt;

		for (size_t i = 0; rest[i]; i++, b++) {
			assert_non_null(*b);
			assert_string_equal((*b)->name, rest[i]);
			assert_null(trig_spec_find(rest[i]));
			assert_true((*b)->metric_cnt >= 2);
			assert_string_equal((*b)->metrics[0].name, "hits");
			assert_string_equal((*b)->metrics[1].name, "drops");
			/* The runner's hits/drops lines, or (the timer one) its
			 * own lines from the plugin's callbacks. */
			if ((*b)->format_summary) {
				assert_non_null((*b)->format_iter);
				assert_int_equal((*b)->metrics[0].role, BC_ROLE_AUX);
			} else {
				assert_int_equal((*b)->metrics[0].role, BC_ROLE_HITS);
				assert_int_equal((*b)->metrics[1].role, BC_ROLE_DROPS);
				assert_null((*b)->metrics[1].label);
			}
			/* One producer, as the runner's validate() demands. */
			assert_int_equal((*b)->producers.min, 1);
			assert_int_equal((*b)->producers.max, 1);
			assert_non_null((*b)->setup);
			assert_non_null((*b)->teardown);
		}
		assert_null(*b);
	}
	dlclose(h);
}

/*
 * The driver choice, with the kernel's answer faked: the 6.1-era way is
 * what tp, raw_tp and fmod_ret fall back to, and only they; it says so in
 * its attach point; `batched` on a kernel known to lack the kfunc is
 * refused rather than run as something else.
 */
static const struct {
	const char *name;
	const char *syscall_point;
} alts[] = {
	{ "trig-tp", "tp/syscalls/sys_enter_getpgid (syscall driver)" },
	{ "trig-rawtp", "raw_tp/sys_enter (syscall driver)" },
	{ "trig-fmodret", "fmod_ret/security_task_getpgid (syscall driver)" },
};

static void assert_batched(const struct trig_spec *spec, const struct trig_spec *got)
{
	assert_int_equal(got->driver, BC_TRIG_DRV_KFUNC);
	assert_true(got->batched);
	assert_string_equal(got->prog, spec->prog);
	assert_string_equal(got->driver_prog, "trig_driver_kfunc");
	assert_string_equal(got->attach_point, spec->attach_point);
	assert_non_null(strstr(got->attach_point, "(batched kfunc driver)"));
	assert_null(got->attach_target);
}

static void assert_syscall(const struct trig_spec *spec, const char *point,
			   const struct trig_spec *got)
{
	assert_int_equal(got->driver, BC_TRIG_DRV_SYSCALL);
	assert_int_equal(got->kind, spec->kind);
	assert_false(got->batched);
	assert_null(got->driver_prog);
	assert_true(got->needs_bpf);
	assert_string_equal(got->attach_point, point);
	assert_string_equal(got->prog, spec->syscall_alt->prog);
	assert_int_equal(got->needs_tracefs, spec->kind == BC_ATTACH_TP);
	/* Only the LSM hook's fmod_ret needs getpgid() to name a pid. */
	assert_null(got->attach_target);
	assert_int_equal(got->getpgid_self, spec->kind == BC_ATTACH_FMOD_RET);
}

static void test_driver_choice(void **state)
{
	struct trig_spec got;
	size_t with_alt = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(alts) / sizeof(alts[0]); i++) {
		const struct trig_spec *s = trig_spec_find(alts[i].name);
		const char *pt = alts[i].syscall_point;

		assert_non_null(s);
		assert_non_null(s->syscall_alt);
		/* The kernel has the kfunc. */
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_AUTO, 1, &got), 0);
		assert_batched(s, &got);
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_BATCHED, 1, &got), 0);
		assert_batched(s, &got);
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_SYSCALL, 1, &got), 0);
		assert_syscall(s, pt, &got);
		/* It lacks it (Debian 12's 6.1). */
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_AUTO, 0, &got), 0);
		assert_syscall(s, pt, &got);
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_BATCHED, 0, &got), -EOPNOTSUPP);
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_SYSCALL, 0, &got), 0);
		assert_syscall(s, pt, &got);
		/* No BTF to ask: a kfunc call cannot load without it. */
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_AUTO, -ENOENT, &got), 0);
		assert_syscall(s, pt, &got);
		assert_int_equal(trig_choose(s, BC_TRIG_DRIVE_BATCHED, -ENOENT, &got), 0);
		assert_batched(s, &got);
	}
	/* Everything else runs as declared, whatever is asked or answered. */
	for (size_t i = 0; i < trig_spec_cnt; i++) {
		const struct trig_spec *s = &trig_specs[i];

		if (s->syscall_alt) {
			with_alt++;
			continue;
		}
		for (int want = BC_TRIG_DRIVE_AUTO; want <= BC_TRIG_DRIVE_SYSCALL; want++) {
			for (int kfunc = -1; kfunc <= 1; kfunc++) {
				assert_int_equal(trig_choose(s, want, kfunc, &got), 0);
				assert_memory_equal(&got, s, sizeof(got));
			}
		}
	}
	assert_int_equal(with_alt, sizeof(alts) / sizeof(alts[0]));
	assert_string_equal(trig_drive_words[BC_TRIG_DRIVE_AUTO], "auto");
	assert_string_equal(trig_drive_words[BC_TRIG_DRIVE_BATCHED], "batched");
	assert_string_equal(trig_drive_words[BC_TRIG_DRIVE_SYSCALL], "syscall");
	assert_null(trig_drive_words[BC_TRIG_DRIVE_SYSCALL + 1]);
}

/* kprobe-multi-all's list, from a made-up available_filter_functions. */
static void test_attach_all_symbols(void **state)
{
	static const char text[] =
		"do_sys_open\n"
		"vfs_read\n"
		"arch_cpu_idle\n"
		"default_idle\n"
		"rcu_note_context_switch\n"
		"__rcu_read_lock\n"
		"migrate_disable\n"
		"preempt_count_add\n"
		"bpf_dispatcher_xdp_func\n"
		"__ftrace_invalid_address___64\n"
		"bpf_get_numa_node_id\n"
		"e1000_probe [e1000]\n"
		"vfs_read\n"
		"__rcu_dummy\n"
		"\n"
		"cleanup_module";
	struct trig_syms syms;

	(void)state;
	assert_int_equal(trig_syms_all(text, &syms), 0);
	/* sorted, unique, the kernel's own, none of the skipped */
	assert_int_equal(syms.cnt, 4);
	assert_string_equal(syms.names[0], "__rcu_dummy");
	assert_string_equal(syms.names[1], "cleanup_module");
	assert_string_equal(syms.names[2], "do_sys_open");
	assert_string_equal(syms.names[3], "vfs_read");
	trig_syms_free(&syms);
	assert_int_equal(trig_syms_all("", &syms), 0);
	assert_int_equal(syms.cnt, 0);
	trig_syms_free(&syms);
}

/* The USDT notes of the built plugin: each probe found, its site the
 * instruction its name promises, its semaphore in the file's data. */
static void test_usdt_notes(void **state)
{
	static const unsigned char nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	struct usdt_probe nop = { 0 }, five = { 0 }, none;
	unsigned char *elf;
	size_t len = 0;
	FILE *f;

	(void)state;
#if !defined(__x86_64__)
	skip();
#endif
	f = fopen(BC_TEST_PLUGIN_DIR "/trigger.so", "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = (size_t)ftell(f);
	rewind(f);
	elf = malloc(len);
	assert_non_null(elf);
	assert_int_equal(fread(elf, 1, len, f), len);
	fclose(f);

	assert_int_equal(usdt_find(elf, len, "benchcore", "trig_nop", &nop), 0);
	assert_int_equal(usdt_find(elf, len, "benchcore", "trig_nop5", &five), 0);
	assert_true(nop.site_off < len && five.site_off + sizeof(nop5) < len);
	assert_int_equal(elf[nop.site_off], 0x90);
	assert_int_equal(elf[nop.site_off + 1], 0xc3);	/* then ret */
	assert_memory_equal(elf + five.site_off, nop5, sizeof(nop5));
	assert_int_equal(elf[five.site_off + sizeof(nop5)], 0xc3);
	/* two semaphores, 16 bits each, zero in the file */
	assert_true(nop.sema_off && five.sema_off && nop.sema_off != five.sema_off);
	assert_true(nop.sema_off + 2 <= len && five.sema_off + 2 <= len);
	assert_int_equal(elf[nop.sema_off] | elf[nop.sema_off + 1], 0);

	assert_int_equal(usdt_find(elf, len, "benchcore", "trig_nop6", &none), -ENOENT);
	assert_int_equal(usdt_find(elf, len, "other", "trig_nop", &none), -ENOENT);
	/* Not ELF, truncated: refused, never read past the end. */
	assert_int_equal(usdt_find(elf, 16, "benchcore", "trig_nop", &none), -EINVAL);
	assert_int_equal(usdt_find("hello", 5, "benchcore", "trig_nop", &none), -EINVAL);
	assert_int_equal(usdt_find(elf, len / 2, "benchcore", "trig_nop", &none), -EINVAL);
	free(elf);
}

static void test_cpulist(void **state)
{
	unsigned int cpus[8];

	(void)state;
	assert_int_equal(trig_parse_cpulist("0-1\n", cpus, 8), 2);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 1);
	assert_int_equal(trig_parse_cpulist("0,2-3,7", cpus, 8), 4);
	assert_int_equal(cpus[1], 2);
	assert_int_equal(cpus[2], 3);
	assert_int_equal(cpus[3], 7);
	assert_int_equal(trig_parse_cpulist("5", cpus, 8), 1);
	assert_int_equal(cpus[0], 5);

	assert_int_equal(trig_parse_cpulist("", cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist("3-1", cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist("1,,2", cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist("-", cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist("1,", cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist("a", cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist("0-2,1", cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist(NULL, cpus, 8), -EINVAL);
	assert_int_equal(trig_parse_cpulist("0-3", cpus, 2), -E2BIG);
}

static void test_file_offset_from_maps(void **state)
{
	static const char maps[] =
		"00400000-00452000 r-xp 00001000 08:02 173521      /usr/bin/dbus-daemon\n"
		"7f0000000000-7f0000001000 rw-p 00000000 00:00 0 \n"
		"7f0000001000-7f0000002000 r-xp 00000000 00:00 0\n"
		"7f0000002000-7f0000003000 r-xp 00003000 08:02 42 /lib/x.so";
	char path[PATH_MAX];
	unsigned long off = 0;

	(void)state;
	assert_int_equal(trig_file_offset(maps, 0x400100, path, sizeof(path), &off), 0);
	assert_string_equal(path, "/usr/bin/dbus-daemon");
	assert_int_equal(off, 0x1100);
	/* Last line without a newline. */
	assert_int_equal(trig_file_offset(maps, 0x7f0000002010, path, sizeof(path), &off), 0);
	assert_string_equal(path, "/lib/x.so");
	assert_int_equal(off, 0x3010);
	/* Anonymous mappings, with and without the trailing space. */
	assert_int_equal(trig_file_offset(maps, 0x7f0000000010, path, sizeof(path), &off),
			 -ENOENT);
	assert_int_equal(trig_file_offset(maps, 0x7f0000001010, path, sizeof(path), &off),
			 -ENOENT);
	assert_int_equal(trig_file_offset(maps, 0x10, path, sizeof(path), &off), -ENOENT);
	assert_int_equal(trig_file_offset(maps, 0x400100, path, 4, &off), -ENOENT);
}

/* Against the live process: a function of this test lies in its own
 * executable, at an offset inside the file. */
static void test_file_offset_live(void **state)
{
	char *maps = read_text("/proc/self/maps");
	char path[PATH_MAX], exe[PATH_MAX];
	unsigned long off = 0;
	ssize_t n;

	(void)state;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	assert_int_equal(trig_file_offset(maps, (unsigned long)test_file_offset_live, path,
					     sizeof(path), &off), 0);
	assert_string_equal(path, exe);
	assert_true(off > 0);
	free(maps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_bench_declares_its_own_attach_type),
		cmocka_unit_test(test_names_unique_and_baselines_first),
		cmocka_unit_test(test_driver_and_batching_rules),
		cmocka_unit_test(test_uprobe_targets_cover_every_case),
		cmocka_unit_test(test_programs_exist_with_matching_section),
		cmocka_unit_test(test_descriptor_matches_table),
		cmocka_unit_test(test_driver_choice),
		cmocka_unit_test(test_attach_all_symbols),
		cmocka_unit_test(test_usdt_notes),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_file_offset_from_maps),
		cmocka_unit_test(test_file_offset_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
