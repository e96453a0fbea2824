#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# --metric NAME on every command that judges or draws one figure (compare,
# plot, history and its change points, report, check, run --against, store
# export's gbench and bmf), through
# the real binary: each takes a metric or a derived figure of the document
# (its default is the headline), and refuses a name the document lacks in
# one line that lists the names it has, with exit status 2. Documents from
# fixtures/; `run --against` runs count:count-local for a second at a time
# (no BPF). Nothing is timed.
#
#   tests/results/metric_cli.sh BENCHCORE SOURCE_DIR PLUGIN_DIR WORK_DIR
set -uo pipefail

bc=$(realpath "${1:?usage: metric_cli.sh BENCHCORE SOURCE_DIR PLUGIN_DIR WORK_DIR}")
fixtures=$(realpath "${2:?}")/tests/results/fixtures
plugins=$(realpath "${3:?}")
work=${4:?}
fails=0

rm -rf "$work"
mkdir -p "$work"
cd "$fixtures" || exit 1

# run NAME CMD...: stdout in $work/NAME.out, stderr in $work/NAME.err, $rc
run() {
	local name=$1
	shift
	"$@" >"$work/$name.out" 2>"$work/$name.err"
	rc=$?
}

fail() {
	echo "metric_cli.sh: $*"
	fails=$((fails + 1))
}

# expect NAME RC: the exit status
expect() {
	[ "$rc" -eq "$2" ] || fail "$1: exit $rc, expected $2; stderr: $(cat "$work/$1.err")"
}

# has NAME FILE TEXT: FILE (out or err) has the line TEXT, once
has() {
	local n
	n=$(grep -cxF -- "$3" "$work/$1.$2")
	[ "$n" -eq 1 ] || fail "$1: $n lines of '$3' in its std$2, expected 1: $(cat "$work/$1.$2")"
}

# contains NAME FILE TEXT: somewhere in FILE
contains() {
	grep -qF -- "$3" "$work/$1.$2" || fail "$1: no '$3' in its std$2: $(head -c 400 "$work/$1.$2")"
}

names="hits, per_producer, total_operations"

# compare: the verdict lines judge --metric; the table is the same
run cmp-default "$bc" compare v08-b59897c/run.json v08-b59897c/run2.json
expect cmp-default 0
contains cmp-default err "benchcore: verdict: count:count-local producers=1 consumers=0 count-batch=1: hits "
run cmp-figure "$bc" compare v08-b59897c/run.json v08-b59897c/run2.json --metric per_producer
expect cmp-figure 0
contains cmp-figure err "benchcore: verdict: count:count-local producers=1 consumers=0 count-batch=1: per_producer "
cmp -s "$work/cmp-default.out" "$work/cmp-figure.out" || fail "compare --metric changed the table"
run cmp-nope "$bc" compare v08-b59897c/run.json v08-b59897c/run2.json --metric nope
expect cmp-nope 2
has cmp-nope err "benchcore: --metric 'nope': v08-b59897c/run.json has no metric or figure of that name; it has $names"
[ ! -s "$work/cmp-nope.out" ] || fail "compare --metric nope wrote a table"
run cmp-old "$bc" compare v01-5b03395/run.json v01-5b03395/run2.json --metric per_producer
expect cmp-old 2
has cmp-old err "benchcore: --metric 'per_producer': v01-5b03395/run.json has no metric or figure of that name; it has hits"

# plot: the headline chart's y
run plot-figure "$bc" plot v08-b59897c/sweep.json --metric per_producer -o -
expect plot-figure 0
contains plot-figure out "per_producer against count-batch"
run plot-nope "$bc" plot v08-b59897c/sweep.json --metric nope -o -
expect plot-nope 2
has plot-nope err "benchcore: plot: 'v08-b59897c/sweep.json': --metric 'nope': no run of this sweep has a metric or figure of that name; they have $names"
run plot-latency "$bc" plot v08-b59897c/latency.json --metric hits -o -
expect plot-latency 2
has plot-latency err "benchcore: plot: 'v08-b59897c/latency.json': --metric 'hits': only the headline chart of a sweep or suite draws one metric"

# history and report: from a store of every version's runs
store=$work/store.db
for v in v0*; do
	run "import-$v" "$bc" store import --store "$store" --label "$v" "$v/run.json" "$v/run2.json"
	expect "import-$v" 0
done
run hist-default "$bc" history count:count-local --store "$store" --by label
expect hist-default 0
contains hist-default out "  hits (higher is better)"
run hist-figure "$bc" history count:count-local --store "$store" --by label --metric per_producer
expect hist-figure 0
contains hist-figure out "  per_producer (higher is better)"
contains hist-figure out "v08-b59897c"
grep -q "v01-5b03395" "$work/hist-figure.out" && fail "history --metric per_producer: v01 has no such figure, yet a row"
run hist-nope "$bc" history count:count-local --store "$store" --metric nope
expect hist-nope 2
has hist-nope err "benchcore: history: --metric 'nope': no saved entry of count:count-local that ended well has a metric or figure of that name; they have $names"
run report-figure "$bc" report --store "$store" --metric per_producer -o "$work/site"
expect report-figure 0
contains report-figure err "benchcore: report of "
grep -q "per_producer (higher is better)" "$work/site/bench/count__count-local.html" ||
	fail "report --metric per_producer: the trend does not chart per_producer"
run report-nope "$bc" report --store "$store" --metric nope -o "$work/site2"
expect report-nope 2
has report-nope err "benchcore: report: --metric 'nope': no saved entry that ended well has a metric or figure of that name; they have $names"
[ ! -e "$work/site2" ] || fail "report --metric nope made a site"

# check, history --change-points and store export --format gbench|bmf: the
# same figure, the same refusal
run check-figure "$bc" check count:count-local --store "$store" --metric per_producer --format json
[ "$rc" -le 1 ] || fail "check-figure: exit $rc; stderr: $(cat "$work/check-figure.err")"
contains check-figure out '"metric": "per_producer",'
grep -q '"metric": "hits"' "$work/check-figure.out" && fail "check --metric per_producer: a row judges hits"
run check-nope "$bc" check count:count-local --store "$store" --metric nope
expect check-nope 2
has check-nope err "benchcore: check: --metric 'nope': no selected entry that ended well has a metric or figure of that name; they have $names"
run cp-figure "$bc" history count:count-local --store "$store" --change-points --metric per_producer
expect cp-figure 0
contains cp-figure out "  per_producer (higher is better): "
run cp-nope "$bc" history count:count-local --store "$store" --change-points --metric nope
expect cp-nope 2
has cp-nope err "benchcore: history: --metric 'nope': no saved entry of count:count-local that ended well has a metric or figure of that name; they have $names"
run gb-figure "$bc" store export --store "$store" --format gbench --metric per_producer
expect gb-figure 0
contains gb-figure out '"label": "per_producer in ops/s, as time per operation"'
run bmf-figure "$bc" store export --store "$store" --format bmf --metric per_producer
expect bmf-figure 0
contains bmf-figure out '"per_producer (ops/s)": {'
grep -q '"hits (ops/s)"' "$work/bmf-figure.out" && fail "store export --format bmf --metric per_producer: a hits measure"
run gb-nope "$bc" store export --store "$store" --format gbench --metric nope
expect gb-nope 2
has gb-nope err "benchcore: store export: --metric 'nope': no selected entry that ended well has a metric or figure of that name; they have $names"

# A document that names its headline (the writer's "headline", newer than
# every fixture) is judged by it with no option given.
for f in run run2; do
	sed '1s/^{$/{\n  "headline": "per_producer",/' "v08-b59897c/$f.json" >"$work/hl-$f.json"
done
run hl-compare "$bc" compare "$work/hl-run.json" "$work/hl-run2.json"
expect hl-compare 0
contains hl-compare err "count-batch=1: per_producer "
run hl-import "$bc" store import --store "$work/hl.db" "$work/hl-run.json" "$work/hl-run2.json"
expect hl-import 0
run hl-history "$bc" history count:count-local --store "$work/hl.db"
expect hl-history 0
contains hl-history out "  per_producer (higher is better)"
run hl-history-hits "$bc" history count:count-local --store "$work/hl.db" --metric hits
expect hl-history-hits 0
contains hl-history-hits out "  hits (higher is better)"

# run --against: the figure judged against the saved baseline
rstore=$work/runs.db
run save "$bc" --plugin-dir "$plugins" run count:count-local -w0 -d1 --save --label base --store "$rstore"
expect save 0
run against-figure "$bc" --plugin-dir "$plugins" run count:count-local -w0 -d1 --against base --metric per_producer --store "$rstore"
expect against-figure 0
contains against-figure err "benchcore: against 'base' (entry 1, "
contains against-figure err "): per_producer "
run against-default "$bc" --plugin-dir "$plugins" run count:count-local -w0 -d1 --against base --store "$rstore"
expect against-default 0
contains against-default err "): hits "
run against-nope "$bc" --plugin-dir "$plugins" run count:count-local -w0 -d1 --against base --metric nope --store "$rstore"
expect against-nope 2
has against-nope err "benchcore: --metric 'nope': the run has no metric or figure of that name; it has $names"

if [ "$fails" -gt 0 ]; then
	echo "metric_cli.sh: $fails checks failed"
	exit 1
fi
echo "metric_cli.sh: every command takes --metric and refuses a name its document lacks"
