#!/usr/bin/env bash
# cli_families_families.sh — the command line's contract for the families of
# issue 17 part A (mlfm, oft, megafly, cascade, spectralfly, bundlefly,
# polarstar, delorme, brown): `moore families` lists them with their keys,
# `moore stats … --json` reports the closed-form sizes, and every impossible
# parameter exits 2 with exactly one line on stderr naming the rule.
# Run by ctest as: bash cli_families_families.sh MOORE SOURCE_DIR.
set -u
moore=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

json_int() {
    sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\(-\{0,1\}[0-9][0-9]*\)[,[:space:]]*$/\1/p" "$2"
}

"$moore" families >"$tmp/families" 2>&1 || fail "moore families exited non-zero"
for f in mlfm oft megafly cascade spectralfly bundlefly polarstar delorme brown; do
    grep -q "^$f\b\|^ *$f\b" "$tmp/families" || fail "moore families does not list $f"
done

# spec switches links diameter (closed forms of docs/families.md; -1: none)
while read -r spec switches links diameter; do
    if ! "$moore" stats "$spec" --json >"$tmp/out" 2>"$tmp/err"; then
        fail "stats $spec exited non-zero: $(cat "$tmp/err")"
        continue
    fi
    [ "$(json_int switches "$tmp/out")" = "$switches" ] || fail "$spec: switches $(json_int switches "$tmp/out") != $switches"
    [ "$(json_int links "$tmp/out")" = "$links" ] || fail "$spec: links $(json_int links "$tmp/out") != $links"
    [ "$diameter" = -1 ] || [ "$(json_int diameter "$tmp/out")" = "$diameter" ] ||
        fail "$spec: diameter $(json_int diameter "$tmp/out") != $diameter"
done <<'EOF2'
mlfm:h=4 30 80 4
oft:k=6 93 372 3
megafly:d=8,g=2 72 216 -1
cascade:g=2 192 1924 -1
spectralfly:s=5,q=13 2184 6552 -1
bundlefly:q=3,r=5 90 315 3
polarstar:q=3,jd=4 130 520 3
delorme:q=8 585 2600 3
brown:q=5 31 90 2
EOF2

expect_refusal() { # spec, text the message must contain
    "$moore" stats "$1" --json >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 2 ] || fail "$1: exit status $rc, expected 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$1: stderr is not one line: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$1: printed on stdout"
    grep -q "^moore: " "$tmp/err" || fail "$1: stderr does not start with 'moore: '"
    grep -qF -- "$2" "$tmp/err" || fail "$1: stderr lacks '$2': $(cat "$tmp/err")"
}

expect_refusal "mlfm:h=0" "h=0"
expect_refusal "oft:k=7" "not a prime power"
expect_refusal "megafly:d=8,g=3" "does not divide"
expect_refusal "cascade:g=242" "outside 1..241"
expect_refusal "spectralfly:s=7,q=13" "1 mod 4"
expect_refusal "spectralfly:s=13,q=5" "2*sqrt(s)"
expect_refusal "bundlefly:q=5,r=7" "1 mod 4"
expect_refusal "polarstar:q=7,jd=5" "bdf joiner"
expect_refusal "polarstar:q=7,jd=3,joiner=paley" "prime power = 1 mod 4"
expect_refusal "delorme:q=4" "odd power of 2"
expect_refusal "brown:q=6" "not a prime power"

# A refused build leaves no output file.
"$moore" build "delorme:q=16" -o "$tmp/d16.txt" 2>"$tmp/err"
[ $? = 2 ] || fail "build delorme:q=16: exit status not 2"
[ -e "$tmp/d16.txt" ] && fail "build delorme:q=16 left a file"

[ "$failures" = 0 ] || exit 1
echo "cli_families_families: all checks passed"
