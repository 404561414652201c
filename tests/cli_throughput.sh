#!/usr/bin/env bash
# cli_throughput.sh — the `moore throughput` contract: keys, exit codes, files.
#   bash cli_throughput.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"

# Petersen, uniform: θ = TUB = 1.8 (closed form), both methods.
check "approx exit 0" test "$(status "$MOORE" throughput petersen --json)" = 0
for key in throughput lower upper method tub link_util_max link_util_mean; do
    check "key $key" grep -q "\"$key\":" "$TMP/out"
done
check "approx method" grep -q '"method":[[:space:]]*"shortest-paths"' "$TMP/out"  # uniform: the balanced shortest-path routing (src/flow/uniform.c)
check "exact exit 0" test "$(status "$MOORE" throughput petersen --exact --json)" = 0
check "exact value" grep -Eq '"throughput":[[:space:]]*1\.(8|79999)' "$TMP/out"
check "exact method" grep -q '"method":[[:space:]]*"colgen-clp"' "$TMP/out"
check "arc exit 0" test "$(status "$MOORE" throughput petersen --exact --method arc --json)" = 0
check "arc value" grep -Eq '"throughput":[[:space:]]*1\.(8|79999)' "$TMP/out"
check "arc method" grep -q '"method":[[:space:]]*"lp-clp"' "$TMP/out"
check "text output" test "$(status "$MOORE" throughput complete:n=6,p=2 --tm worst --eps 0.1)" = 0
check "text has tub" grep -q '^tub ' "$TMP/out"
check "permutation seed" test "$(status "$MOORE" throughput petersen --tm permutation --seed 3 --json)" = 0
check "seed reported" grep -q '"seed":[[:space:]]*3' "$TMP/out"

# The hose model: K_8 with one server per switch has hose throughput n/2 = 4
# (two-phase routing gives it, a balanced cut of 16 links over 4 servers caps it).
check "hose exit 0" test "$(status "$MOORE" throughput complete:n=8 --tm hose --json)" = 0
for key in lower upper method upper_method vlb two_phase; do
    check "hose key $key" grep -q "\"$key\":" "$TMP/out"
done
check "hose lower" grep -Eq '"lower":[[:space:]]*(4|3\.99999)' "$TMP/out"
check "hose upper" grep -Eq '"upper":[[:space:]]*4[,}]' "$TMP/out"
check "hose with routing refused" test "$(status "$MOORE" throughput petersen --tm hose --routing ecmp)" = 2
check "hose with method refused" test "$(status "$MOORE" throughput petersen --tm hose --exact --method arc)" = 2

# A CSV traffic file; a topology file without endpoints (one server per switch).
printf 'src,dst,demand\n0,2,1\n2,0,1\n' >"$TMP/tm.csv"
printf '0 1\n1 2\n' >"$TMP/path.txt"
check "file tm exit 0" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm "$TMP/tm.csv" --exact --json)" = 0
check "file tm value" grep -Eq '"throughput":[[:space:]]*(1|0\.99999)' "$TMP/out"
# A UTF-8 BOM (as an editor on Windows saves CSV) reads as the same matrix,
# as it does in topology files.
printf '\357\273\277src,dst,demand\n0,2,1\n2,0,1\n' >"$TMP/tm-bom.csv"
"$MOORE" throughput "$TMP/path.txt" --tm "$TMP/tm.csv" --exact >"$TMP/nobom.txt"
check "BOM tm exit 0" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm "$TMP/tm-bom.csv" --exact)" = 0
check "BOM tm same result" cmp -s "$TMP/out" "$TMP/nobom.txt"

# Bad input: exit 2 with one line on stderr.
check "missing tm file" test "$(status "$MOORE" throughput petersen --tm "$TMP/nope.csv")" = 2
check "one line" test "$(wc -l <"$TMP/err")" = 1
check "exact and eps" test "$(status "$MOORE" throughput petersen --exact --eps 0.1)" = 2
check "bad eps" test "$(status "$MOORE" throughput petersen --eps 0)" = 2
check "bad eps text" test "$(status "$MOORE" throughput petersen --eps abc)" = 2
check "no topo" test "$(status "$MOORE" throughput)" = 2
check "unknown option" test "$(status "$MOORE" throughput petersen --frobnicate)" = 2
printf '0 1\n2 3\n' >"$TMP/split.txt"
check "disconnected" test "$(status "$MOORE" throughput "$TMP/split.txt")" = 2
check "disconnected says so" grep -q disconnected "$TMP/err"
printf '0,9,1\n' >"$TMP/bad.csv"
check "bad csv" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm "$TMP/bad.csv")" = 2
check "bad csv names line" grep -q 'bad.csv:1' "$TMP/err"
# The number rule of docs/formats.md: 0x10 is not a demand of 16, +1 and 013
# are not switch ids; blanks around a field are fine (a path's θ for one unit
# 0→2 is 1, for 16 units 1/16).
for f in '0,2,0x10' '0,2,+1' '013,2,1' '0,2,.5' '0,2,inf'; do
    printf '%s\n' "$f" >"$TMP/strict.csv"
    check "strict number $f" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm "$TMP/strict.csv" --exact)" = 2
    check "strict number $f one line" test "$(wc -l <"$TMP/err")" = 1
done
printf ' 0 , 2 , 16 \n' >"$TMP/blanks.csv"
check "blanks around fields" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm "$TMP/blanks.csv" --exact --json)" = 0
check "demand 16" grep -Eq '"throughput":[[:space:]]*0\.0625' "$TMP/out"
check "exact too big" test "$(status "$MOORE" throughput complete:n=1500 --tm permutation --exact --method arc)" = 2
check "hint eps" grep -q -- '--eps' "$TMP/err"
# Column generation: Petersen's closed form 1.8 with a certificate.
check "colgen exit 0" test "$(status "$MOORE" throughput petersen --exact --method colgen --json)" = 0
check "colgen value" grep -Eq '"throughput":[[:space:]]*1\.(8|79999)' "$TMP/out"
check "colgen method" grep -q '"method":[[:space:]]*"colgen-clp"' "$TMP/out"
check "colgen converged" grep -q '"converged":[[:space:]]*true' "$TMP/out"
check "method needs exact" test "$(status "$MOORE" throughput petersen --method colgen)" = 2
check "bad method" test "$(status "$MOORE" throughput petersen --exact --method simplex)" = 2

# Anytime: a time limit stops with valid bounds and says so.
check "time limit exit 0" test "$(status "$MOORE" throughput xpander:d=6,k=20,p=2,seed=1 --tm worst --eps 0.0001 --time-limit 0.001 --json)" = 0
check "time limit stopped" grep -q '"stopped":[[:space:]]*"time-limit"' "$TMP/out"
check "time limit not converged" grep -q '"converged":[[:space:]]*false' "$TMP/out"
# SIGINT: the bounds reached are printed, exit status 130.
"$MOORE" throughput xpander:d=8,k=40,p=2,seed=1 --tm worst --eps 0.0001 --json >"$TMP/int" 2>/dev/null &
pid=$!
sleep 2
kill -INT $pid
wait $pid
check "sigint status" test $? = 130
check "sigint bounds" grep -q '"stopped":[[:space:]]*"cancelled"' "$TMP/int"
check "sigint upper" grep -q '"upper":' "$TMP/int"

# Traffic files at the edges of double, endless lines and binary data.
printf '0,1,1e308\n0,1,1e308\n' >"$TMP/inf.csv"
check "inf sum" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm "$TMP/inf.csv")" = 2
check "inf sum one line" test "$(wc -l <"$TMP/err")" = 1
printf '0,1,1e-308\n' >"$TMP/denormal.csv"
check "denormal" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm "$TMP/denormal.csv")" = 2
check "denormal says so" grep -q subnormal "$TMP/err"
check "dev zero" test "$(status "$MOORE" throughput "$TMP/path.txt" --tm /dev/zero)" = 2
check "dev zero one line" test "$(wc -l <"$TMP/err")" = 1

# theta(c*T) = theta(T)/c: one demand d between Petersen switches 0 and 1
# (3-edge-connected, so theta = 3/d by Menger's theorem) at every scale a
# double holds; the approximation's bounds bracket 3/d, --exact gives it.
num() { sed -n "s/.*\"$1\":[[:space:]]*\([^,]*\),*$/\1/p" "$TMP/out" | head -1; }
for d in 1e-300 1e-20 1e10 1e20 1e300 1e308; do
    printf '0,1,%s\n' "$d" >"$TMP/scale.csv"
    check "scale $d approx" test "$(status "$MOORE" throughput petersen --tm "$TMP/scale.csv" --json)" = 0
    check "scale $d brackets 3/d" awk -v l="$(num lower)" -v u="$(num upper)" -v d="$d" \
        'BEGIN { w = 3 / d; exit !(l <= w * (1 + 1e-12) && u >= w * (1 - 1e-12)) }'
    check "scale $d exact" test "$(status "$MOORE" throughput petersen --tm "$TMP/scale.csv" --exact --json)" = 0
    check "scale $d exact 3/d" awk -v v="$(num throughput)" -v d="$d" \
        'BEGIN { w = 3 / d; exit !(v >= w * (1 - 1e-7) && v <= w * (1 + 1e-7)) }'
done
printf '0,1,1.7976931348623157e308\n' >"$TMP/scale.csv"
check "theta below doubles" test "$(status "$MOORE" throughput petersen --tm "$TMP/scale.csv")" = 2
check "theta below doubles one line" test "$(wc -l <"$TMP/err")" = 1
check "theta below doubles says so" grep -q 'smallest normal double' "$TMP/err"

# The same bytes for any thread count (a wall-clock "seconds" key left out).
exact_json() { "$MOORE" throughput xpander:d=8,k=10,seed=3 --exact --json "$@" | grep -v '"seconds"'; }
OMP_NUM_THREADS=1 exact_json >"$TMP/t1.json"
OMP_NUM_THREADS=2 exact_json >"$TMP/t2.json"
OMP_NUM_THREADS=2 exact_json --threads 1 >"$TMP/t3.json"
check "exact json written" grep -q '"upper":' "$TMP/t1.json"
check "same bytes OMP 1 and 2" cmp -s "$TMP/t1.json" "$TMP/t2.json"
check "same bytes --threads 1" cmp -s "$TMP/t1.json" "$TMP/t3.json"

check "help" test "$(status "$MOORE" throughput --help)" = 0

# The metric group reports the keys compare reads; nulls when disconnected.
check "stats throughput" test "$(status "$MOORE" stats petersen --metrics throughput --json)" = 0
for key in throughput_uniform throughput_uniform_upper throughput_worst throughput_worst_upper tub_uniform tub_worst; do
    check "stats key $key" grep -q "\"$key\":" "$TMP/out"
done
check "stats disconnected" test "$(status "$MOORE" stats "$TMP/split.txt" --metrics throughput --json)" = 0
check "stats null" grep -Eq '"throughput_uniform":[[:space:]]*null' "$TMP/out"

printf '# moore topology\n# endpoints: 3 0 0\n0 1\n1 2\n' >"$TMP/one.txt"
check "stats one server switch" test "$(status "$MOORE" stats "$TMP/one.txt" --metrics throughput --json)" = 0
check "stats one null" grep -Eq '"tub_worst":[[:space:]]*null' "$TMP/out"
check "throughput one server switch" test "$(status "$MOORE" throughput "$TMP/one.txt")" = 2
# Identity (docs/json.md): the SPEC that rebuilds the topology, its family and
# params; null for a file without an origin.
check "identity exit 0" test "$(status "$MOORE" throughput slimfly:q=5 --tm worst --eps 0.2 --json --progress)" = 0
check "identity topology" grep -q '"topology":[[:space:]]*"slimfly:q=5"' "$TMP/out"
check "identity family" grep -q '"family":[[:space:]]*"slimfly"' "$TMP/out"
check "identity params" grep -q '"params":[[:space:]]*"q=5"' "$TMP/out"
# --progress with stderr not a terminal: one line per improvement of the bounds.
check "progress lines" grep -Eq '^throughput phase [0-9]+ lower [0-9.e-]+ upper [0-9.e-]+ gap [0-9.e+-]+% [0-9.]+ s$' "$TMP/err"
check "file identity" test "$(status "$MOORE" throughput "$TMP/path.txt" --json)" = 0
check "file topology null" grep -q '"topology":[[:space:]]*null' "$TMP/out"
check "file family null" grep -q '"family":[[:space:]]*null' "$TMP/out"

# --help names the keys the JSON has, each of them (stopped appears only when stopped early),
# and the AI-job matrices --tm takes.
"$MOORE" throughput --help >"$TMP/help.txt" 2>&1
for run in "" "--exact" "--exact --method arc"; do
    "$MOORE" throughput slimfly:q=5 $run --json >>"$TMP/keys.json"
done
check "help lists llm:" grep -q "llm:tp=T,pp=P,dp=D" "$TMP/help.txt"
check "help keys are the JSON's keys" python3 - "$TMP/help.txt" "$TMP/keys.json" <<'PY'
import json, re, sys
text = " ".join(open(sys.argv[1]).read().split())
para = re.sub(r"\([^)]*\)", "", text.split("Keys:", 1)[1]).split(".", 1)[0]
named = {k.strip() for part in para.split(",") for k in part.split(" and ") if k.strip()}
seen = set()
for obj in re.findall(r"\{.*?\n\}", open(sys.argv[2]).read(), re.S):
    seen |= set(json.loads(obj))
missing, extra = seen - named, named - seen - {"stopped"}
if missing or extra:
    print("not in --help:", sorted(missing), "in --help, in no JSON:", sorted(extra))
sys.exit(1 if missing or extra else 0)
PY

# The uniform matrix is never stored one entry per pair (9 million here,
# 108 MB, more than a 400 MB address space leaves moore): its rows are made as
# the approximation needs them, so the run fits. eps = 1: one phase suffices.
# AddressSanitizer's shadow memory needs terabytes of address space: skipped.
if ! ldd "$MOORE" 2>/dev/null | grep -q libasan; then
    check "uniform in O(n) memory under a 400 MB address space" test "$(status \
        prlimit --as=400000000 "$MOORE" throughput jellyfish:n=3000,d=4,seed=1 --tm uniform \
        --eps 1 --json)" = 0
    check "uniform in O(n) memory: converged" grep -q '"converged":[[:space:]]*true' "$TMP/out"
fi

echo "cli_throughput: $passes passed, $fails failed"
[ "$fails" = 0 ]
