// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Statistics over independent runs (repstats.h). The t quantile inverts the
 * Student-t tail that significance.c computes for `compare`, so both
 * commands share one distribution function.
 */
#include <limits.h>
#include <math.h>

#include "significance.h"
#include "repstats.h"

/* Bisection to well below the printed precision of any interval. */
#define BC_REP_T_ITERS 100
#define BC_REP_MAX_NEEDED 100000u

double bc_rep_t_quantile(double p, double df)
{
	double tail, lo = 0.0, hi = 1.0;

	if (!(p > 0.0 && p < 1.0) || !(df > 0.0) || isinf(df))
		return NAN;
	if (p == 0.5)
		return 0.0;
	if (p < 0.5)
		return -bc_rep_t_quantile(1.0 - p, df);
	/* P(|T| >= t) falls from 1 at t = 0: find where it is 2 (1 - p). */
	tail = 2.0 * (1.0 - p);
	while (bc_student_t_p2(hi, df) > tail && hi < 1e12)
		hi *= 2.0;
	for (int i = 0; i < BC_REP_T_ITERS; i++) {
		double mid = (lo + hi) / 2.0;

		if (bc_student_t_p2(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

void bc_rep_stats_compute(const double *xs, size_t n, struct bc_rep_stats *out)
{
	double sum = 0.0, ss = 0.0;
	size_t k = 0;

	out->n = 0;
	out->mean = out->stddev = out->cv_pct = out->t = out->ci_half = out->ci_pct = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(xs[i]))
			continue;
		sum += xs[i];
		k++;
	}
	out->n = (unsigned int)k;
	if (!k)
		return;
	out->mean = sum / (double)k;
	if (k < 2)
		return;
	for (size_t i = 0; i < n; i++)
		if (isfinite(xs[i]))
			ss += (xs[i] - out->mean) * (xs[i] - out->mean);
	out->stddev = sqrt(ss / (double)(k - 1));
	out->t = bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0, (double)(k - 1));
	out->ci_half = out->t * out->stddev / sqrt((double)k);
	if (out->mean != 0.0) {
		out->cv_pct = out->stddev / fabs(out->mean) * 100.0;
		out->ci_pct = out->ci_half / fabs(out->mean) * 100.0;
	} else if (out->stddev == 0.0) {
		/* Every run measured exactly zero: nothing is uncertain. */
		out->ci_pct = 0.0;
	}
}

const char *bc_rep_end_name(enum bc_rep_end end)
{
	switch (end) {
	case BC_REP_RUNNING:
		return NULL;
	case BC_REP_END_COUNT:
		return "repeat";
	case BC_REP_END_PRECISION:
		return "precision";
	case BC_REP_END_MAX_REPEAT:
		return "max-repeat";
	case BC_REP_END_MAX_TIME:
		return "max-time";
	case BC_REP_END_INTERRUPTED:
		return "interrupted";
	case BC_REP_END_FAILED:
		return "failed";
	}
	return NULL;
}

enum bc_rep_end bc_rep_rule_next(const struct bc_rep_rule *r, unsigned int runs,
				 const struct bc_rep_stats *watched, double elapsed_sec,
				 double next_run_sec)
{
	unsigned int least = r->repeat > BC_REP_MIN_RUNS ? r->repeat : BC_REP_MIN_RUNS;

	if (!(r->precision_pct > 0.0))
		return runs >= r->repeat ? BC_REP_END_COUNT : BC_REP_RUNNING;
	if (runs >= least && watched && watched->n >= 2 && watched->ci_pct <= r->precision_pct)
		return BC_REP_END_PRECISION;
	if (runs >= r->max_repeat)
		return BC_REP_END_MAX_REPEAT;
	if (r->max_time_sec > 0.0 && elapsed_sec + next_run_sec > r->max_time_sec)
		return BC_REP_END_MAX_TIME;
	return BC_REP_RUNNING;
}

/* Is n runs a side enough (repstats.h)? Monotone in n: the t quantiles
 * fall as the degrees of freedom grow. */
static bool bc_rep_enough(unsigned int n, double ratio, double alpha, double power)
{
	double df = 2.0 * n - 2.0;
	double z = bc_rep_t_quantile(1.0 - alpha / 2.0, df) + bc_rep_t_quantile(power, df);

	return (double)n >= 2.0 * z * z * ratio * ratio;
}

unsigned int bc_rep_runs_needed(double cv_pct, double change_pct, double alpha, double power)
{
	unsigned int lo = 2, hi = BC_REP_MAX_NEEDED;
	double ratio;

	if (!(cv_pct >= 0.0) || !(change_pct > 0.0) || !(alpha > 0.0 && alpha < 1.0) ||
	    !(power > 0.0 && power < 1.0) || isinf(cv_pct) || isinf(change_pct))
		return 0;
	ratio = cv_pct / change_pct;
	if (!bc_rep_enough(hi, ratio, alpha, power))
		return UINT_MAX;
	/* The smallest enough n, by bisection: lo is not enough unless it is 2. */
	if (bc_rep_enough(lo, ratio, alpha, power))
		return lo;
	while (hi - lo > 1) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (bc_rep_enough(mid, ratio, alpha, power))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
