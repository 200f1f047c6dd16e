#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The itsy-deadlock example's pcap (L1's ports) decoded by tshark with the
# ITSY dissector (utils/itsy.lua): PAUSE frames stay PFC frames and carry
# checking messages in their padding; synthesized frames (EtherType 0x88B5)
# carry checking messages and temporal checks with their hops.
# Usage: itsy-tshark.sh ITSY_DEADLOCK_BINARY LUA_SCRIPT WORK_DIR
# Exits 77 (ctest: skipped) when tshark is not installed.
set -eu
bin=$1
lua=$2
dir=$3
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed: skipped"; exit 77; }
mkdir -p "$dir"
"$bin" --scenario=on-loop --pcap="$dir/itsy" --out="$dir/itsy" >"$dir/log"
out=""
for f in "$dir"/itsy-L1-port*.pcap; do
    out="$out
$(tshark -X lua_script:"$lua" -r "$f" -V -Y itsy 2>/dev/null)"
done
for s in "Class Based Flow Control" "ITSY checking message (PFC padding)" \
         "ITSY checking message (synthesized frame)" "ITSY temporal message (synthesized frame)" \
         "Generic initiator node (S_gen)" "Initial trigger node (S_tri)" "Seq_id" "Hop: node"; do
    echo "$out" | grep -q "$s" || { echo "tshark output lacks '$s'" >&2; exit 1; }
done
echo "itsy-deadlock pcap: ITSY fields decoded in PFC padding and synthesized frames"
