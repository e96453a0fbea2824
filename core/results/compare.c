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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "compare.h"
#include "prog_change.h"
#include "runtime/scale.h"
#include "report_table.h"
#include "runtime/significance.h"
#include "run_doc.h"
#include "runtime/exit_status.h"
#include "runtime/json.h"
#include "runtime/doc_keys.h"
#include "runtime/log.h"
#include "runtime/output.h"
#include "runtime/repstats.h"

/* ------------------------------------------------------------ documents */

/* A run of a document as compare matches it: the model's run, its row's
 * name, and its match in the other document. */
struct bc_cmp_run {
	const struct bc_doc_run *run;
	const char *bench;
	const char *config;	/* "producers=1 consumers=0 nr_maps=16" */
	const char *label;	/* the sweep's or suite's row name, if any */
	bool matched;
	struct bc_cmp_run *pair;	/* the matching run of the other document */
};

struct bc_cmp_doc {
	const char *path;
	struct bc_doc doc;
	struct bc_cmp_run *runs;
	size_t run_cnt;
	const struct bc_doc_context *context;	/* the first run's */
};

static void bc_cmp_doc_free(struct bc_cmp_doc *d)
{
	free(d->runs);
	bc_doc_free(&d->doc);
	memset(d, 0, sizeof(*d));
}

/* A run that failed or was unavailable measured nothing to compare. */
static int bc_cmp_add_run(struct bc_cmp_doc *d, const struct bc_doc_run *run, const char *label,
			  char *err, size_t err_len)
{
	struct bc_cmp_run *r;

	if (run->exit_status != BC_EXIT_OK && run->exit_status != BC_EXIT_INTERRUPTED)
		return 0;
	if (!run->has_summary || !run->bench) {
		snprintf(err, err_len, "a run without a benchmark name or a \"summary\" object");
		return -EINVAL;
	}
	r = &d->runs[d->run_cnt++];
	memset(r, 0, sizeof(*r));
	if (!d->context)
		d->context = &run->ctx;
	r->run = run;
	r->bench = run->bench;
	r->config = run->config;
	r->label = label;
	return 0;
}

/* The runs of a run, sweep or suite document (the model read and checked
 * it), in their order. */
static int bc_cmp_doc_load(struct bc_cmp_doc *d, const char *path, char *err, size_t err_len)
{
	char why[256] = "";
	int ret;

	memset(d, 0, sizeof(*d));
	d->path = path;
	ret = bc_doc_load_results(path, &d->doc, err, err_len);
	if (ret)
		return ret;
	d->runs = calloc(d->doc.row_cnt + 1, sizeof(*d->runs));
	if (!d->runs) {
		snprintf(err, err_len, "'%s': out of memory", path);
		return -ENOMEM;
	}
	if (d->doc.kind == BC_DOC_RUN)
		ret = bc_cmp_add_run(d, d->doc.run, NULL, why, sizeof(why));
	for (size_t i = 0; !ret && i < d->doc.row_cnt; i++)
		if (d->doc.rows[i].run)
			ret = bc_cmp_add_run(d, d->doc.rows[i].run, d->doc.rows[i].label, why,
					     sizeof(why));
	if (ret)
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

/* A summary's sample count, 0 where it has none. */
static unsigned int bc_cmp_count(const struct bc_doc_metric *m)
{
	return isnan(m->stats.n) ? 0 : (unsigned int)m->stats.n;
}

/* Both sides repeated (run --repeat): the runs are the samples, since the
 * per-second samples of one run do not see what changes between runs. One
 * side only: the per-second samples of both, which each side has. */
static bool bc_cmp_by_runs(const struct bc_doc_metric *a, const struct bc_doc_metric *b)
{
	return a->runs && b->runs;
}

static void bc_cmp_metric_test(const struct bc_cmp_opts *o, const struct bc_doc_metric *a,
			    const struct bc_doc_metric *b, struct bc_sig_result *sig)
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
		bc_welch_test_stats(a->mean, a->stats.stddev, (unsigned int)a->sample_cnt, b->mean,
				 b->stats.stddev, (unsigned int)b->sample_cnt, sig);
	else
		bc_welch_test_stats(a->mean, a->stats.stddev, bc_cmp_count(a), b->mean, b->stats.stddev,
				    bc_cmp_count(b), sig);
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

static void bc_fmt_value(const struct bc_doc_metric *m, double v, char *buf, size_t len)
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
static size_t bc_cmp_n(const struct bc_doc_metric *m, bool by_runs)
{
	if (by_runs)
		return m->run_cnt;
	return m->sample_cnt ? m->sample_cnt : bc_cmp_count(m);
}

static void bc_fmt_sig(const struct bc_cmp_opts *o, const struct bc_sig_result *sig,
		    const struct bc_doc_metric *a, const struct bc_doc_metric *b, char *buf, size_t len)
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

/* A context's member as compare shows it; NULL where the run has none. */
static const char *bc_ctx_value(const struct bc_doc_context *c, size_t which, char *buf, size_t len)
{
	if (!c)
		return NULL;
	switch (which) {
	case 0:
		return c->kernel_release;
	case 1:
		return c->cpu_model;
	case 2:
		if (isnan(c->cpu_count))
			return NULL;
		snprintf(buf, len, "%.15g", c->cpu_count);
		return buf;
	case 3:
		return c->hypervisor < 0 ? NULL : c->hypervisor ? "yes" : "no";
	default:
		return bc_accel_name(c->accelerator);
	}
}

/* Different kernels, CPUs or CPU counts make any difference suspect. */
static size_t bc_context_warnings(const struct bc_cmp_opts *o, const struct bc_cmp_doc *a,
				  const struct bc_cmp_doc *b, char warn[][512])
{
	static const char *const what[] = { "kernel", "CPU model", "CPU count", "hypervisor",
					    "accelerator" };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++) {
		char ba[64], bb[64];
		const char *va = bc_ctx_value(a->context, i, ba, sizeof(ba)),
			   *vb = bc_ctx_value(b->context, i, bb, sizeof(bb));

		if (!va || !vb || !strcmp(va, vb) || (i == 0 && o->kernels_differ))
			continue;
		snprintf(warn[n++], 512, "%s differs: base %s, new %s", what[i], va, vb);
	}
	/* accel.h: a TCG side is said, whatever the other is */
	if (a->context && b->context &&
	    (bc_accel_emulated(a->context->accelerator) || bc_accel_emulated(b->context->accelerator)))
		snprintf(warn[n++], 512, "%s%s", bc_accel_emulated(a->context->accelerator) &&
			 bc_accel_emulated(b->context->accelerator) ? "both sides " : "",
			 BC_ACCEL_EMULATION_NOTE);
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

static const struct bc_doc_metric *bc_find_metric(const struct bc_cmp_run *r, const char *name)
{
	return bc_doc_find(r->run, name);
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
			bc_jw_str(w, BC_DOC_CMPE_BENCHMARK, r->bench);
			bc_jw_str(w, BC_DOC_CMPE_CONFIGURATION, r->config);
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
	char nc[96];
	/* accel.h: a TCG figure is not judged against a KVM or native one */
	bool comparable = bc_accel_comparable(a->run->ctx.accelerator, b->run->ctx.accelerator, nc,
					      sizeof(nc));

	for (size_t k = 0; k < a->run->metric_cnt; k++) {
		const struct bc_doc_metric *ma = &a->run->metrics[k], *mb = bc_find_metric(b, ma->name);
		char vb[64], vn[64], ch[32], sg[160];
		struct bc_sig_result sig;
		double pct;

		if (!ma->judged || !mb || (o->format == BC_FORMAT_JSON && ma->figure != figures))
			continue;
		bc_cmp_metric_test(o, ma, mb, &sig);
		if (!comparable)
			sig.valid = false;
		pct = bc_change_pct(ma->mean, mb->mean);
		bc_fmt_value(ma, ma->mean, vb, sizeof(vb));
		bc_fmt_value(mb, mb->mean, vn, sizeof(vn));
		bc_fmt_change(pct, ch, sizeof(ch));
		bc_fmt_sig(o, &sig, ma, mb, sg, sizeof(sg));
		if (!comparable)
			snprintf(sg, sizeof(sg), "%s", nc);
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
				comparable ? bc_verdict(o, &sig) : nc);
			break;
		case BC_FORMAT_JSON:
			bc_jw_obj_begin(w, NULL);
			bc_jw_str(w, BC_DOC_CMPE_BENCHMARK, a->bench);
			bc_jw_str(w, BC_DOC_CMPE_CONFIGURATION, a->config);
			bc_jw_str(w, BC_DOC_CMPE_LABEL, a->label);
			bc_jw_str(w, BC_DOC_CMPE_METRIC, ma->name);
			bc_jw_str(w, BC_DOC_CMPE_UNIT, ma->unit);
			bc_jw_num(w, BC_DOC_CMPE_BASE_MEAN, ma->mean);
			bc_jw_num(w, BC_DOC_CMPE_NEW_MEAN, mb->mean);
			bc_jw_num(w, BC_DOC_CMPE_CHANGE_PCT, pct);
			bc_jw_str(w, BC_DOC_CMPE_TEST, sig.valid ? sig.test : NULL);
			bc_jw_num(w, BC_DOC_CMPE_P_VALUE, sig.valid ? sig.p : NAN);
			bc_jw_uint(w, BC_DOC_CMPE_N_BASE, bc_cmp_n(ma, bc_cmp_by_runs(ma, mb)));
			bc_jw_uint(w, BC_DOC_CMPE_N_NEW, bc_cmp_n(mb, bc_cmp_by_runs(ma, mb)));
			/* what n counts: runs (both sides repeated) or seconds */
			bc_jw_str(w, BC_DOC_CMPE_SAMPLES, bc_cmp_by_runs(ma, mb) ? "runs" : "iterations");
			bc_jw_str(w, BC_DOC_CMPE_VERDICT, comparable ? bc_verdict(o, &sig) : nc);
			bc_jw_obj_end(w);
			break;
		}
	}
}

/* "  trig_tp: 34 → 41 insns, jited 212 → 260 bytes" under the row. */
static void bc_prog_changes_text(FILE *f, const struct bc_cmp_run *a, const struct bc_cmp_run *b)
{
	for (size_t i = 0; i < a->run->prog_cnt; i++) {
		const struct bc_doc_prog *pa = &a->run->progs[i], *pb = bc_prog_match(b->run, pa);
		const char *sep = ": ";

		if (!pb)
			continue;
		for (size_t k = 0; k < BC_PROG_FACT_CNT; k++) {
			if (!bc_prog_fact_differs(pa, pb, k))
				continue;
			if (*sep == ':')
				fprintf(f, "  %s", pa->name);
			fprintf(f, "%s%s%.0f \xe2\x86\x92 %.0f%s", sep, bc_prog_facts[k].words,
				bc_prog_fact_value(pa, k), bc_prog_fact_value(pb, k),
				bc_prog_facts[k].unit);
			sep = ", ";
		}
		if (*sep == ',')
			fputc('\n', f);
	}
}

static void bc_prog_changes_json(struct bc_json_writer *w, const struct bc_cmp_run *a,
				 const struct bc_cmp_run *b)
{
	for (size_t i = 0; i < a->run->prog_cnt; i++) {
		const struct bc_doc_prog *pa = &a->run->progs[i], *pb = bc_prog_match(b->run, pa);
		bool open = false;

		if (!pb)
			continue;
		for (size_t k = 0; k < BC_PROG_FACT_CNT; k++) {
			if (!bc_prog_fact_differs(pa, pb, k))
				continue;
			if (!open) {
				bc_jw_obj_begin(w, NULL);
				bc_jw_str(w, BC_DOC_CMPE_BENCHMARK, a->bench);
				bc_jw_str(w, BC_DOC_CMPE_CONFIGURATION, a->config);
				bc_jw_str(w, BC_DOC_CMPE_LABEL, a->label);
				bc_jw_str(w, BC_DOC_CMPE_PROGRAM, pa->name);
				bc_jw_arr_begin(w, BC_DOC_CMPE_CHANGES);
				open = true;
			}
			bc_jw_obj_begin(w, NULL);
			bc_jw_str(w, BC_DOC_CMPE_FACT, bc_prog_facts[k].key);
			bc_jw_num(w, BC_DOC_CMPE_BASE, bc_prog_fact_value(pa, k));
			bc_jw_num(w, BC_DOC_CMPE_NEW, bc_prog_fact_value(pb, k));
			bc_jw_obj_end(w);
		}
		if (open) {
			bc_jw_arr_end(w);
			bc_jw_obj_end(w);
		}
	}
}

static void bc_verdict_lines(const struct bc_cmp_opts *o, const struct bc_cmp_doc *base);

static int bc_compare_docs(const struct bc_cmp_opts *o, struct bc_cmp_doc *base, struct bc_cmp_doc *new)
{
	char warn[8][512];
	size_t warn_cnt = bc_context_warnings(o, base, new, warn), matched = 0;
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
		bc_jw_str(&w, BC_DOC_CMP_BASE, base->path);
		bc_jw_str(&w, BC_DOC_CMP_NEW, new->path);
		bc_jw_str(&w, BC_DOC_CMP_TEST, o->test == BC_CMP_WELCH ? "welch" : "mann-whitney");
		bc_jw_num(&w, BC_DOC_CMP_ALPHA, o->alpha);
		bc_jw_arr_begin(&w, BC_DOC_CMP_WARNINGS);
		for (size_t i = 0; i < warn_cnt; i++)
			bc_jw_str(&w, NULL, warn[i]);
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, BC_DOC_CMP_COMPARISONS);
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
		if (o->format == BC_FORMAT_TEXT)
			bc_prog_changes_text(f, a, b);
	}
	if (o->format == BC_FORMAT_JSON) {
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, BC_DOC_CMP_FIGURE_COMPARISONS);
		for (size_t i = 0; i < base->run_cnt; i++)
			if (base->runs[i].matched && base->runs[i].pair)
				bc_compare_pair(o, &w, &base->runs[i], base->runs[i].pair, true);
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, BC_DOC_CMP_PROGRAM_CHANGES);
		for (size_t i = 0; i < base->run_cnt; i++)
			if (base->runs[i].matched && base->runs[i].pair)
				bc_prog_changes_json(&w, &base->runs[i], base->runs[i].pair);
	}

	if (o->format == BC_FORMAT_JSON) {
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, BC_DOC_CMP_ONLY_IN_BASE);
	}
	bc_emit_only(o, &w, "base", base);
	if (o->format == BC_FORMAT_JSON) {
		bc_jw_arr_end(&w);
		bc_jw_arr_begin(&w, BC_DOC_CMP_ONLY_IN_NEW);
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
	bc_verdict_lines(o, base);
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

/* The 95% interval of mb - ma (Welch) from each side's mean, variance and
 * count, in % of |base| (the baseline's own mean), into c. */
static void bc_interval_welch(double ma, double va, size_t na, double mb, double vb, size_t nb,
			      double base, struct bc_cmp_change *c)
{
	double se, df, t;

	c->ci_low_pct = c->ci_high_pct = NAN;
	if (na < 2 || nb < 2 || !(va >= 0) || !(vb >= 0) || base == 0.0)
		return;
	se = sqrt(va / (double)na + vb / (double)nb);
	if (se == 0.0) {
		c->ci_low_pct = c->ci_high_pct = c->change_pct;
		return;
	}
	df = se * se * se * se /
	     ((va / na) * (va / na) / (double)(na - 1) + (vb / nb) * (vb / nb) / (double)(nb - 1));
	t = bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0, df);
	c->ci_low_pct = ((mb - ma) - t * se) / fabs(base) * 100.0;
	c->ci_high_pct = ((mb - ma) + t * se) / fabs(base) * 100.0;
}

/* The 95% interval of new - base (Welch), from the same samples the test
 * took: runs when both sides were repeated, else the seconds, else the
 * summaries. */
static void bc_change_interval(const struct bc_doc_metric *a, const struct bc_doc_metric *b,
			       struct bc_cmp_change *c)
{
	double ma = a->mean, mb = b->mean, va, vb;
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
		va = a->stats.stddev * a->stats.stddev;
		vb = b->stats.stddev * b->stats.stddev;
		na = bc_cmp_count(a);
		nb = bc_cmp_count(b);
	}
	c->n_base = na;
	c->n_new = nb;
	bc_interval_welch(ma, va, na, mb, vb, nb, a->mean, c);
}

/* One metric of a matched pair judged: compare's test at its level, and
 * the 95% interval of the change. */
static void bc_judge(const struct bc_cmp_opts *o, const struct bc_doc_metric *ma,
		     const struct bc_doc_metric *mb, struct bc_cmp_change *c)
{
	struct bc_sig_result sig;

	memset(c, 0, sizeof(*c));
	bc_cmp_metric_test(o, ma, mb, &sig);
	c->base_mean = ma->mean;
	c->new_mean = mb->mean;
	c->change_pct = bc_change_pct(ma->mean, mb->mean);
	c->valid = sig.valid;
	c->p = sig.valid ? sig.p : NAN;
	c->test = sig.valid ? sig.test : NULL;
	c->by_runs = bc_cmp_by_runs(ma, mb);
	c->significant = sig.valid && sig.p < o->alpha;
	bc_change_interval(ma, mb, c);
}

int bc_compare_metric(const struct bc_doc_run *base, const struct bc_doc_run *new,
		      const char *metric, double alpha, struct bc_cmp_change *c)
{
	struct bc_cmp_opts o = { .test = BC_CMP_WELCH, .alpha = alpha };
	const struct bc_doc_run *runs[2] = { base, new };
	const struct bc_doc_metric *m[2];

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < 2; i++) {
		if (runs[i]->exit_status != BC_EXIT_OK && runs[i]->exit_status != BC_EXIT_INTERRUPTED)
			return -ENOENT;
		if (!runs[i]->has_summary || !runs[i]->bench)
			return -EINVAL;
		m[i] = bc_doc_find(runs[i], metric);
		if (!m[i])
			return -ENOENT;
	}
	bc_judge(&o, m[0], m[1], c);
	return 0;
}

int bc_compare_summaries(const struct bc_cmp_summary *base, const struct bc_cmp_summary *new,
			 double alpha, struct bc_cmp_change *c)
{
	struct bc_sig_result sig;

	memset(c, 0, sizeof(*c));
	c->base_mean = base->mean;
	c->new_mean = new->mean;
	c->change_pct = bc_change_pct(base->mean, new->mean);
	c->by_runs = base->by_runs && new->by_runs;
	c->n_base = base->n;
	c->n_new = new->n;
	bc_welch_test_stats(base->mean, base->sd, (unsigned int)base->n, new->mean, new->sd,
			    (unsigned int)new->n, &sig);
	c->valid = sig.valid;
	c->p = sig.valid ? sig.p : NAN;
	c->test = sig.valid ? sig.test : NULL;
	c->significant = sig.valid && sig.p < alpha;
	bc_interval_welch(base->mean, base->sd * base->sd, base->n, new->mean, new->sd * new->sd,
			  new->n, base->mean, c);
	return 0;
}

/*
 * One new value x against n earlier ones: Student's t for a new
 * observation, t = (x - mean) / (s sqrt(1 + 1/n)) with n - 1 degrees of
 * freedom, s the earlier values' standard deviation (x is one draw of the
 * same spread, or the test would have nothing to say about it). The
 * interval of the change is the same t's.
 */
int bc_compare_one_new(const double *base, size_t n, double x, double alpha,
		       struct bc_cmp_change *c)
{
	double mean, var, se, t, q;

	memset(c, 0, sizeof(*c));
	bc_mean_var(base, n, &mean, &var);
	c->base_mean = mean;
	c->new_mean = x;
	c->change_pct = bc_change_pct(mean, x);
	c->by_runs = true;
	c->n_base = n;
	c->n_new = 1;
	c->ci_low_pct = c->ci_high_pct = c->p = NAN;
	if (n < 2 || !(var >= 0) || !isfinite(x))
		return 0;
	c->valid = true;
	c->test = "student";
	se = sqrt(var * (1.0 + 1.0 / (double)n));
	if (se == 0.0) {
		c->p = x == mean ? 1.0 : 0.0;
		c->ci_low_pct = c->ci_high_pct = c->change_pct;
	} else {
		t = (x - mean) / se;
		c->p = bc_student_t_p2(t, (double)(n - 1));
		q = bc_rep_t_quantile(1.0 - (1.0 - BC_REP_CONFIDENCE) / 2.0, (double)(n - 1));
		if (mean != 0.0) {
			c->ci_low_pct = ((x - mean) - q * se) / fabs(mean) * 100.0;
			c->ci_high_pct = ((x - mean) + q * se) / fabs(mean) * 100.0;
		}
	}
	c->significant = c->p < alpha;
	return 0;
}

static void bc_fmt_pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.2f%%", v);
}

void bc_change_words(char *buf, size_t len, const char *name, const struct bc_cmp_change *c,
		     const char *test, bool higher_better)
{
	char ch[32], lo[32], hi[32], p[32];

	bc_fmt_pct(c->change_pct, ch, sizeof(ch));
	bc_fmt_pct(c->ci_low_pct, lo, sizeof(lo));
	bc_fmt_pct(c->ci_high_pct, hi, sizeof(hi));
	if (c->valid)
		snprintf(p, sizeof(p), "%.3g", c->p);
	else
		snprintf(p, sizeof(p), "n/a");
	snprintf(buf, len, "%s %s [95%% CI %s, %s], p=%s (%s, %zu+%zu %s): %s", name, ch, lo, hi,
		 p, c->test ? c->test : test, c->n_base, c->n_new,
		 c->by_runs ? "runs" : "seconds",
		 bc_change_verdict(c->valid, c->significant, c->change_pct, higher_better));
}

/*
 * After the table, on stderr: one line per matched pair of runs judging
 * the one figure the user asked for (--metric) or the run's headline,
 * with the direction that figure is better, in --against's words.
 */
static void bc_verdict_lines(const struct bc_cmp_opts *o, const struct bc_cmp_doc *base)
{
	for (size_t i = 0; i < base->run_cnt; i++) {
		const struct bc_cmp_run *a = &base->runs[i], *b = a->pair;
		const char *name = o->metric ? o->metric : bc_doc_headline(a->run);
		const struct bc_doc_metric *ma, *mb;
		char p[96], words[512];
		struct bc_cmp_change c;
		bool show;

		if (!b || !name || !(ma = bc_doc_find(a->run, name)) || !(mb = bc_doc_find(b->run, name)))
			continue;
		show = bc_label_adds(a);
		if (!bc_accel_comparable(a->run->ctx.accelerator, b->run->ctx.accelerator, p, sizeof(p))) {
			fprintf(stderr, "benchcore: verdict: %s%s%s%s%s%s: %s: %s\n", a->bench,
				*a->config ? " " : "", a->config, show ? " [" : "", show ? a->label : "",
				show ? "]" : "", name, p);
			continue;
		}
		bc_judge(o, ma, mb, &c);
		bc_change_words(words, sizeof(words), name, &c,
				o->test == BC_CMP_WELCH ? "welch" : "mann-whitney",
				ma->direction == BC_HIGHER_IS_BETTER);
		fprintf(stderr, "benchcore: verdict: %s%s%s%s%s%s: %s\n", a->bench,
			*a->config ? " " : "", a->config, show ? " [" : "", show ? a->label : "",
			show ? "]" : "", words);
	}
}

/* --metric: a name both documents have (in a run compare matches). */
static int bc_check_metric(const struct bc_cmp_opts *o, const struct bc_cmp_doc *docs)
{
	for (size_t d = 0; o->metric && d < 2; d++) {
		char names[1024] = "";
		bool found = false;

		for (size_t i = 0; i < docs[d].run_cnt && !found; i++)
			found = bc_doc_find(docs[d].runs[i].run, o->metric) != NULL;
		if (found)
			continue;
		for (size_t i = 0; i < docs[d].run_cnt; i++)
			bc_doc_names_add(docs[d].runs[i].run, names, sizeof(names));
		return bc_compare_usage_error("--metric '%s': %s has no metric or figure of that name; it has %s",
					      o->metric, docs[d].path, *names ? names : "none");
	}
	return 0;
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
	ret = bc_check_metric(&o, docs);
	if (ret)
		goto out;
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

/* ------------------------------------------------- runs already read */

static int bc_cmp_side_load(struct bc_cmp_doc *d, const struct bc_cmp_side *side)
{
	char why[256] = "";
	int ret = 0;

	memset(d, 0, sizeof(*d));
	d->path = side->name;
	d->runs = calloc(side->cnt + 1, sizeof(*d->runs));
	if (!d->runs)
		return -ENOMEM;
	for (size_t i = 0; !ret && i < side->cnt; i++)
		ret = bc_cmp_add_run(d, side->runs[i], side->labels ? side->labels[i] : NULL, why,
				     sizeof(why));
	if (ret)
		bc_warn("compare: %s: %s", side->name, why);
	return ret;
}

int bc_compare_sides(const struct bc_cmp_opts *opts, const struct bc_cmp_side *base,
		     const struct bc_cmp_side *new)
{
	struct bc_cmp_opts o = *opts;
	struct bc_cmp_doc docs[2] = {};
	int ret = BC_EXIT_FAILED;

	if (!o.out)
		o.out = bc_stdout();
	if (!bc_cmp_side_load(&docs[0], base) && !bc_cmp_side_load(&docs[1], new))
		ret = bc_compare_docs(&o, &docs[0], &docs[1]);
	/* the runs are the caller's: only the lists are compare's */
	free(docs[0].runs);
	free(docs[1].runs);
	return ret;
}
