/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The PostgreSQL server of the store tests (tests/store/pg_cluster.sh,
 * started by the pg_cluster_start test): its names, a new database per
 * test, and SQL as its superuser. Failures are cmocka failures.
 */
#ifndef BENCHCORE_TEST_PG_H
#define BENCHCORE_TEST_PG_H

#include <stddef.h>

struct bc_test_pg {
	char admin[512];	/* libpq keywords: the superuser over the socket */
	char port[16];		/* 127.0.0.1's, where a password is asked */
	char writer[64];	/* a role that logs in with password */
	char reader[64];	/* another, for GRANT SELECT */
	char password[128];	/* theirs: what no output may carry */
};

/* Reads the server's names: 0, or 77 (skip) having printed why there is
 * no server (test is the test's name, for the line). */
int bc_test_pg_setup(struct bc_test_pg *pg, const char *test);
/* SQL as the superuser in database db (NULL: the cluster's own). */
void bc_test_pg_sql(const struct bc_test_pg *pg, const char *db, const char *sql);
/* A new, empty database name (dropped first if there) that pg->writer
 * owns, and its store name, with the writer's password, into buf. */
void bc_test_pg_store(const struct bc_test_pg *pg, const char *name, char *buf, size_t len);

#endif /* BENCHCORE_TEST_PG_H */
