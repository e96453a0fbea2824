// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The trigger plugin through the real benchcore binary, for every benchmark
 * in its requirement table:
 *  - what this kernel supports (asked directly with hand-written programs
 *    that load AND attach, tests/support/bc_test_kernel.c, independently
 *    of the plugin) must run for one second (-w0 -d1 --format json) with hits > 0
 *    and hits = runs x hits-per-run (the batch for batched drivers, else
 *    1) within the slack of the sampling boundary, and name its attach
 *    point;
 *  - what it refuses must exit with status 3 and a reason naming the
 *    attach type, and `list` must mark it unavailable;
 *  - bad option values exit with status 2 naming the option;
 *  - no bc_trig_* program is left loaded.
 * Other engineers run BPF benchmarks on this machine at the same time, so
 * the census counts only our programs (their names start with bc_trig_).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
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

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bc_test_kernel.h"
#include "bc_test_util.h"
#include "json.h"
#include "json_read.h"
#include "trigger_spec.h"

#define EXIT_UNAVAILABLE 3
#define EXIT_USAGE 2

static void dump(const char *what, const struct bc_test_run *r)
{
	fprintf(stderr, "%s: exit status %d\n--- stdout\n%s\n--- stderr\n%s\n", what, r->status,
		r->out, r->err);
}

/* ------------------------------------------------------ program census */

/* Ours: the plugin names every program bc_trig_*. */
static bool prog_is_ours(int fd, const struct bpf_prog_info *info, const void *arg)
{
	(void)fd;
	(void)arg;
	return strncmp(info->name, "bc_trig_", 8) == 0;
}

/*
 * The kernel frees a closed program from deferred work (after an RCU grace
 * period, longer on a busy machine), and another engineer's `benchcore
 * list` probes ours for a few milliseconds: poll until the census is back
 * to zero, for up to a minute; a real leak never gets there.
 */
static unsigned int wait_for_none(void)
{
	unsigned int n = 0;

	/* Each call polls for up to 5 s and returns as soon as none is left. */
	for (int i = 0; i < 12; i++) {
		n = bc_test_wait_progs(prog_is_ours, NULL, 0, NULL);
		if (n == 0)
			break;
	}
	return n;
}

static void assert_none_left(const char *after)
{
	unsigned int n = wait_for_none();

	if (n)
		fail_msg("%u bc_trig_* BPF programs still loaded after %s", n, after);
}

/* ------------------------------------- what the kernel says, asked directly */

/* 1: vmlinux BTF lists the batched tp/raw_tp/fmod_ret driver's kfunc. */
static int kernel_kfunc_answer(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int id;

	if (!btf)
		return -ENOENT;
	id = btf__find_by_name_kind(btf, BC_TRIG_KFUNC, BTF_KIND_FUNC);
	btf__free(btf);
	return id > 0;
}

/* Asked once in main() (tests/support/bc_test_kernel.c, apart from the
 * plugin), each answer printed there as a "# kernel:" line. */
static struct {
	bool fentry, fexit, kprobe, kprobe_multi, uprobe, uprobe_multi, tracefs;
	bool filter_functions;	/* tracefs lists the traceable functions */
	int kfunc;
} kernel;

/* fmod_ret is allowed on some functions only (an error-injection list that
 * is a config option, and LSM hooks): asked per target, once each. */
static bool kernel_fmod_ret(const char *attach_point)
{
	static struct {
		char func[64];
		bool ok;
	} seen[4];
	static size_t seen_cnt;
	char func[64];

	if (sscanf(attach_point, "fmod_ret/%63[^ ]", func) != 1)
		fail_msg("no fmod_ret target in attach point '%s'", attach_point);
	for (size_t i = 0; i < seen_cnt; i++)
		if (!strcmp(seen[i].func, func))
			return seen[i].ok;
	assert_true(seen_cnt < sizeof(seen) / sizeof(seen[0]));
	snprintf(seen[seen_cnt].func, sizeof(seen[seen_cnt].func), "%s", func);
	seen[seen_cnt].ok = bc_test_kernel_trampoline(BPF_MODIFY_RETURN, func) == 0;
	return seen[seen_cnt++].ok;
}

/* The spec as the plugin must run it here, for this --trig-driver. */
static struct trig_spec as_run(const char *name, enum trig_drive want)
{
	const struct trig_spec *s = trig_spec_find(name);
	struct trig_spec eff;

	assert_non_null(s);
	assert_int_equal(trig_choose(s, want, kernel.kfunc, &eff), 0);
	return eff;
}

static unsigned int hits_per_run(const struct trig_spec *eff, unsigned int batch)
{
	return eff->batched ? batch : 1;
}

static bool expect_available(const struct trig_spec *s)
{
#if !defined(__x86_64__)
	if (trig_target_x86_only(s->target))
		return false;
#endif
	switch (s->kind) {
	case BC_ATTACH_FENTRY:
		return kernel.fentry;
	case BC_ATTACH_FEXIT:
		return kernel.fexit;
	case BC_ATTACH_FMOD_RET:
		return kernel_fmod_ret(s->attach_point);
	case BC_ATTACH_KPROBE:
	case BC_ATTACH_KRETPROBE:
		return kernel.kprobe;
	case BC_ATTACH_KPROBE_MULTI:
	case BC_ATTACH_KRETPROBE_MULTI:
		/* -all attaches to every function tracefs lists. */
		return kernel.kprobe_multi && (!s->attach_all_prog || kernel.filter_functions);
	case BC_ATTACH_UPROBE:
	case BC_ATTACH_URETPROBE:
		return kernel.uprobe;
	case BC_ATTACH_UPROBE_MULTI:
	case BC_ATTACH_URETPROBE_MULTI:
		return kernel.uprobe_multi;
	case BC_ATTACH_TP:
		return kernel.tracefs;
	default:
		/* raw_tp and test runs: what every kernel with BPF has. */
		return true;
	}
}

/* ------------------------------------------------------------ checks */

static double summary_mean(const struct bc_json *doc, const char *metric)
{
	const struct bc_json *v;

	v = bc_json_get(bc_json_get(bc_json_get(doc, "summary"), metric), "mean");
	if (!v || v->type != BC_JSON_NUMBER)
		fail_msg("no summary.%s.mean in the JSON report", metric);
	return bc_json_num(v, 0);
}

/* Runs one benchmark and checks hits against the producers' own count. */
static void check_run(const struct trig_spec *s, const char *const *extra,
		      unsigned int hits_per_run, unsigned int producers)
{
	const char *args[24] = { "run", NULL, "-w0", "-d1", "--format", "json" };
	char name[96], prod[16];
	size_t n = 6;
	struct bc_test_run r;
	char perr[256];
	const char *ap;
	struct bc_json *doc;
	double hits, runs, want, slack;

	snprintf(name, sizeof(name), "trigger:%s", s->name);
	args[1] = name;
	snprintf(prod, sizeof(prod), "-p%u", producers);
	args[n++] = prod;
	/* Exact counts: without the filter, another process firing the same
	 * tracepoint or function (a parity run on this machine) adds hits,
	 * as it would to the runner's. test_own_process_option runs the
	 * default. */
	args[n++] = "--trig-own-process";
	while (extra && *extra)
		args[n++] = *extra++;
	args[n] = NULL;

	bc_test_run_benchcore(&r, args);
	if (r.status != 0) {
		dump(s->name, &r);
		fail_msg("%s: expected to run here, exit status %d", s->name, r.status);
	}
	doc = bc_json_parse(r.out, strlen(r.out), perr, sizeof(perr));
	if (!doc) {
		dump(s->name, &r);
		fail_msg("%s: stdout is not one JSON document: %s", s->name, perr);
	}
	hits = summary_mean(doc, "hits");
	runs = summary_mean(doc, "runs");
	if (!(hits > 0) || !(runs > 0)) {
		dump(s->name, &r);
		fail_msg("%s: hits %.0f/s, runs %.0f/s: expected both > 0", s->name, hits, runs);
	}
	/*
	 * measure() reads the producers' counts, then the BPF slots; what
	 * completes in between, plus one run in flight per producer, is the
	 * only difference allowed: 1% and a few runs' worth of hits.
	 */
	want = runs * hits_per_run;
	slack = 0.01 * want + 4.0 * hits_per_run * producers;
	if (fabs(hits - want) > slack) {
		dump(s->name, &r);
		fail_msg("%s: hits %.0f/s but runs %.0f/s x %u = %.0f/s (slack %.0f)", s->name,
			 hits, runs, hits_per_run, want, slack);
	}
	ap = bc_json_str(bc_json_get(doc, "attach_point"));
	if (!ap || !ap[0]) {
		dump(s->name, &r);
		fail_msg("%s: the JSON report names no attach point", s->name);
	}
	if (s->target == BC_TRIG_TARGET_USDT_NOP || s->target == BC_TRIG_TARGET_USDT_NOP5) {
		/* usdt:<file>+0x<site> (benchcore:<name>, semaphore at +0x<offset>) */
		assert_int_equal(strncmp(ap, "usdt:", 5), 0);
		assert_non_null(strstr(ap, "trigger.so+0x"));
		assert_non_null(strstr(ap, "semaphore at +0x"));
	} else if (s->target != BC_TRIG_TARGET_NONE && s->kind) {
		/* uprobe:<file>+0x<offset> (<function>), in our plugin */
		assert_non_null(strstr(ap, "trigger.so+0x"));
		assert_int_equal(strncmp(ap, trig_kind_name(s->kind),
					 strlen(trig_kind_name(s->kind))), 0);
	} else {
		size_t apl = strlen(s->attach_point);

		/* The plain name, and " (own-process filter on)" only where
		 * the program has the filter to turn on. */
		assert_int_equal(strncmp(ap, s->attach_point, apl), 0);
		assert_true(!ap[apl] || !strcmp(ap + apl, " (own-process filter on)"));
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
	assert_none_left(s->name);
}

static char *list_text;
static struct bc_json *list_json;

/* `list --format json`: plugins[].benchmarks[] with available and reason. */
static const struct bc_json *list_json_bench(const char *full_name)
{
	const struct bc_json *plugins = bc_json_get(list_json, "plugins");

	for (size_t i = 0; i < bc_json_len(plugins); i++) {
		const struct bc_json *benches = bc_json_get(bc_json_at(plugins, i), "benchmarks");

		for (size_t j = 0; j < bc_json_len(benches); j++) {
			const char *name = bc_json_str(bc_json_get(bc_json_at(benches, j), "name"));

			if (name && !strcmp(name, full_name))
				return bc_json_at(benches, j);
		}
	}
	return NULL;
}

static void check_unavailable(const struct trig_spec *s)
{
	const char *args[] = { "run", NULL, "-w0", "-d1", NULL };
	const char *kind = trig_kind_name(s->kind);
	char name[96];
	const char *line;
	struct bc_test_run r;

	snprintf(name, sizeof(name), "trigger:%s", s->name);
	args[1] = name;
	bc_test_run_benchcore(&r, args);
	if (r.status != EXIT_UNAVAILABLE || !strstr(r.err, kind)) {
		dump(s->name, &r);
		fail_msg("%s: expected exit status %d and a reason naming %s", s->name,
			 EXIT_UNAVAILABLE, kind);
	}
	bc_test_run_free(&r);
	assert_none_left(s->name);

	/* `list`: the benchmark's line says it is unavailable, and why. */
	line = strstr(list_text, name);
	if (!line)
		fail_msg("`list` does not show %s", name);
	{
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char *l = strndup(line, len);

		assert_non_null(l);
		if (!strstr(l, "unavailable") || !strstr(l, kind))
			fail_msg("`list` line for %s does not say unavailable and why: %s",
				 name, l);
		free(l);
	}
	/* The same in `list --format json`, for scripts. */
	{
		const struct bc_json *b = list_json_bench(name);
		const struct bc_json *avail = bc_json_get(b, "available");
		const char *why = bc_json_str(bc_json_get(b, "reason"));

		if (!avail || avail->type != BC_JSON_BOOL || bc_json_bool(avail, true))
			fail_msg("`list --format json` does not mark %s unavailable", name);
		if (!why || !strstr(why, kind))
			fail_msg("`list --format json` gives no reason naming %s for %s", kind,
				 name);
	}
}

static void test_every_benchmark(void **state)
{
	(void)state;
	for (size_t i = 0; i < trig_spec_cnt; i++) {
		const struct trig_spec *s = &trig_specs[i];

		/* What the plugin must run here (the syscall driver where
		 * the kernel lacks the kfunc), and so what to ask about. */
		struct trig_spec eff = as_run(s->name, BC_TRIG_DRIVE_AUTO);
		bool avail = expect_available(&eff);

		fprintf(stderr, "# %s: expected %s here\n", s->name,
			avail ? "to run" : "unavailable");
		if (avail)
			check_run(&eff, NULL, hits_per_run(&eff, BC_TRIG_BATCH_DEFAULT), 1);
		else
			check_unavailable(&eff);
	}
}

/* The batch option really sets the driver's loop count, for each driver. */
static void test_batch_iters_option(void **state)
{
	const char *seven[] = { "--trig-batch-iters", "7", NULL };
	const char *one[] = { "--trig-batch-iters", "1", NULL };
	const char *max[] = { "--trig-batch-iters", "1000", NULL };

	struct trig_spec tp = as_run("trig-tp", BC_TRIG_DRIVE_AUTO);
	struct trig_spec rawtp = as_run("trig-rawtp", BC_TRIG_DRIVE_AUTO);

	(void)state;
	check_run(trig_spec_find("trig-kernel-count"), seven, 7, 1);
	check_run(&tp, one, 1, 1);
	/* Where the kernel lacks the kfunc, the syscall driver ignores it. */
	check_run(&rawtp, max, hits_per_run(&rawtp, 1000), 1);
}

/* Runs trig-rawtp with or without --trig-own-process: hits are counted
 * either way, and the attach point says when the filter is on. */
static void check_own_process(bool on)
{
	const char *args[] = { "run", "trigger:trig-rawtp", "-w0", "-d1", "--format", "json",
			       on ? "--trig-own-process" : NULL, NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	char perr[256];
	const char *ap;

	bc_test_run_benchcore(&r, args);
	if (r.status != 0) {
		dump("trig-rawtp", &r);
		fail_msg("trig-rawtp (filter %s): exit status %d", on ? "on" : "off", r.status);
	}
	doc = bc_json_parse(r.out, strlen(r.out), perr, sizeof(perr));
	if (!doc)
		fail_msg("trig-rawtp: stdout is not JSON: %s", perr);
	assert_true(summary_mean(doc, "hits") > 0);
	ap = bc_json_str(bc_json_get(doc, "attach_point"));
	assert_non_null(ap);
	if (on)
		assert_non_null(strstr(ap, "(own-process filter on)"));
	else
		assert_null(strstr(ap, "own-process"));
	bc_json_free(doc);
	bc_test_run_free(&r);
	assert_none_left("trig-rawtp");
}

/* The kernel keeps 15 bytes of a program's name ("trig_rawtp_sysc");
 * the report names the program by its whole name, from its BTF. */
static void test_full_program_name(void **state)
{
	const char *args[] = { "run", "trigger:trig-rawtp", "-w0", "-d1", "--trig-driver",
			       "syscall", "--format", "json", NULL };
	const struct bc_json *progs;
	struct bc_test_run r;
	struct bc_json *doc;
	char perr[256];
	bool found = false;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != 0) {
		dump("trig-rawtp --trig-driver syscall", &r);
		fail_msg("trig-rawtp --trig-driver syscall: exit status %d", r.status);
	}
	doc = bc_json_parse(r.out, strlen(r.out), perr, sizeof(perr));
	if (!doc)
		fail_msg("trig-rawtp: stdout is not JSON: %s", perr);
	progs = bc_json_get(doc, "programs");
	for (size_t i = 0; i < bc_json_len(progs); i++) {
		const char *name = bc_json_str(bc_json_get(bc_json_at(progs, i), "name"));

		assert_non_null(name);
		assert_string_not_equal(name, "trig_rawtp_sysc");
		found |= !strcmp(name, "trig_rawtp_syscall");
	}
	if (!found) {
		dump("trig-rawtp --trig-driver syscall", &r);
		fail_msg("no program named trig_rawtp_syscall in the report");
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
	assert_none_left("trig-rawtp --trig-driver syscall");
}

/* The filter the runner lacks: off by default, on when asked. */
static void test_own_process_option(void **state)
{
	(void)state;
	check_own_process(false);
	check_own_process(true);
}

/* Two producers: the per-CPU slots must add up across CPUs. */
static void test_two_producers(void **state)
{
	struct trig_spec rawtp = as_run("trig-rawtp", BC_TRIG_DRIVE_AUTO);

	(void)state;
	check_run(&rawtp, NULL, hits_per_run(&rawtp, BC_TRIG_BATCH_DEFAULT), 2);
	check_run(trig_spec_find("trig-testrun-on-cpu"), NULL, 1, 2);
}

/*
 * Text output as the runner's trigger script reads it: the last line of
 * stdout, cut before the first '(', fields from the third on: the hits
 * figure ("<mean> ± <stddev>M/s"). The attach point line comes before the
 * first Iter line, out of that script's way.
 */
static void test_runner_script_shape(void **state)
{
	const char *args[] = { "run", "trigger:trig-syscall-count", "-w0", "-d1", NULL };
	struct bc_test_run r;
	const char *last, *ap, *iter0;
	char *cut, *paren;
	size_t len;
	int field = 1;
	double v;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != 0)
		fail_msg("trig-syscall-count: exit status %d: %s", r.status, r.err);
	len = strlen(r.out);
	assert_true(len > 1 && r.out[len - 1] == '\n');
	last = r.out + len - 1;
	while (last > r.out && last[-1] != '\n')
		last--;
	if (strncmp(last, "Summary: hits ", 14) != 0)
		fail_msg("the last line is not the hits Summary line: %s", last);
	cut = strndup(last, (size_t)(r.out + len - 1 - last));
	assert_non_null(cut);
	paren = strchr(cut, '(');
	assert_non_null(paren);
	*paren = '\0';
	/* cut -d' ' -f3-: skip two space-separated fields. */
	for (paren = cut; *paren && field < 3; paren++)
		if (*paren == ' ')
			field++;
	v = strtod(paren, NULL);
	if (!(v > 0))
		fail_msg("the runner's cut gives '%s', not a positive hits rate", paren);
	free(cut);
	ap = strstr(r.out, "Attach point: ");
	iter0 = strstr(r.out, "Iter ");
	assert_non_null(ap);
	assert_non_null(iter0);
	assert_true(ap < iter0);
	bc_test_run_free(&r);
}

static void expect_unavailable(const char *const *args, const char *needle)
{
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != EXIT_UNAVAILABLE || !strstr(r.err, needle)) {
		dump(args[1], &r);
		fail_msg("%s: expected exit status %d and a reason naming %s", args[1],
			 EXIT_UNAVAILABLE, needle);
	}
	bc_test_run_free(&r);
	assert_none_left(args[1]);
}

/*
 * Both drivers of tp, raw_tp and fmod_ret, whatever the kernel would pick:
 * the syscall one (the 6.1-era runner's) runs everywhere the attach type
 * does, one hit per getpgid(), and says so in its attach point; the
 * batched one runs where the kernel has the kfunc and is refused, naming
 * it, where it has not.
 */
static void test_both_drivers(void **state)
{
	const char *syscall[] = { "--trig-driver", "syscall", NULL };
	const char *batched[] = { "--trig-driver", "batched", NULL };
	static const char *const names[] = { "trig-tp", "trig-rawtp", "trig-fmodret" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct trig_spec sys = as_run(names[i], BC_TRIG_DRIVE_SYSCALL);
		char full[64];
		const char *args[] = { "run", full, "-w0", "-d1", NULL, NULL, NULL };

		snprintf(full, sizeof(full), "trigger:%s", names[i]);
		assert_non_null(strstr(sys.attach_point, "(syscall driver)"));
		if (expect_available(&sys)) {
			check_run(&sys, syscall, 1, 1);
		} else {
			args[4] = syscall[0];
			args[5] = syscall[1];
			expect_unavailable(args, trig_kind_name(sys.kind));
		}
		if (kernel.kfunc > 0) {
			struct trig_spec bat = as_run(names[i], BC_TRIG_DRIVE_BATCHED);

			if (expect_available(&bat))
				check_run(&bat, batched, BC_TRIG_BATCH_DEFAULT, 1);
		} else {
			args[4] = batched[0];
			args[5] = batched[1];
			expect_unavailable(args, BC_TRIG_KFUNC);
		}
	}
}

static void expect_usage_error(const char *const *args, const char *needle)
{
	struct bc_test_run r;

	bc_test_run_benchcore(&r, args);
	if (r.status != EXIT_USAGE || !strstr(r.err, needle)) {
		dump(args[1], &r);
		fail_msg("expected exit status %d and a message naming %s", EXIT_USAGE, needle);
	}
	bc_test_run_free(&r);
}

static void test_bad_options(void **state)
{
	const char *zero[] = { "run", "trigger:trig-kernel-count", "-w0", "-d1",
			       "--trig-batch-iters", "0", NULL };
	const char *big[] = { "run", "trigger:trig-tp", "-w0", "-d1",
			      "--trig-batch-iters", "1001", NULL };
	const char *word[] = { "run", "trigger:trig-kernel-count", "-w0", "-d1",
			       "--trig-batch-iters", "lots", NULL };
	const char *cons[] = { "run", "trigger:trig-syscall-count", "-w0", "-d1", "-c1", NULL };
	const char *drv[] = { "run", "trigger:trig-rawtp", "-w0", "-d1", "--trig-driver", "fast",
			      NULL };

	(void)state;
	expect_usage_error(zero, "--trig-batch-iters '0'");
	expect_usage_error(big, "--trig-batch-iters '1001'");
	expect_usage_error(word, "--trig-batch-iters 'lots'");
	expect_usage_error(drv, "--trig-driver 'fast'");
	assert_none_left("the usage errors");

	/* -c1: refused before anything runs. The core decides the status
	 * (it calls a consumer count without a consumer callback a
	 * descriptor error, 1); what must hold is a refusal that says why. */
	{
		struct bc_test_run r;

		bc_test_run_benchcore(&r, cons);
		if (r.status == 0 || !strstr(r.err, "consumer")) {
			dump("-c1", &r);
			fail_msg("-c1 on a trigger benchmark must be refused, naming consumers");
		}
		bc_test_run_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_benchmark),
		cmocka_unit_test(test_batch_iters_option),
		cmocka_unit_test(test_two_producers),
		cmocka_unit_test(test_own_process_option),
		cmocka_unit_test(test_full_program_name),
		cmocka_unit_test(test_both_drivers),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_runner_script_shape),
	};
	const char *list_args[] = { "list", NULL };
	const char *list_json_args[] = { "list", "--format", "json", NULL };
	struct bc_test_run list, list_js;
	char perr[256] = "";
	int ret;

	ret = bc_test_bpf_skip("the trigger benchmarks");
	if (ret)
		return ret;
	libbpf_set_print(NULL);
	/* tracefs first: tp/ benchmarks attach through it and the -all ones
	 * read its list of functions; a fresh machine has it unmounted, and
	 * no case may depend on an earlier one having mounted it. */
	kernel.tracefs = bc_test_kernel_tracefs() == 0;
	kernel.filter_functions =
		access("/sys/kernel/tracing/available_filter_functions", R_OK) == 0 ||
		access("/sys/kernel/debug/tracing/available_filter_functions", R_OK) == 0;
	fprintf(stderr, "# kernel: available_filter_functions readable: %s\n",
		kernel.filter_functions ? "yes" : "no");
	/* Load AND attach: a kernel may accept the program and refuse the
	 * trampoline, and the plugin needs both. */
	kernel.fentry = bc_test_kernel_trampoline(BPF_TRACE_FENTRY, "bpf_get_numa_node_id") == 0;
	kernel.fexit = bc_test_kernel_trampoline(BPF_TRACE_FEXIT, "bpf_get_numa_node_id") == 0;
	kernel.kprobe = bc_test_kernel_kprobe("bpf_get_numa_node_id") == 0;
	kernel.kprobe_multi = bc_test_kernel_kprobe_multi("bpf_get_numa_node_id") == 0;
	kernel.kfunc = kernel_kfunc_answer();
	fprintf(stderr, "# kernel: kfunc %s %s\n", BC_TRIG_KFUNC,
		kernel.kfunc > 0 ? "in vmlinux BTF" : "absent");
	/* The kernel's side of uprobes, whatever libbpf we were built
	 * against: a link created on a function of this binary. */
	kernel.uprobe = bc_test_kernel_uprobe() == 0;
	kernel.uprobe_multi = bc_test_kernel_uprobe_multi() == 0;

	if (wait_for_none() != 0) {
		printf("skipping: bc_trig_* programs are already loaded by another process\n");
		return BC_TEST_SKIP;
	}
	bc_test_run_benchcore(&list, list_args);
	if (list.status != 0) {
		dump("list", &list);
		return 1;
	}
	list_text = list.out;
	bc_test_run_benchcore(&list_js, list_json_args);
	list_json = list_js.status == 0 ?
		bc_json_parse(list_js.out, strlen(list_js.out), perr, sizeof(perr)) : NULL;
	if (!list_json) {
		dump("list --format json", &list_js);
		fprintf(stderr, "parse error: %s\n", perr);
		return 1;
	}
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	bc_json_free(list_json);
	bc_test_run_free(&list_js);
	bc_test_run_free(&list);
	return ret;
}
