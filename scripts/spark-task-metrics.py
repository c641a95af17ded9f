#!/usr/bin/env python3
"""Where a co-run's executor time went, per treatment and job, from fig1b-testbed.sh's event logs (EVENTS=1).

Each finished application in OUT/events is named rREP-CASE-WORKLOAD by the script; its tasks' metrics are summed
(executor CPU, run time, JVM GC, shuffle fetch wait, deserialisation, shuffle write), and the medians over the
repetitions are printed per case and job. The whole application counts, data generation before the start gate
included, so compare cases with each other, not with the timed run's duration.

usage: spark-task-metrics.py OUT
"""
import collections
import glob
import json
import os
import statistics
import sys

METRICS = ("cpu s", "run s", "gc s", "fetch wait s", "deser s", "shuffle write s")


def totals(path):
    """(app name, [the six sums in seconds]) of one event log, or (None, None) when it never started."""
    name, sums = None, [0.0] * len(METRICS)
    with open(path) as f:
        for line in f:
            e = json.loads(line)
            if e["Event"] == "SparkListenerApplicationStart":
                name = e["App Name"]
            elif e["Event"] == "SparkListenerTaskEnd":
                m = e.get("Task Metrics") or {}
                for i, v in enumerate((m.get("Executor CPU Time", 0) / 1e9, m.get("Executor Run Time", 0) / 1e3,
                                       m.get("JVM GC Time", 0) / 1e3,
                                       m.get("Shuffle Read Metrics", {}).get("Fetch Wait Time", 0) / 1e3,
                                       m.get("Executor Deserialize Time", 0) / 1e3,
                                       m.get("Shuffle Write Metrics", {}).get("Shuffle Write Time", 0) / 1e9)):
                    sums[i] += v
    return name, sums


def main():
    if len(sys.argv) != 2:
        print("usage: spark-task-metrics.py OUT (a fig1b-testbed.sh folder run with EVENTS=1)", file=sys.stderr)
        sys.exit(2)
    logs = [p for p in glob.glob(os.path.join(sys.argv[1], "events", "app-*")) if not p.endswith(".inprogress")]
    if not logs:
        print(f"spark-task-metrics.py: no finished event log in {sys.argv[1]}/events", file=sys.stderr)
        sys.exit(2)
    runs = collections.defaultdict(list)
    for p in logs:
        try:
            name, sums = totals(p)
        except (ValueError, KeyError) as e:
            print(f"spark-task-metrics.py: {p} is not a Spark event log ({e})", file=sys.stderr)
            sys.exit(2)
        # rN-CASE-JOB; a case may hold dashes (tagged-nosignals), a workload's name does not
        parts = (name or "").split("-", 1)
        if len(parts) == 2 and "-" in parts[1]:
            case, job = parts[1].rsplit("-", 1)
            runs[(job, case)].append(sums)
    print(f"{'job':<10} {'case':<16} {'n':>2} " + " ".join(f"{m:>15}" for m in METRICS) + "  (medians over runs)")
    for (job, case), v in sorted(runs.items()):
        med = [statistics.median(s[i] for s in v) for i in range(len(METRICS))]
        print(f"{job:<10} {case:<16} {len(v):>2} " + " ".join(f"{x:15.1f}" for x in med))


if __name__ == "__main__":
    main()
