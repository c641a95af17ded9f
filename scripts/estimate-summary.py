#!/usr/bin/env python3
"""Prints the online estimate after one run against the profiled slowdowns (scripts/estimate-testbed.sh's table).

For each workload: the profiled slowdown at 25 % and 50 % of the link (the table's measured samples at those levels,
their mean where there are several; not its fitted curve), the controller's estimate there (from the status saved
after the workload's run: /status.json's `workloads` section) with its standard error and the signal it rests on
("link": each unit's busiest host bytes over the link rate against its wall time; "wait": the fetch wait against the
task run time, for runs before the link signal or where the controller knew no rate), the relative difference
(estimate - profile) / profile, and whether it is within 25 % at both shares. A workload with no estimate (no unit
reached the controller) is listed as such.

Then, from the stages' signals (OUT/signals/*.jsonl, spark.saba.signals.path), where each workload's time went,
summed over its stages: task run time, of it shuffle fetch wait (what the estimate counts as network), CPU, GC and
the rest (off the CPU and not waiting for shuffle blocks: broadcast and other blocking reads, disk, and time a
runnable thread was not given a core), the time the driver spent fetching large task results (outside the run
time), the stages' own wall time against the job's, the remote shuffle bytes and the time they need at the link
rate (RATE_MBIT, default 20: a lower bound on the network time they cost, beside the fetch wait the tasks saw), the
task results' bytes, and the busiest host's bytes (network_in_busiest_host, where reported) with the link time they
need, each stage's capped at its wall time: what the link signal counts as network time.
Last, the estimate over the stages of the job's timed part only (those submitted after its clock started,
SABA_RESULT's started_ms): the profile times only that part, while the controller also counts the stages that
generate the input (each run alone, so every unit at share 1: phi = link time / wall time where the stages report
their busiest host's bytes, else fetch wait / run time).

Then, where the run recorded them (OUT/link-bytes.txt), the bytes each host's link carried in each direction over the
whole run (its NIC's counters: frames with their headers, the driver's start-up and every kind of traffic) against
what the stages reported: the network bytes (remote shuffle reads and task results) and the busiest host's.

And, from the table alone, the same curve 1 - u + u/b with u the mean utilisation of the link over the profile's
own full-link run (its traffic record, 0.1 s intervals): what one run's byte counters would predict, against the
slowdowns the table measured at 25 % and 50 % (the record comes from the 100 % run only, so this is no fit).

usage: estimate-summary.py TABLE OUT WORKLOAD...
"""
import glob
import json
import os
import statistics
import sys

SHARES = (0.25, 0.5)
WITHIN = 0.25


def profiled(entry, share):
    xs = [s["slowdown"] for s in entry["samples"] if abs(s["bandwidth_percent"] - 100 * share) < 1e-9]
    return statistics.mean(xs) if xs else None


def estimate_of(out, workload):
    f = os.path.join(out, f"status-after-{workload}.json")
    try:
        status = json.load(open(f))
    except (OSError, ValueError):
        return None
    return status.get("workloads", {}).get(workload, {}).get("estimate")


def main():
    table_file, out, workloads = sys.argv[1], sys.argv[2], sys.argv[3:]
    print(f"against {table_file}")
    compare(json.load(open(table_file))["workloads"], out, workloads)
    same = os.path.join(out, "profile-same-conditions.json")
    if os.path.exists(same):
        profiled_here = json.load(open(same))["workloads"]
        print(f"\nagainst {same} (profiled on this testbed after the runs)")
        compare(profiled_here, out, [w for w in workloads if w in profiled_here])
    breakdown(out, workloads)
    links(out, workloads)
    timed_estimate(out, workloads)
    from_utilisation(json.load(open(table_file))["workloads"], table_file)
    if os.path.exists(same):
        from_utilisation(json.load(open(same))["workloads"], same)


def from_utilisation(table, name):
    print(f"\nfrom the link's utilisation in the profile's full-link run (the traffic records of {name})")
    hits, counted = 0, 0
    for w, entry in sorted(table.items()):
        record = entry.get("traffic", {}).get("utilisation")
        if not record:
            continue
        u = statistics.mean(record)
        cells, ok = [], True
        for b in SHARES:
            p = profiled(entry, b)
            d = 1 - u + u / b
            ok = ok and abs((d - p) / p) <= WITHIN
            cells.append(f"at {int(100 * b)} %: {d:.2f} against {p:.2f} ({100 * (d - p) / p:+.0f} %)")
        hits += ok
        counted += 1
        print(f"{w:<14} u {u:.3f}  " + ", ".join(cells) + f"  {'yes' if ok else 'no'}")
    print(f"within 25 % at both: {hits} of {counted} workloads")


def compare(table, out, workloads):
    print(f"{'workload':<14} {'signal':>6} {'phi':>6} {'units':>5}  " + "  ".join(
        f"{'prof@' + str(int(100 * b)):>8} {'est@' + str(int(100 * b)):>14} {'diff':>7}" for b in SHARES)
          + "  within 25 %")
    hits = 0
    for w in workloads:
        e = estimate_of(out, w)
        entry = table.get(w)
        if e is None or entry is None:
            print(f"{w:<14} {'no estimate' if e is None else 'not in the table'}")
            continue
        cells, ok = [], True
        for b in SHARES:
            p = profiled(entry, b)
            at = e["at"][str(b)]
            est, err = at["slowdown"], at["error"]
            diff = (est - p) / p
            ok = ok and abs(diff) <= WITHIN
            err_text = "n/a" if err is None else f"{err:.2f}"
            cells.append(f"{p:8.2f} {est:8.2f}±{err_text:>5} {100 * diff:+6.0f}%")
        hits += ok
        print(f"{w:<14} {e.get('signal', 'wait'):>6} {e['network_share']:6.3f} {e['units']:5d}  " + "  ".join(cells)
              + f"  {'yes' if ok else 'no'}")
    print(f"within 25 % at both 25 % and 50 %: {hits} of {len(workloads)} workloads")


def signals_of(out, workload):
    units = []
    for f in glob.glob(os.path.join(out, "signals", "*.jsonl")):
        for line in open(f):
            try:
                u = json.loads(line)
            except ValueError:
                continue
            if u.get("workload") == workload:
                units.append(u)
    return units


def result_field(out, workload, key):
    try:
        for line in open(os.path.join(out, f"{workload}.log")):
            if line.startswith("SABA_RESULT"):
                for field in line.split():
                    if field.startswith(key + "="):
                        return float(field.split("=")[1])
    except OSError:
        pass
    return None


def job_seconds(out, workload):
    return result_field(out, workload, "seconds")


BUSIEST = "network_in_busiest_host"


def link_millis(unit):
    """The unit's busiest host bytes at the link rate (RATE_MBIT), within its wall time (share 1)."""
    rate = float(os.environ.get("RATE_MBIT", "20"))
    return min(unit["duration_millis"], 8 * unit.get("bytes", {}).get(BUSIEST, 0) / (rate * 1e6) * 1000)


def links(out, workloads):
    f = os.path.join(out, "link-bytes.txt")
    if not os.path.exists(f):
        return
    carried = {}
    for line in open(f):
        fields = line.split()
        if fields and not line.startswith("#") and len(fields) == 7:
            carried[fields[0]] = [int(x) for x in fields[1:]]  # the last run of a workload counts
    names = ["h1 out", "h1 in", "h2 out", "h2 in", "h3 out", "h3 in"]
    print("\nwhat the links carried over each run (NIC counters, MB) against what its stages reported")
    print(f"{'workload':<14} " + " ".join(f"{n:>7}" for n in names)
          + f" {'busiest':>14} {'reported network':>16} {'busiest host':>12}")
    for w in workloads:
        if w not in carried:
            continue
        mb = [x / 1e6 for x in carried[w]]
        top = max(range(6), key=lambda i: mb[i])
        units = signals_of(out, w)
        network = sum(u.get("bytes", {}).get(k, 0) for u in units
                      for k in ("shuffle_remote_read", "task_result")) / 1e6
        busiest = sum(u.get("bytes", {}).get(BUSIEST, 0) for u in units) / 1e6
        print(f"{w:<14} " + " ".join(f"{x:7.1f}" for x in mb)
              + f" {names[top] + ' ' + format(mb[top], '.1f'):>14} {network:16.1f} {busiest:12.1f}")


def timed_estimate(out, workloads):
    print("\nthe estimate over the timed part's stages only (share 1), against the profile")
    for w in workloads:
        started = result_field(out, w, "started_ms")
        units = [u for u in signals_of(out, w)
                 if started is not None and u["end_unix_millis"] - u["duration_millis"] >= started]
        if units and all(BUSIEST in u.get("bytes", {}) for u in units):
            run = sum(u["duration_millis"] for u in units)
            network = sum(link_millis(u) for u in units)
        else:
            run = sum(u["run_millis"] for u in units)
            network = sum(u["network_wait_millis"] for u in units)
        if run <= 0:
            print(f"{w:<14} no timed stage")
            continue
        phi = network / run
        print(f"{w:<14} {len(units):3d} stages  phi {phi:.3f}  slowdown at 25 % {1 - phi + phi / 0.25:.2f}, "
              f"at 50 % {1 - phi + phi / 0.5:.2f}")


def breakdown(out, workloads):
    print(f"\nwhere the time went (seconds, summed over stages; shares of the run time)")
    print(f"{'workload':<14} {'stages':>6} {'run':>7} {'fetch wait':>11} {'cpu':>11} {'gc':>9} {'rest':>11} "
          f"{'result fetch':>12} {'stage wall':>10} {'job':>6} {'remote MB':>9} {'at link':>7} {'result MB':>9} "
          f"{'busiest MB':>10} {'link time':>9}")
    rate = float(os.environ.get("RATE_MBIT", "20"))
    for w in workloads:
        units = signals_of(out, w)
        if not units:
            print(f"{w:<14} no signals")
            continue
        run = sum(u["run_millis"] for u in units) / 1000
        wait = sum(u["network_wait_millis"] for u in units) / 1000
        t = lambda k: sum(u.get("time_millis", {}).get(k, 0) for u in units) / 1000
        cpu, gc, fetch = t("cpu"), t("gc"), t("task_result_fetch")
        rest = run - wait - cpu - gc
        wall = sum(u["duration_millis"] for u in units) / 1000
        mb = sum(u.get("bytes", {}).get("shuffle_remote_read", 0) for u in units) / 1e6
        job = job_seconds(out, w)
        results = sum(u.get("bytes", {}).get("task_result", 0) for u in units) / 1e6
        reported = any(BUSIEST in u.get("bytes", {}) for u in units)
        busiest = sum(u.get("bytes", {}).get(BUSIEST, 0) for u in units) / 1e6
        link = sum(link_millis(u) for u in units) / 1000
        busy = f"{busiest:10.1f} {link:9.1f}" if reported else f"{'-':>10} {'-':>9}"
        pct = lambda x: f"{x:6.1f} {100 * x / run:3.0f}%" if run > 0 else f"{x:6.1f}    "
        print(f"{w:<14} {len(units):6d} {run:7.1f} {pct(wait):>11} {pct(cpu):>11} {pct(gc):>9} {pct(rest):>11} "
              f"{fetch:12.1f} {wall:10.1f} {job if job else float('nan'):6.1f} {mb:9.1f} {8 * mb / rate:7.1f} "
              f"{results:9.1f} {busy}")


if __name__ == "__main__":
    main()
