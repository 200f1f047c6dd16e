/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-workload: RoCEv2 flows from a flow-size distribution at a target
 * load over a leaf-spine of PFC switches, or replayed from a flow file.
 *
 * Flows arrive as a Poisson process for --arrivals-ms with sizes from --cdf
 * (data/websearch.cdf by default) at --load of the hosts' links (all-to-all
 * or permutation) or of host 0's link (incast); the simulation then runs
 * until every flow finished or --stop-ms.  Prints the FCT and slowdown
 * summary, pauses and drops, writes the flow records (--csv) and ends with
 *   RESULT flows=<n> completed=<n> lossless_drops=<n> pauses=<n> retransmits=<n>
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/rdma-helper.h"
#include "ns3/tagger-topology-generators.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t leaves = 4;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 4;
    std::string cdfPath;
    std::string flowFile;
    std::string pattern = "all-to-all";
    double load = 0.3;
    double arrivalsMs = 5;
    double stopMs = 200;
    bool pfc = true;
    bool dcqcn = true;
    std::string rate = "40Gbps";
    std::string delay = "1us";
    std::string csv = "rdma-workload-flows.csv";

    CommandLine cmd(__FILE__);
    cmd.AddValue("leaves", "number of leaf (ToR) switches", leaves);
    cmd.AddValue("spines", "number of spine switches", spines);
    cmd.AddValue("hosts-per-leaf", "hosts on each leaf", hostsPerLeaf);
    cmd.AddValue("cdf", "flow-size CDF file (default: the module's data/websearch.cdf)", cdfPath);
    cmd.AddValue("flow-file", "replay this flow file instead of generating flows", flowFile);
    cmd.AddValue("pattern", "all-to-all, permutation or incast (to host 0)", pattern);
    cmd.AddValue("load", "target load of the bottleneck links, in (0, 1]", load);
    cmd.AddValue("arrivals-ms", "time window of flow arrivals (ms)", arrivalsMs);
    cmd.AddValue("stop-ms", "simulated time limit (ms)", stopMs);
    cmd.AddValue("pfc", "PFC on (class 3 lossless) or off (every class lossy)", pfc);
    cmd.AddValue("dcqcn", "DCQCN congestion control on or off", dcqcn);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.AddValue("csv", "flow records file", csv);
    cmd.Parse(argc, argv);

    if (leaves == 0 || spines == 0 || hostsPerLeaf == 0 || leaves * hostsPerLeaf < 2)
    {
        std::cerr << "rdma-workload: need positive --leaves, --spines, --hosts-per-leaf and at "
                     "least 2 hosts\n";
        return 2;
    }
    if (!(load > 0 && load <= 1))
    {
        std::cerr << "rdma-workload: --load must be in (0, 1], not " << load << "\n";
        return 2;
    }
    RdmaFlowGenerator::Pattern kind;
    if (pattern == "all-to-all")
    {
        kind = RdmaFlowGenerator::ALL_TO_ALL;
    }
    else if (pattern == "permutation")
    {
        kind = RdmaFlowGenerator::PERMUTATION;
    }
    else if (pattern == "incast")
    {
        kind = RdmaFlowGenerator::INCAST;
    }
    else
    {
        std::cerr << "rdma-workload: --pattern must be all-to-all, permutation or incast, not '"
                  << pattern << "'\n";
        return 2;
    }

    PfcTopologyHelper net(tagger::MakeLeafSpine(leaves, spines, hostsPerLeaf));
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(delay));
    if (!pfc)
    {
        net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(0));
    }
    net.Build();
    RdmaHelper rdma;
    rdma.SetNicAttribute("Dcqcn", BooleanValue(dcqcn));
    rdma.Install(net);

    uint32_t hosts = net.GetNHosts();
    std::vector<GeneratedFlow> flows;
    if (!flowFile.empty())
    {
        flows = LoadFlowFile(flowFile);
        for (const GeneratedFlow& f : flows)
        {
            if (f.src >= hosts || f.dst >= hosts)
            {
                std::cerr << "rdma-workload: " << flowFile << " names host "
                          << std::max(f.src, f.dst) << " but the network has " << hosts
                          << " hosts\n";
                return 2;
            }
        }
    }
    else
    {
        if (cdfPath.empty())
        {
            cdfPath = FindTaggerDataFile("websearch.cdf");
        }
        FlowSizeCdf cdf = FlowSizeCdf::Load(cdfPath);
        RdmaFlowGenerator generator(cdf);
        std::vector<uint32_t> all(hosts);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            all[h] = h;
        }
        DataRate link(rate);
        DataRate capacity(kind == RdmaFlowGenerator::INCAST ? link.GetBitRate()
                                                            : link.GetBitRate() * hosts);
        std::vector<uint32_t> receivers =
            kind == RdmaFlowGenerator::INCAST ? std::vector<uint32_t>{0} : all;
        flows = generator.Generate(all,
                                   receivers,
                                   kind,
                                   capacity,
                                   load,
                                   MicroSeconds(10),
                                   MicroSeconds(uint64_t(arrivalsMs * 1000)));
    }
    rdma.AddFlows(flows);

    // Stop when every flow is done (checked every 100 us) or at --stop-ms.
    Time stop = MicroSeconds(uint64_t(stopMs * 1000));
    std::function<void()> check = [&]() {
        if (Simulator::Now() > MicroSeconds(uint64_t(arrivalsMs * 1000)) &&
            rdma.GetActiveFlows() == 0)
        {
            Simulator::Stop();
            return;
        }
        Simulator::Schedule(MicroSeconds(100), check);
    };
    Simulator::Schedule(MicroSeconds(100), check);
    Simulator::Stop(stop);
    Simulator::Run();

    std::vector<RdmaFlowRecord> records = rdma.GetFlowRecords();
    uint32_t completed = 0;
    for (const RdmaFlowRecord& r : records)
    {
        completed += r.finish.IsStrictlyPositive() ? 1 : 0;
    }
    std::cout << "rdma-workload: " << records.size() << " flows ("
              << (flowFile.empty() ? cdfPath + ", " + pattern : flowFile) << "), " << hosts
              << " hosts, PFC " << (pfc ? "on" : "off") << ", DCQCN " << (dcqcn ? "on" : "off")
              << ", ended at " << Simulator::Now().As(Time::MS) << "\n";
    RdmaHelper::PrintFctSummary(std::cout, records);
    std::cout << "pauses " << net.GetPauseCount() << ", drops " << net.GetDropCount()
              << ", retransmitted " << rdma.GetRetransmittedPackets() << ", timeouts "
              << rdma.GetTimeouts() << ", CNPs " << rdma.GetCnps() << "\n";
    rdma.WriteFlowRecords(csv);
    std::cout << "wrote " << csv << "\n";
    std::cout << "RESULT flows=" << records.size() << " completed=" << completed
              << " lossless_drops=" << net.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
              << " pauses=" << net.GetPauseCount()
              << " retransmits=" << rdma.GetRetransmittedPackets() << std::endl;
    Simulator::Destroy();
    return 0;
}
