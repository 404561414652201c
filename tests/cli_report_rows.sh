#!/usr/bin/env bash
# cli_report_rows.sh — `moore report --rows FILE`: the page made from the rows `moore compare
# --json=lines` wrote is the page made by searching again (the same comparison table, every
# figure's numbers, the recommendation and the claims), each table row is compare's row, and
# a file that is not compare's output for the page's options is refused.
#   bash cli_report_rows.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"

FAMS=clos,slimfly,xpander,jellyfish,fattree,dragonfly
PAGE=(--radix 16 --endpoints 200 --sweep 60,200 --families "$FAMS")
# compare over more families than the page's: the page takes the rows of its own families.
check "compare exit 0" test "$(status "$MOORE" compare --radix 16 --endpoints 200 \
    --families "$FAMS,hyperx,polarfly" --json=lines)" = 0
cp "$TMP/out" "$TMP/c.jsonl"
check "standalone report exit 0" test "$(status "$MOORE" report "${PAGE[@]}" -o "$TMP/a.html" --data "$TMP/ad")" = 0
check "rows report exit 0" test "$(status "$MOORE" report "${PAGE[@]}" --rows "$TMP/c.jsonl" -o "$TMP/b.html" --data "$TMP/bd")" = 0

part() { # table id, page: that table, from its opening tag to its end
    sed -n "/<table id=\"$1\">/,/<\/table>/p" "$2"; }
check "both tables found" test -n "$(part compare-table "$TMP/b.html")" -a -n "$(part claims-table "$TMP/b.html")"
check "same comparison table" cmp -s <(part compare-table "$TMP/a.html") <(part compare-table "$TMP/b.html")
check "same recommendation" cmp -s <(grep 'id="recommendation"' "$TMP/a.html") <(grep 'id="recommendation"' "$TMP/b.html")
check "same claims table" cmp -s <(part claims-table "$TMP/a.html") <(part claims-table "$TMP/b.html")
check "the standalone page drew figures" test "$(ls "$TMP/ad" | wc -l)" -ge 10
for f in "$TMP"/ad/*.csv; do
    check "$(basename "$f") equals the standalone page's" cmp -s "$f" "$TMP/bd/$(basename "$f")"
done

# Each row of the table is compare's: its topology, switches and cost, in compare's order,
# for exactly the page's families (jq reads compare's file independently of moore).
want=$(jq -r --arg f "$FAMS" 'select(.family as $x | $f | split(",") | index($x)) |
       "\(.topology) \(.switches) \(.cost_total)"' "$TMP/c.jsonl")
got=$(part compare-table "$TMP/b.html" | sed 's/<wbr>//g' | grep '^<tr><td>' |
      sed 's/<\/td><td>/|/g; s/<[^>]*>//g' | awk -F'|' '{ gsub(",", "", $3); gsub(",", "", $14);
      print $2, $3, $14 }')
check "table rows are compare's rows (topology, switches, cost)" test -n "$want" -a "$want" = "$got"
check "a family without a row is named" grep -q "dragonfly: no row in" "$TMP/b.html"
check "the page says where its rows come from" grep -q "rows were read from $TMP/c.jsonl" "$TMP/b.html"

# Not compare's output for the page's options: one line, exit 2, no page, no --data directory.
bad() { # name, words, rows file
    check "$1 refused" refusal "$2" "$MOORE" report "${PAGE[@]}" --rows "$3" -o "$TMP/bad.html" --data "$TMP/baddata"
    check "$1: no page" test ! -e "$TMP/bad.html"
    check "$1: no --data directory" test ! -e "$TMP/baddata"
}
bad "missing rows file" "'$TMP/none.jsonl' cannot be read" "$TMP/none.jsonl"
echo "not json" >"$TMP/text.jsonl"
bad "a line that is no row" "line 1 of the rows file" "$TMP/text.jsonl"
"$MOORE" compare --radix 16 --endpoints 100 --families "$FAMS" --json=lines >"$TMP/small.jsonl" 2>/dev/null
bad "rows of fewer servers" "fewer than --endpoints 200" "$TMP/small.jsonl"
"$MOORE" compare --radix 24 --endpoints 200 --families "$FAMS" --json=lines >"$TMP/r24.jsonl" 2>/dev/null
bad "rows of a larger radix" "more than --radix 16" "$TMP/r24.jsonl"
"$MOORE" compare --radix 16 --endpoints 200 --families "$FAMS" --bandwidth any --json=lines >"$TMP/any.jsonl" 2>/dev/null
bad "rows not proven to reach the bandwidth" "not proven to reach bandwidth 1" "$TMP/any.jsonl"

summary cli_report_rows
