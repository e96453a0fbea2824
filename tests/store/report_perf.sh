#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What `report` (and `history`) cost over a store of the shapes that used
# to take cubic time, timed per whole process (date +%s%N), for
# docs/history.md; not a CTest test (no timing thresholds in tests). Needs
# the sqlite3 shell to grow the store.
#
#   tests/store/report_perf.sh BUILD_DIR WORK_DIR [ENTRIES]
#
# Shapes, each of ENTRIES (default 10,000) copies of one committed run
# document with their own run ids and dates:
#   configs-labels  one benchmark, each entry its own options and label
#                   (the worst shape: a configuration x label matrix with
#                   one cell per row and column)
#   benches         each entry its own benchmark (a page each)
#   kernels         one benchmark, 100 configurations x 100 kernels
set -euo pipefail

build=$(cd "${1:?usage: report_perf.sh BUILD_DIR WORK_DIR [ENTRIES]}" && pwd)
work=${2:?}
entries=${3:-10000}
bc=$build/benchcore
src=$(cd "$(dirname "$0")/../.." && pwd)
doc=$src/tests/results/fixtures/v08-b59897c/run.json

command -v sqlite3 >/dev/null || { echo "report_perf.sh: needs the sqlite3 shell (apt-get install sqlite3)" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work"

ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>"$work/last.err" || { cat "$work/last.err" >&2; echo FAILED; return; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# shape BENCH OPTIONS LABEL KERNEL: SQL expressions of i
grow() {
	local store=$1 bench=$2 options=$3 label=$4 kernel=$5
	"$bc" store import --store "$store" "$doc" 2>/dev/null
	sqlite3 "$store" <<SQL
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $entries - 1)
INSERT INTO entries (run_id, bench, options, kernel_release, kernel_version, host, cpu_model,
	cpu_count, hypervisor, benchcore_version, plugin_version, label, date, status, metric, unit,
	mean, stddev, n, by_runs, higher_better, doc)
SELECT printf('%032x', i), $bench, $options, $kernel, e.kernel_version, e.host, e.cpu_model,
	e.cpu_count, e.hypervisor, e.benchcore_version, e.plugin_version, $label,
	strftime('%Y-%m-%dT%H:%M:%SZ', '2024-01-01', '+' || (i * 10) || ' minutes'), 0, e.metric,
	e.unit, e.mean * (1 + ((i * 7919) % 1000 - 500) / 50000.0), e.stddev, e.n, e.by_runs,
	e.higher_better, e.doc
FROM n, entries e WHERE e.id = 1;
INSERT INTO metrics SELECT e.id, m.name, m.unit, m.mean, m.stddev, m.n, m.by_runs, m.higher_better
FROM entries e, metrics m WHERE m.entry = 1 AND e.id > 1;
COMMIT;
SQL
}

run_shape() {
	local name=$1 store=$work/$1.db
	shift
	grow "$store" "$@"
	local bench
	bench=$(sqlite3 "$store" 'SELECT bench FROM entries WHERE id = 2')
	local r h
	r=$(ms "$bc" report --store "$store" -o "$work/site-$name")
	h=$(ms "$bc" history "$bench" --store "$store" --by label)
	echo "$name: $entries entries, report ${r} ms ($(du -sm "$work/site-$name" | cut -f1) MiB), history --by label ${h} ms"
}

run_shape configs-labels "e.bench" "'count-batch=' || i" "'label-' || i" "e.kernel_release"
run_shape benches "'count:bench-' || i" "e.options" "'label-' || (i % 50)" "e.kernel_release"
run_shape kernels "e.bench" "'count-batch=' || (i % 100)" "'label-' || (i % 7)" "'6.' || (i / 100)"
