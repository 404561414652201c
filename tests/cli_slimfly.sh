#!/usr/bin/env bash
# cli_slimfly.sh — the command line's Slim Fly contract: the commonly quoted 48-port
# table from `moore stats … --json`, and bad q / radix refused with exit 2 and
# one line on stderr. Run by ctest as: bash cli_slimfly.sh MOORE SOURCE_DIR.
set -u
moore=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# The integer value of a top-level key in moore's JSON (one key a line).
json_int() {
    sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\(-\{0,1\}[0-9][0-9]*\)[,[:space:]]*$/\1/p" "$2"
}

# q switches degree endpoints, as in the table of docs/slimfly.md.
while read -r q switches degree endpoints; do
    out=$tmp/q$q.json
    if ! "$moore" stats "slimfly:q=$q,radix=48" --json >"$out" 2>"$tmp/err"; then
        fail "stats slimfly:q=$q,radix=48 exited non-zero: $(cat "$tmp/err")"
        continue
    fi
    [ "$(json_int switches "$out")" = "$switches" ] || fail "q=$q: switches $(json_int switches "$out") != $switches"
    [ "$(json_int degree_max "$out")" = "$degree" ] || fail "q=$q: degree_max $(json_int degree_max "$out") != $degree"
    [ "$(json_int degree_min "$out")" = "$degree" ] || fail "q=$q: degree_min $(json_int degree_min "$out") != $degree"
    [ "$(json_int endpoints "$out")" = "$endpoints" ] || fail "q=$q: endpoints $(json_int endpoints "$out") != $endpoints"
    [ "$(json_int radix "$out")" = 48 ] || fail "q=$q: radix $(json_int radix "$out") != 48"
    [ "$(json_int diameter "$out")" = 2 ] || fail "q=$q: diameter $(json_int diameter "$out") != 2"
done <<'EOF'
5 50 7 2050
13 338 19 9802
17 578 25 13294
29 1682 43 8410
EOF

# Refusals: exit 2, exactly one line on stderr, naming q and the rule.
expect_refusal() { # spec, text the message must contain
    "$moore" stats "$1" --json >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" = 2 ] || fail "$1: exit status $rc, expected 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$1: stderr is not one line: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$1: printed on stdout"
    grep -q "^moore: " "$tmp/err" || fail "$1: stderr does not start with 'moore: '"
    grep -qF -- "$2" "$tmp/err" || fail "$1: stderr lacks '$2': $(cat "$tmp/err")"
}

expect_refusal "slimfly:q=37,radix=48" "radix=48"
grep -qF "q=37" "$tmp/err" || fail "q=37,radix=48: message does not name q"
for q in 2 6 10 12 14 15 18 21; do
    expect_refusal "slimfly:q=$q" "q=$q "
    grep -qE "prime power|2 mod 4" "$tmp/err" || fail "q=$q: message names no rule: $(cat "$tmp/err")"
done
expect_refusal "slimfly:q=2" "2 mod 4"
expect_refusal "slimfly:q=5,radix=7" "radix=7"
expect_refusal "slimfly:q=5,p=1,radix=48" "not both"
expect_refusal "slimfly" "q="

# The edge list names the family in its header and holds q^2 k' = 175 links.
if "$moore" build "slimfly:q=5" -o "$tmp/sf5.txt" 2>"$tmp/err"; then
    grep -q "^# family: slimfly" "$tmp/sf5.txt" || fail "edge list header lacks the family"
    [ "$(grep -vc '^#' "$tmp/sf5.txt")" = 175 ] || fail "edge list of q=5 does not have 175 links"
else
    fail "build slimfly:q=5 failed: $(cat "$tmp/err")"
fi

[ "$failures" = 0 ] || exit 1
echo "cli_slimfly: all checks passed"
