#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# docs/architecture.md against the code it describes, so its counts and
# lists cannot drift: the check-layers line it quotes is what the script
# prints today; every module of core/layers.txt is named in its wing's part
# of the picture (and nothing the code lacks is); the library's public and
# private function counts are the map's; the plugin ABI is benchcore.h's.
# One line per fault; exit 1 on any.
#
#   tests/house/architecture_doc.sh [SOURCE_DIR]
set -eu

src=${1:-$(dirname "$0")/../..}
doc="$src/docs/architecture.md"
status=0
fault() {
	echo "docs/architecture.md: $*"
	status=1
}

line=$(sh "$src/scripts/check-layers.sh" "$src")
grep -qxF "$line" "$doc" ||
	fault "quotes another check-layers line; the script prints: $line"

# The picture: the code block after the "modules:" marker. A line that
# starts with one space and a word names a wing; the modules follow until
# the next wing.
picture=$(awk '/<!-- modules:/ { on = 1; next } on && /^```/ { n++; if (n == 2) exit; next } on && n == 1' "$doc")
awk -v picture="$picture" '
	FNR == NR {
		sub(/#.*/, "")
		if (!NF)
			next
		if ($1 ~ /^\[.*\]$/) {
			wing = substr($1, 2, length($1) - 2)
			next
		}
		for (i = 2; i <= NF; i++)
			want[$i] = wing
		next
	}
	END {
		n = split(picture, lines, "\n")
		for (i = 1; i <= n; i++) {
			l = lines[i]
			if (l ~ /^ [a-z]/) {
				split(l, w, " ")
				cur = w[1]
				continue
			}
			# the module names: words before a "(" note, after the layer
			gsub(/\([^)]*\)/, "", l)
			gsub(/`[^`]*`/, "", l)
			m = split(l, words, /[ ,]+/)
			for (k = 1; k <= m; k++)
				if (words[k] ~ /^[a-z_][a-z_0-9]*$/)
					seen[cur, words[k]] = 1
		}
		for (mod in want)
			if (!((want[mod], mod) in seen)) {
				printf "docs/architecture.md: the picture does not name %s in the %s wing (core/layers.txt does)\n", mod, want[mod]
				bad = 1
			}
		exit bad
	}' "$src/core/layers.txt" || status=1

map="$src/core/libbenchcore.map"
pub=$(sed -n '1,/BENCHCORE_PRIVATE/p' "$map" | grep -c '^[[:space:]]*bc_[a-z0-9_]*;' || true)
priv=$(sed -n '/BENCHCORE_PRIVATE/,$p' "$map" | grep -c '^[[:space:]]*bc_[a-z0-9_]*;' || true)
grep -q "exports $pub public and $priv private functions" "$doc" ||
	fault "does not say the library exports $pub public and $priv private functions (core/libbenchcore.map)"

hdr="$src/include/benchcore/benchcore.h"
major=$(sed -n 's/^#define BC_ABI_MAJOR \([0-9]*\).*/\1/p' "$hdr")
minor=$(sed -n 's/^#define BC_ABI_MINOR \([0-9]*\).*/\1/p' "$hdr")
grep -q "plugin ABI is $major\.$minor" "$doc" ||
	fault "does not say the plugin ABI is $major.$minor (include/benchcore/benchcore.h)"
grep -q "libbenchcore.so.$major.$minor.0" "$doc" ||
	fault "names another libbenchcore.so than libbenchcore.so.$major.$minor.0"

[ "$status" = 0 ] && echo "architecture_doc: docs/architecture.md agrees with the code ($line)"
exit "$status"
