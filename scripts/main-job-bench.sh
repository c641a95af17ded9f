#!/usr/bin/env bash
# CPU seconds of the main job (bin/saba campaign, fig8) built from a base commit and from this checkout, runs
# alternated (base, new, base, new, ...) so that load from other work on the machine falls on both alike; prints
# each run, the medians and their ratio, then the paired per-job check of the last two runs (scripts/fig8-paired.py).
#
#   scripts/main-job-bench.sh BASE [SETUPS [RUNS [THREADS]]]
#
# BASE is a commit (built into a temporary git worktree, offline, skipping tests); this checkout must already be
# built (mvn -B -q -o -DskipTests package). SETUPS defaults to 40, RUNS (per side) to 3, THREADS to 1: one thread
# makes CPU seconds the measure, as the campaign's cost does not depend on how many threads share it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${1:?usage: $0 BASE-COMMIT [SETUPS [RUNS [THREADS]]]}"
setups="${2:-40}"
runs="${3:-3}"
threads="${4:-1}"
work="$(mktemp -d /tmp/main-job-bench.XXXXXX)"
trap 'git -C "$here" worktree remove --force "$work/base-src" >/dev/null 2>&1 || true' EXIT

[[ -f "$here/cli/target/saba-cli.jar" ]] || { echo "build this checkout first: mvn -B -q -o -DskipTests package" >&2; exit 2; }
echo "building $base in $work/base-src ..." >&2
git -C "$here" worktree add --quiet --detach "$work/base-src" "$base" >/dev/null 2>&1
(cd "$work/base-src" && mvn -B -q -o -DskipTests package -pl cli -am >/dev/null)
# copies, so that a rebuild of either checkout during the benchmark changes nothing
mkdir -p "$work/base" "$work/new"
cp -r "$work/base-src/cli/target/saba-cli.jar" "$work/base-src/cli/target/lib" "$work/base/"
cp -r "$here/cli/target/saba-cli.jar" "$here/cli/target/lib" "$work/new/"

run() { # side index -> prints "cpu wall"
  local side="$1" i="$2" out="$work/out-$1-$2"
  /usr/bin/time -f "%U %S %e" -o "$work/time-$side-$i" \
    java -cp "$work/$side/saba-cli.jar:$work/$side/lib/*" io.saba.cli.SabaCli campaign --setups "$setups" \
    --threads "$threads" --out "$out" --progress off >/dev/null
  awk '{printf "%.1f %.1f\n", $1 + $2, $3}' "$work/time-$side-$i"
}

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'; }

: >"$work/cpu-base"; : >"$work/cpu-new"
for i in $(seq 1 "$runs"); do
  for side in base new; do
    read -r cpu wall < <(run "$side" "$i")
    echo "$cpu" >>"$work/cpu-$side"
    printf 'run %d %-4s  %7.1f CPU s  %7.1f s wall\n' "$i" "$side" "$cpu" "$wall"
  done
done
b="$(median <"$work/cpu-base")"; n="$(median <"$work/cpu-new")"
printf 'median CPU s over %d runs, %d setups, %d thread(s): base %.1f, new %.1f, new/base %.3f\n' \
  "$runs" "$setups" "$threads" "$b" "$n" "$(awk -v b="$b" -v n="$n" 'BEGIN {print n / b}')"
python3 "$here/scripts/fig8-paired.py" "$work/out-base-$runs/jobs.csv" "$work/out-new-$runs/jobs.csv"
echo "outputs in $work" >&2
