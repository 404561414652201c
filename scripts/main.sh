#!/usr/bin/env bash
# main.sh — set up, build, and run moore's main job: for radix-48 switches and
# 10,000 servers at full bandwidth, every family's cheapest design against the
# folded Clos, decided under uniform traffic and under any traffic the servers
# can send (the hose model), side by side; then the comparison as a page with
# figures, report.html.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
build/moore compare --radix 48 --endpoints 10000 --json=lines >compare-uniform.jsonl
build/moore compare --radix 48 --endpoints 10000 --traffic hose --json=lines >compare-hose.jsonl
python3 scripts/decide.py compare-uniform.jsonl compare-hose.jsonl
# The page takes the uniform rows compare just wrote instead of searching again; its figures
# against size stop at 10,000 servers (a 20,000-server point is another compare search,
# a minute and a half of CPU: docs/report.md).
build/moore report --radix 48 --endpoints 10000 --rows compare-uniform.jsonl \
    --sweep 1000,2000,5000,10000 -o report.html --data report-data
echo "main.sh: the comparison as a page: $(pwd)/report.html (figures' numbers in report-data/;" \
     "both decisions' rows in compare-uniform.jsonl and compare-hose.jsonl)" >&2
