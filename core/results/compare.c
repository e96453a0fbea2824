// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore compare BASE.json NEW.json`: match the runs of two result
 * documents (a run, a sweep or a suite) by benchmark + configuration and say,
 * per metric, how the mean moved and whether the move is larger than the
 * run-to-run noise of the per-iteration samples.
 * The significance tests themselves are in significance.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "runtime/scale.h"
#include "runtime/core_opts.h"
#include "report_table.h"
#include "runtime/significance.h"
#include "run_doc.h"
#include "runtime/exit_status.h"
#include "runtime/json.h"
#include "json_read.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "runtime/repstats.h"

/* ------------------------------------------------------------ documents */

struct bc_cmp_metric {
	char *name;
	char *unit;
	bool rate;
	double mean, stddev;
	unsigned int n;		/* from the summary */
	double *samples;	/* measured (non-warm-up) iterations */
	size_t sample_cnt;
	bool figure;		/* a derived figure the run stored */
	/* run --repeat: each complete run's mean (NULL without repeats). */
	double *runs;
	size_t run_cnt;
};

struct bc_cmp_run {
	char *bench;
	char *config;		/* "producers=1 consumers=0 nr_maps=16" */
	const char *label;	/* the sweep's or suite's row name, if any */
	struct bc_cmp_metric *metrics;
	size_t metric_cnt;
	bool matched;
	struct bc_cmp_run *pair;	/* the matching run of the other document */
};

struct bc_cmp_doc {
	const char *path;
	struct bc_json *json;
	struct bc_cmp_run *runs;
	size_t run_cnt;
	const struct bc_json *context;	/* the first run's */
};

static int bc_append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bc_append(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(*buf ? *buf + *len : NULL, *buf ? *cap - *len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if (*buf && *len + (size_t)n < *cap) {
			*len += (size_t)n;
			return 0;
		}
		{
			size_t ncap = (*cap ? *cap * 2 : 128) + (size_t)n;
			char *nb = realloc(*buf, ncap);

			if (!nb)
				return -ENOMEM;
			if (!*buf)
				nb[0] = '\0';
			*buf = nb;
			*cap = ncap;
		}
	}
}

static int bc_append_value(char **buf, size_t *len, size_t *cap, const char *key,
			const struct bc_json *v)
{
	const char *sep = *len ? " " : "";

	switch (v->type) {
	case BC_JSON_NULL:
		return 0;	/* not set */
	case BC_JSON_BOOL:
		/* a flag that is off is the same as one never given */
		return v->boolean ? bc_append(buf, len, cap, "%s%s", sep, key) : 0;
	case BC_JSON_NUMBER:
		return bc_append(buf, len, cap, "%s%s=%.15g", sep, key, v->number);
	case BC_JSON_STRING:
		return bc_append(buf, len, cap, "%s%s=%s", sep, key, v->string);
	default:
		return 0;
	}
}

static int bc_key_cmp(const void *a, const void *b)
{
	return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

/* The configuration as one canonical line: core options in the document's
 * order, then the plugin's options sorted by name. Options the core's table
 * marks as not configuration are left out: the same configuration run for
 * longer is still the same configuration. */
char *bc_compare_config_line(const struct bc_json *cfg)
{
	const struct bc_json *popts = bc_json_get(cfg, "plugin_options");
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int ret = bc_append(&buf, &len, &cap, "%s", "");

	for (size_t i = 0; !ret && cfg && cfg->type == BC_JSON_OBJECT && i < cfg->cnt; i++) {
		if (cfg->items[i] == popts || bc_core_opt_json_ignored(cfg->keys[i]))
			continue;
		ret = bc_append_value(&buf, &len, &cap, cfg->keys[i], cfg->items[i]);
	}
	if (!ret && popts && popts->type == BC_JSON_OBJECT && popts->cnt) {
		char ***order = calloc(popts->cnt, sizeof(*order));

		if (!order) {
			free(buf);
			return NULL;
		}
		for (size_t i = 0; i < popts->cnt; i++)
			order[i] = &popts->keys[i];
		qsort(order, popts->cnt, sizeof(*order), bc_key_cmp);
		for (size_t k = 0; !ret && k < popts->cnt; k++) {
			size_t i = (size_t)(order[k] - popts->keys);
			const struct bc_json *v = popts->items[i];

			/* a plugin flag is recorded with a null value */
			if (v->type == BC_JSON_NULL)
				ret = bc_append(&buf, &len, &cap, "%s%s", len ? " " : "", popts->keys[i]);
			else
				ret = bc_append_value(&buf, &len, &cap, popts->keys[i], v);
		}
		free(order);
	}
	if (ret) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void bc_cmp_run_free(struct bc_cmp_run *r)
{
	for (size_t i = 0; i < r->metric_cnt; i++) {
		free(r->metrics[i].name);
		free(r->metrics[i].unit);
		free(r->metrics[i].samples);
		free(r->metrics[i].runs);
	}
	free(r->metrics);
	free(r->bench);
	free(r->config);
}

static void bc_cmp_doc_free(struct bc_cmp_doc *d)
{
	for (size_t i = 0; i < d->run_cnt; i++)
		bc_cmp_run_free(&d->runs[i]);
	free(d->runs);
	bc_json_free(d->json);
	memset(d, 0, sizeof(*d));
}

/* A document of run --repeat: each complete run's value of this metric
 * (`group` "values") or figure ("figures"), the samples of the test. */
static int bc_cmp_add_run_values(struct bc_cmp_metric *m, const struct bc_json *doc, const char *group)
{
	const struct bc_json *runs = bc_json_get(bc_json_get(doc, "repeats"), "runs");

	if (!runs || !bc_json_len(runs))
		return 0;
	m->runs = calloc(bc_json_len(runs), sizeof(*m->runs));
	if (!m->runs)
		return -ENOMEM;
	for (size_t k = 0; k < bc_json_len(runs); k++) {
		const struct bc_json *run = bc_json_at(runs, k);
		const struct bc_json *v = bc_json_get(bc_json_get(run, group), m->name);

		if (!bc_json_bool(bc_json_get(run, "complete"), false) || !v ||
		    v->type != BC_JSON_NUMBER)
			continue;
		m->runs[m->run_cnt++] = v->number;
	}
	return 0;
}

/* The run's stored figures (latency, per-producer rate, ...) compared like
 * metrics: the run's value, and its per-interval values as the samples.
 * A document without figures has none; compare never derives them. */
static int bc_cmp_add_figures(struct bc_cmp_run *r, const struct bc_json *doc,
			   const struct bc_json *iters)
{
	const struct bc_json *figs = bc_run_doc_figures(doc);
	struct bc_cmp_metric *ms;

	if (!figs || !figs->cnt)
		return 0;
	ms = realloc(r->metrics, (r->metric_cnt + figs->cnt + 1) * sizeof(*ms));
	if (!ms)
		return -ENOMEM;
	r->metrics = ms;
	for (size_t i = 0; i < figs->cnt; i++) {
		const struct bc_json *f = figs->items[i], *stats = bc_json_get(f, "stats");
		const char *unit = bc_json_str(bc_json_get(f, "unit"));
		struct bc_cmp_metric *m = &r->metrics[r->metric_cnt];
		size_t ulen = unit ? strlen(unit) : 0;

		memset(m, 0, sizeof(*m));
		m->name = strdup(figs->keys[i]);
		m->unit = unit ? strdup(unit) : NULL;
		m->samples = calloc(bc_json_len(iters) + 1, sizeof(*m->samples));
		r->metric_cnt++;
		if (!m->name || (unit && !m->unit) || !m->samples)
			return -ENOMEM;
		m->figure = true;
		m->rate = ulen >= 2 && !strcmp(unit + ulen - 2, "/s");
		m->mean = bc_json_num(bc_json_get(f, "value"), NAN);
		m->stddev = bc_json_num(bc_json_get(stats, "stddev"), NAN);
		m->n = (unsigned int)bc_json_num(bc_json_get(stats, "n"), 0);
		for (size_t k = 0; k < bc_json_len(iters); k++) {
			const struct bc_json *it = bc_json_at(iters, k),
					     *v = bc_json_get(bc_json_get(it, "figures"), m->name);

			if (bc_json_bool(bc_json_get(it, "warmup"), false) || !v ||
			    v->type != BC_JSON_NUMBER)
				continue;
			m->samples[m->sample_cnt++] = v->number;
		}
		if (bc_cmp_add_run_values(m, doc, "figures"))
			return -ENOMEM;
	}
	return 0;
}

static int bc_cmp_add_run(struct bc_cmp_doc *d, const struct bc_json *doc, const char *label,
		       char *err, size_t err_len)
{
	const struct bc_json *summary = bc_json_get(doc, "summary"),
			     *iters = bc_json_get(doc, "iterations");
	int status = (int)bc_json_num(bc_json_get(bc_json_get(doc, "status"), "exit_status"), 0);
	struct bc_cmp_run *runs, *r;
	char bench[256];

	/* a run that failed or was unavailable measured nothing to compare */
	if (status != BC_EXIT_OK && status != BC_EXIT_INTERRUPTED)
		return 0;
	if (!summary || summary->type != BC_JSON_OBJECT || bc_run_doc_bench(doc, bench, sizeof(bench))) {
		snprintf(err, err_len, "a run without a benchmark name or a \"summary\" object");
		return -EINVAL;
	}
	runs = realloc(d->runs, (d->run_cnt + 1) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	d->runs = runs;
	r = &d->runs[d->run_cnt++];
	memset(r, 0, sizeof(*r));
	if (!d->context)
		d->context = bc_json_get(doc, "context");
	r->bench = strdup(bench);
	r->label = label;
	r->config = bc_compare_config_line(bc_run_doc_config(doc));
	r->metrics = calloc(summary->cnt + 1, sizeof(*r->metrics));
	if (!r->bench || !r->config || !r->metrics)
		return -ENOMEM;
	for (size_t i = 0; i < summary->cnt; i++) {
		const struct bc_json *s = summary->items[i];
		struct bc_cmp_metric *m = &r->metrics[r->metric_cnt];
		const char *unit = bc_json_str(bc_json_get(s, "unit"));

		if (s->type != BC_JSON_OBJECT || !bc_json_get(s, "mean"))
			continue;
		m->name = strdup(summary->keys[i]);
		m->unit = unit ? strdup(unit) : NULL;
		if (!m->name || (unit && !m->unit))
			return -ENOMEM;
		r->metric_cnt++;
		m->rate = bc_run_doc_metric_is_rate(doc, m->name, s);
		m->mean = bc_json_num(bc_json_get(s, "mean"), NAN);
		m->stddev = bc_json_num(bc_json_get(s, "stddev"), NAN);
		m->n = (unsigned int)bc_json_num(bc_json_get(s, "n"), 0);
		m->samples = calloc(bc_json_len(iters) + 1, sizeof(*m->samples));
		if (!m->samples)
			return -ENOMEM;
		for (size_t k = 0; k < bc_json_len(iters); k++) {
			const struct bc_json *it = bc_json_at(iters, k),
					     *v = bc_json_get(bc_json_get(it, "values"), m->name);

			if (bc_json_bool(bc_json_get(it, "warmup"), false) || !v ||
			    v->type != BC_JSON_NUMBER)
				continue;
			m->samples[m->sample_cnt++] = v->number;
		}
		if (bc_cmp_add_run_values(m, doc, "values"))
			return -ENOMEM;
	}
	return bc_cmp_add_figures(r, doc, iters);
}

/* ------------------------------------------------------------ validation */

/* Larger than any document benchcore writes (a suite of a hundred runs is
 * a few MiB): a device or a wrong file, not a result. */
#define BC_CMP_MAX_BYTES (64u << 20)

/*
 * The fields compare reads, checked before it reads them: a number must be
 * a finite number (or null, which is how the writer stores a figure it
 * could not compute), a flag a boolean, a name a string. A document that
 * fails says which field in one line, rather than printing nan or inf.
 */
static bool bc_num_ok(const struct bc_json *v)
{
	return !v || v->type == BC_JSON_NULL || (v->type == BC_JSON_NUMBER && isfinite(v->number));
}

static bool bc_str_ok(const struct bc_json *v)
{
	return !v || v->type == BC_JSON_NULL || v->type == BC_JSON_STRING;
}

static bool bc_obj_ok(const struct bc_json *v)
{
	return !v || v->type == BC_JSON_NULL || v->type == BC_JSON_OBJECT;
}

static int bc_bad(char *field, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bc_bad(char *field, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(field, len, fmt, ap);
	va_end(ap);
	return -EBADMSG;
}

/* mean, stddev, min, median, max, n and unit of one statistics object. */
static int bc_check_stats(const struct bc_json *s, const char *pre, const char *name, char *field,
		       size_t len)
{
	static const char *const nums[] = { "mean", "stddev", "min", "median", "max", "n", "value" };
	const struct bc_json *n = bc_json_get(s, "n");

	for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
		if (!bc_num_ok(bc_json_get(s, nums[k])))
			return bc_bad(field, len, "%s%s.%s: expected a finite number", pre, name, nums[k]);
	if (n && n->type == BC_JSON_NUMBER && (n->number < 0 || n->number > 1e15))
		return bc_bad(field, len, "%s%s.n: expected a count", pre, name);
	if (!bc_str_ok(bc_json_get(s, "unit")))
		return bc_bad(field, len, "%s%s.unit: expected a string", pre, name);
	return 0;
}

static int bc_check_num_members(const struct bc_json *o, const char *pre, const char *what,
			     char *field, size_t len)
{
	if (!bc_obj_ok(o))
		return bc_bad(field, len, "%s%s: expected an object", pre, what);
	for (size_t i = 0; o && o->type == BC_JSON_OBJECT && i < o->cnt; i++)
		if (!bc_num_ok(o->items[i]))
			return bc_bad(field, len, "%s%s.%s: expected a finite number", pre, what, o->keys[i]);
	return 0;
}

/* run --repeat's per-run means, which the test uses when both sides have them. */
static int bc_check_repeats(const struct bc_json *rep, const char *pre, char *field, size_t len)
{
	const struct bc_json *runs = bc_json_get(rep, "runs");
	char name[96];
	int ret;

	if (!bc_obj_ok(rep))
		return bc_bad(field, len, "%srepeats: expected an object", pre);
	if (runs && runs->type != BC_JSON_ARRAY && runs->type != BC_JSON_NULL)
		return bc_bad(field, len, "%srepeats.runs: expected an array", pre);
	for (size_t k = 0; k < bc_json_len(runs); k++) {
		const struct bc_json *run = runs->items[k], *c = bc_json_get(run, "complete");

		if (run->type != BC_JSON_OBJECT)
			return bc_bad(field, len, "%srepeats.runs[%zu]: expected an object", pre, k);
		if (c && c->type != BC_JSON_BOOL)
			return bc_bad(field, len, "%srepeats.runs[%zu].complete: expected true or false",
				   pre, k);
		snprintf(name, sizeof(name), "repeats.runs[%zu].values", k);
		ret = bc_check_num_members(bc_json_get(run, "values"), pre, name, field, len);
		if (ret)
			return ret;
		snprintf(name, sizeof(name), "repeats.runs[%zu].figures", k);
		ret = bc_check_num_members(bc_json_get(run, "figures"), pre, name, field, len);
		if (ret)
			return ret;
	}
	return 0;
}

static int bc_check_run_doc(const struct bc_json *doc, const char *pre, char *field, size_t len)
{
	const struct bc_json *summary = bc_json_get(doc, "summary"),
			     *iters = bc_json_get(doc, "iterations"),
			     *status = bc_json_get(doc, "status");
	const struct bc_json *figs = bc_json_get(summary, "figures");
	char name[160];
	int ret;

	if (!bc_obj_ok(status))
		return bc_bad(field, len, "%sstatus: expected an object", pre);
	if (!bc_num_ok(bc_json_get(status, "exit_status")))
		return bc_bad(field, len, "%sstatus.exit_status: expected a number", pre);
	if (!bc_obj_ok(bc_json_get(doc, "config")))
		return bc_bad(field, len, "%sconfig: expected an object", pre);
	if (!bc_obj_ok(summary))
		return bc_bad(field, len, "%ssummary: expected an object", pre);
	for (size_t i = 0; summary && i < bc_json_len(summary); i++) {
		const struct bc_json *s = summary->items[i];

		if (s == figs || s->type != BC_JSON_OBJECT || !bc_json_get(s, "mean"))
			continue;
		snprintf(name, sizeof(name), "summary.%s", summary->keys[i]);
		ret = bc_check_stats(s, pre, name, field, len);
		if (ret)
			return ret;
	}
	if (!bc_obj_ok(figs))
		return bc_bad(field, len, "%ssummary.figures: expected an object", pre);
	for (size_t i = 0; i < bc_json_len(figs); i++) {
		const struct bc_json *f = figs->items[i];

		snprintf(name, sizeof(name), "summary.figures.%s", figs->keys[i]);
		if (f->type != BC_JSON_OBJECT)
			return bc_bad(field, len, "%s%s: expected an object", pre, name);
		ret = bc_check_stats(f, pre, name, field, len);
		if (!ret && !bc_obj_ok(bc_json_get(f, "stats")))
			ret = bc_bad(field, len, "%s%s.stats: expected an object", pre, name);
		if (!ret && bc_json_get(f, "stats")) {
			snprintf(name, sizeof(name), "summary.figures.%s.stats", figs->keys[i]);
			ret = bc_check_stats(bc_json_get(f, "stats"), pre, name, field, len);
		}
		if (ret)
			return ret;
	}
	ret = bc_check_repeats(bc_json_get(doc, "repeats"), pre, field, len);
	if (ret)
		return ret;
	if (iters && iters->type != BC_JSON_ARRAY && iters->type != BC_JSON_NULL)
		return bc_bad(field, len, "%siterations: expected an array", pre);
	for (size_t k = 0; k < bc_json_len(iters); k++) {
		const struct bc_json *it = iters->items[k], *w = bc_json_get(it, "warmup");

		if (it->type != BC_JSON_OBJECT)
			return bc_bad(field, len, "%siterations[%zu]: expected an object", pre, k);
		if (w && w->type != BC_JSON_BOOL)
			return bc_bad(field, len, "%siterations[%zu].warmup: expected true or false", pre, k);
		snprintf(name, sizeof(name), "iterations[%zu].values", k);
		ret = bc_check_num_members(bc_json_get(it, "values"), pre, name, field, len);
		if (ret)
			return ret;
		snprintf(name, sizeof(name), "iterations[%zu].figures", k);
		ret = bc_check_num_members(bc_json_get(it, "figures"), pre, name, field, len);
		if (ret)
			return ret;
	}
	return 0;
}

static int bc_cmp_doc_load(struct bc_cmp_doc *d, const char *path, char *err, size_t err_len)
{
	const struct bc_json *runs;
	char why[256] = "";
	int ret = 0;

	memset(d, 0, sizeof(*d));
	d->path = path;
	d->json = bc_json_parse_file_max(path, BC_CMP_MAX_BYTES, why, sizeof(why));
	if (!d->json && errno == EFBIG) {
		snprintf(err, err_len, "not a benchcore result: %s: larger than %u MiB", path,
			 BC_CMP_MAX_BYTES >> 20);
		return -EINVAL;
	}
	if (!d->json) {
		snprintf(err, err_len, "%s", why);
		return -EINVAL;
	}
	runs = bc_json_get(d->json, "runs");
	if (runs && runs->type == BC_JSON_ARRAY) {
		/* a sweep or a suite: every row that produced a result */
		for (size_t i = 0; !ret && i < runs->cnt; i++) {
			const struct bc_json *res = bc_json_get(runs->items[i], "result");
			char pre[64];

			snprintf(pre, sizeof(pre), "runs[%zu].result.", i);
			if (!bc_obj_ok(res) || !bc_str_ok(bc_json_get(runs->items[i], "label")))
				ret = bc_bad(why, sizeof(why), "runs[%zu]: expected a run with a result object or null", i);
			if (!ret && res && res->type == BC_JSON_OBJECT)
				ret = bc_check_run_doc(res, pre, why, sizeof(why));
			if (!ret && res && res->type == BC_JSON_OBJECT)
				ret = bc_cmp_add_run(d, res, bc_json_str(bc_json_get(runs->items[i], "label")),
						  why, sizeof(why));
		}
	} else if (d->json->type == BC_JSON_OBJECT && bc_json_get(d->json, "summary")) {
		ret = bc_check_run_doc(d->json, "", why, sizeof(why));
		if (!ret)
			ret = bc_cmp_add_run(d, d->json, NULL, why, sizeof(why));
	} else {
		snprintf(why, sizeof(why),
			 "not a benchcore result (expected a run, sweep or suite JSON document)");
		ret = -EINVAL;
	}
	if (ret == -ENOMEM)
		snprintf(why, sizeof(why), "out of memory");
	if (ret == -EBADMSG)
		snprintf(err, err_len, "not a benchcore result: %s: %s", path, why);
	else if (ret)
		snprintf(err, err_len, "'%s': %s", path, why);
	return ret;
}

/* A document compare cannot read is the command line's mistake: one line,
 * the usage status. */
static int bc_compare_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bc_compare_usage_error(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	bc_warn("%s", line);
	return BC_EXIT_USAGE;
}

/* ------------------------------------------------------------ comparison */

/* Both sides repeated (run --repeat): the runs are the samples, since the
 * per-second samples of one run do not see what changes between runs. One
 * side only: the per-second samples of both, which each side has. */
static bool bc_cmp_by_runs(const struct bc_cmp_metric *a, const struct bc_cmp_metric *b)
{
	return a->runs && b->runs;
}

static void bc_cmp_metric_test(const struct bc_cmp_opts *o, const struct bc_cmp_metric *a,
			    const struct bc_cmp_metric *b, struct bc_sig_result *sig)
{
	bool samples = a->sample_cnt >= BC_SIG_MIN_SAMPLES && b->sample_cnt >= BC_SIG_MIN_SAMPLES;

	if (bc_cmp_by_runs(a, b)) {
		/* Fewer than 3 runs a side: too few, not the seconds instead. */
		if (o->test == BC_CMP_MANN_WHITNEY)
			bc_mann_whitney_test(a->runs, a->run_cnt, b->runs, b->run_cnt, sig);
		else
			bc_welch_test(a->runs, a->run_cnt, b->runs, b->run_cnt, sig);
		return;
	}
	if (samples && o->test == BC_CMP_MANN_WHITNEY)
		bc_mann_whitney_test(a->samples, a->sample_cnt, b->samples, b->sample_cnt, sig);
	else if (samples)
		bc_welch_test(a->samples, a->sample_cnt, b->samples, b->sample_cnt, sig);
	else if (a->sample_cnt || b->sample_cnt)
		/* samples there, but too few of them */
		bc_welch_test_stats(a->mean, a->stddev, (unsigned int)a->sample_cnt, b->mean,
				 b->stddev, (unsigned int)b->sample_cnt, sig);
	else
		bc_welch_test_stats(a->mean, a->stddev, a->n, b->mean, b->stddev, b->n, sig);
}

static const char *bc_verdict(const struct bc_cmp_opts *o, const struct bc_sig_result *sig)
{
	if (!sig->valid)
		return "too few samples";
	return sig->p < o->alpha ? "significant" : "not significant";
}

static double bc_change_pct(double base, double new)
{
	if (base == 0.0)
		return new == 0.0 ? 0.0 : NAN;
	return (new - base) / fabs(base) * 100.0;
}

static void bc_fmt_value(const struct bc_cmp_metric *m, double v, char *buf, size_t len)
{
	const char *u = m->unit ? m->unit : "";
	size_t ulen = strlen(u);
	char unit[64];

	/* A rate's unit is per second, however an older document spelt it. */
	if (m->rate && !(ulen >= 2 && !strcmp(u + ulen - 2, "/s")))
		snprintf(unit, sizeof(unit), "%s/s", *u ? u : "events");
	else
		snprintf(unit, sizeof(unit), "%s", u);
	bc_scale_fmt(buf, len, v, unit);
}

static void bc_fmt_change(double pct, char *buf, size_t len)
{
	if (isnan(pct))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.2f%%", pct);
}

/* The samples the test took: runs when both sides were repeated. */
static size_t bc_cmp_n(const struct bc_cmp_metric *m, bool by_runs)
{
	if (by_runs)
		return m->run_cnt;
	return m->sample_cnt ? m->sample_cnt : m->n;
}

static void bc_fmt_sig(const struct bc_cmp_opts *o, const struct bc_sig_result *sig,
		    const struct bc_cmp_metric *a, const struct bc_cmp_metric *b, char *buf, size_t len)
{
	bool by_runs = bc_cmp_by_runs(a, b);

	if (!sig->valid && by_runs)
		snprintf(buf, len, "too few runs (%zu+%zu; %d a side needed)", a->run_cnt,
			 b->run_cnt, BC_SIG_MIN_SAMPLES);
	else if (!sig->valid)
		snprintf(buf, len, "too few samples");
	else if (by_runs)
		snprintf(buf, len, "%s p=%.3g over %zu+%zu runs (%s)", sig->test, sig->p,
			 a->run_cnt, b->run_cnt, bc_verdict(o, sig));
	else
		snprintf(buf, len, "%s p=%.3g (%s)", sig->test, sig->p, bc_verdict(o, sig));
}

static void bc_md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	bc_md_write(f, s);
	fputc(' ', f);
}

static void bc_csv_cell(FILE *f, const char *s, bool last)
{
	bc_csv_write(f, s);
	fputc(last ? '\n' : ',', f);
}

static const char *bc_ctx_str(const struct bc_json *ctx, const char *key, char *buf, size_t len)
{
	const struct bc_json *v = bc_json_get(ctx, key);

	if (v && v->type == BC_JSON_NUMBER) {
		snprintf(buf, len, "%.15g", v->number);
		return buf;
	}
	return bc_json_str(v);
}

/* Different kernels, CPUs or CPU counts make any difference suspect. */
static size_t bc_context_warnings(const struct bc_cmp_doc *a, const struct bc_cmp_doc *b, char warn[][512])
{
	static const struct {
		const char *key, *what;
	} keys[] = {
		{ "kernel_release", "kernel" },
		{ "cpu_model", "CPU model" },
		{ "cpu_count", "CPU count" },
		{ "hypervisor", "hypervisor" },
	};
	size_t n = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char ba[64], bb[64];
		const char *va = bc_ctx_str(a->context, keys[i].key, ba, sizeof(ba)),
			   *vb = bc_ctx_str(b->context, keys[i].key, bb, sizeof(bb));
		const struct bc_json *ja = bc_json_get(a->context, keys[i].key),
				     *jb = bc_json_get(b->context, keys[i].key);

		if (ja && jb && ja->type == BC_JSON_BOOL && jb->type == BC_JSON_BOOL) {
			va = ja->boolean ? "yes" : "no";
			vb = jb->boolean ? "yes" : "no";
		}
		if (!va || !vb || !strcmp(va, vb))
			continue;
		snprintf(warn[n++], 512, "%s differs: base %s, new %s", keys[i].what, va, vb);
	}
	return n;
}

static bool bc_has_word(const char *text, const char *word, size_t len)
{
	for (const char *p = text; (p = strstr(p, word)); p++) {
		if ((p == text || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return true;
	}
	return false;
}

/* Does the row's label say more than the benchmark and configuration do
 * ("reserve" does; a sweep's "count-batch=8" or "rb-libbpf" does not)? */
static bool bc_label_adds(const struct bc_cmp_run *r)
{
	const char *bare = strchr(r->bench, ':') ? strchr(r->bench, ':') + 1 : r->bench;
	char word[256];

	if (!r->label || !*r->label)
		return false;
	for (const char *p = r->label; *p;) {
		size_t len = strcspn(p, " ");

		if (len && len < sizeof(word)) {
			memcpy(word, p, len);
			word[len] = '\0';
			if (strcmp(word, bare) && !bc_has_word(r->config, word, len))
				return true;
		}
		p += len;
		p += strspn(p, " ");
	}
	return false;
}

static struct bc_cmp_run *bc_find_match(struct bc_cmp_doc *d, const struct bc_cmp_run *r)
{
	for (size_t i = 0; i < d->run_cnt; i++) {
		struct bc_cmp_run *c = &d->runs[i];

		if (!c->matched && !strcmp(c->bench, r->bench) && !strcmp(c->config, r->config))
			return c;
	}
	return NULL;
}

static const struct bc_cmp_metric *bc_find_metric(const struct bc_cmp_run *r, const char *name)
{
	for (size_t i = 0; i < r->metric_cnt; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

static void bc_emit_only(const struct bc_cmp_opts *o, struct bc_json_writer *w, const char *which,
		      const struct bc_cmp_doc *d)
{
	FILE *f = o->out;

	for (size_t i = 0; i < d->run_cnt; i++) {
		const struct bc_cmp_run *r = &d->runs[i];

		if (r->matched)
			continue;
		switch (o->format) {
		case BC_FORMAT_TEXT:
			fprintf(f, "only in %s (%s): %s%s%s\n", which, d->path, r->bench,
				*r->config ? " " : "", r->config);
			break;
		case BC_FORMAT_MARKDOWN:
			bc_md_cell(f, r->bench);
			bc_md_cell(f, r->config);
			fprintf(f, "| | | | | only in %s |\n", which);
			break;
		case BC_FORMAT_CSV:
			bc_csv_cell(f, r->bench, false);
			bc_csv_cell(f, r->config, false);
			fprintf(f, ",,,,,,,,,only in %s\n", which);
			break;
		case BC_FORMAT_JSON:
			bc_jw_obj_begin(w, NULL);
			bc_jw_str(w, "benchmark", r->bench);
			bc_jw_str(w, "configuration", r->config);
			bc_jw_obj_end(w);
			break;
		}
	}
}

/* One line (or JSON entry) per metric of a matched pair of runs. JSON
 * lists metrics and the runs' stored figures in separate arrays, so that
 * readers of "comparisons" see one entry per metric, as before figures. */
static void bc_compare_pair(const struct bc_cmp_opts *o, struct bc_json_writer *w,
			 const struct bc_cmp_run *a, const struct bc_cmp_run *b, bool figures)
{
	FILE *f = o->out;

	for (size_t k = 0; k < a->metric_cnt; k++) {
		const struct bc_cmp_metric *ma = &a->metrics[k], *mb = bc_find_metric(b, ma->name);
		char vb[64], vn[64], ch[32], sg[160];
		struct bc_sig_result sig;
		double pct;

		if (!mb || (o->format == BC_FORMAT_JSON && ma->figure != figures))
			continue;
		bc_cmp_metric_test(o, ma, mb, &sig);
		pct = bc_change_pct(ma->mean, mb->mean);
		bc_fmt_value(ma, ma->mean, vb, sizeof(vb));
		bc_fmt_value(mb, mb->mean, vn, sizeof(vn));
		bc_fmt_change(pct, ch, sizeof(ch));
		bc_fmt_sig(o, &sig, ma, mb, sg, sizeof(sg));
		switch (o->format) {
		case BC_FORMAT_TEXT:
			fprintf(f, "  %-16s %14s %14s %9s  %s\n", ma->name, vb, vn, ch, sg);
			break;
		case BC_FORMAT_MARKDOWN:
			bc_md_cell(f, a->bench);
			bc_md_cell(f, a->config);
			bc_md_cell(f, ma->name);
			bc_md_cell(f, vb);
			bc_md_cell(f, vn);
			bc_md_cell(f, ch);
			bc_md_cell(f, sg);
			fputs("|\n", f);
			break;
		case BC_FORMAT_CSV:
			bc_csv_cell(f, a->bench, false);
			bc_csv_cell(f, a->config, false);
			bc_csv_cell(f, ma->name, false);
			bc_csv_cell(f, ma->unit ? ma->unit : "", false);
			fprintf(f, "%.17g,%.17g,", ma->mean, mb->mean);
			if (isnan(pct))
				fputc(',', f);
			else
				fprintf(f, "%.6f,", pct);
			if (sig.valid)
				fprintf(f, "%s,%.6g,", sig.test, sig.p);
			else
				fputs(",,", f);
			fprintf(f, "%zu,%zu,%s\n",
				bc_cmp_n(ma, bc_cmp_by_runs(ma, mb)), bc_cmp_n(mb, bc_cmp_by_runs(ma, mb)),
				bc_verdict(o, &sig));
			break;
		case BC_FORMAT_JSON:
			bc_jw_obj_begin(w, NULL);
			bc_jw_str(w, "benchmark", a->bench);
			bc_jw_str(w, "configuration", a->config);
			bc_jw_str(w, "label", a->label);
			bc_jw_str(w, "metric", ma->name);
			bc_jw_str(w, "unit", ma->unit);
			bc_jw_num(w, "base_mean", ma->mean);
			bc_jw_num(w, "new_mean", mb->mean);
			bc_jw_num(w, "change_pct", pct);
			bc_jw_str(w, "test", sig.valid ? sig.test : NULL);
			bc_jw_num(w, "p_value", sig.valid ? sig.p : NAN);
			bc_jw_uint(w, "n_base", bc_cmp_n(ma, bc_cmp_by_runs(ma, mb)));
			bc_jw_uint(w, "n_new", bc_cmp_n(mb, bc_cmp_by_runs(ma, mb)));
			/* what n counts: runs (both sides repeated) or seconds */
			bc_jw_str(w, "samples", bc_cmp_by_runs(ma, mb) ? "runs" : "iterations");
			bc_jw_str(w, "verdict", bc_verdict(o, &sig));
			bc_jw_obj_end(w);
			break;
		}
	}
}

static int bc_compare_docs(const struct bc_cmp_opts *o, struct bc_cmp_doc *base, struct bc_cmp_doc *new)
{
	char warn[8][512];
	size_t warn_cnt = bc_context_warnings(base, new, warn), matched = 0;
	struct bc_json_writer w;
	FILE *f = o->out;

	for (size_t i = 0; i < warn_cnt; i++)
		fprintf(stderr, "benchcore: warning: %s; the comparison is suspect\n", warn[i]);
	switch (o->format) {
	case BC_FORMAT_TEXT:
		fprintf(f, "%-18s %14s %14s %9s  %s\n", "metric", "base", "new", "change",
			"significance");
		break;
	case BC_FORMAT_MARKDOWN:
		fputs("| benchmark | configuration | metric | base | new | change | significance |\n"
		      "| --- | --- | --- | ---: | ---: | ---: | --- |\n",
		      f);
		break;
	case BC_FORMAT_CSV:
		fputs("benchmark,configuration,metric,unit,base_mean,new_mean,change_pct,test,p_value,"
		      "n_base,n_new,verdict\n",
		      f);
		break;
	case BC_FORMAT_JSON:
		bc_jw_init(&w, f);
		bc_jw_obj_begin(&w, NULL);
		bc_jw_str(&w, "base", base->path);
		bc_jw_str(&w, "new", new->path);
		bc_jw_str(&w, "test", o->test == BC_CMP_WELCH ? "welch" : "mann-whitney");
		bc_jw_num(&w, "alpha", o->alpha);
		bc_jw_arr_begin(&w, "warnings");
		for (size_t i = 0; i < warn_cnt; i++)
			bc_jw_str(&w, NULL, warn[i]);
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, "comparisons");
		break;
	}

	for (size_t i = 0; i < base->run_cnt; i++) {
		struct bc_cmp_run *a = &base->runs[i], *b = bc_find_match(new, a);

		if (!b)
			continue;
		a->matched = b->matched = true;
		a->pair = b;
		matched++;
		/* a suite's row name tells apart runs of one configuration */
		if (o->format == BC_FORMAT_TEXT) {
			bool show = bc_label_adds(a);

			fprintf(f, "%s%s%s%s%s%s\n", a->bench, *a->config ? " " : "", a->config,
				show ? "  [" : "", show ? a->label : "", show ? "]" : "");
		}
		bc_compare_pair(o, &w, a, b, false);
	}
	if (o->format == BC_FORMAT_JSON) {
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, "figure_comparisons");
		for (size_t i = 0; i < base->run_cnt; i++)
			if (base->runs[i].matched && base->runs[i].pair)
				bc_compare_pair(o, &w, &base->runs[i], base->runs[i].pair, true);
	}

	if (o->format == BC_FORMAT_JSON) {
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, "only_in_base");
	}
	bc_emit_only(o, &w, "base", base);
	if (o->format == BC_FORMAT_JSON) {
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, "only_in_new");
	}
	bc_emit_only(o, &w, "new", new);
	if (o->format == BC_FORMAT_JSON) {
		bc_jw_arr_end(&w);
		bc_jw_obj_end(&w);
		if (bc_jw_finish(&w))
			return BC_EXIT_FAILED;
	}
	if (!matched)
		fprintf(stderr, "benchcore: warning: no run of %s matches one of %s (same benchmark and configuration)\n",
			base->path, new->path);
	fflush(f);
	return BC_EXIT_OK;
}

/* ---------------------------------------------------------------- command */

/* ------------------------------------------------- one metric, for others */

/* Mean and sample variance of xs. */
static void bc_mean_var(const double *xs, size_t n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		s += xs[i];
	*mean = n ? s / (double)n : NAN;
	for (size_t i = 0; i < n; i++)
		ss += (xs[i] - *mean) * (xs[i] - *mean);
	*var = n > 1 ? ss / (double)(n - 1) : NAN;
}

/* The 95% interval of new - base (Welch), from the same samples the test
 * took: runs when both sides were repeated, else the seconds, else the
 * summaries. */
static void bc_change_interval(const struct bc_cmp_metric *a, const struct bc_cmp_metric *b,
			       struct bc_cmp_change *c)
{
	double ma = a->mean, mb = b->mean, va, vb, se, df, t;
	size_t na, nb;

	if (bc_cmp_by_runs(a, b)) {
		bc_mean_var(a->runs, a->run_cnt, &ma, &va);
		bc_mean_var(b->runs, b->run_cnt, &mb, &vb);
		na = a->run_cnt;
		nb = b->run_cnt;
	} else if (a->sample_cnt >= 2 && b->sample_cnt >= 2) {
		bc_mean_var(a->samples, a->sample_cnt, &ma, &va);
		bc_mean_var(b->samples, b->sample_cnt, &mb, &vb);
		na = a->sample_cnt;
		nb = b->sample_cnt;
	} else {
		va = a->stddev * a->stddev;
		vb = b->stddev * b->stddev;
		na = a->n;
		nb = b->n;
	}
	c->n_base = na;
	c->n_new = nb;
	c->ci_low_pct = c->ci_high_pct = NAN;
	if (na < 2 || nb < 2 || !(va >= 0) || !(vb >= 0) || a->mean == 0.0)
		return;
	se = sqrt(va / (double)na + vb / (double)nb);
	if (se == 0.0) {
		c->ci_low_pct = c->ci_high_pct = c->change_pct;
		return;
	}
	df = se * se * se * se /
	     ((va / na) * (va / na) / (double)(na - 1) + (vb / nb) * (vb / nb) / (double)(nb - 1));
	t = bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0, df);
	c->ci_low_pct = ((mb - ma) - t * se) / fabs(a->mean) * 100.0;
	c->ci_high_pct = ((mb - ma) + t * se) / fabs(a->mean) * 100.0;
}

int bc_compare_metric(const struct bc_json *base, const struct bc_json *new, const char *metric,
		      double alpha, struct bc_cmp_change *c)
{
	struct bc_cmp_opts o = { .test = BC_CMP_WELCH, .alpha = alpha };
	struct bc_cmp_doc da = { .path = "base" }, db = { .path = "new" };
	const struct bc_cmp_metric *ma = NULL, *mb = NULL;
	struct bc_sig_result sig;
	char err[256];
	int ret;

	memset(c, 0, sizeof(*c));
	ret = bc_cmp_add_run(&da, base, NULL, err, sizeof(err));
	if (!ret)
		ret = bc_cmp_add_run(&db, new, NULL, err, sizeof(err));
	if (!ret && da.run_cnt && db.run_cnt) {
		ma = bc_find_metric(&da.runs[0], metric);
		mb = bc_find_metric(&db.runs[0], metric);
	}
	if (!ret && (!ma || !mb))
		ret = -ENOENT;
	if (ret)
		goto out;
	bc_cmp_metric_test(&o, ma, mb, &sig);
	c->base_mean = ma->mean;
	c->new_mean = mb->mean;
	c->change_pct = bc_change_pct(ma->mean, mb->mean);
	c->valid = sig.valid;
	c->p = sig.valid ? sig.p : NAN;
	c->test = sig.valid ? sig.test : NULL;
	c->by_runs = bc_cmp_by_runs(ma, mb);
	c->significant = sig.valid && sig.p < alpha;
	bc_change_interval(ma, mb, c);
out:
	bc_cmp_doc_free(&da);
	bc_cmp_doc_free(&db);
	return ret;
}

const char *bc_change_verdict(bool valid, bool significant, double change_pct, bool higher_better)
{
	if (!valid)
		return "too few samples to judge";
	if (!significant || change_pct == 0.0 || isnan(change_pct))
		return "no significant change";
	return (change_pct > 0) == higher_better ? "improved" : "regressed";
}

int bc_compare_files(const struct bc_cmp_opts *opts, const char *const paths[2], const char *output)
{
	struct bc_cmp_opts o = *opts;
	struct bc_cmp_doc docs[2] = {};
	struct bc_out out;
	char err[512];
	int ret;

	for (size_t i = 0; i < 2; i++) {
		int lerr = bc_cmp_doc_load(&docs[i], paths[i], err, sizeof(err));

		if (lerr == -EBADMSG || (lerr && !strncmp(err, "not a benchcore result: ", 24))) {
			ret = bc_compare_usage_error("%s", err);
			goto out;
		}
		if (lerr) {
			ret = bc_compare_usage_error("compare: %s", err);
			goto out;
		}
	}
	ret = bc_out_open(&out, "--output", output);
	if (ret)
		goto out;
	o.out = out.f;
	ret = bc_compare_docs(&o, &docs[0], &docs[1]);
	ret = bc_out_close(&out, ret == BC_EXIT_OK, ret);
out:
	bc_cmp_doc_free(&docs[0]);
	bc_cmp_doc_free(&docs[1]);
	return ret;
}