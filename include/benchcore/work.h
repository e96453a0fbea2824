/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How much work one syscall or one trigger of a benchmark may do.
 *
 * A BPF program runs to its end inside the syscall that triggered it: no
 * signal, not even SIGKILL, takes effect before it returns, and a program
 * that loops for long stalls its CPU (the kernel's soft-lockup detector
 * fires after 20 s by default, twice kernel.watchdog_thresh; RCU stall
 * warnings after 21 s). So every option that sets the work done per call
 * (loop counts, batch sizes, rounds) is bounded by their product:
 *
 *   work units per call <= BC_WORK_PER_CALL_MAX
 *
 * A unit is the cheapest step there is, one empty bpf_loop() iteration
 * (2 to 10 ns on current hardware and in VMs); heavier steps count as
 * several units (a hash-map lookup as 4 plus one per 16 bytes of key).
 * 2^24 units, twice bpf_loop()'s own per-call limit (BPF_MAX_LOOPS,
 * 2^23), take well under a second natively and stay more than ten times
 * below the soft-lockup threshold even at a hundred times slower
 * (an emulated guest).
 *
 * A plugin either splits its work across calls to stay below the bound,
 * or refuses a larger product in validate() with one usage error naming
 * the options and the bound (exit status 2). Compile-time maxima that keep
 * the product below the bound are checked with BC_WORK_STATIC_ASSERT.
 */
#ifndef BENCHCORE_WORK_H
#define BENCHCORE_WORK_H

#define BC_WORK_PER_CALL_MAX (1ULL << 24)

/* max_steps steps of units_per_step units each fit in one call. */
#define BC_WORK_STATIC_ASSERT(max_steps, units_per_step, what)                          \
	_Static_assert((unsigned long long)(max_steps) * (units_per_step) <=             \
			       BC_WORK_PER_CALL_MAX,                                      \
		       what ": more work per call than BC_WORK_PER_CALL_MAX")

#endif /* BENCHCORE_WORK_H */
