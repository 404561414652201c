#!/usr/bin/env bash
# cli_transcripts.sh — every transcript in docs/*.md (a fenced block after
# `<!-- transcript -->`) is what the commands print now: re-runs them with
# scripts/transcripts.py --check and fails on any difference, so the docs
# cannot drift from the tool. Also checks that the checker notices a change.
# Run as: cli_transcripts.sh MOORE SRCDIR
set -u
MOORE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failures=0
n=$(grep -l -- '<!-- transcript -->' "$SRC"/docs/*.md | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: no transcripts in docs/*.md"; failures=$((failures + 1)); }
python3 "$SRC/scripts/transcripts.py" --check "$MOORE" || failures=$((failures + 1))
# A doctored transcript must be caught.
printf '<!-- transcript -->\n```text\n$ moore --version\nmoore 0.0.0-not-this\n```\n' >"$T/fake.md"
if python3 "$SRC/scripts/transcripts.py" --check "$MOORE" "$T/fake.md" >/dev/null; then
    echo "FAIL: a wrong transcript was not noticed"
    failures=$((failures + 1))
fi
echo "cli_transcripts: $n documents with transcripts, $failures failures"
[ "$failures" -eq 0 ] && echo "2 passed, 0 failed"
[ "$failures" -eq 0 ]
