/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-clos-bounce: the deadlock of Tagger (ToN), Figs. 3 and 10, and how
 * Tagger (and the TTL scheme of the TTL scheme) prevent it.
 *
 * The paper's Clos testbed (Fig. 2: T1-T4, L1-L4, S1-S2, H1-H16, 40 Gbps).
 * Links L2-T1 and L3-T4 are down, so two RoCE flows take 1-bounce paths,
 * pinned as in Fig. 3:
 *   blue  H5 -> H13: T2-L2-S1-L3-S2-L4-T4, starts first;
 *   green H9 -> H1:  T3-L3-S2-L2-S1-L1-T1, starts --green-start-ms later.
 * They share L2->S1 and L3->S2, and their buffers depend on each other in a
 * cycle (L2 -> S1 -> L3 -> S2 -> L2).  With plain PFC the cycle deadlocks:
 * both rates fall to 0 and stay there, and after the senders stop the
 * buffers never drain.  With Tagger (ELP: shortest and 1-bounce paths, two
 * lossless tags) the bounce moves packets to the next tag's queue and the
 * cycle is broken; in TTL mode every hop is its own class.
 *
 * The set-up is TaggerExperimentHelper::RunClosBounce (shared with the
 * tests and the other experiments).  Time is scaled: milliseconds instead
 * of the testbed's seconds.  Writes <out>-rate.dat and <out>-rate.plt
 * (gnuplot) with both flows' rates, and ends with
 *   RESULT deadlock=<yes|no> lossless_drops=<n> pauses=<n> blue_gbps=<x>
 *          green_gbps=<y> undrained_bytes=<n> classes=<k>
 */

#include "ns3/core-module.h"
#include "ns3/tagger-experiment-command-line.h"
#include "ns3/tagger-experiment-helper.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    TaggerExperimentConfig defaults;
    defaults.event = MilliSeconds(1); // green start, after the blue one
    defaults.stop = MilliSeconds(6);
    defaults.drain = MilliSeconds(10);
    TaggerExperimentCommandLine options("tagger-clos-bounce",
                                        "green-start-ms",
                                        "when the green flow starts, after the blue one (ms)",
                                        defaults);

    TaggerCommandLine cmd("tagger-clos-bounce", __FILE__);
    options.AddValues(cmd);
    cmd.AddBool("cross", "also H2 -> H1 and H14 -> H13 (busy receivers)", options.config.cross);
    cmd.Parse(argc, argv);
    options.Finish(cmd);

    TaggerExperimentResult r = TaggerExperimentHelper::RunClosBounce(options.config);
    TaggerExperimentHelper::PrintReport(std::cout, r);
    if (!TaggerExperimentHelper::WriteRateFiles(r, options.out))
    {
        std::cerr << "tagger-clos-bounce: cannot write " << options.out << "-rate.dat/.plt\n";
        return 1;
    }
    std::cout << "wrote " << options.out << "-rate.dat and " << options.out << "-rate.plt\n";
    TaggerExperimentHelper::PrintResultLine(
        std::cout,
        r,
        {{"blue_gbps", TaggerExperimentHelper::FormatGbps(r.flows[0].tailGbps)},
         {"green_gbps", TaggerExperimentHelper::FormatGbps(r.flows[1].tailGbps)}});
    return 0;
}
