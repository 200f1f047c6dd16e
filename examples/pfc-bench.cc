/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * pfc-bench: simulation speed of the PFC data plane against stock ns-3, and
 * the memory of a large fat tree.
 *
 * Speed (--mode=both, the default; also --mode=ours or --mode=stock): the
 * same incast on the same k-ary fat tree (--k, default 4) is run
 *   (a) "ours":  PfcSwitchNetDevice switches, PfcNetDevice/PfcChannel links
 *                (PfcTopologyHelper), flows in lossless class --cls;
 *   (b) "stock": PointToPointNetDevice links, the Internet stack on every
 *                node (switches are IPv4 routers), one /30 per link
 *                (Ipv4AddressHelper) and Ipv4GlobalRoutingHelper routes;
 * as separate phases of one process (Simulator::Destroy() in between),
 * --runs times each, alternating.  Traffic: hosts 1..N (N = --senders) each
 * send one --flow-bytes UDP flow (OnOffApplication at line rate,
 * --packet-size payload) to host 0, starting within the first 10 us (the
 * same start times in both modes, from --seed).  Both modes use the same
 * --rate and --delay on every link and stop at --stop-ms.  The stock path is
 * given enough buffer to lose nothing: a FIFO queue disc of --stock-limit
 * packets on every device (--stock-qdisc=fifo, the default; the p2p device
 * queue keeps ns-3's default 100 packets), or no queue disc and a device
 * queue of --stock-limit packets (--stock-qdisc=none).
 *
 * Measured, per phase:
 *  - packet-hops: data frames that finished transmission on a link (the
 *    PhyTxEnd trace of every device, one count per link traversal; in ours,
 *    the PFC frames the devices sent are subtracted);
 *  - events: Simulator::GetEventCount() after Run() minus before;
 *  - wall seconds: std::chrono::steady_clock around Simulator::Run() only
 *    (and the thread's CPU seconds, less sensitive to a loaded machine).
 * Events and seconds are those after time 0: the events at time 0, where ns-3
 * initializes the nodes (devices, queue discs, applications), run first and
 * their CPU seconds are printed apart (init_cpu_s).
 * Printed: per phase and the median per mode of hops/s and events/s (per
 * wall second) and hops per CPU second, then
 *   RESULT hops_per_s_ours=<x> hops_per_s_stock=<y> ... ratio=<x/y> ...
 *          cpu_ratio=<the same ratio per CPU second>
 *
 * RDMA scenarios (--mode=A, --mode=B; after the speed phases each runs in a
 * fresh child process unless --scenarios=false): the two scenarios shared
 * with the HPCC-family simulators (doc/tagger-validation.rst), RoCE NICs
 * (RdmaHelper: DCQCN on, an ACK every 4 packets) on a k-ary fat tree of PFC
 * switches, --rate and --delay on every link:
 *   A: k=4, hosts 1..15 each send one 10 MB message to host 0, starting
 *      between 1 and 2 us, 100 ms simulated;
 *   B: k=16, 1,000 random host pairs (--flows, from --seed) of 100 KB each,
 *      starting within the first 100 us, 5 ms simulated.
 * --k, --senders, --flow-bytes and --stop-ms override them.  Printed: build
 * time, CPU seconds of the events at time 0 (ns-3 initializing the nodes) and
 * of the rest of Run(), events, events per CPU second (both after time 0),
 * flows completed
 * and the peak resident set (VmHWM of /proc/self/status), then
 *   RESULT scenario=<A|B> k=<k> ... events_per_cpu_s=<x> peak_rss_mb=<m>
 * and, after --runs children of each (A, B, A, B, ...), the ratio of their
 * median event rates (A's over B's).
 * --export=DIR (with --mode=A or B) also writes the scenario's network and
 * flows in the HPCC-family formats (DIR/topology.txt, DIR/flow.txt), so the
 * same scenario can be run in those simulators (doc/tagger-hpcc-input.rst).
 */

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/hpcc-scenario-helper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/point-to-point-module.h"
#include "ns3/rdma-helper.h"
#include "ns3/tagger-command-line.h"
#include "ns3/tagger-ns3-release-compat.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <time.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("PfcBench");

namespace
{

/// The parameters of the speed benchmark (shared by both modes).
struct BenchConfig
{
    uint32_t k = 4;                  //!< fat-tree arity
    uint32_t senders = 15;           //!< incast senders (hosts 1..N -> host 0)
    uint32_t flowBytes = 1000000;    //!< bytes per flow (OnOff MaxBytes)
    uint32_t packetSize = 1000;      //!< UDP payload per packet (bytes)
    uint32_t cls = 3;                //!< class of the flows in ours (DSCP = 8 * class)
    std::string rate = "40Gbps";     //!< every link's rate
    std::string delay = "1us";       //!< every link's propagation delay
    double stopMs = 10;              //!< simulated time (ms)
    uint32_t seed = 1;               //!< start-time seed
    std::string stockQdisc = "fifo"; //!< stock queueing: fifo | none
    uint32_t stockLimit = 100000;    //!< packets the stock queue (disc or device) holds
};

/// What one phase measured.
struct PhaseResult
{
    std::string mode;       //!< "ours" or "stock"
    uint64_t frames = 0;    //!< frames whose transmission ended (PhyTxEnd), all kinds
    uint64_t pfcFrames = 0; //!< PFC frames sent (ours)
    uint64_t hops = 0;      //!< data packet-hops
    uint64_t events = 0;    //!< events executed by Run()
    uint64_t sent = 0;      //!< packets the applications sent
    uint64_t delivered = 0; //!< packets the sink received
    double wall = 0;        //!< wall seconds of Run()
    double cpu = 0;         //!< CPU seconds of this thread during Run(), after time 0
    double initCpu = 0;     //!< CPU seconds of the events at time 0 (nodes' initialization)
    double buildWall = 0;   //!< wall seconds to build the network and the applications
    std::string queueing;   //!< stock: the root queue disc found on the devices

    double HopsPerSecond() const //!< \return packet-hops per wall second
    {
        return wall > 0 ? hops / wall : 0;
    }

    double EventsPerSecond() const //!< \return events per wall second
    {
        return wall > 0 ? events / wall : 0;
    }

    double HopsPerCpuSecond() const //!< \return packet-hops per CPU second
    {
        return cpu > 0 ? hops / cpu : 0;
    }
};

uint64_t g_frames = 0;    //!< PhyTxEnd count of the running phase
uint64_t g_sent = 0;      //!< application Tx count of the running phase
uint64_t g_delivered = 0; //!< sink Rx count of the running phase

/// PhyTxEnd sink: one link traversal.
void
CountFrame(Ptr<const Packet>)
{
    ++g_frames;
}

/// OnOff Tx sink.
void
CountSent(Ptr<const Packet>)
{
    ++g_sent;
}

/// PacketSink Rx sink.
void
CountDelivered(Ptr<const Packet>, const Address&)
{
    ++g_delivered;
}

/// \return seconds on the steady clock (arbitrary origin)
double
WallNow()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/// \return CPU seconds this thread has used
double
CpuNow()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/// \param key "VmHWM" or "VmRSS" \return that /proc/self/status value in MiB (0 if unknown)
double
ProcStatusMb(const std::string& key)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
    {
        if (line.compare(0, key.size() + 1, key + ":") == 0)
        {
            std::istringstream in(line.substr(key.size() + 1));
            double kb = 0;
            in >> kb;
            return kb / 1024.0;
        }
    }
    return 0;
}

/// \param cfg the benchmark \return the start time of each sender (index 0 unused)
std::vector<Time>
StartTimes(const BenchConfig& cfg)
{
    std::mt19937 rng(cfg.seed);
    std::uniform_int_distribution<int64_t> ns(0, 10000);
    std::vector<Time> start(cfg.senders + 1, Time(0));
    for (uint32_t i = 1; i <= cfg.senders; ++i)
    {
        start[i] = NanoSeconds(ns(rng));
    }
    return start;
}

/**
 * Install the incast: sink on \p hosts[0], senders 1..N.
 * \param cfg the benchmark \param hosts host nodes in host order
 * \param receiver host 0's address \param tos the senders' TOS byte
 */
void
InstallIncast(const BenchConfig& cfg, const NodeContainer& hosts, Ipv4Address receiver, uint8_t tos)
{
    const uint16_t port = 9000;
    const Time stop = TaggerCommandLine::MilliSecondsToTime(cfg.stopMs);
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    ApplicationContainer sink = sinkHelper.Install(hosts.Get(0));
    sink.Start(Time(0));
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeCallback(&CountDelivered));
    std::vector<Time> start = StartTimes(cfg);
    for (uint32_t i = 1; i <= cfg.senders; ++i)
    {
        InetSocketAddress dst(receiver, port);
        OnOffHelper onoff("ns3::UdpSocketFactory", dst);
        SetApplicationTos(onoff, dst, tos);
        onoff.SetConstantRate(DataRate(cfg.rate), cfg.packetSize);
        onoff.SetAttribute("MaxBytes", UintegerValue(cfg.flowBytes));
        ApplicationContainer app = onoff.Install(hosts.Get(i));
        app.Start(start[i]);
        app.Stop(stop);
        app.Get(0)->TraceConnectWithoutContext("Tx", MakeCallback(&CountSent));
    }
}

/**
 * Run the simulation of the current phase and time it.
 * \param stopMs simulated time (ms) \param r filled with events, wall time and counts
 */
void
RunTimed(double stopMs, PhaseResult& r)
{
    // ns-3 initializes every node (its devices, queue discs and applications) in events at
    // time 0, inside Run(): set-up whose cost grows with the node count (about 56 ms of B's
    // 1,024 hosts with their queue discs), not packet work. Those events run first, timed
    // apart; stopping and resuming leaves the order of every other event as it was.
    const Time stopAt = TaggerCommandLine::MilliSecondsToTime(stopMs);
    double i0 = CpuNow();
    Simulator::Stop(std::min(TimeStep(1), stopAt));
    Simulator::Run();
    r.initCpu = CpuNow() - i0;
    Simulator::Stop(stopAt - Simulator::Now());
    uint64_t events0 = Simulator::GetEventCount();
    double c0 = CpuNow();
    double t0 = WallNow();
    Simulator::Run();
    double t1 = WallNow();
    double c1 = CpuNow();
    r.events = Simulator::GetEventCount() - events0;
    r.wall = t1 - t0;
    r.cpu = c1 - c0;
    r.frames = g_frames;
    r.sent = g_sent;
    r.delivered = g_delivered;
}

/// Zero the trace counters before a phase.
void
ResetCounters()
{
    g_frames = 0;
    g_sent = 0;
    g_delivered = 0;
}

/// (a) The incast through PFC switches. \param cfg the benchmark \return the measurements
PhaseResult
RunOurs(const BenchConfig& cfg)
{
    ResetCounters();
    PhaseResult r;
    r.mode = "ours";
    double b0 = WallNow();
    PfcTopologyHelper net(tagger::MakeFatTree(cfg.k));
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(cfg.rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(cfg.delay));
    net.Build();
    std::vector<Ptr<PfcNetDevice>> devices;
    NodeContainer nodes = net.GetNodes();
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        for (uint32_t d = 0; d < (*it)->GetNDevices(); ++d)
        {
            Ptr<PfcNetDevice> dev = DynamicCast<PfcNetDevice>((*it)->GetDevice(d));
            if (dev)
            {
                dev->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&CountFrame));
                devices.push_back(dev);
            }
        }
    }
    InstallIncast(cfg, net.GetHosts(), net.GetHostAddress(0), uint8_t(cfg.cls << 5));
    r.buildWall = WallNow() - b0;
    RunTimed(cfg.stopMs, r);
    for (const auto& dev : devices)
    {
        r.pfcFrames += dev->GetPfcTxFrames();
    }
    r.hops = r.frames - r.pfcFrames;
    PfcStatsHelper stats(net);
    uint64_t drops = stats.GetDropCount() + stats.GetTrafficControlDrops();
    if (drops > 0)
    {
        std::cout << "  warning: ours dropped " << drops << " packets\n";
    }
    devices.clear();
    Simulator::Destroy();
    return r;
}

/// (b) The incast through stock ns-3 routers. \param cfg the benchmark \return the measurements
PhaseResult
RunStock(const BenchConfig& cfg)
{
    ResetCounters();
    PhaseResult r;
    r.mode = "stock";
    double b0 = WallNow();
    tagger::Topology topo = tagger::MakeFatTree(cfg.k);
    NodeContainer nodes;
    nodes.Create(topo.GetNNodes());
    InternetStackHelper internet;
    internet.Install(nodes);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(cfg.rate));
    p2p.SetChannelAttribute("Delay", StringValue(cfg.delay));
    const bool fifo = cfg.stockQdisc == "fifo";
    if (!fifo)
    {
        p2p.SetQueue("ns3::DropTailQueue",
                     "MaxSize",
                     QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, cfg.stockLimit)));
    }
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc",
                         "MaxSize",
                         QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, cfg.stockLimit)));
    // One /30 per link, from 10.0.0.0.
    Ipv4AddressGenerator::Reset();
    Ipv4AddressHelper address("10.0.0.0", "255.255.255.252");
    std::vector<Ipv4Address> hostAddress(topo.GetNNodes());
    NetDeviceContainer all;
    for (const tagger::TopoLink& link : topo.GetLinks())
    {
        NetDeviceContainer d = p2p.Install(nodes.Get(link.a.node), nodes.Get(link.b.node));
        if (fifo)
        {
            // Before Assign(), which would install ns-3's default queue disc otherwise.
            tch.Install(d);
        }
        Ipv4InterfaceContainer itf = address.Assign(d);
        if (!fifo)
        {
            tch.Uninstall(d);
        }
        address.NewNetwork();
        hostAddress[link.a.node] = itf.GetAddress(0);
        hostAddress[link.b.node] = itf.GetAddress(1);
        all.Add(d);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    {
        Ptr<NetDevice> dev = all.Get(0);
        Ptr<QueueDisc> root =
            dev->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(dev);
        r.queueing = root ? root->GetInstanceTypeId().GetName() : "no queue disc";
    }
    for (auto it = all.Begin(); it != all.End(); ++it)
    {
        (*it)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&CountFrame));
    }
    NodeContainer hosts;
    std::vector<tagger::NodeId> hostIds = topo.GetHosts();
    for (tagger::NodeId v : hostIds)
    {
        hosts.Add(nodes.Get(v));
    }
    // Same TOS as ours (stock routers ignore it).
    InstallIncast(cfg, hosts, hostAddress[hostIds[0]], uint8_t(cfg.cls << 5));
    r.buildWall = WallNow() - b0;
    RunTimed(cfg.stopMs, r);
    r.hops = r.frames; // p2p links carry only the data packets here (no ARP, no routing protocol)
    uint64_t drops = 0;
    for (auto it = all.Begin(); it != all.End(); ++it)
    {
        Ptr<PointToPointNetDevice> dev = DynamicCast<PointToPointNetDevice>(*it);
        drops += dev->GetQueue()->GetTotalDroppedPackets();
        Ptr<TrafficControlLayer> tc = dev->GetNode()->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(dev);
        drops += root ? root->GetStats().nTotalDroppedPackets : 0;
    }
    if (drops > 0)
    {
        std::cout << "  warning: stock dropped " << drops << " packets\n";
    }
    Simulator::Destroy();
    return r;
}

/// \param v values \return their median (mean of the middle two for an even count)
double
Median(std::vector<double> v)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// Print one phase. \param r the phase \param run its run number
void
PrintPhase(const PhaseResult& r, uint32_t run)
{
    std::cout << std::fixed << std::setprecision(0) << "  run " << run << " " << std::setw(5)
              << r.mode << ": hops=" << r.hops << " events=" << r.events << " sent=" << r.sent
              << " delivered=" << r.delivered;
    if (r.mode == "ours")
    {
        std::cout << " pfc_frames=" << r.pfcFrames;
    }
    else
    {
        std::cout << " root_qdisc=" << r.queueing;
    }
    std::cout << std::setprecision(4) << " build_s=" << r.buildWall << " init_cpu_s=" << r.initCpu
              << " run_s=" << r.wall << " cpu_s=" << r.cpu << std::setprecision(0)
              << " hops/s=" << r.HopsPerSecond() << " events/s=" << r.EventsPerSecond()
              << std::setprecision(2) << " events/hop=" << (r.hops ? double(r.events) / r.hops : 0)
              << "\n";
}

/// An RDMA scenario shared with the HPCC-family simulators (modes A and B).
struct Scenario
{
    std::string name;                 //!< "A" or "B"
    uint32_t k = 4;                   //!< fat-tree arity
    std::vector<GeneratedFlow> flows; //!< the RDMA messages (host indices)
    double stopMs = 0;                //!< simulated time (ms)
};

/**
 * Scenario A: hosts 1..N each send one message to host 0, starting between 1
 * and 2 us (uniform, whole nanoseconds, from \p seed).
 * \param k arity \param senders N \param bytes message size \param ms simulated time
 * \param seed start-time seed \return the scenario
 */
Scenario
MakeIncastScenario(uint32_t k, uint32_t senders, uint64_t bytes, double ms, uint32_t seed)
{
    Scenario s{"A", k, {}, ms};
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int64_t> ns(1000, 2000);
    for (uint32_t i = 1; i <= senders; ++i)
    {
        s.flows.push_back({i, 0, bytes, NanoSeconds(ns(rng))});
    }
    return s;
}

/**
 * Scenario B: \p flows random (source, destination) host pairs, source !=
 * destination, each one message, starting within the first 100 us (uniform,
 * whole nanoseconds); pairs and starts from \p seed.
 * \param k arity \param flows how many \param bytes message size
 * \param ms simulated time \param seed the seed \return the scenario
 */
Scenario
MakeRandomScenario(uint32_t k, uint32_t flows, uint64_t bytes, double ms, uint32_t seed)
{
    Scenario s{"B", k, {}, ms};
    const uint32_t hosts = k * k * k / 4;
    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> pick(0, hosts - 1);
    std::uniform_int_distribution<int64_t> ns(0, 100000);
    for (uint32_t f = 0; f < flows; ++f)
    {
        uint32_t src = pick(rng);
        uint32_t dst = pick(rng);
        while (dst == src)
        {
            dst = pick(rng);
        }
        s.flows.push_back({src, dst, bytes, NanoSeconds(ns(rng))});
    }
    std::stable_sort(s.flows.begin(), s.flows.end(), [](const auto& a, const auto& b) {
        return a.start < b.start;
    });
    return s;
}

/**
 * Run one RDMA scenario on a k-ary fat tree of PFC switches (DCQCN on, ACK
 * every 4 packets: the NIC's defaults) and print its build time, CPU time,
 * events, event rate, flows completed and peak memory, ending with
 *   RESULT scenario=<A|B> k=<k> ... events_per_cpu_s=<x> peak_rss_mb=<m>
 * \param s the scenario \param cfg --rate and --delay
 * \param exportDir if not empty, write the scenario there in the HPCC formats
 */
void
RunScenario(const Scenario& s, const BenchConfig& cfg, const std::string& exportDir)
{
    double rss0 = ProcStatusMb("VmRSS");
    double b0 = WallNow();
    double c0 = CpuNow();
    PfcTopologyHelper net(tagger::MakeFatTree(s.k));
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(cfg.rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(cfg.delay));
    net.Build();
    RdmaHelper rdma;
    rdma.Install(net);
    rdma.AddFlows(s.flows);
    double buildWall = WallNow() - b0;
    double buildCpu = CpuNow() - c0;
    if (!exportDir.empty())
    {
        HpccScenarioHelper::ExportScenario(exportDir,
                                           net,
                                           HpccScenarioHelper::ToHpccFlows(net, s.flows));
        std::cout << "exported to " << exportDir << "/topology.txt and flow.txt\n";
    }
    double rssBuilt = ProcStatusMb("VmRSS");

    PhaseResult r;
    RunTimed(s.stopMs, r);
    double peak = ProcStatusMb("VmHWM");
    uint32_t completed = 0;
    Time lastFct;
    for (const RdmaFlowRecord& rec : rdma.GetFlowRecords())
    {
        completed += rec.finished ? 1 : 0;
        lastFct = std::max(lastFct, rec.finish);
    }
    PfcStatsHelper stats(net);
    const uint32_t switches = net.GetSwitches().GetN();
    uint64_t forwarded = 0;
    for (uint32_t i = 0; i < switches; ++i)
    {
        forwarded += PfcHelper::GetSwitch(net.GetSwitches().Get(i))->GetForwardedCount();
    }
    std::cout << std::fixed << std::setprecision(3) << "scenario " << s.name
              << ": fat tree k=" << s.k << " (" << net.GetNHosts() << " hosts, " << switches
              << " switches), " << s.flows.size() << " RDMA flows of " << s.flows.front().bytes
              << " B, " << cfg.rate << ", " << cfg.delay << ", DCQCN on, " << s.stopMs
              << " ms simulated\n"
              << "  build " << buildWall << " s wall (" << buildCpu
              << " s CPU); initialization at time 0 " << r.initCpu << " s CPU; run " << r.wall
              << " s wall, " << r.cpu << " s CPU, " << r.events << " events ("
              << std::setprecision(0) << r.events / std::max(r.cpu, 1e-9) << " per CPU s); "
              << forwarded << " frames forwarded by switches, " << std::setprecision(0)
              << r.cpu * 1e9 / std::max<uint64_t>(forwarded, 1)
              << " ns of CPU per forwarded frame\n  flows completed " << completed << "/"
              << s.flows.size() << ", last finish " << std::setprecision(3)
              << lastFct.GetMicroSeconds() / 1.0 << " us, pauses " << stats.GetPauseCount()
              << ", drops " << stats.GetDropCount() << "\n"
              << std::setprecision(1) << "  RSS at start " << rss0 << " MiB, after build "
              << rssBuilt << " MiB, peak (VmHWM) " << peak << " MiB\n"
              << std::setprecision(3) << "RESULT scenario=" << s.name << " k=" << s.k
              << " flows=" << s.flows.size() << " completed=" << completed
              << " build_s=" << buildWall << " init_cpu_s=" << r.initCpu << " run_cpu_s=" << r.cpu
              << " total_cpu_s=" << buildCpu + r.initCpu + r.cpu << " events=" << r.events
              << " forwarded=" << forwarded << std::setprecision(0)
              << " ns_per_forwarded=" << r.cpu * 1e9 / std::max<uint64_t>(forwarded, 1)
              << std::setprecision(0) << " events_per_cpu_s=" << r.events / std::max(r.cpu, 1e-9)
              << std::setprecision(1) << " peak_rss_mb=" << peak << std::endl;
    Simulator::Destroy();
}

/// \param s a shell word \return it, single-quoted for /bin/sh
std::string
ShellQuote(const std::string& s)
{
    std::string out = "'";
    for (char c : s)
    {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

/**
 * Run this program again with \p args and copy its output.
 * \param args the arguments \param output filled with the output
 * \return whether it ran and exited with 0
 */
bool
RunChild(const std::string& args, std::string& output)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n <= 0)
    {
        return false;
    }
    self[n] = '\0';
    std::string command = ShellQuote(self) + " " + args;
    std::cout.flush();
    FILE* child = popen(command.c_str(), "r");
    if (!child)
    {
        return false;
    }
    char buffer[4096];
    while (fgets(buffer, sizeof(buffer), child))
    {
        std::cout << buffer;
        output += buffer;
    }
    std::cout.flush();
    return pclose(child) == 0;
}

/**
 * \param output a program's output \param key a RESULT field name
 * \return the number after "<key>=" in its last RESULT line (0 if none)
 */
double
ResultField(const std::string& output, const std::string& key)
{
    size_t line = output.rfind("RESULT ");
    size_t at = line == std::string::npos ? line : output.find(" " + key + "=", line);
    return at == std::string::npos ? 0 : std::strtod(output.c_str() + at + key.size() + 2, nullptr);
}

/// The command line.
struct BenchOptions
{
    BenchConfig cfg;                              //!< the speed benchmark
    std::string mode = "both";                    //!< --mode
    uint32_t runs = 3;                            //!< --runs
    uint32_t k = 0;                               //!< --k (0: the mode's)
    uint64_t flowBytes = 0;                       //!< --flow-bytes (0: the mode's)
    double stopMs = 0;                            //!< --stop-ms (0: the mode's)
    uint32_t flows = 1000;                        //!< --flows (scenario B)
    bool scenarios = true;                        //!< --scenarios
    std::string exportDir;                        //!< --export
    TaggerCommandLine cmd{"pfc-bench", __FILE__}; //!< the checked command line

    /// Parse and check the options (exit code 2 on a bad value).
    /// \param argc count \param argv values
    void Parse(int argc, char* argv[]);
    /// \return the scenario of --mode=A or --mode=B with the flags applied
    Scenario GetScenario() const;
    /// \param name "A" or "B" \return the arguments of that scenario's child process
    std::string ScenarioArguments(const std::string& name) const;

  private:
    /// Check the flags of the speed phases and resolve their defaults.
    void CheckSpeed();
};

void
BenchOptions::Parse(int argc, char* argv[])
{
    cmd.AddChoice("mode",
                  "both | ours | stock (speed phases against stock ns-3) | A (RDMA incast "
                  "scenario) | B (RDMA random-pairs scenario)",
                  mode,
                  {"both", "ours", "stock", "A", "B"});
    cmd.AddInteger(
        "runs",
        "speed phases per mode, and runs of each scenario (alternating; medians reported)",
        runs,
        1,
        1000);
    cmd.AddInteger("k", "fat-tree arity, even, 2..64 (0: the mode's, 16 for B, else 4)", k, 0, 64);
    cmd.AddInteger("senders",
                   "incast senders (hosts 1..N send to host 0)",
                   cfg.senders,
                   1,
                   TaggerCommandLine::kMaxHosts - 1);
    cmd.AddInteger("flow-bytes",
                   "bytes of each flow (0: the mode's, 1000000 for the speed phases, "
                   "10000000 for A, 100000 for B)",
                   flowBytes,
                   0,
                   TaggerCommandLine::kMaxFlowBytes);
    cmd.AddInteger("flows", "random flows of scenario B", flows, 1, TaggerCommandLine::kMaxHosts);
    cmd.AddInteger("packet-size", "UDP payload bytes per packet", cfg.packetSize, 1, UINT32_MAX);
    cmd.AddInteger("cls", "priority class of the flows in ours (DSCP = 8 * class)", cfg.cls, 0, 7);
    cmd.AddDataRate("rate", "link rate (bit/s, e.g. 40Gbps)", cfg.rate);
    cmd.AddTime("delay", "link propagation delay (time, e.g. 1us)", cfg.delay);
    cmd.AddMilliSeconds("stop-ms",
                        "simulated time (ms; 0: the mode's, 10 for the speed phases, 100 for A, "
                        "5 for B)",
                        stopMs);
    cmd.AddInteger("seed",
                   "seed of the flows' start times and of scenario B's pairs",
                   cfg.seed,
                   0,
                   UINT32_MAX);
    cmd.AddChoice("stock-qdisc",
                  "stock queueing: fifo (FIFO queue disc of --stock-limit packets on every "
                  "device) or none (no queue disc, device queue of --stock-limit packets)",
                  cfg.stockQdisc,
                  {"fifo", "none"});
    cmd.AddInteger("stock-limit",
                   "packets the stock queue disc (or device queue) holds",
                   cfg.stockLimit,
                   1,
                   int64_t(1) << 24);
    cmd.AddBool("scenarios",
                "after the speed phases, run scenarios A and B (each a child process)",
                scenarios);
    cmd.AddOutputPrefix("export",
                        "with --mode=A or B: directory to write the scenario to in the HPCC "
                        "formats (topology.txt, flow.txt)",
                        exportDir,
                        {"/topology.txt", "/flow.txt"});
    cmd.Parse(argc, argv);

    cmd.CheckFlowBytes("flow-bytes", std::to_string(flowBytes), flowBytes);
    if (!exportDir.empty() && mode != "A" && mode != "B")
    {
        cmd.Fail("export", exportDir, "needs --mode=A or --mode=B");
    }
    if (k % 2)
    {
        cmd.Fail("k", std::to_string(k), "must be even");
    }
    if (mode == "A" || mode == "B")
    {
        uint32_t arity = k ? k : (mode == "B" ? 16 : 4);
        cmd.CheckSenders(mode == "A" ? cfg.senders : 1, uint64_t(arity) * arity * arity / 4);
        return;
    }
    CheckSpeed();
}

void
BenchOptions::CheckSpeed()
{
    uint32_t maxPayload =
        std::min(TaggerCommandLine::GetMaxUdpPayload("ns3::PfcNetDevice"),
                 TaggerCommandLine::GetMaxUdpPayload("ns3::PointToPointNetDevice"));
    if (cfg.packetSize > maxPayload)
    {
        cmd.Fail("packet-size",
                 std::to_string(cfg.packetSize),
                 "must be at most " + std::to_string(maxPayload) +
                     " (the devices' MTU minus 28 bytes of IPv4 and UDP headers)");
    }
    if (flowBytes > UINT32_MAX)
    {
        cmd.Fail("flow-bytes",
                 std::to_string(flowBytes),
                 "must be at most 4294967295 in the speed phases (OnOff MaxBytes)");
    }
    cfg.k = k ? k : 4;
    cfg.flowBytes = flowBytes ? uint32_t(flowBytes) : 1000000;
    cfg.stopMs = stopMs > 0 ? stopMs : 10;
    cmd.CheckSenders(cfg.senders, uint64_t(cfg.k) * cfg.k * cfg.k / 4);
}

Scenario
BenchOptions::GetScenario() const
{
    if (mode == "A")
    {
        return MakeIncastScenario(k ? k : 4,
                                  cfg.senders,
                                  flowBytes ? flowBytes : 10000000,
                                  stopMs > 0 ? stopMs : 100,
                                  cfg.seed);
    }
    return MakeRandomScenario(k ? k : 16,
                              flows,
                              flowBytes ? flowBytes : 100000,
                              stopMs > 0 ? stopMs : 5,
                              cfg.seed);
}

std::string
BenchOptions::ScenarioArguments(const std::string& name) const
{
    std::ostringstream args;
    args << "--mode=" << name << " --rate=" << ShellQuote(cfg.rate)
         << " --delay=" << ShellQuote(cfg.delay) << " --seed=" << cfg.seed;
    return args.str();
}

/// Rates of the phases of one mode, one entry per run.
struct ModeSeries
{
    std::vector<double> hops;   //!< hops per wall second
    std::vector<double> events; //!< events per wall second
    std::vector<double> cpu;    //!< hops per CPU second

    /// Print \p r and add its rates. \param r a phase \param run its run number
    void Add(const PhaseResult& r, uint32_t run)
    {
        PrintPhase(r, run);
        hops.push_back(r.HopsPerSecond());
        events.push_back(r.EventsPerSecond());
        cpu.push_back(r.HopsPerCpuSecond());
    }
};

/// The speed phases, alternating, then the medians. \param opt the options (checked)
void
RunSpeed(const BenchOptions& opt)
{
    const BenchConfig& cfg = opt.cfg;
    const uint32_t hosts = cfg.k * cfg.k * cfg.k / 4;
    std::cout << "pfc-bench: fat tree k=" << cfg.k << " (" << hosts << " hosts), " << cfg.senders
              << " senders -> host 0, " << cfg.flowBytes << " B per flow, " << cfg.packetSize
              << " B packets, " << cfg.rate << ", " << cfg.delay << ", " << cfg.stopMs
              << " ms simulated; ours: class " << cfg.cls << "; stock: p2p + global routing, "
              << "queue disc " << cfg.stockQdisc << " (" << cfg.stockLimit << " packets)\n"
              << "  hops = data frames that finished transmission on a link (PhyTxEnd on every "
                 "device; PFC frames not counted); wall = Simulator::Run() only\n";

    ModeSeries ours;
    ModeSeries stock;
    std::vector<PhaseResult> last(2);
    for (uint32_t run = 1; run <= opt.runs; ++run)
    {
        if (opt.mode != "stock")
        {
            last[0] = RunOurs(cfg);
            ours.Add(last[0], run);
        }
        if (opt.mode != "ours")
        {
            last[1] = RunStock(cfg);
            stock.Add(last[1], run);
        }
    }
    if (opt.mode == "both" && last[0].hops != last[1].hops)
    {
        std::cout << "  note: the modes moved different numbers of packet-hops (ours "
                  << last[0].hops << ", stock " << last[1].hops << ")\n";
    }

    double oh = Median(ours.hops);
    double sh = Median(stock.hops);
    double oe = Median(ours.events);
    double se = Median(stock.events);
    double oc = Median(ours.cpu);
    double sc = Median(stock.cpu);
    std::cout << std::fixed << std::setprecision(0) << "median of " << opt.runs << " run(s):";
    if (opt.mode != "stock")
    {
        std::cout << " ours hops/s=" << oh << " events/s=" << oe << " hops/cpu-s=" << oc << ";";
    }
    if (opt.mode != "ours")
    {
        std::cout << " stock hops/s=" << sh << " events/s=" << se << " hops/cpu-s=" << sc << ";";
    }
    std::cout << "\n";
    std::cout << "RESULT hops_per_s_ours=" << oh << " hops_per_s_stock=" << sh
              << " events_per_s_ours=" << oe << " events_per_s_stock=" << se << std::setprecision(3)
              << " ratio=" << (sh > 0 ? oh / sh : 0) << " events_ratio=" << (se > 0 ? oe / se : 0)
              << " cpu_ratio=" << (sc > 0 ? oc / sc : 0) << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    BenchOptions opt;
    opt.Parse(argc, argv);
    if (opt.mode == "A" || opt.mode == "B")
    {
        RunScenario(opt.GetScenario(), opt.cfg, opt.exportDir);
        return 0;
    }
    RunSpeed(opt);
    if (!opt.scenarios)
    {
        return 0;
    }
    // A and B alternate, --runs times each, and the ratio is of their
    // medians: on a shared machine one run's rate can be off by a third.
    std::vector<double> rateA;
    std::vector<double> rateB;
    for (uint32_t run = 1; run <= opt.runs; ++run)
    {
        for (const std::string name : {"A", "B"})
        {
            std::string output;
            if (!RunChild(opt.ScenarioArguments(name), output))
            {
                std::cerr << "pfc-bench: scenario " << name << " (" << opt.ScenarioArguments(name)
                          << ") failed\n";
                return 1;
            }
            (name == "A" ? rateA : rateB).push_back(ResultField(output, "events_per_cpu_s"));
        }
    }
    double a = Median(rateA);
    double b = Median(rateB);
    std::cout << std::fixed << std::setprecision(0) << "RESULT events_per_cpu_s_A=" << a
              << " events_per_cpu_s_B=" << b << std::setprecision(3)
              << " event_rate_ratio=" << (b > 0 ? a / b : 0) << " runs=" << opt.runs << std::endl;
    return 0;
}
