#!/usr/bin/env python3
"""Two fig8-packet runs of the same setups, job by job: for each scheme both ran, how far a job's completion time in
the second run is from the first (|B / A - 1|: median, 90th percentile, largest) and the same for each setup's
geometric mean over its jobs. What a change to the model moves per job and per setup, beside what it moves in the
paired means the campaign prints.

    scripts/fig8-packet-paired.py A/jobs.csv B/jobs.csv
"""
import csv
import math
import sys
from collections import defaultdict


def load(path):
    try:
        with open(path, newline="") as f:
            return {(int(r["setup"]), r["scheme"], r["job"]): float(r["seconds"]) for r in csv.DictReader(f)}
    except (OSError, KeyError, ValueError) as e:
        print(f"{path}: not a fig8-packet jobs.csv ({e})", file=sys.stderr)
        sys.exit(2)


def quantile(xs, q):
    xs = sorted(xs)
    return xs[int(q * (len(xs) - 1))]


def spread(logs):
    dev = [math.exp(abs(x)) - 1 for x in logs]
    return "%.3f %.3f %.3f" % (quantile(dev, 0.5), quantile(dev, 0.9), max(dev))


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    a, b = load(sys.argv[1]), load(sys.argv[2])
    jobs = defaultdict(list)
    setups = defaultdict(lambda: defaultdict(list))
    for key, seconds in a.items():
        if key in b:
            x = math.log(b[key] / seconds)
            jobs[key[1]].append(x)
            setups[key[1]][key[0]].append(x)
    if not jobs:
        print(f"{sys.argv[1]} and {sys.argv[2]}: no job is in both runs", file=sys.stderr)
        sys.exit(2)
    print("%-12s %6s %6s  %-23s %-23s" % ("scheme", "jobs", "setups", "job |B/A-1| med p90 max",
                                          "setup |B/A-1| med p90 max"))
    for scheme in sorted(jobs):
        means = [sum(v) / len(v) for v in setups[scheme].values()]
        print("%-12s %6d %6d  %-23s %-23s" % (scheme, len(jobs[scheme]), len(means), spread(jobs[scheme]),
                                              spread(means)))


if __name__ == "__main__":
    main()
