#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Prove the in-tree build end to end: copy this module into a real ns-3.37
# tree as contrib/tagger, build it there with ns-3's own CMake macros (and
# its mpi module: Debian's OpenMPI), run all its TestSuites with ./test.py,
# run the tagger-rules program with ./ns3 run, build and run a user's own
# program from scratch/ (test/user-project/user-incast.cc), and run the MPI
# programs on 1 and 2 ranks (mpirun), comparing their results.
#
# The ns-3 tree lives in a cache OUTSIDE the repository, so later runs only
# rebuild the module:
#   ${TAGGER_NS3_CACHE:-/var/cache/tagger-ns3}/src/ns-allinone-3.37/ns-3.37
# An empty cache is filled with Debian's source of ns-3.37 (`apt-get source
# ns3`, adding a deb-src entry when there is none); the first configure and
# build then take about 20 minutes on one core.
#
# Environment: TAGGER_NS3_CACHE (cache directory), TAGGER_JOBS (build jobs, 2).
# Exits non-zero on any failure.  Prints the time each step took.
set -euo pipefail

NS3_VERSION=3.37
# The configuration of the cached tree (keep it: other users of the cache
# build with exactly this, so the cache stays warm).  "tagger" is ours.
NS3_MODULES="core;network;internet;point-to-point;applications;traffic-control;stats;csma;bridge;flow-monitor;mpi;tagger"
NS3_FILTER="tagger"
DEMO="tagger-rules --topology=clos --elp=bounce --bounces=1 --algorithm=clos"
DEMO_PFC="pfc-incast --senders=8"
DEMO_BOUNCE="tagger-clos-bounce"

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${TAGGER_NS3_CACHE:-/var/cache/tagger-ns3}
jobs=${TAGGER_JOBS:-2}
src=$cache/src
ns3dir=$src/ns-allinone-$NS3_VERSION/ns-$NS3_VERSION

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    sudo=(sudo)
fi

# ---------------------------------------------------------------------------
# Timing and reporting
# ---------------------------------------------------------------------------
t_start=$SECONDS
timings=()
current=""
step_start=0

begin() {
    current=$1
    step_start=$SECONDS
    echo
    echo "== check-in-tree: $current"
}

end() {
    timings+=("$(printf '%-40s %5d s' "$current" $((SECONDS - step_start)))")
    current=""
}

report() {
    local rc=$?
    if [ -n "$current" ] && [ $rc -eq 0 ]; then
        rc=1 # interrupted inside a step
    fi
    echo
    echo "== check-in-tree: timings"
    local t
    for t in "${timings[@]+"${timings[@]}"}"; do
        echo "   $t"
    done
    if [ -n "$current" ]; then
        printf '   %-40s %5d s (FAILED here)\n' "$current" $((SECONDS - step_start))
    fi
    printf '   %-40s %5d s\n' "total" $((SECONDS - t_start))
    if [ $rc -eq 0 ]; then
        echo "== check-in-tree: PASSED (ns-3 $NS3_VERSION tree: $ns3dir)"
    else
        echo "== check-in-tree: FAILED (exit $rc) during: ${current:-setup}" >&2
    fi
    exit $rc
}
trap report EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

die() {
    echo "check-in-tree: $*" >&2
    exit 1
}

# ---------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------
has_deb_src() { # only the files apt reads (not *.disabled, *.save, ...)
    local f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        if [ -f "$f" ] && grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*\bdeb-src\b)' "$f"; then
            return 0
        fi
    done
    return 1
}

add_deb_src() {
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        echo "adding /etc/apt/sources.list.d/tagger-deb-src.sources (deb-src of debian.sources)"
        sed -E 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
            "${sudo[@]}" tee /etc/apt/sources.list.d/tagger-deb-src.sources >/dev/null
    elif grep -qsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list; then
        echo "adding /etc/apt/sources.list.d/tagger-deb-src.list (deb-src of sources.list)"
        sed -nE 's/^[[:space:]]*deb[[:space:]]/deb-src /p' /etc/apt/sources.list |
            "${sudo[@]}" tee /etc/apt/sources.list.d/tagger-deb-src.list >/dev/null
    else
        die "no apt source to derive a deb-src entry from; add one for Debian bookworm"
    fi
}

fetch_ns3() {
    mkdir -p "$src"
    local orig
    orig=$(ls "$src"/ns3_"$NS3_VERSION".orig.tar.* 2>/dev/null | head -n 1 || true)
    if [ -z "$orig" ]; then
        if ! has_deb_src; then
            add_deb_src
        fi
        export DEBIAN_FRONTEND=noninteractive
        "${sudo[@]}" apt-get update
        # --download-only: the plain upstream tree (ns-allinone-3.37), as the
        # cache has always held it, without Debian's packaging patches.
        (cd "$src" && apt-get source --download-only ns3)
        orig=$(ls "$src"/ns3_"$NS3_VERSION".orig.tar.* 2>/dev/null | head -n 1 || true)
        [ -n "$orig" ] || die "apt-get source ns3 did not fetch ns-3 $NS3_VERSION (got: $(ls "$src"))"
    fi
    # Extract next to the final place, then move: an interrupted run never
    # leaves a half tree behind.
    local tmp=$src/.extract.$$
    rm -rf "$tmp"
    mkdir -p "$tmp"
    tar -xf "$orig" -C "$tmp"
    [ -f "$tmp/ns-allinone-$NS3_VERSION/ns-$NS3_VERSION/ns3" ] ||
        die "$orig does not hold ns-allinone-$NS3_VERSION/ns-$NS3_VERSION"
    rm -rf "$src/ns-allinone-$NS3_VERSION"
    mv "$tmp/ns-allinone-$NS3_VERSION" "$src/"
    rmdir "$tmp"
}

cache_value() { # NAME: value of NAME in the ns-3 CMake cache ("" when absent)
    sed -nE "s/^$1:[A-Z]+=(.*)$/\1/p" "$ns3dir/cmake-cache/CMakeCache.txt" 2>/dev/null | head -n 1
}

needs_configure() {
    [ -f "$ns3dir/cmake-cache/build.ninja" ] || [ -f "$ns3dir/cmake-cache/Makefile" ] || return 0
    [ "$(cache_value NS3_ENABLED_MODULES)" = "$NS3_MODULES" ] || return 0
    [ "$(cache_value NS3_FILTER_MODULE_EXAMPLES_AND_TESTS)" = "$NS3_FILTER" ] || return 0
    [ "$(cache_value CMAKE_BUILD_TYPE)" = "debug" ] || return 0
    [ "$(cache_value NS3_EXAMPLES)" = "ON" ] || return 0
    [ "$(cache_value NS3_TESTS)" = "ON" ] || return 0
    [ "$(cache_value NS3_MPI)" = "ON" ] || return 0
    return 1
}

# ---------------------------------------------------------------------------
begin "dependencies (apt)"
# rsync copies the module; python3 runs ./ns3 and ./test.py.
"$root/utils/install-deps.sh" rsync python3 libopenmpi-dev openmpi-bin
end

mkdir -p "$cache" 2>/dev/null || "${sudo[@]}" mkdir -p "$cache"
[ -w "$cache" ] || die "cannot write to $cache: run as root or set TAGGER_NS3_CACHE"
# One run at a time per cache.
exec 9>"$cache/.lock"
if ! flock -n 9; then
    echo "check-in-tree: waiting for another run using $cache ..."
    flock 9
fi

if [ ! -f "$ns3dir/ns3" ]; then
    begin "fetch and extract ns-$NS3_VERSION into $cache"
    fetch_ns3
    end
else
    echo "check-in-tree: using cached tree $ns3dir"
fi

begin "copy module to contrib/tagger"
dest=$ns3dir/contrib/tagger
mkdir -p "$dest"
if [ "$(cd "$dest" && pwd -P)" = "$(cd "$root" && pwd -P)" ]; then
    echo "running from the tree's own contrib/tagger: nothing to copy"
else
    # Build directories and VCS data stay out; files deleted here go there too.
    # Compare by content (-c) and do NOT copy modification times (no -t): a
    # changed file lands with the current time, so it is always newer than the
    # objects built from its previous content.  (With -a, a file edited during
    # the previous build keeps an mtime older than those objects, and the
    # build would silently keep the stale objects.)
    rsync -rlpc --delete --delete-excluded \
        --exclude='/.git/' --exclude='/build/' --exclude='/build-*/' --exclude='/cmake-build-*/' \
        "$root/" "$dest/"
fi
end

# A user's own program in scratch/, as the Usage chapter shows: the user
# project's program (test/user-project), built by the tree with every module.
scratch_program=tagger-user-incast
scratch_new=0
if ! cmp -s "$root/test/user-project/user-incast.cc" "$ns3dir/scratch/$scratch_program.cc"; then
    [ -f "$ns3dir/scratch/$scratch_program.cc" ] || scratch_new=1
    cp "$root/test/user-project/user-incast.cc" "$ns3dir/scratch/$scratch_program.cc"
fi

cd "$ns3dir"
if [ "$scratch_new" -eq 1 ] && ! needs_configure; then
    # ns-3 finds scratch programs when it configures: re-run CMake (its
    # cache keeps the configuration; CLICOLOR=1 as for the build below).
    begin "re-run CMake for the new scratch program"
    CLICOLOR=1 cmake cmake-cache
    end
fi
if needs_configure; then
    begin "configure ns-3 (./ns3 configure)"
    ./ns3 configure -d debug --enable-examples --enable-tests --disable-werror --enable-mpi \
        --enable-modules="$NS3_MODULES" --filter-module-examples-and-tests="$NS3_FILTER"
    end
else
    echo "check-in-tree: configuration unchanged, not reconfiguring"
fi

begin "build (cmake --build cmake-cache -j $jobs)"
# What `./ns3 build` runs, minus its job count: ns-3.37's ./ns3 takes the
# smallest -j of all its subcommands, whose default is (cores - 1), so on a
# 2-core machine `./ns3 build -j 2` still builds with one job.
# CLICOLOR=1 as ./ns3 sets it: ns-3's CMake adds -fdiagnostics-color=always
# when it is set, so a CMake re-run without it would change every compile
# command and rebuild all of ns-3 (and ./ns3 would flip it back later).
CLICOLOR=1 cmake --build cmake-cache -j "$jobs"
end

begin "test (./test.py --no-build: every tagger TestSuite and example)"
# The module's TestSuites, one per component (there is no single suite
# "tagger" any more): every `TestSuite("tagger-...", ...)` of the ns-3 test
# sources outside test/data (GoogleTest files never contain one; the lint
# input in test/data names made-up suites); and its programs listed in
# test/examples-to-run.py.  The tree builds tests and examples of this
# module only (--filter-module-examples-and-tests), so one ./test.py run
# covers them, in parallel.
mapfile -t suites < <(grep -rhoE --include='*.cc' --exclude-dir=data 'TestSuite\("tagger[a-z0-9-]*"' "$root/test" |
    sed -E 's/^TestSuite\("(.*)"$/\1/' | sort -u)
[ ${#suites[@]} -gt 0 ] || die "no TestSuite(\"tagger-...\") found under $root/test"
examples=$(python3 -c 'import sys; g = {}; exec(open(sys.argv[1]).read(), g); print(len(g["cpp_examples"]))' \
    "$root/test/examples-to-run.py")
echo "suites: ${suites[*]}; examples: $examples"
log=$(mktemp)
set +e
./test.py --no-build 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
clean=$(sed 's/\x1b\[[0-9;]*m//g' "$log")
rm -f "$log"
failed=()
for suite in "${suites[@]}"; do
    # test.py also "passes" when a suite is unknown: insist on each one.
    grep -qE "(^|] )PASS: TestSuite $suite\$" <<<"$clean" || failed+=("$suite")
done
passed=$(grep -cE '(^|] )PASS: Example contrib/tagger/' <<<"$clean" || true)
[ "$rc" -eq 0 ] || die "./test.py failed (exit $rc)"
[ ${#failed[@]} -eq 0 ] || die "./test.py did not pass the TestSuite(s): ${failed[*]}"
[ "$passed" -eq "$examples" ] ||
    die "./test.py passed $passed of the $examples programs of test/examples-to-run.py"
end

begin "run ($DEMO)"
./ns3 run "$DEMO"
end

begin "run ($DEMO_BOUNCE, --tagger=0 and --tagger=1)"
out=$(mktemp -d)
./ns3 run "$DEMO_BOUNCE --tagger=0 --out=$out/pfc" | tee "$out/log0"
grep -q '^RESULT deadlock=yes ' "$out/log0" || die "tagger-clos-bounce --tagger=0 did not deadlock"
./ns3 run "$DEMO_BOUNCE --tagger=1 --out=$out/tagger" | tee "$out/log1"
grep -q '^RESULT deadlock=no lossless_drops=0 ' "$out/log1" ||
    die "tagger-clos-bounce --tagger=1 deadlocked or dropped"
rm -rf "$out"
end

begin "MPI: remote link test, 1 rank against 2 ranks (mpirun)"
# ns-3's distributed simulator (src/mpi, --enable-mpi above).  As root,
# OpenMPI wants its confirmation; in containers its shared-memory transport
# cannot use cross-process memory attach, so it copies instead.
mpirun=(mpirun --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then
    mpirun+=(--allow-run-as-root)
fi
export OMPI_MCA_btl_vader_single_copy_mechanism=none
# The remote link against a local one: frames and PAUSEs cross ranks with
# the link's delay and serialisation (exit 0 when every check passes).
./ns3 run --no-build --command-template="${mpirun[*]} -np 2 %s" tagger-pfc-remote-link-test
# The k=8 fat-tree incast, plain, with a failed core link under Tagger, and
# loaded (64 senders: frames from the other rank meet local events in the
# same nanosecond, which PfcChannel's OrderArrivals orders): the RESULT line
# and every flow record are the same on 1 and 2 ranks.
out=$(mktemp -d)
for scenario in "plain:" "tagger-failure:--failures=1 --tagger" "loaded:--senders=64 --stop-ms=5"; do
    name=${scenario%%:*}
    args=${scenario#*:}
    for np in 1 2; do
        ./ns3 run --no-build --command-template="${mpirun[*]} -np $np %s" \
            "rdma-mpi-incast $args --csv=$out/$name-$np.csv" | tee "$out/$name-$np.log"
        grep -E '^RESULT ' "$out/$name-$np.log" >"$out/$name-$np.result" ||
            die "rdma-mpi-incast $args on $np rank(s) printed no RESULT line"
    done
    cmp "$out/$name-1.result" "$out/$name-2.result" ||
        die "rdma-mpi-incast $args: RESULT differs between 1 and 2 ranks"
    cmp "$out/$name-1.csv" "$out/$name-2.csv" ||
        die "rdma-mpi-incast $args: flow records differ between 1 and 2 ranks"
    echo "rdma-mpi-incast $args: 1 and 2 ranks agree: $(cat "$out/$name-1.result")"
done
rm -rf "$out"
end

begin "scratch program ($scratch_program, from test/user-project)"
out=$(mktemp -d)
./ns3 run --no-build "$scratch_program" | tee "$out/log"
grep -q '^RESULT flows=15 completed=15 lossless_drops=0 ' "$out/log" ||
    die "the scratch program $scratch_program did not finish its 15 flows without lossless drops"
rm -rf "$out"
end

begin "run ($DEMO_PFC)"
out=$(mktemp -d)
./ns3 run "$DEMO_PFC --out=$out/pfc-incast" | tee "$out/log"
grep -q '^RESULT lossless_drops=0 ' "$out/log" || die "pfc-incast did not end with zero lossless drops"
rm -rf "$out"
end
