#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# benchcore vm's guests that go wrong, booted: a kernel that panics (on
# purpose: bc_panic=1 on its command line), a guest that hangs (a run longer
# than --timeout), one that cannot mount the host root (a bare vmlinuz: no
# modules, no config), and one that works. Each boot costs a minute of CI
# under TCG, so ctest runs this only with BENCHCORE_TEST_VM_BOOTS=1; the
# kernel matrix exercises the working path in every one of its own boots.
#
#   tests/vm/boots.sh BENCHCORE PLUGIN_DIR KERNEL_DEB|DIR WORK_DIR
#
# KERNEL_DEB: a linux-image .deb, or a directory holding some (scripts/
# vmtest.sh keeps Debian's in BUILD/vmtest/cache). Exit status 77
# (skipped) without one.
set -uo pipefail

bc=$1
plugins=$2
deb=$3
work=$4
fails=0

if [ "${BENCHCORE_TEST_VM_BOOTS:-0}" != 1 ]; then
	echo "boots.sh: skipped: BENCHCORE_TEST_VM_BOOTS=1 runs it (four guests, about a minute under TCG)"
	exit 77
fi
if [ -d "$deb" ]; then
	deb=$(find "$deb" -maxdepth 1 -name 'linux-image-*.deb' | sort | head -n 1)
fi
if [ ! -f "$deb" ]; then
	echo "boots.sh: skipped: no kernel package '$deb' (scripts/vmtest.sh downloads Debian's)"
	exit 77
fi
rm -rf "$work"
mkdir -p "$work"
B=("$bc" --plugin-dir "$plugins")

expect() {
	local want=$1 pattern=$2 rc=0
	shift 2
	"$@" >"$work/out" 2>"$work/err" || rc=$?
	if [ "$rc" != "$want" ] || ! grep -q -- "$pattern" "$work/err"; then
		echo "boots.sh: FAIL: $* exited $rc (want $want), stderr: $(grep 'benchcore' "$work/err" | tail -n 2)"
		fails=$((fails + 1))
	else
		echo "boots.sh: ok: $want: $(grep -m1 -- "$pattern" "$work/err")"
	fi
}

export XDG_CACHE_HOME=$work/cache
expect 0 "ended with exit status 0" "${B[@]}" vm --kernel "$deb" --save --store "$work/s.db" \
	-- run count:count-local -w0 -d1
BENCHCORE_VM_APPEND=bc_panic=1 expect 1 "panicked twice" \
	"${B[@]}" vm --kernel "$deb" -- run count:count-local -w0 -d1
expect 1 "hung, killed" "${B[@]}" vm --kernel "$deb" --timeout 20 -- run count:count-local -w0 -d60
mkdir -p "$work/bare"
cp "$(find "$work/cache" -path '*/boot/vmlinuz-*' | head -n 1)" "$work/bare/vmlinuz"
expect 1 "cannot mount the host root over 9p" "${B[@]}" vm --kernel "$work/bare/vmlinuz" \
	-- run count:count-local -w0 -d1
[ "$(sqlite3 "$work/s.db" 'select count(*) from entries' 2>/dev/null)" = 1 ] ||
	{ echo "boots.sh: FAIL: the store should hold the one run that finished"; fails=$((fails + 1)); }

[ "$fails" = 0 ] || exit 1
echo "boots.sh: every case held"
