#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# rdma-from-hpcc --config: what the command line gives wins over the config.
# A config of the shipped k = 4 fat tree and 15-to-1 incast (data/) sets
# CLAMP_TARGET_RATE 0 (and, with every config, ByteCounter 0).  Then
#  (a) the config alone,
#  (b) the config and --ns3::RdmaNic::ClampTargetRate=true,
#  (c) no config, the files as flags and --ns3::RdmaNic::ByteCounter=0
# must give: (b) the same RESULT line and FCT file as (c) (the command line
# undid the config's one key), and (a) another one (the key acts).  Also
# --stop-ms and --fct given on the command line win over the config's
# SIMULATOR_STOP_TIME and FCT_OUTPUT_FILE.
# Usage: hpcc-config-override.sh BINDIR SOURCE_DIR WORK_DIR
set -eu
bin=$1/rdma-from-hpcc
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
cp "$src/data/hpcc-fat-tree-k4.txt" topo.txt
cp "$src/data/hpcc-incast-flows.txt" flows.txt
cat >config.txt <<CONFIG
TOPOLOGY_FILE topo.txt
FLOW_FILE flows.txt
CLAMP_TARGET_RATE 0
SIMULATOR_STOP_TIME 0.000001
FCT_OUTPUT_FILE config-fct.txt
CONFIG
run() { "$bin" "$@" 2>/dev/null | grep '^RESULT'; }
a=$(run --config=config.txt --stop-ms=3000 --fct=a.txt)
b=$(run --config=config.txt --stop-ms=3000 --fct=b.txt --ns3::RdmaNic::ClampTargetRate=true)
c=$(run --topology-file=topo.txt --flow-file=flows.txt --stop-ms=3000 --fct=c.txt \
    --ns3::RdmaNic::ByteCounter=0)
fail=0
[ "$b" = "$c" ] || { echo "FAIL: the command line did not win: (b) $b; (c) $c"; fail=1; }
cmp -s b.txt c.txt || { echo "FAIL: FCT files of (b) and (c) differ"; fail=1; }
[ "$a" != "$b" ] || { echo "FAIL: CLAMP_TARGET_RATE 0 changed nothing: $a"; fail=1; }
case "$a" in *"completed=15 "*) ;; *) echo "FAIL: --stop-ms did not win: $a"; fail=1 ;; esac
[ ! -e config-fct.txt ] || { echo "FAIL: FCT_OUTPUT_FILE written though --fct was given"; fail=1; }
[ -s a.txt ] || { echo "FAIL: --fct=a.txt not written"; fail=1; }
[ "$fail" = 0 ] && echo "hpcc-config-override: OK ((a) $a; (b) = (c) $b)"
exit "$fail"
