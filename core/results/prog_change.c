// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The facts of a BPF program that move its cost (issue 38): what a
 * compiler, a kernel or hardening changed between two runs of one
 * configuration. compare lists them per matched program; the store keeps
 * one digest of them per entry, so that history and the report mark the
 * entry where they changed. Both read the table below, so the two can
 * never disagree on what a change is.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog_change.h"
#include "run_doc.h"

const struct bc_prog_fact bc_prog_facts[BC_PROG_FACT_CNT] = {
	/* the first, the translated size, goes bare: "34 → 41 insns" */
	{ "xlated_insns", "", " insns" },
	{ "jited_bytes", "jited ", " bytes" },
	{ "processed_insns", "verifier ", " insns processed" },
	{ "total_states", "", " states" },
	{ "peak_states", "", " peak states" },
	{ "stack_depth_total", "stack ", " bytes" },
};

/* Where each fact is in the model's program, in the table's order. */
static const size_t bc_prog_fact_offsets[BC_PROG_FACT_CNT] = {
	offsetof(struct bc_doc_prog, xlated_insns),
	offsetof(struct bc_doc_prog, jited_bytes),
	offsetof(struct bc_doc_prog, processed_insns),
	offsetof(struct bc_doc_prog, total_states),
	offsetof(struct bc_doc_prog, peak_states),
	offsetof(struct bc_doc_prog, stack_total),
};

double bc_prog_fact_value(const struct bc_doc_prog *p, size_t i)
{
	return *(const double *)((const char *)p + bc_prog_fact_offsets[i]);
}

bool bc_prog_fact_differs(const struct bc_doc_prog *a, const struct bc_doc_prog *b, size_t i)
{
	double x = bc_prog_fact_value(a, i), y = bc_prog_fact_value(b, i);

	return !isnan(x) && !isnan(y) && x != y;
}

const struct bc_doc_prog *bc_prog_match(const struct bc_doc_run *run, const struct bc_doc_prog *a)
{
	for (size_t i = 0; i < run->prog_cnt; i++) {
		const struct bc_doc_prog *p = &run->progs[i];

		if (a->name && p->name && !strcmp(a->name, p->name) &&
		    (!a->role || !p->role || !strcmp(a->role, p->role)))
			return p;
	}
	return NULL;
}

/* Two FNV-1a hashes with different seeds, fed byte by byte: 128 bits, so
 * that two different sets of programs practically never share a digest. */
struct bc_prog_hash {
	uint64_t a, b;
};

static void bc_prog_hash_bytes(struct bc_prog_hash *h, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++) {
		h->a = (h->a ^ p[i]) * 0x100000001b3ULL;
		h->b = (h->b ^ p[i]) * 0x100000001b3ULL;
	}
}

/* A string, then a separator no name holds: "ab","c" is not "a","bc". */
static void bc_prog_hash_str(struct bc_prog_hash *h, const char *s)
{
	bc_prog_hash_bytes(h, s ? s : "", s ? strlen(s) : 0);
	bc_prog_hash_bytes(h, "\x1f", 1);
}

/* Least significant byte first: the same digest on every machine. */
static void bc_prog_hash_u64(struct bc_prog_hash *h, uint64_t v)
{
	uint8_t b[8];

	for (size_t i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	bc_prog_hash_bytes(h, b, sizeof(b));
}

static void bc_prog_hash_init(struct bc_prog_hash *h)
{
	h->a = 0xcbf29ce484222325ULL;
	h->b = 0x84222325cbf29ce4ULL;
}

/* One program: its role, name and facts ("-" for one not given). */
static struct bc_prog_hash bc_prog_hash_one(const struct bc_doc_prog *p, bool *known)
{
	struct bc_prog_hash h;
	char num[40];

	bc_prog_hash_init(&h);
	bc_prog_hash_str(&h, p->role);
	bc_prog_hash_str(&h, p->name);
	for (size_t k = 0; k < BC_PROG_FACT_CNT; k++) {
		double v = bc_prog_fact_value(p, k);

		if (isnan(v)) {
			bc_prog_hash_str(&h, "-");
			continue;
		}
		*known = true;
		snprintf(num, sizeof(num), "%.17g", v);
		bc_prog_hash_str(&h, num);
	}
	return h;
}

static int bc_prog_hash_cmp(const void *pa, const void *pb)
{
	const struct bc_prog_hash *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

bool bc_prog_digest(const struct bc_doc_run *run, char *buf, size_t len)
{
	struct bc_prog_hash *each, all;
	size_t cnt = 0;
	bool known = false;

	if (len)
		buf[0] = '\0';
	if (!run || !run->prog_cnt || len < BC_PROG_DIGEST_SIZE)
		return false;
	/* without memory, unknown: never a change, nothing failed */
	each = calloc(run->prog_cnt, sizeof(*each));
	if (!each)
		return false;
	for (size_t i = 0; i < run->prog_cnt; i++)
		if (run->progs[i].name)
			each[cnt++] = bc_prog_hash_one(&run->progs[i], &known);
	/* the document's order of programs is no fact of theirs */
	qsort(each, cnt, sizeof(*each), bc_prog_hash_cmp);
	bc_prog_hash_init(&all);
	for (size_t i = 0; i < cnt; i++) {
		bc_prog_hash_u64(&all, each[i].a);
		bc_prog_hash_u64(&all, each[i].b);
	}
	free(each);
	if (!known)
		return false;
	snprintf(buf, len, "%016llx%016llx", (unsigned long long)all.a, (unsigned long long)all.b);
	return true;
}
