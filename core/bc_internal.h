/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Internal contracts between the core's rooms. Data flows one way:
 *   cli (main.c, options.c) -> bc_config -> loader -> runner -> bc_run_result
 *   -> stats -> figures -> report_text / report_json
 * Nothing here is exported from libbenchcore except through BC_API in the
 * public headers; tests link the core's object library to reach it.
 */
#ifndef BENCHCORE_INTERNAL_H
#define BENCHCORE_INTERNAL_H

#include <benchcore/benchcore.h>
#include "exit_status.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#define BC_REASON_LEN 1024
#define BC_MAX_CPUS 4096

/* ------------------------------------------------------------ cpuset.c */

struct bc_cpuset {
	unsigned int cnt;		/* number of CPUs in the set */
	unsigned int cpus[BC_MAX_CPUS];	/* ascending, unique */
};

/* Parses "0,2-3". On error returns -EINVAL and writes a one-line reason
 * naming the value and what is expected into err ("range end is below its
 * start"). */
int bc_cpuset_parse(const char *text, struct bc_cpuset *set, char *err, size_t err_len);
/* Writes the set back in its shortest list form ("0,2-3"), for messages and
 * the JSON config. */
void bc_cpuset_format(const struct bc_cpuset *set, char *buf, size_t len);
/* The CPUs this process may run on, read with a mask sized for
 * BC_MAX_CPUS (a fixed cpu_set_t holds 1024 and makes sched_getaffinity
 * fail on larger hosts). Returns 0 or -errno. */
int bc_cpuset_usable(struct bc_cpuset *set);
bool bc_cpuset_has(const struct bc_cpuset *set, unsigned int cpu);
/* Pins attr's thread to one CPU, any number below BC_MAX_CPUS. Returns 0 or
 * an error number as pthread functions do. */
int bc_cpuset_pin_attr(pthread_attr_t *attr, unsigned int cpu);

/* ------------------------------------------------------------- config */

enum bc_format {
	BC_FORMAT_TEXT = 0,
	BC_FORMAT_JSON = 1,
};

struct bc_config {
	unsigned int producers;		/* 0 = benchmark default */
	unsigned int consumers;		/* 0 = benchmark default (see *_set) */
	bool producers_set;
	bool consumers_set;
	double warmup_sec;		/* default 1 */
	double duration_sec;		/* default 5 */
	bool affinity;			/* -a */
	bool prod_cpus_set;
	bool cons_cpus_set;
	struct bc_cpuset prod_cpus;
	struct bc_cpuset cons_cpus;
	int verbosity;			/* -1 quiet, 0 normal, 1+ verbose */
	enum bc_format format;
	const char *output_path;	/* NULL = stdout */
	/* This run's plugin option values (plugin_opts.h): bc_ctx_opts()
	 * reads them. Made by the `run` parser, freed by bc_options_free(). */
	struct bc_opts *opts;
	bool bpf_stats;			/* --bpf-stats (bpf_stats.h) */
	/* --repeat, --precision, --max-repeat, --max-time (repeat.h); zero
	 * for one run, max_repeat 0 for its default. */
	unsigned int repeat;
	double precision_pct;
	unsigned int max_repeat;
	double max_time_sec;
};

void bc_config_init(struct bc_config *cfg);

/* ------------------------------------------------------------- loader */

struct bc_plugin;

/* A benchmark as the core sees it: the plugin's descriptor copied into the
 * core's own (current) layout, bytes past the plugin's sz zeroed. */
struct bc_bench {
	struct bc_bench_desc desc;
	struct bc_metric_desc *metrics;	/* normalised copy, desc.metric_cnt entries */
	struct bc_option *options;	/* normalised copy of desc.options */
	size_t option_cnt;
	struct bc_need *needs;		/* normalised copy, desc.need_cnt entries */
	struct bc_attach_point *points;	/* normalised copy of desc.attach_points */
	const struct bc_plugin *plugin;
};

struct bc_plugin {
	char *path;			/* the file it was loaded from */
	void *handle;			/* dlopen() handle */
	/* The file as checked, open while loaded: dlopen() was given
	 * /proc/self/fd/<fd>, so the file checked is the file loaded. */
	int fd;
	bool fd_open;
	struct bc_plugin_desc desc;	/* normalised copy */
	struct bc_option *options;	/* normalised copy of desc.options */
	size_t option_cnt;
	struct bc_bench *benches;
	size_t bench_cnt;
};

struct bc_plugin_set {
	struct bc_plugin *plugins;
	size_t cnt;
	size_t failed_cnt;		/* files refused (each said in one line) */
};

struct bc_loader_opts {
	const char *const *dirs;	/* every --plugin-dir, in order */
	size_t dir_cnt;
	bool allow_unsafe;		/* --allow-unsafe-plugins */
	/* Search only `dirs`: no BENCHCORE_PLUGIN_PATH and no directories
	 * relative to the executable (tests want a closed world). */
	bool only_dirs;
};

/*
 * Search order: dirs, then BENCHCORE_PLUGIN_PATH (colon-separated), then
 * plugins/ beside the executable, then <prefix>/<libdir>/benchcore/plugins
 * computed from the executable's location (relocatable). Fills a malloc'd
 * array of malloc'd paths, duplicates (by realpath) and missing optional
 * directories left in: bc_plugins_load() skips them and says why with -v.
 */
struct bc_search_dir {
	char *path;
	bool explicit_dir;		/* from --plugin-dir: must exist */
};
int bc_plugin_search_dirs(const struct bc_loader_opts *opts, struct bc_search_dir **dirs,
			  size_t *cnt);
void bc_plugin_search_dirs_free(struct bc_search_dir *dirs, size_t cnt);

/*
 * dlopen()s every *.so of every search directory, sorted by name. A file
 * that cannot be used costs one line "benchcore: <file>: <reason>" and a
 * failed_cnt increment; the others still load. Returns 0, or -ENOENT /
 * -ENOTDIR when a --plugin-dir does not name a directory (said in one line).
 */
int bc_plugins_load(struct bc_plugin_set *set, const struct bc_loader_opts *opts);
/* Loads the plugins of one directory (no dedup against other dirs). */
int bc_plugins_load_dir(struct bc_plugin_set *set, const char *dir, bool allow_unsafe);
/* dlclose()s everything and frees the set. */
void bc_plugins_unload(struct bc_plugin_set *set);

/*
 * Finds "PLUGIN:BENCH", or a bare "BENCH" when exactly one plugin has it.
 * Returns 0, -ENOENT (unknown) or -ENOTUNIQ (ambiguous: err lists the
 * candidates); err gets one line without the "benchcore: " prefix.
 */
int bc_bench_resolve(const struct bc_plugin_set *set, const char *name,
		     const struct bc_bench **bench, char *err, size_t err_len);

/* ------------------------------------------------------------ context */

/* One per run (and one per `list` probe). Defined here so that the runner
 * and the CLI can fill it; plugins only see the accessors. */
struct bc_ctx {
	const struct bc_config *cfg;
	const struct bc_bench *bench;
	unsigned int producer_cnt;
	unsigned int consumer_cnt;
	void *data;
	char attach_point[256];
	char reason[BC_REASON_LEN];
	bool unavailable;
	bool usage_error;
	/* Metrics and programs (hist.c, context.c, runner.c). */
	struct bc_hist **hists;		/* per metric; set for histograms */
	unsigned int hist_cnt;		/* entries of hists (the metric count) */
	struct bc_prog *progs;		/* bc_ctx_add_prog(), in call order */
	size_t prog_cnt;
};

/* A program under test. The fd is the plugin's, valid until teardown();
 * the id outlives it (bpf_prog_get_fd_by_id), and the run counters read at
 * declaration are the baseline for later readings. */
struct bc_prog {
	int fd;
	char *role;
	char name[64];
	char type[32];		/* libbpf's name of the program type */
	uint32_t id;
	uint64_t run_cnt0, run_time_ns0;
};

/* Frees what the run attached to the ctx (histograms, programs). */
void bc_ctx_release(struct bc_ctx *ctx);
/* After teardown(): the programs' fds are the plugin's to close. */
void bc_ctx_progs_closed(struct bc_ctx *ctx);

void bc_ctx_init(struct bc_ctx *ctx, const struct bc_config *cfg, const struct bc_bench *bench);

/* Maps a callback's return value and the ctx's flags to an exit status. */
int bc_ctx_exit_status(const struct bc_ctx *ctx, int err);
/* A consistent copy of ctx->reason while threads may still be writing it. */
void bc_ctx_reason_copy(const struct bc_ctx *ctx, char *buf, size_t len);

/* --------------------------------------------------------- run result */

struct bc_iteration {
	unsigned int idx;		/* 0-based, warm-up included */
	bool warmup;
	double length_sec;		/* measured length of this interval */
	double drift_us;		/* how late the tick fired vs its deadline */
	double *values;			/* raw measure() output, per metric */
	double *rates;			/* counter: delta / length; gauge: value */
	double prod_user_sec, prod_sys_sec;	/* CPU time in this interval */
	double cons_user_sec, cons_sys_sec;
	/* Per metric (NULL when the benchmark has no histogram): what each
	 * histogram metric recorded in this interval (hist.h). */
	struct bc_hist_interval *hists;
};

struct bc_metric_summary {
	double mean, stddev, min, median, max;
	unsigned int n;
};

struct bc_run_result {
	const struct bc_bench *bench;
	struct bc_ctx *ctx;
	unsigned int producer_cnt, consumer_cnt;
	struct bc_iteration *iters;
	size_t iter_cnt;
	/* Computed by bc_stats_summarise() over non-warm-up iterations. */
	struct bc_metric_summary *summary;	/* per metric, on rates */
	struct bc_metric_summary prod_cpu_util;	/* CPU-seconds per second */
	struct bc_metric_summary cons_cpu_util;
	bool interrupted;
	int exit_status;
	char reason[BC_REASON_LEN];
	char **warnings;			/* suspect-number warnings */
	size_t warning_cnt;
	/* Split of the CPU utilisation above (CPU-seconds per second). */
	struct bc_metric_summary prod_user_util, prod_sys_util;
	struct bc_metric_summary cons_user_util, cons_sys_util;
	unsigned int ticks_late;		/* ticks that woke > 1 ms late */
	struct bc_ctx *owned_ctx;		/* made by bc_run(), freed with res */
	size_t iter_cap;			/* iters allocated (>= iter_cnt) */
	/* Every derived figure (figures.c), per iteration and summary. */
	struct bc_figures *figs;
	/* --bpf-stats: the programs' run counts and times (bpf_stats.h);
	 * NULL without it. */
	struct bc_bpf_stats *bpf;
	/* The runs of --repeat/--precision this result pools (repeat.h);
	 * NULL for a single run. */
	const struct bc_repeats *repeats;
};

/* Called by the runner after each tick, from the sampling thread. */
typedef void (*bc_iter_cb)(const struct bc_run_result *res, size_t iter_idx, void *cookie);

int bc_run(const struct bc_config *cfg, const struct bc_bench *bench,
	   struct bc_run_result *res, bc_iter_cb on_iter, void *cookie);
void bc_run_result_free(struct bc_run_result *res);

/* -------------------------------------------------------------- stats */

/* mean, sample stddev (n-1), min, median, max of xs[0..n-1]. */
void bc_stats_compute(const double *xs, size_t n, struct bc_metric_summary *out);
void bc_stats_summarise(struct bc_run_result *res);

/* ------------------------------------------------------------ reports */

/* One progress line set (the attach point line before iteration 0's);
 * the summary block ends with the Summary line(s), the extra lines before. */
void bc_report_text_iter(FILE *f, const struct bc_run_result *res, size_t iter_idx);
void bc_report_text_summary(FILE *f, const struct bc_run_result *res);
int bc_report_json(FILE *f, const struct bc_config *cfg, const struct bc_run_result *res);
/* res->warnings, one "benchcore: warning: ..." line each (f: stderr).
 * bc_report_text_summary() calls it; JSON mode callers call it themselves. */
void bc_report_warnings(FILE *f, const struct bc_run_result *res);

/* ------------------------------------------------------------ sysinfo */

/* What a reader of a result needs to judge it (the JSON context block). */
struct bc_sysinfo {
	char date[32];			/* ISO 8601 UTC */
	char host[256];
	char kernel[256];		/* uname release */
	char cpu_model[256];
	unsigned int cpu_count;		/* online CPUs */
	bool hypervisor;		/* /proc/cpuinfo "hypervisor" flag */
	char libbpf_version[32];
};

void bc_sysinfo_get(struct bc_sysinfo *si);
bool bc_sysinfo_hypervisor(void);
unsigned int bc_sysinfo_online_cpus(void);

/* ---------------------------------------------------------------- cli */

/* What every subcommand gets: the global options, and the plugins once a
 * command asked for them (bc_cli_load_plugins). */
struct bc_cli_env {
	const char *exe;		/* argv[0] of benchcore itself */
	const char **plugin_dirs;	/* every --plugin-dir, in order */
	size_t plugin_dir_cnt;
	bool allow_unsafe;		/* --allow-unsafe-plugins */
	int verbosity;			/* -1 quiet, 0 normal, 1+ verbose */
	bool plugins_loaded;
	int load_err;
	struct bc_plugin_set plugins;
};

/* A subcommand (cli.c's table): argv[0] is its name; returns an exit status. */
typedef int (*bc_cli_cmd_fn)(struct bc_cli_env *env, int argc, char **argv);

/* Loads the plugins on first use; 0, or a negative errno (already said). */
int bc_cli_load_plugins(struct bc_cli_env *env);
/* "benchcore 0.1.0 (plugin ABI 2.0, libbpf v1.1)" */
void bc_cli_print_version(FILE *f);
/* Runs one parsed benchmark: progress, report, reason line; returns the
 * exit status (enum bc_exit_status). */
int bc_cli_run(const struct bc_config *cfg, const struct bc_bench *bench);
/* The line on stderr that says why a run did not end well (nothing for a
 * run that did). */
void bc_cli_reason_line(const struct bc_bench *bench, const struct bc_run_result *res);

/* options.c: `run`'s command line. Returns 0 (cfg and bench filled),
 * BC_OPTIONS_DONE (--help/--version answered: exit 0) or an exit status. */
#define BC_OPTIONS_DONE (-1)
int bc_options_parse_run(struct bc_cli_env *env, int argc, char **argv, struct bc_config *cfg,
			 const struct bc_bench **bench);
void bc_options_free(struct bc_config *cfg);	/* cfg->opts */

/* The words of a `run` command line that may name the benchmark, found
 * before any plugin is known: the non-options, skipping the values of core
 * options (a plugin option's value cannot be told apart yet, so the first
 * word that resolves wins), and the -v/-q/--help it holds. */
#define BC_RUN_SCAN_MAX 64
struct bc_run_scan {
	const char *cands[BC_RUN_SCAN_MAX];
	size_t cand_cnt;
	int verbosity;
	bool help;		/* --help, --usage or --version: no benchmark needed */
};
void bc_run_scan(int argc, char **argv, struct bc_run_scan *scan);
/* Is this word a core `run` option whose value is the next word ("-d",
 * "--duration"; not "-d5" or "--duration=5")? */
bool bc_run_opt_takes_next(const char *word);
/* The core `run` option with this long name or one-letter short name. */
struct argp_option;
const struct argp_option *bc_run_core_option(const char *name);
/* Would a plugin option of this long name clash with the core's (run's
 * options, and the words sweeps and suites take out of a run line)? */
bool bc_run_is_core_option(const char *name);

/* Value checks shared by every command; each says what is wrong in one line
 * ("benchcore: --duration 'abc': expected ...") and returns -EINVAL. */
int bc_parse_seconds(const char *opt, const char *text, bool allow_zero, double *out);
int bc_parse_uint(const char *opt, const char *text, unsigned int min, unsigned int max,
		  const char *what, unsigned int *out);
int bc_parse_format(const char *opt, const char *text, enum bc_format *out);
/* The values of the core options among a run line's words (-w, -d, -p,
 * -c, the affinity sets), checked as `run` checks them: sweeps and suites
 * refuse a bad line before anything runs. 0, or -EINVAL with one line in
 * err. */
int bc_run_check_core_words(char *const *words, size_t cnt, char *err, size_t err_len);

/* --------------------------------------------------------------- log */

void bc_log_set_verbosity(int verbosity);	/* also routes libbpf's output */
int bc_log_verbosity_get(void);
void bc_log_set_file(FILE *f);			/* NULL = stderr; for tests */

/* ------------------------------------------------------------ attach.c */

#include <benchcore/attach.h>

/*
 * A check made before the kernel is asked about pt (tracefs for BC_ATTACH_TP):
 * returns 0, or a negative errno with a reason in `why`; the candidate is
 * then skipped with that reason.
 */
typedef int (*bc_attach_precheck_fn)(const struct bc_attach_point *pt, char *why, size_t why_len,
				     void *cookie);

/* bc_attach_first() with the kernel's answers injectable: try_fn and
 * precheck (may be NULL) are the only things that touch the kernel. */
int bc_attach_select(struct bc_ctx *ctx, const struct bc_attach_point *pts, size_t cnt,
		     bc_attach_try_fn try_fn, void *cookie,
		     bc_attach_precheck_fn precheck, void *precheck_cookie);
/* Does this error from load/attach mean "the kernel cannot do this", as
 * opposed to a failure that another attach point would not fix (ENOMEM)? */
bool bc_attach_is_refusal(int err);
/* strerror() that also names ENOTSUPP (524) and libbpf's own codes. */
const char *bc_attach_strerror(int err, char *buf, size_t len);
/* Where libbpf reads tracepoint ids (tracefs.c): debugfs's tracing when
 * debugfs is mounted, else /sys/kernel/tracing. */
const char *bc_tracefs_dir(void);


/* ------------------------------------- compare.c, sweep.c, suite.c */

/* Output formats of `run --sweep`, `suite` and `compare`. */
enum bc_table_format {
	BC_TABLE_TEXT = 0,
	BC_TABLE_JSON,
	BC_TABLE_CSV,
	BC_TABLE_MARKDOWN,
};

/* Accepts text, json, csv, markdown (or md). */
int bc_table_format_parse(const char *text, enum bc_table_format *fmt);

/* report_table.c: one CSV field, quoted when it holds a comma, quote or
 * line break (NULL: empty); Markdown cell text with '|' escaped and line
 * breaks as blanks (NULL: empty). */
void bc_csv_write(FILE *f, const char *s);
void bc_md_write(FILE *f, const char *s);

/* cli_util.c: "benchcore: <message>" on stderr; returns BC_EXIT_USAGE. */
int bc_cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A one-line reason into err[len] (nothing when err is NULL). */
void bc_set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The value of option `name` at argv[*i], from "--name=V" or the next word
 * (then *i moves past it; "" when there is none); NULL when argv[*i] is
 * another word. */
const char *bc_cli_opt_value(int argc, char **argv, int *i, const char *name);
/* After --help, --usage (bc_argp_help prints ARGP_HELP_* flags to stdout)
 * or --version: sets *done and ends parsing; returns 0 for the parser. */
struct argp_state;
int bc_argp_stop(struct argp_state *state, bool *done);
int bc_argp_help(struct argp_state *state, unsigned int flags, bool *done);

/* Significance of the difference between two sets of per-iteration samples
 * (significance.c). Fewer than BC_SIG_MIN_SAMPLES on either side: -EDOM. */
#define BC_SIG_MIN_SAMPLES 3

struct bc_sig_result {
	const char *test;	/* "welch" or "mann-whitney" */
	double statistic;	/* Welch: t of (b - a); Mann-Whitney: U of a */
	double df;		/* Welch-Satterthwaite degrees of freedom */
	double p;		/* two-sided */
	bool valid;
};

double bc_incbeta(double a, double b, double x);	/* regularized I_x(a, b) */
double bc_student_t_p2(double t, double df);		/* P(|T| >= |t|) */
int bc_welch_test(const double *a, size_t na, const double *b, size_t nb,
		  struct bc_sig_result *out);
int bc_mann_whitney_test(const double *a, size_t na, const double *b, size_t nb,
			 struct bc_sig_result *out);
/* Welch's test from each side's mean, standard deviation and count, for
 * documents that carry no per-iteration samples. */
int bc_welch_test_stats(double ma, double sa, unsigned int na, double mb, double sb,
			unsigned int nb, struct bc_sig_result *out);

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
int bc_sweep_option_arg(const struct bc_bench *bench, const char *name, const char *value,
			char **arg, char *err, size_t err_len);

/* A child run of the benchcore binary (child.c). */
struct bc_child_result {
	bool exited;		/* normal exit: exit_code is valid */
	int exit_code;
	int term_signal;	/* killed by this signal (0: none) */
	bool timed_out;
	bool interrupted;	/* the parent was asked to stop */
	double elapsed_sec;
	char *out;		/* captured stdout, NUL-terminated */
	size_t out_len;
	char *err;		/* captured stderr, NUL-terminated */
	size_t err_len;
};

/* Runs path with argv (NULL-terminated) in its own process group, stdin from
 * /dev/null, stdout and stderr captured. After timeout_sec (<= 0: none) the
 * group gets SIGTERM, and SIGKILL after a grace period. */
int bc_child_run(const char *path, char *const argv[], double timeout_sec,
		 struct bc_child_result *res);
void bc_child_result_free(struct bc_child_result *res);
/* Between these two, Ctrl-C or SIGTERM in the parent stops the running
 * child (SIGINT: report what it measured) and bc_child_stopped() turns
 * true, so a batch runs no further rows; then the old handlers return. */
void bc_child_catch_stop(void);
void bc_child_release_stop(void);
bool bc_child_stopped(void);

/* Reading a run document (run_doc.c; sweeps, suites and compare). */
struct bc_json;
/* "plugin:bench" of a run document; -ENOENT when it names none. */
int bc_run_doc_bench(const struct bc_json *doc, char *buf, size_t len);
const struct bc_json *bc_run_doc_config(const struct bc_json *doc);
/* Is this summary entry a counter's rate (events/s) rather than a gauge? */
bool bc_run_doc_metric_is_rate(const struct bc_json *doc, const char *name,
			       const struct bc_json *summary_entry);
/* The derived figures a run stored (summary.figures: name -> {unit, of,
 * value, stats}), NULL in a document from before they existed: readers
 * print these, they never derive a figure again. */
const struct bc_json *bc_run_doc_figures(const struct bc_json *doc);
/* The "metrics" entry of that name (kind, role, label), or NULL. */
const struct bc_json *bc_run_doc_metric(const struct bc_json *doc, const char *name);
/* Is this summary entry a histogram's (count, p50, ..., max)? */
bool bc_run_doc_is_hist(const struct bc_json *summary_entry);

/* A growable, NULL-terminated vector of strings it owns (words.c). */
struct bc_strv {
	char **v;
	size_t cnt, cap;
};

/* Takes str (NULL: -ENOMEM); frees it on failure. */
int bc_strv_push_owned(struct bc_strv *s, char *str);
int bc_strv_push(struct bc_strv *s, const char *str);	/* a copy */
void bc_strv_free(struct bc_strv *s);

/* Splits a suite line into words: blanks separate, '...' and "..." quote,
 * backslash escapes. Returns -EINVAL with a reason on unbalanced quotes. */
int bc_split_words(const char *line, char ***words, size_t *cnt, char *err, size_t err_len);
void bc_words_free(char **words, size_t cnt);

/* A parsed suite file (suite.c). */
enum bc_suite_item_kind {
	BC_SUITE_HEADER = 1,
	BC_SUITE_RUN,
};

struct bc_suite_item {
	enum bc_suite_item_kind kind;
	unsigned int line;	/* 1-based, for messages */
	char *text;		/* header text */
	char **args;		/* run: the words after "run" */
	size_t arg_cnt;
};

struct bc_suite {
	char *path;
	char *description;	/* the first comment line, if any */
	struct bc_suite_item *items;
	size_t item_cnt;
};

int bc_suite_parse(const char *path, FILE *f, struct bc_suite *suite, char *err, size_t err_len);
int bc_suite_load(const char *path, struct bc_suite *suite, char *err, size_t err_len);
void bc_suite_free(struct bc_suite *suite);
/* The directory the shipped suites are read from: $BENCHCORE_SUITE_PATH,
 * the source tree's suites/ when run from the build tree, or
 * <datadir>/benchcore/suites relative to the executable. */
int bc_suite_dir(char *buf, size_t len);

/* Subcommands (bc_cli_cmd_fn): argv[0] is the subcommand name ("run" for a
 * sweep); the global options in env (--plugin-dir ...) go to every child. */
struct bc_cli_env;
int bc_sweep_main(struct bc_cli_env *env, int argc, char **argv);
int bc_suite_main(struct bc_cli_env *env, int argc, char **argv);
int bc_compare_main(struct bc_cli_env *env, int argc, char **argv);
/* True when run arguments ask for a sweep (contain --sweep). */
bool bc_sweep_requested(int argc, char **argv);

/* A batch of child runs, one table row each, shared by sweep and suite
 * (batch.c). */
struct bc_batch;

struct bc_batch_opts {
	const char *kind;		/* "sweep" or "suite" */
	const char *name;		/* the benchmark or the suite */
	struct bc_cli_env *env;		/* global options, for every child;
					 * plugins loaded to type sweeps */
	char **extra_args;		/* appended to every run */
	size_t extra_cnt;
	double timeout_sec;		/* <= 0: warm-up + duration + margin */
	enum bc_table_format format;
	FILE *out;
	bool quiet;
	bool verbose;			/* relay each child's stderr */
};

struct bc_batch *bc_batch_new(const struct bc_batch_opts *opts);
/* Plans the rows of one run line (the words after "run"): takes out
 * --sweep SPEC and --label TEMPLATE and expands the combinations. Usage
 * errors: -EINVAL with a one-line reason. */
int bc_batch_add_run(struct bc_batch *b, const char *section, char **args, size_t arg_cnt,
		     char *err, size_t err_len);
/* Runs every planned row in turn, writing the table; returns the exit
 * status: 0 when every row ran or was unavailable, 1 when a row failed,
 * 3 when every row was unavailable, 130 when interrupted. */
int bc_batch_execute(struct bc_batch *b);
void bc_batch_free(struct bc_batch *b);
/* Where the benchmark name is among a run's words (PLUGIN:BENCH first,
 * else the first word that is neither an option nor a core option's
 * value); -1 when there is none. */
int bc_batch_find_bench(char *const *args, size_t cnt);
/* cli_util.c: the options `run --sweep` and `suite` share (--format,
 * --output, --run-timeout) into bo; -q/-v are noted but left to pass on.
 * Returns 1 when argv[*i] was one (its value taken), 0 when not, -EINVAL
 * after a usage message. */
int bc_batch_cli_opt(int argc, char **argv, int *i, struct bc_batch_opts *bo,
		     const char **output);
/* Did any row measure something (ok, or interrupted with a result)? Then
 * the batch's --output FILE is replaced (output.h). */
bool bc_batch_produced(const struct bc_batch *b);

#endif /* BENCHCORE_INTERNAL_H */
