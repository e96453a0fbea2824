// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The strncmp plugin: the kernel runner's strncmp-no-helper and
 * strncmp-helper. Each producer calls getpgid() in a loop; the program on
 * that syscall compares two strings of --cmp-str-len characters that differ
 * only in the last one, with a loop written in BPF or with bpf_strncmp().
 * Hits are comparisons done; the two benchmarks differ only in how.
 *
 * The runner attaches at tp/syscalls/sys_enter_getpgid; without tracefs the
 * same program goes on raw_tp/sys_enter (filtered to getpgid), reported.
 * The two benchmarks differ only in their attach points' programs: the
 * core drives the skeleton through them (sc_configure() sets the strings)
 * and reads the hits from BPF (`bpf`) and the producers' calls from their
 * counters (`threads`).
 *
 * Like the runner's, the programs count every getpgid() on the machine,
 * whoever made it, unless --strncmp-own-process: the filter is a helper
 * call per comparison, which measured 17-20 ns more per run inside the
 * program (--bpf-stats) and read 0.95 of the runner's figure. Off, the
 * verifier drops it (bc_tgid is read-only data it knows to be 0).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "strncmp_common.h"
#include "strncmp_bench.skel.h"

BC_SKEL(strncmp_bench);

struct sc_opts {
	int64_t cmp_str_len;
	bool own_process;
};

static const struct bc_option sc_options[] = {
	BC_OPT_INT(struct sc_opts, cmp_str_len, "cmp-str-len", .def = "32", .min = 1,
		   .max = SC_STR_SZ - 1, .arg = "N",
		   .help = "characters compared per getpgid() (the strings differ in the last)"),
	BC_OPT_FLAG(struct sc_opts, own_process, "strncmp-own-process",
		    .help = "compare only on benchcore's own getpgid() calls (the runner compares "
			    "on every process's; costs a helper call per comparison)"),
};

/*
 * target: SC_STR_SZ - 1 digits '1'..'9' and a NUL; str: its first len
 * characters with the last one lowered by one, then a NUL. So str < target,
 * found at the len-th character: every comparison walks the whole length.
 * A fixed seed: the content does not matter, only that it has no NUL.
 */
static void sc_fill_strings(char *target, char *str, uint32_t len)
{
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < SC_STR_SZ - 1; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		target[i] = (char)('1' + x % 9);
	}
	target[SC_STR_SZ - 1] = '\0';
	memcpy(str, target, len);
	str[len] = '\0';
	str[len - 1] -= 1;
}

/* Before the candidate's program loads. */
static int sc_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	const struct sc_opts *o = bc_ctx_opts(ctx);
	struct strncmp_bench *s = skel;

	(void)pt;
	s->rodata->bc_tgid = o->own_process ? (__u32)getpid() : 0;
	s->rodata->getpgid_nr = SYS_getpgid;
	s->rodata->cmp_str_len = (uint32_t)o->cmp_str_len;
	sc_fill_strings((char *)s->rodata->target, s->bss->str, (uint32_t)o->cmp_str_len);
	return 0;
}

static int sc_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct bc_line_counter *calls = bc_thread_counter(ctx, t, "syscalls");

	while (!bc_thread_should_stop(t)) {
		bc_getpgid_trigger();
		bc_counter_add(calls, 1);
	}
	return 0;
}

/*
 * hits: comparisons that found str < target, i.e. every comparison made.
 * drops: none (the runner's hits/drops line), so no thread ever counts one.
 * syscalls: the producers' getpgid() calls, each of which should make one
 * comparison (hits = syscalls, which the tests check).
 */
static const struct bc_metric_desc sc_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS, .threads = true),
	BC_METRIC("syscalls", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "getpgid() calls", .threads = true),
};

static const struct bc_attach_point sc_no_helper_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "sc_no_helper_tp"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "sc_no_helper_raw_tp"),
};

static const struct bc_attach_point sc_helper_points[] = {
	BC_ATTACH_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "sc_helper_tp"),
	BC_ATTACH_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "sc_helper_raw_tp"),
};

static const struct bc_need sc_helper_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_strncmp,
		.why = "bpf_strncmp() (Linux 5.17)"),
};

#define SC_BENCH(name_, desc_, ...)                                                   \
	BC_BENCH(name_, desc_, sc_metrics, .runner_name = true, .skel = &strncmp_bench_skel, \
		 .configure = sc_configure, .producer = sc_producer, __VA_ARGS__)

static const struct bc_bench_desc sc_bench_no_helper = SC_BENCH("strncmp-no-helper",
	"--cmp-str-len characters compared by a loop written in BPF, per getpgid()",
	BC_POINTS(sc_no_helper_points));
static const struct bc_bench_desc sc_bench_helper = SC_BENCH("strncmp-helper",
	"--cmp-str-len characters compared by bpf_strncmp(), per getpgid()",
	BC_POINTS(sc_helper_points), BC_NEEDS(sc_helper_needs));

BENCHCORE_PLUGIN(.name = "strncmp", .version = "1.0",
		 .description = "bpf_strncmp() helper against a string compare written in BPF",
		 BC_OPTIONS(sc_options), .opts_size = sizeof(struct sc_opts),
		 BC_BENCHES(&sc_bench_no_helper, &sc_bench_helper));
