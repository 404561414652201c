#!/usr/bin/env bash
# mpi_throughput.sh — strong scaling of the throughput approximation
# (src/flow/fptas.c): one process with 1 and 2 OpenMP threads against 2 MPI
# ranks of one thread (each batch's sources split across the ranks), same
# topology, same run; the JSON of every run must be byte for byte equal.
#   bench/mpi_throughput.sh [BUILD_DIR_WITH_MPI] [TOPO] [TM] [EPS]
# (default: a 1,001-switch degree-10 Xpander, uniform matrix, eps 0.05). Each
# line gives the wall time, the CPU time of all the run's processes (user +
# system) and the load average when the run started: on a shared machine the
# wall times are upper bounds.
set -euo pipefail
BUILD=${1:-build-mpi}
TOPO=${2:-xpander:d=10,k=91,seed=1}
TM=${3:-uniform}
EPS=${4:-0.05}
MOORE=$BUILD/moore
# Waiting ranks yield the core instead of spinning (this machine is shared).
MPI_EXTRA=(--mca mpi_yield_when_idle 1)
source "$(dirname "$0")/mpi_lib.sh"
"$MOORE" build "$TOPO" -o "$TMP/g.txt"
run() { # name, command...
    local name=$1
    shift
    mpi_timed "$name" "$@" throughput "$TMP/g.txt" --tm "$TM" --eps "$EPS" --json
}
echo "throughput approximation of $TOPO, --tm $TM --eps $EPS, on $(nproc) cores"
OMP_NUM_THREADS=1 run "1 thread" "$MOORE"
OMP_NUM_THREADS=2 run "2 threads" "$MOORE"
OMP_NUM_THREADS=1 run "2 ranks x 1 thread" "${MPIRUN[@]}" -x OMP_NUM_THREADS=1 -np 2 "$MOORE"
ratio() { awk -v a="$(cat "$TMP/$1.t")" -v b="$(cat "$TMP/$2.t")" 'BEGIN { printf "%.2f", a / b }'; }
echo "1 thread / 2 threads: $(ratio "1 thread" "2 threads")   1 thread / 2 ranks: $(ratio "1 thread" "2 ranks x 1 thread")   2 ranks / 2 threads: $(ratio "2 ranks x 1 thread" "2 threads")"
for r in "2 threads" "2 ranks x 1 thread"; do
    cmp -s "$TMP/1 thread.json" "$TMP/$r.json" || { echo "results differ: $r" >&2; exit 1; }
done
echo "results identical; $(grep -E '"phases"|"throughput"' "$TMP/1 thread.json" | tr -d '\t\n,')"
