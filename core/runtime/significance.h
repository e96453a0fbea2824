/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Tests of significance (significance.c) for `compare`.
 */
#ifndef BENCHCORE_SIGNIFICANCE_H
#define BENCHCORE_SIGNIFICANCE_H

#include <stdbool.h>
#include <stddef.h>

/* Significance of the difference between two sets of per-iteration samples
 * (significance.c). Fewer than BC_SIG_MIN_SAMPLES on either side: -EDOM. */
#define BC_SIG_MIN_SAMPLES 3

struct bc_sig_result {
	const char *test;	/* "welch" or "mann-whitney" */
	double statistic;	/* Welch: t of (b - a); Mann-Whitney: U of a */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided */
	bool valid;
};

double bc_incbeta(double a, double b, double x);	/* regularized I_x(a, b) */
double bc_student_t_p2(double t, double df);		/* P(|T| >= |t|) */
int bc_welch_test(const double *a, size_t na, const double *b, size_t nb,
		  struct bc_sig_result *out);
int bc_mann_whitney_test(const double *a, size_t na, const double *b, size_t nb,
			 struct bc_sig_result *out);
/* Welch's test from each side's mean, standard deviation and count, for
 * documents that carry no per-iteration samples. */
int bc_welch_test_stats(double ma, double sa, unsigned int na, double mb, double sb,
			unsigned int nb, struct bc_sig_result *out);

#endif /* BENCHCORE_SIGNIFICANCE_H */
