// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * One JSON document per run: the machine, the configuration, every
 * iteration and the summary, so that a result can be judged and compared
 * later without the text it was printed with. Rates are plain events per
 * second (no M scaling); numbers that do not exist are null, never NaN.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bc_internal.h"
#include "json.h"
#include "plugin_opts.h"

static const char *bc_kind_name(enum bc_metric_kind kind)
{
	switch (kind) {
	case BC_METRIC_COUNTER:
		return "counter";
	case BC_METRIC_GAUGE:
		return "gauge";
	case BC_METRIC_RATIO:
		return "ratio";
	case BC_METRIC_HISTOGRAM:
		return "histogram";
	}
	return "unknown";
}

static void bc_json_context(struct bc_json_writer *w)
{
	struct bc_sysinfo si;

	bc_sysinfo_get(&si);
	bc_jw_obj_begin(w, "context");
	bc_jw_str(w, "date", si.date);
	bc_jw_str(w, "host", si.host);
	bc_jw_str(w, "kernel_release", si.kernel);
	bc_jw_str(w, "cpu_model", si.cpu_model);
	bc_jw_uint(w, "cpu_count", si.cpu_count);
	bc_jw_bool(w, "hypervisor", si.hypervisor);
	bc_jw_str(w, "libbpf_version", si.libbpf_version);
	bc_jw_str(w, "benchcore_version", bc_version());
	bc_jw_obj_end(w);
}

static void bc_json_cpuset(struct bc_json_writer *w, const char *key, bool set,
			   const struct bc_cpuset *cpus)
{
	char buf[1024];

	if (!set) {
		bc_jw_null(w, key);
		return;
	}
	bc_cpuset_format(cpus, buf, sizeof(buf));
	bc_jw_str(w, key, buf);
}

static void bc_json_config(struct bc_json_writer *w, const struct bc_config *cfg,
			   const struct bc_run_result *res)
{
	size_t i;

	bc_jw_obj_begin(w, "config");
	bc_jw_uint(w, "producers", res->producer_cnt);
	bc_jw_uint(w, "consumers", res->consumer_cnt);
	bc_jw_num(w, "warmup_sec", cfg ? cfg->warmup_sec : NAN);
	bc_jw_num(w, "duration_sec", cfg ? cfg->duration_sec : NAN);
	bc_jw_bool(w, "affinity", cfg && (cfg->affinity || cfg->prod_cpus_set || cfg->cons_cpus_set));
	bc_json_cpuset(w, "prod_cpus", cfg && cfg->prod_cpus_set, cfg ? &cfg->prod_cpus : NULL);
	bc_json_cpuset(w, "cons_cpus", cfg && cfg->cons_cpus_set, cfg ? &cfg->cons_cpus : NULL);
	/* Every declared option's effective value, typed, and which ones the
	 * user gave: a reader needs neither the plugin nor its defaults. */
	if (cfg && cfg->opts) {
		bc_opts_json(w, cfg->opts);
	} else {
		/* ABI 1 leftover: untyped records, written as they were (a flag
		 * has no value: true says it was given). */
		bc_jw_obj_begin(w, "plugin_options");
		for (i = 0; cfg && i < cfg->plugin_opt_cnt; i++) {
			const struct bc_option_record *o = &cfg->plugin_opts[i];

			if (!o->name)
				continue;
			if (o->value)
				bc_jw_str(w, o->name, o->value);
			else
				bc_jw_bool(w, o->name, true);
		}
		bc_jw_obj_end(w);
	}
	bc_jw_obj_end(w);
}

static void bc_json_iterations(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	size_t i;

	bc_jw_arr_begin(w, "iterations");
	for (i = 0; i < res->iter_cnt; i++) {
		const struct bc_iteration *it = &res->iters[i];

		bc_jw_obj_begin(w, NULL);
		bc_jw_uint(w, "index", it->idx);
		bc_jw_bool(w, "warmup", it->warmup);
		bc_jw_num(w, "length_sec", it->length_sec);
		bc_jw_num(w, "drift_us", it->drift_us);
		bc_jw_obj_begin(w, "values");
		for (m = 0; m < cnt; m++)
			bc_jw_num(w, res->bench->metrics[m].name, it->rates[m]);
		bc_jw_obj_end(w);
		bc_jw_obj_begin(w, "cpu");
		bc_jw_num(w, "producer_user_sec", it->prod_user_sec);
		bc_jw_num(w, "producer_sys_sec", it->prod_sys_sec);
		bc_jw_num(w, "consumer_user_sec", it->cons_user_sec);
		bc_jw_num(w, "consumer_sys_sec", it->cons_sys_sec);
		bc_jw_obj_end(w);
		bc_jw_obj_end(w);
	}
	bc_jw_arr_end(w);
}

static void bc_json_stats(struct bc_json_writer *w, const char *key, const char *unit,
			  const struct bc_metric_summary *s)
{
	bc_jw_obj_begin(w, key);
	if (unit)
		bc_jw_str(w, "unit", unit);
	bc_jw_num(w, "mean", s->mean);
	bc_jw_num(w, "stddev", s->stddev);
	bc_jw_num(w, "min", s->min);
	bc_jw_num(w, "median", s->median);
	bc_jw_num(w, "max", s->max);
	bc_jw_uint(w, "n", s->n);
	bc_jw_obj_end(w);
}

/* Counters become rates: "ops" per second is "ops/s". */
static void bc_metric_unit(const struct bc_metric_desc *m, char *buf, size_t len)
{
	const char *u = m->unit && *m->unit ? m->unit : "events";

	if (m->kind == BC_METRIC_COUNTER)
		snprintf(buf, len, "%s/s", u);
	else
		snprintf(buf, len, "%s", u);
}

static void bc_json_summary(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	char unit[64];

	bc_jw_obj_begin(w, "summary");
	for (m = 0; m < cnt && res->summary; m++) {
		bc_metric_unit(&res->bench->metrics[m], unit, sizeof(unit));
		bc_json_stats(w, res->bench->metrics[m].name, unit, &res->summary[m]);
	}
	bc_jw_obj_end(w);
}

static void bc_json_cpu(struct bc_json_writer *w, const struct bc_run_result *res)
{
	unsigned int m, cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	double cpus = res->prod_cpu_util.mean + res->cons_cpu_util.mean;
	char key[160];

	/* CPU-seconds per wall-clock second: 1.0 is one CPU kept busy. */
	bc_jw_obj_begin(w, "cpu_utilisation");
	bc_json_stats(w, "producer", "cpus", &res->prod_cpu_util);
	bc_json_stats(w, "producer_user", "cpus", &res->prod_user_util);
	bc_json_stats(w, "producer_sys", "cpus", &res->prod_sys_util);
	bc_json_stats(w, "consumer", "cpus", &res->cons_cpu_util);
	bc_json_stats(w, "consumer_user", "cpus", &res->cons_user_util);
	bc_json_stats(w, "consumer_sys", "cpus", &res->cons_sys_util);
	/* Events per CPU-second of the benchmark's threads, per counter. */
	bc_jw_obj_begin(w, "per_cpu_second");
	for (m = 0; m < cnt && res->summary; m++) {
		if (res->bench->metrics[m].kind != BC_METRIC_COUNTER)
			continue;
		snprintf(key, sizeof(key), "%s", res->bench->metrics[m].name);
		bc_jw_num(w, key, cpus > 0 ? res->summary[m].mean / cpus : NAN);
	}
	bc_jw_obj_end(w);
	bc_jw_obj_end(w);
}

int bc_report_json(FILE *f, const struct bc_config *cfg, const struct bc_run_result *res)
{
	const struct bc_plugin *pl = res->bench ? res->bench->plugin : NULL;
	unsigned int m, cnt = res->bench ? res->bench->desc.metric_cnt : 0;
	struct bc_json_writer w;
	size_t i;

	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "benchcore_version", bc_version());
	bc_json_context(&w);

	bc_jw_obj_begin(&w, "plugin");
	bc_jw_str(&w, "name", pl ? pl->desc.name : NULL);
	bc_jw_str(&w, "version", pl ? pl->desc.version : NULL);
	bc_jw_str(&w, "path", pl ? pl->path : NULL);
	bc_jw_obj_end(&w);
	bc_jw_str(&w, "benchmark", res->bench ? res->bench->desc.name : NULL);
	bc_jw_str(&w, "attach_point", res->ctx ? bc_ctx_attach_point(res->ctx) : NULL);
	bc_json_config(&w, cfg, res);

	bc_jw_arr_begin(&w, "metrics");
	for (m = 0; m < cnt; m++) {
		bc_jw_obj_begin(&w, NULL);
		bc_jw_str(&w, "name", res->bench->metrics[m].name);
		bc_jw_str(&w, "unit", res->bench->metrics[m].unit);
		bc_jw_str(&w, "kind", bc_kind_name(res->bench->metrics[m].kind));
		bc_jw_obj_end(&w);
	}
	bc_jw_arr_end(&w);

	bc_json_iterations(&w, res);
	bc_json_summary(&w, res);
	bc_json_cpu(&w, res);

	bc_jw_arr_begin(&w, "warnings");
	for (i = 0; i < res->warning_cnt; i++)
		bc_jw_str(&w, NULL, res->warnings[i]);
	bc_jw_arr_end(&w);

	bc_jw_obj_begin(&w, "status");
	bc_jw_int(&w, "exit_status", res->exit_status);
	bc_jw_bool(&w, "interrupted", res->interrupted);
	bc_jw_str(&w, "reason", res->reason[0] ? res->reason : NULL);
	bc_jw_obj_end(&w);

	bc_jw_obj_end(&w);
	return bc_jw_finish(&w);
}
