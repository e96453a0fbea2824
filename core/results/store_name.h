/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What a store's name says (store_name.c): a file (SQLite) or a database
 * server (PostgreSQL, through libpq), and how a message shows it. A
 * server's name may carry a password; every line that names a store
 * shows it through bc_store_shown(), never as given.
 */
#ifndef BENCHCORE_STORE_NAME_H
#define BENCHCORE_STORE_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* What replaces a password in a shown name. */
#define BC_STORE_MASK "***"

/*
 * A PostgreSQL store: a URI (postgresql://, postgres://) or a libpq
 * keyword string ("service=team", "host=db dbname=bench"), whose first
 * word is a keyword followed by '='. Anything else is a file's path; a
 * file whose name looks like a keyword string is spelled "./NAME".
 */
bool bc_store_is_server(const char *name);

/*
 * name as a message shows it: a password in a URI's user information
 * ("user:PASSWORD@"), in its parameters ("?password=...") or in a keyword
 * string ("password=...") replaced by BC_STORE_MASK; a file's path as it
 * is. Returns buf (cut to len, always terminated).
 */
const char *bc_store_shown(const char *name, char *buf, size_t len);

/* The longest shown name a message carries in full. */
#define BC_STORE_SHOWN_MAX 1024

#endif /* BENCHCORE_STORE_NAME_H */
