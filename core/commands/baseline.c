// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * --save and --against, after a run. The baseline is looked up before the
 * run is saved, so that "latest" never finds the run itself; the line
 * comes last on stderr, after the Summary's warnings, and the Summary line
 * stays the last line on standard output.
 *
 * The judgement is `compare`'s (compare.h): Welch's test on the runs when
 * both sides were repeated, else on the per-second samples.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "cmd_store.h"
#include "results/accel.h"
#include "results/compare.h"
#include "runtime/exit_status.h"
#include "results/run_doc.h"
#include "runtime/log.h"
#include "runtime/report.h"
#include "results/store.h"
#include "results/store_doc.h"
#include "results/store_name.h"
#include "results/words.h"

/* compare's default level */
#define BC_BASELINE_ALPHA 0.05

struct bc_found {
	char *doc;
	size_t len;
	long long id;
	char *label;
	char *date;
};

static int bc_take_row(const struct bc_store_row *r, void *cookie)
{
	struct bc_found *fd = cookie;

	fd->doc = r->doc ? strndup(r->doc, r->doc_len) : NULL;
	fd->len = r->doc_len;
	fd->id = r->id;
	fd->label = r->k.label ? strdup(r->k.label) : NULL;
	fd->date = r->k.date ? strdup(r->k.date) : NULL;
	return 1;
}

/* The baseline entry's document, or a line in err saying why there is none. */
static int bc_find_baseline(const struct bc_run_request *cfg, const struct bc_store_doc *now,
			    struct bc_found *fd, char *err, size_t err_len)
{
	struct bc_store_filter f = {
		.bench = now->k.bench,
		.options = now->k.options,
		.ok_only = true,
		.with_doc = true,
		.newest_first = true,
		.limit = 1,
	};
	char path[PATH_MAX], shown[BC_STORE_SHOWN_MAX];
	struct bc_store *s;
	int ret;

	if (!strcmp(cfg->against, "latest")) {
		f.host = now->k.host;
		f.cpu_model = now->k.cpu_model;
		f.cpu_count = now->k.cpu_count;
	} else {
		f.label = cfg->against;
	}
	ret = bc_store_path(cfg->store_path, path, sizeof(path), err, err_len);
	if (ret)
		return ret;
	s = bc_store_open(path, 0, err, err_len);
	if (!s)
		return -errno;
	ret = bc_store_each(s, &f, bc_take_row, fd, err, err_len);
	bc_store_close(s);
	if (ret < 0)
		return ret;
	if (!fd->doc) {
		bc_store_shown(path, shown, sizeof(shown));
		if (f.label)
			snprintf(err, err_len,
				 "--against '%s': no saved entry of %s labelled '%s' with these options (%s) in %.400s",
				 cfg->against, now->k.bench, cfg->against,
				 *now->k.options ? now->k.options : "defaults", shown);
		else
			snprintf(err, err_len,
				 "--against latest: no saved entry of %s with these options on this machine in %.400s",
				 now->k.bench, shown);
		return -ENOENT;
	}
	return 0;
}

/* The figure --against judges: --metric, else the run's headline. A name
 * the run lacks is refused (BC_EXIT_USAGE), naming those it has. */
static int bc_against_line(const struct bc_run_request *cfg, const struct bc_store_doc *now,
			   const struct bc_found *fd)
{
	const char *metric = cfg->metric ? cfg->metric : bc_doc_headline(now->run);
	const struct bc_doc_metric *m = bc_doc_find(now->run, metric);
	char err[256], names[1024], label[512], date[128], nc[96], words[512];
	struct bc_doc_run *base;
	struct bc_cmp_change c;

	if (cfg->metric && !m) {
		bc_doc_names(now->run, names, sizeof(names));
		bc_warn("--metric '%s': the run has no metric or figure of that name; it has %s",
			cfg->metric, *names ? names : "none");
		return BC_EXIT_USAGE;
	}
	base = bc_doc_run_parse(fd->doc, fd->len, err, sizeof(err));
	if (base && cfg->metric && !bc_doc_find(base, cfg->metric)) {
		bc_doc_names(base, names, sizeof(names));
		bc_warn("--metric '%s': --against '%s': entry %lld has no metric or figure of that name; it has %s",
			cfg->metric, cfg->against, fd->id, *names ? names : "none");
		bc_doc_run_free(base);
		return BC_EXIT_USAGE;
	}
	/* accel.h: an emulated figure is judged against emulated ones only */
	if (base && !bc_accel_comparable(base->ctx.accelerator, now->run->ctx.accelerator, nc,
					 sizeof(nc))) {
		fprintf(stderr, "benchcore: against '%s' (entry %lld, %s): %s: %s\n",
			bc_text_safe(fd->label ? fd->label : cfg->against, label, sizeof(label)), fd->id,
			bc_text_safe(fd->date ? fd->date : "?", date, sizeof(date)), metric, nc);
		bc_doc_run_free(base);
		return 0;
	}
	if (!base || !m || bc_compare_metric(base, now->run, metric, BC_BASELINE_ALPHA, &c)) {
		bc_warn("--against '%s': entry %lld cannot be compared with this run (%s)",
			cfg->against, fd->id, !base ? err : "no common headline metric");
		bc_doc_run_free(base);
		return 0;
	}
	bc_change_words(words, sizeof(words), metric, &c, "welch",
			m->direction == BC_HIGHER_IS_BETTER);
	/* the label and date as the store holds them: shown, never obeyed */
	fprintf(stderr, "benchcore: against '%s' (entry %lld, %s): %s\n",
		bc_text_safe(fd->label ? fd->label : cfg->against, label, sizeof(label)), fd->id,
		bc_text_safe(fd->date ? fd->date : "?", date, sizeof(date)), words);
	bc_doc_run_free(base);
	return 0;
}

int bc_baseline_after_run(const struct bc_run_request *cfg, const struct bc_run_result *res,
			  int status)
{
	struct bc_found fd = { 0 };
	struct bc_store_doc now;
	char *text = NULL, err[1024] = "";
	size_t len = 0;
	bool found = false;
	FILE *f;
	int ret;

	if (!cfg->save && !cfg->against)
		return status;
	if (status != BC_EXIT_OK) {
		bc_warn("%s: the run did not end well, so it is %s",
			cfg->save ? "--save" : "--against",
			cfg->save ? "not saved" : "not compared");
		return status;
	}
	f = open_memstream(&text, &len);
	ret = f ? bc_report_json(f, &cfg->cfg, res) : -ENOMEM;
	if (f && fclose(f))
		ret = -ENOMEM;
	if (ret || bc_store_doc_read(text, len, cfg->label, &now, err, sizeof(err))) {
		bc_warn("--save: cannot make the run's document: %s", err[0] ? err : strerror(ENOMEM));
		free(text);
		return BC_EXIT_FAILED;
	}
	if (cfg->against) {
		ret = bc_find_baseline(cfg, &now, &fd, err, sizeof(err));
		if (ret)
			bc_warn("%s; nothing to compare with", err);
		found = !ret;
		/* No entry yet (or no store yet) is a warning: the run still
		 * ran. A store that cannot be read (corrupt, another program's,
		 * a newer schema) is a failure, as it is for every command. */
		if (ret && ret != -ENOENT)
			status = BC_EXIT_FAILED;
	}
	if (cfg->save) {
		struct bc_store_item item = { .text = now.text, .len = now.len, .label = cfg->label };

		char path[PATH_MAX];

		if (bc_store_path(cfg->store_path, path, sizeof(path), err, sizeof(err)) ||
		    bc_store_save_items(path, &item, 1, NULL, NULL, err, sizeof(err))) {
			bc_warn("--save: %s", err);
			status = BC_EXIT_FAILED;
		}
	}
	if (found && bc_against_line(cfg, &now, &fd))
		status = BC_EXIT_USAGE;
	free(fd.doc);
	free(fd.label);
	free(fd.date);
	bc_store_doc_free(&now);
	free(text);
	return status;
}
