#!/usr/bin/env bash
# What Saba's Spark plugin costs a job on the namespace testbed, with no weights involved (root): one workload at a
# time, alone, on plain Spark and on Saba's shuffle manager with a dry-run controller on h1 (every byte tagged and
# reported, every port one FIFO), in alternating order; per run the job's own time and the CPU seconds every process
# of the experiment used (drivers, executors, the Spark daemons, the controller: one cpuacct cgroup), since the
# testbed's hosts share the machine's cores and CPU a plugin spends is time a co-running job does not get.
#
#   scripts/plugin-overhead.sh [WORKLOADS="nutchindexing:2 sort:1 svm:1"] [REPS=5] [RATE=20mbit] [SCALE=small]
#                              [CASES="plain tagged"] [TOGETHER=0] [OUT=...] [NAME=ovh] [SUBNET=10.93.0]
#
# TOGETHER=1 runs the workloads of a case at once (a co-run on FIFO links, as the campaign's tagged control), each
# row then carrying the CPU of the whole co-run.
#
# Cases: plain (Spark's own shuffle manager; the Saba jar is on every class path in all cases), tagged (the shuffle
# manager and plugin, the default settings), and for bisecting: tagged-nosignals (spark.saba.signals.enabled=false),
# manager-only (the shuffle manager with spark.saba.fallback=ALWAYS: no plugin, no tagging, no controller). Writes OUT/times.txt (rep case workload seconds cpu_s) and
# prints per workload and case the median time and CPU with the paired ratio to plain.
# Needs: a build (mvn -B -q -DskipTests package), root, python3. Leaves nothing running (trap).
set -euo pipefail
for kv in "$@"; do export "${kv?}"; done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
WORKLOADS=${WORKLOADS:-nutchindexing:2 sort:1 svm:1}; REPS=${REPS:-5}; RATE=${RATE:-20mbit}; SCALE=${SCALE:-small}
CASES=${CASES:-plain tagged}; NAME=${NAME:-ovh}; SUBNET=${SUBNET:-10.93.0}; OUT=${OUT:-$here/plugin-overhead-out}
saba="$here/bin/saba"
shuffle_jar=$(ls "$here"/spark-shuffle-saba/spark-3.5/target/saba-spark-3.5_2.12-*-shaded.jar 2>/dev/null | head -1 || true)
spark_jars="$here/workloads/target/spark-home/jars"
[[ -n "$shuffle_jar" && -d "$spark_jars" ]] || { echo "plugin-overhead: build first: mvn -B -q -DskipTests package" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "plugin-overhead: needs root (network namespaces, tc, cgroups)" >&2; exit 2; }
acct=/sys/fs/cgroup/cpuacct
[[ -f $acct/cpuacct.usage ]] || { echo "plugin-overhead: no cgroup v1 cpuacct at $acct" >&2; exit 2; }
mkdir -p "$OUT"; OUT=$(realpath "$OUT")
group="$acct/saba-$NAME"; mkdir -p "$group"; echo $$ > "$group/tasks"
linked=""
if [[ ! -e "$spark_jars/$(basename "$shuffle_jar")" ]]; then # drivers and executors load the shuffle manager early
  ln -s "$shuffle_jar" "$spark_jars/"; linked="$spark_jars/$(basename "$shuffle_jar")"
fi
ctl_pid=""
cleanup() {
  [[ -n "$linked" ]] && rm -f "$linked"
  [[ -n "$ctl_pid" ]] && kill "$ctl_pid" 2>/dev/null && wait "$ctl_pid" 2>/dev/null || true
  "$saba" testbed spark stop --name "$NAME" >/dev/null 2>&1 || true
  "$saba" testbed down --name "$NAME" >/dev/null 2>&1 || true
}
trap cleanup EXIT
"$saba" testbed up --hosts 3 --link-rate "$RATE" --name "$NAME" --subnet "$SUBNET"
# each job one 1-core executor per worker; together, every job's executors must fit at once
jobs=1; [[ ${TOGETHER:-0} == 1 ]] && jobs=$(wc -w <<< "$WORKLOADS")
"$saba" testbed spark start --name "$NAME" --cores "$(( jobs > 2 ? jobs : 2 ))" --memory "$(( jobs > 2 ? jobs : 2 ))g" \
  --workers 2,3
spark_conf=(--conf spark.executor.cores=1 --conf spark.cores.max=2 --conf spark.executor.memory=768m)
ctl_addr="$SUBNET.1:7070"
cat > "$OUT/controller-dry.yaml" <<YAML
listen: $ctl_addr
topology: {file: /run/saba/testbed/$NAME/topology.yaml, host-queues: 8}
backend: dry-run
YAML
ip netns exec "saba-$NAME-h1" "$saba" controller --config "$OUT/controller-dry.yaml" > "$OUT/controller.log" 2>&1 &
ctl_pid=$!
sleep 8

# conf CASE WORKLOAD: the Spark settings of a case
conf() {
  local w=$2
  case $1 in
    plain) ;;
    tagged|tagged-nosignals|manager-only)
      echo --conf spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager \
           --conf "spark.saba.controller.address=$ctl_addr" --conf "spark.saba.workload=$w"
      if [[ $1 == tagged-nosignals ]]; then echo --conf spark.saba.signals.enabled=false; fi
      if [[ $1 == manager-only ]]; then echo --conf spark.saba.fallback=ALWAYS; fi ;;
    *) echo "plugin-overhead: unknown case '$1'" >&2; exit 2 ;;
  esac
}
# launch REP CASE WORKLOAD FACTOR: one driver on h1, its report in OUT
launch() {
  # shellcheck disable=SC2046
  "$saba" workload run "$3" --testbed "$NAME" --scale "$SCALE" --factor "$4" --report "$OUT/r$1-$2-$3.report" \
    --conf "spark.app.name=r$1-$2-$3" "${spark_conf[@]}" $(conf "$2" "$3") > "$OUT/r$1-$2-$3.log" 2>&1
}
seconds() { awk 'NF >= 5 && $1 != "Type" { d = $5 } END { print d }' "$OUT/r$1-$2-$3.report"; }
cpu_now() { cat "$group/cpuacct.usage"; }
cpu_since() { python3 -c "print(round(($(cpu_now) - $1) / 1e9, 2))"; }

cases=($CASES)
[[ -f "$OUT/times.txt" ]] || echo "rep case workload seconds cpu_s" > "$OUT/times.txt"
n=${#cases[@]}
for rep in $(seq 1 "$REPS"); do
  for i in $(seq 0 $((n - 1))); do
    c=${cases[$(( (i + rep - 1) % n ))]}
    if [[ ${TOGETHER:-0} == 1 ]]; then
      grep -q "^$rep $c " "$OUT/times.txt" && continue # resumable
      t0=$(cpu_now); pids=()
      for wf in $WORKLOADS; do launch "$rep" "$c" "${wf%%:*}" "${wf##*:}" & pids+=($!); done
      wait "${pids[@]}"; cpu=$(cpu_since "$t0")
      for wf in $WORKLOADS; do
        echo "$rep $c ${wf%%:*} $(seconds "$rep" "$c" "${wf%%:*}") $cpu" | tee -a "$OUT/times.txt"
      done
    else
      for wf in $WORKLOADS; do
        grep -q "^$rep $c ${wf%%:*} " "$OUT/times.txt" && continue
        t0=$(cpu_now); launch "$rep" "$c" "${wf%%:*}" "${wf##*:}"
        echo "$rep $c ${wf%%:*} $(seconds "$rep" "$c" "${wf%%:*}") $(cpu_since "$t0")" | tee -a "$OUT/times.txt"
      done
    fi
  done
done
python3 - "$OUT/times.txt" <<'PY' | tee "$OUT/summary.txt"
import collections, statistics, sys
rows = [l.split() for l in open(sys.argv[1]).read().splitlines()[1:] if l.strip()]
by = collections.defaultdict(dict)
for rep, case, w, s, cpu in rows:
    by[(w, rep)][case] = (float(s), float(cpu))
for w in sorted({k[0] for k in by}):
    reps = [v for (ww, _), v in by.items() if ww == w]
    cases = sorted({c for v in reps for c in v}, key=lambda c: (c != "plain", c))
    print(f"{w}:")
    for c in cases:
        t = [v[c][0] for v in reps if c in v]; u = [v[c][1] for v in reps if c in v]
        line = f"  {c:<17} time median {statistics.median(t):7.2f} s  cpu median {statistics.median(u):7.2f} s  (n={len(t)})"
        if c != "plain":
            rt = [v[c][0] / v["plain"][0] for v in reps if c in v and "plain" in v]
            ru = [v[c][1] / v["plain"][1] for v in reps if c in v and "plain" in v]
            line += (f"  paired time ratio {statistics.median(rt):.3f} (range {min(rt):.3f}-{max(rt):.3f}),"
                     f" cpu ratio {statistics.median(ru):.3f} (range {min(ru):.3f}-{max(ru):.3f})")
        print(line)
PY
