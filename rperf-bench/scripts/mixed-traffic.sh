#!/usr/bin/env bash
# RPerf §VII-VIII on real packets: one LSG and 0..N BSGs converging on one destination, each source in its
# own network namespace of the testbed (`saba testbed up`, built separately). Prints, per N, the LSG's RTT
# (median / 99.9th, end-to-end and loopback-subtracted) and each BSG's bandwidth, from the CSV of every client.
#
#   rperf-bench/scripts/mixed-traffic.sh --dst-ns h0 --dst-ip 10.0.0.1 --lsg-ns h1 --bsg-ns "h2 h3 h4 h5 h6" \
#       [--mode shared|dedicated|gaming] [--lsg-dscp 46] [--bsg-dscp 0] [--duration 10] [--warmup 2]
#
# Modes (the paper's Figs. 7, 12, 13): shared = LSG and BSGs in one class; dedicated = the LSG's DSCP has its
# own high-priority class at the switch port (the testbed/controller must configure that class for
# --lsg-dscp; this script only marks packets); gaming = the last BSG sends 256 B batched messages on the
# LSG's DSCP. A namespace of "-" runs on this host without `ip netns exec` (to check the plumbing on lo).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
saba="$here/bin/saba"
dst_ns=- dst_ip=127.0.0.1 lsg_ns=- bsg_ns="- - - - -" mode=shared lsg_dscp=46 bsg_dscp=0
duration=10 warmup=2 port=18515 max_n=""
while (( $# )); do
  case "$1" in
    --dst-ns) dst_ns=$2; shift 2 ;;
    --dst-ip) dst_ip=$2; shift 2 ;;
    --lsg-ns) lsg_ns=$2; shift 2 ;;
    --bsg-ns) bsg_ns=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --lsg-dscp) lsg_dscp=$2; shift 2 ;;
    --bsg-dscp) bsg_dscp=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --max-n) max_n=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
read -r -a bsgs <<< "$bsg_ns"
max_n=${max_n:-${#bsgs[@]}}
out=$(mktemp -d /tmp/rperf-mixed.XXXXXX)
in_ns() { local ns=$1; shift; if [[ $ns == - ]]; then "$@"; else ip netns exec "$ns" "$@"; fi; }

in_ns "$dst_ns" "$saba" rperf server --port "$port" > "$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
sleep 2

printf '%-3s | %-22s | %-22s | %-40s | %s\n' N "LSG e2e med / p99.9 us" "LSG sub med / p99.9 us" "BSG Gb/s each" "total"
first_n=0; [[ $mode == gaming ]] && first_n=$max_n
for (( n = first_n; n <= max_n; n++ )); do
  pids=()
  for (( i = 0; i < n; i++ )); do
    gen=(--bsg 1 --bsg-dscp "$bsg_dscp" --batch 1)
    if [[ $mode == gaming && $i == $((n - 1)) ]]; then
      gen=(--gen "bsg:size=256,dscp=$lsg_dscp,batch=64")
    fi
    in_ns "${bsgs[$i]}" "$saba" rperf client -H "$dst_ip" -p "$port" --lsg 0 "${gen[@]}" \
      --duration "$duration" --warmup "$warmup" --csv "$out/n$n-bsg$i.csv" > "$out/n$n-bsg$i.log" 2>&1 &
    pids+=($!)
  done
  in_ns "$lsg_ns" "$saba" rperf client -H "$dst_ip" -p "$port" --lsg 1 --lsg-dscp "$lsg_dscp" \
    --duration "$duration" --warmup "$warmup" --csv "$out/n$n-lsg.csv" > "$out/n$n-lsg.log" 2>&1 &
  pids+=($!)
  for p in "${pids[@]}"; do wait "$p"; done
  e2e=$(awk -F, '$5=="rtt_end_to_end"{printf "%.2f / %.2f", $8, $11}' "$out/n$n-lsg.csv")
  sub=$(awk -F, '$5=="rtt_loopback_subtracted"{printf "%.2f / %.2f", $8, $11}' "$out/n$n-lsg.csv")
  each=""; total=0
  for (( i = 0; i < n; i++ )); do
    g=$(awk -F, '$5=="bandwidth"{printf "%.2f", $13}' "$out/n$n-bsg$i.csv")
    each+="$g "; total=$(awk -v a="$total" -v b="$g" 'BEGIN{printf "%.2f", a+b}')
  done
  printf '%-3s | %-22s | %-22s | %-40s | %s\n' "$n" "$e2e" "$sub" "${each:--}" "$total"
done
echo "raw CSV and logs: $out"
