// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bc_test_report.h"
#include "json_read.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

void bc_test_dump(const char *what, const struct bc_test_run *r)
{
	fprintf(stderr, "%s: exit status %d\n--- stdout\n%s\n--- stderr\n%s\n", what, r->status,
		r->out ? r->out : "", r->err ? r->err : "");
}

struct bc_json *bc_test_run_json(struct bc_test_run *r, const char *const *args)
{
	const char *argv[40];
	char what[256] = "";
	char perr[256] = "";
	struct bc_json *doc;
	size_t n = 0;

	while (args[n] && n < sizeof(argv) / sizeof(argv[0]) - 3) {
		argv[n] = args[n];
		n++;
	}
	argv[n++] = "--format";
	argv[n++] = "json";
	argv[n] = NULL;
	for (size_t i = 0; args[i]; i++)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s%s", i ? " " : "",
			 args[i]);

	bc_test_run_benchcore(r, argv);
	if (r->status != 0) {
		bc_test_dump(what, r);
		fail_msg("%s: exit status %d, expected 0", what, r->status);
	}
	doc = bc_json_parse(r->out, strlen(r->out), perr, sizeof(perr));
	if (!doc) {
		bc_test_dump(what, r);
		fail_msg("%s: stdout is not one JSON document: %s", what, perr);
	}
	return doc;
}

double bc_test_summary_mean(const struct bc_json *doc, const char *metric)
{
	const struct bc_json *v;

	v = bc_json_get(bc_json_get(bc_json_get(doc, "summary"), metric), "mean");
	if (!v || v->type != BC_JSON_NUMBER)
		fail_msg("no summary.%s.mean in the JSON report", metric);
	return bc_json_num(v, 0);
}

double bc_test_expect_histogram(const struct bc_json *doc, const char *metric, const char *what)
{
	static const char *const keys[] = { "p50", "p90", "p99", "p99.9", "max" };
	const struct bc_json *h = bc_json_get(bc_json_get(doc, "summary"), metric);
	const char *kind = bc_json_str(bc_json_get(h, "kind"));
	double v[5], count = bc_json_num(bc_json_get(h, "count"), -1), ticks = 0;
	const struct bc_json *its;
	size_t i;

	if (!h || !kind || strcmp(kind, "histogram"))
		fail_msg("%s: summary.%s is not a histogram", what, metric);
	for (i = 0; i < 5; i++) {
		const struct bc_json *x = bc_json_get(h, keys[i]);

		if (!x || x->type != BC_JSON_NUMBER)
			fail_msg("%s: summary.%s.%s missing or not a number", what, metric, keys[i]);
		v[i] = x->number;
	}
	if (!(count > 0))
		fail_msg("%s: summary.%s.count %g: no values recorded", what, metric, count);
	for (i = 1; i < 5; i++)
		if (!(v[i - 1] <= v[i]))
			fail_msg("%s: summary.%s: %s %g > %s %g (count %g)", what, metric,
				 keys[i - 1], v[i - 1], keys[i], v[i], count);
	/* The summary is the measured ticks' values together. */
	its = bc_json_get(doc, "iterations");
	for (i = 0; its && i < its->cnt; i++) {
		const struct bc_json *it = its->items[i], *w = bc_json_get(it, "warmup");

		if (w && w->type == BC_JSON_BOOL && w->boolean)
			continue;
		ticks += bc_json_num(bc_json_get(bc_json_get(bc_json_get(it, "histograms"), metric),
						 "count"), 0);
	}
	if (ticks != count)
		fail_msg("%s: the measured ticks' %s counts add up to %g, the summary's is %g", what,
			 metric, ticks, count);
	return count;
}

const char *bc_test_attach_point(const struct bc_json *doc)
{
	const char *pt = bc_json_str(bc_json_get(doc, "attach_point"));

	if (!pt || !pt[0])
		fail_msg("the report names no attach point");
	return pt;
}

bool bc_test_has_prefix(const char *const *prefixes, const char *s)
{
	for (; prefixes && *prefixes; prefixes++)
		if (!strncmp(s, *prefixes, strlen(*prefixes)))
			return true;
	return false;
}

static bool prog_matches(int fd, const struct bpf_prog_info *info, const void *arg)
{
	(void)fd;
	return bc_test_has_prefix(arg, info->name);
}

static bool map_matches(int fd, const struct bpf_map_info *info, const void *arg)
{
	(void)fd;
	return bc_test_has_prefix(arg, info->name);
}

/*
 * A dead process's programs and maps are freed from deferred work, and
 * another engineer's `benchcore list` may probe ours for a moment: poll a
 * bounded while. A real leak never goes away.
 */
void bc_test_assert_none_loaded(const char *const *prefixes, const char *after)
{
	const struct timespec nap = { .tv_nsec = 50 * 1000 * 1000 };
	unsigned int progs = 0, maps = 0;

	for (int i = 0; i < 100; i++) {
		progs = bc_test_count_progs(prog_matches, prefixes, NULL);
		maps = bc_test_count_maps(map_matches, prefixes, NULL);
		if (!progs && !maps)
			return;
		nanosleep(&nap, NULL);
	}
	fail_msg("%u BPF programs and %u maps of ours (named %s...) still loaded after %s", progs,
		 maps, prefixes[0], after);
}
