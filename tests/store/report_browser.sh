#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The report in a real browser: a store made from the committed result
# documents (store import: no benchmark runs), `benchcore report`, then
# every page loaded from its file:// URL in headless chromium. Asserts:
# no console message and no failed load; each chart (<figure class="chart">)
# holds an <svg> with at least as many point markers as its data-points
# says (and a trend chart as many table rows); every link of every page
# names a file of the site, and every #fragment an element of its page.
# Change points: two synthetic series (python3 writes their documents), one
# with a 10% step in 2% noise and one flat, must give one mark and none;
# every trend chart holds as many marks (<g> titled "change point") as its
# data-change-points says; the index lists the step; and in a copy of the
# stepped page with a probe script, chromium's layout puts the mark's line
# across the plot area, visible, between the two points either side of
# the step.
# Skips (77) with the reason where chromium is missing or cannot start.
#
# Cost: one import, one report, one chromium start per page (about 3 pages,
# a second or two each on a 2-CPU VM); chromium itself is installed by
# scripts/setup.sh --browser (scripts/test.sh passes it).
#
#   report_browser.sh BENCHCORE SOURCE_DIR WORK_DIR
set -uo pipefail

bc=${1:?usage: report_browser.sh BENCHCORE SOURCE_DIR WORK_DIR}
src=${2:?}
work=${3:?}

skip() {
	echo "SKIP: $*"
	exit 77
}

browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$(command -v "$b")
		break
	fi
done
[ -n "$browser" ] || skip "chromium is not installed (scripts/setup.sh --browser installs Debian's)"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed (it reads the dumped pages)"

rm -rf "$work"
mkdir -p "$work/profile" || exit 1
store=$work/results.db
site=$work/site

# Two series of 40 nightly entries: synth:stepped 10% slower from the 25th
# on, synth:flat level; 2% noise between runs, seeded.
python3 - "$work/series.json" <<'EOF' || exit 1
import json, math, random, sys

docs = []
for bench, step in (("stepped", 0.9), ("flat", 1.0)):
    rnd = random.Random(7 if step < 1 else 8)
    for k in range(40):
        level = 1e6 * (1 + 0.02 * rnd.gauss(0, 1)) * (step if k >= 24 else 1)
        vals = [level * (1 + 0.01 * rnd.gauss(0, 1)) for _ in range(5)]
        mean = sum(vals) / 5
        sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / 4)
        docs.append({
            "benchcore_version": "0.1.0",
            "context": {"date": "2026-10-%02dT03:00:00Z" % (k % 28 + 1) if k < 28
                        else "2026-11-%02dT03:00:00Z" % (k - 27),
                        "host": "ci-a", "kernel_release": "6.18.0", "kernel_version": "#1",
                        "cpu_model": "Synthetic CPU", "cpu_count": 2, "hypervisor": True},
            "plugin": {"name": "synth", "version": "1.0"}, "benchmark": bench,
            "config": {"producers": 1, "duration_sec": 5, "plugin_options": {}},
            "metrics": [{"name": "hits", "unit": "ops", "kind": "counter", "role": "hits"}],
            "iterations": [{"index": i, "warmup": False, "values": {"hits": v}}
                           for i, v in enumerate(vals)],
            "summary": {"hits": {"unit": "ops/s", "mean": mean, "stddev": sd, "n": 5}},
            "status": {"exit_status": 0}})
json.dump(docs, open(sys.argv[1], "w"))
EOF

"$bc" store import --store "$store" --label baseline "$src/tests/plot/fixtures/sweep.json" ||
	exit 1
"$bc" store import --store "$store" --label patch "$src/tests/results/compare/new.json" \
	"$src/tests/plot/fixtures/latency.json" || exit 1
"$bc" store import --store "$store" --label nightly "$work/series.json" || exit 1
"$bc" report --store "$store" -o "$site" || exit 1

# One page: its DOM after load, and the browser's log beside it.
load() {
	local page=$1 out=$2
	# --v=0 with logging to stderr prints each console message as a
	# CONSOLE line; the profile directory keeps chromium off $HOME.
	timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu \
		--disable-dev-shm-usage --no-first-run --user-data-dir="$work/profile" \
		--enable-logging=stderr --v=0 --virtual-time-budget=2000 \
		--dump-dom "file://$page" >"$out.dom" 2>"$out.log"
}

first=$site/index.html
if ! load "$first" "$work/probe" || ! grep -q "</html>" "$work/probe.dom"; then
	skip "chromium cannot run here: $(grep -v '^\s*$' "$work/probe.log" | tail -n 1)"
fi

status=0
n=0
for page in "$site"/index.html "$site"/bench/*.html; do
	n=$((n + 1))
	out=$work/page-$n
	if ! load "$page" "$out"; then
		echo "FAIL: chromium could not load $page: $(tail -n 1 "$out.log")"
		status=1
		continue
	fi
	# Console messages (script errors, CSP, mixed content) and loads
	# that failed (a missing file).
	if grep -E 'CONSOLE|Uncaught|ERR_FILE_NOT_FOUND|Failed to load' "$out.log"; then
		echo "FAIL: $page: console or load errors above"
		status=1
	fi
	python3 - "$page" "$out.dom" "$site" <<'EOF' || status=1
import os, sys
from html.parser import HTMLParser
from urllib.parse import unquote

page, dom, site = sys.argv[1], sys.argv[2], sys.argv[3]


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links, self.charts = set(), [], []
        self.fig = None        # the chart being read
        self.depth = 0
        self.table_rows = {}   # trend id -> rows of the table after it
        self.last_trend = None
        self.in_points = False
        self.in_title = False
        self.cp_rows = 0       # the index's list of change points

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag in ("a", "link") and "href" in a:
            self.links.append(a["href"])
        if "src" in a:  # an image or script that did not load logs nothing
            self.links.append(a["src"])
        cls = (a.get("class") or "").split()
        if tag == "figure" and "chart" in cls:
            self.fig = {"id": a.get("id"), "points": int(a.get("data-points", "0")),
                        "svg": 0, "markers": 0, "trend": "trend" in cls, "marks": 0,
                        "change_points": int(a.get("data-change-points", "0"))}
            self.charts.append(self.fig)
            if self.fig["trend"]:
                self.last_trend = self.fig["id"]
                self.table_rows[self.last_trend] = 0
            self.depth = 1
            return
        if tag == "table" and "points" in cls:
            self.in_points = True
        if tag == "tr" and self.in_points and self.last_trend:
            self.table_rows[self.last_trend] += 1
        if tag == "tr" and "change-point" in cls:
            self.cp_rows += 1
        if self.fig is not None:
            if tag == "figure":
                self.depth += 1
            if tag == "svg":
                self.fig["svg"] += 1
            if tag in ("circle", "polygon", "rect", "path"):
                self.fig["markers"] += 1
            if tag == "title":
                self.in_title = True

    def handle_data(self, data):
        if self.in_title and self.fig is not None and data.startswith("change point"):
            self.fig["marks"] += 1

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if tag == "table":
            self.in_points = False
        if self.fig is not None and tag == "figure":
            self.depth -= 1
            if self.depth == 0:
                self.fig = None


def ids_of(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    return p.ids


p = Page()
with open(dom, encoding="utf-8") as f:
    p.feed(f.read())
bad = []
if "<html" not in open(dom, encoding="utf-8").read():
    bad.append("no page was dumped")
for c in p.charts:
    if c["svg"] != 1:
        bad.append(f"chart {c['id']}: {c['svg']} svg elements, expected 1")
    if c["points"] < 1:
        bad.append(f"chart {c['id']}: no data points declared")
    if c["markers"] < c["points"]:
        bad.append(f"chart {c['id']}: {c['markers']} marks for {c['points']} data points")
    if c["marks"] != c["change_points"]:
        bad.append(f"chart {c['id']}: {c['marks']} change-point marks, data-change-points says {c['change_points']}")
    if c["trend"]:
        rows = p.table_rows.get(c["id"], 0) - 1  # the header row
        if rows != c["points"]:
            bad.append(f"chart {c['id']}: {rows} table rows for {c['points']} points")
base = os.path.dirname(page)
for href in p.links:
    if href.startswith(("http:", "https:", "//")):
        bad.append(f"link {href}: leaves the site (it must work offline)")
        continue
    path, _, frag = href.partition("#")
    target = os.path.normpath(os.path.join(base, unquote(path))) if path else page
    if not os.path.realpath(target).startswith(os.path.realpath(site)):
        bad.append(f"link {href}: outside the site")
    elif not os.path.isfile(target):
        bad.append(f"link {href}: {target} is not there")
    elif frag and target.endswith(".html") and frag not in ids_of(target):
        bad.append(f"link {href}: no element #{frag} in {target}")
rel = os.path.relpath(page, site)
# the planted step: one mark on synth:stepped, none on synth:flat, listed
want = {"bench/synth__stepped.html": 1, "bench/synth__flat.html": 0}
if rel in want and sum(c["marks"] for c in p.charts) != want[rel]:
    bad.append(f"{sum(c['marks'] for c in p.charts)} change-point marks, expected {want[rel]}")
if rel == "index.html" and p.cp_rows < 1:
    bad.append("the index lists no change point")
print(f"{rel}: {len(p.charts)} charts, {len(p.links)} links, "
      f"{sum(c['marks'] for c in p.charts)} change-point marks")
for b in bad:
    print(f"FAIL: {os.path.relpath(page, site)}: {b}")
sys.exit(1 if bad else 0)
EOF
done

# The mark as chromium lays it out: a copy of the stepped page with a probe
# script (the site itself has none) that measures the mark's line and the
# points either side of it, and writes what it found into the page.
probe=$site/bench/probe-stepped.html
python3 - "$site/bench/synth__stepped.html" "$probe" <<'EOF' || status=1
import sys

script = """<script>
window.addEventListener("load", () => {
  const out = [];
  const titled = (g, t) => { const e = g.querySelector(":scope > title"); return e && t(e.textContent); };
  for (const fig of document.querySelectorAll("figure.chart.trend")) {
    const svg = fig.querySelector("svg"), sr = svg.getBoundingClientRect();
    const groups = [...svg.querySelectorAll("g")];
    const series = groups.find(g => titled(g, t => t === "hits") && g.querySelector("circle"));
    const xs = series ? [...series.querySelectorAll("circle")].map(c => {
      const r = c.getBoundingClientRect(); return r.x + r.width / 2; }) : [];
    for (const m of groups.filter(g => titled(g, t => t.startsWith("change point")))) {
      const line = m.querySelector("line"), r = line.getBoundingClientRect(), cs = getComputedStyle(line);
      const k = parseInt(m.querySelector("title").textContent.match(/at point ([0-9]+)/)[1]);
      out.push({ fig: fig.id, k: k, x: r.x + r.width / 2, top: r.top, h: r.height,
                 visible: cs.visibility === "visible" && cs.display !== "none" && cs.opacity !== "0",
                 stroke: cs.stroke, svg: [sr.left, sr.top, sr.right, sr.bottom],
                 prev: xs[k - 2], next: xs[k - 1], points: xs.length });
    }
  }
  const pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""
page = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(page.replace("</body>", script + "</body>"))
EOF
if load "$probe" "$work/probe-stepped"; then
	python3 - "$work/probe-stepped.dom" <<'EOF' || status=1
import html, json, re, sys

dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
if not m:
    print("FAIL: the probe wrote nothing: the stepped page's script did not run")
    sys.exit(1)
marks = json.loads(html.unescape(m.group(1)))
bad = []
if len(marks) != 1:
    bad.append(f"{len(marks)} marks laid out on the stepped page, expected 1")
for mk in marks:
    left, top, right, bottom = mk["svg"]
    if not mk["visible"] or mk["stroke"] in ("none", ""):
        bad.append(f"{mk['fig']}: the mark is not drawn ({mk})")
    if mk["h"] < 100 or mk["top"] < top or mk["top"] + mk["h"] > bottom + 0.5:
        bad.append(f"{mk['fig']}: the mark's line is not across the plot area ({mk})")
    if not (left <= mk["x"] <= right):
        bad.append(f"{mk['fig']}: the mark is outside its chart ({mk})")
    if mk["prev"] is None or mk["next"] is None or not (mk["prev"] < mk["x"] < mk["next"]):
        bad.append(f"{mk['fig']}: the mark is not between points {mk['k'] - 1} and {mk['k']} ({mk})")
    elif not 22 <= mk["k"] <= 28:
        bad.append(f"{mk['fig']}: the mark is at point {mk['k']}, the step at 25")
for b in bad:
    print("FAIL: probe: " + b)
if not bad:
    print(f"probe: the change point's mark laid out across the plot area between points "
          f"{marks[0]['k'] - 1} and {marks[0]['k']} of {marks[0]['points']}")
sys.exit(1 if bad else 0)
EOF
else
	echo "FAIL: chromium could not load the probe page: $(tail -n 1 "$work/probe-stepped.log")"
	status=1
fi
rm -f "$probe"

charts=$(cat "$work"/page-*.dom | grep -c '<figure class="chart' || true)
[ "$charts" -gt 0 ] || { echo "FAIL: no chart on any page"; status=1; }
[ "$status" = 0 ] && echo "report_browser: $n pages, $charts charts: no console errors, every chart drawn, every link resolves, the change point marked and laid out"
exit "$status"
