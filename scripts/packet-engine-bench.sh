#!/usr/bin/env bash
# The packet engine's speed beside an earlier build's: builds BASE (default: where this branch left main) in a
# temporary directory and the working tree here, then runs io.saba.harness.bench.PacketEngineBench from each build
# alternately, ROUNDS times (ABBA order), each in a fresh JVM, and prints the medians and ranges of the JVMs'
# median packets per CPU-second, and their ratio. The benchmark's source is this tree's, compiled against each
# build, so both run the same study; the script stops if the two builds' results checksums differ. So BASE must have
# the reference study's configuration as this tree builds it (PacketStudyConfig with its ackEvery component).
#
#   scripts/packet-engine-bench.sh [BASE] [ROUNDS] [PASSES]        (defaults: merge-base with main, 5, 5)
#   ACK_EVERY=256 scripts/packet-engine-bench.sh ...               (the study with coalesced ACKs; default 1)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
base="${1:-$(git -C "$here" merge-base HEAD main)}"
rounds="${2:-5}"
passes="${3:-5}"
ack_every="${ACK_EVERY:-1}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bench_src="$here/harness/src/main/java/io/saba/harness/bench/PacketEngineBench.java"

build() { # dir → prints a classpath with the benchmark compiled against that build
  local dir="$1" out="$2"
  (cd "$dir" && mvn -B -q -o -pl rperf-bench,harness -am -DskipTests package dependency:build-classpath \
      -Dmdep.outputFile=target/cp.txt >&2)
  local cp; cp="$(cat "$dir/harness/target/cp.txt"):$dir/harness/target/classes"
  mkdir -p "$out"
  javac -q -d "$out" -cp "$cp" "$bench_src" 2>/dev/null || javac -d "$out" -cp "$cp" "$bench_src"
  echo "$out:$cp"
}

echo "base: $(git -C "$here" log -1 --format='%h %s' "$base" | cut -c1-100)" >&2
git -C "$here" archive "$base" | tar -x -C "$tmp" --one-top-level=base
cp_a="$(build "$tmp/base" "$tmp/bench-a")"
echo "new:  $(git -C "$here" log -1 --format='%h %s' HEAD | cut -c1-100)$(git -C "$here" diff --quiet HEAD || echo ' + uncommitted changes')" >&2
cp_b="$(build "$here" "$tmp/bench-b")"

run() { # classpath label → appends "rate checksum" to $tmp/label
  local out
  out="$(java -cp "$1" io.saba.harness.bench.PacketEngineBench --passes "$passes" --ack-every "$ack_every" | tail -1)"
  echo "$2: $out" >&2
  echo "$out" | sed -E 's/.*median ([0-9]+) .*checksum (-?[0-9]+)/\1 \2/' >> "$tmp/$2"
}
for i in $(seq 1 "$rounds"); do
  if (( i % 2 )); then run "$cp_a" A; run "$cp_b" B; else run "$cp_b" B; run "$cp_a" A; fi
done
python3 - "$tmp/A" "$tmp/B" "$passes" <<'PY'
import statistics, sys
a = [l.split() for l in open(sys.argv[1])]
b = [l.split() for l in open(sys.argv[2])]
if {x[1] for x in a} | {x[1] for x in b} != {a[0][1]}:
    sys.exit("the builds' results differ: checksums %s and %s" % ({x[1] for x in a}, {x[1] for x in b}))
ra = [float(x[0]) for x in a]; rb = [float(x[0]) for x in b]
ma, mb = statistics.median(ra), statistics.median(rb)
print("data packets per CPU-second, median of each JVM's %s passes, %d JVMs each (alternating):" % (sys.argv[3], len(ra)))
print("  base %9.0f  (%.0f-%.0f)" % (ma, min(ra), max(ra)))
print("  new  %9.0f  (%.0f-%.0f)" % (mb, min(rb), max(rb)))
print("  new / base %.2fx (paired per round: %s); results identical (checksum %s)" % (mb / ma,
      " ".join("%.2f" % (y / x) for x, y in zip(ra, rb)), a[0][1]))
PY
