#!/usr/bin/env python3
"""Two Fig. 8 campaign folders on the same setups, paired: the geometric-mean speedup over jobs of each with a 95 %
bootstrap interval over setups, and their ratio per setup.   usage: fig8-compare.py DIR_A DIR_B [LABEL_A LABEL_B]"""
import csv
import math
import random
import sys
from collections import defaultdict


def per_setup(folder):
    logs = defaultdict(list)
    with open(f"{folder}/jobs.csv") as f:
        for r in csv.DictReader(f):
            logs[int(r["setup"])].append(math.log(float(r["speedup"])))
    return logs


def geo(setups, logs):
    xs = [x for s in setups for x in logs[s]]
    return math.exp(sum(xs) / len(xs))


def interval(setups, stat, rounds=2000):
    rnd = random.Random(1)
    draws = sorted(stat([rnd.choice(setups) for _ in setups]) for _ in range(rounds))
    return draws[int(0.025 * rounds)], draws[int(0.975 * rounds) - 1]


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    a, b = per_setup(sys.argv[1]), per_setup(sys.argv[2])
    la, lb = (sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else ("A", "B")
    setups = sorted(set(a) & set(b))
    for label, logs in ((la, a), (lb, b)):
        lo, hi = interval(setups, lambda s, l=logs: geo(s, l))
        slower = sum(1 for s in setups if geo([s], logs) < 1)
        print(f"{label:>8}: {geo(setups, logs):.3f} [{lo:.3f}, {hi:.3f}] over {len(setups)} setups; "
              f"setups slower than the baseline {slower}")
    ratio = lambda s: geo(s, b) / geo(s, a)
    lo, hi = interval(setups, ratio)
    ahead = sum(1 for s in setups if geo([s], b) > geo([s], a))
    print(f"{lb} / {la}, paired: {ratio(setups):.3f} [{lo:.3f}, {hi:.3f}]; {lb} ahead in {ahead} of {len(setups)}")


if __name__ == "__main__":
    main()
