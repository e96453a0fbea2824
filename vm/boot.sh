#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# vm/boot.sh: the one way benchcore boots a kernel under QEMU, for
# `benchcore vm` (which runs this file, installed under libexec) and for
# the kernel matrix (scripts/vmtest.sh, which sources it). A kernel is made
# ready once (prepare), the accelerator is chosen by a boot (accel), and a
# guest boots with the host's root read-only and one writable share, runs
# one command and powers off (run), booted again when it never reached its
# init or when it panicked.
#
#   boot.sh prepare OUT (--image FILE [--release R] [--modules DIR] [--config FILE]
#                        | --deb FILE --unpack DIR | --tree DIR)
#   boot.sh accel OUT auto|kvm|tcg
#   boot.sh run OUT RUNDIR ACCEL WHY TIMEOUT
#
# prepare writes OUT/vmlinuz, OUT/release, OUT/config (when known) and
# OUT/initramfs.cpio.gz; a bad image is one line naming it and the cause,
# exit status 2. accel prints "KVM|TCG<TAB>why" (status 1: kvm was asked
# and does not boot). run boots OUT's kernel with RUNDIR as the writable
# share and RUNDIR/guest.cmd as the command (vm/init.sh reads it), keeps
# the console in RUNDIR/console.log and writes RUNDIR/boot: the accelerator
# used, why, and "booted", "could not boot: WHY" or "panicked: WHY", then a
# note (a first boot that panicked and a retry that did not); its exit
# status is QEMU's (124 or 137: killed by the timeout).
#
# Environment: BENCHCORE_VM_MEM (guest memory, default 2G), BENCHCORE_VM_CPUS
# (vCPUs, default 2), BENCHCORE_VM_PROBE_TIMEOUT (seconds the KVM probe boot
# may take, default 45), BENCHCORE_VMTEST_TCG_THREAD (single or multi:
# TCG's threading, default single; see bcvm_boot), BENCHCORE_VM_APPEND
# (more words for the guest kernel's command line; bc_panic=1 makes
# vm/init.sh crash the kernel after its first line, which tests the panic
# path).

bcvm_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bcvm_tag=${bcvm_tag:-benchcore: vm}
# The marker vm/init.sh prints first: a console without it means the guest
# never ran (QEMU, the accelerator or the kernel's early boot).
bcvm_init_marker="benchcore-init: started"

bcvm_log() { echo "$bcvm_tag: $*" >&2; }

# --- kernels ---------------------------------------------------------------

# The modules directory of an unpacked package or staged tree, or nothing.
bcvm_moddir() {
	local tree=$1 release=$2 d
	for d in "$tree/lib/modules/$release" "$tree/usr/lib/modules/$release"; do
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 0
}

# bcvm_unpack_deb DEB TREE: a kernel package unpacked once into TREE (kept
# for the next boot); the package's postinst would run depmod, so this does.
# 2 with one line when the package holds no kernel image.
bcvm_unpack_deb() {
	local deb=$1 tree=$2 moddir
	if compgen -G "$tree/boot/vmlinuz-*" >/dev/null; then
		return 0
	fi
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	if ! dpkg-deb -x "$deb" "$tree.tmp" 2>"$tree.tmp.err"; then
		echo "$deb: not a Debian package dpkg-deb can unpack ($(head -n 1 "$tree.tmp.err"))"
		rm -rf "$tree.tmp" "$tree.tmp.err"
		return 2
	fi
	rm -f "$tree.tmp.err"
	if ! compgen -G "$tree.tmp/boot/vmlinuz-*" >/dev/null; then
		echo "$deb: no kernel in this package (no boot/vmlinuz-*); expected a linux-image package (make bindeb-pkg's, or Debian's)"
		rm -rf "$tree.tmp"
		return 2
	fi
	for moddir in "$tree.tmp"/lib/modules/* "$tree.tmp"/usr/lib/modules/*; do
		[ -d "$moddir" ] || continue
		depmod -b "${moddir%/lib/modules/*}" "${moddir##*/}" 2>/dev/null || true
	done
	rm -rf "$tree"
	mv "$tree.tmp" "$tree"
}

# bcvm_stage_tree_modules TREE RELEASE OUT: a kernel build tree's modules
# (modules.order names them) laid out as an installed kernel's under
# OUT/lib/modules/RELEASE, with their modules.dep; nothing when the tree
# built none.
bcvm_stage_tree_modules() {
	local tree=$1 release=$2 out=$3 line ko dest
	[ -s "$tree/modules.order" ] || return 0
	dest=$out/lib/modules/$release
	rm -rf "${out:?}/lib"
	mkdir -p "$dest/kernel"
	while IFS= read -r line; do
		ko=${line#kernel/}
		ko=${ko%.o}
		ko=${ko%.ko}.ko
		[ -f "$tree/$ko" ] && echo "$ko"
	done <"$tree/modules.order" >"$dest/modules.list"
	# One process for thousands of modules: hard links where the tree and
	# OUT share a file system, copies where not.
	(cd "$tree" && cpio -pdl --quiet "$dest/kernel" <"$dest/modules.list")
	sed 's|^|kernel/|' "$dest/modules.list" >"$dest/modules.order"
	if [ -f "$tree/modules.builtin" ]; then
		sed 's|^kernel/||; s|^|kernel/|' "$tree/modules.builtin" >"$dest/modules.builtin"
	else
		: >"$dest/modules.builtin"
	fi
	depmod -b "$out" "$release" 2>/dev/null
}

# A modules directory with a modules.dep: MODDIR itself, or (unpacked by
# hand, without depmod) a shadow of it in WORK whose files are links.
bcvm_with_deps() {
	local moddir=$1 work=$2 release
	if [ -s "$moddir/modules.dep" ]; then
		echo "$moddir"
		return 0
	fi
	release=${moddir##*/}
	rm -rf "$work/shadow"
	mkdir -p "$work/shadow/lib/modules/$release"
	cp -as "$moddir"/. "$work/shadow/lib/modules/$release/"
	depmod -b "$work/shadow" "$release"
	echo "$work/shadow/lib/modules/$release"
}

# The modules needed to mount the shares, each after its dependencies, from
# the kernel's own modules.dep; a module built into this kernel
# (modules.builtin) needs nothing. Prints relative module paths.
bcvm_module_order() {
	local moddir=$1 mod deps name line
	shift
	declare -A path_of=() deps_of=() seen=()
	local order=()
	while IFS= read -r line; do
		mod=${line%%:*}
		deps=${line#*:}
		name=${mod##*/}
		name=${name%%.ko*}
		name=${name//-/_}
		path_of[$name]=$mod
		deps_of[$name]=$deps
	done <"$moddir/modules.dep"

	visit() {
		local n=$1 d dn
		[ -n "${seen[$n]:-}" ] && return 0
		seen[$n]=1
		if [ -z "${path_of[$n]:-}" ]; then
			if [ -f "$moddir/modules.builtin" ] &&
				grep -Eq "/${n//_/[-_]}\.ko(\.[a-z]+)?$" "$moddir/modules.builtin"; then
				return 0
			fi
			echo "module $n is neither in modules.dep nor built in ($moddir)" >&2
			return 1
		fi
		for d in ${deps_of[$n]}; do
			dn=${d##*/}
			dn=${dn%%.ko*}
			visit "${dn//-/_}" || return 1
		done
		order+=("${path_of[$n]}")
	}
	for name in "$@"; do
		visit "$name" || return 1
	done
	printf '%s\n' "${order[@]}"
}

# What the guest's init needs built in or as modules: virtio over PCI, 9p
# over virtio. With the config known and no modules, a kernel that builds
# them as modules cannot mount the host root: said before any boot.
bcvm_check_builtin() {
	local config=$1 image=$2 opt val missing=()
	[ -f "$config" ] || return 0
	for opt in CONFIG_VIRTIO_PCI CONFIG_NET_9P CONFIG_NET_9P_VIRTIO CONFIG_9P_FS; do
		val=$(grep -m1 "^$opt=" "$config" | cut -d= -f2)
		[ "$val" = y ] || missing+=("$opt=${val:-n}")
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	echo "$image: cannot mount the host root: ${missing[*]} and no modules for this kernel; expected them built in (=y), or the kernel's modules (--modules DIR, its build tree, or the .deb)"
	return 2
}

# bcvm_make_initramfs MODDIR CONFIG OUT IMAGE: busybox, the virtio/9p
# modules (decompressed: busybox insmod takes plain .ko files), vm/init.sh
# as /init and the kernel's config (for the runtime's kernel facts).
bcvm_make_initramfs() {
	local moddir=$1 config=$2 out=$3 image=$4 dir mod base mods rc=0
	dir=$(mktemp -d)
	mkdir -p "$dir/bin" "$dir/proc" "$dir/sys" "$dir/dev" "$dir/newroot" "$dir/modules"
	cp /bin/busybox "$dir/bin/busybox"
	ln -s busybox "$dir/bin/sh"
	: >"$dir/modules/order"
	if [ -n "$moddir" ]; then
		moddir=$(bcvm_with_deps "$moddir" "$dir.work")
		if ! mods=$(bcvm_module_order "$moddir" virtio_pci 9pnet_virtio 9p); then
			echo "$image: its modules ($1) have no virtio_pci, 9pnet_virtio or 9p (built in or as modules): the guest could not mount the host root"
			rm -rf "$dir" "$dir.work"
			return 2
		fi
		while IFS= read -r mod; do
			[ -n "$mod" ] || continue
			base=${mod##*/}
			case $base in
			*.ko.xz) xz -dc "$moddir/$mod" >"$dir/modules/${base%.xz}" ;;
			*.ko.zst) zstd -qdc "$moddir/$mod" >"$dir/modules/${base%.zst}" ;;
			*.ko.gz) gzip -dc "$moddir/$mod" >"$dir/modules/${base%.gz}" ;;
			*) cp "$moddir/$mod" "$dir/modules/$base" ;;
			esac
			echo "${base%.ko*}.ko" >>"$dir/modules/order"
		done <<<"$mods"
	else
		bcvm_check_builtin "$config" "$image" || rc=$?
		if [ "$rc" != 0 ]; then
			rm -rf "$dir"
			return "$rc"
		fi
	fi
	[ -f "$config" ] && cp "$config" "$dir/kconfig"
	cp "$bcvm_dir/init.sh" "$dir/init"
	chmod +x "$dir/init"
	(cd "$dir" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
	rm -rf "$dir" "$dir.work"
}

# What preparing (no argument) or booting (boot) needs on the host, said
# once with the packages to install.
bcvm_need_tools() {
	local missing=() t tools=(cpio:cpio depmod:kmod xz:xz-utils dpkg-deb:dpkg)
	[ "${1:-}" = boot ] && tools=(qemu-system-x86_64:qemu-system-x86 timeout:coreutils)
	for t in "${tools[@]}"; do
		command -v "${t%%:*}" >/dev/null 2>&1 || missing+=("${t#*:}")
	done
	[ "${1:-}" = boot ] || [ -x /bin/busybox ] || missing+=(busybox-static)
	[ "${#missing[@]}" -eq 0 ] && return 0
	echo "missing what booting a guest needs: apt-get install ${missing[*]}"
	return 1
}

# bcvm_prepare OUT ARGS...: see the header. The image, release, modules and
# config are found by `benchcore vm` (its image detection is tested
# without booting) and by scripts/vmtest.sh for Debian's packages.
bcvm_prepare() {
	local out=$1 image="" release="" modules="" config="" deb="" unpack="" tree="" rc=0 msg
	shift
	while [ "$#" -gt 0 ]; do
		case $1 in
		--image) image=$2 ;;
		--release) release=$2 ;;
		--modules) modules=$2 ;;
		--config) config=$2 ;;
		--deb) deb=$2 ;;
		--unpack) unpack=$2 ;;
		--tree) tree=$2 ;;
		*)
			echo "boot.sh prepare: unknown argument '$1'"
			return 2
			;;
		esac
		shift 2
	done
	bcvm_need_tools || return 1
	mkdir -p "$out"
	rm -f "$out/vmlinuz" "$out/release" "$out/config" "$out/initramfs.cpio.gz"
	if [ -n "$deb" ]; then
		msg=$(bcvm_unpack_deb "$deb" "$unpack") || { rc=$?; echo "$msg"; return "$rc"; }
		image=$(find "$unpack/boot" -maxdepth 1 -name 'vmlinuz-*' | sort | head -n 1)
		release=${image##*/vmlinuz-}
		modules=$(bcvm_moddir "$unpack" "$release")
		[ -f "$unpack/boot/config-$release" ] && config=$unpack/boot/config-$release
	elif [ -n "$tree" ]; then
		image=$tree/arch/x86/boot/bzImage
		[ -n "$release" ] || release=$(cat "$tree/include/config/kernel.release" 2>/dev/null || true)
		[ -f "$tree/.config" ] && config=$tree/.config
		bcvm_stage_tree_modules "$tree" "$release" "$out/modules" || {
			echo "$tree: its modules could not be staged (depmod failed)"
			return 1
		}
		modules=$(bcvm_moddir "$out/modules" "$release")
	fi
	if [ -z "$image" ] || [ ! -f "$image" ]; then
		echo "${image:-?}: no kernel image"
		return 2
	fi
	ln -s "$(realpath "$image")" "$out/vmlinuz"
	echo "${release:-unknown}" >"$out/release"
	[ -n "$config" ] && cp "$config" "$out/config"
	msg=$(bcvm_make_initramfs "$modules" "$out/config" "$out/initramfs.cpio.gz" "$image") ||
		{ rc=$?; echo "$msg"; return "$rc"; }
}

# --- booting ---------------------------------------------------------------

bcvm_qemu() {
	local limit=$1
	shift
	timeout --kill-after=10 "$limit" qemu-system-x86_64 "$@"
}

# With KVM, each vCPU thread ("CPU N/KVM") on a host CPU of its own where
# the host has them, so that a guest's numbers do not move with the host
# scheduler; RUNDIR/pinning says what was done.
bcvm_pin_vcpus() {
	local pidfile=$1 log=$2 pid="" i task comm cpu cpus=()
	for _ in $(seq 1 100); do
		pid=$(cat "$pidfile" 2>/dev/null || true)
		[ -n "$pid" ] && break
		sleep 0.1
	done
	[ -n "$pid" ] || { echo "no QEMU pid file: not pinned" >"$log"; return 0; }
	read -r -a cpus < <(taskset -pc $$ | sed 's/.*: //' | tr ',' ' ' |
		awk '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-"); if (n == 2) { for (c = r[1]; c <= r[2]; c++) printf "%d ", c } else printf "%s ", $i } }')
	: >"$log"
	for _ in $(seq 1 100); do
		i=0
		for task in /proc/"$pid"/task/*; do
			comm=$(cat "$task/comm" 2>/dev/null || true)
			case $comm in
			"CPU "*/KVM)
				cpu=${comm#CPU }
				cpu=${cpu%%/*}
				[ "$cpu" -lt "${#cpus[@]}" ] || continue
				taskset -pc "${cpus[$cpu]}" "${task##*/}" >/dev/null 2>&1 &&
					echo "vCPU $cpu (thread ${task##*/}) -> host CPU ${cpus[$cpu]}" >>"$log"
				i=$((i + 1))
				;;
			esac
		done
		[ "$i" -gt 0 ] && return 0
		sleep 0.1
	done
	echo "no vCPU threads found: not pinned" >"$log"
}

# bcvm_boot KDIR RUNDIR ACCEL TIMEOUT RW CMDFILE [EXTRA_APPEND]: one QEMU
# run of KDIR's kernel; the console goes to RUNDIR/console.log, QEMU's own
# messages to RUNDIR/qemu.err. Returns QEMU's exit status (124/137: killed
# by the timeout).
bcvm_boot() {
	local kdir=$1 rundir=$2 accel=$3 limit=$4 rw=$5 cmdfile=$6 extra=${7:-} clock="" rc=0
	local args pinner="" word
	word=$(tr '[:upper:]' '[:lower:]' <<<"$accel")
	if [ "$accel" = KVM ]; then
		# debug-threads names the vCPU threads ("CPU 0/KVM") for the pinning
		# shellcheck disable=SC2054
		args=(-enable-kvm -cpu host -name benchcore,debug-threads=on -pidfile "$rundir/qemu.pid")
		rm -f "$rundir/qemu.pid"
		bcvm_pin_vcpus "$rundir/qemu.pid" "$rundir/pinning" &
		pinner=$!
	else
		# Software emulation: correct, slow. Its TSC drifts, so the
		# clocksource watchdog marks it unstable a few seconds after boot
		# and the kernel patches sched_clock's static key live; under TCG
		# a vCPU can then run a stale int3 (6.12: "Oops: int3" in
		# sched_clock_cpu, then a panic). Saying so at boot settles the
		# clock before anything runs.
		#
		# Single-threaded TCG (all vCPUs on one host thread, in turn):
		# multi-threaded TCG gives the guest weaker cross-modifying-code
		# guarantees than hardware, and attaching trampolines and kprobes
		# patches kernel text while the other vCPU runs; 6.12 then ran a
		# stale int3 at a patched call site (an "Oops: int3" panic in
		# raw_spin_rq_unlock). With one thread no vCPU runs while another
		# patches. BENCHCORE_VMTEST_TCG_THREAD=multi brings it back.
		args=(-accel "tcg,thread=${BENCHCORE_VMTEST_TCG_THREAD:-single}")
		clock="tsc=unstable "
	fi
	# The redirection on the call also takes bash's own notice when QEMU
	# dies of a signal ("Aborted" and the command line): qemu.err is
	# read for QEMU's line, nobody has to read the command.
	bcvm_qemu "$limit" "${args[@]}" \
		-m "${BENCHCORE_VM_MEM:-2G}" -smp "${BENCHCORE_VM_CPUS:-2}" -nographic -no-reboot -nic none \
		-kernel "$kdir/vmlinuz" -initrd "$kdir/initramfs.cpio.gz" \
		-append "console=ttyS0 quiet panic=-1 ${clock}${extra}${BENCHCORE_VM_APPEND:+$BENCHCORE_VM_APPEND }benchcore.accel=$word benchcore.host=$(hostname) bc_rw=$rw bc_cmd=$cmdfile" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$rw,mount_tag=rw,security_model=none,multidevs=remap" \
		</dev/null >"$rundir/console.log" 2>"$rundir/qemu.err" || rc=$?
	if [ -n "$pinner" ]; then
		kill "$pinner" 2>/dev/null || true
		wait "$pinner" 2>/dev/null || true
	fi
	return "$rc"
}

# Why a boot that never reached init failed, in one line: QEMU's own
# error, or what the console shows, or silence.
bcvm_boot_failure_reason() {
	local rundir=$1 rc=$2 limit=$3 line
	# QEMU's own complaint; not its note that the timeout stopped it.
	line=$(grep -v -e 'terminating on signal' -e 'Aborted' -e '^[[:space:]]*$' \
		"$rundir/qemu.err" 2>/dev/null | head -n 1 || true)
	if [ -n "$line" ]; then
		echo "${line//$'\t'/ }"
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "no output from the guest's init in $limit s"
	elif [ -s "$rundir/console.log" ]; then
		echo "QEMU exited (status $rc) before the guest's init ran; last console line: $(tr -d '\r' <"$rundir/console.log" | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-120)"
	else
		echo "QEMU exited (status $rc) with no output before the guest's init ran (a reset before the first kernel line?)"
	fi
}

# bcvm_choose_accel MODE KDIR PROBEDIR: sets bcvm_accel and bcvm_accel_why.
# /dev/kvm being writable says nothing about whether KVM boots a guest
# (nested virtualisation can expose one that aborts QEMU at the first MSR
# write, or resets the guest before its first line), so auto mode boots
# the kernel once, to its init, and believes only that. Returns 1 when
# MODE is kvm and KVM does not boot.
bcvm_accel=
bcvm_accel_why=
bcvm_choose_accel() {
	local mode=$1 kdir=$2 probe=$3 limit=${BENCHCORE_VM_PROBE_TIMEOUT:-45} rc=0 t0=$SECONDS
	case $mode in
	tcg)
		bcvm_accel=TCG bcvm_accel_why="TCG asked for"
		return 0
		;;
	auto)
		if [ ! -e /dev/kvm ]; then
			bcvm_accel=TCG bcvm_accel_why="no /dev/kvm"
			return 0
		elif [ ! -w /dev/kvm ]; then
			bcvm_accel=TCG bcvm_accel_why="/dev/kvm is not writable by $(id -un)"
			return 0
		fi
		;;
	esac
	rm -rf "$probe"
	mkdir -p "$probe"
	bcvm_log "probing KVM: booting $(cat "$kdir/release") to its init (at most $limit s)"
	bcvm_boot "$kdir" "$probe" KVM "$limit" "$probe" /nonexistent "bc_probe=1 " || rc=$?
	if grep -q "$bcvm_init_marker" "$probe/console.log"; then
		bcvm_accel=KVM bcvm_accel_why="a probe boot reached init in $((SECONDS - t0)) s"
	else
		bcvm_accel=TCG
		bcvm_accel_why="KVM did not boot a guest: $(bcvm_boot_failure_reason "$probe" "$rc" "$limit")"
		[ "$mode" = kvm ] && return 1
	fi
	return 0
}

# The panic a console shows, in one line: the oops (or BUG, or the panic
# itself) and where it hit; empty when the kernel did not panic.
bcvm_panic_line() {
	local console=$1 oops rip
	grep -q 'Kernel panic' "$console" 2>/dev/null || return 0
	oops=$(tr -d '\r' <"$console" | grep -m1 -E 'Oops:|BUG:|general protection fault|Kernel panic' |
		sed 's/^\[[ 0-9.]*\] //')
	rip=$(tr -d '\r' <"$console" | grep -m1 -E 'RIP: [0-9]{4}:' | sed 's/^\[[ 0-9.]*\] //; s/^RIP: [0-9]*://')
	echo "${oops}${rip:+ at ${rip}}" | cut -c1-200
}

# bcvm_run_guest KDIR RUNDIR ACCEL WHY TIMEOUT RW CMDFILE RESET: one guest's
# run. A guest that never reached init is an infrastructure failure, not a
# result: it is booted once more under TCG. A panic is booted once more
# with the same accelerator: once may be the emulator; twice is the kernel
# (or benchcore). RESET is the directory the guest writes, emptied before
# each boot. Writes RUNDIR/boot (above).
bcvm_run_guest() {
	local kdir=$1 rundir=$2 how=$3 why=$4 limit=$5 rw=$6 cmdfile=$7 reset=$8 rc=0 reason
	local release oops oops2 note=""
	release=$(cat "$kdir/release")
	rm -rf "$reset"
	mkdir -p "$reset"
	bcvm_boot "$kdir" "$rundir" "$how" "$limit" "$rw" "$cmdfile" || rc=$?
	if ! grep -q "$bcvm_init_marker" "$rundir/console.log"; then
		reason=$(bcvm_boot_failure_reason "$rundir" "$rc" "$limit")
		bcvm_log "$release: the guest never reached its init under $how: $reason; booting it once more under TCG"
		cp "$rundir/console.log" "$rundir/console.first.log"
		cp "$rundir/qemu.err" "$rundir/qemu.first.err"
		why="the $how boot never reached init ($reason); retried"
		how=TCG
		rc=0
		rm -rf "$reset"
		mkdir -p "$reset"
		bcvm_boot "$kdir" "$rundir" TCG "$limit" "$rw" "$cmdfile" || rc=$?
		if ! grep -q "$bcvm_init_marker" "$rundir/console.log"; then
			reason=$(bcvm_boot_failure_reason "$rundir" "$rc" "$limit")
			printf '%s\t%s\tcould not boot: %s\n' "$how" "$why" "$reason" >"$rundir/boot"
			return "$rc"
		fi
	fi
	oops=$(bcvm_panic_line "$rundir/console.log")
	if [ -n "$oops" ]; then
		bcvm_log "$release: the guest panicked under $how: $oops; booting it once more"
		cp "$rundir/console.log" "$rundir/console.panic.log"
		rc=0
		rm -rf "$reset"
		mkdir -p "$reset"
		bcvm_boot "$kdir" "$rundir" "$how" "$limit" "$rw" "$cmdfile" || rc=$?
		oops2=$(bcvm_panic_line "$rundir/console.log")
		if [ -n "$oops2" ]; then
			printf '%s\t%s\tpanicked: twice under %s: %s (first boot: %s; console.panic.log)\n' \
				"$how" "$why" "$how" "$oops2" "$oops" >"$rundir/boot"
			return "$rc"
		fi
		note="the first boot panicked under $how ($oops; console.panic.log); the retry did not"
	fi
	printf '%s\t%s\tbooted\t%s\n' "$how" "$why" "$note" >"$rundir/boot"
	return "$rc"
}

# --- as a command -----------------------------------------------------------

bcvm_main() {
	local sub=${1:-} out msg rc=0
	shift || true
	case $sub in
	prepare)
		out=$1
		shift
		msg=$(bcvm_prepare "$out" "$@") || rc=$?
		[ -z "$msg" ] || echo "$msg" >&2
		return "$rc"
		;;
	accel)
		bcvm_need_tools boot >&2 || return 1
		bcvm_choose_accel "$2" "$1" "$1/accel-probe" || rc=$?
		printf '%s\t%s\n' "$bcvm_accel" "$bcvm_accel_why"
		return "$rc"
		;;
	run)
		# OUT RUNDIR ACCEL WHY TIMEOUT: the guest writes RUNDIR/out
		bcvm_run_guest "$1" "$2" "$3" "$4" "$5" "$2" "$2/guest.cmd" "$2/out"
		;;
	*)
		awk 'NR >= 4 && !/^#/ { exit } NR >= 4' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
		return 2
		;;
	esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	bcvm_main "$@"
	exit $?
fi
