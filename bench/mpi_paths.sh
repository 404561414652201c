#!/usr/bin/env bash
# mpi_paths.sh — strong scaling of all-pairs distances: 1 and 2 OpenMP threads in
# one process against 1 and 2 MPI ranks of one thread, same graph, same run.
#   bench/mpi_paths.sh [BUILD_DIR_WITH_MPI] [N] [DEGREE] [SERIAL]
# (issue 19 asks for N = 200,000, degree 32; the JSON of every run must be equal.)
# SERIAL=no leaves out the 1-thread run (the longest) on a busy machine. Each
# line gives the wall time, the CPU time of all the run's processes (user +
# system) and the load average when the run started: on a shared machine the
# wall times are upper bounds.
set -euo pipefail
BUILD=${1:-build-mpi}
N=${2:-200000}
D=${3:-32}
SERIAL=${4:-yes}
MOORE=$BUILD/moore
TOPO="jellyfish:n=$N,d=$D,seed=1"
source "$(dirname "$0")/mpi_lib.sh"
"$MOORE" build "$TOPO" -o "$TMP/g.txt"
run() { # name, command...
    local name=$1
    shift
    mpi_timed "$name" "$@" stats "$TMP/g.txt" --metrics paths --json
}
echo "all-pairs distances of $TOPO on $(nproc) cores"
OMP_NUM_THREADS=2 run "2 threads" "$MOORE"
OMP_NUM_THREADS=1 run "2 ranks x 1 thread" "${MPIRUN[@]}" -np 2 "$MOORE"
awk -v a="$(cat "$TMP/2 ranks x 1 thread.t")" -v b="$(cat "$TMP/2 threads.t")" \
    'BEGIN { printf "2 ranks / 2 threads: %.2f\n", a / b }'
cmp -s "$TMP/2 threads.json" "$TMP/2 ranks x 1 thread.json" || { echo "results differ: 2 ranks" >&2; exit 1; }
if [ "$SERIAL" != no ]; then
    OMP_NUM_THREADS=1 run "1 thread" "$MOORE"
    cmp -s "$TMP/1 thread.json" "$TMP/2 threads.json" || { echo "results differ: 1 thread" >&2; exit 1; }
fi
echo "results identical"
# The cost model of docs/performance.md, D · 2E · N / 64 word operations, per CPU second.
diam=$(sed -n 's/.*"diameter":[[:space:]]*\([0-9]*\).*/\1/p' "$TMP/2 threads.json" | head -1)
awk -v n="$N" -v d="$D" -v D="$diam" -v c="$(cat "$TMP/2 threads.cpu")" \
    -v r="$(cat "$TMP/2 ranks x 1 thread.cpu")" 'BEGIN {
        w = D * n * d * n / 64
        printf "diameter %d; model %.3g words; per CPU second: %.3g (2 threads), %.3g (2 ranks)\n",
               D, w, w / c, w / r }'
