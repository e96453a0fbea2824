// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Rendering the table of a sweep or suite: one line per run as it finishes
 * (text in the kernel run_bench_*.sh scripts' shape, CSV, Markdown), or one
 * JSON document at the end with every run's own document inside. The CSV
 * and Markdown cell writers serve `suite --list` and `compare` too.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "bc_internal.h"
#include "json.h"

static const char *const row_status_names[] = {
	[ROW_PLANNED] = "not run",	[ROW_OK] = "ok",
	[ROW_UNAVAILABLE] = "unavailable", [ROW_INVALID] = "invalid",
	[ROW_FAILED] = "failed",	[ROW_CRASHED] = "crashed",
	[ROW_TIMEOUT] = "timeout",	[ROW_INTERRUPTED] = "interrupted",
};

static void json_str(FILE *f, const char *s)
{
	if (s)
		bc_json_write_string(f, s);
	else
		fputs("null", f);
}

void bc_csv_write(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
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
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

/* Operations (not events such as ring-buffer records) have a latency: the
 * kernel runner's ops and local-storage lines print it. */
static bool metric_has_latency(const struct row_metric *m)
{
	return m->rate && m->unit && !strncmp(m->unit, "ops", 3);
}

/* "hits 12.345 ± 0.123 M/s (6.172 M/prod), drops 0.000 ± 0.000 M/s" */
static void row_summary(const struct row *r, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->metric_cnt && n < len; i++) {
		const struct row_metric *m = &r->metrics[i];
		const char *sep = i ? ", " : "";

		if (m->rate) {
			n += (size_t)snprintf(buf + n, len - n, "%s%s %.3f ± %.3f M/s", sep, m->name,
					      m->mean / 1e6, m->stddev / 1e6);
			if (i == 0 && r->producers && n < len)
				n += (size_t)snprintf(buf + n, len - n, " (%.3f M/prod)",
						      m->mean / 1e6 / r->producers);
			if (i == 0 && metric_has_latency(m) && m->mean > 0 && n < len)
				n += (size_t)snprintf(buf + n, len - n, ", latency %.3f ns/op",
						      1e9 * (r->producers ? r->producers : 1) /
							      m->mean);
		} else {
			n += (size_t)snprintf(buf + n, len - n, "%s%s %.3f ± %.3f %s", sep, m->name,
					      m->mean, m->stddev, m->unit ? m->unit : "");
		}
	}
}

static void row_status_text(const struct row *r, char *buf, size_t len)
{
	size_t n;

	if (r->status == ROW_OK) {
		row_summary(r, buf, len);
	} else if (r->status == ROW_INTERRUPTED && r->metric_cnt && !isnan(r->metrics[0].mean)) {
		n = (size_t)snprintf(buf, len, "interrupted, so far: ");
		if (n < len)
			row_summary(r, buf + n, len - n);
	} else {
		snprintf(buf, len, "%s: %s", row_status_names[r->status],
			 r->reason ? r->reason : "no reason given");
	}
}

static void batch_section_start(struct bc_batch *b, const struct row *r)
{
	FILE *f = b->opts.out;
	const char *s = r->section;

	if (b->section_open && ((!s && !b->cur_section) ||
				(s && b->cur_section && !strcmp(s, b->cur_section))))
		return;
	b->section_open = true;
	b->cur_section = s;
	if (b->opts.format == BC_TABLE_TEXT && s) {
		size_t len = strlen(s);

		/* the kernel run scripts' header(): a blank line, the title,
		 * and a rule as long as it */
		fprintf(f, "\n%s\n", s);
		for (size_t i = 0; i < len; i++)
			fputc('=', f);
		fputc('\n', f);
	} else if (b->opts.format == BC_TABLE_MARKDOWN) {
		if (s) {
			fputs("\n### ", f);
			bc_md_write(f, s);
			fputs("\n", f);
		}
		fputs("\n| run | result |\n| --- | --- |\n", f);
	}
}

static void row_options_joined(const struct row *r, char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->opt_names.cnt && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", i ? sep : "",
				      r->opt_names.v[i], r->opt_values.v[i]);
}

static void csv_num(FILE *f, double x)
{
	fprintf(f, ",%.17g", x);
}

void bc_batch_render_row(struct bc_batch *b, const struct row *r)
{
	FILE *f = b->opts.out;
	char buf[2048], opts[1024];

	switch (b->opts.format) {
	case BC_TABLE_TEXT:
		batch_section_start(b, r);
		row_status_text(r, buf, sizeof(buf));
		fprintf(f, "%-*s %s\n", b->name_width, r->label, buf);
		break;
	case BC_TABLE_MARKDOWN:
		batch_section_start(b, r);
		row_status_text(r, buf, sizeof(buf));
		fputs("| ", f);
		bc_md_write(f, r->label);
		fputs(" | ", f);
		bc_md_write(f, buf);
		fputs(" |\n", f);
		break;
	case BC_TABLE_CSV:
		row_options_joined(r, opts, sizeof(opts), ";");
		for (size_t i = 0; i < (r->metric_cnt ? r->metric_cnt : 1); i++) {
			const struct row_metric *m = r->metric_cnt ? &r->metrics[i] : NULL;

			bc_csv_write(f, r->section);
			fputc(',', f);
			bc_csv_write(f, r->label);
			fputc(',', f);
			bc_csv_write(f, r->bench ? r->bench : r->args.v[0]);
			fputc(',', f);
			bc_csv_write(f, opts);
			fprintf(f, ",%s,", row_status_names[r->status]);
			bc_csv_write(f, r->reason);
			fputc(',', f);
			if (m) {
				bc_csv_write(f, m->name);
				fputc(',', f);
				bc_csv_write(f, m->unit);
				csv_num(f, m->mean);
				csv_num(f, m->stddev);
				csv_num(f, m->min);
				csv_num(f, m->median);
				csv_num(f, m->max);
			} else {
				fputs(",,,,,,", f);
			}
			fputc('\n', f);
		}
		break;
	case BC_TABLE_JSON:
		break;
	}
	fflush(f);
}

void bc_batch_render_json(struct bc_batch *b)
{
	FILE *f = b->opts.out;

	fputs("{\n  \"kind\": ", f);
	json_str(f, b->opts.kind);
	fputs(",\n  \"name\": ", f);
	json_str(f, b->opts.name);
	fputs(",\n  \"benchcore_version\": ", f);
	json_str(f, bc_version());
	if (b->sweep_specs.cnt) {
		fputs(",\n  \"sweep\": [", f);
		for (size_t i = 0; i < b->sweep_specs.cnt; i++) {
			fputs(i ? ", " : "", f);
			json_str(f, b->sweep_specs.v[i]);
		}
		fputs("]", f);
	}
	fputs(",\n  \"runs\": [", f);
	for (size_t i = 0, shown = 0; i < b->row_cnt; i++) {
		const struct row *r = &b->rows[i];

		if (r->status == ROW_PLANNED)
			continue;
		fputs(shown++ ? ",\n    {" : "\n    {", f);
		fputs("\n      \"section\": ", f);
		json_str(f, r->section);
		fputs(",\n      \"label\": ", f);
		json_str(f, r->label);
		fputs(",\n      \"benchmark\": ", f);
		json_str(f, r->bench ? r->bench : r->args.v[0]);
		fputs(",\n      \"options\": {", f);
		for (size_t j = 0; j < r->opt_names.cnt; j++) {
			fputs(j ? ", " : "", f);
			json_str(f, r->opt_names.v[j]);
			fputs(": ", f);
			json_str(f, r->opt_values.v[j]);
		}
		fputs("},\n      \"args\": [", f);
		for (size_t j = 0; j < r->args.cnt + r->combo_args.cnt; j++) {
			fputs(j ? ", " : "", f);
			json_str(f, j < r->args.cnt ? r->args.v[j] : r->combo_args.v[j - r->args.cnt]);
		}
		fprintf(f, "],\n      \"status\": \"%s\",\n      \"exit_status\": %d,"
			   "\n      \"reason\": ",
			row_status_names[r->status], r->exit_code);
		json_str(f, r->reason);
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
