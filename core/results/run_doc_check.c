// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The fields the model reads, checked before it reads them: a document
 * that fails says which field in one line, rather than a table printing
 * nan or a chart a bar at infinity. Compare's checks, kept as they were,
 * with the members newer documents add (the headline, a direction).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "run_doc_check.h"
#include "runtime/doc_keys.h"

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
	static const char *const nums[] = { BC_DOC_STAT_MEAN, BC_DOC_STAT_STDDEV, BC_DOC_STAT_MIN,
					     BC_DOC_STAT_MEDIAN, BC_DOC_STAT_MAX, BC_DOC_STAT_N,
					     BC_DOC_STAT_VALUE };
	const struct bc_json *n = bc_json_get(s, BC_DOC_STAT_N);

	for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
		if (!bc_num_ok(bc_json_get(s, nums[k])))
			return bc_bad(field, len, "%s%s.%s: expected a finite number", pre, name, nums[k]);
	if (n && n->type == BC_JSON_NUMBER && (n->number < 0 || n->number > 1e15))
		return bc_bad(field, len, "%s%s.%s: expected a count", pre, name, BC_DOC_STAT_N);
	if (!bc_str_ok(bc_json_get(s, BC_DOC_STAT_UNIT)))
		return bc_bad(field, len, "%s%s.%s: expected a string", pre, name, BC_DOC_STAT_UNIT);
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

/* "higher", "lower", or not said (a document from before directions). */
static int bc_check_direction(const struct bc_json *o, const char *pre, const char *what,
			      char *field, size_t len)
{
	const struct bc_json *d = bc_json_get(o, BC_DOC_METRIC_DIRECTION);

	if (!d || d->type == BC_JSON_NULL)
		return 0;
	if (d->type == BC_JSON_STRING && (!strcmp(d->string, BC_DOC_DIRECTION_HIGHER) ||
					  !strcmp(d->string, BC_DOC_DIRECTION_LOWER)))
		return 0;
	return bc_bad(field, len, "%s%s.%s: expected \"%s\" or \"%s\"", pre, what,
		      BC_DOC_METRIC_DIRECTION, BC_DOC_DIRECTION_HIGHER, BC_DOC_DIRECTION_LOWER);
}

/* run --repeat's per-run means, which compare tests when both sides have them. */
static int bc_check_repeats(const struct bc_json *rep, const char *pre, char *field, size_t len)
{
	const struct bc_json *runs = bc_json_get(rep, BC_DOC_REP_RUNS);
	char name[96];
	int ret;

	if (!bc_obj_ok(rep))
		return bc_bad(field, len, "%s%s: expected an object", pre, BC_DOC_REPEATS);
	if (runs && runs->type != BC_JSON_ARRAY && runs->type != BC_JSON_NULL)
		return bc_bad(field, len, "%s%s.%s: expected an array", pre, BC_DOC_REPEATS,
			      BC_DOC_REP_RUNS);
	for (size_t k = 0; k < bc_json_len(runs); k++) {
		const struct bc_json *run = runs->items[k],
				     *c = bc_json_get(run, BC_DOC_REPRUN_COMPLETE);

		if (run->type != BC_JSON_OBJECT)
			return bc_bad(field, len, "%s%s.%s[%zu]: expected an object", pre,
				      BC_DOC_REPEATS, BC_DOC_REP_RUNS, k);
		if (c && c->type != BC_JSON_BOOL)
			return bc_bad(field, len, "%s%s.%s[%zu].%s: expected true or false", pre,
				      BC_DOC_REPEATS, BC_DOC_REP_RUNS, k, BC_DOC_REPRUN_COMPLETE);
		snprintf(name, sizeof(name), "%s.%s[%zu].%s", BC_DOC_REPEATS, BC_DOC_REP_RUNS, k,
			 BC_DOC_REPRUN_VALUES);
		ret = bc_check_num_members(bc_json_get(run, BC_DOC_REPRUN_VALUES), pre, name, field, len);
		if (ret)
			return ret;
		snprintf(name, sizeof(name), "%s.%s[%zu].%s", BC_DOC_REPEATS, BC_DOC_REP_RUNS, k,
			 BC_DOC_REPRUN_FIGURES);
		ret = bc_check_num_members(bc_json_get(run, BC_DOC_REPRUN_FIGURES), pre, name, field, len);
		if (ret)
			return ret;
	}
	return 0;
}

static int bc_check_summary(const struct bc_json *summary, const char *pre, char *field, size_t len)
{
	const struct bc_json *figs = bc_json_get(summary, BC_DOC_SUMMARY_FIGURES);
	char name[160];
	int ret;

	if (!bc_obj_ok(summary))
		return bc_bad(field, len, "%s%s: expected an object", pre, BC_DOC_SUMMARY);
	for (size_t i = 0; summary && i < bc_json_len(summary); i++) {
		const struct bc_json *s = summary->items[i];

		if (s == figs || s->type != BC_JSON_OBJECT || !bc_json_get(s, BC_DOC_STAT_MEAN))
			continue;
		snprintf(name, sizeof(name), "%s.%s", BC_DOC_SUMMARY, summary->keys[i]);
		ret = bc_check_stats(s, pre, name, field, len);
		if (ret)
			return ret;
	}
	if (!bc_obj_ok(figs))
		return bc_bad(field, len, "%s%s.%s: expected an object", pre, BC_DOC_SUMMARY,
			      BC_DOC_SUMMARY_FIGURES);
	for (size_t i = 0; i < bc_json_len(figs); i++) {
		const struct bc_json *f = figs->items[i], *stats = bc_json_get(f, BC_DOC_FIG_STATS);

		snprintf(name, sizeof(name), "%s.%s.%s", BC_DOC_SUMMARY, BC_DOC_SUMMARY_FIGURES,
			 figs->keys[i]);
		if (f->type != BC_JSON_OBJECT)
			return bc_bad(field, len, "%s%s: expected an object", pre, name);
		ret = bc_check_stats(f, pre, name, field, len);
		if (!ret && !bc_obj_ok(stats))
			ret = bc_bad(field, len, "%s%s.%s: expected an object", pre, name, BC_DOC_FIG_STATS);
		if (!ret)
			ret = bc_check_direction(f, pre, name, field, len);
		if (!ret && stats) {
			snprintf(name, sizeof(name), "%s.%s.%s.%s", BC_DOC_SUMMARY, BC_DOC_SUMMARY_FIGURES,
				 figs->keys[i], BC_DOC_FIG_STATS);
			ret = bc_check_stats(stats, pre, name, field, len);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int bc_check_iterations(const struct bc_json *iters, const char *pre, char *field, size_t len)
{
	char name[96];
	int ret;

	if (iters && iters->type != BC_JSON_ARRAY && iters->type != BC_JSON_NULL)
		return bc_bad(field, len, "%s%s: expected an array", pre, BC_DOC_ITERATIONS);
	for (size_t k = 0; k < bc_json_len(iters); k++) {
		const struct bc_json *it = iters->items[k], *w = bc_json_get(it, BC_DOC_ITER_WARMUP);

		if (it->type != BC_JSON_OBJECT)
			return bc_bad(field, len, "%s%s[%zu]: expected an object", pre, BC_DOC_ITERATIONS, k);
		if (w && w->type != BC_JSON_BOOL)
			return bc_bad(field, len, "%s%s[%zu].%s: expected true or false", pre,
				      BC_DOC_ITERATIONS, k, BC_DOC_ITER_WARMUP);
		snprintf(name, sizeof(name), "%s[%zu].%s", BC_DOC_ITERATIONS, k, BC_DOC_ITER_VALUES);
		ret = bc_check_num_members(bc_json_get(it, BC_DOC_ITER_VALUES), pre, name, field, len);
		if (ret)
			return ret;
		snprintf(name, sizeof(name), "%s[%zu].%s", BC_DOC_ITERATIONS, k, BC_DOC_ITER_FIGURES);
		ret = bc_check_num_members(bc_json_get(it, BC_DOC_ITER_FIGURES), pre, name, field, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* The declarations: only what newer documents add is checked, as readers
 * before the model took any "metrics" they were given. */
static int bc_check_metrics(const struct bc_json *metrics, const char *pre, char *field, size_t len)
{
	char name[64];

	for (size_t i = 0; metrics && metrics->type == BC_JSON_ARRAY && i < metrics->cnt; i++) {
		int ret;

		snprintf(name, sizeof(name), "%s[%zu]", BC_DOC_METRICS, i);
		ret = bc_check_direction(metrics->items[i], pre, name, field, len);
		if (ret)
			return ret;
	}
	return 0;
}

int bc_doc_check_run(const struct bc_json *doc, const char *pre, char *field, size_t len)
{
	const struct bc_json *status = bc_json_get(doc, BC_DOC_STATUS),
			     *headline = bc_json_get(doc, BC_DOC_HEADLINE);
	int ret;

	if (!bc_obj_ok(status))
		return bc_bad(field, len, "%s%s: expected an object", pre, BC_DOC_STATUS);
	if (!bc_num_ok(bc_json_get(status, BC_DOC_STATUS_EXIT_STATUS)))
		return bc_bad(field, len, "%s%s.%s: expected a number", pre, BC_DOC_STATUS,
			      BC_DOC_STATUS_EXIT_STATUS);
	if (!bc_obj_ok(bc_json_get(doc, BC_DOC_CONFIG)))
		return bc_bad(field, len, "%s%s: expected an object", pre, BC_DOC_CONFIG);
	if (!bc_str_ok(headline))
		return bc_bad(field, len, "%s%s: expected the name of a metric or figure, or null",
			      pre, BC_DOC_HEADLINE);
	ret = bc_check_metrics(bc_json_get(doc, BC_DOC_METRICS), pre, field, len);
	if (!ret)
		ret = bc_check_summary(bc_json_get(doc, BC_DOC_SUMMARY), pre, field, len);
	if (!ret)
		ret = bc_check_repeats(bc_json_get(doc, BC_DOC_REPEATS), pre, field, len);
	if (!ret)
		ret = bc_check_iterations(bc_json_get(doc, BC_DOC_ITERATIONS), pre, field, len);
	return ret;
}

int bc_doc_check_row(const struct bc_json *row, size_t i, char *field, size_t len)
{
	if (!bc_obj_ok(bc_json_get(row, BC_DOC_ROW_RESULT)) ||
	    !bc_str_ok(bc_json_get(row, BC_DOC_ROW_LABEL)))
		return bc_bad(field, len, "%s[%zu]: expected a run with a result object or null",
			      BC_DOC_BATCH_RUNS, i);
	return 0;
}
