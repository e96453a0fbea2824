// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The verifier's statistics read from a log_level 4 log (prog_facts.c):
 * the lines as kernels print them, older and newer, and what a truncated,
 * unterminated or garbage log gives: the figures it holds whole, never a
 * made-up one.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "prog_facts.h"

static int parse(const char *log, struct bc_verifier_stats *vs)
{
	return bc_verifier_log_parse(log, strlen(log), vs);
}

static void test_full_log(void **state)
{
	struct bc_verifier_stats vs;

	(void)state;
	assert_int_equal(parse("verification time 172 usec\n"
			       "stack depth 24+24+0\n"
			       "processed 42 insns (limit 1000000) max_states_per_insn 0 total_states 5 peak_states 8 mark_read 0\n",
			       &vs), 0);
	assert_true(vs.has_processed);
	assert_int_equal(vs.processed_insns, 42);
	assert_int_equal(vs.insn_limit, 1000000);
	assert_true(vs.has_states);
	assert_int_equal(vs.max_states_per_insn, 0);
	assert_int_equal(vs.total_states, 5);
	assert_int_equal(vs.peak_states, 8);
	assert_true(vs.has_mark_read);
	assert_int_equal(vs.mark_read, 0);
	assert_true(vs.has_time);
	assert_int_equal(vs.time_usec, 172);
	assert_int_equal(vs.stack_cnt, 3);
	assert_int_equal(vs.stack[0], 24);
	assert_int_equal(vs.stack[2], 0);
	assert_int_equal(vs.stack_total, 48);
}

/* A kernel without mark_read, and the lines in another order. */
static void test_no_mark_read(void **state)
{
	struct bc_verifier_stats vs;

	(void)state;
	assert_int_equal(parse("processed 12 insns (limit 1000000) max_states_per_insn 1 total_states 2 peak_states 3\n"
			       "verification time 9 usec\nstack depth 0\n", &vs), 0);
	assert_int_equal(vs.processed_insns, 12);
	assert_true(vs.has_states);
	assert_false(vs.has_mark_read);
	assert_int_equal(vs.stack_cnt, 1);
	assert_int_equal(vs.stack_total, 0);
}

/* The statistics after a verbose log, as level 1|4 prints them. */
static void test_after_verbose_lines(void **state)
{
	struct bc_verifier_stats vs;

	(void)state;
	assert_int_equal(parse("func#0 @0\n0: R1=ctx() R10=fp0\n0: (b7) r0 = 0 ; R0_w=0\n"
			       "1: (95) exit\nprocessed 2 insns (limit 1000000) max_states_per_insn 0 total_states 0 peak_states 0 mark_read 0\n",
			       &vs), 0);
	assert_int_equal(vs.processed_insns, 2);
	assert_false(vs.has_time);
	assert_int_equal(vs.stack_cnt, 0);
}

/* A line the buffer cut is not trusted: "processed 4" could be 42. */
static void test_truncated(void **state)
{
	const char log[] = "verification time 172 usec\nstack depth 24+24+0\nprocessed 4";
	struct bc_verifier_stats vs;

	(void)state;
	assert_int_equal(bc_verifier_log_parse(log, sizeof(log) - 1, &vs), -ENODATA);
	assert_false(vs.has_processed);
	assert_true(vs.has_time);
	assert_int_equal(vs.stack_total, 48);
	/* Cut at len, no terminating NUL inside it. */
	assert_int_equal(bc_verifier_log_parse("stack depth 8\nverification time 5 usec\n", 14, &vs),
			 -ENODATA);
	assert_int_equal(vs.stack_cnt, 1);
	assert_false(vs.has_time);
}

static void test_garbage(void **state)
{
	static const char *const logs[] = {
		"",
		"\n\n\n",
		"processed insns (limit 1000000)\n",
		"processed -3 insns (limit x)\n",
		"processed 99999999999999999999999 insns (limit 1)\n",
		"unprocessed 5 insns (limit 6)\n",
		"stack depth 8+x\nstack depth +\nstack depth 4294967296\n",
		"verification time  usec\n",
	};
	struct bc_verifier_stats vs;
	char bin[64];

	(void)state;
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		assert_int_equal(parse(logs[i], &vs), -ENODATA);
		assert_false(vs.has_processed);
		assert_false(vs.has_time);
		assert_int_equal(vs.stack_cnt, 0);
	}
	for (size_t i = 0; i < sizeof(bin); i++)
		bin[i] = (char)(i * 37 + 1);
	assert_int_equal(bc_verifier_log_parse(bin, sizeof(bin), &vs), -ENODATA);
	assert_int_equal(bc_verifier_log_parse(NULL, 10, &vs), -ENODATA);
}

static void test_note(void **state)
{
	struct bc_prog_facts pf;

	(void)state;
	memset(&pf, 0, sizeof(pf));
	bc_prog_facts_note(&pf, "a %d", 1);
	bc_prog_facts_note(&pf, "b");
	assert_string_equal(pf.note, "a 1; b");
	for (int i = 0; i < 100; i++)
		bc_prog_facts_note(&pf, "a long note that fills the buffer");
	assert_true(strlen(pf.note) < sizeof(pf.note));
}

/* libbpf's debug message of a plugin's own load: kept by name, the
 * newest load of a name taken, older ones of it dropped; other messages and logs without a
 * processed line are not kept. */
static void test_libbpf_msg(void **state)
{
	struct bc_verifier_stats vs;

	(void)state;
	bc_prog_facts_libbpf_msg("libbpf: prog 'trig_tp': -- BEGIN PROG LOAD LOG --\n"
				 "verification time 28 usec\nstack depth 0\n"
				 "processed 12 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 mark_read 0\n"
				 "-- END PROG LOAD LOG --\n");
	bc_prog_facts_libbpf_msg("libbpf: prog 'trig_tp': -- BEGIN PROG LOAD LOG --\n"
				 "processed 13 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1\n"
				 "-- END PROG LOAD LOG --\n");
	bc_prog_facts_libbpf_msg("libbpf: prog 'cut': -- BEGIN PROG LOAD LOG --\nprocessed 1");
	bc_prog_facts_libbpf_msg("libbpf: map 'x': created\n");
	bc_prog_facts_libbpf_msg(NULL);
	assert_true(bc_prog_facts_take_log("trig_tp", &vs));
	assert_int_equal(vs.processed_insns, 13);
	assert_false(bc_prog_facts_take_log("trig_tp", &vs));
	assert_false(bc_prog_facts_take_log("cut", &vs));
	assert_false(bc_prog_facts_take_log("trig", &vs));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_log),
		cmocka_unit_test(test_no_mark_read),
		cmocka_unit_test(test_after_verbose_lines),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_note),
		cmocka_unit_test(test_libbpf_msg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
