#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# vm/guest.sh RUNDIR: the guest's half of `benchcore vm`, run by vm/init.sh
# inside the guest (chrooted into the host's root), and by the kernel
# matrix in each guest and on the host (scripts/vmtest-guest.sh). It runs
# one benchcore command line and leaves everything the host's half
# (`benchcore vm --collect`) reads in RUNDIR/out:
#
#   guest      "RELEASE<TAB>CPUS<TAB>MEMTOTAL_KB" of the kernel it ran on
#   refused    one line, when the kernel cannot run benchcore at all (no BPF
#              syscall, no BTF); nothing else then
#   stdout, stderr, rc   the command's output and exit status
#   results.db the documents of every run that ended well: the command ran
#              with --save into a store of its own
#   done       written last: a guest that died half-way leaves none
#
# RUNDIR holds argv (the command line, NUL-separated, the executable
# first), and may hold cwd (the directory to run in) and env (NAME=VALUE
# lines to export: the host's plugin and suite paths).
set -uo pipefail

run=${1:?usage: guest.sh RUNDIR}
out=$run/out
mkdir -p "$out"
rm -f "$out/done" "$out/refused"

read -r mem _ < <(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
printf '%s\t%s\t%s\n' "$(uname -r)" "$(nproc)" "${mem:-0}" >"$out/guest"

# What no benchmark can do without: said once, for the whole kernel, not
# as each benchmark's failure. The sysctl exists only with the syscall.
if [ ! -e /proc/sys/kernel/unprivileged_bpf_disabled ]; then
	echo "no BPF syscall (CONFIG_BPF_SYSCALL is not set)" >"$out/refused"
elif [ ! -e /sys/kernel/btf/vmlinux ]; then
	echo "no BTF (/sys/kernel/btf/vmlinux is missing: CONFIG_DEBUG_INFO_BTF is not set)" >"$out/refused"
fi
if [ -s "$out/refused" ]; then
	touch "$out/done"
	exit 0
fi

mapfile -d '' -t argv <"$run/argv"
if [ -f "$run/env" ]; then
	while IFS= read -r kv; do
		[ -n "$kv" ] && export "${kv?}"
	done <"$run/env"
fi
cwd=/
[ -f "$run/cwd" ] && cwd=$(cat "$run/cwd")
[ -d "$cwd" ] || cwd=/

# The store lives where the guest can lock it (a tmpfs, not the 9p share);
# it is copied out once the command has ended.
tmp=$(mktemp -d)
rc=0
(cd "$cwd" && "${argv[@]}" --save --store "$tmp/results.db") >"$out/stdout" 2>"$out/stderr" || rc=$?
echo "$rc" >"$out/rc"
[ -f "$tmp/results.db" ] && cp "$tmp/results.db" "$out/results.db"
rm -rf "$tmp"
sync
touch "$out/done"
