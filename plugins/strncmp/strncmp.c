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
 * core tries them (sc_attach()) and reads the hits from BPF (`bpf`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "strncmp_common.h"
#include "strncmp_bench.skel.h"

struct sc_opts {
	int64_t cmp_str_len;
};

static const struct bc_option sc_options[] = {
	BC_OPT_INT(struct sc_opts, cmp_str_len, "cmp-str-len", .def = "32", .min = 1,
		   .max = SC_STR_SZ - 1, .arg = "N",
		   .help = "characters compared per getpgid() (the strings differ in the last)"),
};

struct sc_state {
	struct strncmp_bench *skel;
	struct bpf_link *link;
	uint32_t cmp_str_len;
	struct bc_line_counter *calls;	/* per producer: getpgid() calls */
	unsigned int prod_cnt;
};

static void sc_state_free(struct sc_state *st)
{
	if (!st)
		return;
	bpf_link__destroy(st->link);
	strncmp_bench__destroy(st->skel);
	free(st->calls);
	free(st);
}

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

/* One candidate of the ladder the core drives. */
static int sc_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	struct sc_state *st = bc_ctx_data(ctx);
	struct strncmp_bench *skel;
	struct bpf_link *link;
	int err;

	skel = strncmp_bench__open();
	if (!skel)
		return errno ? -errno : -ENOMEM;
	err = bc_bpf_autoload_only(skel->obj, pt->prog_name);
	if (err)
		goto fail;
	skel->rodata->bc_tgid = (__u32)getpid();
	skel->rodata->getpgid_nr = SYS_getpgid;
	skel->rodata->cmp_str_len = st->cmp_str_len;
	sc_fill_strings((char *)skel->rodata->target, skel->bss->str, st->cmp_str_len);
	err = strncmp_bench__load(skel);
	if (err)
		goto fail;
	link = bpf_program__attach(bpf_object__find_program_by_name(skel->obj, pt->prog_name));
	if (!link) {
		err = errno ? -errno : -EINVAL;
		goto fail;
	}
	st->skel = skel;
	st->link = link;
	return bc_ctx_set_bpf_object(ctx, skel->obj);
fail:
	strncmp_bench__destroy(skel);
	return err;
}

static int sc_setup(struct bc_ctx *ctx)
{
	const struct sc_opts *o = bc_ctx_opts(ctx);
	unsigned int prod_cnt = bc_ctx_producer_cnt(ctx);
	struct sc_state *st;

	if (!o)
		return bc_error(ctx, -EINVAL, "no options struct from the core (ABI 2.0 options engine)");
	st = calloc(1, sizeof(*st));
	if (st && prod_cnt)
		st->calls = bc_line_counters_alloc(prod_cnt);
	if (!st || (prod_cnt && !st->calls)) {
		sc_state_free(st);
		return bc_error(ctx, -ENOMEM, "out of memory");
	}
	st->cmp_str_len = (uint32_t)o->cmp_str_len;
	st->prod_cnt = prod_cnt;
	bc_ctx_set_data(ctx, st);
	return 0;
}

static void sc_teardown(struct bc_ctx *ctx)
{
	sc_state_free(bc_ctx_data(ctx));
	bc_ctx_set_data(ctx, NULL);
}

static int sc_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	struct sc_state *st = bc_ctx_data(ctx);
	struct bc_line_counter *calls = &st->calls[t->idx];

	while (!bc_thread_should_stop(t)) {
		bc_getpgid_trigger();
		/* Only this thread writes it: no locked instruction. */
		__atomic_store_n(&calls->value, calls->value + 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static int sc_measure(struct bc_ctx *ctx, double *values)
{
	struct sc_state *st = bc_ctx_data(ctx);

	/* hits: the core's, from BPF; drops: none (the runner's hits/drops
	 * line), left at 0. */
	values[2] = (double)bc_line_counters_sum(st->calls, st->prod_cnt);
	return 0;
}

/*
 * hits: comparisons that found str < target, i.e. every comparison made.
 * syscalls: the producers' getpgid() calls, each of which should make one
 * comparison (hits = syscalls, which the tests check).
 */
static const struct bc_metric_desc sc_metrics[] = {
	BC_METRIC("hits", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	BC_METRIC("drops", "ops", BC_METRIC_COUNTER, .role = BC_ROLE_DROPS),
	BC_METRIC("syscalls", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_AUX,
		  .label = "getpgid() calls"),
};

#define SC_POINT(name_, kind_, prog_)                                                   \
	{ .sz = sizeof(struct bc_attach_point), .name = (name_), .kind = (kind_),        \
	  .prog_name = (prog_) }

static const struct bc_attach_point sc_no_helper_points[] = {
	SC_POINT("tp/syscalls/sys_enter_getpgid", BC_ATTACH_TP, "sc_no_helper_tp"),
	SC_POINT("raw_tp/sys_enter", BC_ATTACH_RAW_TP, "sc_no_helper_raw_tp"),
};

static const struct bc_attach_point sc_helper_points[] = {
	SC_POINT("tp/syscalls/sys_enter_getpgid", BC_ATTACH_TP, "sc_helper_tp"),
	SC_POINT("raw_tp/sys_enter", BC_ATTACH_RAW_TP, "sc_helper_raw_tp"),
};

static const struct bc_need sc_helper_needs[] = {
	BC_NEED(BC_NEED_HELPER, .type = BPF_PROG_TYPE_RAW_TRACEPOINT, .id = BPF_FUNC_strncmp,
		.why = "bpf_strncmp() (Linux 5.17)"),
};

#define SC_BENCH(var_, name_, desc_, points_, needs_, need_cnt_)                 \
	static const struct bc_bench_desc var_ = {                               \
		.sz = sizeof(struct bc_bench_desc),                              \
		.runner_name = true,                                             \
		.name = (name_),                                                 \
		.description = (desc_),                                          \
		.producers = BC_THREADS(1, 0, 1),                                \
		.consumers = BC_THREADS(0, 0, 0),                                \
		.metrics = sc_metrics,                                           \
		.metric_cnt = sizeof(sc_metrics) / sizeof(sc_metrics[0]),        \
		.needs = (needs_),                                               \
		.need_cnt = (need_cnt_),                                         \
		.attach_points = (points_),                                      \
		.attach_point_cnt = sizeof(points_) / sizeof((points_)[0]),      \
		.setup = sc_setup,                                               \
		.producer = sc_producer,                                         \
		.measure = sc_measure,                                           \
		.teardown = sc_teardown,                                         \
		.attach = sc_attach,                                             \
	}

SC_BENCH(sc_bench_no_helper, "strncmp-no-helper",
	 "--cmp-str-len characters compared by a loop written in BPF, per getpgid()", sc_no_helper_points,
	 NULL, 0);
SC_BENCH(sc_bench_helper, "strncmp-helper",
	 "--cmp-str-len characters compared by bpf_strncmp(), per getpgid()", sc_helper_points,
	 sc_helper_needs, sizeof(sc_helper_needs) / sizeof(sc_helper_needs[0]));

static const struct bc_bench_desc *const sc_benches[] = {
	&sc_bench_no_helper,
	&sc_bench_helper,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = "strncmp",
	.version = "1.0",
	.description = "bpf_strncmp() helper against a string compare written in BPF",
	.options = sc_options,
	.option_cnt = sizeof(sc_options) / sizeof(sc_options[0]),
	.opts_size = sizeof(struct sc_opts),
	.benches = sc_benches,
);
