#!/usr/bin/env python3
"""What each workload sent in one testbed run of scripts/estimate-testbed.sh, as the simulator's calibration needs it
(issue #18, part 2): synchronous rounds (Spark stages), compute per round, bytes by kind (what Spark meters) beside
the bytes on the hosts' NICs (what the links carried), and message sizes.

    usage: workload-records.py RUN_DIR [OUT.csv]

RUN_DIR holds signals/*.jsonl (one unit per stage, from spark.saba.signals.path), runs.txt (each workload's run
time) and link-bytes.txt (each host's NIC bytes over each run). Rounds that move under 64 KiB over the network
count as compute-only. Prints a table and, with OUT.csv, writes one row per workload.
"""
import csv
import glob
import json
import os
import sys
from collections import defaultdict

NETWORK_KINDS = ("shuffle_remote_read", "task_result")
QUIET_ROUND = 64 * 1024
FIELDS = ("workload", "run_s", "rounds", "network_rounds", "stage_s_median", "cpu_s_per_round", "tasks_per_round",
          "shuffle_remote_mb", "shuffle_local_mb", "task_result_mb", "nic_out_mb", "nic_in_mb", "unmetered_mb",
          "remote_block_kb", "task_result_kb", "fetch_wait_s", "result_fetch_s")


def read_units(run_dir):
    units = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(run_dir, "signals", "*.jsonl"))):
        with open(path) as f:
            for line in f:
                u = json.loads(line)
                units[u["workload"]].append(u)
    return units


def read_table(path, key_cols):
    rows = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or line.startswith("workload") or not line.strip():
                continue
            parts = line.split()
            rows[parts[0]] = parts[1:key_cols + 1]
    return rows


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0.0


def record(workload, units, run_s, nic):
    b = lambda u, k: u["bytes"].get(k, 0)
    t = lambda u, k: u["time_millis"].get(k, 0)
    rounds = len(units)
    network = [u for u in units if sum(b(u, k) for k in NETWORK_KINDS) >= QUIET_ROUND]
    remote = sum(b(u, "shuffle_remote_read") for u in units)
    blocks = sum(u["counts"].get("shuffle_remote_blocks", 0) for u in units)
    results = sum(b(u, "task_result") for u in units)
    tasks = sum(u["tasks"] for u in units)
    out_b = sum(int(x) for x in nic[0::2]) if nic else 0
    in_b = sum(int(x) for x in nic[1::2]) if nic else 0
    return {
        "workload": workload,
        "run_s": run_s,
        "rounds": rounds,
        "network_rounds": len(network),
        "stage_s_median": median([u["duration_millis"] / 1e3 for u in units]),
        "cpu_s_per_round": sum(t(u, "cpu") for u in units) / 1e3 / max(rounds, 1),
        "tasks_per_round": tasks / max(rounds, 1),
        "shuffle_remote_mb": remote / 1e6,
        "shuffle_local_mb": sum(b(u, "shuffle_local_read") for u in units) / 1e6,
        "task_result_mb": results / 1e6,
        "nic_out_mb": out_b / 1e6,
        "nic_in_mb": in_b / 1e6,
        # what left the hosts beyond what Spark meters as crossing the network (broadcasts, RPC, block fetches)
        "unmetered_mb": max(0.0, out_b - remote - results) / 1e6,
        "remote_block_kb": remote / blocks / 1e3 if blocks else 0.0,
        "task_result_kb": results / tasks / 1e3 if tasks else 0.0,
        "fetch_wait_s": sum(t(u, "shuffle_fetch_wait") for u in units) / 1e3,
        "result_fetch_s": sum(t(u, "task_result_fetch") for u in units) / 1e3,
    }


def main():
    if len(sys.argv) < 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    run_dir = sys.argv[1]
    units = read_units(run_dir)
    if not units:
        print(f"workload-records: no signals/*.jsonl in {run_dir}", file=sys.stderr)
        sys.exit(2)
    runs = read_table(os.path.join(run_dir, "runs.txt"), 1)
    link = os.path.join(run_dir, "link-bytes.txt")
    nic = read_table(link, 6) if os.path.exists(link) else {}
    rows = [record(w, us, float(runs.get(w, ["nan"])[0]), nic.get(w)) for w, us in sorted(units.items())]
    fmt = lambda v: f"{v:.3g}" if isinstance(v, float) else str(v)
    widths = [max(len(f), 7) for f in FIELDS]
    print("  ".join(f.rjust(w) for f, w in zip(FIELDS, widths)))
    for r in rows:
        print("  ".join(fmt(r[f]).rjust(w) for f, w in zip(FIELDS, widths)))
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=FIELDS)
            writer.writeheader()
            for r in rows:
                writer.writerow({k: fmt(v) for k, v in r.items()})


if __name__ == "__main__":
    main()
