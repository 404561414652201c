#!/usr/bin/env bash
# python_install.sh — `cmake --install` into a temporary prefix gives a Python
# package a user can import: with PYTHONPATH=PREFIX/lib/python3.X/site-packages
# (the interpreter's own layout for a prefix, docs/python.md) the interpreter
# loads moore from there, builds slimfly:q=5 (50 switches, 2q^2) and refuses
# slimfly:q=6 with moore.Error.
# Run as: python_install.sh BUILD_DIR PYTHON
set -u
BUILD=$1
PY=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cmake --install "$BUILD" --prefix "$T/prefix" >"$T/install.log" 2>&1 ||
    { cat "$T/install.log"; fail "cmake --install"; }
site=$("$PY" -c "import sysconfig; print(sysconfig.get_path('platlib', 'posix_prefix',
       vars={'platbase': '$T/prefix', 'base': '$T/prefix'}))") || fail "no site-packages path"
[ -f "$site/moore/__init__.py" ] || fail "moore not installed in $site"
# From an empty directory, so nothing but the installed copy can be imported.
cd "$T" || fail "cd $T"
out=$(PYTHONPATH="$site" "$PY" -s -c '
import moore
assert moore.__file__.startswith("'"$site"'/"), moore.__file__
t = moore.build("slimfly:q=5")
assert t.switches == 50, t.switches
try:
    moore.build("slimfly:q=6")
    raise SystemExit("slimfly:q=6 was not refused")
except moore.Error as e:
    assert isinstance(e, ValueError) and "prime power" in str(e), e
print(moore.__version__, t.switches)
') || fail "importing the installed moore: $out"
echo "python_install: moore $out from $site"
