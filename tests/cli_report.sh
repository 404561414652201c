#!/usr/bin/env bash
# cli_report.sh — `moore report` as a person and a tool see it: a small report is
# rendered by headless Chromium (Debian's package) to a PNG, then report_check.py
# checks the HTML, the figures' labels, the CSVs against the page, and the screenshot.
#   bash cli_report.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"

SMALL=(--radix 16 --endpoints 200 --sweep 60,120,200 --families clos,slimfly,xpander,jellyfish,fattree,dragonfly)
check "report exit 0" test "$(status "$MOORE" report "${SMALL[@]}" -o "$TMP/r.html" --data "$TMP/data")" = 0
check "says where" grep -q "report written to $TMP/r.html" "$TMP/err"
check "page exists" test -s "$TMP/r.html"

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
browse() { # chromium options...: headless Chromium, nothing fetched from outside
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$TMP/profile" "$@"
}
# As a reader sees page $TMP/$2.html in a 1,400 px window: the browser measures the table
# and every figure's texts (report_layout.js, run on a copy of the page; the page has no
# script). $1 names the check.
layout() {
    { cat "$TMP/$2.html"; echo "<script>"; cat "$SRC/tests/report_layout.js"; echo "</script>"; } >"$TMP/$2-lay.html"
    browse --window-size=1400,2000 --dump-dom "file://$TMP/$2-lay.html" >"$TMP/$2.dom" 2>/dev/null
    check "$1" grep -q '<pre id="layout-result">layout ok</pre>' "$TMP/$2.dom" ||
        sed -n '/<pre id="layout-result">/,/<\/pre>/p' "$TMP/$2.dom" | sed 's/^/    /' >&2
}
check "chromium installed (scripts/setup.sh installs Debian's chromium)" test -n "$CHROMIUM"
if [ -n "$CHROMIUM" ]; then
    browse --enable-logging=stderr --v=0 --window-size=1000,4000 --screenshot="$TMP/r.png" \
        "file://$TMP/r.html" >"$TMP/chromium.out" 2>"$TMP/chromium.err"
    check "screenshot made" test -s "$TMP/r.png"
    # Console messages: a missing resource or a script error would show here.
    check "browser reported no errors" bash -c "! grep -E 'CONSOLE|Failed to load|Uncaught|net::ERR' '$TMP/chromium.err'"
    check "page, figures and CSVs; the table is the figures' point at 200" python3 "$SRC/tests/report_check.py" "$TMP/r.html" "$TMP/data" "$TMP/r.png" 200
    layout "table fits 1,400 px; no figure text clipped or overlapping" r
fi

# --db: a tiny sweep of the configurations the report picks (bandwidth any: the planner's
# chosen rows at each endpoint count, as the sweep's "plan" entry expands them), then the
# page made from the database has the numbers of the page made by measuring.
FAMS=slimfly,xpander,jellyfish,fattree
ANY=(--radix 16 --endpoints 200 --sweep 60,120 --families "$FAMS" --bandwidth any)
cat >"$TMP/s.json" <<JSON
{ "metrics": ["basic", "paths", "spectral", "bisection", "layout"],
  "configs": [ {"plan": {"radix": 16, "endpoints": [200, 60, 120], "bandwidth": "any",
                         "families": ["slimfly", "xpander", "jellyfish", "fattree"]}} ] }
JSON
check "tiny sweep exit 0" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/s.db")" = 0
check "measured report exit 0" test "$(status "$MOORE" report "${ANY[@]}" -o "$TMP/m.html" --data "$TMP/md")" = 0

check "db report exit 0" test "$(status "$MOORE" report "${ANY[@]}" --db "$TMP/s.db" -o "$TMP/d.html" --data "$TMP/dd")" = 0
check "db report says it read everything" grep -q "read from it, 0 measured" "$TMP/d.html"
for f in switches cables cost diameter apl spectral distances throughput; do
    check "db report: $f.csv equals measuring" cmp -s "$TMP/md/$f.csv" "$TMP/dd/$f.csv"
done
check "db report: same main table" cmp -s <(sed -n '/compare-table/,/<\/table>/p' "$TMP/m.html") \
    <(sed -n '/compare-table/,/<\/table>/p' "$TMP/d.html")
check "missing db exit 2" test "$(status "$MOORE" report "${ANY[@]}" --db "$TMP/none.db" -o "$TMP/bad.html")" = 2
check "missing db one line" test "$(wc -l <"$TMP/err")" = 1
check "missing db not created" test ! -e "$TMP/none.db"
echo "not a database" >"$TMP/foreign.db"
check "foreign db exit 2" test "$(status "$MOORE" report "${ANY[@]}" --db "$TMP/foreign.db" -o "$TMP/bad.html")" = 2
check "foreign db untouched" test "$(cat "$TMP/foreign.db")" = "not a database"
check "foreign db no page" test ! -e "$TMP/bad.html"

# A training step (--job) on a one-point page: at any bandwidth the Clos is oversubscribed,
# so its bar stands above the ideal with bounds, the direct networks' at it.
STEP=(--radix 16 --endpoints 200 --sweep 200 --families clos,fattree,slimfly,jellyfish --bandwidth any
      --job moe:tp=4,pp=2,dp=8,ep=4,skew=1,place=random --link-rate 400)
check "report with a job exit 0" test "$(status "$MOORE" report "${STEP[@]}" -o "$TMP/s.html" --data "$TMP/sd")" = 0
check "the step figure is drawn" grep -q '<figure id="step"' "$TMP/s.html"
check "every step phase is in step.csv" test "$(cut -d, -f1 "$TMP/sd/step.csv" | sort -u | tr '\n' ' ')" = "dp ep_combine ep_dispatch pp series tp "
check "the oversubscribed Clos is slower than ideal" awk -F, '$2 == "clos" { c += $3 } $2 == "ideal" { i += $3 } END { exit !(c > 1.5 * i) }' "$TMP/sd/step.csv"
# The page's step of a row is `moore step`'s on that row's topology (same job, rate, placement).
for fam in slimfly clos; do
    spec=$(sed -n '/<table id="step-table">/,/<\/table>/p' "$TMP/s.html" | sed 's/<wbr>//g' |
           grep -o "<tr><td>$fam</td><td>[^<]*" | sed 's/.*<td>//')
    "$MOORE" step "$spec" --job moe:tp=4,pp=2,dp=8,ep=4,skew=1,place=random --link-rate 400 --json >"$TMP/step-$fam.json" 2>/dev/null
    check "report's $fam step is moore step's" awk -F, -v fam="$fam" -v want="$(jq .step_seconds_upper "$TMP/step-$fam.json")" \
        '$2 == fam { u += $5 } END { exit !(want > 0 && (u - want)^2 <= (2e-5 * want)^2) }' "$TMP/sd/step.csv"
done
if [ -n "$CHROMIUM" ]; then
    browse --window-size=1000,4000 --screenshot="$TMP/s.png" "file://$TMP/s.html" >/dev/null 2>&1
    check "step page: figures, CSVs, the step table against step.csv" python3 "$SRC/tests/report_check.py" "$TMP/s.html" "$TMP/sd" "$TMP/s.png" 200
    layout "step page: step figure fits 1,400 px with its legend and labels" s
fi

# Bad input: one line, exit 2, no page.
bad() { # name, args...
    local name=$1
    shift
    check "$name exit 2" test "$(status "$MOORE" report "$@" -o "$TMP/bad.html")" = 2
    check "$name one line" test "$(wc -l <"$TMP/err")" = 1
    check "$name no page" test ! -e "$TMP/bad.html"
}
bad "empty family list" --families ""
bad "sweep non-number" --sweep 1000,abc
bad "sweep empty" --sweep ""
bad "sweep not increasing" --sweep 1000,500
bad "unknown family" --families slimfly,nosuch
bad "job without link rate" --job llm:tp=2,pp=2,dp=2
bad "link rate not a number" --job llm:tp=2,pp=2,dp=2 --link-rate fast
bad "bad job" --job llm:tp=0 --link-rate 400
check "unwritable exit 2" test "$(status "$MOORE" report "${SMALL[@]}" -o "$TMP/no/dir/r.html")" = 2
check "unwritable one line" test "$(wc -l <"$TMP/err")" = 1
# Outputs are checked before the work: an unwritable page creates no --data
# directory; a --data that is a file is refused before anything is measured
# (with --progress, measuring would print progress lines before the refusal).
check "unwritable -o exit 2" test "$(status "$MOORE" report "${SMALL[@]}" -o "$TMP/no/dir/r.html" --data "$TMP/nodata")" = 2
check "unwritable -o: no --data directory" test ! -e "$TMP/nodata"
echo "a file" >"$TMP/datafile"
check "--data FILE exit 2" test "$(status "$MOORE" report "${SMALL[@]}" --progress -o "$TMP/df.html" --data "$TMP/datafile")" = 2
check "--data FILE: one line, before any work" test "$(wc -l <"$TMP/err")" = 1
check "--data FILE named" grep -q "datafile' exists and is not a directory" "$TMP/err"
check "--data FILE: no page" test ! -e "$TMP/df.html"
check "--data FILE untouched" test "$(cat "$TMP/datafile")" = "a file"

# 8 servers fit on one switch of radix 16: a row whose servers sit on one
# switch has no traffic to route, so no routed or failure numbers, not an error.
check "one-switch rows exit 0" test "$(status "$MOORE" report --radix 16 --endpoints 8 --sweep 8 \
    -o "$TMP/one.html")" = 0
check "one-switch rows: page" test -s "$TMP/one.html"

echo "cli_report: $passes passed, $fails failed"
[ "$fails" = 0 ]
