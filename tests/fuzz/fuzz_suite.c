// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Suite files (core/suite.c, core/words.c): any text parses into items or
 * fails with a line naming where. */
#define _GNU_SOURCE
#include <stdio.h>

#include <benchcore/benchcore.h>
#include "suite.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_suite suite;
	char err[512] = "";
	FILE *f;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (bc_suite_parse("fuzz.suite", f, &suite, err, sizeof(err))) {
		if (!err[0])
			abort();
	} else {
		for (size_t i = 0; i < suite.item_cnt; i++)
			if (suite.items[i].kind == BC_SUITE_RUN && !suite.items[i].arg_cnt)
				abort();
		bc_suite_free(&suite);
	}
	fclose(f);
	return 0;
}
