// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpf-nop: the batch timing loop around nothing, i.e. what the timing
 * itself costs per iteration; the floor under every other timed body. A
 * syscall program, so that BPF_PROG_TEST_RUN runs it with no packet.
 */
#include "benchcore.bpf.h"
#include "bt_timing.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("syscall")
int bt_nop(void *ctx)
{
	return BT_TIMED_LOOP(0, ({}));
}
