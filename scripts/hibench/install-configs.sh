#!/usr/bin/env bash
# Copies Saba's overlays (hibench-configs/conf) over a HiBench checkout's conf/, keeping the originals as *.orig.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
src="$here/../../hibench-configs/conf"
for f in hibench.conf spark.conf; do
  [[ -f "$HIBENCH_HOME/conf/$f" && ! -f "$HIBENCH_HOME/conf/$f.orig" ]] && cp "$HIBENCH_HOME/conf/$f" "$HIBENCH_HOME/conf/$f.orig"
  # later keys win in HiBench's loader, so appending the overlay overrides the defaults
  cat "$HIBENCH_HOME/conf/$f.orig" "$src/$f" > "$HIBENCH_HOME/conf/$f" 2>/dev/null || cp "$src/$f" "$HIBENCH_HOME/conf/$f"
done
for w in "$src"/workloads/*.conf; do
  name="$(basename "$w")"
  target="$(find "$HIBENCH_HOME/conf/workloads" -name "$name" | head -1)"
  [[ -z "$target" ]] && { echo "no conf/workloads/**/$name in $HIBENCH_HOME; skipped" >&2; continue; }
  [[ -f "$target.orig" ]] || cp "$target" "$target.orig"
  cat "$target.orig" "$w" > "$target"
done
echo "HiBench at $HIBENCH_HOME now uses the saba profile and Saba's shuffle manager"
