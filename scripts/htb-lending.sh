#!/usr/bin/env bash
# Does a weighted port stay full when its big class pauses? (root, after a build; leaves nothing running)
#
#   scripts/htb-lending.sh [OUT=htb-lending-out] [MODES="fifo saba fifo saba"]
#
# Two TCP flows from h2 to h1 on a 2-host testbed at 20 Mbit/s: A (level 2, TOS 64) sends for 32 s; B (level 1,
# TOS 32) sends 1 s and pauses 1 s, 15 times. Mode "fifo" leaves the links one FIFO; "saba" puts Fig. 1b's
# weights on h2's egress and the switch port to h1 (level 1 85 %, level 2 5 % of C_Saba 0.9). Prints A's
# throughput per second and the egress's throughput over all classes: if the port lends what B leaves, the
# egress carries the link in both modes and A's loss under the weights is B's gain.
set -euo pipefail
for kv in "$@"; do export "${kv?}"; done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
saba="$here/bin/saba"; NAME=lend; SUBNET=10.81.0
OUT=${OUT:-$here/htb-lending-out}; MODES=${MODES:-fifo saba fifo saba}
[[ $(id -u) == 0 ]] || { echo "htb-lending: needs root (network namespaces, tc)" >&2; exit 2; }
command -v iperf3 >/dev/null || { echo "htb-lending: needs iperf3 (Debian package iperf3)" >&2; exit 2; }
mkdir -p "$OUT"
trap '"$saba" testbed down --name $NAME >/dev/null 2>&1 || true' EXIT
egress_bytes() {
  ip netns exec "saba-$NAME-h2" tc -s class show dev eth0 | awk '/class htb 1:1 root/ { f = 1 } f && /Sent/ { print $2; exit }'
}
n=0
for mode in $MODES; do
  n=$((n + 1))
  "$saba" testbed up --hosts 2 --link-rate 20mbit --name $NAME --subnet $SUBNET >/dev/null
  case $mode in
    saba) "$saba" testbed apply --name $NAME --port h2:0,sw:1 --weights 1=0.765,2=0.045 >/dev/null ;;
    fifo) ;;
    *) echo "htb-lending: unknown mode '$mode' (fifo or saba)" >&2; exit 2 ;;
  esac
  for p in 5201 5202; do ip netns exec "saba-$NAME-h1" iperf3 -s -p $p -D; done
  sleep 1
  ip netns exec "saba-$NAME-h2" iperf3 -c $SUBNET.1 -p 5201 -S 64 -t 32 -i 1 --json > "$OUT/$n-$mode-A.json" &
  a=$!
  t0=$(date +%s.%N); b0=$(egress_bytes)
  sleep 1
  for _ in $(seq 15); do
    ip netns exec "saba-$NAME-h2" iperf3 -c $SUBNET.1 -p 5202 -S 32 -t 1 >/dev/null 2>&1 || true
    sleep 1
  done
  wait $a
  t1=$(date +%s.%N); b1=$(egress_bytes)
  ip netns exec "saba-$NAME-h1" pkill -f "iperf3 -s -p 520" || true
  "$saba" testbed down --name $NAME >/dev/null
  python3 - "$OUT/$n-$mode-A.json" "$mode" "$b0" "$b1" "$t0" "$t1" <<'PY'
import json, sys
path, mode, b0, b1, t0, t1 = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:])
per_second = [i["sum"]["bits_per_second"] / 1e6 for i in json.load(open(path))["intervals"]]
print(f"{mode:5} A per second (Mbit/s): {' '.join(f'{x:.1f}' for x in per_second)}")
print(f"{mode:5} A mean {sum(per_second) / len(per_second):.2f} Mbit/s; h2 egress, all classes: "
      f"{(b1 - b0) * 8 / (t1 - t0) / 1e6:.2f} Mbit/s")
PY
done
