#!/usr/bin/env bash
# throughput_uniform_scale.sh — time and peak memory of the uniform throughput
# approximation as the switch count grows, for one or more moore binaries side
# by side (e.g. before and after a change), behind docs/performance.md.
#
#   bench/throughput_uniform_scale.sh SIZES BINARY...
#   e.g. bench/throughput_uniform_scale.sh 1000,4000,16000 /tmp/old/moore build/moore
#
# For each size N and each binary in turn (interleaved, so both see the same
# machine load) runs
#   /usr/bin/time -v BINARY throughput jellyfish:n=N,d=16 --tm uniform --eps 0.05 --json
# and prints one Markdown row: wall and CPU seconds, peak RSS, phases and the
# proven bounds. `uptime` is printed before and after each run (the machine's
# load). LIMIT (seconds, default none) stops a run with `timeout`; a run that
# fails or is stopped shows its exit status (and no CPU time or RSS: time -v
# only sees the child that timeout waited for; sample those with ps). OMP_NUM_THREADS is passed through
# (default 2). Never used as a timed test.
set -uo pipefail
SIZES=${1:?sizes, comma-separated}
shift
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
key() { awk -v k="\"$1\":" '$1 == k { v = $2; sub(/,$/, "", v); gsub(/"/, "", v); print v }' "$2"; }
tv() { awk -v k="$1" -F': ' 'index($0, k) { print $2 }' "$2"; }

echo "# OMP_NUM_THREADS=$OMP_NUM_THREADS; $(nproc --all) cores"
echo "| N | binary | wall (s) | CPU user+sys (s) | peak RSS (MB) | phases | lower | upper | status |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in ${SIZES//,/ }; do
    for bin in "$@"; do
        echo "# before: $(uptime)"
        cmd=("$bin" throughput "jellyfish:n=$n,d=16" --tm uniform --eps 0.05 --json)
        [ -n "${LIMIT:-}" ] && cmd=(timeout -k 60 "$LIMIT" "${cmd[@]}")
        /usr/bin/time -v "${cmd[@]}" > "$TMP/out" 2> "$TMP/err"
        rc=$?
        echo "# after:  $(uptime)"
        wall=$(tv "Elapsed (wall clock)" "$TMP/err" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
        cpu=$(awk -v u="$(tv "User time" "$TMP/err")" -v s="$(tv "System time" "$TMP/err")" 'BEGIN { printf "%.1f", u + s }')
        rss=$(awk -v k="$(tv "Maximum resident set size" "$TMP/err")" 'BEGIN { printf "%.0f", k / 1024 }')
        status=$([ $rc -eq 0 ] && echo ok || echo "exit $rc: $(grep -v '^\s' "$TMP/err" | grep -v '^throughput phase' | head -1)")
        echo "| $n | $bin | $wall | $cpu | $rss | $(key phases "$TMP/out") | $(key lower "$TMP/out") | $(key upper "$TMP/out") | $status |"
    done
done
