// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Counters the core owns (ABI 2.3): a metric with `threads` is counted by
 * the benchmark's threads, each in its own line counter, and summed here
 * at every tick, so that no plugin keeps an array of per-thread counters
 * and no measure() writes their sum to a fixed index of `values`. Also the
 * one way measure() fills a metric: by its name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "counters.h"

/* "a, b, c": the benchmark's metrics that `pick` accepts. */
static void bc_metric_names(const struct bc_bench *b, bool (*pick)(const struct bc_metric_desc *),
			    char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (unsigned int m = 0; m < b->desc.metric_cnt && off < len; m++)
		if (pick(&b->metrics[m]))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						b->metrics[m].name);
	if (!buf[0])
		snprintf(buf, len, "none");
}

static bool bc_is_thread_counted(const struct bc_metric_desc *m)
{
	return m->threads;
}

/* What measure() fills: the rest is read by the core itself. */
static bool bc_is_measured(const struct bc_metric_desc *m)
{
	return !m->threads && !m->bpf && m->kind != BC_METRIC_HISTOGRAM;
}

static int bc_metric_find(const struct bc_bench *b, const char *name)
{
	for (unsigned int m = 0; name && m < b->desc.metric_cnt; m++)
		if (!strcmp(b->metrics[m].name, name))
			return (int)m;
	return -1;
}

bool bc_bench_has_thread_counts(const struct bc_bench *b)
{
	for (unsigned int m = 0; b && m < b->desc.metric_cnt; m++)
		if (b->metrics[m].threads)
			return true;
	return false;
}

int bc_thread_counts_alloc(struct bc_ctx *ctx)
{
	const struct bc_bench *b = ctx->bench;
	unsigned int n = ctx->producer_cnt + ctx->consumer_cnt;

	if (!bc_bench_has_thread_counts(b))
		return 0;
	ctx->thread_counts = calloc(b->desc.metric_cnt, sizeof(*ctx->thread_counts));
	ctx->thread_sinks = bc_line_counters_alloc(n);
	if (!ctx->thread_counts || !ctx->thread_sinks)
		return bc_error(ctx, -ENOMEM, "out of memory for the threads' counters");
	ctx->thread_cnt = n;
	for (unsigned int m = 0; m < b->desc.metric_cnt; m++) {
		if (!b->metrics[m].threads)
			continue;
		ctx->thread_counts[m] = bc_line_counters_alloc(n);
		if (!ctx->thread_counts[m])
			return bc_error(ctx, -ENOMEM, "out of memory for the threads' counters");
	}
	return 0;
}

void bc_thread_counts_free(struct bc_ctx *ctx)
{
	for (unsigned int m = 0; ctx->thread_counts && m < ctx->bench->desc.metric_cnt; m++)
		free(ctx->thread_counts[m]);
	free(ctx->thread_counts);
	free(ctx->thread_sinks);
	ctx->thread_counts = NULL;
	ctx->thread_sinks = NULL;
	ctx->thread_cnt = 0;
}

void bc_thread_counts_read(const struct bc_ctx *ctx, double *values)
{
	for (unsigned int m = 0; ctx->thread_counts && m < ctx->bench->desc.metric_cnt; m++)
		if (ctx->thread_counts[m])
			values[m] = (double)bc_line_counters_sum(ctx->thread_counts[m],
								 ctx->thread_cnt);
}

/* A thread's slot: consumers first, then producers, as the runner's. */
static int bc_thread_slot(const struct bc_ctx *ctx, const struct bc_thread *t)
{
	unsigned int slot;

	if (!t)
		return -1;
	slot = t->consumer ? t->idx : ctx->consumer_cnt + t->idx;
	if ((t->consumer && t->idx >= ctx->consumer_cnt) || slot >= ctx->thread_cnt)
		return -1;
	return (int)slot;
}

/* Any thread may get here at once: the first mistake's words stay. */
static void bc_thread_mistake(struct bc_ctx *ctx, int err)
{
	int none = 0;

	__atomic_compare_exchange_n(&ctx->thread_bug, &none, err, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
}

struct bc_line_counter *bc_thread_counter(struct bc_ctx *ctx, const struct bc_thread *t,
					  const char *metric)
{
	/* Where a mistaken thread counts: read by nobody. */
	static __thread struct bc_line_counter spare;
	const struct bc_bench *b = ctx ? ctx->bench : NULL;
	int m, slot;
	char names[256];

	if (!b)
		return &spare;
	m = bc_metric_find(b, metric);
	slot = bc_thread_slot(ctx, t);
	if (m >= 0 && b->metrics[m].threads && slot >= 0 && ctx->thread_counts &&
	    ctx->thread_counts[m])
		return &ctx->thread_counts[m][slot];
	bc_metric_names(b, bc_is_thread_counted, names, sizeof(names));
	if (m >= 0 && b->metrics[m].threads)
		bc_error(ctx, -EINVAL,
			 "%s: bc_thread_counter('%s') called outside a producer or consumer thread; call it from the thread that counts, with its struct bc_thread",
			 b->desc.name, metric);
	else
		bc_error(ctx, -ENOENT,
			 "%s: bc_thread_counter('%s'): no metric of that name is counted by the threads (those that are: %s); declare it with .threads = true or fix the name",
			 b->desc.name, metric ? metric : "(null)", names);
	bc_thread_mistake(ctx, m >= 0 && b->metrics[m].threads ? -EINVAL : -ENOENT);
	slot = bc_thread_slot(ctx, t);
	return slot >= 0 && ctx->thread_sinks ? &ctx->thread_sinks[slot] : &spare;
}

int bc_metric_set(struct bc_ctx *ctx, double *values, const char *metric, double value)
{
	const struct bc_bench *b = ctx ? ctx->bench : NULL;
	char names[256];
	int m;

	if (!b || !values)
		return -EINVAL;
	m = bc_metric_find(b, metric);
	if (m >= 0 && bc_is_measured(&b->metrics[m])) {
		values[m] = value;
		return 0;
	}
	bc_metric_names(b, bc_is_measured, names, sizeof(names));
	if (m >= 0)
		return bc_error(ctx, -EINVAL,
				"%s: bc_metric_set('%s'): the core reads that metric itself (%s); measure() fills only: %s",
				b->desc.name, metric,
				b->metrics[m].threads ? "its threads count it" :
				b->metrics[m].bpf ? "from BPF" : "a histogram", names);
	return bc_error(ctx, -ENOENT,
			"%s: bc_metric_set('%s'): the benchmark has no metric of that name; measure() fills: %s",
			b->desc.name, metric ? metric : "(null)", names);
}
