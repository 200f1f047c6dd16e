/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-mpi-incast: a fat-tree RoCEv2 incast that runs on any number of MPI
 * ranks (mpirun -np N; one process without MPI) with the same results.
 *
 * A k-ary fat tree (k = 8: 128 hosts, 80 switches, 40 Gbps, 1 us links) is
 * split by pod across the ranks (TaggerMpiHelper::SplitByPod; links to the
 * cores cross ranks).  --senders hosts, spread evenly over the pods, each
 * send one --flow-bytes RDMA message to host 0 with DCQCN, starting between
 * 1 and 2 us.  --failures=N takes N links between host 0's pod and the
 * cores down at --fail-us: the cores reroute locally, so packets bounce
 * through another pod; --tagger installs Tagger's rules for one bounce
 * (two lossless tags) so the bounced packets stay deadlock-free.  Rank 0
 * writes the flow records of all ranks (--csv) and ends with
 *   RESULT flows=<n> completed=<n> drops=<n> lossless_drops=<n>
 *          pauses=<n> retransmits=<n> last_fct_us=<x>
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-packet-account.h"
#include "ns3/tagger-command-line.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-mpi-helper.h"
#include "ns3/tagger-topology-generators.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <sstream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    TaggerMpiHelper::Enable(&argc, &argv);
    uint32_t k = 8;
    uint32_t senders = 16;
    uint64_t flowBytes = 1000000;
    uint32_t failures = 0;
    double failUs = 100;
    bool tagger = false;
    double stopMs = 10;
    std::string csv = "rdma-mpi-incast-flows.csv";
    TaggerCommandLine cmd("rdma-mpi-incast", __FILE__);
    cmd.AddInteger("k", "fat-tree arity (even; k^3/4 hosts)", k, 4, 64);
    cmd.AddInteger("senders", "incast senders, spread over the pods", senders, 1, 65535);
    cmd.AddInteger("flow-bytes", "bytes each sender sends", flowBytes, 1, int64_t(1) << 40);
    cmd.AddInteger("failures", "links from host 0's pod to the cores taken down", failures, 0, 64);
    cmd.AddDouble("fail-us", "when the links go down (us)", failUs, 0, 1e9);
    cmd.AddBool("tagger", "install Tagger's rules for one bounce (two lossless tags)", tagger);
    cmd.AddMilliSeconds("stop-ms", "simulated time (ms; the same on every rank)", stopMs, 0.001);
    cmd.AddOutputFile("csv", "flow records file (written by rank 0)", csv);
    cmd.Parse(argc, argv);
    cmd.CheckFlowBytes("flow-bytes", std::to_string(flowBytes), flowBytes);
    if (k % 2 != 0)
    {
        cmd.Fail("k", std::to_string(k), "a fat tree needs an even k");
    }
    if (uint64_t(senders) >= uint64_t(k) * k * k / 4)
    {
        cmd.Fail("senders", std::to_string(senders), "needs fewer senders than hosts (k^3/4)");
    }
    std::ofstream csvFile;
    if (TaggerMpiHelper::GetRank() == 0)
    {
        cmd.OpenOutput("csv", csv, csvFile);
    }

    cmd.CheckMemory("k", std::to_string(k), tagger::MakeFatTree(k), senders);
    PfcTopologyHelper net(tagger::MakeFatTree(k));
    TaggerMpiHelper::SplitByPod(net);
    net.Build();
    const tagger::Topology& topo = net.GetTopology();
    if (tagger)
    {
        TaggerHelper().Install(net, TaggerHelper::ComputeRules(topo, 1));
    }
    // The links from host 0's aggregation switches (two hops up) to the cores.
    tagger::NodeId tor = topo.GetNeighbors(topo.GetHosts()[0])[0];
    std::vector<std::pair<std::string, std::string>> coreLinks;
    for (tagger::NodeId agg : topo.GetNeighbors(tor))
    {
        for (tagger::NodeId core : topo.GetNeighbors(agg))
        {
            if (topo.GetNode(core).layer == 3)
            {
                coreLinks.emplace_back(topo.GetNode(agg).name, topo.GetNode(core).name);
            }
        }
    }
    if (failures > coreLinks.size())
    {
        cmd.Fail("failures", std::to_string(failures), "more than host 0's pod has core links");
    }
    Time failAt = MicroSeconds(failUs);
    for (uint32_t i = 0; i < failures; ++i)
    {
        net.GetRouteHelper().ScheduleFailLink(failAt, coreLinks[i].first, coreLinks[i].second);
    }

    RdmaHelper rdma;
    uint8_t dscp = tagger ? 1 : 24; // Tagger: hosts send with tag 1; PFC: class 3
    if (tagger)
    {
        rdma.SetNicAttribute("ControlDscp", UintegerValue(dscp));
    }
    rdma.Install(net);
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    const uint32_t hosts = net.GetNHosts();
    for (uint32_t i = 1; i <= senders; ++i)
    {
        uint32_t src = uint32_t(uint64_t(i) * hosts / (senders + 1));
        rdma.AddFlow(src, 0, flowBytes, NanoSeconds(1000 + jitter->GetInteger(0, 1000)), dscp);
    }
    // Where every data packet went (one process: Settle runs the network on).
    std::unique_ptr<RdmaPacketAccount> account;
    if (TaggerMpiHelper::GetSize() == 1)
    {
        account = std::make_unique<RdmaPacketAccount>(net, rdma);
    }
    Simulator::Stop(TaggerCommandLine::MilliSecondsToTime(stopMs));
    Simulator::Run();

    // Counters: each rank counts its own nodes; the sums are the network's.
    PfcStatsHelper stats(net);
    std::vector<uint64_t> drops(kPfcDropReasons);
    for (uint8_t r = 0; r < kPfcDropReasons; ++r)
    {
        drops[r] = TaggerMpiHelper::Sum(stats.GetDropCount(PfcDropReason(r)));
    }
    uint64_t pauses = TaggerMpiHelper::Sum(stats.GetPauseCount());
    uint64_t retransmits = TaggerMpiHelper::Sum(rdma.GetRetransmittedPackets());
    uint64_t crossing = TaggerMpiHelper::CountCrossRankFrames(net);
    std::vector<RdmaFlowRecord> records = TaggerMpiHelper::GatherFlowRecords(rdma);
    if (TaggerMpiHelper::GetRank() == 0)
    {
        uint32_t completed = 0;
        Time last;
        for (const RdmaFlowRecord& r : records)
        {
            completed += r.finished ? 1 : 0;
            last = Max(last, r.fct);
        }
        std::cout << "rdma-mpi-incast: fat tree k=" << k << ", " << senders
                  << " senders -> host 0, " << TaggerMpiHelper::GetSize() << " rank(s), "
                  << failures << " failed core link(s), Tagger " << (tagger ? "on" : "off") << ", "
                  << crossing << " frames crossed ranks\n";
        RdmaHelper::PrintFctSummary(std::cout, records);
        std::cout << "drops:";
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            std::cout << " " << PfcDropReason(r) << "=" << drops[r];
        }
        std::cout << "\n";
        csvFile << RdmaFlowRecord::CsvHeader() << "\n";
        for (const RdmaFlowRecord& r : records)
        {
            RdmaFlowRecord::WriteCsv(csvFile, r);
            csvFile << "\n";
        }
        cmd.CloseOutput("csv", csv, csvFile);
        std::ostringstream result;
        result << "RESULT flows=" << records.size() << " completed=" << completed
               << " drops=" << std::accumulate(drops.begin(), drops.end(), uint64_t(0))
               << " lossless_drops=" << drops[uint8_t(PfcDropReason::LOSSLESS_OVERFLOW)]
               << " pauses=" << pauses << " retransmits=" << retransmits
               << " last_fct_us=" << std::fixed << std::setprecision(3)
               << last.GetNanoSeconds() / 1000.0;
        if (account)
        {
            account->Settle(); // runs on after the stop: every result above is read
            account->Print(std::cout);
        }
        std::cout << result.str() << std::endl;
    }
    Simulator::Destroy();
    TaggerMpiHelper::Disable();
    return 0;
}
