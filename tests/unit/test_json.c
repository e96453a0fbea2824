// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The JSON writer and reader, and the run report rendered from a hand-built
 * result and parsed back: what `benchcore compare` and scripts rely on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <benchcore/benchcore.h>
#include "stats.h"
#include "report.h"
#include "exit_status.h"
#include "fake_result.h"
#include "mem_out.h"
#include "json.h"
#include "json_read.h"

static struct bc_json *parse_ok(const char *text)
{
	char err[256];
	struct bc_json *v = bc_json_parse(text, strlen(text), err, sizeof(err));

	if (!v)
		fail_msg("parse of %s failed: %s", text, err);
	return v;
}

static void parse_errn(const char *text, size_t len, const char *msg)
{
	char err[256];

	errno = 0;
	assert_null(bc_json_parse(text, len, err, sizeof(err)));
	assert_int_equal(errno, EINVAL);
	if (strcmp(err, msg))
		fail_msg("input %.60s: got \"%s\", want \"%s\"", text, err, msg);
}

static void parse_err(const char *text, const char *msg)
{
	parse_errn(text, strlen(text), msg);
}

static void test_writer(void **state)
{
	struct bc_json_writer w;
	FILE *f = mem_open();

	(void)state;
	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "s", "q\"b\\n\nt\tc\x01 \xc2\xb1");
	bc_jw_num(&w, "nan", NAN);
	bc_jw_num(&w, "inf", INFINITY);
	bc_jw_num(&w, "int", 42);
	bc_jw_num(&w, "frac", 0.1);
	bc_jw_int(&w, "neg", -7);
	bc_jw_bool(&w, "t", true);
	bc_jw_null(&w, "z");
	bc_jw_str(&w, "nullstr", NULL);
	bc_jw_arr_begin(&w, "empty");
	bc_jw_arr_end(&w);
	bc_jw_arr_begin(&w, "a");
	bc_jw_uint(&w, NULL, 1);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_obj_end(&w);
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	assert_int_equal(bc_jw_finish(&w), 0);
	fclose(f);

	assert_string_equal(out,
			    "{\n"
			    "  \"s\": \"q\\\"b\\\\n\\nt\\tc\\u0001 \xc2\xb1\",\n"
			    "  \"nan\": null,\n"
			    "  \"inf\": null,\n"
			    "  \"int\": 42,\n"
			    "  \"frac\": 0.1,\n"
			    "  \"neg\": -7,\n"
			    "  \"t\": true,\n"
			    "  \"z\": null,\n"
			    "  \"nullstr\": null,\n"
			    "  \"empty\": [],\n"
			    "  \"a\": [\n"
			    "    1,\n"
			    "    {}\n"
			    "  ]\n"
			    "}\n");
}

static void test_writer_misuse(void **state)
{
	struct bc_json_writer w;
	FILE *f = mem_open();

	(void)state;
	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_num(&w, NULL, 1);		/* a member without a key */
	assert_int_equal(bc_jw_finish(&w), -EINVAL);
	fclose(f);

	f = mem_open();
	bc_jw_init(&w, f);
	bc_jw_arr_begin(&w, NULL);	/* never closed */
	assert_int_equal(bc_jw_finish(&w), -EINVAL);
	fclose(f);
}

static void test_round_trip(void **state)
{
	const char *s = "tab\there \"quoted\" back\\slash \x01 \xe2\x82\xac";
	const double nums[] = { 0, -1, 1e-300, 123456789.125, 1.0 / 3, 6.02e23 };
	struct bc_json_writer w;
	struct bc_json *v;
	FILE *f = mem_open();
	size_t i;

	(void)state;
	bc_jw_init(&w, f);
	bc_jw_obj_begin(&w, NULL);
	bc_jw_str(&w, "key \"with\" quotes", s);
	bc_jw_arr_begin(&w, "nums");
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		bc_jw_num(&w, NULL, nums[i]);
	bc_jw_arr_end(&w);
	bc_jw_obj_end(&w);
	assert_int_equal(bc_jw_finish(&w), 0);
	fclose(f);

	v = parse_ok(out);
	assert_string_equal(bc_json_str(bc_json_get(v, "key \"with\" quotes")), s);
	assert_int_equal(bc_json_len(bc_json_get(v, "nums")), 6);
	for (i = 0; i < 6; i++)
		assert_true(bc_json_num(bc_json_at(bc_json_get(v, "nums"), i), NAN) == nums[i]);
	bc_json_free(v);
}

static void test_parser_values(void **state)
{
	struct bc_json *v;

	(void)state;
	v = parse_ok(" {\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\\/\"],"
		     " \"b\": {}, \"c\": [] } ");
	assert_int_equal(v->type, BC_JSON_OBJECT);
	assert_int_equal(bc_json_len(v), 3);
	assert_true(bc_json_num(bc_json_at(bc_json_get(v, "a"), 0), 0) == 1);
	assert_true(bc_json_num(bc_json_at(bc_json_get(v, "a"), 1), 0) == -2500);
	assert_true(bc_json_bool(bc_json_at(bc_json_get(v, "a"), 2), false));
	assert_false(bc_json_bool(bc_json_at(bc_json_get(v, "a"), 3), true));
	assert_true(bc_json_is_null(bc_json_at(bc_json_get(v, "a"), 4)));
	assert_string_equal(bc_json_str(bc_json_at(bc_json_get(v, "a"), 5)),
			    "x\xc3\xa9\xf0\x9f\x98\x80/");
	assert_int_equal(bc_json_get(v, "b")->type, BC_JSON_OBJECT);
	assert_int_equal(bc_json_len(bc_json_get(v, "c")), 0);
	/* Wrong types and missing keys give NULL / the default, not a crash. */
	assert_null(bc_json_get(v, "missing"));
	assert_null(bc_json_str(bc_json_get(v, "b")));
	assert_true(bc_json_num(bc_json_get(v, "a"), 7) == 7);
	assert_null(bc_json_at(bc_json_get(v, "a"), 6));
	assert_null(bc_json_get(NULL, "a"));
	bc_json_free(v);

	v = parse_ok("\"a\\u0000b\"");
	assert_int_equal(v->string_len, 3);
	bc_json_free(v);
}

/* What jansson reads beyond the shapes benchcore writes itself. */
static void test_parser_edges(void **state)
{
	static const char key_order[] = "{\"z\": 1, \"a\": 2, \"m\": 3}";
	struct bc_json *v;

	(void)state;
	/* uint64 counters beyond INT64_MAX read as doubles, as strtod gives them. */
	v = parse_ok("[18446744073709551615, 9223372036854775808, -9223372036854775809, 1e-999]");
	assert_true(bc_json_num(bc_json_at(v, 0), 0) == (double)UINT64_MAX);
	assert_true(bc_json_num(bc_json_at(v, 1), 0) == 9223372036854775808.0);
	assert_true(bc_json_num(bc_json_at(v, 2), 0) == -9223372036854775809.0);
	assert_true(bc_json_num(bc_json_at(v, 3), 1) == 0);	/* underflow reads as 0 */
	bc_json_free(v);

	/* Any value is a document. */
	v = parse_ok(" 42 ");
	assert_true(bc_json_num(v, 0) == 42);
	bc_json_free(v);
	v = parse_ok("null");
	assert_true(bc_json_is_null(v));
	bc_json_free(v);

	/* "\u0000" inside a string value: the length counts past it. */
	v = parse_ok("{\"s\": \"a\\u0000b\\u0000\"}");
	assert_int_equal(bc_json_get(v, "s")->string_len, 4);
	assert_memory_equal(bc_json_str(bc_json_get(v, "s")), "a\0b\0", 5);
	bc_json_free(v);

	/* Keys come back in input order, not sorted or hashed. */
	v = parse_ok(key_order);
	assert_int_equal(bc_json_len(v), 3);
	assert_string_equal(v->keys[0], "z");
	assert_string_equal(v->keys[1], "a");
	assert_string_equal(v->keys[2], "m");
	bc_json_free(v);

	/* A duplicate key: one member, at the first one's place, with the last value. */
	v = parse_ok("{\"b\": 1, \"a\": 2, \"b\": 3}");
	assert_int_equal(bc_json_len(v), 2);
	assert_string_equal(v->keys[0], "b");
	assert_true(bc_json_num(bc_json_at(v, 0), 0) == 3);
	assert_true(bc_json_num(bc_json_get(v, "b"), 0) == 3);
	assert_true(bc_json_num(bc_json_get(v, "a"), 0) == 2);
	bc_json_free(v);

	/* UTF-8 that is valid, written raw. */
	v = parse_ok("[\"\xc3\xa9\xf0\x9f\x98\x80\"]");
	assert_string_equal(bc_json_str(bc_json_at(v, 0)), "\xc3\xa9\xf0\x9f\x98\x80");
	bc_json_free(v);
}

/* n '[' then, if closed, n ']' (nul-terminated in buf). */
static const char *brackets(char *buf, size_t n, bool closed)
{
	memset(buf, '[', n);
	if (closed)
		memset(buf + n, ']', n);
	buf[closed ? 2 * n : n] = '\0';
	return buf;
}

static void test_parser_errors(void **state)
{
	static char deep[2 * 2100 + 1];
	struct bc_json *v;

	(void)state;
	parse_err("", "offset 0: unexpected token near end of file");
	parse_err("{\"a\": 1", "offset 7: '}' expected near end of file");
	parse_err("{\"a\": [1, 2", "offset 11: ']' expected near end of file");
	parse_err("{\"a\" 1}", "offset 6: ':' expected near '1'");
	parse_err("{1: 2}", "offset 2: string or '}' expected near '1'");
	parse_err("[1,]", "offset 4: unexpected token near ']'");
	parse_err("{\"a\": \"abc", "offset 10: premature end of input near '\"abc'");
	parse_err("[01]", "offset 2: invalid token near '0'");
	parse_err("[1.]", "offset 3: invalid token near '1.'");
	parse_err("[-]", "offset 2: invalid token near '-'");
	parse_err("[1e]", "offset 3: invalid token near '1e'");
	parse_err("[tru]", "offset 4: invalid token near 'tru'");
	parse_err("[NaN]", "offset 4: invalid token near 'NaN'");
	parse_err("\"\\x\"", "offset 3: invalid escape near '\"\\x'");
	parse_err("\"\\u12\"", "offset 6: invalid escape near '\"\\u12\"'");
	parse_err("\"\\ud83d\"", "offset 8: invalid Unicode '\\uD83D' near '\"\\ud83d\"'");
	parse_err("\"a\nb\"", "offset 2: unexpected newline near '\"a'");
	parse_err("{} x", "offset 4: end of file expected near 'x'");
	parse_err("{}{}", "offset 3: end of file expected near '{'");

	/* JSON has no infinity: a number beyond a double is refused, not inf. */
	parse_err("[1e999]", "offset 6: real number overflow near '1e999'");
	parse_err("{\"a\": -1e999}", "offset 12: real number overflow near '-1e999'");
	/* Bad UTF-8: a stray byte, an overlong '/', a UTF-16 surrogate, past U+10FFFF. */
	parse_err("\"\xff\"", "offset 1: unable to decode byte 0xff near '\"'");
	parse_err("[\"\xc0\xaf\"]", "offset 2: unable to decode byte 0xc0 near '\"'");
	parse_err("[\"\xed\xa0\x80\"]", "offset 2: unable to decode byte 0xed near '\"'");
	parse_err("[\"\xf4\x90\x80\x80\"]", "offset 2: unable to decode byte 0xf4 near '\"'");
	/* "\u0000" is fine in a value, not in a key. */
	parse_err("{\"a\\u0000b\": 1}",
		  "offset 11: NUL byte in object key not supported near '\"a\\u0000b\"'");
	/* A raw zero byte is named where it is, never "end of file". */
	parse_errn("[1]\0\0", 5, "offset 3: byte 0x00 (JSON text holds no zero bytes)");
	parse_errn("\0\0\0\0", 4, "offset 0: byte 0x00 (JSON text holds no zero bytes)");
	parse_errn("[\"a\0\"]", 6, "offset 3: control character 0x0 near '\"a'");
	/* The quoted token never breaks the line. */
	parse_err("\"a\x7f", "offset 3: premature end of input near '\"a?'");

	/* Nesting: 512 levels read; the bracket that opens level 513 is
	 * refused, whether the document would be valid, is cut short, or
	 * goes past jansson's own limit of 2048. */
	v = parse_ok(brackets(deep, 512, true));
	bc_json_free(v);
	parse_err(brackets(deep, 513, true), "offset 512: nesting deeper than 512 levels");
	parse_err(brackets(deep, 1000, false), "offset 512: nesting deeper than 512 levels");
	parse_err(brackets(deep, 2099, false), "offset 512: nesting deeper than 512 levels");
	parse_err(brackets(deep, 2099, true), "offset 512: nesting deeper than 512 levels");
	/* Brackets inside strings do not nest, and an earlier error comes first. */
	memset(deep, '[', 600);
	deep[0] = '"';
	strcpy(deep + 600, "\"");
	v = parse_ok(deep);
	assert_int_equal(bc_json_str(v)[1], '[');
	bc_json_free(v);
	deep[0] = 'x';
	parse_err(deep, "offset 1: invalid token near 'x'");
}

static void test_parse_file(void **state)
{
	char path[] = "/tmp/bc-test-json-XXXXXX", err[512];
	struct bc_json *v;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("{\"a\": [1, 2", f);
	fclose(f);
	assert_null(bc_json_parse_file(path, err, sizeof(err)));
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, ": offset 11: ']' expected near end of file"));
	f = fopen(path, "w");
	fputs("{\"a\": [1, 2]}\n", f);
	fclose(f);
	v = bc_json_parse_file(path, err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(bc_json_len(bc_json_get(v, "a")), 2);
	bc_json_free(v);
	unlink(path);
	assert_null(bc_json_parse_file(path, err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
}

static void test_report_round_trip(void **state)
{
	const struct bc_json *ctx, *cfg, *it, *sum, *hits, *st, *fig;
	struct fake_result fr;
	struct bc_json *doc;
	FILE *f = mem_open();

	(void)state;
	fake_result_init(&fr, FAKE_HITS_DROPS);
	fr.res.exit_status = BC_EXIT_OK;
	assert_int_equal(bc_report_json(f, &fr.cfg, &fr.res), 0);
	fclose(f);
	doc = parse_ok(out);

	assert_string_equal(bc_json_str(bc_json_get(doc, "benchcore_version")), bc_version());
	ctx = bc_json_get(doc, "context");
	assert_non_null(bc_json_str(bc_json_get(ctx, "date")));
	assert_int_equal(strlen(bc_json_str(bc_json_get(ctx, "date"))), 20);	/* ...T..:..:..Z */
	assert_non_null(bc_json_str(bc_json_get(ctx, "host")));
	assert_non_null(bc_json_str(bc_json_get(ctx, "kernel_release")));
	assert_non_null(bc_json_str(bc_json_get(ctx, "cpu_model")));
	assert_true(bc_json_num(bc_json_get(ctx, "cpu_count"), 0) >= 1);
	assert_int_equal(bc_json_get(ctx, "hypervisor")->type, BC_JSON_BOOL);
	assert_non_null(bc_json_str(bc_json_get(ctx, "libbpf_version")));

	assert_string_equal(bc_json_str(bc_json_get(bc_json_get(doc, "plugin"), "name")), "fake");
	assert_string_equal(bc_json_str(bc_json_get(bc_json_get(doc, "plugin"), "version")), "1.2");
	assert_string_equal(bc_json_str(bc_json_get(doc, "benchmark")), "fake-bench");
	assert_string_equal(bc_json_str(bc_json_get(doc, "attach_point")),
			    "tp/syscalls/sys_enter_getpgid");

	cfg = bc_json_get(doc, "config");
	assert_true(bc_json_num(bc_json_get(cfg, "producers"), 0) == 2);
	assert_true(bc_json_num(bc_json_get(cfg, "warmup_sec"), 0) == 1);
	assert_true(bc_json_num(bc_json_get(cfg, "duration_sec"), 0) == 5);
	assert_true(bc_json_bool(bc_json_get(cfg, "affinity"), false));
	assert_string_equal(bc_json_str(bc_json_get(cfg, "prod_cpus")), "0-1");
	assert_true(bc_json_is_null(bc_json_get(cfg, "cons_cpus")));
	/* Typed values, as the option table declares them. */
	assert_true(bc_json_num(bc_json_get(bc_json_get(cfg, "plugin_options"), "rb-batch-cnt"),
				0) == 50);
	assert_true(bc_json_bool(bc_json_get(bc_json_get(cfg, "plugin_options"), "rb-sampled"),
				 false));
	assert_int_equal(bc_json_len(bc_json_get(cfg, "plugin_options_set")), 2);

	assert_int_equal(bc_json_len(bc_json_get(doc, "metrics")), FAKE_METRICS);
	assert_string_equal(bc_json_str(bc_json_get(bc_json_at(bc_json_get(doc, "metrics"), 0),
						    "kind")), "counter");

	assert_int_equal(bc_json_len(bc_json_get(doc, "iterations")), FAKE_ITERS);
	it = bc_json_at(bc_json_get(doc, "iterations"), 0);
	assert_true(bc_json_bool(bc_json_get(it, "warmup"), false));
	it = bc_json_at(bc_json_get(doc, "iterations"), 2);
	assert_false(bc_json_bool(bc_json_get(it, "warmup"), true));
	assert_true(bc_json_num(bc_json_get(it, "length_sec"), 0) == 1);
	/* Plain events per second: no M scaling in JSON. */
	assert_true(bc_json_num(bc_json_get(bc_json_get(it, "values"), "hits"), 0) == 1.2e6);
	assert_true(bc_json_num(bc_json_get(bc_json_get(it, "cpu"), "producer_user_sec"), 0) == 1.5);

	sum = bc_json_get(doc, "summary");
	hits = bc_json_get(sum, "hits");
	assert_string_equal(bc_json_str(bc_json_get(hits, "unit")), "ops/s");
	assert_true(fabs(bc_json_num(bc_json_get(hits, "mean"), 0) - 1.2e6) < 1e-3);
	assert_true(fabs(bc_json_num(bc_json_get(hits, "stddev"), 0) - 0.2e6) < 1e-3);
	assert_true(bc_json_num(bc_json_get(hits, "min"), 0) == 1.0e6);
	assert_true(bc_json_num(bc_json_get(hits, "median"), 0) == 1.2e6);
	assert_true(bc_json_num(bc_json_get(hits, "max"), 0) == 1.4e6);
	assert_true(bc_json_num(bc_json_get(hits, "n"), 0) == 3);

	assert_true(bc_json_num(bc_json_get(bc_json_get(bc_json_get(doc, "cpu_utilisation"),
							"producer"), "mean"), 0) == 2);
	assert_true(fabs(bc_json_num(bc_json_get(bc_json_get(bc_json_get(doc, "cpu_utilisation"),
							     "per_cpu_second"), "hits"), 0) -
			 0.6e6) < 1e-3);

	/* The roles the metrics declared, and
	 * the stored figures, per iteration and for the run. */
	assert_string_equal(bc_json_str(bc_json_get(bc_json_at(bc_json_get(doc, "metrics"), 0),
						    "role")), "hits");
	assert_string_equal(bc_json_str(bc_json_get(bc_json_at(bc_json_get(doc, "metrics"), 1),
						    "role")), "drops");
	assert_true(bc_json_num(bc_json_get(bc_json_get(it, "figures"), "per_producer"), 0) == 0.6e6);
	assert_true(bc_json_num(bc_json_get(bc_json_get(it, "raw"), "hits"), 0) == 1.2e6 * 3);
	fig = bc_json_get(bc_json_get(sum, "figures"), "total_operations");
	assert_string_equal(bc_json_str(bc_json_get(fig, "kind")), "total");
	assert_string_equal(bc_json_str(bc_json_get(fig, "of")), "hits");
	assert_true(fabs(bc_json_num(bc_json_get(fig, "value"), 0) - 1.2e6) < 1e-3);
	assert_true(bc_json_num(bc_json_get(bc_json_get(fig, "stats"), "n"), 0) == 3);
	/* Readers that list the summary's rates skip the figures object. */
	assert_null(bc_json_get(bc_json_get(sum, "figures"), "mean"));
	assert_int_equal(bc_json_len(bc_json_get(doc, "programs")), 0);

	assert_string_equal(bc_json_str(bc_json_at(bc_json_get(doc, "warnings"), 0)),
			    "a \"quoted\" warning\twith a tab");
	st = bc_json_get(doc, "status");
	assert_true(bc_json_num(bc_json_get(st, "exit_status"), -1) == 0);
	assert_false(bc_json_bool(bc_json_get(st, "interrupted"), true));
	assert_true(bc_json_is_null(bc_json_get(st, "reason")));

	bc_json_free(doc);
	fake_result_fini(&fr);
}

static void test_report_no_iterations(void **state)
{
	struct fake_result fr;
	struct bc_json *doc;
	FILE *f = mem_open();

	(void)state;
	fake_result_init(&fr, FAKE_OPS);
	fr.res.iter_cnt = 0;
	fr.res.ctx = NULL;
	fr.res.exit_status = BC_EXIT_INTERRUPTED;
	fr.res.interrupted = true;
	snprintf(fr.res.reason, sizeof(fr.res.reason), "interrupted by SIGINT");
	bc_stats_summarise(&fr.res);
	assert_int_equal(bc_report_json(f, &fr.cfg, &fr.res), 0);
	fclose(f);
	doc = parse_ok(out);
	/* Nothing measured: null, never NaN (which is not JSON). */
	assert_true(bc_json_is_null(bc_json_get(bc_json_get(bc_json_get(doc, "summary"), "hits"),
						"mean")));
	assert_true(bc_json_is_null(bc_json_get(doc, "attach_point")));
	assert_true(bc_json_num(bc_json_get(bc_json_get(doc, "status"), "exit_status"), 0) == 130);
	assert_string_equal(bc_json_str(bc_json_get(bc_json_get(doc, "status"), "reason")),
			    "interrupted by SIGINT");
	bc_json_free(doc);
	fake_result_fini(&fr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_writer, free_out),
		cmocka_unit_test_teardown(test_writer_misuse, free_out),
		cmocka_unit_test_teardown(test_round_trip, free_out),
		cmocka_unit_test(test_parser_values),
		cmocka_unit_test(test_parser_edges),
		cmocka_unit_test(test_parser_errors),
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test_teardown(test_report_round_trip, free_out),
		cmocka_unit_test_teardown(test_report_no_iterations, free_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
