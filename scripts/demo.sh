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
# Results that outlive the terminal (docs/history.md): two runs saved in a
# store of the build directory, the second judged against the first, their
# history, and the report as a static site to open in a browser.
rm -f demo-results.db
run ./benchcore run count:count-local -w0 -d3 --save --store demo-results.db --label baseline
run ./benchcore run count:count-local -w0 -d3 --save --store demo-results.db --label patch-v2 \
	--against baseline
run ./benchcore history count:count-local --store demo-results.db --by label
run ./benchcore report --store demo-results.db -o demo-report
echo
echo "open build/demo-report/index.html in a browser"
