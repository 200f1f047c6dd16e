#! /usr/bin/env python3
# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# SPDX-License-Identifier: GPL-2.0-only
#
# The tagger module's programs that ns-3's ./test.py runs (waf and CMake
# trees alike), each a short run that must exit 0.  Each tuple is
#
#     (program and arguments, do_run, do_valgrind_run).
#
# test.py skips a program that was not built (pfc-incast and pfc-bench need
# the applications and point-to-point modules).  The standalone build runs
# the same programs as ctest smoke tests that also check their RESULT lines
# (CMakeLists.txt).
cpp_examples = [
    ("tagger-rules --topology=clos --elp=bounce --bounces=1 --algorithm=clos", "True", "False"),
    ("tagger-first-script", "True", "False"),
    ("tagger-first-script --tagger=0", "True", "False"),
    ("tagger-clos-bounce --tagger=0 --out=tagger-clos-bounce-pfc", "True", "False"),
    ("tagger-clos-bounce --tagger=1 --out=tagger-clos-bounce-tagger", "True", "False"),
    ("tagger-routing-loop --mode=tagger --out=tagger-routing-loop", "True", "False"),
    ("tagger-pause-propagation --mode=ttl --out=tagger-pause-propagation", "True", "False"),
    ("pfc-incast --senders=8 --out=pfc-incast", "True", "False"),
    ("pfc-bench --runs=1 --scenarios=false", "True", "False"),
    ("pfc-bench --mode=B --k=4 --flows=20 --stop-ms=0.2", "True", "False"),
    ("rdma-incast --senders=4", "True", "False"),
    ("rdma-workload --load=0.3 --stop-ms=2", "True", "False"),
    ("rdma-from-hpcc --stop-ms=2001", "True", "False"),
    ("rdma-mpi-incast --failures=1 --tagger", "True", "False"),
    ("itsy-deadlock --scenario=on-loop --out=itsy-deadlock", "True", "False"),
    ("itsy-fuzz-bench --runs=6", "True", "False"),
    ("tagger-web-search-loss --k=4 --senders=6 --mode=tagger2 --packets=30000", "True", "False"),
    ("tagger-bounce-model --k=4,8 --failure-rates=0,0.2 --flows=20000 --seeds=4", "True", "False"),
    ("tagger-order-bench --sizes=8,12 --max-degrees=4 --extra-paths=0,10 --graphs=3", "True", "False"),
]

# No Python examples.
python_examples = []
