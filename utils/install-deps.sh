#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian (bookworm) packages the tagger module needs, plus any
# extra package names given as arguments.  Runs apt-get only when a package
# is missing, so warm reruns take no time.  Uses sudo when not root.
#
#   utils/install-deps.sh            # build and test dependencies
#   utils/install-deps.sh rsync      # ... and rsync
set -euo pipefail

packages=(
    libns3-dev ns3 libgsl-dev       # ns-3 3.37; find_package(ns3) needs all three
    libboost-graph-dev              # Boost.Graph (read_graphml links libboost_graph)
    libgtest-dev                    # GoogleTest
    nlohmann-json3-dev              # JSON
    cmake g++ ninja-build
    pkg-config                      # the installed module's tagger.pc (test/user-project)
    dpkg-dev                        # apt-get source (utils/check-in-tree.sh)
    libz3-dev                       # optional: the exact tag oracle (tagger-exact-tags.h)
)
packages+=("$@")

missing=()
for p in "${packages[@]}"; do
    if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
        missing+=("$p")
    fi
done

if [ "${#missing[@]}" -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages already installed"
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: apt-get not found; install these by hand: ${missing[*]}" >&2
    exit 1
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "install-deps: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
