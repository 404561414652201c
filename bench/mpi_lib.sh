# mpi_lib.sh — what the MPI benchmarks share (sourced by bench/mpi_*.sh):
# the mpirun command for this shared machine, a scratch directory, and
# mpi_timed, which runs one variant and prints its wall time, the CPU time of
# all its processes (user + system, every rank) and the load average when it
# started (on a shared machine the wall times are upper bounds).
MPIRUN=(mpirun --oversubscribe --bind-to none ${MPI_EXTRA[@]+"${MPI_EXTRA[@]}"})
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# mpi_timed NAME COMMAND...: stdout to $TMP/NAME.json, wall seconds to
# $TMP/NAME.t, CPU seconds to $TMP/NAME.cpu.
mpi_timed() {
    local name=$1 load
    shift
    load=$(cut -d' ' -f1 /proc/loadavg)
    local TIMEFORMAT='%R %U %S'
    { time "$@" >"$TMP/$name.json" 2>"$TMP/$name.err"; } 2>"$TMP/$name.t"
    read -r wall user sys <"$TMP/$name.t"
    awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v l="$load" \
        'BEGIN { printf "%-24s %8.2f s wall %8.2f s CPU   (load %s)\n", n, w, u + s, l }'
    echo "$wall" >"$TMP/$name.t"
    awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }' >"$TMP/$name.cpu"
}
