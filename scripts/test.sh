#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sets everything up, then runs the whole test suite twice: a -Werror build,
# and the same suite under AddressSanitizer + UndefinedBehaviorSanitizer;
# then the kernel matrix (scripts/vmtest.sh): the BPF tests and every
# benchmark on Debian's own kernels under QEMU, because the machine's own
# kernel may lack the attach paths (fentry, kprobes) users' kernels have.
# BENCHCORE_VMTEST=0 skips the matrix (quick local runs; CI runs it).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each part says what it cost: the README's cost table comes from these.
part_start=$SECONDS
part_done() {
	echo "== $1: $((SECONDS - part_start)) s"
	part_start=$SECONDS
}

scripts/setup.sh
part_done "setup"

echo "== build (-Wall -Wextra -Werror) and test"
scripts/build.sh build
part_done "build"
(cd build && ctest --output-on-failure -j1)
part_done "native suite"

echo "== build with ASan+UBSan and test"
scripts/build.sh build-asan -DBENCHCORE_SANITIZE=ON
part_done "ASan+UBSan build"
# The sanitizers look for memory and undefined-behaviour errors in our
# code; the cases that only re-run the runner's largest sizes (kernel-side
# work, minutes) add nothing there and skip themselves, saying so.
(cd build-asan &&
	BENCHCORE_TEST_SHORT=1 \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -j1)
part_done "ASan+UBSan suite"

# The parsers' fuzz targets (JSON reader, CPU sets, suite files, option
# values, sweep specs), a short fixed-time run each from the seed corpus in
# tests/fuzz/corpus; scripts/fuzz.sh runs them for longer. A crash found
# here fails the run and leaves the input in build-fuzz/fuzz/crash-*.
# BENCHCORE_TEST_FUZZ=0 skips it; BENCHCORE_FUZZ_SECONDS sets the time.
if [ "${BENCHCORE_TEST_FUZZ:-1}" = 1 ]; then
	echo "== fuzz the parsers (${BENCHCORE_FUZZ_SECONDS:-60} s each)"
	scripts/fuzz.sh build-fuzz "${BENCHCORE_FUZZ_SECONDS:-60}"
	part_done "fuzz"
else
	echo "== fuzz skipped (BENCHCORE_TEST_FUZZ=0)"
fi

if [ "${BENCHCORE_VMTEST:-1}" = 0 ]; then
	echo "== kernel matrix skipped (BENCHCORE_VMTEST=0)"
	exit 0
fi
echo "== kernel matrix: the host and Debian's kernels under QEMU (BENCHCORE_VMTEST=0 skips it)"
scripts/vmtest.sh -b build
part_done "kernel matrix"
