#!/bin/sh
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Checks what the core's binaries name and offer, from a build directory:
# - every function or variable the core defines outside a single file
#   (and every file-local function) carries the bc_ prefix;
# - libbenchcore.so exports only bc_ symbols, and does not link jansson
#   (reading JSON is the executable's business).
# Prints one line per fault and exits 1 on any.
#
#   scripts/check-symbols.sh BUILD_DIR
set -eu

build=${1:?usage: check-symbols.sh BUILD_DIR}
status=0
objs=$(ls "$build"/core/CMakeFiles/benchcore_runtime_objs.dir/*.o \
	"$build"/core/CMakeFiles/benchcore_cli_objs.dir/*.o)

# T/t: functions, D/d B/b R/r: data. Local data keeps C's own names (static
# tables named for what they hold), so only global data is checked.
# shellcheck disable=SC2086
bad=$(nm --defined-only $objs 2>/dev/null |
	awk 'NF == 3 && ($2 ~ /^[TtDBR]$/) && $3 !~ /^bc_/ && $3 !~ /\./ { print $3 }' | sort -u)
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
echo "check-symbols: $(echo "$objs" | wc -l) core objects, every symbol bc_; $(basename "$lib") exports $(nm -D --defined-only "$lib" | grep -c ' T ') functions"
