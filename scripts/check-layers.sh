#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Checks the core's include graph against core/layers.txt: every module
# lies in the folder of the wing that lists it, no module includes a header
# of a layer (or wing) above its own, a header of another wing is spelled
# with its folder and one of the same wing without, and there is no include
# circle. Prints one line per fault and exits 1 on any; prints the counts
# and exits 0 when the house is in order.
#
#   scripts/check-layers.sh [SOURCE_DIR]
set -eu

src=${1:-$(dirname "$0")/..}
core="$src/core"
layers="$core/layers.txt"
edges=$(mktemp)
mods=$(mktemp)
trap 'rm -f "$edges" "$mods" "$edges.loop"' EXIT

# "wing module" for every x.c / x.h in a wing's folder.
for f in "$core"/*/*.c "$core"/*/*.h; do
	[ -f "$f" ] || continue
	wing=$(basename "$(dirname "$f")")
	b=$(basename "$f")
	echo "$wing ${b%.*}"
done | sort -u >"$mods"

# "from_wing from spelled_wing to" for every #include "[wing/]x.h" of a
# core file naming a core header ("-" for a bare include).
for f in "$core"/*/*.c "$core"/*/*.h; do
	[ -f "$f" ] || continue
	wing=$(basename "$(dirname "$f")")
	from=$(basename "$f")
	from=${from%.*}
	sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r inc; do
		case $inc in
		*/*) spelled=${inc%%/*} to=${inc#*/} ;;
		*) spelled=- to=$inc ;;
		esac
		[ "$to" != "$from" ] || continue
		if grep -q " $to\$" "$mods"; then
			echo "$wing $from $spelled $to"
		fi
	done
done | sort -u >"$edges"

awk -v modfile="$mods" '
	BEGIN {
		while ((getline line < modfile) > 0) {
			split(line, p, " ")
			if (p[2] in found_in)
				dup[p[2]] = found_in[p[2]] " and " p[1]
			found_in[p[2]] = p[1]
		}
	}
	FNR == NR {
		sub(/#.*/, "")
		if (!NF)
			next
		if ($1 ~ /^\[.*\]$/) {
			cur = substr($1, 2, length($1) - 2)
			wrank[cur] = ++wings
			next
		}
		name = $1
		sub(/:$/, "", name)
		depth++
		for (i = 2; i <= NF; i++) {
			if ($i in rank) {
				printf "core/layers.txt: %s is in two layers\n", $i
				bad = 1
			}
			rank[$i] = depth
			layer[$i] = name
			wing[$i] = cur
		}
		next
	}
	{
		# from_wing from spelled to
		fw = $1; from = $2; spelled = $3; to = $4
		tw = found_in[to]
		if (spelled == "-" && tw != fw) {
			printf "core/%s/%s: includes %s.h bare, a header of the %s wing; expected \"%s/%s.h\"\n",
				fw, from, to, tw, tw, to
			bad = 1
		} else if (spelled != "-" && spelled != tw) {
			printf "core/%s/%s: includes %s/%s.h, but %s.h is in the %s wing\n",
				fw, from, spelled, to, to, tw
			bad = 1
		} else if (spelled != "-" && tw == fw) {
			printf "core/%s/%s: includes %s/%s.h of its own wing; expected \"%s.h\"\n",
				fw, from, spelled, to, to
			bad = 1
		}
		if (!(from in rank) || !(to in rank))
			next
		if (wrank[tw] < wrank[fw]) {
			printf "core/%s/%s: includes %s/%s.h of the %s wing, above its own %s wing\n",
				fw, from, tw, to, tw, fw
			bad = 1
		} else if (rank[to] < rank[from]) {
			printf "core/%s/%s: includes %s.h of the %s layer, above its own %s layer\n",
				fw, from, to, layer[to], layer[from]
			bad = 1
		}
	}
	END {
		for (m in dup) {
			printf "core: two modules named %s (in %s)\n", m, dup[m]
			bad = 1
		}
		for (m in found_in) {
			if (!(m in rank)) {
				printf "core/%s/%s: not in any layer of core/layers.txt\n", found_in[m], m
				bad = 1
			} else if (wing[m] != found_in[m]) {
				printf "core/%s/%s: listed under [%s] in core/layers.txt, but lies in core/%s/\n",
					found_in[m], m, wing[m], found_in[m]
				bad = 1
			}
		}
		for (m in rank)
			if (!(m in found_in)) {
				printf "core/layers.txt: %s names no module\n", m
				bad = 1
			}
		exit bad
	}' "$layers" "$edges" || status=1

# tsort names the modules of each circle it finds on stderr, one per line
# after a "contains a loop" line.
if ! awk '{ print $2, $4 }' "$edges" | tsort >/dev/null 2>"$edges.loop"; then
	awk '/contains a loop/ { if (c) print c; c = "include circle:"; next }
	     { sub(/^tsort: /, ""); c = c " " $0 }
	     END { if (c) print c }' "$edges.loop"
	status=1
fi

if [ "${status:-0}" -ne 0 ]; then
	echo "check-layers: the core's includes break core/layers.txt (see above)" >&2
	exit 1
fi
echo "check-layers: $(wc -l <"$mods") modules in $(cut -d' ' -f1 "$mods" | sort -u | wc -l) wings, $(wc -l <"$edges") includes, no circle, none upward"
