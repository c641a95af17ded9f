#!/usr/bin/python3
"""Where a testbed run's CPU goes, per JVM and per thread: samples every java process's threads from /proc once a
second and, on SIGTERM, writes per process its command line (the last 600 characters), working directory and
each thread's name and CPU seconds (utime + stime) as last seen, to OUT (JSON lines). A thread that ends between
two samples loses its last second. Costs about 1-2 % of a core with a dozen JVMs.

    /usr/bin/python3 scripts/jvm-thread-sampler.py OUT &  ...run...;  kill %1

scripts/fig1b-thread-cpu.py reads it for a scripts/fig1b-testbed.sh folder."""
import os, sys, time, json, signal, re
hz = os.sysconf('SC_CLK_TCK')
seen = {}  # pid -> {'cmd':..., 'threads': {tid: (name, cpu)}, 'first': t, 'last': t}
out = sys.argv[1]
def dump(*_):
    with open(out, 'w') as f:
        for pid, p in seen.items():
            f.write(json.dumps({'pid': pid, **p}) + '\n')
    sys.exit(0)
signal.signal(signal.SIGTERM, dump)
while True:
    now = time.time()
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open(f'/proc/{pid}/comm') as f:
                if f.read().strip() != 'java':
                    continue
            p = seen.get(pid)
            if p is None:
                with open(f'/proc/{pid}/cmdline', 'rb') as f:
                    cmd = f.read().replace(b'\0', b' ').decode(errors='replace')
                try:
                    cwd = os.readlink(f'/proc/{pid}/cwd')
                except OSError:
                    cwd = ''
                p = seen[pid] = {'cmd': cmd[-600:], 'cwd': cwd, 'threads': {}, 'first': now}
            p['last'] = now
            for tid in os.listdir(f'/proc/{pid}/task'):
                try:
                    with open(f'/proc/{pid}/task/{tid}/stat') as f:
                        s = f.read()
                    name = s[s.index('(') + 1:s.rindex(')')]
                    fields = s[s.rindex(')') + 2:].split()
                    p['threads'][tid] = (name, (int(fields[11]) + int(fields[12])) / hz)
                except (FileNotFoundError, ProcessLookupError, ValueError):
                    pass
        except (FileNotFoundError, ProcessLookupError):
            pass
    time.sleep(1)
