#!/usr/bin/env bash
# cli_analysis.sh — the command-line contract of `moore iso` and of the
# bisection / symmetry / diversity metric groups: exit codes, JSON keys, the
# mapping file. Run by ctest as: bash cli_analysis.sh <moore> <source-dir>.
. "$(dirname "$0")/cli.bash" "$@"

# A relabelled Petersen graph: switch v becomes (3v + 1) mod 10.
check "build petersen exits 0" "$MOORE" build petersen -o "$TMP/p.txt"
awk '/^#/ {next} {print (3*$1+1)%10, (3*$2+1)%10}' "$TMP/p.txt" > "$TMP/q.txt"

out=$("$MOORE" iso petersen "$TMP/q.txt" --json --mapping "$TMP/map.txt"); rc=$?
check "iso relabelled petersen exits 0" test $rc -eq 0
check "iso relabelled petersen is isomorphic" test "$(echo "$out" | jq -c .isomorphic)" = true
# Every link u-v of A must be map(u)-map(v) in B.
bad=$(awk 'FNR==NR { if ($0 !~ /^#/) m[$1]=$2; next }
           /^#/ {next}
           { print m[$1], m[$2] }' "$TMP/map.txt" "$TMP/p.txt" |
      awk 'FNR==NR { e[$1" "$2]=1; e[$2" "$1]=1; next } !(($1" "$2) in e) {n++} END {print n+0}' \
          "$TMP/q.txt" -)
check "mapping carries every link to a link" test "$bad" = 0
check "mapping has one line per switch" test "$(grep -vc '^#' "$TMP/map.txt")" = 10

out=$("$MOORE" iso petersen complete:n=10); rc=$?
check "petersen vs K10 exits 0" test $rc -eq 0
check "petersen vs K10 not isomorphic" test "$out" = "not isomorphic"
rm -f "$TMP/none.txt"
"$MOORE" iso petersen hoffman-singleton --mapping "$TMP/none.txt" >/dev/null
check "no mapping file when not isomorphic" test ! -e "$TMP/none.txt"

"$MOORE" iso petersen 2>"$TMP/err"; rc=$?
check "iso with one topology exits 2" test $rc -eq 2
check "iso usage error is one line" test "$(wc -l < "$TMP/err")" = 1
"$MOORE" iso petersen nosuch:q=1 2>"$TMP/err"; rc=$?
check "iso with a bad spec exits 2" test $rc -eq 2
"$MOORE" iso petersen petersen --frobnicate 2>/dev/null; rc=$?
check "iso with an unknown option exits 2" test $rc -eq 2

json=$("$MOORE" stats hoffman-singleton --json --metrics bisection,symmetry,diversity); rc=$?
check "stats with the analysis groups exits 0" test $rc -eq 0
for key in bisection_cut bisection_bandwidth bisection_lower automorphisms orbits \
           vertex_transitive canonical_hash shortest_paths_min shortest_paths_mean \
           shortest_paths_max shortest_paths_histogram disjoint_paths_min disjoint_paths_mean \
           disjoint_paths_max disjoint_paths_pairs disjoint_paths_exact; do
  check "stats --json has $key" grep -q "\"$key\"" <<<"$json"
done
check "Hoffman-Singleton has 252000 automorphisms" grep -q '"automorphisms":[[:space:]]*252000' <<<"$json"

all=$("$MOORE" stats petersen --all --json)
check "--all includes bisection" grep -q '"bisection_cut":[[:space:]]*5' <<<"$all"
check "--all includes symmetry" grep -q '"automorphisms":[[:space:]]*120' <<<"$all"
check "--all includes diversity" grep -q '"disjoint_paths_min":[[:space:]]*3' <<<"$all"

# A file of 3 switches and no links: every group runs (symmetry: 3! = 6
# automorphisms, one orbit), the graph is disconnected.
printf '# moore topology\n# switches: 3\n# links: 0\n' >"$TMP/zero.txt"
check "stats --all on a 0-link file exits 0" test "$(status "$MOORE" stats "$TMP/zero.txt" --all --json)" = 0
check "0-link file: 6 automorphisms" test "$(jq .automorphisms "$TMP/out")" = 6
check "0-link file: one orbit" test "$(jq .orbits "$TMP/out")" = 1
check "0-link file: disconnected" test "$(jq .connected "$TMP/out")" = false

summary cli_analysis
