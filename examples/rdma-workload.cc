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
#include "ns3/pfc-stats-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-packet-account.h"
#include "ns3/tagger-command-line.h"
#include "ns3/tagger-topology-generators.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// The command line.
struct WorkloadOptions
{
    uint32_t leaves = 4;                                             //!< --leaves
    uint32_t spines = 2;                                             //!< --spines
    uint32_t hostsPerLeaf = 4;                                       //!< --hosts-per-leaf
    std::string cdfPath;                                             //!< --cdf
    std::string flowFile;                                            //!< --flow-file
    std::string pattern = "all-to-all";                              //!< --pattern
    RdmaFlowGenerator::Pattern kind = RdmaFlowGenerator::ALL_TO_ALL; //!< --pattern, parsed
    double load = 0.3;                                               //!< --load
    double arrivalsMs = 5;                                           //!< --arrivals-ms
    double stopMs = 200;                                             //!< --stop-ms
    bool pfc = true;                                                 //!< --pfc
    bool dcqcn = true;                                               //!< --dcqcn
    std::string cc = "dcqcn";                                        //!< --cc
    std::string rate = "40Gbps";                                     //!< --rate
    std::string delay = "1us";                                       //!< --delay
    std::string csv = "rdma-workload-flows.csv";                     //!< --csv
    std::ofstream csvFile;                            //!< the --csv file, open after Parse
    TaggerCommandLine cmd{"rdma-workload", __FILE__}; //!< the checked command line

    /// Parse and check the options, open the --csv file (exit code 2 on a bad value).
    /// \param argc count \param argv values
    void Parse(int argc, char* argv[]);
};

void
WorkloadOptions::Parse(int argc, char* argv[])
{
    cmd.AddLeafSpine(leaves, spines, hostsPerLeaf);
    cmd.AddInputFile("cdf",
                     "flow-size CDF file (default: the module's data/websearch.cdf)",
                     cdfPath);
    cmd.AddInputFile("flow-file", "replay this flow file instead of generating flows", flowFile);
    cmd.AddChoice("pattern",
                  "all-to-all, permutation or incast (to host 0)",
                  pattern,
                  {"all-to-all", "permutation", "incast"});
    cmd.AddDouble("load", "target load of the bottleneck links, in (0, 1]", load, 0, 1);
    cmd.AddMilliSeconds("arrivals-ms", "time window of flow arrivals (ms)", arrivalsMs, 0, 1000);
    cmd.AddMilliSeconds("stop-ms", "simulated time limit (ms)", stopMs, 0.001);
    cmd.AddBool("pfc", "PFC on (class 3 lossless) or off (every class lossy)", pfc);
    cmd.AddBool("dcqcn", "DCQCN congestion control on or off", dcqcn);
    cmd.AddChoice("cc", "congestion control", cc, RdmaHelper::GetCongestionControlNames());
    cmd.AddDataRate("rate", "link rate", rate);
    cmd.AddTime("delay", "link propagation delay", delay);
    cmd.AddOutputFile("csv", "flow records file", csv);
    cmd.Parse(argc, argv);

    cmd.CheckLeafSpine(leaves, spines, hostsPerLeaf);
    if (load <= 0)
    {
        cmd.Fail("load", TaggerCommandLine::FormatNumber(load), "must be above 0 and at most 1");
    }
    kind = pattern == "permutation" ? RdmaFlowGenerator::PERMUTATION
           : pattern == "incast"    ? RdmaFlowGenerator::INCAST
                                    : RdmaFlowGenerator::ALL_TO_ALL;
    cmd.OpenOutput("csv", csv, csvFile);
}

/**
 * The flows: replayed from --flow-file, or generated from the CDF at the
 * load.  A bad file, a host the network lacks or a load that would make
 * more than kMaxFlowFileFlows flows fails naming the flag (exit code 2).
 * \param opt the options \param hosts hosts in the network \return the flows
 */
std::vector<GeneratedFlow>
MakeFlows(WorkloadOptions& opt, uint32_t hosts)
{
    std::vector<GeneratedFlow> flows;
    std::string error;
    if (!opt.flowFile.empty())
    {
        std::ifstream in(opt.flowFile);
        if (!ParseFlowFile(in, opt.flowFile, &flows, &error))
        {
            opt.cmd.Fail("flow-file", opt.flowFile, error);
        }
        for (const GeneratedFlow& f : flows)
        {
            if (f.src >= hosts || f.dst >= hosts)
            {
                opt.cmd.Fail("flow-file",
                             opt.flowFile,
                             "names host " + std::to_string(std::max(f.src, f.dst)) +
                                 " but the network has " + std::to_string(hosts) + " hosts");
            }
            opt.cmd.CheckFlowBytes("flow-file", opt.flowFile, f.bytes);
        }
        return flows;
    }
    std::string path = opt.cdfPath.empty() ? FindTaggerDataFile("websearch.cdf") : opt.cdfPath;
    FlowSizeCdf cdf;
    std::ifstream in(path);
    if (!cdf.Parse(in, path, &error))
    {
        opt.cmd.Fail("cdf", path, error);
    }
    opt.cmd.CheckFlowBytes("cdf", path, cdf.Quantile(1), "its largest flow size");
    DataRate link(opt.rate);
    bool incast = opt.kind == RdmaFlowGenerator::INCAST;
    DataRate capacity(incast ? link.GetBitRate() : link.GetBitRate() * hosts);
    double expected =
        opt.load * capacity.GetBitRate() / (8 * cdf.GetMean()) * opt.arrivalsMs / 1000;
    if (expected > double(kMaxFlowFileFlows))
    {
        opt.cmd.Fail("arrivals-ms",
                     TaggerCommandLine::FormatNumber(opt.arrivalsMs),
                     "with --load, --rate and the CDF's mean size makes about " +
                         TaggerCommandLine::FormatNumber(std::round(expected)) +
                         " flows; at most " + std::to_string(kMaxFlowFileFlows));
    }
    opt.cmd.CheckMemory("arrivals-ms",
                        TaggerCommandLine::FormatNumber(opt.arrivalsMs),
                        tagger::MakeLeafSpine(opt.leaves, opt.spines, opt.hostsPerLeaf),
                        uint64_t(expected) + 1);
    RdmaFlowGenerator generator(cdf);
    std::vector<uint32_t> all(hosts);
    for (uint32_t h = 0; h < hosts; ++h)
    {
        all[h] = h;
    }
    std::vector<uint32_t> receivers = incast ? std::vector<uint32_t>{0} : all;
    return generator.Generate(all,
                              receivers,
                              opt.kind,
                              capacity,
                              opt.load,
                              MicroSeconds(10),
                              TaggerCommandLine::MilliSecondsToTime(opt.arrivalsMs));
}

/**
 * Print the FCT summary and the counters; write the flow records.
 * \param opt the options \param net the network \param rdma the NICs
 */
void
Report(WorkloadOptions& opt,
       const PfcTopologyHelper& net,
       const RdmaHelper& rdma,
       RdmaPacketAccount& account)
{
    PfcStatsHelper stats(net);
    std::vector<RdmaFlowRecord> records = rdma.GetFlowRecords();
    uint32_t completed = 0;
    for (const RdmaFlowRecord& r : records)
    {
        completed += r.finished ? 1 : 0;
    }
    std::cout << "rdma-workload: " << records.size() << " flows ("
              << (opt.flowFile.empty() ? opt.cdfPath + ", " + opt.pattern : opt.flowFile) << "), "
              << net.GetNHosts() << " hosts, PFC " << (opt.pfc ? "on" : "off")
              << ", congestion control " << rdma.GetCongestionControlName() << ", ended at "
              << Simulator::Now().As(Time::MS) << "\n";
    RdmaHelper::PrintFctSummary(std::cout, records);
    std::cout << "pauses " << stats.GetPauseCount() << ", retransmitted "
              << rdma.GetRetransmittedPackets() << ", timeouts " << rdma.GetTimeouts() << ", CNPs "
              << rdma.GetCnps() << "\n";
    stats.PrintDrops(std::cout);
    rdma.WriteFlowRecords(opt.csvFile);
    opt.cmd.CloseOutput("csv", opt.csv, opt.csvFile);
    std::cout << "wrote " << opt.csv << "\n";
    std::ostringstream result;
    result << "RESULT flows=" << records.size() << " completed=" << completed
           << " lossless_drops=" << stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
           << " pauses=" << stats.GetPauseCount()
           << " retransmits=" << rdma.GetRetransmittedPackets();
    account.Settle(); // runs on after the stop: every result above is read
    account.Print(std::cout);
    std::cout << result.str() << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    WorkloadOptions opt;
    opt.Parse(argc, argv);

    PfcTopologyHelper net(tagger::MakeLeafSpine(opt.leaves, opt.spines, opt.hostsPerLeaf));
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(opt.rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(opt.delay));
    if (!opt.pfc)
    {
        net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(0));
    }
    net.Build();
    RdmaHelper rdma;
    if (opt.cmd.WasGiven("cc")) // else RdmaNic's CongestionControl (DCQCN, or --ns3::)
    {
        rdma.SetCongestionControl(opt.cc);
    }
    rdma.SetNicAttribute("Dcqcn", BooleanValue(opt.dcqcn));
    rdma.Install(net);
    std::vector<GeneratedFlow> flows = MakeFlows(opt, net.GetNHosts());
    rdma.AddFlows(flows);

    // Stop when every flow is done (checked every 100 us) or at --stop-ms.
    rdma.StopWhenDone(TaggerCommandLine::MilliSecondsToTime(opt.arrivalsMs));
    RdmaPacketAccount account(net, rdma); // where every data packet went
    Simulator::Stop(TaggerCommandLine::MilliSecondsToTime(opt.stopMs));
    Simulator::Run();
    Report(opt, net, rdma, account);
    Simulator::Destroy();
    return 0;
}
