/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger helpers (ns-3).
 */

#include "itsy-fuzz.h"

#include "itsy-helper.h"
#include "pfc-stats-helper.h"
#include "pfc-topology-helper.h"
#include "rdma-helper.h"

#include "ns3/boolean.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <deque>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// An egress queue: node id, port, class.
typedef std::tuple<uint32_t, uint32_t, uint8_t> Queue;

/// The network a seed draws. \param rng the draws \param kind ring, torus, jellyfish
/// \param seed the seed (Jellyfish's wiring) \param what out: one line
tagger::Topology
DrawNetwork(std::mt19937_64& rng, const std::string& kind, uint64_t seed, std::string& what)
{
    tagger::Topology t;
    std::ostringstream os;
    auto addHost = [&t](tagger::NodeId sw, uint32_t i) {
        tagger::NodeId h = t.AddNode("H" + std::to_string(i), tagger::NodeKind::HOST, 1, 0);
        t.AddLink(h, 0, sw, 0);
    };
    if (kind == "ring")
    {
        const uint32_t n = 3 + rng() % 10;
        for (uint32_t i = 0; i < n; ++i)
        {
            t.AddNode("S" + std::to_string(i), tagger::NodeKind::SWITCH, 3, 1);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            addHost(i, i);
            t.AddLink(i, 1, (i + 1) % n, 2);
        }
        os << "ring of " << n;
    }
    else if (kind == "torus")
    {
        const uint32_t shapes[3][2] = {{3, 3}, {3, 4}, {4, 4}};
        const uint32_t* rc = shapes[rng() % 3];
        const uint32_t rows = rc[0];
        const uint32_t cols = rc[1];
        for (uint32_t i = 0; i < rows * cols; ++i)
        {
            t.AddNode("S" + std::to_string(i), tagger::NodeKind::SWITCH, 5, 1);
        }
        for (uint32_t r = 0; r < rows; ++r)
        {
            for (uint32_t c = 0; c < cols; ++c)
            {
                const uint32_t i = r * cols + c;
                addHost(i, i);
                t.AddLink(i, 1, r * cols + (c + 1) % cols, 2);
                t.AddLink(i, 3, ((r + 1) % rows) * cols + c, 4);
            }
        }
        os << rows << "x" << cols << " torus";
    }
    else
    {
        const uint32_t n = 6 + rng() % 7;
        const uint32_t degree = (n % 2 == 1 || rng() % 2 == 0) ? 4 : 3;
        t = tagger::MakeJellyfish(n, degree + 1, degree, seed);
        os << "Jellyfish of " << n << " switches, degree " << degree;
    }
    what = os.str();
    return t;
}

/// A random simple cycle of at least 3 switches (at most 12) in \p t's switch
/// graph. \param t the network \param rng the draws \return its switches in order
std::vector<tagger::NodeId>
DrawLoop(const tagger::Topology& t, std::mt19937_64& rng)
{
    const std::vector<tagger::NodeId> sws = t.GetSwitches();
    for (uint32_t attempt = 0; attempt < 64; ++attempt)
    {
        std::vector<tagger::NodeId> path{sws[rng() % sws.size()]};
        std::set<tagger::NodeId> on(path.begin(), path.end());
        while (path.size() <= 12)
        {
            std::vector<tagger::NodeId> next;
            for (tagger::NodeId v : t.GetNeighbors(path.back()))
            {
                if (t.IsForwarder(v) && (path.size() < 2 || v != path[path.size() - 2]))
                {
                    next.push_back(v);
                }
            }
            if (next.empty())
            {
                break;
            }
            const tagger::NodeId v = next[rng() % next.size()];
            if (on.count(v))
            {
                auto from = std::find(path.begin(), path.end(), v);
                std::vector<tagger::NodeId> loop(from, path.end());
                if (loop.size() >= 3)
                {
                    return loop;
                }
                break;
            }
            path.push_back(v);
            on.insert(v);
        }
    }
    return {};
}

/// One run's state while it runs.
class FuzzRun
{
  public:
    /// \param oracle the oracle \param r the result (false positives counted there)
    FuzzRun(Ptr<PfcDeadlockOracle> oracle, ItsyFuzzResult& r, Time recheck)
        : m_oracle(oracle),
          m_r(r),
          m_recheck(recheck)
    {
    }

    /// ItsyDetector Declaration trace. \param d the declaration
    void Declared(const ItsyDetector::Declaration& d)
    {
        m_declarations.push_back(d);
        if (!Confirmed(d, d.detected))
        {
            // The last PAUSE may be decided before the declaration and seen by
            // the oracle once it took effect: look again then.
            m_pending.push_back(d);
            Simulator::Schedule(m_recheck, &FuzzRun::ConfirmLater, this);
        }
    }

    /// Classify the oldest unconfirmed declaration.
    void ConfirmLater()
    {
        const ItsyDetector::Declaration d = m_pending.front();
        m_pending.pop_front();
        m_r.falsePositives += Confirmed(d, d.time) ? 0 : 1;
    }

    /// \param d a declaration \param by latest formation time that confirms it
    /// \return the oracle sees its queues on a cycle now, or saw one formed by \p by
    bool Confirmed(const ItsyDetector::Declaration& d, Time by)
    {
        std::vector<PfcDeadlockOracle::Member> loop;
        for (const ItsyDetector::Hop& h : d.loop)
        {
            loop.push_back({h.node, h.port, h.cls});
        }
        return m_oracle->Confirms(loop, by);
    }

    Ptr<PfcDeadlockOracle> m_oracle;                       //!< the oracle
    ItsyFuzzResult& m_r;                                   //!< the result
    Time m_recheck;                                        //!< when to look again
    std::vector<ItsyDetector::Declaration> m_declarations; //!< all of them
    std::deque<ItsyDetector::Declaration> m_pending;       //!< to confirm later
};

} // namespace

Time
ItsyFuzz::Bound(uint32_t switches, Time delay, Time probe)
{
    return probe + (delay + NanoSeconds(250)) * int64_t(switches) * 8;
}

ItsyFuzzResult
ItsyFuzz::Run(const ItsyFuzzConfig& cfg)
{
    std::mt19937_64 rng(cfg.seed * 0x9E3779B97F4A7C15ULL + 1);
    ItsyFuzzResult r;
    const char* kinds[] = {"ring", "torus", "jellyfish"};
    r.kind = cfg.kind == "any" ? kinds[cfg.seed % 3] : cfg.kind;
    std::string what;
    tagger::Topology topo = DrawNetwork(rng, r.kind, cfg.seed, what);
    r.delay = MicroSeconds(int64_t(rng() % 21));
    const int64_t probesUs[] = {10, 20, 50, 100, 200, 500, 1000};
    r.probe = MicroSeconds(probesUs[rng() % 7]);
    const std::vector<tagger::NodeId> loop = DrawLoop(topo, rng);
    r.loopSwitches = loop.size();
    r.bound = Bound(r.loopSwitches, r.delay, r.probe);
    const char* rates[] = {"10Gbps", "25Gbps", "40Gbps"};
    const std::string rate = rates[rng() % 3];

    PfcTopologyHelper net(topo);
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    net.GetPfcHelper().SetChannelAttribute("Delay", TimeValue(r.delay));
    net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(1u << 3));
    net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
    net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(40000));
    net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(20000));
    net.Build();
    const std::vector<tagger::NodeId> hosts = topo.GetHosts();
    std::map<tagger::NodeId, uint32_t> hostOf; // switch -> index of its first host
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        const tagger::NodeId sw = topo.GetNeighbors(hosts[h]).front();
        hostOf.emplace(sw, h);
        Ptr<PfcNetDevice> dev = net.GetDevice(hosts[h], 0);
        dev->SetAttribute("DataRate", StringValue(rate));
        dev->GetPeer()->SetAttribute("DataRate", StringValue(rate));
    }
    RdmaHelper rdma;
    rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
    rdma.Install(net);
    // The loop's flows, each pinned two hops along it: all, or a random subset.
    const bool all = rng() % 3 != 0;
    uint32_t loopFlows = 0;
    const uint32_t n = loop.size();
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!all && rng() % 2 == 0)
        {
            continue;
        }
        const tagger::NodeId a = loop[i];
        const tagger::NodeId b = loop[(i + 1) % n];
        const tagger::NodeId c = loop[(i + 2) % n];
        net.GetRouteHelper().PinPath(
            {topo.GetNode(a).name, topo.GetNode(b).name, topo.GetNode(c).name},
            hostOf.at(c));
        rdma.AddFlow(hostOf.at(a), hostOf.at(c), 1000ULL * 1000 * 1000, MicroSeconds(rng() % 20));
        ++loopFlows;
    }
    const uint32_t others = rng() % 4;
    for (uint32_t k = 0; k < others; ++k)
    {
        const uint32_t s = rng() % hosts.size();
        const uint32_t d = (s + 1 + rng() % (hosts.size() - 1)) % hosts.size();
        rdma.AddFlow(s, d, 1000 * 1000, MicroSeconds(rng() % 500));
    }
    for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
    {
        Simulator::Schedule(MilliSeconds(2), &RdmaNic::StopFlows, rdma.GetNic(h));
    }
    std::ostringstream desc;
    desc << what << ", " << r.delay.GetMicroSeconds() << " us links, ProbeInterval "
         << r.probe.GetMicroSeconds() << " us, loop of " << n << ", " << loopFlows << " of " << n
         << " loop flows at " << rate << ", " << others << " other flows";
    r.description = desc.str();

    ItsyHelper itsy;
    itsy.SetDetectorAttribute("ProbeInterval", TimeValue(r.probe));
    itsy.SetDetectorAttribute("Recovery", StringValue(cfg.recovery));
    itsy.SetDetectorAttribute("HoldTime", TimeValue(cfg.stop));
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(Time(0), cfg.stop);
    FuzzRun run(oracle, r, r.delay + MicroSeconds(2));
    std::vector<Ptr<ItsyDetector>> detectors = itsy.Install(net.GetSwitches());
    for (const Ptr<ItsyDetector>& d : detectors)
    {
        d->TraceConnectWithoutContext("Declaration", MakeCallback(&FuzzRun::Declared, &run));
    }
    Simulator::Stop(cfg.stop);
    Simulator::Run();
    while (!run.m_pending.empty())
    {
        run.ConfirmLater();
    }
    // A cycle still there at the end must have been declared within the bound.
    std::vector<PfcDeadlockOracle::Deadlock> end = oracle->CheckNow();
    r.endCycles = end.size();
    for (const PfcDeadlockOracle::Deadlock& c : end)
    {
        std::set<Queue> q;
        for (const PfcDeadlockOracle::Member& m : c.cycle)
        {
            q.insert({m.node, m.port, m.cls});
        }
        Time first = Time::Max();
        for (const ItsyDetector::Declaration& d : run.m_declarations)
        {
            bool shares = false;
            for (const ItsyDetector::Hop& h : d.loop)
            {
                shares = shares || q.count({h.node, h.port, h.cls}) > 0;
            }
            if (shares && d.time >= c.formed)
            {
                first = std::min(first, d.time);
            }
        }
        const bool judged = cfg.stop - c.formed >= r.bound; // else formed too late to tell
        if (judged && (first == Time::Max() || first - c.formed > r.bound))
        {
            ++r.falseNegatives;
        }
        r.recentCycles += judged ? 0 : 1;
        if (first != Time::Max())
        {
            r.delays.push_back(first - c.formed);
        }
    }
    r.formations = oracle->GetDeadlocks().size();
    r.declarations = run.m_declarations.size();
    for (const Ptr<ItsyDetector>& d : detectors)
    {
        r.breaks += d->GetBreaks();
    }
    PfcStatsHelper stats(net);
    r.losslessDrops = stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
    r.recoveryDrops = stats.GetDropCount(PfcDropReason::ITSY_RECOVERY);
    r.losslessBytesEnd = stats.GetLosslessBytes();
    Simulator::Destroy();
    return r;
}

} // namespace ns3
