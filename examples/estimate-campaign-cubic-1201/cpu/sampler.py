#!/usr/bin/env python3
"""Samples the CPU of the campaign's JVMs every 0.5 s from /proc; dumps pid -> last reading to a JSON file."""
import json, os, re, sys, time
out = sys.argv[1]
TICK = os.sysconf('SC_CLK_TCK')
seen = {}
def category(cmd):
    if 'CoarseGrainedExecutorBackend' in cmd: return 'executor'
    if 'io.saba.workloads.WorkloadMain' in cmd: return 'driver'
    if 'io.saba.cli.SabaCli controller' in cmd: return 'controller'
    if 'deploy.worker.Worker' in cmd or 'deploy.master.Master' in cmd: return 'daemon'
    if 'io.saba.cli.SabaCli' in cmd: return 'campaign'
    return None
last_dump = 0
while True:
    for pid in os.listdir('/proc'):
        if not pid.isdigit(): continue
        try:
            st = int(open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[19])
            key = f'{pid}:{st}'
            if key not in seen:
                cmd = open(f'/proc/{pid}/cmdline','rb').read().replace(b'\0', b' ').decode(errors='replace')
                cat = category(cmd)
                if cat is None:
                    seen[key] = None; continue
                m = re.search(r'spark\.app\.name=(\S+)', cmd)
                u = re.search(r'driver-url spark://CoarseGrainedScheduler@(\S+)', cmd)
                a = re.search(r'--app-id (\S+)', cmd)
                seen[key] = {'cat': cat, 'name': m.group(1) if m else None, 'driver_url': u.group(1) if u else None,
                             'app_id': a.group(1) if a else None, 'first_seen': time.time()}
            rec = seen[key]
            if rec is None: continue
            f = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()
            rec['cpu_s'] = (int(f[11]) + int(f[12])) / TICK
            rec['child_cpu_s'] = (int(f[13]) + int(f[14])) / TICK
            rec['start_ticks'] = int(f[19])
            rec['last_seen'] = time.time()
            series = rec.setdefault('series', [])
            if not series or rec['last_seen'] - series[-1][0] >= 2:
                series.append([round(rec['last_seen'], 1), rec['cpu_s']])
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            pass
    # forget pids that vanished and were never interesting, so pid reuse is caught
    for key in [k for k, r in seen.items() if r is None and not os.path.exists(f"/proc/{k.split(':')[0]}")]:
        del seen[key]
    now = time.time()
    if now - last_dump > 5:
        tmp = out + '.tmp'
        json.dump({p: r for p, r in seen.items() if r}, open(tmp, 'w'))
        os.replace(tmp, out); last_dump = now
    time.sleep(0.5)
