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
# With QOS = qos, OpenSM runs as a daemon with QoS on and DIR/qos-policy.conf
# (-Q -Y) until its SA answers, and each traced pair's PathRecord SL is
# appended to DIR/sl.<ENGINE> as "SRC DST OFFSET SL" before OpenSM is stopped.
#   bash deploy_opensm_fabric.sh DIR ENGINE LMC [qos]
# OSM_TIMEOUT (seconds, default 30) bounds the OpenSM run and dump_fts, and
# IBSIM_PORTS raises ibsim's port limit (13,312 ports by default): a
# 1,000-switch fabric needs both (bench/ib_scale.sh).
# Exit 0 when OpenSM's log says ENGINE configured the tables, else 1.
set -u
DIR=$1 ENGINE=$2 LMC=$3 QOS=${4:-}
SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
[ -f "$SIM" ] || SIM=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim.so$' | head -1)
WORK="$DIR/osm.$ENGINE"
rm -rf "$WORK" && mkdir -p "$WORK"
ibsim -s -n -N 16384 -S 2048 ${IBSIM_PORTS:+-P "$IBSIM_PORTS"} "$DIR/fabric.topo" >"$WORK/ibsim.log" 2>&1 </dev/null &
IBSIM=$!
OSM=
trap 'kill $OSM $IBSIM 2>/dev/null; wait 2>/dev/null' EXIT
# ibsim listens once it has parsed the file and started the fabric (seconds
# for 10,000 nodes on a loaded machine: the loop ends as soon as it does).
for _ in $(seq 2400); do
    grep -q 'MaxNetNodes' "$WORK/ibsim.log" 2>/dev/null && break
    kill -0 $IBSIM 2>/dev/null || break # it gave up (ibpanic in its log)
    sleep 0.05
done
sleep 0.2
export LD_PRELOAD=$SIM OSM_TMP_DIR=$WORK OSM_CACHE_DIR=$WORK
ARGS=(-o -l "$LMC" -f "$WORK/osm.log" -R "$ENGINE")
[ "$ENGINE" = file ] && ARGS+=(-U "$DIR/lfts.dump")
# updn's roots: DIR/roots.guid when there is one, else OpenSM detects them.
[ "$ENGINE" = updn ] && [ -f "$DIR/roots.guid" ] && ARGS+=(-a "$DIR/roots.guid")
if [ "$QOS" = qos ]; then
    # A daemon, so its SA answers path records; up once a query succeeds.
    timeout -k 5 60 opensm "${ARGS[@]/-o/-Q}" -Y "$DIR/qos-policy.conf" \
        >"$WORK/opensm.out" 2>&1 </dev/null &
    OSM=$!
    for _ in $(seq 60); do
        timeout -k 2 5 saquery -t 200 -p --src-to-dst 1:1 >/dev/null 2>&1 </dev/null && break
        sleep 0.25
    done
else
    timeout -k 5 "${OSM_TIMEOUT:-30}" opensm "${ARGS[@]}" >"$WORK/opensm.out" 2>&1 </dev/null
fi
timeout -k 5 "${OSM_TIMEOUT:-30}" dump_fts >"$DIR/fts.$ENGINE" 2>"$WORK/dump_fts.err" </dev/null
# base LID of a port GUID: the smallest LID the dump gives it.
base() {
    grep -E "portguid $1[:)]" "$DIR/fts.$ENGINE" | while read -r lid _; do echo $((lid)); done |
        sort -n | head -1
}
if [ -f "$DIR/trace.pairs" ]; then
    : >"$DIR/trace.$ENGINE"
    [ -n "$OSM" ] && : >"$DIR/sl.$ENGINE"
    while read -r src dst off; do
        s=$(base "$src") d=$(($(base "$dst") + off))
        echo "== $src $dst $off" >>"$DIR/trace.$ENGINE"
        timeout -k 2 10 ibtracert "$s" "$d" >>"$DIR/trace.$ENGINE" 2>>"$WORK/ibtracert.err" </dev/null
        [ -n "$OSM" ] || continue
        sl=$(timeout -k 2 10 saquery -p --src-to-dst "$s:$d" 2>>"$WORK/saquery.err" </dev/null |
            sed -n 's/^[[:space:]]*sl\.\.*//p')
        echo "$src $dst $off ${sl:-none}" >>"$DIR/sl.$ENGINE"
    done <"$DIR/trace.pairs"
fi
if [ -n "$OSM" ]; then # stopped, so its log is complete
    kill "$OSM"
    wait "$OSM"
    OSM=
fi
grep -q "osm_ucast_mgr_process: $ENGINE tables configured on all switches" "$WORK/osm.log"
