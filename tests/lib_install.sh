#!/usr/bin/env bash
# lib_install.sh — `cmake --install` into a temporary prefix gives a library
# a user can build against: `pkg-config --cflags --libs moore` compiles and
# links tests/lib_consumer.c, the program runs against the installed shared
# library, and the version it prints is the one in CMakeLists.txt's project();
# the installed `moore` command runs.
# Run as: lib_install.sh BUILD_DIR SRCDIR CC
set -u
BUILD=$1
SRC=$2
CC=${3:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$BUILD" --prefix "$T/prefix" >"$T/install.log" 2>&1 ||
    { cat "$T/install.log"; fail "cmake --install"; }
pc=$(find "$T/prefix" -name moore.pc | head -1)
[ -n "$pc" ] || fail "no moore.pc installed"
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --cflags --libs moore) || fail "pkg-config --cflags --libs moore"
# The include path must be the installed one, not the source tree.
case "$flags" in *"$SRC"*) fail "moore.pc points into the source tree: $flags" ;; esac
for h in moore.h version.h export.h graph.h; do
    [ -f "$T/prefix/include/moore/$h" ] || fail "header moore/$h not installed"
done
# shellcheck disable=SC2086
"$CC" -std=c11 -Wall -Wextra -Werror -o "$T/consumer" "$SRC/tests/lib_consumer.c" $flags ||
    fail "building a program with: $CC \$(pkg-config --cflags --libs moore)"
libdir=$(pkg-config --variable=libdir moore)
out=$(LD_LIBRARY_PATH="$libdir" "$T/consumer") || fail "consumer: $out"
# It must have loaded the installed library.
LD_LIBRARY_PATH="$libdir" ldd "$T/consumer" | grep -q "$T/prefix" ||
    fail "consumer did not load the installed libmoore"
want=$(sed -n 's/^project(moore VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")
[ "$out" = "moore $want ($want): ok" ] || fail "consumer printed '$out', want version $want"
[ "$(pkg-config --modversion moore)" = "$want" ] || fail "moore.pc version is not $want"
# The installed command: bin/moore starts libexec/moore/moore-core.
fam=$("$T/prefix/bin/moore" families 2>&1 | head -1)
case "$fam" in slimfly*) ;; *) fail "installed bin/moore families printed '$fam'" ;; esac
echo "lib_install: $out"
