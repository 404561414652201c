#!/usr/bin/env bash
# equal.sh — an MPI build gives the same results for every rank count:
# `mpirun -np K moore ...` (K = 1, 2, 3, oversubscribed on a small machine)
# against the same command without mpirun, byte for byte; and a rank's bad
# input ends the whole job with exit 2 and one line instead of a hang —
# input every rank refuses, and input only one rank's share meets.
#   bash equal.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/../cli.bash" "$@"
MPIRUN=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && MPIRUN+=(--allow-run-as-root)
export OMPI_MCA_rmaps_base_oversubscribe=1

# stats: all-pairs BFS source batches across ranks, histograms summed exactly.
for topo in jellyfish:n=3000,d=10,seed=2 torus:dims=20x30 xpander:d=8,k=40,seed=1; do
    "$MOORE" stats "$topo" --metrics basic,paths --json >"$TMP/one.json"
    for k in 1 2 3; do
        timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" stats "$topo" --metrics basic,paths --json >"$TMP/k.json" 2>/dev/null
        check "stats $topo -np $k identical" cmp -s "$TMP/one.json" "$TMP/k.json"
    done
done

# fail: failure trials across ranks, every trial's row shared exactly.
"$MOORE" fail jellyfish:n=200,d=6,seed=1 --links 0.05,0.2 --trials 7 --metrics diameter,avg_path_length,throughput_uniform --eps 0.2 --json >"$TMP/fail1.json"
for k in 1 2 3; do
    timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" fail jellyfish:n=200,d=6,seed=1 --links 0.05,0.2 --trials 7 \
        --metrics diameter,avg_path_length,throughput_uniform --eps 0.2 --json >"$TMP/failk.json" 2>/dev/null
    check "fail -np $k identical" cmp -s "$TMP/fail1.json" "$TMP/failk.json"
done

# throughput: each batch's sources planned across ranks, every tree applied
# in source order on every rank (uniform and worst-case matrices, ~100 switches).
for tm in uniform worst; do
    THR=(throughput xpander:d=8,k=11,seed=1 --tm $tm --eps 0.1 --json)
    "$MOORE" "${THR[@]}" >"$TMP/thr1.json" 2>/dev/null
    for k in 1 2 3; do
        timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" "${THR[@]}" >"$TMP/thrk.json" 2>/dev/null
        check "throughput --tm $tm -np $k identical" cmp -s "$TMP/thr1.json" "$TMP/thrk.json"
    done
done

# compare: the chosen configurations measured with the ranks sharing the all-pairs work.
"$MOORE" compare --radix 16 --endpoints 300 --families clos,slimfly,xpander,jellyfish --json >"$TMP/cmp1.json" 2>/dev/null
for k in 1 2 3; do
    timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" compare --radix 16 --endpoints 300 \
        --families clos,slimfly,xpander,jellyfish --json >"$TMP/cmpk.json" 2>/dev/null
    check "compare -np $k identical" cmp -s "$TMP/cmp1.json" "$TMP/cmpk.json"
done

# compare of given topologies: configuration i alone on rank i mod K
# (moore_dist_map), the rows gathered in order; the table too.
TOPOS=(jellyfish:n=40,d=5,seed=3 torus:dims=6x5 xpander:d=4,k=10,seed=1 slimfly:q=5)
"$MOORE" compare "${TOPOS[@]}" --json >"$TMP/given1.json" 2>/dev/null
"$MOORE" compare "${TOPOS[@]}" >"$TMP/given1.txt" 2>/dev/null
for k in 2 3; do
    timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" compare "${TOPOS[@]}" --json >"$TMP/givenk.json" 2>/dev/null
    check "compare given -np $k identical" cmp -s "$TMP/given1.json" "$TMP/givenk.json"
    timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" compare "${TOPOS[@]}" >"$TMP/givenk.txt" 2>/dev/null
    check "compare given table -np $k identical" cmp -s "$TMP/given1.txt" "$TMP/givenk.txt"
done

# One rank's share is bad: the second topology (an odd degree sum, refused
# only when built) is item 1, built by rank 1 alone. The job still exits 2
# with the one line one process prints, and does not hang.
BAD=(jellyfish:n=40,d=5,seed=3 jellyfish:n=31,d=5,seed=1 torus:dims=6x5)
"$MOORE" compare "${BAD[@]}" >/dev/null 2>"$TMP/share1.err"
check "bad share one process exit 2" test $? = 2
for k in 2 3; do
    timeout 120 "${MPIRUN[@]}" -np $k "$MOORE" compare "${BAD[@]}" >/dev/null 2>"$TMP/share.err"
    rc=$?
    check "bad share -np $k exit 2" test $rc = 2
    check "bad share -np $k the one line" test "$(grep '^moore:' "$TMP/share.err")" = "$(cat "$TMP/share1.err")"
done

# report: the sweep's points across ranks (the main comparison's families
# too); the page and its CSV files byte for byte.
REPORT=(report --radix 12 --endpoints 100 --families clos,slimfly,jellyfish --sweep 50,100,200)
"$MOORE" "${REPORT[@]}" -o "$TMP/r1.html" --data "$TMP/d1" 2>/dev/null
for k in 2 3; do
    timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" "${REPORT[@]}" -o "$TMP/rk.html" --data "$TMP/dk$k" 2>/dev/null
    check "report -np $k identical page" cmp -s "$TMP/r1.html" "$TMP/rk.html"
    check "report -np $k identical data" diff -r -q "$TMP/d1" "$TMP/dk$k"
done

# Sweeps: configurations across ranks, one database.
cat >"$TMP/s.json" <<'JSON'
{ "metrics": ["basic", "paths"], "seeds": [1, 2],
  "configs": [ {"family": "jellyfish", "grid": {"n": [30, 40, 50], "d": [4, 6]}},
               {"family": "slimfly", "grid": {"q": ["4..9"]}} ] }
JSON
dump() { sqlite3 -batch -noheader "$1" "select c.topology, m.task, m.metric, m.type, m.value, m.text
    from measurements m join configurations c on c.id = m.configuration order by 1, 2, 3"; }
"$MOORE" sweep "$TMP/s.json" --db "$TMP/one.db" 2>/dev/null
for k in 1 2 3; do
    timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" sweep "$TMP/s.json" --db "$TMP/k$k.db" 2>"$TMP/err$k"
    check "sweep -np $k exit 0" test $? = 0
    check "sweep -np $k same database" test "$(dump "$TMP/k$k.db" | md5sum)" = "$(dump "$TMP/one.db" | md5sum)"
done

# compare reading the sweep's database: each rank looks its items up, and the
# parts' read/measured counts add up to one process's note.
DBC=(compare slimfly:q=5 jellyfish:n=40,d=4,seed=1 torus:dims=5x6 --metrics basic,paths --db "$TMP/one.db" --json)
"$MOORE" "${DBC[@]}" >"$TMP/db1.json" 2>"$TMP/db1.err"
for k in 2 3; do
    timeout 300 "${MPIRUN[@]}" -np $k "$MOORE" "${DBC[@]}" >"$TMP/dbk.json" 2>"$TMP/dbk.err"
    check "compare --db -np $k identical" cmp -s "$TMP/db1.json" "$TMP/dbk.json"
    check "compare --db -np $k same note" test "$(grep '^moore:' "$TMP/dbk.err")" = "$(cat "$TMP/db1.err")"
done

# A bad sweep file: every rank refuses it; the job exits 2 with one line.
echo '{"configs": [{"family": "slimfy"}]}' >"$TMP/bad.json"
timeout 120 "${MPIRUN[@]}" -np 2 "$MOORE" sweep "$TMP/bad.json" --db "$TMP/bad.db" >/dev/null 2>"$TMP/bad.err"
rc=$?
check "bad input -np 2 exit 2" test $rc = 2
check "bad input one line" test "$(grep -c '^moore:' "$TMP/bad.err")" = 1

echo "mpi equal: $passes passed, $fails failed"
[ "$fails" = 0 ]
