#!/usr/bin/env bash
# Does a Saba level class that borrows (rate 90 % of the link, ceiling the link) delay or slow traffic more than the
# plain link's class (rate = ceiling)? Both carry the same load: 2 bulk iperf3 flows (h2, h4 -> h1) and a ping
# (h3 -> h1, 40 pings 0.2 s apart after 4 s of bulk), sharing the switch's port toward h1, in one class either way
# (the ping and the bulk both DSCP 8, level 1, under "borrow"). Cases alternate, 4 repetitions, 20 Mbit/s.
# Prints case,rep,rtt_p50_ms,rtt_p90_ms,bulk_mbps. Asked by the default model's cost over FIFO in
# examples/fig1b-testbed/sort-pagerank-gated (plumbing-1129).
#
# Needs root, iperf3 and ping (Debian: iputils-ping; not installed by .ci/run, which does not run this script).
# Usage: scripts/testbed-htb-borrowing.sh
set -euo pipefail
[ $# = 0 ] || { echo "usage: scripts/testbed-htb-borrowing.sh (no arguments)" >&2; exit 2; }
for tool in iperf3 ping; do command -v $tool >/dev/null || { echo "$tool is not installed" >&2; exit 2; }; done
here=$(cd "$(dirname "$0")/.." && pwd)
saba="$here/bin/saba"; name=borrow; ns=saba-$name
work=$(mktemp -d)
"$saba" testbed up --hosts 4 --link-rate 20mbit --name $name >/dev/null
ip=$(ip netns exec $ns-h1 ip -4 -o addr show eth0 | awk '{print $4}' | cut -d/ -f1)
cleanup() { pkill -f "iperf3 -c $ip" || true; pkill -f "iperf3 -s -D -p 520" || true; "$saba" testbed down --name $name >/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for p in 5201 5202; do ip netns exec $ns-h1 iperf3 -s -D -p $p; done
echo "case,rep,rtt_p50_ms,rtt_p90_ms,bulk_mbps"
for rep in 1 2 3 4; do
  for case in fifo borrow; do
    if [ $case = borrow ]; then "$saba" testbed apply --name $name --port sw:1 --weights 1=0.9 >/dev/null; tos=0x20
    else "$saba" testbed apply --name $name --port sw:1 --reset >/dev/null; tos=0x00; fi
    ip netns exec $ns-h2 iperf3 -c $ip -p 5201 -t 14 -S $tos -J > "$work/b1.json" & p1=$!
    ip netns exec $ns-h4 iperf3 -c $ip -p 5202 -t 14 -S $tos -J > "$work/b2.json" & p2=$!
    sleep 4
    ip netns exec $ns-h3 ping -c 40 -i 0.2 -Q $tos $ip > "$work/ping.txt"
    wait $p1 $p2
    r=$(grep -o 'time=[0-9.]*' "$work/ping.txt" | cut -d= -f2 | sort -n | awk '{a[NR]=$1} END {print a[int(NR*0.5)+1] "," a[int(NR*0.9)+1]}')
    bw=$(python3 -c "import json,sys;print(round(sum(json.load(open(f))['end']['sum_received']['bits_per_second'] for f in sys.argv[1:])/1e6,2))" "$work/b1.json" "$work/b2.json")
    echo "$case,$rep,$r,$bw"
  done
done
