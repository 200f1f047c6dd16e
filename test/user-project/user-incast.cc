/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * user-incast: a user's own program against the installed tagger module (see
 * CMakeLists.txt here).  A k = 4 fat tree of PFC switches with Tagger's rules
 * for up-down and 1-bounce paths, RoCE NICs with DCQCN, and hosts 1-15 each
 * sending --bytes to host 0.  Ends with
 *   RESULT flows=15 completed=<n> lossless_drops=<n> last_fct_us=<x>
 */

#include "ns3/command-line.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-workload.h"
#include "ns3/simulator.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/uinteger.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint64_t bytes = 100000;
    CommandLine cmd(__FILE__);
    cmd.AddValue("bytes", "bytes each sender sends", bytes);
    cmd.Parse(argc, argv);

    PfcTopologyHelper net(tagger::MakeFatTree(4));
    net.Build();
    TaggerHelper tagger;
    tagger.Install(net, TaggerHelper::ComputeRules(net.GetTopology(), 1));

    RdmaHelper rdma;
    rdma.SetNicAttribute("ControlDscp", UintegerValue(1));
    rdma.Install(net);
    for (uint32_t host = 1; host < net.GetNHosts(); ++host)
    {
        rdma.AddFlow(host, 0, bytes, MicroSeconds(10), 1); // tag 1
    }
    rdma.StopWhenDone(MicroSeconds(10));
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    std::vector<RdmaFlowRecord> flows = rdma.GetFlowRecords();
    Time lastFct;
    for (const RdmaFlowRecord& f : flows)
    {
        lastFct = Max(lastFct, f.fct);
    }
    PfcStatsHelper stats(net);
    // The module's data files (flow-size distributions) are installed beside it.
    std::cout << "websearch.cdf: " << FindTaggerDataFile("websearch.cdf") << std::endl;
    std::cout << "RESULT flows=" << flows.size()
              << " completed=" << flows.size() - rdma.GetActiveFlows()
              << " lossless_drops=" << stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
              << " last_fct_us=" << lastFct.GetMicroSeconds() << std::endl;
    Simulator::Destroy();
    return 0;
}
