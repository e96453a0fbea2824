#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What the store costs, timed per whole process (date +%s%N around each
# command), for docs/history.md; not a CTest test (no timing thresholds in
# tests). Needs the sqlite3 shell to grow a store to 100,000 entries.
#
#   tests/store/perf.sh BUILD_DIR WORK_DIR [PAIRS]
#
# 1. Saving: PAIRS (default 10) pairs of `run count:count-local -w0 -d1`,
#    one without --save and one with, alternating, into a store that
#    already holds 100,000 entries: the mean of each and the difference.
# 2. history over those 100,000 entries, all of the one benchmark (the
#    worst case: every entry is selected), by each grouping, 5 times each.
set -euo pipefail

build=$(cd "${1:?usage: perf.sh BUILD_DIR WORK_DIR [PAIRS]}" && pwd)
work=${2:?}
pairs=${3:-10}
bc=$build/benchcore
store=$work/perf.db

command -v sqlite3 >/dev/null || { echo "perf.sh: needs the sqlite3 shell (apt-get install sqlite3)" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work"

ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# One real entry, then 99,999 copies of it with their own run id, date,
# kernel, label and a mean that moves, in one transaction.
"$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1 --save --store "$store" \
	--label seed >/dev/null
sqlite3 "$store" <<'EOF'
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
INSERT INTO entries (run_id, bench, options, kernel_release, kernel_version, host, cpu_model,
	cpu_count, hypervisor, benchcore_version, plugin_version, label, date, status, metric, unit,
	mean, stddev, n, by_runs, higher_better, doc)
SELECT printf('%032x', i), e.bench, e.options,
	CASE i % 4 WHEN 0 THEN '6.1.0' WHEN 1 THEN '6.6.0' WHEN 2 THEN '6.12.0' ELSE '6.18.0' END,
	e.kernel_version, 'host' || (i % 3), e.cpu_model, e.cpu_count, e.hypervisor,
	e.benchcore_version, e.plugin_version, 'label-' || (i % 50),
	strftime('%Y-%m-%dT%H:%M:%SZ', '2024-01-01', '+' || (i * 10) || ' minutes'), 0, e.metric,
	e.unit, e.mean * (1 + ((i * 7919) % 1000 - 500) / 50000.0), e.stddev, e.n, e.by_runs,
	e.higher_better, e.doc
FROM n, entries e WHERE e.id = 1;
COMMIT;
EOF
entries=$(sqlite3 "$store" 'SELECT count(*) FROM entries')
size=$(du -m "$store" | cut -f1)
doc=$(sqlite3 "$store" 'SELECT length(doc) FROM entries WHERE id = 1')
echo "store: $entries entries, $size MiB, $doc bytes per document"

plain=0
saved=0
diffs=()
for i in $(seq "$pairs"); do
	a=$(ms "$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1)
	b=$(ms "$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1 --save \
		--store "$store" --label "pair-$i")
	echo "pair $i: run ${a} ms, run --save ${b} ms"
	plain=$((plain + a))
	saved=$((saved + b))
	diffs+=($((b - a)))
done
median=$(printf '%s\n' "${diffs[@]}" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "saving: run $((plain / pairs)) ms, run --save $((saved / pairs)) ms (means of $pairs pairs); difference: mean $(((saved - plain) / pairs)) ms, median ${median} ms"

for by in date kernel label machine; do
	best=
	for i in 1 2 3 4 5; do
		t=$(ms "$bc" history count:count-local --store "$store" --by "$by")
		[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
		last=$t
	done
	echo "history --by $by over $entries entries: best ${best} ms, last ${last} ms (5 runs)"
done
t=$(ms "$bc" history count:count-local --store "$store" --by kernel --format json)
echo "history --by kernel --format json: ${t} ms"
t=$(ms "$bc" store list --store "$store" --label label-7 --kernel 6.12.0)
echo "store list --label label-7 --kernel 6.12.0 (index): ${t} ms"
