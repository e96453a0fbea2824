/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The `run` command line (options.c): core options from core_opts.c's
 * table, then the selected benchmark's own options (plugin_opts.c).
 */
#ifndef BENCHCORE_OPTIONS_H
#define BENCHCORE_OPTIONS_H

#include "cli_env.h"
#include "runtime/config.h"
#include "runtime/loader.h"

/* options.c: `run`'s command line. Returns 0 (cfg and bench filled),
 * BC_OPTIONS_DONE (--help/--version answered: exit 0) or an exit status. */
#define BC_OPTIONS_DONE (-1)
int bc_options_parse_run(struct bc_cli_env *env, int argc, char **argv, struct bc_run_request *req,
			 const struct bc_bench **bench);
void bc_options_free(struct bc_config *cfg);	/* cfg->opts */

#endif /* BENCHCORE_OPTIONS_H */
