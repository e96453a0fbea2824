// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The store tests' PostgreSQL server: pg_cluster.sh leaves its names in
 * <build>/tests/pg/env as KEY='VALUE' lines, or the reason it could not
 * start one in <build>/tests/pg/skip.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libpq-fe.h>

#include "bc_test_pg.h"

#define BC_TEST_PG_DIR BC_TEST_BUILD_DIR "/tests/pg"

static bool bc_test_pg_get(const char *text, const char *key, char *out, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *v, *end;

		if (strncmp(p, key, kl) || p[kl] != '=')
			continue;
		v = p + kl + 1;
		if (*v == '\'')
			v++;
		end = strchr(v, '\n');
		if (!end)
			end = v + strlen(v);
		if (end > v && end[-1] == '\'')
			end--;
		snprintf(out, len, "%.*s", (int)(end - v), v);
		return true;
	}
	return false;
}

int bc_test_pg_setup(struct bc_test_pg *pg, const char *test)
{
	char text[4096] = "", reason[512] = "";
	size_t n;
	FILE *f = fopen(BC_TEST_PG_DIR "/skip", "r");

	memset(pg, 0, sizeof(*pg));
	if (f) {
		if (!fgets(reason, sizeof(reason), f))
			reason[0] = '\0';
		fclose(f);
		printf("%s: skipped: no PostgreSQL server: %s", test, reason);
		return 77;
	}
	f = fopen(BC_TEST_PG_DIR "/env", "r");
	if (!f) {
		printf("%s: skipped: no PostgreSQL server (the pg_cluster_start test starts one; ctest -R %s runs it first)\n",
		       test, test);
		return 77;
	}
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	if (!bc_test_pg_get(text, "BC_PG_ADMIN", pg->admin, sizeof(pg->admin)) ||
	    !bc_test_pg_get(text, "BC_PG_PORT", pg->port, sizeof(pg->port)) ||
	    !bc_test_pg_get(text, "BC_PG_WRITER", pg->writer, sizeof(pg->writer)) ||
	    !bc_test_pg_get(text, "BC_PG_READER", pg->reader, sizeof(pg->reader)) ||
	    !bc_test_pg_get(text, "BC_PG_PASSWORD", pg->password, sizeof(pg->password))) {
		printf("%s: %s/env lacks a name\n", test, BC_TEST_PG_DIR);
		return 1;
	}
	return 0;
}

static void bc_test_pg_quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

void bc_test_pg_sql(const struct bc_test_pg *pg, const char *db, const char *sql)
{
	char conninfo[768];
	PGresult *res;
	PGconn *c;

	snprintf(conninfo, sizeof(conninfo), "%s%s%s", pg->admin, db ? " dbname=" : "",
		 db ? db : "");
	c = PQconnectdb(conninfo);
	if (PQstatus(c) != CONNECTION_OK)
		fail_msg("the test server: %s", PQerrorMessage(c));
	PQsetNoticeProcessor(c, bc_test_pg_quiet, NULL);
	res = PQexec(c, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", sql, PQerrorMessage(c));
	PQclear(res);
	PQfinish(c);
}

void bc_test_pg_store(const struct bc_test_pg *pg, const char *name, char *buf, size_t len)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s", name);
	bc_test_pg_sql(pg, NULL, sql);
	snprintf(sql, sizeof(sql), "CREATE DATABASE %s OWNER %s", name, pg->writer);
	bc_test_pg_sql(pg, NULL, sql);
	assert_true(snprintf(buf, len, "postgresql://%s:%s@127.0.0.1:%s/%s", pg->writer,
			     pg->password, pg->port, name) < (int)len);
}
