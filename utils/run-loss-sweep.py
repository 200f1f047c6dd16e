#!/usr/bin/env python3
"""Run a Table VI cell over a range of one parameter: packet loss rate against
run length, lossy pool, ECN thresholds, DCQCN parameters or the RTO.

For each configuration of --modes (roce, tagger1, tagger2) and each value of
the swept parameter, runs tagger-web-search-loss --seeds times (seeds 1, 2,
...; a seed fixes the failures and the traffic draw, the same for every
configuration and value) with --senders senders, as independent processes in
parallel (--jobs), with progress lines and the time left.  --param names the
parameter: "packets" (the run length, --packets), a flag of the program
("lossy-pool", "rto-ms", "max-inflight", ...) or an attribute
("ns3::PfcNetDevice::EcnKmin", given as --ns3::...=value); --values lists its
values.  Outputs are kept per run in --state (one folder per sweep: a run
whose file ends with its RESULT line is not run again, so an interrupted
sweep resumes); then it writes an RST table (mean loss rate and its 95 %
Student-t interval over the seeds per configuration and value; 0 of N
packets written as "< 3/N"), a CSV and a gnuplot script drawing the loss
rate against the parameter with the intervals (and the PNG when gnuplot is
installed).  Usage:

    utils/run-loss-sweep.py --param packets --values 1000000,3000000,10000000,30000000 \\
        --modes roce,tagger1 --senders 8 --seeds 5 --arrivals incast \\
        --state sweep-length --rst doc/loss-vs-length.rst --csv loss-vs-length.csv \\
        --plot loss-vs-length.plt [--packets 1000000] [--extra "..."] [--jobs 2] \\
        [--max-sent-ratio 1.1] [--run-limit-s 0]

Each run stops once its senders have sent --max-sent-ratio times its packets
(run-table-vi.py's rule: a network in congestion collapse resends without
end; its figures are then those of the run so far, and the table says so).
A run still going after --run-limit-s seconds of wall time is stopped; the
table names it with how far its simulation got (not a result: where a
wall-clock limit falls depends on the machine).
"""

import argparse
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("table_vi", os.path.join(HERE, "run-table-vi.py"))
table_vi = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(table_vi)

MODE_NAMES = dict(table_vi.MODES)


def flag_for(param, value):
    """The command-line argument that sets the swept parameter."""
    if param == "packets":
        return "--packets=%s" % value
    return "--%s=%s" % (param, value)


def loss_text(s, stops=None, seeds=0):
    """Mean and interval, or the zero bound; seeds stopped at the per-run
    limit named."""
    if stops:
        stopped = table_vi.format_stopped(stops, seeds)
        return stopped if s is None else loss_text(s) + "; %s, not in the mean" % stopped
    if s is None:
        return "not run"
    if s["lossy_drops"] == 0:
        return "0 of %d (< %.1e)" % (s["packets"], 3.0 / max(s["packets"], 1))
    if s["lo"] is None:
        return "%.2e (1 seed)" % s["mean"]
    return "%.2e [%.1e, %.1e]" % (s["mean"], s["lo"], s["hi"])


def write_rst(path, opt, values, summaries, session, stops):
    modes = opt.modes.split(",")
    with open(path, "w") as f:
        title = opt.title
        f.write(title + "\n" + "=" * len(title) + "\n\n")
        f.write("Written by ``utils/run-loss-sweep.py --param %s --values %s --modes %s "
                "--senders %d --seeds %d --arrivals %s%s --max-sent-ratio %g%s``: %d-to-1, "
                "%s arrivals, the "
                "mean loss rate of the lossy queue over %d seeds (1 to %d) with its 95 %% "
                "Student-t interval; a configuration that lost nothing is written as 0 of "
                "its packets (below 3/N at 95 %%).  %d runs in %.0f s of wall time on %s "
                "jobs.\n\n"
                % (opt.param, opt.values, opt.modes, opt.senders, opt.seeds, opt.arrivals,
                   "" if opt.param == "packets" else " --packets %d" % opt.packets,
                   opt.max_sent_ratio, (" --extra \"%s\"" % opt.extra) if opt.extra else "",
                   opt.senders, opt.arrivals, opt.seeds, opt.seeds, session[0], session[2],
                   "/".join(str(j) for j in sorted(session[1])) or "?"))
        f.write(".. list-table::\n   :header-rows: 1\n\n")
        f.write("   * - %s\n" % opt.param)
        for m in modes:
            f.write("     - %s\n" % MODE_NAMES[m])
        f.write("     - resent (packets, %s)\n" % modes[-1])
        for v in values:
            f.write("   * - %s\n" % v)
            for m in modes:
                s = summaries.get((m, v))
                ended = table_vi.format_ended(s) if s else ""
                f.write("     - %s\n" % (loss_text(s, stops.get((m, v)), opt.seeds)
                                          + ("; " + ended if ended else "")))
            last = summaries.get((modes[-1], v))
            f.write("     - %s\n" % ("" if last is None else last["resent"]))
        f.write("\n")


def write_csv(path, values, modes, summaries):
    with open(path, "w") as f:
        f.write("value,mode,seeds,mean,lo,hi,packets,lossy_drops,resent,zero_bound\n")
        for v in values:
            for m in modes:
                s = summaries.get((m, v))
                if s is None:
                    continue
                zero = 3.0 / max(s["packets"], 1)
                f.write("%s,%s,%d,%.6g,%.6g,%.6g,%d,%d,%d,%.6g\n"
                        % (v, m, s["seeds"], s["mean"],
                           s["lo"] if s["lo"] is not None else s["mean"],
                           s["hi"] if s["hi"] is not None else s["mean"],
                           s["packets"], s["lossy_drops"], s["resent"], zero))


def write_plot(path, csv_path, opt, modes, values, summaries):
    png = os.path.splitext(path)[0] + ".png"
    logx = opt.param == "packets"
    # A lower end of 0 runs to the bottom of the log scale, a decade below the
    # smallest value drawn (a mean, or a no-loss bound 3/N).
    drawn = [x for (m, v), c in summaries.items() if c is not None
             for x in (c["mean"], c["lo"] or 0, 3.0 / max(c["packets"], 1)) if x > 0]
    bottom = min(drawn) / 10 if drawn else 1e-9
    with open(path, "w") as f:
        f.write("# gnuplot %s: loss rate against %s (written by run-loss-sweep.py)\n"
                % (os.path.basename(path), opt.param))
        f.write("set terminal pngcairo size 900,560 enhanced\nset output '%s'\n" % png)
        f.write("set datafile separator ','\nset logscale y\nset format y '10^{%L}'\n")
        f.write("set yrange [%g:1]\n" % bottom)
        numeric = []
        for v in values:
            try:
                numeric.append(float(v.rstrip("Mbps").rstrip("Kbps")))
            except ValueError:
                pass
        if logx:
            f.write("set logscale x\n")
            if numeric:
                f.write("set xrange [%g:%g]\n" % (min(numeric) / 2, max(numeric) * 2))
        elif numeric and len(numeric) == len(values):
            span = (max(numeric) - min(numeric)) or 1
            f.write("set xrange [%g:%g]\n" % (min(numeric) - span / 10, max(numeric) + span / 10))
        f.write("set xlabel '%s'\nset ylabel 'loss rate of the lossy queue'\n" % opt.param)
        f.write("set key below\nset title '%d-to-1, %s arrivals, %d seeds: "
                "mean and 95 %% interval; no loss drawn at 3/N'\n"
                % (opt.senders, opt.arrivals, opt.seeds))
        plots = []
        for i, m in enumerate(modes):
            sel = "(strcol(2) eq '%s' && $8 > 0 ? " % m
            low = "(strcol(2) eq '%s' && $8 > 0 ? ($5 > 0 ? $5 : %g) : 1/0)" % (m, bottom)
            plots.append("'%s' every ::1 using 1:%s$4 : 1/0):%s:%s$6 : 1/0) "
                         "with yerrorbars pt %d lc %d title '%s'"
                         % (csv_path, sel, low, sel, 7 + 2 * i, i + 1, MODE_NAMES[m]))
            plots.append("'%s' every ::1 using 1:(strcol(2) eq '%s' && $8 == 0 ? $10 : 1/0) "
                         "with points pt %d lc %d title '%s: no loss (< 3/N)'"
                         % (csv_path, m, 6 + 2 * i, i + 1, m))
        f.write("plot " + ", \\\n     ".join(plots) + "\n")
    return png


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--param", required=True)
    ap.add_argument("--values", required=True, help="comma-separated values of --param")
    ap.add_argument("--modes", default="roce,tagger1", help="configurations to run")
    ap.add_argument("--show", default="",
                    help="configurations in the table and figure (default: --modes); those not "
                         "run now come from what --state holds, or 'not run'")
    ap.add_argument("--senders", type=int, default=8)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--packets", type=int, default=1000000,
                    help="run length when --param is not packets")
    ap.add_argument("--arrivals", choices=["poisson", "incast"], default="incast")
    ap.add_argument("--workload", choices=table_vi.WORKLOADS, default="websearch")
    ap.add_argument("--extra", default="")
    ap.add_argument("--state", required=True)
    ap.add_argument("--rst", required=True)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--plot", required=True)
    ap.add_argument("--title", default="Loss rate against a parameter")
    ap.add_argument("--max-sent-ratio", type=float, default=1.1,
                    help="stop a run once its senders sent this many times its packets, "
                         "resends included (0: no limit; as run-table-vi.py)")
    ap.add_argument("--run-limit-s", type=float, default=0,
                    help="stop a run after this many seconds of wall time (0: none); the table "
                         "names it with how far it got; the same or a shorter limit later does "
                         "not run it again")
    opt = ap.parse_args()
    modes = opt.modes.split(",")
    shown = opt.show.split(",") if opt.show else modes
    for m in modes + shown:
        if m not in MODE_NAMES:
            sys.exit("run-loss-sweep: unknown configuration '%s' in --modes" % m)
    values = [v for v in opt.values.split(",") if v]
    if (not values or opt.jobs < 1 or opt.seeds < 1 or opt.senders < 1 or opt.packets < 1
            or opt.run_limit_s < 0):
        sys.exit("run-loss-sweep: --values, --jobs, --seeds, --senders and --packets "
                 "must be given and positive, --run-limit-s not negative")
    if opt.max_sent_ratio != 0 and opt.max_sent_ratio < 1:
        sys.exit("run-loss-sweep: --max-sent-ratio %g would stop every run before its "
                 "arrivals are sent; use 0 (no limit) or at least 1" % opt.max_sent_ratio)
    for out in (opt.rst, opt.csv, opt.plot):
        if os.path.abspath(out) == os.path.abspath(opt.state):
            sys.exit("run-loss-sweep: output %s is the --state folder" % out)
    binary = table_vi.find_bin(opt.bin)
    os.makedirs(opt.state, exist_ok=True)
    runs = []
    for v in values:
        for m in sorted(set(modes) | set(shown), key=(modes + shown).index):
            for seed in range(1, opt.seeds + 1):
                args = ["--mode=" + m, "--senders=%d" % opt.senders, "--workload=" + opt.workload,
                        "--seed=%d" % seed, "--arrivals=" + opt.arrivals, "--traces=false"]
                if opt.param != "packets":
                    args.append("--packets=%d" % opt.packets)
                args.append(flag_for(opt.param, v))
                packets = int(v) if opt.param == "packets" else opt.packets
                if opt.max_sent_ratio:
                    args.append("--max-sent=%d" % table_vi.max_sent_for(opt.max_sent_ratio, packets))
                args += shlex.split(opt.extra)
                name = "%s-%s-%s-seed%d" % (opt.param.replace(":", "_"), v, m, seed)
                runs.append((name, args, os.path.join(opt.state, name + ".txt"), (m, v)))
    # Longest first, so that the last minutes are not one long run alone.
    todo = [r for r in runs if r[3][0] in modes and table_vi.needs_run(r[2], opt.run_limit_s)]
    if opt.param == "packets":
        todo.sort(key=lambda r: -int(r[3][1]))
    print("run-loss-sweep: %d runs, %d to run now on %d jobs"
          % (len(runs), len(todo), opt.jobs))
    errors, elapsed = table_vi.run_parallel(binary, todo, opt.jobs, opt.run_limit_s)
    session = table_vi.record_session(opt.state, len(todo), opt.jobs, elapsed)
    grouped = {}
    stops = {}
    for r in runs:
        res = table_vi.parse_result(r[2])
        if res:
            grouped.setdefault(r[3], []).append(res)
        elif table_vi.parse_stopped(r[2]):
            stops.setdefault(r[3], []).append(table_vi.parse_stopped(r[2]))
    summaries = {k: table_vi.summarize(v) for k, v in grouped.items()}
    opt.modes = ",".join(shown)
    write_rst(opt.rst, opt, values, summaries, session, stops)
    write_csv(opt.csv, values, shown, summaries)
    png = write_plot(opt.plot, opt.csv, opt, shown, values, summaries)
    print("run-loss-sweep: wrote %s, %s, %s" % (opt.rst, opt.csv, opt.plot))
    if shutil.which("gnuplot"):
        subprocess.run(["gnuplot", opt.plot], check=False)
        print("run-loss-sweep: drew %s" % png)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
