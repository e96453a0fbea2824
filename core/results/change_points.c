// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * E-divisive means, hierarchically: the split of a segment that maximises
 * the energy statistic
 *
 *   Q(t) = t (n - t) / n * (2/(t (n - t)) sum_{i < t <= j} |z_i - z_j|
 *                           - 1/C(t, 2) sum_{i < k < t} |z_i - z_k|
 *                           - 1/C(n - t, 2) sum_{t <= j < k} |z_j - z_k|)
 *
 * is tested against the same statistic over random permutations of the
 * segment (p = (1 + #{permuted max >= observed}) / (permutations + 1));
 * a split below the level is kept and both halves are searched again,
 * the segment with the largest statistic first, until a test fails.
 *
 * With alpha 1 (absolute differences) every row sum of the distance
 * matrix comes from ranks: a Fenwick tree over the values' ranks gives
 * each value's distance to those before it in O(log n), so one scan of
 * every split costs O(n log n) rather than O(n^2), and 199 permutations
 * of a 1,000-value series take milliseconds (docs/history.md).
 *
 * A permutation keeps each value's rank and row sum: they depend on the
 * value, not its place, so they are computed once per segment.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "change_points.h"

/* ------------------------------------------------------------ random */

/* splitmix64: small, fast, and the same sequence everywhere. */
static uint64_t bc_cp_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, k): the high half of a 64 x 64 product (Lemire). */
static size_t bc_cp_below(uint64_t *s, size_t k)
{
	return (size_t)(((unsigned __int128)bc_cp_next(s) * k) >> 64);
}

/* ------------------------------------------------------------ one segment */

/* A segment's values as a scan reads them: value, rank among the
 * segment's values (ties by place), and the sum of its distances to every
 * other value of the segment. */
struct bc_cp_val {
	double z;
	size_t rank;
	double row;
};

struct bc_cp_ws {
	struct bc_cp_val *v;	/* the segment, permuted in place */
	double *fcnt, *fsum;	/* Fenwick tree over ranks, 1-based */
	double *a, *b;		/* distances to the values before, after */
	size_t *order;
};

static void bc_fen_add(double *t, size_t n, size_t i, double x)
{
	for (i++; i <= n; i += i & -i)
		t[i] += x;
}

/* The sum of the entries of rank < i. */
static double bc_fen_sum(const double *t, size_t i)
{
	double s = 0;

	for (; i > 0; i -= i & -i)
		s += t[i];
	return s;
}

/* The split t (m <= t <= n - m) with the largest Q, and that Q. */
static double bc_cp_scan(struct bc_cp_ws *w, size_t n, size_t m, size_t *best_t)
{
	double total = 0, sum_in = 0, best = -INFINITY, left = 0, right = 0;

	memset(w->fcnt, 0, (n + 1) * sizeof(double));
	memset(w->fsum, 0, (n + 1) * sizeof(double));
	for (size_t k = 0; k < n; k++) {
		const struct bc_cp_val *x = &w->v[k];
		double c_lo = bc_fen_sum(w->fcnt, x->rank), s_lo = bc_fen_sum(w->fsum, x->rank);

		/* |z_k - z_i| over i < k: those ranked below, then above */
		w->a[k] = x->z * c_lo - s_lo + (sum_in - s_lo) - x->z * ((double)k - c_lo);
		w->b[k] = x->row - w->a[k];
		bc_fen_add(w->fcnt, n, x->rank, 1.0);
		bc_fen_add(w->fsum, n, x->rank, x->z);
		sum_in += x->z;
		total += w->a[k];
		right += w->b[k];
	}
	*best_t = 0;
	/* left: sum over pairs both before t; right: both at or after t */
	for (size_t t = 1; t + 1 < n; t++) {
		double nt = (double)t, nr = (double)(n - t), between, q;

		left += w->a[t - 1];
		right -= w->b[t - 1];
		if (t < m || n - t < m)
			continue;
		between = total - left - right;
		q = nt * nr / (double)n *
		    (2.0 * between / (nt * nr) - 2.0 * left / (nt * (nt - 1)) -
		     2.0 * right / (nr * (nr - 1)));
		if (q > best) {
			best = q;
			*best_t = t;
		}
	}
	return best;
}

static int bc_cp_cmp_val(const void *pa, const void *pb, void *arg)
{
	const double *z = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	if (z[a] != z[b])
		return z[a] < z[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The segment z[0..n) into w->v: values, ranks and row sums. */
static void bc_cp_load(struct bc_cp_ws *w, const double *z, size_t n)
{
	double prefix = 0, all = 0;

	for (size_t k = 0; k < n; k++) {
		w->order[k] = k;
		all += z[k];
	}
	qsort_r(w->order, n, sizeof(*w->order), bc_cp_cmp_val, (void *)z);
	for (size_t r = 0; r < n; r++) {
		size_t k = w->order[r];
		double s = z[k];

		w->v[k].z = s;
		w->v[k].rank = r;
		/* below: r values summing to prefix; above: the rest */
		w->v[k].row = s * (double)r - prefix + (all - prefix - s) - s * (double)(n - 1 - r);
		prefix += s;
	}
}

/* The seed of one segment's test: the same segment, the same shuffles. */
static uint64_t bc_cp_seed(uint64_t seed, size_t lo, size_t hi)
{
	uint64_t s = seed ^ ((uint64_t)lo * 0xd6e8feb86659fd93ULL) ^ ((uint64_t)hi << 32);

	bc_cp_next(&s);
	return s;
}

/* The permutation p-value of the segment's best split q. Stops as soon as
 * p can no longer fall below alpha (the point is then not kept). */
static double bc_cp_test(struct bc_cp_ws *w, size_t n, const struct bc_cp_opts *o, double q,
			 uint64_t seed)
{
	size_t at_least = 0, t;
	double stop = o->alpha * (double)(o->permutations + 1);

	for (unsigned int r = 0; r < o->permutations; r++) {
		for (size_t k = n - 1; k > 0; k--) {
			size_t j = bc_cp_below(&seed, k + 1);
			struct bc_cp_val tmp = w->v[k];

			w->v[k] = w->v[j];
			w->v[j] = tmp;
		}
		/* a tie is as extreme: q's own rounding must not make a point */
		if (bc_cp_scan(w, n, o->min_size, &t) >= q * (1.0 - 1e-12))
			at_least++;
		/* p can only grow from here: it is at least alpha */
		if ((double)(at_least + 1) >= stop)
			return (double)(at_least + 1) / (double)(o->permutations + 1);
	}
	return (double)(at_least + 1) / (double)(o->permutations + 1);
}

/* ------------------------------------------------------------ the search */

struct bc_cp_seg {
	size_t lo, hi;
	bool scanned;
	size_t t;		/* its best split, relative to lo; 0: none */
	double q;
};

static int bc_cp_cmp_point(const void *pa, const void *pb)
{
	const struct bc_cp_point *a = pa, *b = pb;

	return a->at < b->at ? -1 : a->at > b->at;
}

/* Each point's levels: the means between it and its neighbours. */
static void bc_cp_levels(const double *xs, size_t n, struct bc_cp_point *p, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++) {
		size_t lo = i ? p[i - 1].at : 0, hi = i + 1 < cnt ? p[i + 1].at : n;
		double sb = 0, sa = 0;

		for (size_t k = lo; k < p[i].at; k++)
			sb += xs[k];
		for (size_t k = p[i].at; k < hi; k++)
			sa += xs[k];
		p[i].before = sb / (double)(p[i].at - lo);
		p[i].after = sa / (double)(hi - p[i].at);
		p[i].change_pct = p[i].before == 0.0
					  ? NAN
					  : (p[i].after - p[i].before) / fabs(p[i].before) * 100.0;
	}
}

static void bc_cp_ws_free(struct bc_cp_ws *w)
{
	free(w->v);
	free(w->fcnt);
	free(w->fsum);
	free(w->a);
	free(w->b);
	free(w->order);
}

static int bc_cp_ws_alloc(struct bc_cp_ws *w, size_t n)
{
	memset(w, 0, sizeof(*w));
	w->v = malloc(n * sizeof(*w->v));
	w->fcnt = malloc((n + 1) * sizeof(double));
	w->fsum = malloc((n + 1) * sizeof(double));
	w->a = malloc(n * sizeof(double));
	w->b = malloc(n * sizeof(double));
	w->order = malloc(n * sizeof(size_t));
	if (w->v && w->fcnt && w->fsum && w->a && w->b && w->order)
		return 0;
	bc_cp_ws_free(w);
	return -ENOMEM;
}

/* The series standardised: Q scales with the values and the test does
 * not, but sums of a thousand distances between values of 1e9 lose the
 * digits a small step lives in. */
static double *bc_cp_standardise(const double *xs, size_t n, double *sd)
{
	double *z = malloc(n * sizeof(*z)), mean = 0, ss = 0;

	if (!z)
		return NULL;
	for (size_t k = 0; k < n; k++)
		mean += xs[k];
	mean /= (double)n;
	for (size_t k = 0; k < n; k++)
		ss += (xs[k] - mean) * (xs[k] - mean);
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
	for (size_t k = 0; k < n; k++)
		z[k] = *sd > 0 ? (xs[k] - mean) / *sd : 0.0;
	return z;
}

int bc_cp_find(const double *xs, size_t n, const struct bc_cp_opts *o, struct bc_cp_point **pts,
	       size_t *cnt)
{
	size_t off = n > BC_CP_MAX_SERIES ? n - BC_CP_MAX_SERIES : 0, seg_cnt = 1, pt_cnt = 0;
	struct bc_cp_seg *segs = NULL;
	struct bc_cp_point *p = NULL;
	struct bc_cp_ws w = { 0 };
	double *z = NULL, sd = 0;
	int ret = -ENOMEM;

	*pts = NULL;
	*cnt = 0;
	if (o->min_size < 2 || !o->permutations || !(o->alpha > 0 && o->alpha < 1))
		return -EINVAL;
	xs += off;
	n -= off;
	if (n < 2 * (size_t)o->min_size)
		return 0;
	z = bc_cp_standardise(xs, n, &sd);
	segs = malloc((n / o->min_size + 2) * sizeof(*segs));
	p = malloc((n / o->min_size + 1) * sizeof(*p));
	if (!z || !segs || !p || bc_cp_ws_alloc(&w, n))
		goto out;
	ret = 0;
	if (!(sd > 0))
		goto out;	/* a flat line moved nowhere */
	segs[0] = (struct bc_cp_seg){ .lo = 0, .hi = n };
	for (;;) {
		struct bc_cp_seg *best = NULL;
		size_t len, at;
		double pv;

		for (size_t s = 0; s < seg_cnt; s++) {
			struct bc_cp_seg *g = &segs[s];

			len = g->hi - g->lo;
			if (!g->scanned && len >= 2 * (size_t)o->min_size) {
				bc_cp_load(&w, z + g->lo, len);
				g->q = bc_cp_scan(&w, len, o->min_size, &g->t);
			}
			g->scanned = true;
			if (g->t && g->q > 0 && (!best || g->q > best->q))
				best = g;
		}
		if (!best)
			break;
		len = best->hi - best->lo;
		bc_cp_load(&w, z + best->lo, len);
		pv = bc_cp_test(&w, len, o, best->q, bc_cp_seed(o->seed, best->lo + off, best->hi + off));
		if (pv >= o->alpha)
			break;
		at = best->lo + best->t;
		p[pt_cnt++] = (struct bc_cp_point){ .at = at + off, .q = best->q * sd, .p = pv };
		/* the segment becomes its two halves, each searched again */
		segs[seg_cnt++] = (struct bc_cp_seg){ .lo = at, .hi = best->hi };
		*best = (struct bc_cp_seg){ .lo = best->lo, .hi = at };
	}
	if (pt_cnt) {
		qsort(p, pt_cnt, sizeof(*p), bc_cp_cmp_point);
		for (size_t i = 0; i < pt_cnt; i++)
			p[i].at -= off;
		bc_cp_levels(xs, n, p, pt_cnt);
		for (size_t i = 0; i < pt_cnt; i++)
			p[i].at += off;
		*pts = p;
		*cnt = pt_cnt;
		p = NULL;
	}
out:
	bc_cp_ws_free(&w);
	free(z);
	free(segs);
	free(p);
	return ret;
}
