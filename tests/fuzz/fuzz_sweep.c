// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* --sweep specs: parse, count the product, expand the first and last
 * combination and type every value as the core would without a plugin. */
#include <benchcore/benchcore.h>
#include "sweep_axis.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = bc_fuzz_cstr(data, size), err[512] = "";
	struct bc_sweep_axis ax;
	size_t combos, choice[1];

	if (!spec)
		return 0;
	if (bc_sweep_axis_parse(spec, &ax, err, sizeof(err))) {
		if (!err[0])
			abort();
		free(spec);
		return 0;
	}
	if (!ax.name_cnt || !ax.value_cnt)
		abort();
	combos = bc_sweep_combination_cnt(&ax, 1);
	bc_sweep_combination(&ax, 1, combos - 1, choice);
	if (choice[0] >= ax.value_cnt)
		abort();
	for (size_t n = 0; n < ax.name_cnt; n++) {
		for (size_t v = 0; v < ax.value_cnt && v < 64; v++) {
			char *arg = NULL;

			err[0] = '\0';
			if (bc_sweep_option_arg(NULL, ax.names[n], ax.values[v], &arg, err,
						sizeof(err)) && !err[0])
				abort();
			free(arg);
		}
	}
	bc_sweep_axis_free(&ax);
	free(spec);
	return 0;
}
