// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oops: a fixture plugin whose benchmarks each make one of the mistakes a
 * plugin author makes (docs/plugin-abi.md lists the lines the core says
 * for them), beside one, "ok", that makes none. test_mistakes.c runs each
 * through the real binary and checks the line and the exit status.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <bpf/libbpf.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "oops.skel.h"

BC_SKEL(oops);

struct oops_opts {
	uint64_t batch;
	int64_t only;
};

/* --oops-batch for every benchmark, --oops-only for "ok" alone. */
static const struct bc_option oops_options[] = {
	BC_OPT_COUNT(struct oops_opts, batch, "batch", .def = "1", .min = 1, .max = 1000,
		     .help = "getpgid() calls between two looks at the stop flag"),
};
static const struct bc_option oops_ok_options[] = {
	BC_OPT_INT(struct oops_opts, only, "only", .help = "an option of oops:ok alone"),
};

static int oops_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct oops *s = skel;

	(void)pt;
	s->rodata->bc_tgid = (__u32)getpid();
	s->rodata->getpgid_nr = SYS_getpgid;
	/* "ok" tries a candidate it rules out itself first. */
	if (bc_ctx_bench_priv(ctx) && pt->kind == BC_ATTACH_OTHER)
		return bc_attach_skip(ctx, "ruled out by the fixture");
	return 0;
}

/* What priv says the producer counts under (a typo for "thread-typo"). */
static int oops_producer(struct bc_ctx *ctx, struct bc_thread *t)
{
	const char *name = bc_ctx_bench_priv(ctx) ? bc_ctx_bench_priv(ctx) : "calls";
	struct bc_line_counter *calls = bc_thread_counter(ctx, t, name);
	const struct oops_opts *o = bc_ctx_opts(ctx);

	while (!bc_thread_should_stop(t)) {
		for (uint64_t i = 0; i < o->batch; i++)
			bc_getpgid_trigger();
		bc_counter_add(calls, o->batch);
	}
	return 0;
}

static int oops_measure(struct bc_ctx *ctx, double *values)
{
	return bc_metric_set(ctx, values, "ticks", 1);
}

static int oops_measure_typo(struct bc_ctx *ctx, double *values)
{
	return bc_metric_set(ctx, values, "tick", 1);
}

/* 2.2-style attach callbacks: a typo, no object, a positive return. */
static int oops_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt)
{
	const char *how = bc_ctx_bench_priv(ctx);
	struct oops *s = oops__open();
	int err;

	if (!s)
		return -errno;
	err = bc_bpf_autoload_only(s->obj, pt->prog_name);
	if (!err)
		err = oops__load(s);
	if (!err)
		err = oops__attach(s);
	if (!err && how && !strcmp(how, "seven"))
		err = 7;
	if (!err && how && !strcmp(how, "null"))
		err = bc_ctx_set_bpf_object(ctx, NULL);
	/* This fixture keeps nothing: a benchmark it attaches is not run. */
	oops__destroy(s);
	return err ? err : -EBUSY;
}

#define OOPS_POINT(kind_, name_, prog_) BC_ATTACH_POINT(kind_, name_, prog_)

static const struct bc_attach_point oops_points[] = {
	OOPS_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "oops_tp"),
	OOPS_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "oops_raw_tp"),
};
/* "ok": a candidate the plugin rules out, then the real ones. */
static const struct bc_attach_point oops_ok_points[] = {
	OOPS_POINT(BC_ATTACH_OTHER, "nowhere", "oops_tp"),
	OOPS_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "oops_tp"),
	OOPS_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "oops_raw_tp"),
};
/* One typo, first: the ladder must not fall through to the good one. */
static const struct bc_attach_point oops_typo_points[] = {
	OOPS_POINT(BC_ATTACH_TP, "tp/syscalls/sys_enter_getpgid", "oops_tpp"),
	OOPS_POINT(BC_ATTACH_RAW_TP, "raw_tp/sys_enter", "oops_raw_tp"),
};

static const struct bc_metric_desc oops_metrics[] = {
	BC_METRIC("hits", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	BC_METRIC("calls", "calls", BC_METRIC_COUNTER, .threads = true),
	BC_METRIC("ticks", "ticks", BC_METRIC_COUNTER),
	BC_METRIC("lat_ns", "ns", BC_METRIC_HISTOGRAM, .bpf = "lat_ns"),
};
static const struct bc_metric_desc oops_bpf_typo_metrics[] = {
	BC_METRIC("hits", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hitz"),
	BC_METRIC("calls", "calls", BC_METRIC_COUNTER, .threads = true),
};
static const struct bc_metric_desc oops_map_typo_metrics[] = {
	BC_METRIC("hits", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
	BC_METRIC("calls", "calls", BC_METRIC_COUNTER, .threads = true),
	BC_METRIC("lat_ns", "ns", BC_METRIC_HISTOGRAM, .bpf = "lat_n"),
};
static const struct bc_metric_desc oops_rodata_metrics[] = {
	BC_METRIC("hits", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "a_const"),
	BC_METRIC("calls", "calls", BC_METRIC_COUNTER, .threads = true),
};
static const struct bc_metric_desc oops_cb_metrics[] = {
	BC_METRIC("calls", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .threads = true),
};

#define OOPS_SKEL(name_, metrics_, points_, ...)                                      \
	BC_BENCH(name_, "a mistake: " name_, metrics_, BC_POINTS(points_), .skel = &oops_skel, \
		 .configure = oops_configure, .producer = oops_producer, __VA_ARGS__)
#define OOPS_CB(name_, how_)                                                          \
	BC_BENCH(name_, "a mistake: " name_, oops_cb_metrics, BC_POINTS(oops_points),     \
		 .attach = oops_attach, .producer = oops_producer, .priv = (how_))

static const struct bc_bench_desc oops_ok = OOPS_SKEL("ok", oops_metrics, oops_ok_points,
	.priv = "calls", .measure = oops_measure, BC_OPTIONS(oops_ok_options));
static const struct bc_bench_desc oops_prog_typo = OOPS_SKEL("prog-typo", oops_metrics,
	oops_typo_points, .measure = oops_measure);
static const struct bc_bench_desc oops_bpf_typo = OOPS_SKEL("bpf-typo", oops_bpf_typo_metrics,
	oops_points);
static const struct bc_bench_desc oops_map_typo = OOPS_SKEL("map-typo", oops_map_typo_metrics,
	oops_points);
static const struct bc_bench_desc oops_rodata = OOPS_SKEL("rodata", oops_rodata_metrics,
	oops_points);
static const struct bc_bench_desc oops_thread_typo = OOPS_SKEL("thread-typo", oops_metrics,
	oops_points, .priv = "call", .measure = oops_measure);
static const struct bc_bench_desc oops_measure_typo_b = OOPS_SKEL("measure-typo", oops_metrics,
	oops_points, .measure = oops_measure_typo);
static const struct bc_bench_desc oops_cb_typo = BC_BENCH("cb-typo", "a mistake: cb-typo",
	oops_cb_metrics, BC_POINTS(oops_typo_points), .attach = oops_attach,
	.producer = oops_producer);
static const struct bc_bench_desc oops_cb_null = OOPS_CB("cb-null-object", "null");
static const struct bc_bench_desc oops_cb_seven = OOPS_CB("cb-returns-7", "seven");

BENCHCORE_PLUGIN(.name = "oops", .version = "1.0",
		 .description = "test fixture: one plugin author's mistake per benchmark",
		 BC_OPTIONS(oops_options), .opts_size = sizeof(struct oops_opts),
		 .option_prefix = "oops-",
		 BC_BENCHES(&oops_ok, &oops_prog_typo, &oops_bpf_typo, &oops_map_typo, &oops_rodata,
			    &oops_thread_typo, &oops_measure_typo_b, &oops_cb_typo, &oops_cb_null,
			    &oops_cb_seven));
