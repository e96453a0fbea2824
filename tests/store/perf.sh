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
#    worst case: every entry is selected), by each grouping, 5 times each;
#    then (schema 3 on) history --metric per_producer, which reads the
#    store's figures by name, and the same over entries saved before them
#    (read from their documents), once.
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
schema=$(sqlite3 "$store" 'PRAGMA user_version')
# Schema 3: each copy's figures by name too, scaled as its mean is.
if [ "$schema" -ge 3 ]; then
	sqlite3 "$store" <<'EOF'
BEGIN;
INSERT INTO metrics (entry, name, unit, mean, stddev, n, by_runs, higher_better)
SELECT e.id, m.name, m.unit, m.mean * e.mean / s.mean, m.stddev, m.n, m.by_runs, m.higher_better
FROM entries e, entries s, metrics m WHERE s.id = 1 AND m.entry = 1 AND e.id > 1;
COMMIT;
EOF
fi
entries=$(sqlite3 "$store" 'SELECT count(*) FROM entries')
"$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1 --format json >"$work/one.json" 2>/dev/null
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
if [ "$schema" -ge 3 ]; then
	best=
	for i in 1 2 3 4 5; do
		t=$(ms "$bc" history count:count-local --store "$store" --by date --metric per_producer)
		[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
		last=$t
	done
	echo "history --by date --metric per_producer over $entries entries: best ${best} ms, last ${last} ms (5 runs)"
	# As a store of schema 2 is until it is written again: no figures by
	# name, every entry's read from its document.
	sqlite3 "$store" 'DELETE FROM metrics; INSERT INTO metrics_pending SELECT id FROM entries'
	t=$(ms "$bc" history count:count-local --store "$store" --by date --metric per_producer)
	echo "history --by date --metric per_producer over $entries entries saved before schema 3 (documents read): ${t} ms"
	# The first write after the migration reads them once.
	t=$(ms "$bc" store import --store "$store" "$work/one.json")
	echo "the first save into that store, which keeps every entry's figures by name: ${t} ms"
	t=$(ms "$bc" history count:count-local --store "$store" --by date --metric per_producer)
	echo "history --by date --metric per_producer after it: ${t} ms"
fi
t=$(ms "$bc" store list --store "$store" --label label-7 --kernel 6.12.0)
echo "store list --label label-7 --kernel 6.12.0 (index): ${t} ms"
