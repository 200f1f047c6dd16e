/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-routing-loop: the deadlock of Tagger (ToN), Fig. 11 (Section VIII-B,
 * "Deadlock due to routing loop"), and how Tagger (and TTL priorities,
 * the TTL scheme) prevent it.
 *
 * The paper's Clos testbed (Fig. 2: T1-T4, L1-L4, S1-S2, H1-H16, 40 Gbps).
 * Two long RoCE flows across ToRs:
 *   F1 H1 -> H15, T1 pinned to L1 (then L1-S1-L3-T4);
 *   F2 H2 -> H16, pinned to T1-L1-S2-L4-T4: it shares link T1->L1 with F1.
 * At --loop-ms a bad route is installed at L1: H15 -> T1.  F1's packets
 * then bounce between T1 and L1 until their TTL runs out.
 *   pfc:    the loop is a cyclic buffer dependency of one lossless class
 *           (T1->L1 waits for L1->T1 and back): it deadlocks, and the
 *           PAUSE propagates to F2, whose rate falls to 0 (within ~50 us,
 *           before any looping packet has reached TTL 0).
 *   tagger: (ELP shortest + 1-bounce paths) no rule matches a packet that
 *           L1 sends back where it came from, so it moves to the lossy
 *           tag; looping packets never pause anyone, and F2 keeps running
 *           at a reduced rate (T1->L1 is shared round robin by the lossy
 *           loop and tag 1, tag 1 by F1 and F2: about 10 of 40 Gbps).
 *           While F1 sends, its looping packets mostly die by lossy
 *           overflow (each would cross T1->L1 ~31 times, the loop cannot
 *           carry that); the ones left circulating die by TTL: a pass
 *           through a full lossy queue (~1.5 MB) takes ~0.3 ms, so TTL 64
 *           runs out ~10 ms later, in the drain period after the stop.
 *   ttl:    every hop is its own class; a looping packet climbs the
 *           classes and dies by TTL at the 8th switch.
 * F1 delivers nothing after the loop in every mode.
 *
 * The set-up is TaggerExperimentHelper::RunRoutingLoop (shared with the
 * tests).  Time is scaled: milliseconds instead of the testbed's seconds
 * (the paper installs the loop at 20 s; here it comes 2 ms after the flows
 * start: events are moved earlier, not scaled).  Writes <out>-rate.dat and
 * <out>-rate.plt (gnuplot) with both flows' rates, and ends with
 *   RESULT deadlock=<yes|no> lossless_drops=<n> pauses=<n> f2_gbps=<x>
 *          ttl_drops=<n> lossy_drops=<n> f1_gbps=<y> undrained_bytes=<n>
 *          classes=<k>
 * (rates: mean over the last ms before the senders stop).
 */

#include "ns3/core-module.h"
#include "ns3/tagger-experiment-command-line.h"
#include "ns3/tagger-experiment-helper.h"

#include <iostream>
#include <string>

using namespace ns3;

int
main(int argc, char* argv[])
{
    TaggerExperimentConfig defaults;
    defaults.event = MilliSeconds(2); // the bad route
    defaults.stop = MilliSeconds(6);
    defaults.drain = MilliSeconds(10);
    TaggerExperimentCommandLine options("tagger-routing-loop",
                                        "loop-ms",
                                        "when L1 gets the bad route, after the flows start (ms)",
                                        defaults);

    TaggerCommandLine cmd("tagger-routing-loop", __FILE__);
    options.AddValues(cmd);
    cmd.Parse(argc, argv);
    options.Finish(cmd);

    TaggerExperimentResult r = TaggerExperimentHelper::RunRoutingLoop(options.config);
    TaggerExperimentHelper::PrintReport(std::cout, r);
    if (!TaggerExperimentHelper::WriteRateFiles(r, options.out))
    {
        std::cerr << "tagger-routing-loop: cannot write " << options.out << "-rate.dat/.plt\n";
        return 1;
    }
    std::cout << "wrote " << options.out << "-rate.dat and " << options.out << "-rate.plt\n";
    TaggerExperimentHelper::PrintResultLine(
        std::cout,
        r,
        {{"f2_gbps", TaggerExperimentHelper::FormatGbps(r.flows[1].tailGbps)},
         {"ttl_drops", std::to_string(r.GetDrops(PfcDropReason::TTL_EXPIRED))},
         {"lossy_drops", std::to_string(r.GetDrops(PfcDropReason::LOSSY_OVERFLOW))},
         {"f1_gbps", TaggerExperimentHelper::FormatGbps(r.flows[0].tailGbps)}});
    return 0;
}
