# cli.bash — what the CLI contract scripts (tests/cli_<area>.sh) share:
# the moore binary and source directory from the arguments, a temporary
# directory removed at exit, pass/fail counters and two helpers. Sourced by
#   . "$(dirname "$0")/cli.bash" "$@"
#   check NAME COMMAND...   counts COMMAND's success, prints "FAIL: NAME" otherwise
#   status COMMAND...       runs COMMAND into $TMP/out and $TMP/err, prints its exit status
set -u
MOORE=$1
SRC=${2:-.}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
passes=0
check() { # name, condition...
    local name=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name" >&2; fails=$((fails + 1)); fi
}
status() { "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }
