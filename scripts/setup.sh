#!/usr/bin/env bash
# setup.sh — install what moore needs on Debian 12 (by package name), then
# configure and build. Idempotent: packages already present are not fetched.
#   scripts/setup.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build}
shift || true

PACKAGES=(
  build-essential cmake pkg-config
  libcjson-dev libcmocka-dev            # JSON, unit tests
  libsqlite3-dev                        # sweep results database
  libplplot-dev                         # report figures (PLplot SVG driver)
  libarpack2-dev liblapacke-dev libopenblas-dev  # eigenvalues
  libmetis-dev                          # bisection
  libnauty2-dev                         # symmetry and isomorphism
  coinor-libclp-dev                     # exact LPs for throughput
  jq                                    # CLI tests read moore's JSON
  clang libclang-rt-14-dev              # the clang build and libFuzzer (fuzz/, docs/fuzzing.md)
  sqlite3                               # CLI tests read the sweep database
  python3-dev python3-numpy python3-networkx python3-pytest  # the Python module and its tests
  chromium                              # the report test renders the page headless
  libopenmpi-dev openmpi-bin            # the MPI build (-DMOORE_MPI=ON, docs/scale.md)
  opensm ibsim-utils infiniband-diags   # moore deploy on a simulated IB fabric (docs/deploy.md)
  frr iproute2 iputils-ping traceroute  # moore deploy on an Ethernet twin in namespaces (docs/deploy-ethernet.md)
)
if [ "${MOORE_BENCH:-0}" = 1 ]; then
  PACKAGES+=(libigraph-dev)             # benchmarks only (GPL: never linked into libmoore)
  # python3-networkx and python3-numpy (in the list above) are what bench/layout_bench.py
  # (Kernighan-Lin), bench/routing_ksp_networkx.py (Yen's KSP) and bench/resilience_nx.py
  # compare with; bench/throughput_highs.py also needs SciPy (HiGHS).
  PACKAGES+=(python3-scipy bc)          # HiGHS LP; bench/run_resilience.sh sums timings with bc
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "setup: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release "$@" >&2
cmake --build "$BUILD_DIR" -j"$(nproc)" >&2
