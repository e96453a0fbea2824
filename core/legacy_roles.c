// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ABI 1 transition only (see legacy_roles.h): the one place that still reads
 * bc_bench_desc.layout. Positions, not names, say which metric is which:
 * that is what each layout's plugins declared.
 */
#include "legacy_roles.h"

static void bc_legacy_ratio(struct bc_metric_view *v, unsigned int cnt, unsigned int m,
			    enum bc_metric_role role, const char *label)
{
	if (m >= cnt)
		return;
	v[m].role = role;
	v[m].kind = BC_METRIC_RATIO;
	v[m].per = 1;
	v[m].ratio_of_rates = true;
	v[m].label = label;
}

bool bc_legacy_views(const struct bc_bench *b, struct bc_metric_view *v)
{
	unsigned int i, cnt = b->desc.metric_cnt;

	for (i = 0; i < cnt; i++)
		if (b->metrics[i].role != BC_ROLE_AUX)
			return false;
	/* A benchmark with its own line callbacks wants those, not the lines
	 * of layout 0 (which a migrated descriptor leaves zero). */
	if (b->desc.format_iter || b->desc.format_summary)
		return false;
	switch (b->desc.layout) {
	case BC_LAYOUT_HITS_DROPS:
		v[0].role = BC_ROLE_HITS;
		if (cnt > 1)
			v[1].role = BC_ROLE_DROPS;
		return true;
	case BC_LAYOUT_OPS:
		v[0].role = BC_ROLE_OPS;
		return true;
	case BC_LAYOUT_LOCAL_STORAGE:
		v[0].role = BC_ROLE_OPS;
		if (cnt > 1)
			v[1].role = BC_ROLE_RATE;
		return true;
	case BC_LAYOUT_FALSE_HITS:
		v[0].role = BC_ROLE_HITS;
		if (cnt > 1)
			v[1].role = BC_ROLE_DROPS;
		if (cnt > 2)
			v[2].role = BC_ROLE_SHARE;
		return true;
	case BC_LAYOUT_GRACE_PERIOD:
		/* Total ns and total ticks, each per grace period counted by
		 * metric 1; the labels are the runner's words for them. */
		if (cnt < 2)
			return false;
		bc_legacy_ratio(v, cnt, 0, BC_ROLE_LATENCY, "tasks_trace grace period latency");
		bc_legacy_ratio(v, cnt, 2, BC_ROLE_AUX, "ticks per tasks_trace grace period");
		return true;
	default:
		return false;
	}
}
