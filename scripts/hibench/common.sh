# Sourced by the HiBench scripts: locations and the workload → HiBench folder map.
# HIBENCH_HOME: a HiBench 7.1 checkout built for Spark (mvn -Psparkbench -Dspark=3.1 -Dscala=2.12 package).
# SABA: the saba launcher (bin/saba of a built Saba checkout).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SABA="${SABA:-$here/../../bin/saba}"
HIBENCH_HOME="${HIBENCH_HOME:?set HIBENCH_HOME to a built HiBench checkout}"
WORKLOADS="${WORKLOADS:-lr rf gbt svm pagerank nweight sql wordcount sort nutchindexing}"

# Saba workload key -> HiBench workload folder (bin/workloads/<folder>/{prepare,spark}/...)
hibench_dir() {
  case "$1" in
    lr) echo ml/lr ;; rf) echo ml/rf ;; gbt) echo ml/gbt ;; svm) echo ml/svm ;;
    pagerank) echo websearch/pagerank ;; nweight) echo graph/nweight ;; sql) echo sql/join ;;
    wordcount) echo micro/wordcount ;; sort) echo micro/terasort ;;
    nutchindexing) echo websearch/nutchindexing ;;
    *) echo "unknown workload $1" >&2; return 2 ;;
  esac
}

# The run script of a workload: Spark's, except NutchIndexing, which HiBench runs on Hadoop only.
hibench_run() {
  local d; d="$(hibench_dir "$1")"
  if [[ "$1" == nutchindexing ]]; then echo "$HIBENCH_HOME/bin/workloads/$d/hadoop/run.sh"
  else echo "$HIBENCH_HOME/bin/workloads/$d/spark/run.sh"; fi
}
