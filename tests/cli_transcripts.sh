#!/usr/bin/env bash
# cli_transcripts.sh — every transcript in docs/*.md (a fenced block after
# `<!-- transcript -->`) is what the commands print now: re-runs them with
# scripts/transcripts.py --check and fails on any difference, so the docs
# cannot drift from the tool. Also checks that the checker notices a change.
# Run as: cli_transcripts.sh MOORE SRCDIR
. "$(dirname "$0")/cli.bash" "$@"
MOORE=$(cd "$(dirname "$MOORE")" && pwd)/$(basename "$MOORE")
SRC=$(cd "$SRC" && pwd)

n=$(grep -l -- '<!-- transcript -->' "$SRC"/docs/*.md | wc -l)
check "docs/*.md hold transcripts" test "$n" -gt 0
check "every transcript is what moore prints now" python3 "$SRC/scripts/transcripts.py" --check "$MOORE"
# A doctored transcript must be caught.
printf '<!-- transcript -->\n```text\n$ moore --version\nmoore 0.0.0-not-this\n```\n' >"$TMP/fake.md"
check "a wrong transcript is noticed" \
    bash -c '! python3 "$1/scripts/transcripts.py" --check "$2" "$3" >/dev/null' _ "$SRC" "$MOORE" "$TMP/fake.md"

echo "cli_transcripts: $n documents with transcripts"
summary cli_transcripts
