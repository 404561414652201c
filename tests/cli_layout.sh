#!/usr/bin/env bash
# cli_layout.sh — the `moore layout` contract: keys, the cable CSV, exit codes,
# files whole or absent, and the `layout` metric group in stats.
#   bash cli_layout.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
key() { grep -Eo "\"$1\":[[:space:]]*[-0-9.e+]+" "$TMP/out" | grep -Eo '[-0-9.e+]+$'; }

# Slim Fly q=7: 7 racks of 14, 14 cables between every two (21 pairs).
check "slimfly exit 0" test "$(status "$MOORE" layout slimfly:q=7 --json --cables "$TMP/sf.csv")" = 0
for k in racks switches_per_rack_max cables cables_intra_rack cables_inter_rack \
    cables_electrical cables_optical cable_length_total_m cable_length_max_m rack_pairs_linked \
    bundle_max bundle_mean cost_switches cost_cables cost_total cost_per_endpoint power_w \
    power_per_endpoint_w; do
    check "key $k" grep -q "\"$k\":" "$TMP/out"
done
check "sf racks" test "$(key racks)" = 7
check "sf rack size" test "$(key switches_per_rack_max)" = 14
check "sf bundle" test "$(key bundle_max)" = 14
check "sf pairs" test "$(key rack_pairs_linked)" = 21
check "csv header" test "$(head -1 "$TMP/sf.csv")" = \
    "cable,from_switch,from_rack,from_port,to_switch,to_rack,to_port,length_m,type"
# q=7 (delta = -1): 98 switches of degree (3q+1)/2 = 11: 539 links, one row each.
check "csv rows" test "$(($(wc -l <"$TMP/sf.csv") - 1))" = 539
check "csv types" test "$(tail -n +2 "$TMP/sf.csv" | cut -d, -f9 | sort -u | tr '\n' ' ')" = \
    "electrical optical "

# Xpander d=10,k=21: 11 racks, 21 cables between every two.
check "xpander exit 0" test "$(status "$MOORE" layout xpander:d=10,k=21 --json)" = 0
check "xp racks" test "$(key racks)" = 11
check "xp bundle" test "$(key bundle_max)" = 21
check "xp pairs" test "$(key rack_pairs_linked)" = 55

# A cap splits the super-nodes; text output is a table.
check "cap exit 0" test "$(status "$MOORE" layout xpander:d=10,k=21 --switches-per-rack 7)" = 0
check "cap racks" grep -Eq '^racks +33$' "$TMP/out"

# Trunked HyperX: K rows per link.
check "hyperx exit 0" test "$(status "$MOORE" layout hyperx:L=2,S=4,K=2 --cables "$TMP/hx.csv")" = 0
check "hyperx rows" test "$(($(wc -l <"$TMP/hx.csv") - 1))" = $((16 * 6 / 2 * 2))

# A model file with round prices changes the cost.
printf '{"switch_port_cost": 1, "port_power_w": 1}\n' >"$TMP/model.json"
check "model exit 0" test "$(status "$MOORE" layout petersen --model "$TMP/model.json" --json)" = 0
# Petersen, p = 1: 15 links (30 ports) + 10 servers = 40 ports, 1 W each.
check "model power" test "$(key power_w)" = 40

# The metric group.
check "stats exit 0" test "$(status "$MOORE" stats slimfly:q=5 --metrics layout --json)" = 0
check "stats cost_total" grep -q '"cost_total":' "$TMP/out"

# Bad input: exit 2, one line, nothing written.
check "cap 0" test "$(status "$MOORE" layout slimfly:q=5 --switches-per-rack 0 --cables "$TMP/a.csv")" = 2
check "cap 0 one line" test "$(wc -l <"$TMP/err")" = 1
check "cap 0 no file" test ! -e "$TMP/a.csv"
printf '{"optical_cable_per_m": -3}\n' >"$TMP/neg.json"
check "negative price" test "$(status "$MOORE" layout slimfly:q=5 --model "$TMP/neg.json" --cables "$TMP/b.csv")" = 2
check "negative one line" test "$(wc -l <"$TMP/err")" = 1
check "negative no file" test ! -e "$TMP/b.csv"
check "negative no stdout" test ! -s "$TMP/out"
# A cable plan that fills the disk on the way names the file and the reason.
if [ -w /dev/full ]; then
    refused "cable plan on a full disk" "cannot write '/dev/full': No space left on device" \
        "$MOORE" layout slimfly:q=13 --cables /dev/full
fi
# A model is refused, not half-read: a key twice, a value whose totals would
# overflow to inf (1e308) or that is inf itself (1e400), text after the object.
for m in '{"aisle_m": 1, "aisle_m": 2}:twice' '{"switch_port_cost": 1e308}:above' \
    '{"electrical_max_m": 1e400}:above' '{"aisle_m": 1} {"aisle_m": 2}:alone'; do
    printf '%s\n' "${m%:*}" >"$TMP/m.json"
    refused "model ${m%:*}" "${m##*:}" "$MOORE" layout petersen --model "$TMP/m.json" --json
done
printf '{"switch_port_cost": "cheap"}\n' >"$TMP/nan.json"
check "non-numeric price" test "$(status "$MOORE" layout slimfly:q=5 --model "$TMP/nan.json" --cables "$TMP/c.csv")" = 2
check "non-numeric one line" test "$(wc -l <"$TMP/err")" = 1
check "non-numeric no file" test ! -e "$TMP/c.csv"
check "missing model" test "$(status "$MOORE" layout slimfly:q=5 --model "$TMP/none.json")" = 2
check "missing topo" test "$(status "$MOORE" layout)" = 2
check "bad spec" test "$(status "$MOORE" layout slimfly:q=6)" = 2

echo "cli_layout: $passes passed, $fails failed"
test "$fails" = 0
