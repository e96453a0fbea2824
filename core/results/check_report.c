// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `check`'s output. The text table keeps its fixed-width columns first
 * and the names (benchmark, configuration, figure), whose widths nobody
 * knows, last, so that a CI log lines up; the Markdown is GitHub's table
 * with a heading that says the outcome, for $GITHUB_STEP_SUMMARY or a
 * review comment; the JSON has every number, for a script. Its keys are
 * check's own (no benchcore reader reads them back), as history's are.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_report.h"
#include "report_table.h"
#include "runtime/json.h"
#include "runtime/scale.h"
#include "words.h"

static void bc_ck_pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.2f%%", v);
}

static void bc_ck_ci(const struct bc_check_row *r, char *buf, size_t len)
{
	if (isnan(r->c.ci_low_pct) || isnan(r->c.ci_high_pct))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "[%+.2f%%, %+.2f%%]", r->c.ci_low_pct, r->c.ci_high_pct);
}

static bool bc_ck_judged(const struct bc_check_row *r)
{
	return r->status == BC_CHECK_PASS || r->status == BC_CHECK_REGRESSED;
}

/* "latest", "label 'main'", "window of 10" */
static void bc_ck_baseline(const struct bc_check_opts *o, char *buf, size_t len)
{
	switch (o->baseline) {
	case BC_CHECK_LABEL:
		snprintf(buf, len, "label '%s'", o->label);
		break;
	case BC_CHECK_WINDOW:
		snprintf(buf, len, "the %u entries before", o->window);
		break;
	default:
		snprintf(buf, len, "latest");
		break;
	}
}

/* What a row's last column says after its names. */
static const char *bc_ck_detail(const struct bc_check_row *r)
{
	if (!bc_ck_judged(r))
		return r->why;
	return r->verdict ? r->verdict : "";
}

static void bc_ck_means(const struct bc_check_row *r, char *buf, size_t len)
{
	char a[48], b[48], u[64];

	bc_text_safe(r->unit, u, sizeof(u));
	if (r->status == BC_CHECK_NO_BASELINE || (!r->base_cnt && !bc_ck_judged(r))) {
		bc_scale_fmt(b, sizeof(b), r->now.mean, u);
		snprintf(buf, len, "- -> %s", b);
		return;
	}
	bc_scale_fmt(a, sizeof(a), r->c.base_mean, u);
	bc_scale_fmt(b, sizeof(b), r->c.new_mean, u);
	snprintf(buf, len, "%s -> %s", a, b);
}

/* The text table and the summary line go to a terminal: what a store
 * says (names, labels, hosts) is written with its control characters
 * escaped (words.h). */
static void bc_ck_text(FILE *f, const struct bc_check *c)
{
	fprintf(f, "%-15s %9s  %-21s %8s %7s  %-30s %s\n", "status", "change", "95% CI", "p",
		"budget", "baseline -> new", "benchmark configuration (figure): verdict");
	for (size_t i = 0; i < c->cnt; i++) {
		const struct bc_check_row *r = &c->rows[i];
		char ch[24] = "", ci[48] = "", p[24] = "", budget[24], means[112];
		char bench[512], opts[1024], metric[256], detail[512];
		bool judged = bc_ck_judged(r);

		if (judged) {
			bc_ck_pct(r->c.change_pct, ch, sizeof(ch));
			bc_ck_ci(r, ci, sizeof(ci));
			snprintf(p, sizeof(p), "%.3g", r->c.p);
		}
		snprintf(budget, sizeof(budget), "%g%%", r->th.max_regression_pct);
		bc_ck_means(r, means, sizeof(means));
		fprintf(f, "%-15s %9s  %-21s %8s %7s  %-30s %s%s%s (%s): %s\n",
			bc_check_status_name(r->status), ch, ci, p, budget, means,
			bc_text_safe(r->bench, bench, sizeof(bench)), *r->options ? " " : "",
			bc_text_safe(r->options, opts, sizeof(opts)),
			bc_text_safe(r->metric, metric, sizeof(metric)),
			bc_text_safe(bc_ck_detail(r), detail, sizeof(detail)));
	}
}

static void bc_md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	bc_md_write(f, s);
	fputc(' ', f);
}

static const char *bc_ck_mark(enum bc_check_status st)
{
	switch (st) {
	case BC_CHECK_PASS:
		return "\u2705";	/* white heavy check mark */
	case BC_CHECK_REGRESSED:
		return "\u274c";	/* cross mark */
	default:
		return "\u26a0\ufe0f";	/* warning sign */
	}
}

static void bc_ck_markdown(FILE *f, const struct bc_check_opts *o,
			   const struct bc_check_about *about, const struct bc_check *c)
{
	char base[320], a[48], b[48], ch[24], ci[48], p[24], budget[24];

	bc_ck_baseline(o, base, sizeof(base));
	fprintf(f, "### benchcore check: %s\n\n",
		c->counts[BC_CHECK_REGRESSED] ? "regressed"
		: c->counts[BC_CHECK_NOT_COMPARABLE] ? "not comparable"
						     : "no regression");
	fprintf(f, "%zu configurations: %zu regressed, %zu passed, %zu not comparable, %zu without a baseline. Baseline: ",
		c->cnt, c->counts[BC_CHECK_REGRESSED], c->counts[BC_CHECK_PASS],
		c->counts[BC_CHECK_NOT_COMPARABLE], c->counts[BC_CHECK_NO_BASELINE]);
	bc_md_write(f, base);
	fputs("; budget: ", f);
	bc_md_write(f, about->thresholds ? about->thresholds : "built-in (5%, p < 0.05, 3 samples)");
	fputs(".\n\n", f);
	fputs("| | benchmark | configuration | figure | baseline | new | change | 95% CI | p | budget | verdict |\n"
	      "|---|---|---|---|--:|--:|--:|--:|--:|--:|---|\n", f);
	for (size_t i = 0; i < c->cnt; i++) {
		const struct bc_check_row *r = &c->rows[i];
		bool judged = bc_ck_judged(r);
		const char *u = r->unit ? r->unit : "";

		bc_scale_fmt(a, sizeof(a), r->c.base_mean, u);
		bc_scale_fmt(b, sizeof(b), judged || r->base_cnt ? r->c.new_mean : r->now.mean, u);
		bc_ck_pct(judged ? r->c.change_pct : NAN, ch, sizeof(ch));
		if (judged) {
			bc_ck_ci(r, ci, sizeof(ci));
			snprintf(p, sizeof(p), "%.3g", r->c.p);
		} else {
			snprintf(ci, sizeof(ci), "n/a");
			snprintf(p, sizeof(p), "n/a");
		}
		snprintf(budget, sizeof(budget), "%g%%", r->th.max_regression_pct);
		fprintf(f, "| %s ", bc_ck_mark(r->status));
		bc_md_cell(f, r->bench);
		bc_md_cell(f, r->options);
		bc_md_cell(f, r->metric);
		bc_md_cell(f, judged || r->base_cnt ? a : "n/a");
		bc_md_cell(f, b);
		if (r->status == BC_CHECK_REGRESSED)
			fprintf(f, "| **%s** ", ch);
		else
			bc_md_cell(f, ch);
		bc_md_cell(f, ci);
		bc_md_cell(f, p);
		bc_md_cell(f, budget);
		if (r->status == BC_CHECK_REGRESSED)
			fputs("| **regressed** ", f);
		else
			bc_md_cell(f, bc_ck_detail(r));
		fputs("|\n", f);
	}
}

static void bc_ck_json(FILE *f, const struct bc_check_opts *o, const struct bc_check_about *about,
		       const struct bc_check *c)
{
	struct bc_json_writer w;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "kind", "check");
	bc_jw_str(&w, "store", about->store);
	bc_jw_obj_begin(&w, "baseline");
	bc_jw_str(&w, "kind", o->baseline == BC_CHECK_LABEL ? "label"
			      : o->baseline == BC_CHECK_WINDOW ? "window" : "latest");
	bc_jw_str(&w, "label", o->baseline == BC_CHECK_LABEL ? o->label : NULL);
	if (o->window)
		bc_jw_uint(&w, "window", o->window);
	else
		bc_jw_null(&w, "window");
	bc_jw_obj_end(&w);
	bc_jw_str(&w, "metric", o->filter->metric);
	bc_jw_str(&w, "thresholds", about->thresholds);
	bc_jw_obj_begin(&w, "summary");
	bc_jw_str(&w, "status", c->counts[BC_CHECK_REGRESSED] ? "regressed"
				: c->counts[BC_CHECK_NOT_COMPARABLE] ? "not comparable" : "pass");
	bc_jw_uint(&w, "configurations", c->cnt);
	bc_jw_uint(&w, "entries", c->entries);
	for (size_t st = 0; st < BC_CHECK_STATUS_CNT; st++) {
		static const char *const keys[BC_CHECK_STATUS_CNT] = {
			"passed", "regressed", "not_comparable", "no_baseline"
		};

		bc_jw_uint(&w, keys[st], c->counts[st]);
	}
	bc_jw_obj_end(&w);
	bc_jw_arr_begin(&w, "results");
	for (size_t i = 0; i < c->cnt; i++) {
		const struct bc_check_row *r = &c->rows[i];
		bool judged = bc_ck_judged(r);

		bc_jw_obj_begin(&w, NULL);
		bc_jw_str(&w, "benchmark", r->bench);
		bc_jw_str(&w, "configuration", r->options);
		bc_jw_str(&w, "metric", r->metric);
		bc_jw_str(&w, "unit", r->unit);
		bc_jw_bool(&w, "higher_is_better", r->higher_better);
		bc_jw_str(&w, "status", bc_check_status_name(r->status));
		bc_jw_str(&w, "verdict", judged ? r->verdict : NULL);
		bc_jw_str(&w, "reason", judged ? NULL : r->why);
		bc_jw_obj_begin(&w, "entry");
		bc_jw_str(&w, "run_id", r->run_id);
		bc_jw_str(&w, "date", r->date);
		bc_jw_str(&w, "label", r->label);
		bc_jw_str(&w, "host", r->host);
		bc_jw_str(&w, "cpu_model", r->cpu_model);
		bc_jw_str(&w, "kernel_release", r->kernel);
		bc_jw_num(&w, "mean", r->now.mean);
		bc_jw_obj_end(&w);
		bc_jw_obj_begin(&w, "baseline");
		bc_jw_uint(&w, "entries", r->base_cnt);
		bc_jw_str(&w, "run_id", r->base_run_id);
		bc_jw_str(&w, "date", r->base_date);
		bc_jw_str(&w, "label", r->base_label);
		bc_jw_num(&w, "mean", r->base_cnt ? r->c.base_mean : NAN);
		bc_jw_obj_end(&w);
		bc_jw_num(&w, "change_pct", r->base_cnt ? r->c.change_pct : NAN);
		bc_jw_num(&w, "ci95_low_pct", judged ? r->c.ci_low_pct : NAN);
		bc_jw_num(&w, "ci95_high_pct", judged ? r->c.ci_high_pct : NAN);
		bc_jw_num(&w, "p_value", judged ? r->c.p : NAN);
		bc_jw_str(&w, "test", judged ? r->c.test : NULL);
		bc_jw_uint(&w, "n_base", r->c.n_base);
		bc_jw_uint(&w, "n_new", r->c.n_new);
		bc_jw_str(&w, "samples", r->samples);
		bc_jw_num(&w, "max_regression_pct", r->th.max_regression_pct);
		bc_jw_num(&w, "alpha", r->th.alpha);
		bc_jw_uint(&w, "min_samples", r->th.min_samples);
		bc_jw_str(&w, "threshold_from", r->th.from);
		bc_jw_obj_end(&w);
	}
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	bc_jw_finish(&w);
}

void bc_check_write(FILE *f, enum bc_format format, const struct bc_check_opts *o,
		    const struct bc_check_about *about, const struct bc_check *c)
{
	switch (format) {
	case BC_FORMAT_JSON:
		bc_ck_json(f, o, about, c);
		break;
	case BC_FORMAT_MARKDOWN:
		bc_ck_markdown(f, o, about, c);
		break;
	default:
		bc_ck_text(f, c);
		break;
	}
}

void bc_check_summary(char *buf, size_t len, const struct bc_check_opts *o, const struct bc_check *c)
{
	char base[320], safe[320];

	bc_ck_baseline(o, safe, sizeof(safe));
	bc_text_safe(safe, base, sizeof(base));
	snprintf(buf, len,
		 "check: %zu configuration%s against %s: %zu regressed, %zu passed, %zu not comparable, %zu without a baseline",
		 c->cnt, c->cnt == 1 ? "" : "s", base, c->counts[BC_CHECK_REGRESSED],
		 c->counts[BC_CHECK_PASS], c->counts[BC_CHECK_NOT_COMPARABLE],
		 c->counts[BC_CHECK_NO_BASELINE]);
}
