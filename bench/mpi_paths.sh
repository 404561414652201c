#!/usr/bin/env bash
# mpi_paths.sh — strong scaling of all-pairs distances: 1 and 2 OpenMP threads in
# one process against 1 and 2 MPI ranks of one thread, same graph, same run.
#   bench/mpi_paths.sh [BUILD_DIR_WITH_MPI] [N] [DEGREE]
# (issue 19 asks for N = 200,000, degree 32; the JSON of every run must be equal.)
set -euo pipefail
BUILD=${1:-build-mpi}
N=${2:-200000}
D=${3:-32}
MOORE=$BUILD/moore
TOPO="jellyfish:n=$N,d=$D,seed=1"
MPIRUN=(mpirun --oversubscribe --bind-to none)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$MOORE" build "$TOPO" -o "$TMP/g.txt"
run() { # name, command...
    local name=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    "$@" stats "$TMP/g.txt" --metrics paths --json >"$TMP/$name.json"
    t1=$(date +%s.%N)
    awk -v n="$name" -v a="$t0" -v b="$t1" 'BEGIN { printf "%-24s %8.1f s\n", n, b - a }'
}
echo "all-pairs distances of $TOPO on $(nproc) cores"
OMP_NUM_THREADS=1 run "1 thread" "$MOORE"
OMP_NUM_THREADS=2 run "2 threads" "$MOORE"
OMP_NUM_THREADS=1 run "2 ranks x 1 thread" "${MPIRUN[@]}" -np 2 "$MOORE"
for f in "2 threads" "2 ranks x 1 thread"; do
    cmp -s "$TMP/1 thread.json" "$TMP/$f.json" || { echo "results differ: $f" >&2; exit 1; }
done
echo "results identical"
