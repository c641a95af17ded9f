#!/usr/bin/env bash
# Issue #20's first evidence on the namespace testbed (root): the online sensitivity estimate a controller reaches
# after ONE run of each workload, against the workload's profiled slowdowns at 25 % and 50 % of the link.
#
#   scripts/estimate-testbed.sh [WORKLOADS="sort wordcount ..."] [TABLE=examples/testbed-campaign/table.json]
#                               [RATE=20mbit] [SCALE=small] [FACTOR=1] [SENSITIVITY=online] [OUT=...]
#                               [NAME=evid-est] [SUBNET=10.88.0] [PROFILE="sort pagerank"] [COUNT_QUEUES=true]
#
# The testbed and Spark are the profile's (examples/testbed-campaign/README.md): 3 hosts at RATE, the master and the
# driver on h1, one worker on each of h2 and h3, one executor of 1 core on each. A standalone controller on h1
# (SENSITIVITY, the table loaded so /status.json shows the table's model beside the estimate, the Linux backend on
# every port) stays up for all runs; each workload runs once, alone, on Saba's shuffle manager with its driver
# plugin reporting one unit per stage. Alone on its ports the application holds all the Saba weight there, so every
# unit ran at share 1. After each run the controller's /status.json is saved (its `workloads` section keeps the
# estimate after the application left) with the stages' signals (spark.saba.signals.path), the load average, and
# the bytes each host's link carried in each direction over the run (its NIC's counters, link-bytes.txt).
# scripts/estimate-summary.py prints the table: profiled slowdowns (the table's measured samples), the estimate
# with its standard error, the relative difference, and whether it is within 25 %.
#
# COUNT_QUEUES (default true) is the Linux backend's count-queues: with it a unit's link bytes are the larger of
# what the plugin reports and what the fabric counted on the application's queue (which includes the bytes Spark
# does not meter); false reads the plugin's alone, as the runs of 2026-11-25 did.
#
# Needs: a build (mvn -B -q -DskipTests package), root, curl, python3. Leaves nothing running (trap).
set -euo pipefail
for kv in "$@"; do export "${kv?}"; done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
WORKLOADS=${WORKLOADS:-sort wordcount sql nutchindexing pagerank nweight lr svm gbt rf}
TABLE=${TABLE:-$here/examples/testbed-campaign/table.json}; TABLE=$(realpath "$TABLE")
RATE=${RATE:-20mbit}; SCALE=${SCALE:-small}; FACTOR=${FACTOR:-1}; SENSITIVITY=${SENSITIVITY:-online}
NAME=${NAME:-evid-est}; SUBNET=${SUBNET:-10.88.0}; OUT=${OUT:-$here/estimate-out}; COUNT_QUEUES=${COUNT_QUEUES:-true}
[[ $COUNT_QUEUES == true || $COUNT_QUEUES == false ]] || { echo "estimate: COUNT_QUEUES=$COUNT_QUEUES: true or false" >&2; exit 2; }
saba="$here/bin/saba"
shuffle_jar=$(ls "$here"/spark-shuffle-saba/spark-3.5/target/saba-spark-3.5_2.12-*-shaded.jar 2>/dev/null | head -1 || true)
spark_jars="$here/workloads/target/spark-home/jars"
[[ -n "$shuffle_jar" && -d "$spark_jars" ]] || { echo "estimate: build first: mvn -B -q -DskipTests package" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "estimate: needs root (network namespaces, tc)" >&2; exit 2; }
[[ -f "$TABLE" ]] || { echo "estimate: no table $TABLE" >&2; exit 2; }
# the shuffle manager is created when an executor starts: it must be on the class path the workers launch with
ln -sf "$shuffle_jar" "$spark_jars/"
mkdir -p "$OUT/signals"
# as the profile ran: one core per executor, two executors (h2, h3)
spark_conf=(--conf spark.executor.cores=1 --conf spark.cores.max=2 --conf spark.executor.memory=768m)
ctl_pid=""
cleanup() {
  [[ -n "$ctl_pid" ]] && kill "$ctl_pid" 2>/dev/null && wait "$ctl_pid" 2>/dev/null || true
  "$saba" testbed spark stop --name "$NAME" >/dev/null 2>&1 || true
  "$saba" testbed down --name "$NAME" >/dev/null 2>&1 || true
}
trap cleanup EXIT

"$saba" testbed up --hosts 3 --link-rate "$RATE" --name "$NAME" --subnet "$SUBNET"
"$saba" testbed spark start --name "$NAME" --cores 2 --memory 2g

ctl_addr="$SUBNET.1:7070"
cat > "$OUT/controller.yaml" <<YAML
listen: $ctl_addr
http: $SUBNET.1:7071
topology: {file: /run/saba/testbed/$NAME/topology.yaml, host-queues: 8}
table: $TABLE
sensitivity: $SENSITIVITY
c-saba: 0.9
backend: linux
backend-options: {testbed: $NAME, c-saba: 0.9, count-queues: $COUNT_QUEUES}
YAML
ready() { grep -c "saba controller: gRPC on" "$OUT/controller.log" || true; }
start_controller() {
  local before; before=$(ready)
  ip netns exec "saba-$NAME-h1" "$saba" controller --config "$OUT/controller.yaml" >> "$OUT/controller.log" 2>&1 &
  ctl_pid=$!
  for _ in $(seq 1 90); do (( $(ready) > before )) && break; sleep 1; done
  (( $(ready) > before )) || { echo "estimate: the controller did not start" >&2; exit 1; }
}
: > "$OUT/controller.log"
start_controller
status() { ip netns exec "saba-$NAME-h1" curl -sf --max-time 10 "http://$SUBNET.1:7071/status.json"; }

[[ -f "$OUT/runs.txt" ]] || printf '%-14s %-8s %-26s %s\n' workload seconds "executors on" "load average before, after" \
  > "$OUT/runs.txt"
master_log="/run/saba/testbed/$NAME/spark/master.log"
# executors_of W: the hosts the master placed W's last run's executors on (its application id is in the driver's log)
executors_of() {
  local app
  app=$(grep -o 'app-[0-9]*-[0-9]*' "$OUT/$1.log" | head -1)
  [[ -n "$app" ]] && sed -n "s/.*Launching executor $app\/[0-9]* on worker worker-[0-9]*-\([0-9.]*\)-.*/\1/p" "$master_log" \
    | sort -u | paste -sd, -
}
# bytes each host's link carried so far, out and in (its NIC's counters: every frame, headers included)
link_counters() {
  for h in 1 2 3; do
    for d in tx rx; do ip netns exec "saba-$NAME-h$h" cat "/sys/class/net/eth0/statistics/${d}_bytes"; done
  done | paste -sd' ' -
}
[[ -f "$OUT/link-bytes.txt" ]] || echo "# workload, then h1 out, h1 in, h2 out, h2 in, h3 out, h3 in: bytes over its run" \
  > "$OUT/link-bytes.txt"
# run W: one run of W, its status saved after it, and what each host's link carried meanwhile
run() {
  local w=$1 before after
  rm -f "$OUT/$w.report"
  before=$(link_counters)
  "$saba" workload run "$w" --testbed "$NAME" --scale "$SCALE" --factor "$FACTOR" --report "$OUT/$w.report" \
    --conf "spark.app.name=estimate-$w" "${spark_conf[@]}" \
    --conf spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager \
    --conf "spark.saba.controller.address=$ctl_addr" --conf "spark.saba.workload=$w" \
    --conf "spark.saba.signals.path=$OUT/signals" > "$OUT/$w.log" 2>&1 || echo "estimate: $w failed, see $OUT/$w.log" >&2
  after=$(link_counters)
  { printf '%s' "$w"; paste -d' ' <(tr ' ' '\n' <<< "$before") <(tr ' ' '\n' <<< "$after") \
      | awk '{printf " %d", $2 - $1}'; echo; } >> "$OUT/link-bytes.txt"
  sleep 3 # the last stage's unit reaches the controller in the client's next batch
  status > "$OUT/status-after-$w.json" || echo "estimate: no status after $w" >&2
}
for w in $WORKLOADS; do
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  run "$w"
  placed=$(executors_of "$w")
  # standalone may put both executors on one worker (seen for the first application after the cluster started):
  # then no shuffle byte crosses a link, and the run says nothing of the link; run it again once
  if [[ "$placed" != *,* ]]; then
    echo "estimate: $w's executors all on ${placed:-?}; running it again with a fresh controller" \
      | tee -a "$OUT/runs.txt"
    # a fresh controller, so the estimate rests on one run (the ones before are saved in their status files)
    kill "$ctl_pid"; wait "$ctl_pid" 2>/dev/null || true; start_controller
    mv "$OUT/$w.log" "$OUT/$w-one-host.log"; run "$w"; placed=$(executors_of "$w")
  fi
  secs=$(sed -n 's/^SABA_RESULT .*seconds=\([0-9.]*\).*/\1/p' "$OUT/$w.log" | tail -1)
  printf '%-14s %-8s %-26s %s, %s\n' "$w" "${secs:--}" "${placed:--}" "$before" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    | tee -a "$OUT/runs.txt"
done
cp "$master_log" "$OUT/master.log" 2>/dev/null || true
if [[ -n "${PROFILE:-}" ]]; then
  echo "profiling $PROFILE at 25/50/100 % ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/runs.txt"
  "$saba" profile --testbed "$NAME" --master "spark://$SUBNET.1:7077" --workload "$(tr ' ' ',' <<< "$PROFILE")" \
    --scale "$SCALE" --factor "$FACTOR" --levels 25,50,100 --repeats 1 --timeout 900 "${spark_conf[@]}" \
    --out "$OUT/profile-same-conditions.json" --dir "$OUT/profile" > "$OUT/profile.log" 2>&1 \
    || echo "estimate: the profile failed, see $OUT/profile.log" >&2
  echo "profile done ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/runs.txt"
fi
python3 "$here/scripts/estimate-summary.py" "$TABLE" "$OUT" $WORKLOADS | tee "$OUT/summary.txt"
