#!/usr/bin/env bash
# cli_sweep.sh — the `moore sweep` contract: the database holds what the grid
# defines, each value equals `moore stats` of the same SPEC, a killed sweep
# resumes without measuring anything twice, bad input changes nothing.
#   bash cli_sweep.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
q() { sqlite3 -batch -noheader "$@"; }

# A grid whose size is known by hand: Slim Fly q in 3..13 has the prime powers
# 3 4 5 7 8 9 11 13 (q=6, 10, 12 refused by the closed forms) = 8; Jellyfish
# 2 sizes x 2 degrees x 2 seeds = 8; torus 2; petersen 1: 19 configurations.
cat >"$TMP/s.json" <<'JSON'
{
  "metrics": ["basic", "paths"],
  "seeds": [1, 2],
  "configs": [
    {"family": "slimfly", "grid": {"q": ["3..13"]}},
    {"family": "jellyfish", "grid": {"n": [24, 40], "d": [4, 6]}},
    {"family": "torus", "grid": {"dims": ["4x4", "3x3x3"]}},
    {"spec": "petersen"}
  ]
}
JSON
check "sweep exit 0" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/a.db")" = 0
check "19 configurations" test "$(q "$TMP/a.db" 'select count(*) from configurations')" = 19
check "38 tasks done" test "$(q "$TMP/a.db" "select count(*) from tasks where status='done'")" = 38
check "skipped named" grep -q '3 grid points skipped' "$TMP/err"
check "seeds recorded" test "$(q "$TMP/a.db" 'select count(*) from configurations where seed is not null')" = 8
check "no q=6" test "$(q "$TMP/a.db" "select count(*) from configurations where topology='slimfly:q=6'")" = 0

# Every stored number equals what `moore stats --json` prints for the SPEC.
for spec in slimfly:q=7 jellyfish:n=40,d=6,seed=2 torus:dims=3x3x3 petersen; do
    "$MOORE" stats "$spec" --metrics basic,paths --json >"$TMP/stats.json"
    q -separator ' ' "$TMP/a.db" "select m.metric, m.value from measurements m join configurations c
        on c.id = m.configuration where c.topology = '$spec' and m.value is not null" >"$TMP/db.txt"
    check "$spec has rows" test -s "$TMP/db.txt"
    bad=0
    while read -r key value; do
        want=$(jq -r --arg k "$key" '.[$k] | if type == "boolean" then (if . then 1 else 0 end) else . end' "$TMP/stats.json")
        awk -v a="$value" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; s = (b < 0 ? -b : b);
            exit !(d <= 1e-12 * (s > 1 ? s : 1)) }' || { echo "  $spec $key: db $value stats $want" >&2; bad=1; }
    done <"$TMP/db.txt"
    check "$spec equals stats" test $bad = 0
done

# Rerun: nothing to measure; --jobs 2 gives the same numbers as one job.
check "rerun exit 0" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/a.db")" = 0
check "rerun measures nothing" grep -q ', 0 to measure' "$TMP/err"
dump() { q "$1" "select c.topology, m.task, m.metric, m.type, m.value, m.text, m.bound from measurements m
    join configurations c on c.id = m.configuration order by 1, 2, 3"; }
check "jobs 2 exit 0" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/j.db" --jobs 2)" = 0
check "jobs 2 same results" test "$(dump "$TMP/a.db" | md5sum)" = "$(dump "$TMP/j.db" | md5sum)"

# Kill midway (SIGTERM), rerun: the same database, nothing measured twice.
cat >"$TMP/k.json" <<'JSON'
{ "metrics": ["basic", "paths", "spectral"], "seeds": ["1..4"],
  "configs": [ {"family": "jellyfish", "grid": {"n": ["300..320:10"], "d": [6, 8]}} ] }
JSON
"$MOORE" sweep "$TMP/k.json" --db "$TMP/full.db" 2>/dev/null
stop_after() { # sweep file, database, lines: SIGTERM once that many progress lines are out
    "$MOORE" sweep "$1" --db "$2" --progress 2>"$TMP/stoplog" &
    local pid=$!
    for _ in $(seq 400); do
        [ "$(grep -c "tasks," "$TMP/stoplog" 2>/dev/null)" -ge "$3" ] 2>/dev/null && break
        sleep 0.02
    done
    kill -TERM $pid 2>/dev/null
    wait $pid
}
stop_after "$TMP/k.json" "$TMP/k.db" 3
before=$(q "$TMP/k.db" 'select count(*) from tasks')
total=$(q "$TMP/full.db" 'select count(*) from tasks')
check "killed midway" test "$before" -lt "$total"
check "whole configurations only" test $((before % 3)) = 0
check "resume exit 0" test "$(status "$MOORE" sweep "$TMP/k.json" --db "$TMP/k.db")" = 0
check "resume measures the rest" grep -q ", $((total - before)) to measure" "$TMP/err"
check "resumed equals uninterrupted" test "$(dump "$TMP/k.db" | md5sum)" = "$(dump "$TMP/full.db" | md5sum)"

# The same with --jobs 2, the signal sent to the parent only: its workers stop
# too (no orphan goes on writing), and the resumed database is the same.
"$MOORE" sweep "$TMP/k.json" --db "$TMP/kj.db" --jobs 2 2>/dev/null &
pid=$!
for _ in $(seq 400); do
    [ "$(q "$TMP/kj.db" 'select count(*) from tasks' 2>/dev/null)" -ge 3 ] 2>/dev/null && break
    sleep 0.02
done
kill -TERM $pid 2>/dev/null
wait $pid
sleep 0.5
before=$(q "$TMP/kj.db" 'select count(*) from tasks')
sleep 1
check "jobs killed midway" test "$before" -lt "$total"
check "workers stopped with the parent" test "$(q "$TMP/kj.db" 'select count(*) from tasks')" = "$before"
check "jobs resume exit 0" test "$(status "$MOORE" sweep "$TMP/k.json" --db "$TMP/kj.db" --jobs 2)" = 0
check "jobs resume measures the rest" grep -q ", $((total - before)) to measure" "$TMP/err"
check "jobs resumed equals uninterrupted" test "$(dump "$TMP/kj.db" | md5sum)" = "$(dump "$TMP/full.db" | md5sum)"

# Bad input: one line, exit 2, the existing database untouched.
sum_a=$(md5sum <"$TMP/a.db")
bad_sweep() { # name, json
    printf '%s\n' "$2" >"$TMP/bad.json"
    check "$1 exit 2" test "$(status "$MOORE" sweep "$TMP/bad.json" --db "$TMP/a.db")" = 2
    check "$1 one line" test "$(wc -l <"$TMP/err")" = 1
}
bad_sweep "unknown key" '{"configs": [{"family": "slimfly", "grid": {"Q": [5]}}]}'
bad_sweep "empty range" '{"configs": [{"family": "slimfly", "grid": {"q": ["9..5"]}}]}'
bad_sweep "empty list" '{"configs": [{"family": "slimfly", "grid": {"q": []}}]}'
bad_sweep "unknown family" '{"configs": [{"family": "slimfy", "grid": {"q": [5]}}]}'
bad_sweep "unknown metric" '{"metrics": ["pathz"], "configs": [{"spec": "petersen"}]}'
bad_sweep "unknown top key" '{"config": []}'
bad_sweep "not json" 'configs: petersen'
bad_sweep "unknown family entry key" '{"configs": [{"family": "slimfly", "grdi": {"q": [5]}}]}'
bad_sweep "unknown plan key" '{"configs": [{"plan": {"radix": 8, "endpoint": [100]}}]}'
bad_sweep "unknown spec entry key" '{"configs": [{"spec": "petersen", "seeds": [1]}]}'
bad_sweep "malformed range step" '{"configs": [{"family": "slimfly", "grid": {"q": ["3..5:1x"]}}]}'
bad_sweep "plan endpoints not a number" '{"configs": [{"plan": {"radix": 8, "endpoints": ["abc"]}}]}'
# What no configuration could use is the file's mistake too, refused up front.
bad_sweep "unknown matrix" '{"throughput": {"tm": ["bogus"]}, "configs": [{"spec": "petersen"}]}'
bad_sweep "bad workload" '{"throughput": {"tm": ["llm:tp=0"]}, "configs": [{"spec": "petersen"}]}'
bad_sweep "missing CSV" '{"throughput": {"tm": ["/no/such/tm.csv"]}, "configs": [{"spec": "petersen"}]}'
bad_sweep "trailing garbage" '{"configs": [{"spec": "petersen"}]} {"x": 1}'
bad_sweep "duplicate top key" '{"configs": [{"spec": "petersen"}], "configs": [{"spec": "k4"}]}'
bad_sweep "duplicate grid key" '{"configs": [{"family": "slimfly", "grid": {"q": [5], "q": [7]}}]}'
bad_sweep "non-integer grid value" '{"configs": [{"family": "slimfly", "grid": {"q": [5.5]}}]}'
bad_sweep "infinite grid value" '{"configs": [{"family": "slimfly", "grid": {"q": [1e400]}}]}'
bad_sweep "SPEC with a newline" '{"configs": [{"spec": "slimfly:q=5\n"}]}'
bad_sweep "grid value with a newline" '{"configs": [{"family": "torus", "grid": {"dims": ["4x4\n"]}}]}'
# 99,991 x 98 = 9,799,118 points: each list is short, their product is not.
bad_sweep "grid product too large" '{"configs": [{"family": "jellyfish", "grid": {"n": ["10..100000"], "d": ["3..100"]}}]}'
check "grid product named" grep -q "9799118 points" "$TMP/err"
check "database untouched" test "$(md5sum <"$TMP/a.db")" = "$sum_a"
# A 40,000-point grid lists every feasible SPEC once (jellyfish needs n*d even
# and d < n: for n in 10..409, d in 3..102, count them independently).
printf '{"metrics": ["basic"], "configs": [{"family": "jellyfish", "grid": {"n": ["10..409"], "d": ["3..102"]}}]}\n' >"$TMP/big.json"
want=$(awk 'BEGIN { c = 0; for (n = 10; n <= 409; n++) for (d = 3; d <= 102; d++) if (d < n && (n * d) % 2 == 0) c++; print c }')
check "40k grid lists" test "$("$MOORE" sweep "$TMP/big.json" --list | grep -vc '^task ')" = "$want"

# Two sweeps started at once on a new database both succeed (one makes the
# schema, the other waits for it), whichever wins the race.
printf '{"metrics": ["basic"], "configs": [{"family": "slimfly", "grid": {"q": ["3..9"]}}]}\n' >"$TMP/two.json"
both=0
for i in 1 2 3 4 5 6; do
    "$MOORE" sweep "$TMP/two.json" --db "$TMP/two$i.db" 2>"$TMP/two.err1" &
    p1=$!
    "$MOORE" sweep "$TMP/two.json" --db "$TMP/two$i.db" 2>"$TMP/two.err2"
    r2=$?
    wait $p1 && [ $r2 = 0 ] && both=$((both + 1))
done
check "two sweeps on a new database" test $both = 6

# compare --db reads a database and never writes it; what it cannot read is
# refused with a line saying why.
q "$TMP/two1.db" 'pragma wal_checkpoint(TRUNCATE)' >/dev/null
sum_r=$(md5sum <"$TMP/two1.db")
check "compare --db reads" test "$(status "$MOORE" compare slimfly:q=5 --metrics basic --db "$TMP/two1.db")" = 0
check "compare --db leaves the database as it was" test "$(md5sum <"$TMP/two1.db")" = "$sum_r"
: >"$TMP/zero.db"
refused "compare --db empty file" "empty" "$MOORE" compare petersen --db "$TMP/zero.db"
check "compare --db: an empty file stays empty" test ! -s "$TMP/zero.db"
# A page of the configurations table overwritten: the format row still reads,
# SQLite's integrity check does not pass.
cp "$TMP/two1.db" "$TMP/corrupt2.db"
root=$(q "$TMP/two1.db" "select rootpage from sqlite_master where name = 'configurations'")
psize=$(q "$TMP/two1.db" 'pragma page_size')
printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' |
    dd of="$TMP/corrupt2.db" bs=1 seek=$(((root - 1) * psize + 8)) conv=notrunc 2>/dev/null
refused "compare --db corrupt" "integrity check" "$MOORE" compare petersen --db "$TMP/corrupt2.db"
cp "$TMP/two1.db" "$TMP/schema99.db"
q "$TMP/schema99.db" "update meta set value = '99' where key = 'schema'"
refused "compare --db unknown schema" "schema '99'" "$MOORE" compare petersen --db "$TMP/schema99.db"
q "$TMP/foreign3.db" 'create table t(x); insert into t values (1)'
refused "compare --db foreign" "not a moore sweep database" "$MOORE" compare petersen --db "$TMP/foreign3.db"

# kill -9 of a --jobs parent: no handler can run, yet its workers die too.
# (a sweep of minutes: the workers would still be running when checked)
printf '{"metrics": ["basic", "paths", "spectral"], "seeds": ["1..100"], "configs": [{"family": "jellyfish", "grid": {"n": ["300..400:10"], "d": [6, 8]}}]}\n' >"$TMP/k9.json"
"$MOORE" sweep "$TMP/k9.json" --db "$TMP/k9.db" --jobs 2 2>/dev/null &
pid=$!
for _ in $(seq 400); do
    [ "$(pgrep -P $pid | wc -l)" = 2 ] && break
    sleep 0.02
done
workers=$(pgrep -P $pid)
check "two workers started" test "$(echo "$workers" | wc -w)" = 2
kill -KILL $pid
wait $pid 2>/dev/null
alive=2
for _ in $(seq 250); do
    alive=0
    for w in $workers; do kill -0 "$w" 2>/dev/null && alive=$((alive + 1)); done
    [ $alive = 0 ] && break
    sleep 0.02
done
check "workers die with a killed parent" test $alive = 0
for w in $workers; do kill -KILL "$w" 2>/dev/null; done
printf 'not a database at all\n' >"$TMP/corrupt.db"
check "corrupt db exit 2" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/corrupt.db")" = 2
check "corrupt db one line" test "$(wc -l <"$TMP/err")" = 1
check "corrupt db untouched" test "$(cat "$TMP/corrupt.db")" = "not a database at all"
q "$TMP/foreign.db" 'create table t(x); insert into t values (1)'
sum_f=$(md5sum <"$TMP/foreign.db")
check "foreign db exit 2" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/foreign.db")" = 2
check "foreign db untouched" test "$(md5sum <"$TMP/foreign.db")" = "$sum_f"
q "$TMP/foreign2.db" "create table meta(key, value); insert into meta values ('format', NULL)"
sum_f=$(md5sum <"$TMP/foreign2.db")
check "foreign meta table exit 2" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/foreign2.db")" = 2
check "foreign meta table one line" test "$(wc -l <"$TMP/err")" = 1
check "foreign meta table untouched" test "$(md5sum <"$TMP/foreign2.db")" = "$sum_f"
check "unwritable db exit 2" test "$(status "$MOORE" sweep "$TMP/s.json" --db "$TMP/no/such/dir/x.db")" = 2
check "unwritable one line" test "$(wc -l <"$TMP/err")" = 1
check "bad jobs exit 2" test "$(status "$MOORE" sweep "$TMP/s.json" --jobs 0)" = 2

# Results never depend on the jobs, the threads or where a stopped sweep
# resumed: the same sweep made straight (2 threads), with --jobs 2 (1 thread
# each) and killed then resumed gives the same database, byte for byte once
# the timings are zeroed (.dump, sorted: --jobs 2 inserts in another order).
# The arrangement graph has few distinct eigenvalues, so Lanczos restarts
# from ARPACK's own random vectors, whose seed ARPACK keeps between calls:
# measured one after the other in one process, the same graph under three
# SPECs (p= changes the servers, not the links) got three different last
# bits of lambda_min. Each must equal `moore stats` of the SPEC alone.
cat >"$TMP/det.json" <<'JSON'
{ "metrics": ["spectral", "bisection"], "seeds": [1, 2],
  "configs": [ {"spec": "arrangement:n=9,k=3,p=1"}, {"spec": "arrangement:n=9,k=3,p=2"},
               {"spec": "arrangement:n=9,k=3"}, {"spec": "hypercube:n=10"},
               {"spec": "hyperx:L=2,S=17"},
               {"family": "jellyfish", "grid": {"n": ["300..320:10"], "d": [6]}} ] }
JSON
norm() { # database -> its sorted .dump with the timings zeroed
    cp "$1" "$TMP/norm.db"
    q "$TMP/norm.db" "update tasks set elapsed_s = 0; update measurements set elapsed_s = 0"
    q "$TMP/norm.db" .dump | sort
}
check "det straight" test "$(status "$MOORE" sweep "$TMP/det.json" --db "$TMP/det1.db" --threads 2)" = 0
check "det jobs 2" test "$(status "$MOORE" sweep "$TMP/det.json" --db "$TMP/det2.db" --jobs 2)" = 0
stop_after "$TMP/det.json" "$TMP/det3.db" 2
check "det killed midway" test "$(q "$TMP/det3.db" 'select count(*) from tasks')" \
    -lt "$(q "$TMP/det1.db" 'select count(*) from tasks')"
check "det resumed" test "$(status "$MOORE" sweep "$TMP/det.json" --db "$TMP/det3.db")" = 0
norm "$TMP/det1.db" >"$TMP/det1.sql"
check "det dump has full-precision values" grep -q "'lambda2','double',[-0-9.]\{17,\}" "$TMP/det1.sql"
check "jobs 2 dump equals straight" cmp -s "$TMP/det1.sql" <(norm "$TMP/det2.db")
check "resumed dump equals straight" cmp -s "$TMP/det1.sql" <(norm "$TMP/det3.db")
"$MOORE" stats arrangement:n=9,k=3 --metrics spectral --json >"$TMP/arr.json"
bad=0
for key in lambda2 lambda_min algebraic_connectivity spectral_gap lambda_nontrivial; do
    db=$(q "$TMP/det1.db" "select printf('%!.17g', value) from results where topology = 'arrangement:n=9,k=3' and metric = '$key'")
    want=$(jq -r ".$key" "$TMP/arr.json")
    awk -v a="$db" -v b="$want" 'BEGIN { exit !(a + 0 == b + 0) }' || { echo "  $key: sweep $db, stats $want" >&2; bad=1; }
done
check "sweep equals stats of the SPEC alone, bit for bit" test $bad = 0
check "one graph, three SPECs, the same bits" test "$(q "$TMP/det1.db" "select count(distinct printf('%!.17g', value)) from results where family = 'arrangement' and metric = 'lambda_min'")" = 1

# A plan entry searches at full bandwidth unless told otherwise, and every
# configuration records the planner point it came from (origins).
printf '{"metrics": ["basic"], "configs": [{"plan": {"radix": 16, "endpoints": [100, 200], "families": ["clos"]}}, {"plan": {"radix": 16, "endpoints": 200, "bandwidth": "any", "families": ["clos"]}}]}\n' >"$TMP/plan.json"
check "plan sweep exit 0" test "$(status "$MOORE" sweep "$TMP/plan.json" --db "$TMP/plan.db")" = 0
check "no oversubscribed Clos at full bandwidth" test -z "$(q "$TMP/plan.db" "select c.topology from origins o join configurations c on c.id = o.configuration where o.bandwidth = 1 and c.topology like '%oversub=%' and c.topology not like '%oversub=1%'")"
check "three plan points recorded" test "$(q "$TMP/plan.db" 'select count(*) from origins')" = 3
check "origin of the any-bandwidth row" test "$(q "$TMP/plan.db" 'select radix, endpoints, bandwidth, chosen from origins where bandwidth = 0')" = "16|200|0.0|1"
refused "plan bandwidth without endpoints" "endpoints" "$MOORE" sweep <(printf '{"configs": [{"plan": {"radix": 16, "bandwidth": 1}}]}') --list
# A database of schema 1 (no origins) is read as it is, and gets the table
# when a sweep writes to it; an unknown schema is refused before any write.
cp "$TMP/a.db" "$TMP/old.db"
q "$TMP/old.db" "drop table origins; update meta set value = '1' where key = 'schema'"
check "schema 1 read by compare --db" test "$(status "$MOORE" compare slimfly:q=7 --metrics basic --db "$TMP/old.db")" = 0
check "schema 1 written by sweep" test "$(status "$MOORE" sweep "$TMP/plan.json" --db "$TMP/old.db")" = 0
check "schema 1 upgraded" test "$(q "$TMP/old.db" "select value from meta where key = 'schema'")" = 2
check "upgraded origins filled" test "$(q "$TMP/old.db" 'select count(*) from origins')" = 3
cp "$TMP/a.db" "$TMP/new.db"
q "$TMP/new.db" "update meta set value = '3' where key = 'schema'"
sum_n=$(md5sum <"$TMP/new.db")
refused "sweep on an unknown schema" "schema '3'" "$MOORE" sweep "$TMP/plan.json" --db "$TMP/new.db"
check "unknown schema untouched" test "$(md5sum <"$TMP/new.db")" = "$sum_n"

echo "cli_sweep: $passes passed, $fails failed"
[ "$fails" = 0 ]
