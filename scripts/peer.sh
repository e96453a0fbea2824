#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# scripts/peer.sh [-h] 6.1|6.12
#
# Builds the kernel's own selftests/bpf `bench` runner, the reference that
# scripts/parity.sh measures benchcore against, from Debian's
# linux-source-VERSION package: the tree's own Makefile, RELEASE=1 (without
# it the runner's user space and its libbpf are -O0 and no comparison with an
# optimised benchcore is fair), its own libbpf and bpftool, vmlinux.h from
# the running kernel's BTF, clang. Only the `bench` target and what it
# depends on are built.
#
# Nothing lands in the repository: the package, the tree and the binary live
# in BENCHCORE_PEER_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/benchcore/
# peer/VERSION). The tree gets the smallest changes that let the runner load
# on a kernel without trampolines or kprobes, as section-name substitutions
# listed below, each with its reason.
#
# A second call rebuilds nothing: every step leaves a stamp file, and a step
# whose stamp is there is skipped. Remove the directory to start over.
#
# The last line of output is the path of the built `bench`.
#
# Environment: BENCHCORE_PEER_DIR, BENCHCORE_PEER_JOBS (make -j, default 2),
# CLANG (default clang-16, installed when missing),
# BENCHCORE_PEER_VMLINUX_BTF (default
# /sys/kernel/btf/vmlinux).
set -euo pipefail

usage() {
	sed -n '4,28p' "$0" | sed 's/^# \{0,1\}//'
	exit "$1"
}

log() { echo "peer: $*" >&2; }

ver=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage 0 ;;
	-*)
		echo "peer: unknown option '$1'; expected -h or a version (6.1 or 6.12)" >&2
		exit 2
		;;
	*)
		[ -z "$ver" ] || {
			echo "peer: one version at a time, got '$ver' and '$1'" >&2
			exit 2
		}
		ver=$1
		;;
	esac
	shift
done
case $ver in
6.1 | 6.12) ;;
'') usage 2 ;;
*)
	echo "peer: version '$ver' is not supported; expected 6.1 or 6.12" >&2
	exit 2
	;;
esac

dir=${BENCHCORE_PEER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/benchcore/peer/$ver}
jobs=${BENCHCORE_PEER_JOBS:-2}
# clang 14 compiles every object, but drops the btf_type_tag that marks
# crypto_bench's kptr, and the verifier then refuses crypto-encrypt/-decrypt
# ("R1 has no valid kptr"); clang 15 and later keep it.
clang=${CLANG:-clang-16}
btf=${BENCHCORE_PEER_VMLINUX_BTF:-/sys/kernel/btf/vmlinux}
pkg=linux-source-$ver
src=$dir/src
sel=$src/tools/testing/selftests/bpf
bench=$sel/bench
mkdir -p "$dir"

if ! command -v "$clang" >/dev/null; then
	if [ "$clang" != clang-16 ] || [ "$(id -u)" -ne 0 ]; then
		log "$clang not found; install it (apt-get install clang-16) or set CLANG"
		exit 1
	fi
	log "installing clang-16"
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends clang-16 >/dev/null ||
		{ apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends clang-16 >/dev/null; }
fi
cc_id=$("$clang" --version | head -n 1)
# make does not track the compiler: a tree built with another one starts
# over from a fresh tree.
if [ -f "$dir/.patched" ] && [ "$(cat "$dir/.patched")" != "$cc_id" ]; then
	log "$pkg was built with $(cat "$dir/.patched"); rebuilding with $cc_id"
	rm -f "$dir/.patched" "$dir/.built"
fi

if [ -f "$dir/.built" ] && [ -x "$bench" ]; then
	log "$pkg: already built (remove $dir to rebuild)"
	echo "$bench"
	exit 0
fi

# --- the package ------------------------------------------------------------

# apt-get download fetches the .deb without installing it: the source tarball
# stays in the cache directory and the system is left as it was.
if [ ! -f "$dir/.downloaded" ]; then
	mkdir -p "$dir/deb"
	rm -f "$dir"/deb/*.deb
	if ! (cd "$dir/deb" && apt-get download "$pkg" >/dev/null 2>&1); then
		log "$pkg not in the package lists; running apt-get update"
		apt-get update -qq >/dev/null || apt-get update
		(cd "$dir/deb" && apt-get download "$pkg" >/dev/null)
	fi
	touch "$dir/.downloaded"
fi

# --- the changes that let it load here -----------------------------------------

# sub FILE PATTERN REPLACEMENT: one extended-regex substitution in a file
# of progs/; fails if the pattern matches nothing, so a tree that moved on is
# noticed rather than built unchanged.
sub() {
	local file=$sel/progs/$1
	# A benchmark this tree does not have yet has nothing to change.
	[ -f "$file" ] || return 0
	grep -qE "$2" "$file" || {
		log "progs/$1: nothing matches '$2'; the tree differs from what this script knows"
		exit 1
	}
	sed -i -E "s#$2#$3#g" "$file"
}

# sub_opt: the same, for a change that only some trees need.
sub_opt() {
	[ -f "$sel/progs/$1" ] && grep -qE "$2" "$sel/progs/$1" || return 0
	sed -i -E "s#$2#$3#g" "$sel/progs/$1"
}

# The package ships /usr/src/linux-source-VER.tar.xz. The drivers, the
# documentation and the other architectures are four fifths of it and the
# runner needs none of them. The changes below are made to a fresh tree
# only, so an interrupted call never leaves a tree changed twice or half.
if [ ! -f "$dir/.patched" ]; then
	rm -f "$dir/.built"
	log "unpacking $pkg"
	rm -rf "$src"
	mkdir -p "$src"
	dpkg-deb --fsys-tarfile "$dir"/deb/*.deb |
		tar -xO "./usr/src/$pkg.tar.xz" |
		tar -xJ -C "$src" --strip-components=1 \
			--exclude='*/drivers' --exclude='*/Documentation' \
			--exclude='*/sound' --exclude='*/samples' --exclude='*/rust' \
			--exclude='*/firmware'

	log "adapting section names to a kernel without trampolines or kprobes"
	# The producers fire on every getpgid() through an fentry program; this
	# kernel refuses trampolines (EPERM). The syscall's enter tracepoint runs
	# on the same call with a plain void *ctx, which is all these programs
	# read, so the benchmark's work per trigger is unchanged.
	for f in ringbuf_bench.c perfbuf_bench.c bloom_filter_bench.c \
		bpf_loop_bench.c bpf_hashmap_full_update_bench.c \
		local_storage_bench.c local_storage_rcu_tasks_trace_bench.c \
		bpf_hashmap_lookup.c; do
		sub "$f" 'SEC\("fentry/" SYS_PREFIX "sys_getpgid"\)' 'SEC("tp/syscalls/sys_enter_getpgid")'
	done
	# rename-kprobe/-kretprobe/-fentry/-fexit attach to __set_task_comm,
	# which no tracepoint replaces: they stay unrunnable here, but as
	# autoloaded programs their load failure would also take down
	# rename-base and rename-rawtp, which share the object.
	sub test_overhead.c 'SEC\("(kprobe|kretprobe|fentry|fexit)/__set_task_comm"\)' 'SEC("?\1/__set_task_comm")'
	# 6.1's trigger object autoloads its kprobe, fentry, fentry.s and
	# fmod_ret programs, so one refused program fails every trig-*
	# benchmark, trig-tp and trig-uprobe-* included. Later trees mark them
	# all non-autoloaded themselves; there the pattern matches nothing.
	sub_opt trigger_bench.c 'SEC\("(kprobe|fentry|fentry\.s|fmod_ret)/" SYS_PREFIX "sys_getpgid"\)' 'SEC("?\1/" SYS_PREFIX "sys_getpgid")'
	# The grace-period hooks of local-storage-tasks-trace are fentry
	# programs on RCU internals: not loadable here; without autoload the
	# object loads and the runner reports that attaching them failed.
	sub local_storage_rcu_tasks_trace_bench.c 'SEC\("fentry/(rcu_tasks_trace_[a-z_]+)"\)' 'SEC("?fentry/\1")'
	# local-storage-create's socket variant hooks an LSM (a trampoline); the
	# task variant (tp_btf) works, but only if the object loads.
	sub bench_local_storage_create.c 'SEC\("lsm\.s/socket_post_create"\)' 'SEC("?lsm.s/socket_post_create")'
	# vmlinux.h comes from the running kernel, whose bpftool-dumped BTF
	# declares its kfuncs; an older tree's bpf_kfuncs.h declares some of
	# them again with its own types (bpf_lookup_user_key: __u32 against
	# s32) and the programs stop compiling. The guard the dump puts around
	# its declarations lets the tree's own win.
	grep -q '^BPF_CFLAGS = -g ' "$sel/Makefile" || {
		log "$sel/Makefile: no 'BPF_CFLAGS = -g' line; the tree differs from what this script knows"
		exit 1
	}
	sed -i 's/^BPF_CFLAGS = -g /BPF_CFLAGS = -DBPF_NO_KFUNC_PROTOTYPES -g /' "$sel/Makefile"
	# RELEASE=1 turns the runner's -O0 into -O2 (6.12's Makefile:
	# OPT_FLAGS). 6.1's Makefile has no RELEASE knob: its runner CFLAGS
	# and the EXTRA_CFLAGS of the libbpf and bpftool it builds spell -O0
	# literally; RELEASE=1 is meant to give -O2 there too.
	if ! grep -q '^OPT_FLAGS' "$sel/Makefile"; then
		grep -q -- '-g -O0' "$sel/Makefile" || {
			log "$sel/Makefile: no '-g -O0' to turn into -O2; the tree differs from what this script knows"
			exit 1
		}
		sed -i 's/-g -O0/-g -O2/g' "$sel/Makefile"
	fi
	echo "$cc_id" >"$dir/.patched"
fi

# --- the build -------------------------------------------------------------

mk=(RELEASE=1 VMLINUX_BTF="$btf" CLANG="$clang" -j"$jobs")
log "building $pkg's bench (make ${mk[*]}); this takes several minutes"
start=$(date +%s)
make -C "$sel" "${mk[@]}" "$bench" >"$dir/build.log" 2>&1 || {
	tail -n 30 "$dir/build.log" >&2
	log "build failed; the whole log is $dir/build.log"
	exit 1
}
log "built in $(($(date +%s) - start)) s with $cc_id"
echo "$cc_id" >"$dir/.built"
echo "$bench"
