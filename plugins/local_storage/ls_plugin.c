// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The local_storage plugin: task local-storage lookup cost and its cache
 * cliff, local-storage creation cost, RCU Tasks Trace grace periods under
 * local-storage churn, and socket-storage get cost (the kernel runner's
 * local-storage and sk-storage benchmarks).
 * Each benchmark declares its own options (see its file); they all land in
 * one struct ls_opts per run.
 */
#include "ls_internal.h"

BENCHCORE_PLUGIN(.name = "local_storage", .version = "2.0",
		 .description = "task and socket local storage: get cost and cache cliff, creation cost, RCU Tasks Trace",
		 .opts_size = sizeof(struct ls_opts),
		 BC_BENCHES(&ls_bench_seq_get, &ls_bench_int_get, &ls_bench_hashmap_control,
			    &ls_bench_create, &ls_bench_tasks_trace, &ls_bench_sk_get));
