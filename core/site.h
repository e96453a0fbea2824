/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * `benchcore report [-o DIR]` (site.c): the result store as a static HTML
 * site that opens from a file:// URL, needs no network and no JavaScript:
 * an index of benchmarks by kernel and by label with the latest figures
 * and regression marks, and a page per benchmark with its trend charts,
 * a sweep chart, and tables of the changes; every figure links to the
 * JSON document it came from.
 */
#ifndef BENCHCORE_SITE_H
#define BENCHCORE_SITE_H

struct bc_cli_env;
int bc_site_main(struct bc_cli_env *env, int argc, char **argv);

#endif /* BENCHCORE_SITE_H */
