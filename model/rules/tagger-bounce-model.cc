/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-bounce-model.h"

#include "tagger-reroute.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>
#include <thread>

namespace ns3
{
namespace tagger
{

uint64_t
HashMix(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

namespace
{

/// \param topo topology \param n a node \return its layer; throws when it has none
int32_t
LayerOf(const Topology& topo, NodeId n)
{
    int32_t layer = topo.GetNode(n).layer;
    if (layer < 0)
    {
        throw TaggerError("bounce model: node '" + topo.GetNode(n).name +
                          "' has no layer (the topology must be layered)");
    }
    return layer;
}

/// Run \p work(t) for t = 0 .. threads-1 on \p threads threads (inline for one).
void
RunThreads(unsigned threads, const std::function<void(unsigned)>& work)
{
    if (threads <= 1)
    {
        work(0);
        return;
    }
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
    {
        pool.emplace_back(work, t);
    }
    for (std::thread& th : pool)
    {
        th.join();
    }
}

} // namespace

void
TableRoutes::SetEcmpSet(NodeId sw, NodeId dstHost, const std::vector<PortNo>& set)
{
    m_sets[{sw, dstHost}] = set;
}

void
TableRoutes::GetEcmpSet(NodeId sw, NodeId dstHost, std::vector<PortNo>& set) const
{
    auto it = m_sets.find({sw, dstHost});
    set = it == m_sets.end() ? std::vector<PortNo>() : it->second;
}

FlowWalk
WalkFlow(const Topology& topo,
         const RouteView& routes,
         NodeId src,
         NodeId dst,
         const FlowChooser& choose,
         uint32_t maxSwitches,
         bool redraw)
{
    if (src >= topo.GetNNodes() || dst >= topo.GetNNodes() || !topo.IsHost(src) ||
        !topo.IsHost(dst))
    {
        throw TaggerError("bounce model: a flow's ends must be hosts");
    }
    FlowWalk walk;
    walk.nodes.push_back(src);
    NodeId prev = src;
    NodeId cur = topo.GetPeer(src, 0).node;
    std::vector<PortNo> set;
    while (cur != dst)
    {
        if (cur == kNone || !topo.IsForwarder(cur))
        {
            walk.outcome = WalkOutcome::UNREACHABLE;
            return walk;
        }
        auto visit = uint32_t(std::count(walk.nodes.begin() + 1, walk.nodes.end(), cur));
        walk.nodes.push_back(cur);
        if ((visit > 0 && !redraw) || walk.nodes.size() > maxSwitches + 1)
        {
            walk.outcome = WalkOutcome::LOOPED;
            return walk;
        }
        routes.GetEcmpSetOnVisit(cur, dst, visit, set);
        if (set.empty())
        {
            walk.outcome = WalkOutcome::UNREACHABLE;
            return walk;
        }
        uint32_t pick = set.size() == 1 ? 0 : choose(cur, set.size(), visit);
        NodeId next = topo.GetPeer(cur, set[pick]).node;
        int32_t layer = LayerOf(topo, cur);
        if (next != kNone && LayerOf(topo, prev) > layer && LayerOf(topo, next) > layer)
        {
            ++walk.bounces;
        }
        prev = cur;
        cur = next;
    }
    walk.nodes.push_back(dst);
    return walk;
}

EcmpDistances::EcmpDistances(const Topology& topo, unsigned threads)
    : m_topo(topo),
      m_access(topo.GetNNodes(), kNone),
      m_row(topo.GetNNodes(), kNone),
      m_col(topo.GetNNodes(), kNone)
{
    std::vector<NodeId> accesses;
    for (NodeId h : topo.GetHosts())
    {
        NodeId a = topo.GetNode(h).ports == 1 ? topo.GetPeer(h, 0).node : kNone;
        if (topo.GetNode(h).relay || a == kNone || !topo.IsForwarder(a))
        {
            throw TaggerError("bounce model: host '" + topo.GetNode(h).name +
                              "' must have exactly one link, to a switch, and not relay");
        }
        m_access[h] = a;
        if (m_row[a] == kNone)
        {
            m_row[a] = uint32_t(accesses.size());
            accesses.push_back(a);
        }
    }
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        if (topo.IsForwarder(n))
        {
            m_col[n] = uint32_t(m_nFwd++);
        }
    }
    m_dist.assign(accesses.size() * m_nFwd, kUnreachable);
    threads = std::max(1u, threads);
    RunThreads(threads, [this, &accesses, threads](unsigned t) {
        for (std::size_t i = t; i < accesses.size(); i += threads)
        {
            Bfs(accesses[i]);
        }
    });
}

void
EcmpDistances::Bfs(NodeId a)
{
    uint8_t* row = &m_dist[std::size_t(m_row[a]) * m_nFwd];
    row[m_col[a]] = 0;
    std::deque<NodeId> queue(1, a);
    while (!queue.empty())
    {
        NodeId u = queue.front();
        queue.pop_front();
        uint8_t next = row[m_col[u]] + 1;
        if (next == kUnreachable)
        {
            throw TaggerError("bounce model: a path longer than 254 switches");
        }
        for (PortNo p = 0; p < m_topo.GetNode(u).ports; ++p)
        {
            NodeId w = m_topo.GetPeer(u, p).node;
            if (w != kNone && m_topo.IsForwarder(w) && row[m_col[w]] == kUnreachable)
            {
                row[m_col[w]] = next;
                queue.push_back(w);
            }
        }
    }
}

BounceRoutes::BounceRoutes(const EcmpDistances& dist,
                           const std::vector<uint32_t>& failedLinks,
                           uint64_t seed)
    : m_dist(dist),
      m_failures(dist.GetTopology().GetNNodes()),
      m_seed(seed)
{
    const Topology& topo = dist.GetTopology();
    std::vector<uint32_t> downAt(topo.GetNPorts(), kNone); // failure step per port
    for (uint32_t s = 0; s < failedLinks.size(); ++s)
    {
        if (failedLinks[s] >= topo.GetLinks().size())
        {
            throw TaggerError("bounce model: no link " + std::to_string(failedLinks[s]));
        }
        const TopoLink& l = topo.GetLinks()[failedLinks[s]];
        for (const PortRef& e : {l.a, l.b})
        {
            uint32_t& at = downAt[topo.GetPortIndex(e.node, e.port)];
            at = std::min(at, s);
        }
    }
    for (uint32_t s = 0; s < failedLinks.size(); ++s)
    {
        const TopoLink& l = topo.GetLinks()[failedLinks[s]];
        for (const PortRef& e : {l.a, l.b})
        {
            if (!topo.IsForwarder(e.node) || downAt[topo.GetPortIndex(e.node, e.port)] != s)
            {
                continue; // a host end, or a link failed twice
            }
            auto up = [&topo, &downAt, &e, s](PortNo q) {
                return downAt[topo.GetPortIndex(e.node, q)] > s;
            };
            m_failures[e.node].push_back({e.port, s, RerouteCandidates(topo, up, e.node, e.port)});
        }
    }
}

void
BounceRoutes::GetEcmpSet(NodeId sw, NodeId dstHost, std::vector<PortNo>& set) const
{
    GetEcmpSetOnVisit(sw, dstHost, 0, set);
}

void
BounceRoutes::GetEcmpSetOnVisit(NodeId sw,
                                NodeId dstHost,
                                uint32_t visit,
                                std::vector<PortNo>& set) const
{
    const Topology& topo = m_dist.GetTopology();
    set.clear();
    NodeId access = m_dist.GetAccess(dstHost);
    uint8_t d = m_dist.Get(sw, access);
    for (PortNo p = 0; p < topo.GetNode(sw).ports && d != EcmpDistances::kUnreachable; ++p)
    {
        NodeId w = topo.GetPeer(sw, p).node;
        if (w == dstHost ||
            (sw != access && w != kNone && topo.IsForwarder(w) && m_dist.Get(w, access) + 1 == d))
        {
            set.push_back(p);
        }
    }
    for (const Failure& f : m_failures[sw])
    {
        uint64_t key = HashMix(HashMix(m_seed, sw), HashMix(dstHost, f.step));
        key = visit == 0 ? key : HashMix(key, visit);
        ApplyLocalReroute(set, f.port, f.candidates, [key](uint32_t n) {
            return uint32_t(key % n);
        });
    }
}

std::vector<uint32_t>
DrawLinkFailures(const Topology& topo, double rate, uint64_t seed)
{
    if (!(rate >= 0 && rate <= 1))
    {
        throw TaggerError("bounce model: failure rate " + std::to_string(rate) +
                          " is not within [0, 1]");
    }
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> failed;
    for (uint32_t i = 0; i < topo.GetLinks().size(); ++i)
    {
        const TopoLink& l = topo.GetLinks()[i];
        if (topo.IsHost(l.a.node) || topo.IsHost(l.b.node))
        {
            continue;
        }
        double u = double(rng() >> 11) * 0x1.0p-53; // uniform in [0, 1)
        if (u < rate)
        {
            failed.push_back(i);
        }
    }
    return failed;
}

void
BounceCounts::Add(const BounceCounts& o)
{
    flows += o.flows;
    for (std::size_t i = 0; i < bounced.size(); ++i)
    {
        bounced[i] += o.bounced[i];
    }
    looped += o.looped;
    unreachable += o.unreachable;
}

BounceCounts
RunBounceFlows(const RouteView& routes,
               const EcmpDistances& dist,
               uint64_t flows,
               uint64_t seed,
               unsigned threads,
               bool redraw)
{
    const Topology& topo = dist.GetTopology();
    std::vector<NodeId> hosts = topo.GetHosts();
    if (hosts.size() < 2)
    {
        throw TaggerError("bounce model: fewer than two hosts");
    }
    threads = std::max(1u, threads);
    std::vector<BounceCounts> part(threads);
    RunThreads(threads, [&](unsigned t) {
        for (uint64_t i = flows * t / threads; i < flows * (t + 1) / threads; ++i)
        {
            uint64_t key = HashMix(seed, i);
            NodeId src = hosts[key % hosts.size()];
            NodeId dst = src;
            for (uint64_t j = 1; dst == src; ++j)
            {
                dst = hosts[HashMix(key, j) % hosts.size()];
            }
            auto choose = [key](NodeId sw, uint32_t n, uint32_t visit) {
                uint64_t h = HashMix(~key, sw);
                return uint32_t((visit == 0 ? h : HashMix(h, visit)) % n);
            };
            FlowWalk w = WalkFlow(topo, routes, src, dst, choose, 63, redraw);
            BounceCounts& c = part[t];
            ++c.flows;
            if (w.outcome == WalkOutcome::DELIVERED)
            {
                ++c.bounced[std::min<uint32_t>(w.bounces, 3)];
            }
            c.looped += w.outcome == WalkOutcome::LOOPED;
            c.unreachable += w.outcome == WalkOutcome::UNREACHABLE;
        }
    });
    BounceCounts total;
    for (const BounceCounts& c : part)
    {
        total.Add(c);
    }
    return total;
}

MeanCi
MeanCi95(const std::vector<double>& x)
{
    if (x.empty())
    {
        throw TaggerError("bounce model: no sample for a confidence interval");
    }
    // Student t, 97.5 % quantile, for 1 .. 30 degrees of freedom; 1.96 beyond.
    static const double kT[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    MeanCi r;
    for (double v : x)
    {
        r.mean += v / x.size();
    }
    if (x.size() < 2)
    {
        return r;
    }
    double ss = 0;
    for (double v : x)
    {
        ss += (v - r.mean) * (v - r.mean);
    }
    std::size_t df = x.size() - 1;
    double t = df <= 30 ? kT[df - 1] : 1.96;
    r.half = t * std::sqrt(ss / df / x.size());
    return r;
}

} // namespace tagger
} // namespace ns3
