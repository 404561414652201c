#!/usr/bin/env bash
# main.sh — set up, build, and run moore's main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
for q in 5 13 17 29; do
  build/moore stats "slimfly:q=$q,radix=48" --metrics basic,paths
  echo
done
