/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Sweep axes (sweep_axis.c): NAME[,NAME...]=V1,V2,... and the words
 * each value becomes.
 */
#ifndef BENCHCORE_SWEEP_AXIS_H
#define BENCHCORE_SWEEP_AXIS_H

#include <stddef.h>

#include "runtime/loader.h"

/* One `--sweep NAME[,NAME...]=V1,V2,...` axis (sweep.c). Several names share
 * each value (zipped), e.g. rb-batch-cnt,rb-sample-rate=1,5,10. */
struct bc_sweep_axis {
	char **names;
	size_t name_cnt;
	char **values;
	size_t value_cnt;
};

int bc_sweep_axis_parse(const char *spec, struct bc_sweep_axis *ax, char *err, size_t err_len);
void bc_sweep_axis_free(struct bc_sweep_axis *ax);
/* Number of combinations of the cartesian product (1 for no axes). */
size_t bc_sweep_combination_cnt(const struct bc_sweep_axis *axes, size_t cnt);
/* choice[i] = value index of axes[i] in combination idx; the first axis is
 * the outermost loop. */
void bc_sweep_combination(const struct bc_sweep_axis *axes, size_t cnt, size_t idx,
			  size_t *choice);
/* The command-line word of one swept value (malloc()ed; NULL: a flag that
 * is off, no word), from the option's declared type: a core option's, or
 * one of `bench`'s tables (NULL bench: not known, see sweep.c). -EINVAL
 * with one line in err for a value the type refuses or an unknown name. */
/* One swept value as a run document's config types it: a JSON number or
 * boolean into buf (0), or -ENOENT (and -EINVAL for a value the type
 * refuses) when it stays a string: the types the run document writes as
 * strings, and options of a benchmark the parent cannot resolve. */
int bc_sweep_value_json(const struct bc_bench *bench, const char *name, const char *value,
			char *buf, size_t len);
int bc_sweep_option_arg(const struct bc_bench *bench, const char *name, const char *value,
			char **arg, char *err, size_t err_len);

#endif /* BENCHCORE_SWEEP_AXIS_H */
