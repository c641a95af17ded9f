#!/usr/bin/env bash
# Fig. 1b on the namespace testbed (root): two real Spark applications, one bandwidth-sensitive and one not,
# share the testbed's shaped links; each runs alone, then both together without Saba (one FIFO per switch port)
# and together with Saba (a standalone controller on h1 programs the hosts' NIC egress and the switch ports with
# the Linux backend; both drivers use the SabaShuffleManager). Prints completion times and slowdowns against
# running alone.
#
#   scripts/fig1b-testbed.sh [A=sort] [B=pagerank] [RATE=20mbit] [SCALE=small] [FACTOR=1] [REPS=3] [TABLE=...json]
#                            [LEVELS=10,25,50,75,100] [PREPS=2] [SKEW=75] [TAGGED=1]
#
# TAGGED=1 adds "tagged": Saba's shuffle manager and a controller with a dry-run backend, so every byte is tagged
# but the links stay one FIFO: what the plugin costs, apart from the queues.
# SKEW=P adds the paper's own Fig. 1b case, "skewed": P % of the Saba share to A and the rest to B, set by hand on
# the four ports both applications cross (the controller still assigns levels, so both are tagged, but its backend
# is dry-run). It asks whether an unequal split helps these two jobs at all, apart from what Eq. 2 chose.
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
OUT=${OUT:-$here/fig1b-out}; TABLE=${TABLE:-}; SKEW=${SKEW:-}; TAGGED=${TAGGED:-}
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
  "$saba" profile --testbed "$NAME" --master "spark://$SUBNET.1:7077" --workload "$A,$B" --scale "$SCALE" --factor "$FACTOR" --levels "$LEVELS" \
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
http: $SUBNET.1:7071
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
# levels_of_apps: polls the controller's status until A and B both have a level; prints "LEVEL_A LEVEL_B"
levels_of_apps() {
  ip netns exec "saba-$NAME-h1" python3 - "$SUBNET.1:7071" "$A" "$B" <<'PY'
import json, sys, time, urllib.request
url, a, b = "http://%s/status.json" % sys.argv[1], sys.argv[2], sys.argv[3]
end = time.time() + 90
while time.time() < end:
    try:
        lv = {x["workload"]: x["level"] for x in json.load(urllib.request.urlopen(url, timeout=2))["applications"]}
        if lv.get(a, 0) >= 1 and lv.get(b, 0) >= 1:
            print(lv[a], lv[b]); break
    except OSError:
        pass
    time.sleep(0.2)
PY
}
# skew_ports: before the applications start, weight A's level SKEW % of the Saba share and B's the rest on the
# four ports (the levels Saba gave them in this repetition; the controller assigns the same ones again, since
# levels depend only on the table and the workloads present). All four at once: each call starts a JVM.
skew_ports() {
  local la lb wa wb
  read -r la lb < "$OUT/levels-r$rep.txt" || true
  [[ -n "$la" && "$la" != "$lb" ]] || { echo "skew r$rep: no distinct levels for $A/$B" >&2; return; }
  wa=$(python3 -c "print(round(0.9 * $SKEW / 100, 4))"); wb=$(python3 -c "print(round(0.9 - $wa, 4))")
  local pids=()
  for p in h2:0 h3:0 sw:2 sw:3; do
    "$saba" testbed apply --name "$NAME" --port "$p" --weights "$la=$wa,$lb=$wb" >/dev/null & pids+=($!)
  done
  wait "${pids[@]}"
  echo "skew r$rep: $A level $la weight $wa, $B level $lb weight $wb on h2:0 h3:0 sw:2 sw:3"
}
# dry_run_case CASE: both applications on Saba's shuffle manager against a controller with a dry-run backend
# (levels assigned, every shuffle byte tagged, the links left alone); "skew" then sets the weights by hand
dry_run_case() {
  local c=$1
  sed -e 's/^backend: linux/backend: dry-run/' -e '/^backend-options/d' "$OUT/controller.yaml" > "$OUT/controller-dry.yaml"
  ip netns exec "saba-$NAME-h1" "$saba" controller --config "$OUT/controller-dry.yaml" > "$OUT/controller-$c-r$rep.log" 2>&1 &
  ctl_pid=$!
  sleep 8
  [[ $c == skew ]] && skew_ports >> "$OUT/skew.log" 2>&1
  run "r$rep-$c" "$A" 1 & pa=$!; run "r$rep-$c" "$B" 1 & pb=$!
  wait $pa $pb
  if [[ $c == skew ]]; then
    local pids=()
    for p in h2:0 h3:0 sw:2 sw:3; do "$saba" testbed apply --name "$NAME" --port "$p" --reset >/dev/null & pids+=($!); done
    wait "${pids[@]}"
  fi
  kill "$ctl_pid"; wait "$ctl_pid" 2>/dev/null || true; ctl_pid=""
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
  levels_of_apps > "$OUT/levels-r$rep.txt" &
  # the classes while both run (released again when the applications leave); apps register ~10 s in
  (sleep 25; { "$saba" testbed status --name "$NAME"; for h in h2 h3; do echo "== $h eth0"
      ip netns exec "saba-$NAME-$h" tc -s class show dev eth0; done; } > "$OUT/status-r$rep.txt" 2>&1 || true) &
  wait $pa $pb
  kill "$ctl_pid"; wait "$ctl_pid" 2>/dev/null || true; ctl_pid=""
  cases=(alone fifo saba)
  [[ -n "$TAGGED" ]] && { cases+=(tagged); dry_run_case tagged; }
  [[ -n "$SKEW" ]] && { cases+=(skew); dry_run_case skew; }
  for c in "${cases[@]}"; do
    printf '%-4s %-10s %10s %10s\n' "$rep" "$c" "$(duration "r$rep-$c-$A")" "$(duration "r$rep-$c-$B")" \
      | tee -a "$OUT/times.txt"
  done
done

# medians over the repetitions, slowdown = together / alone
python3 - "$OUT/times.txt" "$A" "$B" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:] if l.strip()]
a, b = sys.argv[2], sys.argv[3]
cases = [c for c in ("alone", "fifo", "saba", "tagged", "skew") if any(r[1] == c for r in rows)]
med = {c: [statistics.median(float(r[2 + i]) for r in rows if r[1] == c) for i in (0, 1)] for c in cases}
labels = {"alone": "alone (s)", "fifo": "together, no Saba (s)", "saba": "together, Saba (s)",
          "tagged": "together, tagged, one FIFO (s)", "skew": "together, skewed by hand (s)"}
print(f"\nmedian of {len(rows) // len(cases)} repetitions      {a:>10} {b:>10}   sum of slowdowns")
for c in cases:
    print(f"{labels[c]:<30} {med[c][0]:10.1f} {med[c][1]:10.1f}")
for c, label in (("fifo", "slowdown, no Saba"), ("saba", "slowdown, Saba"), ("tagged", "slowdown, tagged only"),
                 ("skew", "slowdown, skewed by hand")):
    if c not in med:
        continue
    s = [med[c][i] / med["alone"][i] for i in (0, 1)]
    print(f"{label:<30} {s[0]:9.2f}x {s[1]:9.2f}x   {sum(s):.2f}")
PY
