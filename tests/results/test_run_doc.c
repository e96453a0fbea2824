// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The run-document model (core/results/run_doc.c): every version in
 * fixtures/ reads, with what each version had; a field of the wrong type
 * is one line naming it; the headline rule and the directions on old and
 * new documents; the store's figures by name, and a store of the schema
 * before them read from its documents.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <sqlite3.h>

#include "run_doc.h"
#include "run_doc_text.h"
#include "store.h"
#include "store_doc.h"

#define FIXTURES BC_TEST_SOURCE_DIR "/tests/results/fixtures"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The fixture's document read by the model. */
static void load(const char *rel, struct bc_doc *d)
{
	char path[512], err[512] = "";
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, rel);
	text = slurp(path, &len);
	if (bc_doc_parse(text, len, d, err, sizeof(err)))
		fail_msg("%s: %s", rel, err);
	free(text);
}

/* The fixture's text with the first `from` replaced by `to`. */
static char *edited(const char *rel, const char *from, const char *to, size_t *len)
{
	char path[512], *text, *at, *out;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, rel);
	text = slurp(path, &n);
	at = strstr(text, from);
	assert_non_null(at);
	assert_true(asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) > 0);
	free(text);
	*len = strlen(out);
	return out;
}

static struct bc_doc_run *run_of(const char *text)
{
	char err[512] = "";
	struct bc_doc_run *r = bc_doc_run_parse(text, strlen(text), err, sizeof(err));

	if (!r)
		fail_msg("%s", err);
	return r;
}

static const struct bc_doc_metric *metric(const struct bc_doc_run *r, const char *name,
					  bool figure)
{
	for (size_t i = 0; i < r->metric_cnt; i++)
		if (r->metrics[i].figure == figure && !strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	fail_msg("no %s %s", figure ? "figure" : "metric", name);
	return NULL;
}

/* ------------------------------------------------------ every version */

static void check_run(const char *file, const struct bc_doc_run *r)
{
	const char *head = bc_doc_headline(r);
	const struct bc_doc_metric *m;

	if (!r->bench || (strcmp(r->bench, "count:count-local") && strcmp(r->bench, "ringbuf:rb-custom") &&
			  strcmp(r->bench, "count:count-global") && strcmp(r->bench, "trigger:trig-fentry")))
		fail_msg("%s: benchmark %s", file, r->bench ? r->bench : "(none)");
	assert_non_null(r->config);
	assert_non_null(r->ctx.date);
	assert_non_null(r->ctx.kernel_release);
	assert_true(r->ctx.cpu_count >= 1);
	if (r->exit_status)	/* the suite's unavailable row: no figure */
		return;
	if (!head || strcmp(head, "hits"))
		fail_msg("%s: headline %s", file, head ? head : "(none)");
	m = bc_doc_find(r, head);
	assert_non_null(m);
	assert_true(isfinite(m->mean) && m->mean > 0);
	assert_true(m->sample_cnt >= 1);
	assert_true(m->rate);
	assert_int_equal(m->direction, BC_HIGHER_IS_BETTER);
}

static void test_every_version_reads(void **state)
{
	glob_t g;
	size_t runs = 0, batches = 0, compares = 0;

	(void)state;
	assert_int_equal(glob(FIXTURES "/v*/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 80);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *file = g.gl_pathv[i] + strlen(FIXTURES) + 1;
		struct bc_doc d;

		load(file, &d);
		switch (d.kind) {
		case BC_DOC_RUN:
			check_run(file, d.run);
			runs++;
			break;
		case BC_DOC_BATCH:
			assert_true(d.row_cnt >= 2);
			for (size_t k = 0; k < d.row_cnt; k++) {
				assert_non_null(d.rows[k].label);
				assert_true(d.rows[k].arg_cnt >= 1);
				if (!strcmp(d.rows[k].status, "ok"))
					assert_non_null(d.rows[k].run);
				if (d.rows[k].run)
					check_run(file, d.rows[k].run);
			}
			batches++;
			break;
		case BC_DOC_COMPARE:
			assert_true(d.cmp_cnt >= 1);
			assert_string_equal(d.cmps[0].metric, "hits");
			assert_true(isfinite(d.cmps[0].base_mean));
			compares++;
			break;
		default:
			fail_msg("%s: not read as a run, sweep, suite or compare document", file);
		}
		bc_doc_free(&d);
	}
	globfree(&g);
	assert_true(runs >= 40 && batches >= 24 && compares >= 16);
}

/* What each version added is there, and nothing a version lacked is made up. */
static void test_version_shapes(void **state)
{
	const struct bc_doc_metric *m;
	struct bc_doc d;

	(void)state;
	/* v01: no roles, no figures, words for options */
	load("v01-5b03395/run.json", &d);
	assert_false(d.run->roles);
	assert_int_equal(d.run->decl_cnt, 1);
	assert_null(d.run->decls[0].role);
	for (size_t i = 0; i < d.run->metric_cnt; i++)
		assert_false(d.run->metrics[i].figure);
	assert_string_equal(d.run->config, "producers=1 consumers=0");
	assert_null(d.run->run_id);
	assert_null(d.run->ctx.kernel_version);
	bc_doc_free(&d);
	load("v01-5b03395/sweep.json", &d);
	assert_false(d.suite);
	assert_int_equal(d.sweep_cnt, 1);
	assert_string_equal(d.sweep[0], "count-batch=1,8");
	assert_string_equal(d.rows[1].opts[0].name, "count-batch");
	assert_string_equal(d.rows[1].opts[0].text, "8");
	assert_string_equal(d.rows[1].run->config, "producers=1 consumers=0 count-batch=8");
	bc_doc_free(&d);

	/* v02: roles and figures, the figures without a kind */
	load("v02-e11a7d2/run.json", &d);
	assert_true(d.run->roles);
	m = metric(d.run, "per_producer", true);
	assert_null(m->kind);
	assert_string_equal(m->of, "hits");
	assert_string_equal(m->unit, "ops/s");
	assert_true(m->rate && m->sample_cnt >= 1 && isfinite(m->stats.stddev));
	bc_doc_free(&d);

	/* v03: a figure's kind */
	load("v03-02ccb65/run.json", &d);
	assert_string_equal(metric(d.run, "per_producer", true)->kind, "per_producer");
	bc_doc_free(&d);

	/* v04: histograms, typed plugin options */
	load("v04-cc71b79/latency.json", &d);
	m = metric(d.run, "latency", false);
	assert_true(m->hist);
	assert_false(m->judged);
	assert_true(m->h.count > 0 && isfinite(m->h.p50) && isfinite(m->h.p999));
	assert_true(m->h.pct_cnt >= 4);
	assert_string_equal(m->decl->label, "delivery latency");
	assert_int_equal(metric(d.run, "drops", false)->direction, BC_LOWER_IS_BETTER);
	assert_non_null(strstr(d.run->config, "rb-size="));
	bc_doc_free(&d);

	/* v05: run --repeat */
	load("v05-5f1bd49/repeat.json", &d);
	m = metric(d.run, "hits", false);
	assert_true(d.run->repeated && d.run->has_repeats);
	assert_non_null(m->runs);
	assert_int_equal(m->run_cnt, 3);
	assert_true(m->agg.has && m->agg.n == 3);
	assert_string_equal(d.run->watched, "hits");
	assert_true(isfinite(d.run->watched_agg.ci95_pct));
	assert_false(m->bar_is_ci);	/* no ci95 in a summary yet */
	bc_doc_free(&d);

	/* v06: a repeated summary's ci95, --bpf-stats */
	load("v06-1199a06/repeat.json", &d);
	m = metric(d.run, "hits", false);
	assert_true(m->has_bar && m->bar_is_ci && m->bar_lo < m->mean && m->bar_hi > m->mean);
	bc_doc_free(&d);
	load("v06-1199a06/bpfstats.json", &d);
	assert_true(d.run->has_bpf_stats);
	assert_true(isfinite(d.run->bpf_time_pct));
	assert_non_null(d.run->attach_point);
	bc_doc_free(&d);

	/* v07: run id and kernel version */
	load("v07-1a6fa5e/run.json", &d);
	assert_int_equal(strlen(d.run->run_id), 32);
	assert_non_null(d.run->ctx.kernel_version);
	bc_doc_free(&d);

	/* v08: typed sweep options read as the words; a suite's failed row */
	load("v08-b59897c/sweep.json", &d);
	assert_string_equal(d.rows[0].opts[0].text, "1");
	bc_doc_free(&d);
	load("v08-b59897c/suite.json", &d);
	assert_true(d.suite);
	assert_int_equal(d.row_cnt, 5);
	assert_string_equal(d.rows[4].status, "unavailable");
	assert_int_equal(d.rows[4].run->exit_status, 3);
	assert_non_null(d.rows[4].run->reason);
	assert_true(d.rows[0].run->warning_cnt >= 1);	/* the hypervisor's */
	bc_doc_free(&d);
}

/* ------------------------------------------------------------ refusals */

static void refused(const char *text, int want, const char *line)
{
	char err[512] = "";
	struct bc_doc d;
	int ret = bc_doc_parse(text, strlen(text), &d, err, sizeof(err));

	assert_int_equal(ret, want);
	assert_string_equal(err, line);
	assert_null(strchr(err, '\n'));
}

static void test_malformed(void **state)
{
	char deep[700], path[] = "/tmp/bc-run-doc-XXXXXX", err[512];
	struct bc_doc d;
	int fd;

	(void)state;
	refused("{\"benchmark\":\"b\",\"summary\":{\"hits\":{\"mean\":\"x\"}}}", -EBADMSG,
		"summary.hits.mean: expected a finite number");
	refused("{\"kind\":\"sweep\",\"runs\":[{\"result\":null},{\"result\":{\"summary\":{\"hits\":{\"mean\":1,\"n\":-1}}}}]}",
		-EBADMSG, "runs[1].result.summary.hits.n: expected a count");
	refused("{\"kind\":\"sweep\",\"runs\":[{\"result\":5}]}", -EBADMSG,
		"runs[0]: expected a run with a result object or null");
	refused("{\"summary\":{},\"headline\":5}", -EBADMSG,
		"headline: expected the name of a metric or figure, or null");
	refused("{\"summary\":{},\"metrics\":[{\"name\":\"h\",\"direction\":\"up\"}]}", -EBADMSG,
		"metrics[0].direction: expected \"higher\" or \"lower\"");
	refused("{\"summary\":{\"figures\":{\"lat\":{\"value\":1,\"direction\":1}}}}", -EBADMSG,
		"summary.figures.lat.direction: expected \"higher\" or \"lower\"");
	refused("{\"summary\":{\"figures\":{\"lat\":{\"value\":1,\"stats\":{\"max\":[]}}}}}", -EBADMSG,
		"summary.figures.lat.stats.max: expected a finite number");
	refused("{\"summary\":{},\"iterations\":[{\"warmup\":1}]}", -EBADMSG,
		"iterations[0].warmup: expected true or false");
	refused("{\"summary\":{},\"repeats\":{\"runs\":[{\"values\":{\"hits\":\"a\"}}]}}", -EBADMSG,
		"repeats.runs[0].values.hits: expected a finite number");
	refused("{\"summary\":{},\"status\":{\"exit_status\":\"x\"}}", -EBADMSG,
		"status.exit_status: expected a number");
	refused("{\"summary\":[]}", -EBADMSG, "summary: expected an object");
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	refused(deep, -EINVAL, "offset 512: nesting deeper than 512 levels");

	/* Another shape is no error to the model; a reader of results refuses it. */
	assert_int_equal(bc_doc_parse("{\"a\":1}", 7, &d, err, sizeof(err)), 0);
	assert_int_equal(d.kind, BC_DOC_NONE);
	bc_doc_free(&d);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"a\":1}", 7), 7);
	assert_int_equal(bc_doc_load_results(path, &d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a benchcore result (expected a run, sweep or suite JSON document)"));
	/* A file larger than any document benchcore writes is not read. */
	assert_int_equal(ftruncate(fd, BC_DOC_MAX_BYTES + 1), 0);
	close(fd);
	assert_int_equal(bc_doc_load_results(path, &d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "larger than 64 MiB"));
	unlink(path);
}

/* ------------------------------------------------------------- the rule */

/* "programs" (issue 38): the facts read, an entry before them read with
 * its identity alone (NaN, never 0), a figure of the wrong type absent. */
static void test_programs(void **state)
{
	const struct bc_doc_prog *p;
	struct bc_doc_run *r;

	(void)state;
	r = run_of("{\"summary\":{\"hits\":{\"mean\":1}},\"programs\":["
		   "{\"role\":\"producer\",\"name\":\"bl_tp\",\"id\":5,\"type\":\"tracepoint\","
		   "\"insns\":43,\"xlated_insns\":81,\"jited_bytes\":412,\"jited\":true,\"verified_insns\":42,"
		   "\"verifier\":{\"processed_insns\":42,\"insn_limit\":1000000,\"total_states\":5,"
		   "\"peak_states\":8,\"time_usec\":null,\"stack_depth\":[24,24],\"stack_depth_total\":48},"
		   "\"maps\":[{\"name\":\"m\",\"type\":\"array\",\"key_size\":4,\"value_size\":8,"
		   "\"max_entries\":1,\"memlock\":null}],\"note\":null},"
		   "{\"role\":\"driver\",\"name\":\"old\",\"id\":6,\"type\":\"raw_tracepoint\"},"
		   "{\"name\":\"odd\",\"xlated_insns\":\"81\",\"verifier\":3},"
		   "7]}");
	assert_int_equal(r->prog_cnt, 3);
	p = &r->progs[0];
	assert_string_equal(p->name, "bl_tp");
	assert_true(p->xlated_insns == 81 && p->jited_bytes == 412 && p->insns == 43);
	assert_int_equal(p->jited, 1);
	assert_true(p->has_verifier);
	assert_true(p->processed_insns == 42 && p->total_states == 5 && p->stack_total == 48);
	assert_true(isnan(p->time_usec));
	assert_int_equal(p->map_cnt, 1);
	assert_true(isnan(p->maps[0].memlock));
	p = &r->progs[1];
	assert_string_equal(p->role, "driver");
	assert_true(isnan(p->xlated_insns) && isnan(p->jited_bytes) && isnan(p->verified_insns));
	assert_int_equal(p->jited, -1);
	assert_false(p->has_verifier);
	assert_null(p->note);
	p = &r->progs[2];
	assert_true(isnan(p->xlated_insns));
	assert_false(p->has_verifier);
	bc_doc_run_free(r);
	/* a document without "programs" */
	r = run_of("{\"summary\":{\"hits\":{\"mean\":1}}}");
	assert_int_equal(r->prog_cnt, 0);
	assert_null(r->progs);
	bc_doc_run_free(r);
}

static void test_headline_rule(void **state)
{
	struct bc_doc_run *r;
	char *text;
	size_t len;

	(void)state;
	/* before roles: the first summary entry with a mean */
	r = run_of("{\"summary\":{\"lat\":{\"kind\":\"histogram\",\"count\":3},\"ops\":{\"mean\":2},\"hits\":{\"mean\":1}}}");
	assert_string_equal(bc_doc_headline(r), "ops");
	bc_doc_run_free(r);
	/* HITS first, histograms aside, then OPS */
	r = run_of("{\"metrics\":[{\"name\":\"x\",\"role\":\"ops\"},{\"name\":\"h\",\"role\":\"hits\",\"kind\":\"histogram\"},"
		   "{\"name\":\"y\",\"role\":\"hits\"}],\"summary\":{\"x\":{\"mean\":1},\"y\":{\"mean\":2}}}");
	assert_string_equal(bc_doc_headline(r), "y");
	bc_doc_run_free(r);
	r = run_of("{\"metrics\":[{\"name\":\"lat\",\"role\":\"latency\"},{\"name\":\"x\",\"role\":\"ops\"}],"
		   "\"summary\":{\"lat\":{\"mean\":1},\"x\":{\"mean\":2}}}");
	assert_string_equal(bc_doc_headline(r), "x");
	bc_doc_run_free(r);
	/* roles, but no HITS or OPS (the grace-period lines): the first mean */
	r = run_of("{\"metrics\":[{\"name\":\"gp\",\"role\":\"latency\"}],"
		   "\"summary\":{\"ticks\":{\"mean\":2},\"gp\":{\"mean\":3}}}");
	assert_string_equal(bc_doc_headline(r), "ticks");
	bc_doc_run_free(r);
	/* a HITS metric the run did not summarise is still the headline, with no figure */
	r = run_of("{\"metrics\":[{\"name\":\"hits\",\"role\":\"hits\"}],\"summary\":{}}");
	assert_string_equal(bc_doc_headline(r), "hits");
	assert_null(bc_doc_find(r, "hits"));
	bc_doc_run_free(r);

	/* a document that says: its word, a metric or a derived figure */
	text = edited("v08-b59897c/run.json", "\"run_id\"", "\"headline\": \"per_producer\", \"run_id\"", &len);
	r = run_of(text);
	assert_string_equal(bc_doc_headline(r), "per_producer");
	assert_true(bc_doc_find(r, "per_producer")->figure);
	bc_doc_run_free(r);
	free(text);
	text = edited("v08-b59897c/run.json", "\"run_id\"", "\"headline\": null, \"run_id\"", &len);
	r = run_of(text);
	assert_string_equal(bc_doc_headline(r), "hits");
	bc_doc_run_free(r);
	free(text);
	/* every old version: hits */
	for (int v = 1; v <= 8; v++) {
		static const char *const dirs[] = { "v01-5b03395", "v02-e11a7d2", "v03-02ccb65",
						    "v04-cc71b79", "v05-5f1bd49", "v06-1199a06",
						    "v07-1a6fa5e", "v08-b59897c" };
		char rel[64];
		struct bc_doc d;

		snprintf(rel, sizeof(rel), "%s/latency.json", dirs[v - 1]);
		load(rel, &d);
		assert_string_equal(bc_doc_headline(d.run), "hits");
		bc_doc_free(&d);
	}
}

static void test_direction(void **state)
{
	struct bc_doc_run *r;
	char *text;
	size_t len;

	(void)state;
	/* the rule of figures.c where the document does not say */
	r = run_of("{\"metrics\":[{\"name\":\"ns_per_hit\",\"kind\":\"time_per_op\",\"unit\":\"ns\"},"
		   "{\"name\":\"hits\",\"kind\":\"counter\",\"role\":\"hits\"},{\"name\":\"drops\",\"role\":\"drops\"}],"
		   "\"summary\":{\"ns_per_hit\":{\"unit\":\"ns/op\",\"mean\":5},\"hits\":{\"unit\":\"hits/s\",\"mean\":9},"
		   "\"drops\":{\"unit\":\"hits/s\",\"mean\":1},"
		   "\"figures\":{\"latency\":{\"kind\":\"latency\",\"unit\":\"ns/op\",\"of\":\"hits\",\"value\":3},"
		   "\"per_producer\":{\"unit\":\"hits/s\",\"of\":\"hits\",\"value\":9}}}}");
	assert_int_equal(bc_doc_find(r, "ns_per_hit")->direction, BC_LOWER_IS_BETTER);
	assert_false(bc_doc_find(r, "ns_per_hit")->rate);
	assert_int_equal(bc_doc_find(r, "hits")->direction, BC_HIGHER_IS_BETTER);
	assert_int_equal(bc_doc_find(r, "drops")->direction, BC_LOWER_IS_BETTER);
	assert_int_equal(bc_doc_find(r, "latency")->direction, BC_LOWER_IS_BETTER);
	assert_int_equal(bc_doc_find(r, "per_producer")->direction, BC_HIGHER_IS_BETTER);
	bc_doc_run_free(r);
	/* the document's word wins */
	text = edited("v08-b59897c/run.json", "\"role\": \"hits\",", "\"role\": \"hits\", \"direction\": \"lower\",",
		      &len);
	r = run_of(text);
	assert_int_equal(bc_doc_find(r, "hits")->direction, BC_LOWER_IS_BETTER);
	assert_int_equal(bc_doc_find(r, "per_producer")->direction, BC_HIGHER_IS_BETTER);
	bc_doc_run_free(r);
	free(text);
	text = edited("v08-b59897c/run.json", "\"of\": \"hits\",", "\"of\": \"hits\", \"direction\": \"lower\",",
		      &len);
	r = run_of(text);
	assert_int_equal(bc_doc_find(r, "per_producer")->direction, BC_LOWER_IS_BETTER);
	bc_doc_run_free(r);
	free(text);
}

static void test_names_and_text(void **state)
{
	struct bc_doc d, back;
	char names[256], *text, err[256];
	size_t len;

	(void)state;
	load("v08-b59897c/latency.json", &d);
	bc_doc_names(d.run, names, sizeof(names));
	/* histograms have no figure to judge */
	assert_string_equal(names, "hits, drops, per_producer, total_operations");
	text = bc_doc_run_text(d.run, "feed", "before", &len);
	assert_non_null(text);
	assert_int_equal(bc_doc_parse(text, len, &back, err, sizeof(err)), 0);
	assert_string_equal(back.run->run_id, "feed");
	assert_string_equal(back.run->label, "before");
	assert_string_equal(back.run->config, d.run->config);
	bc_doc_free(&back);
	free(text);
	bc_doc_free(&d);
}

/* ---------------------------------------------------------- the store */

struct seen {
	size_t n;
	char metric[64];
	double mean[16];
	bool higher[16];
};

static int seen_row(const struct bc_store_row *r, void *cookie)
{
	struct seen *s = cookie;

	/* bc_store_each_figure() gives every row its figure; a raw query of
	 * a migrated store has no row left to read from a document */
	assert_false(r->unindexed);
	snprintf(s->metric, sizeof(s->metric), "%s", r->k.metric ? r->k.metric : "");
	if (s->n < 16) {
		s->mean[s->n] = r->k.mean;
		s->higher[s->n] = r->k.higher_better;
	}
	s->n++;
	return 0;
}

static void sql(const char *path, const char *stmt)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, stmt, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* --metric reads figures by name; a store saved before them (schema 2)
 * gives the same from its documents. */
static void test_store_figures(void **state)
{
	static const char *const files[] = { "v01-5b03395/run.json", "v02-e11a7d2/run.json",
					     "v05-5f1bd49/repeat.json", "v08-b59897c/run-p2.json" };
	struct bc_store_item items[4];
	struct bc_store_filter f = { .bench = "count:count-local", .metric = "per_producer" };
	char dir[] = "/tmp/bc-run-doc-store-XXXXXX", path[256], err[512], names[256];
	struct seen a = { 0 }, b = { 0 };
	char *texts[4];
	struct bc_store *s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/store.db", dir);
	for (size_t i = 0; i < 4; i++) {
		char p[512];

		snprintf(p, sizeof(p), "%s/%s", FIXTURES, files[i]);
		texts[i] = slurp(p, &items[i].len);
		items[i].text = texts[i];
		items[i].label = NULL;
	}
	assert_int_equal(bc_store_save_items(path, items, 4, NULL, NULL, err, sizeof(err)), 0);
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(bc_store_schema_version(s), BC_STORE_SCHEMA_VERSION);
	/* v01 has no figures: left out */
	assert_int_equal(bc_store_each_figure(s, &f, seen_row, &a, err, sizeof(err)), 0);
	assert_int_equal(a.n, 3);
	assert_string_equal(a.metric, "per_producer");
	assert_true(a.higher[0]);
	f.metric = "nope";
	assert_int_equal(bc_store_doc_metric_names(s, &f, names, sizeof(names), err, sizeof(err)), 0);
	assert_string_equal(names, "hits, per_producer, total_operations");
	bc_store_close(s);

	/* The same store as the schema before (no figures by name). */
	sql(path, "DROP TABLE metrics; DROP TABLE metrics_pending;"
		  "ALTER TABLE entries DROP COLUMN accelerator;"
		  "ALTER TABLE entries DROP COLUMN prog_digest; PRAGMA user_version = 2;");
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(bc_store_schema_version(s), 2);
	f.metric = "per_producer";
	assert_int_equal(bc_store_each_figure(s, &f, seen_row, &b, err, sizeof(err)), 0);
	assert_int_equal(b.n, a.n);
	assert_memory_equal(b.mean, a.mean, sizeof(a.mean[0]) * a.n);
	f.metric = "nope";
	assert_int_equal(bc_store_doc_metric_names(s, &f, names, sizeof(names), err, sizeof(err)), 0);
	assert_string_equal(names, "hits, per_producer, total_operations");
	bc_store_close(s);
	/* Written again: migrated, the old entries' figures read from their
	 * documents once and kept by name (seen_row refuses an unindexed row). */
	assert_int_equal(bc_store_save_items(path, items, 1, NULL, NULL, err, sizeof(err)), 0);
	s = bc_store_open(path, 0, err, sizeof(err));
	assert_int_equal(bc_store_schema_version(s), BC_STORE_SCHEMA_VERSION);
	memset(&b, 0, sizeof(b));
	f.metric = "per_producer";
	assert_int_equal(bc_store_each(s, &f, seen_row, &b, err, sizeof(err)), 0);
	assert_int_equal(b.n, a.n);
	assert_memory_equal(b.mean, a.mean, sizeof(a.mean[0]) * a.n);
	bc_store_close(s);

	for (size_t i = 0; i < 4; i++)
		free(texts[i]);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_version_reads),
		cmocka_unit_test(test_version_shapes),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_headline_rule),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_names_and_text),
		cmocka_unit_test(test_store_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
