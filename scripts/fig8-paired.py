#!/usr/bin/env python3
"""Paired per-job check of two fig8 campaigns (jobs.csv): for every job both ran, the ratio of its speedup in the
second to its speedup in the first. Prints how many jobs and setups were compared, how many rows are identical,
and the largest |ratio - 1|; exits 1 when that exceeds the tolerance (default 0.005, i.e. 0.5 %).

    scripts/fig8-paired.py BASE/jobs.csv NEW/jobs.csv [TOLERANCE]
"""
import csv
import sys


def load(path):
    with open(path, newline="") as f:
        return {(r["setup"], r["job"]): r for r in csv.DictReader(f)}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    base, new = load(sys.argv[1]), load(sys.argv[2])
    tolerance = float(sys.argv[3]) if len(sys.argv) == 4 else 0.005
    common = sorted(set(base) & set(new), key=lambda k: (int(k[0]), k[1]))
    if not common:
        sys.exit("no job in both files")
    worst, at, identical = 0.0, None, 0
    for k in common:
        b = float(base[k]["baseline_s"]) / float(base[k]["policy_s"])
        n = float(new[k]["baseline_s"]) / float(new[k]["policy_s"])
        d = abs(n / b - 1)
        identical += base[k] == new[k]
        if d > worst:
            worst, at = d, k
    setups = len({k[0] for k in common})
    where = f" (setup {at[0]}, {at[1]})" if at else ""
    print(f"paired check: {len(common)} jobs in {setups} setups, {identical} rows identical, "
          f"max |speedup ratio - 1| = {worst:.2e}{where}, tolerance {tolerance:.1e}")
    sys.exit(0 if worst <= tolerance else 1)


if __name__ == "__main__":
    main()
