#!/usr/bin/env bash
# hose_bench.sh — the hose bounds (`moore throughput T --tm hose`) on the main
# job's rows and at 10,000 switches: lower, upper, gap and CPU seconds per row.
# A benchmark, not a test: the target (gap <= 5% within 10 s of CPU per row at
# ~1,000 switches) is measured here, never asserted.
#   bench/hose_bench.sh [MOORE] [compare-uniform.jsonl]
# Without a JSONL file the rows are the main job's as of docs/compare.md.
set -euo pipefail
MOORE=${1:-build/moore}
ROWS=${2:-}
if [ -n "$ROWS" ]; then
    mapfile -t specs < <(jq -r .topology "$ROWS")
else
    specs=(clos:radix=48,endpoints=10000,cores=balanced clos:radix=48,endpoints=10000
           slimfly:q=23,p=10 xpander:d=36,k=23,p=12 jellyfish:n=834,d=36,p=12
           fattree:k=36,p=16 hyperx:L=3,S=11,p=8 polarfly:q=27,p=14 mlfm:h=22,p=20
           oft:k=18,p=17 megafly:d=44,g=22,p=20 spectralfly:s=29,q=13,p=10)
fi
specs+=(jellyfish:n=10000,d=36,p=12,seed=1)  # scale: 10,000 switches
echo "| topology | switches | lower | method | upper | upper from | gap | CPU s |"
echo "|---|---|---|---|---|---|---|---|"
for s in "${specs[@]}"; do
    out=$( { /usr/bin/time -f '%U %S' "$MOORE" throughput "$s" --tm hose --json=lines \
             2>"${TMPDIR:-/tmp}/hose_bench.time"; } ) || { echo "| $s | failed |"; continue; }
    cpu=$(tail -1 "${TMPDIR:-/tmp}/hose_bench.time" | awk '{ printf "%.2f", $1 + $2 }')
    echo "$out" | jq -r --arg cpu "$cpu" '"| \(.topology) | \(.switches) | \(.lower*10000|round/10000) | \(.method) | \(.upper*10000|round/10000) | \(.upper_method) | \(.gap*1000|round/10)% | \($cpu) |"'
done
