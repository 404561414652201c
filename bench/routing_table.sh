#!/usr/bin/env bash
# routing_table.sh — the measurements behind docs/routing.md: for ~1,000-switch
# Slim Fly, Xpander, Jellyfish, Dragonfly and fat-tree, the routing statistics
# (`moore route`: table sizes, layers) and the throughput under ECMP, KSP-8,
# Valiant, UGAL and the optimum for the uniform, permutation and worst-case
# traffic matrices (`moore throughput --routing`).
#
#   bench/routing_table.sh [MOORE_BINARY] > table.md
#
# Every cell is one run whose JSON is kept in RESULTS (default: a temporary
# directory); a rerun with the same RESULTS reuses the cells already there, so
# the table can be assembled from a run that was interrupted. Cells run cheap
# ones first (routes, ECMP, the permutation and worst-case matrices of every
# family), then the uniform matrix under the path-restricted routings and the
# optimum, which dominate the cost.
#
# Approximate cells use eps EPS (default 0.05; EPS_UNIFORM, default 0.1, for the
# uniform matrix under KSP-8, Valiant, UGAL and the optimum) and stop after
# TIME_LIMIT seconds (default 150) with the proven bounds reached: such a cell
# is marked "†" and shows lower–upper. ECMP cells are exact (fixed split).
# Routes are measured without the layering; ECMP's layering is tried once more
# with LAYER_TIMEOUT seconds (default 120). A run
# killed after CELL_TIMEOUT seconds (default 3·TIME_LIMIT+120) shows "timeout".
# Each cell's wall-clock seconds go to stderr as it finishes. RUN (default
# "cheap uniform layers") picks the stages that run cells, so two processes can
# share one RESULTS (RUN=cheap and RUN=uniform) and RUN=none only assembles the
# tables from what is there ("not run" for a missing cell).
set -uo pipefail
cd "$(dirname "$0")/.."
MOORE=${1:-build/moore}
EPS=${EPS:-0.05}
EPS_UNIFORM=${EPS_UNIFORM:-0.1}
TIME_LIMIT=${TIME_LIMIT:-150}
CELL_TIMEOUT=${CELL_TIMEOUT:-$((3 * TIME_LIMIT + 120))}
LAYER_TIMEOUT=${LAYER_TIMEOUT:-120}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
TOPOS=${TOPOS:-"slimfly:q=23 xpander:d=32,k=32,seed=1 jellyfish:n=1056,d=33,seed=1 dragonfly:p=6 fattree:k=28"}
LAYERS_TOPOS=${LAYERS_TOPOS:-"slimfly:q=7 xpander:d=10,k=11,seed=1 jellyfish:n=110,d=10,seed=1 dragonfly:p=2 fattree:k=8"}
ALGOS="ecmp ksp:k=8 valiant ugal optimal"
TMS="uniform permutation worst"
RESULTS=${RESULTS:-$(mktemp -d)}
RUN=${RUN:-cheap uniform layers}
runs() { case " $RUN " in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$RESULTS"

key() { printf '%s' "$*" | tr -c 'A-Za-z0-9_.=-' '_'; }

# cell NAME CMD... : runs CMD once (JSON into $RESULTS/NAME.json), logs seconds
cell() {
    local name file t0 t1
    name=$(key "$1")
    file=$RESULTS/$name.json
    shift
    [ -s "$file" ] && return 0
    t0=$(date +%s.%N)
    if timeout "$CELL_TIMEOUT" "$@" >"$file.tmp" 2>"$RESULTS/$name.err"; then
        t1=$(date +%s.%N)
        mv "$file.tmp" "$file"
        awk -v a="$t0" -v b="$t1" -v n="$name" 'BEGIN { printf "%s: %.1f s\n", n, b - a }' >&2
    else
        echo "$name: failed or timeout ($(head -c 200 "$RESULTS/$name.err"))" >&2
        echo '{"timeout": true}' >"$file"
        rm -f "$file.tmp"
    fi
}

# Routes without the layering (millions of explicit paths take minutes to
# layer); ECMP's greedy layering once more, given LAYER_TIMEOUT seconds.
route_cell() { # topo algo
    cell "route $1 $2" "$MOORE" route "$1" --algo "$2" --json --no-layers
    [ "$2" = ecmp ] && CELL_TIMEOUT=$LAYER_TIMEOUT cell "layered $1 $2" "$MOORE" route "$1" \
        --algo "$2" --json
}

flow_cell() { # topo algo tm
    local eps=$EPS opts=()
    [ "$3" = uniform ] && [ "$2" != ecmp ] && eps=$EPS_UNIFORM
    [ "$2" = ecmp ] || opts=(--eps "$eps" --time-limit "$TIME_LIMIT")
    cell "flow $1 $2 $3" "$MOORE" throughput "$1" --tm "$3" --routing "$2" "${opts[@]}" --json
}

[ "${SKIP_BIG:-0}" = 1 ] && TOPOS=""
# cheap cells first, every family
runs cheap && for topo in $TOPOS; do
    for algo in ecmp ksp:k=8 valiant ugal; do route_cell "$topo" "$algo"; done
    for tm in $TMS; do flow_cell "$topo" ecmp "$tm"; done
    for algo in ksp:k=8 valiant ugal optimal; do
        for tm in permutation worst; do flow_cell "$topo" "$algo" "$tm"; done
    done
done
# then the uniform matrix, one routing at a time over every family
runs uniform && for algo in optimal ksp:k=8 ugal valiant; do
    for topo in $TOPOS; do flow_cell "$topo" "$algo" uniform; done
done

j() { # file jq-expression
    jq -r "($2) | if . == null then \"–\" else . end" "$1" 2>/dev/null || echo "–"
}
f3() { awk -v x="$1" 'BEGIN { if (x == "–" || x == "") print "–"; else printf "%.3f", x }'; }
theta() { # file
    local f=$1 lo up mark=""
    [ -s "$f" ] || { echo "not run"; return; }
    [ "$(j "$f" .timeout)" = true ] && { echo "timeout"; return; }
    lo=$(f3 "$(j "$f" .lower)") up=$(f3 "$(j "$f" .upper)")
    case "$(j "$f" .stopped)" in
        –) ;;
        time-limit) mark="†" ;;
        *) mark=" (stopped: $(j "$f" .stopped))" ;;
    esac
    if [ "$lo" = "$up" ]; then echo "$lo$mark"; else echo "$lo–$up$mark"; fi
}

if [ -n "$TOPOS" ]; then
    echo "| topology | switches | routing | table entries max | layers (greedy) | VCs (hop index) | θ uniform | θ permutation | θ worst |"
    echo "|---|---|---|---|---|---|---|---|---|"
fi
for topo in $TOPOS; do
    for algo in $ALGOS; do
        entries="–" layers="–" vcs="–" n="–"
        if [ "$algo" != optimal ]; then
            rf=$RESULTS/$(key "route $topo $algo").json
            entries=$(j "$rf" .table_entries_max) vcs=$(j "$rf" .vcs_hop_index)
            lf=$RESULTS/$(key "layered $topo $algo").json
            if [ -s "$lf" ]; then
                layers=$(j "$lf" .layers)
                [ "$(j "$lf" .timeout)" = true ] && layers="> ${LAYER_TIMEOUT} s"
            fi
        fi
        th=()
        for tm in $TMS; do
            f=$RESULTS/$(key "flow $topo $algo $tm").json
            th+=("$(theta "$f")")
            [ "$n" = "–" ] && n=$(j "$f" .switches)
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
        runs layers && cell "layers $topo $algo" "$MOORE" route "$topo" --algo "$algo" --json
        f=$RESULTS/$(key "layers $topo $algo").json
        echo "| $topo | $(j "$f" .switches) | $algo | $(j "$f" .paths_total) | $(j "$f" .layers) | $(j "$f" .vcs_hop_index) | $(j "$f" .cdg_acyclic) |"
    done
done
