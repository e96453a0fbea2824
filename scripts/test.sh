#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sets everything up, then runs the whole test suite twice: a -Werror build,
# and the same suite under AddressSanitizer + UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

echo "== build (-Wall -Wextra -Werror) and test"
scripts/build.sh build
(cd build && ctest --output-on-failure -j1)

echo "== build with ASan+UBSan and test"
scripts/build.sh build-asan -DBENCHCORE_SANITIZE=ON
(cd build-asan &&
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --output-on-failure -j1)

# The parsers' fuzz targets, a short fixed-time run each (scripts/fuzz.sh
# runs them for longer): BENCHCORE_TEST_FUZZ=1 scripts/test.sh
if [ "${BENCHCORE_TEST_FUZZ:-0}" = 1 ]; then
	echo "== fuzz the parsers (${BENCHCORE_FUZZ_SECONDS:-30} s each)"
	scripts/fuzz.sh build-fuzz "${BENCHCORE_FUZZ_SECONDS:-30}"
fi
