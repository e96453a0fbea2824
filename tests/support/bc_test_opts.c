// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bc_test_opts.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "plugin_opts.h"

void bc_test_set_plugin_opts(struct bc_config *cfg, const struct bc_bench *bench,
			     const char *const *words)
{
	char err[256] = "";

	cfg->opts = bc_opts_new(bench, err, sizeof(err));
	if (!cfg->opts)
		fail_msg("%s: %s", bench->desc.name, err);
	for (; words && *words; words++) {
		const struct bc_option *opt = NULL;
		const char *value = "on";

		if (!strncmp(*words, "--", 2))
			opt = bc_opts_find(bench, *words + 2);
		if (!opt)
			fail_msg("%s: no option %s", bench->desc.name, *words);
		if (opt->type != BC_OPT_FLAG && !(value = words[1]))
			fail_msg("%s: %s needs a value", bench->desc.name, *words);
		if (bc_opts_set(cfg->opts, opt, value, err, sizeof(err)))
			fail_msg("%s: %s", bench->desc.name, err);
		if (opt->type != BC_OPT_FLAG)
			words++;
	}
}
