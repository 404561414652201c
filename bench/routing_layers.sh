#!/usr/bin/env bash
# routing_layers.sh — what the deadlock layering costs in `moore route`, two
# builds side by side in one run: for each command, BEFORE and AFTER with the
# layering and with --no-layers (the paths alone), wall and CPU seconds and
# peak memory from /usr/bin/time, the load average next to each row, and
# whether the two builds print the same JSON (same layers, same union graph).
#   bench/routing_layers.sh BEFORE_BINARY AFTER_BINARY
# Prints the markdown rows of docs/performance.md's layering table.
set -euo pipefail
BEFORE=${1:?usage: routing_layers.sh BEFORE_BINARY AFTER_BINARY}
AFTER=${2:?usage: routing_layers.sh BEFORE_BINARY AFTER_BINARY}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CASES=${CASES:-"slimfly:q=13|ksp:k=8 slimfly:q=29|ksp:k=8 slimfly:q=29|ecmp"}

# run NAME BINARY ARGS...: "wall cpu MB" of one run; its JSON in $TMP/NAME.json
run() {
    local name=$1 bin=$2
    shift 2
    /usr/bin/time -f "%e %U %S %M" -o "$TMP/$name.time" nice "$bin" route "$@" --json \
        >"$TMP/$name.json"
    awk '{ printf "%.2f %.2f %.0f", $1, $2 + $3, $4 / 1024 }' "$TMP/$name.time"
}

echo "threads: $OMP_NUM_THREADS; $(date -u +%F); load at start: $(uptime | sed 's/.*load average: //')"
echo "| command | before: wall, CPU (s) | after: wall, CPU (s) | --no-layers before / after: wall, CPU (s) | layers | same JSON | load |"
echo "|---|---|---|---|---|---|---|"
for c in $CASES; do
    topo=${c%%|*} algo=${c#*|}
    read -r bw bc bm <<<"$(run b "$BEFORE" "$topo" --algo "$algo")"
    read -r aw ac am <<<"$(run a "$AFTER" "$topo" --algo "$algo")"
    read -r nbw nbc _ <<<"$(run nb "$BEFORE" "$topo" --algo "$algo" --no-layers)"
    read -r naw nac _ <<<"$(run na "$AFTER" "$topo" --algo "$algo" --no-layers)"
    same=no
    cmp -s "$TMP/b.json" "$TMP/a.json" && same=yes
    echo "| \`moore route $topo --algo $algo --json\` | $bw, $bc ($bm MB) | $aw, $ac ($am MB)" \
         "| $nbw, $nbc / $naw, $nac | $(jq .layers "$TMP/a.json") | $same" \
         "| $(uptime | sed 's/.*load average: //; s/,.*//') |"
done
echo "load at end: $(uptime | sed 's/.*load average: //') (wall times under load are upper bounds)"
