#!/usr/bin/env bash
# ai_traffic_table.sh — the measured table of docs/ai-traffic.md: throughput
# (Garg–Könemann approximation, proven lower bound, --eps E) of a training job
# on each radix-48 configuration of `moore compare --radix 48 --endpoints 10000`
# under linear, random and group placement. Prints one markdown row per
# (family, job) as soon as it is measured, with the seconds it took.
#   bash bench/ai_traffic_table.sh [moore] [eps] [families...]
set -u
MOORE=${1:-build/moore}
EPS=${2:-0.2}
shift 2 2>/dev/null
declare -A SPEC=(
    [slimfly]=slimfly:q=16,radix=48 [xpander]=xpander:d=24,k=17,radix=48
    [jellyfish]=jellyfish:n=417,d=24,radix=48 [fattree]=fattree:k=36
    [dragonfly]=dragonfly:p=12,g=37 [hyperx]=hyperx:L=3,S=8,p=21
    [torus]=torus:dims=12x12x12,p=6 [polarfly]=polarfly:q=19,radix=48
    [hypercube]=hypercube:n=10,p=10 [mesh]=mesh:dims=12x12x12,p=6
    [flatbutterfly]=flatbutterfly:n=4,k=10 [karyntree]=karyntree:k=24,n=3
    [xgft]=xgft:h=2,m=24.48,w=24.24 [kautz]=kautz:b=9,n=3,p=18
    [arrangement]=arrangement:n=10,k=3,p=21 [tofu]=tofu:dims=5x5x4,p=10
)
FAMILIES=${*:-slimfly xpander jellyfish polarfly dragonfly hyperx kautz arrangement}
JOBS=("dense|llm:tp=8,pp=8,dp=156" "moe|llm:tp=8,pp=8,dp=156,ep=12,topk=2")
echo "| family | spec | job | linear | random | group | seconds |"
echo "|---|---|---|---|---|---|---|"
for f in $FAMILIES; do
    for job in "${JOBS[@]}"; do
        name=${job%%|*} tm=${job#*|}
        start=$(date +%s)
        row="| $f | ${SPEC[$f]} | $name |"
        for place in linear random group; do
            v=$("$MOORE" throughput "${SPEC[$f]}" --tm "$tm,place=$place" --eps "$EPS" --json 2>/dev/null |
                sed -n 's/.*"throughput":[[:space:]]*\([0-9.e+-]*\).*/\1/p')
            row="$row ${v:-failed} |"
        done
        echo "$row $(( $(date +%s) - start )) |"
    done
done
