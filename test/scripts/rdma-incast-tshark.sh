#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The rdma-incast example's pcap decodes as RoCEv2 (RRoCE) in tshark.
# Usage: rdma-incast-tshark.sh RDMA_INCAST_BINARY WORK_DIR
# Exits 77 (ctest: skipped) when tshark is not installed.
set -eu
bin=$1
dir=$2
command -v tshark >/dev/null 2>&1 || { echo "tshark not installed: skipped"; exit 77; }
mkdir -p "$dir"
"$bin" --senders=2 --flow-bytes=3000 --pcap="$dir/roce" --csv="$dir/flows.csv" >"$dir/log"
out=$(tshark -r "$dir/roce-H1-port0.pcap" 2>/dev/null)
echo "$out"
for s in "RRoCE" "RC Send First" "RC Send Last" "RC Acknowledge" "QP=0x000100"; do
    echo "$out" | grep -q "$s" || { echo "tshark output lacks '$s'" >&2; exit 1; }
done
echo "rdma-incast pcap decoded as RoCEv2"
