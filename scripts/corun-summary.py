#!/usr/bin/env python3
"""Summarises co-run repetitions: times.txt (rep case A_seconds B_seconds) -> per treatment the median times,
the slowdowns against the median alone time, and the sum of slowdowns with a bootstrap 95 % interval of its median
(repetitions resampled with replacement, 10,000 draws, fixed seed). A repetition whose time is missing for a
treatment (a failed run) is left out of that treatment and counted.

Then, paired by repetition, each treatment against saba (or against each REFERENCE treatment given): the
difference of the sums within one repetition (the treatments of a repetition ran back to back, so a machine that is
slow for a while slows all of them), its median with a bootstrap 95 % interval, and in how many repetitions the
reference's sum was the lower.

usage: corun-summary.py TIMES A B [REFERENCE...]
"""
import random
import statistics
import sys


def bootstrap_median(values, draws=10_000, seed=1):
    rng = random.Random(seed)
    meds = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(draws))
    return meds[int(0.025 * draws)], meds[int(0.975 * draws) - 1]


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) < 4:
        fail("usage: corun-summary.py TIMES A B [REFERENCE...]")
    times, a, b = sys.argv[1], sys.argv[2], sys.argv[3]
    references = sys.argv[4:] or ["saba"]
    rows = []
    try:
        lines = open(times).read().splitlines()[1:]
        for line in lines:
            f = line.split()
            if len(f) >= 2:
                rows.append((f[0], f[1], float(f[2]) if len(f) > 2 else None, float(f[3]) if len(f) > 3 else None))
    except OSError as e:
        fail(f"corun-summary.py: cannot read {times}: {e.strerror}")
    except ValueError as e:
        fail(f"corun-summary.py: {times} is not a times.txt (rep case A_seconds B_seconds): {e}")
    cases = []
    for _, c, _, _ in rows:
        if c not in cases:
            cases.append(c)
    alone = [r for r in rows if r[1] == "alone" and r[2] and r[3]]
    if not alone:
        fail("corun-summary.py: no complete 'alone' repetition in " + times)
    base_a = statistics.median(r[2] for r in alone)
    base_b = statistics.median(r[3] for r in alone)
    print(f"alone (median of {len(alone)}): {a} {base_a:.1f} s, {b} {base_b:.1f} s")
    print(f"{'treatment':<10} {'n':>2} {a + ' s':>9} {b + ' s':>9} {a + ' x':>8} {b + ' x':>8} "
          f"{'sum x':>7} {'95% interval':>15}  per repetition")
    sums_by_case = {}
    for c in cases:
        if c == "alone":
            continue
        ok = [r for r in rows if r[1] == c and r[2] and r[3]]
        failed = len([r for r in rows if r[1] == c]) - len(ok)
        if not ok:
            print(f"{c:<10} no complete repetition ({failed} failed)")
            continue
        sums = [r[2] / base_a + r[3] / base_b for r in ok]
        sums_by_case[c] = {r[0]: s for r, s in zip(ok, sums)}
        lo, hi = bootstrap_median(sums)
        ta = statistics.median(r[2] for r in ok)
        tb = statistics.median(r[3] for r in ok)
        note = f"  ({failed} failed)" if failed else ""
        print(f"{c:<10} {len(ok):>2} {ta:9.1f} {tb:9.1f} {ta / base_a:7.2f}x {tb / base_b:7.2f}x "
              f"{statistics.median(sums):7.2f} [{lo:5.2f}, {hi:5.2f}]  "
              + " ".join(f"{s:.2f}" for s in sums) + note)
    for reference in references:
        print_paired(sums_by_case, reference)


def print_paired(sums_by_case, reference):
    ref = sums_by_case.get(reference)
    if not ref:
        return
    print(f"paired by repetition: {'treatment':<10} {'n':>2} {'minus ' + reference:>10} {'95% interval':>15}  "
          f"{reference} lower in")
    for c, sums in sums_by_case.items():
        if c == reference:
            continue
        reps = [r for r in sums if r in ref]
        if not reps:
            continue
        diffs = [sums[r] - ref[r] for r in reps]
        lo, hi = bootstrap_median(diffs)
        lower = sum(1 for d in diffs if d > 0)
        print(f"{'':22}{c:<10} {len(reps):>2} {statistics.median(diffs):10.2f} [{lo:5.2f}, {hi:5.2f}]  "
              f"{lower} of {len(reps)}")


if __name__ == "__main__":
    main()
