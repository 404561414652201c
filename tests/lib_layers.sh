#!/usr/bin/env bash
# lib_layers.sh — the code keeps the layer order of docs/architecture.md.
# Every object file is given its layer by the directory of its source; a
# file fails when it calls a function defined in a higher layer, or in a
# sibling module of its own layer that the order says is independent (nm:
# a file's undefined symbols against every file's defined functions, so a
# call hidden behind a local declaration is seen too). Two source checks go
# with it: no file includes another module's `_internal.h`, and no file
# includes a public header whose functions all live above it (a struct used
# from below is a dependency even without a call).
# Run as: lib_layers.sh BUILD_DIR SOURCE_DIR (KEEP=1 keeps the work files).
set -u
export LC_ALL=C   # one collation for sort and join
B=$1
S=$2
OBJ="$B/CMakeFiles/moore_obj.dir"
[ -d "$OBJ/src" ] || { echo "no library objects under $OBJ"; exit 1; }
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT

# The order, bottom first (docs/architecture.md). Modules with the same rank
# are independent siblings and may not call each other; a module may call
# any module of a lower rank. Within a layer, a higher number after the dot
# is an order the doc gives (workload places jobs with layout; report reads
# sweeps and compares; sweep expands grids with the planner).
rank_table() {
    cat <<'EOF'
core 10.0
dist 10.1
field 20.0
linalg 20.0
families 30.0
io 30.0
topology 40.0
metrics 50.0
flow 60.0
layout 70.0
routing 70.0
resilience 70.0
workload 70.1
analysis 80.0
step 80.0
plan 90.0
sweep 90.1
report 90.2
deploy 90.2
cli 100.0
python 100.0
EOF
}
rank_table >"$T/ranks"

# The module of a source path (src/<module>/..., cli/..., python/...).
AWK_MODULE='function module(f,  a) {
    split(f, a, "/")
    return a[1] == "src" ? a[2] : a[1]
}
function source(o,  s) {   # .../moore_obj.dir/src/flow/lp.c.o:ADDR -> src/flow/lp.c
    s = o; sub(/\.o:.*$/, "", s); sub(/.*\.dir\//, "", s)
    return o ~ /\/python\/CMakeFiles\// ? "python/" s : s
}'

# Every object's global functions and undefined symbols (nm -A: one run).
# An object whose source is gone (a file moved since the build dir was made)
# is left out: it is no longer part of the library.
objects=
for o in $(find "$OBJ/src" "$B/CMakeFiles/moore_cli.dir/cli" "$B/python" -name '*.c.o' \
           2>/dev/null | sort); do
    src=${o#*.dir/}
    case "$o" in */python/CMakeFiles/*) src=python/$src ;; esac
    [ -f "$S/${src%.o}" ] && objects="$objects $o"
done
# shellcheck disable=SC2086
nm -A --defined-only $objects | awk "$AWK_MODULE"'
    $2 == "T" { f = source($1); print $3, f, module(f) }' |
    sort >"$T/defs"
# shellcheck disable=SC2086
nm -A -u $objects | awk "$AWK_MODULE"'
    { f = source($1); print $NF, f, module(f) }' |
    sort >"$T/uses"
unknown=$(awk '{print $3}' "$T/defs" | sort -u | grep -vxFf <(awk '{print $1}' "$T/ranks"))
if [ -n "$unknown" ]; then
    echo "FAIL: modules with no place in the layer order (add them to docs/architecture.md"
    echo "and to the table in tests/lib_layers.sh): $unknown"
    exit 1
fi


failures=0
# Calls: "symbol user user-module definer definer-module", then by rank.
join "$T/uses" "$T/defs" | awk -v ranks="$T/ranks" '
    BEGIN {
        while ((getline l < ranks) > 0) { split(l, a, " "); r[a[1]] = a[2] + 0 }
    }
    $3 != $5 {
        if (r[$5] > r[$3])
            printf "    %s (%s) calls %s of %s (%s, a higher layer)\n", $2, $3, $1, $4, $5
        else if (r[$5] == r[$3])
            printf "    %s (%s) calls %s of %s (%s, an independent sibling)\n", $2, $3, $1, $4, $5
    }' | sort -u >"$T/calls"
if [ -s "$T/calls" ]; then
    echo "FAIL: calls against the layer order (docs/architecture.md):"
    cat "$T/calls"
    failures=$((failures + 1))
fi

# Includes of another module's internal header: one in the file's own
# directory is named without a path; any path must lead to that directory.
(cd "$S" && grep -rnE '^#include "[^"]*/[^"]*_internal\.h"' src cli python 2>/dev/null) |
    awk -F: "$AWK_MODULE"'
    { inc = $3; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
      dir = inc; sub(/^(\.\.\/)+/, "", dir); sub(/\/.*/, "", dir)
      split($1, p, "/"); own = p[1] == "src" ? p[2] : p[1]
      if (dir != own) printf "    %s:%s includes %s\n", $1, $2, inc }' >"$T/internal"
if [ -s "$T/internal" ]; then
    echo "FAIL: another module's internal header included:"
    cat "$T/internal"
    failures=$((failures + 1))
fi

# A public header's layer: the lowest module defining one of its MOORE_API
# functions (a header of types only, or the umbrella moore.h, has none).
for h in "$S"/include/moore/*.h; do
    grep '^[[:space:]]*MOORE_API' "$h" |
        sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$/\1/' |
        awk -v h="moore/$(basename "$h")" '{print $1, h}'
done | sort | join - "$T/defs" | awk '{print $2, $4}' | sort -u >"$T/header_defs"
(cd "$S" && grep -rnE '^#include "moore/[a-z_]+\.h"' src) |
    awk -F: -v ranks="$T/ranks" -v hdefs="$T/header_defs" "$AWK_MODULE"'
    BEGIN {
        while ((getline l < ranks) > 0) { split(l, a, " "); r[a[1]] = a[2] + 0 }
        while ((getline l < hdefs) > 0) {
            split(l, a, " ")
            if (!(a[1] in low) || r[a[2]] < r[low[a[1]]]) low[a[1]] = a[2]
        }
    }
    { h = $3; sub(/^[^"]*"/, "", h); sub(/".*/, "", h); m = module($1)
      if (!(h in low) || low[h] == m || r[low[h]] < r[m]) next
      printf "    %s:%s (%s) includes %s (%s, %s)\n", $1, $2, m, h, low[h],
             (r[low[h]] > r[m] ? "a higher layer" : "an independent sibling") }' >"$T/includes"
if [ -s "$T/includes" ]; then
    echo "FAIL: public headers of a higher layer included:"
    cat "$T/includes"
    failures=$((failures + 1))
fi

# Names: a function one file shares with others is either the API (moore_,
# declared with MOORE_API) or carries its module's prefix, so a call site says
# which module it reaches. Upper-case names are data tables, not functions.
cat >"$T/prefixes" <<'EOF'
core core_
dist dist_
field gf_
linalg linalg_
families fam_
io io_
topology topo_
metrics metric_
flow flow_
layout layout_
routing route_
resilience resil_
workload work_
analysis analysis_
step step_
plan plan_
sweep sweep_
report page_
deploy deploy_
EOF
cat "$S"/include/moore/*.h | grep '^[[:space:]]*MOORE_API' |
    sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$/\1/' |
    sort -u >"$T/declared"
awk -v prefixes="$T/prefixes" -v declared="$T/declared" '
    BEGIN {
        while ((getline l < prefixes) > 0) { split(l, a, " "); pre[a[1]] = a[2] }
        while ((getline l < declared) > 0) api[l] = 1
    }
    !($3 in pre) || $1 ~ /^[A-Z]/ { next }
    $1 ~ /^moore_/ { if (!($1 in api)) printf "    %s (%s): moore_ but not MOORE_API\n", $1, $2; next }
    index($1, pre[$3]) != 1 { printf "    %s (%s): not %s*\n", $1, $2, pre[$3] }' \
    "$T/defs" >"$T/names"
if [ -s "$T/names" ]; then
    echo "FAIL: shared functions without their module prefix:"
    cat "$T/names"
    failures=$((failures + 1))
fi

n=$(echo $objects | wc -w)
[ "$failures" -eq 0 ] && echo "lib_layers: $n object files, every call and include goes down"
exit $((failures > 0))
