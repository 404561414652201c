#!/usr/bin/env bash
# resilience_table.sh — the measured tables of docs/resilience.md: for each
# family's pick at radix R / N endpoints (`moore compare`, default 48 / 10,000):
#   1. the disconnection fractions of links and switches (1,000 trials each);
#   2. diameter, switch and server-to-server average path length after 5%, 10%
#      and 20% random link failures (exact fraction, TRIALS trials, default 100);
#   3. uniform-traffic throughput (proven lower bound, eps 0.1) at the same
#      levels over TPUT_TRIALS trials (default 10) and unfailed.
#   bench/resilience_table.sh [MOORE_BINARY] > table.md
# Prints markdown tables on stdout; wall-clock per family on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
MOORE=${1:-build/moore}
R=${RADIX:-48}
N=${ENDPOINTS:-10000}
TRIALS=${TRIALS:-100}
TPUT_TRIALS=${TPUT_TRIALS:-10}
LEVELS=0.05,0.1,0.2
SPECS=$("$MOORE" compare --radix "$R" --endpoints "$N" --metrics basic --json | jq -r '.[].topology')
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

f3() { jq -r "$1" "$2" | awk '{ if ($1 == "null") print "-"; else printf "%.3f\n", $1 }'; }

echo "### Disconnection fraction (1,000 trials, seed 1)"
echo
echo "| topology | switches | links | links: mean | p5 | min | switches: mean | p5 | min |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for s in $SPECS; do
    start=$(date +%s.%N)
    "$MOORE" stats "$s" --metrics basic --json >"$TMP/basic"
    "$MOORE" fail "$s" --until-disconnected --trials 1000 --json >"$TMP/l"
    "$MOORE" fail "$s" --until-disconnected --switches --trials 1000 --json >"$TMP/s"
    echo "| \`$s\` | $(jq .switches "$TMP/basic") | $(jq .links "$TMP/basic") |" \
        "$(f3 .links_at_disconnection_mean "$TMP/l") | $(f3 .links_at_disconnection_p5 "$TMP/l") |" \
        "$(f3 .links_at_disconnection_min "$TMP/l") |" \
        "$(f3 .switches_at_disconnection_mean "$TMP/s") | $(f3 .switches_at_disconnection_p5 "$TMP/s") |" \
        "$(f3 .switches_at_disconnection_min "$TMP/s") |"
    echo "disconnection $s: $(echo "$(date +%s.%N) - $start" | bc) s" >&2
done

echo
echo "### Path lengths after random link failures ($TRIALS trials per level, seed 1)"
echo
echo "Each cell: mean (std) [p5 – p95] over the trials; \`conn\` is connected_fraction."
echo
echo "| topology | failed | conn | diameter | avg_path_length | avg_path_length_endpoints |"
echo "|---|---:|---:|---|---|---|"
cell() { # metric, level index, file
    jq -r ".[$2] | [.$1_mean, .$1_std, .$1_p5, .$1_p95] | map(if . == null then \"-\" else (. * 10000 | round / 10000 | tostring) end) | \"\(.[0]) (\(.[1])) [\(.[2]) – \(.[3])]\"" "$3"
}
for s in $SPECS; do
    start=$(date +%s.%N)
    "$MOORE" fail "$s" --links 0,$LEVELS --trials "$TRIALS" --json >"$TMP/p"
    for i in 0 1 2 3; do
        echo "| \`$s\` | $(jq -r ".[$i].level * 100 | tostring + \"%\"" "$TMP/p") |" \
            "$(jq -r ".[$i].connected_fraction" "$TMP/p") | $(cell diameter $i "$TMP/p") |" \
            "$(cell avg_path_length $i "$TMP/p") | $(cell avg_path_length_endpoints $i "$TMP/p") |"
    done
    echo "paths $s: $(echo "$(date +%s.%N) - $start" | bc) s" >&2
done

echo
echo "### Uniform throughput after random link failures ($TPUT_TRIALS trials per level, eps 0.1, seed 1)"
echo
echo "Each cell: mean (std) [min – max] of the proven lower bound; \`rel std\` = std / mean."
echo
echo "| topology | unfailed | 5% | 10% | 20% | rel std at 10% |"
echo "|---|---:|---|---|---|---:|"
tcell() { # level index, file
    jq -r ".[$1] | [.throughput_uniform_mean, .throughput_uniform_std, .throughput_uniform_min, .throughput_uniform_max] | map(if . == null then \"-\" else (. * 10000 | round / 10000 | tostring) end) | \"\(.[0]) (\(.[1])) [\(.[2]) – \(.[3])]\"" "$2"
}
for s in $SPECS; do
    start=$(date +%s.%N)
    "$MOORE" fail "$s" --links 0 --trials 1 --metrics throughput_uniform --eps 0.1 --json >"$TMP/t0"
    "$MOORE" fail "$s" --links $LEVELS --trials "$TPUT_TRIALS" --metrics throughput_uniform \
        --eps 0.1 --json >"$TMP/t"
    echo "| \`$s\` | $(f3 '.[0].throughput_uniform_mean' "$TMP/t0") | $(tcell 0 "$TMP/t") |" \
        "$(tcell 1 "$TMP/t") | $(tcell 2 "$TMP/t") |" \
        "$(jq -r '.[1] | if .throughput_uniform_mean then (.throughput_uniform_std / .throughput_uniform_mean * 1000 | round / 1000) else "-" end' "$TMP/t") |"
    echo "throughput $s: $(echo "$(date +%s.%N) - $start" | bc) s" >&2
done
