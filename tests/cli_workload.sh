#!/usr/bin/env bash
# cli_workload.sh — `moore throughput TOPO --tm llm:...|alltoall|allreduce:...`:
# the AI-training matrices through the CLI (docs/ai-traffic.md), a closed form,
# and the bad-input contract (exit 2, one line on stderr).
#   bash cli_workload.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"

# One DP ring on the 6-cycle (one server a switch): every switch sends 1 to the
# next, the exact θ is n/(n-1) = 1.2 (tests/test_workload.c derives it).
check "dp ring exit 0" test "$(status "$MOORE" throughput torus:dims=6 --tm llm:tp=1,pp=1,dp=6 --exact --json)" = 0
check "dp ring theta 1.2" grep -Eq '"throughput":[[:space:]]*1\.(2|19999)' "$TMP/out"
check "tm name" grep -q '"tm":[[:space:]]*"llm"' "$TMP/out"
check "allreduce ring exit 0" test "$(status "$MOORE" throughput torus:dims=6 --tm allreduce:algo=ring --exact --json)" = 0
check "allreduce theta 1.2" grep -Eq '"throughput":[[:space:]]*1\.(2|19999)' "$TMP/out"

# The three placements and the collectives run with the approximation.
for place in linear random group; do
    check "llm place=$place" test "$(status "$MOORE" throughput slimfly:q=5 --tm "llm:tp=3,pp=2,dp=10,ep=2,place=$place" --eps 0.2)" = 0
done
check "alltoall" test "$(status "$MOORE" throughput petersen:p=2 --tm alltoall:servers=12 --eps 0.2)" = 0
check "allreduce tree" test "$(status "$MOORE" throughput petersen:p=2 --tm allreduce:algo=tree --eps 0.2)" = 0
check "allreduce hierarchical" test "$(status "$MOORE" throughput petersen:p=2 --tm allreduce:algo=hierarchical,place=random --seed 4 --eps 0.2)" = 0

# Bad input: exit 2, exactly one line.
bad() { # name, tm
    check "$1 exit 2" test "$(status "$MOORE" throughput petersen:p=2 --tm "$2")" = 2
    check "$1 one line" test "$(wc -l <"$TMP/err")" = 1
    check "$1 no stdout" test ! -s "$TMP/out"
}
bad "grid larger than the endpoints" "llm:tp=4,pp=2,dp=4"
bad "ranks not T*P*D" "llm:tp=2,pp=2,dp=2,ranks=6"
bad "ep not dividing dp" "llm:tp=2,pp=1,dp=3,ep=2"
bad "unknown placement" "llm:tp=2,pp=1,dp=2,place=spread"
bad "unknown algorithm" "allreduce:algo=butterfly"
bad "unknown tp algorithm" "llm:tp=2,pp=1,dp=2,tp_algo=tree"
bad "zero size" "llm:tp=0,pp=1,dp=2"
bad "negative size" "llm:tp=2,pp=-1,dp=2"
bad "unknown key" "alltoall:colour=blue"

echo "$passes passed, $fails failed"
test "$fails" = 0
