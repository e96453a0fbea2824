#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# The measuring half of scripts/parity.sh (which checks the options, finds
# the runners and calls this): runs every row on the kernel's runner(s) and
# on benchcore in alternation, reads both sides' figures and writes
# parity.md and parity.json. Not meant to be called directly.
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time

# Two-sided 95% Student t quantiles by degrees of freedom; past 10 the
# normal quantile is close enough for an interval printed to two decimals.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228}

SCALE = {'': 1.0, 'k': 1e3, 'M': 1e6, 'G': 1e9}


def log(msg):
	print('parity: ' + msg, file=sys.stderr, flush=True)


# "same" means the ratio's 95% interval lies inside this band; a rows file
# may set a tighter band for quiet rows (band ROW-REGEX LOW HIGH).
DEFAULT_BAND = (0.95, 1.05)


def read_rows(path):
	rows, by_design, aliases, bands = [], [], [], []
	with open(path) as f:
		for ln, line in enumerate(f, 1):
			line = line.strip()
			if not line or line.startswith('#'):
				continue
			if line.startswith('by-design'):
				parts = line.split(None, 3)
				if len(parts) < 4:
					sys.exit(f'parity: {path}:{ln}: by-design needs PEER-REGEX ROW-REGEX REASON')
				by_design.append((re.compile(parts[1]), re.compile(parts[2]), parts[3]))
				continue
			if line.startswith('band'):
				parts = line.split()
				try:
					lo, hi = float(parts[2]), float(parts[3])
				except (IndexError, ValueError):
					lo = hi = None
				if len(parts) != 4 or lo is None or not (0 < lo < 1 < hi):
					sys.exit(f'parity: {path}:{ln}: band needs ROW-REGEX LOW HIGH with LOW < 1 < HIGH')
				bands.append((re.compile(parts[1]), (lo, hi)))
				continue
			if line.startswith('alias'):
				parts = line.split()
				if len(parts) != 4:
					sys.exit(f'parity: {path}:{ln}: alias needs PEER-REGEX BENCH RUNNER-NAME')
				aliases.append((re.compile(parts[1]), parts[2], parts[3]))
				continue
			parts = line.split()
			if len(parts) < 2:
				sys.exit(f'parity: {path}:{ln}: a row needs ROW BENCH [OPTIONS...]')
			rows.append({'row': parts[0], 'bench': parts[1], 'opts': parts[2:]})
	return rows, by_design, aliases, bands


def band_of(row, bands):
	"""The band a row's interval must lie in to read "same": the last band
	line naming it, else the default."""
	band = DEFAULT_BAND
	for rr, b in bands:
		if rr.fullmatch(row):
			band = b
	return band


def runner_name(peer, bench):
	"""The name this runner gives the benchmark: an alias line of the row
	file, or the benchmark's own name."""
	for pr, b, name in peer.get('aliases', []):
		if b == bench and pr.fullmatch(peer['name']):
			return name
	return bench


# --- the runner's output ------------------------------------------------------

# "Summary: hits   12.345 ± 0.123M/s (...)", "throughput 1.2 ± 0.1 M ops/s",
# "hits throughput ...", "per-prod-op 123.45 ±  1.23k/s", "creates 1.2 ± 0.1k/s"
PM = re.compile(r'([A-Za-z_][A-Za-z_ -]*?)\s+(-?[0-9.]+)\s*±\s*([0-9.]+)\s*([kMG]?)\s*([A-Za-z/ ]*?/s)')


def parse_runner(text, producers=1):
	"""The runner's headline: (value, unit, relative noise, label) or None."""
	lines = text.splitlines()
	summary = [l for l in lines if l.startswith('Summary:')]
	if summary:
		s = summary[-1]
		m = re.search(r'Percentage\s*=\s*([0-9.]+)\s*%', s)
		if m:
			return float(m.group(1)), '%', None, 'false hits'
		m = PM.search(s[len('Summary:'):])
		# hashmap-with/without-bloom count their lookups as drops (no
		# bloom hit): the runner's script reads their total operations
		t = re.search(r'total operations\s+([0-9.]+)\s*±\s*([0-9.]+)\s*([kMG]?)(/s)', s)
		if m and m.group(1).strip() == 'hits' and float(m.group(2)) == 0 and t:
			v, sd = float(t.group(1)), float(t.group(2))
			return v, t.group(3) + t.group(4), (sd / v if v else None), 'total operations'
		if m:
			v, sd = float(m.group(2)), float(m.group(3))
			# "M/s", "k/s", "M ops/s" as the runner spells them
			unit = m.group(4) + ('' if m.group(5).startswith('/') else ' ') + m.group(5)
			return v, unit, (sd / v if v else None), m.group(1).strip()
	# local-storage-tasks-trace: "SUMMARY tasks_trace grace period latency\tavg X us\tstddev Y us"
	for l in lines:
		m = re.match(r'SUMMARY tasks_trace grace period latency\s+avg ([0-9.]+) us\s+stddev ([0-9.]+)', l)
		if m:
			v, sd = float(m.group(1)), float(m.group(2))
			return v, 'us', (sd / v if v else None), 'grace period latency'
	# The hashmap benchmarks print a rate per CPU the producer ran on (an
	# unpinned producer migrates: two lines for one producer), each the
	# rate while it ran there: one producer's rate is their mean, weighted
	# by samples where the runner counts them, times the producers.
	# bpf-hashmap-lookup: "cpuNN: lookup X.XXXM ± Y.YYYM events/sec (approximated from N samples ...)"
	cpus = re.findall(r'^cpu\d+: lookup ([0-9.]+)M ± ([0-9.]+)M events/sec'
			  r'(?: \(approximated from (\d+) samples)?', text, re.M)
	if cpus:
		w = [int(c or 1) for _, _, c in cpus]
		v = sum(float(a) * k for (a, _, _), k in zip(cpus, w)) / sum(w)
		# the runner's ± is twice the standard deviation
		sd = sum(float(b) / 2 * k for (_, b, _), k in zip(cpus, w)) / sum(w)
		return v * producers, 'M events/s', (sd / v if v else None), 'lookup (in-BPF, per-CPU lines)'
	# bpf-hashmap-full-update: "N:hash_map_full_perf V events per sec"
	cpus = re.findall(r'^\d+:hash_map_full_perf (\d+) events per sec', text, re.M)
	if cpus:
		v = statistics.mean(int(a) for a in cpus) / 1e6
		return v * producers, 'M events/s', None, 'hash_map_full_perf (in-BPF, per-CPU lines)'
	return None


# --- benchcore's JSON ----------------------------------------------------------

def headline_metric(doc):
	"""The document's headline: what it records (from ABI 2.3's writer on),
	else the rule older documents were read by (the first hits metric, else
	ops, histograms aside)."""
	metrics = doc.get('metrics') or []
	summary = doc.get('summary') or {}
	if isinstance(doc.get('headline'), str) and doc['headline'] in summary:
		return doc['headline']
	for role in ('hits', 'ops'):
		for m in metrics:
			if m.get('role') == role and m.get('kind') != 'histogram' and m.get('name') in summary:
				return m['name']
	for k, v in summary.items():
		if isinstance(v, dict) and 'mean' in v:
			return k
	return None


def parse_benchcore(doc, runner_unit, runner_label):
	"""benchcore's figure in the runner's unit: (value, unit, relative noise, metric)."""
	summary = doc.get('summary') or {}
	name = None
	if runner_unit == '%':
		# bloom-false-positive: the share figure in percent
		for k, f in (summary.get('figures') or {}).items():
			if isinstance(f, dict) and f.get('unit') == '%':
				st = f.get('stats') or {}
				mean = st.get('mean', f.get('value'))
				sd = st.get('stddev')
				return mean, '%', (sd / mean if sd is not None and mean else None), k
	if runner_label and runner_label.startswith('grace period'):
		name = next((k for k in summary if 'gp' in k or 'grace' in k), None)
	if runner_label == 'total operations':
		f = (summary.get('figures') or {}).get('total_operations')
		if isinstance(f, dict):
			st = f.get('stats') or {}
			mean, sd = st.get('mean', f.get('value')), st.get('stddev')
			prefix = runner_unit[0] if runner_unit and runner_unit[0] in SCALE else ''
			return mean / SCALE[prefix], runner_unit, (sd / mean if sd is not None and mean else None), \
				'total_operations'
	if name is None:
		name = headline_metric(doc)
	if name is None or not isinstance(summary.get(name), dict) or 'mean' not in summary[name]:
		return None
	s = summary[name]
	mean, sd, unit = s['mean'], s.get('stddev'), s.get('unit', '')
	# the runner's per-producer figure (htab-mem's per-prod-op)
	if runner_label == 'per-prod-op':
		pp = (summary.get('figures') or {}).get('per_producer')
		prods = (doc.get('config') or {}).get('producers')
		if pp and pp.get('of') == name:
			mean, sd = pp['stats']['mean'], pp['stats'].get('stddev')
		elif isinstance(prods, int) and prods > 1:
			mean, sd = mean / prods, (sd / prods if sd is not None else None)
	noise = sd / mean if sd is not None and mean else None
	if runner_unit and runner_unit.endswith('/s') and unit.endswith('/s'):
		prefix = runner_unit[0] if runner_unit[0] in SCALE else ''
		return mean / SCALE[prefix], runner_unit, noise, name
	if runner_unit == 'us' and unit == 'ns':
		return mean / 1e3, 'us', noise, name
	return mean, unit or runner_unit, noise, name


# --- running -------------------------------------------------------------------

def last_line(text):
	for l in reversed(text.strip().splitlines()):
		l = l.strip()
		if l and 'warning:' not in l:
			return l
	return '(no output)'


def run(cmd, cwd, timeout, log_path):
	t0 = time.time()
	try:
		p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
				   stderr=subprocess.PIPE, timeout=timeout, text=True)
		rc, out, err = p.returncode, p.stdout, p.stderr
	except subprocess.TimeoutExpired as e:
		rc = 124
		out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or '')
		err = (e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or '')) + \
			f'\ntimed out after {timeout} s'
	with open(log_path, 'w') as f:
		f.write('$ ' + ' '.join(cmd) + f'\n# exit status {rc}, {time.time() - t0:.1f} s\n')
		f.write('--- stdout\n' + out + '--- stderr\n' + err)
	return rc, out, err


def producers(opts):
	"""-pN, -p N, --producers N, --producers=N among a row's options; 1 otherwise."""
	for i, o in enumerate(opts):
		m = re.fullmatch(r'(?:-p|--producers=)(\d+)', o)
		if m:
			return int(m.group(1))
		if o in ('-p', '--producers') and i + 1 < len(opts) and opts[i + 1].isdigit():
			return int(opts[i + 1])
	return 1


def side_runner(peer, row, a):
	cmd = [peer['bench'], '-w', str(a.warmup), '-d', str(a.duration)] + row['opts'] + \
		[runner_name(peer, row['bench'])]
	return cmd, os.path.dirname(peer['bench'])


def side_benchcore(row, a):
	cmd = [a.benchcore, '--plugin-dir', a.plugin_dir, 'run', row['bench'], '-w', str(a.warmup),
	       '-d', str(a.duration), '--format', 'json'] + row['opts']
	return cmd, None


def absorb(rr, s, r, peers, rc, out, err):
	"""Reads one run's output into its side's figures, or its error."""
	st = rr[s]
	if s == 'benchcore':
		parsed = None
		try:
			doc = json.loads(out)
		except ValueError:
			doc = None
		if rc == 0 and doc:
			ref = next((rr[p['name']] for p in peers if rr[p['name']]['unit']), None)
			parsed = parse_benchcore(doc, ref['unit'] if ref else None, ref['label'] if ref else None)
		if parsed is None:
			reason = ((doc or {}).get('status') or {}).get('reason') or last_line(err)
			what = 'unavailable on this kernel' if rc == 3 else f'exit status {rc}'
			st['error'] = f'{what}: {reason}'
			return
	else:
		parsed = parse_runner(out, producers(r['opts'])) if rc == 0 else None
		if parsed is None:
			st['error'] = f'exit status {rc}: {last_line(err if err.strip() else out)}' \
				if rc else f'no figure in its output: {last_line(out)}'
			return
	v, unit, noise, label = parsed
	st['vals'].append(v)
	st['unit'], st['label'] = unit, label
	if noise is not None:
		st['noise'].append(noise)


def read_log(path):
	"""A run's log as run() wrote it: exit status, stdout, stderr, seconds;
	a run that is not there reads as a refusal."""
	try:
		with open(path) as f:
			text = f.read()
	except OSError:
		return 1, '', f'no log of this run ({os.path.basename(path)})', 0.0
	m = re.search(r'^# exit status (-?\d+), ([0-9.]+) s$', text, re.M)
	out = text.split('--- stdout\n', 1)[1].split('--- stderr\n', 1)
	return int(m.group(1)), out[0], out[1], float(m.group(2))


def measure(rows, peers, a):
	"""results[row][side] = {'vals': [...], 'noise': [...], 'unit', 'error'}."""
	timeout = a.warmup + a.duration + 120
	res = {}
	for r in rows:
		sides = [p['name'] for p in peers] + ['benchcore']
		res[r['row']] = {s: {'vals': [], 'noise': [], 'unit': None, 'label': None, 'error': None,
				     'metric': None} for s in sides}
		for p in peers:
			if runner_name(p, r['bench']) not in p.get('names', {runner_name(p, r['bench'])}):
				res[r['row']][p['name']]['error'] = 'this runner has no such benchmark'
	t_start, spent = time.time(), 0.0
	for i, r in enumerate(rows):
		rr = res[r['row']]
		rnd = 0
		# a.rounds first; then one more round at a time while a runner's
		# verdict is undecided, up to a.max_rounds
		while rnd < a.rounds or (rnd < a.max_rounds and not a.reread and
					 undecided_peers(r, rr, peers, a)):
			order = [p['name'] for p in peers] + ['benchcore']
			if rnd % 2:
				order.reverse()
			for s in order:
				st = rr[s]
				if st['error']:
					continue
				if s == 'benchcore' and all(rr[p['name']]['error'] for p in peers):
					st['error'] = 'not run: no runner ran this row'
					continue
				tag = f"{r['row']}.{s}.{rnd}"
				logp = os.path.join(a.raw, tag + '.log')
				if s == 'benchcore':
					cmd, cwd = side_benchcore(r, a)
				else:
					cmd, cwd = side_runner(next(p for p in peers if p['name'] == s), r, a)
				if a.reread:
					rc, out, err, secs = read_log(logp)
					spent += secs
				else:
					rc, out, err = run(cmd, cwd, timeout, logp)
				absorb(rr, s, r, peers, rc, out, err)
			rnd += 1
		if a.reread:
			# the extra rounds a pass made are in its logs too
			while rnd < a.max_rounds and os.path.exists(
					os.path.join(a.raw, f"{r['row']}.benchcore.{rnd}.log")):
				for s in [p['name'] for p in peers] + ['benchcore']:
					if rr[s]['error']:
						continue
					rc, out, err, secs = read_log(os.path.join(a.raw, f"{r['row']}.{s}.{rnd}.log"))
					spent += secs
					absorb(rr, s, r, peers, rc, out, err)
				rnd += 1
		log(f"[{i + 1}/{len(rows)}] {r['row']}: " + ', '.join(
			f"{s} {fmt(statistics.median(st['vals']))}" if st['vals'] else f"{s} -"
			for s, st in rr.items()) + f" ({time.time() - t_start:.0f} s so far)")
	return res, spent if a.reread else time.time() - t_start


def undecided_peers(r, rr, peers, a):
	"""Does any runner's comparison of this row still read undecided?"""
	bs = rr['benchcore']
	for p in peers:
		rs = rr[p['name']]
		if not rs['vals'] or not bs['vals'] or len(rs['vals']) != len(bs['vals']):
			continue
		_, _, ratio, lo, hi, noise, _ = compare(rs, bs)
		if not decided(verdict(p['name'], r['row'], ratio, lo, hi, noise, a.by_design,
				       band_of(r['row'], a.bands))):
			return True
	return False


# --- statistics ------------------------------------------------------------------

def fmt(v):
	if v is None or not math.isfinite(v):
		return '-'
	a = abs(v)
	if a >= 100:
		return f'{v:.1f}'
	if a >= 10:
		return f'{v:.2f}'
	if a >= 1:
		return f'{v:.3f}'
	return f'{v:.4f}'


def rel_noise(st):
	"""A side's own run-to-run noise, relative: the larger of the spread over
	rounds and the typical spread within a run."""
	cands = []
	if len(st['vals']) >= 2 and statistics.mean(st['vals']):
		cands.append(statistics.stdev(st['vals']) / abs(statistics.mean(st['vals'])))
	if st['noise']:
		cands.append(statistics.median(st['noise']))
	return max(cands) if cands else None


def compare(rs, bs):
	"""Ratio benchcore/runner, its 95% interval over paired rounds, the
	combined noise."""
	rmed, bmed = statistics.median(rs['vals']), statistics.median(bs['vals'])
	ratio = bmed / rmed if rmed else float('nan')
	n = min(len(rs['vals']), len(bs['vals']))
	lo = hi = None
	logs = [math.log(b / r) for r, b in zip(rs['vals'], bs['vals']) if r > 0 and b > 0]
	if len(logs) >= 2 and len(logs) == n:
		m, sd = statistics.mean(logs), statistics.stdev(logs)
		t = T95.get(n - 1, 1.96)
		lo, hi = math.exp(m - t * sd / math.sqrt(n)), math.exp(m + t * sd / math.sqrt(n))
	nr, nb = rel_noise(rs), rel_noise(bs)
	noise = math.sqrt((nr or 0) ** 2 + (nb or 0) ** 2) if (nr is not None or nb is not None) else None
	return rmed, bmed, ratio, lo, hi, noise, n


def verdict(peer, row, ratio, lo, hi, noise, by_design, band):
	"""same: the whole 95% interval of the ratio inside the band; differs:
	the whole interval outside it; undecided otherwise (an interval too wide
	to say, or none: one round). A noisy row is never "same"."""
	if not math.isfinite(ratio):
		return 'n/a'
	nz = f'{noise * 100:.1f}%' if noise is not None else 'unknown'
	if lo is None:
		return f'undecided: one round, noise {nz}'
	if band[0] <= lo and hi <= band[1]:
		return 'same'
	if hi < band[0] or lo > band[1]:
		for pr, rr, reason in by_design:
			if pr.fullmatch(peer) and rr.fullmatch(row):
				return 'differs, by design: ' + reason
		return 'differs: bug'
	return f'undecided: noise {nz}'


def decided(v):
	return not v.startswith('undecided') and v != 'n/a'


# --- output ------------------------------------------------------------------------

def write_replace(path, text):
	tmp = path + '.tmp'
	with open(tmp, 'w') as f:
		f.write(text)
	os.replace(tmp, path)


def pass_floor(res, peers, rounds, warmup, duration):
	"""Seconds a pass of these rows cannot go below: every run measures for
	its whole warm-up and duration (the runner one sample more), one run
	at a time. Runs a side refused cost nothing after the first refusal."""
	secs = 0
	for rr in res.values():
		for s, st in rr.items():
			if st['vals']:
				secs += warmup + duration + (0 if s == 'benchcore' else 1)
	return secs * rounds


def report(rows, peers, res, by_design, elapsed, a, shared_missing, bc_only):
	lines, runs = [], []
	for p in peers:
		lines.append(f"\n## runner {p['name']}\n")
		lines.append('| row | options | runner median | benchcore median | unit | ratio [95% interval] | rounds | noise | verdict |')
		lines.append('|---|---|---:|---:|---|---|---:|---:|---|')
		notrun = []
		counts = {'same': 0, 'differs': 0, 'undecided': 0}
		for r in rows:
			rs, bs = res[r['row']][p['name']], res[r['row']]['benchcore']
			opts = ' '.join(r['opts']) or '(defaults)'
			name = r['row'] if r['row'] == r['bench'] else f"{r['row']} (`{r['bench']}`)"
			if not rs['vals'] or not bs['vals']:
				why = []
				if not rs['vals']:
					why.append('runner: ' + (rs['error'] or 'not run'))
				if not bs['vals']:
					why.append('benchcore: ' + (bs['error'] or 'not run'))
				notrun.append(f"- {name} `{opts}`: " + '; '.join(w.replace('|', '/') for w in why))
				continue
			rmed, bmed, ratio, lo, hi, noise, n = compare(rs, bs)
			v = verdict(p['name'], r['row'], ratio, lo, hi, noise, by_design,
				    band_of(r['row'], a.bands))
			ci = f' [{lo:.2f}, {hi:.2f}]' if lo is not None else ' (one round: no interval)'
			nz = f'{noise * 100:.1f}%' if noise is not None else '-'
			lines.append(f"| {name} | `{opts}` | {fmt(rmed)} | {fmt(bmed)} | {rs['unit']} | "
				     f"{ratio:.3f}{ci} | {n} | {nz} | {v} |")
			counts['same' if v == 'same' else 'differs' if v.startswith('differs') else
			       'undecided'] += 1
			runs.append({
				'section': f"runner {p['name']}",
				'label': r['row'],
				'benchmark': r['bench'],
				'status': 'ok',
				'options': {'row': r['row'], 'peer': f"runner-{p['name']}"},
				'result': {
					'benchmark': r['bench'],
					'summary': {'ratio': {
						'mean': ratio, 'median': ratio, 'n': n, 'unit': 'x',
						**({'ci95': {'low': lo, 'high': hi}} if lo is not None else {}),
					}},
					'parity': {'runner_median': rmed, 'benchcore_median': bmed,
						   'unit': rs['unit'], 'runner_rounds': rs['vals'],
						   'benchcore_rounds': bs['vals'], 'benchcore_metric': bs['label'],
						   'runner_figure': rs['label'], 'noise': noise, 'verdict': v},
				},
			})
		lines.append(f"\nrunner {p['name']}: {counts['same']} same, {counts['differs']} differs, "
			     f"{counts['undecided']} undecided, {len(notrun)} not compared.")
		a.counts[p['name']] = counts
		if notrun:
			lines.append('\nNot compared (a side did not run here, or printed no figure):\n')
			lines.extend(notrun)
	if shared_missing:
		lines.append('\nShared benchmark names that no row covers: ' +
			     ', '.join(f'`{x}`' for x in shared_missing) + '.')
	if bc_only:
		lines.append('\nbenchcore benchmarks that none of these runners has (nothing to compare): ' +
			     ', '.join(f'`{x}`' for x in bc_only) + '.')
	body = '\n'.join(lines) + '\n'
	# the command that measures the same again: no -r, no --note
	shown, skip = [], False
	for x in a.argv:
		if skip or x == '-r' or x.startswith('--note='):
			skip = False
			continue
		if x == '--note':
			skip = True
			continue
		shown.append(x if re.fullmatch(r'[\w.,=/-]+', x) else "'" + x + "'")
	cmdline = ' '.join(['scripts/parity.sh'] + shown)
	head = f"""# Parity with the kernel's runner

Every benchmark that benchcore shares with the kernel's selftests/bpf `bench` runner, measured
side by side on the same machine: the runner built by `scripts/peer.sh VERSION` from Debian's
`linux-source-VERSION` (the tree's own Makefile, `RELEASE=1`, its own libbpf and bpftool,
section names changed only where this kernel refuses trampolines or kprobes; the list and the
reason of each change are in the script), against benchcore's `build/benchcore`. The rows and
the by-design list are in `tests/parity/rows`.

How it is measured: for each row, each round runs every runner and benchcore once, one after
the other, in an order reversed every round, with the same options (`-w{a.warmup} -d{a.duration}`
and the row's). The runner's figure is its own Summary line (its per-CPU lines for
`bpf-hashmap-lookup` and `bpf-hashmap-full-update`: an unpinned producer prints one line per CPU it
ran on, each the in-BPF rate while there, so their mean, weighted by the runner's sample counts,
times the producers; the grace-period SUMMARY
line for `local-storage-tasks-trace`); benchcore's is the headline of its `--format json`
report (the first `hits` metric, else `ops`), in the runner's unit. The runner summarises
`-d`+1 samples, benchcore `-d` (compat.md). Medians over {a.rounds} rounds; the ratio is
benchcore / runner (below 1: benchcore reads lower), its interval a 95% Student interval of
the paired per-round ratios (log scale). `noise` is the rows' own run-to-run noise: for each
side the larger of the spread over rounds and the typical spread within a run (relative),
the two combined in quadrature.

Verdicts, from the ratio's 95% interval and a band, [{DEFAULT_BAND[0]:.2f}, {DEFAULT_BAND[1]:.2f}] unless a `band` line
of the row file sets a tighter one for a quiet row: **same** when the whole interval lies
inside the band; **differs** when the whole interval lies outside it (**differs, by design**
when a `by-design` line names the row, the reason a difference docs/compat.md lists;
**differs: bug** otherwise); **undecided: noise N%** when the interval is too wide to say
either. A row starts with `-n` rounds and gets one more round at a time while it is
undecided, up to `--max-rounds` ({a.max_rounds} in this pass); a noisy row stays undecided, it
never reads "same". `rounds` is how many paired rounds a row took.

To rerun (root; about {elapsed / 60:.0f} minutes for this pass):

```
scripts/build.sh build && cmake --build build -j2
scripts/peer.sh 6.12 && scripts/peer.sh 6.1
{cmdline}
```

`--rows REGEX` selects rows, `-n`, `-w`, `-d` as above, `-o DIR` writes `parity.md` and
`parity.json` elsewhere (`benchcore plot DIR/parity.json` draws the ratios); every run's
output is kept under `BUILD/parity/raw/`.
"""
	if a.note:
		head += f'\n**{a.note}**\n'
	floor = pass_floor(res, peers, a.rounds, a.warmup, a.duration)
	full = pass_floor(res, peers, 3, 1, 5)
	head += f"\nThis pass: {len(rows)} rows, runners {', '.join(p['name'] for p in peers)}, " \
		f"-n {a.rounds} -w {a.warmup} -d {a.duration}, {elapsed / 60:.1f} minutes, kernel " \
		f"{os.uname().release}, {os.cpu_count()} CPUs.\n" \
		f"\nWhat a pass costs: every run is a process that measures for its whole warm-up and " \
		f"duration (the runner one second more: it takes `-d`+1 samples), and the runs go one " \
		f"at a time, because both sides' programs count every hit in the system (compat.md, " \
		f"whose events) and on a 2-CPU machine a benchmark beside another is measured by it. " \
		f"So a pass cannot take less than the sum of its runs' durations: " \
		f"{floor / 60:.1f} minutes for this one (it took {elapsed / 60:.1f}: start-up and loading " \
		f"add about half a second a run), and {full / 60:.0f} minutes for these rows at " \
		f"`-n 3 -w 1 -d 5`. Rows that cannot run here cost nothing after their first refusal.\n"
	write_replace(os.path.join(a.out, 'parity.md'), head + body)
	doc = {'kind': 'sweep', 'name': 'parity: benchcore / kernel runner', 'runs': runs}
	write_replace(os.path.join(a.out, 'parity.json'), json.dumps(doc, indent=1) + '\n')


def main():
	import argparse
	ap = argparse.ArgumentParser(prog='parity')
	ap.add_argument('--rows-file', required=True)
	ap.add_argument('--rows', default='')
	ap.add_argument('-n', dest='rounds', type=int, default=3)
	ap.add_argument('--max-rounds', type=int, default=0)
	ap.add_argument('-w', dest='warmup', type=int, default=1)
	ap.add_argument('-d', dest='duration', type=int, default=5)
	ap.add_argument('-o', dest='out', required=True)
	ap.add_argument('--raw', required=True)
	ap.add_argument('--benchcore', required=True)
	ap.add_argument('--plugin-dir', required=True)
	ap.add_argument('--peer', action='append', default=[])
	ap.add_argument('--note', default='')
	ap.add_argument('--argv', default='')
	ap.add_argument('--reread', action='store_true')
	a = ap.parse_args()
	a.argv = a.argv.split('\x1f') if a.argv else []
	rows, by_design, aliases, bands = read_rows(a.rows_file)
	a.by_design, a.bands = by_design, bands
	a.max_rounds = max(a.max_rounds, a.rounds)
	sel = re.compile(a.rows)
	rows = [r for r in rows if sel.search(r['row'])]
	if not rows:
		sys.exit(f"parity: --rows '{a.rows}': no row of {a.rows_file} matches")
	peers = []
	for p in a.peer:
		name, path = p.split('=', 1)
		peers.append({'name': name, 'bench': path, 'aliases': aliases})
	# shared names: the runners' lists against benchcore's bare names
	bc = subprocess.run([a.benchcore, '--plugin-dir', a.plugin_dir, 'list'], stdout=subprocess.PIPE,
			    stderr=subprocess.DEVNULL, text=True).stdout
	bc_names = {l.split()[0].split(':', 1)[1] for l in bc.splitlines() if l.strip() and ':' in l.split()[0]}
	runner_names = set()
	for p in peers:
		out = subprocess.run([p['bench'], '--list'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
				     text=True).stdout
		p['names'] = set(re.findall(r'^- (\S+)', out, re.M))
		# an aliased name counts as the benchmark it stands for
		runner_names |= {next((b for pr, b, n in aliases if n == x and pr.fullmatch(p['name'])), x)
				 for x in p['names']}
	covered = {r['bench'] for r in read_rows(a.rows_file)[0]}
	shared_missing = sorted((runner_names & bc_names) - covered)
	for x in shared_missing:
		log(f'warning: {x}: both sides have it and no row of {a.rows_file} names it')
	bc_only = sorted(bc_names - runner_names)
	os.makedirs(a.raw, exist_ok=True)
	os.makedirs(a.out, exist_ok=True)
	res, elapsed = measure(rows, peers, a)
	a.counts = {}
	report(rows, peers, res, by_design, elapsed, a, shared_missing, bc_only)
	for name, c in a.counts.items():
		log(f"runner {name}: {c['same']} same, {c['differs']} differs, {c['undecided']} undecided")
	log(f"wrote {os.path.join(a.out, 'parity.md')} and parity.json in {elapsed / 60:.1f} minutes")


if __name__ == '__main__':
	main()
