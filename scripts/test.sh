#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sets everything up, then runs the whole test suite twice: a -Werror build,
# and the same suite under AddressSanitizer + UndefinedBehaviorSanitizer;
# the parsers' fuzz targets; then the kernel matrix (scripts/vmtest.sh): the
# BPF tests and every benchmark on Debian's own kernels under QEMU, because
# the machine's own kernel may lack the attach paths (fentry, kprobes) users'
# kernels have.
#
# Every part runs even when an earlier one failed, unless it needs what
# failed (the suites need their build). The run ends with a table of the
# parts: seconds, passed or failed, and for a failed part one line saying
# why. The exit status is non-zero exactly when a part failed.
#
# BENCHCORE_VMTEST=0 skips the matrix (quick local runs; CI runs it);
# BENCHCORE_TEST_PEER=0 skips building the kernel's runner (scripts/peer.sh);
# BENCHCORE_TEST_FUZZ=0 skips the fuzz run; BENCHCORE_TEST_JOBS sets ctest's
# parallelism (default: the CPU count; tests that need the whole machine or
# exclusive kernel state are marked RUN_SERIAL and still run alone).
set -uo pipefail
cd "$(dirname "$0")/.."

logs=build-logs
mkdir -p "$logs"
jobs=${BENCHCORE_TEST_JOBS:-$(nproc)}
table=()
failed=0

# part NAME REASON_FN COMMAND...: runs COMMAND with its output shown and
# kept in build-logs/NAME.log; a failure's one-line reason comes from
# REASON_FN LOG (the command's own words, not its whole output).
part() {
	local name=$1 reason_fn=$2 t0=$SECONDS rc=0 log reason=
	shift 2
	log=$logs/${name// /-}.log
	echo "== $name"
	"$@" 2>&1 | tee "$log" || rc=$?
	if [ "$rc" = 0 ]; then
		table+=("$name|$((SECONDS - t0))|passed|")
	else
		reason=$("$reason_fn" "$log" "$rc")
		table+=("$name|$((SECONDS - t0))|FAILED|${reason:-exit status $rc}")
		failed=1
	fi
	echo "== $name: $((SECONDS - t0)) s"
	return "$rc"
}

skipped() {
	table+=("$1|0|not run|$2")
	echo "== $1: not run: $2"
}

last_line_reason() {
	grep -v '^[[:space:]]*$' "$1" | tail -n 1 | cut -c1-200
}

build_reason() {
	local line
	line=$(grep -m1 -E 'error:|Error [0-9]|CMake Error' "$1" || true)
	echo "${line:-$(last_line_reason "$1")}" | cut -c1-200
}

# ctest's own list of failed tests, names only.
ctest_reason() {
	local names
	names=$(sed -n '/tests FAILED:/,$p' "$1" |
		sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (\(.*\))$/\1 (\2)/p' | paste -sd ',' | sed 's/,/, /g')
	if [ -n "$names" ]; then
		echo "$(grep -m1 'tests failed out of' "$1" | sed 's/^[^0-9]*//'): $names"
	else
		last_line_reason "$1"
	fi
}

# The matrix says per kernel what it concluded; the failed ones are the
# reason, each with its cause (could not boot, hung, a test or benchmark).
vmtest_reason() {
	local f=build/vmtest/summary.tsv
	if [ -s "$f" ] && awk -F'\t' '$3 != "passed"' "$f" | grep -q .; then
		awk -F'\t' '$3 != "passed" { printf "%s%s: %s%s", sep, $1, $3, ($4 != "" ? " (" $4 ")" : ""); sep = "; " }' "$f" |
			cut -c1-400
	else
		last_line_reason "$1"
	fi
}

sanitized_ctest() {
	# The sanitizers look for memory and undefined-behaviour errors in
	# our code; the cases that only re-run the runner's largest sizes
	# (kernel-side work, minutes) add nothing there and skip themselves,
	# saying so.
	cd build-asan &&
		BENCHCORE_TEST_SHORT=1 \
			ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
			UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			ctest --output-on-failure -j"$jobs"
}

print_table() {
	local row name sec status reason total=0
	echo
	echo "== scripts/test.sh: the parts"
	printf '%-22s %8s  %-8s %s\n' part seconds result reason
	for row in "${table[@]}"; do
		IFS='|' read -r name sec status reason <<<"$row"
		total=$((total + sec))
		printf '%-22s %8s  %-8s %s\n' "$name" "$sec" "$status" "$reason"
	done
	printf '%-22s %8s\n' total "$total"
	# What the failed suites' cases said: their output scrolled by long
	# before this table, and CI keeps only the end.
	for row in "${table[@]}"; do
		IFS='|' read -r name sec status reason <<<"$row"
		case $name in *suite) ;; *) continue ;; esac
		[ "$status" = FAILED ] || continue
		echo "$name, what failed:"
		scripts/ctest-failures.sh "$logs/${name// /-}.log" 24
	done
}

# --browser: chromium for the report's browser test (tests/store); --readers:
# compare.py, scipy and jsonschema for the export tests; best effort.
part setup last_line_reason scripts/setup.sh --browser --readers || {
	print_table
	exit 1
}

# The kernel's own runner, built from Debian's linux-source-6.12, is the
# reference the parity test (tests/parity) measures a few rows against;
# without it that test skips. BENCHCORE_TEST_PEER=0 leaves it out.
if [ "${BENCHCORE_TEST_PEER:-1}" = 1 ]; then
	part "reference runner" last_line_reason scripts/peer.sh 6.12
else
	skipped "reference runner" "BENCHCORE_TEST_PEER=0"
fi

if part build build_reason scripts/build.sh build; then
	part "native suite" ctest_reason bash -c "cd build && ctest --output-on-failure -j$jobs"
else
	skipped "native suite" "the build failed"
fi

if part "ASan+UBSan build" build_reason scripts/build.sh build-asan -DBENCHCORE_SANITIZE=ON; then
	part "ASan+UBSan suite" ctest_reason sanitized_ctest
else
	skipped "ASan+UBSan suite" "the ASan+UBSan build failed"
fi

# The parsers' fuzz targets (JSON reader, CPU sets, suite files, option
# values, sweep specs), a short fixed-time run each from the seed corpus in
# tests/fuzz/corpus; scripts/fuzz.sh runs them for longer. A crash found
# here fails the run and leaves the input in build-fuzz/fuzz/crash-*.
if [ "${BENCHCORE_TEST_FUZZ:-1}" = 1 ]; then
	part fuzz last_line_reason scripts/fuzz.sh build-fuzz "${BENCHCORE_FUZZ_SECONDS:-60}"
else
	skipped fuzz "BENCHCORE_TEST_FUZZ=0"
fi

if [ "${BENCHCORE_VMTEST:-1}" = 0 ]; then
	skipped "kernel matrix" "BENCHCORE_VMTEST=0"
elif [ ! -x build/benchcore ]; then
	skipped "kernel matrix" "the build failed"
else
	part "kernel matrix" vmtest_reason scripts/vmtest.sh -b build
fi

print_table
exit "$failed"
