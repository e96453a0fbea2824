// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * progfix: a test fixture whose one program is built twice from one
 * source, the second build with one more instruction (progfix.bpf.c). Both
 * are the plugin "progfix" at the same version, so their runs are one
 * benchmark and configuration: what tells them apart is the program's
 * facts alone. prog_change.sh runs each and reads compare and the report.
 * The core loads the skeleton and counts in BPF: no callbacks here but the
 * rodata a load needs.
 */
#include <unistd.h>

#include <benchcore/attach.h>
#include <benchcore/benchcore.h>

#include "progfix.skel.h"

BC_SKEL(progfix);

static const struct bc_attach_point progfix_points[] = {
	{ .sz = sizeof(struct bc_attach_point), .name = "tp/syscalls/sys_enter_getpgid",
	  .kind = BC_ATTACH_TP, .prog_name = "progfix_tp" },
};

static int progfix_configure(struct bc_ctx *ctx, void *skel, const struct bc_attach_point *pt)
{
	struct progfix *s = skel;

	(void)ctx;
	(void)pt;
	s->rodata->bc_tgid = (__u32)getpid();
	return 0;
}

static const struct bc_metric_desc progfix_metrics[] = {
	BC_METRIC("hits", "calls", BC_METRIC_COUNTER, .role = BC_ROLE_HITS, .bpf = "hits"),
};

static const struct bc_bench_desc progfix_count = BC_BENCH("count",
	"getpgid() calls counted in BPF, by a program built with or without one more instruction",
	progfix_metrics, BC_POINTS(progfix_points), .skel = &progfix_skel,
	.configure = progfix_configure, .producer = bc_getpgid_producer);

BENCHCORE_PLUGIN(.name = "progfix", .version = "1.0",
		 .description = "test fixture: one program built twice, once with one more instruction",
		 BC_BENCHES(&progfix_count));
