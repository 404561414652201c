#!/usr/bin/env bash
# cli_families_families.sh — the command line's contract for the low-diameter families of
# the field's papers (mlfm, oft, megafly, cascade, spectralfly, bundlefly,
# polarstar, delorme, brown): `moore families` lists them with their keys,
# `moore stats … --json` reports the closed-form sizes, and every impossible
# parameter exits 2 with exactly one line on stderr naming the rule.
# Run by ctest as: bash cli_families_families.sh MOORE SOURCE_DIR.
. "$(dirname "$0")/cli.bash" "$@"

check "moore families exits 0" test "$(status "$MOORE" families)" = 0
cat "$TMP/out" "$TMP/err" >"$TMP/families"
for f in mlfm oft megafly cascade spectralfly bundlefly polarstar delorme brown; do
    check "moore families lists $f" grep -q "^$f\b\|^ *$f\b" "$TMP/families"
done

# spec switches links diameter (closed forms of docs/families.md; -1: none)
while read -r spec switches links diameter; do
    check "stats $spec exits 0" test "$(status "$MOORE" stats "$spec" --json)" = 0
    check "$spec: switches $switches" test "$(json_int switches "$TMP/out")" = "$switches"
    check "$spec: links $links" test "$(json_int links "$TMP/out")" = "$links"
    [ "$diameter" = -1 ] || check "$spec: diameter $diameter" test "$(json_int diameter "$TMP/out")" = "$diameter"
done <<'LIST'
mlfm:h=4 30 80 4
oft:k=6 93 372 3
megafly:d=8,g=2 72 216 -1
cascade:g=2 192 1924 -1
spectralfly:s=5,q=13 2184 6552 -1
spectralfly:s=5,q=11 660 1980 -1
bundlefly:q=3,r=5 90 315 3
polarstar:q=3,jd=4 130 520 3
delorme:q=8 585 2600 3
brown:q=5 31 90 2
LIST

# spec, text the one-line message must contain
while read -r spec words; do
    refused "$spec" "$words" "$MOORE" stats "$spec" --json
done <<'LIST'
mlfm:h=0 h=0
oft:k=7 not a prime power
megafly:d=8,g=3 does not divide
cascade:g=242 outside 1..241
spectralfly:s=7,q=13 1 mod 4
spectralfly:s=13,q=5 2*sqrt(s)
bundlefly:q=5,r=7 1 mod 4
polarstar:q=7,jd=5 bdf joiner
polarstar:q=7,jd=3,joiner=paley prime power = 1 mod 4
delorme:q=4 odd power of 2
brown:q=6 not a prime power
LIST

# A refused build leaves no output file.
check "build delorme:q=16 exits 2" test "$(status "$MOORE" build delorme:q=16 -o "$TMP/d16.txt")" = 2
check "build delorme:q=16 leaves no file" test ! -e "$TMP/d16.txt"

summary cli_families_families
