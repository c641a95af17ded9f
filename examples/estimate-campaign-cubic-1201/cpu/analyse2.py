#!/usr/bin/env python3
"""CPU seconds per phase of a testbed campaign setup (baseline or Saba run), over the whole phase and over its
timed part only (gate open to the last job's end), from sampler.py's readings and the campaign logs."""
import bisect, collections, json, re, sys
d = json.load(open(sys.argv[1])); logdir = sys.argv[2]
btime = int([l for l in open('/proc/stat') if l.startswith('btime')][0].split()[1])
for r in d.values():
    r['start'] = btime + r['start_ticks'] / 100
def at(r, t):  # cumulative CPU of process r at time t (0 before its start; its last reading after)
    s = r.get('series') or [[r['last_seen'], r['cpu_s']]]
    if t <= r['start']: return 0.0
    ts = [p[0] for p in s]; i = bisect.bisect_right(ts, t)
    if i == 0:  # before the first reading: interpolate from the start
        return s[0][1] * (t - r['start']) / max(s[0][0] - r['start'], 1e-9)
    if i == len(s): return s[-1][1]
    (t0, c0), (t1, c1) = s[i - 1], s[i]
    return c0 + (c1 - c0) * (t - t0) / (t1 - t0)
def secs(h): a = [int(x) for x in h.split(':')]; return a[0] * 3600 + a[1] * 60 + a[2]
def parse_blocks(path):
    blocks, cur = [], None
    for line in open(path, errors='replace'):
        m = re.match(r'\[(\d+:\d\d:\d\d)\] (.*)', line)
        if not m: continue
        t, msg = secs(m[1]), m[2]
        if msg.startswith('setups to run'): cur = []; blocks.append(cur)
        if cur is not None: cur.append((t, msg))
    return blocks
import datetime
campaigns = sorted((r for r in d.values() if r['cat'] == 'campaign'), key=lambda r: r['start'])
day0 = datetime.datetime.fromtimestamp(campaigns[0]['start'], datetime.timezone.utc)
rows = []
for line in open(f'{logdir}/progress.txt'):
    m = re.match(r'== setup (\d+) rep \d+ (\w+): (\d\d):(\d\d):(\d\d)', line)
    if not m: continue
    setup, tr = int(m[1]), m[2]
    mark = day0.replace(hour=int(m[3]), minute=int(m[4]), second=int(m[5])).timestamp()
    if mark < campaigns[0]['start'] - 43200: mark += 86400
    c = [c for c in campaigns if mark - 2 <= c['start'] <= mark + 15 and c['last_seen'] - c['start'] > 60]
    if not c: continue
    c = c[0]
    blocks = [b for b in parse_blocks(f'{logdir}/r1-{tr}.log') if any(f'setup {setup} ' in msg for _, msg in b)]
    if not blocks: continue
    b = blocks[-1]
    launches = {}; ends = collections.defaultdict(list)
    for t, msg in b:
        m2 = re.match(r'setup (\d+) (saba|baseline): (\d+) drivers launched', msg)
        if m2 and int(m2[1]) == setup: launches[m2[2]] = t
        m2 = re.match(r'setup (\d+) (saba|baseline): \S+ .* done in ([\d.]+) s', msg)
        if m2 and int(m2[1]) == setup: ends[m2[2]].append((t, float(m2[3])))
    for kind, launch in launches.items():
        if kind not in ends: continue
        a = c['start'] + launch; e = c['start'] + max(t for t, _ in ends[kind])
        if e > c['last_seen'] + 5: continue  # an earlier invocation's block
        gate = min(c['start'] + t - dur for t, dur in ends[kind])
        rows.append((tr, setup, kind, a, gate, e))
out = collections.OrderedDict()
for tr, s, kind, a, gate, e in sorted(rows, key=lambda x: x[3]):
    tot = collections.defaultdict(float); timed = collections.defaultdict(float)
    for r in d.values():
        if r['cat'] not in ('driver', 'executor', 'controller', 'daemon'): continue
        if r['cat'] in ('driver', 'executor') and not (a - 2 <= r['start'] <= e): continue
        if r['cat'] == 'controller' and not (r['start'] <= e and r['last_seen'] >= a - 60): continue
        if r['cat'] == 'controller' and kind != 'saba': continue
        tot[r['cat']] += at(r, e + 1) - at(r, a - 60 if r['cat'] == 'controller' else a - 2)
        timed[r['cat']] += at(r, e) - at(r, gate)
    out[(tr, s, kind)] = (tot, timed, e - gate)
print('CPU seconds; "timed": from the gate opening to the last job\'s end; daemons: the Spark master and workers')
print(f"{'treatment':9s} {'setup':>5s} {'run':8s} | {'all: drv':>8s} {'exec':>6s} {'ctrl':>5s} | {'timed: drv':>10s} {'exec':>6s} {'ctrl':>5s} {'daemons':>7s} {'sum':>6s} {'wall':>6s} {'sum/wall':>8s}")
for (tr, s, kind), (tot, timed, wall) in out.items():
    sm = sum(timed.values())
    print(f"{tr:9s} {s:5d} {kind:8s} | {tot['driver']:8.1f} {tot['executor']:6.1f} {tot['controller']:5.1f} | {timed['driver']:10.1f} {timed['executor']:6.1f} {timed['controller']:5.1f} {timed['daemon']:7.1f} {sm:6.1f} {wall:6.1f} {sm / wall:8.2f}")
