#!/usr/bin/env python3
"""Compares the treatments of scripts/estimate-campaign.sh: OUT/rREP/TREATMENT/jobs.csv (saba campaign --testbed's).

1. Per treatment, each setup's speedup over its own baseline run (the geometric mean over its jobs of
   baseline_s / saba_s, as saba campaign reports it): the values, their median with a bootstrap 95 % interval
   (setups and repetitions resampled together, 10,000 draws, fixed seed), and the geometric mean over all jobs.
2. Paired, per setup and repetition: treatment A's setup speedup over B's (A's Saba run against its baseline, over
   B's against its own), its median with a bootstrap interval and in how many setups A was ahead; and the same
   directly on the Saba runs' job times (B's saba_s / A's saba_s, geometric mean over the setup's jobs), which
   leaves the baselines out.
3. The run-to-run spread: each job's baseline time under the treatments (the same plain-Spark run repeated, once
   per treatment folder): max/min per job, median and largest over jobs.

usage: estimate-compare.py OUT TREATMENT...
"""
import csv
import glob
import math
import os
import random
import statistics
import sys


def geomean(xs):
    return math.exp(statistics.mean(math.log(x) for x in xs))


def bootstrap_median(values, draws=10_000, seed=1):
    if len(values) < 2:
        return float("nan"), float("nan")
    rng = random.Random(seed)
    meds = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(draws))
    return meds[int(0.025 * draws)], meds[int(0.975 * draws) - 1]


def read(out, treatment):
    """{(rep, setup): {job: (baseline_s, saba_s)}} of complete rows."""
    runs = {}
    for f in sorted(glob.glob(os.path.join(out, "r*", treatment, "jobs.csv"))):
        rep = os.path.basename(os.path.dirname(os.path.dirname(f)))
        for row in csv.DictReader(open(f)):
            if row["baseline_s"] and row["saba_s"]:
                runs.setdefault((rep, int(row["setup"])), {})[row["job"] + " " + row["workload"]] = (
                    float(row["baseline_s"]), float(row["saba_s"]))
    return runs


def describe(values):
    lo, hi = bootstrap_median(values)
    return f"median {statistics.median(values):.3f} [{lo:.3f}, {hi:.3f}] over {len(values)}"


def main():
    out, treatments = sys.argv[1], sys.argv[2:]
    data = {t: read(out, t) for t in treatments}
    keys = sorted(set.intersection(*(set(d) for d in data.values())))
    if not keys:
        sys.exit("no setup complete under every treatment in " + out)
    print(f"setups complete under every treatment: {len(keys)} ({', '.join(f'{r}/s{s}' for r, s in keys)})\n")
    speedup = {t: {k: geomean([b / s for b, s in data[t][k].values()]) for k in keys} for t in treatments}
    print("1. speedup over the baseline run beside it (per setup: geometric mean over its jobs)")
    print(f"{'setup':<8}" + "".join(f"{t:>10}" for t in treatments))
    for k in keys:
        print(f"{k[0] + '/s' + str(k[1]):<8}" + "".join(f"{speedup[t][k]:10.3f}" for t in treatments))
    for t in treatments:
        jobs = [b / s for k in keys for b, s in data[t][k].values()]
        print(f"  {t:<8} per setup {describe(list(speedup[t].values()))}; geometric mean over {len(jobs)} jobs "
              f"{geomean(jobs):.3f}")
    print("\n2. paired by setup: A over B")
    for i, a in enumerate(treatments):
        for b in treatments[i + 1:]:
            ratio = [speedup[a][k] / speedup[b][k] for k in keys]
            direct = []
            for k in keys:
                jobs = [j for j in data[a][k] if j in data[b][k]]
                direct.append(geomean([data[b][k][j][1] / data[a][k][j][1] for j in jobs]))
            ahead = sum(r > 1 for r in ratio)
            print(f"  {a} over {b}: speedup ratio {describe(ratio)}, {a} ahead in {ahead} of {len(ratio)}; "
                  f"Saba runs' times ({b}/{a}) {describe(direct)}")
    print("\n3. run-to-run spread of the baseline (the same plain-Spark run once per treatment)")
    spreads = []
    for k in keys:
        for j in data[treatments[0]][k]:
            times = [data[t][k][j][0] for t in treatments if j in data[t][k]]
            if len(times) > 1:
                spreads.append(max(times) / min(times))
    if spreads:
        print(f"  max/min of a job's baseline times: median {statistics.median(spreads):.3f}, largest "
              f"{max(spreads):.3f} over {len(spreads)} jobs")


if __name__ == "__main__":
    main()
