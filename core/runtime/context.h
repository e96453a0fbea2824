/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The run context (context.c): the one struct a plugin's callbacks get,
 * seen by plugins only through the accessors in <benchcore/benchcore.h>.
 */
#ifndef BENCHCORE_CONTEXT_H
#define BENCHCORE_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <benchcore/benchcore.h>

#include "config.h"
#include "exit_status.h"
#include "loader.h"

struct bc_hist;
struct bc_bpf_src;

/* One per run (and one per `list` probe). Defined here so that the runner
 * and the CLI can fill it; plugins only see the accessors. */
struct bc_ctx {
	const struct bc_config *cfg;
	const struct bc_bench *bench;
	unsigned int producer_cnt;
	unsigned int consumer_cnt;
	void *data;
	char attach_point[256];
	char reason[BC_REASON_LEN];
	bool unavailable;
	bool usage_error;
	/* Metrics and programs (hist.c, context.c, runner.c). */
	struct bc_hist **hists;		/* per metric; set for histograms */
	unsigned int hist_cnt;		/* entries of hists (the metric count) */
	struct bc_prog *progs;		/* bc_ctx_add_prog(), in call order */
	size_t prog_cnt;
	/* bc_ctx_set_bpf_object(), and what the metrics' `bpf` fields name
	 * in it (bpf_source.c): per metric, resolved after the attach. */
	struct bpf_object *bpf_obj;
	struct bc_bpf_src *bpf_srcs;
	/* bc_ctx_final_line(), printed after the Summary line. */
	char **final_lines;
	size_t final_cnt;
	/* 2.3: the skeleton the core opened for bc_bench_desc.skel (skel.c),
	 * and whether its programs are still attached. */
	void *skel;
	bool skel_attached;
	/* 2.3: per metric with `threads`, one line counter per thread
	 * (consumers first, then producers), and one sink per thread for a
	 * name that is no such metric (counters.c). thread_bug: the first
	 * such mistake's errno, which the sampler turns into a failed run. */
	struct bc_line_counter **thread_counts;
	struct bc_line_counter *thread_sinks;
	unsigned int thread_cnt;
	int thread_bug;
	/* 2.3: bc_attach_skip() in the current candidate, and its reason. */
	bool skipped;
	char skip_reason[256];
};

/* A program under test. The fd is the plugin's, valid until teardown();
 * the id outlives it (bpf_prog_get_fd_by_id), and the run counters read at
 * declaration are the baseline for later readings. */
struct bc_prog {
	int fd;
	char *role;
	char name[64];
	char type[32];		/* libbpf's name of the program type */
	uint32_t id;
	uint64_t run_cnt0, run_time_ns0;
};

/* Frees what the run attached to the ctx (histograms, programs). */
void bc_ctx_release(struct bc_ctx *ctx);
/* After teardown(): the programs' fds are the plugin's to close. */
void bc_ctx_progs_closed(struct bc_ctx *ctx);

void bc_ctx_init(struct bc_ctx *ctx, const struct bc_config *cfg, const struct bc_bench *bench);

/* Maps a callback's return value and the ctx's flags to an exit status. */
int bc_ctx_exit_status(const struct bc_ctx *ctx, int err);
/* A consistent copy of ctx->reason while threads may still be writing it. */
void bc_ctx_reason_copy(const struct bc_ctx *ctx, char *buf, size_t len);

#endif /* BENCHCORE_CONTEXT_H */
