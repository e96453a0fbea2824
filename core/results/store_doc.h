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
#include <stdio.h>

#include "prog_change.h"
#include "store.h"

struct bc_doc_run;

/* A document ready for the store. */
struct bc_store_doc {
	struct bc_store_keys k;		/* point into run and the members below */
	struct bc_doc_run *run;		/* the document, read by the model */
	char *text;			/* as stored: with "run_id" (and "label") */
	size_t len;
	char run_id[40];
	struct bc_store_metric *metrics;	/* k.metrics: every figure by name */
	char prog_digest[BC_PROG_DIGEST_SIZE];	/* k.prog_digest, when known */
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

/*
 * bc_store_each() for f->metric: an entry saved before the store kept
 * figures by name gets its figure from its document (NULL: no such figure,
 * and the entry is left out), so fn sees every selected entry's figure of
 * that name in its metric columns alike. Without f->metric, bc_store_each().
 */
int bc_store_each_figure(struct bc_store *s, const struct bc_store_filter *f, bc_store_row_fn fn,
			 void *cookie, char *err, size_t err_len);
/* The names of the figures the entries f selects have ("hits, drops,
 * per_producer"), for a refusal of a name they lack; f->metric aside. */
int bc_store_doc_metric_names(struct bc_store *s, const struct bc_store_filter *f, char *buf,
			      size_t len, char *err, size_t err_len);

/* One document to save: its text and the entry's label (NULL: none). */
struct bc_store_item {
	const char *text;
	size_t len;
	const char *label;
};
/*
 * Saves the items into the store at path in one transaction: all are
 * there afterwards, or none is (err says why in one line). *added and
 * *dups (may be NULL) count the new entries and those that were there
 * already. A transaction that lost a race with another writer's is run
 * again, a few times.
 */
int bc_store_save_items(const char *path, const struct bc_store_item *items, size_t cnt,
			size_t *added, size_t *dups, char *err, size_t err_len);

/* Documents read for import, in memory until all are read: a bad file
 * stops the import before anything is written. */
struct bc_import {
	struct bc_store_item *items;
	size_t cnt, cap;
	char **texts;			/* owned */
	size_t text_cnt;
	char **labels;			/* owned */
	size_t label_cnt;
	const char *label;		/* --label */
};
/* Adds the documents of one file: a run, sweep or suite document, an
 * array of run documents (what export writes), or another store's
 * entries with their labels (a store file, or a server's name). -EINVAL
 * with one line in err. */
int bc_import_file(struct bc_import *im, const char *path, char *err, size_t err_len);
/* Adds the entries of the store at path that f selects (NULL: all), with
 * their labels: what `store push` copies. */
int bc_import_store(struct bc_import *im, const char *path, const struct bc_store_filter *f,
		    char *err, size_t err_len);
void bc_import_free(struct bc_import *im);

/* The entries that match f, as saved: one document to standard output or
 * the file o, several as a JSON array, or one RUN_ID.json each when o is a
 * directory. Returns the command's exit status, having said what failed. */
int bc_store_export_entries(struct bc_store *s, const struct bc_store_filter *f, const char *o);
/* One line per matching entry (`store list`). */
int bc_store_list_write(struct bc_store *s, const struct bc_store_filter *f, FILE *out, char *err,
			size_t err_len);

#endif /* BENCHCORE_STORE_DOC_H */
