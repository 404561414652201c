#!/usr/bin/env bash
# cli_json.sh — one JSON vocabulary (docs/json.md, tests/json_vocabulary.txt)
# and the options every command takes (cli/options.c): every command's --json
# uses only keys of the vocabulary, each with a listed type; a result that
# measures a topology names it (topology = family:params, a SPEC that
# rebuilds it); --json=lines prints the same objects one compact line each;
# --threads 1 and --threads 2 print identical JSON; --progress draws on
# stderr when it is not a terminal; bad common options, the iso --endpoints
# confusion and fat-trees with p > k/2 are refused with one line and exit 2;
# unknown commands, options, families, keys, metric groups and formats get a
# "did you mean" in their one error line; file:PATH,p=P gives a file endpoints;
# the headers lift and expand write rebuild their files byte for byte.
# Run as: cli_json.sh MOORE SRCDIR
. "$(dirname "$0")/cli.bash" "$@"
MOORE=$(cd "$(dirname "$MOORE")" && pwd)/$(basename "$MOORE")
SRC=$(cd "$SRC" && pwd)
check "a moore binary at $1" test -x "$MOORE"
command -v jq >/dev/null || { echo "jq is needed (scripts/setup.sh installs it)"; exit 1; }
cd "$TMP" || exit 1
say() { echo "    $*" >&2; }   # detail under a FAIL line

# The vocabulary as a jq object {key: "type|type"}.
awk '!/^#/ && NF { printf "%s\t%s\n", $1, $2 }' "$SRC/tests/json_vocabulary.txt" |
    jq -R -s 'split("\n") | map(select(length > 0) | split("\t") | {(.[0]): .[1]}) | add' \
        >vocab.json

# vocabulary NAME FILE: every key of every object in FILE (a JSON text of one
# or more values) is in the vocabulary with one of its types.
vocabulary() {
    local bad
    bad=$(jq -r --slurpfile v vocab.json '
        .. | objects | to_entries[] | .key as $k | (.value | type) as $t |
        select((($v[0][$k] // "") | split("|") | index($t)) == null) | "\($k) (\($t))"' \
        "$2" 2>&1 | sort -u | head -5)
    check "$1: every key and type in tests/json_vocabulary.txt" test -z "$bad" || say $bad
}

# identity NAME FILE: each result object has topology, family and params,
# and topology is family:params (or family alone without params).
identity() {
    check "$1: every result has topology = family:params" jq -e -s 'map(if type == "array" then .[] else . end) | length > 0 and
              all(.topology != null and .family != null and .params != null and
                  .topology == (.family + (if .params == "" then "" else ":" + .params end)))' \
        "$2" >/dev/null
}

# lines NAME ARGS...: --json=lines prints one compact object a line, the
# same objects as --json (an array's elements in order).
lines() {
    local name=$1
    shift
    check "$name --json exits 0" "$MOORE" "$@" --json >pretty.json 2>/dev/null
    check "$name --json=lines exits 0" "$MOORE" "$@" --json=lines >lines.json 2>/dev/null
    check "$name --json=lines: one object a line" bash -c '! grep -qv "^{.*}$" lines.json'
    check "$name: --json=lines equals --json" jq -e -s --slurpfile p pretty.json \
        '. == ($p | map(if type == "array" then .[] else . end))' lines.json >/dev/null
}

# json NAME ID ARGS...: run, then check vocabulary (and identity when ID=1).
json() {
    local name=$1 id=$2
    shift 2
    check "$name exits 0" "$MOORE" "$@" --json >out.json 2>err.txt || { say "$(head -1 err.txt)"; return; }
    vocabulary "$name" out.json
    [ "$id" = 1 ] && identity "$name" out.json
    lines "$name" "$@"
}

"$MOORE" build slimfly:q=5 -o sf.el
json "stats --all" 1 stats slimfly:q=3 --all
json "stats file" 1 stats sf.el
json "stats fattree" 1 stats fattree:k=4 --metrics basic,paths,bisection
json "layout" 1 layout slimfly:q=5
json "iso" 0 iso slimfly:q=5 sf.el
json "families" 0 families
json "lift" 0 lift slimfly:q=3 -o lift.el
json "throughput" 1 throughput slimfly:q=3
json "throughput hose" 1 throughput slimfly:q=3 --tm hose
json "compare --job" 1 compare slimfly:q=3 fattree:k=4 --metrics basic,layout --job allreduce:servers=16 --link-rate 100 --step-routing ecmp
json "step" 1 step slimfly:q=3 --job llm:tp=2,pp=2,dp=3 --link-rate 400 --place search --evals 3
json "plan" 1 plan --radix 12
json "plan --bandwidth" 1 plan --radix 16 --endpoints 300 --bandwidth 1 --families clos,jellyfish
json "compare search" 1 compare --radix 12 --endpoints 150 --families clos,jellyfish --metrics basic,paths
json "compare TOPO" 1 compare slimfly:q=3 fattree:k=4 --metrics basic,paths,spectral,throughput --tm worst
json "grow" 0 grow --radix 12 --steps 60,130 --families jellyfish,clos,polarfly --batch 16

# --threads N: same JSON for 1 and 2 threads.
"$MOORE" stats xpander:d=4,k=8,seed=3 --all --json --threads 1 >t1.json 2>/dev/null
"$MOORE" stats xpander:d=4,k=8,seed=3 --all --json --threads 2 >t2.json 2>/dev/null
check "stats --threads 1 and 2 print JSON" test -s t1.json
check "stats --threads 1 and 2 agree" cmp -s t1.json t2.json
"$MOORE" layout slimfly:q=5 --json --threads 1 >t1.json 2>/dev/null
"$MOORE" layout slimfly:q=5 --json --threads=2 >t2.json 2>/dev/null
check "layout --threads 1 and 2 print JSON" test -s t1.json
check "layout --threads 1 and 2 agree" cmp -s t1.json t2.json

# --progress: lines on stderr although stderr is a file here.
"$MOORE" lift slimfly:q=3 -o /dev/null --progress >/dev/null 2>prog.txt
check "lift --progress draws on stderr" grep -q '^moore: .*%$' prog.txt
"$MOORE" lift slimfly:q=3 -o /dev/null >/dev/null 2>prog.txt
check "no progress without --progress on a non-terminal" test ! -s prog.txt

# refused (tests/cli.bash): exit 2, exactly one line "moore: ..." containing WORDS.
no() { # words, args...: moore ARGS refused with WORDS in the line
    local words=$1
    shift
    refused "moore $*" "$words" "$MOORE" "$@"
}
no "--threads 0 is outside 1..4096" stats slimfly:q=5 --threads 0
no "--threads 'x' is not an integer" stats slimfly:q=5 --threads x
no "needs a value" stats slimfly:q=5 --threads
no "--json='tab' is not 'pretty' or 'lines'" stats slimfly:q=5 --json=tab
no "unknown option '--json'" build slimfly:q=5 --json=lines
no "use --match-endpoints" iso slimfly:q=5 sf.el --endpoints
no "use --match-endpoints" iso slimfly:q=5 sf.el --endpoints=3
no "p=3 exceeds k/2 = 2" build fattree:k=4,p=3
no "radix 81" stats fattree:k=64,p=49 --metrics basic

# did you mean, in the one error line.
no "unknown command 'stat' (did you mean 'stats'?)" stat slimfly:q=5
no "unknown command 'buidl' (did you mean 'build'?)" help buidl
no "unknown option '--jsn' (did you mean '--json'?)" stats slimfly:q=5 --jsn
no "unknown option '--metric' (did you mean '--metrics'?)" stats slimfly:q=5 --metric basic
no "unknown family 'slimfy' (did you mean 'slimfly'?)" stats slimfy:q=5
no "unknown key 'qq' (did you mean 'q'?)" stats slimfly:qq=5
no "unknown metric 'basc' (did you mean 'basic'?)" stats slimfly:q=5 --metrics basc
no "unknown format 'edgelst' (did you mean 'edgelist'?)" build slimfly:q=5 -f edgelst
"$MOORE" stats zzzzzz:q=5 2>err.txt
check "no suggestion for a word close to nothing" bash -c '! grep -q "did you mean" err.txt'

# file:PATH,p=P and file:PATH,radix=R: endpoints for a plain link list (a
# triangle: every switch has network degree 2), and the SPEC rebuilds it.
printf '0 1\n1 2\n2 0\n' >tri.txt
check "file:tri.txt,p=3 exits 0" "$MOORE" stats file:tri.txt,p=3 --metrics basic --json >fp.json
check "file:tri.txt,p=3: 9 endpoints, radix 5, topology file:tri.txt,p=3" \
    jq -e '.endpoints == 9 and .radix == 5 and .topology == "file:tri.txt,p=3"' fp.json >/dev/null
check "file:tri.txt,radix=6 exits 0" "$MOORE" stats file:tri.txt,radix=6 --metrics basic --json >fr.json
check "file:tri.txt,radix=6: 4 endpoints on each of 3 switches" \
    jq -e '.endpoints == 12 and .radix == 6' fr.json >/dev/null
check "build the topology of file:tri.txt,p=3" "$MOORE" build "$(jq -r .topology fp.json)" -o again.el
check "build file:tri.txt,p=3" "$MOORE" build file:tri.txt,p=3 -o once.el
check "the topology of file:tri.txt,p=3 rebuilds it" cmp -s again.el once.el
no "radix=1 is below switch 0's network degree 2" stats file:tri.txt,radix=1
no "known: p, radix" stats file:tri.txt,q=1
no "give p=P or radix=R" stats file:tri.txt

# Provenance: the header of what lift and expand write names a SPEC that
# rebuilds the file byte for byte (lift: and expand: families).
spec_of() { echo "$(sed -n 's/^# family: //p' "$1"):$(sed -n 's/^# params: //p' "$1")"; }
check "lift exits 0" "$MOORE" lift slimfly:q=3 --times 2 --seed 7 -o lifted.el >/dev/null 2>&1
check "expand exits 0" "$MOORE" expand lifted.el --add 3 --seed 5 -o grown.el >/dev/null 2>&1
for f in lifted.el grown.el; do
    s=$(spec_of "$f")
    check "$f: its header's SPEC '$s' builds" "$MOORE" build "$s" -o "re-$f" 2>err.txt || say "$(head -1 err.txt)"
    check "$f: its header's SPEC '$s' rebuilds it" cmp -s "$f" "re-$f"
done
check "lifted.el header: $(spec_of lifted.el)" \
    test "$(spec_of lifted.el)" = "lift:times=2,seed=7,tries=4,evals=32,of=slimfly:q=3"
no "of= is required" build lift:times=1
no "add= is required" build expand:of=slimfly:q=3

# moore help CMD = moore CMD --help, for every command.
for c in $("$MOORE" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
    "$MOORE" help "$c" >h1.txt
    "$MOORE" "$c" --help >h2.txt
    check "moore help $c prints its usage" grep -q "^usage: moore $c" h1.txt
    check "moore help $c equals moore $c --help" cmp -s h1.txt h2.txt
done

summary cli_json
