#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the libFuzzer targets of test/fuzz (clang++, -DTAGGER_FUZZ=ON, in
# build-fuzz/) and run each for a bounded time from its seed corpus
# (test/fuzz/corpus/<parser>/) plus the inputs that once crashed it
# (test/fuzz/regressions/<parser>/).  Installs clang and libclang-rt-14-dev
# (libFuzzer) with utils/install-deps.sh when missing.  Fails when any target
# crashes (an abort, a sanitizer report, an uncaught exception, a timeout or
# running out of memory) and prints where the crashing input was saved; copy
# it to test/fuzz/regressions/<parser>/ once the bug is fixed.
#
#   utils/run-fuzzers.sh                   # every target
#   utils/run-fuzzers.sh elp rules-json    # some targets
#   FUZZ_RUNS=100000 FUZZ_SECONDS=300 utils/run-fuzzers.sh   # longer
#
# New inputs found while running go to build-fuzz/corpus/<parser>/ (kept
# between runs, never into the repository).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
build=$root/build-fuzz
runs=${FUZZ_RUNS:-20000}
seconds=${FUZZ_SECONDS:-45}
all=(topology-json topology-file rules-json elp flow-size-cdf flow-file hpcc)
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=("${all[@]}")
fi

utils/install-deps.sh clang libclang-rt-14-dev

cxx=$(command -v clang++ || command -v clang++-14 || true)
if [ -z "$cxx" ]; then
    echo "run-fuzzers: clang++ not found after installing clang" >&2
    exit 1
fi
generator=()
if command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" "${generator[@]}" "${launcher[@]}" -DTAGGER_FUZZ=ON \
    -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build "$build" -j2 --target "${targets[@]/%/-fuzz}"

failed=()
for t in "${targets[@]}"; do
    corpus=$build/corpus/$t
    crashes=$build/crashes/$t
    log=$build/logs/$t.log
    mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
    echo "run-fuzzers: $t: up to $runs runs or $seconds s"
    # The first directory receives new inputs; the others are only read.
    if "$build/$t-fuzz" -runs="$runs" -max_total_time="$seconds" -max_len=65536 \
        -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
        -artifact_prefix="$crashes/" "$corpus" "test/fuzz/corpus/$t" \
        "test/fuzz/regressions/$t" >"$log" 2>&1; then
        echo "run-fuzzers: $t: $(grep -E '^Done' "$log")," \
            "$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [^ ]+' "$log" | tail -1)"
    else
        failed+=("$t")
        echo "run-fuzzers: $t: CRASH (log: $log)" >&2
        grep -aE 'ERROR|runtime error|property failed|terminate called|what\(\)' "$log" |
            head -5 | sed 's/^/    /' >&2
        grep -aE 'Test unit written to|artifact_prefix' "$log" | sed 's/^/    /' >&2
    fi
done

if [ "${#failed[@]}" -ne 0 ]; then
    echo "run-fuzzers: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "run-fuzzers: OK: ${targets[*]}"
