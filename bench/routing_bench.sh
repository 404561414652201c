#!/usr/bin/env bash
# routing_bench.sh — the routing performance targets (docs/routing.md), in one run:
#   1. ECMP next-hop tables for a 10,000-switch graph (all-pairs BFS rows and
#      every switch's table derived from them: `moore route --algo ecmp`);
#   2. KSP-8 for every ordered pair of a ~1,000-switch graph;
#   3. ECMP throughput (fixed split) for the uniform TM at 10,000 switches;
#   4. networkx's shortest_simple_paths on sampled pairs of the graph of (2),
#      side by side with (2), with the ratio (bench/routing_ksp_networkx.py;
#      needs python3-networkx: MOORE_BENCH=1 scripts/setup.sh).
#   bench/routing_bench.sh [MOORE_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
MOORE=${1:-build/moore}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
BIG=${BIG:-jellyfish:n=10000,d=32,seed=1}
MID=${MID:-slimfly:q=23}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# secs CMD...: "WALL" seconds on stdout, "wall W s, cpu C s" kept in $TMP/cpu
secs() { local TIMEFORMAT='%R %U %S' t
         t=$( { time "$@" >"$TMP/out" 2>/dev/null; } 2>&1 )
         set -- $t
         awk -v r="$1" -v u="$2" -v s="$3" 'BEGIN { printf "wall %.1f s, cpu %.1f s", r, u + s }' >"$TMP/cpu"
         echo "$1"; }

echo "threads: $OMP_NUM_THREADS; load at start: $(uptime | sed 's/.*load average: //')"
s=$(secs "$MOORE" route "$BIG" --algo ecmp --no-layers --json)
echo "1. ECMP tables, $BIG: $(cat "$TMP/cpu") (table_entries_total $(jq .table_entries_total "$TMP/out"))"
"$MOORE" build "$MID" -o "$TMP/mid.txt"
pairs=$("$MOORE" stats "$TMP/mid.txt" --metrics basic --json | jq '.switches * (.switches - 1)')
s=$(secs "$MOORE" route "$TMP/mid.txt" --algo ksp:k=8 --no-layers --json)
echo "2. KSP-8, every pair of $MID ($pairs pairs): $(cat "$TMP/cpu")"
s3=$(secs "$MOORE" throughput "$BIG" --tm uniform --routing ecmp --json)
echo "3. ECMP throughput, uniform, $BIG: $(cat "$TMP/cpu") (theta $(jq .throughput "$TMP/out"))"
"$MOORE" route "$TMP/mid.txt" --algo ksp:k=8 --no-layers --paths "$TMP/paths.csv" >/dev/null
echo "4. networkx vs moore, KSP-8 on $MID:"
python3 bench/routing_ksp_networkx.py "$TMP/mid.txt" "$TMP/paths.csv" "$s" "$pairs" 8 \
    "${SAMPLE:-300}"
echo "load at end: $(uptime | sed 's/.*load average: //') (wall times under load are upper bounds)"
