#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# store export in the formats other tools read, read back by what reads
# them. A store is made from synthetic run documents (no benchmark runs):
# three benchmarks labelled "base", the same three labelled "new" with the
# second 10% slower, and one entry whose headline is no rate or time.
#
#   export_formats.sh BENCHCORE WORK_DIR gbench
#     Google Benchmark's JSON: two exports (base, new) have the shape
#     compare.py reads (every row's real_time, cpu_time and time_unit, the
#     aggregates, the unit in the label, the interval as counters), then
#     Debian's compare.py (libbenchmark-tools) compares them and prints its
#     table, the slower benchmark about +11% in time. Skips (77), saying
#     why, without compare.py or scipy.
#   export_formats.sh BENCHCORE WORK_DIR bmf
#     The Bencher Metric Format: the export is valid against BMF's
#     published JSON schema (checked by hand, and by python3-jsonschema
#     where it is installed), each measure named with its unit and carrying
#     its interval around its value.
set -uo pipefail

bc=${1:?usage: export_formats.sh BENCHCORE WORK_DIR gbench|bmf}
work=${2:?}
mode=${3:?}

skip() {
	echo "SKIP: $*"
	exit 77
}
fail() {
	echo "FAIL: $*"
	exit 1
}
# A python3 that imports $1: Debian's python3 has Debian's modules, another
# python3 first in PATH may not. Empty when none does.
python_with() {
	local p
	for p in python3 /usr/bin/python3; do
		if command -v "$p" >/dev/null 2>&1 && "$p" -c "import $1" 2>/dev/null; then
			echo "$p"
			return
		fi
	done
}

command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (it writes the documents and reads the exports)"
rm -rf "$work"
mkdir -p "$work" || exit 1
store=$work/results.db

python3 - "$work" <<'EOF' || fail "could not write the documents"
import json, math, random, sys

work = sys.argv[1]


def doc(bench, level, seconds, date, seed, unit="ops/s", kind="counter", role="hits"):
    rnd = random.Random(seed)
    vals = [level * (1 + 0.01 * rnd.gauss(0, 1)) for _ in range(seconds)]
    mean = sum(vals) / seconds
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (seconds - 1))
    return {
        "benchcore_version": "0.1.0",
        "context": {"date": date, "host": "ci-a", "kernel_release": "6.18.0",
                    "kernel_version": "#1", "cpu_model": "Synthetic CPU", "cpu_count": 2,
                    "hypervisor": True},
        "plugin": {"name": "synth", "version": "1.0"},
        "benchmark": bench,
        "config": {"producers": 1, "duration_sec": seconds,
                   "plugin_options": {"batch": 8}},
        "metrics": [{"name": "hits", "unit": unit.split("/")[0], "kind": kind, "role": role}],
        "iterations": [{"index": i, "warmup": False, "values": {"hits": v}}
                       for i, v in enumerate(vals)],
        "summary": {"hits": {"unit": unit, "mean": mean, "stddev": sd, "n": seconds}},
        "status": {"exit_status": 0},
    }


for label, slow in (("base", 1.0), ("new", 1.1)):
    docs = [doc("one", 2e6, 10, "2026-11-01T00:00:0%dZ" % (label == "new"), 1 + slow),
            doc("two", 5e5 / slow, 10, "2026-11-01T00:01:0%dZ" % (label == "new"), 3 + slow),
            doc("three", 8e7, 10, "2026-11-01T00:02:0%dZ" % (label == "new"), 5 + slow)]
    json.dump(docs, open("%s/%s.json" % (work, label), "w"))
# a headline that is a share, not a rate or a time
odd = doc("share", 40, 10, "2026-11-01T00:03:00Z", 9, unit="%", kind="ratio", role="hits")
json.dump(odd, open("%s/odd.json" % work, "w"))
EOF

"$bc" store import --store "$store" --label base "$work/base.json" || fail "import base"
"$bc" store import --store "$store" --label new "$work/new.json" || fail "import new"

case $mode in
gbench)
	"$bc" store export --store "$store" --label base --format gbench -o "$work/A.json" ||
		fail "export --format gbench (base)"
	"$bc" store export --store "$store" --label new --format gbench -o "$work/B.json" ||
		fail "export --format gbench (new)"
	# a headline that is no time: that configuration is left out, said once
	"$bc" store import --store "$store" --label odd "$work/odd.json" || fail "import odd"
	"$bc" store export --store "$store" --label odd --format gbench -o "$work/odd-gb.json" \
		2>"$work/odd.err" && fail "a store of no time exported to gbench"
	grep -q "is neither a rate nor a time" "$work/odd.err" || fail "odd: $(cat "$work/odd.err")"
	[ ! -e "$work/odd-gb.json" ] || fail "a failed export left $work/odd-gb.json"
	python3 - "$work/A.json" "$work/B.json" <<'EOF' || exit 1
import json, sys

bad = []
for path in sys.argv[1:]:
    d = json.load(open(path))
    rows = d["benchmarks"]
    names = sorted({r["run_name"] for r in rows})
    if names != ["synth:one/producers:1/batch:8", "synth:three/producers:1/batch:8",
                 "synth:two/producers:1/batch:8"]:
        bad.append("%s: benchmarks %s" % (path, names))
    for r in rows:
        for k in ("name", "run_name", "run_type", "repetitions", "threads", "iterations",
                  "real_time", "cpu_time", "time_unit"):
            if k not in r:
                bad.append("%s: %s lacks %s" % (path, r.get("name"), k))
        if r["time_unit"] not in ("ns", "us", "ms", "s"):
            bad.append("%s: time_unit %s" % (path, r["time_unit"]))
        if "hits in ops/s" not in r.get("label", ""):
            bad.append("%s: %s: label %r does not say the unit" % (path, r["name"], r.get("label")))
        if r["run_type"] == "iteration" and not r["items_per_second"] > 0:
            bad.append("%s: %s: no items_per_second" % (path, r["name"]))
    means = [r for r in rows if r.get("aggregate_name") == "mean"]
    if len(means) != 3:
        bad.append("%s: %d mean aggregates" % (path, len(means)))
    for m in means:
        if not m["ci95_lower"] < m["real_time"] < m["ci95_upper"]:
            bad.append("%s: %s: interval %s..%s" % (path, m["name"], m["ci95_lower"], m["ci95_upper"]))
        # 2e6 ops/s is 500 ns an op; 8e7 is 12.5 ns; 5e5 is 2 us
        want = {"synth:one": (500, "ns"), "synth:three": (12.5, "ns"), "synth:two": (2000, "ns")}
        w = want[m["run_name"].split("/")[0]]
        slow = 1.1 if path.endswith("B.json") and "two" in m["name"] else 1.0
        if m["time_unit"] != w[1] or abs(m["real_time"] / (w[0] * slow) - 1) > 0.02:
            bad.append("%s: %s: %s %s" % (path, m["name"], m["real_time"], m["time_unit"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
EOF
	compare=
	for c in /usr/share/benchmark/compare.py /usr/lib/python3/dist-packages/benchmark/compare.py; do
		[ -f "$c" ] && compare=$c && break
	done
	[ -n "$compare" ] || skip "compare.py is not installed (apt-get install libbenchmark-tools, or scripts/setup.sh --readers)"
	py=$(python_with scipy)
	[ -n "$py" ] || skip "scipy is not installed, which compare.py imports (apt-get install python3-scipy)"
	"$py" "$compare" --no-color benchmarks "$work/A.json" "$work/B.json" >"$work/compare.out" \
		2>"$work/compare.err" || fail "compare.py: $(tail -n 3 "$work/compare.err")"
	cat "$work/compare.out"
	grep -q '^Comparing .*A.json to .*B.json' "$work/compare.out" || fail "no comparison header"
	# the slower benchmark: its mean time about 10% up, the others about level
	awk '$1 == "synth:two/producers:1/batch:8_mean" { ok = ($2 > 0.08 && $2 < 0.12) } END { exit !ok }' \
		"$work/compare.out" || fail "compare.py does not show synth:two about +10% in time"
	awk '$1 == "synth:one/producers:1/batch:8_mean" { ok = ($2 > -0.02 && $2 < 0.02) } END { exit !ok }' \
		"$work/compare.out" || fail "compare.py does not show synth:one level"
	grep -q '_pvalue' "$work/compare.out" || fail "compare.py printed no U test"
	echo "export_formats gbench: compare.py read both exports and compared 3 benchmarks"
	;;
bmf)
	"$bc" store export --store "$store" --label new --format bmf -o "$work/new.bmf.json" ||
		fail "export --format bmf"
	"$bc" store export --store "$store" --format bmf --metric hits -o "$work/all.bmf.json" ||
		fail "export --format bmf --metric hits"
	py=$(python_with jsonschema)
	[ -n "$py" ] || echo "note: python3-jsonschema is not installed; BMF's schema is checked by hand only"
	"${py:-python3}" - "$work/new.bmf.json" "$work/all.bmf.json" <<'EOF' || exit 1
import json, sys

# BMF's schema as Bencher publishes it (https://bencher.dev/bmf.json).
SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema",
    "type": "object",
    "patternProperties": {".+": {
        "type": "object",
        "patternProperties": {".+": {
            "type": "object",
            "properties": {"value": {"type": "number"},
                           "lower_value": {"type": "number"},
                           "upper_value": {"type": "number"}},
            "required": ["value"]}}}},
}


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


bad = []
for path in sys.argv[1:]:
    d = json.load(open(path))
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    if jsonschema:
        try:
            jsonschema.validate(d, SCHEMA)
        except jsonschema.ValidationError as e:
            bad.append("%s: not BMF: %s" % (path, e.message))
    # the same schema by hand, and what benchcore adds to it
    if not isinstance(d, dict) or not d:
        bad.append("%s: not a non-empty object" % path)
        continue
    if sorted(d) != ["synth:one producers=1 batch=8", "synth:three producers=1 batch=8",
                     "synth:two producers=1 batch=8"]:
        bad.append("%s: benchmarks %s" % (path, sorted(d)))
    for bench, measures in d.items():
        if not isinstance(measures, dict) or not measures:
            bad.append("%s: %s: no measures" % (path, bench))
            continue
        for name, m in measures.items():
            if not isinstance(m, dict) or "value" not in m or not num(m["value"]):
                bad.append("%s: %s %s: no numeric value" % (path, bench, name))
                continue
            if set(m) - {"value", "lower_value", "upper_value"}:
                bad.append("%s: %s %s: members %s" % (path, bench, name, sorted(m)))
            if len(name) > 64 or name != "hits (ops/s)":
                bad.append("%s: %s: measure %r" % (path, bench, name))
            if not (num(m.get("lower_value")) and num(m.get("upper_value"))
                    and m["lower_value"] < m["value"] < m["upper_value"]):
                bad.append("%s: %s %s: interval %s" % (path, bench, name, m))
new = json.load(open(sys.argv[1]))
if abs(new["synth:two producers=1 batch=8"]["hits (ops/s)"]["value"] / (5e5 / 1.1) - 1) > 0.02:
    bad.append("new: synth:two is not 5e5/1.1 ops/s")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
EOF
	echo "export_formats bmf: 2 exports valid against BMF's schema${py:+ (jsonschema too)}, each measure with its unit and interval"
	;;
*)
	fail "mode '$mode': expected gbench or bmf"
	;;
esac
