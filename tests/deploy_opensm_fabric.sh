#!/usr/bin/env bash
# deploy_opensm_fabric.sh — one fabric on the real InfiniBand control plane,
# run by tests/deploy_opensm.sh inside its own network namespace (ibsim's
# socket is per namespace, so one ibsim per namespace): starts ibsim on
# DIR/fabric.topo, runs OpenSM once with ENGINE ("file" loads DIR/lfts.dump)
# under ibsim's umad2sim, and dumps what the switches hold into DIR/fts.<ENGINE>.
# When DIR/trace.pairs exists (lines "SRC-PORTGUID DST-PORTGUID OFFSET"),
# ibtracert follows each pair from the source's base LID to the destination's
# base LID + OFFSET (LIDs as OpenSM assigned them, read from the dump) and
# appends "== SRC DST OFFSET" and its output to DIR/trace.<ENGINE>.
#   bash deploy_opensm_fabric.sh DIR ENGINE LMC
# Exit 0 when OpenSM's log says ENGINE configured the tables, else 1.
set -u
DIR=$1 ENGINE=$2 LMC=$3
SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
[ -f "$SIM" ] || SIM=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim.so$' | head -1)
WORK="$DIR/osm.$ENGINE"
rm -rf "$WORK" && mkdir -p "$WORK"
ibsim -s -n -N 16384 -S 2048 "$DIR/fabric.topo" >"$WORK/ibsim.log" 2>&1 </dev/null &
IBSIM=$!
trap 'kill $IBSIM 2>/dev/null; wait $IBSIM 2>/dev/null' EXIT
# ibsim listens once it has parsed the file and started the fabric.
for _ in $(seq 100); do
    grep -q 'MaxNetNodes' "$WORK/ibsim.log" 2>/dev/null && break
    sleep 0.05
done
sleep 0.2
export LD_PRELOAD=$SIM OSM_TMP_DIR=$WORK OSM_CACHE_DIR=$WORK
ARGS=(-o -l "$LMC" -f "$WORK/osm.log" -R "$ENGINE")
[ "$ENGINE" = file ] && ARGS+=(-U "$DIR/lfts.dump")
[ "$ENGINE" = updn ] && ARGS+=(-a "$DIR/roots.guid")
timeout -k 5 30 opensm "${ARGS[@]}" >"$WORK/opensm.out" 2>&1 </dev/null
timeout -k 5 30 dump_fts >"$DIR/fts.$ENGINE" 2>"$WORK/dump_fts.err" </dev/null
if [ -f "$DIR/trace.pairs" ]; then
    : >"$DIR/trace.$ENGINE"
    # base LID of a port GUID: the smallest LID the dump gives it.
    base() {
        grep -E "portguid $1[:)]" "$DIR/fts.$ENGINE" | while read -r lid _; do echo $((lid)); done |
            sort -n | head -1
    }
    while read -r src dst off; do
        echo "== $src $dst $off" >>"$DIR/trace.$ENGINE"
        timeout -k 2 10 ibtracert "$(base "$src")" "$(($(base "$dst") + off))" \
            >>"$DIR/trace.$ENGINE" 2>>"$WORK/ibtracert.err" </dev/null
    done <"$DIR/trace.pairs"
fi
grep -q "osm_ucast_mgr_process: $ENGINE tables configured on all switches" "$WORK/osm.log"
