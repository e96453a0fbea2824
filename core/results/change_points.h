/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Where a series moved (change_points.c): E-divisive means (Matteson and
 * James's energy statistic with alpha 1, as Apache Otava, formerly Hunter,
 * and MongoDB's signal processing use it) with a permutation test, on a
 * plain array of numbers. Seeded: the same series and options give the
 * same points on every machine and every run. No I/O.
 */
#ifndef BENCHCORE_CHANGE_POINTS_H
#define BENCHCORE_CHANGE_POINTS_H

#include <stddef.h>
#include <stdint.h>

/* The documented settings (docs/history.md gives their miss and false
 * rates, which tests/store/test_change_points.c measures). */
#define BC_CP_ALPHA 0.01
#define BC_CP_PERMUTATIONS 199
#define BC_CP_MIN_SIZE 4
#define BC_CP_SEED 0x62636370ULL	/* "bccp" */
/* The newest values of a series a search looks at: the cost grows as
 * n log n per permutation, and a point older than this many entries is
 * history the report and `check` no longer act on. */
#define BC_CP_MAX_SERIES 10000

struct bc_cp_opts {
	double alpha;			/* a point is kept while its p < alpha */
	unsigned int permutations;	/* per test; p >= 1 / (permutations + 1) */
	unsigned int min_size;		/* fewest values each side of a point (>= 2) */
	uint64_t seed;
};
#define BC_CP_OPTS_DEFAULT                                                                 \
	((struct bc_cp_opts){ .alpha = BC_CP_ALPHA, .permutations = BC_CP_PERMUTATIONS, \
			      .min_size = BC_CP_MIN_SIZE, .seed = BC_CP_SEED })

struct bc_cp_point {
	size_t at;		/* xs[at] is the first value of the new level */
	double q;		/* the E-divisive statistic of the split, in the series' units */
	double p;		/* the permutation test's p-value */
	/* the means of the levels either side (up to the neighbouring
	 * points) and the move between them, in % of the level before */
	double before, after, change_pct;
};

/*
 * The change points of xs[0..n) in index order into *pts (malloc'd, NULL
 * when none), *cnt of them. Non-finite values are the caller's to leave
 * out. 0, -EINVAL for options outside their domain, or -ENOMEM.
 */
int bc_cp_find(const double *xs, size_t n, const struct bc_cp_opts *o, struct bc_cp_point **pts,
	       size_t *cnt);

#endif /* BENCHCORE_CHANGE_POINTS_H */
