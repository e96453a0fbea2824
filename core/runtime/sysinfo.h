/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The machine a result was measured on (sysinfo.c).
 */
#ifndef BENCHCORE_SYSINFO_H
#define BENCHCORE_SYSINFO_H

#include <stdbool.h>

/* What a reader of a result needs to judge it (the JSON context block). */
struct bc_sysinfo {
	char date[32];			/* ISO 8601 UTC */
	char host[256];
	char kernel[256];		/* uname release */
	char kernel_version[256];	/* uname version: "#1 SMP PREEMPT_DYNAMIC ..." */
	char cpu_model[256];
	unsigned int cpu_count;		/* online CPUs */
	bool hypervisor;		/* /proc/cpuinfo "hypervisor" flag */
	char libbpf_version[32];
	/* This process's run: 32 random hex digits, the same for every
	 * document it writes, so that a store that is given one document
	 * twice (a saved run imported again) keeps it once. */
	char run_id[40];
};

void bc_sysinfo_get(struct bc_sysinfo *si);
bool bc_sysinfo_hypervisor(void);
unsigned int bc_sysinfo_online_cpus(void);

#endif /* BENCHCORE_SYSINFO_H */
