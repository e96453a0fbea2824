// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The kernel runner grows: tests/upstream/runner-names lists every
 * benchmark name of the runner trees this project follows, with the tree
 * and commit each was read from. Each name must be one of two things:
 *  - a benchmark of `benchcore list` (its bare name, any plugin), or
 *  - named in docs/compat.md's "Not carried yet" section (a bullet whose
 *    lead, before its first ": ", names it in backquotes), which says what
 *    it waits for.
 * A name that is both is an error too: once carried, its "not carried"
 * bullet is stale. The failure message lists exactly which names are
 * missing, with their tree, so the next runner update is one file's edit
 * and this test's answer.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bc_test_report.h"
#include "json_read.h"

#define NAMES_FILE BC_TEST_SOURCE_DIR "/tests/upstream/runner-names"
#define COMPAT_FILE BC_TEST_SOURCE_DIR "/docs/compat.md"
#define SECTION "## Not carried yet"

struct strs {
	char **v;
	size_t cnt;
};

static void strs_add(struct strs *s, const char *p, size_t len)
{
	s->v = realloc(s->v, (s->cnt + 1) * sizeof(*s->v));
	assert_non_null(s->v);
	s->v[s->cnt] = strndup(p, len);
	assert_non_null(s->v[s->cnt]);
	s->cnt++;
}

static bool strs_has(const struct strs *s, const char *name)
{
	for (size_t i = 0; i < s->cnt; i++)
		if (!strcmp(s->v[i], name))
			return true;
	return false;
}

static void strs_free(struct strs *s)
{
	for (size_t i = 0; i < s->cnt; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->cnt = 0;
}

/* The names of "NAME TREE@COMMIT" lines (comments and blanks skipped), and
 * beside each its origin. */
static void read_runner_names(struct strs *names, struct strs *origins)
{
	char *text = bc_test_read_file(NAMES_FILE), *line, *save = NULL;

	if (!text)
		fail_msg("cannot read %s", NAMES_FILE);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = line, *name, *origin;
		size_t n;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			continue;
		name = p;
		n = strcspn(p, " \t");
		origin = p + n;
		while (isspace((unsigned char)*origin))
			origin++;
		if (!*origin || !strchr(origin, '@'))
			fail_msg("%s: '%s': expected NAME TREE@COMMIT", NAMES_FILE, line);
		strs_add(names, name, n);
		strs_add(origins, origin, strlen(origin));
	}
	free(text);
	if (!names->cnt)
		fail_msg("%s lists no names", NAMES_FILE);
}

/* Every backquoted word in the lead of each "- " bullet of the section: the
 * bullet's text up to its first ": ", which may wrap onto the bullet's
 * indented continuation lines. */
static void read_not_carried(struct strs *out)
{
	char *text = bc_test_read_file(COMPAT_FILE), *line, *save = NULL;
	bool in = false, seen = false, in_lead = false;

	if (!text)
		fail_msg("cannot read %s", COMPAT_FILE);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p, *end;

		if (!strncmp(line, "## ", 3)) {
			in = !strcmp(line, SECTION);
			seen |= in;
			continue;
		}
		if (!in)
			continue;
		if (strncmp(line, "- ", 2) && !(in_lead && !strncmp(line, "  ", 2))) {
			in_lead = false;
			continue;
		}
		end = strstr(line, ": ");
		in_lead = !end;
		if (!end)
			end = line + strlen(line);
		for (p = line; p < end && (p = strchr(p, '`')) && p < end; ) {
			const char *q = strchr(p + 1, '`');

			if (!q)
				break;
			strs_add(out, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		}
	}
	free(text);
	if (!seen)
		fail_msg("%s has no '%s' section", COMPAT_FILE, SECTION);
}

/* Every benchmark's bare name in `list --format json`; in *plain the ones
 * not marked runner_name (their Summary would not keep the runner's line). */
static void read_listed(struct strs *out, struct strs *plain)
{
	const char *args[] = { "list", NULL };
	struct bc_test_run r;
	struct bc_json *doc = bc_test_run_json(&r, args);
	const struct bc_json *plugins = bc_json_get(doc, "plugins");

	for (size_t i = 0; i < bc_json_len(plugins); i++) {
		const struct bc_json *b = bc_json_get(bc_json_at(plugins, i), "benchmarks");

		for (size_t j = 0; j < bc_json_len(b); j++) {
			const struct bc_json *bench = bc_json_at(b, j);
			const char *name = bc_json_str(bc_json_get(bench, "name"));
			const char *colon;

			assert_non_null(name);
			colon = strchr(name, ':');
			name = colon ? colon + 1 : name;
			strs_add(out, name, strlen(name));
			if (!bc_json_bool(bc_json_get(bench, "runner_name"), false))
				strs_add(plain, name, strlen(name));
		}
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
}

static void test_every_runner_name_accounted_for(void **state)
{
	struct strs names = { 0 }, origins = { 0 }, listed = { 0 }, waiting = { 0 }, plain = { 0 };
	size_t missing = 0, stale = 0, carried = 0, unshaped = 0;

	(void)state;
	read_runner_names(&names, &origins);
	read_not_carried(&waiting);
	read_listed(&listed, &plain);
	for (size_t i = 0; i < names.cnt; i++) {
		bool in_list = strs_has(&listed, names.v[i]);
		bool in_compat = strs_has(&waiting, names.v[i]);

		carried += in_list;
		if (!in_list && !in_compat) {
			printf("MISSING %s (%s): not in `benchcore list`, nor in docs/compat.md's "
			       "\"Not carried yet\"\n", names.v[i], origins.v[i]);
			missing++;
		} else if (in_list && strs_has(&plain, names.v[i])) {
			printf("SHAPE %s (%s): in `benchcore list` without runner_name: its Iter and "
			       "Summary lines would not keep the runner's shapes\n", names.v[i],
			       origins.v[i]);
			unshaped++;
		} else if (in_list && in_compat) {
			printf("STALE %s (%s): in `benchcore list`, and still in docs/compat.md's "
			       "\"Not carried yet\"\n", names.v[i], origins.v[i]);
			stale++;
		}
	}
	printf("%zu runner names: %zu in list, %zu not carried yet, %zu missing, %zu stale\n",
	       names.cnt, carried, names.cnt - carried - missing, missing, stale);
	strs_free(&names);
	strs_free(&origins);
	strs_free(&listed);
	strs_free(&waiting);
	strs_free(&plain);
	if (missing || stale || unshaped)
		fail_msg("%zu runner name(s) unaccounted for, %zu stale, %zu without runner_name "
			 "(lines above)", missing, stale, unshaped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_runner_name_accounted_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
