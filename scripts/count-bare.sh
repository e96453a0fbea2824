#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# scripts/count-bare.sh BUILD_DIR [ROUNDS] [CPU]: count-local against a bare
# pinned increment loop, the floor the harness is held to (docs/compat.md,
# count). The bare loop is the kernel runner's count-local producer and
# nothing else: one thread, one atomic increment per iteration, no stop
# check, compiled -O2, pinned with taskset. Both sides run alternately,
# ROUNDS times each (default 6), order flipped every round; each prints
# increments per CPU-second of the counting thread, which a busy machine
# moves far less than the wall-clock rate. Prints every figure and the
# medians' ratio (benchcore / bare).
set -euo pipefail

build=${1:?usage: scripts/count-bare.sh BUILD_DIR [ROUNDS] [CPU]}
rounds=${2:-6}
cpu=${3:-0}
bench="$build/benchcore"
[ -x "$bench" ] || { echo "count-bare: $bench: not an executable (build first)" >&2; exit 2; }
case $rounds in ''|*[!0-9]*|0) echo "count-bare: ROUNDS '$rounds': expected a positive number" >&2; exit 2 ;; esac
case $cpu in ''|*[!0-9]*) echo "count-bare: CPU '$cpu': expected a CPU number" >&2; exit 2 ;; esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/bare.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* Alone on its cache lines, as a producer's counter is. */
static struct { long value; } __attribute__((aligned(128))) hits;

static void *produce(void *arg)
{
	(void)arg;
	for (;;)
		__atomic_add_fetch(&hits.value, 1, __ATOMIC_RELAXED);
	return NULL;
}

static double secs(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	clockid_t clk;
	pthread_t t;
	double c0, c1;
	long v0, v1;

	pthread_create(&t, NULL, produce, NULL);
	pthread_getcpuclockid(t, &clk);
	sleep(1);	/* warm-up, as -w1 */
	c0 = secs(clk);
	v0 = __atomic_load_n(&hits.value, __ATOMIC_RELAXED);
	sleep(3);	/* as -d3 */
	c1 = secs(clk);
	v1 = __atomic_load_n(&hits.value, __ATOMIC_RELAXED);
	printf("%.3f\n", (v1 - v0) / (c1 - c0) / 1e6);
	return 0;
}
EOF
cc -O2 -pthread -o "$tmp/bare" "$tmp/bare.c"

run_bench() {
	"$bench" run count:count-local -p1 -a -w1 -d3 2>/dev/null |
		sed -n 's/.*hits per CPU-second \([0-9.]*\)M.*/\1/p'
}
run_bare() {
	taskset -c "$cpu" "$tmp/bare"
}

: >"$tmp/benchcore"
: >"$tmp/bare.out"
for ((i = 1; i <= rounds; i++)); do
	if ((i % 2)); then
		run_bench >>"$tmp/benchcore"
		run_bare >>"$tmp/bare.out"
	else
		run_bare >>"$tmp/bare.out"
		run_bench >>"$tmp/benchcore"
	fi
done

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "benchcore count-local -p1 -a (M/CPU-s): $(tr '\n' ' ' <"$tmp/benchcore")"
echo "bare loop on CPU $cpu (M/CPU-s):        $(tr '\n' ' ' <"$tmp/bare.out")"
mb=$(median "$tmp/benchcore")
mr=$(median "$tmp/bare.out")
echo "medians: benchcore $mb, bare $mr, ratio $(awk -v a="$mb" -v b="$mr" 'BEGIN { printf "%.3f", a / b }')"
