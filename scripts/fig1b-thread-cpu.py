#!/usr/bin/python3
"""Per treatment of a scripts/fig1b-testbed.sh run: both drivers' and all executors' CPU seconds per repetition,
over their whole lives (preparing included), each treatment's mean difference from fifo split by thread name
(digits folded: "C# CompilerThre" is the JIT), and each controller's CPU by configuration with its JIT's part.

    scripts/fig1b-thread-cpu.py THREADS.jsonl SPARK_MASTER_LOG [GROUP,GROUP...]

GROUPs (thread names with digits folded, as printed) are also printed per treatment: mean CPU s per repetition.

THREADS.jsonl from scripts/jvm-thread-sampler.py; the master's log (a copy of /run/saba/testbed/NAME/spark/
master.log taken before the testbed goes down) names each executor's application."""
import json, sys, re, collections, statistics as st
f, master = sys.argv[1], sys.argv[2]
groups = sys.argv[3].split(',') if len(sys.argv) > 3 else []
apps = {}
for line in open(master):
    m = re.search(r'Registered app (\S+) with ID (app-[0-9-]+)', line)
    if m: apps[m.group(2)] = m.group(1)
runs = collections.defaultdict(lambda: collections.Counter())  # (rep, case, role) -> thread group cpu
ctl = collections.defaultdict(list)
for line in open(f):
    p = json.loads(line)
    cmd = p['cmd']
    g = collections.Counter()
    for tid, (tn, cpu) in p['threads'].items():
        g[re.sub(r'[0-9]+', '#', tn)] += cpu
    m = re.search(r'spark\.app\.name=(r\d+)-(\S+)-(sort|pagerank)\b', cmd)
    if m and sum(g.values()) > 3:  # the driver JVM (its launcher wrapper uses ~1 s)
        runs[(m.group(1), m.group(2), 'driver')] += g; continue
    if 'CoarseGrainedExecutorBackend' in cmd:
        aid = re.search(r'--app-id (\S+)', cmd).group(1)
        name = apps.get(aid)
        if name is None: continue
        m = re.match(r'(r\d+)-(\S+)-(sort|pagerank)$', name)
        runs[(m.group(1), m.group(2), 'executor')] += g; continue
    m = re.search(r'--config (\S+)', cmd)
    if m and ' controller ' in cmd:
        ctl[m.group(1).split('/')[-1]].append(g)
cases = sorted({c for (_, c, _) in runs})
reps = sorted({r for (r, _, _) in runs})
for role in ('driver', 'executor'):
    print(f'== {role}s (both applications), CPU s per repetition')
    for c in cases:
        vals = [sum(runs[(r, c, role)].values()) for r in reps if (r, c, role) in runs]
        print(f'  {c:16} ' + ' '.join(f'{v:6.1f}' for v in vals) + f'   median {st.median(vals):6.1f}' if vals else c)
    if 'fifo' in cases:
        for c in cases:
            if c == 'fifo': continue
            diff = collections.Counter()
            n = 0
            for r in reps:
                if (r, c, role) in runs and (r, 'fifo', role) in runs:
                    n += 1
                    diff.update(runs[(r, c, role)]); diff.subtract(runs[(r, 'fifo', role)])
            top = sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:6]
            print(f'  {c} - fifo, mean over {n}: total {sum(diff.values())/max(n,1):+.1f} | ' + ', '.join(f'{k} {v/max(n,1):+.2f}' for k, v in top))
    for c in cases:
        mine = [runs[(r, c, role)] for r in reps if (r, c, role) in runs]
        if groups and mine:
            print(f'  {c:16} mean ' + ', '.join(f'{g} {sum(m[g] for m in mine)/len(mine):.2f}' for g in groups))
print('== controllers, CPU s per run')
for cfg, gs in sorted(ctl.items()):
    tot = [sum(g.values()) for g in gs]
    comp = [sum(v for k, v in g.items() if 'Compiler' in k) for g in gs]
    print(f'  {cfg:32} ' + ' '.join(f'{t:5.1f}' for t in tot) + '  of which JIT ' + ' '.join(f'{c:4.1f}' for c in comp))
