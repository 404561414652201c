#!/usr/bin/env bash
# routing_table.sh — the measurements behind docs/routing.md: for ~1,000-switch
# Slim Fly, Xpander, Jellyfish, Dragonfly and fat-tree, the routing statistics
# (`moore route`: table sizes, layers) and the throughput under ECMP, KSP-8,
# Valiant, UGAL and the optimum for the uniform, permutation and worst-case
# traffic matrices (`moore throughput --routing`, eps 0.05 where approximate).
#
#   bench/routing_table.sh [MOORE_BINARY] > table.md
#
# The path-restricted uniform cells use eps EPS_UNIFORM (default 0.2), the others
# 0.05; a cell shows "lower–upper" when the bounds differ. Each cell is one run; its wall-clock seconds go to stderr as it finishes.
# A run slower than CELL_TIMEOUT seconds (default 900) is reported as "timeout".
set -uo pipefail
cd "$(dirname "$0")/.."
MOORE=${1:-build/moore}
CELL_TIMEOUT=${CELL_TIMEOUT:-900}
EPS_UNIFORM=${EPS_UNIFORM:-0.2}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
TOPOS=${TOPOS:-"slimfly:q=23 xpander:d=32,k=32,seed=1 jellyfish:n=1056,d=33,seed=1 dragonfly:p=6 fattree:k=28"}
LAYERS_TOPOS=${LAYERS_TOPOS:-"slimfly:q=7 xpander:d=10,k=11,seed=1 jellyfish:n=110,d=10,seed=1 dragonfly:p=2 fattree:k=8"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# cell NAME CMD... : runs CMD with a timeout, JSON into $TMP/out, logs seconds
cell() {
    local name=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    if timeout "$CELL_TIMEOUT" "$@" >"$TMP/out" 2>"$TMP/err"; then
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" -v n="$name" 'BEGIN { printf "%s: %.1f s\n", n, b - a }' >&2
        return 0
    fi
    echo "$name: failed or timeout ($(head -c 200 "$TMP/err"))" >&2
    echo '{}' >"$TMP/out"
    return 1
}
j() { jq -r "($1) | if . == null then \"–\" else . end" "$TMP/out"; }
f3() { awk -v x="$1" 'BEGIN { if (x == "–" || x == "") print "–"; else printf "%.3f", x }'; }

echo "| topology | switches | routing | table entries max | layers (greedy) | VCs (hop index) | θ uniform | θ permutation | θ worst |"
echo "|---|---|---|---|---|---|---|---|---|"
[ "${SKIP_BIG:-0}" = 1 ] && TOPOS=""
for topo in $TOPOS; do
    n=$("$MOORE" stats "$topo" --metrics basic --json | jq -r .switches)
    for algo in ecmp ksp:k=8 valiant ugal optimal; do
        entries="–" layers="–" vcs="–"
        if [ "$algo" != optimal ]; then
            # greedy layering of millions of explicit paths takes minutes: those
            # layers are measured on smaller instances (LAYERS_TOPOS below)
            lay=()
            [ "$algo" = ecmp ] || lay=(--no-layers)
            cell "$topo route $algo" "$MOORE" route "$topo" --algo "$algo" --json "${lay[@]}"
            entries=$(j .table_entries_max) layers=$(j .layers) vcs=$(j .vcs_hop_index)
        fi
        th=()
        for tm in uniform permutation worst; do
            eps=0.05
            # the path-restricted flow of a uniform TM (8 paths for each of a
            # million pairs) needs minutes at 0.05: a wider, still proven bracket
            [ "$tm" = uniform ] && [ "$algo" != ecmp ] && [ "$algo" != optimal ] && eps=$EPS_UNIFORM
            cell "$topo throughput $algo $tm" "$MOORE" throughput "$topo" --tm "$tm" \
                --routing "$algo" --eps "$eps" --json
            lo=$(j .lower) up=$(j .upper)
            if [ "$lo" = "$up" ]; then th+=("$(f3 "$lo")"); else th+=("$(f3 "$lo")–$(f3 "$up")"); fi
        done
        echo "| $topo | $n | $algo | $entries | $layers | $vcs | ${th[0]} | ${th[1]} | ${th[2]} |"
    done
done

[ "${SKIP_LAYERS:-0}" = 1 ] && exit 0
echo
echo "| topology | switches | routing | paths | layers (greedy) | VCs (hop index) | CDG acyclic |"
echo "|---|---|---|---|---|---|---|"
for topo in $LAYERS_TOPOS; do
    for algo in minimal ecmp ksp:k=8 valiant ugal; do
        cell "$topo layers $algo" "$MOORE" route "$topo" --algo "$algo" --json
        echo "| $topo | $(j .switches) | $algo | $(j .paths_total) | $(j .layers) | $(j .vcs_hop_index) | $(j .cdg_acyclic) |"
    done
done
