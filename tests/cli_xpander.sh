#!/usr/bin/env bash
# cli_xpander.sh — the command line of the spectral issue: `stats` reports
# the spectral keys by default, `lift` doubles a topology and says what
# happened to the spectrum, `expand` grows a Jellyfish, Xpander/Jellyfish
# SPECs are reproducible, and bad input exits 2 with one line on stderr.
#   bash cli_xpander.sh path/to/moore source-dir
. "$(dirname "$0")/cli.bash" "$@"
json_get() { # json_get FILE KEY
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(str(v).lower() if isinstance(v,bool) else v)' "$1" "$2"
}

# stats: spectral keys in the default set, Petersen's known values
check "stats petersen exits 0" "$MOORE" stats petersen --json >"$TMP/p.json"
for key in lambda2 spectral_gap lambda_nontrivial ramanujan_bound is_ramanujan algebraic_connectivity; do
  check "stats has $key" grep -q "\"$key\"" "$TMP/p.json"
done
check "petersen lambda2 = 1" python3 -c "import json; j=json.load(open('$TMP/p.json')); assert abs(j['lambda2']-1)<1e-9 and abs(j['lambda_nontrivial']-2)<1e-9 and j['is_ramanujan']"
check "stats xpander:d=10,k=21 exits 0" "$MOORE" stats xpander:d=10,k=21 --metrics basic,spectral --json >"$TMP/x.json"
check "xpander switches" test "$(json_get "$TMP/x.json" switches)" = 231
check "xpander regular" test "$(json_get "$TMP/x.json" degree_max)" = 10
check "xpander bound" python3 -c "import json; assert abs(json.load(open('$TMP/x.json'))['ramanujan_bound']-6)<1e-12"
# the netbench file made by the authors' generator reads and measures
# (shared/ lies beside the checkout, or beside the folder of worktrees)
for nb in "$SRC/../shared/data/xpander_n231_d10.topology" "$SRC/../../shared/data/xpander_n231_d10.topology"; do
  if [ -f "$nb" ]; then
    "$MOORE" stats "$nb" --metrics basic,spectral --json >"$TMP/nb.json"
    check "netbench xpander switches" test "$(json_get "$TMP/nb.json" switches)" = 231
    check "netbench xpander degree" test "$(json_get "$TMP/nb.json" degree_max)" = 10
    break
  fi
done
check "stats xpander:meta=petersen,k=4,intra=clique exits 0" "$MOORE" stats xpander:meta=petersen,k=4,intra=clique --metrics basic --json >"$TMP/c.json"
check "seed variant switches" test "$(json_get "$TMP/c.json" switches)" = 40
check "seed variant degree" test "$(json_get "$TMP/c.json" degree_min)" = 6

# same seed, same bytes
check "build jellyfish:n=200,d=9,seed=4 exits 0" "$MOORE" build jellyfish:n=200,d=9,seed=4 -o "$TMP/j1"
check "build jellyfish:n=200,d=9,seed=4 exits 0" "$MOORE" build jellyfish:n=200,d=9,seed=4 -o "$TMP/j2"
check "build jellyfish:n=200,d=9,seed=5 exits 0" "$MOORE" build jellyfish:n=200,d=9,seed=5 -o "$TMP/j3"
check "jellyfish same seed same bytes" cmp -s "$TMP/j1" "$TMP/j2"
check "jellyfish other seed differs" bash -c "! cmp -s '$TMP/j1' '$TMP/j3'"
check "build xpander:d=6,k=8,matching=lift,seed=3 exits 0" "$MOORE" build xpander:d=6,k=8,matching=lift,seed=3 -o "$TMP/x1"
check "build xpander:d=6,k=8,matching=lift,seed=3 exits 0" "$MOORE" build xpander:d=6,k=8,matching=lift,seed=3 -o "$TMP/x2"
check "xpander lift same seed same bytes" cmp -s "$TMP/x1" "$TMP/x2"

# lift: N doubles, the report names rho and the gap, a meta-graph file works
check "lift petersen exits 0" "$MOORE" lift petersen --times 2 --seed 3 -o "$TMP/l" >"$TMP/l.out"
check "lift report" grep -q 'rho(A_s)' "$TMP/l.out"
check "lift report gap" grep -q 'gap kept' "$TMP/l.out"
check "lift 40 switches" grep -q '^# switches: 40$' "$TMP/l"
check "lift 60 links" test "$(grep -vc '^#' "$TMP/l")" = 60
check "lift j1 exits 0" "$MOORE" lift "$TMP/j1" --json=lines -o "$TMP/l2" >"$TMP/l2.json"
check "lift json" python3 -c "import json; j=json.loads(open('$TMP/l2.json').readline()); assert j['switches_after']==400 and j['rho']<=9"
check "stats xpander:meta=$TMP/l,k=2 exits 0" "$MOORE" stats "xpander:meta=$TMP/l,k=2" --metrics basic --json >"$TMP/m.json"
check "meta file" test "$(json_get "$TMP/m.json" switches)" = 80
check "lift petersen exits 0" "$MOORE" lift petersen >"$TMP/l3" 2>"$TMP/l3.err"
check "lift to stdout, report to stderr" grep -q 'lambda2 before' "$TMP/l3.err"
check "lift to stdout writes the graph" grep -q '^# switches: 20$' "$TMP/l3"

# expand
check "expand j1 exits 0" "$MOORE" expand "$TMP/j1" --add 10 --seed 2 -o "$TMP/e" >"$TMP/e.out"
check "expand report" grep -q 'expanded 200 -> 210' "$TMP/e.out"
check "stats e exits 0" "$MOORE" stats "$TMP/e" --metrics basic,paths --json >"$TMP/e.json"
check "expand switches" test "$(json_get "$TMP/e.json" switches)" = 210
check "expand connected" test "$(json_get "$TMP/e.json" connected)" = true
check "expand degree" test "$(json_get "$TMP/e.json" degree_max)" = 9

# bad input: exit 2, one line
refused "jellyfish odd n*d" "" "$MOORE" build jellyfish:n=5,d=3
refused "jellyfish d >= n" "" "$MOORE" build jellyfish:n=5,d=5
refused "xpander lift k" "" "$MOORE" build xpander:d=4,k=6,matching=lift
refused "xpander no k" "" "$MOORE" build xpander:d=4
refused "xpander bad meta" "" "$MOORE" build xpander:meta=nosuch,k=2
refused "lift bad times" "" "$MOORE" lift petersen --times 0
refused "lift no topo" "" "$MOORE" lift
refused "expand no add" "" "$MOORE" expand petersen
refused "expand bad topo" "" "$MOORE" expand nosuch --add 1
check "no partial file" test ! -e "$TMP/never"
"$MOORE" lift nosuch -o "$TMP/never" 2>/dev/null
check "no file on failure" test ! -e "$TMP/never"

summary cli_xpander
