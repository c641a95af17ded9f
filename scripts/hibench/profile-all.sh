#!/usr/bin/env bash
# Profiles every workload on the real cluster: saba profile runs HiBench's run script at each bandwidth level,
# with the operator's RATE_HOOK setting every node's NIC rate ({percent} = the level), and fits the table.
#   RATE_HOOK='pdsh -w node[1-8] tc class change dev eth0 parent 1: classid 1:1 htb rate $((560*{percent}))mbit'
# Extra arguments go to saba profile (e.g. --repeats 3 --levels 5,10,25,50,75,90,100).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
RATE_HOOK="${RATE_HOOK:?set RATE_HOOK: a command setting each node NIC rate to {percent} percent of the link}"
FABRIC="${FABRIC:-real cluster (set FABRIC to describe it)}"
OUT="${OUT:-sensitivity-table.json}"
for w in $WORKLOADS; do
  # the run script's wall time includes spark-submit start-up, as HiBench's own Duration does
  "$SABA" profile --command "$(hibench_run "$w")" --name "$w" --rate-hook "$RATE_HOOK" --fabric "$FABRIC" \
    --dataset "HiBench profile saba (paper Table 1)" --nodes "${NODES:-8}" --out "$OUT" --dir profile-hibench "$@"
done
