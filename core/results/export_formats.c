// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `store export --format gbench|bmf` (export_formats.h says what each
 * holds). The configurations and their figures come from the store's
 * columns and its table of figures by name; only Google Benchmark's rows
 * of a configuration saved once read that entry's document, for its
 * samples (through the model, run_doc.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export_formats.h"
#include "run_doc.h"
#include "runtime/exit_status.h"
#include "runtime/json.h"
#include "runtime/log.h"
#include "runtime/repstats.h"
#include "store_doc.h"

/* Bencher's limit on a measure's name. */
#define BC_BMF_MEASURE_MAX 64

int bc_export_format_parse(const char *word, enum bc_export_format *out)
{
	static const char *const names[] = { "json", "gbench", "bmf" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(word, names[i])) {
			*out = (enum bc_export_format)i;
			return 0;
		}
	return -EINVAL;
}

/* ------------------------------------------------ configurations */

struct bc_xf_entry {
	long long id;
	double mean, sd;
	unsigned int n;
};

/* A measure of a configuration (BMF). */
struct bc_xf_measure {
	char *name;
	double value, lo, hi;
};

struct bc_xf_cfg {
	char *bench, *options, *metric, *unit, *host, *date;
	unsigned int cpu_count;
	struct bc_xf_entry *e;
	size_t cnt, cap;
	struct bc_xf_measure *m;
	size_t m_cnt, m_cap;
};

struct bc_xf {
	struct bc_xf_cfg *c;
	size_t cnt, cap;
	size_t *slots;
	size_t slot_cnt;
	bool nomem;
};

static void bc_xf_free(struct bc_xf *x)
{
	for (size_t i = 0; i < x->cnt; i++) {
		struct bc_xf_cfg *c = &x->c[i];

		free(c->bench);
		free(c->options);
		free(c->metric);
		free(c->unit);
		free(c->host);
		free(c->date);
		free(c->e);
		for (size_t k = 0; k < c->m_cnt; k++)
			free(c->m[k].name);
		free(c->m);
	}
	free(x->c);
	free(x->slots);
	memset(x, 0, sizeof(*x));
}

static uint64_t bc_xf_hash(const char *bench, const char *options)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (const char *p = bench; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
	h = (h ^ 0x1f) * 0x100000001b3ULL;
	for (const char *p = options; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
	return h;
}

static int bc_xf_rehash(struct bc_xf *x)
{
	size_t cnt = x->slot_cnt ? x->slot_cnt * 2 : 64;
	size_t *slots = malloc(cnt * sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++)
		slots[i] = SIZE_MAX;
	for (size_t k = 0; k < x->cnt; k++) {
		size_t i = bc_xf_hash(x->c[k].bench, x->c[k].options) & (cnt - 1);

		while (slots[i] != SIZE_MAX)
			i = (i + 1) & (cnt - 1);
		slots[i] = k;
	}
	free(x->slots);
	x->slots = slots;
	x->slot_cnt = cnt;
	return 0;
}

/* The configuration of (bench, options), made when new (when `make`); NULL
 * when absent or out of memory (x->nomem). */
static struct bc_xf_cfg *bc_xf_cfg(struct bc_xf *x, const char *bench, const char *options,
				   bool make)
{
	struct bc_xf_cfg *c;
	size_t i;

	if (x->cnt * 2 >= x->slot_cnt && bc_xf_rehash(x))
		goto nomem;
	i = bc_xf_hash(bench, options) & (x->slot_cnt - 1);
	for (; x->slots[i] != SIZE_MAX; i = (i + 1) & (x->slot_cnt - 1)) {
		c = &x->c[x->slots[i]];
		if (!strcmp(c->bench, bench) && !strcmp(c->options, options))
			return c;
	}
	if (!make)
		return NULL;
	if (x->cnt == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 16;
		struct bc_xf_cfg *cs = realloc(x->c, cap * sizeof(*cs));

		if (!cs)
			goto nomem;
		x->c = cs;
		x->cap = cap;
	}
	c = &x->c[x->cnt];
	memset(c, 0, sizeof(*c));
	c->bench = strdup(bench);
	c->options = strdup(options);
	x->slots[i] = x->cnt++;
	if (c->bench && c->options)
		return c;
nomem:
	x->nomem = true;
	return NULL;
}

static int bc_xf_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_xf *x = cookie;
	struct bc_xf_cfg *c;

	if (!r->k.metric || !isfinite(r->k.mean) || !r->k.bench)
		return 0;	/* measured nothing */
	c = bc_xf_cfg(x, r->k.bench, r->k.options ? r->k.options : "", true);
	if (!c)
		return 1;
	if (!c->cnt) {
		c->metric = strdup(r->k.metric);
		c->unit = r->k.unit ? strdup(r->k.unit) : NULL;
		c->host = r->k.host ? strdup(r->k.host) : NULL;
		c->date = r->k.date ? strdup(r->k.date) : NULL;
		c->cpu_count = r->k.cpu_count;
		if (!c->metric || (r->k.unit && !c->unit) || (r->k.host && !c->host) ||
		    (r->k.date && !c->date))
			goto nomem;
	}
	if (c->cnt == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 4;
		struct bc_xf_entry *e = realloc(c->e, cap * sizeof(*e));

		if (!e)
			goto nomem;
		c->e = e;
		c->cap = cap;
	}
	c->e[c->cnt++] = (struct bc_xf_entry){ .id = r->id, .mean = r->k.mean, .sd = r->k.stddev,
					       .n = r->k.n };
	return 0;
nomem:
	x->nomem = true;
	return 1;
}

/* The configurations of the entries f selects that ended well, each with
 * its entries' figure f->metric (NULL: the headline), in date order. */
static int bc_xf_collect(struct bc_store *s, const struct bc_store_filter *f, const char *metric,
			 struct bc_xf *x, char *err, size_t err_len)
{
	struct bc_store_filter q = *f;
	int ret;

	memset(x, 0, sizeof(*x));
	q.metric = metric;
	q.ok_only = true;
	q.with_doc = false;
	q.newest_first = false;
	ret = bc_store_each_figure(s, &q, bc_xf_row, x, err, err_len);
	if (x->nomem) {
		snprintf(err, err_len, "store export: out of memory");
		ret = -ENOMEM;
	}
	if (ret < 0)
		bc_xf_free(x);
	return ret < 0 ? ret : 0;
}

/* A configuration's figure: its entries' mean and 95% half-interval, over
 * the entries when several, else the one entry's own. */
static void bc_xf_interval(const struct bc_xf_cfg *c, double *mean, double *half)
{
	if (c->cnt >= 2) {
		double *v = malloc(c->cnt * sizeof(*v));
		struct bc_rep_stats rs;

		*mean = NAN;
		*half = NAN;
		if (!v)
			return;
		for (size_t i = 0; i < c->cnt; i++)
			v[i] = c->e[i].mean;
		bc_rep_stats_compute(v, c->cnt, &rs);
		free(v);
		*mean = rs.mean;
		*half = rs.ci_half;
		return;
	}
	*mean = c->e[0].mean;
	*half = c->e[0].n >= 2 && isfinite(c->e[0].sd)
			? bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0, c->e[0].n - 1) *
				  c->e[0].sd / sqrt(c->e[0].n)
			: NAN;
}

/* "bench opt=1 opt=2": a configuration's name in Bencher. */
static void bc_xf_name(const struct bc_xf_cfg *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", c->bench, *c->options ? " " : "", c->options);
}

/* ------------------------------------------------ BMF */

static int bc_xf_measure_add(struct bc_xf_cfg *c, const char *name, const char *unit, double v,
			     double half)
{
	char key[BC_BMF_MEASURE_MAX * 2 + 8];
	struct bc_xf_measure *m;

	if (c->m_cnt == c->m_cap) {
		size_t cap = c->m_cap ? c->m_cap * 2 : 4;
		struct bc_xf_measure *ms = realloc(c->m, cap * sizeof(*ms));

		if (!ms)
			return -ENOMEM;
		c->m = ms;
		c->m_cap = cap;
	}
	/* the unit where it fits Bencher's 64 characters */
	if (unit && *unit && strlen(name) + strlen(unit) + 3 <= BC_BMF_MEASURE_MAX)
		snprintf(key, sizeof(key), "%s (%s)", name, unit);
	else
		snprintf(key, sizeof(key), "%.*s", BC_BMF_MEASURE_MAX, name);
	m = &c->m[c->m_cnt];
	m->name = strdup(key);
	if (!m->name)
		return -ENOMEM;
	m->value = v;
	m->lo = isfinite(half) ? v - half : NAN;
	m->hi = isfinite(half) ? v + half : NAN;
	c->m_cnt++;
	return 0;
}

static int bc_xf_bmf(struct bc_store *s, const struct bc_store_filter *f, FILE *out)
{
	char names[8192] = "", err[1024] = "", key[2048];
	struct bc_xf all, one;
	struct bc_json_writer w;
	int ret;

	ret = bc_xf_collect(s, f, NULL, &all, err, sizeof(err));
	if (!ret && !all.cnt) {
		bc_warn("store export: no saved entry that ended well matches; nothing to export");
		bc_xf_free(&all);
		return BC_EXIT_FAILED;
	}
	if (!ret && f->metric)
		snprintf(names, sizeof(names), "%s", f->metric);
	else if (!ret)
		ret = bc_store_doc_metric_names(s, f, names, sizeof(names), err, sizeof(err));
	for (char *p = names, *next; !ret && *p; p = next) {
		next = strstr(p, ", ");
		if (next) {
			*next = '\0';
			next += 2;
		} else {
			next = p + strlen(p);
		}
		ret = bc_xf_collect(s, f, p, &one, err, sizeof(err));
		for (size_t i = 0; !ret && i < one.cnt; i++) {
			struct bc_xf_cfg *c = bc_xf_cfg(&all, one.c[i].bench, one.c[i].options, false);
			double v, half;

			if (!c)
				continue;
			bc_xf_interval(&one.c[i], &v, &half);
			if (isfinite(v) && bc_xf_measure_add(c, p, one.c[i].unit, v, half)) {
				snprintf(err, sizeof(err), "store export: out of memory");
				ret = -ENOMEM;
			}
		}
		bc_xf_free(&one);
	}
	if (ret) {
		bc_warn("%s", err);
		bc_xf_free(&all);
		return BC_EXIT_FAILED;
	}
	bc_jw_init(&w, out);
	bc_jw_obj_begin(&w, NULL);
	for (size_t i = 0; i < all.cnt; i++) {
		const struct bc_xf_cfg *c = &all.c[i];

		if (!c->m_cnt)
			continue;
		bc_xf_name(c, key, sizeof(key));
		bc_jw_obj_begin(&w, key);
		for (size_t k = 0; k < c->m_cnt; k++) {
			bc_jw_obj_begin(&w, c->m[k].name);
			bc_jw_num(&w, "value", c->m[k].value);
			if (isfinite(c->m[k].lo) && isfinite(c->m[k].hi)) {
				bc_jw_num(&w, "lower_value", c->m[k].lo);
				bc_jw_num(&w, "upper_value", c->m[k].hi);
			}
			bc_jw_obj_end(&w);
		}
		bc_jw_obj_end(&w);
	}
	bc_jw_obj_end(&w);
	ret = bc_jw_finish(&w);
	bc_xf_free(&all);
	return ret ? BC_EXIT_FAILED : BC_EXIT_OK;
}

/* ------------------------------------------------ Google Benchmark */

/* A rate's and a time's nanoseconds per operation: a rate is "/s" last,
 * a time's first word one of ns, us, ms, s. 0 for anything else. */
static double bc_xf_ns_scale(const char *unit, bool *rate)
{
	static const struct {
		const char *w;
		double ns;
	} times[] = { { "ns", 1 }, { "us", 1e3 }, { "\xc2\xb5s", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	size_t len = unit ? strlen(unit) : 0, wl;

	*rate = len > 2 && !strcmp(unit + len - 2, "/s");
	if (*rate)
		return 1e9;
	wl = unit ? strcspn(unit, "/ ") : 0;
	for (size_t i = 0; wl && i < sizeof(times) / sizeof(times[0]); i++)
		if (strlen(times[i].w) == wl && !strncmp(unit, times[i].w, wl))
			return times[i].ns;
	return 0;
}

struct bc_xf_doc {
	const char *metric;
	double *vals;
	size_t cnt;
	bool nomem;
};

/* One entry's samples of the figure: its runs when repeated, else its
 * measured seconds. */
static int bc_xf_doc_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_xf_doc *d = cookie;
	char err[256];
	struct bc_doc_run *run = r->doc ? bc_doc_run_parse(r->doc, r->doc_len, err, sizeof(err)) : NULL;
	const struct bc_doc_metric *m = run ? bc_doc_find(run, d->metric) : NULL;
	const double *src = NULL;
	size_t n = 0;

	if (m && m->run_cnt >= 2) {
		src = m->runs;
		n = m->run_cnt;
	} else if (m && m->sample_cnt) {
		src = m->samples;
		n = m->sample_cnt;
	}
	if (n) {
		d->vals = malloc(n * sizeof(*d->vals));
		if (d->vals) {
			memcpy(d->vals, src, n * sizeof(*d->vals));
			d->cnt = n;
		} else {
			d->nomem = true;
		}
	}
	bc_doc_run_free(run);
	return 1;
}

static int bc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A row's members, its object left open for the caller's counters. */
static void bc_xf_gb_row_begin(struct bc_json_writer *w, const char *name, size_t family,
			 const char *type, const char *agg, size_t reps, size_t idx, double t,
			 const char *unit, double rate, const char *label)
{
	bc_jw_obj_begin(w, NULL);
	if (agg) {
		char full[2304];

		snprintf(full, sizeof(full), "%s_%s", name, agg);
		bc_jw_str(w, "name", full);
	} else {
		bc_jw_str(w, "name", name);
	}
	bc_jw_uint(w, "family_index", family);
	bc_jw_uint(w, "per_family_instance_index", 0);
	bc_jw_str(w, "run_name", name);
	bc_jw_str(w, "run_type", type);
	bc_jw_uint(w, "repetitions", reps);
	if (!agg)
		bc_jw_uint(w, "repetition_index", idx);
	bc_jw_uint(w, "threads", 1);
	if (agg) {
		bc_jw_str(w, "aggregate_name", agg);
		bc_jw_str(w, "aggregate_unit", strcmp(agg, "cv") ? "time" : "percentage");
	}
	bc_jw_uint(w, "iterations", agg ? reps : 1);
	bc_jw_num(w, "real_time", t);
	bc_jw_num(w, "cpu_time", t);
	bc_jw_str(w, "time_unit", unit);
	if (isfinite(rate))
		bc_jw_num(w, "items_per_second", rate);
	bc_jw_str(w, "label", label);
}

/* One configuration's rows; 0, 1 when it cannot be a time (said), or
 * -ENOMEM. */
static int bc_xf_gb_cfg(struct bc_store *s, struct bc_json_writer *w, const struct bc_xf_cfg *c,
			size_t family, const char *metric)
{
	static const struct {
		const char *u;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	struct bc_xf_doc d = { .metric = metric ? metric : c->metric };
	char name[2048], label[256], err[256];
	double scale, *t, sum = 0, mean, sd = 0, unit_ns = 1, half;
	const char *unit = "ns";
	size_t n = 0;
	bool rate;

	scale = bc_xf_ns_scale(c->unit, &rate);
	if (!scale) {
		bc_warn("store export --format gbench: %s %s: its figure '%s' (%s) is neither a rate nor a time, which Google Benchmark's JSON needs; left out (--metric NAME picks another)",
			c->bench, c->options, d.metric, c->unit ? c->unit : "no unit");
		return 1;
	}
	if (c->cnt == 1) {
		struct bc_store_filter q = { .id = c->e[0].id, .with_doc = true, .limit = 1 };

		if (bc_store_each(s, &q, bc_xf_doc_row, &d, err, sizeof(err)) < 0 || d.nomem)
			return -ENOMEM;
	}
	if (!d.cnt) {
		d.vals = malloc(c->cnt * sizeof(*d.vals));
		if (!d.vals)
			return -ENOMEM;
		for (size_t i = 0; i < c->cnt; i++)
			d.vals[d.cnt++] = c->e[i].mean;
	}
	t = d.vals;
	/* to nanoseconds per operation, leaving out what is no time */
	for (size_t i = 0; i < d.cnt; i++) {
		double v = rate ? (d.vals[i] > 0 ? scale / d.vals[i] : NAN) : d.vals[i] * scale;

		if (isfinite(v))
			t[n++] = v;
	}
	if (!n) {
		free(d.vals);
		bc_warn("store export --format gbench: %s %s: no sample of '%s' is a time; left out",
			c->bench, c->options, d.metric);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		sum += t[i];
	mean = sum / (double)n;
	/* the unit Google's own reporter would pick for this size */
	for (size_t i = 1; i < sizeof(units) / sizeof(units[0]) && mean >= units[i - 1].ns * 1e4; i++) {
		unit = units[i].u;
		unit_ns = units[i].ns;
	}
	for (size_t i = 0; i < n; i++)
		t[i] /= unit_ns;
	mean /= unit_ns;
	snprintf(name, sizeof(name), "%s", c->bench);
	for (const char *p = c->options; *p;) {
		size_t wl = strcspn(p, " "), o = strlen(name);
		const char *eq = memchr(p, '=', wl);

		/* "opt=1" as Google's named argument "/opt:1" */
		if (o + wl + 2 < sizeof(name))
			snprintf(name + o, sizeof(name) - o, "/%.*s%s%.*s",
				 (int)(eq ? (size_t)(eq - p) : wl), p, eq ? ":" : "",
				 eq ? (int)(wl - (size_t)(eq - p) - 1) : 0, eq ? eq + 1 : "");
		p += wl;
		p += strspn(p, " ");
	}
	snprintf(label, sizeof(label), "%s in %s%s", d.metric, c->unit,
		 rate ? ", as time per operation" : "");
	for (size_t i = 0; i < n; i++) {
		bc_xf_gb_row_begin(w, name, family, "iteration", NULL, n, i, t[i], unit,
			     rate ? 1e9 / (t[i] * unit_ns) : NAN, label);
		bc_jw_obj_end(w);
	}
	if (n >= 2) {
		for (size_t i = 0; i < n; i++)
			sd += (t[i] - mean) * (t[i] - mean);
		sd = sqrt(sd / (double)(n - 1));
		half = bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0, (double)(n - 1)) * sd /
		       sqrt((double)n);
		bc_xf_gb_row_begin(w, name, family, "aggregate", "mean", n, 0, mean, unit,
			     rate ? 1e9 / (mean * unit_ns) : NAN, label);
		bc_jw_num(w, "ci95_lower", mean - half);
		bc_jw_num(w, "ci95_upper", mean + half);
		bc_jw_obj_end(w);
		qsort(t, n, sizeof(*t), bc_cmp_double);
		bc_xf_gb_row_begin(w, name, family, "aggregate", "median", n, 0,
			     n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2, unit, NAN, label);
		bc_jw_obj_end(w);
		bc_xf_gb_row_begin(w, name, family, "aggregate", "stddev", n, 0, sd, unit, NAN, label);
		bc_jw_obj_end(w);
		bc_xf_gb_row_begin(w, name, family, "aggregate", "cv", n, 0, mean ? sd / mean : NAN, unit,
			     NAN, label);
		bc_jw_obj_end(w);
	}
	free(d.vals);
	return 0;
}

static int bc_xf_gbench(struct bc_store *s, const struct bc_store_filter *f, FILE *out)
{
	char err[1024] = "", now[40] = "";
	struct bc_json_writer w;
	size_t written = 0, family = 0;
	time_t tt = time(NULL);
	struct bc_xf x;
	struct tm tm;
	int ret;

	ret = bc_xf_collect(s, f, f->metric, &x, err, sizeof(err));
	if (ret) {
		bc_warn("%s", err);
		return BC_EXIT_FAILED;
	}
	if (!x.cnt) {
		bc_warn("store export: no saved entry that ended well matches%s%s; nothing to export",
			f->metric ? " with the figure " : "", f->metric ? f->metric : "");
		bc_xf_free(&x);
		return BC_EXIT_FAILED;
	}
	if (gmtime_r(&tt, &tm))
		strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	bc_jw_init(&w, out);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_obj_begin(&w, "context");
	bc_jw_str(&w, "date", now);
	bc_jw_str(&w, "host_name", x.c[0].host);
	bc_jw_str(&w, "executable", "benchcore store export");
	bc_jw_uint(&w, "num_cpus", x.c[0].cpu_count);
	bc_jw_uint(&w, "mhz_per_cpu", 0);
	bc_jw_bool(&w, "cpu_scaling_enabled", false);
	bc_jw_arr_begin(&w, "caches");
	bc_jw_arr_end(&w);
	bc_jw_str(&w, "library_build_type", "release");
	bc_jw_obj_end(&w);
	bc_jw_arr_begin(&w, "benchmarks");
	for (size_t i = 0; i < x.cnt && ret >= 0; i++) {
		ret = bc_xf_gb_cfg(s, &w, &x.c[i], family, f->metric);
		if (!ret) {
			written++;
			family++;
		}
	}
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	bc_xf_free(&x);
	if (ret < 0) {
		bc_warn("store export: out of memory");
		return BC_EXIT_FAILED;
	}
	if (bc_jw_finish(&w))
		return BC_EXIT_FAILED;
	if (!written) {
		bc_warn("store export --format gbench: no configuration's figure is a rate or a time; nothing to export");
		return BC_EXIT_FAILED;
	}
	return BC_EXIT_OK;
}

/* --metric that no selected entry has: one line naming those they have. */
static int bc_xf_check_metric(struct bc_store *s, const struct bc_store_filter *f)
{
	char names[1024] = "", err[512] = "";
	struct bc_xf x;

	if (!f->metric || bc_xf_collect(s, f, f->metric, &x, err, sizeof(err)))
		return 0;
	if (!x.cnt && !bc_store_doc_metric_names(s, f, names, sizeof(names), err, sizeof(err)) &&
	    *names) {
		bc_warn("store export: --metric '%s': no selected entry that ended well has a metric or figure of that name; they have %s",
			f->metric, names);
		bc_xf_free(&x);
		return BC_EXIT_USAGE;
	}
	bc_xf_free(&x);
	return 0;
}

int bc_export_write(struct bc_store *s, const struct bc_store_filter *f, enum bc_export_format fmt,
		    FILE *out)
{
	int ret = bc_xf_check_metric(s, f);

	if (ret)
		return ret;
	return fmt == BC_EXPORT_BMF ? bc_xf_bmf(s, f, out) : bc_xf_gbench(s, f, out);
}
