/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-loss-experiment.h"

#include "pfc-bounce-tracker.h"
#include "pfc-stats-helper.h"
#include "pfc-topology-helper.h"
#include "rdma-helper.h"
#include "rdma-packet-account.h"
#include "tagger-command-line.h"
#include "tagger-helper.h"

#include "ns3/abort.h"
#include "ns3/core-module.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-header.h"
#include "ns3/rdma-workload.h"
#include "ns3/roce-header.h"
#include "ns3/tagger-bounce-model.h"
#include "ns3/tagger-topology-generators.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TaggerLossExperiment");

namespace
{

/// First UDP source port the senders use (as RdmaNic), and how many before wrapping.
constexpr uint32_t kFirstSport = 49152;
/// Ports from kFirstSport to 65535.
constexpr uint32_t kSports = 65536 - kFirstSport;

/// \param k port count \param n senders \return their host indices (see the class comment)
std::vector<uint32_t>
SenderHosts(uint32_t k, uint32_t n)
{
    uint32_t tors = k * k / 2; // k pods of k/2 ToRs
    std::vector<uint32_t> hosts;
    for (uint32_t i = 0; i < n; ++i)
    {
        hosts.push_back((1 + i % (tors - 1)) * (k / 2) + i / (tors - 1));
    }
    return hosts;
}

/**
 * \param topo topology \param failed failed link indices \param dst a host
 * \param srcs hosts \return whether every host of \p srcs reaches \p dst over links up
 */
bool
AllReach(const tagger::Topology& topo,
         const std::vector<uint32_t>& failed,
         tagger::NodeId dst,
         const std::vector<tagger::NodeId>& srcs)
{
    std::vector<bool> down(topo.GetNPorts(), false);
    for (uint32_t l : failed)
    {
        const tagger::TopoLink& link = topo.GetLinks()[l];
        down[topo.GetPortIndex(link.a.node, link.a.port)] = true;
    }
    std::vector<bool> seen(topo.GetNNodes(), false);
    std::deque<tagger::NodeId> queue(1, dst);
    seen[dst] = true;
    while (!queue.empty())
    {
        tagger::NodeId u = queue.front();
        queue.pop_front();
        for (tagger::PortNo p = 0; p < topo.GetNode(u).ports; ++p)
        {
            tagger::PortRef peer = topo.GetPeer(u, p);
            if (peer.node == tagger::kNone || seen[peer.node] || down[topo.GetPortIndex(u, p)] ||
                down[topo.GetPortIndex(peer.node, peer.port)])
            {
                continue;
            }
            seen[peer.node] = true;
            if (topo.IsForwarder(peer.node))
            {
                queue.push_back(peer.node);
            }
        }
    }
    return std::all_of(srcs.begin(), srcs.end(), [&seen](tagger::NodeId s) { return seen[s]; });
}

/// Independent counts from trace sources: data packets entering the network, lossy drops.
struct TraceCounts
{
    std::vector<std::vector<bool>> fromSender; //!< per node, per switch port: a sender's link
    uint64_t dataPackets{0};                   //!< forwarded by a first switch
    uint64_t lossyDrops{0};                    //!< LOSSY_OVERFLOW drops

    /// Forward sink. \param c counts \param node forwarder \param payload payload
    /// \param ip header \param in ingress port \param out egress port
    static void Forwarded(TraceCounts* c,
                          tagger::NodeId node,
                          Ptr<const Packet> payload,
                          const Ipv4Header& ip,
                          uint32_t in,
                          uint32_t out)
    {
        c->dataPackets += c->fromSender[node][in] ? 1 : 0;
    }

    /// Drop sink. \param c counts \param frame frame \param in port \param reason reason
    static void Dropped(TraceCounts* c, Ptr<const Packet> frame, uint32_t in, PfcDropReason reason)
    {
        c->lossyDrops += reason == PfcDropReason::LOSSY_OVERFLOW ? 1 : 0;
    }
};

/// One run: the network, the NICs, the observers.
class LossRun
{
  public:
    /// \param cfg the set-up (outlives the run)
    explicit LossRun(const TaggerLossConfig& cfg);
    /// Failures, network, mode, observers.
    void Build();
    /// Generate the flows and start the routable ones.
    void AddTraffic();
    /// Run and collect. \return the result
    TaggerLossResult Measure();

  private:
    /// Stop once the arrivals are over and every flow is done; progress lines.
    void Check();
    /// A sender's DataSent trace: stop at cfg.maxSent. \param flowId flow \param packet number
    /// \param resent sent before
    void DataSent(uint32_t flowId, uint32_t packet, bool resent);
    /**
     * Draw failures number \p draw and apply them (FailLink); keep them when
     * every sender reaches the destination over links up and has a routable
     * port among its first 256, else restore the links.
     * \param draw draw number \param srcs the senders' node ids \return whether kept
     */
    bool DrawFailures(uint64_t draw, const std::vector<tagger::NodeId>& srcs);
    /**
     * \param src sender \param sport UDP source port \param bounces set to the data's bounces
     * \return whether data (to host 0) and ACKs (back, same ports) arrive over m_routes
     */
    bool Routable(uint32_t src, uint16_t sport, uint32_t& bounces);
    /**
     * The sender's next port (from 49152 up, wrapping) that is Routable; the
     * ports skipped are counted.  \param src sender \param bounces set to the bounces
     * \return the port
     */
    uint16_t PickPort(uint32_t src, uint32_t& bounces);
    /// Tagger rules or no lossless class, per mode.
    void InstallMode();
    /// Connect TraceCounts to every switch.
    void ConnectCounters();
    /// \param records flow records \return FCT percentiles 50, 95, 99 (us)
    static std::array<double, 3> FctPercentiles(const std::vector<RdmaFlowRecord>& records);

    const TaggerLossConfig& m_cfg;               //!< set-up
    tagger::Topology m_topo;                     //!< FatTree(k)
    std::vector<uint32_t> m_senders;             //!< sender host indices
    std::vector<uint32_t> m_failed;              //!< failed links, in failure order
    PfcTopologyHelper m_net;                     //!< the network
    RdmaHelper m_rdma;                           //!< the NICs
    std::unique_ptr<PfcBounceTracker> m_bounces; //!< measured bounces
    Ptr<PfcDeadlockOracle> m_oracle;             //!< deadlock watch
    TraceCounts m_counts;                        //!< independent counts
    TaggerLossResult m_result;                   //!< what is measured
    tagger::TableRoutes m_routes;                //!< the data plane's routes after the failures
    std::vector<uint32_t> m_nextPort;            //!< per host: next port offset to try
    uint8_t m_dscp{24};                          //!< DSCP of the flows (class 3; Tagger: tag 1)
    std::map<std::pair<uint32_t, uint16_t>, uint32_t>
        m_modelBounces;                                   //!< (src IP, sport) -> bounces
    std::chrono::steady_clock::time_point m_wallStart;    //!< for progress lines
    std::chrono::steady_clock::time_point m_lastProgress; //!< the last progress line
    Time m_checkPeriod;                                   //!< how often Check runs
    EventId m_checkEvent;                                 //!< the next Check
    std::unique_ptr<RdmaPacketAccount> m_account;         //!< where every data packet went
    uint64_t m_sent{0};                                   //!< data packets sent (maxSent)
};

LossRun::LossRun(const TaggerLossConfig& cfg)
    : m_cfg(cfg),
      m_topo(tagger::MakeFatTree(cfg.k)),
      m_senders(SenderHosts(cfg.k, cfg.senders)),
      m_net(m_topo)
{
}

void
LossRun::Build()
{
    std::vector<tagger::NodeId> hosts = m_topo.GetHosts();
    std::vector<tagger::NodeId> srcs;
    for (uint32_t s : m_senders)
    {
        srcs.push_back(hosts[s]);
    }
    PfcHelper& pfc = m_net.GetPfcHelper();
    pfc.SetDeviceAttribute("DataRate", StringValue(m_cfg.rate));
    pfc.SetChannelAttribute("Delay", StringValue(m_cfg.delay));
    pfc.SetScheduler("ns3::DwrrPfcScheduler"); // equal weights: lossless and lossy alike
    if (m_cfg.lossyPool > 0)
    {
        pfc.SetMmuAttribute("LossyPoolSize", UintegerValue(m_cfg.lossyPool));
    }
    m_net.Build();
    m_net.GetRouteHelper().AssignStreams(0);
    for (uint64_t draw = 0; !DrawFailures(draw, srcs); ++draw)
    {
        if (draw == 999)
        {
            std::ostringstream why;
            why << "1000 draws of link failures at rate " << m_cfg.failureRate
                << " all cut a sender off from host 0 (or left it no routable port): a "
                   "Table VI cell needs every sender connected; lower --failure-rate";
            PfcConfigurationError(why.str());
        }
        ++m_result.redraws;
    }
    m_result.failedLinks = m_failed.size();
    InstallMode();
    if (!m_cfg.cc.empty())
    {
        m_rdma.SetCongestionControl(m_cfg.cc);
    }
    m_rdma.SetNicAttribute("Dcqcn", BooleanValue(m_cfg.dcqcn));
    m_rdma.SetNicAttribute("RetransmitTimeout", TimeValue(m_cfg.rto));
    m_rdma.SetNicAttribute("MaxBytesInFlight", UintegerValue(m_cfg.maxInflight));
    m_rdma.Install(m_net);
    m_account = std::make_unique<RdmaPacketAccount>(m_net, m_rdma);
    if (m_cfg.traces)
    {
        m_bounces = std::make_unique<PfcBounceTracker>(m_net);
        ConnectCounters();
        m_result.traced = true;
    }
    m_oracle = CreateObject<PfcDeadlockOracle>();
    m_oracle->AddSwitches(m_net.GetSwitches());
}

void
LossRun::InstallMode()
{
    if (m_cfg.mode == TaggerLossMode::ROCE)
    {
        for (uint32_t i = 0; i < m_net.GetSwitches().GetN(); ++i)
        {
            tagger::NodeId v = m_topo.GetSwitches()[i];
            m_net.GetSwitch(v)->GetMmu()->SetAttribute("LosslessClasses", UintegerValue(0));
        }
        return;
    }
    uint32_t bounces = m_cfg.mode == TaggerLossMode::TAGGER1 ? 0 : 1;
    TaggerHelper tagger;
    tagger.Install(m_net, TaggerHelper::ComputeRules(m_topo, bounces));
    m_dscp = 1; // hosts start at tag 1, ACKs and CNPs too
    m_rdma.SetNicAttribute("ControlDscp", UintegerValue(m_dscp));
}

void
LossRun::ConnectCounters()
{
    m_counts.fromSender.assign(m_topo.GetNNodes(), {});
    std::vector<bool> isSender(m_topo.GetNNodes(), false);
    for (uint32_t s : m_senders)
    {
        isSender[m_topo.GetHosts()[s]] = true;
    }
    for (tagger::NodeId v : m_topo.GetSwitches())
    {
        Ptr<PfcSwitchNetDevice> sw = m_net.GetSwitch(v);
        m_counts.fromSender[v].assign(sw->GetNPorts(), false);
        for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
        {
            tagger::NodeId peer = m_topo.GetPeer(v, p).node;
            if (peer != tagger::kNone && isSender[peer])
            {
                m_counts.fromSender[v][m_net.GetSwitchPort(v, p)] = true;
            }
        }
        sw->TraceConnectWithoutContext("Forward",
                                       MakeBoundCallback(&TraceCounts::Forwarded, &m_counts, v));
        sw->TraceConnectWithoutContext("Drop", MakeBoundCallback(&TraceCounts::Dropped, &m_counts));
    }
}

bool
LossRun::DrawFailures(uint64_t draw, const std::vector<tagger::NodeId>& srcs)
{
    m_failed =
        tagger::DrawLinkFailures(m_topo, m_cfg.failureRate, tagger::HashMix(m_cfg.seed, draw));
    if (!AllReach(m_topo, m_failed, m_topo.GetHosts()[0], srcs))
    {
        return false;
    }
    PfcRouteHelper& routes = m_net.GetRouteHelper();
    for (uint32_t l : m_failed)
    {
        const tagger::TopoLink& link = m_topo.GetLinks()[l];
        routes.FailLink(m_topo.GetNode(link.a.node).name, m_topo.GetNode(link.b.node).name);
    }
    m_routes = routes.ExportRoutes();
    for (uint32_t s : m_senders)
    {
        uint32_t port = 0;
        uint32_t bounces = 0;
        while (port < 256 && !Routable(s, uint16_t(kFirstSport + port), bounces))
        {
            ++port;
        }
        if (port == 256)
        {
            for (uint32_t l : m_failed)
            {
                const tagger::TopoLink& link = m_topo.GetLinks()[l];
                routes.RestoreLink(m_topo.GetNode(link.a.node).name,
                                   m_topo.GetNode(link.b.node).name);
            }
            return false;
        }
    }
    return true;
}

bool
LossRun::Routable(uint32_t src, uint16_t sport, uint32_t& bounces)
{
    const std::vector<tagger::NodeId> hosts = m_topo.GetHosts();
    Ipv4Address a = m_net.GetHostAddress(src);
    Ipv4Address b = m_net.GetHostAddress(0);
    const PfcRouteHelper& r = m_net.GetRouteHelper();
    tagger::FlowWalk data = tagger::WalkFlow(m_topo,
                                             m_routes,
                                             hosts[src],
                                             hosts[0],
                                             r.GetFlowChooser(a, b, 17, sport, kRoceUdpPort));
    tagger::FlowWalk ack = tagger::WalkFlow(m_topo,
                                            m_routes,
                                            hosts[0],
                                            hosts[src],
                                            r.GetFlowChooser(b, a, 17, sport, kRoceUdpPort));
    bounces = data.bounces;
    return data.outcome == tagger::WalkOutcome::DELIVERED &&
           ack.outcome == tagger::WalkOutcome::DELIVERED;
}

uint16_t
LossRun::PickPort(uint32_t src, uint32_t& bounces)
{
    for (uint32_t tries = 0; tries < kSports; ++tries)
    {
        uint16_t sport = uint16_t(kFirstSport + m_nextPort[src]++ % kSports);
        if (Routable(src, sport, bounces))
        {
            return sport;
        }
        ++m_result.skippedPorts;
    }
    NS_FATAL_ERROR("TaggerLossExperiment: no routable UDP port for host " << src);
}

void
LossRun::AddTraffic()
{
    FlowSizeCdf cdf = FlowSizeCdf::Load(m_cfg.cdf);
    RdmaFlowGenerator generator(cdf);
    generator.AssignStreams(100);
    generator.SetFixedOffer(m_cfg.fixedOffer);
    DataRate link(m_cfg.rate);
    UintegerValue payload;
    m_rdma.GetNic(0)->GetAttribute("PayloadSize", payload);
    // The load counts wire bytes (headers, FCS, preamble and gap): the flows' payload offers
    // load * payload / frame of the link, and packets full frames take this long at that load.
    double frame = m_rdma.GetNic(0)->GetDataFrameWireBytes();
    double payloadLoad = m_cfg.load * payload.Get() / frame;
    m_result.arrivals =
        Seconds(double(m_cfg.packets) * frame * 8 / (m_cfg.load * link.GetBitRate()));
    std::vector<GeneratedFlow> flows = generator.Generate(
        m_senders,
        {0},
        m_cfg.synchronized ? RdmaFlowGenerator::SYNCHRONIZED_INCAST : RdmaFlowGenerator::INCAST,
        link,
        payloadLoad,
        MicroSeconds(10),
        m_result.arrivals);
    if (flows.empty())
    {
        // About packets * payload / mean size flows arrive: fewer than one.
        std::ostringstream why;
        why << "no flow arrives within the " << m_result.arrivals.As(Time::MS)
            << " of arrivals that " << m_cfg.packets << " packets make at load " << m_cfg.load
            << " (about " << double(m_cfg.packets) * payload.Get() / cdf.GetMean()
            << " flows expected, of " << cdf.GetMean()
            << " bytes on average): a loss rate needs packets; raise --packets";
        PfcConfigurationError(why.str());
    }
    // The realized load: each flow's data frames on the wire (full frames
    // and a shorter last one) over the link's capacity in the window.
    const double overhead = frame - payload.Get();
    double wireBytes = 0;
    for (const GeneratedFlow& f : flows)
    {
        const uint64_t full = f.bytes / payload.Get();
        const uint64_t rest = f.bytes % payload.Get();
        wireBytes += full * frame + (rest > 0 ? rest + overhead : 0);
    }
    m_result.offeredLoad =
        wireBytes * 8 / (double(link.GetBitRate()) * m_result.arrivals.GetSeconds());
    m_nextPort.assign(m_net.GetNHosts(), 0);
    for (const GeneratedFlow& f : flows)
    {
        uint32_t bounces = 0;
        uint16_t sport = PickPort(f.src, bounces);
        m_rdma.AddFlow(f.src, f.dst, f.bytes, f.start, m_dscp, sport);
        ++m_result.flows;
        ++m_result.modelBounces[std::min<uint32_t>(bounces, 2)];
        m_modelBounces[{m_net.GetHostAddress(f.src).Get(), sport}] = bounces;
    }
}

void
LossRun::Check()
{
    if (Simulator::Now() > m_result.arrivals && m_rdma.GetActiveFlows() == 0)
    {
        m_result.stopped = "no";
        Simulator::Stop();
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    if (m_cfg.progress && now - m_lastProgress >= std::chrono::seconds(1))
    {
        m_lastProgress = now; // at most one line a second of wall-clock time
        double wall = std::chrono::duration<double>(now - m_wallStart).count();
        std::cerr << "tagger-web-search-loss: " << Simulator::Now().As(Time::MS) << " of "
                  << m_result.arrivals.As(Time::MS) << " arrivals, " << m_rdma.GetActiveFlows()
                  << " flows active, " << std::fixed << std::setprecision(0) << wall << " s wall"
                  << std::endl;
    }
    m_checkEvent = Simulator::Schedule(m_checkPeriod, &LossRun::Check, this);
}

void
LossRun::DataSent(uint32_t /* flowId */, uint32_t /* packet */, bool /* resent */)
{
    if (++m_sent == m_cfg.maxSent)
    {
        m_result.stopped = "sent";
        Simulator::Stop(); // after this event: exactly maxSent sent
    }
}

TaggerLossResult
LossRun::Measure()
{
    Time stop =
        m_cfg.stop.IsStrictlyPositive() ? m_cfg.stop : m_result.arrivals * 3 + MilliSeconds(50);
    m_oracle->Start(MicroSeconds(10), stop);
    m_wallStart = std::chrono::steady_clock::now();
    m_lastProgress = m_wallStart;
    // Every 10 ms of simulated time, or 1,000 times over a long arrival window.
    m_checkPeriod = std::max(MilliSeconds(10), m_result.arrivals / 1000);
    m_checkEvent = Simulator::Schedule(MilliSeconds(1), &LossRun::Check, this);
    if (m_cfg.maxSent > 0)
    {
        for (uint32_t s : m_senders)
        {
            m_rdma.GetNic(s)->TraceConnectWithoutContext("DataSent",
                                                         MakeCallback(&LossRun::DataSent, this));
        }
    }
    m_result.stopped = "time"; // unless Check or DataSent says otherwise
    Simulator::Stop(stop);
    Simulator::Run();
    // Settle (below) runs on with the flows stopped: a Check then would see no
    // flow active and overwrite why the run ended.
    m_checkEvent.Cancel();
    m_result.end = Simulator::Now();
    m_result.congestionControl = m_rdma.GetCongestionControlName();
    PfcStatsHelper stats(m_net);
    for (uint32_t s : m_senders)
    {
        m_result.dataPackets += m_rdma.GetNic(s)->GetDataPacketsSent();
        m_result.retransmitted += m_rdma.GetNic(s)->GetRetransmittedPackets();
        m_result.timeouts += m_rdma.GetNic(s)->GetTimeouts();
    }
    m_result.lossyDrops = stats.GetDropCount(PfcDropReason::LOSSY_OVERFLOW);
    m_result.losslessDrops = stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
    m_result.otherDrops = stats.GetDropCount() - m_result.lossyDrops - m_result.losslessDrops;
    m_result.traceDataPackets = m_counts.dataPackets;
    m_result.traceLossyDrops = m_counts.lossyDrops;
    m_result.pauses = stats.GetPauseCount();
    m_result.deadlock = m_oracle->HasDeadlock();
    std::vector<RdmaFlowRecord> records = m_rdma.GetFlowRecords();
    for (const RdmaFlowRecord& rec : records)
    {
        m_result.completed += rec.finished ? 1 : 0;
        if (!m_bounces)
        {
            continue;
        }
        uint32_t b = m_bounces->GetBounces(rec.src, rec.dst, rec.sport, kRoceUdpPort);
        ++m_result.measuredBounces[std::min<uint32_t>(b, 2)];
        bool seen = m_bounces->HasFlow(rec.src, rec.dst, rec.sport, kRoceUdpPort);
        m_result.bounceMismatches += seen && b != m_modelBounces[{rec.src.Get(), rec.sport}];
    }
    m_result.fctUs = FctPercentiles(records);
    m_account->Settle(); // runs on after the stop: every result above is read
    std::ostringstream line;
    m_account->Print(line);
    m_result.accounting = line.str();
    m_result.balanced = m_account->IsBalanced();
    return m_result;
}

std::array<double, 3>
LossRun::FctPercentiles(const std::vector<RdmaFlowRecord>& records)
{
    std::vector<double> fct;
    for (const RdmaFlowRecord& r : records)
    {
        if (r.finished)
        {
            fct.push_back(r.fct.GetMicroSeconds());
        }
    }
    std::array<double, 3> p{};
    if (fct.empty())
    {
        return p;
    }
    std::sort(fct.begin(), fct.end());
    const double q[] = {0.5, 0.95, 0.99};
    for (int i = 0; i < 3; ++i)
    {
        p[i] = fct[std::min<std::size_t>(fct.size() - 1, std::size_t(q[i] * fct.size()))];
    }
    return p;
}

} // namespace

double
TaggerLossResult::GetLossRate() const
{
    return dataPackets == 0 ? 0.0 : double(lossyDrops) / double(dataPackets);
}

double
TaggerLossResult::GetArrivalsSimulated() const
{
    return arrivals.IsStrictlyPositive() ? std::min(1.0, end.GetSeconds() / arrivals.GetSeconds())
                                         : 1.0;
}

double
TaggerLossResult::GetLossUpper95() const
{
    return dataPackets == 0 ? 1.0 : std::min(1.0, 3.0 / double(dataPackets));
}

TaggerLossResult
TaggerLossExperiment::Run(const TaggerLossConfig& cfg)
{
    NS_ABORT_MSG_IF(!(cfg.failureRate >= 0 && cfg.failureRate < 1),
                    "TaggerLossExperiment: failure rate " << cfg.failureRate
                                                          << " is not within [0, 1)");
    NS_ABORT_MSG_IF(!HasSenders(cfg.k, cfg.senders),
                    "TaggerLossExperiment: FatTree(" << cfg.k << ") has no " << cfg.senders
                                                     << " hosts outside the destination's ToR");
    LossRun run(cfg);
    run.Build();
    run.AddTraffic();
    TaggerLossResult r = run.Measure();
    Simulator::Destroy();
    return r;
}

bool
TaggerLossExperiment::HasSenders(uint32_t k, uint32_t senders)
{
    return senders >= 1 && uint64_t(senders) <= uint64_t(k) * k * k / 4 - k / 2;
}

void
TaggerLossExperiment::FinishFlags(TaggerCommandLine& cmd,
                                  TaggerLossConfig& cfg,
                                  const std::string& mode,
                                  const std::string& workload,
                                  double stopMs)
{
    if (cfg.k % 2 != 0)
    {
        cmd.Fail("k", std::to_string(cfg.k), "must be even");
    }
    if (cfg.failureRate >= 1)
    {
        cmd.Fail("failure-rate",
                 TaggerCommandLine::FormatNumber(cfg.failureRate),
                 "must be below 1");
    }
    if (!HasSenders(cfg.k, cfg.senders))
    {
        cmd.Fail("senders",
                 std::to_string(cfg.senders),
                 "more than the hosts outside the destination's ToR");
    }
    if (cfg.load <= 0)
    {
        cmd.Fail("load", TaggerCommandLine::FormatNumber(cfg.load), "must be above 0");
    }
    if (cfg.lossyPool > 0 && cfg.lossyPool < 10000)
    {
        cmd.Fail("lossy-pool", std::to_string(cfg.lossyPool), "below 10000 bytes");
    }
    cfg.mode = mode == "roce"      ? TaggerLossMode::ROCE
               : mode == "tagger1" ? TaggerLossMode::TAGGER1
                                   : TaggerLossMode::TAGGER2;
    cfg.cdf = FindTaggerDataFile(workload + ".cdf");
    const FlowSizeCdf cdf = FlowSizeCdf::Load(cfg.cdf);
    cmd.CheckFlowBytes("workload", workload, cdf.Quantile(1), "its largest flow size");
    // The arrival window the packets take at the load (as AddTraffic computes
    // it, with full frames), and the flows it brings.
    const uint64_t payload = RdmaNic::GetMaxFlowBytes() / RdmaNic::kMaxFlowPackets;
    const double frameBits = 8.0 * EthernetWireBytes(uint32_t(payload) + RdmaNic::kRoceHeaderBytes +
                                                     kEthernetHeaderSize);
    const double window =
        double(cfg.packets) * frameBits / (cfg.load * double(DataRate(cfg.rate).GetBitRate()));
    if (window > kMaxArrivalSeconds)
    {
        cmd.Fail("packets",
                 std::to_string(cfg.packets),
                 "at --load=" + TaggerCommandLine::FormatNumber(cfg.load) +
                     " and --rate=" + cfg.rate + " the arrivals would take " +
                     TaggerCommandLine::FormatNumber(window) +
                     " s of simulated time, more than the " +
                     TaggerCommandLine::FormatNumber(kMaxArrivalSeconds) +
                     " s a cell may (raise the load or the rate, or lower the packets)");
    }
    const tagger::Topology topo = tagger::MakeFatTree(cfg.k);
    cmd.CheckMemory("k", std::to_string(cfg.k), topo, 0);
    cmd.CheckMemory("packets",
                    std::to_string(cfg.packets),
                    topo,
                    uint64_t(double(cfg.packets) * payload / cdf.GetMean()) + 1);
    cfg.stop = TaggerCommandLine::MilliSecondsToTime(stopMs);
}

std::string
TaggerLossExperiment::GetModeName(TaggerLossMode mode)
{
    return mode == TaggerLossMode::ROCE      ? "roce"
           : mode == TaggerLossMode::TAGGER1 ? "tagger1"
                                             : "tagger2";
}

void
TaggerLossExperiment::PrintReport(std::ostream& os,
                                  const TaggerLossConfig& cfg,
                                  const TaggerLossResult& r)
{
    os << "FatTree(" << cfg.k << "), link failure rate " << cfg.failureRate << " (" << r.failedLinks
       << " links down, " << r.redraws << " draws refused), " << cfg.senders
       << "-to-1 to host 0, mode " << GetModeName(cfg.mode) << ", " << cfg.cdf << " at load "
       << cfg.load << ", " << cfg.rate << ", " << cfg.delay << ", congestion control "
       << r.congestionControl << ", DWRR equal weights, go-back-N, lossy pool "
       << (cfg.lossyPool ? std::to_string(cfg.lossyPool) + " B" : "default") << ", seed "
       << cfg.seed << "\n";
    os << "arrivals: " << (cfg.synchronized ? "synchronized incasts" : "Poisson") << ", offer "
       << (cfg.fixedOffer ? "fixed" : "drawn") << ", realized offered load " << r.offeredLoad
       << "; RTO " << cfg.rto.As(Time::MS) << ", bytes in flight per QP "
       << (cfg.maxInflight ? std::to_string(cfg.maxInflight) : "unlimited") << "\n";
    os << "flows: " << r.flows << " started, " << r.completed << " completed; " << r.skippedPorts
       << " UDP source ports refused (data or ACKs would loop or find no route)\n";
    os << "bounces of the flows, model walk over the data-plane routes: 0: " << r.modelBounces[0]
       << ", 1: " << r.modelBounces[1] << ", 2+: " << r.modelBounces[2];
    if (r.traced)
    {
        os << "; measured: 0: " << r.measuredBounces[0] << ", 1: " << r.measuredBounces[1]
           << ", 2+: " << r.measuredBounces[2] << " (" << r.bounceMismatches << " flows differ)\n";
    }
    else
    {
        os << "; not measured (traces off)\n";
    }
    os << "data packets sent " << r.dataPackets;
    if (r.traced)
    {
        os << " (first switches forwarded " << r.traceDataPackets << ")";
    }
    os << "; sent again " << r.retransmitted << ", after " << r.timeouts
       << " timeouts and the NAKs; drops: lossy " << r.lossyDrops;
    if (r.traced)
    {
        os << " (Drop traces " << r.traceLossyDrops << ")";
    }
    os << ", lossless " << r.losslessDrops << ", other " << r.otherDrops << "\n";
    if (r.lossyDrops == 0)
    {
        os << "loss rate: 0 of " << r.dataPackets
           << " packets (95 % upper bound min(1, 3/N) = " << r.GetLossUpper95() << ")\n";
    }
    else
    {
        os << "loss rate: " << r.GetLossRate() << "\n";
    }
    os << "pauses " << r.pauses << ", deadlock " << (r.deadlock ? "yes" : "no") << ", FCT p50 "
       << r.fctUs[0] << " us, p95 " << r.fctUs[1] << " us, p99 " << r.fctUs[2]
       << " us; arrivals over " << r.arrivals.As(Time::MS) << ", ended at " << r.end.As(Time::MS)
       << "\n";
    if (r.stopped != "no")
    {
        os << "stopped "
           << (r.stopped == "sent"
                   ? "at --max-sent=" + std::to_string(cfg.maxSent) + " data packets"
                   : std::string("at the simulated-time limit"))
           << " with " << 100 * r.GetArrivalsSimulated() << " % of the arrivals simulated and "
           << r.flows - r.completed
           << " flows unfinished: the figures are those of the run so far\n";
    }
    os << r.accounting;
}

std::string
TaggerLossExperiment::FormatResult(const TaggerLossResult& r)
{
    double flows = std::max<uint32_t>(r.flows, 1);
    // Measured in the data plane when traced; else the model walk's, over the same flows.
    const std::array<uint64_t, 3>& bounces = r.traced ? r.measuredBounces : r.modelBounces;
    std::ostringstream os;
    os << "RESULT loss_rate=" << r.GetLossRate() << " packets=" << r.dataPackets
       << " lossy_drops=" << r.lossyDrops << " lossless_drops=" << r.losslessDrops
       << " deadlock=" << (r.deadlock ? "yes" : "no") << " bounced1=" << bounces[1] / flows
       << " bounced2plus=" << bounces[2] / flows << " other_drops=" << r.otherDrops
       << " flows=" << r.flows << " skipped_ports=" << r.skippedPorts
       << " loss_upper95=" << (r.lossyDrops ? r.GetLossRate() : r.GetLossUpper95())
       << " fct_p99_us=" << r.fctUs[2] << " resent=" << r.retransmitted
       << " timeouts=" << r.timeouts << " offered_load=" << r.offeredLoad
       << " bounces=" << (r.traced ? "measured" : "model") << " stopped=" << r.stopped
       << " arrivals_simulated=" << r.GetArrivalsSimulated()
       << " unfinished=" << r.flows - r.completed;
    return os.str();
}

} // namespace ns3
