// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Is the difference between two sets of per-iteration samples larger than
 * their noise? Implemented here rather than pulled from a library: Welch's
 * t-test (unequal variances; p from the Student-t CDF through the regularized
 * incomplete beta function) and the Mann-Whitney U test (normal approximation
 * with tie and continuity corrections). Both are two-sided. `compare` uses
 * them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "significance.h"

/* Continued fraction of the incomplete beta function, evaluated with the
 * modified Lentz method; converges quickly for x < (a + 1) / (a + b + 2). */
#define BC_LENTZ_TINY 1e-300

/* One term of the continued fraction: updates Lentz's c and d and returns
 * the factor the running value is multiplied by. */
static double bc_lentz_step(double *c, double *d, double num)
{
	*d = 1.0 + num * *d;
	*c = 1.0 + num / *c;
	if (fabs(*d) < BC_LENTZ_TINY)
		*d = BC_LENTZ_TINY;
	if (fabs(*c) < BC_LENTZ_TINY)
		*c = BC_LENTZ_TINY;
	*d = 1.0 / *d;
	return *d * *c;
}

static double bc_incbeta_cf(double a, double b, double x)
{
	const double eps = 1e-15;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;
	int m;

	if (fabs(d) < BC_LENTZ_TINY)
		d = BC_LENTZ_TINY;
	d = 1.0 / d;
	h = d;
	for (m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, delta;

		/* even step */
		h *= bc_lentz_step(&c, &d, m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)));
		/* odd step */
		delta = bc_lentz_step(&c, &d, -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)));
		h *= delta;
		if (fabs(delta - 1.0) < eps)
			break;
	}
	return h;
}

double bc_incbeta(double a, double b, double x)
{
	double lfront;

	if (!(a > 0.0) || !(b > 0.0) || isnan(x))
		return NAN;
	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	/* The fraction converges on the side of the mode; use the symmetry
	 * I_x(a, b) = 1 - I_{1-x}(b, a) on the other side. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * bc_incbeta_cf(a, b, x) / a;
	return 1.0 - exp(lfront) * bc_incbeta_cf(b, a, 1.0 - x) / b;
}

double bc_student_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0.0))
		return NAN;
	if (isinf(t))
		return 0.0;
	/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	return bc_incbeta(df / 2.0, 0.5, df / (df + t * t));
}

static void bc_mean_var(const double *xs, size_t n, double *mean, double *var)
{
	double m = 0.0, ss = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		m += xs[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		ss += (xs[i] - m) * (xs[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (double)(n - 1) : 0.0;
}

/* Welch's t from each side's mean and squared standard error (variance / n). */
static void bc_welch_finish(double ma, double sa, size_t na, double mb, double sb, size_t nb,
			 struct bc_sig_result *out)
{
	double se2 = sa + sb;

	out->valid = true;
	if (se2 == 0.0) {
		/* No noise at all: any difference is exact, none is none. */
		out->df = (double)(na + nb - 2);
		out->statistic = mb == ma ? 0.0 : copysign(INFINITY, mb - ma);
		out->p = mb == ma ? 1.0 : 0.0;
		return;
	}
	out->statistic = (mb - ma) / sqrt(se2);
	/* Welch-Satterthwaite degrees of freedom */
	out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->p = bc_student_t_p2(out->statistic, out->df);
}

int bc_welch_test(const double *a, size_t na, const double *b, size_t nb,
		  struct bc_sig_result *out)
{
	double ma, va, mb, vb;

	memset(out, 0, sizeof(*out));
	out->test = "welch";
	if (na < BC_SIG_MIN_SAMPLES || nb < BC_SIG_MIN_SAMPLES)
		return -EDOM;
	bc_mean_var(a, na, &ma, &va);
	bc_mean_var(b, nb, &mb, &vb);
	bc_welch_finish(ma, va / (double)na, na, mb, vb / (double)nb, nb, out);
	return 0;
}

int bc_welch_test_stats(double ma, double sa, unsigned int na, double mb, double sb,
			unsigned int nb, struct bc_sig_result *out)
{
	double va = sa * sa / na, vb = sb * sb / nb;

	memset(out, 0, sizeof(*out));
	out->test = "welch";
	if (na < BC_SIG_MIN_SAMPLES || nb < BC_SIG_MIN_SAMPLES || isnan(va + vb))
		return -EDOM;
	bc_welch_finish(ma, va, na, mb, vb, nb, out);
	return 0;
}

struct bc_ranked {
	double x;
	int group;
};

static int bc_ranked_cmp(const void *pa, const void *pb)
{
	const struct bc_ranked *a = pa, *b = pb;

	return (a->x > b->x) - (a->x < b->x);
}

int bc_mann_whitney_test(const double *a, size_t na, const double *b, size_t nb,
			 struct bc_sig_result *out)
{
	size_t n = na + nb, i, j;
	double r1 = 0.0, ties = 0.0, u1, mu, sigma2, diff;
	struct bc_ranked *all;

	memset(out, 0, sizeof(*out));
	out->test = "mann-whitney";
	if (na < BC_SIG_MIN_SAMPLES || nb < BC_SIG_MIN_SAMPLES)
		return -EDOM;
	all = calloc(n, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (i = 0; i < na; i++)
		all[i] = (struct bc_ranked){ a[i], 0 };
	for (i = 0; i < nb; i++)
		all[na + i] = (struct bc_ranked){ b[i], 1 };
	qsort(all, n, sizeof(*all), bc_ranked_cmp);

	/* Tied values share the average of the ranks they span. */
	for (i = 0; i < n; i = j) {
		double rank, t;

		for (j = i + 1; j < n && all[j].x == all[i].x; j++)
			;
		rank = (double)(i + 1 + j) / 2.0;
		t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (all[k].group == 0)
				r1 += rank;
	}
	free(all);

	u1 = r1 - (double)na * (double)(na + 1) / 2.0;
	mu = (double)na * (double)nb / 2.0;
	sigma2 = (double)na * (double)nb / 12.0 *
		 ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
	out->statistic = u1;
	out->df = 0.0;
	out->valid = true;
	if (sigma2 <= 0.0) {
		/* Every sample has the same value. */
		out->p = 1.0;
		return 0;
	}
	/* continuity correction: U moves in steps of one */
	diff = fabs(u1 - mu) - 0.5;
	if (diff < 0.0)
		diff = 0.0;
	out->p = erfc(diff / sqrt(sigma2) / M_SQRT2);
	if (out->p > 1.0)
		out->p = 1.0;
	return 0;
}
