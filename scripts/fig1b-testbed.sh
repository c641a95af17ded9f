#!/usr/bin/env bash
# Fig. 1b on the namespace testbed (root): two real Spark applications, one bandwidth-sensitive and one not,
# share the testbed's shaped links; each runs alone, then both together without Saba (one FIFO per switch port)
# and together with Saba (a standalone controller on h1 programs the hosts' NIC egress and the switch ports with
# the Linux backend; both drivers use the SabaShuffleManager). Prints completion times and slowdowns against
# running alone.
#
#   scripts/fig1b-testbed.sh [A=sort] [B=pagerank] [RATE=20mbit] [SCALE=small] [FACTOR=1] [REPS=3] [TABLE=...json]
#                            [LEVELS=10,25,50,75,100] [PREPS=2]
#
# Without TABLE, A and B are first profiled (saba profile, PREPS runs per level) on this testbed with the same
# Spark settings, and the controller uses that table: the slowdown curves must describe these jobs at this rate.
# The profile is resumable: re-running with the same OUT skips the runs already done.
#
# Needs: a build (mvn -B -q -DskipTests package), root. Leaves nothing running (trap).
set -euo pipefail
for kv in "$@"; do export "${kv?}"; done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
A=${A:-sort}; B=${B:-pagerank}; RATE=${RATE:-20mbit}; SCALE=${SCALE:-small}; FACTOR=${FACTOR:-1}; REPS=${REPS:-3}
NAME=${NAME:-fig1b}; SUBNET=${SUBNET:-10.79.0}; LEVELS=${LEVELS:-10,25,50,75,100}; PREPS=${PREPS:-2}
OUT=${OUT:-$here/fig1b-out}; TABLE=${TABLE:-}
saba="$here/bin/saba"
shuffle_jar=$(ls "$here"/spark-shuffle-saba/target/saba-spark-shuffle-*-shaded.jar 2>/dev/null | head -1 || true)
spark_jars="$here/workloads/target/spark-home/jars"
[[ -n "$shuffle_jar" && -d "$spark_jars" ]] || { echo "fig1b: build first: mvn -B -q -DskipTests package" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "fig1b: needs root (network namespaces, tc)" >&2; exit 2; }
# the shuffle manager is created when an executor starts: it must be on the class path the workers launch with
ln -sf "$shuffle_jar" "$spark_jars/"

mkdir -p "$OUT"; rm -f "$OUT"/*.report
# one core per worker each: standalone otherwise gives the first application every core, and the second
# waits for it instead of sharing the links with it (the profile runs with the same settings)
spark_conf=(--conf spark.executor.cores=1 --conf spark.cores.max=2 --conf spark.executor.memory=768m)
ctl_pid=""
cleanup() {
  [[ -n "$ctl_pid" ]] && kill "$ctl_pid" 2>/dev/null && wait "$ctl_pid" 2>/dev/null || true
  "$saba" testbed spark stop --name "$NAME" >/dev/null 2>&1 || true
  "$saba" testbed down --name "$NAME" >/dev/null 2>&1 || true
}
trap cleanup EXIT

"$saba" testbed up --hosts 3 --link-rate "$RATE" --name "$NAME" --subnet "$SUBNET"
# two applications at once: each worker offers a core to each
"$saba" testbed spark start --name "$NAME" --cores 2 --memory 2g

if [[ -z "$TABLE" ]]; then
  TABLE="$OUT/table.json"
  "$saba" profile --testbed "$NAME" --workload "$A,$B" --scale "$SCALE" --factor "$FACTOR" --levels "$LEVELS" \
    --repeats "$PREPS" "${spark_conf[@]}" --out "$TABLE" --dir "$OUT/profile" 2>&1 | tee "$OUT/profile.log"
fi

ctl_addr="$SUBNET.1:7070"
cat > "$OUT/controller.yaml" <<YAML
listen: $ctl_addr
# host-queues: the senders' NICs are where the two applications meet first (h2 → h3 and h3 → h2, no fan-in)
topology: {file: /run/saba/testbed/$NAME/topology.yaml, host-queues: 8}
table: $TABLE
c-saba: 0.9
backend: linux
backend-options: {testbed: $NAME, c-saba: 0.9}
YAML

# run TAG WORKLOAD SABA(0|1): one driver on h1; its duration is the last field set of its HiBench report line
run() {
  local tag=$1 w=$2 saba_on=$3
  local conf=(--conf "spark.app.name=$tag-$w" "${spark_conf[@]}")
  if [[ $saba_on == 1 ]]; then
    conf+=(--conf spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager
           --conf "spark.saba.controller.address=$ctl_addr" --conf "spark.saba.workload=$w")
  fi
  "$saba" workload run "$w" --testbed "$NAME" --scale "$SCALE" --factor "$FACTOR" --report "$OUT/$tag-$w.report" "${conf[@]}" \
    > "$OUT/$tag-$w.log" 2>&1
}
duration() { awk 'NF >= 5 && $1 != "Type" { d = $5 } END { print d }' "$OUT/$1.report"; }

printf '%-4s %-10s %10s %10s\n' rep case "$A (s)" "$B (s)" | tee "$OUT/times.txt"
for rep in $(seq 1 "$REPS"); do
  run "r$rep-alone" "$A" 0; run "r$rep-alone" "$B" 0
  run "r$rep-fifo" "$A" 0 & pa=$!; run "r$rep-fifo" "$B" 0 & pb=$!; wait $pa $pb
  ip netns exec "saba-$NAME-h1" "$saba" controller --config "$OUT/controller.yaml" > "$OUT/controller-r$rep.log" 2>&1 &
  ctl_pid=$!
  sleep 8
  run "r$rep-saba" "$A" 1 & pa=$!; run "r$rep-saba" "$B" 1 & pb=$!
  # the classes while both run (released again when the applications leave); apps register ~10 s in
  (sleep 25; { "$saba" testbed status --name "$NAME"; for h in h2 h3; do echo "== $h eth0"
      ip netns exec "saba-$NAME-$h" tc -s class show dev eth0; done; } > "$OUT/status-r$rep.txt" 2>&1 || true) &
  wait $pa $pb
  kill "$ctl_pid"; wait "$ctl_pid" 2>/dev/null || true; ctl_pid=""
  for c in alone fifo saba; do
    printf '%-4s %-10s %10s %10s\n' "$rep" "$c" "$(duration "r$rep-$c-$A")" "$(duration "r$rep-$c-$B")" \
      | tee -a "$OUT/times.txt"
  done
done

# medians over the repetitions, slowdown = together / alone
python3 - "$OUT/times.txt" "$A" "$B" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:] if l.strip()]
a, b = sys.argv[2], sys.argv[3]
med = {c: [statistics.median(float(r[2 + i]) for r in rows if r[1] == c) for i in (0, 1)] for c in ("alone", "fifo", "saba")}
print(f"\nmedian of {len(rows) // 3} repetitions      {a:>10} {b:>10}   sum of slowdowns")
for c, label in (("alone", "alone (s)"), ("fifo", "together, no Saba (s)"), ("saba", "together, Saba (s)")):
    print(f"{label:<30} {med[c][0]:10.1f} {med[c][1]:10.1f}")
for c, label in (("fifo", "slowdown, no Saba"), ("saba", "slowdown, Saba")):
    s = [med[c][i] / med["alone"][i] for i in (0, 1)]
    print(f"{label:<30} {s[0]:9.2f}x {s[1]:9.2f}x   {sum(s):.2f}")
PY
