#!/usr/bin/env bash
# RPerf's mixed-traffic experiments (paper Figs. 7, 12, 13) on the namespace testbed, one command (root):
#
#   rperf-bench/scripts/rperf-testbed.sh [--link-rate 100mbit] [--duration 3] [--warmup 1] [--lead 3]
#                                        [--lsg-weight 0.5] [--cc reno] [--name rperf] [--out FILE.md]
#
# Brings up a 7-host testbed (`saba testbed up`), destination h1 (10.77.0.1), the LSG (64 B, closed loop,
# DSCP 8 = Saba level 1) on h2, BSGs (4096 B, open loop, DSCP 0) on h3..h7, so every packet toward h1 crosses
# the switch namespace's egress port sw:1 = device p1, the bottleneck. Three modes:
#   shared     sw:1 is the testbed's plain link: one HTB class at the link rate with one drop-tail FIFO
#              (about 10 ms of the link). N = 0..5 BSGs.                                  (paper Fig. 7)
#   dedicated  `saba testbed apply --port sw:1 --weights 1=W` (the Linux backend): DSCP 8 goes to its own HTB
#              class with a guaranteed rate W x link and its own FIFO; everything else stays in the default
#              class (rate (1-W) x link); both may borrow up to the link. The LSG needs far less than its rate,
#              so HTB dequeues it as soon as it arrives and it never waits behind the BSGs' FIFO: the Linux
#              analogue of the paper's SL1 -> high-priority VL1. N = 0..5 BSGs.           (paper Fig. 12)
#   gaming     as dedicated, with 5 BSGs of which the last sends 256 B messages in batches of 64 on DSCP 8,
#              the LSG's class (a "pretend LSG").                                          (paper Fig. 13)
# --cc sets the hosts' default TCP congestion control (sysctl inside each host namespace; only algorithms in
# net.ipv4.tcp_allowed_congestion_control may be a namespace's default); without it they use the machine's.
# Then prints markdown tables, ours beside the paper's, and brings the testbed down (also on failure).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
saba="$here/bin/saba"
rate=100mbit duration=3 warmup=1 lead=3 weight=0.5 name=rperf out="" port=18515 cc=""
while (( $# )); do
  case "$1" in
    --link-rate) rate=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --lead) lead=$2; shift 2 ;;
    --lsg-weight) weight=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --cc) cc=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
if (( EUID != 0 )); then echo "rperf-testbed: needs root (network namespaces, tc)" >&2; exit 2; fi
if [[ ! -f $here/cli/target/saba-cli.jar ]]; then
  (cd "$here" && mvn -B -ntp -q -DskipTests package)
fi
ns="saba-$name"
work=$(mktemp -d /tmp/rperf-testbed.XXXXXX)
rows="$work/rows.tsv"
server=""
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null || true
  "$saba" testbed down --name "$name" > "$work/down.log" 2>&1 || echo "testbed down failed; see $work/down.log" >&2
}
trap cleanup EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)

"$saba" testbed up --hosts 7 --link-rate "$rate" --name "$name" > "$work/up.log" 2>&1 \
  || { cat "$work/up.log" >&2; exit 1; }
for h in 1 2 3 4 5 6 7; do
  [[ -n $cc ]] && ip netns exec "$ns-h$h" sysctl -q -w net.ipv4.tcp_congestion_control="$cc"
done
cc_used=$(ip netns exec "$ns-h3" sysctl -n net.ipv4.tcp_congestion_control)
ip netns exec "$ns-h1" "$saba" rperf server --port "$port" > "$work/server.log" 2>&1 &
server=$!
sleep 2
common=(--dst-ns "$ns-h1" --dst-ip 10.77.0.1 --lsg-ns "$ns-h2" --bsg-ns "$ns-h3 $ns-h4 $ns-h5 $ns-h6 $ns-h7"
        --lsg-dscp 8 --bsg-dscp 0 --duration "$duration" --warmup "$warmup" --lead "$lead" --port "$port"
        --rows "$rows" --server-running --max-n 5 --out-dir "$work")
mixed="$here/rperf-bench/scripts/mixed-traffic.sh"

echo "== shared FIFO at sw:1 ($rate)"
"$saba" testbed apply --name "$name" --port sw:1 --reset > "$work/apply-reset.log" 2>&1
"$mixed" "${common[@]}" --mode shared
echo "== dedicated class for DSCP 8 at sw:1 (weight $weight)"
"$saba" testbed apply --name "$name" --port sw:1 --weights "1=$weight" > "$work/apply.log" 2>&1 \
  || { cat "$work/apply.log" >&2; exit 1; }
ip netns exec "$ns-sw" tc class show dev p1 | sed 's/^/   /'
"$mixed" "${common[@]}" --mode dedicated
echo "== gaming: BSG 5 sends 256 B x 64 batched on DSCP 8"
"$mixed" "${common[@]}" --mode gaming
ip netns exec "$ns-sw" tc -s class show dev p1 > "$work/classes-after-gaming.txt"
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
elapsed=$(( $(date +%s) - start ))

{
  echo "Testbed: 7 namespaces + switch namespace, links $rate, bottleneck sw:1 (egress toward h1); TCP $cc_used."
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'): ${duration} s measured per point after ${warmup} s warm-up" \
       "(BSGs start ${lead} s earlier), ${elapsed} s in all; load average $load_before before, $load_after after," \
       "$(nproc) cores. RTT in us, end-to-end (T_W - T_P) and loopback-subtracted (T_W - T_L)."
  echo
  echo "#### Shared FIFO (paper Fig. 7; paper N=5 from Fig. 12's shared case)"
  echo
  echo "| N | ours med | ours p99.9 | ours sub med | ours sub p99.9 | paper med | paper p99.9 | ours BSG Mbit/s each | ours total Mbit/s | paper total Gbps |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '$1=="shared"{
      pm["0"]="0.43"; pt["0"]="0.63"; pm["1"]="0.6"; pt["1"]="0.9"; pm["2"]="5.2"; pt["2"]="5.7";
      pm["3"]="10.7"; pt["3"]="12.6"; pm["5"]="20.2"; pt["5"]="22.1";
      pg["1"]="52.2"; pg["2"]="51.1"; pg["5"]="48.4";
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6,
        ($2 in pm ? pm[$2] : "-"), ($2 in pt ? pt[$2] : "-"), ($7 == "" ? "-" : $7), $8, ($2 in pg ? pg[$2] : "-") }' "$rows"
  echo
  echo "#### Dedicated class for the LSG's DSCP (paper Fig. 12: SL1 -> high-priority VL1; paper has N=5 only)"
  echo
  echo "| N | ours med | ours p99.9 | ours sub med | ours sub p99.9 | paper med | paper p99.9 | ours BSG Mbit/s each | ours total Mbit/s | ours shared med (same N) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  awk -F'\t' '$1=="shared"{s[$2]=$3} $1=="dedicated"{
      printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6,
        ($2 == "5" ? "0.7" : "-"), ($2 == "5" ? "1.1" : "-"), ($7 == "" ? "-" : $7), $8, s[$2] }' "$rows"
  echo
  echo "#### Gaming: 4 honest BSGs (DSCP 0) + 1 pretend LSG (256 B x 64, DSCP 8) (paper Fig. 13)"
  echo
  echo "| | ours | paper |"
  echo "|---|---|---|"
  awk -F'\t' '$1=="gaming"{ n = split($7, g, ","); hmin = 1e18; hmax = 0;
      for (i = 1; i < n; i++) { if (g[i] < hmin) hmin = g[i]; if (g[i] > hmax) hmax = g[i] }
      printf "| pretend LSG bandwidth | %s Mbit/s (%.0f %% of total) | 21.5 Gbps |\n", g[n], 100 * g[n] / $8;
      printf "| honest BSG bandwidth, each | %s-%s Mbit/s | 6.7-7 Gbps |\n", hmin, hmax;
      printf "| total | %s Mbit/s | - |\n", $8;
      printf "| LSG med / p99.9 (us) | %s / %s | 8.5 / 9.1 |\n", $3, $4 }' "$rows"
  echo
  echo "Raw CSVs, logs and tc counters: $work"
} | tee "$work/tables.md"
[[ -n $out ]] && cp "$work/tables.md" "$out"
exit 0
