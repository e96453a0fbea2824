// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#include "bc_test_bench.h"
#include "json_read.h"

#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

struct bc_json *bc_test_bench_json(struct bc_test_run *c, const char *bench,
				   const char *const *extra)
{
	const char *args[32] = { "run", bench, "-w0", "-d1", "--format", "json" };
	struct bc_json *doc;
	char err[256];
	size_t n = 6;

	for (; extra && *extra && n < 31; extra++)
		args[n++] = *extra;
	bc_test_run_benchcore(c, args);
	if (c->status != 0)
		fail_msg("%s: exit %d\nstderr: %s", bench, c->status, c->err);
	doc = bc_json_parse(c->out, strlen(c->out), err, sizeof(err));
	if (!doc)
		fail_msg("%s: stdout is not JSON (%s):\n%s", bench, err, c->out);
	return doc;
}

static double summary_field(const struct bc_json *doc, const char *metric, const char *field)
{
	const struct bc_json *m = bc_json_get(bc_json_get(doc, "summary"), metric);

	if (!m)
		fail_msg("the summary has no metric '%s'", metric);
	return bc_json_num(bc_json_get(m, field), -1);
}

double bc_test_summary_max(const struct bc_json *doc, const char *metric)
{
	return summary_field(doc, metric, "max");
}

const char *bc_test_attach_point_in(const struct bc_json *doc, const char *const *prefixes)
{
	const char *ap = bc_json_str(bc_json_get(doc, "attach_point"));

	if (!ap || !ap[0])
		fail_msg("the report names no attach point");
	for (; *prefixes; prefixes++)
		if (!strncmp(ap, *prefixes, strlen(*prefixes)))
			return ap;
	fail_msg("unexpected attach point '%s'", ap);
	return ap;
}

unsigned int bc_test_program_count(const struct bc_json *doc, const char *role)
{
	const struct bc_json *progs = bc_json_get(doc, "programs");
	unsigned int n = 0;
	size_t i;

	if (!progs || progs->type != BC_JSON_ARRAY)
		return 0;
	for (i = 0; i < progs->cnt; i++) {
		const char *r = bc_json_str(bc_json_get(progs->items[i], "role"));

		if (r && !strcmp(r, role))
			n++;
	}
	return n;
}

double bc_test_option_num(const struct bc_json *doc, const char *name)
{
	const struct bc_json *v = bc_json_get(bc_json_get(bc_json_get(doc, "config"),
							  "plugin_options"), name);

	if (!v || v->type != BC_JSON_NUMBER)
		fail_msg("the configuration has no number for option '%s'", name);
	return bc_json_num(v, -1);
}

void bc_test_expect_last_line(const char *bench, const char *const *extra, const char *line_re)
{
	const char *args[32] = { "run", bench, "-w0", "-d2" };
	struct bc_test_run c;
	char *last, *end;
	size_t n = 4;
	regex_t re;

	for (; extra && *extra && n < 31; extra++)
		args[n++] = *extra;
	bc_test_run_benchcore(&c, args);
	if (c.status != 0)
		fail_msg("%s: exit %d\nstderr: %s", bench, c.status, c.err);
	/* The last non-empty line. */
	end = c.out + strlen(c.out);
	while (end > c.out && end[-1] == '\n')
		*--end = '\0';
	last = strrchr(c.out, '\n');
	last = last ? last + 1 : c.out;
	assert_int_equal(regcomp(&re, line_re, REG_EXTENDED | REG_NOSUB), 0);
	if (regexec(&re, last, 0, NULL, 0))
		fail_msg("%s: the last line\n  %s\ndoes not match\n  %s", bench, last, line_re);
	print_message("%s: %s\n", bench, last);
	regfree(&re);
	bc_test_run_free(&c);
}

void bc_test_expect_usage(const char *const *args, const char *needle)
{
	struct bc_test_run c;

	bc_test_run_benchcore(&c, args);
	if (c.status != 2 || !strstr(c.err, needle))
		fail_msg("expected exit 2 and '%s'; got %d: %s", needle, c.status, c.err);
	bc_test_run_free(&c);
}
