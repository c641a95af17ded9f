#!/usr/bin/env python3
"""Where Saba's plan wins and loses in a fig10-packet run: per workload, the geometric mean over its jobs of Saba's
speedup over a VL per application and over its own levels at equal weights, beside how much the shared VL slows
the workload against running alone; then Saba's own objective, each seed's mean slowdown over the jobs alone, as a
ratio between schemes (geometric mean over seeds, and the seeds where the first scheme's is the higher).

    scripts/fig10-packet-by-workload.py examples/fig10-packet/p3-144-20-seeds/fig10-packet.csv
"""
import csv
import math
import sys
from collections import defaultdict

ALONE = "packet alone (each job by itself)"
VL_PER_APP = "packet vl-per-app"
SABA = "packet saba"
SABA_EQUAL = "packet saba-equal"
SABA_EQ2 = "packet saba-eq2"


def load(path):
    """(seed, job) -> {scheme: seconds, 'shared': seconds, 'workload': name}."""
    jobs = defaultdict(dict)
    try:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                j = jobs[(int(r["seed"]), r["job"])]
                j[r["scheme"]] = float(r["scheme_s"])
                j["shared"] = float(r["baseline_s"])
                j["workload"] = r["workload"]
    except (OSError, KeyError, ValueError) as e:
        print(f"{path}: not a fig10-packet fig10-packet.csv ({e})", file=sys.stderr)
        sys.exit(2)
    if not jobs or any(s not in j for j in jobs.values() for s in (ALONE, VL_PER_APP, SABA, SABA_EQUAL, SABA_EQ2)):
        print(f"{path}: a job lacks one of the packet schemes {ALONE!r}, {VL_PER_APP!r}, {SABA!r}, {SABA_EQUAL!r}, "
              f"{SABA_EQ2!r} (a run by an older build?)",
              file=sys.stderr)
        sys.exit(2)
    return jobs


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    jobs = load(sys.argv[1])
    by_workload = defaultdict(list)
    for j in jobs.values():
        by_workload[j["workload"]].append(j)
    print(f"{'workload':10} {'saba/vl-per-app':>16} {'saba/equal':>11} {'shared/alone':>13} {'jobs':>5}")
    for w, js in sorted(by_workload.items(), key=lambda e: geomean([j["shared"] / j[ALONE] for j in e[1]])):
        print(f"{w:10} {geomean([j[VL_PER_APP] / j[SABA] for j in js]):16.3f}"
              f" {geomean([j[SABA_EQUAL] / j[SABA] for j in js]):11.3f}"
              f" {geomean([j['shared'] / j[ALONE] for j in js]):13.3f} {len(js):5d}")
    seeds = sorted({s for s, _ in jobs})

    def mean_slowdown(seed, scheme):
        xs = [j[scheme] / j[ALONE] for (s, _), j in jobs.items() if s == seed]
        return sum(xs) / len(xs)

    print("\nmean slowdown over the jobs alone (Saba's objective), first scheme's over second's, per seed")
    for a, b in ((VL_PER_APP, SABA), (SABA_EQUAL, SABA), (VL_PER_APP, SABA_EQUAL), (SABA_EQUAL, SABA_EQ2)):
        ratios = [mean_slowdown(s, a) / mean_slowdown(s, b) for s in seeds]
        print(f"{a} / {b}: {geomean(ratios):.3f} (higher in {sum(r > 1 for r in ratios)} of {len(ratios)} seeds)")


if __name__ == "__main__":
    main()
