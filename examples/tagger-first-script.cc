/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-first-script: a first script, step by step with the public helpers: the template
 * to copy (the Usage chapter walks through it).  Tagger (ToN), Fig. 3: the Clos testbed,
 * links L2-T1 and L3-T4 down, two RoCE flows on 1-bounce paths whose buffers wait on each
 * other in a cycle, one more flow into each receiver.  Plain PFC (--tagger=0) deadlocks;
 * Tagger finishes all four.  RESULT deadlock=<yes|no> completed=<n> flows=4
 * lossless_drops=<n> pauses=<n> undrained_bytes=<n> last_fct_us=<x>
 */

#include "ns3/core-module.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/tagger-command-line.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"

using namespace ns3;

int
main(int argc, char* argv[])
{
    bool useTagger = true;
    uint64_t flowBytes = 10000000;
    TaggerCommandLine cmd("tagger-first-script", __FILE__); // checked flags
    cmd.AddBool("tagger", "install Tagger's rules (false: plain PFC)", useTagger);
    cmd.AddInteger("flow-bytes", "bytes each flow sends", flowBytes, 1, 1000000000);
    cmd.Parse(argc, argv);

    // 1. Topology: Tagger (ToN)'s testbed, Fig. 2: H1-H16, ToRs T1-T4, leaves L1-L4, spines S1-S2.
    PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));

    // 2. PFC: 40 Gbps, 1 us links; static Xoff/Xon per ingress queue; round robin between classes.
    PfcHelper& pfc = net.GetPfcHelper();
    pfc.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    pfc.SetChannelAttribute("Delay", StringValue("1us"));
    pfc.SetMmuAttribute("ThresholdMode", StringValue("Static"));
    pfc.SetMmuAttribute("StaticXoff", UintegerValue(50000));
    pfc.SetMmuAttribute("StaticXon", UintegerValue(5000));
    pfc.SetScheduler("ns3::DwrrPfcScheduler");
    net.Build(); // devices, addresses and ECMP routes

    // 3. Routes: two links fail (each end reroutes locally); Fig. 3's 1-bounce paths are pinned.
    PfcRouteHelper& routes = net.GetRouteHelper();
    routes.FailLink("L2", "T1");
    routes.FailLink("L3", "T4");
    routes.PinPath({"T2", "L2", "S1", "L3", "S2", "L4", "T4"}, 12); // to H13
    routes.PinPath({"T3", "L3", "S2", "L2", "S1", "L1", "T1"}, 0);  // to H1

    // 4. Tagger: rules for shortest and 1-bounce paths (2 tags), hosts send tag 1 (DSCP 1).
    RdmaHelper rdma;
    uint8_t dscp = 24; // plain PFC: class 3
    if (useTagger)
    {
        TaggerHelper tagger;
        tagger.Install(net, TaggerHelper::ComputeRules(net.GetTopology(), 1));
        dscp = 1;
        rdma.SetNicAttribute("ControlDscp", UintegerValue(dscp));
    }

    // 5. RoCE: a NIC per host, DCQCN off (line rate until paused); host i is H(i+1).
    rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
    rdma.Install(net);
    rdma.AddFlow(4, 12, flowBytes, MicroSeconds(10), dscp);  // blue  H5 -> H13
    rdma.AddFlow(8, 0, flowBytes, MicroSeconds(1010), dscp); // green H9 -> H1
    rdma.AddFlow(1, 0, flowBytes, MicroSeconds(10), dscp);   // H2 -> H1
    rdma.AddFlow(13, 12, flowBytes, MicroSeconds(10), dscp); // H14 -> H13

    // 6. The deadlock oracle watches every switch; stop when every flow is done, or at 20 ms.
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(MicroSeconds(20), MilliSeconds(20));
    rdma.StopWhenDone(MicroSeconds(1010));
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    // 7. The counters: pauses and drops by reason, the oracle's cycles, FCTs.
    PfcStatsHelper stats(net);
    stats.PrintSwitchCounters(std::cout);
    oracle->PrintSummary(std::cout);
    std::vector<RdmaFlowRecord> flows = rdma.GetFlowRecords();
    RdmaHelper::PrintFctSummary(std::cout, flows);
    Time lastFct;
    for (const RdmaFlowRecord& f : flows)
    {
        lastFct = Max(lastFct, f.fct); // 0 for a flow that did not finish
    }
    std::cout << "RESULT deadlock=" << (oracle->HasDeadlock() ? "yes" : "no")
              << " completed=" << flows.size() - rdma.GetActiveFlows() << " flows=" << flows.size()
              << " lossless_drops=" << stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
              << " pauses=" << stats.GetPauseCount()
              << " undrained_bytes=" << stats.GetLosslessBytes()
              << " last_fct_us=" << lastFct.GetMicroSeconds() << std::endl;
    Simulator::Destroy();
    return 0;
}
