/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Which loaded BPF programs a given run left behind, found by what their
 * global data says rather than by where the compiler put it: a program is
 * the run's when it uses the skeleton's read-only data map (named
 * "<object>.rodata", e.g. "bloom.rodata") whose variable bc_tgid (see
 * bpf/benchcore.bpf.h) holds that run's pid. The variable is located
 * through the map's BTF, so its offset may be anything.
 */
#ifndef BENCHCORE_TEST_CENSUS_H
#define BENCHCORE_TEST_CENSUS_H

#include <stdbool.h>
#include <sys/types.h>

#include <bpf/bpf.h>

/* Reads the 32-bit global `var` of a global-data map; false when the map
 * has no such variable (or it cannot be read). */
bool bc_test_map_u32_var(int map_fd, const struct bpf_map_info *info, const char *var,
			 __u32 *out);

/*
 * Loaded programs that use the map named `rodata_name` whose bc_tgid is
 * `pid` (0: any pid). *total (may be NULL) gets all loaded programs. Polls
 * like bc_test_wait_progs() until at most `max` are left: a dead process's
 * programs are released from deferred work.
 */
unsigned int bc_test_wait_rodata_progs(const char *rodata_name, pid_t pid, unsigned int max,
				       unsigned int *total);

/* Maps named `name` exactly; polls the same way until at most `max`. */
unsigned int bc_test_wait_named_maps(const char *name, unsigned int max, unsigned int *total);

/*
 * The census's positive control: starts benchcore with args (after the
 * plugin dir, NULL-terminated) in the background, looks for programs of
 * `rodata_name` loaded by it while it runs, waits for it, and fails unless
 * it saw at least one, the run exited with status 0, and none is left.
 */
void bc_test_census_sees_run(const char *rodata_name, const char *const *args);

#endif
