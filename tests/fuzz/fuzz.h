/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The parsers' fuzz targets share libFuzzer's entry point; replay.c runs a
 * corpus through the same entry point without libFuzzer, so the seeds are
 * a regression test in every build.
 */
#ifndef BENCHCORE_FUZZ_H
#define BENCHCORE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string (the parsers take text); NULL when it holds a
 * NUL, which no command line or file name can. */
static inline char *bc_fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s;

	if (memchr(data, 0, size))
		return NULL;
	s = malloc(size + 1);
	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
