/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * pfc-incast: N-to-1 incast through a two-tier leaf-spine of PFC switches.
 *
 * Topology: --leaves ToRs, --spines spines (every leaf to every spine),
 * --hosts-per-leaf hosts on each leaf; all links --rate, --delay.
 * Traffic: hosts 1..N (N = --senders) each send one --flow-bytes UDP flow
 * (ns-3's OnOffApplication, at line rate, DSCP class --cls) to host 0,
 * starting within the first 10 us (seeded: --RngRun).
 * Prints per-switch pauses, resumes and drops by reason, per-flow goodput,
 * writes the receiver ToR's queue occupancy time series (.dat) and a gnuplot
 * script (.plt), and ends with
 *   RESULT lossless_drops=<n> pauses=<n> deadlock=<yes|no>
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/gnuplot.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/tagger-command-line.h"
#include "ns3/tagger-ns3-release-compat.h"
#include "ns3/tagger-topology-generators.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("PfcIncast");

namespace
{

/// Per-flow receive record.
struct FlowRecord
{
    uint64_t bytes = 0; //!< bytes received
    Time first;         //!< first packet
    Time last;          //!< last packet
};

std::map<uint32_t, FlowRecord> g_flows; //!< by source address

void
SinkRx(Ptr<const Packet> packet, const Address& from)
{
    uint32_t src = InetSocketAddress::ConvertFrom(from).GetIpv4().Get();
    FlowRecord& f = g_flows[src];
    if (f.bytes == 0)
    {
        f.first = Simulator::Now();
    }
    f.bytes += packet->GetSize();
    f.last = Simulator::Now();
}

uint64_t g_sent = 0; //!< packets the applications sent

void
AppTx(Ptr<const Packet>)
{
    ++g_sent;
}

uint64_t g_received = 0; //!< packets the sink received

void
CountRx(Ptr<const Packet>, const Address&)
{
    ++g_received;
}

/// Samples the receiver ToR's lossless occupancy and its egress queue to the receiver.
struct Sampler
{
    Ptr<PfcSwitchNetDevice> tor; //!< the switch
    uint32_t port;               //!< its port to the receiver
    uint8_t cls;                 //!< the flows' class
    Gnuplot2dDataset ingress;    //!< lossless buffer series
    Gnuplot2dDataset egress;     //!< egress queue series
    std::ofstream dat;           //!< the .dat file
    Time interval;               //!< sampling period
    Time stop;                   //!< last sample

    void Sample()
    {
        double us = Simulator::Now().GetMicroSeconds();
        double in = tor->GetMmu()->GetLosslessUsed() / 1000.0;
        double out = tor->GetPort(port)->GetQueueBytes(cls) / 1000.0;
        ingress.Add(us, in);
        egress.Add(us, out);
        dat << us << " " << in << " " << out << "\n";
        if (Simulator::Now() + interval <= stop)
        {
            Simulator::Schedule(interval, &Sampler::Sample, this);
        }
    }
};

/// The command line.
struct IncastOptions
{
    uint32_t leaves = 4;                           //!< --leaves
    uint32_t spines = 2;                           //!< --spines
    uint32_t hostsPerLeaf = 8;                     //!< --hosts-per-leaf
    uint32_t senders = 16;                         //!< --senders
    uint32_t flowBytes = 1000000;                  //!< --flow-bytes
    uint32_t packetSize = 1000;                    //!< --packet-size
    uint32_t cls = 3;                              //!< --cls
    std::string rate = "40Gbps";                   //!< --rate
    std::string delay = "1us";                     //!< --delay
    int64_t headroom = -1;                         //!< --headroom
    double stopMs = 20;                            //!< --stop-ms
    std::string out = "pfc-incast";                //!< --out
    TaggerCommandLine cmd{"pfc-incast", __FILE__}; //!< the checked command line

    /// Parse and check the options (exit code 2 on a bad value).
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
    cmd.AddInteger("flow-bytes", "bytes each sender sends", flowBytes, 1, UINT32_MAX);
    cmd.AddInteger("packet-size", "UDP payload bytes per packet", packetSize, 1, UINT32_MAX);
    cmd.AddInteger("cls", "priority class of the flows (DSCP = 8 * class)", cls, 0, 7);
    cmd.AddDataRate("rate", "link rate", rate);
    cmd.AddTime("delay", "link propagation delay", delay);
    cmd.AddInteger(
        "headroom",
        "fixed headroom per queue in bytes (-1: computed from the link, the PFC buffer background)",
        headroom,
        -1,
        int64_t(1) << 30);
    cmd.AddMilliSeconds("stop-ms", "simulated time (ms)", stopMs, 0.001);
    cmd.AddOutputPrefix("out",
                        "prefix of the .dat and .plt files written",
                        out,
                        {"-queue.dat", "-queue.plt"});
    cmd.Parse(argc, argv);

    cmd.CheckSenders(senders, cmd.CheckLeafSpine(leaves, spines, hostsPerLeaf));
    uint32_t maxPayload = TaggerCommandLine::GetMaxUdpPayload("ns3::PfcNetDevice");
    if (packetSize > maxPayload)
    {
        cmd.Fail("packet-size",
                 std::to_string(packetSize),
                 "must be at most " + std::to_string(maxPayload) +
                     " (the PfcNetDevice MTU minus 28 bytes of IPv4 and UDP headers)");
    }
}

/**
 * Hosts 1..N -> host 0, one OnOff flow each, starts jittered; a sink on host 0.
 * \param opt the options \param net the network \param stop when the senders stop
 */
void
InstallIncast(const IncastOptions& opt, const PfcTopologyHelper& net, Time stop)
{
    uint16_t port = 9000;
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(net.GetHost(0));
    sink.Start(Time(0));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&SinkRx));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&CountRx));
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    for (uint32_t i = 1; i <= opt.senders; ++i)
    {
        InetSocketAddress dst(net.GetHostAddress(0), port);
        OnOffHelper onoff("ns3::UdpSocketFactory", dst);
        SetApplicationTos(onoff, dst, uint8_t(opt.cls << 5)); // DSCP = 8 * class
        onoff.SetConstantRate(DataRate(opt.rate), opt.packetSize);
        onoff.SetAttribute("MaxBytes", UintegerValue(opt.flowBytes));
        ApplicationContainer app = onoff.Install(net.GetHost(i));
        app.Start(NanoSeconds(jitter->GetInteger(0, 10000)));
        app.Stop(stop);
        app.Get(0)->TraceConnectWithoutContext("Tx", MakeCallback(&AppTx));
    }
}

/**
 * Start sampling the receiver ToR (L1) and its port to host 0 (port 0) every 5 us.
 * \param sampler the sampler \param opt the options \param net the network \param stop last
 * sample
 */
void
StartSampler(Sampler& sampler, const IncastOptions& opt, const PfcTopologyHelper& net, Time stop)
{
    tagger::NodeId l1 = net.GetNodeId("L1");
    sampler.tor = net.GetSwitch(l1);
    sampler.port = net.GetSwitchPort(l1, 0);
    sampler.cls = uint8_t(opt.cls);
    sampler.ingress = Gnuplot2dDataset("L1 lossless buffer (KB)");
    sampler.egress = Gnuplot2dDataset("L1 egress queue to H1 (KB)");
    sampler.ingress.SetStyle(Gnuplot2dDataset::LINES);
    sampler.egress.SetStyle(Gnuplot2dDataset::LINES);
    opt.cmd.OpenOutput("out", opt.out + "-queue.dat", sampler.dat, opt.out);
    sampler.dat << "# time_us L1_lossless_KB L1_port0_class" << opt.cls << "_KB\n";
    sampler.interval = MicroSeconds(5);
    sampler.stop = stop;
    Simulator::Schedule(Time(0), &Sampler::Sample, &sampler);
}

/**
 * Print the counters, the flows' goodput and the packet balance; write the plot.
 * \param opt the options \param net the network \param oracle the deadlock oracle
 * \param sampler the queue samples
 */
void
Report(const IncastOptions& opt,
       const PfcTopologyHelper& net,
       const PfcDeadlockOracle& oracle,
       Sampler& sampler)
{
    PfcStatsHelper stats(net);
    std::cout << "pfc-incast: " << opt.senders << " senders -> H1, " << opt.leaves << " leaves, "
              << opt.spines << " spines, " << opt.rate << ", " << opt.delay << ", " << opt.flowBytes
              << " B per flow\n";
    stats.PrintSwitchCounters(std::cout);
    std::cout << "flows (goodput from first to last byte received):\n";
    for (uint32_t i = 1; i <= opt.senders; ++i)
    {
        const FlowRecord& f = g_flows[net.GetHostAddress(i).Get()];
        double seconds = (f.last - f.first).GetSeconds();
        double gbps = seconds > 0 ? f.bytes * 8 / seconds / 1e9 : 0;
        std::cout << "  H" << i + 1 << " -> H1: " << f.bytes << " B, " << std::fixed
                  << std::setprecision(3) << gbps << " Gbps\n";
    }
    uint64_t drops = stats.GetDropCount();
    uint64_t tcDrops = stats.GetTrafficControlDrops();
    std::cout << "packets: sent=" << g_sent << " delivered=" << g_received << " dropped=" << drops
              << " traffic-control-dropped=" << tcDrops
              << " in-flight=" << (g_sent - g_received - drops - tcDrops) << "\n";
    oracle.PrintSummary(std::cout);

    Gnuplot plot(opt.out + "-queue.png");
    plot.SetTitle("pfc-incast: receiver ToR buffer");
    plot.SetTerminal("png");
    plot.SetLegend("time (us)", "KB");
    plot.AddDataset(sampler.ingress);
    plot.AddDataset(sampler.egress);
    std::ofstream plt;
    opt.cmd.OpenOutput("out", opt.out + "-queue.plt", plt, opt.out);
    plot.GenerateOutput(plt);
    opt.cmd.CloseOutput("out", opt.out + "-queue.plt", plt, opt.out);
    opt.cmd.CloseOutput("out", opt.out + "-queue.dat", sampler.dat, opt.out);
    std::cout << "wrote " << opt.out << "-queue.dat and " << opt.out << "-queue.plt (gnuplot "
              << opt.out << "-queue.plt)\n";

    std::cout << "RESULT lossless_drops=" << stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
              << " pauses=" << stats.GetPauseCount()
              << " deadlock=" << (oracle.HasDeadlock() ? "yes" : "no") << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    IncastOptions opt;
    opt.Parse(argc, argv);

    // Two-tier leaf-spine: spines, leaves, hosts.
    PfcTopologyHelper net(tagger::MakeLeafSpine(opt.leaves, opt.spines, opt.hostsPerLeaf));
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(opt.rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(opt.delay));
    if (opt.headroom >= 0)
    {
        net.GetPfcHelper().SetMmuAttribute("HeadroomMode", StringValue("Fixed"));
        net.GetPfcHelper().SetMmuAttribute("Headroom", UintegerValue(opt.headroom));
    }
    net.Build();

    Time stop = TaggerCommandLine::MilliSecondsToTime(opt.stopMs);
    InstallIncast(opt, net, stop);
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(MicroSeconds(10), stop);
    Sampler sampler;
    StartSampler(sampler, opt, net, stop);

    Simulator::Stop(stop);
    Simulator::Run();
    Report(opt, net, *oracle, sampler);
    Simulator::Destroy();
    return 0;
}
