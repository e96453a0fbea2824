// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * SVG elements for `benchcore plot` (svg.h). Coordinates are written with
 * two decimals, and a number that is not finite is written as 0 rather
 * than "nan", which no viewer reads: the callers skip such points, this is
 * the last guard.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define BC_SVG_REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */
#define BC_SVG_ELLIPSIS "\xe2\x80\xa6"		/* U+2026 */

/* ---------------------------------------------------------------- text */

/* The code point of the UTF-8 sequence at p, its length in *n; -1 (and
 * *n = 1) for a byte that starts no valid sequence: overlong forms,
 * surrogates and values past U+10FFFF are invalid too. */
static long bc_utf8_next(const unsigned char *p, size_t *n)
{
	unsigned char c = p[0];
	size_t len, i;
	long cp;

	*n = 1;
	if (c < 0x80)
		return c;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return -1;
	}
	/* A NUL ends the loop here: it is no continuation byte. */
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*n = len;
	return cp;
}

/* XML 1.0's Char production. */
static bool bc_xml_char(long cp)
{
	return cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xd7ff) ||
	       (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

size_t bc_svg_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t cnt = 0, n;

	for (; *p; p += n, cnt++)
		bc_utf8_next(p, &n);
	return cnt;
}

double bc_svg_text_width(const char *s, double size)
{
	return (double)bc_svg_chars(s) * size * 0.6;
}

void bc_svg_escape(FILE *f, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t cnt = 0, n, keep = (size_t)-1;
	long cp;

	if (max_chars && bc_svg_chars(s) > max_chars)
		keep = max_chars - 1;
	for (; *p && cnt < keep; p += n, cnt++) {
		cp = bc_utf8_next(p, &n);
		if (cp < 0 || !bc_xml_char(cp)) {
			fputs(BC_SVG_REPLACEMENT, f);
			continue;
		}
		switch (cp) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		case '\t':
		case '\n':
		case '\r':
			/* one-line labels; an attribute would normalise them anyway */
			fputc(' ', f);
			break;
		default:
			fwrite(p, 1, n, f);
		}
	}
	if (*p)
		fputs(BC_SVG_ELLIPSIS, f);
}

/* ------------------------------------------------------------- numbers */

static void bc_svg_num(FILE *f, double v)
{
	char buf[48];
	size_t len;

	if (!isfinite(v))
		v = 0;
	snprintf(buf, sizeof(buf), "%.2f", v);
	/* "12.50" -> "12.5", "3.00" -> "3": smaller files, same picture */
	len = strlen(buf);
	while (len && buf[len - 1] == '0')
		buf[--len] = '\0';
	if (len && buf[len - 1] == '.')
		buf[--len] = '\0';
	if (!strcmp(buf, "-0"))
		strcpy(buf, "0");
	fputs(buf, f);
}

/* name="value" with a leading space; a numeric value. */
static void bc_svg_attr_num(FILE *f, const char *name, double v)
{
	fprintf(f, " %s=\"", name);
	bc_svg_num(f, v);
	fputc('"', f);
}

static void bc_svg_attr_str(FILE *f, const char *name, const char *v)
{
	fprintf(f, " %s=\"", name);
	bc_svg_escape(f, v, 0);
	fputc('"', f);
}

/* ------------------------------------------------------------ document */

void bc_svg_begin(FILE *f, double width, double height, const char *title, const char *desc)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", f);
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", f);
	bc_svg_attr_num(f, "width", width);
	bc_svg_attr_num(f, "height", height);
	fputs(" viewBox=\"0 0 ", f);
	bc_svg_num(f, width);
	fputc(' ', f);
	bc_svg_num(f, height);
	fputs("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n", f);
	if (title) {
		fputs("<title>", f);
		bc_svg_escape(f, title, 0);
		fputs("</title>\n", f);
	}
	if (desc) {
		fputs("<desc>", f);
		bc_svg_escape(f, desc, 0);
		fputs("</desc>\n", f);
	}
	bc_svg_rect(f, 0, 0, width, height, "#ffffff", NULL);
}

void bc_svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

void bc_svg_group_begin(FILE *f, const char *title)
{
	fputs("<g>", f);
	if (title) {
		fputs("<title>", f);
		bc_svg_escape(f, title, 0);
		fputs("</title>", f);
	}
	fputc('\n', f);
}

void bc_svg_group_end(FILE *f)
{
	fputs("</g>\n", f);
}

/* ------------------------------------------------------------ elements */

void bc_svg_text(FILE *f, double x, double y, const struct bc_svg_font *font, const char *text)
{
	static const char *const anchors[] = { "start", "middle", "end" };
	struct bc_svg_font def = { 0 };

	if (!font)
		font = &def;
	fputs("<text", f);
	bc_svg_attr_num(f, "x", x);
	bc_svg_attr_num(f, "y", y);
	if (font->size && font->size != 12)
		bc_svg_attr_num(f, "font-size", font->size);
	if (font->anchor != BC_SVG_START)
		bc_svg_attr_str(f, "text-anchor", anchors[font->anchor]);
	if (font->bold)
		fputs(" font-weight=\"bold\"", f);
	if (font->fill)
		bc_svg_attr_str(f, "fill", font->fill);
	if (font->rotate != 0) {
		fputs(" transform=\"rotate(", f);
		bc_svg_num(f, font->rotate);
		fputc(' ', f);
		bc_svg_num(f, x);
		fputc(' ', f);
		bc_svg_num(f, y);
		fputs(")\"", f);
	}
	fputc('>', f);
	bc_svg_escape(f, text, font->max_chars);
	fputs("</text>\n", f);
}

void bc_svg_textf(FILE *f, double x, double y, const struct bc_svg_font *font, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	bc_svg_text(f, x, y, font, buf);
}

static void bc_svg_stroke(FILE *f, const char *stroke, double width, const char *dash)
{
	bc_svg_attr_str(f, "stroke", stroke ? stroke : "#000000");
	if (width != 1)
		bc_svg_attr_num(f, "stroke-width", width);
	if (dash)
		bc_svg_attr_str(f, "stroke-dasharray", dash);
}

void bc_svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke,
		 double width, const char *dash)
{
	fputs("<line", f);
	bc_svg_attr_num(f, "x1", x1);
	bc_svg_attr_num(f, "y1", y1);
	bc_svg_attr_num(f, "x2", x2);
	bc_svg_attr_num(f, "y2", y2);
	bc_svg_stroke(f, stroke, width, dash);
	fputs("/>\n", f);
}

void bc_svg_polyline(FILE *f, const double *xy, size_t n, const char *stroke, double width,
		     const char *dash)
{
	if (n < 2)
		return;
	fputs("<polyline fill=\"none\" stroke-linejoin=\"round\" points=\"", f);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(' ', f);
		bc_svg_num(f, xy[2 * i]);
		fputc(',', f);
		bc_svg_num(f, xy[2 * i + 1]);
	}
	fputc('"', f);
	bc_svg_stroke(f, stroke, width, dash);
	fputs("/>\n", f);
}

void bc_svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
		 const char *stroke)
{
	fputs("<rect", f);
	bc_svg_attr_num(f, "x", x);
	bc_svg_attr_num(f, "y", y);
	bc_svg_attr_num(f, "width", w > 0 ? w : 0);
	bc_svg_attr_num(f, "height", h > 0 ? h : 0);
	bc_svg_attr_str(f, "fill", fill ? fill : "none");
	if (stroke)
		bc_svg_attr_str(f, "stroke", stroke);
	fputs("/>\n", f);
}

void bc_svg_ring(FILE *f, double x, double y, double r, const char *stroke)
{
	fputs("<circle", f);
	bc_svg_attr_num(f, "cx", x);
	bc_svg_attr_num(f, "cy", y);
	bc_svg_attr_num(f, "r", r);
	bc_svg_attr_str(f, "fill", "none");
	bc_svg_attr_str(f, "stroke", stroke);
	bc_svg_attr_num(f, "stroke-width", 2);
	fputs("/>\n", f);
}

void bc_svg_marker(FILE *f, enum bc_svg_shape shape, double x, double y, double r,
		   const char *color)
{
	double pts[8];

	switch (shape) {
	case BC_SVG_SQUARE:
		bc_svg_rect(f, x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, color, NULL);
		return;
	case BC_SVG_TRIANGLE:
		pts[0] = x;
		pts[1] = y - r * 1.15;
		pts[2] = x + r;
		pts[3] = y + r * 0.6;
		pts[4] = x - r;
		pts[5] = y + r * 0.6;
		break;
	case BC_SVG_DIAMOND:
		pts[0] = x;
		pts[1] = y - r * 1.2;
		pts[2] = x + r * 1.2;
		pts[3] = y;
		pts[4] = x;
		pts[5] = y + r * 1.2;
		pts[6] = x - r * 1.2;
		pts[7] = y;
		break;
	case BC_SVG_CIRCLE:
	default:
		fputs("<circle", f);
		bc_svg_attr_num(f, "cx", x);
		bc_svg_attr_num(f, "cy", y);
		bc_svg_attr_num(f, "r", r);
		bc_svg_attr_str(f, "fill", color);
		fputs("/>\n", f);
		return;
	}
	fputs("<polygon points=\"", f);
	for (int i = 0; i < (shape == BC_SVG_TRIANGLE ? 3 : 4); i++) {
		if (i)
			fputc(' ', f);
		bc_svg_num(f, pts[2 * i]);
		fputc(',', f);
		bc_svg_num(f, pts[2 * i + 1]);
	}
	fputc('"', f);
	bc_svg_attr_str(f, "fill", color);
	fputs("/>\n", f);
}
