// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Option values: the first byte picks an option of every declared type
 * and the core options' checks, the rest is the value as typed. A refused
 * value always says why. */
#include <stdio.h>

#include <benchcore/benchcore.h>
#include "core_opts.h"
#include "log.h"
#include "words.h"
#include "fuzz.h"
#include "plugin_opts.h"

struct fuzz_opts {
	bool flag;
	int64_t i;
	uint64_t sz;
	int e;
	const char *s;
	const struct bc_cpus *cpus;
};

static const char *const words[] = { "task", "socket", "inode", NULL };
static const struct bc_option opts[] = {
	BC_OPT_FLAG(struct fuzz_opts, flag, "flag"),
	BC_OPT_INT(struct fuzz_opts, i, "int", .min = -5, .max = 4000),
	BC_OPT_INT(struct fuzz_opts, i, "int-any"),
	BC_OPT_SIZE(struct fuzz_opts, sz, "size", .min = 4096, .max = 1 << 30),
	BC_OPT_SIZE(struct fuzz_opts, sz, "size-any"),
	BC_OPT_ENUM(struct fuzz_opts, e, "enum", .words = words),
	BC_OPT_STRING(struct fuzz_opts, s, "string"),
	BC_OPT_CPUSET(struct fuzz_opts, cpus, "cpus"),
};
#define OPT_CNT (sizeof(opts) / sizeof(opts[0]))

static FILE *quiet;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, err[512] = "", *arg = NULL;
	unsigned int pick, n;
	double sec;

	if (!size)
		return 0;
	pick = data[0] % (OPT_CNT + 4);
	text = bc_fuzz_cstr(data + 1, size - 1);
	if (!text)
		return 0;
	/* The core's own checks print their refusal: not the fuzzer's output. */
	if (!quiet)
		quiet = fopen("/dev/null", "w");
	bc_log_set_file(quiet);
	if (pick < OPT_CNT) {
		if (bc_opts_check_value(&opts[pick], text, err, sizeof(err)) && !err[0])
			abort();
		err[0] = '\0';
		if (bc_opts_sweep_arg(&opts[pick], text, &arg, err, sizeof(err)) && !err[0])
			abort();
		free(arg);
	} else if (pick == OPT_CNT) {
		bc_parse_seconds("--duration", text, false, &sec);
	} else if (pick == OPT_CNT + 1) {
		bc_parse_uint("--producers", text, 0, 4096, "threads", &n);
	} else {
		/* A run line's words, split at blanks, as a suite gives them. */
		char **w = NULL;
		size_t cnt = 0;

		if (!bc_split_words(text, &w, &cnt, err, sizeof(err))) {
			err[0] = '\0';
			if (bc_run_check_core_words(w, cnt, err, sizeof(err)) && !err[0])
				abort();
			bc_words_free(w, cnt);
		}
	}
	bc_log_set_file(NULL);
	free(text);
	return 0;
}
