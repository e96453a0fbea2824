#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# scripts/parity.sh [-b BUILD_DIR] [-n ROUNDS] [--max-rounds N] [-w SEC] [-d SEC]
#                   [--rows REGEX] [--peer 6.1,6.12] [-o DIR] [--note TEXT] [-r]
#
# Measures every row of tests/parity/rows (a benchmark both sides have, with
# its options) on the kernel's own runner, built by scripts/peer.sh, and on
# benchcore, alternately, the order reversed every round, and writes
# DIR/parity.md (runner median, benchcore median, their ratio with a 95%
# interval over rounds, a verdict) and DIR/parity.json, which
# `benchcore plot` draws. How the figures are read and what the verdicts
# mean: the head of the parity.md it writes.
#
#   -b BUILD_DIR   benchcore's build (default build)
#   -n ROUNDS      rounds per row (default 3)
#   --max-rounds N a row still undecided after ROUNDS gets more rounds, one
#                  at a time, up to N in all (default 6)
#   -w SEC, -d SEC warm-up and duration, for both sides (default 1 and 5)
#   --rows REGEX   only the rows whose name matches (default all)
#   --peer LIST    runner versions, comma-separated (default 6.12); a
#                  VERSION=PATH entry names a `bench` binary directly
#   -o DIR         where parity.md and parity.json go (default docs)
#   --note TEXT    a line printed in bold above the table
#   -r             measure nothing: re-read the last pass's outputs (give it
#                  the same -n, -w, -d, --rows, --peer) and write the report
#
# A runner is looked for where scripts/peer.sh puts it:
# ${XDG_CACHE_HOME:-$HOME/.cache}/benchcore/peer/VERSION. Every run's output is
# kept in BUILD_DIR/parity/raw/. Needs root (both sides load BPF programs).
#
# Exit status: 0 when the report was written, 1 when a run could not be
# made at all (no runner, no build), 2 for usage errors.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
rounds=3 max_rounds=6 warmup=1 duration=5 rows= peers=6.12 out=$src/docs note= reread=
argv=("$@")

usage() {
	sed -n '4,33p' "$0" | sed 's/^# \{0,1\}//'
	exit "$1"
}

die2() {
	echo "parity: $*" >&2
	exit 2
}

need_arg() { [ $# -ge 2 ] || die2 "$1 needs a value"; }

whole() {
	[[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] ||
		die2 "$1 '$2': expected a whole number of at least $3"
}

while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage 0 ;;
	-b) need_arg "$@"; build=$2; shift ;;
	-n) need_arg "$@"; whole -n "$2" 1; rounds=$2; shift ;;
	--max-rounds) need_arg "$@"; whole --max-rounds "$2" 1; max_rounds=$2; shift ;;
	--max-rounds=*) whole --max-rounds "${1#*=}" 1; max_rounds=${1#*=} ;;
	-w) need_arg "$@"; whole -w "$2" 0; warmup=$2; shift ;;
	-d) need_arg "$@"; whole -d "$2" 1; duration=$2; shift ;;
	--rows) need_arg "$@"; rows=$2; shift ;;
	--peer) need_arg "$@"; peers=$2; shift ;;
	-o) need_arg "$@"; out=$2; shift ;;
	# the runners' own short forms: -n3 -w1 -d5
	-n?*) whole -n "${1#-n}" 1; rounds=${1#-n} ;;
	-w?*) whole -w "${1#-w}" 0; warmup=${1#-w} ;;
	-d?*) whole -d "${1#-d}" 1; duration=${1#-d} ;;
	--rows=* | --peer=* | --note=*) set -- "${1%%=*}" "${1#*=}" "${@:2}"; continue ;;
	--note) need_arg "$@"; note=$2; shift ;;
	-r) reread=--reread ;;
	*) die2 "unknown option '$1'; expected one of -b -n --max-rounds -w -d --rows --peer -o --note -r (-h lists them)" ;;
	esac
	shift
done

# python3 does the reading and the arithmetic; install it the way vmtest.sh
# installs its tools when it is missing.
if ! command -v python3 >/dev/null; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "parity: python3 is missing; run as root or: sudo apt-get install python3" >&2
		exit 1
	fi
	echo "parity: installing python3" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || apt-get update
	apt-get install -y -qq --no-install-recommends python3 >/dev/null
fi
python3 -c 'import re, sys; re.compile(sys.argv[1])' "$rows" 2>/dev/null ||
	die2 "--rows '$rows': not a valid regular expression"

benchcore=$build/benchcore
[ -x "$benchcore" ] || {
	echo "parity: $benchcore not found; build first: scripts/build.sh $build" >&2
	exit 1
}

peer_args=()
IFS=, read -r -a list <<<"$peers"
[ "${#list[@]}" -gt 0 ] || die2 "--peer '$peers': expected versions such as 6.1,6.12"
for p in "${list[@]}"; do
	case $p in
	*=*) ver=${p%%=*} path=${p#*=} ;;
	6.1 | 6.12)
		ver=$p
		path=${XDG_CACHE_HOME:-$HOME/.cache}/benchcore/peer/$p/src/tools/testing/selftests/bpf/bench
		;;
	*) die2 "--peer '$p': expected 6.1, 6.12 or VERSION=PATH-TO-BENCH" ;;
	esac
	[ -x "$path" ] || {
		echo "parity: runner $ver not built ($path missing): run scripts/peer.sh $ver" >&2
		exit 1
	}
	peer_args+=(--peer "$ver=$path")
done

mkdir -p "$out" "$build/parity"
[ -n "$reread" ] || rm -rf "$build/parity/raw"
exec python3 "$src/scripts/parity.py" --rows-file "$src/tests/parity/rows" --rows="$rows" \
	-n "$rounds" --max-rounds "$max_rounds" -w "$warmup" -d "$duration" -o "$out" \
	--raw "$build/parity/raw" \
	--benchcore "$benchcore" --plugin-dir "$build/plugins" "${peer_args[@]}" \
	--note="$note" $reread --argv="$(IFS=$'\x1f'; echo "${argv[*]}")"
