/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The result store on a PostgreSQL server (store_pg.c), through libpq:
 * one store that many machines save into at once.
 */
#ifndef BENCHCORE_STORE_PG_H
#define BENCHCORE_STORE_PG_H

#include "store_engine.h"

extern const struct bc_db_ops bc_db_pg;

#endif /* BENCHCORE_STORE_PG_H */
