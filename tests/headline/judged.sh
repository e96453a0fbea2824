#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# A benchmark whose declared headline is a time per operation measured in
# BPF (nsop:batch's ns_per_op) is judged by that figure by every command
# that judges or draws one, with no option given: run --against, history,
# report, compare and plot; --metric hits switches each of them to the rate.
# Runs of a second or two; nothing is timed.
#
#   tests/headline/judged.sh BENCHCORE PLUGIN_DIR NSOP_PLUGIN_DIR WORK_DIR
set -uo pipefail

bc=(${1:?usage: judged.sh BENCHCORE PLUGIN_DIR NSOP_PLUGIN_DIR WORK_DIR} --plugin-dir "${2:?}"
	--plugin-dir "${3:?}")
work=${4:?}
fails=0
if [ "$(id -u)" -ne 0 ]; then
	echo "judged.sh: skipped: nsop:batch loads BPF programs, which needs root"
	exit 77
fi
rm -rf "$work"
mkdir -p "$work"
store=$work/s.db

fail() {
	echo "judged.sh: $*"
	fails=$((fails + 1))
}

# has WHAT FILE PATTERN: FILE holds PATTERN (grep -E)
has() {
	grep -Eq -- "$3" "$2" || fail "$1: no /$3/ in $(basename "$2"): $(head -c 600 "$2")"
}

hasnt() {
	! grep -Eq -- "$3" "$2" || fail "$1: /$3/ in $(basename "$2")"
}

run() {
	local name=$1
	shift
	"${bc[@]}" "$@" >"$work/$name.out" 2>"$work/$name.err" ||
		fail "$name: exit status $? ($*): $(tail -n 2 "$work/$name.err")"
}

run base run nsop:batch -w0 -d2 --save --store "$store" --label base --format json \
	--output "$work/base.json"
run new run nsop:batch -w0 -d2 --save --store "$store" --label new --against base \
	--format json --output "$work/new.json"
has "run --against" "$work/new.err" "against 'base' .*: ns_per_op "
run new-hits run nsop:batch -w0 -d2 --store "$store" --against base --metric hits
has "run --against --metric hits" "$work/new-hits.err" "against 'base' .*: hits "

run history history nsop:batch --store "$store" --by label
has history "$work/history.out" "^  ns_per_op \(lower is better\)"
run history-hits history nsop:batch --store "$store" --by label --metric hits
has "history --metric hits" "$work/history-hits.out" "^  hits \(higher is better\)"

run report report --store "$store" -o "$work/site"
has report "$work/site/bench/nsop__batch.html" "ns_per_op"
run report-hits report --store "$store" -o "$work/site-hits" --metric hits
hasnt "report --metric hits" "$work/site-hits/bench/nsop__batch.html" "ns_per_op"

run compare compare "$work/base.json" "$work/new.json"
has compare "$work/compare.err" "verdict: nsop:batch .*: ns_per_op "
run compare-hits compare "$work/base.json" "$work/new.json" --metric hits
has "compare --metric hits" "$work/compare-hits.err" "verdict: nsop:batch .*: hits "

run sweep run nsop:batch -w0 -d1 --sweep producers=1,2 --format json --output "$work/sweep.json"
run plot plot "$work/sweep.json" -o "$work/plot.svg"
has plot "$work/plot.svg" "<title>nsop:batch: ns_per_op against producers"
run plot-hits plot "$work/sweep.json" -o "$work/plot-hits.svg" --metric hits
has "plot --metric hits" "$work/plot-hits.svg" "<title>nsop:batch: hits against producers"

[ "$fails" = 0 ] && echo "judged.sh: ns_per_op judged by --against, history, report, compare and plot; --metric hits switches each"
exit $((fails > 0))
