#!/usr/bin/env bash
# main.sh — set up, build, and run moore's main job: compare every family's
# smallest configuration reaching 10,000 endpoints with radix-48 switches.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
build/moore compare --radix 48 --endpoints 10000
