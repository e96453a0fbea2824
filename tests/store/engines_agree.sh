#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The same entries in an SQLite store and a PostgreSQL store give the same
# outputs, byte for byte: store list, history (three benchmarks, four
# groupings, four formats) and the report's pages and data files. The
# entries are the committed documents of every version (the ones
# tests/results/golden.sh pins), imported in the same order into both.
#
# Two things in the outputs are not the entries': the store's name, which
# the report's index prints (the file's path, or the server's URL with its
# password masked), and the time the report was made; both are replaced by
# fixed words before comparing. Nothing else may differ.
#
#   tests/store/engines_agree.sh BENCHCORE SOURCE_DIR WORK_DIR PG_DIR
#
# PG_DIR is pg_cluster.sh's; without a server this exits 77 (skip) and
# says why.
set -uo pipefail

bc=$(realpath "${1:?usage: engines_agree.sh BENCHCORE SOURCE_DIR WORK_DIR PG_DIR}")
src=$(realpath "${2:?}")
work=${3:?}
pgdir=${4:?}
fixtures=$src/tests/results/fixtures

if [ -f "$pgdir/skip" ]; then
	echo "engines_agree: skipped: no PostgreSQL server: $(cat "$pgdir/skip")"
	exit 77
fi
if [ ! -f "$pgdir/env" ]; then
	echo "engines_agree: skipped: no PostgreSQL server (the pg_cluster_start test starts one)"
	exit 77
fi
# shellcheck disable=SC1091
. "$pgdir/env"
psql=$(command -v psql || echo "$BC_PG_BIN/psql")
"$psql" -X -q "$BC_PG_ADMIN" -c "DROP DATABASE IF EXISTS engines_agree" >/dev/null 2>&1
"$psql" -X -q "$BC_PG_ADMIN" -c "CREATE DATABASE engines_agree OWNER $BC_PG_WRITER" >/dev/null ||
	{ echo "engines_agree: cannot make the database"; exit 1; }

rm -rf "$work"
mkdir -p "$work"
work=$(realpath "$work")
lite=$work/store.db
server="postgresql://$BC_PG_WRITER:$BC_PG_PASSWORD@127.0.0.1:$BC_PG_PORT/engines_agree"
shown="postgresql://$BC_PG_WRITER:***@127.0.0.1:$BC_PG_PORT/engines_agree"
versions=$(cd "$fixtures" && ls -d v*/ | tr -d / | sort)

# outputs ENGINE STORE: every output into $work/ENGINE/
outputs() {
	local out=$work/$1 store=$2 b slug by f
	mkdir -p "$out"
	cd "$fixtures" || exit 1
	for v in $versions; do
		files=
		for d in run run2 run-p2 latency repeat bpfstats sweep suite; do
			[ -f "$v/$d.json" ] && files="$files $v/$d.json"
		done
		# shellcheck disable=SC2086
		"$bc" store import --store "$store" --label "$v" $files >/dev/null 2>"$out/import-$v.err"
		echo "exit $?" >>"$out/import-$v.err"
	done
	"$bc" store list --store "$store" >"$out/list.out" 2>&1
	for b in count:count-local ringbuf:rb-custom count:count-global; do
		slug=${b/:/__}
		for by in date kernel label machine; do
			for f in text json csv markdown; do
				"$bc" history "$b" --store "$store" --by "$by" --format "$f" \
					>"$out/history-$slug-$by.$f" 2>&1
				echo "exit $?" >>"$out/history-$slug-$by.$f"
			done
		done
	done
	"$bc" history count:count-local --store "$store" --metric per_producer \
		>"$out/history-metric.text" 2>&1
	# one directory for both, so that the line naming it is the same
	"$bc" report --store "$store" -o "$work/site" >/dev/null 2>"$out/report.err"
	echo "exit $?" >>"$out/report.err"
	mv "$work/site" "$work/site-$1"
	mkdir -p "$out/site"
	cp -r "$work/site-$1/." "$out/site/"
	A=$lite B=$shown perl -pi -e 's/\Q$ENV{A}\E|\Q$ENV{B}\E/STORE/g;' \
		-e 's/, made [0-9-]* [0-9:]*Z\./, made TIME./' "$out/site/index.html"
	cd - >/dev/null || exit 1
}

outputs sqlite "$lite"
outputs postgresql "$server"
if grep -rqF -- "$BC_PG_PASSWORD" "$work/postgresql" "$work/site-postgresql"; then
	echo "engines_agree: the server's password is in an output"
	exit 1
fi
n=$(find "$work/sqlite" -type f | wc -l)
if ! diff -r "$work/sqlite" "$work/postgresql" >"$work/diff"; then
	head -n 60 "$work/diff"
	echo "engines_agree: the outputs differ (above, SQLite's first)"
	exit 1
fi
echo "engines_agree: $n outputs, byte for byte the same from SQLite and PostgreSQL"
