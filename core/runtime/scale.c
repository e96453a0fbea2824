// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Scaling figures for text. The reports once printed every rate in M/s with
 * three decimals, so that 300 calls a second read "0.000M/s", and the unit a
 * metric declared was replaced by "ops". Here the scale follows the value
 * and the unit is the metric's.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "scale.h"

#define BC_PM " \xc2\xb1 " /* U+00B1 PLUS-MINUS SIGN */

struct bc_scaled {
	double div;		/* the value is printed divided by this */
	int decimals;
	char prefix[2];		/* "K", "M"... or "" */
	char unit[64];		/* the unit as printed, rescaled when a time */
};

static const char *const bc_time_units[] = { "ns", "us", "ms", "s" };

/* The index in bc_time_units of unit's first word, or -1. */
static int bc_time_unit(const char *unit, size_t *head_len)
{
	size_t n = strcspn(unit, "/ ");

	*head_len = n;
	for (int i = 0; i < 4; i++)
		if (strlen(bc_time_units[i]) == n && !strncmp(unit, bc_time_units[i], n))
			return i;
	return -1;
}

/* Four significant digits of a value in [1, 1000), fewer decimals above. */
static int bc_decimals(double a)
{
	if (a >= 100)
		return 1;
	if (a >= 10)
		return 2;
	return 3;
}

static void bc_scale_pick(double v, const char *unit, struct bc_scaled *s)
{
	static const char prefixes[] = "KMGT";
	double a = fabs(v);
	size_t head;
	int t;

	memset(s, 0, sizeof(*s));
	s->div = 1;
	unit = unit ? unit : "";
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
	t = bc_time_unit(unit, &head);
	if (t >= 0) {
		/* 1234 ns is 1.234 us; 0.5 us is 500 ns; seconds stay seconds. */
		while (t < 3 && a / s->div >= 1000) {
			s->div *= 1000;
			t++;
		}
		while (t > 0 && a > 0 && a / s->div < 1) {
			s->div /= 1000;
			t--;
		}
		snprintf(s->unit, sizeof(s->unit), "%s%s", bc_time_units[t], unit + head);
	} else {
		for (int i = 0; i < 4 && a / s->div >= 1000; i++) {
			s->div *= 1000;
			s->prefix[0] = prefixes[i];
		}
	}
	a /= s->div;
	s->decimals = bc_decimals(a);
	/* 999.96 would round to "1000.0": one step up reads better. */
	if (a >= 999.95 && a < 1000) {
		if (t >= 0 && t < 3) {
			s->div *= 1000;
			snprintf(s->unit, sizeof(s->unit), "%s%s", bc_time_units[t + 1], unit + head);
			s->decimals = 3;
		} else if (t < 0 && s->prefix[0] != 'T') {
			s->div *= 1000;
			s->prefix[0] = s->prefix[0] ? prefixes[strchr(prefixes, s->prefix[0]) - prefixes + 1]
						    : 'K';
			s->decimals = 3;
		}
	}
}

/* A value under 1 keeps four significant digits however small. */
static int bc_print_num(char *buf, size_t len, double x, int decimals)
{
	double a = fabs(x);

	if (x == 0)
		return snprintf(buf, len, "0");
	/* Not 0.99996, which "%.4g" would print as "1". */
	if (a < 0.9995 && decimals == 3)
		return snprintf(buf, len, "%.4g", x);
	return snprintf(buf, len, "%.*f", decimals, x);
}

static void bc_unit_tail(char *buf, size_t len, const struct bc_scaled *s)
{
	size_t n = strlen(buf);

	if (n >= len)
		return;
	if (s->unit[0])
		snprintf(buf + n, len - n, "%s %s", s->prefix, s->unit);
	else
		snprintf(buf + n, len - n, "%s", s->prefix);
}

char *bc_scale_fmt(char *buf, size_t len, double v, const char *unit)
{
	struct bc_scaled s;

	if (!len)
		return buf;
	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	bc_scale_pick(v, unit, &s);
	bc_print_num(buf, len, v / s.div, s.decimals);
	bc_unit_tail(buf, len, &s);
	return buf;
}

char *bc_scale_fmt_pm(char *buf, size_t len, double mean, double spread, const char *unit)
{
	struct bc_scaled s;
	int n;

	if (!len)
		return buf;
	if (isnan(mean)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (isnan(spread)) {
		bc_scale_fmt(buf, len, mean, unit);
		n = (int)strlen(buf);
		snprintf(buf + n, len - (size_t)n, BC_PM "n/a");
		return buf;
	}
	bc_scale_pick(mean != 0 ? mean : spread, unit, &s);
	n = bc_print_num(buf, len, mean / s.div, s.decimals);
	if (n < 0 || (size_t)n >= len)
		return buf;
	snprintf(buf + n, len - (size_t)n, BC_PM);
	n = (int)strlen(buf);
	if (spread == 0 && mean == 0)
		snprintf(buf + n, len - (size_t)n, "0");
	else
		snprintf(buf + n, len - (size_t)n, "%.*f", s.decimals,
			 fabs(spread / s.div) < 0.5 * pow(10, -s.decimals) ? 0.0 : spread / s.div);
	bc_unit_tail(buf, len, &s);
	return buf;
}
