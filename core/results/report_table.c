// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Rendering the table of a sweep or suite: one line per run as it finishes
 * (text in the kernel run_bench_*.sh scripts' shape, CSV, Markdown), or one
 * JSON document at the end with every run's own document inside. The CSV
 * and Markdown cell writers serve `suite --list` and `compare` too.
 */
#define _GNU_SOURCE
#include <math.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <benchcore/benchcore.h>

#include "report_table.h"
#include "runtime/scale.h"
#include "run_doc.h"
#include "row.h"
#include "runtime/doc_keys.h"
#include "runtime/json.h"

static const char *const bc_row_status_names[] = {
	[BC_ROW_PLANNED] = "not run",	[BC_ROW_OK] = "ok",
	[BC_ROW_UNAVAILABLE] = "unavailable", [BC_ROW_INVALID] = "invalid",
	[BC_ROW_FAILED] = "failed",	[BC_ROW_CRASHED] = "crashed",
	[BC_ROW_TIMEOUT] = "timeout",	[BC_ROW_INTERRUPTED] = "interrupted",
};

static void bc_table_json_str(FILE *f, const char *s)
{
	if (s)
		bc_json_write_string(f, s);
	else
		fputs("null", f);
}

void bc_csv_write(FILE *f, const char *s)
{
	/* A spreadsheet runs a cell that starts with one of these as a
	 * formula (OWASP's CSV injection): a leading apostrophe makes it
	 * text, inside the quotes when there are any. */
	bool formula = s && *s && strchr("=+-@\t\r", *s);

	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		if (formula)
			fputc('\'', f);
		fputs(s, f);
		return;
	}
	/* RFC 4180: quoted, a quote doubled; line breaks stay inside. */
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void bc_md_write(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		/* A pipe or a line break would end the cell or the row, a
		 * backslash would escape our own pipe escape, and a renderer
		 * takes HTML in Markdown as HTML. */
		if (c == '|' || c == '\\')
			fputc('\\', f);
		if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '&')
			fputs("&amp;", f);
		else
			fputc(c, f);
	}
}

static void bc_row_appendf(char *buf, size_t len, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void bc_row_appendf(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n += (size_t)k;
}

static const char *bc_fig_kind(const struct bc_doc_metric *fig)
{
	return fig && fig->kind ? fig->kind : "";
}

static double bc_fig_value(const struct bc_doc_metric *fig)
{
	return fig ? fig->mean : NAN;
}

/* The first figure of a kind, or NULL. */
static const struct bc_doc_metric *bc_fig_find(const struct bc_doc_run *run, const char *kind)
{
	for (size_t i = 0; run && i < run->metric_cnt; i++)
		if (run->metrics[i].figure && !strcmp(bc_fig_kind(&run->metrics[i]), kind))
			return &run->metrics[i];
	return NULL;
}

/* The row's metrics with a mean, in the summary's order. */
static bool bc_row_metric(const struct bc_doc_metric *m)
{
	return !m->figure && m->judged;
}

/* What the run's figures say after its headline metric: per producer, and
 * the latency. */
static void bc_row_headline_figures(const struct bc_doc_run *run, char *buf, size_t len, size_t *n)
{
	const struct bc_doc_metric *pp = bc_fig_find(run, BC_DOC_FIG_PER_PRODUCER),
				   *lat = bc_fig_find(run, BC_DOC_FIG_LATENCY);
	char num[96];

	if (pp && pp->rate)
		bc_row_appendf(buf, len, n, " (%s per producer)",
			       bc_scale_fmt(num, sizeof(num), bc_fig_value(pp), pp->unit));
	if (lat)
		bc_row_appendf(buf, len, n, ", latency %s",
			       bc_scale_fmt(num, sizeof(num), bc_fig_value(lat), "ns/op"));
}

/* A ratio metric's figure is its own value, already in the row. */
static bool bc_row_has_value_of(const struct bc_doc_run *run, const char *name)
{
	for (size_t i = 0; i < run->metric_cnt; i++)
		if (bc_row_metric(&run->metrics[i]) && !run->metrics[i].rate &&
		    !strcmp(run->metrics[i].name, name))
			return true;
	return false;
}

/* The other figures, in the document's order. */
static void bc_row_other_figures(const struct bc_doc_run *run, char *buf, size_t len, size_t *n)
{
	const struct bc_doc_metric *st = bc_fig_find(run, BC_DOC_FIG_SHARE_TOTAL),
				   *sp = bc_fig_find(run, BC_DOC_FIG_SHARE_PCT);
	char num[128];

	for (size_t i = 0; i < run->metric_cnt; i++) {
		const struct bc_doc_metric *f = &run->metrics[i];
		const char *kind = bc_fig_kind(f);

		if (!f->figure)
			continue;
		if (!strcmp(kind, BC_DOC_FIG_TOTAL))
			bc_row_appendf(buf, len, n, ", total operations %s",
				       bc_scale_fmt_pm(num, sizeof(num), bc_fig_value(f),
						       f->stats.stddev, f->unit));
		else if (!strcmp(kind, BC_DOC_FIG_SHARE_EVENTS))
			bc_row_appendf(buf, len, n, ", %s %.0f of %.0f total operations (%.2f %%)",
				       f->of ? f->of : f->name, bc_fig_value(f), bc_fig_value(st),
				       bc_fig_value(sp));
		else if (!strcmp(kind, BC_DOC_FIG_RATIO) && !bc_row_has_value_of(run, f->name))
			bc_row_appendf(buf, len, n, ", %s avg %s", f->name,
				       bc_scale_fmt_pm(num, sizeof(num), bc_fig_value(f),
						       f->stats.stddev, f->unit));
	}
}

static void bc_row_hists(const struct bc_doc_run *run, char *buf, size_t len, size_t *n)
{
	for (size_t i = 0; i < run->metric_cnt; i++) {
		const struct bc_doc_metric *h = &run->metrics[i];
		char num[64];

		if (!h->hist)
			continue;
		bc_row_appendf(buf, len, n, "%s%s p50 %s, ", *n ? ", " : "", h->name,
			       bc_scale_fmt(num, sizeof(num), h->h.p50, h->unit));
		bc_row_appendf(buf, len, n, "p90 %s, ", bc_scale_fmt(num, sizeof(num), h->h.p90, h->unit));
		bc_row_appendf(buf, len, n, "p99 %s, ", bc_scale_fmt(num, sizeof(num), h->h.p99, h->unit));
		bc_row_appendf(buf, len, n, "p99.9 %s, ",
			       bc_scale_fmt(num, sizeof(num), h->h.p999, h->unit));
		bc_row_appendf(buf, len, n, "max %s (%.0f values)",
			       bc_scale_fmt(num, sizeof(num), h->h.max, h->unit),
			       isnan(h->h.count) ? 0 : h->h.count);
	}
}

/* A run of --repeat or --precision: how far its mean can be trusted, for
 * the metric --precision watches ("; 5 runs: hits ±0.81% (95% CI), CV 0.52%"). */
static void bc_row_repeats(const struct bc_doc_run *run, char *buf, size_t len, size_t *n)
{
	double runs = run->runs_complete, ci = run->watched_agg.ci95_pct,
	       cv = run->watched_agg.cv_pct;

	if (!run->has_repeats || isnan(runs))
		return;
	bc_row_appendf(buf, len, n, "; %.0f run%s", runs, runs == 1 ? "" : "s");
	if (!run->watched || isnan(ci))
		return;
	bc_row_appendf(buf, len, n, ": %s ±%.2f%% (95%% CI)", run->watched, ci);
	if (!isnan(cv))
		bc_row_appendf(buf, len, n, ", CV %.2f%%", cv);
}

/* A rate's unit; documents of older versions said "ops" for "ops/s". */
static const char *bc_row_unit(const struct bc_doc_metric *m, char *buf, size_t len)
{
	const char *u = m->unit ? m->unit : "";
	size_t ulen = strlen(u);

	if (m->rate && !(ulen >= 2 && !strcmp(u + ulen - 2, "/s")))
		snprintf(buf, len, "%s/s", *u ? u : "events");
	else
		snprintf(buf, len, "%s", u);
	return buf;
}

/* The run a row's figures, histograms and repeats come from: the one the
 * batch read, else (a row that did not run has the document that says why)
 * its document read here into *tmp, to be freed: the tables show what the
 * document holds, as they always did. */
static const struct bc_doc_run *bc_row_doc(const struct bc_row *r, struct bc_doc_run **tmp)
{
	char err[128];

	*tmp = NULL;
	if (r->run || !r->json)
		return r->run;
	*tmp = bc_doc_run_parse(r->json, strlen(r->json), err, sizeof(err));
	return *tmp;
}

/* "hits 12.35 ± 0.12M hits/s (6.172M hits/s per producer), drops 0 ± 0 hits/s,
 * total operations ...": the metrics' means, then the figures the run stored.
 * A document without figures shows none; they are never derived here. */
static void bc_row_summary(const struct bc_row *r, char *buf, size_t len)
{
	struct bc_doc_run *tmp;
	const struct bc_doc_run *run = bc_row_doc(r, &tmp);
	const struct bc_doc_metric *pp = bc_fig_find(run, BC_DOC_FIG_PER_PRODUCER);
	const char *headline = pp ? pp->of : NULL;
	char num[128], unit[64];
	size_t n = 0;

	buf[0] = '\0';
	if (!run)
		return;
	/* the metrics the batch read (none for a row it did not) */
	for (size_t i = 0; r->run && i < run->metric_cnt; i++) {
		const struct bc_doc_metric *m = &run->metrics[i];

		if (!bc_row_metric(m))
			continue;
		bc_row_appendf(buf, len, &n, "%s%s %s", n ? ", " : "", m->name,
			       bc_scale_fmt_pm(num, sizeof(num), m->mean, m->stats.stddev,
					       bc_row_unit(m, unit, sizeof(unit))));
		if (headline && !strcmp(m->name, headline))
			bc_row_headline_figures(run, buf, len, &n);
	}
	bc_row_other_figures(run, buf, len, &n);
	bc_row_hists(run, buf, len, &n);
	bc_row_repeats(run, buf, len, &n);
	bc_doc_run_free(tmp);
}

/* The first metric with a mean, or NULL. */
static const struct bc_doc_metric *bc_row_first(const struct bc_row *r)
{
	for (size_t i = 0; r->run && i < r->run->metric_cnt; i++)
		if (bc_row_metric(&r->run->metrics[i]))
			return &r->run->metrics[i];
	return NULL;
}

static void bc_row_status_text(const struct bc_row *r, char *buf, size_t len)
{
	size_t n;

	if (r->status == BC_ROW_OK) {
		bc_row_summary(r, buf, len);
	} else if (r->status == BC_ROW_INTERRUPTED && bc_row_first(r) && !isnan(bc_row_first(r)->mean)) {
		n = (size_t)snprintf(buf, len, "interrupted, so far: ");
		if (n < len)
			bc_row_summary(r, buf + n, len - n);
	} else {
		snprintf(buf, len, "%s: %s", bc_row_status_names[r->status],
			 r->reason ? r->reason : "no reason given");
	}
}

static void bc_batch_section_start(struct bc_batch *b, const struct bc_row *r)
{
	FILE *f = b->opts.out;
	const char *s = r->section;

	if (b->section_open && ((!s && !b->cur_section) ||
				(s && b->cur_section && !strcmp(s, b->cur_section))))
		return;
	b->section_open = true;
	b->cur_section = s;
	if (b->opts.format == BC_FORMAT_TEXT && s) {
		size_t len = strlen(s);

		/* the kernel run scripts' header(): a blank line, the title,
		 * and a rule as long as it */
		fprintf(f, "\n%s\n", s);
		for (size_t i = 0; i < len; i++)
			fputc('=', f);
		fputc('\n', f);
	} else if (b->opts.format == BC_FORMAT_MARKDOWN) {
		if (s) {
			fputs("\n### ", f);
			bc_md_write(f, s);
			fputs("\n", f);
		}
		fputs("\n| run | result |\n| --- | --- |\n", f);
	}
}

static void bc_row_options_joined(const struct bc_row *r, char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->opt_names.cnt && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i ? sep : "",
				      r->opt_names.v[i], r->opt_values.v[i]);
}

static void bc_csv_num(FILE *f, double x)
{
	fprintf(f, ",%.17g", x);
}

/* section,label,benchmark,options,status,reason, of one CSV line */
static void bc_csv_row_start(FILE *f, const struct bc_row *r, const char *opts)
{
	bc_csv_write(f, r->section);
	fputc(',', f);
	bc_csv_write(f, r->label);
	fputc(',', f);
	bc_csv_write(f, r->bench ? r->bench : r->args.v[0]);
	fputc(',', f);
	bc_csv_write(f, opts);
	fprintf(f, ",%s,", bc_row_status_names[r->status]);
	bc_csv_write(f, r->reason);
	fputc(',', f);
}

/* One CSV line per stored figure: "mean" holds the run's figure (for the
 * latency, that of the mean rate), the other columns its per-interval
 * statistics. */
static void bc_csv_figures(FILE *f, const struct bc_row *r, const char *opts)
{
	struct bc_doc_run *tmp;
	const struct bc_doc_run *run = bc_row_doc(r, &tmp);

	for (size_t i = 0; run && i < run->metric_cnt; i++) {
		const struct bc_doc_metric *fg = &run->metrics[i];

		if (!fg->figure)
			continue;
		bc_csv_row_start(f, r, opts);
		bc_csv_write(f, fg->name);
		fputc(',', f);
		bc_csv_write(f, fg->unit);
		bc_csv_num(f, bc_fig_value(fg));
		bc_csv_num(f, fg->stats.stddev);
		bc_csv_num(f, fg->stats.min);
		bc_csv_num(f, fg->stats.median);
		bc_csv_num(f, fg->stats.max);
		fputc('\n', f);
	}
	bc_doc_run_free(tmp);
}

/* One CSV line per statistic of each histogram in the run's summary
 * ("latency.count", "latency.p50", ... "latency.max"): "mean" holds the
 * statistic over every measured value; the other columns stay empty, as a
 * run's percentile is no statistic of its intervals' percentiles. */
static void bc_csv_hists(FILE *f, const struct bc_row *r, const char *opts)
{
	static const char *const stats[] = { BC_DOC_HIST_COUNT, BC_DOC_HIST_P50, BC_DOC_HIST_P90,
					     BC_DOC_HIST_P99, BC_DOC_HIST_P999, BC_DOC_HIST_MAX };
	struct bc_doc_run *tmp;
	const struct bc_doc_run *run = bc_row_doc(r, &tmp);

	for (size_t i = 0; run && i < run->metric_cnt; i++) {
		const struct bc_doc_metric *h = &run->metrics[i];
		const double vals[] = { h->h.count, h->h.p50, h->h.p90, h->h.p99, h->h.p999, h->h.max };

		if (!h->hist)
			continue;
		for (size_t k = 0; k < sizeof(stats) / sizeof(stats[0]); k++) {
			char name[256];

			snprintf(name, sizeof(name), "%s.%s", h->name, stats[k]);
			bc_csv_row_start(f, r, opts);
			bc_csv_write(f, name);
			fputc(',', f);
			bc_csv_write(f, k ? h->unit : "values");
			bc_csv_num(f, vals[k]);
			fputs(",,,,\n", f);
		}
	}
	bc_doc_run_free(tmp);
}

void bc_batch_render_row(struct bc_batch *b, const struct bc_row *r)
{
	FILE *f = b->opts.out;
	char buf[2048], opts[1024];

	switch (b->opts.format) {
	case BC_FORMAT_TEXT:
		bc_batch_section_start(b, r);
		bc_row_status_text(r, buf, sizeof(buf));
		fprintf(f, "%-*s %s\n", b->name_width, r->label, buf);
		break;
	case BC_FORMAT_MARKDOWN:
		bc_batch_section_start(b, r);
		bc_row_status_text(r, buf, sizeof(buf));
		fputs("| ", f);
		bc_md_write(f, r->label);
		fputs(" | ", f);
		bc_md_write(f, buf);
		fputs(" |\n", f);
		break;
	case BC_FORMAT_CSV:
		bc_row_options_joined(r, opts, sizeof(opts), ";");
		for (size_t i = 0, rows = 0; i < (r->run ? r->run->metric_cnt : 0) || !rows; i++) {
			const struct bc_doc_metric *m = r->run && i < r->run->metric_cnt
								? &r->run->metrics[i] : NULL;

			if (m && !bc_row_metric(m))
				continue;
			rows++;
			bc_csv_row_start(f, r, opts);
			if (m) {
				bc_csv_write(f, m->name);
				fputc(',', f);
				bc_csv_write(f, m->unit);
				bc_csv_num(f, m->mean);
				bc_csv_num(f, m->stats.stddev);
				bc_csv_num(f, m->stats.min);
				bc_csv_num(f, m->stats.median);
				bc_csv_num(f, m->stats.max);
			} else {
				fputs(",,,,,,", f);
			}
			fputc('\n', f);
		}
		bc_csv_figures(f, r, opts);
		bc_csv_hists(f, r, opts);
		break;
	case BC_FORMAT_JSON:
		break;
	}
	fflush(f);
}

void bc_batch_render_json(struct bc_batch *b)
{
	FILE *f = b->opts.out;

	fputs("{\n  \"kind\": ", f);
	bc_table_json_str(f, b->opts.kind);
	fputs(",\n  \"name\": ", f);
	bc_table_json_str(f, b->opts.name);
	fputs(",\n  \"benchcore_version\": ", f);
	bc_table_json_str(f, bc_version());
	if (b->sweep_specs.cnt) {
		fputs(",\n  \"sweep\": [", f);
		for (size_t i = 0; i < b->sweep_specs.cnt; i++) {
			fputs(i ? ", " : "", f);
			bc_table_json_str(f, b->sweep_specs.v[i]);
		}
		fputs("]", f);
	}
	fputs(",\n  \"runs\": [", f);
	for (size_t i = 0, shown = 0; i < b->row_cnt; i++) {
		const struct bc_row *r = &b->rows[i];

		if (r->status == BC_ROW_PLANNED)
			continue;
		fputs(shown++ ? ",\n    {" : "\n    {", f);
		fputs("\n      \"section\": ", f);
		bc_table_json_str(f, r->section);
		fputs(",\n      \"label\": ", f);
		bc_table_json_str(f, r->label);
		fputs(",\n      \"benchmark\": ", f);
		bc_table_json_str(f, r->bench ? r->bench : r->args.v[0]);
		fputs(",\n      \"options\": {", f);
		for (size_t j = 0; j < r->opt_names.cnt; j++) {
			fputs(j ? ", " : "", f);
			bc_table_json_str(f, r->opt_names.v[j]);
			fputs(": ", f);
			/* Typed as the run document's config has it. */
			if (j < r->opt_json.cnt && r->opt_json.v[j][0])
				fputs(r->opt_json.v[j], f);
			else
				bc_table_json_str(f, r->opt_values.v[j]);
		}
		fputs("},\n      \"args\": [", f);
		for (size_t j = 0; j < r->args.cnt + r->combo_args.cnt; j++) {
			fputs(j ? ", " : "", f);
			bc_table_json_str(f, j < r->args.cnt ? r->args.v[j] : r->combo_args.v[j - r->args.cnt]);
		}
		fprintf(f, "],\n      \"status\": \"%s\",\n      \"exit_status\": %d,"
			   "\n      \"reason\": ",
			bc_row_status_names[r->status], r->exit_code);
		bc_table_json_str(f, r->reason);
		fprintf(f, ",\n      \"elapsed_sec\": %.3f,\n      \"timeout_sec\": %.3f",
			r->elapsed_sec, r->timeout_sec);
		fputs(",\n      \"result\": ", f);
		if (r->json) {
			size_t len = strlen(r->json);

			while (len && strchr(" \t\r\n", r->json[len - 1]))
				len--;
			fwrite(r->json, 1, len, f);
		} else {
			fputs("null", f);
		}
		fputs("\n    }", f);
	}
	fputs("\n  ]\n}\n", f);
	fflush(f);
}

void bc_batch_csv_header(FILE *f)
{
	fputs("section,label,benchmark,options,status,reason,metric,unit,mean,stddev,min,median,max\n",
	      f);
}

