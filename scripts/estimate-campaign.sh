#!/usr/bin/env bash
# Issue #20's second evidence (root): the real-Spark testbed campaign of #12 with the controller on three models,
# as treatments of the same setups run alternately:
#   table    the profiled table (sensitivity: table), what #12 ran
#   online   no table; the controller allocates with the estimate it learns from the jobs' stages
#            (sensitivity: online), keeping it across the treatment's runs in its journal
#   default  no table and nothing learnt: every job on the default model (sensitivity: table, no table)
#   tagged   the table treatment's controller and plugins on the dry-run fabric: every port stays one FIFO, so its
#            speedup is what a Saba run costs without its weights (shuffle manager, tagging, registration, the
#            controller's CPU on the testbed's two cores); table over tagged is what the weights themselves do
#   fair     the per-application fair baseline (issue #18's order): the table's levels, every application the same
#            share of every port (--allocation fair); table over fair is what Saba's weights add to separate queues
# Each treatment is its own campaign folder (OUT/rREP/TREATMENT), each setup there run once on plain Spark and once
# with that controller, so every treatment's speedups are against a baseline run next to it in time, and the three
# baselines of a setup measure the run-to-run spread. Setup k runs under the three treatments back to back, in an
# order rotated with k, before setup k + 1; REPS repeats the setups with fresh folders (and fresh learning).
#
#   scripts/estimate-campaign.sh [SETUPS=4] [REPS=1] [TABLE=examples/testbed-campaign/table.json] [OUT=...]
#                                [TREATMENTS="table online default"] [NAME=evid-c] [SUBNET=10.89.0]
#
# Resumable: a setup already complete in a folder is skipped (saba campaign's resume). scripts/estimate-compare.py
# prints the comparison. Needs: a build (mvn -B -q -DskipTests package), root, curl, python3.
set -euo pipefail
for kv in "$@"; do export "${kv?}"; done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
SETUPS=${SETUPS:-4}; REPS=${REPS:-1}; TREATMENTS=${TREATMENTS:-table online default}
TABLE=${TABLE:-$here/examples/testbed-campaign/table.json}; TABLE=$(realpath "$TABLE")
NAME=${NAME:-evid-c}; SUBNET=${SUBNET:-10.89.0}; OUT=${OUT:-$here/estimate-campaign-out}
[[ $(id -u) == 0 ]] || { echo "estimate-campaign: needs root (network namespaces, tc)" >&2; exit 2; }
mkdir -p "$OUT"
options() { # TREATMENT
  case $1 in
    table) echo "--allocation corun --sensitivity table" ;;
    online) echo "--allocation corun --sensitivity online --controller-table none" ;;
    blended) echo "--allocation corun --sensitivity blended" ;;
    default) echo "--allocation corun --sensitivity table --controller-table none" ;;
    tagged) echo "--allocation corun --sensitivity table --fabric dry-run" ;;
    fair) echo "--allocation fair --sensitivity table" ;;
    *) echo "estimate-campaign: unknown treatment '$1'" >&2; exit 2 ;;
  esac
}
treatments=($TREATMENTS)
for k in $(seq 1 "$SETUPS"); do
  for rep in $(seq 1 "$REPS"); do
    n=${#treatments[@]}
    for i in $(seq 0 $((n - 1))); do
      t=${treatments[$(( (i + k + rep - 2) % n ))]}
      echo "== setup $((k - 1)) rep $rep $t: $(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg)" \
        | tee -a "$OUT/progress.txt"
      # shellcheck disable=SC2046
      "$here/bin/saba" campaign --testbed --table "$TABLE" --setups "$k" --seed 1 --hosts 5 --link-rate 20mbit \
        --scale small --name "$NAME" --subnet "$SUBNET" $(options "$t") \
        --out "$OUT/r$rep/$t" >> "$OUT/r$rep-$t.log" 2>&1 || echo "estimate-campaign: setup $((k - 1)) $t failed, see $OUT/r$rep-$t.log" | tee -a "$OUT/progress.txt"
    done
  done
done
python3 "$here/scripts/estimate-compare.py" "$OUT" $TREATMENTS | tee "$OUT/summary.txt"
