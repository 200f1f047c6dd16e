/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-experiment-helper.h"

#include "rdma-helper.h"
#include "tagger-helper.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iomanip>
#include <sstream>
#include <tuple>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TaggerExperimentHelper");

std::string
TaggerExperimentModeName(TaggerExperimentMode mode)
{
    switch (mode)
    {
    case TaggerExperimentMode::PFC:
        return "pfc";
    case TaggerExperimentMode::TAGGER:
        return "tagger";
    case TaggerExperimentMode::TTL:
        return "ttl";
    }
    return "?";
}

bool
ParseTaggerExperimentMode(const std::string& name, TaggerExperimentMode& mode)
{
    for (auto m :
         {TaggerExperimentMode::PFC, TaggerExperimentMode::TAGGER, TaggerExperimentMode::TTL})
    {
        if (name == TaggerExperimentModeName(m))
        {
            mode = m;
            return true;
        }
    }
    return false;
}

bool
TaggerExperimentResult::IsDeadlock() const
{
    return !cycles.empty() || undrainedBytes > 0;
}

uint64_t
TaggerExperimentResult::GetDrops(PfcDropReason reason) const
{
    return drops[static_cast<uint8_t>(reason)];
}

uint32_t
TaggerExperimentResult::CountStopped(double thresholdGbps) const
{
    return static_cast<uint32_t>(
        std::count_if(flows.begin(), flows.end(), [thresholdGbps](const TaggerFlowRates& f) {
            return f.tailGbps < thresholdGbps;
        }));
}

namespace
{

/// Host indices in MakeClos(PaperTestbedClos()): host index i is H(i + 1),
/// H1-H4 under T1, H5-H8 under T2, H9-H12 under T3, H13-H16 under T4.
constexpr uint32_t kH1 = 0;   //!< host index of H1
constexpr uint32_t kH2 = 1;   //!< H2
constexpr uint32_t kH4 = 3;   //!< H4
constexpr uint32_t kH5 = 4;   //!< H5
constexpr uint32_t kH9 = 8;   //!< H9
constexpr uint32_t kH10 = 9;  //!< H10
constexpr uint32_t kH11 = 10; //!< H11
constexpr uint32_t kH12 = 11; //!< H12
constexpr uint32_t kH13 = 12; //!< H13
constexpr uint32_t kH14 = 13; //!< H14
constexpr uint32_t kH15 = 14; //!< H15
constexpr uint32_t kH16 = 15; //!< H16

/// \param host host index \return its name, "H1" for 0
std::string
H(uint32_t host)
{
    return "H" + std::to_string(host + 1);
}

/// One RoCE flow of a scenario.
struct FlowSpec
{
    uint32_t src;       //!< sending host index
    uint32_t dst;       //!< receiving host index
    Time start;         //!< start (absolute)
    std::string label;  //!< for the plot and the report ("" when not sampled)
    std::string column; //!< .dat column name
};

/// What a scenario adds to the common set-up.
struct ScenarioSpec
{
    std::string program;            //!< example name
    std::string title;              //!< first words of the description
    std::vector<std::string> setup; //!< description lines about routes and flows
    std::vector<FlowSpec> flows;    //!< flows, in the order they are added
    /// Route changes (now or scheduled); called after Build().
    std::function<void(PfcTopologyHelper&)> routes;
    uint32_t ttlPathSwitches = 7; //!< switches on the longest legal path (TTL mode)
};

/// Samples the acknowledged bytes of some flows into rate series.
class RateSampler
{
  public:
    /**
     * \param rdma the NICs \param flows (host, flow id) of the sampled flows
     * \param interval period \param stop last sample
     */
    RateSampler(const RdmaHelper& rdma,
                std::vector<std::pair<uint32_t, uint32_t>> flows,
                Time interval,
                Time stop)
        : m_rdma(rdma),
          m_flows(std::move(flows)),
          m_last(m_flows.size(), 0),
          m_interval(interval),
          m_stop(stop),
          rates(m_flows.size())
    {
    }

    /// Take a sample and schedule the next one.
    void Sample()
    {
        double s = m_interval.GetSeconds();
        times.push_back(Simulator::Now().GetMicroSeconds() / 1000.0);
        for (std::size_t i = 0; i < m_flows.size(); ++i)
        {
            uint64_t b = m_rdma.GetNic(m_flows[i].first)->GetAckedBytes(m_flows[i].second);
            rates[i].push_back((b - m_last[i]) * 8 / s / 1e9);
            m_last[i] = b;
        }
        if (Simulator::Now() + m_interval <= m_stop)
        {
            Simulator::Schedule(m_interval, &RateSampler::Sample, this);
        }
    }

    /// \param i a sampled flow \param n how many of the last samples \return their mean
    double Tail(std::size_t i, std::size_t n) const
    {
        const std::vector<double>& v = rates[i];
        n = std::min(n, v.size());
        double sum = 0;
        for (std::size_t k = v.size() - n; k < v.size(); ++k)
        {
            sum += v[k];
        }
        return n > 0 ? sum / n : 0;
    }

  private:
    const RdmaHelper& m_rdma;                           //!< the NICs
    std::vector<std::pair<uint32_t, uint32_t>> m_flows; //!< (host, flow id)
    std::vector<uint64_t> m_last;                       //!< acked bytes at the last sample
    Time m_interval;                                    //!< period
    Time m_stop;                                        //!< last sample time

  public:
    std::vector<double> times;              //!< sample times (ms)
    std::vector<std::vector<double>> rates; //!< per flow, per sample (Gbps)
};

/// \param net the network \param m a member of a cycle \return "switch->neighbour"
std::string
MemberName(const PfcTopologyHelper& net, const PfcDeadlockOracle::Member& m)
{
    const tagger::Topology& topo = net.GetTopology();
    NodeContainer nodes = net.GetNodes();
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        if (nodes.Get(v)->GetId() != m.node || !net.GetSwitch(v))
        {
            continue;
        }
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            tagger::NodeId peer = topo.GetPeer(v, p).node;
            if (peer != tagger::kNone && net.GetSwitchPort(v, p) == m.port)
            {
                return topo.GetNode(v).name + "->" + topo.GetNode(peer).name;
            }
        }
        return topo.GetNode(v).name + "->port" + std::to_string(m.port);
    }
    return "node" + std::to_string(m.node) + "->port" + std::to_string(m.port);
}

/**
 * The switches a flow's data packets take with the routes installed now
 * (ECMP hash of the 5-tuple, as the switches compute it).
 * \param net the network \param src sending host \param dst receiving host
 * \param sport the flow's UDP source port
 * \return the switch names, space separated; "... (loop)" or "... (no route)" when
 * the packets never arrive
 */
std::string
TracePath(const PfcTopologyHelper& net, uint32_t src, uint32_t dst, uint16_t sport)
{
    const uint16_t kRoceUdpPort = 4791;
    const uint8_t kUdp = 17;
    const tagger::Topology& topo = net.GetTopology();
    Ipv4Address from = net.GetHostAddress(src);
    Ipv4Address to = net.GetHostAddress(dst);
    tagger::NodeId dstNode = net.GetNodeId(H(dst));
    tagger::NodeId v = topo.GetPeer(net.GetNodeId(H(src)), 0).node;
    std::string path;
    for (uint32_t hop = 0; hop < 2 * topo.GetNNodes(); ++hop)
    {
        Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v);
        if (!sw)
        {
            return v == dstNode ? path : path + " (wrong host)";
        }
        path += (path.empty() ? "" : " ") + topo.GetNode(v).name;
        std::vector<uint32_t> ports = sw->Lookup(to);
        if (ports.empty())
        {
            return path + " (no route)";
        }
        uint32_t out = ports[sw->EcmpIndex(from, to, kUdp, sport, kRoceUdpPort, ports.size())];
        tagger::NodeId next = tagger::kNone;
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            if (net.GetSwitchPort(v, p) == out)
            {
                next = topo.GetPeer(v, p).node;
            }
        }
        if (next == tagger::kNone)
        {
            return path + " (no route)";
        }
        v = next;
    }
    return path + " ... (loop)";
}

/// Build the testbed, apply the mode, run the scenario, collect the result.
TaggerExperimentResult
Run(const TaggerExperimentConfig& cfg, const ScenarioSpec& spec)
{
    NS_ABORT_MSG_IF(cfg.xon >= cfg.xoff,
                    spec.program << ": Xon (" << cfg.xon << ") must be below Xoff (" << cfg.xoff
                                 << ")");
    NS_ABORT_MSG_IF(!(cfg.stop > cfg.start + cfg.event) || !cfg.drain.IsStrictlyPositive(),
                    spec.program << ": need start + event < stop and drain > 0");
    NS_ABORT_MSG_IF(!cfg.sampleInterval.IsStrictlyPositive(),
                    spec.program << ": the sample interval must be positive");

    tagger::Topology topo = tagger::MakeClos(tagger::PaperTestbedClos());
    PfcTopologyHelper net(topo);
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue(cfg.rate));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(cfg.delay));
    // Round robin between classes, as commodity switches serve lossless
    // queues: with strict priority, the flow on the higher tag would starve
    // the other where they share a link.
    net.GetPfcHelper().SetScheduler("ns3::DwrrPfcScheduler");
    // Fixed PFC thresholds per ingress queue, as a switch configured with
    // static Xoff/Xon (with the dynamic default these small scenarios settle
    // into sharing the buffer instead of deadlocking).
    net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
    net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(cfg.xoff));
    net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(cfg.xon));
    net.Build();
    if (spec.routes)
    {
        spec.routes(net);
    }
    ScheduleTaggerExperimentEvents(cfg, net);

    uint8_t dscp = 24; // plain PFC: lossless class 3
    uint32_t classes = 1;
    RdmaHelper rdma;
    rdma.SetNicAttribute("Dcqcn", BooleanValue(cfg.dcqcn));
    if (cfg.mode == TaggerExperimentMode::TAGGER)
    {
        TaggerHelper taggerHelper;
        if (cfg.rulesFile.empty())
        {
            taggerHelper.Install(net, TaggerHelper::ComputeRules(topo, 1));
        }
        else
        {
            taggerHelper.InstallFromJson(net, cfg.rulesFile);
        }
        classes = taggerHelper.GetLosslessTags();
        dscp = 1; // hosts start at tag 1
        // ACKs, NAKs and CNPs start at tag 1 too (data arrives rewritten).
        rdma.SetNicAttribute("ControlDscp", UintegerValue(dscp));
    }
    else if (cfg.mode == TaggerExperimentMode::TTL)
    {
        // The longest legal path of these scenarios is a pinned 1-bounce
        // path: 7 switches.  (The library's full 1-bounce ELP also bounces
        // at ToRs, 9 switches: more than the 8 PFC classes allow.)
        uint8_t ttl0 = TtlHelper::Ttl0ForPath(spec.ttlPathSwitches);
        TtlHelper::Install(net, ttl0);
        rdma.SetNicAttribute("Ttl", UintegerValue(ttl0));
        classes = ttl0 - 1;
        dscp = 0;
    }
    rdma.Install(net);

    const uint64_t huge = 1000000000; // longer than the run: the senders are stopped
    std::vector<std::pair<uint32_t, uint32_t>> sampled; // (host, flow id)
    std::vector<uint32_t> sampledDst;
    TaggerExperimentResult r;
    for (const FlowSpec& f : spec.flows)
    {
        uint32_t id = rdma.AddFlow(f.src, f.dst, huge, f.start, dscp);
        if (!f.label.empty())
        {
            sampled.emplace_back(f.src, id);
            sampledDst.push_back(f.dst);
            TaggerFlowRates rates;
            rates.label = f.label;
            rates.column = f.column;
            r.flows.push_back(rates);
        }
    }

    Time end = cfg.stop + cfg.drain;
    std::ostringstream desc;
    desc << spec.title << ", mode " << TaggerExperimentModeName(cfg.mode) << ", DCQCN "
         << (cfg.dcqcn ? "on" : "off") << ", " << cfg.rate << ", " << cfg.delay << "\n";
    for (const std::string& line : spec.setup)
    {
        desc << "  " << line << "\n";
    }
    desc << "  senders stop at " << cfg.stop.As(Time::MS) << ", buffers checked at "
         << end.As(Time::MS) << " (time scaled to ms)\n"
         << "  lossless classes: " << classes << "\n";

    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(MicroSeconds(20), cfg.stop);

    RateSampler sampler(rdma, sampled, cfg.sampleInterval, cfg.stop);
    Simulator::Schedule(cfg.sampleInterval, &RateSampler::Sample, &sampler);

    // The drain test of the TTL scheme: stop the senders, then look at the buffers.
    Simulator::Schedule(cfg.stop, [&rdma]() {
        for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
        {
            rdma.GetNic(h)->StopFlows();
        }
    });
    Simulator::Stop(end);
    Simulator::Run();

    r.program = spec.program;
    r.mode = cfg.mode;
    r.classes = classes;
    r.description = desc.str();
    r.sampleMs = sampler.times;
    r.tail = cfg.tail;
    r.drain = cfg.drain;
    auto tailSamples =
        static_cast<std::size_t>(cfg.tail.GetNanoSeconds() / cfg.sampleInterval.GetNanoSeconds());
    for (std::size_t i = 0; i < r.flows.size(); ++i)
    {
        r.flows[i].gbps = sampler.rates[i];
        r.flows[i].tailGbps = sampler.Tail(i, tailSamples);
        Ptr<RdmaNic> nic = rdma.GetNic(sampled[i].first);
        r.flows[i].ackedBytes = nic->GetAckedBytes(sampled[i].second);
        const RdmaFlowRecord rec = nic->GetFlowRecords().at(sampled[i].second);
        r.flows[i].path = TracePath(net, sampled[i].first, sampledDst[i], rec.sport);
    }
    for (uint8_t k = 0; k < kPfcDropReasons; ++k)
    {
        r.drops[k] = net.GetDropCount(static_cast<PfcDropReason>(k));
    }
    r.pauses = net.GetPauseCount();
    r.undrainedBytes = net.GetLosslessBytes();
    for (const PfcDeadlockOracle::Deadlock& d : oracle->GetDeadlocks())
    {
        std::vector<std::string> cycle;
        for (const PfcDeadlockOracle::Member& m : d.cycle)
        {
            cycle.push_back(MemberName(net, m));
        }
        r.cycles.push_back(cycle);
    }
    std::ostringstream counters;
    net.PrintSwitchCounters(counters);
    oracle->PrintSummary(counters);
    for (const auto& cycle : r.cycles)
    {
        counters << "  cycle:";
        for (const std::string& q : cycle)
        {
            counters << " " << q;
        }
        counters << "\n";
    }
    r.counters = counters.str();
    Simulator::Destroy();
    return r;
}

} // namespace

TaggerExperimentResult
TaggerExperimentHelper::RunClosBounce(const TaggerExperimentConfig& cfg)
{
    Time greenStart = cfg.start + cfg.event;
    ScenarioSpec spec;
    spec.program = "tagger-clos-bounce";
    spec.title = "tagger-clos-bounce (Tagger (ToN), Figs. 3 and 10)";
    std::ostringstream line;
    line << "links L2-T1 and L3-T4 down; blue H5->H13 T2-L2-S1-L3-S2-L4-T4 from "
         << cfg.start.As(Time::MS) << ", green H9->H1 T3-L3-S2-L2-S1-L1-T1 from "
         << greenStart.As(Time::MS);
    spec.setup.push_back(line.str());
    spec.routes = [](PfcTopologyHelper& net) {
        // Fig. 3: two failed links, and the two 1-bounce paths pinned.
        net.FailLink("L2", "T1");
        net.FailLink("L3", "T4");
        net.PinPath({"T3", "L3", "S2", "L2", "S1", "L1", "T1"}, kH1);
        net.PinPath({"T2", "L2", "S1", "L3", "S2", "L4", "T4"}, kH13);
    };
    spec.flows.push_back({kH5, kH13, cfg.start, "blue H5->H13", "blue_gbps"});
    spec.flows.push_back({kH9, kH1, greenStart, "green H9->H1", "green_gbps"});
    if (cfg.cross)
    {
        // Receivers that are busy too: H2 -> H1 and H14 -> H13 under the
        // same ToRs make T1->H1 and T4->H13 bottlenecks.
        spec.flows.push_back({kH2, kH1, cfg.start, "", ""});
        spec.flows.push_back({kH14, kH13, cfg.start, "", ""});
    }
    return Run(cfg, spec);
}

TaggerExperimentResult
TaggerExperimentHelper::RunRoutingLoop(const TaggerExperimentConfig& cfg)
{
    Time loopAt = cfg.start + cfg.event;
    ScenarioSpec spec;
    spec.program = "tagger-routing-loop";
    spec.title = "tagger-routing-loop (Tagger (ToN), Fig. 11)";
    std::ostringstream line;
    line << "F1 H1->H15 (T1 -> L1 pinned) and F2 H2->H16 (T1-L1-S2-L4-T4 pinned) from "
         << cfg.start.As(Time::MS);
    spec.setup.push_back(line.str());
    line.str("");
    line << "at " << loopAt.As(Time::MS)
         << " bad route at L1: H15 -> T1, so F1 loops T1-L1-T1-... over link T1->L1, which "
            "F2 takes too";
    spec.setup.push_back(line.str());
    spec.routes = [loopAt](PfcTopologyHelper& net) {
        // F1 goes up to L1 (deterministic: no ECMP at T1) and would go on
        // via S1; F2 shares T1->L1, then leaves via the other spine.
        net.PinPath({"T1", "L1", "S1", "L3", "T4"}, kH15);
        net.PinPath({"T1", "L1", "S2", "L4", "T4"}, kH16);
        // The bad route: L1 sends H15's packets back down to T1, and T1
        // sends them up to L1 again, until their TTL runs out.
        net.ScheduleRoute(loopAt, "L1", kH15, "T1");
    };
    spec.flows.push_back({kH1, kH15, cfg.start, "F1 H1->H15", "f1_gbps"});
    spec.flows.push_back({kH2, kH16, cfg.start, "F2 H2->H16", "f2_gbps"});
    // TTL mode: F2's path has 5 switches, a looping packet dies at the 8th.
    return Run(cfg, spec);
}

TaggerExperimentResult
TaggerExperimentHelper::RunPausePropagation(const TaggerExperimentConfig& cfg)
{
    Time bounceAt = cfg.start + cfg.event;
    bool failLinks = cfg.failLinks;
    ScenarioSpec spec;
    spec.program = "tagger-pause-propagation";
    spec.title = "tagger-pause-propagation (Tagger (ToN), Fig. 12)";
    std::ostringstream line;
    line << "4-to-1 shuffle H9, H10, H13, H14 -> H1 and 1-to-4 shuffle H5 -> H11, H12, H15, "
            "H16 from "
         << cfg.start.As(Time::MS);
    spec.setup.push_back(line.str());
    line.str("");
    line << "at " << bounceAt.As(Time::MS) << (failLinks ? " links L2-T1 and L3-T4 fail and" : "")
         << " routes to T1's hosts (H1-H4) pinned to T3-L3-S2-L2-S1-L1-T1 and "
            "T4-L4-S2-L2-S1-L1-T1, to T4's hosts (H13-H16) to T2-L2-S1-L3-S2-L4-T4 (1-bounce "
            "paths: the cycle L2->S1->L3->S2->L2 of Fig. 3)";
    spec.setup.push_back(line.str());
    spec.routes = [bounceAt, failLinks](PfcTopologyHelper& net) {
        PfcTopologyHelper* p = &net;
        Simulator::Schedule(bounceAt - Simulator::Now(), [p, failLinks]() {
            if (failLinks)
            {
                p->FailLink("L2", "T1");
                p->FailLink("L3", "T4");
                // Routing converges around the failures (a local reroute
                // alone may pick an uplink that loops, e.g. L3 -> S2 while S2
                // still sends H15's packets via L3), then the bad routes.
                p->PopulateRoutes();
            }
            // Routes are per ToR prefix, as in a Clos: the change for H1
            // moves every host under T1, the one for H15 every host under T4
            // (so H5 -> H16 bounces as H5 -> H15 does).  A switch on a path
            // routes the prefix this way for every source (H10 -> H1 bounces
            // from T3 as H9 -> H1 does), and T4's side joins the bounce at
            // S2, so H13, H14 -> H1 bounce too whatever ECMP would pick.
            for (uint32_t h = kH1; h <= kH4; ++h)
            {
                p->PinPath({"T3", "L3", "S2", "L2", "S1", "L1", "T1"}, h);
                p->PinPath({"T4", "L4", "S2", "L2", "S1", "L1", "T1"}, h);
            }
            for (uint32_t h = kH13; h <= kH16; ++h)
            {
                p->PinPath({"T2", "L2", "S1", "L3", "S2", "L4", "T4"}, h);
            }
        });
    };
    for (uint32_t src : {kH9, kH10, kH13, kH14})
    {
        std::string name = H(src) + "->" + H(kH1);
        std::string col = "h" + std::to_string(src + 1) + "_h1_gbps";
        spec.flows.push_back({src, kH1, cfg.start, name, col});
    }
    for (uint32_t dst : {kH11, kH12, kH15, kH16})
    {
        std::string name = H(kH5) + "->" + H(dst);
        std::string col = "h5_h" + std::to_string(dst + 1) + "_gbps";
        spec.flows.push_back({kH5, dst, cfg.start, name, col});
    }
    return Run(cfg, spec);
}

bool
TaggerExperimentHelper::WriteRateFiles(const TaggerExperimentResult& r, const std::string& prefix)
{
    std::ofstream dat(prefix + "-rate.dat");
    dat << "# time_ms";
    for (const TaggerFlowRates& f : r.flows)
    {
        dat << " " << f.column;
    }
    dat << " (mode " << TaggerExperimentModeName(r.mode) << ")\n";
    for (std::size_t k = 0; k < r.sampleMs.size(); ++k)
    {
        dat << r.sampleMs[k];
        for (const TaggerFlowRates& f : r.flows)
        {
            dat << " " << f.gbps[k];
        }
        dat << "\n";
    }

    // gnuplot script with the data inline (as ns3::Gnuplot writes them).
    std::ofstream plt(prefix + "-rate.plt");
    plt << "set terminal png\n"
        << "set output '" << prefix << "-rate.png'\n"
        << "set title '" << r.program << ", mode " << TaggerExperimentModeName(r.mode)
        << " (time scaled: ms instead of s)'\n"
        << "set xlabel 'time (ms)'\n"
        << "set ylabel 'rate (Gbps)'\n"
        << "plot ";
    for (std::size_t i = 0; i < r.flows.size(); ++i)
    {
        plt << (i > 0 ? ", " : "") << "'-' title \"" << r.flows[i].label << "\" with lines";
    }
    plt << "\n";
    for (const TaggerFlowRates& f : r.flows)
    {
        for (std::size_t k = 0; k < r.sampleMs.size(); ++k)
        {
            plt << r.sampleMs[k] << " " << f.gbps[k] << "\n";
        }
        plt << "e\n";
    }
    return bool(dat) && bool(plt);
}

std::string
TaggerExperimentHelper::FormatGbps(double gbps)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(3) << gbps;
    return s.str();
}

void
TaggerExperimentHelper::PrintReport(std::ostream& os, const TaggerExperimentResult& r)
{
    os << r.description << r.counters << "drops by reason:";
    for (uint8_t k = 0; k < kPfcDropReasons; ++k)
    {
        os << " " << static_cast<PfcDropReason>(k) << "=" << r.drops[k];
    }
    os << "\npaths at the end:";
    for (const TaggerFlowRates& f : r.flows)
    {
        os << "\n  " << f.label << ": " << f.path;
    }
    os << "\nrates over the last " << r.tail.GetMicroSeconds() / 1000.0
       << " ms before the stop (Gbps):";
    for (std::size_t i = 0; i < r.flows.size(); ++i)
    {
        os << (i > 0 ? "," : "") << " " << r.flows[i].label << " "
           << FormatGbps(r.flows[i].tailGbps);
    }
    os << "\nlossless bytes still buffered " << r.drain.GetMicroSeconds() / 1000.0
       << " ms after the senders stopped: " << r.undrainedBytes << "\n";
}

void
TaggerExperimentHelper::PrintResultLine(
    std::ostream& os,
    const TaggerExperimentResult& r,
    const std::vector<std::pair<std::string, std::string>>& fields)
{
    os << "RESULT deadlock=" << (r.IsDeadlock() ? "yes" : "no")
       << " lossless_drops=" << r.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW)
       << " pauses=" << r.pauses;
    for (const auto& [key, value] : fields)
    {
        os << " " << key << "=" << value;
    }
    os << " undrained_bytes=" << r.undrainedBytes << " classes=" << r.classes << std::endl;
}

TaggerExperimentCommandLine::TaggerExperimentCommandLine(const std::string& program,
                                                         const std::string& eventOption,
                                                         const std::string& eventHelp,
                                                         const TaggerExperimentConfig& defaults)
    : config(defaults),
      out(program),
      m_program(program),
      m_eventOption(eventOption),
      m_eventHelp(eventHelp),
      m_tagger(0),
      m_eventMs(defaults.event.GetMicroSeconds() / 1000.0),
      m_stopMs(defaults.stop.GetMicroSeconds() / 1000.0),
      m_drainMs(defaults.drain.GetMicroSeconds() / 1000.0)
{
}

void
TaggerExperimentCommandLine::AddValues(CommandLine& cmd)
{
    cmd.AddValue("tagger", "1: Tagger rules (shortest + 1-bounce ELP); 0: plain PFC", m_tagger);
    cmd.AddValue("mode", "pfc, tagger or ttl (overrides --tagger)", m_mode);
    cmd.AddValue("dcqcn", "DCQCN on the RoCE NICs", config.dcqcn);
    cmd.AddValue("xoff", "static PFC Xoff per ingress queue (bytes of shared buffer)", config.xoff);
    cmd.AddValue("xon", "static PFC Xon per ingress queue (bytes)", config.xon);
    cmd.AddValue("rate", "link rate (e.g. 40Gbps)", config.rate);
    cmd.AddValue("delay", "link propagation delay (e.g. 1us)", config.delay);
    cmd.AddValue(m_eventOption, m_eventHelp, m_eventMs);
    cmd.AddValue("stop-ms", "when every sender stops (ms)", m_stopMs);
    cmd.AddValue("drain-ms", "time after the stop to let buffers drain (ms)", m_drainMs);
    cmd.AddValue("rules",
                 "tagger-rules JSON file to install instead of computing rules",
                 config.rulesFile);
    cmd.AddValue("out", "prefix of the .dat and .plt files", out);
    cmd.AddValue("fail-links",
                 "extra link failures (local reroute), e.g. \"L1-S1@2,L3-S2@2.5\" (ms)",
                 config.linkFailures);
    cmd.AddValue("restore-links",
                 "link restorations, e.g. \"L1-S1@4\" (ms)",
                 config.linkRestorations);
    cmd.AddValue("bad-routes",
                 "bad routes: at ms, SW sends HOST's traffic to NEXT, e.g. \"L1:H15:T1@2\"",
                 config.badRoutes);
}

bool
TaggerExperimentCommandLine::Finish(std::ostream& err)
{
    if (m_mode.empty())
    {
        m_mode = m_tagger ? "tagger" : "pfc";
    }
    if (!ParseTaggerExperimentMode(m_mode, config.mode))
    {
        err << m_program << ": --mode must be pfc, tagger or ttl, not '" << m_mode << "'\n";
        return false;
    }
    if (config.xon >= config.xoff)
    {
        err << m_program << ": --xon (" << config.xon << ") must be below --xoff (" << config.xoff
            << ")\n";
        return false;
    }
    if (!(m_eventMs >= 0 && m_stopMs > m_eventMs && m_drainMs > 0))
    {
        err << m_program << ": need 0 <= --" << m_eventOption
            << " < --stop-ms and --drain-ms > 0\n";
        return false;
    }
    config.event = MicroSeconds(uint64_t(m_eventMs * 1000));
    config.stop = MicroSeconds(uint64_t(m_stopMs * 1000));
    config.drain = MicroSeconds(uint64_t(m_drainMs * 1000));
    if (!(config.stop > config.start + config.event))
    {
        err << m_program << ": --" << m_eventOption << " plus the start ("
            << config.start.As(Time::US) << ") must come before --stop-ms\n";
        return false;
    }
    return true;
}

namespace
{
/// Split \p text at \p sep (empty items dropped).
std::vector<std::string>
SplitList(const std::string& text, char sep)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, sep))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

/// Parse "what@ms" into (what, absolute time). \param item the item \param flag its flag
std::pair<std::string, Time>
ParseTimed(const std::string& item, const std::string& flag)
{
    std::size_t at = item.rfind('@');
    NS_ABORT_MSG_IF(at == std::string::npos || at == 0 || at + 1 == item.size(),
                    "--" << flag << ": '" << item << "' is not WHAT@MS");
    double ms = 0;
    try
    {
        std::size_t used = 0;
        ms = std::stod(item.substr(at + 1), &used);
        NS_ABORT_MSG_IF(used != item.size() - at - 1 || ms < 0, "");
    }
    catch (const std::exception&)
    {
        NS_FATAL_ERROR("--" << flag << ": '" << item << "': bad time '" << item.substr(at + 1)
                            << "' (milliseconds >= 0)");
    }
    return {item.substr(0, at), MicroSeconds(uint64_t(ms * 1000))};
}

/// \param net the network \param name a host name \param flag the flag \return its host index
uint32_t
HostIndex(const PfcTopologyHelper& net, const std::string& name, const std::string& flag)
{
    tagger::NodeId v = net.GetTopology().FindNode(name);
    std::vector<tagger::NodeId> hosts = net.GetTopology().GetHosts();
    auto it = std::find(hosts.begin(), hosts.end(), v);
    NS_ABORT_MSG_IF(v == tagger::kNone || it == hosts.end(),
                    "--" << flag << ": '" << name << "' is not a host");
    return uint32_t(it - hosts.begin());
}
} // namespace

void
ScheduleTaggerExperimentEvents(const TaggerExperimentConfig& cfg, PfcTopologyHelper& net)
{
    for (auto [list, flag, fail] :
         {std::make_tuple(cfg.linkFailures, std::string("fail-links"), true),
          std::make_tuple(cfg.linkRestorations, std::string("restore-links"), false)})
    {
        for (const std::string& item : SplitList(list, ','))
        {
            auto [link, at] = ParseTimed(item, flag);
            std::size_t dash = link.find('-');
            NS_ABORT_MSG_IF(dash == std::string::npos,
                            "--" << flag << ": '" << item << "' is not A-B@MS");
            std::string a = link.substr(0, dash);
            std::string b = link.substr(dash + 1);
            if (fail)
            {
                net.ScheduleFailLink(at, a, b);
            }
            else
            {
                net.ScheduleRestoreLink(at, a, b);
            }
        }
    }
    for (const std::string& item : SplitList(cfg.badRoutes, ','))
    {
        auto [route, at] = ParseTimed(item, "bad-routes");
        std::vector<std::string> parts = SplitList(route, ':');
        NS_ABORT_MSG_IF(parts.size() != 3,
                        "--bad-routes: '" << item << "' is not SWITCH:HOST:NEXT@MS");
        net.ScheduleRoute(at, parts[0], HostIndex(net, parts[1], "bad-routes"), parts[2]);
    }
}

} // namespace ns3
