#!/usr/bin/env bash
# cli_deploy.sh — the `moore deploy` and `moore route --lfts` contracts
# (docs/deploy.md): the fabric file's counts, tables read back against the
# distances theory gives, LMC multipath loop-free, the cabling check naming
# exactly the four ports of two swapped cables, Slurm's files, bad input.
#   bash cli_deploy.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
HERE=$(cd "$(dirname "$0")" && pwd)
jnum() { jq -r ".$1" "$TMP/out"; }

# Slim Fly q=5 is the Hoffman-Singleton graph (degree 7, Moore graph of
# diameter 2): 4 servers per switch; from a switch 7 switches at 1 hop and 42 at 2.
D="$TMP/sf"
check "deploy exit 0" test "$(status "$MOORE" deploy slimfly:q=5 --ib "$D" --json)" = 0
check "fabric: 50 switches" test "$(grep -c '^Switch' "$D/fabric.topo")" = 50
check "fabric: 200 HCAs" test "$(grep -c '^Ca' "$D/fabric.topo")" = 200
check "fabric: 11 ports a switch" test "$(grep '^Switch' "$D/fabric.topo" | cut -f2 | cut -d' ' -f1 | sort -u)" = 11
check "tables: 50 switches" test "$(grep -c '^Unicast lids' "$D/lfts.dump")" = 50
check "tables: 250 LIDs each" test "$(jnum table_entries)" = 12500
check "read back exit 0" test "$(status "$MOORE" route --lfts "$D/lfts.dump" --fabric "$D/fabric.topo" --json)" = 0
check "read back: mean hops 91/49" test "$(jq '.path_length_mean * 49 | round' "$TMP/out")" = 91
check "read back: diameter 2" test "$(jnum hops_max)" = 2
check "read back: stretch 1" test "$(jnum path_stretch_min)" = 1
check "read back: 49 x 250 LID pairs" test "$(jnum lid_pairs)" = 12250

# The QoS policy: every HCA's SL (the first range naming its port GUID, else
# the default 0) is the layer `moore route --paths` gives its switch as a
# destination; a KSP deploy into the same directory writes none (sls null).
"$MOORE" route slimfly:q=5 --algo ecmp --paths "$TMP/sf.paths" >/dev/null
qos_ok() { # policy fabric paths: 0 when every HCA's SL is its switch's layer
    python3 - "$@" <<'PY'
import csv, re, sys
rules = [(int(a, 16), int(b, 16), int(k)) for a, b, k in
         re.findall(r"target-port-guid (0x[0-9a-f]+)-(0x[0-9a-f]+) : (\d+)", open(sys.argv[1]).read())]
layer = {int(r["dst"]): int(r["layer"]) for r in csv.DictReader(open(sys.argv[3]))}
hcas = re.findall(r'\[1\]\(([0-9a-f]+)\)\s+"S-([0-9a-f]+)"', open(sys.argv[2]).read())
bad = [g for g, s in hcas
       if next((k for a, b, k in rules if a <= int(g, 16) <= b), 0) !=
       layer[(int(s, 16) - 0x0201000000000000) >> 8]]
sys.exit(1 if bad or len(hcas) != 200 or not rules else 0)
PY
}
check "qos policy: SL = destination layer" qos_ok "$TMP/sf/qos-policy.conf" "$TMP/sf/fabric.topo" "$TMP/sf.paths"
check "qos policy: sls = layers" test "$(jq .sls <("$MOORE" deploy slimfly:q=5 --ib "$TMP/sf2" --json))" = \
    "$(jq .layers <("$MOORE" route slimfly:q=5 --json))"
"$MOORE" deploy slimfly:q=5 --ib "$TMP/sf2" --algo ksp:k=4 --json >"$TMP/out"
check "ksp: no qos policy" test ! -e "$TMP/sf2/qos-policy.conf"
check "ksp: sls null" jq -e '.sls == null' "$TMP/out" >/dev/null
# A Clos's minimal routes go up then down: no cycle, one layer toward its HCAs.
D="$TMP/clos"
"$MOORE" deploy clos:radix=8,endpoints=32 --ib "$D" >/dev/null
"$MOORE" route --lfts "$D/lfts.dump" --fabric "$D/fabric.topo" --json >"$TMP/out"
check "clos read back: acyclic toward HCAs" jq -e '.cdg_acyclic_hca and .layers_hca == 1' "$TMP/out" >/dev/null
D="$TMP/sf"

# Ports are the cable plan's ports + 1: every plan row is a port line.
"$MOORE" layout slimfly:q=5 --cables "$TMP/plan.csv" >/dev/null
# The plan's switch cables as cable,from,-,from_port,to,-,to_port (its names are
# quoted and hold commas, so cut cannot read the plan itself).
python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] == "switch":
        print(",".join((r["cable"], r["from"], "-", r["from_port"], r["to"], "-", r["to_port"])))
' "$TMP/plan.csv" | sed '1i cable' >"$TMP/plan.simple"
id() { printf 'S-%016x' $((0x0201000000000000 + ($1 << 8))); }
row=$(sed -n 2p "$TMP/plan.simple")
a=$(echo "$row" | cut -d, -f2) pa=$(echo "$row" | cut -d, -f4)
b=$(echo "$row" | cut -d, -f5) pb=$(echo "$row" | cut -d, -f7)
check "plan row = port line" grep -q "^\[$((pa + 1))\]	\"$(id "$b")\"\[$((pb + 1))\]" "$D/fabric.topo"

# LMC 2 with KSP: 4 LIDs per HCA; the tables must stay loop-free (read back
# succeeds), use more than one path for some pair, never more than 4.
D="$TMP/ksp"
"$MOORE" deploy dragonfly:a=4,h=2,p=2 --ib "$D" --algo ksp:k=4 --lmc 2 >/dev/null
check "ksp lmc 2 read back" test "$(status "$MOORE" route --lfts "$D/lfts.dump" --fabric "$D/fabric.topo" --json)" = 0
check "ksp lmc 2: multipath" jq -e '.paths_per_pair_max > 1 and .paths_per_pair_max <= 4' "$TMP/out" >/dev/null

# Cabling: the fabric as built matches; two swapped cables give exactly four
# miswired ports, and exit 3.
D="$TMP/sf"
check "cabling ok" test "$(status "$MOORE" deploy slimfly:q=5 --check-cabling "$D/fabric.topo" --cables "$TMP/plan.csv")" = 0
r1=$(sed -n 2p "$TMP/plan.simple") r2=$(sed -n 40p "$TMP/plan.simple")
f() { echo "$1" | cut -d, -f"$2"; }
awk -v A1="$(id "$(f "$r1" 2)")" -v PA1=$(($(f "$r1" 4) + 1)) -v A2="$(id "$(f "$r1" 5)")" -v PA2=$(($(f "$r1" 7) + 1)) \
    -v B1="$(id "$(f "$r2" 2)")" -v PB1=$(($(f "$r2" 4) + 1)) -v B2="$(id "$(f "$r2" 5)")" -v PB2=$(($(f "$r2" 7) + 1)) \
    -f "$HERE/swap_cables.awk" "$D/fabric.topo" >"$TMP/swapped.topo"
check "cabling swapped: exit 3" test "$(status "$MOORE" deploy slimfly:q=5 --check-cabling "$TMP/swapped.topo" --cables "$TMP/plan.csv")" = 3
check "cabling swapped: 4 lines" test "$(grep -c '^miswired: ' "$TMP/out")" = 4
for e in "$(f "$r1" 2) $(f "$r1" 4)" "$(f "$r1" 5) $(f "$r1" 7)" "$(f "$r2" 2) $(f "$r2" 4)" "$(f "$r2" 5) $(f "$r2" 7)"; do
    set -- $e
    check "cabling names switch $1 port $(($2 + 1))" grep -q "^miswired: switch $1 '[^']*' port $(($2 + 1)):" "$TMP/out"
done

# Slurm: one leaf per switch with its 4 servers, one group per Slim Fly rack (5).
check "slurm exit 0" test "$(status "$MOORE" deploy slimfly:q=5 --slurm "$TMP/slurm")" = 0
check "slurm leaves" test "$(grep -c '^SwitchName=s[0-9]* Nodes=n\[[0-9]*-[0-9]*\]$' "$TMP/slurm/topology.conf")" = 50
check "slurm groups" test "$(grep -c '^SwitchName=g' "$TMP/slurm/topology.conf")" = 5
check "slurm blocks" test "$(grep -c '^BlockName=' "$TMP/slurm/topology-block.conf")" = 5
check "slurm last node" grep -q '^SwitchName=s49 Nodes=n\[196-199\]$' "$TMP/slurm/topology.conf"

# Bad input: one line, exit 2, no files.
refused "lmc 8" "--lmc" "$MOORE" deploy slimfly:q=5 --ib "$TMP/x" --lmc 8
refused "LID space" "0xBFFF" "$MOORE" deploy slimfly:q=11 --ib "$TMP/big" --lmc 7
check "LID space: no files" test ! -e "$TMP/big/lfts.dump"
refused "no mode" "exactly one of" "$MOORE" deploy slimfly:q=5
D="$TMP/sf"
sed '0,/guid 0x0201000000000000/s//guid 0x0201000000fff000/' "$D/lfts.dump" >"$TMP/bad1"
refused "unknown switch GUID" "0x0201000000fff000" "$MOORE" route --lfts "$TMP/bad1" --fabric "$D/fabric.topo"
# A missing entry: switch 0's route to LID 0x33 (HCA 0, on switch 0) removed,
# so every other switch's route toward it stops there.
sed '0,/^0x0033 /{/^0x0033 /d}' "$D/lfts.dump" >"$TMP/bad2"
refused "LID with no route" "no route" "$MOORE" route --lfts "$TMP/bad2" --fabric "$D/fabric.topo"
# A switch's own LID unrouted at its source only (as updn leaves spine to
# spine): switch 0's route to LID 3 (switch 2, two hops away, so no route
# passes switch 0 toward it in a diameter-2 graph) removed, one pair fewer.
sed '0,/^0x0003 /{/^0x0003 /d}' "$D/lfts.dump" >"$TMP/nosw"
check "switch LID unrouted at the source: read back" \
    test "$(status "$MOORE" route --lfts "$TMP/nosw" --fabric "$D/fabric.topo" --json)" = 0
check "switch LID unrouted: 12249 LID pairs" test "$(jq .lid_pairs "$TMP/out")" = 12249
# A switch LID whose route stops on its way: switch 1's route to LID 3
# (switch 2) removed; switch 0's route to it goes through switch 1.
awk 'BEGIN{s=-1} /^Unicast/{s++} s==1 && /^0x0003 /{next} {print}' "$D/lfts.dump" >"$TMP/bad2b"
refused "switch LID route stops" "no route" "$MOORE" route --lfts "$TMP/bad2b" --fabric "$D/fabric.topo"
# A loop: switch 0 sends LID 2 (switch 1) to switch 1, switch 1 sends it back.
awk 'BEGIN{s=-1} /^Unicast/{s++} s==1 && /^0x0002 /{sub(/^0x0002 [0-9]+/, "0x0002 001")} {print}' "$D/lfts.dump" >"$TMP/bad3"
refused "loop" "loops" "$MOORE" route --lfts "$TMP/bad3" --fabric "$D/fabric.topo"
refused "port beyond the switch" "has no port 99" \
    "$MOORE" route --lfts <(sed '0,/^0x0002 001/s//0x0002 099/' "$D/lfts.dump") --fabric "$D/fabric.topo"
# Throughput on the tables' routes. The Petersen graph has girth 5, so every
# pair has one shortest path and any shortest-path tables route the unique
# one: the LID walk must give what routed_flow.c gives for minimal routing,
# for uniform and worst traffic; and the graph is arc-transitive, so under
# uniform traffic every arc carries the same load (mean utilisation 1).
D="$TMP/pet"
"$MOORE" deploy petersen --ib "$D" --algo ecmp >/dev/null
for tm in uniform worst; do
    "$MOORE" route --lfts "$D/lfts.dump" --fabric "$D/fabric.topo" --tm $tm --json >"$TMP/lt.$tm"
    "$MOORE" throughput petersen --routing minimal --tm $tm --json >"$TMP/rt.$tm"
    check "petersen tables, $tm: throughput = minimal routing's" \
        jq -en --slurpfile a "$TMP/lt.$tm" --slurpfile b "$TMP/rt.$tm" \
        '($a[0].throughput - $b[0].throughput | fabs) < 1e-9 and $a[0].tm == "'$tm'"'
done
check "petersen tables, uniform: every arc equally loaded" \
    jq -e '(.link_util_mean - 1 | fabs) < 1e-9' "$TMP/lt.uniform"
refused "--tm without --lfts" "--tm" "$MOORE" route petersen --tm uniform
summary cli_deploy
