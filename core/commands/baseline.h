/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * After a run (baseline.c): --save keeps its document in the result store,
 * --against judges it against a saved entry, criterion's workflow.
 */
#ifndef BENCHCORE_BASELINE_H
#define BENCHCORE_BASELINE_H

#include "runtime/config.h"
#include "runtime/result.h"

/*
 * Called by `run` and `run --repeat` after the report (cmd_run.c,
 * repeat.c) with the run's exit status. A run that ended well is saved
 * (--save), and --against prints one line on stderr: the headline metric's
 * change against the newest saved entry of the label, with its 95%
 * interval, p-value and verdict. Returns the status, BC_EXIT_FAILED when
 * the save failed (said in one line; the store keeps what it held).
 */
int bc_baseline_after_run(const struct bc_run_request *req, const struct bc_run_result *res,
			  int status);

#endif /* BENCHCORE_BASELINE_H */
