/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One run (runner.c): validate, probe, set up, start the threads, sample
 * on absolute deadlines, tear down.
 */
#ifndef BENCHCORE_RUNNER_H
#define BENCHCORE_RUNNER_H

#include <stddef.h>

#include "config.h"
#include "loader.h"
#include "result.h"

/* Called by the runner after each tick, from the sampling thread. */
typedef void (*bc_iter_cb)(const struct bc_run_result *res, size_t iter_idx, void *cookie);

int bc_run(const struct bc_config *cfg, const struct bc_bench *bench,
	   struct bc_run_result *res, bc_iter_cb on_iter, void *cookie);
void bc_run_result_free(struct bc_run_result *res);
/* A plugin called exit(code) in teardown (guard.h's rescue): res, which
 * was summarised before teardown, becomes a failed run whose measured
 * iterations are still reported, with the reason saying so. */
void bc_run_teardown_exited(struct bc_run_result *res, int code);

#endif /* BENCHCORE_RUNNER_H */
