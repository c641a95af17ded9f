#!/usr/bin/env bash
# Generates every workload's input with HiBench's own prepare scripts (the "saba" scale profile = Table 1).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
for w in $WORKLOADS; do
  d="$(hibench_dir "$w")"
  echo "== prepare $w ($d)"
  "$HIBENCH_HOME/bin/workloads/$d/prepare/prepare.sh"
done
