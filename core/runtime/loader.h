/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Finding and loading plugins (plugin_path.c, loader.c): each file is
 * checked in a child process first, then dlopen()ed, and its descriptors
 * are copied into the core's own layout.
 */
#ifndef BENCHCORE_LOADER_H
#define BENCHCORE_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

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
	struct bc_skel skel;		/* normalised copy of *desc.skel (2.3) */
	const struct bc_plugin *plugin;
};

/* The normalised `attach` of a benchmark with a skeleton: a marker (the
 * ladder runs the core's skeleton path for it), never called. */
struct bc_ctx;
int bc_bench_core_attach(struct bc_ctx *ctx, const struct bc_attach_point *pt);

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
	char *prefixed;			/* the options' names with option_prefix (2.3) */
	struct bc_bench *benches;
	size_t bench_cnt;
};

/*
 * A check of a loaded plugin made by a layer above the loader (the option
 * tables, plugin_opts.h): 0, or a negative errno with one line in err.
 */
typedef int (*bc_plugin_check_fn)(const struct bc_plugin *p, char *err, size_t err_len);

/* A file the loader refused: its name stays taken for later directories. */
struct bc_refused_plugin {
	char *name;			/* the file's stem */
	char *path;
	char *why;			/* the refusal's line */
	size_t dir;			/* the search directory it was in */
};

struct bc_plugin_set {
	struct bc_plugin *plugins;
	size_t cnt;
	size_t failed_cnt;		/* files refused (each said in one line) */
	bc_plugin_check_fn check;	/* refuses a plugin as the loader's own checks do */
	int no_fds;			/* files refused for lack of descriptors */
	struct bc_refused_plugin *refused;
	size_t refused_cnt;
	size_t dir_idx;			/* the search directory being loaded, from 1 */
};

struct bc_loader_opts {
	const char *const *dirs;	/* every --plugin-dir, in order */
	size_t dir_cnt;
	bool allow_unsafe;		/* --allow-unsafe-plugins */
	/* Search only `dirs`: no BENCHCORE_PLUGIN_PATH and no directories
	 * relative to the executable (tests want a closed world). */
	bool only_dirs;
	bc_plugin_check_fn check;	/* may be NULL */
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

/* The metric the roles make the headline, by index: the first HITS metric,
 * else the first OPS one (histograms aside); -1 when there is none. The
 * runner's line sets hang on it; a benchmark's result is it unless the
 * benchmark declares another (figures.h, bc_bench_judged()). */
int bc_bench_role_headline(const struct bc_bench *b);

/* Every non-histogram metric names its BPF source: measure() may be NULL. */
bool bc_bench_measured_by_core(const struct bc_bench *b);

/*
 * Finds "PLUGIN:BENCH", or a bare "BENCH" when exactly one plugin has it.
 * Returns 0, -ENOENT (unknown) or -ENOTUNIQ (ambiguous: err lists the
 * candidates); err gets one line without the "benchcore: " prefix.
 */
int bc_bench_resolve(const struct bc_plugin_set *set, const char *name,
		     const struct bc_bench **bench, char *err, size_t err_len);

#endif /* BENCHCORE_LOADER_H */
