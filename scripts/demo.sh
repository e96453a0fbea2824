#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Sets everything up, builds, and runs a short demo of real benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
cd build

run() {
	echo
	echo "\$ $*"
	"$@" || echo "(exit status $?)"
}

run ./benchcore --plugin-dir ./plugins list
run ./benchcore run count:count-local -p2 -w1 -d3
for bench in ringbuf:rb-libbpf ringbuf:rb-custom perfbuf:pb-libbpf perfbuf:pb-custom; do
	[ -e "plugins/${bench%%:*}.so" ] && run ./benchcore run "$bench" -w1 -d3
done
if [ -e plugins/trigger.so ]; then
	run ./benchcore run trigger:trig-tp -w1 -d3
	run ./benchcore run trigger:trig-fentry -w1 -d3
fi
if [ -e plugins/local_storage.so ]; then
	run ./benchcore run local_storage:local-storage-cache-seq-get --nr_maps 16 -w1 -d3
fi
# What a rate alone does not say: time inside the BPF program, and a picture.
if [ -e plugins/trigger.so ]; then
	run ./benchcore run trigger:trig-rawtp -w1 -d3 --bpf-stats
fi
if [ -e plugins/hashmap.so ]; then
	run ./benchcore run hashmap:bpf-hashmap-lookup -w1 -d3
fi
run ./benchcore run count:count-local -w0 -d1 --sweep producers=1,2 --format json \
	--output demo-sweep.json
run ./benchcore plot demo-sweep.json -o demo-sweep.svg
