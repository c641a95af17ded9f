#!/usr/bin/env bash
# RPerf §VII-VIII on real packets: one LSG and 0..N BSGs converging on one destination, each source in its
# own network namespace of the testbed (`saba testbed up`, built separately). Prints, per N, the LSG's RTT
# (median / 99.9th, end-to-end and loopback-subtracted) and each BSG's bandwidth, from the CSV of every client.
#
#   rperf-bench/scripts/mixed-traffic.sh --dst-ns h0 --dst-ip 10.0.0.1 --lsg-ns h1 --bsg-ns "h2 h3 h4 h5 h6" \
#       [--mode shared|dedicated|gaming] [--lsg-dscp 46] [--bsg-dscp 0] [--duration 10] [--warmup 2] \
#       [--max-n 5] [--lead 3] [--rows FILE] [--server-running]
#
# Modes (the paper's Figs. 7, 12, 13): shared = LSG and BSGs in one class; dedicated = the LSG's DSCP has its
# own high-priority class at the switch port (the testbed/controller must configure that class for
# --lsg-dscp; this script only marks packets); gaming = the last BSG sends 256 B batched messages on the
# LSG's DSCP. BSGs start --lead seconds before the LSG and run --lead seconds longer, so the LSG's window
# lies inside theirs even when JVMs start slowly on a loaded machine. --rows appends one tab-separated line per
# N (mode, N, LSG e2e med, p99.9, subtracted med, p99.9, BSG Mbit/s each (comma list), total) for a caller
# (scripts/rperf-testbed.sh) to tabulate. A namespace of "-" runs on this host without `ip netns exec` (to check the plumbing on lo).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
saba="$here/bin/saba"
dst_ns=- dst_ip=127.0.0.1 lsg_ns=- bsg_ns="- - - - -" mode=shared lsg_dscp=46 bsg_dscp=0
duration=10 warmup=2 port=18515 max_n="" lead=3 rows="" server_running=0 out_dir=""
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
    --lead) lead=$2; shift 2 ;;
    --rows) rows=$2; shift 2 ;;
    --server-running) server_running=1; shift ;;
    --out-dir) out_dir=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
read -r -a bsgs <<< "$bsg_ns"
max_n=${max_n:-${#bsgs[@]}}
if [[ -n $out_dir ]]; then out=$out_dir/$mode; mkdir -p "$out"; else out=$(mktemp -d /tmp/rperf-mixed.XXXXXX); fi
in_ns() { local ns=$1; shift; if [[ $ns == - ]]; then "$@"; else ip netns exec "$ns" "$@"; fi; }

if (( ! server_running )); then
  in_ns "$dst_ns" "$saba" rperf server --port "$port" > "$out/server.log" 2>&1 &
  server=$!
  trap 'kill "$server" 2>/dev/null || true' EXIT
  sleep 2
fi

printf '%-3s | %-22s | %-22s | %-40s | %s\n' N "LSG e2e med / p99.9 us" "LSG sub med / p99.9 us" "BSG Mbit/s each" "total"
first_n=0; [[ $mode == gaming ]] && first_n=$max_n
for (( n = first_n; n <= max_n; n++ )); do
  pids=()
  for (( i = 0; i < n; i++ )); do
    gen=(--bsg 1 --bsg-dscp "$bsg_dscp" --batch 1)
    if [[ $mode == gaming && $i == $((n - 1)) ]]; then
      gen=(--gen "bsg:size=256,dscp=$lsg_dscp,batch=64")
    fi
    in_ns "${bsgs[$i]}" "$saba" rperf client -H "$dst_ip" -p "$port" --lsg 0 "${gen[@]}" \
      --duration "$((duration + lead))" --warmup "$((warmup + lead))" --csv "$out/n$n-bsg$i.csv" > "$out/n$n-bsg$i.log" 2>&1 &
    pids+=($!)
  done
  (( n > 0 )) && sleep "$lead"
  in_ns "$lsg_ns" "$saba" rperf client -H "$dst_ip" -p "$port" --lsg 1 --lsg-dscp "$lsg_dscp" \
    --duration "$duration" --warmup "$warmup" --csv "$out/n$n-lsg.csv" > "$out/n$n-lsg.log" 2>&1 &
  pids+=($!)
  for p in "${pids[@]}"; do wait "$p" || { echo "generator failed; logs in $out" >&2; exit 1; }; done
  e2e=$(awk -F, '$5=="rtt_end_to_end"{printf "%.2f / %.2f", $8, $11}' "$out/n$n-lsg.csv")
  sub=$(awk -F, '$5=="rtt_loopback_subtracted"{printf "%.2f / %.2f", $8, $11}' "$out/n$n-lsg.csv")
  each=""; total=0
  for (( i = 0; i < n; i++ )); do
    g=$(awk -F, '$5=="bandwidth"{printf "%.1f", $13 * 1000}' "$out/n$n-bsg$i.csv")
    each+="$g "; total=$(awk -v a="$total" -v b="$g" 'BEGIN{printf "%.1f", a+b}')
  done
  printf '%-3s | %-22s | %-22s | %-40s | %s\n' "$n" "$e2e" "$sub" "${each:--}" "$total"
  if [[ -n $rows ]]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$mode" "$n" "${e2e/ \/ /$'\t'}" "${sub/ \/ /$'\t'}" \
      "$(echo $each | tr ' ' ,)" "$total" >> "$rows"
  fi
done
echo "raw CSV and logs: $out"
