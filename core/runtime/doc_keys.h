/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Every key of the documents benchcore writes, once: the run document
 * (report_json.c writes it, results/run_doc.c is its one reader), the
 * sweep and suite documents around runs (results/report_table.c) and
 * compare's document (results/compare.c). A key that changes changes here,
 * and the writer and the reader change with it; a grep for a key's string
 * finds this file and nothing else.
 *
 * Grouped by the object that holds the key. Keys a version of the writer
 * no longer writes stay listed while the reader still reads them in older
 * documents; a comment says since when a key exists where readers must
 * expect documents without it.
 */
#ifndef BENCHCORE_DOC_KEYS_H
#define BENCHCORE_DOC_KEYS_H

/* ------------------------------------------------------- run: top level */

#define BC_DOC_BENCHCORE_VERSION "benchcore_version"
#define BC_DOC_CONTEXT "context"
/* since the store (2026-12-02): 32 hex digits, one per process */
#define BC_DOC_RUN_ID "run_id"
#define BC_DOC_PLUGIN "plugin"
#define BC_DOC_BENCHMARK "benchmark"
/* an older spelling readers accept for "benchmark" */
#define BC_DOC_BENCH "bench"
#define BC_DOC_ATTACH_POINT "attach_point"
#define BC_DOC_CONFIG "config"
/* an older spelling readers accept for "config" */
#define BC_DOC_CONFIGURATION "configuration"
#define BC_DOC_METRICS "metrics"
#define BC_DOC_PROGRAMS "programs"
#define BC_DOC_ITERATIONS "iterations"
#define BC_DOC_SUMMARY "summary"
/* run --repeat and --precision only */
#define BC_DOC_REPEATS "repeats"
#define BC_DOC_CPU_UTILISATION "cpu_utilisation"
#define BC_DOC_WARNINGS "warnings"
#define BC_DOC_STATUS "status"
/* added by the store when an entry is saved or imported under a label */
#define BC_DOC_LABEL "label"
/* the metric or figure the run is judged by (a name, or null); documents
 * from before it have the rule in results/run_doc.c */
#define BC_DOC_HEADLINE "headline"
/* a top-level thread count some hand-made documents carry */
#define BC_DOC_PRODUCERS_TOP "producers"

/* -------------------------------------------------------- run: context */

#define BC_DOC_CTX_DATE "date"
#define BC_DOC_CTX_HOST "host"
#define BC_DOC_CTX_KERNEL_RELEASE "kernel_release"
/* since the store (2026-12-02) */
#define BC_DOC_CTX_KERNEL_VERSION "kernel_version"
#define BC_DOC_CTX_CPU_MODEL "cpu_model"
#define BC_DOC_CTX_CPU_COUNT "cpu_count"
#define BC_DOC_CTX_HYPERVISOR "hypervisor"
#define BC_DOC_CTX_LIBBPF_VERSION "libbpf_version"
#define BC_DOC_CTX_BENCHCORE_VERSION "benchcore_version"
/* The kernel's facts (runtime/kernel_facts.h), since `benchcore vm`
 * (2026-12-10). "accelerator" is there only in benchcore's own guests:
 * "tcg" (emulation) or "kvm"; a run outside them has none. */
#define BC_DOC_CTX_ACCELERATOR "accelerator"
#define BC_DOC_CTX_MEMORY_BYTES "memory_bytes"
#define BC_DOC_CTX_CLOCKSOURCE "clocksource"
#define BC_DOC_CTX_CMDLINE "cmdline"
/* "voluntary", "dynamic: full", ...; null when the config is unknown */
#define BC_DOC_CTX_PREEMPTION "preemption"
/* net.core.bpf_jit_enable and bpf_jit_harden; null when unreadable */
#define BC_DOC_CTX_BPF_JIT_ENABLE "bpf_jit_enable"
#define BC_DOC_CTX_BPF_JIT_HARDEN "bpf_jit_harden"
/* the config's source, hash and the options that move BPF numbers (an
 * object of "CONFIG_X": value, null for "not set"); null without a config */
#define BC_DOC_CTX_KERNEL_CONFIG "kernel_config"
#define BC_DOC_KCFG_SOURCE "source"
#define BC_DOC_KCFG_HASH "hash"
#define BC_DOC_KCFG_OPTIONS "options"
/* the debug options that are on and skew numbers: an array of names */
#define BC_DOC_CTX_DEBUG_OPTIONS "debug_options"
/* /sys/devices/system/cpu/vulnerabilities: an object of name: state */
#define BC_DOC_CTX_MITIGATIONS "mitigations"
/* Values of "accelerator". */
#define BC_DOC_ACCEL_TCG "tcg"
#define BC_DOC_ACCEL_KVM "kvm"

/* --------------------------------------------------------- run: plugin */

#define BC_DOC_PLUGIN_NAME "name"
#define BC_DOC_PLUGIN_VERSION "version"
#define BC_DOC_PLUGIN_PATH "path"

/* --------------------------------------------------------- run: config */

/* The core options' keys are core_opts.c's table (json_key); these are
 * the ones readers name. */
#define BC_DOC_CFG_PRODUCERS "producers"
#define BC_DOC_CFG_CONSUMERS "consumers"
#define BC_DOC_CFG_WARMUP_SEC "warmup_sec"
#define BC_DOC_CFG_DURATION_SEC "duration_sec"
#define BC_DOC_CFG_AFFINITY "affinity"
#define BC_DOC_CFG_PROD_CPUS "prod_cpus"
#define BC_DOC_CFG_CONS_CPUS "cons_cpus"
/* 2026-12-01 (--bpf-stats) until the core option table (the same day) */
#define BC_DOC_CFG_BPF_STATS "bpf_stats"
/* every plugin option: typed values since the option tables, the words
 * before them */
#define BC_DOC_CFG_PLUGIN_OPTIONS "plugin_options"
#define BC_DOC_CFG_PLUGIN_OPTIONS_SET "plugin_options_set"

/* ------------------------------------------------- run: "metrics" entry */

#define BC_DOC_METRIC_NAME "name"
/* the unit as declared: "ops" where the summary says "ops/s" */
#define BC_DOC_METRIC_UNIT "unit"
#define BC_DOC_METRIC_KIND "kind"
/* since ABI 2.0 (2026-12-01): documents before it carry no roles */
#define BC_DOC_METRIC_ROLE "role"
#define BC_DOC_METRIC_LABEL "label"
#define BC_DOC_METRIC_PER "per"
/* "higher" or "lower" (is better); documents before it leave the rule to
 * figures.c's bc_metric_direction() */
#define BC_DOC_METRIC_DIRECTION "direction"

/* Values of "kind" readers tell apart. */
#define BC_DOC_KIND_COUNTER "counter"
#define BC_DOC_KIND_RATE "rate"
#define BC_DOC_KIND_HISTOGRAM "histogram"
#define BC_DOC_KIND_TIME_PER_OP "time_per_op"
/* Values of "direction". */
#define BC_DOC_DIRECTION_HIGHER "higher"
#define BC_DOC_DIRECTION_LOWER "lower"

/* ------------------------------------------------ run: "programs" entry */

#define BC_DOC_PROG_ROLE "role"
#define BC_DOC_PROG_NAME "name"
#define BC_DOC_PROG_ID "id"
#define BC_DOC_PROG_TYPE "type"

/* ----------------------------------------------- run: "iterations" entry */

#define BC_DOC_ITER_INDEX "index"
/* run --repeat's pooled iterations: the run each is from */
#define BC_DOC_ITER_RUN "run"
#define BC_DOC_ITER_WARMUP "warmup"
#define BC_DOC_ITER_LENGTH_SEC "length_sec"
#define BC_DOC_ITER_DRIFT_US "drift_us"
/* each metric's value over the interval (a rate for counters) */
#define BC_DOC_ITER_VALUES "values"
/* since ABI 2.0: what measure() returned, the figures' interval values
 * and the histograms' interval statistics */
#define BC_DOC_ITER_RAW "raw"
#define BC_DOC_ITER_FIGURES "figures"
#define BC_DOC_ITER_HISTOGRAMS "histograms"
#define BC_DOC_ITER_CPU "cpu"
#define BC_DOC_ITER_PRODUCER_USER_SEC "producer_user_sec"
#define BC_DOC_ITER_PRODUCER_SYS_SEC "producer_sys_sec"
#define BC_DOC_ITER_CONSUMER_USER_SEC "consumer_user_sec"
#define BC_DOC_ITER_CONSUMER_SYS_SEC "consumer_sys_sec"
/* --bpf-stats: a program's interval, in the order of "programs" */
#define BC_DOC_ITER_BPF_STATS "bpf_stats"
#define BC_DOC_ITER_RUN_CNT "run_cnt"
#define BC_DOC_ITER_RUN_TIME_NS "run_time_ns"
#define BC_DOC_ITER_RUNS_PER_SEC "runs_per_sec"
#define BC_DOC_ITER_NS_PER_RUN "ns_per_run"
#define BC_DOC_ITER_PRODUCER_TIME_PCT "producer_time_pct"
#define BC_DOC_ITER_PRODUCER_CPU_PCT "producer_cpu_pct"

/* ------------------------------------- run: statistics (summary entries) */

/* A summary entry of a metric, a figure's "stats", a CPU utilisation. */
#define BC_DOC_STAT_UNIT "unit"
#define BC_DOC_STAT_MEAN "mean"
#define BC_DOC_STAT_STDDEV "stddev"
#define BC_DOC_STAT_MIN "min"
#define BC_DOC_STAT_MEDIAN "median"
#define BC_DOC_STAT_MAX "max"
#define BC_DOC_STAT_N "n"
/* a figure's own value, and bpf_stats' valued figures */
#define BC_DOC_STAT_VALUE "value"
/* since 2026-12-01: a repeated run's 95% interval over its runs */
#define BC_DOC_STAT_CI95 "ci95"
#define BC_DOC_CI_LOW "low"
#define BC_DOC_CI_HIGH "high"
#define BC_DOC_CI_HALF_WIDTH "half_width"
#define BC_DOC_CI_RUNS "runs"
/* spellings of an interval readers accept from other tools' documents */
#define BC_DOC_STAT_CI "ci"
#define BC_DOC_STAT_CI_LOW "ci_low"
#define BC_DOC_STAT_CI_HIGH "ci_high"

/* A histogram's summary entry (kind "histogram"; no "mean"). Its
 * percentiles are "p" and a number; these are the ones it writes. */
#define BC_DOC_HIST_KIND "kind"
#define BC_DOC_HIST_COUNT "count"
#define BC_DOC_HIST_P50 "p50"
#define BC_DOC_HIST_P90 "p90"
#define BC_DOC_HIST_P99 "p99"
#define BC_DOC_HIST_P999 "p99.9"
#define BC_DOC_HIST_MAX "max"

/* ------------------------------------------- run: summary.figures entry */

#define BC_DOC_SUMMARY_FIGURES "figures"
#define BC_DOC_FIG_KIND "kind"
#define BC_DOC_FIG_UNIT "unit"
#define BC_DOC_FIG_OF "of"
#define BC_DOC_FIG_VALUE "value"
#define BC_DOC_FIG_STATS "stats"
/* as in a "metrics" entry */
#define BC_DOC_FIG_DIRECTION "direction"

/* Values of a figure's "kind" (figures.c's bc_figure_kind_name()). */
#define BC_DOC_FIG_PER_PRODUCER "per_producer"
#define BC_DOC_FIG_TOTAL "total"
#define BC_DOC_FIG_LATENCY "latency"
#define BC_DOC_FIG_SHARE_EVENTS "share_events"
#define BC_DOC_FIG_SHARE_TOTAL "share_total"
#define BC_DOC_FIG_SHARE_PCT "share_pct"
#define BC_DOC_FIG_RATIO "ratio"

/* ---------------------------------------- run: summary.bpf_stats (since
 * --bpf-stats, 2026-12-01; producer_cpu_pct the same day, later) */

#define BC_DOC_SUMMARY_BPF_STATS "bpf_stats"
#define BC_DOC_BPF_ALREADY_ENABLED "already_enabled"
#define BC_DOC_BPF_READ_ERRORS "read_errors"
#define BC_DOC_BPF_PRODUCER_TIME_PCT "producer_time_pct"
#define BC_DOC_BPF_PRODUCER_CPU_PCT "producer_cpu_pct"
#define BC_DOC_BPF_PROGRAMS "programs"
#define BC_DOC_BPF_ROLE "role"
#define BC_DOC_BPF_NAME "name"
#define BC_DOC_BPF_ID "id"
#define BC_DOC_BPF_RUN_CNT "run_cnt"
#define BC_DOC_BPF_RUN_TIME_NS "run_time_ns"
#define BC_DOC_BPF_MEASURED_SEC "measured_sec"
#define BC_DOC_BPF_PRODUCER_CPU_SEC "producer_cpu_sec"
#define BC_DOC_BPF_RUNS_PER_SEC "runs_per_sec"
#define BC_DOC_BPF_NS_PER_RUN "ns_per_run"

/* ----------------------------- run: repeats (run --repeat, 2026-12-01) */

#define BC_DOC_REP_REPEAT "repeat"
#define BC_DOC_REP_PRECISION_PCT "precision_pct"
#define BC_DOC_REP_MAX_REPEAT "max_repeat"
#define BC_DOC_REP_MAX_TIME_SEC "max_time_sec"
#define BC_DOC_REP_ENDED_BY "ended_by"
#define BC_DOC_REP_RUNS_STARTED "runs_started"
#define BC_DOC_REP_RUNS_COMPLETE "runs_complete"
#define BC_DOC_REP_ELAPSED_SEC "elapsed_sec"
#define BC_DOC_REP_CONFIDENCE "confidence"
#define BC_DOC_REP_WATCHED "watched"
#define BC_DOC_REP_RUNS "runs"
#define BC_DOC_REP_AGGREGATE "aggregate"
#define BC_DOC_REP_FIGURES "figures"
#define BC_DOC_REP_RUNS_NEEDED "runs_needed"

/* One run of repeats.runs. */
#define BC_DOC_REPRUN_INDEX "index"
#define BC_DOC_REPRUN_EXIT_STATUS "exit_status"
#define BC_DOC_REPRUN_COMPLETE "complete"
#define BC_DOC_REPRUN_ELAPSED_SEC "elapsed_sec"
#define BC_DOC_REPRUN_MEASURED_ITERATIONS "measured_iterations"
#define BC_DOC_REPRUN_VALUES "values"
#define BC_DOC_REPRUN_FIGURES "figures"

/* A metric's or figure's statistics over the complete runs
 * (repeats.aggregate, repeats.figures). */
#define BC_DOC_AGG_UNIT "unit"
#define BC_DOC_AGG_N "n"
#define BC_DOC_AGG_MEAN "mean"
#define BC_DOC_AGG_STDDEV "stddev"
#define BC_DOC_AGG_CV_PCT "cv_pct"
#define BC_DOC_AGG_T "t"
#define BC_DOC_AGG_CI95_HALF "ci95_half"
#define BC_DOC_AGG_CI95_LOW "ci95_low"
#define BC_DOC_AGG_CI95_HIGH "ci95_high"
#define BC_DOC_AGG_CI95_PCT "ci95_pct"

/* repeats.runs_needed */
#define BC_DOC_NEED_CHANGE_PCT "change_pct"
#define BC_DOC_NEED_ALPHA "alpha"
#define BC_DOC_NEED_POWER "power"
#define BC_DOC_NEED_RUNS "runs"

/* ------------------------------------------------- run: cpu_utilisation */

#define BC_DOC_CPU_PRODUCER "producer"
#define BC_DOC_CPU_PRODUCER_USER "producer_user"
#define BC_DOC_CPU_PRODUCER_SYS "producer_sys"
#define BC_DOC_CPU_CONSUMER "consumer"
#define BC_DOC_CPU_CONSUMER_USER "consumer_user"
#define BC_DOC_CPU_CONSUMER_SYS "consumer_sys"
#define BC_DOC_CPU_PER_CPU_SECOND "per_cpu_second"

/* ---------------------------------------------------------- run: status */

#define BC_DOC_STATUS_EXIT_STATUS "exit_status"
#define BC_DOC_STATUS_INTERRUPTED "interrupted"
#define BC_DOC_STATUS_REASON "reason"

/* ------------------------------------------- sweep and suite documents */

#define BC_DOC_BATCH_KIND "kind"
#define BC_DOC_BATCH_NAME "name"
#define BC_DOC_BATCH_BENCHCORE_VERSION "benchcore_version"
/* run --sweep's specifications, as given */
#define BC_DOC_BATCH_SWEEP "sweep"
#define BC_DOC_BATCH_RUNS "runs"
/* Values of "kind". */
#define BC_DOC_BATCH_KIND_SWEEP "sweep"
#define BC_DOC_BATCH_KIND_SUITE "suite"

/* One row of "runs". */
#define BC_DOC_ROW_SECTION "section"
#define BC_DOC_ROW_LABEL "label"
#define BC_DOC_ROW_BENCHMARK "benchmark"
/* the swept values: typed as the run's config has them, the words in
 * documents from before the option tables */
#define BC_DOC_ROW_OPTIONS "options"
#define BC_DOC_ROW_ARGS "args"
#define BC_DOC_ROW_STATUS "status"
#define BC_DOC_ROW_EXIT_STATUS "exit_status"
#define BC_DOC_ROW_REASON "reason"
#define BC_DOC_ROW_ELAPSED_SEC "elapsed_sec"
#define BC_DOC_ROW_TIMEOUT_SEC "timeout_sec"
/* the run's own document, or null */
#define BC_DOC_ROW_RESULT "result"

/* ---------------------------------------------------- compare documents */

#define BC_DOC_CMP_BASE "base"
#define BC_DOC_CMP_NEW "new"
#define BC_DOC_CMP_TEST "test"
#define BC_DOC_CMP_ALPHA "alpha"
#define BC_DOC_CMP_WARNINGS "warnings"
#define BC_DOC_CMP_COMPARISONS "comparisons"
/* since the derived figures (2026-12-01) */
#define BC_DOC_CMP_FIGURE_COMPARISONS "figure_comparisons"
#define BC_DOC_CMP_ONLY_IN_BASE "only_in_base"
#define BC_DOC_CMP_ONLY_IN_NEW "only_in_new"

/* One entry of "comparisons" (and the figures' and the unmatched runs'). */
#define BC_DOC_CMPE_BENCHMARK "benchmark"
#define BC_DOC_CMPE_CONFIGURATION "configuration"
#define BC_DOC_CMPE_LABEL "label"
#define BC_DOC_CMPE_METRIC "metric"
#define BC_DOC_CMPE_UNIT "unit"
#define BC_DOC_CMPE_BASE_MEAN "base_mean"
#define BC_DOC_CMPE_NEW_MEAN "new_mean"
#define BC_DOC_CMPE_CHANGE_PCT "change_pct"
#define BC_DOC_CMPE_TEST "test"
#define BC_DOC_CMPE_P_VALUE "p_value"
#define BC_DOC_CMPE_N_BASE "n_base"
#define BC_DOC_CMPE_N_NEW "n_new"
/* since compare of repeated runs: "runs" or "iterations" */
#define BC_DOC_CMPE_SAMPLES "samples"
#define BC_DOC_CMPE_VERDICT "verdict"

#endif /* BENCHCORE_DOC_KEYS_H */
