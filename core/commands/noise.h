/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Why runs of one benchmark disagree, as far as this machine shows it: the
 * likely causes a noisy --repeat names in its warning. Each is read from
 * procfs or sysfs, and each is left out where the file does not exist (a
 * VM has no cpufreq, most have no thermal_throttle):
 *   - a cpufreq governor other than "performance" (scaling_governor);
 *   - other processes' CPU time during the runs (/proc/stat minus the
 *     runs' own), or a load average above the CPU count without /proc/stat;
 *   - a hypervisor: time it stole (/proc/stat steal), else its cpuinfo flag;
 *   - thermal throttling events during the runs (the count files of each
 *     CPU's thermal_throttle directory);
 *   - SMT (smt/active) with unpinned threads, or with other busy processes.
 * Paths are read under `root` ("" for the machine; tests point it at a
 * directory holding proc/ and sys/).
 */
#ifndef BENCHCORE_NOISE_H
#define BENCHCORE_NOISE_H

#include <stdbool.h>
#include <stddef.h>

/* Other processes busier than this many CPUs are named as a cause. */
#define BC_NOISE_BUSY_CPUS 0.25
/* Stolen time above this share of all CPU time is named. */
#define BC_NOISE_STEAL_PCT 1.0

/* What changes during the runs, read before and after them. */
struct bc_noise_snap {
	bool stat_ok;
	/* /proc/stat's "cpu" line, in USER_HZ ticks over all CPUs. */
	unsigned long long busy, steal, total;
	bool throttle_ok;
	unsigned long long throttle;	/* sum of the thermal_throttle counts */
};

void bc_noise_snap(const char *root, struct bc_noise_snap *s);

/* The runs between the two snapshots. */
struct bc_noise_usage {
	double wall_sec;
	double own_cpu_sec;	/* CPU time of the runs' processes */
	long hz;		/* /proc/stat's ticks per second (USER_HZ) */
	unsigned int cpus;	/* online CPUs */
	bool pinned;		/* -a or an affinity set */
};

/* The likely causes, "; "-separated, into buf ("" when none is visible);
 * returns how many. */
unsigned int bc_noise_causes(const char *root, const struct bc_noise_snap *before,
			     const struct bc_noise_snap *after, const struct bc_noise_usage *use,
			     char *buf, size_t len);

#endif /* BENCHCORE_NOISE_H */
