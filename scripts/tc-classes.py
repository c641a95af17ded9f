#!/usr/bin/env python3
"""Bytes and drops per HTB class per port over a co-run, from fig1b-testbed.sh's MONITOR=1 log (tc-rN-CASE.log).

    scripts/tc-classes.py tc-r1-saba.log [FROM_S TO_S]

Prints, per port and class, the bytes sent and packets dropped between the first and last samples (or between
FROM_S and TO_S seconds after the first sample), the class's rate at the end, and its share of the port's bytes.
A class that the controller deletes and re-creates restarts its counters; a fall in a counter counts as a restart.
"""
import re
import sys
from collections import defaultdict

CLASS = re.compile(r"^class htb (\S+) .*?rate (\S+) ceil (\S+)")
SENT = re.compile(r"^\s*Sent (\d+) bytes (\d+) pkt \(dropped (\d+)")


def samples(path):
    """[(time, {port: {class: (bytes, dropped, rate)}})]"""
    out, port, cls, rate = [], None, None, None
    with open(path) as f:
        for line in f:
            if line.startswith("# "):
                out.append((float(line[2:]), defaultdict(dict)))
            elif line.startswith("== "):
                port = line[3:].strip()
            elif (m := CLASS.match(line)) and out:
                cls, rate = m.group(1), m.group(2)
            elif (m := SENT.match(line)) and out and cls:
                out[-1][1][port][cls] = (int(m.group(1)), int(m.group(3)), rate)
                cls = None
    return out


def main(argv):
    if len(argv) not in (2, 4):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    series = samples(argv[1])
    if len(series) < 2:
        sys.exit(f"{argv[1]}: fewer than two samples")
    t0 = series[0][0]
    lo, hi = (float(argv[2]), float(argv[3])) if len(argv) == 4 else (0, float("inf"))
    window = [s for s in series if lo <= s[0] - t0 <= hi]
    sent, dropped, last_rate = defaultdict(int), defaultdict(int), {}
    for (_, before), (_, after) in zip(window, window[1:]):
        for port, classes in after.items():
            for cls, (b, d, rate) in classes.items():
                pb, pd, _ = before.get(port, {}).get(cls, (0, 0, None))
                sent[port, cls] += b - pb if b >= pb else b
                dropped[port, cls] += d - pd if d >= pd else d
                last_rate[port, cls] = rate
    span = window[-1][0] - window[0][0]
    print(f"{argv[1]}: {len(window)} samples over {span:.0f} s")
    print(f"{'port':8} {'class':6} {'rate':>10} {'MB sent':>9} {'share':>6} {'dropped':>8}")
    for port in sorted({p for p, _ in sent}):
        total = sum(v for (p, _), v in sent.items() if p == port) or 1
        for (p, cls) in sorted(k for k in sent if k[0] == port):
            if cls == "1:1":
                continue  # the root: the sum of its leaves
            print(f"{port:8} {cls:6} {last_rate[p, cls]:>10} {sent[p, cls] / 1e6:9.2f} "
                  f"{sent[p, cls] / (total - sent.get((port, '1:1'), 0) or 1):6.1%} {dropped[p, cls]:8d}")


if __name__ == "__main__":
    main(sys.argv)
