/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-incast: N-to-1 RoCEv2 incast over a leaf-spine of PFC switches.
 *
 * Hosts 1..N (N = --senders) each send one --flow-bytes RDMA message to
 * host 0, starting between 1 and 2 us (seeded: --RngRun).
 * --pfc=false makes every class lossy (the switches never pause; the MMU's
 * lossy pool drops), --dcqcn=false sends at line rate.  Prints per-flow
 * throughput, pauses, drops by reason, retransmissions, ECN marks, CNPs and
 * the FCT summary, writes the flow records (--csv) and, with --pcap, the
 * receiver's and the first sender's frames (tshark decodes them as RoCE),
 * and ends with
 *   RESULT lossless_drops=<n> pauses=<n> retransmits=<n> deadlock=<yes|no>
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-packet-account.h"
#include "ns3/tagger-command-line.h"
#include "ns3/tagger-topology-generators.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{

/// The command line.
struct IncastOptions
{
    uint32_t leaves = 4;                            //!< --leaves
    uint32_t spines = 2;                            //!< --spines
    uint32_t hostsPerLeaf = 8;                      //!< --hosts-per-leaf
    uint32_t senders = 16;                          //!< --senders
    uint64_t flowBytes = 1000000;                   //!< --flow-bytes
    bool pfc = true;                                //!< --pfc
    bool dcqcn = true;                              //!< --dcqcn
    std::string cc = "dcqcn";                       //!< --cc
    std::string rate = "40Gbps";                    //!< --rate
    std::string delay = "1us";                      //!< --delay
    double stopMs = 50;                             //!< --stop-ms
    std::string csv = "rdma-incast-flows.csv";      //!< --csv
    std::string pcap;                               //!< --pcap
    std::ofstream csvFile;                          //!< the --csv file, open after Parse
    TaggerCommandLine cmd{"rdma-incast", __FILE__}; //!< the checked command line

    /// Parse and check the options, open the --csv file (exit code 2 on a bad value).
    /// \param argc count \param argv values
    void Parse(int argc, char* argv[]);
};

void
IncastOptions::Parse(int argc, char* argv[])
{
    cmd.AddLeafSpine(leaves, spines, hostsPerLeaf);
    cmd.AddInteger("senders",
                   "incast senders (hosts 1..N send to host 0)",
                   senders,
                   1,
                   TaggerCommandLine::kMaxHosts - 1);
    cmd.AddInteger("flow-bytes",
                   "bytes each sender sends",
                   flowBytes,
                   1,
                   TaggerCommandLine::kMaxFlowBytes);
    cmd.AddBool("pfc", "PFC on (class 3 lossless) or off (every class lossy)", pfc);
    cmd.AddBool("dcqcn", "DCQCN congestion control on or off (line rate)", dcqcn);
    cmd.AddChoice("cc", "congestion control", cc, RdmaHelper::GetCongestionControlNames());
    cmd.AddDataRate("rate", "link rate", rate);
    cmd.AddTime("delay", "link propagation delay", delay);
    cmd.AddMilliSeconds("stop-ms", "simulated time (ms)", stopMs, 0.001);
    cmd.AddOutputFile("csv", "flow records file", csv);
    cmd.AddOutputPrefix("pcap",
                        "if set, pcap prefix for the receiver's and the first sender's NIC "
                        "(<prefix>-H1-port0.pcap and <prefix>-H2-port0.pcap, Ethernet link type)",
                        pcap,
                        {"-H1-port0.pcap", "-H2-port0.pcap"});
    cmd.Parse(argc, argv);

    cmd.CheckSenders(senders, cmd.CheckLeafSpine(leaves, spines, hostsPerLeaf));
    cmd.CheckFlowBytes("flow-bytes", std::to_string(flowBytes), flowBytes);
    cmd.OpenOutput("csv", csv, csvFile);
}

/**
 * Print per-flow throughput, the FCT summary and the counters; write the flow records.
 * \param opt the options \param net the network \param rdma the NICs
 * \param oracle the deadlock oracle
 */
void
Report(IncastOptions& opt,
       const PfcTopologyHelper& net,
       const RdmaHelper& rdma,
       const PfcDeadlockOracle& oracle,
       RdmaPacketAccount& account)
{
    PfcStatsHelper stats(net);
    std::cout << "rdma-incast: " << opt.senders << " senders -> H1, " << opt.flowBytes
              << " B each, PFC " << (opt.pfc ? "on" : "off") << ", congestion control "
              << rdma.GetCongestionControlName() << ", " << opt.rate << ", " << opt.delay << "\n";
    stats.PrintSwitchCounters(std::cout);
    std::vector<RdmaFlowRecord> records = rdma.GetFlowRecords();
    std::cout << "flows:\n";
    for (const RdmaFlowRecord& r : records)
    {
        std::cout << "  " << r.src << " -> " << r.dst << ": ";
        if (r.finished)
        {
            std::cout << std::fixed << std::setprecision(3)
                      << r.bytes * 8.0 / r.fct.GetSeconds() / 1e9 << " Gbps, FCT "
                      << r.fct.GetMicroSeconds() << " us, slowdown " << r.slowdown
                      << std::defaultfloat;
        }
        else
        {
            std::cout << "not finished";
        }
        std::cout << ", retransmitted " << r.retransmitted << ", CNPs " << r.cnps << "\n";
    }
    RdmaHelper::PrintFctSummary(std::cout, records);
    uint64_t marked = 0;
    for (uint32_t i = 0; i < net.GetSwitches().GetN(); ++i)
    {
        marked += PfcHelper::GetSwitch(net.GetSwitches().Get(i))->GetEcnMarkedCount();
    }
    std::cout << "ECN marks " << marked << ", CNPs " << rdma.GetCnps() << ", retransmitted "
              << rdma.GetRetransmittedPackets() << ", timeouts " << rdma.GetTimeouts() << "\n";
    stats.PrintDrops(std::cout);
    oracle.PrintSummary(std::cout);
    rdma.WriteFlowRecords(opt.csvFile);
    opt.cmd.CloseOutput("csv", opt.csv, opt.csvFile);
    std::cout << "wrote " << opt.csv << "\n";
    std::ostringstream result;
    result << "RESULT lossless_drops=" << stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
           << " pauses=" << stats.GetPauseCount()
           << " retransmits=" << rdma.GetRetransmittedPackets()
           << " deadlock=" << (oracle.HasDeadlock() ? "yes" : "no");
    account.Settle(); // runs on after the stop: every result above is read
    account.Print(std::cout);
    std::cout << result.str() << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    IncastOptions opt;
    opt.Parse(argc, argv);

    PfcTopologyHelper net(tagger::MakeLeafSpine(opt.leaves, opt.spines, opt.hostsPerLeaf));
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(opt.rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(opt.delay));
    if (!opt.pfc)
    {
        net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(0));
    }
    net.Build();

    // Hosts 1..N -> host 0, one message each, starting between 1 and 2 us.
    RdmaHelper rdma;
    if (opt.cmd.WasGiven("cc")) // else RdmaNic's CongestionControl (DCQCN, or --ns3::)
    {
        rdma.SetCongestionControl(opt.cc);
    }
    rdma.SetNicAttribute("Dcqcn", BooleanValue(opt.dcqcn));
    rdma.Install(net);
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    for (uint32_t i = 1; i <= opt.senders; ++i)
    {
        rdma.AddFlow(i, 0, opt.flowBytes, NanoSeconds(1000 + jitter->GetInteger(0, 1000)));
    }
    if (!opt.pcap.empty())
    {
        net.GetPfcHelper().EnablePcap(opt.pcap, net.GetHostDevice(0));
        net.GetPfcHelper().EnablePcap(opt.pcap, net.GetHostDevice(1));
    }

    Time stop = TaggerCommandLine::MilliSecondsToTime(opt.stopMs);
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(MicroSeconds(10), stop);
    RdmaPacketAccount account(net, rdma); // where every data packet went
    Simulator::Stop(stop);
    Simulator::Run();
    Report(opt, net, rdma, *oracle, account);
    Simulator::Destroy();
    return 0;
}
