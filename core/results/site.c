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
 * that is not a previous report, or that holds the store being read, is
 * never replaced, and a DIR that is a link is written where it points.
 *
 * Its cost is linear in the entries (docs/history.md): the store is read
 * once, benchmarks, configurations and columns are found by hash
 * (intern.c), each benchmark's history is grouped from the rows already
 * read, and what could grow with their product is bounded: a page charts
 * at most BC_SITE_MAX_CHARTS configurations, a sweep chart at most
 * BC_SITE_MAX_SWEEP, and a matrix larger than a reader can read is drawn
 * as a summary with a link to the full table (one row per cell).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/exit_status.h"
#include "change_points.h"
#include "history.h"
#include "intern.h"
#include "runtime/doc_keys.h"
#include "runtime/json.h"
#include "run_doc.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "plot.h"
#include "prog_series.h"
#include "runtime/repstats.h"
#include "site.h"
#include "store.h"
#include "store_doc.h"

/* The newest entries a trend chart shows: a chart of more points is a
 * smear, and each point's document is copied into the site. */
#define BC_SITE_MAX_POINTS 200
/* Marks a directory as a report: only such a one is replaced. */
#define BC_SITE_MARK ".benchcore-report"
/* Configurations of one benchmark charted on its page; the rest are rows
 * of a table (each chart is a few KiB of SVG and a table of points). */
#define BC_SITE_MAX_CHARTS 50
/* Configurations drawn as one sweep chart: more is a smear, and each is
 * one more document read. */
#define BC_SITE_MAX_SWEEP 100
/* A matrix of more columns, or more cells, is not read but scrolled: it
 * is drawn as a summary, and its cells listed on a page of their own. */
#define BC_SITE_MATRIX_MAX_COLS 40
#define BC_SITE_MATRIX_MAX_CELLS 20000
/* A page's name: the benchmark's as it is when short and plain, else cut
 * and made unique with a hash of the whole name (names are not bounded
 * by the loader; file names are, at 255 bytes). */
#define BC_SITE_SLUG_MAX 120

struct bc_site_entry {
	long long id;
	char *run_id, *kernel, *label, *date, *host, *metric, *unit;
	size_t bench, cfg;	/* ids: st->benches, st->cfgs */
	double mean, sd;
	unsigned int n;
	bool by_runs;
	bool higher_better;
	char *prog_digest;	/* the store's; NULL: unknown */
	/* its programs differ from the entry before it in its series
	 * (prog_series.h): marked in its trend and its table row */
	bool prog_changed;
	char *data;		/* data/NAME.json once copied, else NULL */
};

/* A configuration: a benchmark's options line. */
struct bc_site_cfg {
	size_t bench;
	const char *options;	/* in the key's text (st->cfg_keys) */
	size_t *entries;	/* indexes into st->e, in date order */
	size_t cnt;
	size_t nth;		/* its number on its benchmark's page */
};

/* A change point of a configuration's series, as the index lists it. */
struct bc_site_cp {
	size_t bench;			/* st->benches */
	const char *options;		/* its configuration's */
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
	struct bc_intern benches;	/* names */
	struct bc_intern cfg_keys;	/* "BENCH_ID:OPTIONS" */
	struct bc_site_cfg *cfgs;
	size_t **bench_cfgs;		/* each benchmark's configurations, in order */
	size_t *bench_cfg_cnt;
	size_t **bench_entries;		/* each benchmark's entries, in date order */
	size_t *bench_entry_cnt;
	char **slugs;			/* each benchmark's page name */
	size_t *by_id;			/* entry indexes sorted by entry id */
	size_t *bench_order;		/* benchmark ids by name */
	/* every trend's change points, for the index (bc_site_cp_*) */
	struct bc_site_cp *cps;
	size_t cp_cnt, cp_cap;
	/* each series' previous program digest, as the rows come (date order) */
	struct bc_prog_series prog_series;
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
	char *key = NULL;
	size_t bench, cfg;

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
	bench = bc_intern(&st->benches, r->k.bench);
	if (bench == BC_INTERN_NONE || asprintf(&key, "%zu:%s", bench, r->k.options) < 0)
		return -ENOMEM;
	cfg = bc_intern(&st->cfg_keys, key);
	free(key);
	if (cfg == BC_INTERN_NONE)
		return -ENOMEM;
	e = &st->e[st->cnt++];
	memset(e, 0, sizeof(*e));
	e->id = r->id;
	e->bench = bench;
	e->cfg = cfg;
	e->run_id = bc_sdup(r->k.run_id);
	e->kernel = r->k.kernel_release ? strdup(r->k.kernel_release) : NULL;
	e->label = r->k.label ? strdup(r->k.label) : NULL;
	e->date = bc_sdup(r->k.date);
	e->host = bc_sdup(r->k.host);
	e->metric = bc_sdup(r->k.metric);
	e->unit = r->k.unit ? strdup(r->k.unit) : NULL;
	e->mean = r->k.mean;
	e->sd = r->k.stddev;
	e->n = r->k.n;
	e->by_runs = r->k.by_runs;
	e->higher_better = r->k.higher_better;
	e->prog_digest = r->k.prog_digest ? strdup(r->k.prog_digest) : NULL;
	if (!e->run_id || !e->date || !e->host || !e->metric || (r->k.label && !e->label) ||
	    (r->k.unit && !e->unit) || (r->k.kernel_release && !e->kernel) ||
	    (r->k.prog_digest && !e->prog_digest))
		return -ENOMEM;
	return bc_prog_series_step(&st->prog_series, &r->k, &e->prog_changed);
}

static int bc_cmp_size(const void *a, const void *b, void *arg)
{
	const struct bc_site *st = arg;
	long long x = st->e[*(const size_t *)a].id, y = st->e[*(const size_t *)b].id;

	return x < y ? -1 : x > y;
}

static int bc_site_slugs(struct bc_site *st);

/*
 * What the pages are made of, from the entries read: each configuration's
 * entries and each benchmark's configurations (counting, in date order),
 * the entries by id (for the history's newest entry of a group), and the
 * pages' names. Linear in the entries, but for the sort by id.
 */
static int bc_site_index_entries(struct bc_site *st)
{
	size_t ncfg = st->cfg_keys.cnt, nb = st->benches.cnt;

	st->cfgs = calloc(ncfg + 1, sizeof(*st->cfgs));
	st->bench_cfgs = calloc(nb + 1, sizeof(*st->bench_cfgs));
	st->bench_cfg_cnt = calloc(nb + 1, sizeof(*st->bench_cfg_cnt));
	st->by_id = malloc((st->cnt + 1) * sizeof(*st->by_id));
	st->bench_entries = calloc(nb + 1, sizeof(*st->bench_entries));
	st->bench_entry_cnt = calloc(nb + 1, sizeof(*st->bench_entry_cnt));
	if (!st->cfgs || !st->bench_cfgs || !st->bench_cfg_cnt || !st->by_id ||
	    !st->bench_entries || !st->bench_entry_cnt)
		return -ENOMEM;
	for (size_t i = 0; i < st->cnt; i++)
		st->bench_entry_cnt[st->e[i].bench]++;
	for (size_t b = 0; b < nb; b++) {
		st->bench_entries[b] = malloc((st->bench_entry_cnt[b] + 1) * sizeof(size_t));
		if (!st->bench_entries[b])
			return -ENOMEM;
		st->bench_entry_cnt[b] = 0;
	}
	for (size_t i = 0; i < st->cnt; i++)
		st->bench_entries[st->e[i].bench][st->bench_entry_cnt[st->e[i].bench]++] = i;
	for (size_t c = 0; c < ncfg; c++)
		st->cfgs[c].options = strchr(st->cfg_keys.strs[c], ':') + 1;
	for (size_t i = 0; i < st->cnt; i++) {
		st->cfgs[st->e[i].cfg].bench = st->e[i].bench;
		st->cfgs[st->e[i].cfg].cnt++;
	}
	for (size_t c = 0; c < ncfg; c++) {
		st->cfgs[c].entries = malloc(st->cfgs[c].cnt * sizeof(size_t));
		if (!st->cfgs[c].entries)
			return -ENOMEM;
		st->cfgs[c].cnt = 0;
		st->bench_cfg_cnt[st->cfgs[c].bench]++;
	}
	for (size_t i = 0; i < st->cnt; i++) {
		struct bc_site_cfg *c = &st->cfgs[st->e[i].cfg];

		c->entries[c->cnt++] = i;
		st->by_id[i] = i;
	}
	for (size_t b = 0; b < nb; b++) {
		st->bench_cfgs[b] = malloc((st->bench_cfg_cnt[b] + 1) * sizeof(size_t));
		if (!st->bench_cfgs[b])
			return -ENOMEM;
		st->bench_cfg_cnt[b] = 0;
	}
	/* ids are made in first-seen order: a benchmark's configurations
	 * come out in the order their first entries were saved */
	for (size_t c = 0; c < ncfg; c++) {
		size_t b = st->cfgs[c].bench;

		st->cfgs[c].nth = st->bench_cfg_cnt[b];
		st->bench_cfgs[b][st->bench_cfg_cnt[b]++] = c;
	}
	qsort_r(st->by_id, st->cnt, sizeof(*st->by_id), bc_cmp_size, st);
	return bc_site_slugs(st);
}

static void bc_site_free(struct bc_site *st)
{
	for (size_t i = 0; i < st->cnt; i++) {
		struct bc_site_entry *e = &st->e[i];

		free(e->run_id);
		free(e->kernel);
		free(e->label);
		free(e->date);
		free(e->host);
		free(e->metric);
		free(e->unit);
		free(e->prog_digest);
		free(e->data);
	}
	free(st->e);
	free(st->cps);
	bc_prog_series_free(&st->prog_series);
	for (size_t c = 0; st->cfgs && c < st->cfg_keys.cnt; c++)
		free(st->cfgs[c].entries);
	free(st->cfgs);
	for (size_t b = 0; b < st->benches.cnt; b++) {
		if (st->bench_cfgs)
			free(st->bench_cfgs[b]);
		if (st->bench_entries)
			free(st->bench_entries[b]);
		if (st->slugs)
			free(st->slugs[b]);
	}
	free(st->bench_cfgs);
	free(st->bench_cfg_cnt);
	free(st->bench_entries);
	free(st->bench_entry_cnt);
	free(st->slugs);
	free(st->by_id);
	free(st->bench_order);
	bc_intern_free(&st->benches);
	bc_intern_free(&st->cfg_keys);
}

static const char *bc_site_bench_name(const struct bc_site *st, size_t b)
{
	return st->benches.strs[b];
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
 * path segment that needs no escaping, of at most BC_SITE_SLUG_MAX bytes.
 * Returns whether that is the name's alone: one ':', only letters,
 * digits, '-', '.' and single '_' not beside it, not cut, so that the
 * one "__" is the ':' and no other name maps there. */
static bool bc_site_slug(const char *bench, char *buf, size_t len)
{
	size_t o = 0, colons = 0;
	bool plain = *bench != '.';

	for (const char *p = bench; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';

		if (o + 3 >= len || o + 2 > BC_SITE_SLUG_MAX) {
			plain = false;
			break;
		}
		if (c == ':') {
			colons++;
			buf[o++] = '_';
			buf[o++] = '_';
			continue;
		}
		if (c == '_' && ((p > bench && (p[-1] == '_' || p[-1] == ':')) || p[1] == '_' ||
				 p[1] == ':'))
			plain = false;
		plain &= ok;
		buf[o++] = ok ? c : '_';
	}
	buf[o] = '\0';
	return plain && colons == 1;
}

/*
 * Each benchmark's page name: its slug when that is its alone, else the
 * slug (cut) with a hash of the whole name; and whatever the hash did,
 * one taken already (case aside, for a report copied to a file system
 * that folds it) gets a number.
 */
static int bc_site_slugs(struct bc_site *st)
{
	size_t nb = st->benches.cnt;
	struct bc_intern taken = { 0 };
	char buf[BC_SITE_SLUG_MAX + 64], folded[sizeof(buf)];
	int ret = 0;

	st->slugs = calloc(nb + 1, sizeof(*st->slugs));
	if (!st->slugs)
		return -ENOMEM;
	for (size_t b = 0; b < nb && !ret; b++) {
		const char *name = bc_site_bench_name(st, b);
		size_t o, before;

		if (!bc_site_slug(name, buf, sizeof(buf))) {
			o = strlen(buf);
			snprintf(buf + o, sizeof(buf) - o, "-%016llx",
				 (unsigned long long)bc_intern_hash(name));
		}
		o = strlen(buf);
		for (unsigned int n = 2;; n++) {
			for (size_t i = 0; i <= strlen(buf); i++)
				folded[i] = (char)tolower((unsigned char)buf[i]);
			before = taken.cnt;
			if (bc_intern(&taken, folded) == BC_INTERN_NONE) {
				ret = -ENOMEM;
				break;
			}
			if (taken.cnt > before)
				break;
			snprintf(buf + o, sizeof(buf) - o, "-%u", n);
		}
		st->slugs[b] = strdup(buf);
		if (!st->slugs[b])
			ret = -ENOMEM;
	}
	bc_intern_free(&taken);
	return ret;
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
	".prog-changed{color:#6a3d9a;font-weight:bold}\n"
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

/* The mark of an entry (or a group with one) whose BPF programs differ
 * from the entry before it in its series: a star whose tooltip says so. */
static void bc_site_prog_mark(FILE *f, const char *title)
{
	fputs(" <span class=\"prog-changed\" title=\"", f);
	bc_html(f, title);
	fputs("\">*</span>", f);
}

static struct bc_site_entry *bc_site_by_id(struct bc_site *st, long long id)
{
	size_t lo = 0, hi = st->cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		long long x = st->e[st->by_id[mid]].id;

		if (x == id)
			return &st->e[st->by_id[mid]];
		if (x < id)
			lo = mid + 1;
		else
			hi = mid;
	}
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
 * The change points of a configuration's series (its entries, oldest
 * first), history's search over the whole series: the
 * ones among the newest `shown` become marks between the chart's points,
 * and every one is kept for the index. A failure to search (memory) costs
 * the marks, not the page.
 */
static void bc_site_cp_marks(struct bc_site *st, const struct bc_site_cfg *cfg, size_t shown,
			     struct bc_site_marks *mk)
{
	const size_t *all = cfg->entries, total = cfg->cnt;
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
			st->cps[st->cp_cnt++] = (struct bc_site_cp){ .bench = cfg->bench,
								     .options = cfg->options,
								     .chart = cfg->nth, .entry = all[pts[i].at],
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

	return d ? d : strcmp(bc_site_bench_name(st, a->bench), bc_site_bench_name(st, b->bench));
}

/* The index's list: the newest change points of every trend, each linked
 * to its chart. */
static void bc_site_cp_index(struct bc_site *st, FILE *f)
{
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

		fprintf(f, "<tr class=\"change-point\"><td class=\"name\"><a href=\"bench/%s.html#trend-%zu\">",
			st->slugs[c->bench], c->chart);
		bc_html(f, bc_site_bench_name(st, c->bench));
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

static void bc_site_trend(struct bc_site *st, FILE *f, const struct bc_site_cfg *cfg)
{
	const char *bench = bc_site_bench_name(st, cfg->bench), *options = cfg->options;
	size_t n = cfg->cnt < BC_SITE_MAX_POINTS ? cfg->cnt : BC_SITE_MAX_POINTS;
	/* the newest BC_SITE_MAX_POINTS, oldest first */
	const size_t *idx = cfg->entries + (cfg->cnt - n);
	struct bc_site_marks mk = { 0 };
	struct bc_plot_point pts[BC_SITE_MAX_POINTS];
	struct bc_plot_tick ticks[BC_SITE_MAX_POINTS];
	char dates[BC_SITE_MAX_POINTS][24], val[64];
	struct bc_plot_series series = { 0 };
	struct bc_plot_panel pn = { 0 };
	struct bc_plot p = { 0 };
	const struct bc_site_entry *first;
	size_t prog_changes = 0;
	char note[256];

	if (!n)
		return;
	bc_site_cp_marks(st, cfg, n, &mk);
	first = &st->e[idx[0]];
	for (size_t k = 0; k < n; k++) {
		const struct bc_site_entry *e = &st->e[idx[k]];
		double ci = bc_entry_ci(e);

		pts[k] = (struct bc_plot_point){ .x = (double)k, .y = e->mean,
						 .lo = isfinite(ci) ? e->mean - ci : NAN,
						 .hi = isfinite(ci) ? e->mean + ci : NAN,
						 .ring = e->prog_changed ? BC_PROG_CHANGED_WORDS : NULL };
		prog_changes += e->prog_changed;
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
	snprintf(note, sizeof(note), "error bars: 95%% confidence interval of each entry's mean%s%s",
		 mk.cnt ? "; dashed: a change point" : "",
		 prog_changes ? "; ringed: the BPF programs changed" : "");
	pn.note = note;
	pn.marks = mk.m;
	pn.mark_cnt = mk.cnt;
	p.title = bench;
	p.lines[0] = *options ? options : "default options";
	p.line_cnt = 1;
	p.panels = &pn;
	p.panel_cnt = 1;

	fprintf(f, "<h2 id=\"config-%zu\">", cfg->nth);
	bc_html(f, *options ? options : "default options");
	fputs("</h2>\n", f);
	fprintf(f, "<figure class=\"chart trend\" id=\"trend-%zu\" data-points=\"%zu\" data-change-points=\"%zu\" data-program-changes=\"%zu\">\n",
		cfg->nth, n, mk.cnt, prog_changes);
	if (bc_site_svg(f, &p))
		fputs("<p class=\"muted\">no chart: nothing to draw</p>\n", f);
	fputs("<figcaption>", f);
	bc_html(f, first->metric);
	fprintf(f, " (%s is better); %zu of %zu entries. Each point's document is linked below.",
		first->higher_better ? "higher" : "lower", n, cfg->cnt);
	if (mk.cnt)
		fprintf(f, " %zu change point%s marked (E-divisive means, p &lt; %g).", mk.cnt,
			mk.cnt == 1 ? "" : "s", BC_CP_ALPHA);
	if (prog_changes)
		fprintf(f, " <span class=\"prog-changed\">*</span> %zu entr%s ringed and starred: the benchmark's BPF programs changed there, against the entry before on the same host and kernel (benchcore compare shows how).",
			prog_changes, prog_changes == 1 ? "y" : "ies");
	fputs("</figcaption>\n</figure>\n", f);
	fputs("<table class=\"points\">\n<tr><th>#</th><th class=\"name\">date</th><th class=\"name\">label</th><th class=\"name\">kernel</th><th class=\"name\">host</th><th>mean</th><th>95% CI</th><th>document</th></tr>\n",
	      f);
	for (size_t k = 0; k < n; k++) {
		struct bc_site_entry *e = &st->e[idx[k]];
		const char *data = bc_site_data(st, e);
		double ci = bc_entry_ci(e);

		bc_fmt_value(e->mean, e->unit, val, sizeof(val));
		fprintf(f, "<tr%s><td>%zu</td><td class=\"name\">",
			e->prog_changed ? " class=\"program-changed\"" : "", k + 1);
		bc_html(f, e->date);
		if (e->prog_changed)
			bc_site_prog_mark(f, BC_PROG_CHANGED_WORDS);
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

/* The configurations past the charted ones: a row each, with the newest
 * entry's figure and document, each row the target of its #config-N. */
static void bc_site_more_configs(struct bc_site *st, FILE *f, const size_t *cfgs, size_t cnt)
{
	char val[64];

	fprintf(f, "<h2 id=\"more-configs\">%zu more configurations</h2>\n<p class=\"muted\">Past the first %d, a row each: its newest entry.</p>\n",
		cnt, BC_SITE_MAX_CHARTS);
	fputs("<table class=\"configs\">\n<tr><th class=\"name\">configuration</th><th>entries</th><th class=\"name\">newest</th><th>mean</th><th>document</th></tr>\n",
	      f);
	for (size_t k = 0; k < cnt; k++) {
		const struct bc_site_cfg *c = &st->cfgs[cfgs[k]];
		struct bc_site_entry *e = &st->e[c->entries[c->cnt - 1]];
		const char *data = bc_site_data(st, e);

		bc_fmt_value(e->mean, e->unit, val, sizeof(val));
		fprintf(f, "<tr id=\"config-%zu\"><td class=\"name\">", c->nth);
		bc_html(f, *c->options ? c->options : "default options");
		fprintf(f, "</td><td>%zu</td><td class=\"name\">", c->cnt);
		bc_html(f, e->date);
		fputs("</td><td>", f);
		bc_html(f, val);
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
static void bc_site_changes(struct bc_site *st, FILE *f, const struct bc_history *h,
			    enum bc_history_by by, const char *prefix)
{
	char val[64];

	fprintf(f, "<h2 id=\"by-%s\">Changes by %s</h2>\n", bc_history_by_name(by), bc_history_by_name(by));
	fprintf(f, "<table class=\"changes\">\n<tr><th class=\"name\">configuration</th><th class=\"name\">%s</th><th>entries</th><th>mean</th><th>95%% CI</th><th>change</th><th>p</th><th class=\"name\">verdict</th><th>newest</th></tr>\n",
		bc_history_by_name(by));
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_history_group *g = &h->groups[i];
		struct bc_site_entry *e = bc_site_by_id(st, g->last_id);
		const char *data = e ? bc_site_data(st, e) : NULL;

		bc_fmt_value(g->mean, g->unit, val, sizeof(val));
		fputs("<tr><td class=\"name\">", f);
		bc_html(f, *g->options ? g->options : "default options");
		fputs("</td><td class=\"name\">", f);
		bc_html(f, g->name);
		if (g->prog_changes)
			bc_site_prog_mark(f, "the benchmark's BPF programs changed at an entry of this group (benchcore compare shows how)");
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
}

/*
 * A benchmark's history by kernel or by label, from the entries already
 * read (in date order, as history reads them): the same groups, numbers
 * and verdicts as `benchcore history`, without a query per benchmark.
 */
static int bc_site_history(struct bc_site *st, size_t bench, enum bc_history_by by,
			   struct bc_history *h)
{
	const char *name = bc_site_bench_name(st, bench);
	int ret = 0;

	memset(h, 0, sizeof(*h));
	for (size_t k = 0; k < st->bench_entry_cnt[bench] && !ret; k++) {
		const struct bc_site_entry *e = &st->e[st->bench_entries[bench][k]];
		struct bc_store_row r = { .id = e->id };

		r.k = (struct bc_store_keys){ .run_id = e->run_id, .bench = name,
			.options = st->cfgs[e->cfg].options, .kernel_release = e->kernel,
			.host = e->host, .prog_digest = e->prog_digest,
			.label = e->label, .date = e->date, .metric = e->metric, .unit = e->unit,
			.mean = e->mean, .stddev = e->sd, .n = e->n, .by_runs = e->by_runs,
			.higher_better = e->higher_better };
		ret = bc_history_add(h, by, &r);
	}
	if (!ret)
		ret = bc_history_done(h);
	if (ret)
		bc_history_free(h);
	return ret;
}

static void bc_site_bench_page(struct bc_site *st, size_t bench, const struct bc_history *by_kernel,
			       const struct bc_history *by_label)
{
	const char *name = bc_site_bench_name(st, bench);
	const size_t *cfgs = st->bench_cfgs[bench];
	size_t cfg_cnt = st->bench_cfg_cnt[bench];
	char rel[BC_SITE_SLUG_MAX + 128];
	FILE *f;

	snprintf(rel, sizeof(rel), "bench/%s.html", st->slugs[bench]);
	f = bc_site_create(st, rel);
	if (!f)
		return;
	bc_site_head(f, name);
	fputs("<p><a href=\"../index.html\">&#8592; all benchmarks</a></p>\n<h1>", f);
	bc_html(f, name);
	fputs("</h1>\n<p>Configurations:</p>\n<ul>\n", f);
	for (size_t c = 0; c < cfg_cnt; c++) {
		const struct bc_site_cfg *cfg = &st->cfgs[cfgs[c]];

		fprintf(f, "<li><a href=\"#config-%zu\">", cfg->nth);
		bc_html(f, *cfg->options ? cfg->options : "default options");
		fputs("</a></li>\n", f);
	}
	fputs("</ul>\n", f);
	for (size_t c = 0; c < cfg_cnt && c < BC_SITE_MAX_CHARTS; c++)
		bc_site_trend(st, f, &st->cfgs[cfgs[c]]);
	if (cfg_cnt > BC_SITE_MAX_CHARTS)
		bc_site_more_configs(st, f, cfgs + BC_SITE_MAX_CHARTS, cfg_cnt - BC_SITE_MAX_CHARTS);
	if (cfg_cnt >= 2 && cfg_cnt <= BC_SITE_MAX_SWEEP) {
		char **configs = calloc(cfg_cnt + 1, sizeof(*configs));

		for (size_t c = 0; configs && c < cfg_cnt; c++)
			configs[c] = (char *)st->cfgs[cfgs[c]].options;
		if (configs)
			bc_site_sweep(st, f, name, configs, cfg_cnt);
		free(configs);
	} else if (cfg_cnt > BC_SITE_MAX_SWEEP) {
		fprintf(f, "<h2 id=\"sweep\">Across configurations</h2>\n<p class=\"muted\">No sweep chart: %zu configurations are more than the %d one chart can show; each is in the tables above.</p>\n",
			cfg_cnt, BC_SITE_MAX_SWEEP);
	}
	if (by_kernel)
		bc_site_changes(st, f, by_kernel, BC_HISTORY_BY_KERNEL, "../");
	if (by_label)
		bc_site_changes(st, f, by_label, BC_HISTORY_BY_LABEL, "../");
	fputs("</body>\n</html>\n", f);
	bc_site_close(st, f, rel);
}

/* ------------------------------------------------------------ the index */

/* One grouping's matrix: benchmarks x configurations down, kernels or
 * labels across. Its columns are known before any benchmark is read, so
 * the rows are written as each benchmark's history is made. */
struct bc_site_matrix {
	enum bc_history_by by;
	struct bc_intern cols;		/* in the order first seen */
	bool summary;			/* too large: a summary and the full table */
	FILE *rows;			/* the matrix's rows, or the summary's */
	char *rows_text;
	size_t rows_len;
	FILE *full;			/* the full table's rows, when summary */
	char *full_text;
	size_t full_len;
	size_t cells;
};

struct bc_site_cell {
	size_t row, col, group;
};

static int bc_cmp_cell(const void *a, const void *b)
{
	const struct bc_site_cell *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return (x->group > y->group) - (x->group < y->group);
}

static const char *bc_site_col_of(const struct bc_site_entry *e, enum bc_history_by by)
{
	/* as history names the group of an entry without one */
	if (by == BC_HISTORY_BY_KERNEL)
		return e->kernel ? e->kernel : "?";
	return e->label;
}

static int bc_site_matrix_init(struct bc_site *st, struct bc_site_matrix *mx, enum bc_history_by by)
{
	memset(mx, 0, sizeof(*mx));
	mx->by = by;
	for (size_t i = 0; i < st->cnt; i++) {
		const char *c = bc_site_col_of(&st->e[i], by);

		if (c && bc_intern(&mx->cols, c) == BC_INTERN_NONE)
			return -ENOMEM;
	}
	mx->summary = mx->cols.cnt > BC_SITE_MATRIX_MAX_COLS ||
		      (mx->cols.cnt && st->cfg_keys.cnt > BC_SITE_MATRIX_MAX_CELLS / mx->cols.cnt);
	mx->rows = open_memstream(&mx->rows_text, &mx->rows_len);
	if (mx->rows && mx->summary)
		mx->full = open_memstream(&mx->full_text, &mx->full_len);
	return mx->rows && (!mx->summary || mx->full) ? 0 : -ENOMEM;
}

static void bc_site_matrix_free(struct bc_site_matrix *mx)
{
	if (mx->rows)
		fclose(mx->rows);
	if (mx->full)
		fclose(mx->full);
	free(mx->rows_text);
	free(mx->full_text);
	bc_intern_free(&mx->cols);
}

/* A cell's figure: the newest group's mean, linked to its newest
 * document, with its mark. */
static void bc_site_cell(struct bc_site *st, FILE *f, const struct bc_history_group *g,
			 const char *prefix)
{
	struct bc_site_entry *e = bc_site_by_id(st, g->last_id);
	const char *data = e ? bc_site_data(st, e) : NULL;
	char val[64];

	bc_fmt_value(g->mean, g->unit, val, sizeof(val));
	if (data) {
		fprintf(f, "<a class=\"doc\" href=\"%s", prefix);
		bc_html(f, data);
		fputs("\">", f);
	}
	bc_html(f, val);
	fputs(data ? "</a>" : "", f);
	bc_site_mark(f, g);
}

/* The rows of one benchmark: each group finds its row (configuration) and
 * column by hash; the cells are sorted, and each row written once. */
static int bc_site_matrix_add(struct bc_site *st, struct bc_site_matrix *mx, size_t bench,
			      const struct bc_history *h)
{
	const char *name = bc_site_bench_name(st, bench);
	struct bc_site_cell *cells = malloc((h->cnt + 1) * sizeof(*cells));
	size_t cnt = 0, regressed = 0, improved = 0, k = 0;
	char *key = NULL;

	if (!cells)
		return -ENOMEM;
	for (size_t i = 0; i < h->cnt; i++) {
		const struct bc_history_group *g = &h->groups[i];
		size_t cfg, col = bc_intern_find(&mx->cols, g->name);

		if (asprintf(&key, "%zu:%s", bench, g->options) < 0) {
			free(cells);
			return -ENOMEM;
		}
		cfg = bc_intern_find(&st->cfg_keys, key);
		free(key);
		if (cfg == BC_INTERN_NONE || col == BC_INTERN_NONE)
			continue;
		cells[cnt++] = (struct bc_site_cell){ .row = st->cfgs[cfg].nth, .col = col, .group = i };
		if (g->has_prev && g->significant)
			regressed += !strcmp(g->verdict, "regressed"),
			improved += !strcmp(g->verdict, "improved");
	}
	/* the first group of a cell, as a reader scanning the groups finds */
	qsort(cells, cnt, sizeof(*cells), bc_cmp_cell);
	if (mx->summary) {
		size_t cols = 0;

		for (size_t i = 0; i < cnt; i++)
			cols += !i || cells[i].col != cells[i - 1].col || cells[i].row != cells[i - 1].row;
		fprintf(mx->rows, "<tr><td class=\"name\"><a href=\"bench/%s.html\">", st->slugs[bench]);
		bc_html(mx->rows, name);
		fprintf(mx->rows, "</a></td><td>%zu</td><td>%zu</td><td>%zu</td><td>%zu</td></tr>\n",
			st->bench_cfg_cnt[bench], cols, regressed, improved);
		for (size_t i = 0; i < cnt; i++) {
			const struct bc_history_group *g = &h->groups[cells[i].group];
			const struct bc_site_cfg *cfg = &st->cfgs[st->bench_cfgs[bench][cells[i].row]];

			if (i && cells[i].row == cells[i - 1].row && cells[i].col == cells[i - 1].col)
				continue;
			fprintf(mx->full, "<tr><td class=\"name\"><a href=\"bench/%s.html#config-%zu\">",
				st->slugs[bench], cfg->nth);
			bc_html(mx->full, name);
			fputs("</a></td><td class=\"name\">", mx->full);
			bc_html(mx->full, *cfg->options ? cfg->options : "default options");
			fputs("</td><td class=\"name\">", mx->full);
			bc_html(mx->full, mx->cols.strs[cells[i].col]);
			fputs("</td><td>", mx->full);
			bc_site_cell(st, mx->full, g, "");
			fputs("</td></tr>\n", mx->full);
			mx->cells++;
		}
		free(cells);
		return 0;
	}
	for (size_t c = 0; c < st->bench_cfg_cnt[bench]; c++) {
		const struct bc_site_cfg *cfg = &st->cfgs[st->bench_cfgs[bench][c]];
		size_t col = 0;

		fprintf(mx->rows, "<tr><td class=\"name\"><a href=\"bench/%s.html#config-%zu\">",
			st->slugs[bench], c);
		bc_html(mx->rows, name);
		fputs("</a></td><td class=\"name\">", mx->rows);
		bc_html(mx->rows, *cfg->options ? cfg->options : "default options");
		fputs("</td>", mx->rows);
		for (; col < mx->cols.cnt; col++) {
			fputs("<td>", mx->rows);
			if (k < cnt && cells[k].row == c && cells[k].col == col) {
				bc_site_cell(st, mx->rows, &h->groups[cells[k].group], "");
				mx->cells++;
				while (k < cnt && cells[k].row == c && cells[k].col == col)
					k++;
			}
			fputs("</td>", mx->rows);
		}
		fputs("</tr>\n", mx->rows);
	}
	free(cells);
	return 0;
}

/* The full table of a matrix drawn as a summary: one row per cell. */
static void bc_site_full_table(struct bc_site *st, struct bc_site_matrix *mx, const char *rel)
{
	const char *by = bc_history_by_name(mx->by);
	FILE *f = bc_site_create(st, rel);
	char title[64];

	if (!f)
		return;
	snprintf(title, sizeof(title), "benchcore results by %s", by);
	bc_site_head(f, title);
	fprintf(f, "<p><a href=\"index.html\">&#8592; all benchmarks</a></p>\n<h1>By %s: every cell</h1>\n", by);
	fprintf(f, "<p class=\"muted\">%zu cells: each configuration's newest group of each %s, as the matrix would show it.</p>\n",
		mx->cells, by);
	fprintf(f, "<table class=\"cells\" id=\"cells-%s\">\n<tr><th class=\"name\">benchmark</th><th class=\"name\">configuration</th><th class=\"name\">%s</th><th>mean</th></tr>\n",
		by, by);
	if (mx->full_text)
		fwrite(mx->full_text, 1, mx->full_len, f);
	fputs("</table>\n</body>\n</html>\n", f);
	bc_site_close(st, f, rel);
}

static void bc_site_matrix_write(struct bc_site *st, FILE *f, struct bc_site_matrix *mx)
{
	const char *by = bc_history_by_name(mx->by);
	char rel[64];

	fprintf(f, "<h2 id=\"by-%s\">By %s</h2>\n", by, by);
	if (!mx->cols.cnt) {
		fprintf(f, "<p class=\"muted\">No entry has a %s.</p>\n", by);
		return;
	}
	if (fflush(mx->rows) || (mx->full && fflush(mx->full))) {
		st->err = st->err ? st->err : -ENOMEM;
		snprintf(st->why, sizeof(st->why), "report: out of memory");
		return;
	}
	if (mx->summary) {
		snprintf(rel, sizeof(rel), "by-%s.html", by);
		bc_site_full_table(st, mx, rel);
		fprintf(f, "<p id=\"summary-%s\">%zu configurations &#215; %zu %ss is more than a matrix can show: a row per benchmark here, and <a href=\"%s\">every cell in one table</a>.</p>\n",
			by, st->cfg_keys.cnt, mx->cols.cnt, by, rel);
		fprintf(f, "<table class=\"summary\" id=\"matrix-%s\">\n<tr><th class=\"name\">benchmark</th><th>configurations</th><th>cells</th><th>&#9660; regressed</th><th>&#9650; improved</th></tr>\n",
			by);
		fwrite(mx->rows_text, 1, mx->rows_len, f);
		fputs("</table>\n", f);
		return;
	}
	fprintf(f, "<table class=\"matrix\" id=\"matrix-%s\">\n<tr><th class=\"name\">benchmark</th><th class=\"name\">configuration</th>",
		by);
	for (size_t c = 0; c < mx->cols.cnt; c++) {
		fputs("<th>", f);
		bc_html(f, mx->cols.strs[c]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	fwrite(mx->rows_text, 1, mx->rows_len, f);
	fputs("</table>\n", f);
}

static void bc_site_index(struct bc_site *st, struct bc_site_matrix *mx, size_t mx_cnt)
{
	FILE *f = bc_site_create(st, "index.html");
	char now[32];
	time_t t = time(NULL);
	struct tm tm;

	if (!f)
		return;
	now[0] = '\0';
	if (gmtime_r(&t, &tm))
		strftime(now, sizeof(now), "%Y-%m-%d %H:%M:%SZ", &tm);
	bc_site_head(f, "benchcore results");
	fputs("<h1>benchcore results</h1>\n<p class=\"muted\">", f);
	fprintf(f, "%zu entries of %zu benchmarks from <code>", st->cnt, st->benches.cnt);
	bc_html(f, st->store_path);
	fprintf(f, "</code>, made %s. Each figure is the newest group's mean and links to its newest document; &#9660; a significant regression and &#9650; a significant improvement against the column before (Welch, p &lt; 0.05).</p>\n",
		now);
	fputs("<h2>Benchmarks</h2>\n<ul>\n", f);
	for (size_t k = 0; k < st->benches.cnt; k++) {
		size_t b = st->bench_order[k];

		fprintf(f, "<li><a href=\"bench/%s.html\">", st->slugs[b]);
		bc_html(f, bc_site_bench_name(st, b));
		fputs("</a></li>\n", f);
	}
	fputs("</ul>\n", f);
	bc_site_cp_index(st, f);
	for (size_t m = 0; m < mx_cnt; m++)
		bc_site_matrix_write(st, f, &mx[m]);
	fputs("</body>\n</html>\n", f);
	bc_site_close(st, f, "index.html");
}

static int bc_cmp_bench(const void *a, const void *b, void *arg)
{
	const struct bc_site *st = arg;

	return strcmp(st->benches.strs[*(const size_t *)a], st->benches.strs[*(const size_t *)b]);
}

/* Every benchmark in name order: its histories, its page, its matrix
 * rows; then the index. */
static void bc_site_pages(struct bc_site *st)
{
	struct bc_site_matrix mx[2];
	int ret;

	st->bench_order = malloc((st->benches.cnt + 1) * sizeof(*st->bench_order));
	if (!st->bench_order) {
		st->err = -ENOMEM;
		snprintf(st->why, sizeof(st->why), "report: out of memory");
		return;
	}
	for (size_t b = 0; b < st->benches.cnt; b++)
		st->bench_order[b] = b;
	qsort_r(st->bench_order, st->benches.cnt, sizeof(size_t), bc_cmp_bench, st);
	ret = bc_site_matrix_init(st, &mx[0], BC_HISTORY_BY_KERNEL);
	if (!ret)
		ret = bc_site_matrix_init(st, &mx[1], BC_HISTORY_BY_LABEL);
	for (size_t k = 0; k < st->benches.cnt && !ret && !st->err; k++) {
		size_t b = st->bench_order[k];
		struct bc_history hk, hl;

		ret = bc_site_history(st, b, BC_HISTORY_BY_KERNEL, &hk);
		if (ret)
			break;
		ret = bc_site_history(st, b, BC_HISTORY_BY_LABEL, &hl);
		if (ret) {
			bc_history_free(&hk);
			break;
		}
		bc_site_bench_page(st, b, &hk, &hl);
		ret = bc_site_matrix_add(st, &mx[0], b, &hk);
		if (!ret)
			ret = bc_site_matrix_add(st, &mx[1], b, &hl);
		bc_history_free(&hk);
		bc_history_free(&hl);
	}
	if (ret && !st->err) {
		st->err = ret;
		snprintf(st->why, sizeof(st->why), "report: out of memory");
	}
	if (!st->err)
		bc_site_index(st, mx, 2);
	bc_site_matrix_free(&mx[0]);
	bc_site_matrix_free(&mx[1]);
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

/* Is the file (device and inode) anywhere under dir? Links inside dir are
 * not followed: replacing dir removes a link, never its target. */
static bool bc_tree_holds(const char *dir, dev_t dev, ino_t ino, unsigned int depth)
{
	char sub[PATH_MAX];
	struct dirent *de;
	struct stat sb;
	bool found = false;
	DIR *d;

	if (depth > 32)
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= (int)sizeof(sub) ||
		    lstat(sub, &sb))
			continue;
		if (sb.st_dev == dev && sb.st_ino == ino)
			found = true;
		else if (S_ISDIR(sb.st_mode))
			found = bc_tree_holds(sub, dev, ino, depth + 1);
	}
	closedir(d);
	return found;
}

bool bc_site_holds(const char *dir, const char *file)
{
	struct stat sb;

	if (!file || stat(file, &sb))
		return false;
	return bc_tree_holds(dir, sb.st_dev, sb.st_ino, 0);
}

int bc_site_write(struct bc_store *store, const char *store_path, struct bc_store_filter *f,
		  const char *dir)
{
	struct bc_site st = { .store = store, .store_path = store_path, .metric = f->metric };
	char err[1024] = "", mark[PATH_MAX + 32];
	struct stat sb = { 0 };
	bool exists = !stat(dir, &sb);
	int ret, status = BC_EXIT_FAILED;
	FILE *mf;

	f->ok_only = true;
	ret = bc_store_each_figure(st.store, f, bc_site_load_row, &st, err, sizeof(err));
	if (!ret)
		ret = bc_site_index_entries(&st);
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
	if (!st.err)
		bc_site_pages(&st);
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
	st.store = NULL;
	bc_site_free(&st);
	return status;
}
