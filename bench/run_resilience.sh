#!/usr/bin/env bash
# run_resilience.sh — `moore fail` against a networkx loop doing the same per
# trial (bench/resilience_nx.py), side by side, as ratios of the time per
# trial; and the absolute targets of docs/resilience.md on a 10,000-switch
# degree-24 random regular graph (jellyfish:n=10000,d=24,seed=1):
#   1,000 --until-disconnected trials, and 100 trials of diameter + APL after
#   10% link failures against T × one all-pairs run (`moore stats --metrics paths`).
# networkx runs NX_TRIALS (default 5) trials on the 2,000-switch graph, where a
# trial takes it seconds, not the hour it would on 10,000 switches.
#   MOORE_BENCH=1 scripts/setup.sh && bench/run_resilience.sh [MOORE_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
MOORE=${1:-build/moore}
NX_TRIALS=${NX_TRIALS:-5}
PYTHON=${PYTHON:-/usr/bin/python3}   # Debian python3-networkx
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# secs CMD...: prints the wall-clock seconds; the CPU seconds (user + sys)
# go to $TMP/cpu (on a shared machine the wall clock includes others' load).
secs() {
    local s e
    s=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$TMP/time" "$@" >"$TMP/last"
    e=$(date +%s.%N)
    awk '{ print $1 + $2 }' "$TMP/time" >"$TMP/cpu"
    echo "$e - $s" | bc
}
cpu() { cat "$TMP/cpu"; }
per() { echo "scale=6; $1 / $2" | bc; }

echo "# machine: $(nproc) cores, OMP_NUM_THREADS=$OMP_NUM_THREADS, networkx $($PYTHON -c "import networkx; print(networkx.__version__)")"
for n in 2000 10000; do
    "$MOORE" build "jellyfish:n=$n,d=24,seed=1" -o "$TMP/rr$n.edges"
done

echo "## --until-disconnected (links), time per trial"
t=$(secs "$MOORE" fail "$TMP/rr10000.edges" --until-disconnected --trials 1000)
echo "moore  n=10000 d=24  1000 trials: $t s wall, $(cpu) s CPU ($(per "$t" 1000) s/trial wall)," \
    "$(grep mean "$TMP/last" | tr -s ' ')"
t=$(secs "$MOORE" fail "$TMP/rr2000.edges" --until-disconnected --trials 1000)
mp=$(per "$t" 1000)
echo "moore  n=2000  d=24  1000 trials: $t s wall, $(cpu) s CPU ($mp s/trial wall), $(grep mean "$TMP/last" | tr -s ' ')"
read -r _ _ np summary < <("$PYTHON" bench/resilience_nx.py disconnect "$TMP/rr2000.edges" "$NX_TRIALS")
echo "networkx n=2000 d=24 $NX_TRIALS trials: $np s/trial, $summary"
echo "ratio networkx / moore per trial: $(echo "scale=1; $np / $mp" | bc)"

echo "## diameter + APL after 10% link failures, time per trial"
t1=$(secs "$MOORE" stats "$TMP/rr10000.edges" --metrics paths)
c1=$(cpu)
t=$(secs "$MOORE" fail "$TMP/rr10000.edges" --links 0.1 --trials 100 --metrics diameter,avg_path_length)
echo "moore  n=10000: one all-pairs run (moore stats --metrics paths) $t1 s wall, $c1 s CPU;" \
    "100 trials $t s wall, $(cpu) s CPU = $(echo "scale=2; $(cpu) / (100 * $c1)" | bc) x (100 x one run, CPU)"
t=$(secs "$MOORE" fail "$TMP/rr2000.edges" --links 0.1 --trials 100 --metrics diameter,avg_path_length --json)
mp=$(per "$t" 100)
echo "moore  n=2000: 100 trials $t s wall, $(cpu) s CPU ($mp s/trial wall), mean diameter $(jq '.[0].diameter_mean' "$TMP/last")," \
    "mean APL $(jq '.[0].avg_path_length_mean' "$TMP/last")"
read -r _ _ np summary < <("$PYTHON" bench/resilience_nx.py paths "$TMP/rr2000.edges" "$NX_TRIALS" 0.1)
echo "networkx n=2000 $NX_TRIALS trials: $np s/trial, $summary"
echo "ratio networkx / moore per trial: $(echo "scale=1; $np / $mp" | bc)"
