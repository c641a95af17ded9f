#!/usr/bin/env bash
# Fig. 1b on the namespace testbed (root): two real Spark applications share the testbed's shaped links. Each runs
# alone, then both together under several treatments of the links; prints completion times, slowdowns against
# running alone and the sum of slowdowns per treatment: medians over the repetitions with bootstrap 95 % intervals.
#
#   scripts/fig1b-testbed.sh [A=sort] [B=pagerank] [RATE=20mbit] [SCALE=small] [FACTOR=1] [FACTOR_A=] [FACTOR_B=]
#                            [REPS=5] [TABLE=...json] [CASES="fifo fair saba"] [WEIGHTS="25 75"] [OUT=...]
#                            [LEVELS=10,25,50,75,100] [PREPS=2] [ALLOCATION=corun] [HOSTS=3] [WORKERS=2,3]
#                            [MONITOR=0] [GATE=1] [EVENTS=0] [TCP=cubic] [C_SABA=0.9] [SABA_CONF="k=v ..."]
#
# The master and both drivers run on h1, a Spark worker on each host of WORKERS (default h2..hN); with WORKERS
# including 1 the drivers share a host with executors, so an ML job's broadcasts and results cross the same links
# as the other application's shuffle.
#
# Treatments (CASES, plus one "wNN" per WEIGHTS entry); in each repetition they run in a rotated order, so a slow
# drift of the machine spreads over all of them:
#   fifo    plain Spark, every link one FIFO (the baseline)
#   fair    both on Saba's shuffle manager, each application its own class, 50/50 on every port (set by hand)
#   wNN     the same with NN % of the Saba share to A and the rest to B (the paper's own Fig. 1b comparison)
#   saba    both on Saba's shuffle manager; a standalone controller on h1 whose Linux backend programs the hosts'
#           NIC egress and the switch ports with its own weights (allocation ALLOCATION: corun or eq2)
#   agents  as saba, but the controller's backend is agents: a `saba agent` in every host's namespace programs that
#           host's NIC egress alone (the switch ports stay one FIFO), the agents started before the applications
#           and stopped (their NICs restored) after them
#   switch  as saba, but the Linux backend programs the switch ports alone (no host-queues: the NICs stay one FIFO)
#   tagged  both on Saba's shuffle manager with a dry-run controller: every byte tagged, the links left one FIFO
#   tagged-nosignals  as tagged, with the drivers' stage-signals listener off (spark.saba.signals.enabled=false):
#           tagged minus this, in one invocation, is what the signals cost the jobs
#   online  as saba, but the controller has no table: it allocates on what it learns from the jobs' stages
#           (sensitivity: online), kept in a journal across repetitions as a long-running controller keeps it
#   default as saba, but the controller has no table and learns nothing: both jobs on the default model
#   default-nocount  as default, with the Linux backend's queue counters off (count-queues: false: no tc process
#           a second per port): default minus this is what reading the counters costs the jobs
# Hand-set weights go on every port (each host's egress, each switch port) before the applications start, on the
# levels the controller gives them (saba allocate --levels).
#
# Each run's executors must sit on every worker of WORKERS (standalone can give the first application after the
# cluster starts both cores of one worker, and then its shuffle never crosses a link): an alone run that missed
# runs once more, a co-run's job is only reported; both in placement.log.
#
# GATE=1 (default) starts a co-run's two timed runs together: each driver prepares its input (JVM, executors,
# data generation, untimed), waits at a start gate (saba workload run --wait-for-start), and both are released once
# both are prepared, as the campaign does. With GATE=0 (the folders of 2026-11-28 and before) the drivers start
# together and one job's timed run overlaps the other's data generation, which an alone run never meets.
#
# EVENTS=1 keeps every run's Spark event log (with block updates) in OUT/events, so that
# scripts/spark-placement.py can say where each job's cached blocks and tasks ran and how many bytes of task results
# crossed to the driver's host.
#
# MONITOR=1 records every port's HTB class counters every 2 s of each co-run in tc-rN-CASE.log, so that
# scripts/tc-classes.py can say how many bytes each class carried (and dropped) on each port while both jobs ran,
# and each host's TCP retransmissions and timeouts beside them (nstat), which fig1b-by-run.py sets beside each run.
#
# TCP (default cubic, Linux's own) is every host's congestion control (saba testbed up --tcp), whatever the
# machine's default: the folders of 2026-11-29 and before ran this VM's default, BBR, which in the testbed's 10 ms
# queues retransmits 7x as much as cubic with two flows. OUT/testbed.txt says what a folder ran.
#
# C_SABA (default 0.9) is the share of every port Saba's classes get (the controller's c-saba, and the total of the
# hand-set weights); the rest stays with the non-Saba class. Below 1 a Saba class that fills the link runs above its
# HTB rate and borrows the rest; at 1 the default model's single class is the whole link, as FIFO's is.
#
# SABA_CONF (space-separated key=value) adds Spark settings to the runs on Saba's plugins only (every case but
# alone and fifo), e.g. SABA_CONF="spark.saba.signals.enabled=false" to find which part of the plugins costs time.
#
# Without TABLE, A and B are first profiled (saba profile, PREPS runs per level, traffic recorded at 100 %) on this
# testbed with the same Spark settings. The profile is resumable: re-running with the same OUT skips runs done.
#
# Needs: a build (mvn -B -q -DskipTests package), root, python3. Leaves nothing running (trap).
set -euo pipefail
for kv in "$@"; do export "${kv?}"; done
# a relative TABLE is the caller's; the controller would read it relative to its configuration's folder, OUT
[[ -z "${TABLE:-}" ]] || TABLE=$(realpath -m -- "$TABLE")
# and a relative OUT too: Spark reads file:OUT/events as a URI, which a relative path is not (it fails to start)
[[ -z "${OUT:-}" ]] || OUT=$(realpath -m -- "$OUT")
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
A=${A:-sort}; B=${B:-pagerank}; RATE=${RATE:-20mbit}; SCALE=${SCALE:-small}; FACTOR=${FACTOR:-1}; REPS=${REPS:-5}
FACTOR_A=${FACTOR_A:-$FACTOR}; FACTOR_B=${FACTOR_B:-$FACTOR}
HOSTS=${HOSTS:-3}; WORKERS=${WORKERS:-$(seq -s, 2 "$HOSTS")}
NAME=${NAME:-fig1b}; SUBNET=${SUBNET:-10.79.0}; LEVELS=${LEVELS:-10,25,50,75,100}; PREPS=${PREPS:-2}
OUT=${OUT:-$here/fig1b-out}; TABLE=${TABLE:-}; MONITOR=${MONITOR:-0}; GATE=${GATE:-1}; EVENTS=${EVENTS:-0}; CASES=${CASES:-fifo fair saba}; WEIGHTS=${WEIGHTS:-}
ALLOCATION=${ALLOCATION-corun}; TCP=${TCP:-cubic}; C_SABA=${C_SABA:-0.9}; SABA_CONF=${SABA_CONF:-}
[[ $C_SABA =~ ^(0\.[0-9]*[1-9][0-9]*|1|1\.0*)$ ]] || { echo "fig1b: C_SABA=$C_SABA: a share in (0, 1]" >&2; exit 2; }
for kv in $SABA_CONF; do
  [[ $kv =~ ^spark\.[A-Za-z0-9._-]+=[^[:space:]]*$ ]] || { echo "fig1b: SABA_CONF: '$kv' is not spark.KEY=VALUE" >&2; exit 2; }
done
[[ -z "$TABLE" || -f "$TABLE" ]] || { echo "fig1b: TABLE=$TABLE: no such file" >&2; exit 2; }
[[ $MONITOR == 0 || $MONITOR == 1 ]] || { echo "fig1b: MONITOR=$MONITOR: 0 or 1" >&2; exit 2; }
[[ $GATE == 0 || $GATE == 1 ]] || { echo "fig1b: GATE=$GATE: 0 or 1" >&2; exit 2; }
[[ $EVENTS == 0 || $EVENTS == 1 ]] || { echo "fig1b: EVENTS=$EVENTS: 0 or 1" >&2; exit 2; }
saba="$here/bin/saba"
shuffle_jar=$(ls "$here"/spark-shuffle-saba/spark-3.5/target/saba-spark-3.5_2.12-*-shaded.jar 2>/dev/null | head -1 || true)
spark_jars="$here/workloads/target/spark-home/jars"
[[ -n "$shuffle_jar" && -d "$spark_jars" ]] || { echo "fig1b: build first: mvn -B -q -DskipTests package" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "fig1b: needs root (network namespaces, tc)" >&2; exit 2; }
# the shuffle manager is created when an executor starts: it must be on the class path the workers launch with
ln -sf "$shuffle_jar" "$spark_jars/"
together=($CASES); for w in $WEIGHTS; do together+=("w$w"); done

mkdir -p "$OUT"
# one core per worker each: standalone otherwise gives the first application every core, and the second
# waits for it instead of sharing the links with it (the profile runs with the same settings)
nworkers=$(tr ',' '\n' <<< "$WORKERS" | wc -l)
spark_conf=(--conf spark.executor.cores=1 --conf spark.cores.max="$nworkers" --conf spark.executor.memory=768m)
if [[ $EVENTS == 1 ]]; then
  mkdir -p "$OUT/events"
  spark_conf+=(--conf spark.eventLog.enabled=true --conf "spark.eventLog.dir=file:$OUT/events"
               --conf spark.eventLog.logBlockUpdates.enabled=true)
fi
ports=(); for i in $(seq 1 "$HOSTS"); do ports+=("h$i:0" "sw:$i"); done
ctl_pid=""; ctl_tag=""
agent_pids=()
# stop_agents: SIGTERM, on which each agent gives its NIC back as it found it
stop_agents() {
  [[ ${#agent_pids[@]} -gt 0 ]] || return 0
  kill "${agent_pids[@]}" 2>/dev/null || true
  wait "${agent_pids[@]}" 2>/dev/null || true
  agent_pids=()
}
mon_pid=""
case_conf=() # Spark settings of the current case's Saba runs (tagged-nosignals)
cleanup() {
  [[ -n "$mon_pid" ]] && kill "$mon_pid" 2>/dev/null || true
  [[ -n "$ctl_pid" ]] && kill "$ctl_pid" 2>/dev/null && wait "$ctl_pid" 2>/dev/null || true
  stop_agents
  "$saba" testbed spark stop --name "$NAME" >/dev/null 2>&1 || true
  "$saba" testbed down --name "$NAME" >/dev/null 2>&1 || true
}
trap cleanup EXIT

"$saba" testbed up --hosts "$HOSTS" --link-rate "$RATE" --name "$NAME" --subnet "$SUBNET" --tcp "$TCP"
"$saba" testbed status --name "$NAME" | head -1 > "$OUT/testbed.txt"
# two applications at once: each worker offers a core to each
"$saba" testbed spark start --name "$NAME" --cores 2 --memory 2g --workers "$WORKERS"

if [[ -z "$TABLE" ]]; then
  TABLE="$OUT/table.json"
  for w in "$A:$FACTOR_A" "$B:$FACTOR_B"; do
    "$saba" profile --testbed "$NAME" --master "spark://$SUBNET.1:7077" --workload "${w%%:*}" --scale "$SCALE" \
      --factor "${w##*:}" --levels "$LEVELS" --repeats "$PREPS" "${spark_conf[@]}" --traffic-hosts "$WORKERS" --out "$TABLE" \
      --dir "$OUT/profile" 2>&1 | tee -a "$OUT/profile.log"
  done
fi

ctl_addr="$SUBNET.1:7070"
cat > "$OUT/controller.yaml" <<YAML
listen: $ctl_addr
# host-queues: the senders' NICs are where the two applications meet first (h2 → h3 and h3 → h2, no fan-in)
topology: {file: /run/saba/testbed/$NAME/topology.yaml, host-queues: 8}
table: $TABLE
${ALLOCATION:+allocation: $ALLOCATION}
c-saba: $C_SABA
backend: linux
backend-options: {testbed: $NAME, c-saba: $C_SABA}
http: $SUBNET.1:7071
YAML
sed -e 's/^backend: linux/backend: dry-run/' -e '/^backend-options/d' "$OUT/controller.yaml" > "$OUT/controller-dry.yaml"
sed -e 's/^backend: linux/backend: agents/' -e 's/^backend-options: .*/backend-options: {ack-timeout-millis: 2000}/' \
  "$OUT/controller.yaml" > "$OUT/controller-agents.yaml"
sed -e 's/, host-queues: 8}/}/' "$OUT/controller.yaml" > "$OUT/controller-switch.yaml"
grep -q '^topology:.*host-queues' "$OUT/controller-switch.yaml" \
  && { echo "fig1b: could not take the host queues out of $OUT/controller-switch.yaml" >&2; exit 2; }
sed -e '/^table:/d' "$OUT/controller.yaml" > "$OUT/controller-default.yaml"
sed -e 's/^backend-options: {\(.*\)}$/backend-options: {\1, count-queues: false}/' "$OUT/controller-default.yaml" \
  > "$OUT/controller-default-nocount.yaml"
grep -q 'count-queues: false' "$OUT/controller-default-nocount.yaml" \
  || { echo "fig1b: could not turn the counters off in $OUT/controller-default-nocount.yaml" >&2; exit 2; }
{ cat "$OUT/controller-default.yaml"; echo "sensitivity: online"; echo "journal-dir: $OUT/journal-online"; } \
  > "$OUT/controller-online.yaml"

# run TAG WORKLOAD FACTOR SABA(0|1) [OPTION...]: one driver on h1; its duration is the last field set of its
# report line
run() {
  local tag=$1 w=$2 f=$3 saba_on=$4
  local conf=(--conf "spark.app.name=$tag-$w" "${spark_conf[@]}" "${@:5}")
  if [[ $saba_on == 1 ]]; then
    conf+=(--conf spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager
           --conf "spark.saba.controller.address=$ctl_addr" --conf "spark.saba.workload=$w")
    local kv
    for kv in $SABA_CONF; do conf+=(--conf "$kv"); done
    conf+=("${case_conf[@]}")
  fi
  local attempt
  for attempt in 1 2; do
    rm -f "$OUT/$tag-$w.report"
    # the driver's CPU seconds, user and system, over its whole life (preparing included): it shares h1's vCPUs
    /usr/bin/time -f "%U %S" -o "$OUT/$tag-$w.cpu" \
      "$saba" workload run "$w" --testbed "$NAME" --scale "$SCALE" --factor "$f" --report "$OUT/$tag-$w.report" \
      "${conf[@]}" > "$OUT/$tag-$w.log" 2>&1 || { echo "fig1b: $tag-$w failed; see $OUT/$tag-$w.log" >&2; return 1; }
    spread "$tag-$w" && return 0
    echo "fig1b: $tag-$w: its executors were not on every worker of $WORKERS (attempt $attempt)" \
      | tee -a "$OUT/placement.log" >&2
    # a job alone can run again; a co-run's job cannot without its partner
    [[ $tag == *-alone ]] || return 0
  done
}
# spread RUN: whether the run's application had an executor on every worker (the master can give the first
# application after the cluster starts both cores of one worker: its shuffle then never crosses a link)
spread() {
  local spark="/run/saba/testbed/$NAME/spark" app w
  app=$(grep -o "Registered app $1 with ID app-[0-9-]*" "$spark/master.log" | tail -1) || return 0
  for w in ${WORKERS//,/ }; do
    [[ -d "$spark/work-h$w/${app##* }" ]] || return 1
  done
}
# the levels the controller gives A and B (they depend only on the table and the workloads present)
read -r la lb < <("$saba" allocate --table "$TABLE" --apps "$A,$B" --levels | awk -v a="$A" -v b="$B" \
  '$1 == a { la = $2 } $1 == b { lb = $2 } END { print la, lb }')
[[ -n "${la:-}" && "$la" != "$lb" ]] || { echo "fig1b: $A and $B share a level in $TABLE" >&2; exit 2; }
# set_weights PCT_A: PCT_A % of the Saba share to A's level and the rest to B's, on every port, in one push
set_weights() {
  local wa wb
  wa=$(python3 -c "print(round($C_SABA * $1 / 100, 4))"); wb=$(python3 -c "print(round($C_SABA - $wa, 4))")
  "$saba" testbed apply --name "$NAME" --port "$(IFS=,; echo "${ports[*]}")" --weights "$la=$wa,$lb=$wb" >/dev/null
  echo "r$rep: $A level $la weight $wa, $B level $lb weight $wb on ${ports[*]}"
}
reset_ports() {
  "$saba" testbed apply --name "$NAME" --port "$(IFS=,; echo "${ports[*]}")" --reset >/dev/null
}
start_controller() { # CONFIG LOG
  ip netns exec "saba-$NAME-h1" "$saba" controller --config "$1" > "$2" 2>&1 &
  ctl_pid=$!; ctl_tag=$(basename "$2" .log)
  sleep 8
}
stop_controller() {
  # its CPU seconds (user + system), then those of the processes it ran and waited for (tc, ip): it shares h1's
  # vCPUs with the drivers and an executor
  awk -v tag="$ctl_tag" -v hz="$(getconf CLK_TCK)" '{ printf "%s %.1f %.1f\n", tag, ($14 + $15) / hz, ($16 + $17) / hz }' \
    "/proc/$ctl_pid/stat" >> "$OUT/controller-cpu.txt" 2>/dev/null || true
  kill "$ctl_pid"; wait "$ctl_pid" 2>/dev/null || true; ctl_pid=""
}
# start_agents TAG: a `saba agent` in each host's namespace, its NIC at the testbed's link rate; returns once every
# one has acknowledged a plan version on the controller's status page (or after 60 s, noted)
start_agents() {
  local i t
  for i in $(seq 1 "$HOSTS"); do
    ip netns exec "saba-$NAME-h$i" "$saba" agent --controller "$ctl_addr" --host "h$i" --nic "eth0@$RATE" \
      --state-dir "$OUT/agents/h$i" > "$OUT/agent-$1-h$i.log" 2>&1 &
    agent_pids+=($!)
  done
  for t in $(seq 1 120); do
    ip netns exec "saba-$NAME-h1" curl -sf --max-time 2 "http://$SUBNET.1:7071/status.json" 2>/dev/null \
      | python3 -c 'import json, sys; a = json.load(sys.stdin)["fabric"].get("agents", []); sys.exit(0 if len(a) >= int(sys.argv[1]) and all(x.get("connected") for x in a) else 1)' "$HOSTS" \
      && return 0
    sleep 0.5
  done
  echo "fig1b: $1: not every agent connected after 60 s" | tee -a "$OUT/placement.log" >&2
}
# TCP counters of each host's stack: a drop in a 10 ms queue costs a fast retransmit, a lost window an RTO (200 ms)
tcp_counters="TcpOutSegs TcpRetransSegs TcpExtTCPTimeouts TcpExtTCPLossProbes"
# monitor TAG: every port's class counters and each host's TCP counters every 2 s, in the background until the
# co-run ends (or the script)
monitor() {
  [[ $MONITOR == 1 ]] || return 0
  while sleep 2; do
    echo "# $(date +%s.%N)"
    for i in $(seq 1 "$HOSTS"); do
      echo "== h$i:0"; ip netns exec "saba-$NAME-h$i" tc -s class show dev eth0
      echo "== h$i:tcp"; ip netns exec "saba-$NAME-h$i" nstat -saz $tcp_counters
      echo "== sw:$i"; ip netns exec "saba-$NAME-sw" tc -s class show dev "p$i"
    done
  done > "$OUT/tc-$1.log" 2>&1 &
  mon_pid=$!
}
# both TAG SABA(0|1): A and B at once, in the background (pids pa, pb); with GATE=1 it returns once both have
# prepared and their timed runs have been started together
both() {
  local tag=$1 on=$2 ga="$OUT/.gate-a" gb="$OUT/.gate-b" t
  if [[ $GATE == 0 ]]; then
    run "$tag" "$A" "$FACTOR_A" "$on" & pa=$!; run "$tag" "$B" "$FACTOR_B" "$on" & pb=$!
    return 0
  fi
  rm -f "$ga" "$gb" "$OUT/$tag-$A.log" "$OUT/$tag-$B.log"; mkfifo "$ga" "$gb"
  run "$tag" "$A" "$FACTOR_A" "$on" --wait-for-start < "$ga" & pa=$!
  run "$tag" "$B" "$FACTOR_B" "$on" --wait-for-start < "$gb" & pb=$!
  exec 7> "$ga" 8> "$gb"
  # a driver that died while preparing, or 15 minutes without both prepared, releases the other (it then runs
  # alone: its time says so)
  for t in $(seq 1 1800); do
    grep -qs SABA_PREPARED "$OUT/$tag-$A.log" && grep -qs SABA_PREPARED "$OUT/$tag-$B.log" && break
    kill -0 "$pa" 2>/dev/null && kill -0 "$pb" 2>/dev/null || { echo "fig1b: $tag: a driver ended before the gate" >&2; break; }
    [[ $t != 1800 ]] || echo "fig1b: $tag: not both prepared after 15 minutes; opening the gate" >&2
    sleep 0.5
  done
  echo "$tag gate opened $(date +%s.%N)" >> "$OUT/gate.log"
  echo start >&7; echo start >&8; exec 7>&- 8>&-
  rm -f "$ga" "$gb"
}
# together CASE: A and B started at once under one treatment
together() {
  local c=$1 tag="r$rep-$1" pa pb
  monitor "$tag"
  case $c in
    fifo)
      both "$tag" 0; wait $pa $pb ;;
    saba)
      start_controller "$OUT/controller.yaml" "$OUT/controller-$tag.log"
      both "$tag" 1
      # the classes mid-run read with tc alone: a `saba testbed status` here started a JVM on the jobs' cores in
      # this case only (runs before 2026-12-02 paid it: about 1-2 s of CPU 40 s into each saba co-run)
      (sleep 40; { for i in $(seq 1 "$HOSTS"); do echo "== sw p$i"
          ip netns exec "saba-$NAME-sw" tc -s class show dev "p$i"; done
        for i in $(seq 2 "$HOSTS"); do echo "== h$i eth0"
          ip netns exec "saba-$NAME-h$i" tc -s class show dev eth0; done; } > "$OUT/status-$tag.txt" 2>&1 || true) &
      wait $pa $pb; stop_controller ;;
    agents)
      start_controller "$OUT/controller-agents.yaml" "$OUT/controller-$tag.log"
      start_agents "$tag"
      both "$tag" 1
      (sleep 40; for i in $(seq 1 "$HOSTS"); do echo "== h$i eth0"
          ip netns exec "saba-$NAME-h$i" tc -s class show dev eth0; done > "$OUT/status-$tag.txt" 2>&1 || true) &
      wait $pa $pb; stop_agents; stop_controller ;;
    switch)
      start_controller "$OUT/controller-switch.yaml" "$OUT/controller-$tag.log"
      both "$tag" 1
      (sleep 40; for i in $(seq 1 "$HOSTS"); do echo "== sw p$i"
          ip netns exec "saba-$NAME-sw" tc -s class show dev "p$i"; done > "$OUT/status-$tag.txt" 2>&1 || true) &
      wait $pa $pb; stop_controller ;;
    online|default|default-nocount)
      start_controller "$OUT/controller-$c.yaml" "$OUT/controller-$tag.log"
      both "$tag" 1
      (sleep 40; ip netns exec "saba-$NAME-h1" curl -sf --max-time 5 "http://$SUBNET.1:7071/status.json" \
          > "$OUT/status-$tag-mid.json" 2>/dev/null || true) &
      wait $pa $pb
      # what it learnt from this run, as the next repetition starts from it
      ip netns exec "saba-$NAME-h1" curl -sf --max-time 5 "http://$SUBNET.1:7071/status.json" \
        > "$OUT/status-$tag.json" 2>/dev/null || true
      stop_controller ;;
    tagged|tagged-nosignals|fair|w*)
      [[ $c != tagged-nosignals ]] || case_conf=(--conf spark.saba.signals.enabled=false)
      # weights in place before the applications start; the dry-run controller only hands out the levels
      case $c in fair) set_weights 50 >> "$OUT/weights.log" 2>&1 ;; w*) set_weights "${c#w}" >> "$OUT/weights.log" 2>&1 ;; esac
      start_controller "$OUT/controller-dry.yaml" "$OUT/controller-$tag.log"
      both "$tag" 1
      wait $pa $pb
      [[ $c == tagged* ]] || reset_ports
      case_conf=()
      stop_controller ;;
    *) echo "fig1b: unknown case '$c'" >&2; exit 2 ;;
  esac
  [[ -z "$mon_pid" ]] || { kill "$mon_pid"; wait "$mon_pid" 2>/dev/null || true; mon_pid=""; }
}
duration() { awk 'NF >= 5 && $1 != "Type" { d = $5 } END { print d }' "$OUT/$1.report" 2>/dev/null || true; }

[[ -f "$OUT/times.txt" ]] || printf '%-4s %-10s %10s %10s\n' rep case "$A (s)" "$B (s)" > "$OUT/times.txt"
for rep in $(seq 1 "$REPS"); do
  if grep -q "^$rep " "$OUT/times.txt"; then continue; fi # resumable: repetitions already recorded
  run "r$rep-alone" "$A" "$FACTOR_A" 0; run "r$rep-alone" "$B" "$FACTOR_B" 0
  n=${#together[@]}; order=()
  for i in $(seq 0 $((n - 1))); do order+=("${together[$(( (i + rep - 1) % n ))]}"); done
  for c in "${order[@]}"; do together "$c"; done
  for c in alone "${together[@]}"; do
    printf '%-4s %-10s %10s %10s\n' "$rep" "$c" "$(duration "r$rep-$c-$A")" "$(duration "r$rep-$c-$B")" \
      | tee -a "$OUT/times.txt"
  done
done
# paired against saba, and against fifo when it ran (how far online and default are from the baseline)
refs=(saba); [[ " ${together[*]} " == *" fifo "* ]] && refs+=(fifo)
python3 "$here/scripts/corun-summary.py" "$OUT/times.txt" "$A" "$B" "${refs[@]}" | tee "$OUT/summary.txt"
