/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore check` (check.c): the newest entry of each configuration a
 * filter selects, judged against a baseline of the same configuration
 * (a label, the entry before it, or the N entries before it) with
 * compare's statistics, against a team's budget (thresholds.h). What CI
 * acts on: something regressed, or not.
 *
 * It reads the store's columns and its table of figures by name, never a
 * document: one pass over the selected entries, then for each
 * configuration at most BC_CHECK_SCAN_MAX of its entries, newest first,
 * through the (bench, options, date) index (docs/ci.md has the numbers).
 */
#ifndef BENCHCORE_CHECK_H
#define BENCHCORE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "store.h"
#include "thresholds.h"

/* A label's newest entries a baseline takes (a label saved nightly for a
 * year is a year of entries; the newest say what the label is now). */
#define BC_CHECK_MAX_BASELINE 100
/* --baseline window:N */
#define BC_CHECK_MAX_WINDOW 1000
/* Entries of one configuration looked at for its baseline, newest first:
 * past them, entries of other machines or kernels are not searched on. */
#define BC_CHECK_SCAN_MAX 5000

enum bc_check_baseline {
	BC_CHECK_LATEST = 0,	/* the newest comparable entry before it */
	BC_CHECK_LABEL,		/* the comparable entries of a label */
	BC_CHECK_WINDOW,	/* the N comparable entries before it */
};

struct bc_check_opts {
	/* The entries to judge: the newest of each configuration (bench and
	 * options) that ended well among those the filter selects; its bench
	 * may be a glob (fnmatch(3)). Its metric is the figure judged (NULL:
	 * each entry's headline). */
	const struct bc_store_filter *filter;
	enum bc_check_baseline baseline;
	const char *label;		/* BC_CHECK_LABEL */
	unsigned int window;		/* WINDOW: N; LABEL: at most N (0: MAX_BASELINE) */
	const struct bc_thresholds *thresholds;	/* NULL: the built-in budget */
};

enum bc_check_status {
	BC_CHECK_PASS = 0,
	BC_CHECK_REGRESSED,
	BC_CHECK_NOT_COMPARABLE,
	BC_CHECK_NO_BASELINE,
	BC_CHECK_STATUS_CNT,
};

struct bc_check_row {
	char *bench, *options, *metric, *unit;
	bool higher_better;
	/* the judged entry */
	long long id;
	char *run_id, *date, *label, *host, *cpu_model, *kernel;
	char *accelerator;		/* NULL: native */
	struct bc_cmp_summary now;	/* its figure: mean, spread, count */
	/* the baseline: how many entries, and the newest of them */
	size_t base_cnt;
	char *base_run_id, *base_date, *base_label;
	/* compare's judgement (valid when status is PASS or REGRESSED) */
	struct bc_cmp_change c;
	const char *samples;		/* "seconds", "runs", "entries", "runs and seconds" */
	struct bc_threshold th;
	enum bc_check_status status;
	/* PASS: "improved", "no significant change", "within budget";
	 * REGRESSED: "regressed"; else NULL */
	const char *verdict;
	char why[384];			/* NOT_COMPARABLE, NO_BASELINE: why */
};

struct bc_check {
	struct bc_check_row *rows;	/* by benchmark, then configuration */
	size_t cnt, cap;
	size_t counts[BC_CHECK_STATUS_CNT];
	size_t entries;			/* entries the filter selected */
	/* the candidates' hash by configuration (one pass over the store) */
	size_t *slots;
	size_t slot_cnt;
};

/* Judges; 0, or a negative errno with one line in err. */
int bc_check_run(struct bc_store *s, const struct bc_check_opts *o, struct bc_check *c, char *err,
		 size_t err_len);
void bc_check_free(struct bc_check *c);

/* "pass", "regressed", "not comparable", "no baseline" */
const char *bc_check_status_name(enum bc_check_status st);

#endif /* BENCHCORE_CHECK_H */
