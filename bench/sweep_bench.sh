#!/usr/bin/env bash
# sweep_bench.sh — `moore sweep` against the shell loop a user writes without
# it, side by side in one run: every radix-R configuration `moore plan` lists,
# measured with basic + paths + spectral. The loop calls `moore plan --json`
# once and `moore stats --json` once per SPEC into loose files; the sweep
# writes one SQLite database. MAX_SWITCHES keeps the configurations of at most
# that many switches (the radix-48 plan lists 1,102 configurations, some with
# over 100,000 switches, whose spectra alone take minutes each).
#   bench/sweep_bench.sh [BUILD_DIR] [RADIX] [JOBS] [MAX_SWITCHES]
set -euo pipefail
BUILD=${1:-build}
RADIX=${2:-48}
JOBS=${3:-$(nproc)}
MAX_SWITCHES=${4:-2000}
MOORE=$BUILD/moore
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

t0=$(date +%s.%N)
"$MOORE" plan --radix "$RADIX" --json |
    jq -r --argjson max "$MAX_SWITCHES" '.[] | select(.switches <= $max) | .topology' >"$TMP/specs"
i=0
while read -r spec; do
    "$MOORE" stats "$spec" --metrics basic,paths,spectral --json >"$TMP/r$i.json" \
        2>/dev/null </dev/null || true
    i=$((i + 1))
done <"$TMP/specs"
tl=$(date +%s.%N)
n=$(wc -l <"$TMP/specs")
echo "radix $RADIX, at most $MAX_SWITCHES switches: $n configurations, metrics" \
    "basic,paths,spectral, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
jq -R -s '{metrics: ["basic", "paths", "spectral"],
           configs: [split("\n")[] | select(length > 0) | {spec: .}]}' "$TMP/specs" >"$TMP/sweep.json"
t1=$(date +%s.%N) # the sweep file is written outside the timings
"$MOORE" sweep "$TMP/sweep.json" --db "$TMP/s1.db" 2>/dev/null || true
t2=$(date +%s.%N)
"$MOORE" sweep "$TMP/sweep.json" --db "$TMP/sj.db" --jobs "$JOBS" 2>/dev/null || true
t3=$(date +%s.%N)
"$MOORE" sweep "$TMP/sweep.json" --db "$TMP/sj.db" 2>/dev/null || true
t4=$(date +%s.%N)

awk -v t0="$t0" -v tl="$tl" -v t1="$t1" -v t2="$t2" -v t3="$t3" -v t4="$t4" -v j="$JOBS" 'BEGIN {
    loop = tl - t0; one = t2 - t1; jobs = t3 - t2; resume = t4 - t3
    printf "%-34s %9s %8s\n", "method", "seconds", "ratio"
    printf "%-34s %9.1f %8.2f\n", "shell loop: plan + stats --json", loop, 1
    printf "%-34s %9.1f %8.2f\n", "moore sweep (1 job)", one, one / loop
    printf "%-34s %9.1f %8.2f\n", "moore sweep --jobs " j, jobs, jobs / loop
    printf "%-34s %9.1f %8.3f\n", "rerun (all done: resume check)", resume, resume / loop
}'
echo "measurements: loop $(cat "$TMP"/r*.json | jq -s 'map(length) | add') keys in $n files," \
    "sweep $(sqlite3 "$TMP/s1.db" 'select count(*) from measurements') rows"
