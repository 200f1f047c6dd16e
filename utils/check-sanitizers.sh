#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The module under AddressSanitizer and UndefinedBehaviorSanitizer: builds the
# standalone CMake project with -DTAGGER_SANITIZE=ON (RelWithDebInfo at -O1,
# in build-sanitize/ or the directory given), runs the whole ctest suite and
# every program of examples/CMakeLists.txt once, and fails on any sanitizer
# report, a failing test or a failing program.
#
#   utils/check-sanitizers.sh [BUILD_DIR]
#
# Every report of any process (test children, death-test forks and the
# programs run by the GoogleTest tool tests included) is also written to
# BUILD_DIR/sanitizer-reports/report.<pid> (log_path), so a report fails the
# check even where a test ignores the exit status (ctest tests judged by a
# PASS_REGULAR_EXPRESSION).  LeakSanitizer is on; test/sanitizer/lsan.supp
# may suppress leaks inside ns-3's own libraries only (it lists none so far).
#
# ns-3 and the other system libraries are not instrumented: ASan checks our
# code's memory accesses (and every heap block, through its malloc), UBSan
# our code's arithmetic, casts, shifts, alignment and bounds.
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${1:-$source_dir/build-sanitize}
reports=$build_dir/sanitizer-reports
runs=$build_dir/sanitizer-runs

start_all=$(date +%s)
# step NAME COMMAND...: run COMMAND, print its wall time, stop on failure.
step()
{
    local name=$1
    shift
    local start=$(date +%s)
    echo "== check-sanitizers: $name"
    if ! "$@"; then
        echo "check-sanitizers: FAILED: $name ($(($(date +%s) - start)) s)" >&2
        show_reports
        exit 1
    fi
    echo "== check-sanitizers: $name: $(($(date +%s) - start)) s"
}

# Print the reports written so far; fail when there is one.
show_reports()
{
    local files=("$reports"/report.*)
    if [ -e "${files[0]}" ]; then
        for f in "${files[@]}"; do
            echo "---- $f" >&2
            cat "$f" >&2
        done
        echo "check-sanitizers: FAILED: ${#files[@]} sanitizer report(s) above" >&2
        return 1
    fi
}

configure()
{
    local launcher=()
    if command -v ccache >/dev/null 2>&1; then
        launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    local generator=()
    if [ ! -e "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
        generator=(-G Ninja)
    fi
    cmake -S "$source_dir" -B "$build_dir" "${generator[@]}" "${launcher[@]}" \
        -DTAGGER_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g"
}

# example NAME ARGS...: run one program in $runs, its output in $runs/NAME.log.
example()
{
    local name=$1
    shift
    local start=$(date +%s)
    if (cd "$runs" && "$build_dir/$name" "$@" >"$name.log" 2>&1); then
        echo "   $name $*: ok ($(($(date +%s) - start)) s)"
    else
        echo "   $name $*: FAILED (exit $?); its output:" >&2
        tail -n 40 "$runs/$name.log" >&2
        return 1
    fi
}

# Each program once, with its defaults where a run takes under about a minute
# under the sanitizers; the shortened runs say why.
examples()
{
    mkdir -p "$runs"
    # tagger-rules has no default case: the Clos testbed, and the Fig. 5
    # triangle read from files (the JSON and ELP readers).
    example tagger-rules --topology=clos --elp=bounce --bounces=1 --algorithm=clos \
        --json=clos.json
    example tagger-rules --topology-file="$source_dir/data/triangle.json" \
        --elp-file="$source_dir/data/triangle-elp.txt" --algorithm=bruteforce --json=triangle.json
    example tagger-first-script
    example tagger-first-script --tagger=0
    example pfc-incast
    # Defaults: three speed phases per mode and the two RDMA scenarios,
    # minutes under ASan; one phase per mode and a short scenario B cover the
    # same code.
    example pfc-bench --runs=1 --scenarios=false
    example pfc-bench --mode=B --k=4 --flows=20 --stop-ms=0.2
    example rdma-incast
    example rdma-workload
    # The HPCC-format readers and writers: the shipped example, exported and
    # read back.
    mkdir -p "$runs/hpcc-export"
    example rdma-from-hpcc --fct=hpcc-fct.txt --export=hpcc-export
    example rdma-from-hpcc --topology-file=hpcc-export/topology.txt \
        --flow-file=hpcc-export/flow.txt --stop-ms=5
    example rdma-mpi-incast
    example rdma-mpi-incast --k=4 --senders=6 --failures=1 --tagger --stop-ms=2
    example tagger-clos-bounce
    example tagger-routing-loop
    example tagger-pause-propagation
    example itsy-deadlock
    example itsy-deadlock --scenario=storm --recovery=trigger --out=itsy-storm
    example itsy-fuzz-bench --runs=6 --recovery=break
    # Defaults: the whole Fig. 14 grid (10^6 flows per point) and a 10^7-packet
    # Table VI cell, an hour under ASan; the same code on less traffic.
    example tagger-bounce-model --flows=20000 --seeds=4
    # Defaults: 120 graphs of 30-60 switches with the exact minimum, minutes
    # under ASan; small graphs run the same code.
    example tagger-order-bench --sizes=8,12 --max-degrees=4 --extra-paths=0,10 --graphs=3
    example tagger-web-search-loss --k=4 --senders=6 --packets=30000
    example tagger-web-search-loss --k=4 --senders=6 --packets=30000 --mode=tagger2
}

# Every program of examples/CMakeLists.txt must be run by examples() above.
check_examples_listed()
{
    local missing=()
    local name
    for name in $(sed -n 's/^ *NAME \([a-z0-9-]*\).*/\1/p' "$source_dir/examples/CMakeLists.txt"); do
        grep -q "^    example $name\b" "${BASH_SOURCE[0]}" || missing+=("$name")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "check-sanitizers: examples() does not run: ${missing[*]}" >&2
        return 1
    fi
}

run_ctest()
{
    (cd "$build_dir" && ctest -j2 --output-on-failure)
}

export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=1:strict_init_order=1:log_path=$reports/report"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/report"
export LSAN_OPTIONS="suppressions=$source_dir/test/sanitizer/lsan.supp:print_suppressions=0"
export TAGGER_DATA_DIR=$source_dir/data

step "every program listed" check_examples_listed
step "install dependencies" "$source_dir/utils/install-deps.sh"
step "configure $build_dir" configure
step "build (-j2)" nice cmake --build "$build_dir" -j2
rm -rf "$reports" "$runs"
mkdir -p "$reports"
step "ctest" run_ctest
step "no report from ctest" show_reports
step "examples" examples
step "no report from the examples" show_reports
echo "check-sanitizers: OK, no sanitizer report ($(($(date +%s) - start_all)) s in all)"
