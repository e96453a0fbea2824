/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What "the benchmark's BPF program changed" means (prog_change.c, issue
 * 38): the facts of a program that move its cost, which `compare` lists
 * for two runs of one configuration, and one digest of them per run that
 * the store keeps so that history and the report can tell, without
 * reading documents, at which entry a program changed.
 */
#ifndef BENCHCORE_PROG_CHANGE_H
#define BENCHCORE_PROG_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

struct bc_doc_prog;
struct bc_doc_run;

/* A fact that tells one build or load of a program from another. */
struct bc_prog_fact {
	const char *key;	/* compare's JSON "fact": "xlated_insns" */
	const char *words;	/* compare's text before the figures: "jited " */
	const char *unit;	/* and after them: " bytes" */
};

#define BC_PROG_FACT_CNT 6
/* Translated instructions, JIT-ed bytes, instructions the verifier
 * processed, its total and peak states, the stack: in compare's order. */
extern const struct bc_prog_fact bc_prog_facts[BC_PROG_FACT_CNT];

/* Fact i of a program; NaN where its document does not give it. */
double bc_prog_fact_value(const struct bc_doc_prog *p, size_t i);
/* Fact i differs between two programs: a fact either side lacks (an
 * older document, a program without the verifier's statistics) is no
 * difference. */
bool bc_prog_fact_differs(const struct bc_doc_prog *a, const struct bc_doc_prog *b, size_t i);
/* run's program of a's name and role (a role either side lacks matches
 * any), or NULL. */
const struct bc_doc_prog *bc_prog_match(const struct bc_doc_run *run, const struct bc_doc_prog *a);

/* A digest's text: 32 hex digits and the NUL. */
#define BC_PROG_DIGEST_SIZE 33
/*
 * The digest of a run's programs, by name and role, each with the facts
 * above (in any order the document lists them): two runs whose programs
 * compare would find no fact changed in, and that have the same programs,
 * have the same digest. false (and buf "") when the run gives no fact of
 * any program (a document from before issue 38, a run that loaded
 * nothing): unknown, which is never a change.
 */
bool bc_prog_digest(const struct bc_doc_run *run, char *buf, size_t len);

#endif /* BENCHCORE_PROG_CHANGE_H */
