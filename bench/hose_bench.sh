#!/usr/bin/env bash
# hose_bench.sh — the hose bounds (`moore throughput T --tm hose`) on the main
# job's rows and at 10,000 switches: lower, upper, gap and CPU seconds per row.
# A benchmark, not a test: the target (gap <= 5% within 10 s of CPU per row at
# ~1,000 switches) is measured here, never asserted.
#   bench/hose_bench.sh [MOORE] [compare-uniform.jsonl]
# Without a JSONL file the rows are the main job's as of docs/compare.md.
# With BEFORE=/path/to/other/moore each row runs on that binary first and then
# on MOORE, interleaved (the same load for both), and both are printed; the
# 1-minute load average is printed with every row.
set -euo pipefail
MOORE=${1:-build/moore}
ROWS=${2:-}
BEFORE=${BEFORE:-}
if [ -n "$ROWS" ]; then
    mapfile -t specs < <(jq -r .topology "$ROWS")
else
    specs=(clos:radix=48,endpoints=10000,cores=balanced clos:radix=48,endpoints=10000
           slimfly:q=23,p=10 xpander:d=36,k=23,p=12 jellyfish:n=834,d=36,p=12
           fattree:k=36,p=16 hyperx:L=3,S=11,p=8 polarfly:q=27,p=14 mlfm:h=22,p=20
           oft:k=18,p=17 megafly:d=44,g=22,p=20 spectralfly:s=29,q=13,p=10)
fi
specs+=(jellyfish:n=10000,d=36,p=12,seed=1)  # scale: 10,000 switches
tfile="${TMPDIR:-/tmp}/hose_bench.$$.time"
# one run: "lower|method|upper|upper_method|gap%|cpu" (or "failed")
row() {
    local out cpu
    out=$( { /usr/bin/time -f '%U %S' "$1" throughput "$2" --tm hose --json=lines \
             2>"$tfile"; } ) || { echo "failed"; return; }
    cpu=$(tail -1 "$tfile" | awk '{ printf "%.2f", $1 + $2 }')
    echo "$out" | jq -r --arg cpu "$cpu" '"\(.switches)|\(.lower*10000|round/10000)|\(.method)|\(.upper*10000|round/10000)|\(.upper_method)|\(.gap*1000|round/10)%|\($cpu)"'
}
if [ -n "$BEFORE" ]; then
    echo "| topology | switches | lower | method | upper | upper from | gap | gap before | CPU s | CPU s before | load |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
else
    echo "| topology | switches | lower | method | upper | upper from | gap | CPU s | load |"
    echo "|---|---|---|---|---|---|---|---|---|"
fi
for s in "${specs[@]}"; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    if [ -n "$BEFORE" ]; then
        b=$(row "$BEFORE" "$s")
        a=$(row "$MOORE" "$s")
        IFS='|' read -r _ _ _ _ _ bgap bcpu <<<"$b"
        IFS='|' read -r n lo me up um gap cpu <<<"$a"
        echo "| $s | $n | $lo | $me | $up | $um | $gap | $bgap | $cpu | $bcpu | $load |"
    else
        a=$(row "$MOORE" "$s")
        IFS='|' read -r n lo me up um gap cpu <<<"$a"
        echo "| $s | $n | $lo | $me | $up | $um | $gap | $cpu | $load |"
    fi
done
rm -f "$tfile"
