/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The result store's embedded engine (store_sqlite.c): one SQLite file,
 * the default, which needs no server.
 */
#ifndef BENCHCORE_STORE_SQLITE_H
#define BENCHCORE_STORE_SQLITE_H

#include "store_engine.h"

extern const struct bc_db_ops bc_db_sqlite;

#endif /* BENCHCORE_STORE_SQLITE_H */
