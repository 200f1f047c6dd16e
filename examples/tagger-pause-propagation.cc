/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-pause-propagation: Tagger (ToN), Fig. 12 (Section VIII-B, "PAUSE
 * propagation due to deadlock"): once a deadlock forms, PFC PAUSE spreads
 * and stops flows that have nothing to do with it.
 *
 * The paper's Clos testbed (Fig. 2: T1-T4, L1-L4, S1-S2, H1-H16, 40 Gbps).
 * A 4-to-1 shuffle H9, H10, H13, H14 -> H1 and a 1-to-4 shuffle H5 -> H11,
 * H12, H15, H16 run together (8 long RoCE flows).  At --bounce-ms links
 * L2-T1 and L3-T4 fail (--bounce-failures; routes are recomputed around them)
 * and the routes change so that H9 -> H1 takes T3-L3-S2-L2-S1-L1-T1 and
 * H5 -> H15 takes T2-L2-S1-L3-S2-L4-T4: 1-bounce paths with the cyclic
 * buffer dependency of Fig. 3 (L2->S1->L3->S2->L2).  Routes are per ToR
 * prefix, as in a Clos: the new routes are for all hosts of T1 (so H10 ->
 * H1 bounces as well, and from T4 H13, H14 -> H1 take
 * T4-L4-S2-L2-S1-L1-T1) and all hosts of T4 (H5 -> H16 bounces as
 * H5 -> H15 does).  H5 -> H11, H12 keep their ECMP paths.  The paths in
 * use are printed at the end.
 *   pfc:    the cycle deadlocks and the PAUSE propagates back to every
 *           sender: all 8 flows stop;
 *   tagger: (ELP shortest + 1-bounce paths, two lossless tags) no flow stops;
 *   ttl:    no flow stops either.
 *
 * The set-up is TaggerExperimentHelper::RunPausePropagation (shared with
 * the tests).  Time is scaled: milliseconds instead of the testbed's
 * seconds.  Writes <out>-rate.dat and <out>-rate.plt (gnuplot) with the
 * rates of all 8 flows, and ends with
 *   RESULT deadlock=<yes|no> lossless_drops=<n> pauses=<n> stopped_flows=<n>
 *          flows=8 min_gbps=<x> undrained_bytes=<n> classes=<k>
 * (a flow is stopped when its mean rate over the last ms before the senders
 * stop is below 0.1 Gbps).
 */

#include "ns3/core-module.h"
#include "ns3/tagger-experiment-command-line.h"
#include "ns3/tagger-experiment-helper.h"

#include <algorithm>
#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    TaggerExperimentConfig defaults;
    defaults.event = MilliSeconds(1); // the route change
    defaults.stop = MilliSeconds(6);
    defaults.drain = MilliSeconds(10);
    TaggerExperimentCommandLine options(
        "tagger-pause-propagation",
        "bounce-ms",
        "when the routes change to the 1-bounce paths, after the flows start (ms)",
        defaults);

    TaggerCommandLine cmd("tagger-pause-propagation", __FILE__);
    options.AddValues(cmd);
    cmd.AddBool("bounce-failures",
                "links L2-T1 and L3-T4 fail when the routes change",
                options.config.failLinks);
    cmd.Parse(argc, argv);
    options.Finish(cmd);

    TaggerExperimentResult r = TaggerExperimentHelper::RunPausePropagation(options.config);
    TaggerExperimentHelper::PrintReport(std::cout, r);
    if (!TaggerExperimentHelper::WriteRateFiles(r, options.out))
    {
        std::cerr << "tagger-pause-propagation: cannot write " << options.out << "-rate.dat/.plt\n";
        return 1;
    }
    std::cout << "wrote " << options.out << "-rate.dat and " << options.out << "-rate.plt\n";
    double minGbps = r.flows.front().tailGbps;
    for (const TaggerFlowRates& f : r.flows)
    {
        minGbps = std::min(minGbps, f.tailGbps);
    }
    TaggerExperimentHelper::PrintResultLine(
        std::cout,
        r,
        {{"stopped_flows", std::to_string(r.CountStopped())},
         {"flows", std::to_string(r.flows.size())},
         {"min_gbps", TaggerExperimentHelper::FormatGbps(minGbps)}});
    return 0;
}
