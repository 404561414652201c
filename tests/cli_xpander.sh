#!/usr/bin/env bash
# cli_xpander.sh — the command line of the spectral issue: `stats` reports
# the spectral keys by default, `lift` doubles a topology and says what
# happened to the spectrum, `expand` grows a Jellyfish, Xpander/Jellyfish
# SPECs are reproducible, and bad input exits 2 with one line on stderr.
#   bash cli_xpander.sh path/to/moore source-dir
set -euo pipefail
MOORE=$1
SRC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
check() { # check NAME COND...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $name" >&2; fi
}
json_get() { # json_get FILE KEY
  python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(str(v).lower() if isinstance(v,bool) else v)' "$1" "$2"
}
expect_exit() { # expect_exit CODE CMD... : exit code and exactly one stderr line
  local want=$1; shift
  set +e; "$@" >/dev/null 2>"$TMP/err"; local got=$?; set -e
  [ "$got" = "$want" ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q '^moore: ' "$TMP/err"
}

# stats: spectral keys in the default set, Petersen's known values
"$MOORE" stats petersen --json >"$TMP/p.json"
for key in lambda2 spectral_gap lambda_nontrivial ramanujan_bound is_ramanujan algebraic_connectivity; do
  check "stats has $key" grep -q "\"$key\"" "$TMP/p.json"
done
check "petersen lambda2 = 1" python3 -c "import json; j=json.load(open('$TMP/p.json')); assert abs(j['lambda2']-1)<1e-9 and abs(j['lambda_nontrivial']-2)<1e-9 and j['is_ramanujan']"
"$MOORE" stats xpander:d=10,k=21 --metrics basic,spectral --json >"$TMP/x.json"
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
"$MOORE" stats xpander:meta=petersen,k=4,intra=clique --metrics basic --json >"$TMP/c.json"
check "seed variant switches" test "$(json_get "$TMP/c.json" switches)" = 40
check "seed variant degree" test "$(json_get "$TMP/c.json" degree_min)" = 6

# same seed, same bytes
"$MOORE" build jellyfish:n=200,d=9,seed=4 -o "$TMP/j1"
"$MOORE" build jellyfish:n=200,d=9,seed=4 -o "$TMP/j2"
"$MOORE" build jellyfish:n=200,d=9,seed=5 -o "$TMP/j3"
check "jellyfish same seed same bytes" cmp -s "$TMP/j1" "$TMP/j2"
check "jellyfish other seed differs" bash -c "! cmp -s '$TMP/j1' '$TMP/j3'"
"$MOORE" build xpander:d=6,k=8,matching=lift,seed=3 -o "$TMP/x1"
"$MOORE" build xpander:d=6,k=8,matching=lift,seed=3 -o "$TMP/x2"
check "xpander lift same seed same bytes" cmp -s "$TMP/x1" "$TMP/x2"

# lift: N doubles, the report names rho and the gap, a meta-graph file works
"$MOORE" lift petersen --times 2 --seed 3 -o "$TMP/l" >"$TMP/l.out"
check "lift report" grep -q 'rho(A_s)' "$TMP/l.out"
check "lift report gap" grep -q 'gap kept' "$TMP/l.out"
check "lift 40 switches" grep -q '^# switches: 40$' "$TMP/l"
check "lift 60 links" test "$(grep -vc '^#' "$TMP/l")" = 60
"$MOORE" lift "$TMP/j1" --json=lines -o "$TMP/l2" >"$TMP/l2.json"
check "lift json" python3 -c "import json; j=json.loads(open('$TMP/l2.json').readline()); assert j['switches_after']==400 and j['rho']<=9"
"$MOORE" stats "xpander:meta=$TMP/l,k=2" --metrics basic --json >"$TMP/m.json"
check "meta file" test "$(json_get "$TMP/m.json" switches)" = 80
"$MOORE" lift petersen >"$TMP/l3" 2>"$TMP/l3.err"
check "lift to stdout, report to stderr" grep -q 'lambda2 before' "$TMP/l3.err"
check "lift to stdout writes the graph" grep -q '^# switches: 20$' "$TMP/l3"

# expand
"$MOORE" expand "$TMP/j1" --add 10 --seed 2 -o "$TMP/e" >"$TMP/e.out"
check "expand report" grep -q 'expanded 200 -> 210' "$TMP/e.out"
"$MOORE" stats "$TMP/e" --metrics basic,paths --json >"$TMP/e.json"
check "expand switches" test "$(json_get "$TMP/e.json" switches)" = 210
check "expand connected" test "$(json_get "$TMP/e.json" connected)" = true
check "expand degree" test "$(json_get "$TMP/e.json" degree_max)" = 9

# bad input: exit 2, one line
check "jellyfish odd n*d" expect_exit 2 "$MOORE" build jellyfish:n=5,d=3
check "jellyfish d >= n" expect_exit 2 "$MOORE" build jellyfish:n=5,d=5
check "xpander lift k" expect_exit 2 "$MOORE" build xpander:d=4,k=6,matching=lift
check "xpander no k" expect_exit 2 "$MOORE" build xpander:d=4
check "xpander bad meta" expect_exit 2 "$MOORE" build xpander:meta=nosuch,k=2
check "lift bad times" expect_exit 2 "$MOORE" lift petersen --times 0
check "lift no topo" expect_exit 2 "$MOORE" lift
check "expand no add" expect_exit 2 "$MOORE" expand petersen
check "expand bad topo" expect_exit 2 "$MOORE" expand nosuch --add 1
check "no partial file" test ! -e "$TMP/never"
set +e; "$MOORE" lift nosuch -o "$TMP/never" 2>/dev/null; set -e
check "no file on failure" test ! -e "$TMP/never"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
