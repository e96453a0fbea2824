// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The JSON reader compare and the batches use (core/json.c, jansson behind
 * it): any bytes parse into a tree that can be walked, or fail with one
 * "offset N: reason" line. The libFuzzer build instruments benchcore's side
 * (the conversion and the error paths), not the installed libjansson. */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "json.h"
#include "json_read.h"

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
		/* Every refusal says why, where, in one line. */
		if (!err[0] || strncmp(err, "offset ", 7) || strchr(err, '\n'))
			abort();
		return 0;
	}
	(void)count(v);
	(void)bc_json_get(v, "summary");
	(void)bc_json_num(bc_json_at(v, 0), 0);
	bc_json_free(v);
	return 0;
}
