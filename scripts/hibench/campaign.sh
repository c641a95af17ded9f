#!/usr/bin/env bash
# The paper's campaign on a real cluster: SETUPS random cluster setups (the simulator's rules, via
# saba hibench plan), each run twice, once with Saba off (spark.saba.fallback=ALWAYS) and once on; all jobs of a
# setup run concurrently, each through spark-submit of Saba's workload driver on its drawn hosts, each writing
# its own HiBench-format report. Then saba hibench results prints the per-workload speedups and the CDF.
#   HOSTS=workers.txt SPARK_HOME=/opt/spark MASTER=spark://master:7077 SABA_JAR=/opt/saba/saba-spark-3.5_2.12-*-shaded.jar
#   WORKLOADS_JAR=/opt/saba/saba-workloads-0.1.0-SNAPSHOT.jar scripts/hibench/campaign.sh
# The jobs use the workloads' "paper" scale times the drawn dataset factor (0.1 / 1 / 10).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
set -euo pipefail
SABA="${SABA:-$here/../../bin/saba}"
SETUPS="${SETUPS:-500}"; SEED="${SEED:-1}"; OUTDIR="${OUTDIR:-campaign-hibench}"
: "${HOSTS:?file with one worker host per line}" "${SPARK_HOME:?}" "${MASTER:?}" "${SABA_JAR:?}" "${WORKLOADS_JAR:?}"
mkdir -p "$OUTDIR"
"$SABA" hibench plan --hosts "$HOSTS" --setups "$SETUPS" --seed "$SEED" --out "$OUTDIR/plan.csv" \
  --profiled-nodes "${PROFILED_NODES:-8}"

run_job() {  # mode job workload factor hosts(;-separated)
  local mode="$1" job="$2" w="$3" factor="$4" hosts="$5" n
  n=$(tr ';' '\n' <<< "$hosts" | wc -l)
  local fallback=AUTO; [[ "$mode" == baseline ]] && fallback=ALWAYS
  # one executor of one core per drawn host: spark.executor.cores=1, cores.max=n; the hosts themselves are
  # the workers' (a standalone master cannot pin an application to hosts: use one worker per host and
  # spark.deploy.spreadOut, or YARN node labels, to respect the drawn placement)
  "$SPARK_HOME/bin/spark-submit" --master "$MASTER" --class io.saba.workloads.WorkloadMain \
    --conf spark.executor.cores=1 --conf spark.cores.max="$n" \
    --conf spark.driver.extraClassPath="$SABA_JAR" --conf spark.executor.extraClassPath="$SABA_JAR" \
    --conf spark.shuffle.manager=org.apache.spark.shuffle.saba.SabaShuffleManager \
    --conf spark.saba.fallback="$fallback" --conf spark.saba.workload="$w" \
    ${SABA_CONTROLLER:+--conf spark.saba.controller.address=$SABA_CONTROLLER} \
    "$WORKLOADS_JAR" "$w" --scale paper --factor "$factor" --partitions "$((2 * n))" --master "$MASTER" \
    --report "$OUTDIR/reports/$mode/$job.report" > "$OUTDIR/logs/$mode-$job.log" 2>&1 \
    || echo "job $job ($mode) failed; see $OUTDIR/logs/$mode-$job.log" >&2
}

mkdir -p "$OUTDIR/reports/baseline" "$OUTDIR/reports/saba" "$OUTDIR/logs"
for ((s = 0; s < SETUPS; s++)); do
  for mode in baseline saba; do
    if ls "$OUTDIR/reports/$mode"/s$s-j*.report > /dev/null 2>&1; then continue; fi   # resume
    while IFS=, read -r setup job w factor _ hosts; do
      [[ "$setup" == "$s" ]] && run_job "$mode" "$job" "$w" "$factor" "$hosts" &
    done < <(tail -n +2 "$OUTDIR/plan.csv")
    wait
  done
done
"$SABA" hibench results --plan "$OUTDIR/plan.csv" --reports "$OUTDIR/reports" --out "$OUTDIR/results"
