// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore report [-o DIR]`: the store as a static site, asv's idea for
 * benchcore's results. Pages are plain HTML with the charts inline as SVG
 * (plot_draw.c draws them, as `benchcore plot` does) and one <style>
 * block: no script, no font or stylesheet to fetch, so a file:// URL, a
 * mail attachment or a CI artefact shows the same thing.
 *
 *   DIR/index.html              benchmarks x kernels, benchmarks x labels
 *   DIR/bench/PLUGIN__BENCH.html  trend per configuration, sweep chart,
 *                               changes by kernel and by label
 *   DIR/data/RUN_ID.json        the documents the figures came from
 *
 * The site is made in a new directory beside DIR and swapped in whole
 * (renameat2 RENAME_EXCHANGE), so a reader never sees half of it; a DIR
 * that is not a previous report is never replaced.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/exit_status.h"
#include "change_points.h"
#include "history.h"
#include "runtime/doc_keys.h"
#include "runtime/json.h"
#include "run_doc.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "plot.h"
#include "runtime/repstats.h"
#include "site.h"
#include "store.h"
#include "store_doc.h"

/* The newest entries a trend chart shows: a chart of more points is a
 * smear, and each point's document is copied into the site. */
#define BC_SITE_MAX_POINTS 200
/* Marks a directory as a report: only such a one is replaced. */
#define BC_SITE_MARK ".benchcore-report"

struct bc_site_entry {
	long long id;
	char *run_id, *bench, *options, *kernel, *label, *date, *host, *metric, *unit;
	double mean, sd;
	unsigned int n;
	bool higher_better;
	char *data;		/* data/NAME.json once copied, else NULL */
};

/* A change point of a configuration's series, as the index lists it. */
struct bc_site_cp {
	const char *bench, *options;	/* the entries' own strings */
	size_t chart;			/* the trend's number on its page */
	size_t entry;			/* st->e: the first entry of the new level */
	struct bc_cp_point pt;
	bool higher_better;
};

struct bc_site {
	struct bc_store *store;
	const char *store_path;
	const char *metric;		/* --metric; NULL: the headline */
	char tmp[PATH_MAX];
	struct bc_site_entry *e;
	size_t cnt, cap;
	/* every trend's change points, for the index (bc_site_cp_*) */
	struct bc_site_cp *cps;
	size_t cp_cnt, cp_cap;
	int err;
	char why[1024];
};

static char *bc_sdup(const char *s)
{
	return strdup(s ? s : "");
}

static int bc_site_load_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_site *st = cookie;
	struct bc_site_entry *e;

	if (!r->k.metric || !isfinite(r->k.mean))
		return 0;
	if (st->cnt == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		struct bc_site_entry *ne = realloc(st->e, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		st->e = ne;
		st->cap = cap;
	}
	e = &st->e[st->cnt++];
	memset(e, 0, sizeof(*e));
	e->id = r->id;
	e->run_id = bc_sdup(r->k.run_id);
	e->bench = bc_sdup(r->k.bench);
	e->options = bc_sdup(r->k.options);
	e->kernel = bc_sdup(r->k.kernel_release);
	e->label = r->k.label ? strdup(r->k.label) : NULL;
	e->date = bc_sdup(r->k.date);
	e->host = bc_sdup(r->k.host);
	e->metric = bc_sdup(r->k.metric);
	e->unit = r->k.unit ? strdup(r->k.unit) : NULL;
	e->mean = r->k.mean;
	e->sd = r->k.stddev;
	e->n = r->k.n;
	e->higher_better = r->k.higher_better;
	if (!e->run_id || !e->bench || !e->options || !e->kernel || !e->date || !e->host ||
	    !e->metric)
		return -ENOMEM;
	return 0;
}

static void bc_site_free(struct bc_site *st)
{
	for (size_t i = 0; i < st->cnt; i++) {
		struct bc_site_entry *e = &st->e[i];

		free(e->run_id);
		free(e->bench);
		free(e->options);
		free(e->kernel);
		free(e->label);
		free(e->date);
		free(e->host);
		free(e->metric);
		free(e->unit);
		free(e->data);
	}
	free(st->e);
	free(st->cps);
}

/* ------------------------------------------------------------ writing */

static void bc_html(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* "ringbuf:rb-custom" -> "ringbuf__rb-custom": a file name, and a URL
 * path segment that needs no escaping. */
static void bc_site_slug(const char *bench, char *buf, size_t len)
{
	size_t o = 0;

	for (const char *p = bench; *p && o + 3 < len; p++) {
		char c = *p;

		if (c == ':') {
			buf[o++] = '_';
			buf[o++] = '_';
		} else {
			buf[o++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
						   (c >= '0' && c <= '9') || c == '-' || c == '.'
					   ? c
					   : '_';
		}
	}
	buf[o] = '\0';
}

static FILE *bc_site_create(struct bc_site *st, const char *rel)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", st->tmp, rel);
	f = fopen(path, "we");
	if (!f && !st->err) {
		st->err = -errno;
		snprintf(st->why, sizeof(st->why), "report: cannot write %.600s: %s", path,
			 strerror(errno));
	}
	return f;
}

static void bc_site_close(struct bc_site *st, FILE *f, const char *rel)
{
	bool bad = ferror(f);

	if (fclose(f) || bad) {
		if (!st->err) {
			st->err = -EIO;
			snprintf(st->why, sizeof(st->why), "report: cannot write %.400s/%.200s: %s",
				 st->tmp, rel, strerror(errno ? errno : EIO));
		}
	}
}

static int bc_site_doc_row(const struct bc_store_row *r, void *cookie)
{
	FILE *f = cookie;

	fwrite(r->doc, 1, r->doc_len, f);
	fputc('\n', f);
	return 1;
}

/* The entry's document as data/NAME.json (once); its path from the site's
 * root, or NULL after a failure (st->err says it). */
static const char *bc_site_data(struct bc_site *st, struct bc_site_entry *e)
{
	struct bc_store_filter f = { .id = e->id, .with_doc = true, .limit = 1 };
	char rel[PATH_MAX], err[512];
	bool hex = *e->run_id && strspn(e->run_id, "0123456789abcdef") == strlen(e->run_id);
	FILE *out;
	int ret;

	if (e->data)
		return e->data;
	if (hex)
		snprintf(rel, sizeof(rel), "data/%s.json", e->run_id);
	else
		snprintf(rel, sizeof(rel), "data/entry-%lld.json", e->id);
	out = bc_site_create(st, rel);
	if (!out)
		return NULL;
	ret = bc_store_each(st->store, &f, bc_site_doc_row, out, err, sizeof(err));
	bc_site_close(st, out, rel);
	if (ret < 0 && !st->err) {
		st->err = ret;
		snprintf(st->why, sizeof(st->why), "%s", err);
	}
	e->data = strdup(rel);
	return e->data;
}

static double bc_entry_ci(const struct bc_site_entry *e)
{
	if (e->n < 2 || !isfinite(e->sd))
		return NAN;
	return bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0, e->n - 1) * e->sd /
	       sqrt(e->n);
}

static void bc_fmt_value(double v, const char *unit, char *buf, size_t len)
{
	size_t ulen = unit ? strlen(unit) : 0;

	if (ulen > 2 && !strcmp(unit + ulen - 2, "/s") && fabs(v) >= 1e5)
		snprintf(buf, len, "%.3fM %s", v / 1e6, unit);
	else
		snprintf(buf, len, "%.4g%s%s", v, unit ? " " : "", unit ? unit : "");
}

static const char bc_site_style[] =
	"<style>\n"
	"body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:1.5em;color:#222;max-width:1200px}\n"
	"table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
	"th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:right;font-size:0.9em}\n"
	"th{background:#f0f0f0}td.name,th.name{text-align:left}\n"
	".regressed{color:#b00020;font-weight:bold}.improved{color:#007a33;font-weight:bold}\n"
	".muted{color:#777}figure{margin:0.5em 0}figure svg{max-width:100%;height:auto}\n"
	"code{background:#f6f6f6;padding:0 0.2em}\n"
	"</style>\n";

static void bc_site_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", f);
	bc_html(f, title);
	fputs("</title>\n", f);
	fputs(bc_site_style, f);
	fputs("</head>\n<body>\n", f);
}

/* An SVG document written by plot_draw.c, inline: the XML declaration
 * has no place inside HTML. */
static int bc_site_svg(FILE *f, const struct bc_plot *p)
{
	char *svg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&svg, &len);
	const char *start;
	int ret;

	if (!m)
		return -ENOMEM;
	ret = bc_plot_draw(m, p);
	if (fclose(m))
		ret = ret ? ret : -ENOMEM;
	start = svg ? strstr(svg, "<svg") : NULL;
	if (!ret && start)
		fputs(start, f);
	free(svg);
	return ret ? ret : start ? 0 : -EINVAL;
}

/* The mark of a change in a cell: the verdict against the group before. */
static void bc_site_mark(FILE *f, const struct bc_history_group *g)
{
	if (!g->has_prev || !g->significant)
		return;
	if (!strcmp(g->verdict, "regressed"))
		fprintf(f, " <span class=\"regressed\" title=\"regressed %+.2f%% (p=%.3g)\">&#9660;</span>",
			g->change_pct, g->p);
	else if (!strcmp(g->verdict, "improved"))
		fprintf(f, " <span class=\"improved\" title=\"improved %+.2f%% (p=%.3g)\">&#9650;</span>",
			g->change_pct, g->p);
}

static struct bc_site_entry *bc_site_by_id(struct bc_site *st, long long id)
{
	for (size_t i = st->cnt; i-- > 0;)
		if (st->e[i].id == id)
			return &st->e[i];
	return NULL;
}

/* ------------------------------------------ change points (change_points.h) */

/* The most marks a trend chart draws: a level is at least BC_CP_MIN_SIZE
 * entries, so a chart of BC_SITE_MAX_POINTS has at most this many. */
#define BC_SITE_MAX_MARKS (BC_SITE_MAX_POINTS / BC_CP_MIN_SIZE + 1)
/* The index lists the newest change points; each page marks all of its. */
#define BC_SITE_MAX_CP_LIST 100

struct bc_site_marks {
	struct bc_plot_mark m[BC_SITE_MAX_MARKS];
	char label[BC_SITE_MAX_MARKS][24];
	char title[BC_SITE_MAX_MARKS][192];
	size_t cnt;
};

/*
 * The change points of a configuration's series (its entries' indexes in
 * st->e, all, oldest first), history's search over the whole series: the
 * ones among the newest `shown` become marks between the chart's points,
 * and every one is kept for the index. A failure to search (memory) costs
 * the marks, not the page.
 */
static void bc_site_cp_marks(struct bc_site *st, size_t chart, const size_t *all, size_t total,
			     size_t shown, struct bc_site_marks *mk)
{
	struct bc_cp_opts o = BC_CP_OPTS_DEFAULT;
	double *xs = malloc((total ? total : 1) * sizeof(*xs));
	struct bc_cp_point *pts = NULL;
	size_t cnt = 0, first = total - shown;

	mk->cnt = 0;
	for (size_t k = 0; xs && k < total; k++)
		xs[k] = st->e[all[k]].mean;
	if (!xs || bc_cp_find(xs, total, &o, &pts, &cnt)) {
		free(xs);
		return;
	}
	for (size_t i = 0; i < cnt; i++) {
		const struct bc_site_entry *e = &st->e[all[pts[i].at]];
		bool hb = e->higher_better;

		if (st->cp_cnt == st->cp_cap) {
			size_t cap = st->cp_cap ? st->cp_cap * 2 : 16;
			struct bc_site_cp *c = realloc(st->cps, cap * sizeof(*c));

			if (c) {
				st->cps = c;
				st->cp_cap = cap;
			}
		}
		if (st->cp_cnt < st->cp_cap)
			st->cps[st->cp_cnt++] = (struct bc_site_cp){ .bench = e->bench,
								     .options = e->options,
								     .chart = chart, .entry = all[pts[i].at],
								     .pt = pts[i], .higher_better = hb };
		if (pts[i].at < first || mk->cnt == BC_SITE_MAX_MARKS)
			continue;
		snprintf(mk->label[mk->cnt], sizeof(mk->label[0]), "%+.1f%%", pts[i].change_pct);
		snprintf(mk->title[mk->cnt], sizeof(mk->title[0]),
			 "change point at point %zu (%.32s): %+.2f%%, %s, p=%.3g", pts[i].at - first + 1,
			 e->date, pts[i].change_pct,
			 (pts[i].after > pts[i].before) == hb ? "improved" : "regressed", pts[i].p);
		/* between the last point of the old level and the first of the new */
		mk->m[mk->cnt] = (struct bc_plot_mark){
			.x = pts[i].at > first ? (double)(pts[i].at - first) - 0.5 : 0.0,
			.label = mk->label[mk->cnt], .title = mk->title[mk->cnt] };
		mk->cnt++;
	}
	free(pts);
	free(xs);
}

static int bc_site_cp_newest(const void *pa, const void *pb, void *arg)
{
	const struct bc_site *st = arg;
	const struct bc_site_cp *a = pa, *b = pb;
	int d = strcmp(st->e[b->entry].date, st->e[a->entry].date);

	return d ? d : strcmp(a->bench, b->bench);
}

/* The index's list: the newest change points of every trend, each linked
 * to its chart. */
static void bc_site_cp_index(struct bc_site *st, FILE *f)
{
	char slug[512];

	fputs("<h2 id=\"change-points\">Change points</h2>\n", f);
	if (!st->cp_cnt) {
		fputs("<p class=\"muted\">No series moved (E-divisive means, p &lt; 0.01; docs/history.md).</p>\n", f);
		return;
	}
	qsort_r(st->cps, st->cp_cnt, sizeof(*st->cps), bc_site_cp_newest, st);
	fprintf(f, "<p class=\"muted\">Where a configuration's series of entries moved (E-divisive means with a permutation test, p &lt; %g; docs/history.md), newest first%s; each is marked on its trend chart.</p>\n",
		BC_CP_ALPHA, st->cp_cnt > BC_SITE_MAX_CP_LIST ? ", the newest 100" : "");
	fputs("<table class=\"change-points\" id=\"change-point-list\">\n<tr><th class=\"name\">benchmark</th><th class=\"name\">configuration</th><th class=\"name\">date</th><th class=\"name\">label</th><th>change</th><th>p</th><th class=\"name\">verdict</th></tr>\n",
	      f);
	for (size_t i = 0; i < st->cp_cnt && i < BC_SITE_MAX_CP_LIST; i++) {
		const struct bc_site_cp *c = &st->cps[i];
		const struct bc_site_entry *e = &st->e[c->entry];
		const char *v = (c->pt.after > c->pt.before) == c->higher_better ? "improved" : "regressed";

		bc_site_slug(c->bench, slug, sizeof(slug));
		fprintf(f, "<tr class=\"change-point\"><td class=\"name\"><a href=\"bench/%s.html#trend-%zu\">", slug,
			c->chart);
		bc_html(f, c->bench);
		fputs("</a></td><td class=\"name\">", f);
		bc_html(f, *c->options ? c->options : "default options");
		fputs("</td><td class=\"name\">", f);
		bc_html(f, e->date);
		fputs("</td><td class=\"name\">", f);
		bc_html(f, e->label ? e->label : "");
		fprintf(f, "</td><td>%+.2f%%</td><td>%.3g</td><td class=\"name %s\">%s</td></tr>\n",
			c->pt.change_pct, c->pt.p, v, v);
	}
	fputs("</table>\n", f);
}

/* ------------------------------------------------------------ a benchmark */

static void bc_site_trend(struct bc_site *st, FILE *f, const char *bench, const char *options,
			  size_t chart)
{
	size_t idx[BC_SITE_MAX_POINTS], n = 0, total = 0, *all = NULL, all_cap = 0;
	struct bc_site_marks mk = { 0 };
	struct bc_plot_point pts[BC_SITE_MAX_POINTS];
	struct bc_plot_tick ticks[BC_SITE_MAX_POINTS];
	char dates[BC_SITE_MAX_POINTS][24], val[64];
	struct bc_plot_series series = { 0 };
	struct bc_plot_panel pn = { 0 };
	struct bc_plot p = { 0 };
	const struct bc_site_entry *first = NULL;

	for (size_t i = 0; i < st->cnt; i++) {
		if (strcmp(st->e[i].bench, bench) || strcmp(st->e[i].options, options))
			continue;
		if (total == all_cap) {
			size_t *grown = realloc(all, (all_cap = all_cap ? all_cap * 2 : 64) * sizeof(*all));

			if (!grown) {
				free(all);
				return;
			}
			all = grown;
		}
		all[total++] = i;
		/* the newest BC_SITE_MAX_POINTS, oldest first */
		if (n == BC_SITE_MAX_POINTS) {
			n--;
			memmove(idx, idx + 1, sizeof(idx[0]) * n);
		}
		idx[n++] = i;
	}
	if (!n) {
		free(all);
		return;
	}
	bc_site_cp_marks(st, chart, all, total, n, &mk);
	free(all);
	first = &st->e[idx[0]];
	for (size_t k = 0; k < n; k++) {
		const struct bc_site_entry *e = &st->e[idx[k]];
		double ci = bc_entry_ci(e);

		pts[k] = (struct bc_plot_point){ .x = (double)k, .y = e->mean,
						 .lo = isfinite(ci) ? e->mean - ci : NAN,
						 .hi = isfinite(ci) ? e->mean + ci : NAN };
		/* the entry's label says most; else its day and time ("12-02 07:14") */
		if (e->label && *e->label)
			snprintf(dates[k], sizeof(dates[k]), "%.23s", e->label);
		else
			snprintf(dates[k], sizeof(dates[k]), "%.5s %.5s", e->date + (strlen(e->date) > 5 ? 5 : 0),
				 e->date + (strlen(e->date) > 11 ? 11 : strlen(e->date)));
		ticks[k] = (struct bc_plot_tick){ .v = (double)k, .label = dates[k] };
	}
	series = (struct bc_plot_series){ .name = first->metric, .pts = pts, .cnt = n };
	pn.x.label = "saved entries, oldest to newest";
	pn.x.ticks = ticks;
	pn.x.tick_cnt = n;
	pn.y.label = first->metric;
	pn.y.unit = first->unit;
	pn.series = &series;
	pn.series_cnt = 1;
	pn.note = mk.cnt ? "error bars: 95% confidence interval of each entry's mean; dashed: a change point"
			 : "error bars: 95% confidence interval of each entry's mean";
	pn.marks = mk.m;
	pn.mark_cnt = mk.cnt;
	p.title = bench;
	p.lines[0] = *options ? options : "default options";
	p.line_cnt = 1;
	p.panels = &pn;
	p.panel_cnt = 1;

	fprintf(f, "<h2 id=\"config-%zu\">", chart);
	bc_html(f, *options ? options : "default options");
	fputs("</h2>\n", f);
	fprintf(f, "<figure class=\"chart trend\" id=\"trend-%zu\" data-points=\"%zu\" data-change-points=\"%zu\">\n",
		chart, n, mk.cnt);
	if (bc_site_svg(f, &p))
		fputs("<p class=\"muted\">no chart: nothing to draw</p>\n", f);
	fputs("<figcaption>", f);
	bc_html(f, first->metric);
	fprintf(f, " (%s is better); %zu of %zu entries. Each point's document is linked below.",
		first->higher_better ? "higher" : "lower", n, total);
	if (mk.cnt)
		fprintf(f, " %zu change point%s marked (E-divisive means, p &lt; %g).", mk.cnt,
			mk.cnt == 1 ? "" : "s", BC_CP_ALPHA);
	fputs("</figcaption>\n</figure>\n", f);
	fputs("<table class=\"points\">\n<tr><th>#</th><th class=\"name\">date</th><th class=\"name\">label</th><th class=\"name\">kernel</th><th class=\"name\">host</th><th>mean</th><th>95% CI</th><th>document</th></tr>\n",
	      f);
	for (size_t k = 0; k < n; k++) {
		struct bc_site_entry *e = &st->e[idx[k]];
		const char *data = bc_site_data(st, e);
		double ci = bc_entry_ci(e);

		bc_fmt_value(e->mean, e->unit, val, sizeof(val));
		fprintf(f, "<tr><td>%zu</td><td class=\"name\">", k + 1);
		bc_html(f, e->date);
		fputs("</td><td class=\"name\">", f);
		bc_html(f, e->label ? e->label : "");
		fputs("</td><td class=\"name\">", f);
		bc_html(f, e->kernel);
		fputs("</td><td class=\"name\">", f);
		bc_html(f, e->host);
		fputs("</td><td>", f);
		bc_html(f, val);
		if (isfinite(ci) && e->mean != 0.0)
			fprintf(f, "</td><td>&#177;%.2f%%", ci / fabs(e->mean) * 100.0);
		else
			fputs("</td><td>n/a", f);
		fputs("</td><td><a class=\"doc\" href=\"../", f);
		bc_html(f, data ? data : "");
		fputs("\">JSON</a></td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* "a=1 b=x flag" -> the value of key in it into buf ("on" for a flag);
 * false when absent. */
static bool bc_opt_of(const char *line, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (const char *p = line; p && *p;) {
		const char *end = strchr(p, ' ');
		size_t wlen = end ? (size_t)(end - p) : strlen(p);

		if (wlen == klen && !strncmp(p, key, klen)) {
			snprintf(buf, len, "on");
			return true;
		}
		if (wlen > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			snprintf(buf, len, "%.*s", (int)(wlen - klen - 1), p + klen + 1);
			return true;
		}
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* A sweep document made from the newest entry of each configuration, for
 * plot_read.c to draw as `benchcore plot` draws a sweep. */
static void bc_site_sweep(struct bc_site *st, FILE *f, const char *bench, char **configs,
			  size_t cfg_cnt)
{
	char *text = NULL, key[256], a[256], b[256], err[512];
	struct bc_plot_opts po = { .chart = BC_PLOT_HEADLINE, .metric = st->metric };
	char **swept = calloc(cfg_cnt * 64 + 1, sizeof(*swept));
	size_t len = 0, swept_cnt = 0, pts = 0;
	struct bc_plot p = { 0 };
	struct bc_doc doc = { 0 };
	bool read = false;
	FILE *m;

	if (!swept)
		return;
	/* The keys whose values differ between configurations. */
	for (size_t c = 0; c < cfg_cnt; c++) {
		for (const char *w = configs[c]; w && *w;) {
			const char *end = strchr(w, ' '), *eq;
			size_t wlen = end ? (size_t)(end - w) : strlen(w);
			bool differs = false, known = false;

			eq = memchr(w, '=', wlen);
			snprintf(key, sizeof(key), "%.*s", (int)(eq ? (size_t)(eq - w) : wlen), w);
			w = end ? end + 1 : NULL;
			for (size_t s = 0; s < swept_cnt && !known; s++)
				known = !strcmp(swept[s], key);
			if (known || swept_cnt >= cfg_cnt * 64)
				continue;
			if (!bc_opt_of(configs[0], key, a, sizeof(a)))
				a[0] = '\0';
			for (size_t o = 1; o < cfg_cnt && !differs; o++) {
				if (!bc_opt_of(configs[o], key, b, sizeof(b)))
					b[0] = '\0';
				differs = strcmp(a, b);
			}
			if (differs && !(swept[swept_cnt] = strdup(key)))
				goto out;
			swept_cnt += differs;
		}
	}
	m = open_memstream(&text, &len);
	if (!m)
		goto out;
	/* A sweep document, in the keys the model reads (doc_keys.h). */
	fprintf(m, "{\"%s\":\"%s\",\"%s\":", BC_DOC_BATCH_KIND, BC_DOC_BATCH_KIND_SWEEP,
		BC_DOC_BATCH_NAME);
	bc_json_write_string(m, bench);
	fprintf(m, ",\"%s\":[", BC_DOC_BATCH_SWEEP);
	for (size_t s = 0; s < swept_cnt; s++) {
		fputs(s ? "," : "", m);
		bc_json_write_string(m, swept[s]);
	}
	fprintf(m, "],\"%s\":[", BC_DOC_BATCH_RUNS);
	for (size_t c = 0; c < cfg_cnt; c++) {
		struct bc_store_filter q = { .bench = bench, .options = configs[c], .ok_only = true,
					     .with_doc = true, .newest_first = true, .limit = 1 };

		fputs(c ? ",\n" : "\n", m);
		fprintf(m, "{\"%s\":", BC_DOC_ROW_SECTION);
		bc_json_write_string(m, bench);
		fprintf(m, ",\"%s\":", BC_DOC_ROW_BENCHMARK);
		bc_json_write_string(m, bench);
		fprintf(m, ",\"%s\":", BC_DOC_ROW_LABEL);
		bc_json_write_string(m, configs[c]);
		fprintf(m, ",\"%s\":\"ok\",\"%s\":0,\"%s\":{", BC_DOC_ROW_STATUS,
			BC_DOC_ROW_EXIT_STATUS, BC_DOC_ROW_OPTIONS);
		for (size_t s = 0; s < swept_cnt; s++) {
			if (!bc_opt_of(configs[c], swept[s], a, sizeof(a)))
				a[0] = '\0';
			fputs(s ? "," : "", m);
			bc_json_write_string(m, swept[s]);
			fputc(':', m);
			bc_json_write_string(m, a);
		}
		fprintf(m, "},\"%s\":", BC_DOC_ROW_RESULT);
		if (bc_store_each(st->store, &q, bc_site_doc_row, m, err, sizeof(err)) != 1)
			fputs("null", m);
		fputc('}', m);
		pts++;
	}
	fputs("]}\n", m);
	if (fclose(m))
		goto out;
	read = !bc_doc_parse(text, len, &doc, err, sizeof(err));
	fputs("<h2 id=\"sweep\">Across configurations</h2>\n", f);
	if (!read || bc_plot_read(&doc, &po, &p, err, sizeof(err))) {
		fputs("<p class=\"muted\">No sweep chart: ", f);
		bc_html(f, err);
		fputs("</p>\n", f);
		goto out;
	}
	fprintf(f, "<figure class=\"chart sweep\" id=\"sweep-chart\" data-points=\"%zu\">\n", pts);
	if (bc_site_svg(f, &p))
		fputs("<p class=\"muted\">no chart: nothing to draw</p>\n", f);
	fputs("<figcaption>The newest entry of each configuration; the points link to their documents in the tables above.</figcaption>\n</figure>\n",
	      f);
out:
	bc_plot_free(&p);
	if (read)
		bc_doc_free(&doc);
	free(text);
	for (size_t s = 0; s < swept_cnt; s++)
		free(swept[s]);
	free(swept);
}

/* The changes between groups (compare's test, history.c), a table per
 * grouping. */
static void bc_site_changes(struct bc_site *st, FILE *f, const char *bench, enum bc_history_by by,
			    const char *prefix)
{
	struct bc_store_filter q = { .bench = bench, .metric = st->metric };
	char err[512], val[64];
	struct bc_history h;

	if (bc_history_collect(st->store, &q, by, &h, err, sizeof(err)))
		return;
	fprintf(f, "<h2 id=\"by-%s\">Changes by %s</h2>\n", bc_history_by_name(by), bc_history_by_name(by));
	fprintf(f, "<table class=\"changes\">\n<tr><th class=\"name\">configuration</th><th class=\"name\">%s</th><th>entries</th><th>mean</th><th>95%% CI</th><th>change</th><th>p</th><th class=\"name\">verdict</th><th>newest</th></tr>\n",
		bc_history_by_name(by));
	for (size_t i = 0; i < h.cnt; i++) {
		const struct bc_history_group *g = &h.groups[i];
		struct bc_site_entry *e = bc_site_by_id(st, g->last_id);
		const char *data = e ? bc_site_data(st, e) : NULL;

		bc_fmt_value(g->mean, g->unit, val, sizeof(val));
		fputs("<tr><td class=\"name\">", f);
		bc_html(f, *g->options ? g->options : "default options");
		fputs("</td><td class=\"name\">", f);
		bc_html(f, g->name);
		fprintf(f, "</td><td>%zu</td><td>", g->n);
		bc_html(f, val);
		if (isfinite(g->ci_half) && g->mean != 0.0)
			fprintf(f, "</td><td>&#177;%.2f%%", g->ci_half / fabs(g->mean) * 100.0);
		else
			fputs("</td><td>n/a", f);
		if (g->has_prev && isfinite(g->change_pct))
			fprintf(f, "</td><td>%+.2f%%", g->change_pct);
		else
			fputs("</td><td>", f);
		if (g->has_prev && g->valid)
			fprintf(f, "</td><td>%.3g", g->p);
		else
			fputs("</td><td>", f);
		fprintf(f, "</td><td class=\"name %s\">%s", g->has_prev && g->significant ? g->verdict : "",
			g->has_prev ? g->verdict : "");
		fputs("</td><td>", f);
		if (data) {
			fprintf(f, "<a class=\"doc\" href=\"%s", prefix);
			bc_html(f, data);
			fputs("\">JSON</a>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	bc_history_free(&h);
}

static int bc_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The distinct values of a field of the entries (those of bench when not
 * NULL), in first-seen order (date order). */
static size_t bc_site_distinct(const struct bc_site *st, const char *bench, size_t field_off,
			       char ***out)
{
	char **v = calloc(st->cnt + 1, sizeof(*v));
	size_t cnt = 0;

	*out = v;
	if (!v)
		return 0;
	for (size_t i = 0; i < st->cnt; i++) {
		const char *s = *(char *const *)((const char *)&st->e[i] + field_off);
		bool seen = false;

		if (!s || (bench && strcmp(st->e[i].bench, bench)))
			continue;
		for (size_t k = 0; k < cnt && !seen; k++)
			seen = !strcmp(v[k], s);
		if (!seen)
			v[cnt++] = (char *)s;
	}
	return cnt;
}

static void bc_site_bench_page(struct bc_site *st, const char *bench)
{
	char slug[512], rel[600];
	char **configs;
	size_t cfg_cnt = bc_site_distinct(st, bench, offsetof(struct bc_site_entry, options), &configs);
	FILE *f;

	bc_site_slug(bench, slug, sizeof(slug));
	snprintf(rel, sizeof(rel), "bench/%s.html", slug);
	f = bc_site_create(st, rel);
	if (!f) {
		free(configs);
		return;
	}
	bc_site_head(f, bench);
	fputs("<p><a href=\"../index.html\">&#8592; all benchmarks</a></p>\n<h1>", f);
	bc_html(f, bench);
	fputs("</h1>\n<p>Configurations:</p>\n<ul>\n", f);
	for (size_t c = 0; c < cfg_cnt; c++) {
		fprintf(f, "<li><a href=\"#config-%zu\">", c);
		bc_html(f, *configs[c] ? configs[c] : "default options");
		fputs("</a></li>\n", f);
	}
	fputs("</ul>\n", f);
	for (size_t c = 0; c < cfg_cnt; c++)
		bc_site_trend(st, f, bench, configs[c], c);
	if (cfg_cnt >= 2)
		bc_site_sweep(st, f, bench, configs, cfg_cnt);
	bc_site_changes(st, f, bench, BC_HISTORY_BY_KERNEL, "../");
	bc_site_changes(st, f, bench, BC_HISTORY_BY_LABEL, "../");
	fputs("</body>\n</html>\n", f);
	bc_site_close(st, f, rel);
	free(configs);
}

/* ------------------------------------------------------------ the index */

static void bc_site_matrix(struct bc_site *st, FILE *f, char **benches, size_t bench_cnt,
			   enum bc_history_by by)
{
	size_t off = by == BC_HISTORY_BY_KERNEL ? offsetof(struct bc_site_entry, kernel)
					     : offsetof(struct bc_site_entry, label);
	char **cols, slug[512], val[64], err[512];
	size_t col_cnt = bc_site_distinct(st, NULL, off, &cols);

	fprintf(f, "<h2 id=\"by-%s\">By %s</h2>\n", bc_history_by_name(by), bc_history_by_name(by));
	if (!col_cnt) {
		fprintf(f, "<p class=\"muted\">No entry has a %s.</p>\n", bc_history_by_name(by));
		free(cols);
		return;
	}
	fprintf(f, "<table class=\"matrix\" id=\"matrix-%s\">\n<tr><th class=\"name\">benchmark</th><th class=\"name\">configuration</th>",
		bc_history_by_name(by));
	for (size_t c = 0; c < col_cnt; c++) {
		fputs("<th>", f);
		bc_html(f, cols[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t b = 0; b < bench_cnt; b++) {
		struct bc_store_filter q = { .bench = benches[b], .metric = st->metric };
		char **configs;
		size_t cfg_cnt = bc_site_distinct(st, benches[b],
						  offsetof(struct bc_site_entry, options), &configs);
		struct bc_history h;

		if (bc_history_collect(st->store, &q, by, &h, err, sizeof(err))) {
			free(configs);
			continue;
		}
		bc_site_slug(benches[b], slug, sizeof(slug));
		for (size_t c = 0; c < cfg_cnt; c++) {
			fprintf(f, "<tr><td class=\"name\"><a href=\"bench/%s.html#config-%zu\">", slug, c);
			bc_html(f, benches[b]);
			fputs("</a></td><td class=\"name\">", f);
			bc_html(f, *configs[c] ? configs[c] : "default options");
			fputs("</td>", f);
			for (size_t k = 0; k < col_cnt; k++) {
				const struct bc_history_group *g = NULL;

				for (size_t i = 0; i < h.cnt && !g; i++)
					if (!strcmp(h.groups[i].options, configs[c]) &&
					    !strcmp(h.groups[i].name, cols[k]))
						g = &h.groups[i];
				fputs("<td>", f);
				if (g) {
					struct bc_site_entry *e = bc_site_by_id(st, g->last_id);
					const char *data = e ? bc_site_data(st, e) : NULL;

					bc_fmt_value(g->mean, g->unit, val, sizeof(val));
					if (data) {
						fputs("<a class=\"doc\" href=\"", f);
						bc_html(f, data);
						fputs("\">", f);
					}
					bc_html(f, val);
					fputs(data ? "</a>" : "", f);
					bc_site_mark(f, g);
				}
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
		bc_history_free(&h);
		free(configs);
	}
	fputs("</table>\n", f);
	free(cols);
}

static void bc_site_index(struct bc_site *st, char **benches, size_t bench_cnt)
{
	FILE *f = bc_site_create(st, "index.html");
	char slug[512], now[32];
	time_t t = time(NULL);
	struct tm tm;

	if (!f)
		return;
	now[0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(now, sizeof(now), "%Y-%m-%d %H:%M:%SZ", &tm);
	bc_site_head(f, "benchcore results");
	fputs("<h1>benchcore results</h1>\n<p class=\"muted\">", f);
	fprintf(f, "%zu entries of %zu benchmarks from <code>", st->cnt, bench_cnt);
	bc_html(f, st->store_path);
	fprintf(f, "</code>, made %s. Each figure is the newest group's mean and links to its newest document; &#9660; a significant regression and &#9650; a significant improvement against the column before (Welch, p &lt; 0.05).</p>\n",
		now);
	fputs("<h2>Benchmarks</h2>\n<ul>\n", f);
	for (size_t b = 0; b < bench_cnt; b++) {
		bc_site_slug(benches[b], slug, sizeof(slug));
		fprintf(f, "<li><a href=\"bench/%s.html\">", slug);
		bc_html(f, benches[b]);
		fputs("</a></li>\n", f);
	}
	fputs("</ul>\n", f);
	bc_site_cp_index(st, f);
	bc_site_matrix(st, f, benches, bench_cnt, BC_HISTORY_BY_KERNEL);
	bc_site_matrix(st, f, benches, bench_cnt, BC_HISTORY_BY_LABEL);
	fputs("</body>\n</html>\n", f);
	bc_site_close(st, f, "index.html");
}

/* ------------------------------------------------------------ the swap */

static int bc_rm_tree(const char *path)
{
	struct stat sb;
	DIR *d;
	struct dirent *de;
	char sub[PATH_MAX];
	int ret = 0;

	if (lstat(path, &sb))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(sb.st_mode))
		return unlink(path) ? -errno : 0;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= (int)sizeof(sub)) {
			ret = -ENAMETOOLONG;
			continue;
		}
		if (bc_rm_tree(sub))
			ret = -EIO;
	}
	closedir(d);
	if (rmdir(path))
		ret = ret ? ret : -errno;
	return ret;
}

/* DIR exists: is it a report (or empty), which may be replaced? */
bool bc_site_replaceable(const char *dir)
{
	char mark[PATH_MAX];
	struct dirent *de;
	bool empty = true;
	DIR *d;

	snprintf(mark, sizeof(mark), "%s/%s", dir, BC_SITE_MARK);
	if (!access(mark, F_OK))
		return true;
	d = opendir(dir);
	if (!d)
		return false;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

int bc_site_write(struct bc_store *store, const char *store_path, struct bc_store_filter *f,
		  const char *dir)
{
	struct bc_site st = { .store = store, .store_path = store_path, .metric = f->metric };
	char err[1024] = "", mark[PATH_MAX + 32];
	char **benches = NULL;
	size_t bench_cnt = 0;
	struct stat sb = { 0 };
	bool exists = !stat(dir, &sb);
	int ret, status = BC_EXIT_FAILED;
	FILE *mf;

	f->ok_only = true;
	ret = bc_store_each_figure(st.store, f, bc_site_load_row, &st, err, sizeof(err));
	if (ret) {
		bc_warn("%s", ret == -ENOMEM ? "report: out of memory" : err);
		goto out;
	}
	/* --metric that no entry has: one line naming those they have. */
	if (f->metric && !st.cnt) {
		char names[1024] = "";

		if (!bc_store_doc_metric_names(st.store, f, names, sizeof(names), err, sizeof(err)) &&
		    *names) {
			bc_warn("report: --metric '%s': no saved entry that ended well has a metric or figure of that name; they have %s",
				f->metric, names);
			status = BC_EXIT_USAGE;
			goto out;
		}
	}
	if (snprintf(st.tmp, sizeof(st.tmp), "%s.tmp-XXXXXX", dir) >= (int)sizeof(st.tmp) ||
	    !mkdtemp(st.tmp)) {
		bc_warn("report: cannot make a directory beside '%s': %s", dir, strerror(errno));
		st.tmp[0] = '\0';
		goto out;
	}
	snprintf(mark, sizeof(mark), "%s/bench", st.tmp);
	mkdir(mark, 0755);
	snprintf(mark, sizeof(mark), "%s/data", st.tmp);
	mkdir(mark, 0755);
	/* mkdtemp makes it 0700; a site is for reading */
	chmod(st.tmp, 0755);
	mf = bc_site_create(&st, BC_SITE_MARK);
	if (mf) {
		fputs("made by `benchcore report`; `benchcore report -o` replaces this directory\n", mf);
		bc_site_close(&st, mf, BC_SITE_MARK);
	}
	bench_cnt = bc_site_distinct(&st, NULL, offsetof(struct bc_site_entry, bench), &benches);
	qsort(benches, bench_cnt, sizeof(*benches), bc_cmp_str);
	for (size_t b = 0; b < bench_cnt && !st.err; b++)
		bc_site_bench_page(&st, benches[b]);
	if (!st.err)
		bc_site_index(&st, benches, bench_cnt);
	if (st.err) {
		bc_warn("%s; '%s' was left as it was", st.why, dir);
		goto out;
	}
	/* In place whole: swapped with the old report, which then goes. */
	if (exists ? renameat2(AT_FDCWD, st.tmp, AT_FDCWD, dir, RENAME_EXCHANGE)
		   : rename(st.tmp, dir)) {
		bc_warn("report: cannot move the new site to '%s': %s; '%s' was left as it was", dir,
			strerror(errno), dir);
		goto out;
	}
	fprintf(stderr, "benchcore: report of %zu entries in %s/index.html\n", st.cnt, dir);
	status = BC_EXIT_OK;
out:
	/* the new site on failure, the old one after the swap */
	if (st.tmp[0])
		bc_rm_tree(st.tmp);
	free(benches);
	st.store = NULL;
	bc_site_free(&st);
	return status;
}
