// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * `benchcore plot`: the real binary draws the committed result documents
 * (fixtures/, from real runs: fixtures/README.md), and every picture must
 * be well-formed XML with an <svg> root and carry the series, titles, axis
 * labels and units the document calls for. The well-formedness check is a
 * small XML reader here (no xmllint: the project installs no XML tools).
 * Bad input costs one line naming the file, and exit status 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "bc_test_util.h"
#include "plot.h"
#include "svg.h"

#define FIXTURES BC_TEST_SOURCE_DIR "/tests/plot/fixtures/"

/* ------------------------------------------------- an XML well-formedness check */

/*
 * Enough of XML 1.0 for what an SVG writer may produce: the declaration,
 * comments, elements with attributes (unique, quoted, no '<', entity
 * references only), character data with the five predefined entities and
 * character references, one root, valid UTF-8 throughout. The text of
 * every element, decoded, is kept for the assertions.
 */
struct xml_doc {
	char root[64];
	char **texts;		/* the decoded character data of each element */
	size_t text_cnt;
	char err[256];
};

struct xml_reader {
	const char *p, *start;
	struct xml_doc *doc;
};

static bool xml_fail(struct xml_reader *r, const char *what)
{
	if (!r->doc->err[0])
		snprintf(r->doc->err, sizeof(r->doc->err), "offset %td: %s", r->p - r->start, what);
	return false;
}

static bool utf8_valid(const unsigned char *s)
{
	while (*s) {
		size_t len = *s < 0x80 ? 1 : (*s >> 5) == 6 ? 2 : (*s >> 4) == 14 ? 3 : (*s >> 3) == 30 ? 4 : 0;
		uint32_t cp;

		if (!len || (len > 1 && *s < 0xc2))
			return false;
		cp = len == 1 ? *s : len == 2 ? *s & 0x1f : len == 3 ? *s & 0x0f : *s & 0x07;
		for (size_t i = 1; i < len; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff ||
		    (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r'))
			return false;
		s += len;
	}
	return true;
}

static bool name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static size_t xml_name(struct xml_reader *r, char *out, size_t cap)
{
	size_t n = 0;

	if (!name_start(*r->p))
		return 0;
	while (name_char(r->p[n]))
		n++;
	if (n >= cap)
		return 0;
	memcpy(out, r->p, n);
	out[n] = '\0';
	r->p += n;
	return n;
}

static void skip_space(struct xml_reader *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

/* An entity or character reference at r->p ('&'); appends its text to buf. */
static bool xml_ref(struct xml_reader *r, char *buf, size_t *len, size_t cap)
{
	static const struct {
		const char *name, *text;
	} ents[] = { { "amp;", "&" }, { "lt;", "<" }, { "gt;", ">" }, { "quot;", "\"" }, { "apos;", "'" } };
	const char *p = r->p + 1;

	for (size_t i = 0; i < 5; i++)
		if (!strncmp(p, ents[i].name, strlen(ents[i].name))) {
			if (*len + 1 < cap)
				buf[(*len)++] = ents[i].text[0];
			r->p = p + strlen(ents[i].name);
			return true;
		}
	if (*p == '#') {
		char *end;
		unsigned long cp = p[1] == 'x' ? strtoul(p + 2, &end, 16) : strtoul(p + 1, &end, 10);

		if (*end != ';' || end == p + 1 || !cp || cp > 0x10ffff)
			return xml_fail(r, "bad character reference");
		r->p = end + 1;
		return true;
	}
	return xml_fail(r, "'&' that starts no entity reference");
}

static bool xml_attrs(struct xml_reader *r)
{
	char names[32][64];
	size_t cnt = 0;

	for (;;) {
		char val[4096], q;
		size_t vlen = 0;

		skip_space(r);
		if (*r->p == '>' || *r->p == '/')
			return true;
		if (cnt == 32 || !xml_name(r, names[cnt], sizeof(names[cnt])))
			return xml_fail(r, "expected an attribute name");
		for (size_t i = 0; i < cnt; i++)
			if (!strcmp(names[i], names[cnt]))
				return xml_fail(r, "attribute given twice");
		cnt++;
		skip_space(r);
		if (*r->p++ != '=')
			return xml_fail(r, "expected '=' after an attribute name");
		skip_space(r);
		q = *r->p++;
		if (q != '"' && q != '\'')
			return xml_fail(r, "expected a quoted attribute value");
		while (*r->p != q) {
			if (!*r->p || *r->p == '<')
				return xml_fail(r, "'<' or the end in an attribute value");
			if (*r->p == '&') {
				if (!xml_ref(r, val, &vlen, sizeof(val)))
					return false;
			} else {
				r->p++;
			}
		}
		r->p++;
	}
}

static void keep_text(struct xml_doc *doc, const char *buf, size_t len)
{
	doc->texts = realloc(doc->texts, (doc->text_cnt + 1) * sizeof(*doc->texts));
	assert_non_null(doc->texts);
	doc->texts[doc->text_cnt] = strndup(buf, len);
	assert_non_null(doc->texts[doc->text_cnt]);
	doc->text_cnt++;
}

static bool xml_comment(struct xml_reader *r)
{
	const char *end = strstr(r->p + 4, "--");

	if (!end || end[2] != '>')
		return xml_fail(r, "bad comment");
	r->p = end + 3;
	return true;
}

static bool xml_element(struct xml_reader *r, int depth)
{
	char name[64], close[64], text[8192];
	size_t tlen = 0;

	if (depth > 64)
		return xml_fail(r, "nested too deep");
	r->p++;	/* '<' */
	if (!xml_name(r, name, sizeof(name)))
		return xml_fail(r, "expected an element name");
	if (!depth)
		snprintf(r->doc->root, sizeof(r->doc->root), "%s", name);
	if (!xml_attrs(r))
		return false;
	if (*r->p == '/') {
		if (r->p[1] != '>')
			return xml_fail(r, "expected '/>'");
		r->p += 2;
		return true;
	}
	r->p++;	/* '>' */
	for (;;) {
		if (!*r->p)
			return xml_fail(r, "the document ends inside an element");
		if (!strncmp(r->p, "</", 2)) {
			r->p += 2;
			if (!xml_name(r, close, sizeof(close)) || strcmp(close, name))
				return xml_fail(r, "end tag does not match its start tag");
			skip_space(r);
			if (*r->p++ != '>')
				return xml_fail(r, "expected '>' after an end tag");
			keep_text(r->doc, text, tlen);
			return true;
		}
		if (!strncmp(r->p, "<!--", 4)) {
			if (!xml_comment(r))
				return false;
		} else if (*r->p == '<') {
			if (!xml_element(r, depth + 1))
				return false;
		} else if (*r->p == '&') {
			if (!xml_ref(r, text, &tlen, sizeof(text)))
				return false;
		} else if (*r->p == '>' && tlen >= 2 && !strncmp(r->p - 2, "]]", 2)) {
			return xml_fail(r, "']]>' in character data");
		} else {
			if (tlen + 1 < sizeof(text))
				text[tlen++] = *r->p;
			r->p++;
		}
	}
}

/* 0: well-formed; the texts are kept in doc (xml_free). */
static int xml_check(const char *s, struct xml_doc *doc)
{
	struct xml_reader r = { .p = s, .start = s, .doc = doc };

	memset(doc, 0, sizeof(*doc));
	if (!utf8_valid((const unsigned char *)s))
		return xml_fail(&r, "not valid UTF-8, or a character XML forbids"), -1;
	if (!strncmp(r.p, "<?xml", 5)) {
		const char *end = strstr(r.p, "?>");

		if (!end)
			return xml_fail(&r, "unterminated XML declaration"), -1;
		r.p = end + 2;
	}
	for (;;) {
		skip_space(&r);
		if (!strncmp(r.p, "<!--", 4)) {
			if (!xml_comment(&r))
				return -1;
			continue;
		}
		break;
	}
	if (*r.p != '<' || !xml_element(&r, 0))
		return xml_fail(&r, "expected the root element"), -1;
	skip_space(&r);
	if (*r.p)
		return xml_fail(&r, "content after the root element"), -1;
	return 0;
}

static void xml_free(struct xml_doc *doc)
{
	for (size_t i = 0; i < doc->text_cnt; i++)
		free(doc->texts[i]);
	free(doc->texts);
}

static bool has_text(const struct xml_doc *doc, const char *text)
{
	for (size_t i = 0; i < doc->text_cnt; i++)
		if (!strcmp(doc->texts[i], text))
			return true;
	return false;
}

static bool has_text_part(const struct xml_doc *doc, const char *part)
{
	for (size_t i = 0; i < doc->text_cnt; i++)
		if (strstr(doc->texts[i], part))
			return true;
	return false;
}

#define assert_text(doc, t)                                                  \
	do {                                                                 \
		if (!has_text(doc, t))                                       \
			fail_msg("the SVG has no text element \"%s\"", t);   \
	} while (0)
#define assert_text_part(doc, t)                                             \
	do {                                                                 \
		if (!has_text_part(doc, t))                                  \
			fail_msg("no text of the SVG contains \"%s\"", t);   \
	} while (0)

/* ------------------------------------------------------------ running plot */

static void run_plot(struct bc_test_run *r, const char *const *args)
{
	const char *argv[16] = { "plot" };
	size_t n = 1;

	while (*args && n < 15)
		argv[n++] = *args++;
	argv[n] = NULL;
	bc_test_run_benchcore(r, argv);
}

/* Draws a fixture to standard output and checks it; doc gets its texts. */
static void plot_fixture(const char *name, const char *extra, struct xml_doc *doc)
{
	char path[512];
	const char *args[] = { path, "-o", "-", extra, NULL };
	struct bc_test_run r;

	snprintf(path, sizeof(path), "%s%s", FIXTURES, name);
	run_plot(&r, args);
	if (r.status != 0)
		fail_msg("plot %s: status %d: %s", name, r.status, r.err);
	if (xml_check(r.out, doc))
		fail_msg("plot %s: not well-formed XML: %s", name, doc->err);
	assert_string_equal(doc->root, "svg");
	assert_non_null(strstr(r.out, "xmlns=\"http://www.w3.org/2000/svg\""));
	/* -o - writes the picture alone: nothing to say on stderr */
	assert_string_equal(r.err, "");
	bc_test_run_free(&r);
}

/* -------------------------------------------------------------- the writer */

static char *escaped(const char *s, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	bc_svg_escape(f, s, max);
	fclose(f);
	return buf;
}

static void test_escape(void **state)
{
	struct {
		const char *in;
		size_t max;
		const char *out;
	} cases[] = {
		{ "a<b & \"c\" 'd' >", 0, "a&lt;b &amp; &quot;c&quot; &apos;d&apos; &gt;" },
		{ "ünï €", 0, "ünï €" },
		/* invalid UTF-8: a lone continuation byte, a truncated sequence,
		 * an overlong '/', a surrogate; and a control character */
		{ "x\x80y", 0, "x\xef\xbf\xbdy" },
		{ "x\xe2\x82", 0, "x\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "a\x01" "b\tc\nd", 0, "a\xef\xbf\xbd" "b c d" },
		{ "abcdef", 4, "abc\xe2\x80\xa6" },
		{ "abcd", 4, "abcd" },
		{ "ü<ü<ü", 3, "ü&lt;\xe2\x80\xa6" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = escaped(cases[i].in, cases[i].max);
		struct xml_doc doc;
		char *wrapped;

		assert_string_equal(out, cases[i].out);
		/* and it is character data an XML reader takes */
		assert_true(asprintf(&wrapped, "<t a=\"%s\">%s</t>", out, out) > 0);
		if (xml_check(wrapped, &doc))
			fail_msg("case %zu: %s", i, doc.err);
		xml_free(&doc);
		free(wrapped);
		free(out);
	}
	assert_int_equal(bc_svg_chars("ünï"), 3);
}

/* The checker itself: it must refuse what a careless writer produces. */
static void test_xml_checker(void **state)
{
	static const char *const bad[] = {
		"<a><b></a></b>",		/* crossed tags */
		"<a>x & y</a>",			/* a bare ampersand */
		"<a t=\"1<2\"/>",		/* '<' in an attribute */
		"<a t=\"1\" t=\"2\"/>",	/* an attribute twice */
		"<a>\xff</a>",			/* not UTF-8 */
		"<a>\x01</a>",			/* a character XML forbids */
		"<a/><b/>",			/* two roots */
		"<a>",				/* unterminated */
		"<a t=1/>",			/* unquoted */
		"<a>&nbsp;</a>",		/* an entity XML does not define */
	};
	struct xml_doc doc;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!xml_check(bad[i], &doc))
			fail_msg("the checker took '%s'", bad[i]);
		xml_free(&doc);
	}
	assert_int_equal(xml_check("<?xml version=\"1.0\"?>\n<!-- c --><a x='1'><b>&lt;&#233;&#x41;</b>t</a>\n", &doc), 0);
	assert_string_equal(doc.root, "a");
	assert_true(has_text(&doc, "<"));
	xml_free(&doc);
}

static void test_decades_rule(void **state)
{
	const double two[] = { 1, 10, 100 }, short_of[] = { 1, 10, 99 }, zero[] = { 0, 100, 1000 },
		     one[] = { 5 }, wide[] = { 3000, 1, 25 };

	(void)state;
	assert_true(bc_plot_spans_decades(two, 3));
	assert_false(bc_plot_spans_decades(short_of, 3));
	assert_false(bc_plot_spans_decades(zero, 3));
	assert_false(bc_plot_spans_decades(one, 1));
	assert_true(bc_plot_spans_decades(wide, 3));
}

/* ------------------------------------------------------------------ charts */

static void test_sweep(void **state)
{
	struct xml_doc doc;

	(void)state;
	plot_fixture("sweep.json", NULL, &doc);
	assert_text(&doc, "count:count-local: hits against count-batch");
	/* a line per value of the other swept option, in the legend */
	assert_text(&doc, "producers=1");
	assert_text(&doc, "producers=2");
	/* 1, 10, 100: two decades, so a log axis, with the swept values */
	assert_text(&doc, "count-batch (log scale)");
	assert_text(&doc, "1");
	assert_text(&doc, "10");
	assert_text(&doc, "100");
	/* the headline and its unit, scaled */
	assert_text(&doc, "hits (M ops/s)");
	assert_text_part(&doc, "error bars: ±1 standard deviation");
	assert_text_part(&doc, "measured with benchcore");
	xml_free(&doc);

	/* options swept together are one axis; rates over three decades get
	 * a log y axis too */
	plot_fixture("sweep-zipped.json", NULL, &doc);
	assert_text(&doc, "ringbuf:rb-custom: hits against rb-sample-rate and rb-batch-cnt");
	assert_text(&doc, "rb-sample-rate and rb-batch-cnt (log scale)");
	assert_text(&doc, "hits (M records/s, log scale)");
	assert_text(&doc, "rb-sampled=off");
	assert_text(&doc, "rb-sampled=on");
	assert_text(&doc, "1000");
	xml_free(&doc);

	/* --x picks the other option: producers on a linear axis */
	plot_fixture("sweep.json", "--x=producers", &doc);
	assert_text(&doc, "count:count-local: hits against producers");
	assert_text(&doc, "producers");
	assert_text(&doc, "count-batch=100");
	xml_free(&doc);
}

static void test_suite(void **state)
{
	struct xml_doc doc;

	(void)state;
	plot_fixture("suite.json", NULL, &doc);
	assert_text(&doc, "suite plot-fixture.suite");
	/* a panel per header; its lines are the benchmarks */
	assert_text(&doc, "Scaling with producers: hits against producers");
	assert_text(&doc, "count:count-local");
	assert_text(&doc, "count:count-global");
	/* single runs are bars, named by their labels, which XML must escape */
	assert_text(&doc, "Labels & <escapes>: hits per run");
	assert_text(&doc, "local <&> \"quoted\" 'single'");
	assert_text(&doc, "global ünïcode");
	/* a row that did not run is named, not drawn */
	assert_text(&doc, "not plotted: fentry (unavailable here) (unavailable)");
	xml_free(&doc);
}

static void test_compare(void **state)
{
	struct xml_doc doc;

	(void)state;
	plot_fixture("compare.json", NULL, &doc);
	assert_text(&doc, "compare: base.json (base) vs new.json (new)");
	assert_text(&doc, "base: base.json");
	assert_text(&doc, "new: new.json");
	/* a panel per metric, in its unit */
	assert_text(&doc, "hits");
	assert_text(&doc, "drops");
	assert_text(&doc, "hits (M records/s)");
	assert_text(&doc, "p=0.34");
	assert_false(has_text_part(&doc, "* p="));
	xml_free(&doc);

	/* a significant change is marked */
	plot_fixture("compare-sweep.json", NULL, &doc);
	assert_text(&doc, "* p=0.0051");
	assert_text(&doc, "-55.7%");
	assert_text(&doc, "count-batch=1");
	assert_text(&doc, "count-batch=100");
	assert_text_part(&doc, "* marking p < 0.05");
	xml_free(&doc);
}

static void test_latency(void **state)
{
	struct xml_doc doc;

	(void)state;
	plot_fixture("latency.json", NULL, &doc);
	assert_text(&doc, "ringbuf:rb-custom: delivery latency percentiles");
	assert_text(&doc, "p50");
	assert_text(&doc, "p90");
	assert_text(&doc, "p99");
	assert_text(&doc, "p99.9");
	assert_text(&doc, "max");
	assert_text_part(&doc, "delivery latency (n=");
	assert_text_part(&doc, "percentile (log scale of 1 − p");
	/* times carry their unit on the ticks */
	assert_true(has_text_part(&doc, " µs") || has_text_part(&doc, " ms"));
	xml_free(&doc);

	/* every run of a sweep as a curve */
	plot_fixture("latency-sweep.json", "--chart=latency", &doc);
	assert_text(&doc, "sweep ringbuf:rb-custom: delivery latency percentiles");
	assert_text_part(&doc, "rb-sampled=off (n=");
	assert_text_part(&doc, "rb-sampled=on (n=");
	xml_free(&doc);

	/* the same sweep by default: the headline, a bar per run (the swept
	 * option is not a number) */
	plot_fixture("latency-sweep.json", NULL, &doc);
	assert_text(&doc, "ringbuf:rb-custom: hits per run");
	assert_text(&doc, "rb-sampled=off");
	assert_text(&doc, "hits (M records/s)");
	xml_free(&doc);
}

/* ---------------------------------------------------------------- files */

static char *tmp_dir(void)
{
	char *dir = strdup("/tmp/bc-plot-XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	return dir;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	char *s;

	if (fd < 0)
		return NULL;
	s = bc_test_slurp_fd(fd);
	close(fd);
	return s;
}

static void copy_fixture(const char *name, const char *to)
{
	char from[512];
	char *s;

	snprintf(from, sizeof(from), "%s%s", FIXTURES, name);
	s = read_file(from);
	assert_non_null(s);
	write_file(to, s);
	free(s);
}

/* Without -o the picture is RESULT.svg beside the input. */
static void test_default_output(void **state)
{
	char *dir = tmp_dir(), in[512], out[512], other[512], *svg;
	const char *args[] = { in, NULL };
	struct xml_doc doc;
	struct bc_test_run r;

	(void)state;
	snprintf(in, sizeof(in), "%s/result.json", dir);
	snprintf(out, sizeof(out), "%s/result.svg", dir);
	copy_fixture("sweep.json", in);
	run_plot(&r, args);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "wrote"));
	assert_non_null(strstr(r.err, "result.svg"));
	svg = read_file(out);
	assert_non_null(svg);
	assert_int_equal(xml_check(svg, &doc), 0);
	xml_free(&doc);
	free(svg);
	bc_test_run_free(&r);

	/* a name without .json gets .svg appended, never replaces the input */
	snprintf(other, sizeof(other), "%s/result.data", dir);
	copy_fixture("sweep.json", other);
	args[0] = other;
	run_plot(&r, args);
	assert_int_equal(r.status, 0);
	snprintf(out, sizeof(out), "%s/result.data.svg", dir);
	svg = read_file(out);
	assert_non_null(svg);
	free(svg);
	bc_test_run_free(&r);

	unlink(in);
	unlink(other);
	unlink(out);
	snprintf(out, sizeof(out), "%s/result.svg", dir);
	unlink(out);
	rmdir(dir);
	free(dir);
}

/* Exit status 2, one line on stderr naming the file, and an existing
 * picture left as it was. */
static void expect_bad(const char *const *args, const char *name, const char *needle,
		       const char *keep)
{
	const char *what = args[0] ? args[0] : "(no file)";
	struct bc_test_run r;
	char *after;

	run_plot(&r, args);
	if (r.status != 2)
		fail_msg("plot %s: status %d, expected 2: %s", what, r.status, r.err);
	if (!*r.err || strchr(r.err, '\n') != r.err + strlen(r.err) - 1)
		fail_msg("plot %s: expected one line on stderr, got:\n%s", what, r.err);
	if (name && !strstr(r.err, name))
		fail_msg("plot %s: the line does not name '%s': %s", what, name, r.err);
	if (!strstr(r.err, needle))
		fail_msg("plot %s: expected \"%s\" in: %s", what, needle, r.err);
	assert_string_equal(r.out, "");
	if (keep) {
		after = read_file(keep);
		assert_non_null(after);
		assert_string_equal(after, "old picture\n");
		free(after);
	}
	bc_test_run_free(&r);
}

static void test_bad_input(void **state)
{
	char *dir = tmp_dir(), out[512], missing[512], notjson[512], shape[512], empty[512],
	     nohist[512], nothing[512];
	const char *expected = "expected the --format json output of benchcore run";

	(void)state;
	snprintf(out, sizeof(out), "%s/keep.svg", dir);
	snprintf(missing, sizeof(missing), "%s/missing.json", dir);
	snprintf(notjson, sizeof(notjson), "%s/notjson.json", dir);
	snprintf(shape, sizeof(shape), "%s/shape.json", dir);
	snprintf(empty, sizeof(empty), "%s/empty.json", dir);
	snprintf(nohist, sizeof(nohist), "%s/nohist.json", dir);
	snprintf(nothing, sizeof(nothing), "%s/nothing.json", dir);
	write_file(out, "old picture\n");
	write_file(notjson, "Summary: hits 1.0M/s\n");
	write_file(shape, "{\"benchcore_version\": \"0.1.0\", \"plugins\": []}\n");
	write_file(empty, "");
	/* a run without a histogram: a known document, but nothing to draw */
	write_file(nohist, "{\"benchmark\": \"count-local\", \"summary\": {\"hits\": "
			   "{\"unit\": \"ops/s\", \"mean\": 1, \"stddev\": 0, \"n\": 1}}}\n");
	/* a sweep whose every row failed */
	write_file(nothing, "{\"kind\": \"sweep\", \"name\": \"x:y\", \"runs\": [{\"label\": \"a\", "
			    "\"status\": \"failed\", \"result\": null}]}\n");

	expect_bad((const char *[]){ missing, "-o", out, NULL }, missing,
		   "No such file or directory", out);
	expect_bad((const char *[]){ notjson, "-o", out, NULL }, notjson, "not JSON", out);
	expect_bad((const char *[]){ notjson, "-o", out, NULL }, notjson, expected, out);
	expect_bad((const char *[]){ empty, "-o", out, NULL }, empty, "not JSON", out);
	expect_bad((const char *[]){ shape, "-o", out, NULL }, shape, "JSON of an unknown shape", out);
	expect_bad((const char *[]){ shape, "-o", out, NULL }, shape, expected, out);
	expect_bad((const char *[]){ dir, "-o", out, NULL }, dir, "is a directory", out);
	expect_bad((const char *[]){ nohist, "-o", out, NULL }, nohist, "without a histogram", out);
	expect_bad((const char *[]){ nothing, "-o", out, NULL }, nothing, "measured anything", out);
	expect_bad((const char *[]){ FIXTURES "compare.json", "--chart", "latency", "-o", out, NULL },
		   "compare.json", "--chart compare only", out);
	expect_bad((const char *[]){ FIXTURES "latency.json", "--chart", "headline", "-o", out, NULL },
		   "latency.json", "expected a sweep or a suite", out);
	expect_bad((const char *[]){ FIXTURES "sweep.json", "--x", "nope", "-o", out, NULL },
		   "sweep.json", "--x 'nope'", out);
	/* the command line itself */
	expect_bad((const char *[]){ NULL }, NULL, "expected a result file", NULL);
	expect_bad((const char *[]){ FIXTURES "sweep.json", "--chart", "pie", NULL }, "pie",
		   "expected auto, headline, latency or compare", NULL);
	expect_bad((const char *[]){ FIXTURES "sweep.json", "two.json", NULL }, "two.json",
		   "expected one result file", NULL);
	expect_bad((const char *[]){ FIXTURES "sweep.json", "--bogus", NULL }, "--bogus",
		   "unknown option", NULL);

	unlink(out);
	unlink(notjson);
	unlink(shape);
	unlink(empty);
	unlink(nohist);
	unlink(nothing);
	rmdir(dir);
	free(dir);
}

/* A write error is an error: one line, status 1. */
static void test_write_error(void **state)
{
	const char *args[] = { FIXTURES "sweep.json", "-o", "/dev/full", NULL };
	struct bc_test_run r;

	(void)state;
	if (access("/dev/full", W_OK)) {
		printf("skipped: no writable /dev/full to fail a write\n");
		skip();
	}
	run_plot(&r, args);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "write error: /dev/full"));
	bc_test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xml_checker),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_decades_rule),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_suite),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_default_output),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
