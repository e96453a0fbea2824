// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* CPU lists (--prod-affinity, CPUSET options): a list that parses prints
 * back in a form that parses to the same set. */
#include <benchcore/benchcore.h>
#include "cpuset.h"
#include "fuzz.h"

static struct bc_cpuset a, b;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = bc_fuzz_cstr(data, size), err[256] = "", list[64 * 1024];

	if (!text)
		return 0;
	if (bc_cpuset_parse(text, &a, err, sizeof(err))) {
		if (!err[0])
			abort();
		free(text);
		return 0;
	}
	bc_cpuset_format(&a, list, sizeof(list));
	if (bc_cpuset_parse(list, &b, err, sizeof(err)) || a.cnt != b.cnt ||
	    memcmp(a.cpus, b.cpus, a.cnt * sizeof(a.cpus[0])))
		abort();
	free(text);
	return 0;
}
