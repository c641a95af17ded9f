#!/usr/bin/env bash
# Rebuilds examples/sensitivity-table.json from examples/samples/*.csv with `saba fit`.
# The samples are ESTIMATES read off the Saba paper's figures (../shared/docs/ORACLES.md), not measurements:
# LR 1.3/3.4/4.5x at 75/25/10 %, SQL ~1.0/1.2/2.2x, PageRank 1.4x and Sort 1.1x at 25 %, mean 2.1x at 25 %,
# ranking RF, LR > GBT > SVM > NI > NW > PR, SQL, WC, Sort. Points the paper does not give are interpolated.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$here/examples/sensitivity-table.json"
rm -f "$out"
for csv in "$here"/examples/samples/*.csv; do
  "$here/bin/saba" fit --samples "$csv" --workload "$(basename "$csv" .csv)" --degree 3 --out "$out" \
    --nodes 8 --dataset "HiBench (paper Table 1)" --fabric "InfiniBand 56 Gb/s (paper testbed)" \
    --source "estimated from the Saba paper's figures (EuroSys '23), not measured" >/dev/null
done
echo "wrote $out"
