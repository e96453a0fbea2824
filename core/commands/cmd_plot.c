// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore plot RESULT.json [-o FILE.svg]`: the command. It reads one
 * result document, lets plot_read.c turn it into a chart and plot_draw.c
 * write the chart, into RESULT.svg beside the input unless -o says where
 * (`-o -`: standard output). The file is replaced only by a complete
 * picture (output.h), like every report benchcore writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_env.h"
#include "cli_args.h"
#include "runtime/exit_status.h"
#include "runtime/json.h"
#include "results/json_read.h"
#include "runtime/output.h"
#include "cmd_plot.h"
#include "results/plot.h"
#include "results/run_doc.h"

/* As compare: larger than any document benchcore writes. */
#define BC_PLOT_MAX_BYTES (64u << 20)

static void bc_plot_help(FILE *f)
{
	fputs("Usage: benchcore plot RESULT.json [-o FILE.svg] [options]\n\n"
	      "Draws a result document (written with --format json) as an SVG picture:\n"
	      "  a sweep or suite   the headline metric against the swept value, one line per\n"
	      "                     value of the other swept options, error bars\n"
	      "  compare            base and new bars per metric, the change and its p value\n"
	      "  a run              its histograms' percentile curves (latency)\n\n"
	      "  -o, --output FILE  write the SVG to FILE (default: RESULT.svg beside the\n"
	      "                     input, .json replaced); '-' for standard output\n"
	      "  --chart KIND       auto (default), headline, latency or compare; latency\n"
	      "                     draws every run of a sweep or suite as a percentile curve\n"
	      "  --x OPTION         the swept option on the x axis (default: the numeric\n"
	      "                     option with the most values)\n"
	      "  --metric NAME      the headline chart's metric or derived figure\n"
	      "                     (default: each run's headline)\n"
	      "  -q, --quiet        do not say where the picture was written\n",
	      f);
}

static int bc_parse_chart(const char *v, enum bc_plot_chart *out)
{
	static const struct {
		const char *name;
		enum bc_plot_chart chart;
	} kinds[] = {
		{ "auto", BC_PLOT_AUTO },
		{ "headline", BC_PLOT_HEADLINE },
		{ "latency", BC_PLOT_LATENCY },
		{ "compare", BC_PLOT_COMPARE },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(v, kinds[i].name)) {
			*out = kinds[i].chart;
			return 0;
		}
	return -EINVAL;
}

/* RESULT.json -> RESULT.svg; any other name gets .svg appended, so the
 * default never names the input itself. */
static char *bc_default_output(const char *in)
{
	size_t len = strlen(in);
	char *out;

	if (len > 5 && !strcmp(in + len - 5, ".json")) {
		if (asprintf(&out, "%.*s.svg", (int)(len - 5), in) < 0)
			return NULL;
	} else if (asprintf(&out, "%s.svg", in) < 0) {
		return NULL;
	}
	return out;
}

/* The JSON, or NULL after one line naming the file and what is wrong. */
static struct bc_json *bc_load(const char *path)
{
	char why[512] = "";
	struct bc_json *doc;
	struct stat st;
	size_t plen = strlen(path);

	if (stat(path, &st)) {
		bc_cli_usage_error("plot: '%s': %s; %s", path, strerror(errno), BC_PLOT_EXPECTED);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		bc_cli_usage_error("plot: '%s': is a directory; %s", path, BC_PLOT_EXPECTED);
		return NULL;
	}
	doc = bc_json_parse_file_max(path, BC_PLOT_MAX_BYTES, why, sizeof(why));
	if (doc)
		return doc;
	if (errno == EFBIG)
		bc_cli_usage_error("plot: '%s': larger than %u MiB; %s", path, BC_PLOT_MAX_BYTES >> 20,
				   BC_PLOT_EXPECTED);
	else if (errno == EINVAL)
		/* the parser's "PATH: offset 17: ..." without the path */
		bc_cli_usage_error("plot: '%s': not JSON (%s); %s", path,
				   !strncmp(why, path, plen) && !strncmp(why + plen, ": ", 2)
					   ? why + plen + 2 : why,
				   BC_PLOT_EXPECTED);
	else
		bc_cli_usage_error("plot: '%s': %s; %s", path, strerror(errno), BC_PLOT_EXPECTED);
	return NULL;
}

int bc_plot_main(struct bc_cli_env *env, int argc, char **argv)
{
	struct bc_plot_opts opts = { .chart = BC_PLOT_AUTO };
	const char *in = NULL, *output = NULL, *v;
	struct bc_plot plot = {};
	struct bc_doc doc = {};
	struct bc_json *json;
	char *derived = NULL, err[512] = "";
	bool quiet = env && env->verbosity < 0;
	struct bc_out out;
	int ret, status;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "-?")) {
			bc_plot_help(bc_stdout());
			return BC_EXIT_OK;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--output")) ||
			   (v = bc_cli_opt_value(argc, argv, &i, "-o"))) {
			if (!*v)
				return bc_cli_usage_error("plot: -o '': expected a file name, or - for standard output");
			output = v;
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--chart"))) {
			if (bc_parse_chart(v, &opts.chart))
				return bc_cli_usage_error("--chart '%s': expected auto, headline, latency or compare", v);
		} else if ((v = bc_cli_opt_value(argc, argv, &i, "--x"))) {
			if (!*v)
				return bc_cli_usage_error("--x '': expected the name of a swept option");
			opts.x_option = v;
		} else if (bc_cli_metric_opt(argc, argv, &i, &opts.metric)) {
			if (!opts.metric)
				return BC_EXIT_USAGE;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			quiet = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return bc_cli_usage_error("plot: unknown option '%s' (see benchcore plot --help)",
						  argv[i]);
		} else if (!in) {
			in = argv[i];
		} else {
			return bc_cli_usage_error("plot: expected one result file; '%s' is a second",
						  argv[i]);
		}
	}
	if (!in)
		return bc_cli_usage_error("plot: expected a result file: plot RESULT.json [-o FILE.svg]");
	/* Same device and inode: a link or another spelling is still the input. */
	if (output && bc_out_same_file(output, in))
		return bc_cli_usage_error("-o '%s': is the input '%s'; expected another file", output,
					  in);

	json = bc_load(in);
	if (!json)
		return BC_EXIT_USAGE;
	/* The model reads it (and takes the JSON): a field of the wrong type
	 * is the file's fault, said as the model names it. */
	ret = bc_doc_from_json(json, &doc, err, sizeof(err));
	if (!ret)
		ret = bc_plot_read(&doc, &opts, &plot, err, sizeof(err));
	if (ret) {
		status = ret == -ENOMEM ? BC_EXIT_FAILED : BC_EXIT_USAGE;
		fprintf(stderr, "benchcore: plot: '%s': %s\n", in, err);
		goto out;
	}
	if (!output) {
		derived = bc_default_output(in);
		if (!derived) {
			status = BC_EXIT_FAILED;
			goto out;
		}
		output = derived;
	}
	status = bc_out_open(&out, "-o", strcmp(output, "-") ? output : NULL);
	if (status)
		goto out;
	ret = bc_plot_draw(out.f, &plot);
	status = bc_out_close(&out, ret == 0, ret ? BC_EXIT_FAILED : BC_EXIT_OK);
	if (status == BC_EXIT_OK && !quiet && strcmp(output, "-"))
		fprintf(stderr, "benchcore: plot: wrote %s\n", output);
out:
	bc_plot_free(&plot);
	bc_doc_free(&doc);
	free(derived);
	return status;
}
