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

"$bc" store import --store "$store" --label baseline "$src/tests/plot/fixtures/sweep.json" ||
	exit 1
"$bc" store import --store "$store" --label patch "$src/tests/results/compare/new.json" \
	"$src/tests/plot/fixtures/latency.json" || exit 1
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
                        "svg": 0, "markers": 0, "trend": "trend" in cls}
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
        if self.fig is not None:
            if tag == "figure":
                self.depth += 1
            if tag == "svg":
                self.fig["svg"] += 1
            if tag in ("circle", "polygon", "rect", "path"):
                self.fig["markers"] += 1

    def handle_endtag(self, tag):
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
print(f"{os.path.relpath(page, site)}: {len(p.charts)} charts, {len(p.links)} links")
for b in bad:
    print(f"FAIL: {os.path.relpath(page, site)}: {b}")
sys.exit(1 if bad else 0)
EOF
done

charts=$(cat "$work"/page-*.dom | grep -c '<figure class="chart' || true)
[ "$charts" -gt 0 ] || { echo "FAIL: no chart on any page"; status=1; }
[ "$status" = 0 ] && echo "report_browser: $n pages, $charts charts: no console errors, every chart drawn, every link resolves"
exit "$status"
