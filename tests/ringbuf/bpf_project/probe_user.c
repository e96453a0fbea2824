// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Compiles only if the skeleton was generated and matches benchcore.h. */
#include <benchcore/benchcore.h>
#include "probe.skel.h"

int main(void)
{
	struct probe *skel = probe__open();

	if (!skel)
		return 1;
	skel->rodata->bc_tgid = 1;
	probe__destroy(skel);
	return 0;
}
