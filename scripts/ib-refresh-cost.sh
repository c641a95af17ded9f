#!/usr/bin/env bash
# What one re-discovery of the InfiniBand path resolver costs (the work behind 'refresh-seconds', issue 23 item 6):
# for two-level fat trees of growing size on ibsim, brought up by OpenSM, it runs what InfinibandPathResolver.refresh
# runs, ibnetdiscover then dump_fts, and prints per refresh: the MADs the fabric answered (counted in ibsim's debug
# log; OpenSM is stopped first, so they are the tools' alone), and over N runs on an ibsim without its debug log the
# median wall time and the tools' median CPU time (perf's task-clock, the tools' processes only; how fast ibsim
# answers is not how fast a real fabric does). The controller's own part (parsing the two outputs, comparing with the last picture)
# runs on its refresh thread, off the request path, and is not included. As a baseline it first counts the MADs a
# settled OpenSM sends by itself (default sweep interval, 10 s) over 30 s.
#
# Needs ibsim-utils, opensm, infiniband-diags and perf (Debian: linux-perf), as root. Usage: scripts/ib-refresh-cost.sh [RUNS] [S,L,H ...]
# (S spines, L leaves, H hosts per leaf; default 2,4,2 4,8,8 8,16,16).
set -euo pipefail
runs="${1:-10}"
shift || true
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(2,4,2 4,8,8 8,16,16)
shim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
for tool in ibsim opensm ibnetdiscover dump_fts perf; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] \
    || { echo "ib-refresh-cost: $tool is missing (ibsim-utils opensm infiniband-diags)" >&2; exit 2; }
done
work="$(mktemp -d /tmp/saba-ib-refresh-cost.XXXXXX)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

fat_tree() { # spines leaves hosts-per-leaf: ibsim's net format, as NetFiles.fatTree writes it
  awk -v S="$1" -v L="$2" -v H="$3" 'BEGIN {
    for (l = 1; l <= L; l++) {
      printf "Switch\t%d \"leaf%d\"\n", H + S, l
      for (h = 1; h <= H; h++) printf "[%d]\t\"h%03d\"[1]\n", h, (l - 1) * H + h
      for (s = 1; s <= S; s++) printf "[%d]\t\"spine%d\"[%d]\n", H + s, s, l
      print ""
    }
    for (s = 1; s <= S; s++) {
      printf "Switch\t%d \"spine%d\"\n", L, s
      for (l = 1; l <= L; l++) printf "[%d]\t\"leaf%d\"[%d]\n", l, l, H + s
      print ""
    }
    for (l = 1; l <= L; l++) for (h = 1; h <= H; h++)
      printf "Hca\t1 \"h%03d\"\n[1]\t\"leaf%d\"[%d]\n\n", (l - 1) * H + h, l, h
  }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
mads() { grep -c "process_packet: client" "$1" || true; }

# up SIZE DEBUG: ibsim on a fat tree (with its debug log, which counts MADs but slows it, when DEBUG is 1), routed
# by OpenSM; leaves ibsim_pid, osm and dir set and IBSIM_SOCKNAME exported
up() {
  IFS=, read -r s l h <<<"$1"
  dir="$work/$1-$2"; mkdir -p "$dir/cache"
  fat_tree "$s" "$l" "$h" >"$dir/net"
  export IBSIM_SOCKNAME="sabacost$$x${1//,/x}x$2"
  local flags=(-s); [[ "$2" == 1 ]] && flags=(-d -s)
  ibsim "${flags[@]}" "$dir/net" >"$dir/ibsim.log" 2>&1 </dev/zero & pids+=($!); ibsim_pid=$!
  sleep 2
  LD_PRELOAD=$shim OSM_CACHE_DIR="$dir/cache" OSM_TMP_DIR="$dir" opensm -f "$dir/opensm.log" >"$dir/opensm.out" 2>&1 &
  pids+=($!); osm=$!
  local want=$((l * h + l + s)) routed=0 # LIDs every switch must route: hosts and switches
  for _ in $(seq 300); do
    routed=$(LD_PRELOAD=$shim dump_fts 2>/dev/null | grep -c "^$want valid lids dumped" || true)
    [[ "$routed" == $((l + s)) ]] && return 0
    sleep 1
  done
  echo "ib-refresh-cost: OpenSM did not route $1" >&2
  exit 1
}
down() { kill "$osm" "$ibsim_pid" 2>/dev/null || true; wait "$osm" "$ibsim_pid" 2>/dev/null || true; }
refresh() { LD_PRELOAD=$shim ibnetdiscover >/dev/null 2>&1; LD_PRELOAD=$shim dump_fts >/dev/null 2>&1; }

printf '%-10s %9s %6s %13s %19s %14s %18s\n' "fat tree" switches hosts "MADs/refresh" "OpenSM idle MADs/s" \
  "wall ms (p50)" "tool CPU ms (p50)"
for size in "${sizes[@]}"; do
  IFS=, read -r s l h <<<"$size"
  # the MADs: a refresh's, and a settled OpenSM's own over 30 s (after its first sweeps)
  up "$size" 1
  sleep 12
  sleep 0.5; before=$(mads "$dir/ibsim.log"); sleep 30; sleep 0.5
  osm_rate=$(awk -v n=$(( $(mads "$dir/ibsim.log") - before )) 'BEGIN { printf "%.0f", n / 30 }')
  kill "$osm"; wait "$osm" 2>/dev/null || true
  sleep 0.5; before=$(mads "$dir/ibsim.log"); refresh; sleep 0.5 # ibsim's debug output is buffered
  count=$(( $(mads "$dir/ibsim.log") - before ))
  down
  # the times, on an ibsim without the debug log
  up "$size" 0
  kill "$osm"; wait "$osm" 2>/dev/null || true
  walls=(); cpus=()
  for _ in $(seq "$runs"); do
    t0=$(date +%s%N)
    perf stat -x, -e task-clock -o "$dir/t1" env LD_PRELOAD=$shim ibnetdiscover >/dev/null 2>&1
    perf stat -x, -e task-clock -o "$dir/t2" env LD_PRELOAD=$shim dump_fts >/dev/null 2>&1
    t1=$(date +%s%N)
    walls+=($(( (t1 - t0) / 1000000 )))
    cpus+=($(cat "$dir/t1" "$dir/t2" | awk -F, '$3 == "task-clock" { ms += $1 } END { printf "%.1f", ms }'))
  done
  down
  printf '%-10s %9d %6d %13s %19s %14s %18s\n' "$size" $((l + s)) $((l * h)) "$count" "$osm_rate" \
    "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${cpus[@]}" | median)"
done
