// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The comparability rule, once. A machine is its host name and CPU model
 * (the CPU count and the hypervisor come with them); a pool of identical
 * CI runners is one machine when its runners carry the pool's host name
 * (docs/ci.md says how).
 */
#include <stdio.h>
#include <string.h>

#include "accel.h"
#include "comparable.h"

static bool bc_same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static const char *bc_or_unknown(const char *s)
{
	return s ? s : "unknown";
}

bool bc_runs_comparable(const struct bc_run_place *base, const struct bc_run_place *run, char *why,
			size_t len)
{
	if (!bc_same_text(base->host, run->host) || !bc_same_text(base->cpu_model, run->cpu_model)) {
		snprintf(why, len, "machine (baseline on %s, %s; this run on %s, %s)",
			 bc_or_unknown(base->host), bc_or_unknown(base->cpu_model),
			 bc_or_unknown(run->host), bc_or_unknown(run->cpu_model));
		return false;
	}
	if (!bc_same_text(base->kernel_release, run->kernel_release)) {
		snprintf(why, len, "kernel (baseline %s, this run %s)",
			 bc_or_unknown(base->kernel_release), bc_or_unknown(run->kernel_release));
		return false;
	}
	/* The accelerator rule is accel.c's, the one compare, --against and
	 * history use: TCG only against TCG, KVM and native together. */
	if (!bc_accel_comparable(base->accelerator, run->accelerator, NULL, 0)) {
		snprintf(why, len, "accelerator (baseline %s, this run %s)",
			 bc_accel_name(base->accelerator), bc_accel_name(run->accelerator));
		return false;
	}
	return true;
}
