// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Suites: `benchcore suite NAME | --suite-file PATH | --list`.
 *
 * A suite is the kernel's run_bench_*.sh scripts as data: a small text file
 * with one line per item,
 *
 *   # a comment; the first one describes the suite in `suite --list`
 *   header Single-producer, parallel producer
 *   run ringbuf:rb-libbpf -c1 --label rb-libbpf
 *   run ringbuf:rb-custom -c1 --sweep rb-sample-rate=1,5,10 --label 'rb-sampled-{rb-sample-rate}'
 *
 * so users write their own without shell loops and sed. Every run goes
 * through the sweep batch (one child process per row), so a benchmark that
 * is unavailable here, or crashes, is one row that says why.
 */
#include <dirent.h>
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite.h"
#include "cli_env.h"
#include "runtime/core_opts.h"
#include "runtime/log.h"
#include "results/report_table.h"
#include "cli_args.h"
#include "sweep_axis.h"
#include "results/words.h"
#include "batch.h"
#include "runtime/exit_status.h"
#include "results/row.h"
#include "runtime/json.h"
#include "runtime/output.h"

#ifndef BENCHCORE_BINDIR
#define BENCHCORE_BINDIR "bin"
#endif
#ifndef BENCHCORE_DATADIR
#define BENCHCORE_DATADIR "share"
#endif

#define BC_SUITE_EXT ".suite"
/* The shipped suites are a few KiB; a larger file is a wrong file (or
 * /dev/zero), not a suite, and reading it would be unbounded. */
#define BC_SUITE_MAX_BYTES (1u << 20)

/* ------------------------------------------------------------- parsing */

static char *bc_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

static int bc_suite_add(struct bc_suite *s, struct bc_suite_item *item)
{
	struct bc_suite_item *items = realloc(s->items, (s->item_cnt + 1) * sizeof(*items));

	if (!items)
		return -ENOMEM;
	s->items = items;
	s->items[s->item_cnt++] = *item;
	return 0;
}

#define BC_SUITE_TOO_BIG (-2)
#define BC_SUITE_NOMEM (-3)

/* getline() that reads at most max bytes: BC_SUITE_TOO_BIG past them, -1 at
 * the end of the file. */
static ssize_t bc_suite_getline(char **line, size_t *cap, FILE *f, size_t max)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF) {
		if (n >= max)
			return BC_SUITE_TOO_BIG;
		if (n + 2 > *cap) {
			size_t ncap = *cap ? *cap * 2 : 256;
			char *nl = realloc(*line, ncap);

			if (!nl)
				return BC_SUITE_NOMEM;
			*line = nl;
			*cap = ncap;
		}
		(*line)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (!n)
		return -1;
	(*line)[n] = '\0';
	return (ssize_t)n;
}

int bc_suite_parse(const char *path, FILE *f, struct bc_suite *suite, char *err, size_t err_len)
{
	char *line = NULL;
	size_t cap = 0, total = 0;
	unsigned int lineno = 0;
	ssize_t got;
	int ret = 0;

	memset(suite, 0, sizeof(*suite));
	suite->path = strdup(path);
	if (!suite->path)
		return -ENOMEM;
	/* getline() has no bound of its own: cap the file, not the line. */
	while (!ret && (got = bc_suite_getline(&line, &cap, f, BC_SUITE_MAX_BYTES - total)) != -1) {
		struct bc_suite_item item = { .line = ++lineno };
		char *s, *rest;
		size_t kw_len;

		if (got == BC_SUITE_TOO_BIG) {
			bc_set_err(err, err_len, "%s: larger than %u KiB; expected a suite file",
				   path, BC_SUITE_MAX_BYTES >> 10);
			ret = -EFBIG;
			break;
		}
		if (got == BC_SUITE_NOMEM) {
			ret = -ENOMEM;
			break;
		}
		total += (size_t)got;
		if (memchr(line, '\0', (size_t)got)) {
			bc_set_err(err, err_len, "%s:%u: a zero byte in the line; expected text",
				   path, lineno);
			ret = -EINVAL;
			break;
		}
		s = bc_trim(line);

		if (*s == '#') {
			if (!suite->description && !suite->item_cnt && *bc_trim(s + 1))
				suite->description = strdup(bc_trim(s + 1));
			continue;
		}
		if (!*s)
			continue;
		kw_len = strcspn(s, " \t");
		rest = bc_trim(s + kw_len);
		if (kw_len == 6 && !strncmp(s, "header", 6)) {
			if (!*rest) {
				bc_set_err(err, err_len, "%s:%u: 'header' needs a title", path, lineno);
				ret = -EINVAL;
				break;
			}
			item.kind = BC_SUITE_HEADER;
			item.text = strdup(rest);
			ret = item.text ? bc_suite_add(suite, &item) : -ENOMEM;
			if (ret)
				free(item.text);
		} else if (kw_len == 3 && !strncmp(s, "run", 3)) {
			char why[128] = "";

			item.kind = BC_SUITE_RUN;
			ret = bc_split_words(rest, &item.args, &item.arg_cnt, why, sizeof(why));
			if (ret == -EINVAL)
				bc_set_err(err, err_len, "%s:%u: %s", path, lineno, why);
			if (!ret && !item.arg_cnt) {
				bc_set_err(err, err_len, "%s:%u: 'run' needs a benchmark: run PLUGIN:BENCH [options]",
					path, lineno);
				ret = -EINVAL;
			}
			if (!ret)
				ret = bc_suite_add(suite, &item);
			if (ret)
				bc_words_free(item.args, item.arg_cnt);
		} else {
			s[kw_len] = '\0';
			bc_set_err(err, err_len,
				"%s:%u: unknown line '%s'; expected 'header TITLE', 'run PLUGIN:BENCH [options]' or '# comment'",
				path, lineno, s);
			ret = -EINVAL;
		}
	}
	free(line);
	if (!ret && !suite->item_cnt) {
		bc_set_err(err, err_len, "%s: the suite has no 'run' lines", path);
		ret = -EINVAL;
	}
	if (ret)
		bc_suite_free(suite);
	return ret;
}

int bc_suite_load(const char *path, struct bc_suite *suite, char *err, size_t err_len)
{
	FILE *f = fopen(path, "re");
	struct stat st;
	int ret;

	if (!f) {
		ret = -errno;
		bc_set_err(err, err_len, "suite file '%s': %s", path, strerror(errno));
		return ret;
	}
	/* A directory reads as an empty file; a FIFO or device may never end. */
	if (fstat(fileno(f), &st)) {
		ret = -errno;
		bc_set_err(err, err_len, "suite file '%s': %s", path, strerror(errno));
		fclose(f);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		bc_set_err(err, err_len, "suite file '%s': %s; expected a regular file", path,
			   S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		fclose(f);
		return -EINVAL;
	}
	ret = bc_suite_parse(path, f, suite, err, err_len);
	fclose(f);
	return ret;
}

void bc_suite_free(struct bc_suite *suite)
{
	for (size_t i = 0; i < suite->item_cnt; i++) {
		free(suite->items[i].text);
		bc_words_free(suite->items[i].args, suite->items[i].arg_cnt);
	}
	free(suite->items);
	free(suite->path);
	free(suite->description);
	memset(suite, 0, sizeof(*suite));
}

/* ------------------------------------------------------------ location */

static bool bc_is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int bc_suite_dir(char *buf, size_t len)
{
	const char *env = getenv("BENCHCORE_SUITE_PATH");
	char prefix[PATH_MAX];

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return 0;
	}
	if (bc_exe_prefix(prefix, sizeof(prefix))) {
		snprintf(buf, len, "%s/%s/benchcore/suites", prefix, BENCHCORE_DATADIR);
		if (bc_is_dir(buf))
			return 0;
	}
#ifdef BENCHCORE_SOURCE_DIR
	/* Run from the build tree: the suites are the source tree's. */
	snprintf(buf, len, "%s/suites", BENCHCORE_SOURCE_DIR);
	if (bc_is_dir(buf))
		return 0;
#endif
	buf[0] = '\0';
	return -ENOENT;
}

/* ------------------------------------------------------------- commands */

static int bc_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void bc_csv_field(FILE *f, const char *s, char end)
{
	bc_csv_write(f, s);
	fputc(end, f);
}

static int bc_suite_list(const char *dir, enum bc_format fmt, FILE *out)
{
	char **names = NULL;
	size_t cnt = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "benchcore: suite directory '%s': %s\n", dir, strerror(errno));
		return BC_EXIT_FAILED;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), elen = strlen(BC_SUITE_EXT);
		char **grown;

		if (len <= elen || strcmp(de->d_name + len - elen, BC_SUITE_EXT))
			continue;
		grown = realloc(names, (cnt + 1) * sizeof(*names));
		if (!grown)
			break;
		names = grown;
		names[cnt] = strndup(de->d_name, len - elen);
		if (names[cnt])
			cnt++;
	}
	closedir(d);
	qsort(names, cnt, sizeof(*names), bc_name_cmp);

	if (fmt == BC_FORMAT_JSON)
		fputs("{\n  \"suites\": [", out);
	else if (fmt == BC_FORMAT_CSV)
		fputs("name,description,path\n", out);
	else if (fmt == BC_FORMAT_MARKDOWN)
		fputs("| suite | description |\n| --- | --- |\n", out);
	for (size_t i = 0; i < cnt; i++) {
		char path[PATH_MAX + 300], err[256];
		struct bc_suite s;
		const char *desc = "";

		snprintf(path, sizeof(path), "%s/%s%s", dir, names[i], BC_SUITE_EXT);
		if (bc_suite_load(path, &s, err, sizeof(err)))
			memset(&s, 0, sizeof(s));
		else if (s.description)
			desc = s.description;
		switch (fmt) {
		case BC_FORMAT_TEXT:
			fprintf(out, "%-20s %s\n", names[i], s.path ? desc : err);
			break;
		case BC_FORMAT_MARKDOWN:
			fprintf(out, "| %s | %s |\n", names[i], s.path ? desc : err);
			break;
		case BC_FORMAT_CSV:
			bc_csv_field(out, names[i], ',');
			bc_csv_field(out, s.path ? desc : err, ',');
			bc_csv_field(out, path, '\n');
			break;
		case BC_FORMAT_JSON:
			/* a user's suite directory may hold any name */
			fprintf(out, "%s\n    {\"name\": ", i ? "," : "");
			bc_json_write_string(out, names[i]);
			fputs(", \"description\": ", out);
			bc_json_write_string(out, s.path ? desc : "");
			fputs(", \"path\": ", out);
			bc_json_write_string(out, path);
			fputs("}", out);
			break;
		}
		bc_suite_free(&s);
		free(names[i]);
	}
	if (fmt == BC_FORMAT_JSON)
		fputs("\n  ]\n}\n", out);
	free(names);
	return BC_EXIT_OK;
}

static void bc_suite_help(FILE *f)
{
	fputs("Usage: benchcore [--plugin-dir DIR]... suite NAME [options] [run options]\n"
	      "       benchcore suite --suite-file PATH [options] [run options]\n"
	      "       benchcore suite --list\n\n"
	      "Runs every line of a suite, each in its own child process, and prints one row\n"
	      "per run. Run options (e.g. -w1 -d3) are added to every run of the suite.\n\n"
	      "  --list                 the shipped suites\n"
	      "  --suite-file PATH      run the suite in PATH\n"
	      "  --format FMT           text (default), json, csv or markdown\n"
	      "  --output FILE          write the table or document to FILE\n"
	      "  --run-timeout SEC      kill a run after SEC (default: warm-up + duration + 20)\n"
	      "  --save                 keep every run that ended well in the result store\n"
	      "  --store PATH           the store (default: docs/history.md)\n"
	      "  -q, --quiet            no progress lines\n"
	      "  -v, --verbose          relay every run's own output to stderr\n",
	      f);
}

int bc_suite_main(struct bc_cli_env *env, int argc, char **argv)
{
	const char *name = NULL, *file = NULL, *output = NULL, *v;
	struct bc_batch_opts bo = { .kind = "suite", .format = BC_FORMAT_TEXT };
	char dir[PATH_MAX], path[PATH_MAX + 300], err[512] = "";
	char **extra = calloc((size_t)argc + 1, sizeof(*extra));
	char **sweeps = calloc((size_t)argc + 1, sizeof(*sweeps));
	size_t extra_cnt = 0, sweep_cnt = 0;
	char **line = NULL;
	struct bc_suite suite = {};
	struct bc_batch *batch = NULL;
	const char *section = NULL;
	bool list = false, produced = false;
	struct bc_out out;
	int ret = BC_EXIT_OK, taken;

	bc_out_open(&out, "--output", NULL);
	if (!extra || !sweeps) {
		free(extra);
		free(sweeps);
		return BC_EXIT_FAILED;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--list")) {
			list = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			bc_suite_help(bc_stdout());
			goto out;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--suite-file"))) {
			file = v;
		} else if ((taken = bc_batch_cli_opt(argc, argv, &i, &bo, &output))) {
			if (taken < 0) {
				ret = BC_EXIT_USAGE;
				goto out;
			}
		} else if (a[0] != '-' && !name && !file && !extra_cnt) {
			name = a;
		} else if (!strcmp(a, "--sweep") || !strncmp(a, "--sweep=", 8)) {
			/* Swept on every line: planned (and checked) with it. */
			sweeps[sweep_cnt++] = argv[i];
			if (!a[7] && i + 1 < argc)
				sweeps[sweep_cnt++] = argv[++i];
		} else if (!strcmp(a, "--label") || !strncmp(a, "--label=", 8)) {
			ret = bc_cli_usage_error("suite: --label names the rows of one line; write it on the suite's run lines");
			goto out;
		} else {
			extra[extra_cnt++] = argv[i];
		}
	}
	/* Added to every run: a bad value is one line now, not a failed row
	 * per line. */
	if (bc_run_check_core_words(extra, extra_cnt, err, sizeof(err))) {
		ret = bc_cli_usage_error("suite: %s", err);
		goto out;
	}
	for (size_t i = 0; i < sweep_cnt; i++) {
		const char *spec = !strcmp(sweeps[i], "--sweep") ? (i + 1 < sweep_cnt ? sweeps[++i] : "")
								 : sweeps[i] + 8;
		struct bc_sweep_axis ax;

		if (bc_sweep_axis_parse(spec, &ax, err, sizeof(err))) {
			ret = bc_cli_usage_error("suite: %s", err[0] ? err : "out of memory");
			goto out;
		}
		bc_sweep_axis_free(&ax);
	}
	ret = bc_out_open(&out, "--output", output);
	if (ret)
		goto out;
	if (file && !*file) {
		ret = bc_cli_usage_error("--suite-file: expected a file name");
		goto out;
	}
	if (list || (!name && !file)) {
		if (bc_suite_dir(dir, sizeof(dir))) {
			fprintf(stderr, "benchcore: no suite directory found; set BENCHCORE_SUITE_PATH or use --suite-file PATH\n");
			ret = list ? BC_EXIT_FAILED : BC_EXIT_USAGE;
			goto out;
		}
		if (!list) {
			ret = bc_cli_usage_error("suite: expected a suite NAME, --suite-file PATH or --list");
			goto out;
		}
		ret = bc_suite_list(dir, bo.format, out.f);
		produced = ret == BC_EXIT_OK;
		goto out;
	}
	if (name && file) {
		ret = bc_cli_usage_error("suite: give a suite NAME or --suite-file PATH, not both");
		goto out;
	}
	if (name) {
		if (strchr(name, '/')) {
			ret = bc_cli_usage_error("suite '%s': a suite name has no '/'; use --suite-file PATH for a file", name);
			goto out;
		}
		if (bc_suite_dir(dir, sizeof(dir))) {
			ret = bc_cli_usage_error("suite '%s': no suite directory found; set BENCHCORE_SUITE_PATH or use --suite-file PATH",
				    name);
			goto out;
		}
		snprintf(path, sizeof(path), "%s/%s%s", dir, name, BC_SUITE_EXT);
		if (access(path, R_OK)) {
			ret = bc_cli_usage_error("suite '%s': no such suite in %s; `benchcore suite --list` shows them",
				    name, dir);
			goto out;
		}
		file = path;
	}
	ret = bc_batch_check_files(&bo, output, file);
	if (ret)
		goto out;
	if (bc_suite_load(file, &suite, err, sizeof(err))) {
		ret = bc_cli_usage_error("%s", err);
		goto out;
	}

	bo.name = name ? name : file;
	bo.env = env;
	bo.extra_args = extra;
	bo.extra_cnt = extra_cnt;
	bo.out = out.f;
	batch = bc_batch_new(&bo);
	if (!batch) {
		fprintf(stderr, "benchcore: cannot find the benchcore executable to run the suite\n");
		ret = BC_EXIT_FAILED;
		goto out;
	}
	/* Plan every row first: a typo on the last line costs nothing. */
	for (size_t i = 0; i < suite.item_cnt; i++) {
		const struct bc_suite_item *it = &suite.items[i];

		if (it->kind == BC_SUITE_HEADER) {
			section = it->text;
			continue;
		}
		free(line);
		line = calloc(it->arg_cnt + sweep_cnt + 1, sizeof(*line));
		if (!line) {
			ret = bc_cli_usage_error("suite: out of memory");
			goto out;
		}
		memcpy(line, it->args, it->arg_cnt * sizeof(*line));
		memcpy(line + it->arg_cnt, sweeps, sweep_cnt * sizeof(*line));
		if (bc_batch_add_run(batch, section, line, it->arg_cnt + sweep_cnt, err, sizeof(err))) {
			ret = bc_cli_usage_error("%s:%u: %s", suite.path, it->line, err);
			goto out;
		}
	}
	ret = bc_batch_execute(batch);
	if (ret < 0) {
		fprintf(stderr, "benchcore: suite: %s\n", strerror(-ret));
		ret = BC_EXIT_FAILED;
	}
	produced = bc_batch_produced(batch);
out:
	ret = bc_out_close(&out, produced, ret);
	bc_batch_free(batch);
	bc_suite_free(&suite);
	free(extra);
	free(sweeps);
	free(line);
	return ret;
}
