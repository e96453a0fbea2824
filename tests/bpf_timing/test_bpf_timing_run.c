// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The bpf_timing plugin through the real benchcore binary:
 *  - bpf-nop times batches (ns per iteration > 0) of at least the runner's
 *    smallest batch, 100 iterations, per BPF_PROG_TEST_RUN;
 *  - xdp-lb passes its own validation (verdict, exact output packet, the
 *    balancer's counters) for every one of the 24 scenarios, and the
 *    balancer counts one packet per timed iteration plus one untimed per
 *    run (two counters read one after the other: up to two batches apart);
 *  - --machine-readable adds the runner's RESULT line, last on stdout, with
 *    min <= median <= p99 <= max over the measured batches;
 *  - an unknown scenario is a usage error (status 2);
 *  - where this kernel cannot run one (asked directly, apart from the
 *    plugin: may_goto in a sleepable syscall program for bpf-nop; may_goto
 *    in XDP, at most LB_LRU_CPUS possible CPUs and an LRU hash held in an
 *    array of maps for xdp-lb), it exits 3 with a reason naming what
 *    was refused, and nothing else is accepted;
 *  - no program or map of the plugin stays loaded.
 * No timing is asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/libbpf.h>

#include "bc_test_kernel.h"
#include "bc_test_report.h"
#include "json_read.h"
#include "xdp_lb_common.h"

static const char *const ours[] = { "bt_", "lb_", "xdp_lb.", "bpf_nop.", NULL };

static const char *const scenarios[] = {
	"tcp-v4-lru-hit", "tcp-v4-ch", "tcp-v6-lru-hit", "tcp-v6-ch", "udp-v4-lru-hit",
	"udp-v6-lru-hit", "tcp-v4v6-lru-hit", "tcp-v4-lru-diverse", "tcp-v4-ch-diverse",
	"tcp-v6-lru-diverse", "tcp-v6-ch-diverse", "udp-v4-lru-diverse", "tcp-v4-lru-miss",
	"udp-v4-lru-miss", "tcp-v4-lru-warmup", "tcp-v4-syn", "tcp-v4-rst-miss",
	"pass-v4-no-vip", "pass-v6-no-vip", "pass-v4-icmp", "pass-non-ip", "drop-v4-frag",
	"drop-v4-options", "drop-v6-frag",
};

/*
 * What the kernel refuses that a benchmark needs, asked in main(): for each,
 * the word the plugin's reason must hold. None: the benchmark must run.
 */
struct refusals {
	const char *needle[4];
	size_t cnt;
};

static struct refusals nop_refused, lb_refused;

static void refused(struct refusals *r, int err, const char *needle)
{
	if (err && r->cnt < sizeof(r->needle) / sizeof(r->needle[0]))
		r->needle[r->cnt++] = needle;
}

/* The run must exit 3 with a reason naming one of the refusals (the plugin
 * stops at the first it meets). */
static void check_unavailable(const char *const *args, const struct refusals *why)
{
	struct bc_test_run r;
	bool named = false;

	bc_test_run_benchcore(&r, args);
	for (size_t i = 0; i < why->cnt; i++)
		named |= strstr(r.err, why->needle[i]) != NULL;
	if (r.status != BC_TEST_EXIT_UNAVAILABLE || !named) {
		bc_test_dump(args[1], &r);
		fail_msg("%s: the kernel refuses %s%s: expected exit status %d naming it", args[1],
			 why->needle[0], why->cnt > 1 ? " (and more)" : "",
			 BC_TEST_EXIT_UNAVAILABLE);
	}
	print_message("%s unavailable here, as the kernel said: %s", args[1], r.err);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, args[1]);
}

static void test_nop(void **state)
{
	const char *args[] = { "run", "bpf_timing:bpf-nop", "-w0", "-d1", NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	double op_ns, ops, runs;

	(void)state;
	if (nop_refused.cnt) {
		check_unavailable(args, &nop_refused);
		return;
	}
	doc = bc_test_run_json(&r, args);
	op_ns = bc_test_summary_mean(doc, "op_ns");
	ops = bc_test_summary_mean(doc, "ops");
	runs = bc_test_summary_mean(doc, "runs");
	if (!(op_ns > 0) || !(runs > 0) || ops < runs * 100 * 0.98) {
		bc_test_dump("bpf-nop", &r);
		fail_msg("bpf-nop: %.3f ns/op, %.0f iterations/s in %.0f runs/s: expected timed "
			 "batches of at least 100 iterations", op_ns, ops, runs);
	}
	(void)bc_test_attach_point(doc);
	bc_json_free(doc);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "bpf-nop");
}

static void check_scenario(const char *sc)
{
	const char *args[] = { "run", "bpf_timing:xdp-lb", "-w0", "-d1", "--scenario", sc, NULL };
	struct bc_test_run r;
	struct bc_json *doc;
	double ops, runs, packets, op_ns, slack;

	doc = bc_test_run_json(&r, args);
	op_ns = bc_test_summary_mean(doc, "op_ns");
	ops = bc_test_summary_mean(doc, "ops");
	runs = bc_test_summary_mean(doc, "runs");
	packets = bc_test_summary_mean(doc, "packets");
	/* Packets are counted as they go, timed iterations when their batch
	 * ends: at a tick, one batch (ops / runs) may be in flight, and one
	 * more may end between the two counters' reads when the sampling
	 * thread is preempted there (seen on a loaded 2-CPU machine, where a
	 * cold scenario's batch is ~100 ms): two batches either way. */
	slack = 2 * (runs > 0 ? ops / runs : 0) + (ops + runs) * 0.01;
	if (!(op_ns > 0) || !(ops > 0) || !(runs > 0) || packets < ops + runs - slack ||
	    packets > ops + runs + slack) {
		bc_test_dump(sc, &r);
		fail_msg("xdp-lb %s: %.0f packets/s for %.0f timed iterations/s and %.0f runs/s "
			 "(%.3f ns/op)", sc, packets, ops, runs, op_ns);
	}
	bc_json_free(doc);
	bc_test_run_free(&r);
}

static void test_xdp_lb_scenarios(void **state)
{
	const char *args[] = { "run", "bpf_timing:xdp-lb", "-w0", "-d1", NULL };

	(void)state;
	if (lb_refused.cnt) {
		check_unavailable(args, &lb_refused);
		return;
	}
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		check_scenario(scenarios[i]);
	bc_test_assert_none_loaded(ours, "xdp-lb");
}

/* The line run_bench_xdp_lb.sh greps ('^RESULT ') and reads with
 * sed -nE "s/.*KEY=([^ ]+).*\/\1/p". */
static void test_machine_readable(void **state)
{
	const char *args[] = { "run", "bpf_timing:xdp-lb", "-q", "-w1", "-d1", "--scenario",
			       "udp-v4-lru-hit", "--machine-readable", NULL };
	double med, sd, cv, mn, p99, mx;
	struct bc_test_run r;
	const char *line;
	int samples, n;
	char sc[64];

	(void)state;
	if (lb_refused.cnt) {
		check_unavailable(args, &lb_refused);
		return;
	}
	bc_test_run_benchcore(&r, args);
	line = strstr(r.out, "RESULT ");
	if (r.status != 0 || !line || (line != r.out && line[-1] != '\n')) {
		bc_test_dump("xdp-lb --machine-readable", &r);
		fail_msg("expected exit 0 and a line starting with 'RESULT '");
	}
	n = sscanf(line, "RESULT scenario=%63s samples=%d median=%lf stddev=%lf cv=%lf min=%lf "
		   "p99=%lf max=%lf\n", sc, &samples, &med, &sd, &cv, &mn, &p99, &mx);
	if (n != 8 || strcmp(sc, "udp-v4-lru-hit") || samples <= 0 || !(mn > 0) || mn > med ||
	    med > p99 || p99 > mx || sd < 0 || cv < 0 || strchr(line, '\n')[1] != '\0') {
		bc_test_dump("xdp-lb --machine-readable", &r);
		fail_msg("RESULT line not in the runner's shape, or not last: %d fields", n);
	}
	print_message("%.*s\n", (int)(strchr(line, '\n') - line), line);
	bc_test_run_free(&r);
	bc_test_assert_none_loaded(ours, "xdp-lb --machine-readable");
}

static void test_unknown_scenario(void **state)
{
	const char *args[] = { "run", "bpf_timing:xdp-lb", "-w0", "-d1", "--scenario",
			       "tcp-v9-lru-hit", NULL };
	struct bc_test_run r;

	(void)state;
	bc_test_run_benchcore(&r, args);
	if (r.status != BC_TEST_EXIT_USAGE || !strstr(r.err, "tcp-v9-lru-hit")) {
		bc_test_dump("xdp-lb --scenario tcp-v9-lru-hit", &r);
		fail_msg("expected exit status %d naming the value", BC_TEST_EXIT_USAGE);
	}
	bc_test_run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nop),
		cmocka_unit_test(test_xdp_lb_scenarios),
		cmocka_unit_test(test_machine_readable),
		cmocka_unit_test(test_unknown_scenario),
	};
	int skip = bc_test_bpf_skip("bpf_timing_run"), cpus;

	if (skip)
		return skip;
	libbpf_set_print(NULL);
	/* bpf-nop: the timed program is a sleepable syscall program that
	 * bounds its loop with may_goto (6.9+). */
	refused(&nop_refused, bc_test_kernel_may_goto(BPF_PROG_TYPE_SYSCALL, BPF_F_SLEEPABLE),
		"may_goto");
	/* xdp-lb: an XDP program with may_goto, one LRU connection table per
	 * possible CPU in an array of LB_LRU_CPUS slots. */
	refused(&lb_refused, bc_test_kernel_may_goto(BPF_PROG_TYPE_XDP, 0), "may_goto");
	refused(&lb_refused, bc_test_kernel_lru_in_array_of_maps(), "maps");
	cpus = bc_test_kernel_possible_cpus();
	if (cpus <= 0) {
		fprintf(stderr, "cannot count the possible CPUs: %s\n", strerror(-cpus));
		return 1;
	}
	refused(&lb_refused, (unsigned int)cpus > LB_LRU_CPUS, "possible CPUs");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
