#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A user's own program against the installed module: install the standalone
# build into a prefix, build test/user-project with find_package(tagger) and
# again with pkg-config, run both, and check what they print.
# Usage: user-project.sh SOURCE_DIR BUILD_DIR WORK_DIR
#
# Expected, derived by hand: 15 senders, so 15 flows, all completed (the run
# stops when they are done), no lossless drop, and the last flow no faster
# than the 15 x 100,000 payload bytes through host 0's 40 Gbps link take:
# 1.5e6 * 8 / 40e9 s = 300 us.  The two builds print the same line.
set -eu
src=$1
build=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

echo "== install the module into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in include/ns3/tagger-module.h include/ns3/pfc-topology-helper.h \
    include/ns3/tagger-topology.h lib/cmake/tagger/taggerConfig.cmake \
    lib/pkgconfig/tagger.pc share/tagger/data/websearch.cdf; do
    [ -f "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done

echo "== find_package(tagger): cmake -S $src/test/user-project"
generator=
command -v ninja >/dev/null 2>&1 && generator="-G Ninja"
# shellcheck disable=SC2086 # empty or two words
cmake $generator -S "$src/test/user-project" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/configure.log"
cmake --build "$work/cmake" >"$work/build.log"
"$work/cmake/user-incast" >"$work/cmake.out"
cat "$work/cmake.out"

echo "== pkg-config --cflags --libs tagger"
PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PKG_CONFIG_PATH
# shellcheck disable=SC2046 # the flags are words
${CXX:-c++} -o "$work/user-incast-pc" "$src/test/user-project/user-incast.cc" \
    $(pkg-config --cflags --libs tagger)
LD_LIBRARY_PATH=$prefix/lib "$work/user-incast-pc" >"$work/pc.out"
cat "$work/pc.out"

line=$(grep '^RESULT ' "$work/cmake.out")
[ "$line" = "$(grep '^RESULT ' "$work/pc.out")" ] ||
    { echo "the CMake and pkg-config builds print different RESULT lines" >&2; exit 1; }
echo "$line" | grep -q '^RESULT flows=15 completed=15 lossless_drops=0 last_fct_us=[0-9]*$' ||
    { echo "unexpected: $line" >&2; exit 1; }
# FindTaggerDataFile finds the installed data beside the installed library.
data=$(sed -n 's/^websearch.cdf: //p' "$work/cmake.out")
[ "$data" -ef "$prefix/share/tagger/data/websearch.cdf" ] ||
    { echo "the program read websearch.cdf from '$data', not from the installed share/tagger/data" >&2; exit 1; }
fct=$(echo "$line" | sed 's/.*last_fct_us=//')
[ "$fct" -ge 300 ] || { echo "last FCT $fct us is below the 300 us line-rate bound" >&2; exit 1; }
echo "user project: the installed module builds and runs ($line)"
