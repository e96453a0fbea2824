/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * For tests that run a plugin in-process (loader + runner linked in): a
 * run's plugin options, set as `benchcore run` would set them, through the
 * core's option engine. Failures are cmocka failures.
 */
#ifndef BENCHCORE_TEST_OPTS_H
#define BENCHCORE_TEST_OPTS_H

#include <benchcore/benchcore.h>
#include "config.h"
#include "loader.h"

/*
 * Gives cfg its own option values for a run of bench: the tables' defaults,
 * then each "--NAME [VALUE]" of the NULL-terminated words (a flag takes no
 * value). Every word must be accepted. bc_options_free(cfg) frees them.
 */
void bc_test_set_plugin_opts(struct bc_config *cfg, const struct bc_bench *bench,
			     const char *const *words);

#endif /* BENCHCORE_TEST_OPTS_H */
