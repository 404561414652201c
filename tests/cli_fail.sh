#!/usr/bin/env bash
# cli_fail.sh — the `moore fail` contract: JSON keys per level, closed forms
# (level 0 = the unfailed Petersen graph; a ring disconnects at the second link
# removal), same seed and any thread count give the same bytes, bad input
# exits 2 with one line.
#   bash cli_fail.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
jqv() { jq -r "$1" "$TMP/out"; }

# Levels as a JSON array; level 0 of Petersen: diameter 2, APL 15/9.
check "links exit 0" test "$(status "$MOORE" fail petersen --links 0,0.2 --trials 12 --json)" = 0
check "two levels" test "$(jqv 'length')" = 2
for key in level trials connected_fraction diameter_mean diameter_min diameter_p5 diameter_p50 \
    diameter_p95 diameter_std avg_path_length_mean avg_path_length_endpoints_p95; do
    check "key $key" test "$(jqv ".[0] | has(\"$key\")")" = true
done
check "level 0 diameter" test "$(jqv '.[0].diameter_mean')" = 2
check "level 0 apl" test "$(jqv '.[0].avg_path_length_p50 * 9 | round')" = 15
check "level 0 spread" test "$(jqv '.[0].avg_path_length_std')" = 0
check "level 0 connected" test "$(jqv '.[0].connected_fraction')" = 1
check "level 0.2 links" test "$(jqv '.[1].links_failed_mean')" = 3

# Same seed, 1 and 2 threads: the same bytes; another seed differs.
OMP_NUM_THREADS=1 "$MOORE" fail petersen --links 0.2 --independent --trials 8 --seed 4 \
    --metrics all --eps 0.2 --json >"$TMP/a"
OMP_NUM_THREADS=2 "$MOORE" fail petersen --links 0.2 --independent --trials 8 --seed 4 \
    --metrics all --eps 0.2 --json >"$TMP/b"
"$MOORE" fail petersen --links 0.2 --independent --trials 8 --seed 5 --metrics all \
    --eps 0.2 --json >"$TMP/c"
check "threads same bytes" cmp -s "$TMP/a" "$TMP/b"
check "seed matters" test -n "$(cmp "$TMP/a" "$TMP/c" 2>&1)"
check "throughput key" grep -q '"throughput_uniform_mean":' "$TMP/a"
check "bisection key" grep -q '"bisection_p5":' "$TMP/a"

# Text: a header and one row per level.
check "text exit 0" test "$(status "$MOORE" fail complete:n=8 --switches 0,0.25,0.75 --trials 5)" = 0
check "text rows" test "$(wc -l <"$TMP/out")" = 4

# A ring of 12 disconnects at the second link removal: exactly 2/12.
check "until exit 0" test "$(status "$MOORE" fail torus:dims=12 --until-disconnected --trials 30 --json)" = 0
check "ring mean" test "$(jqv '.links_at_disconnection_mean * 12 | round')" = 2
check "ring std" test "$(jqv '.links_at_disconnection_std')" = 0
check "switches mode" test "$(status "$MOORE" fail complete:n=6 --until-disconnected --switches --json)" = 0
check "K6 last switch" test "$(jqv '.switches_at_disconnection_min * 6 | round')" = 5
check "metric group" test "$(status "$MOORE" stats petersen --metrics resilience --json)" = 0
check "group key" test "$(jqv 'has("links_at_disconnection_p5")')" = true

# Bad input: exit 2, one line on stderr, nothing on stdout.
bad() { # name, args...
    local name=$1
    shift
    check "$name exit 2" test "$(status "$MOORE" fail "$@")" = 2
    check "$name one line" test "$(wc -l <"$TMP/err")" = 1
    check "$name no output" test ! -s "$TMP/out"
}
# Racks as `moore fail --racks` takes them: `moore layout`'s placement groups
# (slimfly:q=7: 7 groups of 14 switches, the switches (*,x,*) of one x), so one failed rack loses exactly 14 switches and every trial stays
# connected (diameter 3).
check "racks exit 0" test "$(status "$MOORE" fail slimfly:q=7 --racks 1 --trials 3 --metrics diameter --json)" = 0
check "one rack = 14 switches" test "$(jq '.[0].switches_failed_mean' "$TMP/out")" = 14
check "one rack: 14 switches lost" test "$(jq '.[0].switches_lost_mean' "$TMP/out")" = 14
check "one rack: 14 x 6 servers lost" test "$(jq '.[0].servers_lost_mean' "$TMP/out")" = 84
# links lost: every cable with an end in the group, counted from the cable plan
# by the switch labels (the same number for each of the 7 groups, so for
# whichever fails)
"$MOORE" layout slimfly:q=7 --cables "$TMP/sf7.csv" >/dev/null 2>&1
rack_links=$(python3 -c '
import csv, sys
at = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["kind"] != "switch":
        continue
    a, b = (n.strip("()").split(",")[1] for n in (r["from_name"], r["to_name"]))
    for g in {a, b}:
        at[g] = at.get(g, 0) + 1
v = set(at.values())
print(v.pop() if len(v) == 1 and len(at) == 7 else -1)' "$TMP/sf7.csv")
check "one rack: its cables lost ($rack_links)" test "$(jq '.[0].links_lost_mean' "$TMP/out")" = "$rack_links"
check "racks text: the lost columns" test "$(status "$MOORE" fail slimfly:q=7 --racks 1 --trials 2 \
    --metrics diameter)" = 0
check "racks text: switches_lost 14" awk 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
    NR == 2 { exit !($c["switches_lost"] == 14 && $c["servers_lost"] == 84) }' "$TMP/out"
check "bundles exit 0" test "$(status "$MOORE" fail xpander:d=10,k=21 --bundles 1 --trials 2 --metrics diameter --json)" = 0
check "one bundle = 21 links" test "$(jq '.[0].links_failed_mean' "$TMP/out")" = 21
bad "level above 1" petersen --links 1.5
bad "negative level" petersen --switches -0.1
bad "not a number" petersen --links 0.1,x
bad "zero trials" petersen --links 0.1 --trials 0
bad "absurd trials" petersen --links 0.1 --trials 100000000
bad "racks beyond the rack count" slimfly:q=7 --racks 8
bad "racks beyond the rack count, JSON" slimfly:q=7 --racks 8 --json
bad "racks fraction" slimfly:q=7 --racks 0.5
bad "unknown metric" petersen --links 0.1 --metrics girth
bad "two kinds" petersen --links 0.1 --switches 0.1
bad "no kind" petersen
bad "missing topo" --links 0.1
bad "independent alone" petersen --switches 0.1 --independent
bad "until with levels" petersen --until-disconnected --links 0.1
bad "eps without the throughput metric" petersen --links 0.1 --eps 0.1
check "eps with the throughput metric" test "$(status "$MOORE" fail petersen --links 0.1 --trials 2 \
    --metrics throughput_uniform --eps 0.2)" = 0
bad "until one switch" complete:n=1 --until-disconnected

echo "cli_fail: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
