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
