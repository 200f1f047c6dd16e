#!/usr/bin/env python3
"""Run Tagger (ToN) Table VI (packet loss of the lossy queue as a last resort)
and write it beside the paper's numbers.

Runs tagger-web-search-loss for every cell: 3 configurations (roce,
tagger1, tagger2) x 3 scenarios (8, 16, 24 senders) x 2 workloads
(websearch, datamining), --seeds seeds each (1, 2, ...: a seed fixes the
link failures and the traffic draw, the same for every configuration), as
independent processes in parallel (--jobs, default: the number of cores),
with a progress line on the terminal.  Each run's output is kept in --state
(one file per cell and seed); a run whose file ends with its RESULT line is
not run again, so an interrupted run resumes where it stopped (use one
--state folder per set of flags: they are not compared).  Writes the RST
table (--rst, default doc/table-vi.rst: per cell the mean loss rate over the
seeds with its 95 % Student-t interval beside the paper's value), a CSV and
a gnuplot script (loss rate per scenario and configuration with the
intervals, log scale; zeros drawn at their 95 % upper bound 3/N, N the
packets of all seeds).  Usage:

    utils/run-table-vi.py [--bin build-optimized/tagger-web-search-loss] [--jobs 2]
                          [--packets 10000000] [--seeds 5]
                          [--arrivals poisson|incast] [--offered fixed|drawn]
                          [--state table-vi-runs]
                          [--rst doc/table-vi.rst] [--csv table-vi.csv]
                          [--plot table-vi.plt] [--extra "--lossy-pool=1000000"]
                          [--title "..."] [--workloads websearch,datamining] [--traces]
                          [--modes roce,tagger1,tagger2]
"""

import argparse
import concurrent.futures
import csv
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

MODES = [("roce", "Baseline: RoCE without PFC"),
         ("tagger1", "RoCE + Tagger (1 lossless queue)"),
         ("tagger2", "RoCE + Tagger (2 lossless queues)")]
SENDERS = [8, 16, 24]
WORKLOADS = ["websearch", "datamining"]
# Tagger (ToN), Table VI (web search only; the paper omits data mining).
PAPER = {("roce", 8): "1.25e-2", ("roce", 16): "6.6e-2", ("roce", 24): "1.27e-1",
         ("tagger1", 8): "0", ("tagger1", 16): "6.87e-7", ("tagger1", 24): "1.61e-6",
         ("tagger2", 8): "0", ("tagger2", 16): "0", ("tagger2", 24): "0"}


def find_bin(explicit):
    """--bin, else the experiment build (build-optimized: -DTAGGER_OPTIMIZED=ON,
    NS_LOG and NS_ASSERT compiled out of the module), else the default build."""
    if explicit:
        return explicit
    for cand in ("build-optimized/tagger-web-search-loss", "build/tagger-web-search-loss",
                 "build/examples/tagger-web-search-loss"):
        path = os.path.join(ROOT, cand)
        if os.path.exists(path):
            if not cand.startswith("build-optimized"):
                print("run-table-vi: using %s; for the experiment build (NS_LOG and "
                      "NS_ASSERT compiled out of the module):\n"
                      "  cmake -S . -B build-optimized -DTAGGER_OPTIMIZED=ON && "
                      "cmake --build build-optimized --target tagger-web-search-loss" % cand)
            return path
    sys.exit("run-table-vi: tagger-web-search-loss not found; build first or pass --bin")


def cell_name(workload, mode, senders):
    return "%s-%s-%d" % (workload, mode, senders)


# Student's t, two-sided 95 %, by degrees of freedom (1.96 beyond 30).
T95 = [0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def summarize(runs):
    """Per cell, over its seeds' results: the mean loss rate, its 95 %
    interval (Student t; None with one seed), the sums, and the zero bound."""
    if not runs:
        return None
    rates = [int(r["lossy_drops"]) / max(int(r["packets"]), 1) for r in runs]
    n = len(rates)
    mean = sum(rates) / n
    half = None
    if n > 1:
        var = sum((x - mean) ** 2 for x in rates) / (n - 1)
        half = T95[min(n - 1, 30)] * (var / n) ** 0.5 if n - 1 <= 30 else 1.96 * (var / n) ** 0.5
    total = lambda key: sum(int(r.get(key, 0) or 0) for r in runs)
    load = [float(r["offered_load"]) for r in runs if "offered_load" in r]
    return {"seeds": n, "mean": mean, "lo": None if half is None else max(0.0, mean - half),
            "hi": None if half is None else mean + half, "packets": total("packets"),
            "lossy_drops": total("lossy_drops"), "lossless_drops": total("lossless_drops"),
            "other_drops": total("other_drops"), "resent": total("resent"),
            "deadlock": "yes" if any(r["deadlock"] == "yes" for r in runs) else "no",
            "load_min": min(load) if load else None, "load_max": max(load) if load else None,
            "bounced1": sum(float(r["bounced1"]) for r in runs) / n,
            "bounced2plus": sum(float(r["bounced2plus"]) for r in runs) / n,
            "wall_s": sum(float(r["wall_s"] or 0) for r in runs)}


def parse_result(path):
    """The RESULT fields of a finished cell's output file, or None."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if l.startswith("RESULT ")]
    if not lines:
        return None
    fields = dict(kv.split("=", 1) for kv in lines[-1].split()[1:])
    with open(path) as f:
        m = re.search(r"^# wall ([0-9.]+) s$", f.read(), re.M)
    fields["wall_s"] = m.group(1) if m else ""
    return fields


def run_cell(binary, args, path):
    """Run one cell, writing its output to path.tmp, then renaming it (atomic)."""
    start = time.time()
    with open(path + ".tmp", "w") as out:
        out.write("# " + " ".join(shlex.quote(a) for a in [binary] + args) + "\n")
        out.flush()
        proc = subprocess.run(["nice", binary] + args, stdout=out, stderr=subprocess.DEVNULL)
        out.write("# wall %.1f s\n" % (time.time() - start))
    if proc.returncode != 0:
        return "exit %d (see %s.tmp)" % (proc.returncode, path)
    os.replace(path + ".tmp", path)
    return None


def run_parallel(binary, todo, jobs):
    """Run every (name, args, path, ...) of todo with run_cell on `jobs`
    threads, printing a progress line with the time left after each.
    Returns (the errors, the wall time in seconds)."""
    start = time.time()
    done = [0]
    lock = threading.Lock()

    def one(run):
        err = run_cell(binary, run[1], run[2])
        with lock:
            done[0] += 1
            elapsed = time.time() - start
            left = elapsed / done[0] * (len(todo) - done[0])
            sys.stdout.write("[%d/%d] %s %s after %.0f s, about %.0f s to go\n"
                             % (done[0], len(todo), run[0], err or "done", elapsed, left))
            sys.stdout.flush()
        return err

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        errors = [e for e in pool.map(one, todo) if e]
    return errors, time.time() - start


def record_session(state, ran, jobs, elapsed):
    """Each invocation that ran something leaves its wall time in the state
    folder, so that a table resumed over several invocations states them
    all.  Returns [runs, the job counts used, wall seconds] over them."""
    invocations = os.path.join(state, "invocations.txt")
    if ran:
        with open(invocations, "a") as f:
            f.write("%d %d %.1f\n" % (ran, jobs, elapsed))
    session = [0, set(), 0.0]
    if os.path.exists(invocations):
        with open(invocations) as f:
            for line in f:
                runs, used, seconds = line.split()
                session[0] += int(runs)
                session[1].add(int(used))
                session[2] += float(seconds)
    return session


def format_loss(c):
    """'0 of N (< 3/N)' when no seed lost a packet, else the mean with its
    95 % interval over the seeds."""
    if c is None:
        return "not run"
    if c["lossy_drops"] == 0:
        return "0 of %d (< %.1e)" % (c["packets"], 3.0 / max(c["packets"], 1))
    if c["lo"] is None:
        return "%.3g" % c["mean"]
    return "%.3g [%.2g, %.2g]" % (c["mean"], c["lo"], c["hi"])


def write_rst(path, title, cells, packets, seeds, flags, wall, session, workloads):
    lines = [".. Generated by utils/run-table-vi.py; do not edit by hand.", "",
             title, "=" * len(title), "",
             "Loss rate = lossy-queue congestion drops / data packets sent (Tagger (ToN),",
             "Sec. VIII-D), averaged over %d seeds per cell with its 95 %% Student-t" % seeds,
             "interval in brackets; a cell where no seed lost a packet is written \"0 of N\"",
             "with its 95 % upper bound 3/N (N: the packets of all its seeds).",
             "FatTree(8), 20 % link failures, N-to-1, load 0.99 on the destination's link;",
             "about %d data packets offered per run, flags: %s; the runs' wall times" %
             (packets, flags),
             "add up to %.0f s (one core each); the driver ran %d of them on %s jobs" %
             (wall, session[0], "/".join(str(j) for j in sorted(session[1])) or "-"),
             "in %.0f s of wall time (the invocations recorded in its --state)." % session[2],
             ""]
    for workload in workloads:
        title = "web search" if workload == "websearch" else "data mining"
        lines += [".. list-table:: %s workload" % title, "   :header-rows: 1", "",
                  "   * - configuration"]
        for n in SENDERS:
            lines.append("     - %d-to-1 (ours)" % n)
            if workload == "websearch":
                lines.append("     - %d-to-1 (paper)" % n)
        for mode, label in MODES:
            lines.append("   * - " + label)
            for n in SENDERS:
                lines.append("     - " + format_loss(cells.get(cell_name(workload, mode, n))))
                if workload == "websearch":
                    lines.append("     - " + PAPER[(mode, n)])
        lines.append("")
    lines += ["Per cell, over its seeds: packets, drops by reason, packets resent, realized",
              "offered load (lowest and highest seed), bounced flows (1, 2+; mean), deadlock:", "",
              ".. list-table::", "   :header-rows: 1", "",
              "   * - cell", "     - seeds", "     - packets", "     - lossy drops",
              "     - lossless drops", "     - other drops", "     - resent",
              "     - offered load", "     - bounced 1", "     - bounced 2+", "     - deadlock",
              "     - wall (s)"]
    for workload in WORKLOADS:
        for mode, _ in MODES:
            for n in SENDERS:
                name = cell_name(workload, mode, n)
                c = cells.get(name)
                if c is None:
                    continue
                load = ("-" if c["load_min"] is None
                        else "%.3f to %.3f" % (c["load_min"], c["load_max"]))
                lines += ["   * - " + name, "     - %d" % c["seeds"], "     - %d" % c["packets"],
                          "     - %d" % c["lossy_drops"], "     - %d" % c["lossless_drops"],
                          "     - %d" % c["other_drops"], "     - %d" % c["resent"],
                          "     - " + load, "     - %.4f" % c["bounced1"],
                          "     - %.4f" % c["bounced2plus"], "     - " + c["deadlock"],
                          "     - %.0f" % c["wall_s"]]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_csv(path, cells):
    """One row per cell: the mean, its interval, the value drawn (the mean,
    or 3/N for a zero) and the sums."""
    keys = ["seeds", "mean", "lo", "hi", "plotted", "packets", "lossy_drops", "lossless_drops",
            "other_drops", "resent", "deadlock", "wall_s"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "mode", "senders", "paper"] + keys)
        for workload in WORKLOADS:
            for mode, _ in MODES:
                for n in SENDERS:
                    c = cells.get(cell_name(workload, mode, n))
                    if c is None:
                        continue
                    c = dict(c)
                    c["plotted"] = (c["mean"] if c["lossy_drops"] else
                                    3.0 / max(c["packets"], 1))
                    for k in ("lo", "hi"):
                        if c[k] is None or not c["lossy_drops"]:
                            c[k] = c["plotted"]
                    paper = PAPER[(mode, n)] if workload == "websearch" else ""
                    w.writerow([workload, mode, n, paper] + [c.get(k, "") for k in keys])


def write_plot(path, csv_path, workloads):
    """One panel per workload: each configuration's loss rate against N, a
    zero as an open down-triangle at its bound 3/N, the paper's non-zero
    values as open symbols of the configuration's colour."""
    png = os.path.splitext(path)[0] + ".png"
    with open(path, "w") as f:
        f.write("""# Tagger (ToN) Table VI: loss rate per scenario, mean over the seeds with its
# 95 %% interval (zeros at their bound 3/N)
set terminal png size %d,600
set output '%s'
set datafile separator ','
set logscale y
set format y '10^{%%L}'
set xlabel 'senders (N-to-1)'
set ylabel 'loss rate'
set key outside bottom center horizontal maxrows 3 font ',8'
set xrange [4:28]
set yrange [1e-8:1]
set xtics (8, 16, 24)
set multiplot layout 1,%d
""" % (750 * len(workloads), png, len(workloads)))
        for workload in workloads:
            f.write("set title '%s'\nplot " % workload)
            parts = []
            for i, (mode, label) in enumerate(MODES):
                match = "strcol(1) eq '%s' && strcol(2) eq '%s'" % (workload, mode)
                x = "($3+%g)" % (0.4 * (i - 1))
                parts.append("'%s' using %s:(%s && $11 > 0 ? $9 : 1/0):7:8 with yerrorlines "
                             "lc %d pt %d title '%s (mean, 95 %% interval)'"
                             % (csv_path, x, match, i + 1, 5 + 2 * i, label))
                parts.append("'%s' using %s:(%s && $11 == 0 ? $9 : 1/0) with points "
                             "lc %d pt 10 ps 1.5 title '%s: 0 (at 3/N)'"
                             % (csv_path, x, match, i + 1, mode))
                if workload == "websearch":
                    parts.append("'%s' using %s:(%s && $4 > 0 ? $4 : 1/0) with points "
                                 "lc %d pt %d ps 1.5 title 'paper, %s'"
                                 % (csv_path, x, match, i + 1, 4 + 2 * i, mode))
            f.write(", \\\n     ".join(parts) + "\n")
        f.write("unset multiplot\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--packets", type=int, default=10000000)
    ap.add_argument("--seeds", type=int, default=5, help="seeds per cell (1, 2, ...)")
    ap.add_argument("--arrivals", choices=["poisson", "incast"], default="poisson")
    ap.add_argument("--offered", choices=["fixed", "drawn"], default="fixed")
    ap.add_argument("--state", default="table-vi-runs")
    ap.add_argument("--rst", default=os.path.join(ROOT, "doc", "table-vi.rst"))
    ap.add_argument("--csv", default="table-vi.csv")
    ap.add_argument("--plot", default="table-vi.plt")
    ap.add_argument("--extra", default="", help="more flags for every cell")
    ap.add_argument("--title", default="Table VI: packet loss rate, measured beside the paper's",
                    help="the RST section title")
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--modes", default=",".join(m for m, _ in MODES),
                    help="configurations to run (roce,tagger1,tagger2); the others' cells "
                         "are written from what --state already holds, or 'not run'")
    ap.add_argument("--traces", action="store_true",
                    help="measure the bounces from the switches' traces (slower; by default "
                         "the bounce columns come from the model walk over the same routes)")
    opt = ap.parse_args()
    for mode in opt.modes.split(","):
        if mode not in [m for m, _ in MODES]:
            sys.exit("run-table-vi: unknown configuration '%s' in --modes" % mode)
    if opt.jobs < 1 or opt.packets < 1 or opt.seeds < 1:
        sys.exit("run-table-vi: --jobs, --packets and --seeds must be positive")
    for out in (opt.rst, opt.csv, opt.plot):
        if os.path.abspath(out) == os.path.abspath(opt.state):
            sys.exit("run-table-vi: output %s is the --state folder" % out)
    binary = find_bin(opt.bin)
    os.makedirs(opt.state, exist_ok=True)
    cells = []
    for workload in opt.workloads.split(","):
        if workload not in WORKLOADS:
            sys.exit("run-table-vi: unknown workload '%s'" % workload)
        for mode, _ in MODES:
            if mode not in opt.modes.split(","):
                continue
            for n in SENDERS:
                for seed in range(1, opt.seeds + 1):
                    name = cell_name(workload, mode, n)
                    args = ["--mode=" + mode, "--senders=%d" % n, "--workload=" + workload,
                            "--packets=%d" % opt.packets, "--seed=%d" % seed,
                            "--arrivals=" + opt.arrivals, "--offered=" + opt.offered,
                            "--traces=" + ("true" if opt.traces else "false")]
                    args += shlex.split(opt.extra)
                    run = "%s-seed%d" % (name, seed)
                    cells.append((run, args, os.path.join(opt.state, run + ".txt"), name))
    todo = [c for c in cells if parse_result(c[2]) is None]
    print("run-table-vi: %d runs (%d seeds per cell), %d done before, %d to run on %d jobs"
          % (len(cells), opt.seeds, len(cells) - len(todo), len(todo), opt.jobs))
    errors, elapsed = run_parallel(binary, todo, opt.jobs)
    session = record_session(opt.state, len(todo), opt.jobs, elapsed)
    per_cell = {}
    finished = 0
    for c in cells:
        r = parse_result(c[2])
        if r:
            per_cell.setdefault(c[3], []).append(r)
            finished += 1
    summaries = {name: summarize(runs) for name, runs in per_cell.items()}
    wall = sum(s["wall_s"] for s in summaries.values())
    flags = " ".join(["--arrivals=" + opt.arrivals, "--offered=" + opt.offered, opt.extra]).strip()
    write_rst(opt.rst, opt.title, summaries, opt.packets, opt.seeds, flags, wall, session,
              opt.workloads.split(","))
    write_csv(opt.csv, summaries)
    write_plot(opt.plot, opt.csv, opt.workloads.split(","))
    print("run-table-vi: wrote %s, %s, %s (%d of %d runs; %d run now on %d jobs in %.0f s)"
          % (opt.rst, opt.csv, opt.plot, finished, len(cells), len(todo), opt.jobs, elapsed))
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", opt.plot], check=False)
        print("run-table-vi: drew %s.png" % os.path.splitext(opt.plot)[0])
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
