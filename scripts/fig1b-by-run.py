#!/usr/bin/env python3
"""Each co-run of a fig1b-testbed.sh folder beside the bytes that crossed the busiest port, and the treatment's
effect once those bytes are accounted for.

Spark decides where a job's cached blocks and reduce tasks run, and with that how many bytes cross each link: two
runs of the same pair under the same treatment can differ by a third in the bytes over one port. This prints per
co-run: its position in the repetition, the megabytes each port's classes carried and the packets the port dropped
(MONITOR=1), the hosts' TCP retransmissions and timeouts (MONITOR=1 logs from 2026-11-29 on), LR-style task
results crossing to the driver (EVENTS=1, when kept), the times and slowdowns; then a least-squares fit of the
sum of slowdowns on the treatment and the megabytes over PORT, with bootstrap 95 % intervals.

    scripts/fig1b-by-run.py OUT [--port h2:0] [--control fifo] [--treatment saba]
"""
import argparse
import glob
import gzip
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def port_classes(log, port):
    """{class: (megabytes carried, packets dropped)} on PORT over the co-run, from tc-classes.py."""
    done = subprocess.run([sys.executable, os.path.join(HERE, "tc-classes.py"), log], capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip() or f"tc-classes.py could not read {log}")
    out = done.stdout
    classes = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 6 and f[0] == port and f[1].startswith("1:"):
            classes[f[1]] = (float(f[3]), int(f[5]))
    return classes


TCP = ("TcpRetransSegs", "TcpExtTCPTimeouts")


def tcp_growth(log):
    """{counter: growth over the co-run, summed over the hosts} from the log's '== hN:tcp' sections (nstat; logs
    before 2026-11-29 have none: empty)."""
    first, last, host = {}, {}, None
    with (gzip.open(log, "rt") if log.endswith(".gz") else open(log)) as f:
        for line in f:
            if line.startswith("== "):
                host = line[3:].strip() if line.strip().endswith(":tcp") else None
            elif host and line.split()[:1] and line.split()[0] in TCP:
                name, value = line.split()[:2]
                first.setdefault((host, name), int(value))
                last[host, name] = int(value)
    return {c: sum(v - first[k] for k, v in last.items() if k[1] == c) for c in TCP} if last else {}


def crossing(out):
    """Per application name, the task results that crossed to the driver's host (spark-placement.py)."""
    logs = [f for f in glob.glob(os.path.join(out, "events", "*")) if not f.endswith(".inprogress")]
    if not logs:
        return {}
    done = subprocess.run([sys.executable, os.path.join(HERE, "spark-placement.py")] + logs, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise ValueError(done.stderr.strip())
    text = done.stdout
    return {line.split()[0]: float(line.split()[-1]) for line in text.splitlines()[1:]}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--port", default="h2:0")
    p.add_argument("--control", default="fifo")
    p.add_argument("--treatment", default="saba")
    a = p.parse_args()
    try:
        report(a)
    except (OSError, ValueError, IndexError, statistics.StatisticsError) as err:
        print(f"fig1b-by-run: {a.out}: {err}", file=sys.stderr)
        sys.exit(2)


def report(a):
    lines = open(os.path.join(a.out, "times.txt")).read().splitlines()
    header = lines[0].split() if lines else []
    if len(header) != 6 or header[:2] != ["rep", "case"]:
        raise ValueError("times.txt does not start with fig1b-testbed.sh's header 'rep case A (s) B (s)'")
    job_a, job_b = header[2], header[4]
    times = {}
    for n, line in enumerate(lines[1:], start=2):
        r = line.split()
        try:
            times[(int(r[0]), r[1])] = (float(r[2]), float(r[3]))
        except (ValueError, IndexError):
            raise ValueError(f"times.txt line {n} is not 'REP CASE SECONDS SECONDS': {line!r}") from None
    gates = [l.split()[0] for l in open(os.path.join(a.out, "gate.log")) if l.strip()]
    alone = [statistics.median(v[i] for (_, c), v in times.items() if c == "alone") for i in (0, 1)]
    position = {}
    for g in gates:
        rep, case = g[1:].split("-", 1)
        position.setdefault(int(rep), []).append(case)
    results = crossing(a.out)
    print(f"alone (median): {job_a} {alone[0]:.1f} s, {job_b} {alone[1]:.1f} s; MB over {a.port} per class, "
          f"packets it dropped, TCP segments retransmitted and timeouts (RTOs) on all hosts")
    print(f"{'rep':>3} {'case':<7} {'pos':>3} {a.port + ' MB':>9} {'classes':<28} {'drops':>6} {'retrans':>7} "
          f"{'RTOs':>5} {job_a + ' results':>11} {job_a + ' s':>7} {job_b + ' s':>7} {'sum':>5}")
    fit = []
    for (rep, case), (ta, tb) in sorted(times.items()):
        if case not in (a.control, a.treatment):
            continue
        log = os.path.join(a.out, f"tc-r{rep}-{case}.log")
        log = log if os.path.exists(log) else log + ".gz"
        classes = port_classes(log, a.port) if os.path.exists(log) else {}
        tcp = tcp_growth(log) if os.path.exists(log) else {}
        total = sum(mb for mb, _ in classes.values())
        s = ta / alone[0] + tb / alone[1]
        res = results.get(f"r{rep}-{case}-{job_a}")
        pos = position.get(rep, []).index(case) + 1 if case in position.get(rep, []) else 0
        print(f"{rep:>3} {case:<7} {pos:>3} {total:>9.1f} "
              f"{' '.join(f'{k}={mb:.0f}' for k, (mb, _) in sorted(classes.items()) if mb >= 1):<28} "
              f"{sum(d for _, d in classes.values()):>6} {tcp.get(TCP[0], '-'):>7} {tcp.get(TCP[1], '-'):>5} "
              f"{'-' if res is None else f'{res:.1f}':>11} {ta:>7.1f} {tb:>7.1f} {s:>5.2f}")
        if classes:
            fit.append((1.0 if case == a.treatment else 0.0, total, s))
    if len(fit) < 4:
        return
    try:
        import numpy as np
    except ImportError:
        raise ValueError("the fit needs numpy (pip install numpy); the table above is complete") from None
    x = np.array([[1.0, t, mb] for t, mb, _ in fit])
    y = np.array([s for *_, s in fit])
    beta = np.linalg.lstsq(x, y, rcond=None)[0]
    rng = np.random.default_rng(1)
    boot = np.array([np.linalg.lstsq(x[i], y[i], rcond=None)[0]
                     for i in (rng.integers(0, len(y), len(y)) for _ in range(5000))])
    print(f"sum of slowdowns = a + b ({a.treatment}) + c (MB over {a.port}), {len(y)} co-runs, bootstrap 95 %:")
    for k, name in enumerate(("a", f"b, {a.treatment} against {a.control}", "c, per MB")):
        print(f"  {name}: {beta[k]:.4f} [{np.percentile(boot[:, k], 2.5):.4f}, {np.percentile(boot[:, k], 97.5):.4f}]")


if __name__ == "__main__":
    main()
