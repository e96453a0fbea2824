#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# scripts/ctest-failures.sh LOG [MAX]: what the failed cases of a
# `ctest --output-on-failure` log said: cmocka's failing check and the two
# lines of its message after it, a crash, a timeout. At most MAX lines
# (default 16), indented, never a blank one. CI keeps only the end of a
# run's output, and a guest's log is gone with the guest: the test command
# and the kernel matrix print these under their verdicts.
max=${2:-16}
grep -E -A2 '\[  ERROR   \]|\[   LINE   \]|\[  FAILED  \] test_|Subprocess aborted|Segmentation|\*\*\*Timeout|\*\*\*Exception' "$1" 2>/dev/null |
	grep -v -e '^--$' -e '^[[:space:]]*$' | head -n "$max" | sed 's/^/    /'
exit 0
