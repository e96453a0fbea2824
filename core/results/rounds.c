// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One run per benchmark, configuration and label, made of the same run in
 * each round: each judged figure's runs are the rounds' means (what
 * compare tests when both sides have them), its mean their mean. The
 * pooled run borrows everything else from the first round's document
 * (names, context, declarations), which outlives it here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rounds.h"
#include "run_doc.h"
#include "runtime/repstats.h"

int bc_rounds_add(struct bc_rounds *r, const char *text, size_t len, char *err, size_t err_len)
{
	struct bc_doc_run *run;

	if (r->doc_cnt == r->doc_cap) {
		size_t cap = r->doc_cap ? r->doc_cap * 2 : 16;
		struct bc_doc_run **docs = realloc(r->docs, cap * sizeof(*docs));
		const char **labels;

		if (!docs)
			goto nomem;
		r->docs = docs;
		labels = realloc(r->doc_labels, cap * sizeof(*labels));
		if (!labels)
			goto nomem;
		r->doc_labels = labels;
		r->doc_cap = cap;
	}
	run = bc_doc_run_parse(text, len, err, err_len);
	if (!run)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	r->docs[r->doc_cnt] = run;
	/* a suite's row name, which the store wrote into the document */
	r->doc_labels[r->doc_cnt++] = run->label;
	return 0;
nomem:
	snprintf(err, err_len, "out of memory");
	return -ENOMEM;
}

static bool bc_same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static bool bc_same_group(const struct bc_doc_run *a, const char *la, const struct bc_doc_run *b,
			  const char *lb)
{
	return bc_same(a->bench, b->bench) && bc_same(a->config, b->config) && bc_same(la, lb);
}

static void bc_pooled_free(struct bc_doc_run *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->metric_cnt; i++) {
		free(p->metrics[i].runs);
		free(p->metrics[i].samples);
	}
	free(p->metrics);
	free(p);
}

/* One figure over the rounds that have it. */
static int bc_pool_metric(const struct bc_doc_metric *m, struct bc_doc_run *const *rounds,
			  size_t cnt, struct bc_doc_metric *out)
{
	struct bc_rep_stats rs;
	size_t samples = 0;

	*out = *m;
	out->runs = calloc(cnt, sizeof(*out->runs));
	out->run_cnt = 0;
	for (size_t k = 0; k < cnt; k++) {
		const struct bc_doc_metric *x = bc_doc_find(rounds[k], m->name);

		if (x && isfinite(x->mean))
			samples += x->sample_cnt;
	}
	out->samples = samples ? calloc(samples, sizeof(*out->samples)) : NULL;
	out->sample_cnt = 0;
	if (!out->runs || (samples && !out->samples)) {
		free(out->runs);
		free(out->samples);
		out->runs = out->samples = NULL;
		return -ENOMEM;
	}
	for (size_t k = 0; k < cnt; k++) {
		const struct bc_doc_metric *x = bc_doc_find(rounds[k], m->name);

		if (!x || !isfinite(x->mean))
			continue;
		out->runs[out->run_cnt++] = x->mean;
		memcpy(out->samples + out->sample_cnt, x->samples, x->sample_cnt * sizeof(double));
		out->sample_cnt += x->sample_cnt;
	}
	bc_rep_stats_compute(out->runs, out->run_cnt, &rs);
	out->mean = rs.mean;
	out->stats.mean = rs.mean;
	out->stats.stddev = rs.stddev;
	out->stats.n = rs.n;
	out->agg = (struct bc_doc_agg){ .has = true, .n = rs.n, .mean = rs.mean,
					.stddev = rs.stddev, .cv_pct = rs.cv_pct,
					.ci95_half = rs.ci_half, .ci95_pct = rs.ci_pct };
	return 0;
}

static struct bc_doc_run *bc_pool(struct bc_doc_run *const *rounds, size_t cnt)
{
	const struct bc_doc_run *first = rounds[0];
	struct bc_doc_run *p = malloc(sizeof(*p));

	if (!p)
		return NULL;
	*p = *first;
	/* borrowed, never freed through p */
	p->owned = NULL;
	p->owned_cnt = p->owned_cap = 0;
	p->json = NULL;
	p->metrics = calloc(first->metric_cnt + 1, sizeof(*p->metrics));
	p->metric_cnt = 0;
	if (!p->metrics) {
		free(p);
		return NULL;
	}
	p->repeated = true;
	for (size_t i = 0; i < first->metric_cnt; i++) {
		const struct bc_doc_metric *m = &first->metrics[i];
		struct bc_doc_metric *o = &p->metrics[p->metric_cnt];

		if (!m->judged) {
			*o = *m;
			o->runs = o->samples = NULL;
			o->run_cnt = o->sample_cnt = 0;
		} else if (bc_pool_metric(m, rounds, cnt, o)) {
			bc_pooled_free(p);
			return NULL;
		}
		p->metric_cnt++;
	}
	return p;
}

int bc_rounds_pool(struct bc_rounds *r)
{
	struct bc_doc_run **group = calloc(r->doc_cnt + 1, sizeof(*group));
	bool *taken = calloc(r->doc_cnt + 1, sizeof(*taken));
	int ret = 0;

	r->runs = calloc(r->doc_cnt + 1, sizeof(*r->runs));
	r->labels = calloc(r->doc_cnt + 1, sizeof(*r->labels));
	r->pooled = calloc(r->doc_cnt + 1, sizeof(*r->pooled));
	if (!group || !taken || !r->runs || !r->labels || !r->pooled) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < r->doc_cnt; i++) {
		size_t n = 0;

		if (taken[i])
			continue;
		for (size_t j = i; j < r->doc_cnt; j++) {
			if (taken[j] || !bc_same_group(r->docs[i], r->doc_labels[i], r->docs[j],
						       r->doc_labels[j]))
				continue;
			taken[j] = true;
			group[n++] = r->docs[j];
		}
		r->labels[r->cnt] = r->doc_labels[i];
		/* one round: its own seconds are its samples, as for any run */
		if (n == 1) {
			r->runs[r->cnt++] = r->docs[i];
			continue;
		}
		r->pooled[r->cnt] = bc_pool(group, n);
		if (!r->pooled[r->cnt]) {
			ret = -ENOMEM;
			goto out;
		}
		r->runs[r->cnt] = r->pooled[r->cnt];
		r->cnt++;
	}
out:
	free(group);
	free(taken);
	return ret;
}

void bc_rounds_side(const struct bc_rounds *r, const char *name, struct bc_cmp_side *side)
{
	side->name = name;
	side->runs = r->runs;
	side->labels = r->labels;
	side->cnt = r->cnt;
}

void bc_rounds_free(struct bc_rounds *r)
{
	for (size_t i = 0; r->pooled && i < r->cnt; i++)
		bc_pooled_free(r->pooled[i]);
	for (size_t i = 0; i < r->doc_cnt; i++)
		bc_doc_run_free(r->docs[i]);
	free(r->docs);
	free(r->doc_labels);
	free(r->runs);
	free(r->labels);
	free(r->pooled);
	memset(r, 0, sizeof(*r));
}
