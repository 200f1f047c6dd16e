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
                          [--arrivals incast|poisson] [--offered fixed|drawn]
                          [--max-sent-ratio 1.1] [--run-limit-s 0] [--report]
                          [--state table-vi-runs]
                          [--rst doc/table-vi.rst] [--csv table-vi.csv]
                          [--plot table-vi.plt] [--extra "--lossy-pool=1000000"]
                          [--title "..."] [--workloads websearch,datamining] [--traces]
                          [--modes roce,tagger1,tagger2]
"""

import argparse
import concurrent.futures
import csv
import decimal
import math
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
# Congestion controls (--ccs): the table's rows are configurations x CCs; DCQCN's
# rows keep the configuration's name (the paper's rows), the others add the CC.
CC_LABELS = {"dcqcn": "DCQCN", "hpcc": "HPCC", "dctcp": "DCTCP", "timely": "TIMELY",
             "none": "no congestion control"}


def max_sent_for(ratio, packets):
    """--max-sent for a run of packets: ratio x packets rounded up, computed in
    decimal (1.1 x 30,000,000 is 33,000,000; in binary floating point it is a
    hair above, which rounds up to 33,000,001).  0 for a ratio of 0."""
    return int(math.ceil(decimal.Decimal(repr(ratio)) * packets)) if ratio else 0


def make_rows(ccs):
    """(key, label, mode, cc) per table row: every configuration for each CC."""
    rows = []
    for cc in ccs:
        for mode, label in MODES:
            if cc == "dcqcn":
                rows.append((mode, label, mode, cc))
            else:
                rows.append(("%s-%s" % (mode, cc), "%s, %s" % (label, CC_LABELS[cc]), mode, cc))
    return rows


ROWS = make_rows(["dcqcn"])
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


def cell_name(workload, key, senders):
    """A cell's name: workload, row key (configuration, and the CC unless DCQCN), N."""
    return "%s-%s-%d" % (workload, key, senders)


def paper_value(mode, cc, senders):
    """The paper's value of a web-search cell (its rows ran DCQCN): '-' for another CC."""
    return PAPER[(mode, senders)] if cc == "dcqcn" else "-"


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
    ended = {reason: [r for r in runs if r.get("stopped") == reason] for reason, _ in ENDS}
    return {"seeds": n, "mean": mean, "lo": None if half is None else max(0.0, mean - half),
            "hi": None if half is None else mean + half, "packets": total("packets"),
            "lossy_drops": total("lossy_drops"), "lossless_drops": total("lossless_drops"),
            "other_drops": total("other_drops"), "resent": total("resent"),
            "deadlock": "yes" if any(r["deadlock"] == "yes" for r in runs) else "no",
            "load_min": min(load) if load else None, "load_max": max(load) if load else None,
            "bounced1": sum(float(r["bounced1"]) for r in runs) / n,
            "bounced2plus": sum(float(r["bounced2plus"]) for r in runs) / n,
            "wall_s": sum(float(r["wall_s"] or 0) for r in runs),
            "ended": {reason: [(float(r["arrivals_simulated"]), int(r["unfinished"]))
                               for r in rs] for reason, rs in ended.items()}}


def span(lo, hi, fmt):
    """'lo' when both format alike, else 'lo to hi'."""
    return (fmt % lo) if fmt % lo == fmt % hi else (fmt % lo + " to " + fmt % hi)


# Why a run ended before its arrivals were over and every flow done (the
# RESULT line's stopped=), as the tables name it.
ENDS = [("sent", "stopped at --max-sent"),
        ("time", "stopped at the simulated-time limit")]


def format_ended(c):
    """Why seeds of a cell ended early: 'k of n seeds stopped at --max-sent (how
    far their arrivals got)', the same for the simulated-time limit, or ''."""
    parts = []
    for reason, text in ENDS:
        runs = c["ended"].get(reason, [])
        if not runs:
            continue
        share = [100.0 * x for x, _ in runs]
        left = [u for _, u in runs]
        parts.append("%d of %d seeds %s (%s %% of the arrivals simulated, %s flows unfinished)"
                     % (len(runs), c["seeds"], text, span(min(share), max(share), "%.0f"),
                        span(min(left), max(left), "%d")))
    return "; ".join(parts)


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


def stopped_path(path):
    return os.path.splitext(path)[0] + ".stopped"


def progress_path(path):
    return os.path.splitext(path)[0] + ".progress"


PROGRESS = re.compile(r"\+?([0-9.e+-]+)ms of \+?([0-9.e+-]+)ms arrivals, (\d+) flows active")


def parse_stopped(path):
    """What a run stopped at the per-run limit left: {'limit': seconds,
    'reached_ms', 'arrivals_ms', 'active'} (the last progress line; the
    last three None when it printed none), or None."""
    stop = stopped_path(path)
    if not os.path.exists(stop):
        return None
    rec = {"limit": 0.0, "reached_ms": None, "arrivals_ms": None, "active": None}
    with open(stop) as f:
        for line in f:
            if line.startswith("limit_s="):
                rec["limit"] = float(line.split("=", 1)[1])
            m = PROGRESS.search(line)
            if m:
                rec["reached_ms"], rec["arrivals_ms"] = float(m.group(1)), float(m.group(2))
                rec["active"] = int(m.group(3))
    return rec


def needs_run(path, limit):
    """A run without its RESULT line, unless it was stopped before at a limit
    at least as long as this one (a larger --run-limit-s, or none, runs it
    again)."""
    if parse_result(path) is not None:
        return False
    stopped = parse_stopped(path)
    return not (limit and stopped and stopped["limit"] >= limit)


def run_cell(binary, args, path, limit=0):
    """Run one cell, writing its output to path.tmp, then renaming it (atomic);
    its progress lines go to <run>.progress.  With a limit (seconds of wall
    time, 0: none) a run still going then is killed and leaves <run>.stopped
    with the limit and its last progress line: how far the simulation got,
    not a result (where a wall-clock limit falls depends on the machine)."""
    start = time.time()
    with open(path + ".tmp", "w") as out, open(progress_path(path), "w") as err:
        out.write("# " + " ".join(shlex.quote(a) for a in [binary] + args) + "\n")
        out.flush()
        proc = subprocess.Popen(["nice", binary] + args, stdout=out, stderr=err)
        try:
            code = proc.wait(timeout=limit or None)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            code = None
        out.write("# wall %.1f s\n" % (time.time() - start))
    if code is None:
        with open(progress_path(path)) as f:
            last = [l for l in f.read().splitlines() if PROGRESS.search(l)]
        with open(stopped_path(path), "w") as f:
            f.write("limit_s=%g\n%s\n" % (limit, last[-1] if last else "no progress line"))
        os.remove(path + ".tmp")
        return "stopped at the %g s limit" % limit
    if code != 0:
        return "exit %d (see %s.tmp)" % (code, path)
    os.replace(path + ".tmp", path)
    if os.path.exists(stopped_path(path)):
        os.remove(stopped_path(path))
    return None


def run_parallel(binary, todo, jobs, limit=0):
    """Run every (name, args, path, ...) of todo with run_cell on `jobs`
    threads (each stopped after `limit` seconds when not 0), printing a
    progress line with the time left after each.  Returns (the errors, the
    wall time in seconds); a run stopped at the limit is not an error."""
    start = time.time()
    done = [0]
    lock = threading.Lock()

    def one(run):
        err = run_cell(binary, run[1], run[2], limit)
        with lock:
            done[0] += 1
            elapsed = time.time() - start
            left = elapsed / done[0] * (len(todo) - done[0])
            sys.stdout.write("[%d/%d] %s %s after %.0f s, about %.0f s to go\n"
                             % (done[0], len(todo), run[0], err or "done", elapsed, left))
            sys.stdout.flush()
        return err

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        errors = [e for e in pool.map(one, todo) if e and not e.startswith("stopped")]
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


def format_stopped(stops, seeds):
    """'k of n seeds stopped at T s (how far they got)' for the seeds of a
    cell stopped at the per-run limit."""
    text = "%d of %d seeds stopped at %g s" % (len(stops), seeds,
                                                max(s["limit"] for s in stops))
    got = [s for s in stops if s["reached_ms"] is not None and s["arrivals_ms"]]
    if got:
        share = [100.0 * s["reached_ms"] / s["arrivals_ms"] for s in got]
        active = [s["active"] for s in got]
        text += (" (%s %% of the arrivals simulated, %s flows active)"
                 % (span(min(share), max(share), "%.0f"), span(min(active), max(active), "%d")))
    return text


def format_loss(c, stops=None, seeds=0):
    """'0 of N (< 3/N)' when no seed lost a packet, else the mean with its
    95 % interval over the seeds; seeds stopped at the per-run limit are
    named (the mean is over the others)."""
    if c is None:
        return format_stopped(stops, seeds) if stops else "not run"
    if c["lossy_drops"] == 0:
        text = "0 of %d (< %.1e)" % (c["packets"], 3.0 / max(c["packets"], 1))
    elif c["lo"] is None:
        text = "%.3g" % c["mean"]
    else:
        text = "%.3g [%.2g, %.2g]" % (c["mean"], c["lo"], c["hi"])
    ended = format_ended(c)
    if ended:
        text += "; " + ended
    if stops:
        text += "; %s, not in the mean" % format_stopped(stops, seeds)
    return text


def write_rst(path, title, cells, packets, seeds, flags, wall, session, workloads, stops):
    lines = [".. Generated by utils/run-table-vi.py; do not edit by hand.", "",
             title, "=" * len(title), "",
             "Loss rate = lossy-queue congestion drops / data packets sent (Tagger (ToN),",
             "Sec. VIII-D), averaged over %d seeds per cell with its 95 %% Student-t" % seeds,
             "interval in brackets; a cell where no seed lost a packet is written \"0 of N\"",
             "with its 95 % upper bound 3/N (N: the packets of all its seeds).",
             "A run ends when its arrivals are over and every flow is done, or once its",
             "senders have sent ``--max-sent`` data packets (resends included): a network",
             "in congestion collapse resends without end, and its figures are then those",
             "of the run so far (the cell names how far its arrivals got).",
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
        for key, label, mode, cc in ROWS:
            lines.append("   * - " + label)
            for n in SENDERS:
                name = cell_name(workload, key, n)
                lines.append("     - " + format_loss(cells.get(name),
                                                      [r for _, r in stops.get(name, [])], seeds))
                if workload == "websearch":
                    lines.append("     - " + paper_value(mode, cc, n))
        lines.append("")
    lines += ["Per cell, over its seeds: packets, drops by reason, packets resent, realized",
              "offered load (lowest and highest seed), bounced flows (1, 2+; mean), deadlock,",
              "seeds stopped at ``--max-sent``:", "",
              ".. list-table::", "   :header-rows: 1", "",
              "   * - cell", "     - seeds", "     - packets", "     - lossy drops",
              "     - lossless drops", "     - other drops", "     - resent",
              "     - offered load", "     - bounced 1", "     - bounced 2+", "     - deadlock",
              "     - stopped at --max-sent", "     - wall (s)"]
    for workload in WORKLOADS:
        for key, _, _, _ in ROWS:
            for n in SENDERS:
                name = cell_name(workload, key, n)
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
                          "     - %d" % len(c["ended"]["sent"]), "     - %.0f" % c["wall_s"]]
    if stops:
        lines += ["", "Runs stopped at the per-run limit (``--run-limit-s``): where the",
                  "simulation was when the limit fell (its last progress line); not a result.", ""]
        for name in sorted(stops):
            for seed, s in stops[name]:
                where = ("no progress line" if s["reached_ms"] is None else
                         "%g of %g ms of arrivals simulated, %d flows active"
                         % (s["reached_ms"], s["arrivals_ms"], s["active"]))
                lines.append("- %s, seed %d: stopped at %g s, %s" % (name, seed, s["limit"],
                                                                      where))
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
            for key, _, mode, cc in ROWS:
                for n in SENDERS:
                    c = cells.get(cell_name(workload, key, n))
                    paper = paper_value(mode, cc, n) if workload == "websearch" else ""
                    paper = "" if paper == "-" else paper
                    if c is None:
                        if paper:
                            # no run of ours finished: the paper's value is still drawn
                            w.writerow([workload, key, n, paper] + [""] * len(keys))
                        continue
                    c = dict(c)
                    c["plotted"] = (c["mean"] if c["lossy_drops"] else
                                    3.0 / max(c["packets"], 1))
                    for k in ("lo", "hi"):
                        if c[k] is None or not c["lossy_drops"]:
                            c[k] = c["plotted"]
                    w.writerow([workload, key, n, paper] + [c.get(k, "") for k in keys])


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
            for i, (mode, label, _, cc) in enumerate(ROWS):
                match = "strcol(1) eq '%s' && strcol(2) eq '%s'" % (workload, mode)
                x = "($3+%g)" % (0.4 * (i - (len(ROWS) - 1) / 2.0))
                parts.append("'%s' using %s:(%s && $11 > 0 ? $9 : 1/0):7:8 with yerrorlines "
                             "lc %d pt %d title '%s (mean, 95 %% interval)'"
                             % (csv_path, x, match, i + 1, 5 + 2 * i, label))
                parts.append("'%s' using %s:(%s && $11 == 0 ? $9 : 1/0) with points "
                             "lc %d pt 10 ps 1.5 title '%s: 0 (at 3/N)'"
                             % (csv_path, x, match, i + 1, mode))
                if workload == "websearch" and cc == "dcqcn":  # the paper's rows
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
    ap.add_argument("--arrivals", choices=["poisson", "incast"], default="incast",
                    help="incast (default): the model whose baseline grows with N as the "
                         "paper's does (doc: Seeds, arrival models and the transport)")
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
    ap.add_argument("--ccs", default="dcqcn",
                    help="congestion controls, a row of each configuration per CC "
                         "(dcqcn,hpcc,dctcp,timely,none; the paper's rows are DCQCN's)")
    ap.add_argument("--max-sent-ratio", type=float, default=1.1,
                    help="stop a run once its senders have sent this many times --packets "
                         "data packets, resends included (0: no limit): a network in "
                         "congestion collapse (the web-search baseline at 10^7) resends "
                         "without end; 1.1 is above every run that does not collapse "
                         "(at most 1.05). The table names the runs it stopped")
    ap.add_argument("--run-limit-s", type=float, default=0,
                    help="stop a run after this many seconds of wall time (0: none); the table "
                         "then names it with how far it got, and a later invocation with the "
                         "same or a shorter limit does not run it again")
    ap.add_argument("--report", action="store_true",
                    help="run nothing: write the table, CSV and script from --state")
    ap.add_argument("--traces", action="store_true",
                    help="measure the bounces from the switches' traces (slower; by default "
                         "the bounce columns come from the model walk over the same routes)")
    opt = ap.parse_args()
    for mode in opt.modes.split(","):
        if mode not in [m for m, _ in MODES]:
            sys.exit("run-table-vi: unknown configuration '%s' in --modes" % mode)
    if opt.jobs < 1 or opt.packets < 1 or opt.seeds < 1 or opt.run_limit_s < 0:
        sys.exit("run-table-vi: --jobs, --packets and --seeds must be positive, "
                 "--run-limit-s not negative")
    if opt.max_sent_ratio != 0 and opt.max_sent_ratio < 1:
        sys.exit("run-table-vi: --max-sent-ratio %g would stop every run before its "
                 "arrivals are sent; use 0 (no limit) or at least 1" % opt.max_sent_ratio)
    max_sent = max_sent_for(opt.max_sent_ratio, opt.packets)
    for out in (opt.rst, opt.csv, opt.plot):
        if os.path.abspath(out) == os.path.abspath(opt.state):
            sys.exit("run-table-vi: output %s is the --state folder" % out)
    global ROWS
    ccs = [c for c in opt.ccs.split(",") if c]
    for cc in ccs:
        if cc not in CC_LABELS:
            sys.exit("run-table-vi: unknown congestion control '%s' in --ccs" % cc)
    ROWS = make_rows(ccs or ["dcqcn"])
    binary = None if opt.report else find_bin(opt.bin)
    os.makedirs(opt.state, exist_ok=True)
    cells = []
    for workload in opt.workloads.split(","):
        if workload not in WORKLOADS:
            sys.exit("run-table-vi: unknown workload '%s'" % workload)
        for key, _, mode, cc in ROWS:
            for n in SENDERS:
                for seed in range(1, opt.seeds + 1):
                    name = cell_name(workload, key, n)
                    args = ["--mode=" + mode, "--senders=%d" % n, "--workload=" + workload,
                            "--packets=%d" % opt.packets, "--seed=%d" % seed,
                            "--arrivals=" + opt.arrivals, "--offered=" + opt.offered,
                            "--traces=" + ("true" if opt.traces else "false")]
                    if max_sent:
                        args.append("--max-sent=%d" % max_sent)
                    if cc != "dcqcn":
                        args.append("--cc=" + cc)
                    args += shlex.split(opt.extra)
                    run = "%s-seed%d" % (name, seed)
                    cells.append((run, args, os.path.join(opt.state, run + ".txt"), name,
                                  seed, mode))
    # Every configuration's cells are tabled from --state; those of --modes are run.
    todo = [c for c in cells if not opt.report and c[5] in opt.modes.split(",")
            and needs_run(c[2], opt.run_limit_s)]
    print("run-table-vi: %d runs (%d seeds per cell), %d done before, %d to run on %d jobs"
          % (len(cells), opt.seeds, len(cells) - len(todo), len(todo), opt.jobs))
    errors, elapsed = run_parallel(binary, todo, opt.jobs, opt.run_limit_s)
    session = record_session(opt.state, len(todo), opt.jobs, elapsed)
    per_cell = {}
    stops = {}
    finished = 0
    for c in cells:
        r = parse_result(c[2])
        if r:
            per_cell.setdefault(c[3], []).append(r)
            finished += 1
        elif parse_stopped(c[2]):
            stops.setdefault(c[3], []).append((c[4], parse_stopped(c[2])))
    summaries = {name: summarize(runs) for name, runs in per_cell.items()}
    wall = sum(s["wall_s"] for s in summaries.values())
    flags = " ".join(["--arrivals=" + opt.arrivals, "--offered=" + opt.offered,
                      "--max-sent=%d" % max_sent if max_sent else "", opt.extra])
    flags = " ".join(flags.split())
    write_rst(opt.rst, opt.title, summaries, opt.packets, opt.seeds, flags, wall, session,
              opt.workloads.split(","), stops)
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
