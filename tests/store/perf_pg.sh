#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# What the store costs on a local PostgreSQL server, as perf.sh measures
# the SQLite file, for docs/history.md; not a CTest test (no timing
# thresholds in tests). Starts its own throwaway cluster (pg_cluster.sh)
# and stops it.
#
#   tests/store/perf_pg.sh BUILD_DIR WORK_DIR [PAIRS]
#
# 1. Saving: PAIRS (default 10) pairs of `run count:count-local -w0 -d1`,
#    one without --save and one with, alternating, into a store that
#    already holds 100,000 entries, over the Unix socket (trust) and over
#    127.0.0.1 with a password (scram-sha-256): the means and medians of
#    the differences.
# 2. history over those 100,000 entries, all of the one benchmark (every
#    entry selected), by each grouping, 5 times each, and --metric.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: perf_pg.sh BUILD_DIR WORK_DIR [PAIRS]}" && pwd)
work=${2:?}
pairs=${3:-10}
bc=$build/benchcore

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
"$here/pg_cluster.sh" start "$work/pg"
trap '"$here/pg_cluster.sh" stop "$work/pg"' EXIT
[ ! -f "$work/pg/skip" ] || { echo "perf_pg.sh: no server: $(cat "$work/pg/skip")" >&2; exit 2; }
# shellcheck disable=SC1091
. "$work/pg/env"
psql=$(command -v psql || echo "$BC_PG_BIN/psql")
"$psql" -X -q "$BC_PG_ADMIN" -c "CREATE DATABASE perf OWNER $BC_PG_WRITER"
socket="postgresql://postgres@/perf?host=$BC_PG_SOCKET&port=$BC_PG_PORT"
tcp="postgresql://$BC_PG_WRITER:$BC_PG_PASSWORD@127.0.0.1:$BC_PG_PORT/perf"
sql() { "$psql" -X -q -v ON_ERROR_STOP=1 "$BC_PG_ADMIN dbname=perf" "$@"; }

ms() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# One real entry, then 99,999 copies of it with their own run id, date,
# kernel, label and a mean that moves, and their figures by name.
"$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1 --save --store "$tcp" \
	--label seed >/dev/null 2>&1
sql <<'SQL'
BEGIN;
INSERT INTO entries (run_id, bench, options, kernel_release, kernel_version, host, cpu_model,
	cpu_count, hypervisor, benchcore_version, plugin_version, label, date, status, metric, unit,
	mean, stddev, n, by_runs, higher_better, doc)
SELECT lpad(to_hex(i), 32, '0'), e.bench, e.options,
	CASE i % 4 WHEN 0 THEN '6.1.0' WHEN 1 THEN '6.6.0' WHEN 2 THEN '6.12.0' ELSE '6.18.0' END,
	e.kernel_version, 'host' || (i % 3), e.cpu_model, e.cpu_count, e.hypervisor,
	e.benchcore_version, e.plugin_version, 'label-' || (i % 50),
	to_char(timestamp '2024-01-01' + i * interval '10 minutes', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 0,
	e.metric, e.unit, e.mean * (1 + ((i * 7919) % 1000 - 500) / 50000.0), e.stddev, e.n,
	e.by_runs, e.higher_better, e.doc
FROM generate_series(1, 99999) i, entries e WHERE e.id = 1;
INSERT INTO metrics (entry, name, unit, mean, stddev, n, by_runs, higher_better)
SELECT e.id, m.name, m.unit, m.mean * e.mean / s.mean, m.stddev, m.n, m.by_runs, m.higher_better
FROM entries e, entries s, metrics m WHERE s.id = 1 AND m.entry = 1 AND e.id > 1;
COMMIT;
ANALYZE;
SQL
entries=$(sql -tA -c 'SELECT count(*) FROM entries')
size=$(sql -tA -c "SELECT pg_size_pretty(pg_database_size('perf'))")
echo "store: $entries entries, $size ($(sql -tA -c 'SELECT version()' | cut -d' ' -f1-2))"

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for way in socket tcp; do
	store=$socket
	[ "$way" = tcp ] && store=$tcp
	plain=0 saved=0 diffs=()
	for i in $(seq "$pairs"); do
		a=$(ms "$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1)
		b=$(ms "$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1 --save \
			--store "$store" --label "pair-$way-$i")
		plain=$((plain + a))
		saved=$((saved + b))
		diffs+=($((b - a)))
	done
	echo "saving over the $way: run $((plain / pairs)) ms, run --save $((saved / pairs)) ms (means of $pairs pairs); difference: mean $(((saved - plain) / pairs)) ms, median $(printf '%s\n' "${diffs[@]}" | median) ms"
done

# What the save itself costs, without a run's own noise around it: store
# import of one document, timed whole (a process, a connection, a
# transaction).
"$bc" --plugin-dir "$build/plugins" run count:count-local -w0 -d1 --format json >"$work/one.json" 2>/dev/null
for way in socket tcp; do
	store=$socket
	[ "$way" = tcp ] && store=$tcp
	ts=()
	for i in $(seq 10); do
		sed "s/\"run_id\": *\"[0-9a-f]*\"/\"run_id\": \"perf-$way-$i\"/" "$work/one.json" >"$work/i.json"
		ts+=("$(ms "$bc" store import --store "$store" "$work/i.json")")
	done
	echo "store import of one document over the $way: median $(printf '%s\n' "${ts[@]}" | median) ms (10 runs)"
done

for by in date kernel label machine; do
	best= last=
	for i in 1 2 3 4 5; do
		t=$(ms "$bc" history count:count-local --store "$tcp" --by "$by")
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
		last=$t
	done
	echo "history --by $by over $entries entries: best ${best} ms, last ${last} ms (5 runs)"
done
best=
for i in 1 2 3 4 5; do
	t=$(ms "$bc" history count:count-local --store "$tcp" --by date --metric per_producer)
	if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
done
echo "history --by date --metric per_producer over $entries entries: best ${best} ms (5 runs)"
t=$(ms "$bc" store list --store "$tcp" --label label-7 --kernel 6.12.0)
echo "store list --label label-7 --kernel 6.12.0 (index): ${t} ms"
