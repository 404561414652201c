#!/usr/bin/env bash
# fuzz/run.sh — seed and run the libFuzzer harnesses (docs/fuzzing.md).
#   fuzz/run.sh BUILD_DIR [SECONDS_EACH]     (default 45 s per harness)
# BUILD_DIR is a -DMOORE_FUZZ=ON build made with CC=clang. The corpora live in
# BUILD_DIR/corpus/{reader,spec} and grow from run to run; they start from
# moore's own exports (every format of a few families) and from SPEC strings
# of every family. A crash, a memory error, an undefined behaviour or a failed
# harness check stops the run and exits non-zero; the input that did it is
# saved as BUILD_DIR/crash-* (reproduce with: BUILD_DIR/fuzz/fuzz_reader FILE).
set -euo pipefail
BUILD=$(cd "$1" && pwd)
SECONDS_EACH=${2:-45}
MOORE=$BUILD/moore
SEEDS=(petersen complete:n=6 slimfly:q=5 torus:dims=4x3 hyperx:S=3,L=2,K=2 fattree:k=4
       dragonfly:a=4,h=2 polarfly:q=3 jellyfish:n=12,d=3,seed=1 xpander:d=4,k=4,seed=1)

corpus_reader=$BUILD/corpus/reader
corpus_spec=$BUILD/corpus/spec
mkdir -p "$corpus_reader" "$corpus_spec"
i=0
for spec in "${SEEDS[@]}"; do
    i=$((i + 1))
    printf '%s' "$spec" >"$corpus_spec/seed-$i"
    for f in edgelist netbench booksim; do
        "$MOORE" build "$spec" -f "$f" -o "$corpus_reader/seed-$i.$f" 2>/dev/null || true
    done
done
for fam in $("$MOORE" families | awk '$2 == "—" {print $1}'); do
    printf '%s' "$fam" >"$corpus_spec/family-$fam"
done

# -rss_limit_mb: an input that makes the library allocate more is a finding.
# -timeout: one input taking longer is a finding (an unbounded loop).
# -seed=1: the same mutations in the same order on every machine (a slower machine runs
# a prefix of them), so a CI run does not find a new input by chance.
opts=(-max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 -seed=1)
cd "$BUILD"
export OMP_NUM_THREADS=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The two harnesses are single-threaded: they run side by side, one per core, so
# the stage takes SECONDS_EACH of wall time, not twice that.
"$BUILD/fuzz/fuzz_reader" "${opts[@]}" -max_len=65536 "$corpus_reader" >fuzz_reader.log 2>&1 &
reader=$!
"$BUILD/fuzz/fuzz_spec" "${opts[@]}" -max_len=256 "$corpus_spec" >fuzz_spec.log 2>&1 &
spec=$!
status=0
wait "$reader" || status=$?
tail -20 fuzz_reader.log
wait "$spec" || status=$?
tail -20 fuzz_spec.log
exit "$status"
