// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Reading a run document (`benchcore run --format json`), as sweeps and
 * suites read their children's output and compare reads saved files. The
 * readers accept the few spellings a document's members have had.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "run_doc.h"
#include "runtime/json.h"
#include "json_read.h"

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

int bc_run_doc_bench(const struct bc_json *doc, char *buf, size_t len)
{
	static const char *const bench_keys[] = { "benchmark", "bench", NULL };
	const struct bc_json *b = bc_get_any(doc, bench_keys), *p = bc_json_get(doc, "plugin");
	const char *bench = bc_json_str(b), *plugin = bc_json_str(p);

	if (!bench)
		bench = bc_json_str(bc_json_get(b, "name"));
	if (!plugin)
		plugin = bc_json_str(bc_json_get(p, "name"));
	if (!plugin)
		plugin = bc_json_str(bc_json_get(b, "plugin"));
	if (!bench)
		return -ENOENT;
	if (plugin && !strchr(bench, ':'))
		snprintf(buf, len, "%s:%s", plugin, bench);
	else
		snprintf(buf, len, "%s", bench);
	return 0;
}

const struct bc_json *bc_run_doc_config(const struct bc_json *doc)
{
	static const char *const keys[] = { "config", "configuration", NULL };

	return bc_get_any(doc, keys);
}

bool bc_run_doc_metric_is_rate(const struct bc_json *doc, const char *name,
			       const struct bc_json *summary_entry)
{
	const struct bc_json *metrics = bc_json_get(doc, "metrics");
	const char *kind = bc_json_str(bc_json_get(summary_entry, "kind"));

	for (size_t i = 0; !kind && i < bc_json_len(metrics); i++) {
		const struct bc_json *m = metrics->type == BC_JSON_OBJECT
						  ? (!strcmp(metrics->keys[i], name) ? metrics->items[i]
										     : NULL)
						  : bc_json_at(metrics, i);
		const char *mname = bc_json_str(bc_json_get(m, "name"));

		if (m && (metrics->type == BC_JSON_OBJECT || (mname && !strcmp(mname, name))))
			kind = bc_json_str(bc_json_get(m, "kind"));
	}
	/* Counters become rates; a document that does not say is about
	 * counters, as every layout but the custom ones is. */
	return !kind || !strcmp(kind, "counter") || !strcmp(kind, "rate");
}

const struct bc_json *bc_run_doc_figures(const struct bc_json *doc)
{
	const struct bc_json *f = bc_json_get(bc_json_get(doc, "summary"), "figures");

	return f && f->type == BC_JSON_OBJECT ? f : NULL;
}

const struct bc_json *bc_run_doc_metric(const struct bc_json *doc, const char *name)
{
	const struct bc_json *metrics = bc_json_get(doc, "metrics");

	for (size_t i = 0; metrics && metrics->type == BC_JSON_ARRAY && i < metrics->cnt; i++) {
		const char *mname = bc_json_str(bc_json_get(metrics->items[i], "name"));

		if (mname && name && !strcmp(mname, name))
			return metrics->items[i];
	}
	return NULL;
}

bool bc_run_doc_is_hist(const struct bc_json *summary_entry)
{
	const char *kind = bc_json_str(bc_json_get(summary_entry, "kind"));

	return kind && !strcmp(kind, "histogram");
}
