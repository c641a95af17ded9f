#!/usr/bin/env python3
"""Stalls one CPU the way a hypervisor taking a vCPU away would: busy BUSY_MS, then asleep IDLE_MS, forever.

Run it as a real-time task pinned to a CPU, so that nothing at normal priority (softirqs run in ksoftirqd or in the
sender's context included) gets that CPU while it is busy:

    taskset -c 0 chrt -f 50 scripts/cpu-stalls.py 30 30 &
    taskset -c 1 chrt -f 50 scripts/cpu-stalls.py 20 40 &

docs/results/bandwidth-shares.md uses it to show what stalls do to HTB queues on the namespace testbed.
"""
import sys
import time

if len(sys.argv) != 3:
    sys.exit("usage: cpu-stalls.py BUSY_MS IDLE_MS")
try:
    busy, idle = (float(a) / 1000 for a in sys.argv[1:])
except ValueError:
    print(f"cpu-stalls.py: BUSY_MS and IDLE_MS must be numbers, got {sys.argv[1:]}", file=sys.stderr)
    sys.exit(2)
while True:
    start = time.perf_counter()
    while time.perf_counter() - start < busy:
        pass
    time.sleep(idle)
