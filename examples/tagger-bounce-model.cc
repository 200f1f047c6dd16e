/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-bounce-model: Tagger (ToN), Fig. 14, with the flow-level model.
 *
 * FatTree(k); every switch-to-switch link fails with probability f; the
 * switches next to a failure reroute locally with the data plane's rule
 * (tagger-reroute.h); flows between random hosts start on random shortest
 * paths.  For each (k, f), --flows flows split over --seeds failure draws;
 * prints the percentage of flows bounced once, twice and more than twice
 * (95 % confidence intervals over the seeds), and those that looped (TTL)
 * or found no route (apart in the table and CSV; together, as never
 * delivered, in unreachable).  Writes --csv and the three-panel gnuplot
 * script --plot, and ends with one line per (k, f):
 *   RESULT k=<k> failure_rate=<f> flows=<n> once=<%> twice=<%> more=<%>
 *          unreachable=<%>
 */

#include "ns3/tagger-bounce-grid.h"
#include "ns3/tagger-command-line.h"

#include <fstream>
#include <iostream>
#include <thread>

using namespace ns3;

int
main(int argc, char* argv[])
{
    tagger::BounceGridConfig cfg;
    cfg.ks = {8, 16, 32, 64};
    cfg.rates = {0.01, 0.02, 0.05, 0.1, 0.15, 0.2};
    std::string csv = "tagger-bounce-model.csv";
    std::string plot = "tagger-bounce-model.plt";
    cfg.threads = std::max(1u, std::thread::hardware_concurrency());
    TaggerCommandLine cmd("tagger-bounce-model", __FILE__);
    cmd.AddIntegerList("k", "fat-tree port counts, even, 4..64 (comma-separated)", cfg.ks, 4, 64);
    cmd.AddDoubleList("failure-rates",
                      "link failure rates in [0, 1] (comma-separated)",
                      cfg.rates,
                      0,
                      1);
    cmd.AddInteger("flows", "flows per (k, rate), split over the seeds", cfg.flows, 1, 100000000);
    cmd.AddInteger("seeds", "failure draws per (k, rate) (for the 95 % CI)", cfg.seeds, 1, 1000);
    cmd.AddInteger("seed", "base seed of failures, reroutes and flows", cfg.seed, 0, INT64_MAX);
    cmd.AddInteger("threads", "worker threads (results do not depend on them)", cfg.threads, 1, 64);
    cmd.AddBool("redraw",
                "sensitivity variant: a switch visited again draws its reroute and ECMP "
                "choices anew (not the data plane's behaviour)",
                cfg.redraw);
    cmd.AddOutputFile("csv", "CSV output file", csv);
    cmd.AddOutputFile("plot",
                      "gnuplot script output (draws the PNG of the same name from --csv)",
                      plot);
    cmd.Parse(argc, argv);
    for (uint32_t k : cfg.ks)
    {
        if (k % 2 != 0)
        {
            cmd.Fail("k", std::to_string(k), "must be even");
        }
    }
    if (cfg.flows < cfg.seeds)
    {
        cmd.Fail("flows", std::to_string(cfg.flows), "fewer flows than --seeds");
    }
    std::ofstream csvFile;
    std::ofstream plotFile;
    cmd.OpenOutput("csv", csv, csvFile);
    cmd.OpenOutput("plot", plot, plotFile);

    std::cout << "FatTree(k), k=" << cmd.GetText("k") << "; link failure rates "
              << cmd.GetText("failure-rates") << "; " << cfg.flows << " flows per point over "
              << cfg.seeds << " seeds (base seed " << cfg.seed
              << "); local reroute with the data plane's rule"
              << (cfg.redraw ? ", choices drawn anew at each visit (--redraw)" : "") << "\n"
              << tagger::BounceTableHeader();
    auto show = [](const tagger::BouncePoint& p) {
        std::cerr << "tagger-bounce-model: k=" << p.k << " f=" << p.rate << " done\n";
        std::cout << tagger::FormatBounceRow(p) << std::flush;
    };
    std::vector<tagger::BouncePoint> points = tagger::RunBounceGrid(cfg, show);
    tagger::WriteBounceCsv(csvFile, points);
    tagger::WriteBouncePlot(plotFile, csv, tagger::BouncePlotImage(plot), cfg.ks);
    cmd.CloseOutput("csv", csv, csvFile);
    cmd.CloseOutput("plot", plot, plotFile);
    std::cout << "Tagger (ToN), Sec. VIII-D, k=8 f=20%: about 16 % once, about 3 % more than once\n"
              << "wrote " << csv << " and " << plot << "\n";
    for (const tagger::BouncePoint& p : points)
    {
        std::cout << tagger::FormatBounceResult(p) << "\n";
    }
    return 0;
}
