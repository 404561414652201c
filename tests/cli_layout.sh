#!/usr/bin/env bash
# cli_layout.sh — the `moore layout` contract: keys, the cable CSV, exit codes,
# files whole or absent, and the `layout` metric group in stats.
#   bash cli_layout.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
key() { grep -Eo "\"$1\":[[:space:]]*[-0-9.e+]+" "$TMP/out" | grep -Eo '[-0-9.e+]+$'; }

# Slim Fly q=7: 7 groups of 14, 14 cables between every two groups (21 pairs).
check "slimfly exit 0" test "$(status "$MOORE" layout slimfly:q=7 --json --cables "$TMP/sf.csv" \
    --bom "$TMP/sf_bom.csv")" = 0
for k in cost_model groups switches_per_group_max racks switches_per_rack_max rack_units_max \
    chassis_radix cables cables_intra_rack cables_inter_rack cables_electrical cables_optical \
    cables_server cables_server_optical transceivers cable_length_total_m cable_length_max_m \
    group_pairs_linked bundle_max bundle_mean cost_switches cost_cables cost_server_cables \
    cost_optics cost_total cost_per_endpoint power_w power_per_endpoint_w; do
    check "key $k" grep -q "\"$k\":" "$TMP/out"
done
check "sf model" grep -q '"cost_model":[[:space:]]*"400g"' "$TMP/out"
check "sf groups" test "$(key groups)" = 7
check "sf group size" test "$(key switches_per_group_max)" = 14
check "sf bundle" test "$(key bundle_max)" = 14
check "sf pairs" test "$(key group_pairs_linked)" = 21
check "csv header" test "$(head -1 "$TMP/sf.csv")" = \
    "cable,kind,from,from_name,from_rack,from_row,from_col,from_u,from_port,to,to_name,to_rack,to_row,to_col,to_u,to_port,length_m,buy_m,type,from_end,to_end"
# q=7 (delta = -1): 98 switches of degree (3q+1)/2 = 11: 539 links, one row each,
# and p = ceil(11/2) = 6 servers each: 588 server rows.
check "csv switch rows" test "$(grep -c ',switch,' "$TMP/sf.csv")" = 539
check "csv server rows" test "$(grep -c ',server,' "$TMP/sf.csv")" = 588
check "csv names" grep -q '^0,switch,0,"(0,0,0)",' "$TMP/sf.csv"
check "bom header" test "$(head -1 "$TMP/sf_bom.csv")" = "item,type,length_m,count,unit_cost,cost"
check "bom switches" grep -q '^switch,.*,,98,' "$TMP/sf_bom.csv"
# the BOM's cable counts against the plan's rows grouped by type and bought length
plan_groups=$(tail -n +2 "$TMP/sf.csv" | awk -F, '{ print $(NF-2) "," $(NF-3) }' | sort | uniq -c |
    awk '{ print $2 "," $1 }' | sort)
bom_groups=$(grep '^cable,' "$TMP/sf_bom.csv" | awk -F, '{ gsub(/"/, "", $2); print $2 "," $3 "," $4 }' | sort)
check "bom = plan by type and length" test "$plan_groups" = "$bom_groups"

# Xpander d=10,k=21: 11 groups, 21 cables between every two.
check "xpander exit 0" test "$(status "$MOORE" layout xpander:d=10,k=21 --json)" = 0
check "xp groups" test "$(key groups)" = 11
check "xp bundle" test "$(key bundle_max)" = 21
check "xp pairs" test "$(key group_pairs_linked)" = 55

# A cap splits the super-nodes; text output is a table with grouped digits and dollars.
check "cap exit 0" test "$(status "$MOORE" layout xpander:d=10,k=21 --switches-per-rack 7)" = 0
check "cap groups" grep -Eq '^groups +33$' "$TMP/out"
check "money grouped" grep -Eq '^cost_total +\$[0-9]{1,3}(,[0-9]{3})+$' "$TMP/out"
check "no exponent" test -z "$(grep -E '[0-9]e[+-]?[0-9]' "$TMP/out")"

# Trunked HyperX: K rows per link.
check "hyperx exit 0" test "$(status "$MOORE" layout hyperx:L=2,S=4,K=2 --cables "$TMP/hx.csv")" = 0
check "hyperx rows" test "$(grep -c ',switch,' "$TMP/hx.csv")" = $((16 * 6 / 2 * 2))

# A model file with round prices changes the cost.
printf '{"switch_port_cost": 1, "port_power_w": 1, "transceiver_power_w": 0}\n' >"$TMP/model.json"
check "model exit 0" test "$(status "$MOORE" layout petersen --model "$TMP/model.json" --json)" = 0
check "model custom" grep -q '"cost_model":[[:space:]]*"custom"' "$TMP/out"
# Petersen, p = 1: 15 links (30 ports) + 10 servers = 40 ports, 1 W each.
check "model power" test "$(key power_w)" = 40
# The built-in 2014 model by name; compare and report take --model too.
check "model 2014" test "$(status "$MOORE" layout petersen --model 2014 --json)" = 0
check "model 2014 name" grep -q '"cost_model":[[:space:]]*"2014"' "$TMP/out"
# compare prices with the model it is given, as layout does
check "layout 2014" test "$(status "$MOORE" layout petersen --model 2014 --json)" = 0
cost2014=$(key cost_total)
check "compare --model" test "$(status "$MOORE" compare petersen --metrics layout --model 2014 --json)" = 0
check "compare model used" test "$(key cost_total)" = "$cost2014"
check "compare default" test "$(status "$MOORE" compare petersen --metrics layout --json)" = 0
check "compare default is not 2014" test "$(key cost_total)" != "$cost2014"
check "compare bad model" test "$(status "$MOORE" compare petersen --model 300g)" = 2
check "compare bad model one line" test "$(wc -l <"$TMP/err")" = 1
check "report bad model" test "$(status "$MOORE" report --model 300g -o "$TMP/r.html")" = 2
check "report bad model no file" test ! -e "$TMP/r.html"

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
check "bad bom path" test "$(status "$MOORE" layout petersen --cables "$TMP/d.csv" --bom "$TMP/no/such/b.csv")" = 2
check "bad bom path: no plan either" test ! -e "$TMP/d.csv"
check "missing model" test "$(status "$MOORE" layout slimfly:q=5 --model "$TMP/none.json")" = 2
check "missing topo" test "$(status "$MOORE" layout)" = 2
check "bad spec" test "$(status "$MOORE" layout slimfly:q=6)" = 2

echo "cli_layout: $passes passed, $fails failed"
test "$fails" = 0
