#!/usr/bin/env python3
"""Check utils/run-loss-sweep.py on a tiny sweep: two run lengths, two seeds,
one configuration, 8 senders.  The CSV's mean loss rate, packet and drop
sums per value must equal what this script computes itself from the RESULT
lines the runs left in the state folder; the table has one row per value; a
second invocation runs nothing (the sweep resumes from its state); an output
that is the state folder is refused.  With --run-limit-s, a run far longer
than the limit is stopped and named in the table with how far it got (no CSV
row), a short one finishes, and the same limit again runs nothing.  With
--max-sent-ratio 1 a baseline run that resends (100 KB lossy pool) stops at
exactly its packets sent and the table says so.

Usage: loss-sweep-test.py BINARY SOURCE_DIR WORK_DIR
"""

import csv
import importlib.util
import os
import shutil
import subprocess
import sys


def fail(why):
    print("loss-sweep-test: FAIL: " + why)
    sys.exit(1)


def main():
    binary, source, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    state = os.path.join(work, "state")
    cmd = [sys.executable, os.path.join(source, "utils", "run-loss-sweep.py"), "--bin", binary,
           "--param", "packets", "--values", "20000,40000", "--modes", "tagger1",
           "--senders", "8", "--seeds", "2", "--jobs", "2", "--state", state,
           "--rst", os.path.join(work, "t.rst"), "--csv", os.path.join(work, "t.csv"),
           "--plot", os.path.join(work, "t.plt")]
    first = subprocess.run(cmd, capture_output=True, text=True)
    if first.returncode != 0:
        fail("sweep exit %d: %s" % (first.returncode, first.stdout + first.stderr))
    # Independent summary from the runs' own RESULT lines.
    expected = {}
    for name in os.listdir(state):
        if not name.endswith(".txt") or name == "invocations.txt":
            continue
        value = name.split("-")[1]
        with open(os.path.join(state, name)) as f:
            result = [l for l in f if l.startswith("RESULT ")][-1]
        fields = dict(kv.split("=", 1) for kv in result.split()[1:])
        e = expected.setdefault(value, {"rates": [], "packets": 0, "drops": 0})
        e["rates"].append(int(fields["lossy_drops"]) / int(fields["packets"]))
        e["packets"] += int(fields["packets"])
        e["drops"] += int(fields["lossy_drops"])
    if sorted(expected) != ["20000", "40000"] or any(len(e["rates"]) != 2
                                                     for e in expected.values()):
        fail("expected 2 seeds of 2 values in the state folder, found %s" % sorted(expected))
    with open(os.path.join(work, "t.csv")) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != 2:
        fail("CSV rows: %d, expected 2" % len(rows))
    for row in rows:
        e = expected[row["value"]]
        mean = sum(e["rates"]) / 2
        if abs(float(row["mean"]) - mean) > 1e-9 + 1e-6 * mean:
            fail("value %s: CSV mean %s, RESULT lines give %g" % (row["value"], row["mean"], mean))
        if int(row["packets"]) != e["packets"] or int(row["lossy_drops"]) != e["drops"]:
            fail("value %s: CSV sums differ from the RESULT lines" % row["value"])
    with open(os.path.join(work, "t.rst")) as f:
        rst = f.read()
    if rst.count("\n   * - 20000\n") != 1 or rst.count("\n   * - 40000\n") != 1:
        fail("the table lacks a row per value")
    again = subprocess.run(cmd, capture_output=True, text=True)
    if again.returncode != 0 or "4 runs, 0 to run now" not in again.stdout:
        fail("the second invocation ran again: " + again.stdout)
    bad = cmd[:]
    bad[bad.index("--csv") + 1] = state
    refused = subprocess.run(bad, capture_output=True, text=True)
    if refused.returncode == 0 or "is the --state folder" not in refused.stderr:
        fail("an output on the state folder was not refused")
    check_max_sent(source)
    check_limit(binary, source, work)
    check_cap(binary, source, work)
    print("loss-sweep-test: OK (means, sums and rows as the RESULT lines give; resumed; "
          "refused an output on the state folder; a run past --run-limit-s stopped and named; "
          "a run at --max-sent-ratio stopped at its packets and named; --max-sent rounded "
          "up exactly)")


def check_max_sent(source):
    """--max-sent = ratio x packets rounded up, by hand: 1.1 x 3 x 10^7 is
    33,000,000 (not one more, as binary floating point rounds it), 1.001 x 1
    rounds up to 2, ratio 0 means no limit."""
    spec = importlib.util.spec_from_file_location(
        "table_vi", os.path.join(source, "utils", "run-table-vi.py"))
    table_vi = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table_vi)
    cases = [(1.1, 30000000, 33000000), (1.1, 3000000, 3300000), (1.1, 10000000, 11000000),
             (1.001, 1, 2), (1, 20000, 20000), (0, 20000, 0)]
    for ratio, packets, expected in cases:
        got = table_vi.max_sent_for(ratio, packets)
        if got != expected:
            fail("--max-sent for %g x %d is %d, expected %d" % (ratio, packets, got, expected))


def check_cap(binary, source, work):
    """Ratio 1: the senders stop at the run's 20,000 packets, resends counted."""
    state = os.path.join(work, "cap-state")
    cmd = [sys.executable, os.path.join(source, "utils", "run-loss-sweep.py"), "--bin", binary,
           "--param", "packets", "--values", "20000", "--modes", "roce", "--senders", "8",
           "--seeds", "1", "--jobs", "1", "--state", state, "--max-sent-ratio", "1",
           "--extra=--lossy-pool=100000", "--rst", os.path.join(work, "c.rst"),
           "--csv", os.path.join(work, "c.csv"), "--plot", os.path.join(work, "c.plt")]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        fail("capped sweep exit %d: %s" % (run.returncode, run.stdout + run.stderr))
    with open(os.path.join(state, "packets-20000-roce-seed1.txt")) as f:
        out = f.read()
    result = [l for l in out.splitlines() if l.startswith("RESULT ")][-1]
    fields = dict(kv.split("=", 1) for kv in result.split()[1:])
    if fields["packets"] != "20000" or fields["stopped"] != "sent":
        fail("the capped run did not stop at 20000 packets sent: " + result)
    if int(fields["resent"]) == 0 or "balanced=yes" not in out:
        fail("the capped run resent nothing or lost track of a packet:\n" + out)
    with open(os.path.join(work, "c.rst")) as f:
        rst = f.read()
    if "1 of 1 seeds stopped at --max-sent" not in rst:
        fail("the table does not name the run stopped at --max-sent:\n" + rst)
    if "--max-sent=20000" not in out.splitlines()[0]:
        fail("the run's command lacks --max-sent=20000: " + out.splitlines()[0])
    # No --max-sent, a 2 ms simulated-time limit: the run ends there, flows
    # unfinished, and the table names it so.
    timed = cmd[:]
    timed[timed.index("--state") + 1] = os.path.join(work, "time-state")
    timed[timed.index("--max-sent-ratio") + 1] = "0"
    timed[timed.index("--extra=--lossy-pool=100000")] = "--extra=--lossy-pool=100000 --stop-ms=2"
    run = subprocess.run(timed, capture_output=True, text=True)
    if run.returncode != 0:
        fail("time-limited sweep exit %d: %s" % (run.returncode, run.stdout + run.stderr))
    with open(os.path.join(work, "time-state", "packets-20000-roce-seed1.txt")) as f:
        out = f.read()
    result = [l for l in out.splitlines() if l.startswith("RESULT ")][-1]
    if " stopped=time " not in result or " unfinished=0" in result:
        fail("the run at --stop-ms=2 did not end at the time limit with flows unfinished: "
             + result)
    with open(os.path.join(work, "c.rst")) as f:
        rst = f.read()
    if "1 of 1 seeds stopped at the simulated-time limit" not in rst:
        fail("the table does not name the run stopped at the time limit:\n" + rst)


def check_limit(binary, source, work):
    """10^7 packets take minutes (over 100 s on a fast machine); 20,000 well
    under a second: a 20 s limit stops the one and not the other."""
    state = os.path.join(work, "limit-state")
    cmd = [sys.executable, os.path.join(source, "utils", "run-loss-sweep.py"), "--bin", binary,
           "--param", "packets", "--values", "20000,10000000", "--modes", "roce",
           "--senders", "8", "--seeds", "1", "--jobs", "2", "--state", state,
           "--run-limit-s", "20", "--rst", os.path.join(work, "l.rst"),
           "--csv", os.path.join(work, "l.csv"), "--plot", os.path.join(work, "l.plt")]
    first = subprocess.run(cmd, capture_output=True, text=True)
    if first.returncode != 0:
        fail("limited sweep exit %d: %s" % (first.returncode, first.stdout + first.stderr))
    stopped = os.path.join(state, "packets-10000000-roce-seed1.stopped")
    if not os.path.exists(stopped):
        fail("the 10^7-packet run left no .stopped record: " + first.stdout)
    if os.path.exists(os.path.join(state, "packets-10000000-roce-seed1.txt")):
        fail("the stopped run left a result file")
    with open(stopped) as f:
        record = f.read()
    if "limit_s=20" not in record or "arrivals" not in record:
        fail("the .stopped record lacks the limit or the last progress line: " + record)
    with open(os.path.join(work, "l.csv")) as f:
        rows = list(csv.DictReader(f))
    if [r["value"] for r in rows] != ["20000"]:
        fail("CSV rows %s, expected the finished value 20000 only" % [r["value"] for r in rows])
    with open(os.path.join(work, "l.rst")) as f:
        rst = f.read()
    if "1 of 1 seeds stopped at 20 s" not in rst:
        fail("the table does not name the stopped run:\n" + rst)
    again = subprocess.run(cmd, capture_output=True, text=True)
    if again.returncode != 0 or "2 runs, 0 to run now" not in again.stdout:
        fail("the same limit ran the stopped run again: " + again.stdout)


if __name__ == "__main__":
    main()
