#!/usr/bin/env bash
# cli_routing.sh — the `moore route` and `moore throughput --routing` contract:
# keys, files (whole or absent), exit codes and one-line errors.
#   bash cli_routing.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
json() { jq -r "$1" "$TMP/out"; }

check "route exit 0" test "$(status "$MOORE" route petersen --algo ksp:k=4 --json \
    --paths "$TMP/p.csv" --tables "$TMP/t.csv")" = 0
for key in algo pairs paths_total paths_per_pair_min paths_per_pair_mean paths_per_pair_max \
    hops_mean hops_max table_entries_max table_entries_total cdg_acyclic layers vcs_hop_index; do
    check "key $key" test "$(json "has(\"$key\")")" = true
done
# Petersen: 90 ordered pairs, 4 paths each; diameter 2, girth 5.
check "pairs" test "$(json .pairs)" = 90
check "paths total" test "$(json .paths_total)" = 360
check "algo name" test "$(json .algo)" = "ksp:k=4"
check "paths header" test "$(head -1 "$TMP/p.csv")" = "src,dst,rank,layer,path"
check "paths rows" test "$(($(wc -l <"$TMP/p.csv") - 1))" = 360
# every path starts at src, ends at dst, and walks links of the Petersen graph
"$MOORE" build petersen -o "$TMP/pet.txt" >/dev/null 2>&1
check "paths walk links" awk -F, '
    FNR == NR { if ($0 !~ /^#/) { split($0, e, " "); link[e[1] "-" e[2]] = 1; link[e[2] "-" e[1]] = 1 }; next }
    FNR == 1 { next }
    { n = split($5, h, "-"); if (h[1] != $1 || h[n] != $2) bad = 1
      for (i = 1; i < n; i++) if (!((h[i] "-" h[i + 1]) in link)) bad = 1 }
    END { exit bad }' "$TMP/pet.txt" "$TMP/p.csv"
check "tables header" test "$(head -1 "$TMP/t.csv")" = "switch,dst_first,dst_last,layer,ports,weights"
check "tables integer weights, one per port" awk -F, 'NR > 1 { n = split($5, p, " "); m = split($6, w, " ")
    if (n != m || n == 0) bad = 1; for (i = 1; i <= m; i++) if (w[i] !~ /^[1-9][0-9]*$/) bad = 1 }
    END { exit bad }' "$TMP/t.csv"

# netbench's KSP cache: "k=K", then rank,src,dst,path for the pairs of switches
# with servers (fattree:k=4: the 8 edge switches 0..7, 56 pairs); the same paths
# as the CSV, ranks from 1.
check "netbench exit 0" test "$(status "$MOORE" route fattree:k=4 --algo ksp:k=3 --no-layers \
    --paths "$TMP/ft.kspaths" --json)" = 0
check "netbench k line" test "$(head -1 "$TMP/ft.kspaths")" = "k=3"
check "netbench rows" test "$(($(wc -l <"$TMP/ft.kspaths") - 1))" = $((56 * 3))
check "netbench ToRs only" awk -F, 'NR > 1 && ($2 > 7 || $3 > 7 || $1 < 1 || $1 > 3) { bad = 1 }
    END { exit bad }' "$TMP/ft.kspaths"
"$MOORE" route fattree:k=4 --algo ksp:k=3 --no-layers --paths "$TMP/ft.csv" >/dev/null 2>&1
check "netbench same paths as csv" test "$(awk -F, 'NR > 1 && $1 < 8 && $2 < 8 {
    print $3 + 1 "," $1 "," $2 "," $5 }' "$TMP/ft.csv" | sort)" = "$(tail -n +2 "$TMP/ft.kspaths" | sort)"
check "netbench format flag" test "$(status "$MOORE" route petersen --algo ecmp \
    --paths "$TMP/pe.txt" --paths-format netbench)" = 0
check "netbench ecmp k" test "$(head -1 "$TMP/pe.txt")" = "k=1"
check "bad paths format" test "$(status "$MOORE" route petersen --paths "$TMP/x" --paths-format xml)" = 2

# ECMP on a 4-cycle: two shortest paths between opposite corners.
printf '0 1\n1 2\n2 3\n0 3\n' >"$TMP/c4.txt"
check "ecmp c4" test "$(status "$MOORE" route "$TMP/c4.txt" --algo ecmp --json --paths "$TMP/e.csv" --tables "$TMP/et.csv")" = 0
check "ecmp c4 paths" test "$(json .paths_total)" = 16
check "ecmp c4 file" grep -q '^0,2,1,[0-9]*,0-3-2$' "$TMP/e.csv"
check "ecmp c4 table" grep -q '^0,2,2,[0-9]*,0 1,1 1$' "$TMP/et.csv"
check "ecmp c4 tables rows" test "$(($(wc -l <"$TMP/et.csv") - 1))" = 12
check "text output" test "$(status "$MOORE" route petersen --algo minimal)" = 0
check "text layers" grep -q '^layers ' "$TMP/out"

# A ring with minimal routing: cyclic channel dependencies, two layers.
printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n' >"$TMP/c6.txt"
check "ring" test "$(status "$MOORE" route "$TMP/c6.txt" --algo minimal --json)" = 0
check "ring cyclic" test "$(json .cdg_acyclic)" = false
check "ring layers" test "$(json .layers)" = 2

# KSP-8 on a Slim Fly needs several layers; the layers are the same for any
# thread count, and each layer's channel dependency graph, rebuilt here from
# the paths file alone, is acyclic (a DFS over link-to-next-link arcs).
layers_acyclic() { python3 - "$1" <<'PY'
import csv, sys
from collections import defaultdict
dep = defaultdict(lambda: defaultdict(set))
for row in csv.DictReader(open(sys.argv[1])):
    h = row["path"].split("-")
    links = list(zip(h, h[1:]))
    for a, b in zip(links, links[1:]):
        dep[row["layer"]][a].add(b)
for g in dep.values():
    state = {}
    for root in list(g):
        stack = [(root, iter(g[root]))]
        if root in state:
            continue
        state[root] = 1
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                state[v] = 2
                stack.pop()
            elif state.get(w) == 1:
                sys.exit(1)
            elif w not in state:
                state[w] = 1
                stack.append((w, iter(g.get(w, ()))))
print(len(dep))
PY
}
OMP_NUM_THREADS=1 "$MOORE" route slimfly:q=5 --algo ksp:k=8 --paths "$TMP/k1.csv" >/dev/null
OMP_NUM_THREADS=2 "$MOORE" route slimfly:q=5 --algo ksp:k=8 --paths "$TMP/k2.csv" >/dev/null
check "ksp layers: same for 1 and 2 threads" cmp -s "$TMP/k1.csv" "$TMP/k2.csv"
nl=$(layers_acyclic "$TMP/k1.csv")
check "ksp layers: each layer acyclic, several layers" test "${nl:-0}" -ge 2

# A fat-tree's shortest routes between servers go up, then down: no cycle.
check "fattree" test "$(status "$MOORE" route fattree:k=4 --algo ecmp --json)" = 0
check "fattree acyclic" test "$(json .cdg_acyclic)" = true
check "fattree one layer" test "$(json .layers)" = 1

# Throughput under routing: K_6 uniform, any routing with the direct path: 5.
check "throughput ecmp" test "$(status "$MOORE" throughput complete:n=6 --routing ecmp --json)" = 0
check "throughput ecmp value" test "$(json .throughput)" = 5
check "throughput routing key" test "$(json .routing)" = ecmp
for key in throughput lower upper link_util_max link_util_mean; do
    check "throughput key $key" test "$(json "has(\"$key\")")" = true
done
check "throughput ksp exact" test "$(status "$MOORE" throughput petersen --routing ksp:k=2 --exact --json)" = 0
check "throughput ksp below optimal" awk -v t="$(json .throughput)" 'BEGIN { exit !(t <= 1.8 + 1e-6) }'
check "throughput optimal" test "$(status "$MOORE" throughput petersen --routing optimal --json)" = 0
check "throughput optimal key" test "$(json .routing)" = optimal

# Bad input: exit 2, one line on stderr, no file left behind.
check "k=0" test "$(status "$MOORE" route petersen --algo ksp:k=0 --paths "$TMP/bad.csv")" = 2
check "k=0 one line" test "$(wc -l <"$TMP/err")" = 1
check "k=0 no file" test ! -e "$TMP/bad.csv"
check "absurd k" test "$(status "$MOORE" route petersen --algo ksp:k=99999999)" = 2
check "unknown algo" test "$(status "$MOORE" route petersen --algo magic)" = 2
check "unknown algo says so" grep -q "unknown algorithm 'magic'" "$TMP/err"
printf '0 1\n2 3\n' >"$TMP/split.txt"
check "disconnected" test "$(status "$MOORE" route "$TMP/split.txt" --tables "$TMP/bad.csv")" = 2
check "disconnected names pair" grep -q "no path from switch 0 to switch 2" "$TMP/err"
check "disconnected one line" test "$(wc -l <"$TMP/err")" = 1
check "disconnected no file" test ! -e "$TMP/bad.csv"
check "throughput bad routing" test "$(status "$MOORE" throughput petersen --routing magic)" = 2
check "no topo" test "$(status "$MOORE" route)" = 2
check "unknown option" test "$(status "$MOORE" route petersen --frobnicate)" = 2
check "help" test "$(status "$MOORE" route --help)" = 0

# The metric group.
check "stats routing" test "$(status "$MOORE" stats petersen --metrics routing --json)" = 0
for key in throughput_uniform_ecmp throughput_uniform_ksp8 throughput_uniform_ecmp_ratio throughput_uniform_ksp8_ratio; do
    check "stats key $key" test "$(json "has(\"$key\")")" = true
done

# --time-limit covers the whole routed computation, the KSP-8 build of a
# 1,000-switch graph and the phases of an approximation at eps 0.001 (minutes
# together): a 2 s limit returns the proven bracket reached so far well within
# a generous bound (limit + 20 s: a correctness bound, not a timing one).
check "time limit honoured" test "$(status timeout 22 "$MOORE" throughput \
    jellyfish:n=1000,d=16,seed=1 --tm uniform --routing ksp:k=8 --eps 0.001 --time-limit 2 --json)" = 0
check "time limit: stopped" test "$(json .stopped)" = time-limit
check "time limit: a proven bracket" test "$(json '.lower >= 0 and .lower <= .upper')" = true

echo "cli_routing: $passes passed, $fails failed"
[ "$fails" = 0 ]
