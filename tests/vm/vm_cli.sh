#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# benchcore vm's host half without a boot: kernels refused before any boot
# (a .deb without a kernel, a kernel without BTF or the BPF syscall, one
# whose 9p and virtio are modules it does not have), the documents a
# guest leaves collected and saved (--collect, what the kernel matrix
# does with its own guests' runs), and the accelerator rule: an emulated
# figure is marked, and never judged against a native one by compare,
# run --against or history.
#
#   tests/vm/vm_cli.sh BENCHCORE SOURCE_DIR PLUGIN_DIR WORK_DIR
set -uo pipefail

bc=$(realpath "$1")
src=$(realpath "$2")
plugins=$(realpath "$3")
work=$4
fails=0
rm -rf "$work"
mkdir -p "$work"
work=$(realpath "$work")
B=("$bc" --plugin-dir "$plugins")

fail() {
	echo "vm_cli.sh: FAIL: $*"
	fails=$((fails + 1))
}

# expect STATUS PATTERN CMD...: the exit status, and PATTERN in stderr.
expect() {
	local want=$1 pattern=$2 rc=0
	shift 2
	"$@" >"$work/out" 2>"$work/err" || rc=$?
	if [ "$rc" != "$want" ]; then
		fail "$* exited $rc, not $want: $(tail -n 2 "$work/err")"
	elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$work/err"; then
		fail "$*: no '$pattern' in: $(tail -n 2 "$work/err")"
	else
		echo "vm_cli.sh: ok: $want: $(grep -m1 -- "${pattern:-.}" "$work/err" || true)"
	fi
}

# A bzImage as far as the boot header goes (it is never booted here).
bzimage() {
	python3 - "$1" "$2" <<'EOF'
import sys
img = bytearray(0x1000)
img[0x1fe:0x200] = b'\x55\xaa'
img[0x202:0x206] = b'HdrS'
img[0x20e:0x210] = (0x200).to_bytes(2, 'little')
v = sys.argv[2].encode()
img[0x400:0x400 + len(v)] = v
open(sys.argv[1], 'wb').write(img)
EOF
}

# A package tree: boot/vmlinuz-R and boot/config-R with these lines.
tree() {
	local dir=$work/$1 rel=$2
	shift 2
	mkdir -p "$dir/boot"
	bzimage "$dir/boot/vmlinuz-$rel" "$rel (test) #1 SMP"
	printf '%s\n' "$@" >"$dir/boot/config-$rel"
	echo "$dir"
}

have_tools=1
for t in busybox cpio depmod dpkg-deb python3; do
	command -v "$t" >/dev/null || [ -x "/bin/$t" ] || have_tools=0
done
builtin9p=(CONFIG_VIRTIO_PCI=y CONFIG_NET_9P=y CONFIG_NET_9P_VIRTIO=y CONFIG_9P_FS=y)

if [ "$have_tools" = 1 ]; then
	# A package that holds no kernel.
	mkdir -p "$work/deb/DEBIAN" "$work/deb/usr/share/doc/x"
	printf 'Package: not-a-kernel\nVersion: 1\nArchitecture: all\nMaintainer: t <t@t>\nDescription: t\n' \
		>"$work/deb/DEBIAN/control"
	dpkg-deb -b "$work/deb" "$work/not-a-kernel.deb" >/dev/null
	XDG_CACHE_HOME=$work/cache expect 2 "no kernel in this package" \
		"${B[@]}" vm --kernel "$work/not-a-kernel.deb" -- run count:count-local

	t=$(tree nobtf 6.1.0-nobtf "${builtin9p[@]}" CONFIG_BPF_SYSCALL=y "# CONFIG_DEBUG_INFO_BTF is not set")
	expect 2 "no BTF (CONFIG_DEBUG_INFO_BTF is not set in its config)" \
		"${B[@]}" vm --kernel "$t" -- run count:count-local
	t=$(tree nobpf 6.1.0-nobpf "${builtin9p[@]}" CONFIG_DEBUG_INFO_BTF=y)
	expect 2 "no BPF syscall" "${B[@]}" vm --kernel "$t/boot/vmlinuz-6.1.0-nobpf" -- run count:count-local
	t=$(tree mods 6.1.0-mods CONFIG_VIRTIO_PCI=y CONFIG_NET_9P=m CONFIG_NET_9P_VIRTIO=m CONFIG_9P_FS=m \
		CONFIG_BPF_SYSCALL=y CONFIG_DEBUG_INFO_BTF=y)
	expect 2 "cannot mount the host root: CONFIG_NET_9P=m" \
		"${B[@]}" vm --kernel "$t" -- run count:count-local
else
	echo "vm_cli.sh: busybox, cpio, depmod, dpkg-deb or python3 missing: the prepare cases are skipped"
fi
expect 2 "a kernel build tree without an image" \
	bash -c "mkdir -p '$work/linux' && touch '$work/linux/Kbuild' && '$bc' vm --kernel '$work/linux' -- run count:count-local"
expect 2 "not a kernel image" "${B[@]}" vm --kernel "$src/README.md" -- run count:count-local

# --collect: what a guest's vm/guest.sh leaves, read and saved.
out=$work/guest/out
mkdir -p "$out"
"${B[@]}" run count:count-local -w0 -d1 --save --store "$out/results.db" >"$out/stdout" 2>"$out/stderr"
echo 0 >"$out/rc"
expect 1 "did not finish (no done file); nothing is saved" \
	"${B[@]}" vm --collect "$out" --save --store "$work/s.db"
[ -e "$work/s.db" ] && fail "an unfinished guest's run was saved"
touch "$out/done"
expect 0 "saved 1 entry" "${B[@]}" vm --collect "$out" --save --store "$work/s.db"
grep -q "^Summary:" "$work/out" || fail "--collect did not show the guest's output"
echo "no BTF (test)" >"$out/refused"
expect 2 "the kernel cannot run benchmarks: no BTF" "${B[@]}" vm --collect "$out"
rm "$out/refused"

# The accelerator rule: a TCG document (as benchcore vm's guests write
# them) beside a native one.
"${B[@]}" run count:count-local -w0 -d2 --format json >"$work/native.json" 2>/dev/null
python3 - "$work/native.json" "$work/tcg.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["accelerator"] = "tcg"
d["context"]["kernel_release"] = "6.1.0-57-amd64"
d["run_id"] = "f" * 32
json.dump(d, open(sys.argv[2], "w"))
d["run_id"] = "e" * 32
json.dump(d, open(sys.argv[2].replace(".json", "-base.json"), "w"))
EOF
expect 0 "not comparable: accelerator (native against tcg)" \
	"${B[@]}" compare "$work/native.json" "$work/tcg.json"
grep -q "not comparable: accelerator" "$work/out" || fail "compare's table judged a TCG figure"
expect 0 "both sides measured under emulation" "${B[@]}" compare "$work/tcg.json" "$work/tcg.json"
expect 0 "imported" "${B[@]}" store import --store "$work/s.db" "$work/tcg.json"
"${B[@]}" history count:count-local --by kernel --store "$work/s.db" >"$work/hist" 2>&1
grep -q "6.1.0-57-amd64 \[tcg\]" "$work/hist" || fail "history --by kernel does not mark the TCG entry: $(cat "$work/hist")"
grep -q "not comparable: accelerator" "$work/hist" || fail "history judged a TCG group against a native one"
grep -q "^  \[tcg\]: measured under emulation" "$work/hist" || fail "history does not say a TCG figure is emulation"
expect 0 "imported 1 entry" "${B[@]}" store import --store "$work/s.db" --label tcgbase "$work/tcg-base.json"
expect 0 "not comparable: accelerator (tcg against native)" \
	"${B[@]}" run count:count-local -w0 -d1 --against tcgbase --store "$work/s.db"

if [ "$fails" != 0 ]; then
	echo "vm_cli.sh: $fails failure(s)"
	exit 1
fi
echo "vm_cli.sh: every case held"
