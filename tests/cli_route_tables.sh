#!/usr/bin/env bash
# cli_route_tables.sh — every forwarding table `moore route --tables` writes can
# be loaded by a switch: for a small instance of every family and every routing
# algorithm, tests/route_tables_check.py (an independent reader: the edge list,
# the cable plan of `moore layout --cables` and the table, nothing of moore's
# code) checks the ports against the cable plan, one row per switch and
# destination with servers, and that following the tables from any switch
# reaches the destination with no loop (docs/routing.md). Spectralfly is left
# out: its smallest instance (s=5, q=13) has 1,092 switches.
#   bash cli_route_tables.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
export OMP_NUM_THREADS=1 # tiny graphs: threads only add start-up time
: >"$TMP/list"
i=0
while read -r spec; do
    i=$((i + 1))
    check "build $spec" test "$(status "$MOORE" build "$spec" -o "$TMP/$i.txt")" = 0
    check "cables $spec" test "$(status "$MOORE" layout "$spec" --cables "$TMP/$i.cab")" = 0
    others=(minimal ksp:k=8 valiant:samples=4 ugal:samples=4)
    algos=(ecmp "${others[@]}")
    # sanitized: ECMP everywhere and one other algorithm in turn (each on 6-7 families)
    if sanitized; then algos=(ecmp "${others[$((i % 4))]}"); fi
    for algo in "${algos[@]}"; do
        j=$i.${algo%%:*}
        check "route $spec $algo" test "$(status "$MOORE" route "$spec" --algo "$algo" \
            --tables "$TMP/$j.csv")" = 0
        echo "$TMP/$i.txt $TMP/$i.cab $TMP/$j.csv" >>"$TMP/list"
    done
done <<'LIST'
slimfly:q=5
complete:n=6,p=2
petersen
hoffman-singleton
xpander:d=4,k=4
jellyfish:n=20,d=4
fattree:k=4
dragonfly:p=2
hyperx:L=2,S=3,K=2
torus:dims=4x3
polarfly:q=3
hypercube:n=4
mesh:dims=3x4
flatbutterfly:n=3,k=3
karyntree:k=2,n=3
xgft:h=2,m=3.2,w=2.2
kautz:b=2,n=3
arrangement:n=4,k=2
tofu:dims=1x1x1
mlfm:h=3
oft:k=3
megafly:d=4
cascade:g=1
bundlefly:q=3,r=5
polarstar:q=3,jd=4
delorme:q=2
clos:radix=8,endpoints=40
LIST
# every destination (the Clos's spines have no servers), and no layers
check "all destinations" test "$(status "$MOORE" route clos:radix=8,endpoints=40 --algo ksp:k=8 \
    --no-layers --all-destinations --tables "$TMP/all.csv")" = 0
echo "$TMP/$i.txt $TMP/$i.cab $TMP/all.csv --all" >>"$TMP/list"
check "no layers: empty layer column" awk -F, 'NR > 1 && $4 != "" { bad = 1 } END { exit bad }' \
    "$TMP/all.csv"
check "tables are loop-free and complete" python3 "$SRC/tests/route_tables_check.py" --list "$TMP/list"
# the Clos's 10 leaves have servers: every switch has a row toward each (one
# row per destination at most), none toward the spines
check "servers only" awk -F, 'NR > 1 && $3 > 9 { bad = 1 } END { exit bad }' "$TMP/$i.ecmp.csv"
# ECMP splits evenly: every weight 1
check "ecmp weights 1" awk -F, 'NR > 1 { n = split($6, w, " "); for (k = 1; k <= n; k++)
    if (w[k] != 1) bad = 1 } END { exit bad }' "$TMP/1.ecmp.csv"
refused "all destinations without tables" "--all-destinations needs --tables" \
    "$MOORE" route petersen --all-destinations
summary cli_route_tables
