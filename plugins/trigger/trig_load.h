/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * How the trigger plugin loads its BPF objects so that the programs'
 * verifier statistics reach the report: at log level 4 first, whose
 * statistics libbpf logs and the core records as the programs' facts,
 * and without the log when that load fails.
 */
#ifndef BENCHCORE_TRIG_LOAD_H
#define BENCHCORE_TRIG_LOAD_H

#include <stdbool.h>

struct bpf_object;

/* Every program of obj that is set to load gets log level 4. Call after
 * choosing the programs (autoload), before loading. */
void trig_ask_verifier_stats(struct bpf_object *obj);

/*
 * open_load(arg, true), and if that fails, open_load(arg, false): a
 * kernel that refuses only the log level still runs the benchmark, and a
 * refusal is judged, and logged, as without statistics. open_load must
 * leave nothing loaded when it fails. Returns the last call's answer.
 */
int trig_load_stats_first(int (*open_load)(void *arg, bool stats), void *arg);

#endif /* BENCHCORE_TRIG_LOAD_H */
