/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "itsy-experiment.h"

#include "itsy-helper.h"
#include "pfc-topology-helper.h"
#include "rdma-helper.h"
#include "rdma-packet-account.h"
#include "tagger-helper.h"

#include "ns3/boolean.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/pointer.h"
#include "ns3/rdma-rx-buffer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <random>
#include <set>
#include <sstream>

namespace ns3
{

namespace
{

/// A queue (node, port, class).
typedef std::tuple<uint32_t, uint32_t, uint8_t> Queue;

/// One flow of a scenario.
struct FlowPlan
{
    uint32_t src;                  //!< host index (0 = H1)
    uint32_t dst;                  //!< host index
    std::vector<std::string> path; //!< pinned switches (empty: ECMP routes)
    Time start;                    //!< start
    uint64_t bytes;                //!< size
};

/// One run: the network, the flows, the oracle, ITSY and what they saw.
class ItsyRun
{
  public:
    /// \param cfg the configuration
    explicit ItsyRun(const ItsyExperimentConfig& cfg)
        : m_cfg(cfg),
          m_net(tagger::MakeFatTree(4))
    {
    }

    /// Build, run, collect. \return the result
    ItsyExperimentResult Run();

  private:
    /// The pod-0 loop flows. \param loop which of the four (bit i: flow i)
    void LoopFlows(uint32_t loop);
    /// The scenario's flows and slow links (before Build's initialisation).
    void Scenario();
    /// Random failures and flows (fuzz).
    void Fuzz();
    /// Set a host link's rate. \param host host index \param rate rate
    void HostRate(uint32_t host, const std::string& rate);
    /// transient: H16's NIC drains at the link rate again.
    void NicRecovers();
    /// Pcap, ITSY, the watchdogs, the oracle.
    void Instrument();
    /// Sample the flows' delivered bytes.
    void Sample();
    /// A declaration: judge it (ItsyHelper::Confirms). \param d it
    void Declared(const ItsyDetector::Declaration& d);
    /// The oracle's cycle queues now. \param cycles out: each cycle's queues \return union
    std::set<Queue> OracleNow(std::vector<std::set<Queue>>* cycles);
    /// Count episodes and false negatives at the end.
    void Finish();

    ItsyExperimentConfig m_cfg;                //!< configuration
    PfcTopologyHelper m_net;                   //!< the fat tree
    RdmaHelper m_rdma;                         //!< RoCE NICs
    ItsyHelper m_itsy;                         //!< ITSY
    TaggerHelper m_tagger;                     //!< Tagger (when on)
    Ptr<PfcDeadlockOracle> m_oracle;           //!< oracle
    std::vector<FlowPlan> m_plan;              //!< flows
    std::vector<Ptr<PfcWatchdog>> m_watchdogs; //!< watchdogs (recovery watchdog)
    std::vector<uint64_t> m_lastBytes;         //!< per flow: bytes at the last sample
    Ptr<RdmaRxBuffer> m_slowNic;               //!< storm, transient: H16's receive buffer
    ItsyExperimentResult m_r;                  //!< result
};

void
ItsyRun::HostRate(uint32_t host, const std::string& rate)
{
    Ptr<PfcNetDevice> dev = m_net.GetHostDevice(host);
    dev->SetAttribute("DataRate", StringValue(rate));
    dev->GetPeer()->SetAttribute("DataRate", StringValue(rate));
}

void
ItsyRun::LoopFlows(uint32_t loop)
{
    // Each loop link carries two flows: T1->L1 (0, 3), L1->T2 (0, 1),
    // T2->L2 (1, 2), L2->T1 (2, 3).  Flows 1 and 3 bounce (down, then up).
    const std::vector<FlowPlan> all = {
        {0, 2, {"T1", "L1", "T2"}, MicroSeconds(10), 0},
        {4, 1, {"T3", "L3", "S1", "L1", "T2", "L2", "T1"}, MicroSeconds(10), 0},
        {2, 0, {"T2", "L2", "T1"}, MicroSeconds(10), 0},
        {5, 3, {"T3", "L4", "S3", "L2", "T1", "L1", "T2"}, MicroSeconds(10), 0},
    };
    for (uint32_t i = 0; i < all.size(); ++i)
    {
        if (loop & (1u << i))
        {
            m_plan.push_back(all[i]);
        }
    }
}

void
ItsyRun::Scenario()
{
    const std::string& s = m_cfg.scenario;
    if (s == "no-loop")
    {
        m_plan.push_back({0, 14, {"T1", "L1", "S1", "L7", "T8"}, MicroSeconds(10), 0});
        m_plan.push_back({2, 15, {"T2", "L1", "S2", "L7", "T8"}, MicroSeconds(10), 0});
        HostRate(14, "1Gbps");
        HostRate(15, "1Gbps");
        return;
    }
    // transient: flows 1 and 2 only (the bounced H5 -> H2 and H3 -> H1); with
    // H8 -> H16 on T1 -> L1 every loop link still carries a flow.
    LoopFlows(s == "transient" ? 0x6 : 0xf);
    if (s == "on-loop")
    {
        return;
    }
    for (uint32_t h : {0u, 2u, 4u, 5u, 7u})
    {
        HostRate(h, "10Gbps"); // the loop underloaded: 30 of 40 Gbps per link
    }
    m_plan.push_back(
        {7, 15, {"T4", "L4", "S3", "L2", "T1", "L1", "S1", "L7", "T8"}, MicroSeconds(10), 0});
    if (s == "out-of-loop")
    {
        HostRate(15, "1Gbps");
        return;
    }
    m_slowNic = CreateObject<RdmaRxBuffer>();
    m_slowNic->SetAttribute("DrainRate", DataRateValue(DataRate(s == "storm" ? "1Gbps" : "2Gbps")));
    if (m_cfg.tagger)
    {
        // H8 -> H16 bounces once (at T1): it reaches H16 with tag 2, class 2.
        m_slowNic->SetAttribute("PauseClass", UintegerValue(2));
    }
    if (s == "transient")
    {
        Simulator::Schedule(MicroSeconds(800), &ItsyRun::NicRecovers, this);
    }
    m_rdma.GetNic(15)->SetRxBuffer(m_slowNic);
}

void
ItsyRun::NicRecovers()
{
    m_slowNic->SetAttribute("DrainRate", DataRateValue(DataRate("40Gbps")));
}

void
ItsyRun::Fuzz()
{
    std::mt19937_64 rng(m_cfg.seed);
    auto pick = [&rng](uint32_t n) { return uint32_t(rng() % n); };
    uint64_t loop = rng();
    LoopFlows((loop & 1) ? 0xf : uint32_t(loop >> 1) & 0xf); // half the runs: the whole loop
    const char* rates[] = {"40Gbps", "10Gbps", "25Gbps"};
    for (uint32_t h : {0u, 2u, 4u, 5u})
    {
        HostRate(h, rates[pick(3)]);
    }
    for (auto& f : m_plan)
    {
        f.start = MicroSeconds(10 + pick(400));
    }
    // Other flows between hosts outside pod 0, on the default routes.
    uint32_t extra = pick(4);
    for (uint32_t i = 0; i < extra; ++i)
    {
        uint32_t a = 4 + pick(12);
        uint32_t b = 4 + pick(12);
        if (a != b && a != 4 && a != 5)
        {
            m_plan.push_back({a, b, {}, MicroSeconds(10 + pick(400)), 100000 * (1 + pick(20))});
        }
    }
    if (pick(2))
    {
        HostRate(4 + pick(12), "1Gbps"); // a slow receiver somewhere
    }
    // Failed links outside pod 0 (pods 2 and 3: aggregation to core).
    const char* fails[][2] = {{"L5", "S1"}, {"L6", "S3"}, {"L7", "S2"}, {"L8", "S4"}};
    uint32_t nFail = pick(3);
    for (uint32_t i = 0; i < nFail; ++i)
    {
        const auto& f = fails[pick(4)];
        m_net.GetRouteHelper().FailLink(f[0], f[1]);
    }
}

ItsyExperimentResult
ItsyRun::Run()
{
    m_net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    m_net.GetPfcHelper().SetChannelAttribute("Delay", StringValue(m_cfg.delay));
    m_net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(1u << 3));
    m_net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
    m_net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(40000));
    m_net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(20000));
    m_net.Build();
    if (m_cfg.tagger)
    {
        m_tagger.Install(m_net, TaggerHelper::ComputeRules(m_net.GetTopology(), 1));
    }
    m_rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
    m_rdma.Install(m_net);
    if (m_cfg.scenario == "fuzz")
    {
        Fuzz();
    }
    else
    {
        Scenario();
    }
    for (const FlowPlan& f : m_plan)
    {
        if (!f.path.empty())
        {
            m_net.GetRouteHelper().PinPath(f.path, f.dst);
        }
        uint64_t bytes = f.bytes ? f.bytes : 1000 * 1000 * 1000;
        m_rdma.AddFlow(f.src, f.dst, bytes, f.start, m_cfg.tagger ? 1 : 24);
        m_r.flows.push_back("H" + std::to_string(f.src + 1) + "->H" + std::to_string(f.dst + 1));
    }
    Instrument();
    const tagger::Topology& topo = m_net.GetTopology();
    for (uint32_t v = 0; v < topo.GetNNodes(); ++v)
    {
        m_r.switchNodes.push_back(m_net.GetNode(v)->GetId());
        m_r.switchNames.push_back(topo.GetNode(v).name);
    }
    Simulator::Schedule(m_cfg.sample, &ItsyRun::Sample, this);
    for (uint32_t h = 0; h < m_rdma.GetNHosts(); ++h)
    {
        Simulator::Schedule(m_cfg.flowsStop, &RdmaNic::StopFlows, m_rdma.GetNic(h));
    }
    RdmaPacketAccount account(m_net, m_rdma); // where every data packet went
    Simulator::Stop(m_cfg.stop);
    Simulator::Run();
    Finish();
    account.Settle(); // runs on after the stop: every result above is read
    std::ostringstream line;
    account.Print(line);
    m_r.accounting = line.str();
    m_r.balanced = account.IsBalanced();
    Simulator::Destroy();
    return m_r;
}

void
ItsyRun::Instrument()
{
    if (!m_cfg.pcap.empty())
    {
        tagger::NodeId l1 = m_net.GetNodeId("L1");
        for (uint32_t p = 0; p < m_net.GetSwitch(l1)->GetNPorts(); ++p)
        {
            m_net.GetPfcHelper().EnablePcap(m_cfg.pcap, m_net.GetSwitch(l1)->GetPort(p));
        }
    }
    m_r.gbps.assign(m_plan.size(), {});
    m_lastBytes.assign(m_plan.size(), 0);
    if (m_cfg.itsy)
    {
        m_itsy.SetDetectorAttribute("ProbeInterval", TimeValue(m_cfg.probeInterval));
        std::string rec = m_cfg.recovery == "break"     ? "Break"
                          : m_cfg.recovery == "trigger" ? "Trigger"
                                                        : "None";
        m_itsy.SetDetectorAttribute("Recovery", StringValue(rec));
        m_itsy.SetDetectorAttribute("HoldTime", TimeValue(m_cfg.stop));
        for (const Ptr<ItsyDetector>& d : m_itsy.Install(m_net.GetSwitches()))
        {
            d->TraceConnectWithoutContext("Declaration", MakeCallback(&ItsyRun::Declared, this));
        }
    }
    if (m_cfg.recovery == "watchdog")
    {
        NodeContainer sws = m_net.GetSwitches();
        for (uint32_t i = 0; i < sws.GetN(); ++i)
        {
            Ptr<PfcWatchdog> wd = CreateObject<PfcWatchdog>();
            PfcHelper::GetSwitch(sws.Get(i))->SetAttribute("Watchdog", PointerValue(wd));
            m_watchdogs.push_back(wd);
        }
    }
    m_oracle = CreateObject<PfcDeadlockOracle>();
    m_oracle->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
    m_oracle->AddSwitches(m_net.GetSwitches());
    m_oracle->Start(Time(0), m_cfg.stop);
    m_itsy.CheckAtDetections(m_oracle);
}

void
ItsyRun::Sample()
{
    m_r.sampleMs.push_back(Simulator::Now().GetMicroSeconds() / 1000.0);
    for (uint32_t i = 0; i < m_plan.size(); ++i)
    {
        uint64_t now = m_rdma.GetNic(m_plan[i].dst)->GetBytesDelivered();
        m_r.gbps[i].push_back(double(now - m_lastBytes[i]) * 8 / m_cfg.sample.GetNanoSeconds());
        m_lastBytes[i] = now;
    }
    if (Simulator::Now() + m_cfg.sample <= m_cfg.stop)
    {
        Simulator::Schedule(m_cfg.sample, &ItsyRun::Sample, this);
    }
}

std::set<Queue>
ItsyRun::OracleNow(std::vector<std::set<Queue>>* cycles)
{
    std::set<Queue> all;
    for (const PfcDeadlockOracle::Deadlock& d : m_oracle->CheckNow())
    {
        std::set<Queue> c;
        for (const PfcDeadlockOracle::Member& m : d.cycle)
        {
            c.insert({m.node, m.port, m.cls});
        }
        all.insert(c.begin(), c.end());
        if (cycles)
        {
            cycles->push_back(c);
        }
    }
    return all;
}

void
ItsyRun::Declared(const ItsyDetector::Declaration& d)
{
    m_r.falsePositives += ItsyHelper::Confirms(m_oracle, d) ? 0 : 1;
}

void
ItsyRun::Finish()
{
    m_r.oracleDeadlock = m_oracle->HasDeadlock();
    for (const PfcDeadlockOracle::Deadlock& d : m_oracle->GetDeadlocks())
    {
        m_r.formed = m_r.formed.IsZero() ? d.formed : std::min(m_r.formed, d.formed);
    }
    m_r.declarations = m_itsy.GetDeclarations();
    const bool recovers = m_cfg.recovery == "break" || m_cfg.recovery == "trigger";
    Time last = Seconds(-1);
    for (const ItsyDetector::Declaration& d : m_r.declarations)
    {
        m_r.episodes += !recovers && d.time > last + MicroSeconds(10) ? 1 : 0;
        last = d.time;
    }
    for (const Ptr<ItsyDetector>& det : m_itsy.GetDetectors())
    {
        m_r.episodes += recovers ? det->GetBreaks() : 0; // one break per loop episode
        m_r.recoveryDrops += det->GetRecoveryDrops();
        m_r.loops += det->GetLoopsDetected();
        m_r.temporalFailed += det->GetTemporalFailed();
    }
    for (const Ptr<PfcWatchdog>& wd : m_watchdogs)
    {
        m_r.watchdogStorms += wd->GetStorms();
        m_r.watchdogDrops += wd->GetDrops();
        Time first = wd->GetFirstStorm();
        if (!first.IsZero() && (m_r.watchdogFirst.IsZero() || first < m_r.watchdogFirst))
        {
            m_r.watchdogFirst = first;
        }
    }
    m_r.nicDrops = m_slowNic ? m_slowNic->GetDrops() : 0;
    m_r.piggybacked = m_itsy.GetPiggybacked();
    m_r.synthesized = m_itsy.GetSynthesized();
    // A cycle still there at the end must have been declared within the bound.
    std::vector<std::set<Queue>> cycles;
    OracleNow(&cycles);
    std::vector<PfcDeadlockOracle::Deadlock> end = m_oracle->CheckNow();
    m_r.endCycles = end.size();
    for (uint32_t c = 0; c < end.size(); ++c)
    {
        bool declared = false;
        for (const ItsyDetector::Declaration& d : m_r.declarations)
        {
            bool shares = false;
            for (const ItsyDetector::Hop& h : d.loop)
            {
                shares = shares || cycles[c].count({h.node, h.port, h.cls});
            }
            declared = declared || (shares && d.time >= end[c].formed &&
                                    d.time <= end[c].formed + ItsyExperiment::Bound(m_cfg));
        }
        m_r.falseNegatives += (declared || !m_cfg.itsy) ? 0 : 1;
    }
    std::ostringstream os;
    os << "k=4 fat tree, 40 Gbps, link delay " << m_cfg.delay << ", scenario " << m_cfg.scenario
       << (m_cfg.scenario == "fuzz" ? " seed " + std::to_string(m_cfg.seed) : "") << ", ITSY "
       << (m_cfg.itsy ? "on" : "off") << ", Tagger " << (m_cfg.tagger ? "on" : "off")
       << " (probe interval " << m_cfg.probeInterval.GetMicroSeconds() << " us, recovery "
       << m_cfg.recovery << "), " << m_plan.size() << " RoCE flows until "
       << m_cfg.flowsStop.GetMicroSeconds() << " us\n";
    m_r.description = os.str();
}

} // namespace

ItsyExperimentResult
ItsyExperiment::Run(const ItsyExperimentConfig& cfg)
{
    ItsyRun run(cfg);
    return run.Run();
}

Time
ItsyExperiment::Bound(const ItsyExperimentConfig& cfg)
{
    return cfg.probeInterval * 2 + MicroSeconds(100);
}

std::string
ItsyExperiment::NodeName(const ItsyExperimentResult& r, uint32_t node)
{
    for (uint32_t i = 0; i < r.switchNodes.size(); ++i)
    {
        if (r.switchNodes[i] == node)
        {
            return r.switchNames[i];
        }
    }
    return "node" + std::to_string(node);
}

void
ItsyExperiment::PrintDeclarations(std::ostream& os, const ItsyExperimentResult& r)
{
    for (const ItsyDetector::Declaration& d : r.declarations)
    {
        os << "itsy: declared at " << d.time.GetNanoSeconds() / 1000.0 << " us by "
           << NodeName(r, d.genNode) << " port " << d.genPort
           << (d.middle ? " (middle switch)" : "") << ", trigger " << NodeName(r, d.trigNode) << ":"
           << d.trigPort << (d.onLoop ? " on" : " out of") << " the loop:";
        for (const ItsyDetector::Hop& h : d.loop)
        {
            os << " " << NodeName(r, h.node) << ":" << h.port;
        }
        os << "\n";
    }
}

void
ItsyExperiment::WriteRates(const ItsyExperimentResult& r,
                           const std::string& prefix,
                           std::ostream& dat,
                           std::ostream& plt)
{
    dat << "# time_ms";
    for (const std::string& f : r.flows)
    {
        dat << " " << f;
    }
    dat << "\n";
    for (uint32_t s = 0; s < r.sampleMs.size(); ++s)
    {
        dat << r.sampleMs[s];
        for (const auto& g : r.gbps)
        {
            dat << " " << g[s];
        }
        dat << "\n";
    }
    // Two panels: the delivered rates, and each flow's rate normalized to its
    // own peak over the run (the recurrence view of ITSY, Fig. 5).
    plt << "set terminal pngcairo size 900,800\nset output '" << prefix
        << "-rate.png'\nset multiplot layout 2,1\nset xlabel 'time (ms)'\n";
    for (bool normalized : {false, true})
    {
        plt << (normalized ? "set yrange [0:1.1]\n" : "") << "set ylabel '"
            << (normalized ? "normalized throughput (rate / the flow peak)" : "delivered (Gbps)")
            << "'\nplot";
        for (uint32_t i = 0; i < r.flows.size(); ++i)
        {
            double peak =
                r.gbps[i].empty() ? 0 : *std::max_element(r.gbps[i].begin(), r.gbps[i].end());
            plt << (i ? "," : "") << " '" << prefix << "-rate.dat' using 1:";
            if (normalized)
            {
                plt << "($" << i + 2 << "/" << (peak > 0 ? peak : 1) << ")";
            }
            else
            {
                plt << i + 2;
            }
            plt << " with lines title '" << r.flows[i] << "'";
        }
        plt << "\n";
    }
    plt << "unset multiplot\n";
}

void
ItsyExperiment::PrintSummary(std::ostream& os, const ItsyExperimentResult& r)
{
    os << r.description;
    PrintDeclarations(os, r);
    os << "causality loops detected " << r.loops << ", temporal checks failed " << r.temporalFailed
       << ", checking messages in PAUSE frames " << r.piggybacked << ", synthesized frames "
       << r.synthesized
       << "\nITSY memory per switch: 4 ports, 1 lossless class, 5-bit node, 2-bit port and "
       << "16-bit Seq IDs: " << ItsyDetector::MemoryBits(4, 1, 5, 2, 16) / 8
       << " bytes; 10,000 64-port switches (14-bit node, 6-bit port IDs): "
       << ItsyDetector::MemoryBits(64, 1, 14, 6, 16) / 8 << " bytes\n"
       << r.accounting;
}

void
ItsyExperiment::PrintResultLine(std::ostream& os,
                                const ItsyExperimentConfig& cfg,
                                const ItsyExperimentResult& r)
{
    bool declared = !r.declarations.empty();
    auto us = [](Time t) {
        std::ostringstream s;
        s << std::fixed << std::setprecision(1) << t.GetNanoSeconds() / 1000.0;
        return s.str();
    };
    std::string trigger = "-";
    if (declared)
    {
        const ItsyDetector::Declaration& d = r.declarations.front();
        trigger = NodeName(r, d.trigNode) + ":" + std::to_string(d.trigPort);
    }
    uint32_t recurrences = cfg.recovery == "none" ? 0
                           : cfg.recovery == "watchdog"
                               ? (r.watchdogStorms > 0 ? uint32_t(r.watchdogStorms - 1) : 0)
                               : (r.episodes > 0 ? r.episodes - 1 : 0);
    bool storm = !r.watchdogFirst.IsZero() && r.oracleDeadlock;
    os << "RESULT oracle_deadlock=" << (r.oracleDeadlock ? "yes" : "no")
       << " itsy_declared=" << (declared ? "yes" : "no") << " detection_us="
       << (declared && r.oracleDeadlock ? us(r.declarations.front().time - r.formed) : "-")
       << " trigger=" << trigger << " recurrences=" << recurrences
       << " formation_us=" << (r.oracleDeadlock ? us(r.formed) : "-")
       << " recovery_drops=" << r.recoveryDrops << " false_positives=" << r.falsePositives
       << " false_negatives=" << r.falseNegatives
       << " watchdog_us=" << (storm ? us(r.watchdogFirst - r.formed) : "-")
       << " watchdog_storms=" << r.watchdogStorms << " watchdog_drops=" << r.watchdogDrops
       << " loops_detected=" << r.loops << " temporal_rejected=" << r.temporalFailed
       << " end_cycles=" << r.endCycles << " nic_drops=" << r.nicDrops << "\n";
}

} // namespace ns3
