#!/usr/bin/env bash
# cli_plan.sh — the contract of `moore plan` and `moore compare`: JSON rows
# exist and are well-formed, --endpoints marks one row per family that reaches
# the target, bad input exits 2 with one line on stderr.
#   bash tests/cli_plan.sh <path-to-moore> <source-dir>
set -euo pipefail
MOORE=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# JSON rows: an array of objects with the documented keys and types.
"$MOORE" plan --radix 48 --json > "$tmp/plan.json"
jq -e 'type == "array" and length > 0' "$tmp/plan.json" > /dev/null || fail "plan JSON is not a non-empty array"
jq -e 'all(.[]; (.family | type) == "string" and (.topology | type) == "string"
        and .topology == .family + (if .params == "" then "" else ":" + .params end)
        and (.switches | type) == "number" and (.links | type) == "number"
        and (.cables | type) == "number" and .cables >= .links
        and (.degree_max | type) == "number" and .degree_min <= .degree_max
        and (.endpoints | type) == "number"
        and ((.diameter | type) == "number" or .diameter == null)
        and .chosen == false and .degree_max <= 48)' "$tmp/plan.json" > /dev/null \
  || fail "plan rows lack keys or have wrong types"
for fam in fattree dragonfly hyperx torus polarfly; do
  jq -e --arg f "$fam" 'any(.[]; .family == $f)' "$tmp/plan.json" > /dev/null || fail "no $fam rows"
done
# fattree:k=16 as a row: 320 switches, 2,048 links, 1,024 endpoints, diameter 4
jq -e 'any(.[]; .topology == "fattree:k=16" and .switches == 320 and .links == 2048
        and .endpoints == 1024 and .diameter == 4)' "$tmp/plan.json" > /dev/null \
  || fail "fattree:k=16 row is wrong"

# --endpoints: at most one chosen row per family, each reaching the target,
# and for fat-tree (k³/4 ≥ 10,000 first at k = 36) exactly that one.
"$MOORE" plan --radix 48 --endpoints 10000 --json > "$tmp/mark.json"
jq -e '[.[] | select(.chosen)] | length > 0 and all(.[]; .endpoints >= 10000)
       and (group_by(.family) | all(.[]; length == 1))' "$tmp/mark.json" > /dev/null \
  || fail "--endpoints marks are wrong"
jq -e '[.[] | select(.chosen and .family == "fattree") | .topology] == ["fattree:k=36"]' \
  "$tmp/mark.json" > /dev/null || fail "fat-tree mark is not k=36"
"$MOORE" plan --radix 48 --endpoints 10000 > "$tmp/mark.txt"
grep -Eq '^\*.*fattree:k=36 ' "$tmp/mark.txt" || fail "text table does not mark fattree:k=36"

# Bad input: exit 2, one line on stderr naming the problem.
expect_2() {
  local want=$1; shift
  set +e
  "$MOORE" "$@" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] || fail "'$*' exited $rc, not 2"
  [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "'$*' printed more than one line on stderr"
  grep -q -- "$want" "$tmp/err" || fail "'$*' stderr lacks '$want': $(cat "$tmp/err")"
}
expect_2 "radix=2 is too small" plan --radix 2
expect_2 "radix=1 is too small" plan --radix 1
expect_2 "radix=2 is too small" compare --radix 2
expect_2 "required" plan
expect_2 "nosuch" plan --radix 48 --families nosuch
expect_2 "not an integer" plan --radix many
expect_2 "q=6 is not a prime power" compare polarfly:q=6
expect_2 "k=7 is odd" compare fattree:k=7
expect_2 "--bandwidth 0 must be a number above 0" compare --bandwidth 0
expect_2 "--bandwidth -1 must be a number above 0" compare --bandwidth -1
expect_2 "not a number" compare --bandwidth full
expect_2 "--bandwidth 0 must be a number above 0" plan --radix 16 --endpoints 100 --bandwidth 0
expect_2 "needs --endpoints" plan --radix 16 --bandwidth 1
expect_2 "radix=3 is below 4" build clos:radix=3,endpoints=4
expect_2 "is odd" build clos:radix=9,endpoints=500,oversub=2
expect_2 "3-tier limit 128" build clos:radix=8,endpoints=129
expect_2 "3-tier limit" compare clos:radix=48,endpoints=30000000

# plan --bandwidth: listed rows are not ruled out, each reaches the target and
# carries its bound; the JSON lists every row with ruled_out iff bound < B.
"$MOORE" plan --radix 16 --endpoints 300 --bandwidth 1 --families jellyfish,clos --json > "$tmp/bw.json"
jq -e 'length > 0 and all(.[]; .endpoints >= 300
       and (.ruled_out == ((.throughput_uniform_upper // 1e9) < 1)))
       and ([.[] | select(.chosen)] | length) == 2' "$tmp/bw.json" > /dev/null \
  || fail "plan --bandwidth rows are wrong"

# compare at full bandwidth: every row proven >= 1, at least N servers, the
# Clos first; --bandwidth any keeps the fewest-switch rows (no throughput).
"$MOORE" compare --radix 12 --endpoints 150 --families clos,jellyfish,fattree --metrics basic \
  --json > "$tmp/full.json"
jq -e 'length >= 2 and .[0].family == "clos" and all(.[]; .throughput_uniform >= 1
       and .endpoints >= 150 and .throughput_uniform_upper >= .throughput_uniform)
       and .[0].vs_clos_switches_pct == 0' "$tmp/full.json" > /dev/null \
  || fail "compare --bandwidth 1 rows are wrong"
"$MOORE" compare --radix 12 --endpoints 150 --families clos,jellyfish,fattree --metrics basic \
  > "$tmp/full.txt"
grep -q "against the Clos baseline" "$tmp/full.txt" || fail "no baseline section"
grep -q "^seed claim" "$tmp/full.txt" || fail "no verdict line"

# compare: JSON objects keyed as the columns; unmeasured metrics are null.
"$MOORE" compare --radix 16 --endpoints 500 --families fattree,torus,hyperx --bandwidth any \
  --metrics basic,paths --json > "$tmp/cmp.json" 2> "$tmp/cmp.err"
jq -e 'length == 3 and all(.[]; .endpoints >= 500 and (.diameter | type) == "number"
       and (.cables | type) == "number" and has("throughput_worst")
 and has("lambda2") and has("ramanujan_bound") and has("avg_path_length_endpoints"))' "$tmp/cmp.json" > /dev/null \
  || fail "compare JSON rows are wrong"
jq -e '.[] | select(.family == "fattree") | .topology == "fattree:k=14" and .diameter == 4' \
  "$tmp/cmp.json" > /dev/null || fail "compare fat-tree row is wrong"
"$MOORE" compare torus:dims=4x4 hyperx:L=2,S=3,K=2 --metrics basic,paths > "$tmp/cmp.txt"
grep -q 'torus:dims=4x4' "$tmp/cmp.txt" || fail "compare with given topologies"
echo "cli_plan: all passed"
