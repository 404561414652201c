#!/usr/bin/env bash
# ib_scale.sh — the time to write moore's tables and to load them into a
# fabric of 1,000+ switches on the real subnet manager (docs/deploy.md):
# `moore deploy TOPO --ib` (tables written), then OpenSM over ibsim in a
# network namespace of its own (tests/deploy_opensm_fabric.sh, as the tests run
# it) once with the file engine loading them and once with minhop computing its
# own, then `moore route --lfts` reading the loaded tables back.
#
#   sudo bench/ib_scale.sh [MOORE_BINARY] > table.md
#
# TOPO (default slimfly:q=23,p=10: 1,058 switches, 10,580 HCAs; ibsim holds
# at most 16,384 nodes), ENGINES (default "file minhop"), OSM_TIMEOUT (s,
# default 3600) override. Columns: write s, `moore deploy`'s wall time and
# peak memory; then per engine: OpenSM's log from "Entering MASTER state" to
# "tables configured" (LID assignment, routing or reading the file, writing
# every switch's table through ibsim), OpenSM's whole run (start, discovery
# sweep, tables, exit), the peak resident size of the largest process
# (OpenSM or ibsim: GNU time's maximum over the waited processes), and the
# read back (`moore route --lfts`, with its peak memory). One run each, wall
# clock on a shared machine: the load is printed with the table.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
MOORE=$(realpath "${1:-build/moore}")
HERE=$(pwd)/tests
TOPO=${TOPO:-slimfly:q=23,p=10}
ENGINES=${ENGINES:-"file minhop"}
export OSM_TIMEOUT=${OSM_TIMEOUT:-3600}
export IBSIM_PORTS=${IBSIM_PORTS:-131072} # every switch and HCA port, with room
. bench/ib_common.bash
ib_require ib_scale.sh opensm ibsim dump_fts unshare jq bc /usr/bin/time
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

# field FILE KEY: a value GNU time wrote with -f "wall %e rss %M".
field() { sed -n "s/.*$2 \([0-9.]*\).*/\1/p" "$1" | tail -1; }

echo "date $(date -u '+%F %T') UTC; load at start: $(uptime | sed 's/.*load average: //')"
/usr/bin/time -f "wall %e rss %M" -o "$D/write.time" \
    "$MOORE" deploy "$TOPO" --ib "$D" --algo ecmp --json >"$D/deploy.json" || exit 1
echo
echo "| topology | switches | HCAs | LFT entries | write s | write MB |"
echo "|---|---:|---:|---:|---:|---:|"
printf '| %s | %s | %s | %s | %s | %.0f |\n' "$TOPO" "$(jq .switches "$D/deploy.json")" \
    "$(jq .hcas "$D/deploy.json")" "$(jq .table_entries "$D/deploy.json")" \
    "$(field "$D/write.time" wall)" "$(echo "$(field "$D/write.time" rss) / 1024" | bc -l)"
echo
echo "| engine | tables configured s | OpenSM run s | peak MB (OpenSM or ibsim) | read back s | read back MB | hops max | θ uniform |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for engine in $ENGINES; do
    if ! /usr/bin/time -f "wall %e rss %M" -o "$D/$engine.time" timeout -k 5 $((OSM_TIMEOUT + 120)) \
        unshare -n bash "$HERE/deploy_opensm_fabric.sh" "$D" "$engine" 0 >/dev/null 2>&1; then
        echo "| $engine | failed (see osm.log) | | | | | | |"
        continue
    fi
    log=$D/osm.$engine/osm.log
    secs=$(echo "$(stamp "$(grep -m1 "$engine tables configured" "$log")") - \
        $(stamp "$(grep -m1 'Entering MASTER state' "$log")")" | bc)
    run=$(echo "$(stamp "$(tail -1 "$log")") - $(stamp "$(head -1 "$log")")" | bc)
    /usr/bin/time -f "wall %e rss %M" -o "$D/rb.time" "$MOORE" route --lfts "$D/fts.$engine" \
        --fabric "$D/fabric.topo" --tm uniform --json >"$D/rb.json" 2>/dev/null ||
        { echo "| $engine | $secs | $run | | read back failed | | | |"; continue; }
    printf '| %s | %.1f | %.1f | %.0f | %s | %.0f | %s | %.3f |\n' "$engine" "$secs" "$run" \
        "$(echo "$(field "$D/$engine.time" rss) / 1024" | bc -l)" "$(field "$D/rb.time" wall)" \
        "$(echo "$(field "$D/rb.time" rss) / 1024" | bc -l)" "$(jq .hops_max "$D/rb.json")" \
        "$(jq .throughput "$D/rb.json")"
done
echo
echo "load at end: $(uptime | sed 's/.*load average: //')"
