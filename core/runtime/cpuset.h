/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * CPU sets (cpuset.c): parsing "0,2-3", printing it back, and pinning
 * threads, for any CPU number below BC_MAX_CPUS.
 */
#ifndef BENCHCORE_CPUSET_H
#define BENCHCORE_CPUSET_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define BC_MAX_CPUS 4096

struct bc_cpuset {
	unsigned int cnt;		/* number of CPUs in the set */
	unsigned int cpus[BC_MAX_CPUS];	/* ascending, unique */
};

/* Parses "0,2-3". On error returns -EINVAL and writes a one-line reason
 * naming the value and what is expected into err ("range end is below its
 * start"). */
int bc_cpuset_parse(const char *text, struct bc_cpuset *set, char *err, size_t err_len);
/* Writes the set back in its shortest list form ("0,2-3"), for messages and
 * the JSON config. */
void bc_cpuset_format(const struct bc_cpuset *set, char *buf, size_t len);
/* The CPUs this process may run on, read with a mask sized for
 * BC_MAX_CPUS (a fixed cpu_set_t holds 1024 and makes sched_getaffinity
 * fail on larger hosts). Returns 0 or -errno. */
int bc_cpuset_usable(struct bc_cpuset *set);
bool bc_cpuset_has(const struct bc_cpuset *set, unsigned int cpu);
/* Pins attr's thread to one CPU, any number below BC_MAX_CPUS. Returns 0 or
 * an error number as pthread functions do. */
int bc_cpuset_pin_attr(pthread_attr_t *attr, unsigned int cpu);

#endif /* BENCHCORE_CPUSET_H */
