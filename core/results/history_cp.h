/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `history PLUGIN:BENCH --change-points` (history_cp.c): each
 * configuration's entries in date order as one series of its figure, and
 * where that series moved (change_points.h), each point with its entry,
 * date, magnitude and significance. Read from the store's columns and its
 * table of figures by name, as history is.
 */
#ifndef BENCHCORE_HISTORY_CP_H
#define BENCHCORE_HISTORY_CP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "change_points.h"
#include "runtime/config.h"
#include "store.h"

struct bc_cp_entry {
	long long id;
	char *run_id, *date, *label;
	double mean;
};

/* One configuration's series and its change points. */
struct bc_cp_series {
	char *options, *metric, *unit;
	bool higher_better;
	struct bc_cp_entry *e;		/* oldest first */
	size_t cnt, cap;
	struct bc_cp_point *pts;	/* pts[i].at indexes e */
	size_t pt_cnt;
};

struct bc_cp_history {
	struct bc_cp_series *s;		/* in the order configurations first appear */
	size_t cnt, cap;
	size_t entries;
	struct bc_cp_opts opts;
};

/* The series of the entries f selects that ended well (f->metric: that
 * figure; NULL: the headline) and their change points; 0, or a negative
 * errno with one line in err. */
int bc_cp_history_collect(struct bc_store *s, const struct bc_store_filter *f,
			  const struct bc_cp_opts *o, struct bc_cp_history *h, char *err,
			  size_t err_len);
void bc_cp_history_free(struct bc_cp_history *h);

/* "improved" or "regressed": which way a point moved the figure. */
const char *bc_cp_direction(const struct bc_cp_point *p, bool higher_better);

/* The change points as a table in one of the four formats. */
void bc_cp_history_write(FILE *f, enum bc_format format, const char *bench,
			 const struct bc_cp_history *h);

#endif /* BENCHCORE_HISTORY_CP_H */
