#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# scripts/fuzz.sh [BUILD_DIR [SECONDS [TARGET...]]]: builds the parsers'
# libFuzzer targets with clang, AddressSanitizer and UBSan in BUILD_DIR
# (default build-fuzz) and runs each for SECONDS (default 600), with the
# seed corpus in tests/fuzz/corpus/<target>. New inputs collect in
# BUILD_DIR/fuzz/work-<target>; a crash is written to
# BUILD_DIR/fuzz/crash-<target>-* and ends the script with status 1 (copy
# a fixed one into the corpus so that every build replays it).
#
# scripts/test.sh (the CI) runs this for 60 s per target; `ctest -L fuzz`
# in such a build runs each for BENCHCORE_FUZZ_SECONDS.
set -euo pipefail
src_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-build-fuzz}
seconds=${2:-600}
shift $(($# > 2 ? 2 : $#))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json cpuset suite options sweep store)
cc=${CC:-clang}
if ! command -v "$cc" >/dev/null; then
	echo "fuzz.sh: $cc not found; libFuzzer needs clang (apt-get install clang)" >&2
	exit 2
fi
CC=$cc cmake -S "$src_dir" -B "$build_dir" -DBENCHCORE_FUZZ=ON -DBENCHCORE_SANITIZE=ON \
	-DBENCHCORE_FUZZ_SECONDS="$seconds" >/dev/null
jobs=$(nproc)
[ "$jobs" -le 2 ] || jobs=2
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]/#/fuzz_}"
# One target per CPU at a time: each fuzzer is a single thread, so on a
# 2-CPU machine five 60 s targets take three minutes instead of five.
# Each target's output goes to BUILD_DIR/fuzz/TARGET.log; its last lines are
# shown when it ends.
fuzz_one() {
	local t=$1 rc=0
	mkdir -p "$build_dir/fuzz/work-$t"
	"$build_dir/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$build_dir/fuzz/crash-$t-" \
		"$build_dir/fuzz/work-$t" "$src_dir/tests/fuzz/corpus/$t" \
		>"$build_dir/fuzz/$t.log" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then
		echo "fuzz.sh: $t: no crash in $seconds s ($(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' \
			"$build_dir/fuzz/$t.log" | sed 's/.*: //') inputs)"
	else
		tail -n 20 "$build_dir/fuzz/$t.log"
		echo "fuzz.sh: $t found a crash: $build_dir/fuzz/crash-$t-* (log: $build_dir/fuzz/$t.log)"
	fi
	return "$rc"
}

status=0
running=()
for t in "${targets[@]}"; do
	if [ "${#running[@]}" -ge "$jobs" ]; then
		wait "${running[0]}" || status=1
		running=("${running[@]:1}")
	fi
	echo "fuzz.sh: $t for $seconds s"
	fuzz_one "$t" &
	running+=($!)
done
for pid in "${running[@]}"; do
	wait "$pid" || status=1
done
exit $status
