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
# console.log, kernel/ (the image, its config and initramfs.cpio.gz), results/
# (what the guest wrote through its writable share). matrix.md puts all kernels side by side. Expectations per
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
# (single or multi: TCG's threading, default single; see vm/boot.sh's
# bcvm_boot). Booting is vm/boot.sh's, the code `benchcore vm` runs.
#
# A guest that panics (its console shows "Kernel panic") is booted once more
# with the same accelerator; its oops line, the accelerator and whether the
# retry passed are reported. A panic that repeats fails the run ("panicked").
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
# The boot code `benchcore vm` runs: images, initramfs, 9p, accelerator,
# panics and retries (vm/boot.sh).
bcvm_tag=vmtest
# shellcheck source=vm/boot.sh source-path=SCRIPTDIR/..
. "$src/vm/boot.sh"
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

# Downloads the .deb once into the cache and unpacks it once (vm/boot.sh's
# bcvm_unpack_deb, the same as `benchcore vm --kernel X.deb`); prints the
# tree.
fetch_kernel() {
	local pkg=$1 deb tree=$vm/kernels/$1 msg
	deb=$(find "$vm/cache" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
	if [ -z "$deb" ]; then
		log "$pkg: apt-get download"
		(cd "$vm/cache" && apt-get download -qq "$pkg" >/dev/null 2>&1) ||
			(cd "$vm/cache" && apt-get download "$pkg")
		deb=$(find "$vm/cache" -maxdepth 1 -name "${pkg}_*.deb" | head -n 1)
	fi
	if ! msg=$(bcvm_unpack_deb "$deb" "$tree"); then
		log "$msg"
		exit 1
	fi
	echo "$tree"
}

# --- booting: vm/boot.sh, shared with `benchcore vm` -------------------------

# The image, its modules and config, and the initramfs, in OUT/kernel.
prepare_kernel() {
	local tree=$1 release=$2 out=$3 msg
	if ! msg=$(bcvm_prepare "$out/kernel" --image "$tree/boot/vmlinuz-$release" \
		--release "$release" --modules "$(bcvm_moddir "$tree" "$release")" \
		--config "$tree/boot/config-$release"); then
		log "$release: $msg"
		exit 1
	fi
}

# Sets accel and accel_why once: the accelerator the guests boot with and
# why (vm/boot.sh's bcvm_choose_accel: a probe boot decides).
accel=
accel_why=
choose_accel() {
	local out=$1 t0=$SECONDS
	[ -n "$accel" ] && return 0
	if ! bcvm_choose_accel "$accel_mode" "$out/kernel" "$out/accel-probe"; then
		log "BENCHCORE_VMTEST_ACCEL=kvm, but $bcvm_accel_why"
		exit 1
	fi
	accel=$bcvm_accel
	accel_why=$bcvm_accel_why
	[ "$accel_mode" = tcg ] && accel_why="BENCHCORE_VMTEST_ACCEL=tcg"
	log "accelerator: $accel ($accel_why; probe $((SECONDS - t0)) s)"
	echo "$accel	$accel_why	$((SECONDS - t0))" >"$vm/accel"
}

# run_guest RELEASE OUT: the kernel's matrix run (vm/boot.sh retries a
# guest that never reached init, and one that panicked). The guest runs
# scripts/vmtest-guest.sh with the build tree as its writable share; OUT/boot
# says how it went.
run_guest() {
	local release=$1 out=$2
	{
		echo "hold $src"
		echo "arg $src/scripts/vmtest-guest.sh"
		echo "arg all"
		echo "arg $build"
		echo "arg $out/results"
	} >"$out/guest.cmd"
	bcvm_run_guest "$out/kernel" "$out" "$accel" "$accel_why" "$guest_timeout" "$build" \
		"$out/guest.cmd" "$out/results"
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

# The benchmarks whose programs --all row says "failed" (the CSV's second
# column; names hold no commas), or the command's exit status.
programs_failed() {
	local names
	names=$(awk -F, 'NR > 1 && $2 == "failed" { print $1 }' "$1/programs.csv" 2>/dev/null | sort -u | paste -sd ' ')
	echo "${names:-exit status $(cat "$1/programs.rc")}"
}

# One line on programs --all: how many programs of how many benchmarks
# loaded, what was unavailable or needed options. Returns 1 when it failed:
# a non-zero exit, a "failed" row, or nothing loaded at all.
programs_line() {
	local res=$1 rc ok benches unavail usage
	rc=$(cat "$res/programs.rc")
	ok=$(awk -F, 'NR > 1 && $2 == "ok"' "$res/programs.csv" 2>/dev/null | wc -l)
	benches=$(awk -F, 'NR > 1 && $2 == "ok" { print $1 }' "$res/programs.csv" 2>/dev/null | sort -u | wc -l)
	unavail=$(awk -F, 'NR > 1 && $2 == "unavailable" { print $1 }' "$res/programs.csv" 2>/dev/null | sort -u | wc -l)
	usage=$(awk -F, 'NR > 1 && $2 == "usage error" { print $1 }' "$res/programs.csv" 2>/dev/null | sort -u | wc -l)
	if [ "$rc" != 0 ] || [ "$ok" = 0 ] ||
		awk -F, 'NR > 1 && $2 == "failed" { bad = 1 } END { exit !bad }' "$res/programs.csv" 2>/dev/null; then
		echo "programs --all: **FAILED** (exit status $rc): $(programs_failed "$res") (results/programs.csv, programs.err)"
		return 1
	fi
	echo "programs --all: $ok programs of $benches benchmarks loaded ($unavail unavailable here, $usage need options; results/programs.csv)"
}

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
			# What each failed case said, under the line: CI keeps only
			# the end of the output, and the guest's log is gone with it.
			"$src/scripts/ctest-failures.sh" "$res/ctest.log" | md_escape >>"$out/table.md"
			reasons+=("ctest -L bpf failed: ${detail:-exit status $ctest_rc}")
		fi
	fi
	if [ -e "$res/programs.rc" ] && ! programs_line "$res" >>"$out/table.md"; then
		bad=1
		reasons+=("programs --all failed: $(programs_failed "$res")")
	fi
	# Where the guest's time went (README's cost table comes from these).
	# The host's uptime is not a boot that this run paid for.
	local boot=-
	[ "$name" = host ] || boot=$(cat "$res/uptime.start" 2>/dev/null || echo -)
	echo "cost inside: boot $boot s (guest only)," \
		"list $(cat "$res/list.sec" 2>/dev/null || echo -) s," \
		"probes $(cat "$res"/probe/*.sec 2>/dev/null | awk '{ t += $1 } END { printf "%.0f", t }') s," \
		"programs $(cat "$res/programs.sec" 2>/dev/null || echo -) s," \
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

# `benchcore vm`'s flow through the matrix's own boots: every kernel ran
# vm/guest.sh (scripts/vmtest-guest.sh) on count-local and trig-tp; their
# directories are collected here as `benchcore vm` collects a guest's
# (`benchcore vm --collect`), into a scratch store, and `history --by kernel`
# must then show every kernel, each guest marked by its accelerator. Writes
# BUILD/vmtest/vm-flow.txt and a summary.tsv line; returns 1 on a fault.
vm_flow() {
	local names=("$@") n b res store=$vm/vm-flow.db want used faults=() hist
	rm -f "$store" "$store-journal"
	for n in "${names[@]}"; do
		for b in count-local trig-tp; do
			res=$vm/$n/results/vm/$b/out
			# a guest that did not get this far was judged above already
			[ -d "$res" ] || { faults+=("$n: no $b run"); continue; }
			"$build/benchcore" vm --collect "$res" --save --store "$store" >"$res/collect.log" 2>&1 ||
				faults+=("$n: vm --collect $b: $(grep -m1 'benchcore: vm' "$res/collect.log" || tail -n 1 "$res/collect.log")")
		done
	done
	"$build/benchcore" history count:count-local --by kernel --store "$store" \
		>"$vm/vm-flow.txt" 2>&1 || true
	hist=$("$build/benchcore" history count:count-local --by kernel --store "$store" --format json 2>/dev/null |
		jq -r '.groups[].group' 2>/dev/null || true)
	for n in "${names[@]}"; do
		if [ "$n" = host ]; then
			want=$(cat "$vm/host/results/kernel" 2>/dev/null || echo "?")
		else
			used=$(cut -f1 "$vm/$n/boot" 2>/dev/null || echo "?")
			want="$n [$(tr '[:upper:]' '[:lower:]' <<<"$used")]"
		fi
		grep -qxF "$want" <<<"$hist" || faults+=("history --by kernel has no group '$want'")
	done
	if [ "${#faults[@]}" -gt 0 ]; then
		printf 'benchcore vm\t-\tfailed\t%s\n' "$(IFS=';'; echo "${faults[*]}" | sed 's/;/; /g')" >>"$vm/summary.tsv"
		return 1
	fi
	printf 'benchcore vm\t-\tpassed\thistory --by kernel: %s\n' "$(paste -sd, <<<"$hist" | sed 's/,/, /g')" \
		>>"$vm/summary.tsv"
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
	# vm/boot.sh's names for what the matrix has always called these
	export BENCHCORE_VM_MEM=${BENCHCORE_VMTEST_MEM:-2G}
	export BENCHCORE_VM_PROBE_TIMEOUT=${BENCHCORE_VMTEST_PROBE_TIMEOUT:-45}
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
			prepare_kernel "$tree" "$release" "$out"
			t2=$SECONDS
			choose_accel "$out"
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
			run_guest "$release" "$out" || rc=$?
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
	vm_flow "${names[@]}" || failed=1
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
