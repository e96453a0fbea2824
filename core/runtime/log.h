/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The core's side of the logger (log.c); plugins log through bc_log().
 */
#ifndef BENCHCORE_LOG_H
#define BENCHCORE_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <benchcore/benchcore.h>

/* -2: as -1, and libbpf's own lines dropped, warnings included (a caller
 * that says why in its own words). Also routes libbpf's output. */
void bc_log_set_verbosity(int verbosity);
int bc_log_verbosity_get(void);
void bc_log_set_file(FILE *f);
/* bc_log() with its own prefix ("benchcore: PLUGIN:BENCH: "), every level. */
void bc_vlog_prefixed(enum bc_log_level level, const char *prefix, const char *fmt, va_list ap);			/* NULL = stderr; for tests */
/* A one-line reason into err[len] (nothing when err is NULL). */
void bc_set_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* BENCHCORE_LOG_H */
