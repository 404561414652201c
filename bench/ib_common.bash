# ib_common.bash — what the InfiniBand benchmarks (ib_engines.sh, ib_scale.sh)
# share, sourced after `cd` to the source tree:
#   ib_require NAME TOOL...   exit 2 unless root with every TOOL on PATH (or a path)
#   stamp LINE                seconds since midnight of an OpenSM log line's time
ib_require() {
    local name=$1 t
    shift
    for t in "$@"; do
        command -v "$t" >/dev/null || { echo "$name: needs $t" >&2; exit 2; }
    done
    [ "$(id -u)" = 0 ] || { echo "$name: needs root (unshare -n)" >&2; exit 2; }
}

stamp() { awk '{ split($3, t, ":"); printf "%.3f", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6 }' <<<"$1"; }
