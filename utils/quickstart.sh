#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Quick start on Debian bookworm (see README.md):
#   ./utils/quickstart.sh demo   # install deps, build, run tagger-clos-bounce: the
#                                # paper's 1-bounce deadlock without and with Tagger
#   ./utils/quickstart.sh test   # install deps, build, run every test (ctest)
#
# Both install what is missing (utils/install-deps.sh), then configure and
# build the standalone module in ./build (override with TAGGER_BUILD_DIR)
# with 2 jobs (override with TAGGER_JOBS).
set -euo pipefail

usage() {
    echo "usage: $0 demo|test" >&2
    echo "  demo  build, then run tagger-clos-bounce (Tagger (ToN), Fig. 10) without and with Tagger" >&2
    echo "  test  build, then run every test (ctest --output-on-failure)" >&2
    exit 2
}

[ $# -eq 1 ] || usage
case "$1" in
    demo | test) mode=$1 ;;
    -h | --help | help) usage ;;
    *) echo "quickstart: unknown command '$1'" >&2; usage ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TAGGER_BUILD_DIR:-$root/build}
jobs=${TAGGER_JOBS:-2}
t0=$SECONDS

step() { echo "== quickstart: $*"; }

step "dependencies"
if [ "$mode" = test ]; then
    # tshark: the tests that decode written pcaps as PFC and RoCEv2 (skipped without it).
    "$root/utils/install-deps.sh" tshark
else
    "$root/utils/install-deps.sh"
fi

step "configure ($build)"
generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
fi
cmake -S "$root" -B "$build" "${generator[@]}"

step "build (-j$jobs)"
cmake --build "$build" -j "$jobs"

case $mode in
    demo)
        step "demo: tagger-clos-bounce (Tagger (ToN), Figs. 3 and 10), plain PFC then Tagger"
        mkdir -p "$build/demo"
        set -x
        "$build/tagger-clos-bounce" --tagger=0 --out="$build/demo/pfc"
        "$build/tagger-clos-bounce" --tagger=1 --out="$build/demo/tagger"
        { set +x; } 2>/dev/null
        echo "time series and gnuplot scripts: $build/demo/{pfc,tagger}-rate.{dat,plt}"
        ;;
    test)
        step "test: every test (ctest)"
        (cd "$build" && ctest --output-on-failure -j "$jobs")
        ;;
esac
echo "== quickstart $mode: OK ($((SECONDS - t0)) s)"
