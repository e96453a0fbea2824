/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the kernel made of a loaded BPF program (prog_facts.c): its size as
 * loaded, translated and JIT-ed, what the verifier reported (the program's
 * info, and the statistics of a load at log level 4, BPF_LOG_STATS), and
 * its maps. Read when a program is declared (bc_ctx_add_prog()), that is
 * at load, never inside a measured interval. A figure the kernel did not
 * report is absent (its has_ flag false) and the note says why: never a
 * made-up 0.
 */
#ifndef BENCHCORE_PROG_FACTS_H
#define BENCHCORE_PROG_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Subprograms whose stack depths the log lists ("stack depth 8+0+16"). */
#define BC_STACK_DEPTHS_MAX 16
/* The verifier's log a skeleton's program is loaded with, per object. */
#define BC_VERIFIER_LOG_BYTES (64u << 10)

/* The verifier's statistics lines of one load (kernel/bpf/verifier.c's
 * print_verification_stats()). */
struct bc_verifier_stats {
	bool has_processed;		/* "processed N insns (limit L) ..." */
	uint64_t processed_insns, insn_limit;
	bool has_states;		/* the states on the same line */
	uint64_t max_states_per_insn, total_states, peak_states;
	bool has_mark_read;		/* older kernels print it */
	uint64_t mark_read;
	bool has_time;			/* "verification time X usec" */
	uint64_t time_usec;
	size_t stack_cnt;		/* "stack depth A+B": one per subprogram */
	uint32_t stack[BC_STACK_DEPTHS_MAX];
	uint64_t stack_total;
};

/* One map a program uses (its info and /proc/self/fdinfo's memlock). */
struct bc_map_facts {
	uint32_t id;
	char name[16];
	char type[32];			/* libbpf's name of the map type */
	uint32_t key_size, value_size, max_entries;
	int64_t memlock;		/* bytes; -1: not readable */
};

struct bc_prog_facts {
	bool has_info;			/* bpf_prog_info was read */
	uint32_t insns;			/* as libbpf loaded them; 0: not known */
	uint32_t xlated_insns;		/* xlated_prog_len / 8 */
	uint32_t jited_bytes;		/* jited_prog_len; 0: not JIT-ed */
	uint32_t verified_insns;	/* 0: not reported (before 6.0) */
	bool has_verifier;		/* vs holds a parsed log */
	struct bc_verifier_stats vs;
	struct bc_map_facts *maps;
	size_t map_cnt;
	char note[256];			/* why a figure is absent; "" when none is */
};

/*
 * Parses the statistics out of a verifier log of len bytes (not
 * necessarily terminated), truncated or garbage included: each figure it
 * finds is set with its has_ flag. 0 when the processed line was found,
 * -ENODATA when not (vs then holds whatever else was found).
 */
int bc_verifier_log_parse(const char *log, size_t len, struct bc_verifier_stats *vs);
/* The program's info and its maps' (pf zeroed first; the note says what
 * could not be read). 0, or a negative errno when the info itself could
 * not be read. */
int bc_prog_facts_read(int prog_fd, struct bc_prog_facts *pf);
/* Adds "; "-separated words to pf->note. */
void bc_prog_facts_note(struct bc_prog_facts *pf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bc_prog_facts_free(struct bc_prog_facts *pf);

/*
 * A plugin that loads its own skeleton with log level 4 and no buffer of
 * its own gets libbpf's "prog 'NAME': -- BEGIN PROG LOAD LOG --" debug
 * message; the core's libbpf print callbacks hand each such message here
 * (text formatted), and the program's declaration takes the statistics by
 * name (the newest load of that name; older ones of it are dropped).
 */
void bc_prog_facts_libbpf_msg(const char *text);
bool bc_prog_facts_take_log(const char *name, struct bc_verifier_stats *vs);

#endif /* BENCHCORE_PROG_FACTS_H */
