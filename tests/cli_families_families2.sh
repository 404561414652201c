#!/usr/bin/env bash
# cli_families_families2.sh — the command line's contract for hypercube, mesh,
# flatbutterfly, karyntree, xgft, kautz, arrangement and tofu: each family is
# listed by `moore families`, one good SPEC builds to a file whose switch
# count is the paper's, and every bad parameter exits 2 with exactly one line
# on stderr ("moore: …" naming the rule) and no output file.
# Run by ctest as: bash cli_families_families2.sh MOORE SOURCE_DIR.
set -u
moore=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

families=$("$moore" families 2>&1)
# family, a good SPEC, its switch count
while read -r fam spec switches; do
    grep -qw -- "$fam" <<<"$families" || fail "$fam not listed"
    if ! "$moore" stats "$spec" --json >"$tmp/out.json" 2>"$tmp/err"; then
        fail "stats $spec exited non-zero: $(cat "$tmp/err")"
        continue
    fi
    got=$(sed -n 's/^[[:space:]]*"switches":[[:space:]]*\([0-9]*\).*/\1/p' "$tmp/out.json")
    [ "$got" = "$switches" ] || fail "$spec: switches $got != $switches"
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
    "$moore" build "$spec" -o "$tmp/result" >"$tmp/stdout" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$spec: exit $rc, not 2"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$spec: $(wc -l <"$tmp/err") lines on stderr, not 1"
    grep -q '^moore: ' "$tmp/err" || fail "$spec: stderr does not start with 'moore: '"
    grep -qF -- "$needle" "$tmp/err" || fail "$spec: stderr '$(cat "$tmp/err")' lacks '$needle'"
    [ ! -e "$tmp/result" ] || fail "$spec: left an output file"
    rm -f "$tmp/result"
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

[ "$failures" -eq 0 ] || exit 1
echo "cli_families_families2: ok"
