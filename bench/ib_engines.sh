#!/usr/bin/env bash
# ib_engines.sh — the table in docs/deploy.md: OpenSM's routing engines
# (minhop, updn, ftree, dfsssp, lash, nue) and moore's own tables loaded with
# OpenSM's file engine (file=minimal, file=ecmp, file=ksp) on a few topologies, each run
# on the real subnet manager over ibsim (as tests/deploy_opensm.sh runs it).
#
#   sudo bench/ib_engines.sh [MOORE_BINARY] > table.md
#
# Needs root (each fabric in its own network namespace, `unshare -n`) and the
# Debian packages opensm, ibsim-utils, infiniband-diags. TOPOS overrides the
# topologies (space-separated SPECs), ENGINES the engines. updn's root is
# switch 0 except on a Clos, whose roots OpenSM detects.
#
# Columns, per topology and engine:
#   route s    OpenSM's log, "Entering MASTER state" to "<engine> tables
#              configured" (LID assignment, routing, and writing the tables
#              into the simulated switches); for file=A plus `moore deploy`'s
#              own time to compute the tables. One run, wall clock: indicative.
#   LFT        valid LFT entries over all switches (dump_fts)
#   hops max, stretch   longest route in switch hops; mean hops over the BFS
#              distance, over every distinct route (moore route --lfts)
#   θ uniform, θ worst  throughput of the tables' own routes (moore route
#              --lfts --tm uniform|worst: each switch pair's traffic split
#              evenly over the destination's HCA LIDs; exact), per server
#   VLs needed moore's deadlock check on the routes toward HCAs (layers_hca)
#   engine VLs the lanes the engine itself layers its routes on: dfsssp and
#              lash as logged ("needed"), nue 1 (its default), file=A the SLs
#              of moore's qos-policy.conf (sls), other engines 1 (no SLs)
#   deadlock-free  yes when VLs needed is 1, or the engine's own layering
#              covers its routes (dfsssp, lash, nue, file with a QoS policy);
#              else "no: needs N VLs"
#   "failed" when the engine did not configure the tables (OpenSM fell back).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
MOORE=$(realpath "${1:-build/moore}")
HERE=$(pwd)/tests
TOPOS=${TOPOS:-"slimfly:q=5 slimfly:q=7 xpander:d=6,k=8 jellyfish:n=50,d=7,p=4 dragonfly:a=6,h=3,p=3 clos:radix=16,endpoints=128"}
ENGINES=${ENGINES:-"minhop updn ftree dfsssp lash nue file=minimal file=ecmp file=ksp"}
. bench/ib_common.bash
ib_require ib_engines.sh opensm ibsim dump_fts unshare jq bc
RES=$(mktemp -d)
trap 'rm -rf "$RES"' EXIT

cell() { # TOPO ENGINE DIR: one table row
    local topo=$1 engine=$2 D=$3 sm=${2%%=*} extra=0 sls=null
    if [ "$sm" = file ]; then
        local t0 t1
        t0=$(date +%s.%N)
        "$MOORE" deploy "$topo" --ib "$D" --algo "${engine#file=}" --json >"$D/deploy.json" || return
        t1=$(date +%s.%N)
        extra=$(echo "$t1 - $t0" | bc)
        sls=$(jq .sls "$D/deploy.json")
    fi
    if ! timeout -k 5 600 unshare -n bash "$HERE/deploy_opensm_fabric.sh" "$D" "$sm" 0 >/dev/null 2>&1; then
        echo "| $topo | $engine | failed | | | | | | | | |"
        return
    fi
    local log=$D/osm.$sm/osm.log start end secs rb
    start=$(grep -m1 'Entering MASTER state' "$log")
    end=$(grep -m1 "$sm tables configured" "$log")
    secs=$(echo "$(stamp "$end") - $(stamp "$start") + $extra" | bc)
    rb=$D/rb.$sm
    "$MOORE" route --lfts "$D/fts.$sm" --fabric "$D/fabric.topo" --tm uniform --json >"$rb" &&
        "$MOORE" route --lfts "$D/fts.$sm" --fabric "$D/fabric.topo" --tm worst --json >"$rb.worst" || {
        echo "| $topo | $engine | read back failed | | | | | | | | |"
        return
    }
    local need evl free entries
    need=$(jq .layers_hca "$rb")
    case $sm in
    dfsssp) evl=$(sed -n 's/.*Virtual Lanes needed: \([0-9]*\).*/\1/p' "$log") ;;
    lash) evl=$(sed -n 's/.*lash_core: Lanes needed: \([0-9]*\).*/\1/p' "$log" | tail -1) ;;
    file) evl=$([ "$sls" = null ] && echo 1 || echo "$sls") ;;
    *) evl=1 ;;
    esac
    free="no: needs $need VLs"
    if [ "$need" = 1 ] || case $sm in dfsssp | lash | nue) true ;; file) [ "$sls" != null ] ;; *) false ;; esac then
        free=yes
    fi
    entries=$(grep -c '^0x' "$D/fts.$sm")
    printf '| %s | %s | %.2f | %s | %s | %.3f | %.3f | %.3f | %s | %s | %s |\n' "$topo" "$engine" \
        "$secs" "$entries" "$(jq .hops_max "$rb")" "$(jq .path_stretch_mean "$rb")" \
        "$(jq .throughput "$rb")" "$(jq .throughput "$rb.worst")" "$need" "$evl" "$free"
}

echo "| topology | engine | route s | LFT | hops max | stretch | θ uniform | θ worst | VLs needed | engine VLs | deadlock-free |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for topo in $TOPOS; do
    base=$RES/${topo//[:=,]/_}
    mkdir -p "$base"
    "$MOORE" deploy "$topo" --ib "$base/engines" >/dev/null || continue
    # updn's roots: OpenSM finds a fat tree's itself; elsewhere switch 0.
    [ "${topo%%:*}" = clos ] ||
        grep -m1 '^switchguid=' "$base/engines/fabric.topo" | cut -d= -f2 >"$base/engines/roots.guid"
    for engine in $ENGINES; do
        D=$base/engines
        [ "${engine%%=*}" = file ] && D=$base/${engine#file=} && mkdir -p "$D"
        cell "$topo" "$engine" "$D"
    done
done
