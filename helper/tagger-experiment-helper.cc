/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-experiment-helper.h"

#include "pfc-route-helper.h"
#include "pfc-stats-helper.h"
#include "pfc-topology-helper.h"
#include "rdma-helper.h"
#include "rdma-packet-account.h"
#include "tagger-experiment-command-line.h"
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
    std::function<void(PfcRouteHelper&)> routes;
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

/// Stop every sender (the drain test of the TTL scheme). \param rdma the NICs
void
StopSenders(const RdmaHelper* rdma)
{
    for (uint32_t h = 0; h < rdma->GetNHosts(); ++h)
    {
        rdma->GetNic(h)->StopFlows();
    }
}

/// NS_FATAL_ERROR unless \p cfg can run. \param cfg the set-up \param program for the message
void
CheckConfig(const TaggerExperimentConfig& cfg, const std::string& program)
{
    NS_ABORT_MSG_IF(cfg.xon >= cfg.xoff,
                    program << ": Xon (" << cfg.xon << ") must be below Xoff (" << cfg.xoff << ")");
    NS_ABORT_MSG_IF(!(cfg.stop > cfg.start + cfg.event) || !cfg.drain.IsStrictlyPositive(),
                    program << ": need start + event < stop and drain > 0");
    NS_ABORT_MSG_IF(!cfg.sampleInterval.IsStrictlyPositive(),
                    program << ": the sample interval must be positive");
}

/**
 * One run of a scenario on the testbed, in three stages: Build (the
 * network, the scenario's routes and events), Install (the mode, the NICs,
 * the flows) and Measure (run, then collect the result).
 */
class ExperimentRun
{
  public:
    /// \param cfg the set-up \param spec the scenario (both must outlive the run)
    ExperimentRun(const TaggerExperimentConfig& cfg, const ScenarioSpec& spec)
        : m_cfg(cfg),
          m_spec(spec),
          m_net(tagger::MakeClos(tagger::PaperTestbedClos()))
    {
    }

    /// The testbed with its links, schedulers and static PFC thresholds; routes and events.
    void Build()
    {
        PfcHelper& pfc = m_net.GetPfcHelper();
        pfc.SetDeviceAttribute("DataRate", StringValue(m_cfg.rate));
        pfc.SetChannelAttribute("Delay", StringValue(m_cfg.delay));
        // Round robin between classes, as commodity switches serve lossless
        // queues: with strict priority, the flow on the higher tag would starve
        // the other where they share a link.
        pfc.SetScheduler("ns3::DwrrPfcScheduler");
        // Fixed PFC thresholds per ingress queue, as a switch configured with
        // static Xoff/Xon (with the dynamic default these small scenarios settle
        // into sharing the buffer instead of deadlocking).
        pfc.SetMmuAttribute("ThresholdMode", StringValue("Static"));
        pfc.SetMmuAttribute("StaticXoff", UintegerValue(m_cfg.xoff));
        pfc.SetMmuAttribute("StaticXon", UintegerValue(m_cfg.xon));
        m_net.Build();
        if (m_spec.routes)
        {
            m_spec.routes(m_net.GetRouteHelper());
        }
        ScheduleTaggerExperimentEvents(m_cfg, m_net);
    }

    /// The mode's rules or TTLs on the switches, a RoCE NIC on every host, the flows.
    void Install()
    {
        if (!m_cfg.cc.empty())
        {
            m_rdma.SetCongestionControl(m_cfg.cc);
        }
        m_rdma.SetNicAttribute("Dcqcn", BooleanValue(m_cfg.dcqcn));
        InstallMode();
        m_rdma.Install(m_net);
        const uint64_t huge = 1000000000; // longer than the run: the senders are stopped
        for (const FlowSpec& f : m_spec.flows)
        {
            uint32_t id = m_rdma.AddFlow(f.src, f.dst, huge, f.start, m_dscp);
            if (!f.label.empty())
            {
                m_sampled.emplace_back(f.src, id);
                m_sampledDst.push_back(f.dst);
                TaggerFlowRates rates;
                rates.label = f.label;
                rates.column = f.column;
                m_result.flows.push_back(rates);
            }
        }
    }

    /// Run until the buffers are checked, watched by the oracle and the rate sampler.
    /// \return the measurements
    TaggerExperimentResult Measure()
    {
        m_oracle = CreateObject<PfcDeadlockOracle>();
        m_oracle->AddSwitches(m_net.GetSwitches());
        m_oracle->Start(MicroSeconds(20), m_cfg.stop);
        RateSampler sampler(m_rdma, m_sampled, m_cfg.sampleInterval, m_cfg.stop);
        Simulator::Schedule(m_cfg.sampleInterval, &RateSampler::Sample, &sampler);
        // The drain test of the TTL scheme: stop the senders, then look at the buffers.
        Simulator::Schedule(m_cfg.stop, &StopSenders, &m_rdma);
        RdmaPacketAccount account(m_net, m_rdma); // where every data packet went
        Simulator::Stop(m_cfg.stop + m_cfg.drain);
        Simulator::Run();
        CollectRates(sampler);
        CollectCounters();
        account.Settle(); // runs on after the stop: every result above is read
        std::ostringstream line;
        account.Print(line);
        m_result.accounting = line.str();
        m_result.balanced = account.IsBalanced();
        return m_result;
    }

  private:
    /// Tagger rules (computed or from cfg.rulesFile) or TTL priorities; sets the DSCP and
    /// the number of lossless classes.
    void InstallMode()
    {
        if (m_cfg.mode == TaggerExperimentMode::TAGGER)
        {
            TaggerHelper taggerHelper;
            if (m_cfg.rulesFile.empty())
            {
                taggerHelper.Install(m_net, TaggerHelper::ComputeRules(m_net.GetTopology(), 1));
            }
            else
            {
                taggerHelper.InstallFromJson(m_net, m_cfg.rulesFile);
            }
            m_classes = taggerHelper.GetLosslessTags();
            m_dscp = 1; // hosts start at tag 1
            // ACKs, NAKs and CNPs start at tag 1 too (data arrives rewritten).
            m_rdma.SetNicAttribute("ControlDscp", UintegerValue(m_dscp));
        }
        else if (m_cfg.mode == TaggerExperimentMode::TTL)
        {
            // The longest legal path of these scenarios is a pinned 1-bounce
            // path: 7 switches.  (The library's full 1-bounce ELP also bounces
            // at ToRs, 9 switches: more than the 8 PFC classes allow.)
            uint8_t ttl0 = TtlHelper::Ttl0ForPath(m_spec.ttlPathSwitches);
            TtlHelper::Install(m_net, ttl0);
            m_rdma.SetNicAttribute("Ttl", UintegerValue(ttl0));
            m_classes = ttl0 - 1;
            m_dscp = 0;
        }
    }

    /// \return the set-up, several lines
    std::string Describe() const
    {
        std::ostringstream desc;
        desc << m_spec.title << ", mode " << TaggerExperimentModeName(m_cfg.mode)
             << ", congestion control " << m_rdma.GetCongestionControlName() << ", " << m_cfg.rate
             << ", " << m_cfg.delay << "\n";
        for (const std::string& line : m_spec.setup)
        {
            desc << "  " << line << "\n";
        }
        desc << "  senders stop at " << m_cfg.stop.As(Time::MS) << ", buffers checked at "
             << (m_cfg.stop + m_cfg.drain).As(Time::MS) << " (time scaled to ms)\n"
             << "  lossless classes: " << m_classes << "\n";
        return desc.str();
    }

    /// The set-up, the sampled rates, the bytes acknowledged and the paths. \param sampler it
    void CollectRates(const RateSampler& sampler)
    {
        TaggerExperimentResult& r = m_result;
        r.program = m_spec.program;
        r.mode = m_cfg.mode;
        r.classes = m_classes;
        r.description = Describe();
        r.sampleMs = sampler.times;
        r.tail = m_cfg.tail;
        r.drain = m_cfg.drain;
        auto tailSamples = static_cast<std::size_t>(m_cfg.tail.GetNanoSeconds() /
                                                    m_cfg.sampleInterval.GetNanoSeconds());
        for (std::size_t i = 0; i < r.flows.size(); ++i)
        {
            r.flows[i].gbps = sampler.rates[i];
            r.flows[i].tailGbps = sampler.Tail(i, tailSamples);
            Ptr<RdmaNic> nic = m_rdma.GetNic(m_sampled[i].first);
            r.flows[i].ackedBytes = nic->GetAckedBytes(m_sampled[i].second);
            const RdmaFlowRecord rec = nic->GetFlowRecords().at(m_sampled[i].second);
            r.flows[i].path = TracePath(m_net, m_sampled[i].first, m_sampledDst[i], rec.sport);
        }
    }

    /// Drops, pauses, undrained bytes, the oracle's cycles and the per-switch counters.
    void CollectCounters()
    {
        TaggerExperimentResult& r = m_result;
        PfcStatsHelper stats(m_net);
        for (uint8_t k = 0; k < kPfcDropReasons; ++k)
        {
            r.drops[k] = stats.GetDropCount(static_cast<PfcDropReason>(k));
        }
        r.pauses = stats.GetPauseCount();
        r.undrainedBytes = stats.GetLosslessBytes();
        for (const PfcDeadlockOracle::Deadlock& d : m_oracle->GetDeadlocks())
        {
            std::vector<std::string> cycle;
            for (const PfcDeadlockOracle::Member& m : d.cycle)
            {
                cycle.push_back(MemberName(m_net, m));
            }
            r.cycles.push_back(cycle);
        }
        std::ostringstream counters;
        stats.PrintSwitchCounters(counters);
        m_oracle->PrintSummary(counters);
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
    }

    const TaggerExperimentConfig& m_cfg;                  //!< the set-up
    const ScenarioSpec& m_spec;                           //!< the scenario
    PfcTopologyHelper m_net;                              //!< the testbed
    RdmaHelper m_rdma;                                    //!< the NICs
    Ptr<PfcDeadlockOracle> m_oracle;                      //!< watches for deadlocks (Measure)
    uint8_t m_dscp = 24;                                  //!< the flows' DSCP (plain PFC: class 3)
    uint32_t m_classes = 1;                               //!< lossless classes in use
    std::vector<std::pair<uint32_t, uint32_t>> m_sampled; //!< sampled flows: (host, flow id)
    std::vector<uint32_t> m_sampledDst;                   //!< their receivers
    TaggerExperimentResult m_result;                      //!< filled stage by stage
};

/// Build the testbed, install the mode and the flows, run and measure.
TaggerExperimentResult
Run(const TaggerExperimentConfig& cfg, const ScenarioSpec& spec)
{
    CheckConfig(cfg, spec.program);
    ExperimentRun run(cfg, spec);
    run.Build();
    run.Install();
    TaggerExperimentResult r = run.Measure();
    Simulator::Destroy();
    return r;
}

/**
 * The route change of the pause propagation scenario (Fig. 12): the two
 * links fail (when \p failLinks), then the routes to T1's and T4's hosts
 * take the 1-bounce paths.
 * \param routes the testbed's routes \param failLinks whether L2-T1 and L3-T4 fail
 */
void
BounceRoutes(PfcRouteHelper* routes, bool failLinks)
{
    if (failLinks)
    {
        routes->FailLink("L2", "T1");
        routes->FailLink("L3", "T4");
        // Routing converges around the failures (a local reroute
        // alone may pick an uplink that loops, e.g. L3 -> S2 while S2
        // still sends H15's packets via L3), then the bad routes.
        routes->PopulateRoutes();
    }
    // Routes are per ToR prefix, as in a Clos: the change for H1
    // moves every host under T1, the one for H15 every host under T4
    // (so H5 -> H16 bounces as H5 -> H15 does).  A switch on a path
    // routes the prefix this way for every source (H10 -> H1 bounces
    // from T3 as H9 -> H1 does), and T4's side joins the bounce at
    // S2, so H13, H14 -> H1 bounce too whatever ECMP would pick.
    for (uint32_t h = kH1; h <= kH4; ++h)
    {
        routes->PinPath({"T3", "L3", "S2", "L2", "S1", "L1", "T1"}, h);
        routes->PinPath({"T4", "L4", "S2", "L2", "S1", "L1", "T1"}, h);
    }
    for (uint32_t h = kH13; h <= kH16; ++h)
    {
        routes->PinPath({"T2", "L2", "S1", "L3", "S2", "L4", "T4"}, h);
    }
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
    spec.routes = [](PfcRouteHelper& routes) {
        // Fig. 3: two failed links, and the two 1-bounce paths pinned.
        routes.FailLink("L2", "T1");
        routes.FailLink("L3", "T4");
        routes.PinPath({"T3", "L3", "S2", "L2", "S1", "L1", "T1"}, kH1);
        routes.PinPath({"T2", "L2", "S1", "L3", "S2", "L4", "T4"}, kH13);
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
    spec.routes = [loopAt](PfcRouteHelper& routes) {
        // F1 goes up to L1 (deterministic: no ECMP at T1) and would go on
        // via S1; F2 shares T1->L1, then leaves via the other spine.
        routes.PinPath({"T1", "L1", "S1", "L3", "T4"}, kH15);
        routes.PinPath({"T1", "L1", "S2", "L4", "T4"}, kH16);
        // The bad route: L1 sends H15's packets back down to T1, and T1
        // sends them up to L1 again, until their TTL runs out.
        routes.ScheduleRoute(loopAt, "L1", kH15, "T1");
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
    spec.routes = [bounceAt, failLinks](PfcRouteHelper& routes) {
        Simulator::Schedule(bounceAt - Simulator::Now(), &BounceRoutes, &routes, failLinks);
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
    dat.flush();
    plt.flush();
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
       << " ms after the senders stopped: " << r.undrainedBytes << "\n"
       << r.accounting;
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

} // namespace ns3
