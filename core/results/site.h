/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The result store as a static HTML site (site.c).
 */
#ifndef BENCHCORE_SITE_H
#define BENCHCORE_SITE_H

#include <stdbool.h>

struct bc_store;
struct bc_store_filter;

/* Is DIR (which exists) an earlier report or empty, so that a new report
 * may replace it? */
bool bc_site_replaceable(const char *dir);
/* Is `file` (its device and inode) anywhere inside DIR? A report that
 * replaced DIR would delete it: an input is never inside an output. */
bool bc_site_holds(const char *dir, const char *file);

/* Writes the entries of the store that match f (and ended well) as a site
 * in DIR, made beside it and swapped in whole. store_path names the store
 * in the pages. Returns the command's exit status, having said what
 * failed in one line. */
int bc_site_write(struct bc_store *store, const char *store_path, struct bc_store_filter *f,
		  const char *dir);

#endif /* BENCHCORE_SITE_H */
