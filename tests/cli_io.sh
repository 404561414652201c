#!/usr/bin/env bash
# cli_io.sh — files through the command line: every format written with -o
# equals the same format on stdout byte for byte and is stable across runs;
# moore reads back its edge list, netbench and BookSim2 exports as the same
# graph; the netbench Xpander file reads as 231 switches, 10-regular; output
# files get ordinary permissions. Where python3 with networkx is installed,
# networkx reads the GraphML and edge list, and moore reads networkx's files.
# Run as: cli_io.sh MOORE SRCDIR
. "$(dirname "$0")/cli.bash" "$@"
MOORE=$(cd "$(dirname "$MOORE")" && pwd)/$(basename "$MOORE")
SRC=$(cd "$SRC" && pwd)
check "a moore binary at $1" test -x "$MOORE"
T=$TMP
cd "$T" || exit 1

links_of() { grep -v '^#' "$1" | grep -v '^$'; } # the link lines of an edge list

XPANDER=$SRC/tests/data/xpander_n231_d10.topology
formats=$("$MOORE" build --formats | awk '{print $1}')
check "six formats listed" test "$(echo "$formats" | wc -l)" -eq 6

# -o FILE equals stdout, and a second run gives the same bytes.
for spec in petersen hoffman-singleton:p=3 complete:n=5,radix=9 "$XPANDER"; do
    for f in $formats; do
        "$MOORE" build "$spec" -f "$f" -o "$T/out.$f" 2>"$T/err"
        check "build $spec -f $f -o exits 0 quietly" test $? -eq 0 -a ! -s "$T/err"
        "$MOORE" build "$spec" -f "$f" >"$T/stdout.$f"
        check "build $spec -f $f: -o FILE equals stdout" cmp "$T/out.$f" "$T/stdout.$f"
        "$MOORE" build "$spec" --format="$f" --output="$T/again.$f"
        check "build $spec -f $f: byte-stable" cmp "$T/out.$f" "$T/again.$f"
    done
done
check "no temporary files left" test "$(ls -A "$T" | grep -c '\.tmp\.')" -eq 0

# Output files get the umask's permissions (not a temporary file's 0600).
(umask 022 && "$MOORE" build petersen -o "$T/perm.txt")
check "output file mode 644 under umask 022" test "$(stat -c %a "$T/perm.txt")" = 644
# Rewriting an existing file keeps its permission bits.
cp "$T/perm.txt" "$T/perm640.txt" && chmod 640 "$T/perm640.txt"
(umask 022 && "$MOORE" build complete:n=4 -o "$T/perm640.txt")
check "rewritten file keeps mode 640" test "$(stat -c %a "$T/perm640.txt")" = 640
check "rewritten file has the new graph" grep -q '^# family: complete' "$T/perm640.txt"
# stats --json and build -f json agree on family/params: null for a plain file.
printf '0 1\n1 2\n2 0\n' >"$T/plain.txt"
check "stats --json: family and params null for a plain file" \
    test "$("$MOORE" stats "$T/plain.txt" --json | jq -c '[.family, .params]')" = '[null,null]'
check "build -f json: family and params null for a plain file" \
    test "$("$MOORE" build "$T/plain.txt" -f json | jq -c '[.family, .params]')" = '[null,null]'
# radix counts a HyperX trunk K times: p + K*L*(S-1) = 2 + 3*2*3.
check "stats radix of hyperx:S=4,L=2,K=3,p=2 is 20" \
    test "$("$MOORE" stats hyperx:S=4,L=2,K=3,p=2 --json | jq .radix)" = 20
# A write failure names the file and the reason (/dev/full: ENOSPC).
if [ -w /dev/full ]; then
    "$MOORE" build slimfly:q=5 -f graphml -o /dev/full 2>"$T/full.err"
    check "write failure exits 2" test $? -eq 2
    check "write failure names the file and errno" grep -q "^moore: cannot write '/dev/full'.*No space left on device" "$T/full.err"
    # Standard output is checked too: every command's printed result, short
    # (flushed at exit) or long (flushed on the way), fails with one line.
    for args in "stats slimfly:q=13 --json" "stats slimfly:q=5" "families" "help" "--help" \
        "build slimfly:q=13 -f graphml" "stats slimfly:q=5 --json=lines" "help stats"; do
        # shellcheck disable=SC2086
        "$MOORE" $args >/dev/full 2>"$T/full.err"
        check "moore $args >/dev/full exits 2" test $? -eq 2
        check "moore $args >/dev/full: one line naming stdout and ENOSPC" \
            test "$(grep -c "^moore: cannot write.*standard output.*No space left on device" "$T/full.err")" = 1
    done
fi

# A write stopped by SIGINT, SIGTERM or SIGHUP leaves no temporary behind:
# the process is frozen (SIGSTOP) once its temporary exists, so the signal
# lands mid-write whatever the machine's speed.
seen_any=0
for sig in INT TERM HUP; do
    mkdir "$T/sig$sig"
    env --default-signal=INT "$MOORE" build torus:dims=100x50x20 -f graphml -o "$T/sig$sig/big.graphml" &
    pid=$!
    seen=0
    for _ in $(seq 3000); do
        if ls "$T/sig$sig"/*.tmp.* >/dev/null 2>&1; then
            # still there once frozen: mid-write (else it finished: not checked)
            kill -STOP $pid 2>/dev/null && ls "$T/sig$sig"/*.tmp.* >/dev/null 2>&1 && seen=1
            break
        fi
        kill -0 $pid 2>/dev/null || break
        sleep 0.01
    done
    kill -$sig $pid 2>/dev/null
    kill -CONT $pid 2>/dev/null
    wait $pid
    rc=$?
    if [ $seen = 1 ]; then
        seen_any=1
        check "SIG$sig mid-write ends the process" test $rc -gt 128
        check "SIG$sig mid-write leaves nothing" test -z "$(ls -A "$T/sig$sig")"
    fi
done
check "a signal landed mid-write at least once" test $seen_any = 1

# As root: rewriting a file keeps its owner; a file with two hard links is
# rewritten in place, so both names show the new content.
"$MOORE" build petersen -o "$T/owned.txt"
if [ "$(id -u)" = 0 ]; then
    chown 65534:65534 "$T/owned.txt"
    "$MOORE" build complete:n=5 -o "$T/owned.txt"
    check "-o keeps the owner" test "$(stat -c %u:%g "$T/owned.txt")" = 65534:65534
fi
ln "$T/owned.txt" "$T/owned2.txt"
ino=$(stat -c %i "$T/owned.txt")
"$MOORE" build slimfly:q=5 -o "$T/owned.txt"
"$MOORE" build slimfly:q=5 -o "$T/want5.txt"
check "-o keeps hard links" test "$(stat -c %i "$T/owned.txt")" = "$ino"
check "-o: the other hard link shows the new content" cmp -s "$T/owned2.txt" "$T/want5.txt"
check "-o: no temporary left beside a hard-linked file" test -z "$(ls -A "$T" | grep '\.tmp\.')"

# Devices, FIFOs and symlinks are written through, never renamed over.
ln -s /dev/null "$T/null"
"$MOORE" build petersen -o "$T/null"
check "a symlink to /dev/null stays a symlink" test -L "$T/null"
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
"$MOORE" build petersen -o "$T/fifo"
wait
check "a FIFO is written in place" cmp "$T/fifo.out" "$T/perm.txt"
check "a FIFO stays a FIFO" test -p "$T/fifo"
if [ -L /dev/stdout ]; then
    "$MOORE" build petersen -o /dev/stdout >"$T/devstdout.txt"
    check "-o /dev/stdout writes to standard output" cmp "$T/devstdout.txt" "$T/perm.txt"
    check "/dev/stdout is still a symlink" test -L /dev/stdout
fi

# Reading back: edge list -> edge list is the identity, bytes included.
"$MOORE" build hoffman-singleton:p=4 -o "$T/hs.txt"
"$MOORE" build "$T/hs.txt" -o "$T/hs2.txt"
check "edge list read and written again is identical" cmp "$T/hs.txt" "$T/hs2.txt"
# netbench -> edge list keeps links, endpoints and origin.
"$MOORE" build hoffman-singleton:p=4 -f netbench -o "$T/hs.topology"
"$MOORE" build "$T/hs.topology" -o "$T/hs3.txt"
check "netbench export reads back as the same topology" cmp "$T/hs.txt" "$T/hs3.txt"
# BookSim2 anynet -> edge list keeps links and endpoints (origin is not in the format).
"$MOORE" build hoffman-singleton:p=4 -f booksim -o "$T/hs.anynet"
"$MOORE" build "$T/hs.anynet" -o "$T/hs4.txt"
check "booksim export reads back with the same links" cmp <(links_of "$T/hs.txt") <(links_of "$T/hs4.txt")
check "booksim export reads back with the same endpoints" grep -qx '# endpoints: 4' "$T/hs4.txt"
check "booksim: 200 terminals numbered 0..199" test "$(grep -o 'node [0-9]*' "$T/hs.anynet" | awk '{print $2}' | sort -n | uniq | tr '\n' ' ')" = "$(seq -s ' ' 0 199) "

# The netbench Xpander file from the Xpander authors.
"$MOORE" stats "$XPANDER" --json --metrics basic >"$T/xp.json"
check "xpander: 231 switches" grep -q '"switches":[[:space:]]*231' "$T/xp.json"
check "xpander: 1155 links" grep -q '"links":[[:space:]]*1155' "$T/xp.json"
check "xpander: 10-regular" grep -q '"degree_min":[[:space:]]*10' "$T/xp.json"
check "xpander: 10-regular" grep -q '"degree_max":[[:space:]]*10' "$T/xp.json"
"$MOORE" build "$XPANDER" -f netbench -o "$T/xp.topology"
check "xpander: netbench export has the original's link lines" \
    cmp <(grep -E '^[0-9]+ [0-9]+$' "$XPANDER") <(grep -E '^[0-9]+ [0-9]+$' "$T/xp.topology")

# Exporters checked structurally.
"$MOORE" build hoffman-singleton -f graphml -o "$T/hs.graphml"
check "graphml: 50 nodes" test "$(grep -c '<node ' "$T/hs.graphml")" -eq 50
check "graphml: 175 edges" test "$(grep -c '<edge ' "$T/hs.graphml")" -eq 175
if command -v xmllint >/dev/null; then
    check "graphml is well-formed XML" xmllint --noout "$T/hs.graphml"
fi
"$MOORE" build hoffman-singleton -f dot -o "$T/hs.dot"
check "dot: 175 edges" test "$(grep -c ' -- ' "$T/hs.dot")" -eq 175
check "dot: 50 nodes with endpoints" test "$(grep -c '\[endpoints=1' "$T/hs.dot")" -eq 50
"$MOORE" build hoffman-singleton -f json -o "$T/hs.json"
check "json: 175 link pairs" test "$(grep -cE '^    \[[0-9]+, [0-9]+\],?$' "$T/hs.json")" -eq 175

# Interop with networkx, where it is installed (it is optional: CI may lack it).
if python3 -c 'import networkx' 2>/dev/null; then
    # One python run (importing networkx takes seconds): checks, then files for moore.
    check "networkx reads the GraphML as SST/merlin anytopo does, and the edge list" \
        python3 - "$T" <<'EOF'
import sys, networkx as nx
T = sys.argv[1]
G = nx.read_graphml(T + "/hs.graphml")
assert not G.is_directed() and not G.is_multigraph()
assert G.number_of_nodes() == 50 and G.number_of_edges() == 175
# merlin relabels nodes by enumeration order and reads int(node['endpoints'])
order = {v: i for i, v in enumerate(G.nodes())}
assert all(order[v] == int(v) for v in G.nodes())
assert all(int(G.nodes[v]['endpoints']) == 1 for v in G.nodes())
assert G.nodes['0']['label'] == 'P0.0' and G.graph['family'] == 'hoffman-singleton'
assert all(d == 7 for _, d in G.degree())
E = nx.read_edgelist(T + "/hs.txt", nodetype=int)
assert E.number_of_nodes() == 50 and E.number_of_edges() == 175
assert {tuple(sorted(e)) for e in E.edges()} == {tuple(sorted((int(u), int(v)))) for u, v in G.edges()}
R = nx.random_regular_graph(4, 30, seed=1)
nx.write_edgelist(R, T + "/nx_default.txt")
nx.write_edgelist(R, T + "/nx_plain.txt", data=False)
nx.set_edge_attributes(R, 1.5, "weight")
nx.write_weighted_edgelist(R, T + "/nx_weighted.txt")
EOF
    for f in nx_default nx_plain nx_weighted; do
        "$MOORE" stats "$T/$f.txt" --json --metrics basic >"$T/$f.json" 2>&1
        check "moore reads networkx $f: 30 switches" grep -q '"switches":[[:space:]]*30' "$T/$f.json"
        check "moore reads networkx $f: 60 links" grep -q '"links":[[:space:]]*60' "$T/$f.json"
    done
else
    echo "note: python3 with networkx not found; networkx interop checks skipped"
fi

summary cli_io
