#!/usr/bin/env bash
# throughput_tm_ratio.sh — issue 15's target for the (1+ε) approximation:
# the worst-case (longest-matching) TM should cost at most 3× the uniform TM
# on the same topology at equal ε. One run, both TMs per topology, prints
# phases, CPU and wall seconds of each and the worst/uniform ratios.
#
#   bench/throughput_tm_ratio.sh [MOORE_BINARY] [EPS] [TOPO...]
#
# Defaults: build/moore, ε = 0.05, dragonfly:p=12,g=37 (888 switches),
# xpander:d=10,k=91 and jellyfish:n=1001,d=10 (1,001 switches, degree 10).
# The worst TM's time includes building its matching, as a user sees it.
# CPU time is user+system of the whole command (a fairer number than wall
# time on a shared machine); threads as OMP_NUM_THREADS (default 2).
# LIMIT=S (default 600) stops each run after S seconds with its proven
# bounds; such a run is marked "stopped" with the gap it reached, and its
# ratio is a lower bound.
set -euo pipefail
cd "$(dirname "$0")/.."
MOORE=${1:-build/moore}
EPS=${2:-0.05}
LIMIT=${LIMIT:-600}
shift $(( $# > 2 ? 2 : $# ))
TOPOS=("$@")
[ ${#TOPOS[@]} -gt 0 ] || TOPOS=(dragonfly:p=12,g=37 xpander:d=10,k=91 jellyfish:n=1001,d=10)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

key() { awk -v k="\"$1\":" '$1 == k { v = $2; sub(/,$/, "", v); print v }' "$2"; }

# run TOPO TM -> "phases cpu wall lower upper"
run() {
    /usr/bin/time -f "%U %S %e" -o "$TMP/t" \
        "$MOORE" throughput "$1" --tm "$2" --eps "$EPS" --time-limit "$LIMIT" \
        --json=pretty >"$TMP/r.json" 2>"$TMP/r.err"
    read -r u s e <"$TMP/t"
    local ph
    ph=$(key phases "$TMP/r.json")
    [ "$(key converged "$TMP/r.json")" = true ] ||
        ph="$ph(stopped,gap=$(awk -v l="$(key lower "$TMP/r.json")" -v u="$(key upper "$TMP/r.json")" \
            'BEGIN { printf "%.1f%%", 100 * (u / l - 1) }'))"
    printf '%s %.2f %.2f %s %s\n' "$ph" \
        "$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')" "$e" \
        "$(key lower "$TMP/r.json")" "$(key upper "$TMP/r.json")"
}

echo "# moore throughput --eps $EPS --time-limit $LIMIT, OMP_NUM_THREADS=$OMP_NUM_THREADS, $(uptime | sed 's/.*load/load/')"
printf '%-24s %8s %8s %8s %8s %8s %8s %9s %9s\n' topology ph_unif ph_worst cpu_unif \
    cpu_worst wall_unif wall_worst cpu_ratio wall_ratio
for topo in "${TOPOS[@]}"; do
    read -r pu cu wu _ _ < <(run "$topo" uniform)
    read -r pw cw ww _ _ < <(run "$topo" worst)
    printf '%-24s %8s %8s %8s %8s %8s %8s %9s %9s\n' "$topo" "$pu" "$pw" "$cu" "$cw" "$wu" "$ww" \
        "$(awk -v a="$cw" -v b="$cu" 'BEGIN { printf "%.2f", a / b }')" \
        "$(awk -v a="$ww" -v b="$wu" 'BEGIN { printf "%.2f", a / b }')"
done
