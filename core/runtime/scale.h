/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A figure as people read it (scale.c): its declared unit, and a scale that
 * keeps four significant digits. Every text report and table prints through
 * these; JSON keeps base units.
 */
#ifndef BENCHCORE_SCALE_H
#define BENCHCORE_SCALE_H

#include <stddef.h>

/*
 * "12.35M calls/s", "347.2 calls/s", "0.25 lookups/s", "1.234 us/op".
 * A unit whose first word is a time (ns, us, ms, s, before any '/') moves
 * between those instead of taking K/M/G; any other takes K, M, G or T
 * (powers of 1000) in front of it. NaN prints "n/a". Returns buf.
 */
char *bc_scale_fmt(char *buf, size_t len, double v, const char *unit);
/* Mean and spread on the mean's scale and precision: "12.35 ± 0.12M calls/s". */
char *bc_scale_fmt_pm(char *buf, size_t len, double mean, double spread, const char *unit);

#endif /* BENCHCORE_SCALE_H */
