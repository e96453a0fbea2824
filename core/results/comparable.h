/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which runs may be judged against which (comparable.c): the one rule
 * `check` applies to a run and its baseline. A figure measured on another
 * machine or kernel is another experiment: a gate that judged it would
 * pass or fail on the difference between machines, so such a pair is
 * "not comparable: why", never a pass.
 */
#ifndef BENCHCORE_COMPARABLE_H
#define BENCHCORE_COMPARABLE_H

#include <stdbool.h>
#include <stddef.h>

/* Where a run was measured, as the store's columns say; NULL: unknown. */
struct bc_run_place {
	const char *host;
	const char *cpu_model;
	const char *kernel_release;
	/* The run document's context "accelerator" (`benchcore vm`: "tcg",
	 * "kvm"; NULL outside benchcore's guests), the store's column of
	 * that name; judged by accel.h's rule. */
	const char *accelerator;
};

/*
 * May `run` be judged against `base`? The same machine (host and CPU
 * model), the same kernel release (an unknown value matches only an
 * unknown one) and accelerators accel.h lets be judged together (TCG only
 * with TCG). When not, why gets what differs, base against run:
 * "machine (baseline on h1, Xeon E5; this run on h2, Xeon E5)",
 * "kernel (baseline 6.1.0, this run 6.12.0)", "accelerator (baseline
 * native, this run tcg)". Callers say "not comparable: " before it.
 */
bool bc_runs_comparable(const struct bc_run_place *base, const struct bc_run_place *run, char *why,
			size_t len);

#endif /* BENCHCORE_COMPARABLE_H */
