#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# scripts/parity.py's verdict rule on crafted intervals, no runner needed:
# "same" only when the whole 95% interval of the ratio lies in the band
# ([0.95, 1.05], or a row's own); "differs" only when it lies wholly
# outside; everything else, and one round (no interval), "undecided" with
# the noise; a noisy row never reads "same". Prints one line per case and
# exits 1 on the first that fails.
import importlib.util
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('parity', os.path.join(here, '..', '..', 'scripts', 'parity.py'))
parity = importlib.util.module_from_spec(spec)
spec.loader.exec_module(parity)

band = parity.DEFAULT_BAND
by_design = [(re.compile(r'6\.1'), re.compile('trig-tp'), 'a syscall per trigger')]
cases = [
	# ratio, lo, hi, noise, peer, row, band, expected verdict prefix
	(1.00, 0.97, 1.03, 0.02, '6.12', 'x', band, 'same'),
	(1.00, 0.951, 1.049, 0.02, '6.12', 'x', band, 'same'),
	# the rb-libbpf -c1: 0.83 [0.64, 0.96], noise 31.8%
	(0.83, 0.64, 0.96, 0.318, '6.12', 'x', band, 'undecided: noise 31.8%'),
	# within the old rule's noise, but the interval reaches past the band
	(1.02, 0.90, 1.15, 0.10, '6.12', 'x', band, 'undecided'),
	(0.861, 0.82, 0.90, 0.03, '6.12', 'x', band, 'differs: bug'),
	(1.159, 1.10, 1.22, 0.03, '6.12', 'x', band, 'differs: bug'),
	(0.90, 0.85, 0.93, 0.03, '6.1', 'trig-tp', band, 'differs, by design'),
	(1.00, None, None, 0.01, '6.12', 'x', band, 'undecided: one round'),
	# a tighter band for a quiet row
	(1.00, 0.96, 1.04, 0.01, '6.12', 'x', (0.97, 1.03), 'undecided'),
	(1.00, 0.98, 1.02, 0.01, '6.12', 'x', (0.97, 1.03), 'same'),
]
failed = 0
for ratio, lo, hi, noise, peer, row, b, want in cases:
	got = parity.verdict(peer, row, ratio, lo, hi, noise, by_design, b)
	ok = got.startswith(want)
	print(f"{'ok  ' if ok else 'FAIL'} ratio {ratio} [{lo}, {hi}] band {b}: {got}")
	failed += not ok
# the band lines of a rows file
rows, _, _, bands = parity.read_rows(os.path.join(here, 'rows'))
for rr, b in bands:
	if not (0.95 <= b[0] < 1 < b[1] <= 1.05):
		print(f'FAIL tests/parity/rows: band {rr.pattern} {b} is wider than the default')
		failed += 1
sys.exit(1 if failed else 0)
