#!/usr/bin/env bash
# main.sh — set up, build, and run moore's main job: per family the cheapest
# configuration of radix-48 switches with at least 10,000 servers proven to
# reach full uniform bandwidth, against the folded Clos (docs/compare.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
build/moore compare --radix 48 --endpoints 10000
