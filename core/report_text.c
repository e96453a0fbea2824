// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Human-readable progress and summary lines. The layouts keep the kernel
 * runner's line shapes (tools/testing/selftests/bpf/bench.c) character for
 * character where it has one, so scripts that parse its output keep working;
 * what benchcore adds (warm-up marks, the spread, CPU cost, the attach point)
 * comes on its own lines or at the end of a line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_internal.h"

#define BC_PM "\xc2\xb1" /* U+00B1 PLUS-MINUS SIGN, as the kernel runner prints it */
#define BC_MILLION 1000000.0

static const struct bc_metric_summary bc_no_summary;

static int bc_metric_idx(const struct bc_run_result *res, const char *name)
{
	unsigned int i;

	if (!res->bench || !res->bench->metrics)
		return -1;
	for (i = 0; i < res->bench->desc.metric_cnt; i++)
		if (res->bench->metrics[i].name && !strcmp(res->bench->metrics[i].name, name))
			return (int)i;
	return -1;
}

/* A metric a layout names but the benchmark lacks reads as zero. */
static double bc_rate(const struct bc_run_result *res, const struct bc_iteration *it,
		      const char *name)
{
	int i = bc_metric_idx(res, name);

	return i < 0 ? 0 : it->rates[i];
}

static const struct bc_metric_summary *bc_sum(const struct bc_run_result *res, const char *name)
{
	int i = bc_metric_idx(res, name);

	return i < 0 || !res->summary ? &bc_no_summary : &res->summary[i];
}

static unsigned int bc_prod_cnt(const struct bc_run_result *res)
{
	/* Per-producer rates of a producer-less benchmark: per whole run. */
	return res->producer_cnt ? res->producer_cnt : 1;
}

/* Events in the interval, from its rate: what the false-hits lines count. */
static long bc_events(const struct bc_run_result *res, const struct bc_iteration *it,
		      const char *name)
{
	return lround(bc_rate(res, it, name) * it->length_sec);
}

static int bc_layout(const struct bc_run_result *res)
{
	return res->bench ? (int)res->bench->desc.layout : BC_LAYOUT_CUSTOM;
}

/* Counter rates in M/s, gauges as they are with their unit. */
static void bc_generic_iter(FILE *f, const struct bc_run_result *res, const struct bc_iteration *it)
{
	unsigned int i, cnt = res->bench ? res->bench->desc.metric_cnt : 0;

	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *m = &res->bench->metrics[i];

		if (m->kind == BC_METRIC_GAUGE)
			fprintf(f, "%s%s %8.3lf %s", i ? ", " : "", m->name, it->rates[i],
				m->unit ? m->unit : "");
		else
			fprintf(f, "%s%s %8.3lfM/s", i ? ", " : "", m->name,
				it->rates[i] / BC_MILLION);
	}
}

static void bc_generic_summary(FILE *f, const struct bc_run_result *res)
{
	unsigned int i, cnt = res->bench ? res->bench->desc.metric_cnt : 0;

	fprintf(f, "Summary: ");
	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *m = &res->bench->metrics[i];
		const struct bc_metric_summary *s = &res->summary[i];

		if (m->kind == BC_METRIC_GAUGE)
			fprintf(f, "%s%s %8.3lf " BC_PM " %5.3lf %s", i ? ", " : "", m->name,
				s->mean, s->stddev, m->unit ? m->unit : "");
		else
			fprintf(f, "%s%s %8.3lf " BC_PM " %5.3lfM/s", i ? ", " : "", m->name,
				s->mean / BC_MILLION, s->stddev / BC_MILLION);
	}
	fprintf(f, "\n");
}

static const char *bc_warm_mark(const struct bc_iteration *it)
{
	return it->warmup ? " [warm-up]" : "";
}

void bc_report_text_iter(FILE *f, const struct bc_run_result *res, size_t iter_idx)
{
	const struct bc_iteration *it;
	double hits, drops, ct;
	char buf[1024];

	if (!res || iter_idx >= res->iter_cnt)
		return;
	it = &res->iters[iter_idx];

	if (bc_layout(res) == BC_LAYOUT_GRACE_PERIOD) {
		/* The kernel's tasks-trace lines: per grace period, no drift. */
		ct = bc_rate(res, it, "gp_ct");
		fprintf(f, "Iter %zu\t avg tasks_trace grace period latency\t%lf ns%s\n", iter_idx,
			bc_rate(res, it, "gp_ns") / ct, bc_warm_mark(it));
		fprintf(f, "Iter %zu\t avg ticks per tasks_trace grace period\t%lf%s\n", iter_idx,
			bc_rate(res, it, "stime") / ct, bc_warm_mark(it));
		return;
	}

	fprintf(f, "Iter %3zu (%7.3lfus): ", iter_idx, it->drift_us);
	hits = bc_rate(res, it, "hits") / BC_MILLION;
	drops = bc_rate(res, it, "drops") / BC_MILLION;
	switch (bc_layout(res)) {
	case BC_LAYOUT_HITS_DROPS:
		fprintf(f, "hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, "
			"total operations %8.3lfM/s", hits, hits / bc_prod_cnt(res), drops,
			hits + drops);
		break;
	case BC_LAYOUT_OPS:
		fprintf(f, "hits %8.3lfM/s (%7.3lfM/prod)", hits, hits / bc_prod_cnt(res));
		break;
	case BC_LAYOUT_LOCAL_STORAGE:
		fprintf(f, "hits %8.3lfM/s ", hits);
		fprintf(f, "important_hits %8.3lfM/s",
			bc_rate(res, it, "important_hits") / BC_MILLION);
		break;
	case BC_LAYOUT_FALSE_HITS: {
		long fh = bc_events(res, it, "false_hits");
		long total = fh + bc_events(res, it, "hits") + bc_events(res, it, "drops");

		fprintf(f, "%ld false hits of %ld total operations. Percentage = %2.2f %%", fh,
			total, total ? (double)fh / (double)total * 100 : 0.0);
		break;
	}
	default:
		if (res->bench && res->bench->desc.format_iter && res->ctx &&
		    !res->bench->desc.format_iter(res->ctx, it->rates, buf, sizeof(buf))) {
			buf[strcspn(buf, "\n")] = '\0';
			fputs(buf, f);
		} else {
			bc_generic_iter(f, res, it);
		}
		break;
	}
	fprintf(f, "%s\n", bc_warm_mark(it));
}

/* Summary of a series derived per iteration (e.g. hits + drops). */
static void bc_derived(const struct bc_run_result *res, struct bc_metric_summary *out,
		       double (*f)(const struct bc_run_result *, const struct bc_iteration *, bool *))
{
	double *xs = malloc((res->iter_cnt ? res->iter_cnt : 1) * sizeof(*xs));
	size_t i, n = 0;

	if (!xs) {
		bc_stats_compute(NULL, 0, out);
		return;
	}
	for (i = 0; i < res->iter_cnt; i++) {
		bool ok = true;
		double v;

		if (res->iters[i].warmup)
			continue;
		v = f(res, &res->iters[i], &ok);
		if (ok)
			xs[n++] = v;
	}
	bc_stats_compute(xs, n, out);
	free(xs);
}

static double bc_total_ops(const struct bc_run_result *res, const struct bc_iteration *it,
			   bool *ok)
{
	(void)ok;
	return bc_rate(res, it, "hits") + bc_rate(res, it, "drops");
}

/* An interval without a finished grace period has no latency to report. */
static double bc_gp_latency_us(const struct bc_run_result *res, const struct bc_iteration *it,
			       bool *ok)
{
	double ct = bc_rate(res, it, "gp_ct");

	*ok = ct > 0;
	return *ok ? bc_rate(res, it, "gp_ns") / 1000.0 / ct : 0;
}

static double bc_gp_ticks(const struct bc_run_result *res, const struct bc_iteration *it,
			  bool *ok)
{
	double ct = bc_rate(res, it, "gp_ct");

	*ok = ct > 0;
	return *ok ? bc_rate(res, it, "stime") / ct : 0;
}

static void bc_summary_line(FILE *f, const struct bc_run_result *res)
{
	const struct bc_metric_summary *h = bc_sum(res, "hits"), *d = bc_sum(res, "drops");
	double prod = bc_prod_cnt(res), hm = h->mean / BC_MILLION, hs = h->stddev / BC_MILLION;
	struct bc_metric_summary t;
	char buf[1024];
	double *means, *stddevs;
	unsigned int i, cnt;

	switch (bc_layout(res)) {
	case BC_LAYOUT_HITS_DROPS:
		bc_derived(res, &t, bc_total_ops);
		fprintf(f, "Summary: hits %8.3lf " BC_PM " %5.3lfM/s (%7.3lfM/prod), ", hm, hs,
			hm / prod);
		fprintf(f, "drops %8.3lf " BC_PM " %5.3lfM/s, ", d->mean / BC_MILLION,
			d->stddev / BC_MILLION);
		fprintf(f, "total operations %8.3lf " BC_PM " %5.3lfM/s\n", t.mean / BC_MILLION,
			t.stddev / BC_MILLION);
		return;
	case BC_LAYOUT_OPS:
		fprintf(f, "Summary: throughput %8.3lf " BC_PM " %5.3lf M ops/s (%7.3lfM ops/prod), ",
			hm, hs, hm / prod);
		fprintf(f, "latency %8.3lf ns/op\n", 1000.0 / hm * prod);
		return;
	case BC_LAYOUT_LOCAL_STORAGE: {
		const struct bc_metric_summary *ih = bc_sum(res, "important_hits");

		fprintf(f, "Summary: hits throughput %8.3lf " BC_PM " %5.3lf M ops/s, ", hm, hs);
		fprintf(f, "hits latency %8.3lf ns/op, ", 1000.0 / hm);
		fprintf(f, "important_hits throughput %8.3lf " BC_PM " %5.3lf M ops/s\n",
			ih->mean / BC_MILLION, ih->stddev / BC_MILLION);
		return;
	}
	case BC_LAYOUT_FALSE_HITS: {
		long fh = 0, total = 0;
		size_t k;

		for (k = 0; k < res->iter_cnt; k++) {
			const struct bc_iteration *it = &res->iters[k];
			long x = bc_events(res, it, "false_hits");

			if (it->warmup)
				continue;
			fh += x;
			total += x + bc_events(res, it, "hits") + bc_events(res, it, "drops");
		}
		fprintf(f, "Summary: %ld false hits of %ld total operations. ", fh, total);
		fprintf(f, "Percentage =  %2.2f %%\n", total ? (double)fh / (double)total * 100 : 0.0);
		return;
	}
	case BC_LAYOUT_GRACE_PERIOD:
		bc_derived(res, &t, bc_gp_latency_us);
		fprintf(f, "SUMMARY tasks_trace grace period latency");
		fprintf(f, "\tavg %.3lf us\tstddev %.3lf us\n", t.mean, t.stddev);
		bc_derived(res, &t, bc_gp_ticks);
		fprintf(f, "SUMMARY ticks per tasks_trace grace period");
		fprintf(f, "\tavg %.3lf\tstddev %.3lf\n", t.mean, t.stddev);
		return;
	default:
		break;
	}

	cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	if (res->bench && res->bench->desc.format_summary && res->ctx && cnt) {
		means = calloc(cnt, sizeof(*means));
		stddevs = calloc(cnt, sizeof(*stddevs));
		if (means && stddevs) {
			for (i = 0; i < cnt; i++) {
				means[i] = res->summary[i].mean;
				stddevs[i] = res->summary[i].stddev;
			}
			if (!res->bench->desc.format_summary(res->ctx, means, stddevs, buf,
							     sizeof(buf))) {
				buf[strcspn(buf, "\n")] = '\0';
				fprintf(f, "Summary: %s\n", buf);
				free(means);
				free(stddevs);
				return;
			}
		}
		free(means);
		free(stddevs);
	}
	bc_generic_summary(f, res);
}

/* What the kernel runner never showed: min, median and max per metric. */
static void bc_spread_line(FILE *f, const struct bc_run_result *res)
{
	unsigned int i, cnt = res->bench ? res->bench->desc.metric_cnt : 0;

	/* Grace-period counters are only meaningful as the ratios above. */
	if (!cnt || bc_layout(res) == BC_LAYOUT_GRACE_PERIOD)
		return;
	fprintf(f, "Spread over %u iteration%s:", res->summary[0].n, res->summary[0].n == 1 ? "" : "s");
	for (i = 0; i < cnt; i++) {
		const struct bc_metric_desc *m = &res->bench->metrics[i];
		const struct bc_metric_summary *s = &res->summary[i];

		if (m->kind == BC_METRIC_GAUGE)
			fprintf(f, "%s %s min %.3lf, median %.3lf, max %.3lf %s", i ? ";" : "",
				m->name, s->min, s->median, s->max, m->unit ? m->unit : "");
		else
			fprintf(f, "%s %s min %.3lf, median %.3lf, max %.3lf M/s", i ? ";" : "",
				m->name, s->min / BC_MILLION, s->median / BC_MILLION,
				s->max / BC_MILLION);
	}
	fprintf(f, "\n");
}

/* Wall-clock rates hide a consumer that keeps up by spinning a whole CPU. */
static void bc_cpu_line(FILE *f, const struct bc_run_result *res)
{
	unsigned int i, cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	double cpus = res->prod_cpu_util.mean + res->cons_cpu_util.mean;

	fprintf(f, "CPU: producers %.3f CPUs (%.3f user, %.3f sys), "
		"consumers %.3f CPUs (%.3f user, %.3f sys)",
		res->prod_cpu_util.mean, res->prod_user_util.mean, res->prod_sys_util.mean,
		res->cons_cpu_util.mean, res->cons_user_util.mean, res->cons_sys_util.mean);
	/* The first counter is the benchmark's headline event (hits). */
	for (i = 0; i < cnt; i++) {
		if (res->bench->metrics[i].kind != BC_METRIC_COUNTER)
			continue;
		if (cpus > 0)
			fprintf(f, "; %s per CPU-second %.3fM", res->bench->metrics[i].name,
				res->summary[i].mean / cpus / BC_MILLION);
		else
			fprintf(f, "; %s per CPU-second n/a (no CPU time measured)",
				res->bench->metrics[i].name);
		break;
	}
	fprintf(f, "\n");
}

void bc_report_warnings(FILE *f, const struct bc_run_result *res)
{
	size_t i;

	for (i = 0; i < res->warning_cnt; i++)
		fprintf(f, "benchcore: warning: %s\n", res->warnings[i]);
}

void bc_report_text_summary(FILE *f, const struct bc_run_result *res)
{
	const char *ap = res->ctx ? bc_ctx_attach_point(res->ctx) : NULL;
	unsigned int n = res->summary && res->bench && res->bench->desc.metric_cnt ?
		res->summary[0].n : res->prod_cpu_util.n;

	if (!n) {
		fprintf(f, "Summary: no measured iterations (%zu warm-up%s)\n", res->iter_cnt,
			res->interrupted ? ", interrupted" : "");
	} else {
		bc_summary_line(f, res);
		bc_spread_line(f, res);
		bc_cpu_line(f, res);
	}
	if (ap)
		fprintf(f, "Attach point: %s\n", ap);
	fflush(f);
	bc_report_warnings(stderr, res);
}
