#!/usr/bin/env bash
# cli_badinput.sh — the command line's bad-input contract (docs/json.md):
# every bad input exits with status exactly 2, prints exactly one line on
# stderr starting with "moore: ", prints nothing on stdout, and leaves no
# output file and no temporary file behind. Run as: cli_badinput.sh MOORE SRCDIR
. "$(dirname "$0")/cli.bash" "$@"
MOORE=$(cd "$(dirname "$MOORE")" && pwd)/$(basename "$MOORE")
check "a moore binary at $1" test -x "$MOORE"
T=$TMP
mkdir "$T/in" "$T/w"
cd "$T/w" || exit 1

bad() { # why, args...: refused (cli.bash), and no file left in the working directory
    local why=$1
    shift
    refused "$why (moore $*)" "" "$MOORE" "$@"
    check "$why (moore $*): no file left behind" test -z "$(ls -A "$T/w")"
    rm -rf "${T:?}/w/"* "$T/w/".[!.]* 2>/dev/null
}

# ---- files ----
printf 'hello world\nthis is not a topology\n' >"$T/in/garbage.txt"
head -c 4096 "$MOORE" >"$T/in/binary.dat"
: >"$T/in/empty.txt"
printf '\n\n   \n' >"$T/in/blank.txt"
printf '0 1\n1 2\n2 2\n' >"$T/in/selfloop.txt"
printf '0 1\n1 2\n2 1\n' >"$T/in/duplicate.txt"
printf '0 1\n-3 2\n' >"$T/in/negative.txt"
printf '0 1\n1 4294967296\n' >"$T/in/huge.txt"
printf '0 99999999\n' >"$T/in/sparse.txt"
printf '0 one\n' >"$T/in/nonnumeric.txt"
printf '# moore topology\n# switches: 3\n# links: 3\n0 1\n1 2\n' >"$T/in/truncated.txt"
printf '|V|=3\n|E|=4\n0 1\n1 0\n1 2\n2 0\n' >"$T/in/oneway.topology"
printf 'router 0 node 0 router 1\nrouter 1 node 5\n' >"$T/in/gap.anynet"
mkdir "$T/in/adir"

for f in garbage.txt binary.dat empty.txt blank.txt selfloop.txt duplicate.txt negative.txt \
         huge.txt sparse.txt nonnumeric.txt truncated.txt oneway.topology gap.anynet; do
    bad "file $f" build "$T/in/$f" -o "$T/w/result"
    bad "file $f" stats "$T/in/$f"
done
bad "missing file" build "$T/in/nosuch.txt" -o "$T/w/result"
bad "missing file" stats ./no/such/file.topology
bad "a directory" build "$T/in/adir" -o "$T/w/result"

# Hard edges of the readers (docs/formats.md): a header declaring far more
# switches than the file has links, a number with a leading zero or '+', a
# 13 GB sparse file (NUL bytes). (A line over the 64 MiB limit: tests/test_io.c.)
printf '# moore topology\n# switches: 100000000\n# links: 1\n0 1\n' >"$T/in/isolated.txt"
printf '|V|=100000000\n|E|=2\n0 1\n1 0\n' >"$T/in/isolated.topology"
printf '0 1\n1 02\n2 0\n' >"$T/in/leadingzero.txt"
printf '0 1\n1 +2\n2 0\n' >"$T/in/plus.txt"
truncate -s 13G "$T/in/sparse13g.bin" 2>/dev/null || head -c 1048576 /dev/zero >"$T/in/sparse13g.bin"
for f in isolated.txt isolated.topology leadingzero.txt plus.txt sparse13g.bin; do
    bad "file $f" stats "$T/in/$f"
done
rm -f "$T/in/sparse13g.bin"
# Control characters in arguments are escaped: the error stays one line.
bad "empty metric list" stats petersen --metrics ''
bad "a level list ending with ','" fail petersen --links 0.1, --trials 2
bad "bandwidth below 1e-9 (denormal)" compare --bandwidth 1e-320 --radix 8 --endpoints 20
bad "newline in a SPEC" build "$(printf 'complete:n=5\nq=3')" -o "$T/w/result"
bad "CR and ESC in a file name" stats "$(printf 'no\r\033[2Jsuch')"
bad "newline in an option value" stats petersen --seed "$(printf '7\n8')"
# ... and in the fields of files: a traffic CSV (ESC, CR) and a topology file.
printf '0,1,1\n1,2,\033[2J\n' >"$T/in/esc.csv"
printf 'src,dst,demand\n0,1\r,1\n' >"$T/in/cr.csv"
printf '0 1\n1 \033[2J\n' >"$T/in/esc.txt"
bad "ESC in a traffic field" throughput petersen --tm "$T/in/esc.csv"
bad "CR in a traffic field" throughput petersen --tm "$T/in/cr.csv"
bad "ESC in a topology file" stats "$T/in/esc.txt"
# CR-only line ends would hide all but the first link (docs/formats.md).
printf '0 1\r1 2\r2 0\r' >"$T/in/cr-only.txt"
bad "CR-only line ends" stats "$T/in/cr-only.txt"
# One integer rule everywhere: no blanks, '+', leading zeros or hex.
for v in " 13" "+13" "013" "0x10" "13 "; do
    bad "integer '$v' in a SPEC" build "slimfly:q=$v" -o "$T/w/result"
    bad "integer '$v' in an option" stats petersen --seed "$v"
done
bad "dims with a blank" build "torus:dims=8x 8" -o "$T/w/result"
bad "dims with a leading zero" build torus:dims=08x8 -o "$T/w/result"
# Sizes refused up front: 2^20 lifts of Petersen.
bad "lift --times 20" lift petersen --times 20 -o "$T/w/result"
# The memory guard sees the address-space limit (not with ASan, whose
# shadow memory needs an unlimited address space).
if ! ldd "$MOORE" 2>/dev/null | grep -q libasan; then
    ulimited() { (ulimit -v 1000000 && refusal "" "$MOORE" "$@"); }
    check "build larger than ulimit -v is refused" ulimited build torus:dims=400x400x200 -o "$T/w/result"
    check "build larger than ulimit -v: no file left behind" test -z "$(ls -A "$T/w")"
fi

# ---- SPECs ----
bad "unknown family" build nosuchfamily:n=3 -o "$T/w/result"
bad "unknown family" stats nosuchfamily
bad "unknown key" build complete:n=5,q=3 -o "$T/w/result"
bad "unknown key" build petersen:n=5 -o "$T/w/result"
bad "repeated key" build complete:n=5,n=6 -o "$T/w/result"
bad "non-numeric value" build complete:n=five -o "$T/w/result"
bad "non-numeric value" build petersen:p=1.5 -o "$T/w/result"
bad "negative value" build complete:n=-4 -o "$T/w/result"
bad "missing value" build complete:n= -o "$T/w/result"
bad "malformed SPEC" build complete: -o "$T/w/result"
bad "too big (range)" build complete:n=100000000 -o "$T/w/result"
bad "too big (memory)" build complete:n=200000 -o "$T/w/result"
bad "too big (memory)" stats complete:n=200000
bad "too many endpoints" build petersen:p=100000000 -o "$T/w/result"
bad "radix too small" build petersen:radix=3 -o "$T/w/result"

# ---- command line ----
bad "unknown command" frobnicate petersen
bad "unknown option" build petersen --frobnicate -o "$T/w/result"
bad "unknown option" stats petersen --frobnicate
bad "unknown format" build petersen -f nosuch -o "$T/w/result"
bad "unknown format" build petersen --format=nosuch
bad "missing TOPO" build -o "$T/w/result"
bad "missing TOPO" stats
bad "option without value" build petersen -o
bad "two TOPOs" build petersen complete:n=3 -o "$T/w/result"
bad "unwritable output" build petersen -o "$T/w/no/such/dir/result"

# --help for every command listed by 'moore --help' exits 0 and prints usage.
commands=$("$MOORE" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
check "'moore --help' lists commands" test -n "$commands"
for c in $commands; do
    check "moore $c --help exits 0" "$MOORE" "$c" --help >"$T/stdout" 2>"$T/stderr"
    check "moore $c --help prints its usage" grep -q "usage: moore $c" "$T/stdout"
done
check "moore --help exits 0" "$MOORE" --help >/dev/null

summary cli_badinput
