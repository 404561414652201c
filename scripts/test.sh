#!/usr/bin/env bash
# test.sh — set up, build and run the whole test suite: once as a release
# build, once under AddressSanitizer + UndefinedBehaviorSanitizer; then build
# everything again with clang (-Werror) carrying the libFuzzer
# instrumentation, and run each fuzz harness for MOORE_FUZZ_SECONDS (default
# 45) seconds (fuzz/run.sh, docs/fuzzing.md). A crash fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
(cd build && ctest --output-on-failure -j"$(nproc)")
scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DMOORE_SANITIZE=ON
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$(nproc)")
CC=clang scripts/setup.sh build-fuzz -DMOORE_FUZZ=ON
fuzz/run.sh build-fuzz "${MOORE_FUZZ_SECONDS:-45}"
