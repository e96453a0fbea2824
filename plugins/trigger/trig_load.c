// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "trig_load.h"

#include <bpf/libbpf.h>

/* The level at which the kernel reports the verifier's statistics. */
#define TRIG_LOG_LEVEL_STATS 4

void trig_ask_verifier_stats(struct bpf_object *obj)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj)
		if (bpf_program__autoload(p))
			bpf_program__set_log_level(p, TRIG_LOG_LEVEL_STATS);
}

int trig_load_stats_first(int (*open_load)(void *arg, bool stats), void *arg)
{
	int err = open_load(arg, true);

	return err ? open_load(arg, false) : 0;
}
