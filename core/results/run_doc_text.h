/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A run document of the model written back as JSON text (run_doc_text.c).
 */
#ifndef BENCHCORE_RUN_DOC_TEXT_H
#define BENCHCORE_RUN_DOC_TEXT_H

#include <stddef.h>

struct bc_doc_run;

/* Levels of nesting a document may have to be written back (json.h's
 * writer keeps 64, the root's included). */
#define BC_DOC_TEXT_MAX_DEPTH 62

/*
 * The run's document as JSON text again (malloc'd, *len its length):
 * every member as read, "run_id" and "label" given the values passed
 * (those not NULL; added at the end when absent). NULL with errno ELOOP
 * for a document nested deeper than BC_DOC_TEXT_MAX_DEPTH levels (the
 * writer's limit; benchcore's own nest about 6), else ENOMEM.
 */
char *bc_doc_run_text(const struct bc_doc_run *run, const char *run_id, const char *label,
		      size_t *len);

#endif /* BENCHCORE_RUN_DOC_TEXT_H */
