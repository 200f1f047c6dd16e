#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# No output overwrites an input, and no two outputs share a file: each case
# names one file twice (the same path, another spelling, a symbolic link, a
# hard link, a prefix's file) and must exit with code 2 before it writes
# anything, with one stderr line naming both flags, and leave every input as
# it was.  Two outputs on /dev/null are allowed.
# Usage: outputs-apart.sh BINDIR SOURCE_DIR WORK_DIR
set -eu
bin=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work/sub"
cd "$work"
cp "$src/test/data/hpcc-mixed-topology.txt" t
cp "$src/test/data/hpcc-mixed-flows.txt" f
cp "$src/data/triangle.json" t.json
printf '0 1 1000 0.000001\n' >w
echo "some bytes" >o-rate.dat
ln -s t t-link
ln t t-hard
sums() { cksum t f t.json w o-rate.dat; }
before=$(sums)
failures=0

# refused PROGRAM FLAG1 FLAG2 ARGS...: exit 2, one line naming --FLAG1 and --FLAG2.
refused() {
    program=$1
    first=$2
    second=$3
    shift 3
    set +e
    "$bin/$program" "$@" >out.txt 2>err.txt
    rc=$?
    set -e
    lines=$(grep -c . err.txt || true)
    if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q -- "--$first=" err.txt ||
        ! grep -q -- "--$second=" err.txt; then
        echo "FAIL $program $*: exit $rc, $lines stderr lines: $(cat err.txt)"
        failures=$((failures + 1))
    else
        echo "ok   $program $*: $(cat err.txt)"
    fi
}

refused rdma-from-hpcc fct topology-file --topology-file=t --flow-file=f --fct=t
refused rdma-from-hpcc csv flow-file --topology-file=t --flow-file=f --csv=f
refused rdma-from-hpcc fct topology-file --topology-file=t --flow-file=f --fct=t-link
refused rdma-from-hpcc fct topology-file --topology-file=t --flow-file=f --fct=t-hard
refused rdma-from-hpcc csv flow-file --topology-file=t --flow-file=f --csv=sub/../f
refused rdma-from-hpcc csv fct --topology-file=t --flow-file=f --fct=x --csv=./x
refused rdma-workload csv flow-file --flow-file=w --csv=w
refused tagger-rules json topology-file --topology-file=t.json --json=t.json
refused tagger-bounce-model plot csv --csv=y --plot=y --k=4 --flows=10
refused tagger-clos-bounce out rules --mode=tagger --rules=o-rate.dat --out=o
[ ! -e x ] && [ ! -e y ] || { echo "FAIL an output of a refused run was created"; failures=$((failures + 1)); }
[ "$(sums)" = "$before" ] || { echo "FAIL an input changed"; failures=$((failures + 1)); }

# Character devices may be named twice.
if "$bin/rdma-from-hpcc" --topology-file=t --flow-file=f --fct=/dev/null --csv=/dev/null >out.txt 2>err.txt; then
    echo "ok   rdma-from-hpcc --fct=/dev/null --csv=/dev/null runs"
else
    echo "FAIL rdma-from-hpcc --fct=/dev/null --csv=/dev/null: $(cat err.txt)"
    failures=$((failures + 1))
fi
[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "outputs apart from inputs: every case refused, every input intact"
