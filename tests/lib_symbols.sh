#!/usr/bin/env bash
# lib_symbols.sh — libmoore.so exports its API and nothing else: every
# dynamic symbol the library defines must be a function declared with
# MOORE_API in include/moore/*.h, and every such declaration must be exported
# (a declared function that is missing would fail to link for a user).
# Run as: lib_symbols.sh LIBMOORE_SO INCLUDE_DIR
set -u
LIB=$1
INC=$2
[ -f "$LIB" ] || { echo "no library at $LIB"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Defined dynamic symbols, without version suffixes.
nm -D --defined-only "$LIB" | awk '{print $NF}' | sed 's/@.*//' | sort -u >"$T/exported"
# The name before '(' on every MOORE_API declaration (the headers put
# MOORE_API, the return type and the name on one line).
cat "$INC"/*.h | grep '^[[:space:]]*MOORE_API' |
    sed -E 's/\(.*//; s/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$/\1/' |
    sort -u >"$T/declared"

failures=0
# Symbols the toolchain may add to any shared object.
toolchain='^(_init|_fini|_edata|_end|__bss_start|_ITM_.*|__gmon_start__)$'
extra=$(comm -23 "$T/exported" "$T/declared" | grep -Ev "$toolchain")
if [ -n "$extra" ]; then
    echo "FAIL: exported but not declared with MOORE_API in include/moore/:"
    echo "$extra" | sed 's/^/    /'
    failures=$((failures + 1))
fi
missing=$(comm -13 "$T/exported" "$T/declared")
if [ -n "$missing" ]; then
    echo "FAIL: declared with MOORE_API but not exported:"
    echo "$missing" | sed 's/^/    /'
    failures=$((failures + 1))
fi
n=$(wc -l <"$T/declared")
[ "$failures" -eq 0 ] && echo "lib_symbols: $n API functions, all exported, nothing else"
exit $((failures > 0))
