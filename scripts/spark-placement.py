#!/usr/bin/env python3
"""Where each Spark application's cached blocks and tasks ran, from its event log (fig1b-testbed.sh EVENTS=1).

One line per application: its name, how many cached RDD blocks and tasks each host held, and the bytes of task
results that crossed from other hosts to the driver's. A job whose tasks return large results (LR's gradients)
sends more over the driver's link the fewer of its cached blocks sit beside the driver, so two runs of the same
job can move very different amounts over the same port.

    scripts/spark-placement.py OUT/events/*   (gzipped logs too)
"""
import argparse
import collections
import gzip
import json
import sys


def placement(path):
    name, driver = path, None
    blocks = {}  # block id -> host holding it in memory (the last update wins)
    tasks = collections.Counter()
    results = collections.Counter()
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for line in f:
            e = json.loads(line)
            kind = e["Event"]
            if kind == "SparkListenerApplicationStart":
                name = e["App Name"]
            elif kind == "SparkListenerBlockManagerAdded" and e["Block Manager ID"]["Executor ID"] == "driver":
                driver = e["Block Manager ID"]["Host"]
            elif kind == "SparkListenerBlockUpdated":
                info = e["Block Updated Info"]
                if info["Block ID"].startswith("rdd_"):
                    if info.get("Memory Size", 0) > 0:
                        blocks[info["Block ID"]] = info["Block Manager ID"]["Host"]
                    else:
                        blocks.pop(info["Block ID"], None)
            elif kind == "SparkListenerTaskEnd":
                host = e["Task Info"]["Host"]
                tasks[host] += 1
                results[host] += (e.get("Task Metrics") or {}).get("Result Size", 0)
    crossing = sum(v for h, v in results.items() if h != driver)
    return name, driver, collections.Counter(blocks.values()), tasks, crossing


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("logs", nargs="+")
    args = p.parse_args()
    rows = []
    for path in args.logs:
        try:
            rows.append(placement(path))
        except (OSError, ValueError, KeyError) as err:
            print(f"spark-placement: {path}: {err}", file=sys.stderr)
            sys.exit(2)
    print(f"{'application':<24} {'driver':<12} {'cached blocks by host':<34} {'tasks by host':<34} results crossing MB")
    for name, driver, blocks, tasks, crossing in sorted(rows):
        fmt = lambda c: " ".join(f"{h}:{n}" for h, n in sorted(c.items())) or "-"
        print(f"{name:<24} {driver or '?':<12} {fmt(blocks):<34} {fmt(tasks):<34} {crossing / 1e6:.1f}")


if __name__ == "__main__":
    main()
