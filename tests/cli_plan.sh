#!/usr/bin/env bash
# cli_plan.sh — the contract of `moore plan` and `moore compare`: JSON rows
# exist and are well-formed, --endpoints marks one row per family that reaches
# the target, bad input exits 2 with one line on stderr.
#   bash tests/cli_plan.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
tmp=$TMP

# JSON rows: an array of objects with the documented keys and types.
check "plan --radix ... exits 0" "$MOORE" plan --radix 48 --json > "$tmp/plan.json"
check "plan JSON is not a non-empty array" jq -e 'type == "array" and length > 0' "$tmp/plan.json" > /dev/null
check "plan rows lack keys or have wrong types" jq -e 'all(.[]; (.family | type) == "string" and (.topology | type) == "string"
        and .topology == .family + (if .params == "" then "" else ":" + .params end)
        and (.switches | type) == "number" and (.links | type) == "number"
        and (.cables | type) == "number" and .cables >= .links
        and (.degree_max | type) == "number" and .degree_min <= .degree_max
        and (.endpoints | type) == "number"
        and ((.diameter | type) == "number" or .diameter == null)
        and .chosen == false and .degree_max <= 48)' "$tmp/plan.json" > /dev/null
for fam in fattree dragonfly hyperx torus polarfly; do
  check "no $fam rows" jq -e --arg f "$fam" 'any(.[]; .family == $f)' "$tmp/plan.json" > /dev/null
done
# fattree:k=16 as a row: 320 switches, 2,048 links, 1,024 endpoints, diameter 4
check "fattree:k=16 row is wrong" jq -e 'any(.[]; .topology == "fattree:k=16" and .switches == 320 and .links == 2048
        and .endpoints == 1024 and .diameter == 4)' "$tmp/plan.json" > /dev/null

# --endpoints: at most one chosen row per family, each reaching the target,
# and for fat-tree (k³/4 ≥ 10,000 first at k = 36) exactly that one.
check "plan --radix ... exits 0" "$MOORE" plan --radix 48 --endpoints 10000 --json > "$tmp/mark.json"
check "--endpoints marks are wrong" jq -e '[.[] | select(.chosen)] | length > 0 and all(.[]; .endpoints >= 10000)
       and (group_by(.family) | all(.[]; length == 1))' "$tmp/mark.json" > /dev/null
check "fat-tree mark is not k=36" jq -e '[.[] | select(.chosen and .family == "fattree") | .topology] == ["fattree:k=36"]' \
  "$tmp/mark.json" > /dev/null
check "plan --radix ... exits 0" "$MOORE" plan --radix 48 --endpoints 10000 > "$tmp/mark.txt"
check "text table does not mark fattree:k=36" grep -Eq '^\*.*fattree:k=36 ' "$tmp/mark.txt"

# Bad input: exit 2, one line on stderr naming the problem.
expect_2() { # words, args...: refused (tests/cli.bash) with WORDS in the line
  local want=$1; shift
  refused "moore $*" "$want" "$MOORE" "$@"
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
expect_2 "3-tier limit 128" build clos:radix=8,endpoints=129,tiers=3
expect_2 "4-tier limit 512" build clos:radix=8,endpoints=513,tiers=4
expect_2 "3-tier limit" compare clos:radix=48,endpoints=30000000,tiers=3
expect_2 "6-tier limit 128" build clos:radix=4,endpoints=129

# plan --bandwidth: listed rows are not ruled out, each reaches the target and
# carries its bound; the JSON lists every row with ruled_out iff bound < B.
check "plan --radix ... exits 0" "$MOORE" plan --radix 16 --endpoints 300 --bandwidth 1 --families jellyfish,clos --json > "$tmp/bw.json"
check "plan --bandwidth rows are wrong" jq -e 'length > 0 and all(.[]; .endpoints >= 300
       and (.ruled_out == ((.throughput_uniform_upper // 1e9) < 1)))
       and ([.[] | select(.chosen)] | length) == 2' "$tmp/bw.json" > /dev/null

# compare at full bandwidth: every row proven >= 1, at least N servers, the
# Clos first; --bandwidth any keeps the fewest-switch rows (no throughput).
check "compare --radix ... exits 0" "$MOORE" compare --radix 12 --endpoints 150 --families clos,jellyfish,fattree --metrics basic \
  --json > "$tmp/full.json"
check "compare --bandwidth 1 rows are wrong" jq -e 'length >= 2 and .[0].family == "clos" and all(.[]; .throughput_uniform >= 1
       and .endpoints >= 150 and .throughput_uniform_upper >= .throughput_uniform)
       and .[0].vs_clos_switches_pct == 0' "$tmp/full.json" > /dev/null
check "compare --radix ... exits 0" "$MOORE" compare --radix 12 --endpoints 150 --families clos,jellyfish,fattree --metrics basic \
  > "$tmp/full.txt"
check "no baseline section" grep -q "against the Clos baseline" "$tmp/full.txt"
check "no verdict line" grep -q "^often-quoted claim" "$tmp/full.txt"

# compare: JSON objects keyed as the columns; unmeasured metrics are null.
check "compare --radix ... exits 0" "$MOORE" compare --radix 16 --endpoints 500 --families fattree,torus,hyperx --bandwidth any \
  --metrics basic,paths --json > "$tmp/cmp.json" 2> "$tmp/cmp.err"
check "compare JSON rows are wrong" jq -e 'length == 3 and all(.[]; .endpoints >= 500 and (.diameter | type) == "number"
       and (.cables | type) == "number" and has("throughput_worst")
 and has("lambda2") and has("ramanujan_bound") and has("avg_path_length_endpoints"))' "$tmp/cmp.json" > /dev/null
check "compare fat-tree row is wrong" jq -e '.[] | select(.family == "fattree") | .topology == "fattree:k=14" and .diameter == 4' \
  "$tmp/cmp.json" > /dev/null
check "compare torus:dims=4x4 ... exits 0" "$MOORE" compare torus:dims=4x4 hyperx:L=2,S=3,K=2 --metrics basic,paths > "$tmp/cmp.txt"
check "compare with given topologies" grep -q 'torus:dims=4x4' "$tmp/cmp.txt"
# Every option takes effect or is refused with one line naming it and why.
expect_2 "--radix steers the search" compare --radix 24 slimfly:q=5
expect_2 "--endpoints steers the search" compare slimfly:q=5 --endpoints 100
expect_2 "--bandwidth steers the search" compare slimfly:q=5 --bandwidth any
expect_2 "--families steers the search" compare --families slimfly slimfly:q=5
expect_2 "--thorough steers the search" compare --thorough slimfly:q=5
expect_2 "families: petersen has no planner" compare --families slimfly,petersen
expect_2 "families: unknown family 'slimfy' (did you mean 'slimfly'?)" compare --families slimfy
expect_2 "group 'symmetry' has no column" compare slimfly:q=5 --metrics basic,symmetry
expect_2 "metrics all: group" compare slimfly:q=5 --metrics all
expect_2 "unknown metric 'basc' (did you mean 'basic'?)" compare slimfly:q=5 --metrics basc
expect_2 "unknown option '--tms' (did you mean '--tm'?)" compare slimfly:q=5 --tms uniform
expect_2 "no such database" compare slimfly:q=5 --db "$tmp/none.db"
check "compare --db created a database" [ ! -e "$tmp/none.db" ]

# Headings say what they hold: one ratio column, bounds marked lo/hi or ≤,
# the bisection named as normalised; no "a/b" pairs of values.
check "compare petersen ... exits 0" "$MOORE" compare petersen slimfly:q=3 --metrics basic,paths,spectral,bisection,throughput \
  > "$tmp/head.txt"
sed -n 3p "$tmp/head.txt" > "$tmp/h"
for h in 'λ₂/Ram' 'θ_uni lo' 'θ_uni hi' 'θ_worst lo' 'θ_worst hi' 'bisect norm ≤'; do
  check "compare heading lacks '$h'" grep -qF "$h" "$tmp/h"
done
grep -E '^petersen' "$tmp/head.txt" > "$tmp/pet.txt"
check "no cell holds a pair a/b" bash -c '! grep -qE "[0-9]/[0-9]" "$1"' _ "$tmp/pet.txt"
# Petersen: lambda2 = 1, d = 3, so λ₂/Ram = 1/(2 sqrt 2) = 0.354.
check "Petersen λ₂/Ram is not 0.354" grep -qw '0.354' "$tmp/pet.txt"

# --json=lines: one object per row as it is done, the same rows as --json.
check "compare petersen ... exits 0" "$MOORE" compare petersen slimfly:q=3 --metrics basic --json > "$tmp/arr.json"
check "compare petersen ... exits 0" "$MOORE" compare petersen slimfly:q=3 --metrics basic --json=lines > "$tmp/lines.json"
check "compare --json=lines: not one line per row" [ "$(wc -l < "$tmp/lines.json")" -eq 2 ]
check "compare --json=lines differs from --json" jq -e -s --slurpfile a "$tmp/arr.json" '. == $a[0]' "$tmp/lines.json" > /dev/null

# --tm TM: the throughput of every row under any matrix 'moore throughput'
# takes, equal to what that command measures on the row's topology.
for tm in permutation alltoall; do
  check "compare --tm $tm exits 0" "$MOORE" compare petersen hyperx:L=2,S=3 --metrics basic \
    --tm "$tm" --seed 3 --json > "$tmp/tm.json"
  for t in petersen hyperx:L=2,S=3; do
    check "throughput $t --tm $tm exits 0" "$MOORE" throughput "$t" --tm "$tm" --seed 3 --json > "$tmp/one.json"
    check "compare --tm $tm on $t differs from moore throughput" jq -e --arg t "$t" --arg tm "$tm" --slurpfile one "$tmp/one.json" '
        [.[] | select(.topology | startswith($t))] | length == 1 and all(.[]; .tm == $tm and
        .lower == $one[0].lower and .upper == $one[0].upper and .lower <= .upper)' \
      "$tmp/tm.json" > /dev/null
  done
done
check "compare --tm permutation exits 0" "$MOORE" compare petersen --metrics basic --tm permutation > "$tmp/tm.txt"
check "no column named after the --tm matrix" grep -qF 'θ_permutation lo' "$tmp/tm.txt"

# --metrics ...,routing: the routing group's columns, equal to moore stats.
check "compare slimfly:q=3 ... exits 0" "$MOORE" compare slimfly:q=3 --metrics basic,routing --json > "$tmp/rt.json"
check "stats slimfly:q=3 ... exits 0" "$MOORE" stats slimfly:q=3 --metrics routing --json > "$tmp/rs.json"
check "compare routing columns differ from moore stats --metrics routing" jq -e --slurpfile s "$tmp/rs.json" '.[0] | .throughput_uniform_ecmp == $s[0].throughput_uniform_ecmp
     and .throughput_uniform_ksp8 == $s[0].throughput_uniform_ksp8
     and .throughput_uniform_ecmp_ratio == $s[0].throughput_uniform_ecmp_ratio
     and (.throughput_uniform_ecmp | type) == "number"' "$tmp/rt.json" > /dev/null
check "compare slimfly:q=3 ... exits 0" "$MOORE" compare slimfly:q=3 --metrics basic,routing > "$tmp/rt.txt"
check "no ecmp/opt column" grep -qF 'ecmp/opt' "$tmp/rt.txt"

# --db FILE: a sweep's database gives the same numbers compare measures; a
# row the database lacks (petersen) is measured, and stderr counts both.
cat > "$tmp/sweep.json" <<'EOF'
{"metrics": ["basic", "paths", "spectral"], "throughput": {"tm": ["uniform"], "eps": 0.05},
 "configs": [{"spec": "slimfly:q=3"}, {"family": "hyperx", "grid": {"L": [2], "S": [3]}}]}
EOF
check "sweep exits 0" "$MOORE" sweep "$tmp/sweep.json" --db "$tmp/s.db" 2> /dev/null
args=(slimfly:q=3 hyperx:L=2,S=3 petersen --metrics basic,paths,spectral --tm uniform --json)
check "compare exits 0" "$MOORE" compare "${args[@]}" > "$tmp/measured.json"
check "compare --db exits 0" "$MOORE" compare "${args[@]}" --db "$tmp/s.db" > "$tmp/fromdb.json" 2> "$tmp/db.err"
check "compare --db did not read the sweep's 8 results" grep -q "database: 8 results (row x metric group or --tm) read, 4 measured" "$tmp/db.err"
check "compare --db numbers differ from compare measuring them" jq -e --slurpfile m "$tmp/measured.json" '
    map(del(.tub, .method)) == ($m[0] | map(del(.tub, .method)))' "$tmp/fromdb.json" > /dev/null

# --progress: progress lines on stderr (a pipe here), stdout unchanged.
check "compare petersen ... exits 0" "$MOORE" compare petersen slimfly:q=3 --metrics basic > "$tmp/p0.txt" 2> "$tmp/e0.txt"
"$MOORE" compare petersen slimfly:q=3 --metrics basic --progress 2>&1 > "$tmp/p1.txt" | cat > "$tmp/e1.txt"
check "compare --progress changed stdout" cmp -s "$tmp/p0.txt" "$tmp/p1.txt"
check "compare drew progress on a file without --progress" [ ! -s "$tmp/e0.txt" ]
check "compare --progress: no row line" grep -q '^moore: compare 2/2: slimfly:q=3' "$tmp/e1.txt"
check "fail slimfly:q=3 ... exits 0" "$MOORE" fail slimfly:q=3 --links 0.1,0.2 --trials 8 > "$tmp/f0.txt" 2> "$tmp/fe0.txt"
"$MOORE" fail slimfly:q=3 --links 0.1,0.2 --trials 8 --progress 2>&1 > "$tmp/f1.txt" | cat > "$tmp/fe1.txt"
check "fail --progress changed stdout" cmp -s "$tmp/f0.txt" "$tmp/f1.txt"
check "fail drew progress on a file without --progress" [ ! -s "$tmp/fe0.txt" ]
check "fail --progress: no line for the second level" grep -q '^moore: level 2/2, failing 0.2: failure trials' "$tmp/fe1.txt"

# Past 3 tiers: a 3-tier Clos of radix 48 holds at most 48·24·24 = 27,648 servers at 1:1,
# so 50,000 take 4 tiers: 2,084 leaves, 87 pods of 24 spines, 4 superpods of 24·24 tier-3
# switches, 4·576·24/48 = 1,152 cores (7,628 switches), 6 hops between superpods.
# Radix 4 stops at 6 tiers (4·2⁵ = 128 servers): plan says how far the largest gets and
# that more tiers are beyond the family; at a bandwidth it refuses in one line.
check "plan clos 50000 exits 0" test "$(status "$MOORE" plan --radix 48 --endpoints 50000 --families clos --json)" = 0
check "plan clos 50000 does not mark the 4-tier Clos" jq -e '[.[] | select(.chosen)] | length == 1 and .[0].switches == 7628
       and .[0].diameter == 6 and .[0].endpoints == 50000' "$TMP/out" > /dev/null
check "plan clos radix 4 exits 0" test "$(status "$MOORE" plan --radix 4 --endpoints 200 --families clos)" = 0
check "plan clos radix 4 names 128 and 6 tiers" grep -q "has 128 (more than 6 tiers is beyond the family)" "$TMP/out"
check "plan clos radix 4 marks no row" bash -c "! grep -q '^\*' '$TMP/out'"
# compare past 3 tiers: radix 16 holds 16³/4 = 1,024 servers with 3; 2,000 take 250 leaves,
# 32 pods (256 spines), 4 superpods (4·8·8 = 256 tier-3 switches) and 256·8/16 = 128 cores,
# and that baseline is proven at full bandwidth.
check "compare clos radix 16 2000 exits 0" "$MOORE" compare --radix 16 --endpoints 2000 --families clos --metrics basic --json > "$tmp/c4.json"
check "compare 4-tier baseline is wrong" jq -e 'length == 1 and .[0].family == "clos" and .[0].switches == 890
       and .[0].throughput_uniform >= 1 and .[0].endpoints == 2000' "$tmp/c4.json" > /dev/null
refused "plan clos radix 4 at bandwidth 1" "more than 6 tiers is beyond the family" "$MOORE" plan --radix 4 --endpoints 200 --families clos --bandwidth 1

# Tables that line up: every line of compare's table and of fail's is as wide as its header
# (columns sized from their contents, whatever the topology strings), money has thousands
# separators, a zero percentage has no sign, the Clos (irregular) has no λ₂/Ram. A line
# that starts blank continues a long cell of the row above in its own column.
lines_equal() { # file: the lines from the header to the first blank line, equal display width
    python3 - "$1" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
start = next(i for i, l in enumerate(lines) if l.startswith("family") or l.lstrip().startswith("level"))
block = [l for l in lines[start:lines.index("", start)] if not l.startswith(" ") or "level" in l]
widths = {len(l) for l in block}
sys.exit(0 if len(block) > 1 and len(widths) == 1 else 1)
PY
}
check "compare table exit 0" test "$(status "$MOORE" compare --radix 16 --endpoints 200 --families clos,flatbutterfly,spectralfly,arrangement --metrics basic,spectral,layout)" = 0
cp "$TMP/out" "$TMP/cmp_table.txt"
check "compare rows as wide as the header" lines_equal "$TMP/cmp_table.txt"
check "compare cost has separators" grep -Eq '^clos .* [0-9]{1,3},[0-9]{3},?[0-9]* ' "$TMP/cmp_table.txt"
check "compare no -0.0%" bash -c "! grep -q -- '-0.0%' '$TMP/cmp_table.txt'"
check "compare clos: no λ₂/Ram (irregular)" python3 -c "
import sys
l = open('$TMP/cmp_table.txt', encoding='utf-8').read().split('\n')
h = next(x for x in l if x.startswith('family'))
c = next(x for x in l if x.startswith('clos '))
i = h.index('λ₂/Ram') + len('λ₂/Ram')
sys.exit(0 if c[:i].split()[-1] == '-' else 1)"
# compare prints each row as it is measured, in fixed columns: the first row is on
# stdout while the second (all-pairs distances of 20,000 switches) is still being
# measured, and a SPEC longer than the topology column wraps inside it (after a
# comma), the columns right of it staying where the header puts them.
long=clos:radix=16,endpoints=200,oversub=1,cores=balanced,tiers=3
"$MOORE" compare slimfly:q=5 "$long" jellyfish:n=20000,d=16 --metrics basic,paths >"$TMP/stream.txt" 2>/dev/null &
pid=$!
for _ in $(seq 1200); do
    grep -q '^clos ' "$TMP/stream.txt" 2>/dev/null && break
    sleep 0.1
done
check "compare rows printed while it still measures" bash -c "grep -q '^clos ' '$TMP/stream.txt' && kill -0 $pid"
kill -TERM $pid 2>/dev/null
wait $pid 2>/dev/null
check "compare: measured rows kept after a stop" grep -q '^slimfly ' "$TMP/stream.txt"
check "compare: a long SPEC wraps inside its column" python3 -c "
import sys
l = open('$TMP/stream.txt', encoding='utf-8').read().split('\n')
h = next(x for x in l if x.startswith('family'))
i = next(k for k, x in enumerate(l) if x.startswith('clos '))
col, nxt = h.index('topology'), h.index('switches') - 2
first, cont = l[i], l[i + 1]
ok = (len(first) == len(h) and first[col:].startswith('clos:') and first[col:nxt].rstrip().endswith(',')
      and cont[:col].strip() == '' and len(cont) <= nxt and cont[col:].strip() != ''
      and (first[col:nxt].strip() + cont[col:].strip()) == '$long')
sys.exit(0 if ok else 1)"
check "fail table exit 0" test "$(status "$MOORE" fail slimfly:q=5 --links 0,0.05,0.1 --trials 4 --metrics all)" = 0
check "fail rows as wide as the header" lines_equal "$TMP/out"
check "fail table under 200 columns" test "$(head -1 "$TMP/out" | wc -c)" -lt 200

summary cli_plan


# --traffic hose: a full-bisection Clos carries every hose matrix at 1 (two-phase
# routing through the top tier), and rows carry the hose keys; uniform rows have them null.
check "compare --traffic hose exits 0" "$MOORE" compare --radix 8 --endpoints 64 --families clos \
    --traffic hose --json > "$tmp/hose.json"
check "hose Clos row is not proven at 1" jq -e '.[0].throughput_hose >= 0.999999 and .[0].throughput_hose_upper >= .[0].throughput_hose' \
    "$tmp/hose.json" > /dev/null
check "compare uniform exits 0" "$MOORE" compare --radix 8 --endpoints 64 --families clos --json > "$tmp/uni.json"
check "uniform rows have hose values" jq -e '.[0].throughput_hose == null' "$tmp/uni.json" > /dev/null
expect_2 "--traffic needs" compare --traffic ""
