#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Makes a fresh Debian 12 machine (as root) ready to build and run benchcore:
# installs whatever of the build and BPF toolchain is missing, and mounts
# tracefs, which tracepoint-attached benchmarks need. Safe to run again.
set -euo pipefail

PACKAGES=(build-essential cmake pkg-config clang llvm libbpf-dev bpftool
	  libelf-dev zlib1g-dev libcmocka-dev libjansson-dev)

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
