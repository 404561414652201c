#!/usr/bin/env bash
# ai_traffic_table.sh — the measured table of docs/ai-traffic.md: throughput
# (Garg–Könemann approximation, proven lower bound, --eps E) of a training job
# on each radix-48 configuration that `moore compare --radix 48 --endpoints
# 10000` chooses, under linear, random and group placement. Prints one
# markdown row per (family, job) as soon as it is measured, with the seconds
# it took, so a stopped run keeps the rows it finished.
#   bash bench/ai_traffic_table.sh [moore] [eps] [family[@eps]...]
# FAMILY@E measures that family at ε = E instead. Environment: PLACES (the
# placements, default "linear random group"), JOB_NAMES (default "dense moe"),
# TIME_LIMIT (seconds per cell, default 900; a cell stopped by it prints its
# proven lower bound with a * and the gap upper/lower − 1 it had reached).
set -u
MOORE=${1:-build/moore}
EPS=${2:-0.2}
shift 2 2>/dev/null
PLACES=${PLACES:-linear random group}
TIME_LIMIT=${TIME_LIMIT:-900}
# The configurations of `moore compare --radix 48 --endpoints 10000` (the
# cheapest of each family whose uniform throughput is proven >= 1).
declare -A SPEC=(
    [clos]=clos:radix=48,endpoints=10000,oversub=1,cores=balanced
    [slimfly]=slimfly:q=23,p=10 [xpander]=xpander:d=36,k=23,p=12
    [jellyfish]=jellyfish:n=834,d=36,p=12 [fattree]=fattree:k=36,p=16
    [hyperx]=hyperx:L=3,S=11,p=8 [polarfly]=polarfly:q=27,p=14
    [flatbutterfly]=flatbutterfly:n=4,k=11,p=8 [karyntree]=karyntree:k=24,n=3,p=18
    [kautz]=kautz:b=11,n=3,p=7 [arrangement]=arrangement:n=12,k=3,p=8
    [mlfm]=mlfm:h=22,p=20 [oft]=oft:k=18,p=17 [megafly]=megafly:d=44,g=22,p=20
    [spectralfly]=spectralfly:s=29,q=13,p=10 [polarstar]=polarstar:q=11,jd=7,joiner=bdf,p=5
)
FAMILIES=${*:-clos slimfly xpander jellyfish fattree hyperx polarfly flatbutterfly karyntree \
kautz arrangement mlfm oft megafly spectralfly polarstar}
JOBS=("dense|llm:tp=8,pp=8,dp=156" "moe|llm:tp=8,pp=8,dp=156,ep=12,topk=2")
JOB_NAMES=${JOB_NAMES:-dense moe}
header="| family | spec | job | ε |"
for place in $PLACES; do header="$header $place |"; done
echo "$header seconds |"
echo "|---|---|---|---|$(for place in $PLACES; do printf -- '---|'; done)---|"
for item in $FAMILIES; do
    f=${item%@*} eps=$EPS
    [ "$item" != "$f" ] && eps=${item#*@}
    for job in "${JOBS[@]}"; do
        name=${job%%|*} tm=${job#*|}
        case " $JOB_NAMES " in *" $name "*) ;; *) continue ;; esac
        start=$(date +%s)
        row="| $f | \`${SPEC[$f]}\` | $name | $eps |"
        for place in $PLACES; do
            out=$("$MOORE" throughput "${SPEC[$f]}" --tm "$tm,place=$place" --eps "$eps" \
                  --time-limit "$TIME_LIMIT" --json 2>/dev/null)
            key() { sed -n "s/.*\"$1\":[[:space:]]*\([0-9a-z.e+-]*\).*/\1/p" <<<"$out"; }
            v=$(key throughput)
            if [ -n "$v" ] && [ "$(key converged)" = false ]; then
                v=$(awk -v v="$v" -v g="$(key gap)" 'BEGIN { printf "%.3f* (%.0f%%)", v, 100 * g }')
            elif [ -n "$v" ]; then
                v=$(printf '%.3f' "$v")
            fi
            row="$row ${v:-failed} |"
        done
        echo "$row $(( $(date +%s) - start )) |"
    done
done
