# cli.bash — what the CLI contract scripts (tests/cli_<area>.sh) share:
# the moore binary and source directory from the arguments, a temporary
# directory removed at exit, pass/fail counters and the helpers below. Sourced by
#   . "$(dirname "$0")/cli.bash" "$@"
#   check NAME COMMAND...   counts COMMAND's success, prints "FAIL: NAME" and
#                           returns 1 otherwise
#   status COMMAND...       runs COMMAND into $TMP/out and $TMP/err, prints its exit status
#   refused NAME WORDS COMMAND...
#                           one check: COMMAND meets the bad-input contract of
#                           docs/json.md (exit status 2, exactly one line on stderr
#                           starting "moore: " and containing WORDS, nothing on
#                           stdout); on failure prints that line too
#   json_int KEY FILE       the integer value of a top-level KEY in moore's JSON
#   summary NAME            prints "NAME: P passed, F failed", fails if F > 0
#   sanitized               true in the AddressSanitizer build (MOORE_SANITIZED=1,
#                           set by CMake), where each moore process starts ~2× slower:
#                           a script that runs the same code path for many instances
#                           may run fewer of them there (the release pass runs all)
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
    if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name" >&2; fails=$((fails + 1)); return 1; fi
}
status() { "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }
refusal() { # words, command...: true when the command is refused as docs/json.md says
    local words=$1
    shift
    [ "$(status "$@")" = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q '^moore: ' "$TMP/err" &&
        grep -qF -- "$words" "$TMP/err" && [ ! -s "$TMP/out" ]
}
refused() { # name, words, command...
    local name=$1 words=$2
    shift 2
    check "$name" refusal "$words" "$@" || { sed 's/^/    stderr: /' "$TMP/err" | head -3 >&2; return 1; }
}
json_int() { # key, file
    sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\(-\{0,1\}[0-9][0-9]*\)[,[:space:]]*$/\1/p" "$2"
}
sanitized() { [ "${MOORE_SANITIZED:-0}" = 1 ]; }
summary() { # name
    echo "$1: $passes passed, $fails failed"
    [ "$fails" = 0 ]
}
