// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The comparability rule, once. A machine is its host name and CPU model
 * (the CPU count and the hypervisor come with them); a pool of identical
 * CI runners is one machine when its runners carry the pool's host name
 * (docs/ci.md says how).
 */
#include <stdio.h>
#include <string.h>

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
	/*
	 * ACCELERATOR (the `benchcore vm` branch adds it here). The context's
	 * "accelerator" is not in runtime/doc_keys.h yet, nor a column of
	 * the store, so place->accelerator is always NULL and this says
	 * nothing. When both are there: read it into the entry's columns
	 * (store_doc.c), fill place->accelerator in check.c, and here
	 *
	 *	if (!bc_accel_comparable(base->accelerator, run->accelerator, why, len))
	 *		return false;
	 *
	 * which writes "accelerator (tcg against native)" (results/accel.h).
	 */
	if (!bc_same_text(base->accelerator, run->accelerator)) {
		snprintf(why, len, "accelerator (baseline %s, this run %s)",
			 base->accelerator ? base->accelerator : "native",
			 run->accelerator ? run->accelerator : "native");
		return false;
	}
	return true;
}
