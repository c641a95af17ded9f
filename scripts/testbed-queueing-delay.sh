#!/usr/bin/env bash
# The queueing delay a latency-sensitive message meets behind bulk TCP flows at one port of the namespace testbed
# (issue 18, item 3; the simulator's QueueingDelay.TESTBED comes from this). Hosts h2 and h4 send N bulk iperf3 flows
# to h1 while h3 pings h1 (40 pings, 0.2 s apart, after 4 s of bulk), so the pings and the bulk flows share only the
# switch's port toward h1. Cases (CASES), alternating in every repetition:
#   fifo    the plain link: one FIFO class of 10 ms at rate = ceiling (every packet DSCP 0);
#   saba    two Saba queues of 50 % each on that port (saba testbed apply): the pings in level 1, the bulk in level 2;
#   borrow  one Saba queue of 90 % (ceiling the link) carrying the pings and the bulk: a class that borrows above
#           its rate against fifo's, all else equal (asked by the default model's cost over FIFO in
#           examples/fig1b-testbed/sort-pagerank-gated, plumbing-1129).
# Prints and writes case,flows,rep,rtt_p50_ms,rtt_p90_ms,bulk_mbps,bulk_retransmits (segments the bulk senders
# retransmitted: the 10 ms queue's drops as TCP paid for them).
#
# Needs root, iperf3 and ping (Debian: iputils-ping; not installed by .ci/run, which does not run this script).
# Usage: scripts/testbed-queueing-delay.sh [OUT.csv] [REPS] [RATE] [CASES]
#        (defaults: queueing-delay.csv 3 20mbit "fifo saba")
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-queueing-delay.csv}; reps=${2:-3}; rate=${3:-20mbit}; cases=${4:-fifo saba}
for c in $cases; do
  case $c in fifo|saba|borrow) ;; *) echo "testbed-queueing-delay.sh: unknown case '$c' (fifo, saba, borrow)" >&2; exit 2 ;; esac
done
saba="$here/bin/saba"; name=qdelay; ns=saba-$name
for tool in iperf3 ping; do command -v $tool >/dev/null || { echo "$tool is not installed" >&2; exit 2; }; done
"$saba" testbed up --hosts 4 --link-rate "$rate" --name $name >/dev/null
work=$(mktemp -d)
cleanup() { pkill -f "iperf3 -c 10.77.0.1" || true; "$saba" testbed down --name $name >/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for p in $(seq 5201 5216); do ip netns exec $ns-h1 iperf3 -s -D -p $p; done
echo "case,flows,rep,rtt_p50_ms,rtt_p90_ms,bulk_mbps,bulk_retransmits" | tee "$out"
for rep in $(seq 1 "$reps"); do
  for case in $cases; do
    case $case in
      saba) "$saba" testbed apply --name $name --port sw:1 --weights 1=0.5,2=0.5 >/dev/null; tos_bulk=0x40; tos_ping=0x20 ;;
      borrow) "$saba" testbed apply --name $name --port sw:1 --weights 1=0.9 >/dev/null; tos_bulk=0x20; tos_ping=0x20 ;;
      fifo) "$saba" testbed apply --name $name --port sw:1 --reset >/dev/null; tos_bulk=0x00; tos_ping=0x00 ;;
    esac
    for n in 0 1 2 4 8; do
      pids=()
      for i in $(seq 1 $n); do
        src=$([ $((i % 2)) = 1 ] && echo h2 || echo h4)
        ip netns exec $ns-$src iperf3 -c 10.77.0.1 -p $((5200 + i)) -t 14 -S $tos_bulk -J > "$work/bulk-$i.json" &
        pids+=($!)
      done
      sleep 4
      ip netns exec $ns-h3 ping -c 40 -i 0.2 -Q $tos_ping 10.77.0.1 > "$work/ping.txt"
      for p in "${pids[@]}"; do wait "$p"; done
      rtt=$(grep -o 'time=[0-9.]*' "$work/ping.txt" | cut -d= -f2 | sort -n \
        | awk '{a[NR]=$1} END {print a[int(NR*0.5)+1] "," a[int(NR*0.9)]}')
      bulk=$(python3 -c 'import json,sys
ends = [json.load(open(f))["end"] for f in sys.argv[1:]]
print(round(sum(e["sum_received"]["bits_per_second"] for e in ends) / 1e6, 2),
      sum(e["sum_sent"].get("retransmits", 0) for e in ends), sep=",")' \
        $(for i in $(seq 1 $n); do echo "$work/bulk-$i.json"; done))
      echo "$case,$n,$rep,$rtt,$bulk" | tee -a "$out"
    done
  done
done
