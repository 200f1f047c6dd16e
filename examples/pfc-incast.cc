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
#include "ns3/pfc-topology-helper.h"
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

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t leaves = 4;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 8;
    uint32_t senders = 16;
    uint32_t flowBytes = 1000000;
    uint32_t packetSize = 1000;
    uint32_t cls = 3;
    std::string rate = "40Gbps";
    std::string delay = "1us";
    int64_t headroom = -1;
    double stopMs = 20;
    std::string out = "pfc-incast";

    CommandLine cmd(__FILE__);
    cmd.AddValue("leaves", "number of leaf (ToR) switches", leaves);
    cmd.AddValue("spines", "number of spine switches", spines);
    cmd.AddValue("hosts-per-leaf", "hosts on each leaf", hostsPerLeaf);
    cmd.AddValue("senders", "incast senders (hosts 1..N send to host 0)", senders);
    cmd.AddValue("flow-bytes", "bytes each sender sends", flowBytes);
    cmd.AddValue("packet-size", "UDP payload bytes per packet", packetSize);
    cmd.AddValue("cls", "priority class of the flows (DSCP = 8 * class)", cls);
    cmd.AddValue("rate", "link rate", rate);
    cmd.AddValue("delay", "link propagation delay", delay);
    cmd.AddValue(
        "headroom",
        "fixed headroom per queue in bytes (-1: computed from the link, the PFC buffer background)",
        headroom);
    cmd.AddValue("stop-ms", "simulated time (ms)", stopMs);
    cmd.AddValue("out", "prefix of the .dat and .plt files written", out);
    cmd.Parse(argc, argv);

    uint32_t hosts = leaves * hostsPerLeaf;
    if (leaves == 0 || spines == 0 || hostsPerLeaf == 0)
    {
        std::cerr << "pfc-incast: --leaves, --spines and --hosts-per-leaf must be positive\n";
        return 2;
    }
    if (senders == 0 || senders >= hosts)
    {
        std::cerr << "pfc-incast: --senders must be in 1.." << hosts - 1 << " (" << hosts
                  << " hosts), not " << senders << "\n";
        return 2;
    }
    if (cls > 7)
    {
        std::cerr << "pfc-incast: --cls must be a priority class 0..7, not " << cls << "\n";
        return 2;
    }

    // Two-tier leaf-spine, as a tagger::Topology: spines, leaves, hosts.
    tagger::Topology topo = tagger::MakeLeafSpine(leaves, spines, hostsPerLeaf);
    std::vector<tagger::NodeId> leafIds;
    for (uint32_t l = 0; l < leaves; ++l)
    {
        leafIds.push_back(topo.GetNodeId("L" + std::to_string(l + 1)));
    }

    PfcTopologyHelper net(topo);
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(delay));
    if (headroom >= 0)
    {
        net.GetPfcHelper().SetMmuAttribute("HeadroomMode", StringValue("Fixed"));
        net.GetPfcHelper().SetMmuAttribute("Headroom", UintegerValue(headroom));
    }
    net.Build();

    // Traffic: hosts 1..N -> host 0, one OnOff flow each, starts jittered.
    Time stop = MicroSeconds(uint64_t(stopMs * 1000));
    uint16_t port = 9000;
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(net.GetHost(0));
    sink.Start(Time(0));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&SinkRx));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&CountRx));
    Ptr<UniformRandomVariable> jitter = CreateObject<UniformRandomVariable>();
    for (uint32_t i = 1; i <= senders; ++i)
    {
        InetSocketAddress dst(net.GetHostAddress(0), port);
        dst.SetTos(uint8_t(cls << 5)); // DSCP = 8 * class, class = DSCP >> 3
        OnOffHelper onoff("ns3::UdpSocketFactory", dst);
        onoff.SetConstantRate(DataRate(rate), packetSize);
        onoff.SetAttribute("MaxBytes", UintegerValue(flowBytes));
        ApplicationContainer app = onoff.Install(net.GetHost(i));
        app.Start(NanoSeconds(jitter->GetInteger(0, 10000)));
        app.Stop(stop);
        app.Get(0)->TraceConnectWithoutContext("Tx", MakeCallback(&AppTx));
    }

    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(MicroSeconds(10), stop);

    // Time series: receiver ToR (L1), its port to host 0 (port 0).
    Ptr<PfcSwitchNetDevice> tor = net.GetSwitch(leafIds[0]);
    Sampler sampler;
    sampler.tor = net.GetSwitch(leafIds[0]);
    sampler.port = net.GetSwitchPort(leafIds[0], 0);
    sampler.cls = uint8_t(cls);
    sampler.ingress = Gnuplot2dDataset("L1 lossless buffer (KB)");
    sampler.egress = Gnuplot2dDataset("L1 egress queue to H1 (KB)");
    sampler.ingress.SetStyle(Gnuplot2dDataset::LINES);
    sampler.egress.SetStyle(Gnuplot2dDataset::LINES);
    sampler.dat.open(out + "-queue.dat");
    sampler.dat << "# time_us L1_lossless_KB L1_port0_class" << cls << "_KB\n";
    sampler.interval = MicroSeconds(5);
    sampler.stop = stop;
    Simulator::Schedule(Time(0), &Sampler::Sample, &sampler);

    Simulator::Stop(stop);
    Simulator::Run();

    // Report.
    std::cout << "pfc-incast: " << senders << " senders -> H1, " << leaves << " leaves, " << spines
              << " spines, " << rate << ", " << delay << ", " << flowBytes << " B per flow\n";
    net.PrintSwitchCounters(std::cout);
    std::cout << "flows (goodput from first to last byte received):\n";
    for (uint32_t i = 1; i <= senders; ++i)
    {
        const FlowRecord& f = g_flows[net.GetHostAddress(i).Get()];
        double seconds = (f.last - f.first).GetSeconds();
        double gbps = seconds > 0 ? f.bytes * 8 / seconds / 1e9 : 0;
        std::cout << "  H" << i + 1 << " -> H1: " << f.bytes << " B, " << std::fixed
                  << std::setprecision(3) << gbps << " Gbps\n";
    }
    uint64_t drops = net.GetDropCount();
    uint64_t tcDrops = net.GetTrafficControlDrops();
    std::cout << "packets: sent=" << g_sent << " delivered=" << g_received << " dropped=" << drops
              << " traffic-control-dropped=" << tcDrops
              << " in-flight=" << (g_sent - g_received - drops - tcDrops) << "\n";
    oracle->PrintSummary(std::cout);

    Gnuplot plot(out + "-queue.png");
    plot.SetTitle("pfc-incast: receiver ToR buffer");
    plot.SetTerminal("png");
    plot.SetLegend("time (us)", "KB");
    plot.AddDataset(sampler.ingress);
    plot.AddDataset(sampler.egress);
    std::ofstream plt(out + "-queue.plt");
    plot.GenerateOutput(plt);
    std::cout << "wrote " << out << "-queue.dat and " << out << "-queue.plt (gnuplot " << out
              << "-queue.plt)\n";

    std::cout << "RESULT lossless_drops=" << net.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
              << " pauses=" << net.GetPauseCount()
              << " deadlock=" << (oracle->HasDeadlock() ? "yes" : "no") << std::endl;
    Simulator::Destroy();
    return 0;
}
