/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The run-document model (run_doc.c): a run, sweep, suite, `run --repeat`
 * or compare document read once into the typed structures below. It is
 * the one reader of the documents' keys (runtime/doc_keys.h lists them);
 * compare, plot, the sweep and suite tables, the store's index, history
 * and the report read these structures, never the JSON.
 *
 * Every version of the document benchcore has written reads
 * (tests/results/fixtures holds one of each): a member a version did not
 * write is absent here (NULL, NaN, false), never guessed, except the
 * headline and a figure's direction, which follow the rules below.
 */
#ifndef BENCHCORE_RUN_DOC_H
#define BENCHCORE_RUN_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime/figures.h"

struct bc_json;

/* Larger than any document benchcore writes (a suite of a hundred runs is
 * a few MiB): a device or a wrong file, not a result. */
#define BC_DOC_MAX_BYTES (64u << 20)

/* A statistics object: NaN where a member is absent, null or no number. */
struct bc_doc_stats {
	double mean, stddev, min, median, max, n;
};

/* One percentile of a histogram ("p99.9": 99.9). */
struct bc_doc_pct {
	const char *key;
	double pct, value;
};

/* A histogram's summary: count, the percentiles it has, max. */
struct bc_doc_hist {
	double count, max, p50, p90, p99, p999;
	struct bc_doc_pct *pcts;	/* every finite "pNN", in the document's order */
	size_t pct_cnt;
};

/* A metric's or figure's statistics over run --repeat's complete runs. */
struct bc_doc_agg {
	bool has;
	double n, mean, stddev, cv_pct, ci95_half, ci95_pct;
};

/* A "metrics" entry: what the benchmark declared. */
struct bc_doc_decl {
	const char *name, *unit, *kind, *role, *label, *per;
	const char *direction;		/* "higher", "lower" or NULL */
};

/*
 * A metric (a summary entry) or a derived figure (summary.figures). A
 * metric a document declares but does not summarise has none.
 */
struct bc_doc_metric {
	const char *name;
	bool figure;
	const char *unit;		/* as the summary states it ("ops/s") */
	const char *kind;		/* metric: its kind; figure: the figure's kind */
	const struct bc_doc_decl *decl;	/* the metric's "metrics" entry, or NULL */
	const char *of;			/* figure: the metric it derives from */
	bool rate;			/* events per second: a counter's, or a unit in "/s" */
	bool hist;			/* a histogram: no mean, percentiles */
	/* Has a figure to judge: a metric's summary entry has "mean", or a
	 * derived figure. */
	bool judged;
	enum bc_direction direction;
	/* The figure judged and charted: a metric's mean, a figure's value. */
	double mean;
	/* A metric's summary entry; a figure's statistics over its intervals. */
	struct bc_doc_stats stats;
	/* The error bar a chart draws: the run's 95% interval where it has
	 * one, else mean ± stddev (ci false); has_bar false: neither. */
	bool has_bar, bar_is_ci;
	double bar_lo, bar_hi;
	struct bc_doc_hist h;
	/* The measured (not warm-up) iterations' values. */
	double *samples;
	size_t sample_cnt;
	/* run --repeat: each complete run's mean; NULL without repeats. */
	double *runs;
	size_t run_cnt;
	struct bc_doc_agg agg;
};

/* The machine and versions a run was measured with. */
struct bc_doc_context {
	bool present;
	const char *date, *host, *kernel_release, *kernel_version, *cpu_model;
	const char *libbpf_version, *benchcore_version;
	double cpu_count;		/* NaN: not given */
	int hypervisor;			/* 1, 0, or -1: not given */
	/* The kernel's facts (since `benchcore vm`): NULL / NaN when the
	 * document has none. accelerator: "tcg" or "kvm" in benchcore's own
	 * guests; NULL for a run outside them (results/accel.h judges it). */
	const char *accelerator;
	double memory_bytes;
	const char *clocksource, *preemption, *cmdline;
	const char *config_source, *config_hash;
	const char **debug_options;	/* the skewing debug options that were on */
	size_t debug_option_cnt;
};

struct bc_doc_run {
	const struct bc_json *raw;	/* the run's object */
	char *bench;			/* "plugin:bench", NULL when it names none */
	/* The canonical configuration line: the core options that are
	 * configuration (core_opts.c's table) in the document's order, then
	 * the plugin's options sorted by name ("producers=1 consumers=0
	 * rb-size=524288"); the same line for the same configuration however
	 * long or often it ran. */
	char *config;
	const char *benchmark;		/* the bare "benchmark" string */
	const char *plugin_version, *attach_point, *run_id, *label;
	const char *benchcore_version;	/* top level, else the context's */
	struct bc_doc_context ctx;
	double producers;		/* NaN: not given */
	bool has_summary;		/* "summary" is an object */
	struct bc_doc_decl *decls;	/* "metrics", in order */
	size_t decl_cnt;
	bool roles;			/* a declaration carries a role */
	/* The summary's entries in order, then the derived figures. */
	struct bc_doc_metric *metrics;
	size_t metric_cnt;
	const char *headline_key;	/* the document's "headline", if it says */
	/* run --repeat */
	bool repeated;			/* repeats.runs has runs */
	bool has_repeats;
	const char *watched;		/* the metric --precision watched */
	struct bc_doc_agg watched_agg;	/* its repeats.aggregate entry */
	double runs_complete;		/* NaN: not given */
	/* status */
	int exit_status;
	bool interrupted;
	const char *reason;
	const char **warnings;		/* what the run said was suspect */
	size_t warning_cnt;
	size_t iteration_cnt;
	/* --bpf-stats: the share of the producers' time in BPF */
	bool has_bpf_stats;
	double bpf_time_pct, bpf_cpu_pct;
	/* what read_run allocated, freed with the run */
	void **owned;
	size_t owned_cnt, owned_cap;
	struct bc_json *json;		/* the tree, when the run was read alone */
};

/* An option of a sweep's or suite's row, as text: a string as is, a
 * number as %.15g, a flag as on or off; NULL for another value. */
struct bc_doc_opt {
	const char *name;
	const char *text;
};

/* One row of a sweep or suite. */
struct bc_doc_row {
	const char *section, *label, *benchmark, *status, *reason;
	double exit_status, elapsed_sec, timeout_sec;	/* NaN: not given */
	bool has_options;
	struct bc_doc_opt *opts;
	size_t opt_cnt;
	const char **args;		/* the run's words after "run" */
	size_t arg_cnt;
	struct bc_doc_run *run;		/* NULL: the row produced none */
};

/* One entry of a compare document's "comparisons". */
struct bc_doc_cmp {
	const char *bench, *config, *label, *metric, *unit;
	double base_mean, new_mean, change_pct, p_value;	/* NaN: none */
};

enum bc_doc_kind {
	BC_DOC_NONE = 0,	/* JSON of another shape */
	BC_DOC_RUN,		/* run, run --repeat */
	BC_DOC_BATCH,		/* run --sweep, suite */
	BC_DOC_COMPARE,
	BC_DOC_LIST,		/* an array of documents (store export) */
};

struct bc_doc {
	enum bc_doc_kind kind;
	struct bc_json *json;		/* the tree, owned */
	struct bc_doc_run *run;		/* RUN */
	/* BATCH */
	bool suite;			/* "kind": "suite" (else a sweep) */
	const char *name;
	const char **sweep;		/* run --sweep's specifications, as given */
	size_t sweep_cnt;
	struct bc_doc_row *rows;
	size_t row_cnt;
	/* COMPARE */
	const char *base, *new, *test;
	double alpha;			/* NaN: not given */
	struct bc_doc_cmp *cmps;
	size_t cmp_cnt;
	/* LIST */
	struct bc_doc *items;
	size_t item_cnt;
	void **owned;
	size_t owned_cnt, owned_cap;
};

/*
 * Reads a parsed document (taking json, freed with the doc even on error).
 * A run anywhere in it that has a field of the wrong type fails: -EBADMSG
 * and one line in err naming the field ("runs[3].result.summary.hits.mean:
 * expected a finite number"); -ENOMEM. JSON of another shape is no error:
 * its kind is BC_DOC_NONE.
 */
int bc_doc_from_json(struct bc_json *json, struct bc_doc *doc, char *err, size_t err_len);
/* The same from text; an error of the parser is -EINVAL, its line in err. */
int bc_doc_parse(const char *text, size_t len, struct bc_doc *doc, char *err, size_t err_len);
/*
 * Reads the file at path as a run, sweep or suite document, compare's way:
 * -EINVAL with "PATH: offset 6: ..." for text that is no JSON, "not a
 * benchcore result: PATH: larger than 64 MiB", "not a benchcore result:
 * PATH: FIELD: expected ..." (-EBADMSG), or "'PATH': not a benchcore
 * result (expected a run, sweep or suite JSON document)" for another shape.
 */
int bc_doc_load_results(const char *path, struct bc_doc *doc, char *err, size_t err_len);
void bc_doc_free(struct bc_doc *doc);

/*
 * One run document alone (a child's output, a store entry): NULL with one
 * line in err and errno (EINVAL: not JSON; ENOMSG: JSON but no object;
 * EBADMSG: a field of the wrong type; ENOMEM). An object without a summary
 * reads (has_summary false): what a reader requires, it checks.
 */
struct bc_doc_run *bc_doc_run_parse(const char *text, size_t len, char *err, size_t err_len);
void bc_doc_run_free(struct bc_doc_run *run);

/*
 * The headline: the figure a run is judged by when no one names another.
 * The document's "headline" when it names one; else (documents before it,
 * and a "headline" of null) figures.c's rule: the first HITS metric that is
 * not a histogram, else the first OPS one; else (no such role, or a
 * document from before roles) the first summary entry with a mean. NULL
 * when there is none. The one copy of the rule.
 */
const char *bc_doc_headline(const struct bc_doc_run *run);
/* The metric or figure of that name that has a figure to judge (a metric
 * before a figure of the same name), or NULL. */
const struct bc_doc_metric *bc_doc_find(const struct bc_doc_run *run, const char *name);
/* "hits, drops, per_producer": the names bc_doc_find() knows, each once. */
void bc_doc_names(const struct bc_doc_run *run, char *buf, size_t len);
/* Adds the names of run to buf ("a, b"), those already in it not again. */
void bc_doc_names_add(const struct bc_doc_run *run, char *buf, size_t len);
/* Did the run measure something (a metric with a sample)? */
bool bc_doc_run_measured(const struct bc_doc_run *run);

#endif /* BENCHCORE_RUN_DOC_H */
