#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What `check` and `history --change-points` cost, timed per whole process
# (date +%s%N around each command, best and last of 5), for docs/ci.md and
# docs/history.md; not a CTest test (no timing thresholds in tests). Needs
# the sqlite3 shell and python3 to grow the stores.
#
#   tests/store/check_perf.sh BUILD_DIR WORK_DIR
#
# 1. check over 100,000 entries: 20 benchmarks of 5,000 entries each (one
#    machine, four kernels, labels main and pr-N), then 1,000
#    configurations of 100 entries each: every baseline kind, --metric,
#    and a filter that selects the newest label only.
# 2. history --change-points over one series of 1,000 entries with two
#    steps, and of 10,000 (BC_CP_MAX_SERIES), and the report of the
#    1,000-entry store.
set -euo pipefail

build=$(cd "${1:?usage: check_perf.sh BUILD_DIR WORK_DIR}" && pwd)
work=${2:?}
bc=$build/benchcore

command -v sqlite3 >/dev/null || { echo "check_perf.sh: needs the sqlite3 shell (apt-get install sqlite3)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "check_perf.sh: needs python3" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work"

ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# best and last of 5
time5() {
	local best= last t
	for _ in 1 2 3 4 5; do
		t=$(ms "$@")
		[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
		last=$t
	done
	echo "best ${best} ms, last ${last} ms"
}

# One synthetic entry (a document of the shape benchcore writes, with hits
# and drops), imported, as the seed the sqlite3 shell copies.
seed() {
	python3 - "$1" <<'EOF'
import json, sys
vals = [1e6 * (1 + 0.01 * ((i * 7) % 5 - 2)) for i in range(10)]
mean = sum(vals) / 10
json.dump({"benchcore_version": "0.1.0",
           "context": {"date": "2024-01-01T00:00:00Z", "host": "ci-a", "kernel_release": "6.18.0",
                       "kernel_version": "#1", "cpu_model": "Synthetic CPU", "cpu_count": 2,
                       "hypervisor": True},
           "plugin": {"name": "synth", "version": "1.0"}, "benchmark": "seed",
           "config": {"producers": 1, "duration_sec": 10, "plugin_options": {}},
           "metrics": [{"name": "hits", "unit": "ops", "kind": "counter", "role": "hits"},
                       {"name": "drops", "unit": "ops", "kind": "counter", "role": "drops"}],
           "iterations": [{"index": i, "warmup": False, "values": {"hits": v, "drops": 10}}
                          for i, v in enumerate(vals)],
           "summary": {"hits": {"unit": "ops/s", "mean": mean, "stddev": 1e4, "n": 10},
                       "drops": {"unit": "ops/s", "mean": 10, "stddev": 1, "n": 10}},
           "status": {"exit_status": 0}}, open(sys.argv[1], "w"))
EOF
}

# A seeded standard normal value per i (1..100,000): the stores' noise.
python3 - "$work/noise.csv" <<'EOF'
import random, sys
rnd = random.Random(35)
with open(sys.argv[1], "w") as f:
    for i in range(1, 100001):
        f.write("%d,%.17g\n" % (i, rnd.gauss(0, 1)))
EOF

# grow STORE N BENCH_EXPR OPTIONS_EXPR LABEL_EXPR MEAN_EXPR: N copies of
# entry 1, each expression over i (1..N) and g (i's noise), with their
# figures by name.
grow() {
	sqlite3 "$1" <<EOF
CREATE TEMP TABLE noise (i INTEGER PRIMARY KEY, g REAL);
.mode csv
.import $work/noise.csv noise
BEGIN;
WITH n(i, g) AS (SELECT i, g FROM noise WHERE i <= $2)
INSERT INTO entries (run_id, bench, options, kernel_release, kernel_version, host, cpu_model,
	cpu_count, hypervisor, benchcore_version, plugin_version, label, date, status, metric, unit,
	mean, stddev, n, by_runs, higher_better, doc)
SELECT printf('%032x', i), $3, $4, e.kernel_release, e.kernel_version, e.host, e.cpu_model,
	e.cpu_count, e.hypervisor, e.benchcore_version, e.plugin_version, $5,
	strftime('%Y-%m-%dT%H:%M:%SZ', '2024-01-01', '+' || i || ' minutes'), 0, e.metric, e.unit,
	$6, e.stddev, e.n, e.by_runs, e.higher_better, e.doc
FROM n, entries e WHERE e.id = 1;
INSERT INTO metrics (entry, name, unit, mean, stddev, n, by_runs, higher_better)
SELECT e.id, m.name, m.unit, m.mean * e.mean / s.mean, m.stddev, m.n, m.by_runs, m.higher_better
FROM entries e, entries s, metrics m WHERE s.id = 1 AND m.entry = 1 AND e.id > 1;
COMMIT;
EOF
}

seed "$work/seed.json"

# 1a. 20 benchmarks x 5,000 entries; a nightly "main" and a pull request
# every tenth entry; noise of +-1%.
store=$work/check20.db
"$bc" store import --store "$store" "$work/seed.json" >/dev/null 2>&1
grow "$store" 99999 "'synth:bench-' || printf('%02d', i % 20)" "'producers=1'" \
	"CASE WHEN i % 200 < 20 THEN 'pr-' || (i / 200) ELSE 'main' END" \
	"e.mean * (1 + (i % 20) / 10.0) * (1 + 0.01 * g)"
entries=$(sqlite3 "$store" 'SELECT count(*) FROM entries')
echo "store: $entries entries of 20 benchmarks, $(du -m "$store" | cut -f1) MiB"
echo "check (latest) over $entries entries: $(time5 "$bc" check --store "$store")"
echo "check --baseline main: $(time5 "$bc" check --store "$store" --baseline main)"
echo "check --baseline window:10: $(time5 "$bc" check --store "$store" --baseline window:10)"
echo "check --metric drops: $(time5 "$bc" check --store "$store" --metric drops)"
echo "check --label pr-499 --baseline main (the pull request's entries): $(time5 "$bc" check --store "$store" --label pr-499 --baseline main)"
echo "check --format json: $(time5 "$bc" check --store "$store" --format json)"

# 1b. 1,000 configurations x 100 entries.
store=$work/check1000.db
"$bc" store import --store "$store" "$work/seed.json" >/dev/null 2>&1
grow "$store" 99999 "'synth:bench-' || printf('%02d', i % 20)" "'producers=1 batch=' || (i % 1000 / 20)" \
	"'main'" "e.mean * (1 + 0.01 * g)"
entries=$(sqlite3 "$store" 'SELECT count(*) FROM entries')
configs=$(sqlite3 "$store" 'SELECT count(*) FROM (SELECT DISTINCT bench, options FROM entries)')
echo "store: $entries entries of $configs configurations"
echo "check (latest) over $entries entries, $configs configurations: $(time5 "$bc" check --store "$store")"
echo "check --baseline window:10: $(time5 "$bc" check --store "$store" --baseline window:10)"

# 2. change points: one series, steps of -5% and +3% in 2% noise.
for n in 1000 10000; do
	store=$work/series$n.db
	"$bc" store import --store "$store" "$work/seed.json" >/dev/null 2>&1
	sqlite3 "$store" "UPDATE entries SET bench = 'synth:series'"
	grow "$store" $((n - 1)) "'synth:series'" "e.options" "'nightly'" \
		"e.mean * (CASE WHEN i < $((n * 2 / 5)) THEN 1 WHEN i < $((n * 4 / 5)) THEN 0.95 ELSE 0.9785 END) * (1 + 0.02 * g)"
	found=$("$bc" history synth:series --store "$store" --change-points --format csv 2>/dev/null | tail -n +2 | wc -l)
	echo "history --change-points over one series of $n entries ($found change points found, 2 planted): $(time5 "$bc" history synth:series --store "$store" --change-points)"
done
store=$work/series1000.db
echo "report of that 1,000-entry series (its chart's change points included): $(time5 "$bc" report --store "$store" -o "$work/site")"
echo "history --by date over it, for scale: $(time5 "$bc" history synth:series --store "$store")"
