// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The local_storage plugin: task local-storage lookup cost and its cache
 * cliff, local-storage creation cost, and RCU Tasks Trace grace periods
 * under local-storage churn (the kernel runner's local-storage benchmarks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ls_internal.h"

struct ls_opts ls_opts;

enum {
	LS_OPT_NR_MAPS = 0x1000,
	LS_OPT_HASH_KEYS,
	LS_OPT_STORAGE_TYPE,
	LS_OPT_BATCH_SIZE,
	LS_OPT_NR_PROCS,
	LS_OPT_KTHREAD_PID,
};

/* Names follow the kernel runner's, so its scripts' command lines work. */
static const struct argp_option ls_argp_options[] = {
	{ "nr_maps", LS_OPT_NR_MAPS, "N", 0,
	  "cache-seq-get, cache-int-get: number of task-storage maps (1-1000, default 1000)", 0 },
	{ "hashmap_nr_keys_used", LS_OPT_HASH_KEYS, "N", 0,
	  "cache-hashmap-control: keys in use (default 1000, at most pid_max)", 0 },
	{ "storage-type", LS_OPT_STORAGE_TYPE, "task|socket", 0,
	  "create: storage to create (default task)", 0 },
	{ "batch-size", LS_OPT_BATCH_SIZE, "N", 0,
	  "create: threads or sockets created per batch (default 32)", 0 },
	{ "nr_procs", LS_OPT_NR_PROCS, "N", 0,
	  "tasks-trace: sleeper processes to fork (default 1000)", 0 },
	{ "kthread_pid", LS_OPT_KTHREAD_PID, "PID", 0,
	  "tasks-trace: pid of the rcu_tasks_trace kthread (default: looked up)", 0 },
	{ 0 },
};

static error_t ls_argp_parse(int key, char *arg, struct argp_state *state)
{
	(void)state;
	/* Only recorded here: validate() checks them and reports through the
	 * core, so a bad value gets the core's usage-error handling. */
	switch (key) {
	case LS_OPT_NR_MAPS:
		ls_opts.nr_maps = arg;
		return 0;
	case LS_OPT_HASH_KEYS:
		ls_opts.hashmap_nr_keys_used = arg;
		return 0;
	case LS_OPT_STORAGE_TYPE:
		ls_opts.storage_type = arg;
		return 0;
	case LS_OPT_BATCH_SIZE:
		ls_opts.batch_size = arg;
		return 0;
	case LS_OPT_NR_PROCS:
		ls_opts.nr_procs = arg;
		return 0;
	case LS_OPT_KTHREAD_PID:
		ls_opts.kthread_pid = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp ls_argp = {
	.options = ls_argp_options,
	.parser = ls_argp_parse,
};

int ls_parse_uint_opt(struct bc_ctx *ctx, const char *opt, const char *text,
		      unsigned long min, unsigned long max, const char *note, unsigned long *out)
{
	unsigned long long v;
	char *end;

	if (!text)
		return 0;
	errno = 0;
	v = strtoull(text, &end, 10);
	/* strtoull() accepts a sign and wraps "-1": refuse anything but digits. */
	if (text[0] < '0' || text[0] > '9' || *end || errno)
		return bc_usage_error(ctx, "--%s '%s': expected an integer from %lu to %lu%s",
				      opt, text, min, max, note ? note : "");
	if (v < min || v > max)
		return bc_usage_error(ctx, "--%s '%s': out of range, expected %lu to %lu%s",
				      opt, text, min, max, note ? note : "");
	*out = (unsigned long)v;
	return 0;
}

int ls_check_opts(struct bc_ctx *ctx, unsigned int uses)
{
	const struct {
		unsigned int bit;
		const char *name;
		const char *value;
		const char *takers;
	} opts[] = {
		{ LS_USES_NR_MAPS, "nr_maps", ls_opts.nr_maps,
		  "local-storage-cache-seq-get and -int-get" },
		{ LS_USES_HASH_KEYS, "hashmap_nr_keys_used", ls_opts.hashmap_nr_keys_used,
		  "local-storage-cache-hashmap-control" },
		{ LS_USES_STORAGE_TYPE, "storage-type", ls_opts.storage_type, "local-storage-create" },
		{ LS_USES_BATCH_SIZE, "batch-size", ls_opts.batch_size, "local-storage-create" },
		{ LS_USES_NR_PROCS, "nr_procs", ls_opts.nr_procs, "local-storage-tasks-trace" },
		{ LS_USES_KTHREAD_PID, "kthread_pid", ls_opts.kthread_pid,
		  "local-storage-tasks-trace" },
	};
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (opts[i].value && !(uses & opts[i].bit))
			return bc_usage_error(ctx, "--%s '%s': %s does not take this option; it is for %s",
					      opts[i].name, opts[i].value, bc_ctx_bench_name(ctx),
					      opts[i].takers);
	return 0;
}

unsigned long ls_pid_max(void)
{
	unsigned long v = 0;
	FILE *f;

	f = fopen("/proc/sys/kernel/pid_max", "r");
	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	/* PID_MAX_DEFAULT: what the kernel uses when nobody changed it. */
	return v ? v : 32768;
}

const char *ls_strerror(int err)
{
	return strerror(err < 0 ? -err : err);
}

static const struct bc_bench_desc *const ls_benches[] = {
	&ls_bench_seq_get,
	&ls_bench_int_get,
	&ls_bench_hashmap_control,
	&ls_bench_create,
	&ls_bench_tasks_trace,
	NULL,
};

BENCHCORE_PLUGIN(
	.name = "local-storage",
	.version = "1.0",
	.description = "task local storage: get cost and cache cliff, creation cost, RCU Tasks Trace",
	.argp = &ls_argp,
	.benches = ls_benches,
);
