// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * History's change points: where each configuration's series of entries
 * moved, found by change_points.c. The series is every entry of the
 * configuration that ended well, oldest first, each entry one value (its
 * figure's mean), whatever its label, kernel or machine: the filters say
 * which entries make a series (`--host`, `--kernel`), as they do for
 * history's groups. A series of more than BC_CP_MAX_SERIES entries is
 * searched in its newest ones.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history_cp.h"
#include "report_table.h"
#include "runtime/json.h"
#include "store_doc.h"
#include "words.h"

const char *bc_cp_direction(const struct bc_cp_point *p, bool higher_better)
{
	return (p->after > p->before) == higher_better ? "improved" : "regressed";
}

void bc_cp_history_free(struct bc_cp_history *h)
{
	for (size_t i = 0; i < h->cnt; i++) {
		struct bc_cp_series *s = &h->s[i];

		for (size_t k = 0; k < s->cnt; k++) {
			free(s->e[k].run_id);
			free(s->e[k].date);
			free(s->e[k].label);
		}
		free(s->e);
		free(s->pts);
		free(s->options);
		free(s->metric);
		free(s->unit);
	}
	free(h->s);
	memset(h, 0, sizeof(*h));
}

static bool bc_same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

struct bc_cp_walk {
	struct bc_cp_history *h;
	/* the series by (options, metric): a sweep's configurations alternate
	 * in date order, so each row finds its series in a hash */
	size_t *slots;
	size_t slot_cnt;
	bool nomem;
};

static uint64_t bc_cp_hash(const char *options, const char *metric)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = options ? options : ""; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
	h = (h ^ 0x1f) * 0x100000001b3ULL;
	for (const char *p = metric ? metric : ""; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
	return h;
}

static int bc_cp_rehash(struct bc_cp_walk *w)
{
	size_t cnt = w->slot_cnt ? w->slot_cnt * 2 : 64;
	size_t *slots = malloc(cnt * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++)
		slots[i] = SIZE_MAX;
	for (size_t k = 0; k < w->h->cnt; k++) {
		size_t i = bc_cp_hash(w->h->s[k].options, w->h->s[k].metric) & (cnt - 1);

		while (slots[i] != SIZE_MAX)
			i = (i + 1) & (cnt - 1);
		slots[i] = k;
	}
	free(w->slots);
	w->slots = slots;
	w->slot_cnt = cnt;
	return 0;
}

/* The series of the row's configuration and figure, made when new. */
static struct bc_cp_series *bc_cp_series_of(struct bc_cp_walk *w, const struct bc_store_row *r)
{
	struct bc_cp_history *h = w->h;
	struct bc_cp_series *s;
	size_t i;

	if (h->cnt * 2 >= w->slot_cnt && bc_cp_rehash(w))
		return NULL;
	i = bc_cp_hash(r->k.options, r->k.metric) & (w->slot_cnt - 1);
	for (; w->slots[i] != SIZE_MAX; i = (i + 1) & (w->slot_cnt - 1)) {
		s = &h->s[w->slots[i]];
		if (bc_same(s->options, r->k.options) && bc_same(s->metric, r->k.metric))
			return s;
	}
	if (h->cnt == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 8;
		struct bc_cp_series *ss = realloc(h->s, cap * sizeof(*ss));

		if (!ss)
			return NULL;
		h->s = ss;
		h->cap = cap;
	}
	s = &h->s[h->cnt];
	memset(s, 0, sizeof(*s));
	w->slots[i] = h->cnt++;
	s->options = strdup(r->k.options ? r->k.options : "");
	s->metric = strdup(r->k.metric);
	s->unit = r->k.unit ? strdup(r->k.unit) : NULL;
	s->higher_better = r->k.higher_better;
	if (!s->options || !s->metric || (r->k.unit && !s->unit))
		return NULL;
	return s;
}

static int bc_cp_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_cp_walk *w = cookie;
	struct bc_cp_series *s;
	struct bc_cp_entry *e;

	if (!r->k.metric || !isfinite(r->k.mean) || !r->k.date)
		return 0;	/* measured nothing */
	s = bc_cp_series_of(w, r);
	if (!s)
		goto nomem;
	if (s->cnt == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct bc_cp_entry *es = realloc(s->e, cap * sizeof(*es));

		if (!es)
			goto nomem;
		s->e = es;
		s->cap = cap;
	}
	e = &s->e[s->cnt];
	*e = (struct bc_cp_entry){ .id = r->id, .mean = r->k.mean };
	e->run_id = r->k.run_id ? strdup(r->k.run_id) : NULL;
	e->date = strdup(r->k.date);
	e->label = r->k.label ? strdup(r->k.label) : NULL;
	s->cnt++;
	w->h->entries++;
	if ((r->k.run_id && !e->run_id) || !e->date || (r->k.label && !e->label))
		goto nomem;
	return 0;
nomem:
	w->nomem = true;
	return 1;
}

int bc_cp_history_collect(struct bc_store *s, const struct bc_store_filter *f,
			  const struct bc_cp_opts *o, struct bc_cp_history *h, char *err,
			  size_t err_len)
{
	struct bc_store_filter q = *f;
	struct bc_cp_walk w = { .h = h };
	double *xs = NULL;
	int ret;

	memset(h, 0, sizeof(*h));
	h->opts = *o;
	q.with_doc = false;
	q.ok_only = true;
	q.newest_first = false;
	ret = bc_store_each_figure(s, &q, bc_cp_row, &w, err, err_len);
	free(w.slots);
	if (w.nomem)
		goto nomem;
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < h->cnt; i++) {
		struct bc_cp_series *sr = &h->s[i];
		double *grown = realloc(xs, (sr->cnt ? sr->cnt : 1) * sizeof(*xs));

		if (!grown)
			goto nomem;
		xs = grown;
		for (size_t k = 0; k < sr->cnt; k++)
			xs[k] = sr->e[k].mean;
		ret = bc_cp_find(xs, sr->cnt, o, &sr->pts, &sr->pt_cnt);
		if (ret == -ENOMEM)
			goto nomem;
		if (ret) {
			snprintf(err, err_len, "history: change points: invalid settings");
			free(xs);
			return ret;
		}
	}
	free(xs);
	return 0;
nomem:
	free(xs);
	snprintf(err, err_len, "history: out of memory");
	return -ENOMEM;
}

/* ------------------------------------------------------------ printing */

static void bc_cp_fmt_mean(double v, const char *unit, char *buf, size_t len)
{
	size_t ulen = unit ? strlen(unit) : 0;

	/* as history prints its means */
	if (ulen > 2 && !strcmp(unit + ulen - 2, "/s") && fabs(v) >= 1e5)
		snprintf(buf, len, "%.3fM %s", v / 1e6, unit);
	else
		snprintf(buf, len, "%.4g%s%s", v, unit ? " " : "", unit ? unit : "");
}

/* For a terminal: what a store says is written with its control
 * characters escaped (words.h), as history's table does. */
static void bc_cp_text(FILE *f, const char *bench, const struct bc_cp_history *h)
{
	char sb[512], so[1024], sm[256], su[64], sd[64], sl[256];

	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_cp_series *s = &h->s[i];
		const char *unit = s->unit ? bc_text_safe(s->unit, su, sizeof(su)) : NULL;

		fprintf(f, "%s%s  %s\n  %s (%s is better): %zu entries, %zu change point%s\n", i ? "\n" : "",
			bc_text_safe(bench, sb, sizeof(sb)),
			*s->options ? bc_text_safe(s->options, so, sizeof(so)) : "(default options)",
			bc_text_safe(s->metric, sm, sizeof(sm)), s->higher_better ? "higher" : "lower",
			s->cnt, s->pt_cnt, s->pt_cnt == 1 ? "" : "s");
		if (!s->pt_cnt)
			continue;
		fprintf(f, "  %7s  %-20s  %-16s %18s %18s %9s %8s  %s\n", "entry", "date", "label",
			"before", "after", "change", "p", "verdict");
		for (size_t k = 0; k < s->pt_cnt; k++) {
			const struct bc_cp_point *p = &s->pts[k];
			const struct bc_cp_entry *e = &s->e[p->at];
			char before[48], after[48];

			bc_cp_fmt_mean(p->before, unit, before, sizeof(before));
			bc_cp_fmt_mean(p->after, unit, after, sizeof(after));
			fprintf(f, "  %7lld  %-20s  %-16s %18s %18s %+8.2f%% %8.3g  %s\n", e->id,
				bc_text_safe(e->date, sd, sizeof(sd)),
				e->label ? bc_text_safe(e->label, sl, sizeof(sl)) : "-", before, after,
				p->change_pct, p->p, bc_cp_direction(p, s->higher_better));
		}
	}
	fprintf(f, "\n(E-divisive means, %u permutations a test, p < %g, at least %u entries a level; docs/history.md)\n",
		h->opts.permutations, h->opts.alpha, h->opts.min_size);
}

static void bc_cp_csv(FILE *f, const char *bench, const struct bc_cp_history *h)
{
	fputs("benchmark,configuration,metric,unit,entry,run_id,date,label,index,before,after,change_pct,p_value,verdict\n",
	      f);
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_cp_series *s = &h->s[i];

		for (size_t k = 0; k < s->pt_cnt; k++) {
			const struct bc_cp_point *p = &s->pts[k];
			const struct bc_cp_entry *e = &s->e[p->at];

			bc_csv_write(f, bench);
			fputc(',', f);
			bc_csv_write(f, s->options);
			fputc(',', f);
			bc_csv_write(f, s->metric);
			fputc(',', f);
			bc_csv_write(f, s->unit);
			fprintf(f, ",%lld,", e->id);
			bc_csv_write(f, e->run_id);
			fputc(',', f);
			bc_csv_write(f, e->date);
			fputc(',', f);
			bc_csv_write(f, e->label);
			fprintf(f, ",%zu,%.17g,%.17g,%.6f,%.6g,%s\n", p->at, p->before, p->after,
				p->change_pct, p->p, bc_cp_direction(p, s->higher_better));
		}
	}
}

static void bc_cp_markdown(FILE *f, const char *bench, const struct bc_cp_history *h)
{
	fputs("| benchmark | configuration | metric | entry | date | label | before | after | change | p | verdict |\n"
	      "|---|---|---|--:|---|---|--:|--:|--:|--:|---|\n", f);
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_cp_series *s = &h->s[i];

		for (size_t k = 0; k < s->pt_cnt; k++) {
			const struct bc_cp_point *p = &s->pts[k];
			const struct bc_cp_entry *e = &s->e[p->at];
			char before[48], after[48];

			bc_cp_fmt_mean(p->before, s->unit, before, sizeof(before));
			bc_cp_fmt_mean(p->after, s->unit, after, sizeof(after));
			fputs("| ", f);
			bc_md_write(f, bench);
			fputs(" | ", f);
			bc_md_write(f, s->options);
			fputs(" | ", f);
			bc_md_write(f, s->metric);
			fprintf(f, " | %lld | ", e->id);
			bc_md_write(f, e->date);
			fputs(" | ", f);
			bc_md_write(f, e->label);
			fprintf(f, " | %s | %s | %+.2f%% | %.3g | %s |\n", before, after, p->change_pct, p->p,
				bc_cp_direction(p, s->higher_better));
		}
	}
}

static void bc_cp_json(FILE *f, const char *bench, const struct bc_cp_history *h)
{
	struct bc_json_writer w;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "kind", "change_points");
	bc_jw_str(&w, "benchmark", bench);
	bc_jw_str(&w, "method", "e-divisive means");
	bc_jw_uint(&w, "permutations", h->opts.permutations);
	bc_jw_num(&w, "alpha", h->opts.alpha);
	bc_jw_uint(&w, "min_size", h->opts.min_size);
	bc_jw_uint(&w, "seed", h->opts.seed);
	bc_jw_uint(&w, "entries", h->entries);
	bc_jw_arr_begin(&w, "series");
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_cp_series *s = &h->s[i];

		bc_jw_obj_begin(&w, NULL);
		bc_jw_str(&w, "configuration", s->options);
		bc_jw_str(&w, "metric", s->metric);
		bc_jw_str(&w, "unit", s->unit);
		bc_jw_bool(&w, "higher_is_better", s->higher_better);
		bc_jw_uint(&w, "entries", s->cnt);
		bc_jw_str(&w, "first_date", s->cnt ? s->e[0].date : NULL);
		bc_jw_str(&w, "last_date", s->cnt ? s->e[s->cnt - 1].date : NULL);
		bc_jw_arr_begin(&w, "change_points");
		for (size_t k = 0; k < s->pt_cnt; k++) {
			const struct bc_cp_point *p = &s->pts[k];
			const struct bc_cp_entry *e = &s->e[p->at];

			bc_jw_obj_begin(&w, NULL);
			bc_jw_uint(&w, "entry", (unsigned long long)e->id);
			bc_jw_str(&w, "run_id", e->run_id);
			bc_jw_str(&w, "date", e->date);
			bc_jw_str(&w, "label", e->label);
			bc_jw_uint(&w, "index", p->at);
			bc_jw_num(&w, "before", p->before);
			bc_jw_num(&w, "after", p->after);
			bc_jw_num(&w, "change_pct", p->change_pct);
			bc_jw_num(&w, "p_value", p->p);
			bc_jw_num(&w, "q", p->q);
			bc_jw_str(&w, "verdict", bc_cp_direction(p, s->higher_better));
			bc_jw_obj_end(&w);
		}
		bc_jw_arr_end(&w);
		bc_jw_obj_end(&w);
	}
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	bc_jw_finish(&w);
}

void bc_cp_history_write(FILE *f, enum bc_format format, const char *bench,
			 const struct bc_cp_history *h)
{
	switch (format) {
	case BC_FORMAT_JSON:
		bc_cp_json(f, bench, h);
		break;
	case BC_FORMAT_CSV:
		bc_cp_csv(f, bench, h);
		break;
	case BC_FORMAT_MARKDOWN:
		bc_cp_markdown(f, bench, h);
		break;
	default:
		bc_cp_text(f, bench, h);
		break;
	}
}
