#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# scripts/vmtest.sh [-b BUILD_DIR] [-t SECONDS] [-r] [KERNEL...]
#
# The kernel matrix: boots Debian's own kernel packages under QEMU with this
# machine's root filesystem shared read-only, and inside each guest probes
# every benchmark of BUILD_DIR (ran at / unavailable: / failed:) and runs the
# BPF-labelled CTest tests. The development VMs' kernel refuses trampolines
# and has no kprobes, so without this the fentry, kprobe and tasks-trace
# paths that users' kernels take would never run in a test.
#
# KERNEL is a Debian package (linux-image-6.1.0-57-amd64; a meta package such
# as linux-image-6.12-amd64 is followed to the image it depends on), a kernel
# release (6.1.0-57-amd64), or "host" (probe the running kernel natively, no
# guest). Default: host and the images behind linux-image-amd64 and
# linux-image-6.12-amd64, so the matrix follows Debian's ABI bumps.
#
# Output, in BUILD_DIR/vmtest/: cache/ (the .deb files; nothing else is
# downloaded), kernels/ (unpacked), and per kernel RELEASE/: table.md,
# console.log, initramfs.cpio.gz, results/ (what the guest wrote through its
# writable share). matrix.md puts all kernels side by side. Expectations per
# kernel line (tests/vmtest/expect/MAJOR.MINOR, tests/vmtest/expect/host) are
# checked against the probe table; a line's needs= against the kernel's own
# feature table (results/features, from tests/kernel_features).
#
# -r re-reads the last run's results (tables, verdicts) without booting.
#
# Exit status: 0 when every guest finished, every CTest test passed, no
# benchmark failed and every expectation held (known failures, marked xfail,
# do not count); 1 otherwise; 2 for usage errors.
#
# A guest that never reached its init (QEMU exited or stayed silent) is
# booted once more under TCG; if that fails too the kernel is reported as
# "could not boot: <why>", which fails the run but is not a test failure.
# BUILD_DIR/vmtest/summary.tsv holds one line per kernel: name, accelerator,
# verdict (passed, failed, could not boot, hung), reason.
#
# Environment: BENCHCORE_VMTEST_ACCEL (auto, kvm or tcg; default auto: a
# short probe boot decides whether KVM works, else TCG, with the reason),
# BENCHCORE_VMTEST_PROBE_TIMEOUT (seconds the KVM probe boot may take,
# default 45), BENCHCORE_VMTEST_TIMEOUT (seconds per guest, default 1800),
# BENCHCORE_VMTEST_DURATION (seconds per benchmark probe, default 0.5),
# BENCHCORE_VMTEST_MEM (guest memory, default 2G), BENCHCORE_VMTEST_TCG_THREAD
# (single or multi: TCG's threading, default single; see boot_guest).
#
# A guest that panics (its console shows "Kernel panic") is booted once more
# with the same accelerator; its oops line, the accelerator and whether the
# retry passed are reported. A panic that repeats fails the run ("panicked").
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
# Two ~6-minute guests on a busy 2-CPU machine took ~10 minutes each; a
# guest still running after 20 is hung (the kernel, not a test: those have
# their own timeouts inside).
guest_timeout=${BENCHCORE_VMTEST_TIMEOUT:-1800}

usage() {
	# The header comment, however long it grows.
	awk 'NR >= 4 && !/^#/ { exit } NR >= 4' "$0" | sed 's/^# \{0,1\}//'
	exit "$1"
}

log() { echo "vmtest: $*" >&2; }

# --- packages -------------------------------------------------------------

apt_updated=0
apt_update() {
	[ "$apt_updated" = 1 ] && return
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || apt-get update
	apt_updated=1
}

install_packages() {
	# jq reads the benchmarks' JSON; xz-utils unpacks .ko.xz modules; kmod's
	# depmod writes the modules.dep that a package leaves to its postinst.
	local pkg need missing
	need=(qemu-system-x86 busybox-static cpio xz-utils kmod jq)
	missing=()
	for pkg in "${need[@]}"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$pkg")
	done
	if [ "${#missing[@]}" -gt 0 ]; then
		if [ "$(id -u)" -ne 0 ]; then
			log "missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}"
			exit 1
		fi
		log "installing ${missing[*]}"
		apt_update
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
			apt-get install -y --no-install-recommends "${missing[@]}"
	fi
}

# --- kernels --------------------------------------------------------------

# The image package behind a name: meta packages (linux-image-amd64,
# linux-image-6.12-amd64) depend on exactly one linux-image-*; an image
# package depends on none.
resolve_package() {
	local pkg=$1 next
	[ -n "$(apt-cache show "$pkg" 2>/dev/null | head -n 1)" ] || apt_update
	while :; do
		next=$(apt-cache depends "$pkg" 2>/dev/null |
			awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }')
		[ -n "$next" ] || break
		pkg=$next
	done
	if [ -z "$(apt-cache show "$pkg" 2>/dev/null | head -n 1)" ]; then
		log "no Debian package '$pkg' (apt-cache search linux-image- lists them)"
		exit 2
	fi
	echo "$pkg"
}

# Downloads the .deb once into the cache, unpacks it once; prints the tree.
fetch_kernel() {
	local pkg=$1 deb tree=$vm/kernels/$1
	if [ ! -d "$tree" ]; then
		deb=$(find "$vm/cache" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
		if [ -z "$deb" ]; then
			log "$pkg: apt-get download"
			(cd "$vm/cache" && apt-get download -qq "$pkg" >/dev/null 2>&1) ||
				(cd "$vm/cache" && apt-get download "$pkg")
			deb=$(find "$vm/cache" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
		fi
		rm -rf "$tree.tmp"
		dpkg-deb -x "$deb" "$tree.tmp"
		# The package's postinst would run depmod; the module order
		# below comes from its modules.dep.
		local moddir
		for moddir in "$tree.tmp"/lib/modules/*; do
			depmod -b "$tree.tmp" "${moddir##*/}"
		done
		mv "$tree.tmp" "$tree"
	fi
	echo "$tree"
}

# --- initramfs ------------------------------------------------------------

# The modules needed to mount the shares, each after its dependencies, from
# the kernel's own modules.dep; a module built into this kernel
# (modules.builtin) needs nothing. Prints relative module paths.
module_order() {
	local moddir=$1 mod deps name d
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
		[ -n "${seen[$n]:-}" ] && return
		seen[$n]=1
		if [ -z "${path_of[$n]:-}" ]; then
			if grep -Eq "/${n//_/[-_]}\.ko(\.[a-z]+)?$" "$moddir/modules.builtin"; then
				return
			fi
			log "module $n is neither in modules.dep nor built in ($moddir)"
			exit 1
		fi
		for d in ${deps_of[$n]}; do
			dn=${d##*/}
			dn=${dn%%.ko*}
			visit "${dn//-/_}"
		done
		order+=("${path_of[$n]}")
	}
	for name in "$@"; do
		visit "$name"
	done
	printf '%s\n' "${order[@]}"
}

# busybox, the virtio/9p modules (decompressed: busybox insmod takes plain
# .ko files) and an /init that mounts the shares, chroots and runs
# scripts/vmtest-guest.sh.
make_initramfs() {
	local tree=$1 release=$2 out=$3 moddir dir mod base mods
	moddir=$tree/lib/modules/$release
	[ -d "$moddir" ] || moddir=$tree/usr/lib/modules/$release
	dir=$(mktemp -d)
	mkdir -p "$dir/bin" "$dir/proc" "$dir/sys" "$dir/dev" "$dir/newroot" "$dir/modules"
	cp /bin/busybox "$dir/bin/busybox"
	ln -s busybox "$dir/bin/sh"
	: >"$dir/modules/order"
	mods=$(module_order "$moddir" virtio_pci 9pnet_virtio 9p)
	while IFS= read -r mod; do
		base=${mod##*/}
		case $base in
		*.ko.xz) xz -dc "$moddir/$mod" >"$dir/modules/${base%.xz}" ;;
		*.ko.zst) zstd -qdc "$moddir/$mod" >"$dir/modules/${base%.zst}" ;;
		*.ko.gz) gzip -dc "$moddir/$mod" >"$dir/modules/${base%.gz}" ;;
		*) cp "$moddir/$mod" "$dir/modules/$base" ;;
		esac
		echo "${base%.ko*}.ko" >>"$dir/modules/order"
	done <<<"$mods"

	cat >"$dir/init" <<'EOF'
#!/bin/sh
# vmtest guest init: mount the host's root read-only and the build tree
# writable (both 9p over virtio), chroot, run the matrix, power off. The
# source and build trees may lie anywhere, /tmp included.
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
# The host looks for this line: without it the guest never ran its init
# (QEMU or the accelerator failed), which is not a test failure.
echo "vmtest-init: started"
if grep -qw bc_probe=1 /proc/cmdline; then
	# The accelerator probe: reaching init is all it asks.
	echo o >/proc/sysrq-trigger
	sleep 30
fi
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do
	insmod "/modules/$m" || echo "vmtest-init: insmod $m failed"
done
# No network manager brings up loopback here: sockmap connects over it.
ip link set lo up || echo "vmtest-init: loopback stays down"
arg() { tr ' ' '\n' </proc/cmdline | sed -n "s/^$1=//p"; }
src=$(arg bc_src)
build=$(arg bc_build)
out=$(arg bc_out)
r=/newroot
# 6.1's 9p defaults to 8 KiB messages; larger ones make the share usable.
opts=trans=virtio,version=9p2000.L,msize=262144
if mount -t 9p -o "$opts,ro" host $r; then
	mount -t proc proc $r/proc
	mount -t sysfs sysfs $r/sys
	mount -t devtmpfs devtmpfs $r/dev
	# What udev and systemd would add: bash's <(...) needs /dev/fd.
	ln -s /proc/self/fd $r/dev/fd
	mkdir -p $r/dev/shm $r/dev/pts
	mount -t tmpfs tmpfs $r/dev/shm
	mount -t devpts devpts $r/dev/pts
	mount -t tracefs nodev $r/sys/kernel/tracing
	mount -t debugfs nodev $r/sys/kernel/debug
	mount -t bpf bpffs $r/sys/fs/bpf
	# htab-mem reads its map's memory from a memory cgroup of its own.
	mount -t cgroup2 none $r/sys/fs/cgroup
	# The host root is read-only; the tests write lock files in /tmp. A
	# tree cloned into /tmp (or /run) would vanish under the tmpfs, so it
	# is held aside first and bound back on top; the build tree is mounted
	# after the tmpfs for the same reason.
	mkdir -p /held-src && mount -o bind "$r$src" /held-src
	mount -t tmpfs tmpfs $r/tmp
	mount -t tmpfs tmpfs $r/run
	if [ ! -d "$r$src/scripts" ]; then
		mkdir -p "$r$src" && mount -o bind /held-src "$r$src"
	fi
	mkdir -p "$r$build" 2>/dev/null
	if ! mount -t 9p -o "$opts" build "$r$build"; then
		echo "vmtest-init: mounting the build tree ($build) failed"
		sync
		echo o >/proc/sysrq-trigger
		sleep 30
	fi
	echo "vmtest-init: $(uname -r): shares mounted, running the matrix"
	chroot $r /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp \
		LANG=C.UTF-8 /bin/bash "$src/scripts/vmtest-guest.sh" all "$build" "$out"
	echo "vmtest-init: matrix exit status $?"
else
	echo "vmtest-init: mounting the 9p shares failed"
fi
sync
echo o >/proc/sysrq-trigger
sleep 30
EOF
	chmod +x "$dir/init"
	(cd "$dir" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
	rm -rf "$dir"
}

# --- running --------------------------------------------------------------

# The marker the guest's init prints first: a console without it means
# the guest never ran (QEMU, the accelerator or the kernel's early boot).
init_marker="vmtest-init: started"

qemu_with_timeout() {
	local limit=$1
	shift
	timeout --kill-after=10 "$limit" qemu-system-x86_64 "$@"
}

# boot_guest TREE RELEASE OUT ACCEL TIMEOUT [EXTRA_APPEND]: one QEMU run;
# the console goes to OUT/console.log, QEMU's own messages to OUT/qemu.err.
# Returns QEMU's exit status (124/137: killed by the timeout).
boot_guest() {
	local tree=$1 release=$2 out=$3 accel=$4 limit=$5 extra=${6:-} clock="" rc=0
	local args
	if [ "$accel" = KVM ]; then
		args=(-enable-kvm -cpu host)
	else
		# Software emulation: correct, slow. Its TSC drifts, so the
		# clocksource watchdog marks it unstable a few seconds after boot
		# and the kernel patches sched_clock's static key live; under TCG
		# a vCPU can then run a stale int3 (6.12: "Oops: int3" in
		# sched_clock_cpu, then a panic). Saying so at boot settles the
		# clock before anything runs.
		#
		# Single-threaded TCG (both vCPUs on one host thread, in turn):
		# multi-threaded TCG gives the guest weaker cross-modifying-code
		# guarantees than hardware, and attaching trampolines and kprobes
		# patches kernel text while the other vCPU runs; 6.12 then ran a
		# stale int3 at a patched call site (an "Oops: int3" panic in
		# raw_spin_rq_unlock). With one thread no vCPU runs while another
		# patches. BENCHCORE_VMTEST_TCG_THREAD=multi brings it back.
		args=(-accel "tcg,thread=$tcg_thread")
		clock="tsc=unstable "
	fi
	# The redirection on the call also takes bash's own notice when QEMU
	# dies of a signal ("Aborted" and the command line): qemu.err is
	# read for QEMU's line, nobody has to read the command.
	qemu_with_timeout "$limit" "${args[@]}" \
		-m "${BENCHCORE_VMTEST_MEM:-2G}" -smp 2 -nographic -no-reboot -nic none \
		-kernel "$tree/boot/vmlinuz-$release" -initrd "$out/initramfs.cpio.gz" \
		-append "console=ttyS0 quiet panic=-1 ${clock}${extra}bc_src=$src bc_build=$build bc_out=$out/results" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,path=$build,mount_tag=build,security_model=none,multidevs=remap" \
		</dev/null >"$out/console.log" 2>"$out/qemu.err" || rc=$?
	return "$rc"
}

# Why a boot that never reached init failed, in one line: QEMU's own
# error, or what the console shows, or silence.
boot_failure_reason() {
	local out=$1 rc=$2 limit=$3 line
	# QEMU's own complaint; not its note that the timeout stopped it.
	line=$(grep -v -e 'terminating on signal' -e 'Aborted' -e '^[[:space:]]*$' \
		"$out/qemu.err" 2>/dev/null | head -n 1 || true)
	if [ -n "$line" ]; then
		echo "${line//$'\t'/ }"
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "no output from the guest's init in $limit s"
	elif [ -s "$out/console.log" ]; then
		echo "QEMU exited (status $rc) before the guest's init ran; last console line: $(tr -d '\r' <"$out/console.log" | grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-120)"
	else
		echo "QEMU exited (status $rc) with no output before the guest's init ran (a reset before the first kernel line?)"
	fi
}

# Sets accel and accel_why: the accelerator the guests boot with and why.
# /dev/kvm being writable says nothing about whether KVM boots a guest
# (nested virtualisation can expose one that aborts QEMU at the first MSR
# write, or resets the guest before its first line), so auto mode boots
# the first kernel once, to its init, and believes only that.
accel=
accel_why=
choose_accel() {
	local tree=$1 release=$2 out=$3 limit=${BENCHCORE_VMTEST_PROBE_TIMEOUT:-45} rc=0 t0=$SECONDS
	[ -n "$accel" ] && return 0
	case $accel_mode in
	tcg)
		accel=TCG accel_why="BENCHCORE_VMTEST_ACCEL=tcg"
		return 0
		;;
	auto)
		if [ ! -e /dev/kvm ]; then
			accel=TCG accel_why="no /dev/kvm"
			return 0
		elif [ ! -w /dev/kvm ]; then
			accel=TCG accel_why="/dev/kvm is not writable by $(id -un)"
			return 0
		fi
		;;
	esac
	local probe=$out/accel-probe
	rm -rf "$probe"
	mkdir -p "$probe/results"
	cp "$out/initramfs.cpio.gz" "$probe/"
	log "probing KVM: booting $release to its init (at most $limit s)"
	boot_guest "$tree" "$release" "$probe" KVM "$limit" "bc_probe=1 " || rc=$?
	if grep -q "$init_marker" "$probe/console.log"; then
		accel=KVM accel_why="a probe boot reached init in $((SECONDS - t0)) s"
	else
		accel_why="KVM did not boot a guest: $(boot_failure_reason "$probe" "$rc" "$limit")"
		if [ "$accel_mode" = kvm ]; then
			log "BENCHCORE_VMTEST_ACCEL=kvm, but $accel_why"
			exit 1
		fi
		accel=TCG
	fi
	log "accelerator: $accel ($accel_why; probe $((SECONDS - t0)) s)"
	echo "$accel	$accel_why	$((SECONDS - t0))" >"$vm/accel"
}

# The panic a console shows, in one line: the oops (or BUG, or the panic
# itself) and where it hit; empty when the kernel did not panic.
panic_line() {
	local console=$1 oops rip
	grep -q 'Kernel panic' "$console" 2>/dev/null || return 0
	oops=$(tr -d '\r' <"$console" | grep -m1 -E 'Oops:|BUG:|general protection fault|Kernel panic' |
		sed 's/^\[[ 0-9.]*\] //')
	rip=$(tr -d '\r' <"$console" | grep -m1 -E 'RIP: [0-9]{4}:' | sed 's/^\[[ 0-9.]*\] //; s/^RIP: [0-9]*://')
	echo "${oops}${rip:+ at ${rip}}" | cut -c1-200
}

# run_guest TREE RELEASE OUT: the kernel's matrix run. A guest that never
# reached init is an infrastructure failure, not a test result: it is
# booted once more under TCG. Writes OUT/boot (accelerator, the reason for
# it, and "booted" or "could not boot: WHY").
run_guest() {
	local tree=$1 release=$2 out=$3 rc=0 how=$accel why=$accel_why reason
	rm -rf "$out/results"
	mkdir -p "$out/results"
	boot_guest "$tree" "$release" "$out" "$how" "$guest_timeout" || rc=$?
	if ! grep -q "$init_marker" "$out/console.log"; then
		reason=$(boot_failure_reason "$out" "$rc" "$guest_timeout")
		log "$release: the guest never reached its init under $how: $reason; booting it once more under TCG"
		cp "$out/console.log" "$out/console.first.log"
		cp "$out/qemu.err" "$out/qemu.first.err"
		why="the $how boot never reached init ($reason); retried"
		how=TCG
		rc=0
		rm -rf "$out/results"
		mkdir -p "$out/results"
		boot_guest "$tree" "$release" "$out" TCG "$guest_timeout" || rc=$?
		if ! grep -q "$init_marker" "$out/console.log"; then
			reason=$(boot_failure_reason "$out" "$rc" "$guest_timeout")
			printf '%s\t%s\tcould not boot: %s\n' "$how" "$why" "$reason" >"$out/boot"
			return "$rc"
		fi
	fi
	# A panic is booted once more, with the same accelerator: once may be
	# the emulator; twice is the kernel (or benchcore), and fails the run.
	local oops oops2 note=
	oops=$(panic_line "$out/console.log")
	if [ -n "$oops" ]; then
		log "$release: the guest panicked under $how: $oops; booting it once more"
		cp "$out/console.log" "$out/console.panic.log"
		rc=0
		rm -rf "$out/results"
		mkdir -p "$out/results"
		boot_guest "$tree" "$release" "$out" "$how" "$guest_timeout" || rc=$?
		oops2=$(panic_line "$out/console.log")
		if [ -n "$oops2" ]; then
			printf '%s\t%s\tpanicked: twice under %s: %s (first boot: %s; console.panic.log)\n' \
				"$how" "$why" "$how" "$oops2" "$oops" >"$out/boot"
			return "$rc"
		fi
		note="the first boot panicked under $how ($oops; console.panic.log); the retry did not"
	fi
	printf '%s\t%s\tbooted\t%s\n' "$how" "$why" "$note" >"$out/boot"
	return "$rc"
}

# --- judging --------------------------------------------------------------

# One line per benchmark, tab-separated: name, state (ran, unavailable,
# failed), attach point or reason, first summary metric.
probe_table() {
	local res=$1 bench f rc detail metric state
	while IFS= read -r bench; do
		f=$res/probe/${bench/:/__}
		rc=$(cat "$f.rc" 2>/dev/null || echo missing)
		metric=$(jq -r '.summary // {} | to_entries | .[0] // empty |
			"\(.key) \(.value.mean // "-") \(.value.unit)"' "$f.json" 2>/dev/null |
			awk '$2 != "-" { $2 = sprintf("%.4g", $2) } { print }' || true)
		case $rc in
		0)
			state=ran
			detail=$(jq -r '.attach_point // "(no attach point)"' "$f.json" 2>/dev/null ||
				echo "(unreadable JSON)")
			;;
		3)
			state=unavailable
			detail=$(jq -r '.status.reason // empty' "$f.json" 2>/dev/null || true)
			[ -n "$detail" ] || detail=$(sed -n 's/.*unavailable on this kernel: //p' "$f.err" | head -n 1)
			;;
		124 | 137)
			state=failed
			detail="timed out after ${BENCHCORE_VMTEST_BENCH_TIMEOUT:-60} s"
			;;
		*)
			state=failed
			detail=$(jq -r '.status.reason // empty' "$f.json" 2>/dev/null || true)
			[ -n "$detail" ] || detail=$(grep -v 'warning:' "$f.err" 2>/dev/null | tail -n 1 || true)
			detail="exit status $rc: $detail"
			;;
		esac
		[ "$state" = ran ] || metric=
		# Tables are pasted into docs: no machine-specific paths.
		detail=${detail//$build/BUILD}
		printf '%s\t%s\t%s\t%s\n' "$bench" "$state" "${detail//$'\t'/ }" "$metric"
	done <"$res/benches"
}

# Is every named summary metric's mean > 0 in this benchmark's JSON?
metrics_positive() {
	local json=$1 m
	for m in ${2//,/ }; do
		jq -e --arg m "$m" '(.summary[$m].mean // 0) > 0' "$json" >/dev/null 2>&1 || return 1
	done
}

# Does the kernel have what a needs= list names? FEATURES holds the
# kernel's own answers ("NAME yes|no", tests/kernel_features); !NAME needs a
# "no". Returns 0 when every one holds; 1, printing the first that does
# not (NAME or !NAME); 2, printing why, when the file cannot say (missing,
# or no line for NAME: a typo must not pass as "does not hold").
needs_hold() {
	local features=$1 list=$2 f want have
	if [ ! -f "$features" ]; then
		echo "no kernel feature table (results/features)"
		return 2
	fi
	for f in ${list//,/ }; do
		want=yes
		if [ "${f:0:1}" = '!' ]; then
			want=no
			f=${f:1}
		fi
		have=$(awk -v f="$f" '$1 == f { print $2; exit }' "$features")
		if [ "$have" != yes ] && [ "$have" != no ]; then
			echo "the kernel feature table has no answer for '$f'"
			return 2
		fi
		if [ "$have" != "$want" ]; then
			[ "$want" = yes ] && echo "$f" || echo "!$f"
			return 1
		fi
	done
	return 0
}

# Checks an expectations file against a probe table and the kernel's
# feature table. Lines:
#   BENCH STATE PATTERN [needs=FEATURE[,!FEATURE...]] [positive=METRIC,...] [xfail WHY...]
# PATTERN is an extended regex on the attach point (ran) or the reason
# (!REGEX: must not match); needs= checks the line only where the kernel
# has each FEATURE (and lacks each !FEATURE), per FEATURES, and otherwise
# reports "skipped: needs X", which is no failure; positive= needs those
# summary means > 0; xfail marks a known failure. Prints "BENCH<TAB>verdict"
# lines.
check_expect() {
	local file=$1 table=$2 res=$3 features=$4 bench state pattern rest got detail positive
	local xfail verdict needs why rc
	while read -r bench state pattern rest; do
		case $bench in '' | '#'*) continue ;; esac
		needs=
		positive=
		xfail=
		case " $rest " in *" needs="*) needs=${rest#*needs=}; needs=${needs%% *} ;; esac
		case " $rest " in *" positive="*) positive=${rest#*positive=}; positive=${positive%% *} ;; esac
		case " $rest " in *" xfail"*) xfail=${rest#*xfail}; xfail=${xfail# } ;; esac
		if [ -n "$needs" ]; then
			rc=0
			why=$(needs_hold "$features" "$needs") || rc=$?
			if [ "$rc" = 1 ]; then
				printf '%s\tskipped: needs %s\n' "$bench" "$why"
				continue
			elif [ "$rc" != 0 ]; then
				printf '%s\tFAIL: needs=%s: %s\n' "$bench" "$needs" "$why"
				continue
			fi
		fi
		got=$(awk -F'\t' -v b="$bench" '$1 == b { print $2 "\t" $3 }' "$table")
		detail=${got#*$'\t'}
		if [ -z "$got" ]; then
			verdict="missing from benchcore list"
		elif [ "${pattern:0:1}" = '!' ] && [[ $detail =~ ${pattern:1} ]]; then
			verdict="want $state, not /${pattern:1}/"
		elif [ "${got%%$'\t'*}" != "$state" ] ||
			{ [ "${pattern:0:1}" != '!' ] && ! [[ $detail =~ $pattern ]]; }; then
			verdict="want $state /$pattern/"
		elif [ -n "$positive" ] && ! metrics_positive "$res/probe/${bench/:/__}.json" "$positive"; then
			verdict="want $positive > 0"
		else
			verdict=ok
		fi
		if [ -n "$xfail" ] && [ "$verdict" = ok ]; then
			verdict="XPASS (remove the xfail mark): $xfail"
		elif [ -n "$xfail" ]; then
			verdict="xfail ($verdict): $xfail"
		elif [ "$verdict" != ok ]; then
			verdict="FAIL: $verdict"
		fi
		printf '%s\t%s\n' "$bench" "$verdict"
	done <"$file"
}

md_escape() { sed 's/|/\\|/g'; }

# table.md for one kernel; returns 1 if anything failed.
judge() {
	local name=$1 out=$2 how=$3 res=$2/results bad=0 key expect verdicts ctest_rc
	local bench state detail metric verdict reasons=() failed_benches=()
	# One line for the test command's table: why this kernel failed.
	rm -f "$out/reason"
	{
		echo "# $name ($how)"
		echo
	} >"$out/table.md"
	if [ ! -e "$res/done" ]; then
		echo "**the run did not finish** (console: console.log)" >>"$out/table.md"
		bad=1
		reasons+=("the run in the guest did not finish (console.log: $(tr -d '\r' <"$out/console.log" 2>/dev/null |
			grep -v '^[[:space:]]*$' | tail -n 1 | cut -c1-100))")
	fi
	if [ ! -e "$res/benches" ]; then
		printf '%s\n' "${reasons[*]:-no benchmark list was written}" >"$out/reason"
		return 1
	fi

	probe_table "$res" >"$out/probe.tsv"
	key=host
	if [ "$name" != host ]; then
		key=$(cut -d. -f1-2 <<<"$name")
	fi
	expect=$src/tests/vmtest/expect/$key
	verdicts=$out/verdicts.tsv
	: >"$verdicts"
	[ -f "$expect" ] && check_expect "$expect" "$out/probe.tsv" "$res" "$res/features" >"$verdicts"

	if [ -e "$res/ctest.rc" ]; then
		ctest_rc=$(cat "$res/ctest.rc")
		if [ "$ctest_rc" = 0 ]; then
			echo "ctest -L bpf: passed (all $(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$res/ctest.log" | head -n 1) tests)" >>"$out/table.md"
		else
			bad=1
			detail=$(sed -n '/tests FAILED:/,$p' "$res/ctest.log" |
				sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\).*/\1/p' | paste -sd ' ')
			echo "ctest -L bpf: **FAILED** (exit status $ctest_rc): $detail" >>"$out/table.md"
			reasons+=("ctest -L bpf failed: ${detail:-exit status $ctest_rc}")
		fi
	fi
	# Where the guest's time went (README's cost table comes from these).
	echo "cost inside: boot $(cat "$res/uptime.start" 2>/dev/null || echo -) s (guest only)," \
		"list $(cat "$res/list.sec" 2>/dev/null || echo -) s," \
		"probes $(cat "$res"/probe/*.sec 2>/dev/null | awk '{ t += $1 } END { printf "%.0f", t }') s," \
		"ctest $(cat "$res/ctest.sec" 2>/dev/null || echo -) s" >>"$out/table.md"
	# The kernel's own answers, which the expectations' needs= are read
	# against. The host's file is checked on any host build, so it must
	# have them: without, nothing says which of its lines apply.
	if [ -s "$res/features" ]; then
		echo "kernel features (tests/kernel_features): $(awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }' "$res/features")" >>"$out/table.md"
	else
		echo "kernel features: **missing** (tests/kernel_features did not run; results/features.err)" >>"$out/table.md"
		if [ "$name" = host ]; then
			bad=1
			reasons+=("no kernel feature table (results/features): the host's expectations cannot be checked")
		fi
	fi
	if [ -f "$expect" ]; then
		echo "expectations: tests/vmtest/expect/$key" >>"$out/table.md"
	else
		echo "expectations: none for $key (only: no benchmark may fail)" >>"$out/table.md"
	fi
	if [ -s "$res/dmesg" ] && grep -Eq 'WARNING:|BUG:|Oops|Call Trace' "$res/dmesg"; then
		echo "kernel log: **warnings** (results/dmesg): $(grep -Em1 'WARNING:|BUG:|Oops' "$res/dmesg" | md_escape)" >>"$out/table.md"
	fi
	{
		echo
		echo "| benchmark | result | first metric (one ${BENCHCORE_VMTEST_DURATION:-0.5} s run; in a guest emulated: not a speed) | expected |"
		echo "|---|---|---|---|"
	} >>"$out/table.md"
	while IFS=$'\t' read -r bench state detail metric; do
		# A benchmark may have a line per kind of kernel (needs=fentry,
		# needs=!fentry): the one checked here speaks, a failure first.
		verdict=$(awk -F'\t' -v b="$bench" '$1 == b && (v == "" || v ~ /^skipped/ || $2 ~ /^FAIL/) { v = $2 }
			END { print v }' "$verdicts")
		case $verdict in
		FAIL*) bad=1 failed_benches+=("$bench (${verdict#FAIL: })") ;;
		xfail* | XPASS*) ;;
		*) [ "$state" = failed ] && bad=1 failed_benches+=("$bench (${detail:0:60})") ;;
		esac
		case $state in
		ran) [[ $detail =~ ^\( ]] && detail="ran $detail" || detail="ran at $detail" ;;
		*) detail="$state: $detail" ;;
		esac
		detail=${detail//|/\\|}
		printf '| %s | %s | %s | %s |\n' "$bench" "$detail" "${metric:--}" "${verdict//|/\\|}"
	done <"$out/probe.tsv" >>"$out/table.md"
	if [ "${#failed_benches[@]}" -gt 0 ]; then
		reasons+=("${#failed_benches[@]} benchmark(s) failed: ${failed_benches[*]:0:3}")
	fi
	[ "${#reasons[@]}" -gt 0 ] && (IFS=';'; echo "${reasons[*]}" | sed 's/;/; /g') >"$out/reason"
	return "$bad"
}

# matrix.md: one column per kernel, one short cell per benchmark.
write_matrix() {
	local names=("$@") bench n cell field
	{
		echo "| benchmark |$(printf ' %s |' "${names[@]}")"
		echo "|---|$(printf -- '---|%.0s' "${names[@]}")"
		# How each column ran, why that way (the accelerator probe), and
		# what it concluded: summary.tsv's second and third fields.
		for field in 2:accelerator 3:verdict; do
			printf '| (%s) |' "${field#*:}"
			for n in "${names[@]}"; do
				cell=$(awk -F'\t' -v n="$n" -v f="${field%%:*}" '$1 == n { print $f }' "$vm/summary.tsv")
				printf ' %s |' "${cell:-?}"
			done
			echo
		done | sed 's/\([^ ]\)|\([^ ]\)/\1\\|\2/g'
		while IFS= read -r bench; do
			printf '| %s |' "$bench"
			for n in "${names[@]}"; do
				cell=$(awk -F'\t' -v b="$bench" '$1 == b {
					if ($2 == "ran") print $3; else print $2 ": " substr($3, 1, 60) }' \
					"$vm/$n/probe.tsv" 2>/dev/null)
				printf ' %s |' "${cell:-?}"
			done
			echo
		done < <(cat "$vm/${names[0]}/results/benches" 2>/dev/null)
	} >"$vm/matrix.md"
}

# --- main -----------------------------------------------------------------

# Everything runs from functions: bash reads a script as it goes, so an edit
# to this file during a 30-minute run would otherwise break its ending.
main() {
	local report_only=0 opt k t0 t1 t2 t3 out pkg tree release rc how n failed names
	local kernel_bad used used_why booted verdict reason note
	while getopts "b:t:rh" opt; do
		case $opt in
		b) build=$OPTARG ;;
		r) report_only=1 ;;
		t) guest_timeout=$OPTARG ;;
		h) usage 0 ;;
		*) usage 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	accel_mode=${BENCHCORE_VMTEST_ACCEL:-auto}
	tcg_thread=${BENCHCORE_VMTEST_TCG_THREAD:-single}
	case $tcg_thread in
	single | multi) ;;
	*)
		echo "vmtest: BENCHCORE_VMTEST_TCG_THREAD '$tcg_thread': expected single or multi" >&2
		exit 2
		;;
	esac
	case $accel_mode in
	auto | kvm | tcg) ;;
	*)
		echo "vmtest: BENCHCORE_VMTEST_ACCEL '$accel_mode': expected auto, kvm or tcg" >&2
		exit 2
		;;
	esac

	if [ ! -x "$build/benchcore" ]; then
		echo "vmtest: no benchcore in '$build': build first (scripts/build.sh $build)" >&2
		exit 2
	fi
	build=$(cd "$build" && pwd)
	vm=$build/vmtest
	mkdir -p "$vm/cache" "$vm/kernels"
	install_packages

	if [ "$#" -eq 0 ]; then
		set -- host linux-image-amd64 linux-image-6.12-amd64
	fi

	failed=0
	names=()
	: >"$vm/summary.tsv"
	# Prepare every guest (download, unpack, initramfs) and choose the
	# accelerator once; then boot the guests, several at a time where each
	# costs one host CPU (single-threaded TCG); then judge in order.
	local -a kinds=() pkgs=() trees=() releases=() t_prep=() t_accel=()
	local i jobs running=0 pids=()
	for k in "$@"; do
		t0=$SECONDS
		if [ "$k" = host ]; then
			kinds+=(host) pkgs+=(-) trees+=(-) releases+=(host) t_prep+=(0) t_accel+=(0)
			continue
		fi
		case $k in
		linux-image-*) pkg=$(resolve_package "$k") ;;
		*) pkg=$(resolve_package "linux-image-$k") ;;
		esac
		tree=$(fetch_kernel "$pkg")
		release=$(find "$tree/boot" -maxdepth 1 -name 'vmlinuz-*' -printf '%f\n' | sed 's/^vmlinuz-//' | head -n 1)
		out=$vm/$release
		mkdir -p "$out"
		t1=$SECONDS
		t2=$SECONDS
		t3=$SECONDS
		if [ "$report_only" = 0 ]; then
			make_initramfs "$tree" "$release" "$out/initramfs.cpio.gz"
			t2=$SECONDS
			choose_accel "$tree" "$release" "$out"
			t3=$SECONDS
		fi
		kinds+=(guest) pkgs+=("$pkg") trees+=("$tree") releases+=("$release")
		t_prep+=("$((t1 - t0)) $((t2 - t1))") t_accel+=($((t3 - t2)))
	done

	# The host's column first, natively, alone: it measures for real.
	for i in "${!kinds[@]}"; do
		[ "${kinds[$i]}" = host ] && [ "$report_only" = 0 ] || continue
		t0=$SECONDS
		out=$vm/host
		rm -rf "$out/results"
		mkdir -p "$out/results"
		log "host ($(uname -r)): probing natively"
		"$src/scripts/vmtest-guest.sh" probe "$build" "$out/results" >"$out/console.log" 2>&1 || true
		log "host: probe $((SECONDS - t0)) s"
		echo "probe $((SECONDS - t0)) s" >"$out/cost"
	done

	# Under single-threaded TCG a guest keeps one host CPU busy, so as many
	# run at once as the host has CPUs (BENCHCORE_VMTEST_JOBS overrides);
	# a KVM guest keeps two, so those run one by one.
	if [ "$accel" = TCG ] && [ "$tcg_thread" = single ]; then
		jobs=${BENCHCORE_VMTEST_JOBS:-$(nproc)}
	else
		jobs=${BENCHCORE_VMTEST_JOBS:-1}
	fi
	for i in "${!kinds[@]}"; do
		[ "${kinds[$i]}" = guest ] && [ "$report_only" = 0 ] || continue
		while [ "$running" -ge "$jobs" ]; do
			wait -n || true
			running=$((running - 1))
		done
		release=${releases[$i]}
		out=$vm/$release
		log "$release: booting ($accel, timeout $guest_timeout s)"
		(
			t3=$SECONDS rc=0
			run_guest "${trees[$i]}" "$release" "$out" || rc=$?
			echo "$rc $guest_timeout" >"$out/qemu.rc"
			read -r fetch initrd <<<"${t_prep[$i]}"
			log "$release: fetch+unpack $fetch s, initramfs $initrd s," \
				"accelerator probe ${t_accel[$i]} s, boot+tests $((SECONDS - t3)) s"
			printf 'fetch+unpack %s s, initramfs %s s, accelerator probe %s s, boot+tests %s s\n' \
				"$fetch" "$initrd" "${t_accel[$i]}" $((SECONDS - t3)) >"$out/cost"
		) &
		pids+=($!)
		running=$((running + 1))
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || true
	done

	for i in "${!kinds[@]}"; do
		if [ "${kinds[$i]}" = host ]; then
			out=$vm/host
			names+=(host)
			verdict=passed
			judge host "$out" "the running kernel, $(cat "$out/results/kernel" 2>/dev/null), natively" ||
				{ failed=1; verdict=failed; }
			printf 'host\tnative\t%s\t%s\n' "$verdict" "$(cat "$out/reason" 2>/dev/null)" >>"$vm/summary.tsv"
			continue
		fi
		pkg=${pkgs[$i]}
		release=${releases[$i]}
		out=$vm/$release
		names+=("$release")
		read -r rc how <"$out/qemu.rc"
		note=
		IFS=$'\t' read -r used used_why booted note <"$out/boot"
		kernel_bad=0
		verdict=passed
		reason=
		if [ "${booted%%:*}" = panicked ]; then
			how="$pkg under QEMU/$used ($used_why), **$booted**"
			verdict=panicked
			reason=${booted#panicked: }
			kernel_bad=1
		elif [ "$booted" != booted ]; then
			# Infrastructure, not a test result: say so, and fail the
			# run, since the kernel's tests did not run at all.
			how="$pkg under QEMU/$used ($used_why), **$booted**"
			verdict="could not boot"
			reason=${booted#could not boot: }
			kernel_bad=1
		elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			how="$pkg under QEMU/$used ($used_why), **hung: killed after $how s**"
			verdict=hung
			reason="killed after $how s"
			kernel_bad=1
		else
			how="$pkg under QEMU/$used ($used_why)"
		fi
		echo "$used: $used_why" >"$out/accel"
		[ -z "$note" ] || how="$how; $note"
		judge "$release" "$out" "$how" || { [ "$verdict" = passed ] && verdict=failed; kernel_bad=1; }
		[ -n "$reason" ] || reason=$(cat "$out/reason" 2>/dev/null || true)
		# A retry that passed is still said: the first boot's panic.
		[ -z "$note" ] || reason="${reason:+$reason; }$note"
		[ "$kernel_bad" = 0 ] || failed=1
		printf '%s\t%s\t%s\t%s\n' "$release" "$used ($used_why)" "$verdict" "$reason" >>"$vm/summary.tsv"
	done

	write_matrix "${names[@]}"
	for n in "${names[@]}"; do
		echo
		awk 'NR > 2 && /^$/ { exit } NR > 2' "$vm/$n/table.md" | sed "s/^/$n: /"
		# Known failures are counted, not repeated: the table has them.
		echo "$n: $(grep -c '| xfail (' "$vm/$n/table.md" || true) known failures (xfail)"
		# Per line of the expectations file: a line whose needs= do not
		# hold on this kernel is skipped, not failed.
		echo "$n: expectations: $(grep -c $'\tok$' "$vm/$n/verdicts.tsv" 2>/dev/null || true) ok," \
			"$(grep -c $'\tskipped: needs' "$vm/$n/verdicts.tsv" 2>/dev/null || true) skipped (needs= does not hold here)"
		grep -E '^\| [^|]* \| failed:|\| (FAIL|XPASS)' "$vm/$n/table.md" | sed "s/^/$n: /" || true
	done
	echo
	while IFS=$'\t' read -r n used verdict reason; do
		echo "vmtest: $n: $verdict${reason:+: $reason} [$used]"
	done <"$vm/summary.tsv"
	echo "vmtest: tables in $vm/*/table.md, side by side in $vm/matrix.md"
	if [ "$failed" != 0 ]; then
		echo "vmtest: FAILED" >&2
		exit 1
	fi
	echo "vmtest: passed"
}

main "$@"
