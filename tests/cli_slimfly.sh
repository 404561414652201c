#!/usr/bin/env bash
# cli_slimfly.sh — the command line's Slim Fly contract: the commonly quoted 48-port
# table from `moore stats … --json`, and bad q / radix refused with exit 2 and
# one line on stderr. Run by ctest as: bash cli_slimfly.sh MOORE SOURCE_DIR.
. "$(dirname "$0")/cli.bash" "$@"

# q switches degree endpoints, as in the table of docs/slimfly.md.
while read -r q switches degree endpoints; do
    out=$TMP/q$q.json
    check "stats slimfly:q=$q,radix=48 exits 0" test "$(status "$MOORE" stats "slimfly:q=$q,radix=48" --json)" = 0
    cp "$TMP/out" "$out"
    check "q=$q: switches $switches" test "$(json_int switches "$out")" = "$switches"
    check "q=$q: degree_max $degree" test "$(json_int degree_max "$out")" = "$degree"
    check "q=$q: degree_min $degree" test "$(json_int degree_min "$out")" = "$degree"
    check "q=$q: endpoints $endpoints" test "$(json_int endpoints "$out")" = "$endpoints"
    check "q=$q: radix 48" test "$(json_int radix "$out")" = 48
    check "q=$q: diameter 2" test "$(json_int diameter "$out")" = 2
done <<'LIST'
5 50 7 2050
13 338 19 9802
17 578 25 13294
29 1682 43 8410
LIST

# Refusals: exit 2, exactly one line on stderr, naming q and the rule.
refused "q=37,radix=48" "radix=48" "$MOORE" stats slimfly:q=37,radix=48 --json
check "q=37,radix=48: message names q" grep -qF "q=37" "$TMP/err"
for q in 2 6 10 12 14 15 18 21; do
    refused "q=$q" "q=$q " "$MOORE" stats "slimfly:q=$q" --json
    check "q=$q: message names the rule" grep -qE "prime power|2 mod 4" "$TMP/err"
done
refused "q=2: 2 mod 4" "2 mod 4" "$MOORE" stats slimfly:q=2 --json
refused "q=5,radix=7" "radix=7" "$MOORE" stats slimfly:q=5,radix=7 --json
refused "p and radix" "not both" "$MOORE" stats slimfly:q=5,p=1,radix=48 --json
refused "no q" "q=" "$MOORE" stats slimfly --json

# The edge list names the family in its header and holds q^2 k' = 175 links.
check "build slimfly:q=5 exits 0" test "$(status "$MOORE" build slimfly:q=5 -o "$TMP/sf5.txt")" = 0
check "edge list header names the family" grep -q "^# family: slimfly" "$TMP/sf5.txt"
check "edge list of q=5 has 175 links" test "$(grep -vc '^#' "$TMP/sf5.txt")" = 175

summary cli_slimfly
