// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The judging of `benchcore check`; check_report.c writes its table.
 *
 * One entry a side (--baseline latest, or a label with one entry) is
 * judged as compare judges two runs: Welch's test from each entry's mean,
 * spread and count (its seconds, or its runs when it was repeated).
 * Several baseline entries (a window, a label saved more than once) are
 * each one sample, as compare treats repeated runs, and the new entry is
 * one more: Student's t for a new observation with their spread. Either
 * way the verdict is compare's (bc_change_verdict()), and a significant
 * change for the worse regresses only past the budget.
 *
 * A baseline entry measured elsewhere is never judged against: the walk
 * takes the comparable entries (comparable.h, the one rule) and, when
 * none is, says why the nearest is not.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comparable.h"
#include "compare.h"
#include "store.h"
#include "store_doc.h"

static const char *const bc_check_status_names[BC_CHECK_STATUS_CNT] = {
	[BC_CHECK_PASS] = "pass",
	[BC_CHECK_REGRESSED] = "regressed",
	[BC_CHECK_NOT_COMPARABLE] = "not comparable",
	[BC_CHECK_NO_BASELINE] = "no baseline",
};

const char *bc_check_status_name(enum bc_check_status st)
{
	return st < BC_CHECK_STATUS_CNT ? bc_check_status_names[st] : "?";
}

static void bc_check_row_free(struct bc_check_row *r)
{
	free(r->bench);
	free(r->options);
	free(r->metric);
	free(r->unit);
	free(r->run_id);
	free(r->date);
	free(r->label);
	free(r->host);
	free(r->cpu_model);
	free(r->kernel);
	free(r->accelerator);
	free(r->base_run_id);
	free(r->base_date);
	free(r->base_label);
}

void bc_check_free(struct bc_check *c)
{
	for (size_t i = 0; i < c->cnt; i++)
		bc_check_row_free(&c->rows[i]);
	free(c->rows);
	free(c->slots);
	memset(c, 0, sizeof(*c));
}

/* NULL stays NULL (unknown); *ok false when out of memory. */
static char *bc_dup(const char *s, bool *ok)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	*ok &= d != NULL;
	return d;
}

static bool bc_eq(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* ------------------------------------------------- the newest entries */

static uint64_t bc_check_hash(const char *bench, const char *options)
{
	const char *parts[] = { bench, options };
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t k = 0; k < 2; k++) {
		for (const char *p = parts[k] ? parts[k] : ""; *p; p++)
			h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
		h = (h ^ 0x1f) * 0x100000001b3ULL;
	}
	return h;
}

static int bc_check_rehash(struct bc_check *c)
{
	size_t cnt = c->slot_cnt ? c->slot_cnt * 2 : 64;
	size_t *slots = malloc(cnt * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++)
		slots[i] = SIZE_MAX;
	for (size_t r = 0; r < c->cnt; r++) {
		size_t i = bc_check_hash(c->rows[r].bench, c->rows[r].options) & (cnt - 1);

		while (slots[i] != SIZE_MAX)
			i = (i + 1) & (cnt - 1);
		slots[i] = r;
	}
	free(c->slots);
	c->slots = slots;
	c->slot_cnt = cnt;
	return 0;
}

struct bc_check_walk {
	struct bc_check *c;
	const char *glob;	/* the filter's bench, when a pattern */
	int err;
};

/* Entries come newest first: the first of a configuration is its newest,
 * the rest cost a hash lookup. */
static int bc_check_candidate(const struct bc_store_row *r, void *cookie)
{
	struct bc_check_walk *w = cookie;
	struct bc_check *c = w->c;
	struct bc_check_row *row;
	bool ok = true;
	size_t i;

	if (!r->k.metric || !isfinite(r->k.mean) || !r->k.bench || !r->k.date)
		return 0;	/* measured nothing */
	if (w->glob && fnmatch(w->glob, r->k.bench, 0))
		return 0;
	c->entries++;
	if (c->cnt * 2 >= c->slot_cnt && bc_check_rehash(c))
		goto nomem;
	i = bc_check_hash(r->k.bench, r->k.options) & (c->slot_cnt - 1);
	for (; c->slots[i] != SIZE_MAX; i = (i + 1) & (c->slot_cnt - 1)) {
		row = &c->rows[c->slots[i]];
		if (bc_eq(row->bench, r->k.bench) && bc_eq(row->options, r->k.options))
			return 0;
	}
	if (c->cnt == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 32;
		struct bc_check_row *rows = realloc(c->rows, cap * sizeof(*rows));

		if (!rows)
			goto nomem;
		c->rows = rows;
		c->cap = cap;
	}
	row = &c->rows[c->cnt];
	memset(row, 0, sizeof(*row));
	row->bench = bc_dup(r->k.bench, &ok);
	row->options = bc_dup(r->k.options ? r->k.options : "", &ok);
	row->metric = bc_dup(r->k.metric, &ok);
	row->unit = bc_dup(r->k.unit, &ok);
	row->higher_better = r->k.higher_better;
	row->id = r->id;
	row->run_id = bc_dup(r->k.run_id, &ok);
	row->date = bc_dup(r->k.date, &ok);
	row->label = bc_dup(r->k.label, &ok);
	row->host = bc_dup(r->k.host, &ok);
	row->cpu_model = bc_dup(r->k.cpu_model, &ok);
	row->kernel = bc_dup(r->k.kernel_release, &ok);
	row->accelerator = r->k.accelerator ? bc_dup(r->k.accelerator, &ok) : NULL;
	row->now = (struct bc_cmp_summary){ .mean = r->k.mean, .sd = r->k.stddev, .n = r->k.n,
					    .by_runs = r->k.by_runs };
	c->slots[i] = c->cnt++;
	if (!ok)
		goto nomem;
	return 0;
nomem:
	w->err = -ENOMEM;
	return 1;
}

/* ---------------------------------------------------------- baselines */

struct bc_base_walk {
	const struct bc_check_opts *o;
	struct bc_check_row *row;
	size_t want;
	double *means;
	size_t cnt;
	struct bc_cmp_summary first;	/* the newest baseline entry */
	bool skipped;			/* a baseline entry measured elsewhere */
	bool nomem;
};

static int bc_base_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_base_walk *w = cookie;
	struct bc_check_row *row = w->row;
	struct bc_run_place base = { .host = r->k.host, .cpu_model = r->k.cpu_model,
				     .kernel_release = r->k.kernel_release,
				     .accelerator = r->k.accelerator };
	struct bc_run_place run = { .host = row->host, .cpu_model = row->cpu_model,
				    .kernel_release = row->kernel, .accelerator = row->accelerator };
	char why[sizeof(row->why) - 32];
	bool ok = true;

	if (r->id == row->id || !r->k.metric || !isfinite(r->k.mean) || !r->k.date)
		return 0;
	/* before it: an entry of the same second saved after it is not */
	if (w->o->baseline != BC_CHECK_LABEL && !strcmp(r->k.date, row->date) && r->id > row->id)
		return 0;
	if (!bc_runs_comparable(&base, &run, why, sizeof(why))) {
		if (!w->skipped)
			snprintf(row->why, sizeof(row->why), "not comparable: %s", why);
		w->skipped = true;
		return 0;
	}
	w->means[w->cnt++] = r->k.mean;
	if (w->cnt == 1) {
		w->first = (struct bc_cmp_summary){ .mean = r->k.mean, .sd = r->k.stddev,
						    .n = r->k.n, .by_runs = r->k.by_runs };
		row->base_run_id = bc_dup(r->k.run_id, &ok);
		row->base_date = bc_dup(r->k.date, &ok);
		row->base_label = bc_dup(r->k.label, &ok);
		if (!ok) {
			w->nomem = true;
			return 1;
		}
	}
	return w->cnt == w->want;
}

static const char *bc_samples_word(bool a_runs, bool b_runs)
{
	if (a_runs && b_runs)
		return "runs";
	return a_runs || b_runs ? "runs and seconds" : "seconds";
}

/* The judgement of one row whose baseline w found. */
static void bc_check_judge(const struct bc_check_opts *o, struct bc_check_row *row,
			   const struct bc_base_walk *w, const struct bc_cmp_summary *now)
{
	const struct bc_threshold *th = &row->th;
	bool worse;

	row->base_cnt = w->cnt;
	if (!w->cnt) {
		if (w->skipped) {
			row->status = BC_CHECK_NOT_COMPARABLE;
			return;	/* row->why says so */
		}
		row->status = BC_CHECK_NO_BASELINE;
		if (o->baseline == BC_CHECK_LABEL)
			snprintf(row->why, sizeof(row->why),
				 "no baseline: no entry labelled '%.200s' of this configuration", o->label);
		else
			snprintf(row->why, sizeof(row->why),
				 "no baseline: no earlier entry of this configuration");
		return;
	}
	row->why[0] = '\0';
	row->status = BC_CHECK_NOT_COMPARABLE;
	/* what the table shows of a pair it cannot judge */
	row->c.new_mean = now->mean;
	for (size_t i = 0; i < w->cnt; i++)
		row->c.base_mean += w->means[i] / (double)w->cnt;
	row->c.change_pct = row->c.base_mean == 0.0
				    ? NAN
				    : (now->mean - row->c.base_mean) / fabs(row->c.base_mean) * 100.0;
	row->c.ci_low_pct = row->c.ci_high_pct = row->c.p = NAN;
	row->c.n_base = w->cnt == 1 ? w->first.n : w->cnt;
	row->c.n_new = w->cnt == 1 ? now->n : 1;
	if (w->cnt == 1) {
		row->samples = bc_samples_word(w->first.by_runs, now->by_runs);
		if (w->first.n < th->min_samples || now->n < th->min_samples) {
			snprintf(row->why, sizeof(row->why),
				 "not comparable: too few samples (baseline %zu, this run %zu %s; %u a side needed)",
				 w->first.n, now->n, row->samples, th->min_samples);
			return;
		}
		bc_compare_summaries(&w->first, now, th->alpha, &row->c);
	} else {
		row->samples = "entries";
		if (w->cnt < th->min_samples) {
			snprintf(row->why, sizeof(row->why),
				 "not comparable: too few samples (%zu baseline entries; %u needed)", w->cnt,
				 th->min_samples);
			return;
		}
		bc_compare_one_new(w->means, w->cnt, now->mean, th->alpha, &row->c);
	}
	if (!row->c.valid) {
		snprintf(row->why, sizeof(row->why), "not comparable: too few samples to judge");
		return;
	}
	if (isnan(row->c.change_pct)) {
		snprintf(row->why, sizeof(row->why), "not comparable: the baseline's mean is 0");
		return;
	}
	worse = row->c.change_pct != 0.0 && (row->c.change_pct > 0) != row->higher_better;
	row->verdict = bc_change_verdict(true, row->c.significant, row->c.change_pct,
					 row->higher_better);
	if (row->c.significant && worse && fabs(row->c.change_pct) > th->max_regression_pct) {
		row->status = BC_CHECK_REGRESSED;
		return;
	}
	row->status = BC_CHECK_PASS;
	if (row->c.significant && worse)
		row->verdict = "within budget";
}

static int bc_check_baseline(struct bc_store *s, const struct bc_check_opts *o,
			     struct bc_check_row *row, double *means, char *err, size_t err_len)
{
	struct bc_store_filter q = {
		.bench = row->bench,
		.options = row->options,
		.ok_only = true,
		.metric = o->filter->metric,
		.newest_first = true,
		.limit = BC_CHECK_SCAN_MAX,
	};
	struct bc_base_walk w = { .o = o, .row = row, .means = means };
	int ret;

	switch (o->baseline) {
	case BC_CHECK_LABEL:
		q.label = o->label;
		w.want = o->window ? o->window : BC_CHECK_MAX_BASELINE;
		break;
	case BC_CHECK_WINDOW:
		q.until = row->date;
		w.want = o->window;
		break;
	default:
		q.until = row->date;
		w.want = 1;
		break;
	}
	bc_thresholds_for(o->thresholds, row->bench, row->metric, &row->th);
	ret = bc_store_each_figure(s, &q, bc_base_row, &w, err, err_len);
	if (w.nomem) {
		snprintf(err, err_len, "check: out of memory");
		return -ENOMEM;
	}
	if (ret < 0)
		return ret;
	bc_check_judge(o, row, &w, &row->now);
	return 0;
}

static int bc_check_cmp_row(const void *pa, const void *pb)
{
	const struct bc_check_row *a = pa, *b = pb;
	int d = strcmp(a->bench, b->bench);

	return d ? d : strcmp(a->options, b->options);
}

static bool bc_is_glob(const char *s)
{
	return s && strpbrk(s, "*?[");
}

int bc_check_run(struct bc_store *s, const struct bc_check_opts *o, struct bc_check *c, char *err,
		 size_t err_len)
{
	struct bc_store_filter q = *o->filter;
	struct bc_check_walk w = { .c = c };
	size_t want = o->baseline == BC_CHECK_WINDOW ? o->window
		      : o->baseline == BC_CHECK_LABEL && o->window ? o->window
		      : BC_CHECK_MAX_BASELINE;
	double *means;
	int ret;

	memset(c, 0, sizeof(*c));
	if (bc_is_glob(q.bench)) {
		w.glob = q.bench;
		q.bench = NULL;
	}
	q.ok_only = true;
	q.newest_first = true;
	q.with_doc = false;
	q.limit = 0;
	ret = bc_store_each_figure(s, &q, bc_check_candidate, &w, err, err_len);
	if (w.err) {
		snprintf(err, err_len, "check: out of memory");
		return w.err;
	}
	if (ret < 0)
		return ret;
	means = malloc((want ? want : 1) * sizeof(*means));
	if (!means) {
		snprintf(err, err_len, "check: out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->cnt && !ret; i++) {
		ret = bc_check_baseline(s, o, &c->rows[i], means, err, err_len);
		if (!ret)
			c->counts[c->rows[i].status]++;
	}
	free(means);
	if (ret)
		return ret;
	if (c->cnt)
		qsort(c->rows, c->cnt, sizeof(*c->rows), bc_check_cmp_row);
	free(c->slots);
	c->slots = NULL;
	c->slot_cnt = 0;
	return 0;
}
