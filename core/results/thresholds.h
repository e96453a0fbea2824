/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `check`'s budget (thresholds.c): how much worse a figure may get, at
 * which significance level, and from how few samples it may be judged,
 * per benchmark glob and metric, read from a small file a team keeps in
 * its repository:
 *
 *	# lines starting with '#' or ';' are comments
 *	[default]
 *	max-regression = 5%
 *	alpha = 0.05
 *	min-samples = 3
 *
 *	[ringbuf:*]
 *	max-regression = 3%
 *
 *	[ringbuf:rb-custom drops]
 *	max-regression = 0
 *
 * A section is [default], [GLOB] (the benchmark, PLUGIN:BENCH, as
 * fnmatch(3) matches it) or [GLOB METRIC] (only when that figure is
 * judged). For each key, the last section of the file that matches and
 * sets it wins; then [default]; then the built-in values below.
 */
#ifndef BENCHCORE_THRESHOLDS_H
#define BENCHCORE_THRESHOLDS_H

#include <stddef.h>

/* Without a file: compare's level, three samples a side (what Welch's
 * test needs), and a 5% budget, about what a 2-CPU VM moves between
 * runs (docs/ci.md). */
#define BC_THRESHOLD_MAX_REGRESSION_PCT 5.0
#define BC_THRESHOLD_ALPHA 0.05
#define BC_THRESHOLD_MIN_SAMPLES 3

struct bc_threshold {
	double max_regression_pct;	/* a worse move up to this is within budget */
	double alpha;			/* significant when p < alpha */
	unsigned int min_samples;	/* fewer on a side: not comparable */
	/* where max-regression came from: "FILE:LINE" of its section, or
	 * "built-in" */
	char from[288];
};

struct bc_thresholds;

/*
 * Reads the file at path. NULL with errno and one line in err naming
 * "FILE:LINE" and what was expected there (errno EINVAL), or the file
 * (ENOENT, EISDIR, EFBIG: larger than 1 MiB, ENOMEM).
 */
struct bc_thresholds *bc_thresholds_load(const char *path, char *err, size_t err_len);
void bc_thresholds_free(struct bc_thresholds *t);

/* The budget of bench's figure metric; t NULL: the built-in values. */
void bc_thresholds_for(const struct bc_thresholds *t, const char *bench, const char *metric,
		       struct bc_threshold *out);

#endif /* BENCHCORE_THRESHOLDS_H */
