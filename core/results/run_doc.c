// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The run-document model: a document read once into typed structures, by
 * the one module that knows its keys (runtime/doc_keys.h, shared with the
 * writer). Every version benchcore wrote reads: members a version did not
 * have are absent, the few spellings a member has had are all accepted,
 * and the two rules a reader needs beyond the document's own numbers,
 * which figure is the headline and which way a figure is better, are
 * applied here once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "run_doc.h"
#include "run_doc_check.h"
#include "runtime/core_opts.h"
#include "runtime/doc_keys.h"
#include "runtime/figures.h"

/* -------------------------------------------------------------- memory */

/* Takes p into the list; NULL (and p freed) when out of memory. */
static void *bc_keep(void ***owned, size_t *cnt, size_t *cap, void *p)
{
	if (!p)
		return NULL;
	if (*cnt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 32;
		void **grown = realloc(*owned, ncap * sizeof(*grown));

		if (!grown) {
			free(p);
			return NULL;
		}
		*owned = grown;
		*cap = ncap;
	}
	(*owned)[(*cnt)++] = p;
	return p;
}

static void *bc_run_keep(struct bc_doc_run *r, void *p)
{
	return bc_keep(&r->owned, &r->owned_cnt, &r->owned_cap, p);
}

static void *bc_run_calloc(struct bc_doc_run *r, size_t n, size_t size)
{
	return bc_run_keep(r, calloc(n ? n : 1, size));
}

static void *bc_doc_keep(struct bc_doc *d, void *p)
{
	return bc_keep(&d->owned, &d->owned_cnt, &d->owned_cap, p);
}

/* ------------------------------------------------------------- members */

static const char *bc_str(const struct bc_json *obj, const char *key)
{
	return bc_json_str(bc_json_get(obj, key));
}

static double bc_num(const struct bc_json *obj, const char *key)
{
	const struct bc_json *v = bc_json_get(obj, key);

	return v && v->type == BC_JSON_NUMBER ? v->number : NAN;
}

/* A number a chart can place: finite, else NaN. */
static double bc_finite(const struct bc_json *obj, const char *key)
{
	double v = bc_num(obj, key);

	return isfinite(v) ? v : NAN;
}

static const struct bc_json *bc_obj(const struct bc_json *obj, const char *key)
{
	const struct bc_json *v = bc_json_get(obj, key);

	return v && v->type == BC_JSON_OBJECT ? v : NULL;
}

/* The first of several spellings a document may use for one member. */
static const struct bc_json *bc_get_any(const struct bc_json *obj, const char *const *keys)
{
	for (; *keys; keys++) {
		const struct bc_json *v = bc_json_get(obj, *keys);

		if (v)
			return v;
	}
	return NULL;
}

static bool bc_ends_per_second(const char *unit)
{
	size_t len = unit ? strlen(unit) : 0;

	return len >= 2 && !strcmp(unit + len - 2, "/s");
}

/* ------------------------------------------------- configuration line */

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
static char *bc_config_line(const struct bc_json *cfg)
{
	const struct bc_json *popts = bc_json_get(cfg, BC_DOC_CFG_PLUGIN_OPTIONS);
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

/* ------------------------------------------------------------- a run */

/* "plugin:bench": the benchmark as a string or {name}, the plugin as a
 * string, {name}, or the benchmark's "plugin". NULL: it names none. */
static char *bc_read_bench(const struct bc_json *doc)
{
	static const char *const bench_keys[] = { BC_DOC_BENCHMARK, BC_DOC_BENCH, NULL };
	const struct bc_json *b = bc_get_any(doc, bench_keys), *p = bc_json_get(doc, BC_DOC_PLUGIN);
	const char *bench = bc_json_str(b), *plugin = bc_json_str(p);
	char *out;

	if (!bench)
		bench = bc_str(b, BC_DOC_PLUGIN_NAME);
	if (!plugin)
		plugin = bc_str(p, BC_DOC_PLUGIN_NAME);
	if (!plugin)
		plugin = bc_str(b, BC_DOC_PLUGIN);
	if (!bench)
		return NULL;
	if (plugin && !strchr(bench, ':')) {
		if (asprintf(&out, "%s:%s", plugin, bench) < 0)
			return NULL;
		return out;
	}
	return strdup(bench);
}

static void bc_read_context(const struct bc_json *ctx, struct bc_doc_context *c)
{
	const struct bc_json *hv = bc_json_get(ctx, BC_DOC_CTX_HYPERVISOR);

	memset(c, 0, sizeof(*c));
	c->present = ctx != NULL;
	c->date = bc_str(ctx, BC_DOC_CTX_DATE);
	c->host = bc_str(ctx, BC_DOC_CTX_HOST);
	c->kernel_release = bc_str(ctx, BC_DOC_CTX_KERNEL_RELEASE);
	c->kernel_version = bc_str(ctx, BC_DOC_CTX_KERNEL_VERSION);
	c->cpu_model = bc_str(ctx, BC_DOC_CTX_CPU_MODEL);
	c->libbpf_version = bc_str(ctx, BC_DOC_CTX_LIBBPF_VERSION);
	c->benchcore_version = bc_str(ctx, BC_DOC_CTX_BENCHCORE_VERSION);
	c->cpu_count = bc_num(ctx, BC_DOC_CTX_CPU_COUNT);
	c->hypervisor = hv && hv->type == BC_JSON_BOOL ? hv->boolean : -1;
	c->accelerator = bc_str(ctx, BC_DOC_CTX_ACCELERATOR);
	c->memory_bytes = bc_num(ctx, BC_DOC_CTX_MEMORY_BYTES);
	c->clocksource = bc_str(ctx, BC_DOC_CTX_CLOCKSOURCE);
	c->preemption = bc_str(ctx, BC_DOC_CTX_PREEMPTION);
	c->cmdline = bc_str(ctx, BC_DOC_CTX_CMDLINE);
	c->config_source = bc_str(bc_obj(ctx, BC_DOC_CTX_KERNEL_CONFIG), BC_DOC_KCFG_SOURCE);
	c->config_hash = bc_str(bc_obj(ctx, BC_DOC_CTX_KERNEL_CONFIG), BC_DOC_KCFG_HASH);
}

/* "metrics": an array of declarations, or (a spelling some documents
 * have) an object of them by name. */
static int bc_read_decls(struct bc_doc_run *r, const struct bc_json *metrics)
{
	size_t n = bc_json_len(metrics);

	r->decls = bc_run_calloc(r, n, sizeof(*r->decls));
	if (!r->decls)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct bc_json *m = metrics->items[i];
		struct bc_doc_decl *d = &r->decls[r->decl_cnt++];

		d->name = metrics->type == BC_JSON_OBJECT ? metrics->keys[i]
							  : bc_str(m, BC_DOC_METRIC_NAME);
		d->unit = bc_str(m, BC_DOC_METRIC_UNIT);
		d->kind = bc_str(m, BC_DOC_METRIC_KIND);
		d->role = bc_str(m, BC_DOC_METRIC_ROLE);
		d->label = bc_str(m, BC_DOC_METRIC_LABEL);
		d->per = bc_str(m, BC_DOC_METRIC_PER);
		d->direction = bc_str(m, BC_DOC_METRIC_DIRECTION);
		r->roles |= d->role != NULL;
	}
	return 0;
}

static const struct bc_doc_decl *bc_decl(const struct bc_doc_run *r, const char *name)
{
	for (size_t i = 0; name && i < r->decl_cnt; i++)
		if (r->decls[i].name && !strcmp(r->decls[i].name, name))
			return &r->decls[i];
	return NULL;
}

static void bc_read_stats(const struct bc_json *s, struct bc_doc_stats *st)
{
	st->mean = bc_num(s, BC_DOC_STAT_MEAN);
	st->stddev = bc_num(s, BC_DOC_STAT_STDDEV);
	st->min = bc_num(s, BC_DOC_STAT_MIN);
	st->median = bc_num(s, BC_DOC_STAT_MEDIAN);
	st->max = bc_num(s, BC_DOC_STAT_MAX);
	st->n = bc_num(s, BC_DOC_STAT_N);
}

static void bc_read_agg(const struct bc_json *a, struct bc_doc_agg *agg)
{
	agg->has = a && a->type == BC_JSON_OBJECT;
	agg->n = bc_num(a, BC_DOC_AGG_N);
	agg->mean = bc_num(a, BC_DOC_AGG_MEAN);
	agg->stddev = bc_num(a, BC_DOC_AGG_STDDEV);
	agg->cv_pct = bc_num(a, BC_DOC_AGG_CV_PCT);
	agg->ci95_half = bc_num(a, BC_DOC_AGG_CI95_HALF);
	agg->ci95_pct = bc_num(a, BC_DOC_AGG_CI95_PCT);
}

/* "p99.9" -> 99.9; false for any other key. */
static bool bc_percentile_key(const char *key, double *p)
{
	char *end;

	if (key[0] != 'p' || !(key[1] >= '0' && key[1] <= '9'))
		return false;
	*p = strtod(key + 1, &end);
	return !*end && *p > 0 && *p < 100;
}

static int bc_read_hist(struct bc_doc_run *r, const struct bc_json *s, struct bc_doc_hist *h)
{
	h->count = bc_num(s, BC_DOC_HIST_COUNT);
	h->max = bc_num(s, BC_DOC_HIST_MAX);
	h->p50 = bc_num(s, BC_DOC_HIST_P50);
	h->p90 = bc_num(s, BC_DOC_HIST_P90);
	h->p99 = bc_num(s, BC_DOC_HIST_P99);
	h->p999 = bc_num(s, BC_DOC_HIST_P999);
	h->pcts = bc_run_calloc(r, s->cnt, sizeof(*h->pcts));
	if (!h->pcts)
		return -ENOMEM;
	for (size_t i = 0; i < s->cnt; i++) {
		double pct;

		if (bc_percentile_key(s->keys[i], &pct) && s->items[i]->type == BC_JSON_NUMBER &&
		    isfinite(s->items[i]->number))
			h->pcts[h->pct_cnt++] = (struct bc_doc_pct){ s->keys[i], pct, s->items[i]->number };
	}
	return 0;
}

/*
 * The error bar of a summary entry: its confidence interval when the run
 * carries one ("ci" or "ci95" as {low, high} or {half_width}, or ci_low
 * and ci_high beside the mean), else mean ± stddev.
 */
static void bc_read_bar(const struct bc_json *s, struct bc_doc_metric *m)
{
	static const char *const keys[] = { BC_DOC_STAT_CI, BC_DOC_STAT_CI95 };
	double a, b, mean = m->mean;

	for (size_t k = 0; k < 2; k++) {
		const struct bc_json *ci = bc_json_get(s, keys[k]);

		a = bc_finite(ci, BC_DOC_CI_LOW);
		b = bc_finite(ci, BC_DOC_CI_HIGH);
		if (!isnan(a) && !isnan(b)) {
			m->bar_lo = a;
			m->bar_hi = b;
			m->has_bar = m->bar_is_ci = true;
			return;
		}
		a = bc_finite(ci, BC_DOC_CI_HALF_WIDTH);
		if (!isnan(a)) {
			m->bar_lo = mean - a;
			m->bar_hi = mean + a;
			m->has_bar = m->bar_is_ci = true;
			return;
		}
	}
	a = bc_finite(s, BC_DOC_STAT_CI_LOW);
	b = bc_finite(s, BC_DOC_STAT_CI_HIGH);
	if (!isnan(a) && !isnan(b)) {
		m->bar_lo = a;
		m->bar_hi = b;
		m->has_bar = m->bar_is_ci = true;
		return;
	}
	a = bc_finite(s, BC_DOC_STAT_STDDEV);
	if (!isnan(a)) {
		m->bar_lo = mean - a;
		m->bar_hi = mean + a;
		m->has_bar = true;
	}
}

/* The measured iterations' values of name in group ("values", "figures"). */
static int bc_read_samples(struct bc_doc_run *r, const struct bc_json *iters, const char *group,
			   struct bc_doc_metric *m)
{
	m->samples = bc_run_calloc(r, bc_json_len(iters) + 1, sizeof(*m->samples));
	if (!m->samples)
		return -ENOMEM;
	for (size_t k = 0; k < bc_json_len(iters); k++) {
		const struct bc_json *it = bc_json_at(iters, k),
				     *v = bc_json_get(bc_json_get(it, group), m->name);

		if (bc_json_bool(bc_json_get(it, BC_DOC_ITER_WARMUP), false) || !v ||
		    v->type != BC_JSON_NUMBER)
			continue;
		m->samples[m->sample_cnt++] = v->number;
	}
	return 0;
}

/* run --repeat: each complete run's value of name in group. */
static int bc_read_runs(struct bc_doc_run *r, const struct bc_json *rep, const char *group,
			struct bc_doc_metric *m)
{
	const struct bc_json *runs = bc_json_get(rep, BC_DOC_REP_RUNS);

	if (!bc_json_len(runs))
		return 0;
	m->runs = bc_run_calloc(r, bc_json_len(runs), sizeof(*m->runs));
	if (!m->runs)
		return -ENOMEM;
	for (size_t k = 0; k < bc_json_len(runs); k++) {
		const struct bc_json *run = bc_json_at(runs, k),
				     *v = bc_json_get(bc_json_get(run, group), m->name);

		if (!bc_json_bool(bc_json_get(run, BC_DOC_REPRUN_COMPLETE), false) || !v ||
		    v->type != BC_JSON_NUMBER)
			continue;
		m->runs[m->run_cnt++] = v->number;
	}
	return 0;
}

static enum bc_direction bc_direction_of(const char *said, const char *kind, const char *role,
					 const char *unit)
{
	if (said && !strcmp(said, BC_DOC_DIRECTION_HIGHER))
		return BC_HIGHER_IS_BETTER;
	if (said && !strcmp(said, BC_DOC_DIRECTION_LOWER))
		return BC_LOWER_IS_BETTER;
	return bc_metric_direction(kind, role, unit);
}

static int bc_read_metric(struct bc_doc_run *r, const char *name, const struct bc_json *s,
			  const struct bc_json *iters, const struct bc_json *rep,
			  struct bc_doc_metric *m)
{
	const char *kind = bc_str(s, BC_DOC_METRIC_KIND);
	int ret;

	m->name = name;
	m->unit = bc_str(s, BC_DOC_STAT_UNIT);
	m->decl = bc_decl(r, name);
	m->hist = kind && !strcmp(kind, BC_DOC_KIND_HISTOGRAM);
	if (!kind && m->decl)
		kind = m->decl->kind;
	m->kind = kind;
	/* Counters become rates; a document that does not say is about
	 * counters, as every layout but the custom ones is. */
	m->rate = !kind || !strcmp(kind, BC_DOC_KIND_COUNTER) || !strcmp(kind, BC_DOC_KIND_RATE);
	m->judged = bc_json_get(s, BC_DOC_STAT_MEAN) != NULL;
	bc_read_stats(s, &m->stats);
	m->mean = m->stats.mean;
	m->direction = bc_direction_of(m->decl ? m->decl->direction : NULL,
				       m->decl ? m->decl->kind : NULL,
				       m->decl ? m->decl->role : NULL, m->unit);
	bc_read_bar(s, m);
	bc_read_agg(bc_json_get(bc_json_get(rep, BC_DOC_REP_AGGREGATE), name), &m->agg);
	m->h.count = m->h.max = m->h.p50 = m->h.p90 = m->h.p99 = m->h.p999 = NAN;
	ret = m->hist ? bc_read_hist(r, s, &m->h) : 0;
	if (!ret && m->judged)
		ret = bc_read_samples(r, iters, BC_DOC_ITER_VALUES, m);
	if (!ret && m->judged)
		ret = bc_read_runs(r, rep, BC_DOC_REPRUN_VALUES, m);
	return ret;
}

static int bc_read_figure(struct bc_doc_run *r, const char *name, const struct bc_json *f,
			  const struct bc_json *iters, const struct bc_json *rep,
			  struct bc_doc_metric *m)
{
	const struct bc_json *stats = bc_json_get(f, BC_DOC_FIG_STATS);
	const struct bc_doc_decl *of;
	int ret;

	m->name = name;
	m->figure = true;
	m->judged = true;
	m->unit = bc_str(f, BC_DOC_FIG_UNIT);
	m->kind = bc_str(f, BC_DOC_FIG_KIND);
	m->of = bc_str(f, BC_DOC_FIG_OF);
	m->rate = bc_ends_per_second(m->unit);
	m->mean = bc_num(f, BC_DOC_FIG_VALUE);
	m->h.count = m->h.max = m->h.p50 = m->h.p90 = m->h.p99 = m->h.p999 = NAN;
	bc_read_stats(stats, &m->stats);
	/* A figure is judged as the metric it derives from is: a drop's
	 * figure as a drop, else by its unit. */
	of = bc_decl(r, m->of);
	m->direction = bc_direction_of(bc_str(f, BC_DOC_FIG_DIRECTION), NULL, of ? of->role : NULL,
				       m->unit);
	if (isfinite(m->stats.stddev) && isfinite(m->mean)) {
		m->has_bar = true;
		m->bar_lo = m->mean - m->stats.stddev;
		m->bar_hi = m->mean + m->stats.stddev;
	}
	bc_read_agg(bc_json_get(bc_json_get(rep, BC_DOC_REP_FIGURES), name), &m->agg);
	ret = bc_read_samples(r, iters, BC_DOC_ITER_FIGURES, m);
	if (!ret)
		ret = bc_read_runs(r, rep, BC_DOC_REPRUN_FIGURES, m);
	return ret;
}

/* The summary's metrics in order (not its figures and bpf_stats, names a
 * metric may not have), then the figures. */
static int bc_read_summary(struct bc_doc_run *r, const struct bc_json *doc)
{
	const struct bc_json *summary = bc_obj(doc, BC_DOC_SUMMARY),
			     *iters = bc_json_get(doc, BC_DOC_ITERATIONS),
			     *rep = bc_obj(doc, BC_DOC_REPEATS),
			     *figs = bc_obj(summary, BC_DOC_SUMMARY_FIGURES);
	int ret = 0;

	r->has_summary = summary != NULL;
	r->metrics = bc_run_calloc(r, bc_json_len(summary) + bc_json_len(figs),
				   sizeof(*r->metrics));
	if (!r->metrics)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < bc_json_len(summary); i++) {
		const struct bc_json *s = summary->items[i];

		if (s->type != BC_JSON_OBJECT || !strcmp(summary->keys[i], BC_DOC_SUMMARY_FIGURES) ||
		    !strcmp(summary->keys[i], BC_DOC_SUMMARY_BPF_STATS))
			continue;
		ret = bc_read_metric(r, summary->keys[i], s, iters, rep,
				     &r->metrics[r->metric_cnt++]);
	}
	for (size_t i = 0; !ret && i < bc_json_len(figs); i++) {
		if (figs->items[i]->type != BC_JSON_OBJECT)
			continue;
		ret = bc_read_figure(r, figs->keys[i], figs->items[i], iters, rep,
				     &r->metrics[r->metric_cnt++]);
	}
	return ret;
}

static void bc_read_bpf_stats(struct bc_doc_run *r, const struct bc_json *doc)
{
	const struct bc_json *b = bc_obj(bc_obj(doc, BC_DOC_SUMMARY), BC_DOC_SUMMARY_BPF_STATS);

	r->has_bpf_stats = b != NULL;
	r->bpf_time_pct = bc_num(bc_json_get(b, BC_DOC_BPF_PRODUCER_TIME_PCT), BC_DOC_STAT_VALUE);
	r->bpf_cpu_pct = bc_num(bc_json_get(b, BC_DOC_BPF_PRODUCER_CPU_PCT), BC_DOC_STAT_VALUE);
}

/* The strings of an array (others left out), kept by keep; NULL: none. */
static const char **bc_strings(const struct bc_json *arr, size_t *cnt, void *(*keep)(void *, void *),
			       void *owner)
{
	const char **v;

	*cnt = 0;
	if (!bc_json_len(arr) || arr->type != BC_JSON_ARRAY)
		return NULL;
	v = keep(owner, calloc(arr->cnt, sizeof(*v)));
	for (size_t i = 0; v && i < arr->cnt; i++)
		if (bc_json_str(arr->items[i]))
			v[(*cnt)++] = arr->items[i]->string;
	return v;
}

static void *bc_run_keep_cb(void *owner, void *p)
{
	return bc_run_keep(owner, p);
}

static void *bc_doc_keep_cb(void *owner, void *p)
{
	return bc_doc_keep(owner, p);
}

/* Reads the run object doc (checked already) into r; 0 or -ENOMEM. */
static int bc_read_run(const struct bc_json *doc, struct bc_doc_run *r)
{
	static const char *const cfg_keys[] = { BC_DOC_CONFIG, BC_DOC_CONFIGURATION, NULL };
	const struct bc_json *cfg = bc_get_any(doc, cfg_keys), *status = bc_json_get(doc, BC_DOC_STATUS),
			     *rep = bc_obj(doc, BC_DOC_REPEATS);
	double producers;
	int ret;

	r->raw = doc;
	r->bench = bc_read_bench(doc);
	r->config = bc_config_line(cfg);
	if (!r->config)
		return -ENOMEM;
	r->benchmark = bc_str(doc, BC_DOC_BENCHMARK);
	r->plugin_version = bc_str(bc_json_get(doc, BC_DOC_PLUGIN), BC_DOC_PLUGIN_VERSION);
	r->attach_point = bc_str(doc, BC_DOC_ATTACH_POINT);
	r->run_id = bc_str(doc, BC_DOC_RUN_ID);
	r->label = bc_str(doc, BC_DOC_LABEL);
	r->headline_key = bc_str(doc, BC_DOC_HEADLINE);
	bc_read_context(bc_json_get(doc, BC_DOC_CONTEXT), &r->ctx);
	r->ctx.debug_options = bc_strings(bc_json_get(bc_json_get(doc, BC_DOC_CONTEXT),
						      BC_DOC_CTX_DEBUG_OPTIONS),
					  &r->ctx.debug_option_cnt, bc_run_keep_cb, r);
	r->benchcore_version = bc_str(doc, BC_DOC_BENCHCORE_VERSION);
	if (!r->benchcore_version)
		r->benchcore_version = r->ctx.benchcore_version;
	producers = bc_num(cfg, BC_DOC_CFG_PRODUCERS);
	r->producers = isnan(producers) ? bc_num(doc, BC_DOC_PRODUCERS_TOP) : producers;
	r->exit_status = (int)(isnan(bc_num(status, BC_DOC_STATUS_EXIT_STATUS))
				       ? 0 : bc_num(status, BC_DOC_STATUS_EXIT_STATUS));
	r->interrupted = bc_json_bool(bc_json_get(status, BC_DOC_STATUS_INTERRUPTED), false);
	r->reason = bc_str(status, BC_DOC_STATUS_REASON);
	r->warnings = bc_strings(bc_json_get(doc, BC_DOC_WARNINGS), &r->warning_cnt, bc_run_keep_cb, r);
	r->iteration_cnt = bc_json_len(bc_json_get(doc, BC_DOC_ITERATIONS));
	r->has_repeats = rep != NULL;
	r->repeated = bc_json_len(bc_json_get(rep, BC_DOC_REP_RUNS)) > 0;
	r->watched = bc_str(rep, BC_DOC_REP_WATCHED);
	r->runs_complete = bc_num(rep, BC_DOC_REP_RUNS_COMPLETE);
	bc_read_agg(r->watched ? bc_json_get(bc_json_get(rep, BC_DOC_REP_AGGREGATE), r->watched)
			       : NULL, &r->watched_agg);
	bc_read_bpf_stats(r, doc);
	ret = bc_read_decls(r, bc_json_get(doc, BC_DOC_METRICS));
	if (!ret)
		ret = bc_read_summary(r, doc);
	return ret;
}

static void bc_run_release(struct bc_doc_run *r)
{
	for (size_t i = 0; i < r->owned_cnt; i++)
		free(r->owned[i]);
	free(r->owned);
	free(r->bench);
	free(r->config);
	bc_json_free(r->json);
}

void bc_doc_run_free(struct bc_doc_run *run)
{
	if (!run)
		return;
	bc_run_release(run);
	free(run);
}

/* ------------------------------------------------ sweeps, suites, compare */

/* An option's value as the text a user would have typed: a string as is,
 * a number as %.15g, a flag as on or off; NULL for another value. */
static const char *bc_opt_text(struct bc_doc *d, const struct bc_json *v)
{
	char buf[64];

	if (v->type == BC_JSON_STRING)
		return v->string;
	if (v->type == BC_JSON_NUMBER)
		snprintf(buf, sizeof(buf), "%.15g", v->number);
	else if (v->type == BC_JSON_BOOL)
		snprintf(buf, sizeof(buf), "%s", v->boolean ? "on" : "off");
	else
		return NULL;
	return bc_doc_keep(d, strdup(buf));
}

static int bc_read_row(struct bc_doc *d, const struct bc_json *row, size_t i, struct bc_doc_row *r,
		       char *err, size_t err_len)
{
	const struct bc_json *opts = bc_json_get(row, BC_DOC_ROW_OPTIONS),
			     *res = bc_json_get(row, BC_DOC_ROW_RESULT);
	char pre[64];
	int ret;

	r->section = bc_str(row, BC_DOC_ROW_SECTION);
	r->label = bc_str(row, BC_DOC_ROW_LABEL);
	r->benchmark = bc_str(row, BC_DOC_ROW_BENCHMARK);
	r->status = bc_str(row, BC_DOC_ROW_STATUS);
	r->reason = bc_str(row, BC_DOC_ROW_REASON);
	r->exit_status = bc_num(row, BC_DOC_ROW_EXIT_STATUS);
	r->elapsed_sec = bc_num(row, BC_DOC_ROW_ELAPSED_SEC);
	r->timeout_sec = bc_num(row, BC_DOC_ROW_TIMEOUT_SEC);
	r->args = bc_strings(bc_json_get(row, BC_DOC_ROW_ARGS), &r->arg_cnt, bc_doc_keep_cb, d);
	if (opts && opts->type == BC_JSON_OBJECT) {
		r->has_options = true;
		r->opts = bc_doc_keep(d, calloc(opts->cnt + 1, sizeof(*r->opts)));
		if (!r->opts)
			return -ENOMEM;
		for (size_t k = 0; k < opts->cnt; k++) {
			r->opts[k].name = opts->keys[k];
			r->opts[k].text = bc_opt_text(d, opts->items[k]);
			if (!r->opts[k].text && (opts->items[k]->type == BC_JSON_NUMBER ||
						 opts->items[k]->type == BC_JSON_BOOL))
				return -ENOMEM;
		}
		r->opt_cnt = opts->cnt;
	}
	ret = bc_doc_check_row(row, i, err, err_len);
	if (ret || !res || res->type != BC_JSON_OBJECT)
		return ret;
	snprintf(pre, sizeof(pre), "%s[%zu].%s.", BC_DOC_BATCH_RUNS, i, BC_DOC_ROW_RESULT);
	ret = bc_doc_check_run(res, pre, err, err_len);
	if (ret)
		return ret;
	r->run = bc_doc_keep(d, calloc(1, sizeof(*r->run)));
	if (!r->run)
		return -ENOMEM;
	ret = bc_read_run(res, r->run);
	if (ret) {
		bc_run_release(r->run);
		/* the struct itself is the doc's; keep nothing it pointed to */
		memset(r->run, 0, sizeof(*r->run));
		r->run = NULL;
	}
	return ret;
}

static int bc_read_batch(struct bc_doc *d, const struct bc_json *doc, char *err, size_t err_len)
{
	const struct bc_json *runs = bc_json_get(doc, BC_DOC_BATCH_RUNS);
	const char *kind = bc_str(doc, BC_DOC_BATCH_KIND);
	int ret = 0;

	d->kind = BC_DOC_BATCH;
	d->suite = kind && !strcmp(kind, BC_DOC_BATCH_KIND_SUITE);
	d->name = bc_str(doc, BC_DOC_BATCH_NAME);
	d->sweep = bc_strings(bc_json_get(doc, BC_DOC_BATCH_SWEEP), &d->sweep_cnt, bc_doc_keep_cb, d);
	d->rows = bc_doc_keep(d, calloc(runs->cnt + 1, sizeof(*d->rows)));
	if (!d->rows)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < runs->cnt; i++) {
		ret = bc_read_row(d, runs->items[i], i, &d->rows[i], err, err_len);
		d->row_cnt = i + 1;
	}
	return ret;
}

static void bc_read_compare(struct bc_doc *d, const struct bc_json *doc)
{
	const struct bc_json *cmps = bc_json_get(doc, BC_DOC_CMP_COMPARISONS);

	d->kind = BC_DOC_COMPARE;
	d->base = bc_str(doc, BC_DOC_CMP_BASE);
	d->new = bc_str(doc, BC_DOC_CMP_NEW);
	d->test = bc_str(doc, BC_DOC_CMP_TEST);
	d->alpha = bc_finite(doc, BC_DOC_CMP_ALPHA);
	d->cmps = bc_doc_keep(d, calloc(cmps->cnt + 1, sizeof(*d->cmps)));
	if (!d->cmps)
		return;
	for (size_t i = 0; i < cmps->cnt; i++) {
		const struct bc_json *c = cmps->items[i];
		struct bc_doc_cmp *e = &d->cmps[d->cmp_cnt++];

		e->bench = bc_str(c, BC_DOC_CMPE_BENCHMARK);
		e->config = bc_str(c, BC_DOC_CMPE_CONFIGURATION);
		e->label = bc_str(c, BC_DOC_CMPE_LABEL);
		e->metric = bc_str(c, BC_DOC_CMPE_METRIC);
		e->unit = bc_str(c, BC_DOC_CMPE_UNIT);
		e->base_mean = bc_finite(c, BC_DOC_CMPE_BASE_MEAN);
		e->new_mean = bc_finite(c, BC_DOC_CMPE_NEW_MEAN);
		e->change_pct = bc_finite(c, BC_DOC_CMPE_CHANGE_PCT);
		e->p_value = bc_finite(c, BC_DOC_CMPE_P_VALUE);
	}
}

static int bc_read_doc(const struct bc_json *json, struct bc_doc *doc, char *err, size_t err_len);

static int bc_read_list(const struct bc_json *json, struct bc_doc *d, char *err, size_t err_len)
{
	int ret = 0;

	d->kind = BC_DOC_LIST;
	d->items = bc_doc_keep(d, calloc(json->cnt + 1, sizeof(*d->items)));
	if (!d->items)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < json->cnt; i++) {
		ret = bc_read_doc(json->items[i], &d->items[i], err, err_len);
		d->item_cnt = i + 1;
	}
	return ret;
}

/* What the document is, from its shape: a run has a summary; a sweep or
 * suite its runs; compare its comparisons; an array holds documents. */
static int bc_read_doc(const struct bc_json *json, struct bc_doc *d, char *err, size_t err_len)
{
	const struct bc_json *runs = bc_json_get(json, BC_DOC_BATCH_RUNS),
			     *cmps = bc_json_get(json, BC_DOC_CMP_COMPARISONS);
	bool summary = bc_json_get(json, BC_DOC_SUMMARY) != NULL;
	int ret;

	if (json->type == BC_JSON_ARRAY)
		return bc_read_list(json, d, err, err_len);
	if (json->type != BC_JSON_OBJECT)
		return 0;
	if (!summary && runs && runs->type == BC_JSON_ARRAY)
		return bc_read_batch(d, json, err, err_len);
	if (summary) {
		ret = bc_doc_check_run(json, "", err, err_len);
		if (ret)
			return ret;
		d->kind = BC_DOC_RUN;
		d->run = bc_doc_keep(d, calloc(1, sizeof(*d->run)));
		if (!d->run)
			return -ENOMEM;
		ret = bc_read_run(json, d->run);
		if (ret) {
			bc_run_release(d->run);
			memset(d->run, 0, sizeof(*d->run));
			d->run = NULL;
		}
		return ret;
	}
	if (cmps && cmps->type == BC_JSON_ARRAY) {
		bc_read_compare(d, json);
		return d->cmps ? 0 : -ENOMEM;
	}
	return 0;
}

static void bc_doc_release(struct bc_doc *d)
{
	if (d->run)
		bc_run_release(d->run);
	for (size_t i = 0; i < d->row_cnt; i++)
		if (d->rows[i].run)
			bc_run_release(d->rows[i].run);
	for (size_t i = 0; i < d->item_cnt; i++)
		bc_doc_release(&d->items[i]);
	for (size_t i = 0; i < d->owned_cnt; i++)
		free(d->owned[i]);
	free(d->owned);
}

void bc_doc_free(struct bc_doc *doc)
{
	if (!doc)
		return;
	bc_doc_release(doc);
	bc_json_free(doc->json);
	memset(doc, 0, sizeof(*doc));
}

int bc_doc_from_json(struct bc_json *json, struct bc_doc *doc, char *err, size_t err_len)
{
	int ret;

	memset(doc, 0, sizeof(*doc));
	doc->json = json;
	if (!json) {
		snprintf(err, err_len, "no document");
		return -EINVAL;
	}
	ret = bc_read_doc(json, doc, err, err_len);
	if (ret == -ENOMEM)
		snprintf(err, err_len, "out of memory");
	if (ret)
		bc_doc_free(doc);
	return ret;
}

int bc_doc_parse(const char *text, size_t len, struct bc_doc *doc, char *err, size_t err_len)
{
	struct bc_json *json = bc_json_parse(text, len, err, err_len);

	if (!json) {
		memset(doc, 0, sizeof(*doc));
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	}
	return bc_doc_from_json(json, doc, err, err_len);
}

int bc_doc_load_results(const char *path, struct bc_doc *doc, char *err, size_t err_len)
{
	char why[512] = "";
	struct bc_json *json;
	int ret;

	memset(doc, 0, sizeof(*doc));
	json = bc_json_parse_file_max(path, BC_DOC_MAX_BYTES, why, sizeof(why));
	if (!json && errno == EFBIG) {
		snprintf(err, err_len, "not a benchcore result: %s: larger than %u MiB", path,
			 BC_DOC_MAX_BYTES >> 20);
		return -EINVAL;
	}
	if (!json) {
		snprintf(err, err_len, "%s", why);
		return -EINVAL;
	}
	ret = bc_doc_from_json(json, doc, why, sizeof(why));
	if (ret == -EBADMSG) {
		snprintf(err, err_len, "not a benchcore result: %s: %s", path, why);
		return ret;
	}
	if (ret) {
		snprintf(err, err_len, "'%s': %s", path, why);
		return ret;
	}
	if (doc->kind != BC_DOC_RUN && doc->kind != BC_DOC_BATCH) {
		bc_doc_free(doc);
		snprintf(err, err_len,
			 "'%s': not a benchcore result (expected a run, sweep or suite JSON document)",
			 path);
		return -EINVAL;
	}
	return 0;
}

struct bc_doc_run *bc_doc_run_parse(const char *text, size_t len, char *err, size_t err_len)
{
	struct bc_doc_run *r;
	struct bc_json *json = bc_json_parse(text, len, err, err_len);
	int ret;

	if (!json)
		return NULL;
	if (json->type != BC_JSON_OBJECT) {
		bc_json_free(json);
		snprintf(err, err_len, "not a run document (expected a JSON object)");
		errno = ENOMSG;
		return NULL;
	}
	ret = bc_doc_check_run(json, "", err, err_len);
	r = ret ? NULL : calloc(1, sizeof(*r));
	if (!ret && !r)
		ret = -ENOMEM;
	if (!ret) {
		r->json = json;
		ret = bc_read_run(json, r);
	}
	if (ret) {
		if (r)
			bc_doc_run_free(r);
		else
			bc_json_free(json);
		if (ret == -ENOMEM)
			snprintf(err, err_len, "out of memory");
		errno = -ret;
		return NULL;
	}
	return r;
}

/* --------------------------------------------------------------- rules */

const char *bc_doc_headline(const struct bc_doc_run *run)
{
	static const char *const roles[] = { "hits", "ops" };

	if (!run)
		return NULL;
	if (run->headline_key)
		return run->headline_key;
	for (size_t k = 0; k < sizeof(roles) / sizeof(roles[0]); k++)
		for (size_t i = 0; i < run->decl_cnt; i++) {
			const struct bc_doc_decl *d = &run->decls[i];

			if (d->name && d->role && !strcmp(d->role, roles[k]) &&
			    !(d->kind && !strcmp(d->kind, BC_DOC_KIND_HISTOGRAM)))
				return d->name;
		}
	for (size_t i = 0; i < run->metric_cnt; i++)
		if (!run->metrics[i].figure && run->metrics[i].judged)
			return run->metrics[i].name;
	return NULL;
}

const struct bc_doc_metric *bc_doc_find(const struct bc_doc_run *run, const char *name)
{
	for (size_t i = 0; run && name && i < run->metric_cnt; i++)
		if (run->metrics[i].judged && !strcmp(run->metrics[i].name, name))
			return &run->metrics[i];
	return NULL;
}

/* Is word one of the comma-separated names in list? */
static bool bc_listed(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p++)
		if ((p == list || (p >= list + 2 && p[-2] == ',' && p[-1] == ' ')) &&
		    (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

void bc_doc_names_add(const struct bc_doc_run *run, char *buf, size_t len)
{
	size_t n = strlen(buf);

	for (size_t i = 0; run && i < run->metric_cnt && n < len; i++) {
		const struct bc_doc_metric *m = &run->metrics[i];

		if (!m->judged || bc_listed(buf, m->name))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", m->name);
	}
}

void bc_doc_names(const struct bc_doc_run *run, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	bc_doc_names_add(run, buf, len);
}

bool bc_doc_run_measured(const struct bc_doc_run *run)
{
	for (size_t i = 0; run && i < run->metric_cnt; i++) {
		const struct bc_doc_metric *m = &run->metrics[i];

		/* Interrupted in its warm-up: the metrics are there, with no
		 * sample. A document without counts measured what it says. */
		if (!m->figure && m->judged &&
		    (isnan(m->stats.n) ? isfinite(m->mean) : m->stats.n > 0))
			return true;
	}
	return false;
}
