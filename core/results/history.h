/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore history PLUGIN:BENCH` (history.c): the saved entries of one
 * benchmark grouped by kernel, label, date or machine, each group's mean
 * with its 95% interval, and the change from the group before it.
 */
#ifndef BENCHCORE_HISTORY_H
#define BENCHCORE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include <stdio.h>

#include "prog_series.h"
#include "runtime/config.h"
#include "store.h"

enum bc_history_by {
	BC_HISTORY_BY_DATE = 0,
	BC_HISTORY_BY_KERNEL,
	BC_HISTORY_BY_LABEL,
	BC_HISTORY_BY_MACHINE,
};

/* One group of entries of one configuration. */
struct bc_history_group {
	char *options;
	char *metric;
	char *unit;
	char *name;			/* the kernel, label, day or machine; " [tcg]"
					 * after it for a guest's accelerator */
	char *accelerator;		/* NULL: native (results/accel.h) */
	char *first_date, *last_date;
	bool higher_better;
	size_t n;			/* entries */
	double *means;			/* each entry's headline mean */
	/* the group's mean, its spread and sample count: over the entries
	 * when there are several, else the one entry's own (seconds or
	 * runs) */
	double mean, sd, ci_half;
	unsigned int sample_n;
	const char *samples;		/* "entries", "seconds" or "runs" */
	/* against the previous group of the same configuration */
	bool has_prev;
	double change_pct, p;
	bool valid, significant;
	const char *verdict;
	long long last_id;		/* the newest entry: the report links it */
	char *last_run_id;
	/* Entries of the group whose BPF programs differ from the entry
	 * before them in their series (prog_series.h), and the newest of
	 * them: history marks the row, the report the cell. */
	size_t prog_changes;
	char *prog_changed_run_id;
	size_t config;			/* its configuration's number, first seen first */
};

struct bc_history {
	struct bc_history_group *groups;
	size_t cnt, cap;
	size_t entries;
	size_t config_cnt;		/* configurations (options and metric) */
	/* a hash of group keys, so that 100,000 entries group in one pass */
	size_t *slots;
	size_t slot_cnt;
	/* each series' previous program digest, as the entries come */
	struct bc_prog_series prog_series;
};

/* Groups the entries f selects (their bench set) by `by`, on f->metric's
 * figure (NULL: each entry's headline); 0, or a negative errno with one
 * line in err. */
int bc_history_collect(struct bc_store *s, const struct bc_store_filter *f, enum bc_history_by by,
		    struct bc_history *h, char *err, size_t err_len);
void bc_history_free(struct bc_history *h);
/* The same from rows a caller already read (the report reads the store
 * once): each row in date order into h (zeroed first), then
 * bc_history_done(). 0, or -ENOMEM. A row without a figure or a date is
 * left out. Linear in the rows and groups. */
int bc_history_add(struct bc_history *h, enum bc_history_by by, const struct bc_store_row *r);
int bc_history_done(struct bc_history *h);
/* "date", "kernel", "label", "machine" */
const char *bc_history_by_name(enum bc_history_by by);

/* --by's word ("date", "kernel", "label", "machine"); -EINVAL for another. */
int bc_history_by_parse(const char *name, enum bc_history_by *by);
/* The groups as a table in one of the four formats. */
void bc_history_write(FILE *f, enum bc_format format, const char *bench, enum bc_history_by by,
		      const struct bc_history *h);

#endif /* BENCHCORE_HISTORY_H */
