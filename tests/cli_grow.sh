#!/usr/bin/env bash
# cli_grow.sh — the contract of `moore grow` (docs/growth.md): per family and
# step the keys scripts rely on, step rows that add up, the Clos growing by
# pods without moving a cable, the same output for the same seed, text rows
# and the answer line, and bad input refused with one line and exit 2.
#   bash tests/cli_grow.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
tmp=$TMP

args=(grow --radix 12 --steps 60,130,200 --families jellyfish,xpander,clos,polarfly --batch 16)
check "grow --json exits 0" "$MOORE" "${args[@]}" --json > "$tmp/a.json"
check "grow rows lack the interface keys" jq -e '[.[] | select(.step != null)] | length > 0 and
    all(.[]; (.topology | type) == "string" and (.switches | type) == "number"
        and (.cables | type) == "number" and (.cables_added | type) == "number"
        and (.cables_removed | type) == "number" and (.cables_moved | type) == "number"
        and (.cost_step | type) == "number" and (.cost_total | type) == "number"
        and (.throughput_uniform | type) == "number" and (.throughput_uniform_upper | type) == "number"
        and .throughput_uniform <= .throughput_uniform_upper + 1e-9)' "$tmp/a.json" > /dev/null
check "a family lacks its three steps" jq -e '[.[] | select(.step != null) | .family] | group_by(.)
    | map(length) | all(. == 3)' "$tmp/a.json" > /dev/null
check "during bounds missing after the first step" jq -e 'all(.[] | select(.step != null and .step > 1);
    (.throughput_during | type) == "number"
    and .throughput_during <= .throughput_before_upper + 1e-9)' "$tmp/a.json" > /dev/null
check "steps do not add up" jq -e '[.[] | select(.step != null)] | group_by(.family) | all(.[];
    . as $s | all(range(1; length); $s[.].cables == $s[. - 1].cables - $s[.].cables_removed + $s[.].cables_added
        and ($s[.].cost_total - $s[. - 1].cost_total - $s[.].cost_step | fabs) < 1e-6))' \
    "$tmp/a.json" > /dev/null
check "clos moved or removed a cable" jq -e 'all(.[] | select(.family == "clos" and .step != null);
    .cables_removed == 0 and .cables_moved == 0)' "$tmp/a.json" > /dev/null
check "no path row names one cheapest family" jq -e '[.[] | select(.step == null and .cheapest)] | length == 1' \
    "$tmp/a.json" > /dev/null
check "grow --json again exits 0" "$MOORE" "${args[@]}" --json > "$tmp/b.json"
check "same seed, different plan" cmp -s "$tmp/a.json" "$tmp/b.json"

check "grow text exits 0" "$MOORE" "${args[@]}" > "$tmp/a.txt"
check "text rows missing" test "$(grep -c '^jellyfish ' "$tmp/a.txt")" -ge 3
check "no answer line" grep -q '^cheapest over the whole path: ' "$tmp/a.txt"

check "grow --plot exits 0" "$MOORE" "${args[@]}" --plot "$tmp/cost.svg" > /dev/null
check "--plot wrote no SVG" grep -q '<svg' "$tmp/cost.svg"
refused "--plot into a missing directory" "cannot write" "$MOORE" grow --radix 12 --steps 60 --plot "$tmp/no/such.svg"
check "--plot left a file behind after refusing" test ! -e "$tmp/no/such.svg"

# Bad input: exit 2, one line naming the rule.
refused "steps not increasing" "strictly increasing" "$MOORE" grow --radix 12 --steps 200,100
refused "batch 0" "--batch" "$MOORE" grow --radix 12 --steps 100,200 --batch 0
refused "unreachable step" "no family asked" "$MOORE" grow --radix 12 --steps 100,1000000000
refused "no steps" "--steps" "$MOORE" grow --radix 12
refused "bad step" "server count" "$MOORE" grow --radix 12 --steps 100,abc
refused "unknown family" "families" "$MOORE" grow --radix 12 --steps 100 --families jellyfsh

summary cli_grow
