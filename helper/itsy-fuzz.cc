/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "itsy-fuzz.h"

#include "itsy-helper.h"
#include "pfc-stats-helper.h"
#include "pfc-topology-helper.h"
#include "rdma-helper.h"

#include "ns3/boolean.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/rdma-rx-buffer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{

namespace
{

/// A queue (node id, port, class).
typedef std::tuple<uint32_t, uint32_t, uint8_t> Queue;

/// Bytes of a flow that lasts until the senders stop.
constexpr uint64_t kPersistentBytes = 1000ULL * 1000 * 1000;

/// One flow to start.
struct FuzzFlow
{
    uint32_t src;                     //!< host index
    uint32_t dst;                     //!< host index
    std::vector<tagger::NodeId> path; //!< pinned switches (empty: the ECMP routes)
    Time start;                       //!< start (absolute)
    uint64_t bytes;                   //!< size
};

/// \param t a time \return it in microseconds, one decimal
std::string
Us(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(1) << t.GetNanoSeconds() / 1000.0;
    return os.str();
}

/// \param nic a receive buffer \param rate its new DrainRate
void
SetDrainRate(Ptr<RdmaRxBuffer> nic, DataRate rate)
{
    nic->SetAttribute("DrainRate", DataRateValue(rate));
}

/// One run: the draws, the network, ITSY, the oracle and the comparison.
class FuzzRun
{
  public:
    /// \param cfg what to run
    explicit FuzzRun(const ItsyFuzzConfig& cfg)
        : m_cfg(cfg),
          m_rng(cfg.seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL)
    {
        m_r.config = cfg;
    }

    /// Draw, build, run, compare. \return the result
    ItsyFuzzResult Run();

  private:
    /// \param n a bound > 0 \return uniform in [0, n) (rejection sampling)
    uint32_t Pick(uint32_t n);
    /// \param lo smallest \param hi largest \return uniform in [lo, hi], 10 ns steps
    Time PickTime(Time lo, Time hi);
    /// The network of the kind, its link delays and the cycle of the bad routes.
    void MakeTopology();
    /// \param minLen shortest \param maxLen longest \return a random simple cycle of switches
    std::vector<tagger::NodeId> RandomCycle(uint32_t minLen, uint32_t maxLen);
    /// \param v a node \return its switch neighbours
    std::vector<tagger::NodeId> SwitchNeighbours(tagger::NodeId v) const;
    /**
     * Shortest path from the nearest switch with hosts to \p to, through
     * switches not in \p avoid. \param to a switch \param avoid switches
     * \return the path without \p to (empty: none)
     */
    std::vector<tagger::NodeId> PathFromHosts(tagger::NodeId to,
                                              const std::set<tagger::NodeId>& avoid) const;
    /// Pin \p path to host \p dst if no earlier pin disagrees. \return pinned
    /// \param path switches \param dst host index
    bool Pin(const std::vector<tagger::NodeId>& path, uint32_t dst);
    /// Flows pinned along the cycle (the bad routes).
    void PlanLoopFlows();
    /// A routing loop of two or three switches for one host (SetRoute, after
    /// Build). \return planned (false: no such loop)
    bool PlanRoutingLoop();
    /// Random flows on the ECMP routes, and maybe a slow receiver.
    void PlanOtherFlows();
    /// After Build: rates, the slow receiver, routing loop routes, flows.
    void Apply();
    /// A declaration: false positive? \param d it
    void Declared(const ItsyDetector::Declaration& d);
    /// Recovery runs: is every cycle gone (cleared)?
    void Sample();
    /// The oracle found a new cycle. \param c it
    void Traced(const PfcDeadlockOracle::Deadlock& c);
    /// \param cycles oracle cycles \return the union of their queues
    static std::set<Queue> QueuesOf(const std::vector<PfcDeadlockOracle::Deadlock>& cycles);
    /// \param c a cycle \return its bound
    Time CycleBound(const PfcDeadlockOracle::Deadlock& c) const;
    /**
     * \param c a cycle \param before look before its formation instead
     * \return the first declaration sharing a queue with \p c from its
     *         formation to its formation + its bound (or, \p before, before
     *         its formation; nullptr: none)
     */
    const ItsyDetector::Declaration* DeclarationOf(const PfcDeadlockOracle::Deadlock& c,
                                                   bool before = false) const;
    /// Run on while an undeclared cycle is younger than its bound.
    void RunToBound();
    /// Run on until no lossless byte is left in a switch, or none left for 20 ms.
    void RunToDrain();
    /// Outcome, false negatives, delay.
    void Finish();
    /// \param loop queues \return them as text
    std::string LoopText(const std::vector<ItsyDetector::Hop>& loop) const;
    /// \param node a node id \return its topology name
    std::string Name(uint32_t node) const;

    ItsyFuzzConfig m_cfg;                         //!< configuration
    std::mt19937_64 m_rng;                        //!< every draw
    tagger::Topology m_topo;                      //!< the network's graph
    std::vector<PfcLinkProperties> m_links;       //!< per topology link
    std::vector<tagger::NodeId> m_cycle;          //!< the bad routes' cycle
    std::vector<std::vector<uint32_t>> m_hostsOf; //!< per node id: its hosts (indices)
    std::map<std::pair<tagger::NodeId, uint32_t>, tagger::NodeId> m_next; //!< pinned next hops
    std::vector<FuzzFlow> m_flows;                                        //!< flows
    std::map<uint32_t, DataRate> m_sendRate; //!< host -> its sending rate
    std::vector<std::pair<tagger::NodeId, tagger::NodeId>> m_loopRoutes; //!< routing loop
    uint32_t m_loopHost = 0;                                             //!< its host
    int32_t m_slowHost = -1;                                //!< the slow receiver (-1: none)
    bool m_slowNic = false;                                 //!< its NIC (else its link)
    DataRate m_slowRate;                                    //!< its rate
    Time m_slowUntil;                                       //!< until (0: the whole run)
    Time m_probe;                                           //!< ProbeInterval
    Time m_flowsStop;                                       //!< senders stop
    std::ostringstream m_desc;                              //!< description
    std::unique_ptr<PfcTopologyHelper> m_net;               //!< the network
    RdmaHelper m_rdma;                                      //!< RoCE NICs
    ItsyHelper m_itsy;                                      //!< ITSY
    Ptr<PfcDeadlockOracle> m_oracle;                        //!< the oracle
    std::map<uint32_t, Ptr<PfcSwitchNetDevice>> m_switchOf; //!< node id -> switch
    std::map<uint32_t, std::string> m_names;                //!< node id -> name
    bool m_inEpisode = false;                               //!< recovery: declared, not yet cleared
    std::vector<Time> m_clears; //!< recovery: when the oracle saw every cycle gone
    /// Every cycle the oracle traced (Deadlock) or found at a declaration
    std::vector<PfcDeadlockOracle::Deadlock> m_seen;
    std::set<std::pair<uint32_t, uint32_t>> m_triggers; //!< recovery: triggers declared so far
    Time m_firstDeclared; //!< the first declaration on an oracle cycle (0: none)
    Time m_firstFormed;   //!< that cycle's formation
    Time m_firstBound;    //!< and bound
    ItsyFuzzResult m_r;   //!< result
};

uint32_t
FuzzRun::Pick(uint32_t n)
{
    const uint64_t limit =
        std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
    uint64_t x = m_rng();
    while (x >= limit)
    {
        x = m_rng();
    }
    return uint32_t(x % n);
}

Time
FuzzRun::PickTime(Time lo, Time hi)
{
    const int64_t steps = (hi - lo).GetNanoSeconds() / 10;
    return lo + NanoSeconds(10 * int64_t(Pick(uint32_t(steps + 1))));
}

std::vector<tagger::NodeId>
FuzzRun::SwitchNeighbours(tagger::NodeId v) const
{
    std::vector<tagger::NodeId> out;
    for (tagger::NodeId w : m_topo.GetNeighbors(v))
    {
        if (!m_topo.IsHost(w))
        {
            out.push_back(w);
        }
    }
    return out;
}

std::vector<tagger::NodeId>
FuzzRun::RandomCycle(uint32_t minLen, uint32_t maxLen)
{
    const std::vector<tagger::NodeId> switches = m_topo.GetSwitches();
    const uint32_t target = minLen + Pick(maxLen - minLen + 1);
    auto miss = [target](std::size_t len) { return len > target ? len - target : target - len; };
    std::vector<tagger::NodeId> best; // the closest to the target length so far
    for (uint32_t attempt = 0; attempt < 200; ++attempt)
    {
        std::vector<tagger::NodeId> path = {switches[Pick(switches.size())]};
        std::set<tagger::NodeId> seen(path.begin(), path.end());
        while (path.size() < maxLen)
        {
            std::vector<tagger::NodeId> next;
            for (tagger::NodeId w : SwitchNeighbours(path.back()))
            {
                if (!seen.count(w))
                {
                    next.push_back(w);
                }
            }
            if (next.empty())
            {
                break;
            }
            path.push_back(next[Pick(next.size())]);
            seen.insert(path.back());
            std::vector<tagger::NodeId> back = SwitchNeighbours(path.back());
            if (path.size() >= minLen &&
                std::find(back.begin(), back.end(), path.front()) != back.end())
            {
                if (path.size() == target)
                {
                    return path;
                }
                if (best.empty() || miss(path.size()) < miss(best.size()))
                {
                    best = path;
                }
            }
        }
    }
    return best;
}

void
FuzzRun::MakeTopology()
{
    const std::string& kind = m_cfg.kind;
    if (kind == "ring")
    {
        const uint32_t n = 3 + Pick(10);
        for (uint32_t i = 0; i < n; ++i)
        {
            m_topo.AddNode("R" + std::to_string(i + 1), tagger::NodeKind::SWITCH, 3);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            tagger::NodeId h =
                m_topo.AddNode("H" + std::to_string(i + 1), tagger::NodeKind::HOST, 1, 0);
            m_topo.AddLink(h, 0, i, 0);
            m_topo.AddLink(i, 1, (i + 1) % n, 2); // clockwise: port 1 to the next
            m_cycle.push_back(i);
        }
        m_desc << "ring of " << n;
    }
    else if (kind == "torus")
    {
        const uint32_t dims[][2] = {{3, 3}, {3, 4}, {4, 4}};
        const uint32_t* dim = dims[Pick(3)];
        const uint32_t rows = dim[0];
        const uint32_t cols = dim[1];
        auto id = [cols](uint32_t r, uint32_t c) { return r * cols + c; };
        for (uint32_t r = 0; r < rows; ++r)
        {
            for (uint32_t c = 0; c < cols; ++c)
            {
                m_topo.AddNode("W" + std::to_string(r + 1) + "_" + std::to_string(c + 1),
                               tagger::NodeKind::SWITCH,
                               5);
            }
        }
        for (uint32_t v = 0; v < rows * cols; ++v)
        {
            tagger::NodeId h =
                m_topo.AddNode("H" + std::to_string(v + 1), tagger::NodeKind::HOST, 1, 0);
            m_topo.AddLink(h, 0, v, 0);
            const uint32_t r = v / cols;
            const uint32_t c = v % cols;
            m_topo.AddLink(v, 1, id(r, (c + 1) % cols), 2); // east, west
            m_topo.AddLink(v, 3, id((r + 1) % rows, c), 4); // south, north
        }
        m_desc << rows << "x" << cols << " torus";
        if (Pick(2))
        {
            // A whole row or column, one way round (its wrap-around link too).
            const bool row = Pick(2);
            const uint32_t line = Pick(row ? rows : cols);
            for (uint32_t i = 0; i < (row ? cols : rows); ++i)
            {
                m_cycle.push_back(row ? id(line, i) : id(i, line));
            }
            if (Pick(2))
            {
                std::reverse(m_cycle.begin(), m_cycle.end());
            }
        }
        else
        {
            m_cycle = RandomCycle(4, 8);
        }
    }
    else if (kind == "jellyfish")
    {
        const uint32_t n = 8 + Pick(7);
        uint32_t r = 3 + Pick(2);
        r = (n * r) % 2 ? 4 : r;
        m_topo = tagger::MakeJellyfish(n, r + 1, r, m_rng());
        m_cycle = RandomCycle(3, 8);
        m_desc << "Jellyfish of " << n << " switches, " << r << " switch ports";
    }
    else
    {
        m_topo = tagger::MakeFatTree(4);
        m_cycle = RandomCycle(4, 8);
        m_desc << "k=4 fat tree";
    }
    // Link delays: all one value from 0 to 20 us, or each its own value up to it.
    const Time most = PickTime(Time(0), MicroSeconds(20));
    const bool each = Pick(2);
    for (std::size_t l = 0; l < m_topo.GetLinks().size(); ++l)
    {
        PfcLinkProperties p;
        p.delay = each ? PickTime(Time(0), most) : most;
        m_links.push_back(p);
    }
    m_desc << ", link delays " << (each ? "up to " : "") << Us(most) << " us";
    m_hostsOf.assign(m_topo.GetNNodes(), {});
    const std::vector<tagger::NodeId> hosts = m_topo.GetHosts();
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        m_hostsOf[m_topo.GetPeer(hosts[h], 0).node].push_back(h);
    }
}

std::vector<tagger::NodeId>
FuzzRun::PathFromHosts(tagger::NodeId to, const std::set<tagger::NodeId>& avoid) const
{
    std::map<tagger::NodeId, tagger::NodeId> parent = {{to, to}};
    std::queue<tagger::NodeId> todo;
    todo.push(to);
    while (!todo.empty())
    {
        tagger::NodeId v = todo.front();
        todo.pop();
        if (v != to && !m_hostsOf[v].empty())
        {
            std::vector<tagger::NodeId> path;
            for (tagger::NodeId w = v; w != to; w = parent.at(w))
            {
                path.push_back(w);
            }
            return path;
        }
        for (tagger::NodeId w : SwitchNeighbours(v))
        {
            if (!avoid.count(w) && !parent.count(w))
            {
                parent[w] = v;
                todo.push(w);
            }
        }
    }
    return {};
}

bool
FuzzRun::Pin(const std::vector<tagger::NodeId>& path, uint32_t dst)
{
    const tagger::NodeId host = m_topo.GetHosts()[dst];
    for (std::size_t i = 0; i < path.size(); ++i)
    {
        tagger::NodeId next = i + 1 < path.size() ? path[i + 1] : host;
        auto it = m_next.find({path[i], dst});
        if ((it != m_next.end() && it->second != next) ||
            (path[i] == m_topo.GetPeer(host, 0).node && next != host))
        {
            return false;
        }
    }
    for (std::size_t i = 0; i < path.size(); ++i)
    {
        m_next[{path[i], dst}] = i + 1 < path.size() ? path[i + 1] : host;
    }
    return true;
}

void
FuzzRun::PlanLoopFlows()
{
    const uint32_t m = m_cycle.size();
    if (m < 3)
    {
        m_desc << ", no cycle";
        return;
    }
    const bool all = Pick(3) != 0;
    const bool shortFlows = Pick(4) == 0;
    const bool exits = Pick(2) == 0; // one-hop flows beside the loop flows: frames that can leave
    const std::set<tagger::NodeId> onCycle(m_cycle.begin(), m_cycle.end());
    const char* rates[] = {"40Gbps", "40Gbps", "25Gbps", "10Gbps"};
    uint32_t planned = 0;
    for (uint32_t i = 0; i < m; ++i)
    {
        if (!all && Pick(2))
        {
            continue;
        }
        // At least two links of the cycle, on to the first switch with hosts.
        const uint32_t hops = 2 + Pick(std::min(m - 1, 3u) - 1);
        std::vector<tagger::NodeId> path = {m_cycle[i]};
        for (uint32_t k = 1; k < m && (k <= hops || m_hostsOf[path.back()].empty()); ++k)
        {
            path.push_back(m_cycle[(i + k) % m]);
        }
        if (m_hostsOf[path.back()].empty())
        {
            // No switch of the cycle has hosts: off it, by a shortest path.
            std::vector<tagger::NodeId> out = PathFromHosts(path.back(), onCycle);
            if (out.empty())
            {
                continue;
            }
            path.insert(path.end(), out.rbegin(), out.rend());
        }
        std::vector<tagger::NodeId> prefix;
        if (m_hostsOf[m_cycle[i]].empty())
        {
            std::set<tagger::NodeId> avoid = onCycle;
            avoid.insert(path.begin(), path.end());
            prefix = PathFromHosts(m_cycle[i], avoid);
            if (prefix.empty())
            {
                continue;
            }
            path.insert(path.begin(), prefix.begin(), prefix.end());
        }
        const std::vector<uint32_t>& srcs = m_hostsOf[path.front()];
        const std::vector<uint32_t>& dsts = m_hostsOf[path.back()];
        const uint32_t src = srcs[Pick(srcs.size())];
        const uint32_t first = Pick(dsts.size());
        for (uint32_t k = 0; k < dsts.size(); ++k)
        {
            const uint32_t dst = dsts[(first + k) % dsts.size()];
            if (Pin(path, dst))
            {
                m_flows.push_back({src,
                                   dst,
                                   path,
                                   PickTime(MicroSeconds(10), MicroSeconds(200)),
                                   shortFlows ? 100000 * (1 + Pick(10)) : kPersistentBytes});
                if (!m_sendRate.count(src))
                {
                    m_sendRate[src] = DataRate(rates[Pick(4)]);
                }
                ++planned;
                const std::vector<uint32_t>& next = m_hostsOf[m_cycle[(i + 1) % m]];
                if (exits && prefix.empty() && !next.empty())
                {
                    const uint32_t to = next[Pick(next.size())];
                    if (Pin({m_cycle[i], m_cycle[(i + 1) % m]}, to))
                    {
                        m_flows.push_back(
                            {src,
                             to,
                             {m_cycle[i], m_cycle[(i + 1) % m]},
                             PickTime(MicroSeconds(10), MicroSeconds(200)),
                             shortFlows ? 100000 * (1 + Pick(10)) : kPersistentBytes});
                    }
                }
                break;
            }
        }
    }
    m_desc << ", cycle of " << m << " (" << planned << " pinned flows" << (all ? "" : ", gaps")
           << (exits ? ", exits" : "") << (shortFlows ? ", short" : "") << ")";
}

bool
FuzzRun::PlanRoutingLoop()
{
    std::vector<tagger::NodeId> loop = RandomCycle(3, 3);
    if (loop.empty() && m_cycle.size() >= 2)
    {
        // No triangle: two neighbours send the host's traffic to each other.
        loop = {m_cycle[0], m_cycle[1]};
    }
    if (loop.empty())
    {
        return false;
    }
    std::vector<uint32_t> candidates;
    for (uint32_t h = 0; h < m_topo.GetHosts().size(); ++h)
    {
        tagger::NodeId tor = m_topo.GetPeer(m_topo.GetHosts()[h], 0).node;
        if (std::find(loop.begin(), loop.end(), tor) == loop.end())
        {
            candidates.push_back(h);
        }
    }
    m_loopHost = candidates[Pick(candidates.size())];
    for (std::size_t i = 0; i < loop.size(); ++i)
    {
        m_loopRoutes.emplace_back(loop[i], loop[(i + 1) % loop.size()]);
    }
    // One or two senders on the loop's switches.
    const uint32_t senders = 1 + Pick(2);
    for (uint32_t s = 0; s < senders; ++s)
    {
        const std::vector<uint32_t>& hosts = m_hostsOf[loop[Pick(loop.size())]];
        if (!hosts.empty())
        {
            m_flows.push_back({hosts[Pick(hosts.size())],
                               m_loopHost,
                               {},
                               PickTime(MicroSeconds(10), MicroSeconds(400)),
                               100000 * (1 + Pick(20))});
        }
    }
    m_desc << ", routing loop of " << loop.size() << " for H" << m_loopHost + 1;
    return true;
}

void
FuzzRun::PlanOtherFlows()
{
    const uint32_t nHosts = m_topo.GetHosts().size();
    const uint32_t others = Pick(nHosts / 2 + 1);
    for (uint32_t i = 0; i < others; ++i)
    {
        const uint32_t a = Pick(nHosts);
        const uint32_t b = Pick(nHosts);
        if (a != b)
        {
            m_flows.push_back(
                {a, b, {}, PickTime(MicroSeconds(10), MicroSeconds(400)), 50000 * (1 + Pick(40))});
        }
    }
    m_desc << ", " << others << " other flows";
    if (Pick(3) == 0)
    {
        m_slowHost = int32_t(Pick(nHosts));
        m_slowNic = Pick(2);
        const char* nicRates[] = {"1Gbps", "2Gbps", "5Gbps"};
        const char* portRates[] = {"1Gbps", "5Gbps", "10Gbps"};
        m_slowRate = DataRate(m_slowNic ? nicRates[Pick(3)] : portRates[Pick(3)]);
        // A NIC may recover (its drain rate changes; a link's rate stays as built).
        m_slowUntil =
            Pick(2) && m_slowNic ? PickTime(MicroSeconds(300), MicroSeconds(1200)) : Time(0);
        const uint32_t senders = 1 + Pick(2);
        for (uint32_t s = 0; s < senders; ++s)
        {
            const uint32_t a = Pick(nHosts);
            if (a != uint32_t(m_slowHost))
            {
                m_flows.push_back({a,
                                   uint32_t(m_slowHost),
                                   {},
                                   PickTime(MicroSeconds(10), MicroSeconds(300)),
                                   kPersistentBytes});
            }
        }
        m_desc << ", slow receiver H" << m_slowHost + 1 << " (" << (m_slowNic ? "NIC" : "link")
               << " " << m_slowRate.GetBitRate() / 1e9 << " Gbps"
               << (m_slowUntil.IsZero() ? "" : " until " + Us(m_slowUntil) + " us") << ")";
    }
}

void
FuzzRun::Apply()
{
    m_rdma.Install(*m_net);
    if (m_slowHost >= 0 && m_slowNic)
    {
        Ptr<RdmaRxBuffer> nic = CreateObject<RdmaRxBuffer>();
        nic->SetAttribute("DrainRate", DataRateValue(m_slowRate));
        m_rdma.GetNic(m_slowHost)->SetRxBuffer(nic);
        if (!m_slowUntil.IsZero())
        {
            Simulator::Schedule(m_slowUntil, &SetDrainRate, nic, DataRate("40Gbps"));
        }
    }
    PfcRouteHelper& routes = m_net->GetRouteHelper();
    for (const auto& [from, to] : m_loopRoutes)
    {
        routes.SetRoute(m_topo.GetNode(from).name, m_loopHost, m_topo.GetNode(to).name);
    }
    for (const FuzzFlow& f : m_flows)
    {
        m_rdma.AddFlow(f.src, f.dst, f.bytes, f.start);
    }
    for (uint32_t h = 0; h < m_rdma.GetNHosts(); ++h)
    {
        Simulator::Schedule(m_flowsStop, &RdmaNic::StopFlows, m_rdma.GetNic(h));
    }
}

ItsyFuzzResult
FuzzRun::Run()
{
    // The draws, in a fixed order (the recovery does not change them).
    MakeTopology();
    m_probe = MicroSeconds(int64_t(std::round(10 * std::pow(100.0, Pick(1001) / 1000.0))));
    const bool routingLoop = (m_cfg.kind == "torus" || m_cfg.kind == "jellyfish") && !Pick(4);
    if (!routingLoop || !PlanRoutingLoop())
    {
        PlanLoopFlows();
    }
    PlanOtherFlows();
    m_flowsStop = PickTime(MicroSeconds(800), MicroSeconds(1600));
    m_desc << ", " << m_flows.size() << " flows until " << Us(m_flowsStop) << " us, probe "
           << m_probe.GetMicroSeconds() << " us";

    m_net = std::make_unique<PfcTopologyHelper>(m_topo);
    PfcHelper& pfc = m_net->GetPfcHelper();
    pfc.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    // No ECN marks (DCQCN is off): the marking draws would be an ns-3 random
    // stream, numbered by what ran before in the process.
    pfc.SetDeviceAttribute("EcnKmin", UintegerValue(std::numeric_limits<uint32_t>::max()));
    pfc.SetDeviceAttribute("EcnKmax", UintegerValue(std::numeric_limits<uint32_t>::max()));
    pfc.SetMmuAttribute("LosslessClasses", UintegerValue(1u << 3));
    pfc.SetMmuAttribute("ThresholdMode", StringValue("Static"));
    pfc.SetMmuAttribute("StaticXoff", UintegerValue(40000));
    pfc.SetMmuAttribute("StaticXon", UintegerValue(20000));
    // Host link rates (both ways, before Build: the MMU sizes the headroom of
    // a port from its rate): slower senders, a slow receiver's port.
    const std::vector<tagger::NodeId> hosts = m_topo.GetHosts();
    for (std::size_t l = 0; l < m_links.size(); ++l)
    {
        const tagger::TopoLink& link = m_topo.GetLinks()[l];
        for (tagger::NodeId v : {link.a.node, link.b.node})
        {
            const auto h = uint32_t(std::find(hosts.begin(), hosts.end(), v) - hosts.begin());
            if (h < hosts.size() && m_sendRate.count(h))
            {
                m_links[l].rate = m_sendRate.at(h);
            }
            if (h < hosts.size() && int32_t(h) == m_slowHost && !m_slowNic &&
                m_slowRate < m_links[l].rate)
            {
                m_links[l].rate = m_slowRate;
            }
        }
    }
    m_net->SetLinkProperties(m_links);
    m_net->Build();
    for (const FuzzFlow& f : m_flows)
    {
        if (!f.path.empty())
        {
            std::vector<std::string> names;
            for (tagger::NodeId v : f.path)
            {
                names.push_back(m_topo.GetNode(v).name);
            }
            m_net->GetRouteHelper().PinPath(names, f.dst);
        }
    }
    m_rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
    Apply();
    for (tagger::NodeId v = 0; v < m_topo.GetNNodes(); ++v)
    {
        m_names[m_net->GetNode(v)->GetId()] = m_topo.GetNode(v).name;
        if (!m_topo.IsHost(v))
        {
            m_switchOf[m_net->GetNode(v)->GetId()] = m_net->GetSwitch(v);
        }
    }
    m_itsy.SetDetectorAttribute("ProbeInterval", TimeValue(m_probe));
    m_itsy.SetDetectorAttribute("Recovery",
                                StringValue(m_cfg.recovery == "break"     ? "Break"
                                            : m_cfg.recovery == "trigger" ? "Trigger"
                                                                          : "None"));
    for (const Ptr<ItsyDetector>& d : m_itsy.Install(m_net->GetSwitches()))
    {
        // After ItsyHelper's own callback (which hands Trigger to the trigger's switch).
        d->TraceConnectWithoutContext("Declaration", MakeCallback(&FuzzRun::Declared, this));
    }
    m_oracle = CreateObject<PfcDeadlockOracle>();
    m_oracle->SetAttribute("Interval", TimeValue(MicroSeconds(5)));
    m_oracle->AddSwitches(m_net->GetSwitches());
    m_oracle->TraceConnectWithoutContext("Deadlock", MakeCallback(&FuzzRun::Traced, this));
    m_itsy.CheckAtDetections(m_oracle);
    m_oracle->Start(Time(0), Seconds(1));
    Simulator::Stop(m_flowsStop + MicroSeconds(400));
    Simulator::Run();
    if (m_cfg.recovery != "none")
    {
        RunToDrain();
    }
    RunToBound();
    Finish();
    Simulator::Destroy();
    return m_r;
}

std::set<Queue>
FuzzRun::QueuesOf(const std::vector<PfcDeadlockOracle::Deadlock>& cycles)
{
    std::set<Queue> all;
    for (const PfcDeadlockOracle::Deadlock& d : cycles)
    {
        for (const PfcDeadlockOracle::Member& m : d.cycle)
        {
            all.insert({m.node, m.port, m.cls});
        }
    }
    return all;
}

Time
FuzzRun::CycleBound(const PfcDeadlockOracle::Deadlock& c) const
{
    std::vector<Time> delays;
    for (const PfcDeadlockOracle::Member& m : c.cycle)
    {
        Ptr<PfcChannel> ch =
            DynamicCast<PfcChannel>(m_switchOf.at(m.node)->GetPort(m.port)->GetChannel());
        delays.push_back(ch ? ch->GetDelay() : Time(0));
    }
    return ItsyFuzz::Bound(m_probe, delays);
}

std::string
FuzzRun::Name(uint32_t node) const
{
    auto it = m_names.find(node);
    return it == m_names.end() ? "node" + std::to_string(node) : it->second;
}

std::string
FuzzRun::LoopText(const std::vector<ItsyDetector::Hop>& loop) const
{
    std::ostringstream os;
    for (const ItsyDetector::Hop& h : loop)
    {
        os << (&h == &loop.front() ? "" : " ") << Name(h.node) << ":" << h.port;
    }
    return os.str();
}

void
FuzzRun::Declared(const ItsyDetector::Declaration& d)
{
    ++m_r.declarations;
    if (m_cfg.recovery != "none")
    {
        if (!m_inEpisode && !m_clears.empty() && d.detected > m_clears.back())
        {
            ++m_r.recurrences; // a loop detected after the oracle saw every cycle gone
            m_r.recurrencesSameTrigger += m_triggers.count({d.trigNode, d.trigPort}) ? 1 : 0;
        }
        m_triggers.insert({d.trigNode, d.trigPort});
        if (!m_inEpisode)
        {
            m_inEpisode = true;
            Simulator::Schedule(MicroSeconds(10), &FuzzRun::Sample, this);
        }
    }
    std::vector<PfcDeadlockOracle::Deadlock> now = m_oracle->CheckNow();
    m_seen.insert(m_seen.end(), now.begin(), now.end());
    const std::set<Queue> onCycle = QueuesOf(now);
    if (m_firstDeclared.IsZero())
    {
        // The cycle it declared: the oracle's current cycle through its queues formed first.
        for (const PfcDeadlockOracle::Deadlock& c : now)
        {
            const std::set<Queue> queues = QueuesOf({c});
            bool shares = false;
            for (const ItsyDetector::Hop& h : d.loop)
            {
                shares = shares || queues.count({h.node, h.port, h.cls});
            }
            if (shares && (m_firstDeclared.IsZero() || c.formed < m_firstFormed))
            {
                m_firstDeclared = d.time;
                m_firstFormed = c.formed;
                m_firstBound = CycleBound(c);
            }
        }
    }
    auto covered = [&d](const std::set<Queue>& queues) {
        for (const ItsyDetector::Hop& h : d.loop)
        {
            if (!queues.count({h.node, h.port, h.cls}))
            {
                return false;
            }
        }
        return true;
    };
    if (ItsyHelper::Confirms(m_oracle, d))
    {
        // A cycle at the loop's detection; it may have dissolved since, after
        // the temporal check passed the port that resumed.
        m_r.dissolved += covered(onCycle) ? 0 : 1;
        return;
    }
    bool seen = false; // a cycle through every declared queue, formed by now
    for (const PfcDeadlockOracle::Deadlock& c : m_seen)
    {
        seen = seen || (c.formed <= d.time && covered(QueuesOf({c})));
    }
    ++m_r.falsePositives;
    std::ostringstream os;
    os << "false positive: declared at " << Us(d.time) << " us (loop detected at " << Us(d.detected)
       << " us) by " << Name(d.genNode) << ":" << d.genPort << ", loop " << LoopText(d.loop)
       << "; on no oracle cycle then:";
    for (const ItsyDetector::Hop& h : d.loop)
    {
        if (!onCycle.count({h.node, h.port, h.cls}))
        {
            Ptr<PfcNetDevice> port = m_switchOf.at(h.node)->GetPort(h.port);
            os << " " << Name(h.node) << ":" << h.port << " ("
               << (port->IsClassPaused(h.cls) ? "paused" : "not paused") << ", "
               << port->GetQueue(h.cls).size() << " frames)";
        }
    }
    os << "; "
       << (seen ? "the oracle had seen a cycle through every declared queue"
                : "the oracle had seen no cycle through them");
    m_r.failures.push_back(os.str());
}

void
FuzzRun::Traced(const PfcDeadlockOracle::Deadlock& c)
{
    m_seen.push_back(c);
}

void
FuzzRun::Sample()
{
    if (m_oracle->CheckNow().empty())
    {
        m_inEpisode = false;
        m_r.cleared = true;
        m_clears.push_back(Simulator::Now());
        return;
    }
    Simulator::Schedule(MicroSeconds(10), &FuzzRun::Sample, this);
}

const ItsyDetector::Declaration*
FuzzRun::DeclarationOf(const PfcDeadlockOracle::Deadlock& c, bool before) const
{
    const std::set<Queue> queues = QueuesOf({c});
    const Time until = c.formed + CycleBound(c);
    for (const ItsyDetector::Declaration& d : m_itsy.GetDeclarations())
    {
        if (before ? d.time >= c.formed : d.time < c.formed)
        {
            continue;
        }
        if (d.time > until)
        {
            break;
        }
        for (const ItsyDetector::Hop& h : d.loop)
        {
            if (queues.count({h.node, h.port, h.cls}))
            {
                return &d;
            }
        }
    }
    return nullptr;
}

void
FuzzRun::RunToDrain()
{
    // A slow receiver may take long (1 Gbps: 8 ms a megabyte), a slow NIC
    // holds its switch paused while its buffer drains from Xoff to Xon
    // (64 KiB at 1 Gbps: 0.5 ms), and frames caught in a routing loop go
    // round, paused and resumed, until their TTL runs out (more than 5 ms
    // without a byte fewer seen): on while the bytes go down, until none is
    // left or none has left for 20 ms (at most until 200 ms).
    PfcStatsHelper stats(*m_net);
    uint64_t least = stats.GetLosslessBytes();
    Time progress = Simulator::Now();
    while (least > 0 && Simulator::Now() - progress < MilliSeconds(20) &&
           Simulator::Now() < MilliSeconds(200))
    {
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        const uint64_t now = stats.GetLosslessBytes();
        if (now < least)
        {
            least = now;
            progress = Simulator::Now();
        }
    }
}

void
FuzzRun::RunToBound()
{
    for (uint32_t round = 0; round < 10; ++round)
    {
        Time until = Simulator::Now();
        for (const PfcDeadlockOracle::Deadlock& c : m_oracle->CheckNow())
        {
            if (!DeclarationOf(c))
            {
                until = std::max(until, c.formed + CycleBound(c) + MicroSeconds(1));
            }
        }
        if (until <= Simulator::Now())
        {
            return;
        }
        Simulator::Stop(until - Simulator::Now());
        Simulator::Run();
    }
}

void
FuzzRun::Finish()
{
    m_r.end = Simulator::Now();
    m_r.probeInterval = m_probe;
    m_r.switches = m_topo.GetSwitches().size();
    m_r.flows = m_flows.size();
    m_r.oracleCycles = m_oracle->GetDeadlocks().size();
    const std::vector<PfcDeadlockOracle::Deadlock> end = m_oracle->CheckNow();
    m_r.endCycles = end.size();
    const PfcDeadlockOracle::Deadlock* first = nullptr;
    for (const PfcDeadlockOracle::Deadlock& c : end)
    {
        if (DeclarationOf(c))
        {
            first = !first || c.formed < first->formed ? &c : first;
            continue;
        }
        ++m_r.falseNegatives;
        std::vector<ItsyDetector::Hop> hops;
        for (const PfcDeadlockOracle::Member& m : c.cycle)
        {
            hops.push_back({m.node, m.port, m.cls});
        }
        std::ostringstream os;
        os << "false negative: cycle [" << LoopText(hops) << "] formed at " << Us(c.formed)
           << " us, bound " << Us(CycleBound(c)) << " us, present at the end (" << Us(m_r.end)
           << " us), not declared since its formation";
        if (const ItsyDetector::Declaration* early = DeclarationOf(c, true))
        {
            ++m_r.falseNegativesDeclaredBefore;
            os << "; a declaration at " << Us(early->time) << " us named its queues before ("
               << LoopText(early->loop) << ")";
        }
        m_r.failures.push_back(os.str());
    }
    if (first)
    {
        m_r.delayMeasured = true;
        m_r.formed = first->formed;
        m_r.delay = DeclarationOf(*first)->time - first->formed;
        m_r.bound = CycleBound(*first);
    }
    else if (m_cfg.recovery != "none" && !m_firstDeclared.IsZero())
    {
        // Recovered (or only a transient cycle declared): the first
        // declaration against the cycle it named then.
        m_r.delayMeasured = true;
        m_r.formed = m_firstFormed;
        m_r.delay = m_firstDeclared - m_firstFormed;
        m_r.bound = m_firstBound;
    }
    const bool declaredDeadlock = m_cfg.recovery != "none" && m_r.declarations > 0;
    m_r.outcome = m_r.endCycles > 0 || declaredDeadlock ? ItsyFuzzResult::DEADLOCKED
                  : m_r.oracleCycles > 0                ? ItsyFuzzResult::TRANSIENT
                                                        : ItsyFuzzResult::CLEAN;
    PfcStatsHelper stats(*m_net);
    m_r.losslessDrops = stats.GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
    m_r.recoveryDrops = stats.GetDropCount(PfcDropReason::ITSY_RECOVERY);
    m_r.losslessBytesAtEnd = stats.GetLosslessBytes();
    m_r.description = m_desc.str();
}

} // namespace

ItsyFuzzResult
ItsyFuzz::Run(const ItsyFuzzConfig& cfg)
{
    FuzzRun run(cfg);
    return run.Run();
}

const std::vector<std::string>&
ItsyFuzz::Kinds()
{
    static const std::vector<std::string> kinds = {"ring", "torus", "jellyfish", "fattree"};
    return kinds;
}

std::string
ItsyFuzz::KindOf(const std::string& filter, uint32_t seed)
{
    return filter == "all" ? Kinds()[seed % Kinds().size()] : filter;
}

Time
ItsyFuzz::Bound(Time probe, const std::vector<Time>& linkDelays)
{
    // A round trip: per link its delay, a 64-byte control frame and a
    // 1,062-byte data frame ahead of it (84 and 1,082 bytes on the wire at
    // 40 Gbps: 17 + 217 ns, rounded up to 250 ns).
    Time lap;
    for (const Time& d : linkDelays)
    {
        lap += d + NanoSeconds(250);
    }
    return probe + lap * 8;
}

void
ItsyFuzzSummary::Add(const ItsyFuzzResult& r)
{
    ++runs;
    std::array<uint32_t, 3>& kind = byKind[r.config.kind];
    ++kind[r.outcome];
    deadlocked += r.outcome == ItsyFuzzResult::DEADLOCKED ? 1 : 0;
    clean += r.outcome == ItsyFuzzResult::CLEAN ? 1 : 0;
    transient += r.outcome == ItsyFuzzResult::TRANSIENT ? 1 : 0;
    falsePositives += r.falsePositives;
    dissolved += r.dissolved;
    falseNegatives += r.falseNegatives;
    falseNegativesDeclaredBefore += r.falseNegativesDeclaredBefore;
    losslessDrops += r.losslessDrops;
    recoveryDrops += r.recoveryDrops;
    recurrences += r.recurrences;
    recurrencesSameTrigger += r.recurrencesSameTrigger;
    runsWithRecurrence += r.recurrences > 0 ? 1 : 0;
    const bool recovery = r.config.recovery != "none";
    if (recovery && (r.endCycles > 0 || r.losslessBytesAtEnd > 0))
    {
        ++recoveryFailures;
        failures.push_back(r.config.kind + " seed " + std::to_string(r.config.seed) +
                           ": not recovered: " + std::to_string(r.endCycles) + " cycles and " +
                           std::to_string(r.losslessBytesAtEnd) + " lossless bytes at the end");
    }
    if (r.delayMeasured)
    {
        delaysUs.push_back(r.delay.GetNanoSeconds() / 1000.0);
        delayFractions.push_back(double(r.delay.GetNanoSeconds()) /
                                 double(r.bound.GetNanoSeconds()));
    }
    for (const std::string& f : r.failures)
    {
        failures.push_back(r.config.kind + " seed " + std::to_string(r.config.seed) + ": " + f);
    }
}

namespace
{

/// \param v values \param p fraction \return the nearest-rank percentile (0 when empty)
double
Percentile(std::vector<double> v, double p)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    std::size_t rank = std::size_t(std::ceil(p * v.size()));
    return v[std::min(v.size(), std::max<std::size_t>(rank, 1)) - 1];
}

} // namespace

void
ItsyFuzzSummary::Print(std::ostream& os) const
{
    os << "runs " << runs << " (";
    for (const auto& [kind, n] : byKind)
    {
        os << (kind == byKind.begin()->first ? "" : ", ") << kind << " " << n[0] + n[1] + n[2]
           << " [" << n[ItsyFuzzResult::DEADLOCKED] << "/" << n[ItsyFuzzResult::CLEAN] << "/"
           << n[ItsyFuzzResult::TRANSIENT] << "]";
    }
    os << "; [deadlocked/clean/transient]): deadlocked " << deadlocked << ", clean " << clean
       << ", transient cycles " << transient << "; false positives " << falsePositives << " ("
       << dissolved << " more declared loops dissolved after their temporal check)"
       << ", false negatives " << falseNegatives << " (" << falseNegativesDeclaredBefore
       << " named by a declaration before the formation)\n";
    os << std::fixed << std::setprecision(1) << "detection delay (us, " << delaysUs.size()
       << " deadlocks): min " << Percentile(delaysUs, 0) << ", median " << Percentile(delaysUs, 0.5)
       << ", p90 " << Percentile(delaysUs, 0.9) << ", max " << Percentile(delaysUs, 1)
       << std::setprecision(3) << "; of the bound: min " << Percentile(delayFractions, 0)
       << ", median " << Percentile(delayFractions, 0.5) << ", p90 "
       << Percentile(delayFractions, 0.9) << ", max " << Percentile(delayFractions, 1) << "\n";
    os << "recurrences " << recurrences << " (in " << runsWithRecurrence << " runs; "
       << recurrencesSameTrigger << " from a trigger declared before), itsy-recovery drops "
       << recoveryDrops << ", lossless-overflow drops " << losslessDrops << ", recovery failures "
       << recoveryFailures << "\n";
    for (const std::string& f : failures)
    {
        os << "  " << f << "\n";
    }
    os << std::setprecision(1) << "RESULT runs=" << runs << " deadlocked=" << deadlocked
       << " clean=" << clean << " transient=" << transient << " false_positives=" << falsePositives
       << " false_negatives=" << falseNegatives << " dissolved=" << dissolved
       << " delay_us_median=" << Percentile(delaysUs, 0.5)
       << " delay_us_p90=" << Percentile(delaysUs, 0.9)
       << " delay_us_max=" << Percentile(delaysUs, 1) << " lossless_drops=" << losslessDrops
       << " recurrences=" << recurrences << " recovery_failures=" << recoveryFailures << "\n";
}

} // namespace ns3
