/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * An in-memory FILE for the writer tests: what a reporter printed ends up in
 * `out` (out_len bytes) once the stream is closed, ready to compare.
 * Needs <cmocka.h> before it.
 */
#ifndef BC_TEST_MEM_OUT_H
#define BC_TEST_MEM_OUT_H

#include <stdio.h>
#include <stdlib.h>

static char *out;
static size_t out_len;

/* A fresh stream; the previous test's text is freed. */
static inline FILE *mem_open(void)
{
	FILE *f;

	free(out);
	out = NULL;
	f = open_memstream(&out, &out_len);
	assert_non_null(f);
	return f;
}

/* A cmocka teardown: nothing left for the leak checker. */
static inline int free_out(void **state)
{
	(void)state;
	free(out);
	out = NULL;
	return 0;
}

#endif /* BC_TEST_MEM_OUT_H */
