#!/usr/bin/env bash
# test.sh — set up, build and run the whole test suite: once as a release
# build, once under AddressSanitizer + UndefinedBehaviorSanitizer; then the
# library and CLI again with clang (-Werror) carrying the libFuzzer
# instrumentation, each fuzz harness run for MOORE_FUZZ_SECONDS (default 15)
# seconds (fuzz/run.sh, docs/fuzzing.md; a crash fails the run); then the MPI
# build, whose results must equal one process for 1, 2 and 3 ranks
# (tests/mpi/equal.sh, docs/scale.md). The extra builds leave out the unit
# tests and the Python module, which the first two passes cover.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
(cd build && ctest --output-on-failure -j"$(nproc)")
# -O1: the sanitizers find the same faults, and the sanitized tests run much
# faster than at -O0 (asserts stay on: a Debug build, no NDEBUG).
scripts/setup.sh build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG='-g -O1' -DMOORE_SANITIZE=ON
# The real control planes (OpenSM on ibsim, FRR and the static twin in network
# namespaces) run once, in the release pass: their time is the daemons', and the
# sanitized moore they would call is covered by cli_deploy and cli_deploy_eth.
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j"$(nproc)" \
    -E '^deploy_(opensm|frr|static)$')
# Mutated SPECs, sweep files and layout models through the sanitized CLI, bounded
# to 20 s (fuzz/mutate.py, docs/fuzzing.md): any exit but 0/1/2 or a report fails.
python3 fuzz/mutate.py build-asan/moore --seconds 20 --keep build-asan/mutate-failures
LEAN=(-DMOORE_BUILD_TESTS=OFF -DMOORE_PYTHON=OFF)
CC=clang scripts/setup.sh build-fuzz -DMOORE_FUZZ=ON "${LEAN[@]}"
fuzz/run.sh build-fuzz "${MOORE_FUZZ_SECONDS:-15}"
scripts/setup.sh build-mpi -DMOORE_MPI=ON "${LEAN[@]}"
bash tests/mpi/equal.sh build-mpi/moore .
