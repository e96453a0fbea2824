/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A run document of the model written back as JSON text (run_doc_text.c).
 */
#ifndef BENCHCORE_RUN_DOC_TEXT_H
#define BENCHCORE_RUN_DOC_TEXT_H

#include <stddef.h>

struct bc_doc_run;

/*
 * The run's document as JSON text again (malloc'd, *len its length):
 * every member as read, "run_id" and "label" given the values passed
 * (those not NULL; added at the end when absent). NULL when out of memory.
 */
char *bc_doc_run_text(const struct bc_doc_run *run, const char *run_id, const char *label,
		      size_t *len);

#endif /* BENCHCORE_RUN_DOC_TEXT_H */
