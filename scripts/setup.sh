#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Makes a fresh Debian 12 machine (as root) ready to build and run benchcore:
# installs whatever of the build and BPF toolchain is missing, and mounts
# tracefs, which tracepoint-attached benchmarks need. Safe to run again.
#
#   scripts/setup.sh [--browser] [--readers]
#
# --browser also installs Debian's chromium, which the report's browser test
# (tests/store/report_browser.sh) loads the generated site in; best effort:
# without it (no network, another distribution) that test skips and says why.
# --readers also installs other tools' readers of benchcore's exports:
# Google Benchmark's compare.py (libbenchmark-tools) with the scipy it
# imports, and python3-jsonschema for the Bencher Metric Format's schema
# (tests/store/export_formats.sh); best effort, as --browser.
set -euo pipefail

browser=false
readers=false
for arg in "$@"; do
	case $arg in
	--browser) browser=true ;;
	--readers) readers=true ;;
	*) echo "setup: unknown argument '$arg'; expected --browser or --readers" >&2; exit 2 ;;
	esac
done

# libpq-dev: a team's shared store on PostgreSQL (required to build);
# postgresql: the server the store tests start a throwaway cluster of
# (tests/store/pg_cluster.sh). Debian's postinst may start a cluster of its
# own; nothing here uses it. busybox-static, cpio and kmod make benchcore
# vm's initramfs (tests/vm checks its refusals without booting); QEMU itself
# comes with the kernel matrix (scripts/vmtest.sh), which boots.
PACKAGES=(build-essential cmake pkg-config clang llvm libbpf-dev bpftool
	  libelf-dev zlib1g-dev libcmocka-dev libjansson-dev libsqlite3-dev
	  libpq-dev postgresql busybox-static cpio kmod xz-utils)

missing=()
for pkg in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$pkg")
done

if [ "${#missing[@]}" -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: missing packages: ${missing[*]}; run as root or: sudo apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "setup: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null || apt-get update
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		apt-get install -y --no-install-recommends "${missing[@]}"
fi

# benchcore mounts it on demand too; doing it here keeps the demo quiet.
if [ "$(id -u)" -eq 0 ] && ! grep -q " /sys/kernel/tracing tracefs " /proc/mounts; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		echo "setup: could not mount tracefs at /sys/kernel/tracing; tracepoint benchmarks will fall back or report unavailable" >&2
fi

if $browser && ! command -v chromium >/dev/null 2>&1; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup: chromium is not installed; the browser test will skip (as root: apt-get install chromium)" >&2
	else
		echo "setup: installing chromium (for the report's browser test)" >&2
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 &&
			  apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; }; } ||
			echo "setup: could not install chromium; the browser test will skip" >&2
	fi
fi

# Best effort, one package at a time: a missing one costs its test a skip.
if $readers; then
	for pkg in libbenchmark-tools python3-scipy python3-jsonschema; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" &&
			continue
		if [ "$(id -u)" -ne 0 ]; then
			echo "setup: $pkg is not installed; the export tests that need it will skip (as root: apt-get install $pkg)" >&2
			continue
		fi
		echo "setup: installing $pkg (for the export tests)" >&2
		export DEBIAN_FRONTEND=noninteractive
		{ apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 &&
			  apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null 2>&1; }; } ||
			echo "setup: could not install $pkg; the export tests that need it will skip" >&2
	done
fi
