#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The tables of every document version, pinned: compare (text, json, csv,
# markdown), plot (SVG), the sweep and suite tables (table_replay), and,
# from a scratch store of every version's runs, store list, history (four
# groupings, four formats) and the report's pages. Each output is compared
# byte for byte with golden/; a difference fails and is shown.
#
#   tests/results/golden.sh BENCHCORE TABLE_REPLAY SOURCE_DIR WORK_DIR [--update]
#
# --update writes the outputs into golden/ instead (then `git diff` shows
# what changed; a change must be meant and said in the commit).
#
# No benchmark runs and nothing is timed: every input is a committed
# document in fixtures/. Outputs are made in WORK_DIR; the two things in
# them that are not the documents' (the report's "made" time and the
# scratch store's path) are replaced by fixed words.
#
# Changes meant since the outputs were first pinned (before the readers
# moved onto the run-document model):
#   - compare's stderr (the compare-*.err files) ends with one verdict line
#     per matched pair of runs, on the judged figure (each run's headline,
#     or --metric): compare had no line that said which way a change goes
#     ("improved", "regressed"), and issue 31 asks for one. Its standard
#     output, every format, is as it was.
#   - the report's trend charts say how many change points they mark
#     (data-change-points) and mark them, and the index lists them
#     (issue 35): count:count-local's count-batch=1 series moved by +78%
#     at the v06 documents, which its chart and the index now show.
#   - history's JSON groups say their "accelerator" ("native" for every
#     fixture): benchcore vm's guests (issue 37) are grouped apart and never
#     judged against native runs.
#   - history says of each group whether the benchmark's BPF programs
#     changed at one of its entries ("program_changed" and its entry's
#     run id in JSON, a program_changed column in CSV), and the report's
#     trends count such entries (data-program-changes) and style their
#     mark (issue 38): no fixture has program facts, so none is marked.
set -uo pipefail

bc=${1:?usage: golden.sh BENCHCORE TABLE_REPLAY SOURCE_DIR WORK_DIR [--update]}
replay=${2:?}
src=${3:?}
work=${4:?}
update=${5:-}
# Absolute: the commands run from the fixtures directory.
bc=$(realpath "$bc")
replay=$(realpath "$replay")
src=$(realpath "$src")
here=$src/tests/results
fixtures=$here/fixtures
golden=$here/golden

rm -rf "$work"
mkdir -p "$work/out"
out=$work/out
fails=0

# The versions, oldest first (fixtures/README.md says what each is).
versions=$(cd "$fixtures" && ls -d v*/ | tr -d / | sort)

# keep NAME CMD...: stdout into NAME.out, stderr and the exit status into
# NAME.err, from the fixtures directory (relative paths in every output).
keep() {
	local name=$1 rc
	shift
	mkdir -p "$(dirname "$out/$name")"
	(cd "$fixtures" && "$@" >"$out/$name.out" 2>"$out/$name.err")
	rc=$?
	echo "exit $rc" >>"$out/$name.err"
	sed -i "s|$work|WORK|g" "$out/$name.out" "$out/$name.err"
}

formats="text json csv markdown"
for v in $versions; do
	# compare: the pairs each version has, in every format
	for pair in "run run2" "sweep sweep2" "repeat repeat2" "suite suite"; do
		set -- $pair
		[ -f "$fixtures/$v/$1.json" ] && [ -f "$fixtures/$v/$2.json" ] || continue
		for f in $formats; do
			keep "$v/compare-$1.$f" "$bc" compare "$v/$1.json" "$v/$2.json" --format "$f"
		done
	done
	# a run of this version against one of the newest
	newest=$(echo "$versions" | tail -n1)
	keep "$v/compare-newest.text" "$bc" compare "$v/run.json" "$newest/run.json"
	# plot: every document it draws, and the runs it refuses
	for d in sweep suite latency compare compare-sweep compare-repeat run repeat bpfstats; do
		[ -f "$fixtures/$v/$d.json" ] || continue
		keep "$v/plot-$d.svg" "$bc" plot "$v/$d.json" -o -
	done
	[ -f "$fixtures/$v/suite.json" ] &&
		keep "$v/plot-suite-latency.svg" "$bc" plot "$v/suite.json" --chart latency -o -
	# the sweep and suite tables
	for d in sweep suite; do
		[ -f "$fixtures/$v/$d.json" ] || continue
		for f in $formats; do
			keep "$v/table-$d.$f" "$replay" "$f" "$v/$d.json"
		done
	done
done

# One store of every version's runs, each labelled by its version.
store=$work/store.db
for v in $versions; do
	files=
	for d in run run2 run-p2 latency repeat bpfstats sweep suite; do
		[ -f "$fixtures/$v/$d.json" ] && files="$files $v/$d.json"
	done
	keep "store/import-$v" "$bc" store import --store "$store" --label "$v" $files
done
keep store/list "$bc" store list --store "$store"
for b in count:count-local ringbuf:rb-custom count:count-global; do
	slug=${b/:/__}
	for by in date kernel label machine; do
		for f in $formats; do
			keep "store/history-$slug-$by.$f" "$bc" history "$b" --store "$store" --by "$by" --format "$f"
		done
	done
done
keep store/report "$bc" report --store "$store" -o "$work/site"
if [ -d "$work/site" ]; then
	mkdir -p "$out/store/site"
	for page in "$work/site/index.html" "$work/site"/bench/*.html; do
		sed -e "s|$work|WORK|g" -e 's/, made [0-9-]* [0-9:]*Z\./, made TIME./' "$page" \
			>"$out/store/site/$(basename "$page")"
	done
	(cd "$work/site" && ls data | sort) >"$out/store/site/data.list"
fi

if [ "$update" = --update ]; then
	rm -rf "$golden"
	cp -r "$out" "$golden"
	echo "golden.sh: wrote $(find "$golden" -type f | wc -l) outputs into $golden"
	exit 0
fi

# Every output against its golden twin, and no golden output missing.
while read -r f; do
	rel=${f#"$out"/}
	if [ ! -f "$golden/$rel" ]; then
		echo "golden.sh: $rel: new output, not in golden/ (golden.sh --update, and say why)"
		fails=$((fails + 1))
	elif ! cmp -s "$f" "$golden/$rel"; then
		echo "golden.sh: $rel differs from golden/$rel:"
		diff -u "$golden/$rel" "$f" | head -n 40
		fails=$((fails + 1))
	fi
done < <(find "$out" -type f | sort)
while read -r f; do
	rel=${f#"$golden"/}
	[ -f "$out/$rel" ] || { echo "golden.sh: $rel: in golden/ but not made"; fails=$((fails + 1)); }
done < <(find "$golden" -type f | sort)
if [ "$fails" -gt 0 ]; then
	echo "golden.sh: $fails outputs differ"
	exit 1
fi
echo "golden.sh: $(find "$out" -type f | wc -l) outputs as pinned"
