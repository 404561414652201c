#!/usr/bin/env bash
# deploy_opensm.sh — moore's fabric and forwarding tables on the real
# InfiniBand control plane (docs/deploy.md): for each fabric, `moore deploy
# --ib` writes fabric.topo and lfts.dump; ibsim simulates the fabric in its own
# network namespace (unshare -n), OpenSM loads the tables with its file engine
# (-R file -U), and dump_fts must then equal moore's tables entry for entry.
# OpenSM falls back to minhop silently on a bad file, so the test reads its log
# (and shows that a bad file is caught). ibtracert then follows a seeded
# sample of HCA pairs through the simulated switches, and each hop sequence
# must be a path `moore route --paths` gives that pair (minimal: the path). Every daemon runs under a timeout in a
# namespace of its own and is killed by the trap of the script that started it.
#   bash deploy_opensm.sh <path-to-moore> <source-dir>
# Exit 77 (skipped) when not root, or unshare or a tool it runs is missing.
. "$(dirname "$0")/cli.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null || ! unshare -n true 2>/dev/null; then
    echo "SKIP: deploy_opensm needs root and unshare -n (one ibsim per network namespace)"
    exit 77
fi
for t in ibsim opensm dump_fts ibtracert saquery jq python3; do
    command -v "$t" >/dev/null || { echo "SKIP: deploy_opensm needs $t"; exit 77; }
done
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# run_sm DIR ENGINE LMC: OpenSM with ENGINE on DIR's fabric; 0 when its log
# says that engine configured every switch.
run_sm() {
    timeout -k 5 60 unshare -n bash "$HERE/deploy_opensm_fabric.sh" "$@" &
    PIDS+=($!)
    wait $!
}
# same DIR ENGINE: dump_fts equals moore's lfts.dump entry for entry.
same() {
    awk -f "$HERE/lfts_norm.awk" "$1/lfts.dump" | sort >"$1/want"
    awk -f "$HERE/lfts_norm.awk" "$1/fts.$2" | sort >"$1/got"
    [ -s "$1/want" ] && cmp -s "$1/want" "$1/got"
}

i=0
# A 4th word "qos": OpenSM also loads moore's qos-policy.conf, and the SL its
# SA gives each traced pair must be moore's layer for that destination.
for case in "slimfly:q=5 ecmp 0 qos" "xpander:d=4,k=6 ecmp 0" "dragonfly:a=4,h=2,p=2 minimal 0 qos" \
    "clos:radix=8,endpoints=32 ecmp 1" "slimfly:q=5 ecmp 1" "dragonfly:a=4,h=2,p=2 ksp:k=4 2"; do
    set -- $case
    i=$((i + 1))
    D="$TMP/f$i"
    check "$1 $2 lmc $3: deploy" "$MOORE" deploy "$1" --ib "$D" --algo "$2" --lmc "$3" >/dev/null
    # KSP's tables are its destination-based projection, not its paths: not traced.
    [ "${2%%:*}" != ksp ] && python3 "$HERE/ib_trace.py" sample "$D/fabric.topo" 5 "$i" "$3" >"$D/trace.pairs"
    check "$1 $2 lmc $3: OpenSM loaded the file tables" run_sm "$D" file "$3" "${4:-}"
    check "$1 $2 lmc $3: dump_fts = moore's tables" same "$D" file
    [ -f "$D/trace.pairs" ] || continue
    "$MOORE" route "$1" --algo "$2" --paths "$D/paths.csv" >/dev/null
    check "$1 $2 lmc $3: ibtracert follows moore's paths" \
        python3 "$HERE/ib_trace.py" check "$D/fabric.topo" "$D/paths.csv" "$D/trace.file"
    [ "${4:-}" = qos ] || continue
    check "$1 $2: OpenSM parsed the QoS policy" \
        grep -q "osm_qos_parse_policy_file: Loading QoS policy file" "$D/osm.file/osm.log"
    check "$1 $2: no QoS policy error" test "$(grep -ci "error" "$D/osm.file/osm.log")" = 0
    check "$1 $2: the SA's SL is moore's layer" \
        python3 "$HERE/ib_trace.py" sl "$D/fabric.topo" "$D/paths.csv" "$D/sl.file"
done
# moore's layering of Slim Fly q=5 needs 3 layers (its minimal routes' channel
# dependencies close cycles); the SLs the SA handed out are among them.
check "slimfly: 3 SLs in the policy" test "$(jq .sls <("$MOORE" deploy slimfly:q=5 --ib "$TMP/sl3" --algo ecmp --json))" = 3
# With LMC 1 the Clos's two LIDs per HCA take different ECMP paths for some pair.
check "clos lmc 1: LID offsets traced over different paths" \
    grep -q 'multipath=[1-9]' <(python3 "$HERE/ib_trace.py" check "$TMP/f4/fabric.topo" "$TMP/f4/paths.csv" "$TMP/f4/trace.file")

# OpenSM's own engines read back into moore: `moore route --lfts` succeeds
# only when every switch reaches every LID without a loop or a dead end, and
# no path may be shorter than the BFS distance (path_stretch_min >= 1).
stretch_ok() { # DIR ENGINE
    "$MOORE" route --lfts "$1/fts.$2" --fabric "$1/fabric.topo" --json >"$1/rb.$2" &&
        jq -e '.path_stretch_min >= 1 and .lid_pairs > 0' "$1/rb.$2" >/dev/null
}
# The virtual lanes an engine reports against moore's deadlock check on its
# routes toward HCAs (layers_hca): DFSSSP and LASH log the lanes their greedy
# layering needed; Nue, limited to one VL by default, builds routes whose
# dependencies are acyclic by construction, so moore must find one layer.
vls_match() { # DIR ENGINE
    local want
    case $2 in
    dfsssp) want=$(sed -n 's/.*dfsssp_remove_deadlocks: Virtual Lanes needed: \([0-9]*\).*/\1/p' "$1/osm.$2/osm.log") ;;
    lash) want=$(sed -n 's/.*lash_core: Lanes needed: \([0-9]*\).*/\1/p' "$1/osm.$2/osm.log") ;;
    nue) want=1 ;;
    *) return 0 ;;
    esac
    check "$topo $2: OpenSM's VLs ($want) = moore's layers on its HCA routes" \
        test "$(jq .layers_hca "$1/rb.$2")" = "${want:-none}"
}
for case in "slimfly:q=5 minhop dfsssp lash nue updn" "clos:radix=8,endpoints=32 updn"; do
    set -- $case
    topo=$1
    shift
    D="$TMP/engines-${topo%%:*}"
    "$MOORE" deploy "$topo" --ib "$D" >/dev/null
    grep -m1 '^switchguid=' "$D/fabric.topo" | cut -d= -f2 >"$D/roots.guid" # updn: switch 0
    for engine in "$@"; do
        check "$topo $engine: OpenSM configured its tables" run_sm "$D" "$engine" 0
        check "$topo $engine: read back, every LID reached, no path below BFS" \
            stretch_ok "$D" "$engine"
        vls_match "$D" "$engine"
    done
done

# Bad files. A header OpenSM cannot parse: it falls back to minhop, and only
# its log says so. A switch GUID the fabric lacks: OpenSM skips that switch
# and still logs "file tables configured"; only the comparison catches it.
D="$TMP/bad"
"$MOORE" deploy slimfly:q=5 --ib "$D" >/dev/null
sed -i '0,/ guid 0x0201000000000000/s// 0x0201000000000000/' "$D/lfts.dump"
check "unparsable file: the log check fails" test "$(run_sm "$D" file 0; echo $?)" != 0
check "unparsable file: OpenSM fell back to minhop" \
    grep -q "minhop tables configured" "$D/osm.file/osm.log"
"$MOORE" deploy slimfly:q=5 --ib "$D" >/dev/null
sed -i '0,/guid 0x0201000000000000/s//guid 0x0201000000fff000/' "$D/lfts.dump"
run_sm "$D" file 0
check "unknown switch GUID: dump_fts differs" test "$(same "$D" file; echo $?)" != 0
summary deploy_opensm
