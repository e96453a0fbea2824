// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * CPU set lists as the kernel and taskset write them: "0,2-3".
 * Every error is one line that names the value and what was expected, so the
 * CLI can print it after the option name and exit with status 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpuset.h"

/* Digits only: strtoul() would accept " 1", "+1" and wrap "-1". */
static int bc_cpu_number(const char *s, size_t len, unsigned int *out)
{
	unsigned long v = 0;
	size_t i;

	if (!len)
		return -ENOENT;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v >= BC_MAX_CPUS)
			return -ERANGE;
	}
	*out = (unsigned int)v;
	return 0;
}

static int bc_cpuset_fail(char *err, size_t err_len, const char *text, const char *elem,
			  size_t elem_len, const char *what)
{
	if (!err || !err_len)
		return -EINVAL;
	/* Name the element only when it is not the whole value already. */
	if (elem && elem_len != strlen(text))
		snprintf(err, err_len, "'%s': %s (in '%.*s')", text, what, (int)elem_len, elem);
	else
		snprintf(err, err_len, "'%s': %s", text, what);
	return -EINVAL;
}

static int bc_number_fail(char *err, size_t err_len, const char *text, const char *elem,
			  size_t elem_len, int rc)
{
	char what[96];

	if (rc == -ERANGE) {
		snprintf(what, sizeof(what), "CPU number above the maximum %d", BC_MAX_CPUS - 1);
		return bc_cpuset_fail(err, err_len, text, elem, elem_len, what);
	}
	return bc_cpuset_fail(err, err_len, text, elem, elem_len,
			      "expected a CPU number or a range such as 0-3");
}

int bc_cpuset_parse(const char *text, struct bc_cpuset *set, char *err, size_t err_len)
{
	uint64_t seen[BC_MAX_CPUS / 64] = { 0 };
	const char *p, *end, *dash;
	unsigned int lo, hi, c;
	size_t len;
	int rc;

	if (!text || !*text)
		return bc_cpuset_fail(err, err_len, "", NULL, 0, "empty CPU set");

	memset(set, 0, sizeof(*set));
	p = text;
	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (!len)
			return bc_cpuset_fail(err, err_len, text, NULL, 0, "empty element");

		dash = memchr(p, '-', len);
		if (dash) {
			rc = bc_cpu_number(p, (size_t)(dash - p), &lo);
			if (!rc)
				rc = bc_cpu_number(dash + 1, len - (size_t)(dash - p) - 1, &hi);
			if (rc)
				return bc_number_fail(err, err_len, text, p, len, rc);
			if (hi < lo)
				return bc_cpuset_fail(err, err_len, text, p, len,
						      "range end is below its start");
		} else {
			rc = bc_cpu_number(p, len, &lo);
			if (rc)
				return bc_number_fail(err, err_len, text, p, len, rc);
			hi = lo;
		}
		for (c = lo; c <= hi; c++)
			seen[c / 64] |= 1ULL << (c % 64);

		if (!end)
			break;
		p = end + 1;
	}

	for (c = 0; c < BC_MAX_CPUS; c++)
		if (seen[c / 64] & (1ULL << (c % 64)))
			set->cpus[set->cnt++] = c;
	return 0;
}

void bc_cpuset_format(const struct bc_cpuset *set, char *buf, size_t len)
{
	size_t off = 0, i = 0, j;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
	while (i < set->cnt && off < len) {
		/* Extend the run while the CPUs are consecutive. */
		for (j = i; j + 1 < set->cnt && set->cpus[j + 1] == set->cpus[j] + 1; j++)
			;
		if (j == i)
			n = snprintf(buf + off, len - off, "%s%u", off ? "," : "", set->cpus[i]);
		else
			n = snprintf(buf + off, len - off, "%s%u-%u", off ? "," : "",
				     set->cpus[i], set->cpus[j]);
		if (n < 0)
			return;
		off += (size_t)n;
		i = j + 1;
	}
}

int bc_cpuset_usable(struct bc_cpuset *set)
{
	size_t size = CPU_ALLOC_SIZE(BC_MAX_CPUS);
	cpu_set_t *mask = CPU_ALLOC(BC_MAX_CPUS);
	unsigned int c;
	int err = 0;

	set->cnt = 0;
	if (!mask)
		return -ENOMEM;
	CPU_ZERO_S(size, mask);
	if (sched_getaffinity(0, size, mask))
		err = -errno;
	else
		for (c = 0; c < BC_MAX_CPUS; c++)
			if (CPU_ISSET_S(c, size, mask))
				set->cpus[set->cnt++] = c;
	CPU_FREE(mask);
	return err;
}

bool bc_cpuset_has(const struct bc_cpuset *set, unsigned int cpu)
{
	unsigned int lo = 0, hi = set->cnt;

	/* cpus[] is ascending. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (set->cpus[mid] == cpu)
			return true;
		if (set->cpus[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

int bc_cpuset_pin_attr(pthread_attr_t *attr, unsigned int cpu)
{
	size_t size = CPU_ALLOC_SIZE(BC_MAX_CPUS);
	cpu_set_t *mask;
	int err;

	if (cpu >= BC_MAX_CPUS)
		return EINVAL;
	mask = CPU_ALLOC(BC_MAX_CPUS);
	if (!mask)
		return ENOMEM;
	CPU_ZERO_S(size, mask);
	CPU_SET_S(cpu, size, mask);
	/* The attribute keeps its own copy of the mask. */
	err = pthread_attr_setaffinity_np(attr, size, mask);
	CPU_FREE(mask);
	return err;
}
