#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Checks the core's include graph against core/layers.txt: every module is
# placed in a layer, no module includes a header of a layer above its own,
# and there is no include circle. Prints one line per fault and exits 1 on
# any; prints the layers and exits 0 when the house is in order.
#
#   scripts/check-layers.sh [SOURCE_DIR]
set -eu

src=${1:-$(dirname "$0")/..}
core="$src/core"
layers="$core/layers.txt"
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

# "from to" for every #include "x.h" of a core file (x.c and x.h are one
# module, x); the core's own headers only.
for f in "$core"/*.c "$core"/*.h; do
	from=$(basename "$f")
	from=${from%.*}
	sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r to; do
		if [ -f "$core/$to.h" ] && [ "$to" != "$from" ]; then
			echo "$from $to"
		fi
	done
done | sort -u >"$edges"

modules=$(for f in "$core"/*.c "$core"/*.h; do b=$(basename "$f"); echo "${b%.*}"; done | sort -u)

awk -v modules="$modules" '
	FNR == NR {
		sub(/#.*/, "")
		if (!NF)
			next
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
		}
		next
	}
	{
		if (!($1 in rank) || !($2 in rank))
			next
		if (rank[$2] < rank[$1]) {
			printf "core/%s: includes %s.h of the %s layer, above its own %s layer\n",
				$1, $2, layer[$2], layer[$1]
			bad = 1
		}
	}
	END {
		n = split(modules, m, "\n")
		for (i = 1; i <= n; i++) {
			if (m[i] != "" && !(m[i] in rank)) {
				printf "core/%s: not in any layer of core/layers.txt\n", m[i]
				bad = 1
			}
		}
		exit bad
	}' "$layers" "$edges" || status=1

# tsort names the modules of each circle it finds on stderr, one per line
# after a "contains a loop" line.
if ! tsort "$edges" >/dev/null 2>"$edges.loop"; then
	awk '/contains a loop/ { if (c) print c; c = "include circle:"; next }
	     { sub(/^tsort: /, ""); c = c " " $0 }
	     END { if (c) print c }' "$edges.loop"
	status=1
fi
rm -f "$edges.loop"

if [ "${status:-0}" -ne 0 ]; then
	echo "check-layers: the core's includes break core/layers.txt (see above)" >&2
	exit 1
fi
echo "check-layers: $(echo "$modules" | wc -l) modules, $(wc -l <"$edges") includes, no circle, none upward"
