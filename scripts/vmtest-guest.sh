#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# scripts/vmtest-guest.sh all|probe BUILD_DIR OUT_DIR
#
# The part of the kernel matrix that runs on the kernel under test: inside a
# scripts/vmtest.sh guest (all: probe every benchmark, then the BPF-labelled
# CTest tests), or natively on the host (probe: the host's column of the
# matrix). It only records; scripts/vmtest.sh reads OUT_DIR afterwards and
# judges, so the guest needs nothing the host root does not already have.
#
# OUT_DIR gets: kernel (uname -r), features (the kernel's own answers, one
# "NAME yes|no" line each, from tests/kernel_features: hand-written probes,
# apart from every plugin; features.err has what each probe found), benches
# (list order), probe/NAME.{json,err,rc,sec} per benchmark,
# programs.{csv,err,rc,sec} (programs --all), ctest.{log,rc,sec}, dmesg, vm/NAME/out (benchcore vm's guest half,
# vm/guest.sh, on count-local and trig-tp: scripts/vmtest.sh collects them
# as `benchcore vm` does), and done once everything was recorded (a guest
# that dies half-way leaves no done file).
set -euo pipefail

mode=$1
build=$2
out=$3

# Emulated CPUs make speed meaningless there: the probe only needs the
# benchmark to attach and count something. The CLI accepts fractions.
duration=${BENCHCORE_VMTEST_DURATION:-0.5}
# A benchmark that has not finished well after its duration is stuck.
bench_timeout=${BENCHCORE_VMTEST_BENCH_TIMEOUT:-60}

mkdir -p "$out/probe"
uname -r >"$out/kernel"
# Seconds since the kernel started: what booting cost (guest only).
cut -d' ' -f1 /proc/uptime >"$out/uptime.start"

benchcore=("$build/benchcore" --plugin-dir "$build/plugins")

# Before any benchmark runs: what the kernel can do, asked without the code
# under test, so that scripts/vmtest.sh checks each expectation (needs=) on
# whatever build of a release this is. No file when it cannot ask: the
# judge then fails the expectations that need it, rather than guessing.
if "$build/tests/kernel_features" >"$out/features.tmp" 2>"$out/features.err"; then
	mv "$out/features.tmp" "$out/features"
	echo "vmtest-guest: $(uname -r): features: $(awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }' "$out/features")"
else
	rm -f "$out/features.tmp"
	echo "vmtest-guest: $(uname -r): tests/kernel_features failed (features.err): no features file"
fi

# list prints one "PLUGIN:BENCH  description [...]" line per benchmark
# (and says which are unavailable, from cheap feature checks).
t0=$SECONDS
mapfile -t benches < <("${benchcore[@]}" list 2>/dev/null | awk '$1 ~ /:/ { print $1 }')
printf '%s\n' "${benches[@]}" >"$out/benches"
echo $((SECONDS - t0)) >"$out/list.sec"
echo "vmtest-guest: $(uname -r): probing ${#benches[@]} benchmarks (-w0 -d$duration)"
src=$(cd "$(dirname "$0")/.." && pwd)
for bench in "${benches[@]}"; do
	file=$out/probe/${bench/:/__}
	# Word-split on purpose: the file holds option words.
	# shellcheck disable=SC2207
	extra=($(awk -v b="$bench" '$1 == b { $1 = ""; print }' "$src/tests/vmtest/probe-args"))
	rc=0
	t0=$EPOCHREALTIME
	timeout --kill-after=5 "$bench_timeout" "${benchcore[@]}" run "$bench" \
		-w0 -d"$duration" "${extra[@]}" --format json >"$file.json" 2>"$file.err" || rc=$?
	echo "$rc" >"$file.rc"
	# What each probe costs (the guest is emulated: startup dominates).
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' >"$file.sec"
	echo "vmtest-guest: $bench: exit status $rc, $(cat "$file.sec") s"
done

# What each benchmark's programs are on this kernel, veristat's figures
# included (docs/programs.md): every benchmark loaded, attached and torn
# down with nothing measured, each in a child of its own. The judge reads
# programs.rc and the CSV's status column.
t0=$SECONDS
rc=0
timeout --kill-after=5 600 "${benchcore[@]}" programs --all --format csv \
	>"$out/programs.csv" 2>"$out/programs.err" || rc=$?
echo "$rc" >"$out/programs.rc"
echo $((SECONDS - t0)) >"$out/programs.sec"
echo "vmtest-guest: programs --all: exit status $rc, $(cat "$out/programs.sec") s"

# `benchcore vm`'s guest half, in the matrix's own boots: the same
# vm/guest.sh a `benchcore vm` guest runs, on a short count-local run and a
# short trigger run; the host half (`benchcore vm --collect`) reads
# vm/NAME/out after the guest has gone.
for spec in "count-local count:count-local" "trig-tp trigger:trig-tp"; do
	read -r name bench <<<"$spec"
	run=$out/vm/$name
	mkdir -p "$run"
	printf '%s\0' "${benchcore[@]}" run "$bench" -w0 -d"$duration" >"$run/argv"
	t0=$SECONDS
	"$src/vm/guest.sh" "$run" || echo "vmtest-guest: vm/guest.sh $name failed"
	echo "vmtest-guest: vm payload $name: exit status $(cat "$run/out/rc" 2>/dev/null || echo -), $((SECONDS - t0)) s"
done

if [ "$mode" = all ]; then
	echo "vmtest-guest: $(uname -r): ctest -L bpf"
	rc=0
	t0=$SECONDS
	# Exactly the label, not every label containing "bpf".
	# Emulated: the cases that only re-measure sizes skip themselves, with
	# the reason printed (the native suite runs them). The map and
	# program-feature families' CTest cases stay native: in the guest the
	# probe table above runs each of their benchmarks at its attach point
	# and the expectations check it; their test cases add minutes of
	# emulation and no kernel path the probes miss.
	# Guests run side by side on one build tree: ctest's own files
	# (Testing/: the last log, the cost data) stay inside this guest.
	mkdir -p "$build/Testing"
	mount -t tmpfs tmpfs "$build/Testing" ||
		echo "vmtest-guest: cannot keep ctest's Testing/ in the guest"
	(cd "$build" && BENCHCORE_TEST_SHORT=1 ctest -L '^bpf$' \
		-E '^(bloom|hashmap|htab_mem|lpm_trie|bpf_loop|strncmp|rename|bpf_timing|private_stack|sockmap|crypto)_run$' \
		--output-on-failure -j1 --timeout 300) \
		>"$out/ctest.log" 2>&1 || rc=$?
	echo "$rc" >"$out/ctest.rc"
	echo $((SECONDS - t0)) >"$out/ctest.sec"
	tail -n 3 "$out/ctest.log"

	# The guest's log is this run's alone: kernel warnings a benchmark
	# provoked (a BPF splat is a finding in itself).
	dmesg >"$out/dmesg" 2>/dev/null || true
fi
touch "$out/done"
