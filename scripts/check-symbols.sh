#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Checks what the core's binaries name and offer, from a build directory:
# - every function or variable the core defines outside a single file
#   (and every file-local function) carries the bc_ prefix;
# - libbenchcore.so exports only bc_ symbols, and does not link jansson
#   (reading JSON is the executable's business);
# - the map's BENCHCORE_PRIVATE node lists exactly the runtime functions
#   the executable calls: none missing, none left over.
# Prints one line per fault and exits 1 on any. With --private, prints the
# node's list as the executable needs it, to paste into core/libbenchcore.map.
#
#   scripts/check-symbols.sh [--private] BUILD_DIR
set -eu

print_private=false
if [ "${1:-}" = --private ]; then
	print_private=true
	shift
fi
build=${1:?usage: check-symbols.sh [--private] BUILD_DIR}
src=$(dirname "$0")/..
status=0
# Objects lie in the wings' folders under each target's directory.
runtime_objs=$(find "$build"/core/CMakeFiles/benchcore_runtime_objs.dir -name '*.o' | sort)
cli_objs=$(find "$build"/core/CMakeFiles/benchcore_cli_objs.dir \
	"$build"/core/CMakeFiles/benchcore.dir -name '*.o' | sort)
objs="$runtime_objs
$(find "$build"/core/CMakeFiles/benchcore_cli_objs.dir -name '*.o' | sort)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The private node: what the executable leaves undefined that the runtime
# defines, less what the public node already exports.
map="$src/core/libbenchcore.map"
# shellcheck disable=SC2086
nm --defined-only $runtime_objs | awk 'NF == 3 && $2 ~ /^[TDBR]$/ { print $3 }' | sort -u >"$tmp/runtime"
# shellcheck disable=SC2086
nm -u $cli_objs | awk '{ print $NF }' | sort -u >"$tmp/called"
sed -n '1,/^BENCHCORE_PRIVATE/p' "$map" | sed -n 's/^[[:space:]]*\(bc_[a-z0-9_]*\);.*/\1/p' | sort -u >"$tmp/public"
sed -n '/BENCHCORE_PRIVATE/,$p' "$map" | sed -n 's/^[[:space:]]*\(bc_[a-z0-9_]*\);.*/\1/p' | sort -u >"$tmp/listed"
comm -12 "$tmp/runtime" "$tmp/called" | comm -23 - "$tmp/public" >"$tmp/needed"
if $print_private; then
	sed 's/.*/\t\t&;/' "$tmp/needed"
	exit 0
fi
for s in $(comm -23 "$tmp/needed" "$tmp/listed"); do
	echo "core/libbenchcore.map: BENCHCORE_PRIVATE lacks $s, which the executable calls"
	status=1
done
for s in $(comm -13 "$tmp/needed" "$tmp/listed"); do
	echo "core/libbenchcore.map: BENCHCORE_PRIVATE lists $s, which the executable no longer calls"
	status=1
done

# T/t: functions, D/d B/b R/r: data. Local data keeps C's own names (static
# tables named for what they hold), so only global data is checked. Names
# that start with "_" are the compiler's (a sanitizer's constructors,
# _sub_I_00099_0), never the core's: C reserves them.
# shellcheck disable=SC2086
bad=$(nm --defined-only $objs 2>/dev/null |
	awk 'NF == 3 && ($2 ~ /^[TtDBR]$/) && $3 !~ /^bc_/ && $3 !~ /^_/ && $3 !~ /\./ { print $3 }' | sort -u)
if [ -n "$bad" ]; then
	for s in $bad; do
		echo "core: symbol without the bc_ prefix: $s"
	done
	status=1
fi

lib=$(readlink -f "$build/libbenchcore.so")
exported=$(nm -D --defined-only "$lib" | awk 'NF == 3 && $3 !~ /^bc_/ { print $3 }' | grep -v '^BENCHCORE_' || true)
if [ -n "$exported" ]; then
	for s in $exported; do
		echo "$(basename "$lib"): exports a symbol without the bc_ prefix: $s"
	done
	status=1
fi
if readelf -d "$lib" | grep -q 'NEEDED.*jansson'; then
	echo "$(basename "$lib"): links jansson; the JSON reader belongs to the executable"
	status=1
fi

if [ "$status" -ne 0 ]; then
	echo "check-symbols: faults above" >&2
	exit 1
fi
echo "check-symbols: $(echo "$objs" | wc -l) core objects, every symbol bc_; $(basename "$lib") exports $(wc -l <"$tmp/public") public and $(wc -l <"$tmp/listed") private functions"
