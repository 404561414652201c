#!/usr/bin/env bash
# run_paths.sh — build with the benchmarks and compare moore's all-pairs
# distance metrics with igraph on random 32-regular graphs (one run; igraph
# takes a minute or so at 16,000 switches). Then time the real command,
# `moore stats FILE --metrics paths`, on the same 4,000-switch graph.
#   bench/run_paths.sh [BUILD_DIR] [bench_paths args...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build-bench}
shift || true
MOORE_BENCH=1 scripts/setup.sh "$BUILD_DIR" -DMOORE_BUILD_BENCH=ON -DMOORE_BUILD_TESTS=OFF
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
"$BUILD_DIR/bench/bench_paths" --save "$tmp/rr32-" "$@"
if [ -f "$tmp/rr32-4000.edges" ]; then
  echo "# the CLI on the same 4,000-switch graph (reading the file included):"
  TIMEFORMAT='# moore stats rr32-4000.edges --metrics paths: %3R s wall, %3U s user'
  time "$BUILD_DIR/moore" stats "$tmp/rr32-4000.edges" --metrics paths >"$tmp/stats.txt"
  grep -E '^(diameter|avg_path_length|girth) ' "$tmp/stats.txt" | sed 's/^/#   /'
fi
