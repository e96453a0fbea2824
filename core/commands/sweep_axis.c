// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Sweep axes: `--sweep NAME[,NAME...]=V1,V2,...` read into names and
 * values, the combinations of several axes, and each swept value turned
 * into a command-line word from the option's declared type. Both `run
 * --sweep` (sweep.c) and suites (suite.c) hand axes to a batch (batch.c),
 * which expands them; this file sits below all three.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/loader.h"
#include "runtime/core_opts.h"
#include "runtime/log.h"
#include "runtime/plugin_opts.h"
#include "sweep_axis.h"
#include "results/words.h"


static int bc_split_list(const char *text, struct bc_strv *out)
{
	const char *p = text;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		int err;

		if (!len)
			return -EINVAL;
		err = bc_strv_push_owned(out, strndup(p, len));
		if (err)
			return err;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int bc_sweep_axis_parse(const char *spec, struct bc_sweep_axis *ax, char *err, size_t err_len)
{
	struct bc_strv names = {}, values = {};
	const char *eq = strchr(spec, '=');
	char *lhs = NULL;
	int ret;

	memset(ax, 0, sizeof(*ax));
	if (!eq || eq == spec) {
		bc_set_err(err, err_len,
			"--sweep '%s': expected OPTION=V1,V2,... (e.g. producers=1,2)", spec);
		return -EINVAL;
	}
	lhs = strndup(spec, (size_t)(eq - spec));
	if (!lhs)
		return -ENOMEM;
	ret = bc_split_list(lhs, &names);
	if (ret == -EINVAL)
		bc_set_err(err, err_len, "--sweep '%s': empty option name before '='", spec);
	if (!ret) {
		ret = bc_split_list(eq + 1, &values);
		if (ret == -EINVAL)
			bc_set_err(err, err_len,
				"--sweep '%s': empty value; expected OPTION=V1,V2,...", spec);
	}
	for (size_t i = 0; !ret && i < names.cnt; i++) {
		char *n = names.v[i];

		/* "--producers=1,2" and "producers=1,2" mean the same. */
		while (*n == '-')
			memmove(n, n + 1, strlen(n));
		if (!*n || strpbrk(n, " \t")) {
			bc_set_err(err, err_len,
				"--sweep '%s': '%s' is not an option name", spec, names.v[i]);
			ret = -EINVAL;
		}
	}
	free(lhs);
	if (ret) {
		bc_strv_free(&names);
		bc_strv_free(&values);
		return ret;
	}
	ax->names = names.v;
	ax->name_cnt = names.cnt;
	ax->values = values.v;
	ax->value_cnt = values.cnt;
	return 0;
}

void bc_sweep_axis_free(struct bc_sweep_axis *ax)
{
	struct bc_strv n = { ax->names, ax->name_cnt, 0 }, v = { ax->values, ax->value_cnt, 0 };

	bc_strv_free(&n);
	bc_strv_free(&v);
	memset(ax, 0, sizeof(*ax));
}

size_t bc_sweep_combination_cnt(const struct bc_sweep_axis *axes, size_t cnt)
{
	size_t total = 1;

	for (size_t i = 0; i < cnt; i++)
		total *= axes[i].value_cnt;
	return total;
}

void bc_sweep_combination(const struct bc_sweep_axis *axes, size_t cnt, size_t idx,
			  size_t *choice)
{
	/* Mixed radix, last axis fastest: the nested loops a script writes. */
	for (size_t i = cnt; i-- > 0;) {
		choice[i] = idx % axes[i].value_cnt;
		idx /= axes[i].value_cnt;
	}
}

/* A core flag (-a) in a sweep: on/off and the other flag words. */
static int bc_core_flag_arg(const char *name, const char *value, char **arg, char *err,
			 size_t err_len)
{
	int on = bc_opts_flag_word(value);

	if (on < 0) {
		bc_set_err(err, err_len,
			   "--%s '%s': expected on or off (also true/false, yes/no, 1/0)", name, value);
		return -EINVAL;
	}
	if (!on)
		return 0;
	return asprintf(arg, strlen(name) == 1 ? "-%s" : "--%s", name) < 0 ? -ENOMEM : 0;
}

/* Plain decimals only, as the core's own number options take them. */
static bool bc_json_number_word(const char *v)
{
	char *end;

	if (!*v || strspn(v, "0123456789.") != strlen(v))
		return false;
	strtod(v, &end);
	return !*end;
}

int bc_sweep_value_json(const struct bc_bench *bench, const char *name, const char *value,
			char *buf, size_t len)
{
	const struct bc_core_opt *core = bc_core_opt_find(name);
	const struct bc_option *opt = bench ? bc_opts_find(bench, name) : NULL;
	int on;

	if (opt && (!core || strlen(name) > 1))
		return bc_opts_value_json(opt, value, buf, len);
	if (!core)
		return -ENOENT;
	switch (core->type) {
	case BC_COPT_FLAG:
		on = bc_opts_flag_word(value);
		if (on < 0)
			return -EINVAL;
		snprintf(buf, len, "%s", on ? "true" : "false");
		return 0;
	case BC_COPT_UINT:
	case BC_COPT_SECONDS:
	case BC_COPT_SECONDS_OR_ZERO:
	case BC_COPT_PCT:
		if (!bc_json_number_word(value))
			return -EINVAL;
		/* "05" is no JSON number; the value is. */
		snprintf(buf, len, "%.17g", strtod(value, NULL));
		return 0;
	default:
		return -ENOENT;
	}
}

int bc_sweep_option_arg(const struct bc_bench *bench, const char *name, const char *value,
			char **arg, char *err, size_t err_len)
{
	const struct bc_core_opt *core = bc_core_opt_find(name);
	const struct bc_option *opt;
	int n;

	*arg = NULL;
	/* A plugin option shadows a newer core option of its name (the
	 * loader refused any other clash): within this benchmark it is the
	 * plugin's. */
	if (core && strlen(name) > 1 && bench && (opt = bc_opts_find(bench, name)))
		return bc_opts_sweep_arg(opt, value, arg, err, err_len);
	/* Core options keep their own checks (the run makes them). */
	if (core && !core->arg)
		return bc_core_flag_arg(name, value, arg, err, err_len);
	if (core && strlen(name) == 1)
		n = asprintf(arg, "-%s%s", name, value);
	else if (core)
		n = asprintf(arg, "--%s=%s", name, value);
	else if ((opt = bench ? bc_opts_find(bench, name) : NULL))
		return bc_opts_sweep_arg(opt, value, arg, err, err_len);
	/* A benchmark the parent cannot resolve: each row's run says why it
	 * cannot run, which is more use than one refusal for the batch. */
	else if (!bench)
		n = asprintf(arg, "--%s=%s", name, value);
	else {
		bc_set_err(err, err_len,
			   "--sweep: %s:%s has no option '%s' (`benchcore run %s:%s --help` lists them)",
			   bench->plugin->desc.name, bench->desc.name, name,
			   bench->plugin->desc.name, bench->desc.name);
		return -EINVAL;
	}
	if (n < 0) {
		*arg = NULL;
		return -ENOMEM;
	}
	return 0;
}
