// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * histreset's BPF side: each getpgid() of the benchmark's own process adds
 * one sample to a BC_HIST_MAP(), which user space empties once mid-run
 * (histreset.c): what a map reset by someone else looks like to the core.
 */
#include "benchcore.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

BC_HIST_MAP(lat_ns);

SEC("tp/syscalls/sys_enter_getpgid")
int histreset_tp(void *ctx)
{
	if (bc_own_process())
		bc_hist_add(&lat_ns, 100);
	return 0;
}
