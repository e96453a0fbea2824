/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Run documents in and out of the store (store_doc.c): the columns an
 * entry is indexed by, read from its document; saving a batch of
 * documents in one transaction; the `store` command (import, export,
 * list).
 */
#ifndef BENCHCORE_STORE_DOC_H
#define BENCHCORE_STORE_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

struct bc_json;

/* A document ready for the store. */
struct bc_store_doc {
	struct bc_store_keys k;		/* point into json and the strings below */
	struct bc_json *json;		/* the parsed document */
	char *text;			/* as stored: with "run_id" (and "label") */
	size_t len;
	char *bench;
	char *options;
	char run_id[40];
};

/*
 * Reads one run document (text, len) for the store. A document without a
 * run id gets one made from its bytes, so that importing the same file
 * twice keeps it once; `label` (NULL: the document's own "label", if any)
 * is written into the stored text too, so that an exported entry carries
 * it. -EINVAL with one line in err for text that is not a run document.
 */
int bc_store_doc_read(const char *text, size_t len, const char *label, struct bc_store_doc *d,
		      char *err, size_t err_len);
void bc_store_doc_free(struct bc_store_doc *d);

/* The headline metric of a run document: hits, else ops, else the first
 * summary entry with a mean (what `plot` draws); NULL when none. */
const char *bc_store_doc_headline(const struct bc_json *doc);

/* One document to save: its text and the entry's label (NULL: none). */
struct bc_store_item {
	const char *text;
	size_t len;
	const char *label;
};
/*
 * Saves the items into the store at store_opt (NULL: the default place,
 * bc_store_path()) in one transaction: all are there afterwards, or none
 * is (err says why in one line). *added and *dups (may be NULL) count the
 * new entries and those that were there already.
 */
int bc_store_save_items(const char *store_opt, const struct bc_store_item *items, size_t cnt,
			size_t *added, size_t *dups, char *err, size_t err_len);

/* The options that pick a store and its entries (store export and list,
 * history, report): --store PATH, --bench, --label, --kernel, --host,
 * --cpu-model, --options, --since, --run-id. 1 when argv[*i] was one (its
 * value taken), 0 when not, -EINVAL after a usage line. */
int bc_store_filter_opt(int argc, char **argv, int *i, const char **store,
			struct bc_store_filter *f);

/* `benchcore store import|export|list|path`. */
struct bc_cli_env;
int bc_store_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_STORE_DOC_H */
