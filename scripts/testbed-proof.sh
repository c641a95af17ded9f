#!/usr/bin/env bash
# The testbed proof (issue 4): builds the saba launcher if needed, then runs `saba testbed proof`, which brings up
# 4 namespace hosts behind a bridge switch (100 Mbit/s links), sends iperf3 traffic from three applications
# (lr, pagerank, sort) on h2..h4 to h1, and prints one table for the baseline (one FIFO) and Saba (HTB weights
# from Eq. 2): application, level, DSCP, weight, measured share. Exit status 0 iff every check passed.
#
# Needs root and: iproute2 ethtool iperf3 tcpdump nftables (apt-get install -y ...).
# Options are passed through, e.g.: scripts/testbed-proof.sh --link-rate 200mbit --seconds 8 --keep
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ "$(id -u)" != 0 ]]; then
  echo "testbed-proof: needs root (network namespaces, tc, nft)" >&2
  exit 2
fi
for tool in ip tc ethtool iperf3 tcpdump nft; do
  command -v "$tool" >/dev/null || { echo "testbed-proof: $tool is missing (see the header of $0)" >&2; exit 2; }
done
if [[ ! -f "$here/cli/target/saba-cli.jar" ]]; then
  (cd "$here" && mvn -B -ntp -q -pl cli -am -DskipTests package)
fi
cd "$here" # the default --table is examples/sensitivity-table.json
exec "$here/bin/saba" testbed proof "$@"
