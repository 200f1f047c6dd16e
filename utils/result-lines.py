#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print the RESULT lines of the module's programs, to compare ns-3 releases.

Runs a fixed list of short invocations (those of test/examples-to-run.py and
each program's other modes) from the programs in BIN_DIR and prints, for each,
the invocation and its RESULT line(s).  Run it once per build and diff the
outputs:

  utils/result-lines.py build > r-3.37-standalone.txt                  # standalone
  utils/result-lines.py <tree>/build/contrib/tagger/examples > r-3.48.txt  # CMake tree
  utils/result-lines.py <tree>/build/contrib/tagger/examples \\
      --lib-dir=<tree>/build/lib > r-3.35.txt                          # waf tree
  diff r-3.37-standalone.txt r-3.48.txt

A program is BIN_DIR/<name>, or BIN_DIR/ns<version>-<name>-<profile> as ns-3
trees name them.  The programs run in a temporary directory (their output
files go there).  Fields that measure the machine (run times, memory) are
left out.  A program that is missing or fails prints a line saying so; the
exit status is 1 when any did.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

RUNS = [
    "tagger-rules --topology=clos --elp=bounce --bounces=1 --algorithm=clos",
    "tagger-rules --topology=fattree --k=8 --elp=bounce --bounces=2 --algorithm=clos",
    "tagger-rules --topology=jellyfish --switches=60 --ports=12 --switch-ports=8 --elp=trees --algorithm=greedy",
    "tagger-clos-bounce --mode=pfc --out=o",
    "tagger-clos-bounce --mode=tagger --out=o",
    "tagger-clos-bounce --mode=ttl --out=o",
    "tagger-routing-loop --mode=pfc --out=o",
    "tagger-routing-loop --mode=tagger --out=o",
    "tagger-routing-loop --mode=ttl --out=o",
    "tagger-pause-propagation --mode=pfc --out=o",
    "tagger-pause-propagation --mode=tagger --out=o",
    "tagger-pause-propagation --mode=ttl --out=o",
    "tagger-first-script",
    "tagger-first-script --tagger=0",
    "pfc-incast --senders=8 --out=o",
    "pfc-incast --senders=16 --out=o",
    "pfc-bench --mode=B --k=4 --flows=20 --stop-ms=0.2",
    "rdma-incast --senders=4",
    "rdma-incast --senders=16 --pfc=false",
    "rdma-workload --load=0.3 --stop-ms=2",
    "rdma-from-hpcc --stop-ms=2001",
    "rdma-mpi-incast --failures=1 --tagger",
    "itsy-deadlock --scenario=on-loop --out=o",
    "itsy-deadlock --scenario=transient --out=o",
    "itsy-deadlock --scenario=on-loop --tagger=1 --out=o",
    "tagger-web-search-loss --k=4 --senders=6 --mode=roce --packets=30000 --lossy-pool=100000",
    "tagger-web-search-loss --k=4 --senders=6 --mode=tagger2 --packets=30000",
    "tagger-bounce-model --k=4,8 --failure-rates=0,0.2 --flows=20000 --seeds=4 --csv=o.csv --plot=o.plt",
    "tagger-order-bench --sizes=8,12 --max-degrees=4 --extra-paths=0,10 --graphs=3",
]


# Fields that measure the machine, not the simulation (times in s, memory in
# MB, rates per CPU second): left out, so that two builds' lines compare.
MEASURED = re.compile(r"^(\w+_s|\w+_mb|ns_per_\w+)=")


def without_measured(line):
    """\\p line without its MEASURED fields."""
    return " ".join(w for w in line.split() if not MEASURED.match(w))


def find_program(bin_dir, name):
    """BIN_DIR/name, or the one BIN_DIR/ns*-name-* of an ns-3 tree (None when absent)."""
    plain = os.path.join(bin_dir, name)
    if os.path.isfile(plain) and os.access(plain, os.X_OK):
        return plain
    found = sorted(glob.glob(os.path.join(bin_dir, "ns*-%s-*" % name)))
    found = [f for f in found if os.access(f, os.X_OK)]
    return found[0] if len(found) == 1 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bin_dir", help="directory holding the module's programs")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run (600)")
    parser.add_argument(
        "--lib-dir",
        default="",
        help="a directory for LD_LIBRARY_PATH (a waf tree's build/lib: its programs have no rpath)",
    )
    args = parser.parse_args()
    if not os.path.isdir(args.bin_dir):
        print("result-lines: %s is not a directory" % args.bin_dir, file=sys.stderr)
        return 2
    bin_dir = os.path.abspath(args.bin_dir)
    env = dict(os.environ)
    if args.lib_dir:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            p for p in (os.path.abspath(args.lib_dir), env.get("LD_LIBRARY_PATH", "")) if p
        )
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tagger-result-lines-") as work:
        for run in RUNS:
            name, *flags = run.split()
            program = find_program(bin_dir, name)
            if program is None:
                print("%s => NOT BUILT" % run)
                failed += 1
                continue
            try:
                done = subprocess.run(
                    [program] + flags,
                    cwd=work,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    stdin=subprocess.DEVNULL,
                    timeout=args.timeout,
                    text=True,
                )
            except subprocess.TimeoutExpired:
                print("%s => TIMEOUT" % run)
                failed += 1
                continue
            lines = [without_measured(l) for l in done.stdout.splitlines() if l.startswith("RESULT")]
            if done.returncode != 0 or not lines:
                print("%s => EXIT %d, %d RESULT lines" % (run, done.returncode, len(lines)))
                failed += 1
            for line in lines:
                print("%s => %s" % (run, line))
            sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
