// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Every statistic benchcore reports is computed here, from the per-interval
 * samples the runner recorded; reporters only render what this file made.
 * Derived figures (figures.c) use bc_stats_compute() for theirs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "loader.h"
#include "result.h"

static int bc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void bc_stats_compute(const double *xs, size_t n, struct bc_metric_summary *out)
{
	double sum = 0, sq = 0, *sorted;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = (unsigned int)n;
	if (!n) {
		/* Nothing measured: NaN, which the JSON writer turns into null,
		 * rather than a zero that reads like a measurement. */
		out->mean = out->stddev = out->min = out->median = out->max = NAN;
		return;
	}

	out->min = out->max = xs[0];
	for (i = 0; i < n; i++) {
		sum += xs[i];
		if (xs[i] < out->min)
			out->min = xs[i];
		if (xs[i] > out->max)
			out->max = xs[i];
	}
	out->mean = sum / (double)n;

	/* Sample stddev (n - 1), as the kernel runner reports; a single sample
	 * has no spread to estimate, shown as 0 there too. */
	if (n > 1) {
		for (i = 0; i < n; i++)
			sq += (xs[i] - out->mean) * (xs[i] - out->mean);
		out->stddev = sqrt(sq / (double)(n - 1));
	}

	sorted = malloc(n * sizeof(*sorted));
	if (!sorted) {
		out->median = NAN;
		return;
	}
	memcpy(sorted, xs, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), bc_cmp_double);
	if (n % 2)
		out->median = sorted[n / 2];
	else
		out->median = (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
}

/* Summary of f(iteration) over the measured (non-warm-up) iterations. */
static void bc_summarise_series(const struct bc_run_result *res, double *buf,
				double (*f)(const struct bc_iteration *it, size_t arg), size_t arg,
				struct bc_metric_summary *out)
{
	size_t i, n = 0;

	for (i = 0; i < res->iter_cnt; i++) {
		double x;

		if (res->iters[i].warmup)
			continue;
		/* An interval without a value (a ratio whose divisor did not
		 * move, a histogram's rate) is no sample, not a zero. */
		x = f(&res->iters[i], arg);
		if (!isnan(x))
			buf[n++] = x;
	}
	bc_stats_compute(buf, n, out);
}

static double bc_it_rate(const struct bc_iteration *it, size_t m)
{
	return it->rates[m];
}

static double bc_per_sec(double cpu_sec, const struct bc_iteration *it)
{
	return it->length_sec > 0 ? cpu_sec / it->length_sec : 0;
}

static double bc_it_prod_user(const struct bc_iteration *it, size_t unused)
{
	(void)unused;
	return bc_per_sec(it->prod_user_sec, it);
}

static double bc_it_prod_sys(const struct bc_iteration *it, size_t unused)
{
	(void)unused;
	return bc_per_sec(it->prod_sys_sec, it);
}

static double bc_it_prod(const struct bc_iteration *it, size_t unused)
{
	(void)unused;
	return bc_per_sec(it->prod_user_sec + it->prod_sys_sec, it);
}

static double bc_it_cons_user(const struct bc_iteration *it, size_t unused)
{
	(void)unused;
	return bc_per_sec(it->cons_user_sec, it);
}

static double bc_it_cons_sys(const struct bc_iteration *it, size_t unused)
{
	(void)unused;
	return bc_per_sec(it->cons_sys_sec, it);
}

static double bc_it_cons(const struct bc_iteration *it, size_t unused)
{
	(void)unused;
	return bc_per_sec(it->cons_user_sec + it->cons_sys_sec, it);
}

void bc_stats_summarise(struct bc_run_result *res)
{
	unsigned int m, metric_cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	double *buf;

	free(res->summary);
	res->summary = NULL;
	buf = malloc((res->iter_cnt ? res->iter_cnt : 1) * sizeof(*buf));
	if (metric_cnt)
		res->summary = calloc(metric_cnt, sizeof(*res->summary));
	if (!buf || (metric_cnt && !res->summary)) {
		free(buf);
		free(res->summary);
		res->summary = NULL;
		return;
	}

	for (m = 0; m < metric_cnt; m++)
		bc_summarise_series(res, buf, bc_it_rate, m, &res->summary[m]);
	bc_summarise_series(res, buf, bc_it_prod, 0, &res->prod_cpu_util);
	bc_summarise_series(res, buf, bc_it_prod_user, 0, &res->prod_user_util);
	bc_summarise_series(res, buf, bc_it_prod_sys, 0, &res->prod_sys_util);
	bc_summarise_series(res, buf, bc_it_cons, 0, &res->cons_cpu_util);
	bc_summarise_series(res, buf, bc_it_cons_user, 0, &res->cons_user_util);
	bc_summarise_series(res, buf, bc_it_cons_sys, 0, &res->cons_sys_util);
	free(buf);
}

/* Iterations past the warm-up: what a summary covers. */
size_t bc_stats_measured_cnt(const struct bc_run_result *res)
{
	size_t i, n = 0;

	for (i = 0; i < res->iter_cnt; i++)
		n += !res->iters[i].warmup;
	return n;
}
