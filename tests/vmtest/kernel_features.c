// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tests/kernel_features: what the running kernel can do, one "NAME yes|no"
 * line each on stdout, asked with tests/support/bc_test_kernel.c's
 * hand-written programs and never through a plugin. scripts/vmtest-guest.sh
 * records it as OUT_DIR/features on the host and in every guest, and
 * scripts/vmtest.sh checks each expectation against it (needs=), so that
 * an expectation holds on any build of a kernel release, not on one.
 * Each probe also says on stderr what it found ("# kernel: ...").
 *
 * Exit status 0 when every question was asked, 1 when it cannot ask (not
 * root: every answer would be "no" for the wrong reason).
 */
#include <stdio.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bc_test_kernel.h"

/* The trigger benchmarks' kernel function: in every kernel with BPF, on
 * every architecture, and traceable. */
#define KF_FUNC "bpf_get_numa_node_id"

static void line(const char *name, int err)
{
	printf("%s %s\n", name, err ? "no" : "yes");
}

int main(void)
{
	if (geteuid() != 0) {
		fprintf(stderr, "kernel_features: needs root: without it the kernel refuses "
			"every probe for a reason that is not its own\n");
		return 1;
	}
	/* The probes' refusals are answers, not warnings to print. */
	libbpf_set_print(NULL);
	line("bpf", bc_test_kernel_bpf());
	line("fentry", bc_test_kernel_trampoline(BPF_TRACE_FENTRY, KF_FUNC));
	line("lsm", bc_test_kernel_lsm("socket_post_create", true));
	line("kprobes", bc_test_kernel_kprobe(KF_FUNC));
	line("kprobe_multi", bc_test_kernel_kprobe_multi(KF_FUNC));
	line("uprobes", bc_test_kernel_uprobe());
	line("uprobe_multi", bc_test_kernel_uprobe_multi());
	line("tracefs", bc_test_kernel_tracefs());
	line("sockmap", bc_test_kernel_sockmap());
	line("may_goto", bc_test_kernel_may_goto(BPF_PROG_TYPE_XDP, 0));
	line("memcg", bc_test_kernel_memcg(NULL, 0));
	return fflush(stdout) ? 1 : 0;
}
