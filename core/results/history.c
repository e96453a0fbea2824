// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore history PLUGIN:BENCH`: "did 6.12 regress rb-custom against 6.1
 * on this machine" as one command. The store's columns hold each entry's
 * headline mean, spread and sample count (and, with --metric, its metrics
 * table each figure's by name), so history reads no document and answers
 * from the indexes however many entries there are.
 *
 * A group of several entries is judged by its entries' means (each run is
 * one sample, as `compare` treats repeated runs); a group of one entry by
 * that entry's own seconds, or runs when it was repeated. The change from
 * the group before is tested with Welch's test from those means, spreads
 * and counts (significance.c), at compare's level of 0.05.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "compare.h"
#include "runtime/config.h"
#include "runtime/core_opts.h"
#include "runtime/exit_status.h"
#include "history.h"
#include "runtime/json.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "report_table.h"
#include "runtime/repstats.h"
#include "runtime/significance.h"
#include "store_doc.h"
#include "words.h"

#define BC_HISTORY_ALPHA 0.05

static const char *const bc_history_by_names[] = {
	[BC_HISTORY_BY_DATE] = "date",
	[BC_HISTORY_BY_KERNEL] = "kernel",
	[BC_HISTORY_BY_LABEL] = "label",
	[BC_HISTORY_BY_MACHINE] = "machine",
};

const char *bc_history_by_name(enum bc_history_by by)
{
	return bc_history_by_names[by];
}

static void bc_history_group_free(struct bc_history_group *g)
{
	free(g->options);
	free(g->metric);
	free(g->unit);
	free(g->name);
	free(g->accelerator);
	free(g->first_date);
	free(g->last_date);
	free(g->means);
	free(g->last_run_id);
	free(g->prog_changed_run_id);
}

void bc_history_free(struct bc_history *h)
{
	for (size_t i = 0; i < h->cnt; i++)
		bc_history_group_free(&h->groups[i]);
	free(h->groups);
	free(h->slots);
	bc_prog_series_free(&h->prog_series);
	memset(h, 0, sizeof(*h));
}

static uint64_t bc_hash(const char *a, const char *b, const char *c)
{
	const char *parts[] = { a, b, c };
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t k = 0; k < 3; k++) {
		for (const char *p = parts[k] ? parts[k] : ""; *p; p++)
			h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
		h = (h ^ 0x1f) * 0x100000001b3ULL;
	}
	return h;
}

static bool bc_same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

static int bc_history_rehash(struct bc_history *h)
{
	size_t cnt = h->slot_cnt ? h->slot_cnt * 2 : 64;
	size_t *slots = malloc(cnt * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++)
		slots[i] = SIZE_MAX;
	for (size_t g = 0; g < h->cnt; g++) {
		const struct bc_history_group *gr = &h->groups[g];
		size_t i = bc_hash(gr->options, gr->metric, gr->name) & (cnt - 1);

		while (slots[i] != SIZE_MAX)
			i = (i + 1) & (cnt - 1);
		slots[i] = g;
	}
	free(h->slots);
	h->slots = slots;
	h->slot_cnt = cnt;
	return 0;
}

/* The group of this key, made when new; NULL when out of memory. */
static struct bc_history_group *bc_history_group(struct bc_history *h, const char *options,
					   const char *metric, const char *name)
{
	struct bc_history_group *g;
	size_t i;

	if (h->cnt * 2 >= h->slot_cnt && bc_history_rehash(h))
		return NULL;
	i = bc_hash(options, metric, name) & (h->slot_cnt - 1);
	for (; h->slots[i] != SIZE_MAX; i = (i + 1) & (h->slot_cnt - 1)) {
		g = &h->groups[h->slots[i]];
		if (bc_same(g->options, options) && bc_same(g->metric, metric) &&
		    bc_same(g->name, name))
			return g;
	}
	if (h->cnt == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 16;
		struct bc_history_group *gs = realloc(h->groups, cap * sizeof(*gs));

		if (!gs)
			return NULL;
		h->groups = gs;
		h->cap = cap;
	}
	g = &h->groups[h->cnt];
	memset(g, 0, sizeof(*g));
	g->options = strdup(options ? options : "");
	g->metric = strdup(metric ? metric : "");
	g->name = strdup(name ? name : "");
	if (!g->options || !g->metric || !g->name) {
		bc_history_group_free(g);
		return NULL;
	}
	h->slots[i] = h->cnt++;
	return g;
}

static char *bc_dup_or_keep(char *old, const char *s)
{
	char *n = strdup(s ? s : "");

	if (!n)
		return old;
	free(old);
	return n;
}

int bc_history_add(struct bc_history *h, enum bc_history_by by, const struct bc_store_row *r)
{
	struct bc_history_group *g;
	char name[1024];
	double *means;
	bool prog_changed;

	if (!r->k.metric || !isfinite(r->k.mean) || !r->k.date)
		return 0;	/* measured nothing */
	if (bc_prog_series_step(&h->prog_series, &r->k, &prog_changed))
		return -ENOMEM;
	switch (by) {
	case BC_HISTORY_BY_KERNEL:
		snprintf(name, sizeof(name), "%s", r->k.kernel_release ? r->k.kernel_release : "?");
		break;
	case BC_HISTORY_BY_LABEL:
		snprintf(name, sizeof(name), "%s", r->k.label ? r->k.label : "(none)");
		break;
	case BC_HISTORY_BY_MACHINE:
		snprintf(name, sizeof(name), "%s, %s, %u CPUs%s", r->k.host ? r->k.host : "?",
			 r->k.cpu_model ? r->k.cpu_model : "?", r->k.cpu_count,
			 r->k.hypervisor ? ", VM" : "");
		break;
	default:
		snprintf(name, sizeof(name), "%.10s", r->k.date);
		break;
	}
	/* a guest's entries are a group of their own, named so (accel.h) */
	if (r->k.accelerator && *r->k.accelerator) {
		size_t len = strlen(name);

		snprintf(name + len, sizeof(name) - len, " [%.8s]", r->k.accelerator);
	}
	g = bc_history_group(h, r->k.options, r->k.metric, name);
	if (!g)
		return -ENOMEM;
	if (!g->n && r->k.accelerator && *r->k.accelerator && !g->accelerator &&
	    !(g->accelerator = strdup(r->k.accelerator)))
		return -ENOMEM;
	if (!(g->n & (g->n + 1)) || !g->means) {
		/* grows at 0, 1, 3, 7, ...: doubling */
		means = realloc(g->means, (g->n * 2 + 2) * sizeof(*means));
		if (!means)
			return -ENOMEM;
		g->means = means;
	}
	g->means[g->n++] = r->k.mean;
	if (g->n == 1) {
		g->unit = r->k.unit ? strdup(r->k.unit) : NULL;
		g->higher_better = r->k.higher_better;
		g->first_date = strdup(r->k.date);
		/* one entry: its own spread */
		g->mean = r->k.mean;
		g->sd = r->k.stddev;
		g->sample_n = r->k.n;
		g->samples = r->k.by_runs ? "runs" : "seconds";
	}
	g->last_date = bc_dup_or_keep(g->last_date, r->k.date);
	g->last_run_id = bc_dup_or_keep(g->last_run_id, r->k.run_id);
	if (!g->first_date || !g->last_date || !g->last_run_id)
		return -ENOMEM;
	g->last_id = r->id;
	if (prog_changed) {
		g->prog_changes++;
		g->prog_changed_run_id = bc_dup_or_keep(g->prog_changed_run_id, r->k.run_id);
		if (!g->prog_changed_run_id)
			return -ENOMEM;
	}
	h->entries++;
	return 0;
}

struct bc_history_walk {
	struct bc_history *h;
	enum bc_history_by by;
	int err;
};

static int bc_history_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_history_walk *w = cookie;

	w->err = bc_history_add(w->h, w->by, r);
	return w->err ? 1 : 0;
}

/*
 * Each group's configuration (options and metric) as a dense number in
 * the order first seen, by hash: what finds the group before one of the
 * same configuration, and prints a configuration's groups together, in
 * time linear in the groups rather than quadratic.
 */
static int bc_history_configs(const struct bc_history *h, size_t *cfg, size_t *cfg_cnt)
{
	size_t slot_cnt = 64, *slots;

	while (slot_cnt < h->cnt * 2 + 2)
		slot_cnt *= 2;
	slots = malloc(slot_cnt * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < slot_cnt; i++)
		slots[i] = SIZE_MAX;
	*cfg_cnt = 0;
	for (size_t g = 0; g < h->cnt; g++) {
		const struct bc_history_group *gr = &h->groups[g];
		size_t i = bc_hash(gr->options, gr->metric, NULL) & (slot_cnt - 1);

		for (; slots[i] != SIZE_MAX; i = (i + 1) & (slot_cnt - 1))
			if (bc_same(h->groups[slots[i]].options, gr->options) &&
			    bc_same(h->groups[slots[i]].metric, gr->metric))
				break;
		if (slots[i] == SIZE_MAX) {
			slots[i] = g;
			cfg[g] = (*cfg_cnt)++;
		} else {
			cfg[g] = cfg[slots[i]];
		}
	}
	free(slots);
	return 0;
}

/* Each group's statistics, then each group against the one before it of
 * the same configuration and metric. */
int bc_history_done(struct bc_history *h)
{
	size_t *cfg = malloc((h->cnt + 1) * sizeof(*cfg)), *last = NULL, cfg_cnt = 0;

	if (!cfg || bc_history_configs(h, cfg, &cfg_cnt) ||
	    !(last = malloc((cfg_cnt + 1) * sizeof(*last)))) {
		free(cfg);
		return -ENOMEM;
	}
	for (size_t c = 0; c < cfg_cnt; c++)
		last[c] = SIZE_MAX;
	for (size_t i = 0; i < h->cnt; i++) {
		struct bc_history_group *g = &h->groups[i];
		struct bc_rep_stats rs;

		if (g->n >= 2) {
			bc_rep_stats_compute(g->means, g->n, &rs);
			g->mean = rs.mean;
			g->sd = rs.stddev;
			g->sample_n = (unsigned int)g->n;
			g->ci_half = rs.ci_half;
			g->samples = "entries";
		} else if (g->sample_n >= 2 && isfinite(g->sd)) {
			g->ci_half = bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0,
						       g->sample_n - 1) *
				     g->sd / sqrt(g->sample_n);
		} else {
			g->ci_half = NAN;
		}
	}
	for (size_t i = 0; i < h->cnt; i++) {
		struct bc_history_group *g = &h->groups[i], *prev;
		struct bc_sig_result sig = { 0 };

		g->config = cfg[i];
		prev = last[cfg[i]] == SIZE_MAX ? NULL : &h->groups[last[cfg[i]]];
		last[cfg[i]] = i;
		if (!prev)
			continue;
		g->has_prev = true;
		if (!bc_accel_comparable(prev->accelerator, g->accelerator, NULL, 0)) {
			g->change_pct = NAN;
			g->p = NAN;
			g->verdict = "not comparable: accelerator";
			continue;
		}
		g->change_pct = prev->mean == 0.0 ? NAN : (g->mean - prev->mean) / fabs(prev->mean) * 100.0;
		if (prev->n >= BC_SIG_MIN_SAMPLES && g->n >= BC_SIG_MIN_SAMPLES)
			bc_welch_test(prev->means, prev->n, g->means, g->n, &sig);
		else
			bc_welch_test_stats(prev->mean, prev->sd, prev->sample_n, g->mean, g->sd,
					    g->sample_n, &sig);
		g->valid = sig.valid;
		g->p = sig.valid ? sig.p : NAN;
		g->significant = sig.valid && sig.p < BC_HISTORY_ALPHA;
		g->verdict = bc_change_verdict(g->valid, g->significant, g->change_pct,
						 g->higher_better);
	}
	h->config_cnt = cfg_cnt;
	free(last);
	free(cfg);
	return 0;
}

int bc_history_collect(struct bc_store *s, const struct bc_store_filter *f, enum bc_history_by by,
		    struct bc_history *h, char *err, size_t err_len)
{
	struct bc_history_walk w = { .h = h, .by = by };
	struct bc_store_filter q = *f;
	int ret;

	memset(h, 0, sizeof(*h));
	q.with_doc = false;
	q.ok_only = true;
	q.newest_first = false;
	/* f->metric: each entry's figure of that name, not its headline */
	ret = bc_store_each_figure(s, &q, bc_history_row, &w, err, err_len);
	if (!w.err && ret >= 0)
		w.err = bc_history_done(h);
	if (w.err) {
		snprintf(err, err_len, "history: out of memory");
		return w.err;
	}
	return ret < 0 ? ret : 0;
}

/* ------------------------------------------------------------ printing */

static void bc_fmt_mean(double v, const char *unit, char *buf, size_t len)
{
	size_t ulen = unit ? strlen(unit) : 0;

	/* rates as the text report prints them: millions per second */
	if (ulen > 2 && !strcmp(unit + ulen - 2, "/s") && fabs(v) >= 1e5)
		snprintf(buf, len, "%.3fM %s", v / 1e6, unit);
	else
		snprintf(buf, len, "%.4g%s%s", v, unit ? " " : "", unit ? unit : "");
}

static void bc_fmt_ci(const struct bc_history_group *g, char *buf, size_t len)
{
	if (isfinite(g->ci_half) && g->mean != 0.0)
		snprintf(buf, len, "±%.2f%%", g->ci_half / fabs(g->mean) * 100.0);
	else
		snprintf(buf, len, "n/a");
}

static void bc_fmt_change(const struct bc_history_group *g, char *ch, size_t chl, char *p, size_t pl)
{
	if (!g->has_prev || isnan(g->change_pct))
		snprintf(ch, chl, "%s", g->has_prev ? "n/a" : "");
	else
		snprintf(ch, chl, "%+.2f%%", g->change_pct);
	if (g->has_prev && g->valid)
		snprintf(p, pl, "%.3g", g->p);
	else
		snprintf(p, pl, "%s", g->has_prev ? "n/a" : "");
}

/* Group indexes in configuration order, each configuration's groups in
 * their own order: a counting sort on the configuration numbers. */
static size_t *bc_history_by_config(const struct bc_history *h)
{
	size_t *start = calloc(h->config_cnt + 1, sizeof(*start));
	size_t *order = malloc((h->cnt + 1) * sizeof(*order));

	if (!start || !order) {
		free(start);
		free(order);
		return NULL;
	}
	for (size_t i = 0; i < h->cnt; i++)
		start[h->groups[i].config + 1]++;
	for (size_t c = 1; c <= h->config_cnt; c++)
		start[c] += start[c - 1];
	for (size_t i = 0; i < h->cnt; i++)
		order[start[h->groups[i].config]++] = i;
	free(start);
	return order;
}

/* The mark of a row where a program changed, and what it means (the
 * legend under each configuration that has one). */
#define BC_HISTORY_PROG_MARK "*"
#define BC_HISTORY_PROG_LEGEND                                                                    \
	"*: the benchmark's BPF programs changed at an entry of this row, against the entry " \
	"before it on the same host and kernel (benchcore compare shows how)"

static void bc_history_text(FILE *f, const char *bench, enum bc_history_by by, const struct bc_history *h)
{
	size_t *order = bc_history_by_config(h);
	char name[512], opts[1024], metric[256], safe_bench[512], unit[128], row[520];

	bool emulated = false, prog_marked = false;

	bc_text_safe(bench, safe_bench, sizeof(safe_bench));
	for (size_t k = 0; k < h->cnt; k++) {
		const struct bc_history_group *x = &h->groups[order ? order[k] : k];
		char mean[256], ci[32], ch[32], p[32], n[32];

		if (!k || x->config != h->groups[order ? order[k - 1] : k - 1].config) {
			/* the configuration before it ends: say its TCG figures are
			 * emulation (accel.h), and what its marks mean */
			if (emulated)
				fprintf(f, "  [tcg]: %s\n", BC_ACCEL_EMULATION_NOTE);
			if (prog_marked)
				fprintf(f, "  %s\n", BC_HISTORY_PROG_LEGEND);
			emulated = prog_marked = false;
			/* a configuration's groups together, in order */
			fprintf(f, "%s%s  %s\n  %s (%s is better)\n", k ? "\n" : "", safe_bench,
				*x->options ? bc_text_safe(x->options, opts, sizeof(opts))
					    : "(default options)",
				bc_text_safe(x->metric, metric, sizeof(metric)),
				x->higher_better ? "higher" : "lower");
			fprintf(f, "  %-32s %5s  %-18s %9s  %9s %8s  %s\n", bc_history_by_name(by), "n",
				"mean", "95% CI", "change", "p", "verdict");
		}
		bc_fmt_mean(x->mean, x->unit ? bc_text_safe(x->unit, unit, sizeof(unit)) : NULL, mean,
			    sizeof(mean));
		bc_fmt_ci(x, ci, sizeof(ci));
		bc_fmt_change(x, ch, sizeof(ch), p, sizeof(p));
		snprintf(n, sizeof(n), "%zu", x->n);
		snprintf(row, sizeof(row), "%s%s", bc_text_safe(x->name, name, sizeof(name)),
			 x->prog_changes ? " " BC_HISTORY_PROG_MARK : "");
		fprintf(f, "  %-32s %5s  %-18s %9s  %9s %8s  %s\n", row, n, mean, ci, ch, p,
			x->has_prev ? x->verdict : "");
		emulated = emulated || bc_accel_emulated(x->accelerator);
		prog_marked = prog_marked || x->prog_changes;
	}
	if (emulated)
		fprintf(f, "  [tcg]: %s\n", BC_ACCEL_EMULATION_NOTE);
	if (prog_marked)
		fprintf(f, "  %s\n", BC_HISTORY_PROG_LEGEND);
	free(order);
}

static void bc_history_csv(FILE *f, const char *bench, enum bc_history_by by, const struct bc_history *h)
{
	fprintf(f, "benchmark,configuration,metric,unit,%s,entries,mean,ci95_half,samples,sample_n,first_date,last_date,change_pct,p_value,verdict,program_changed\n",
		bc_history_by_name(by));
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_history_group *g = &h->groups[i];

		bc_csv_write(f, bench);
		fputc(',', f);
		bc_csv_write(f, g->options);
		fputc(',', f);
		bc_csv_write(f, g->metric);
		fputc(',', f);
		bc_csv_write(f, g->unit);
		fputc(',', f);
		bc_csv_write(f, g->name);
		fprintf(f, ",%zu,%.17g,", g->n, g->mean);
		if (isfinite(g->ci_half))
			fprintf(f, "%.17g", g->ci_half);
		fprintf(f, ",%s,%u,", g->samples, g->sample_n);
		bc_csv_write(f, g->first_date);
		fputc(',', f);
		bc_csv_write(f, g->last_date);
		fputc(',', f);
		if (g->has_prev && isfinite(g->change_pct))
			fprintf(f, "%.6f", g->change_pct);
		fputc(',', f);
		if (g->has_prev && g->valid)
			fprintf(f, "%.6g", g->p);
		fprintf(f, ",%s,%s\n", g->has_prev ? g->verdict : "",
			g->prog_changes ? "true" : "false");
	}
}

static void bc_history_markdown(FILE *f, const char *bench, enum bc_history_by by, const struct bc_history *h)
{
	bool prog_marked = false;

	fprintf(f, "| benchmark | configuration | metric | %s | n | mean | 95%% CI | change | p | verdict |\n",
		bc_history_by_name(by));
	fputs("|---|---|---|---|--:|--:|--:|--:|--:|---|\n", f);
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_history_group *g = &h->groups[i];
		char mean[64], ci[32], ch[32], p[32];

		bc_fmt_mean(g->mean, g->unit, mean, sizeof(mean));
		bc_fmt_ci(g, ci, sizeof(ci));
		bc_fmt_change(g, ch, sizeof(ch), p, sizeof(p));
		fputs("| ", f);
		bc_md_write(f, bench);
		fputs(" | ", f);
		bc_md_write(f, g->options);
		fputs(" | ", f);
		bc_md_write(f, g->metric);
		fputs(" | ", f);
		bc_md_write(f, g->name);
		if (g->prog_changes)
			fputs(" \\" BC_HISTORY_PROG_MARK, f);
		prog_marked = prog_marked || g->prog_changes;
		fprintf(f, " | %zu | ", g->n);
		/* the mean carries the unit, which a store may hold anything in */
		bc_md_write(f, mean);
		fprintf(f, " | %s | %s | %s | %s |\n", ci, ch, p, g->has_prev ? g->verdict : "");
	}
	if (prog_marked)
		fputs("\n\\" BC_HISTORY_PROG_LEGEND "\n", f);
}

static void bc_history_json(FILE *f, const char *bench, enum bc_history_by by, const struct bc_history *h)
{
	struct bc_json_writer w;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "kind", "history");
	bc_jw_str(&w, "benchmark", bench);
	bc_jw_str(&w, "by", bc_history_by_name(by));
	bc_jw_num(&w, "confidence", BC_REP_CONFIDENCE);
	bc_jw_num(&w, "alpha", BC_HISTORY_ALPHA);
	bc_jw_uint(&w, "entries", h->entries);
	bc_jw_arr_begin(&w, "groups");
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_history_group *g = &h->groups[i];

		bc_jw_obj_begin(&w, NULL);
		bc_jw_str(&w, "configuration", g->options);
		bc_jw_str(&w, "metric", g->metric);
		bc_jw_str(&w, "unit", g->unit);
		bc_jw_bool(&w, "higher_is_better", g->higher_better);
		bc_jw_str(&w, "group", g->name);
		bc_jw_str(&w, "accelerator", bc_accel_name(g->accelerator));
		bc_jw_uint(&w, "entries", g->n);
		bc_jw_num(&w, "mean", g->mean);
		bc_jw_num(&w, "ci95_half", g->ci_half);
		bc_jw_str(&w, "samples", g->samples);
		bc_jw_uint(&w, "sample_n", g->sample_n);
		bc_jw_str(&w, "first_date", g->first_date);
		bc_jw_str(&w, "last_date", g->last_date);
		bc_jw_str(&w, "last_run_id", g->last_run_id);
		/* the newest entry of the group whose programs changed: the one
		 * to export and compare with the entry before it */
		bc_jw_bool(&w, "program_changed", g->prog_changes > 0);
		bc_jw_str(&w, "program_changed_run_id", g->prog_changed_run_id);
		if (g->has_prev) {
			bc_jw_num(&w, "change_pct", g->change_pct);
			bc_jw_num(&w, "p_value", g->valid ? g->p : NAN);
			bc_jw_str(&w, "verdict", g->verdict);
		} else {
			bc_jw_null(&w, "change_pct");
			bc_jw_null(&w, "p_value");
			bc_jw_null(&w, "verdict");
		}
		bc_jw_obj_end(&w);
	}
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	bc_jw_finish(&w);
}

int bc_history_by_parse(const char *name, enum bc_history_by *by)
{
	for (size_t k = 0; k < sizeof(bc_history_by_names) / sizeof(bc_history_by_names[0]); k++)
		if (!strcmp(name, bc_history_by_names[k])) {
			*by = (enum bc_history_by)k;
			return 0;
		}
	return -EINVAL;
}

void bc_history_write(FILE *f, enum bc_format format, const char *bench, enum bc_history_by by,
		      const struct bc_history *h)
{
	switch (format) {
	case BC_FORMAT_JSON:
		bc_history_json(f, bench, by, h);
		break;
	case BC_FORMAT_CSV:
		bc_history_csv(f, bench, by, h);
		break;
	case BC_FORMAT_MARKDOWN:
		bc_history_markdown(f, bench, by, h);
		break;
	default:
		bc_history_text(f, bench, by, h);
		break;
	}
}
