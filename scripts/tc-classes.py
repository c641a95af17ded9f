#!/usr/bin/env python3
"""What each HTB class carried on each port over a co-run, from fig1b-testbed.sh's MONITOR=1 log (tc-rN-CASE.log).

    scripts/tc-classes.py tc-r1-saba.log [--every SECONDS] [--while JOB_LOG ...]

Prints, per port and class, the bytes sent and packets dropped between the first and last samples, the class's
rate at the end and its share of the port's bytes; with --every, each class's throughput in Mbit/s per window of
that many seconds as well, to see whether a link was full while both jobs ran. With --while, only the time in
which every given job's timed run (its SABA_RESULT line: started_ms, seconds) overlapped, and each port's mean
Mbit/s over it. Each port's samples in which it sent at least 90 % of its link (the root class's rate) are counted:
how often the link was full, at the monitor's 2 s resolution. A class that the controller deletes
and re-creates restarts its counters; a fall in a counter counts as a restart.
"""
import argparse
import gzip
import re
import sys
from collections import defaultdict
from datetime import datetime, timezone

CLASS = re.compile(r"^class htb (\S+) .*?rate (\S+) ceil (\S+)")
SENT = re.compile(r"^\s*Sent (\d+) bytes (\d+) pkt \(dropped (\d+)")
ROOT = "1:1"  # the sum of its leaves; its rate is the link's
FULL = 0.9  # a port sending at least this fraction of its link over a sample counts as full
RESULT = re.compile(r"SABA_RESULT .*?seconds=([\d.]+) started_ms=(\d+)")


def samples(path):
    """[(unix time, {port: {class: (bytes, dropped, rate)}})]"""
    out, port, cls, rate = [], None, None, None
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
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


def grown(before, after, port, cls, field):
    """How much a counter grew between two samples (its whole value if the class was re-created)."""
    now = after[port][cls][field]
    was = before.get(port, {}).get(cls, (0, 0, None))[field]
    return now - was if now >= was else now


def timed_run(job_log):
    """(start, end) in unix seconds of a workload run's timed part, from its log's SABA_RESULT line."""
    with open(job_log) as f:
        m = RESULT.search(f.read())
    if not m:
        raise ValueError("no SABA_RESULT line (the job did not finish)")
    start = int(m.group(2)) / 1000
    return start, start + float(m.group(1))


UNITS = {"bit": 1, "Kbit": 1e3, "Mbit": 1e6, "Gbit": 1e9}


def bits_per_second(tc_rate):
    """tc's rate notation ("20Mbit", "512496bit") in bit/s."""
    m = re.fullmatch(r"([\d.]+)([KMG]?bit)", tc_rate)
    if not m:
        raise ValueError(f"unreadable rate {tc_rate!r}")
    return float(m.group(1)) * UNITS[m.group(2)]


def totals(series):
    sent, dropped, rate = defaultdict(int), defaultdict(int), {}
    full, intervals = defaultdict(int), defaultdict(int)  # per port: intervals at >= FULL of the root's rate
    for (t0, before), (t1, after) in zip(series, series[1:]):
        for port, classes in after.items():
            leaves = 0
            for cls, (_, _, r) in classes.items():
                sent[port, cls] += grown(before, after, port, cls, 0)
                dropped[port, cls] += grown(before, after, port, cls, 1)
                rate[port, cls] = r
                if cls != ROOT:
                    leaves += grown(before, after, port, cls, 0)
            if ROOT in classes:
                intervals[port] += 1
                full[port] += leaves * 8 / (t1 - t0) >= FULL * bits_per_second(classes[ROOT][2])
    span = series[-1][0] - series[0][0]
    print(f"{len(series)} samples over {span:.0f} s")
    print(f"{'port':8} {'class':6} {'rate':>10} {'MB sent':>9} {'share':>6} {'dropped':>8}")
    for port in sorted({p for p, _ in sent}):
        leaves = sorted(c for p, c in sent if p == port and c != ROOT)
        total = sum(sent[port, c] for c in leaves) or 1
        for c in leaves:
            print(f"{port:8} {c:6} {rate[port, c]:>10} {sent[port, c] / 1e6:9.2f} {sent[port, c] / total:6.1%} "
                  f"{dropped[port, c]:8d}")
    print("mean Mbit/s per port: " + ", ".join(
        f"{p} {sum(v for (q, c), v in sent.items() if q == p and c != ROOT) * 8 / span / 1e6:.1f}"
        for p in sorted({p for p, _ in sent})))
    print(f"samples in which the port sent at least {FULL:.0%} of its link: " + ", ".join(
        f"{p} {full[p]} of {intervals[p]}" for p in sorted(intervals)))


def windows(series, seconds):
    ports = sorted({p for _, s in series for p in s})
    classes = sorted({c for _, s in series for p in s for c in s[p] if c != ROOT})
    print(f"\nMbit/s per {seconds:g} s window, per port: classes {' / '.join(classes)}")
    print(f"{'from (UTC)':10} " + "  ".join(f"{p:>{6 * len(classes) - 1}}" for p in ports))
    start = 0
    for i in range(1, len(series)):
        if series[i][0] - series[start][0] < seconds and i < len(series) - 1:
            continue
        (t0, a), (t1, b) = series[start], series[i]
        cells = []
        for p in ports:
            rates = [(grown(a, b, p, c, 0) if c in b[p] else 0) * 8 / (t1 - t0) / 1e6 for c in classes]
            cells.append("/".join(f"{r:5.1f}" for r in rates))
        print(f"{datetime.fromtimestamp(t0, timezone.utc):%H:%M:%S}   " + "  ".join(cells))
        start = i


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--every", type=float, help="also print throughput per window of this many seconds")
    ap.add_argument("--while", dest="jobs", nargs="+", metavar="JOB_LOG",
                    help="only while all these jobs' timed runs overlapped")
    args = ap.parse_args()
    name = args.log
    try:
        series = samples(args.log)
        if args.jobs:
            runs = []
            for job in args.jobs:
                name = job
                runs.append(timed_run(job))
            lo, hi = max(a for a, _ in runs), min(b for _, b in runs)
            series = [x for x in series if lo <= x[0] <= hi]
            name = args.log
            print(f"while {', '.join(args.jobs)} all ran ({max(hi - lo, 0):.1f} s)")
    except (OSError, ValueError) as e:
        print(f"tc-classes: {name}: {e}", file=sys.stderr)
        sys.exit(2)
    if len(series) < 2:
        print(f"tc-classes: {args.log}: fewer than two samples", file=sys.stderr)
        sys.exit(2)
    print(args.log + ": ", end="")
    totals(series)
    if args.every:
        windows(series, args.every)


if __name__ == "__main__":
    main()
