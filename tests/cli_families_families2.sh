#!/usr/bin/env bash
# cli_families_families2.sh — the command line's contract for hypercube, mesh,
# flatbutterfly, karyntree, xgft, kautz, arrangement and tofu: each family is
# listed by `moore families`, one good SPEC builds to a file whose switch
# count is the paper's, and every bad parameter exits 2 with exactly one line
# on stderr ("moore: …" naming the rule) and no output file.
# Run by ctest as: bash cli_families_families2.sh MOORE SOURCE_DIR.
. "$(dirname "$0")/cli.bash" "$@"

families=$("$MOORE" families 2>&1)
# family, a good SPEC, its switch count
while read -r fam spec switches; do
    check "$fam listed" grep -qw -- "$fam" <<<"$families"
    check "stats $spec exits 0" test "$(status "$MOORE" stats "$spec" --json)" = 0
    check "$spec: switches $switches" test "$(json_int switches "$TMP/out")" = "$switches"
done <<'LIST'
hypercube hypercube:n=6 64
mesh mesh:dims=4x5 20
flatbutterfly flatbutterfly:n=3,k=4 16
karyntree karyntree:k=4,n=3 48
xgft xgft:h=2,m=4.8,w=4.4 80
kautz kautz:b=2,n=4 24
arrangement arrangement:n=5,k=2 20
tofu tofu:dims=2x2x2 96
LIST

# a bad SPEC and a word its one-line message must contain
while read -r spec needle; do
    refused "$spec" "$needle" "$MOORE" build "$spec" -o "$TMP/result"
    check "$spec: no output file" test ! -e "$TMP/result"
    rm -f "$TMP/result"
done <<'LIST'
hypercube:n=0 n=0
hypercube:n=4,radix=4 radix=4
mesh:dims=4x1 at least 2
tofu:dims=4x4 three torus dimensions
flatbutterfly:n=3,k=1 k=1
karyntree:k=4,n=1 n=1
xgft:h=2,m=4.4,w=4 fewer than h=2
xgft:h=2,m=4.1,w=4.4 entry 2 of m=4.1
kautz:b=1,n=3 b=1
arrangement:n=5,k=5 must be below n=5
LIST

summary cli_families_families2
