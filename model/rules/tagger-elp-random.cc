/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * Random loop-free host-to-host paths (AddRandomPaths).
 */

#include "tagger-elp-core.h"

#include <algorithm>
#include <random>

namespace ns3
{
namespace tagger
{

namespace
{

using namespace detail;

/// One random path to draw: its host pair and the seed of its walk.
struct Draw
{
    NodeId s;
    NodeId t;
    uint64_t seed;
    NodeId key; //!< BFS root: t's anchor when attached, else t
};

/**
 * Draws the random paths of AddRandomPaths.  The pairs and per-path seeds come
 * from one generator in draw order; the paths are then computed grouped by
 * destination (one BFS per destination key) and returned in draw order.
 */
class RandomPaths
{
  public:
    RandomPaths(const Net& net, uint32_t limit)
        : m_net(net),
          m_limit(limit),
          m_dist(net.n, -1),
          m_vis(net.n, 0)
    {
    }

    /// n random paths from seed, in draw order.
    std::vector<Path> Run(uint64_t n, uint64_t seed)
    {
        std::vector<Draw> draws = DrawPairs(n, seed);
        std::vector<uint64_t> order(n);
        for (uint64_t i = 0; i < n; ++i)
        {
            order[i] = i;
        }
        std::stable_sort(order.begin(), order.end(), [&draws](uint64_t a, uint64_t b) {
            return draws[a].key < draws[b].key;
        });
        std::vector<Path> result(n);
        for (uint64_t idx : order)
        {
            result[idx] = PathFor(draws[idx]);
        }
        return result;
    }

  private:
    /// A random source and a random other destination host.
    void DrawPair(std::mt19937_64& rng, Draw& d) const
    {
        const std::vector<NodeId>& hosts = m_net.hosts;
        const uint64_t nh = hosts.size();
        d.s = hosts[UniformIndex(rng, nh)];
        d.t = hosts[UniformIndex(rng, nh - 1)];
        if (d.t == d.s)
        {
            d.t = hosts[nh - 1];
        }
    }

    /// The BFS root for destination t.
    NodeId KeyOf(NodeId t) const
    {
        return m_net.anchorOf[t] != kNone ? m_net.anchorOf[t] : t;
    }

    std::vector<Draw> DrawPairs(uint64_t n, uint64_t seed) const
    {
        std::mt19937_64 rng(seed);
        std::vector<Draw> draws(n);
        for (Draw& d : draws)
        {
            DrawPair(rng, d);
            d.seed = rng();
            d.key = KeyOf(d.t);
        }
        return draws;
    }

    /// Distances from key over forwarders (kept while the key stays the same).
    void EnsureBfs(NodeId key)
    {
        if (key == m_curKey)
        {
            return;
        }
        for (NodeId v : m_bfs)
        {
            m_dist[v] = -1;
        }
        BfsOverForwarders(m_net, key, m_dist, m_bfs);
        m_curKey = key;
    }

    /// Links from node v to d.t (-1: unreachable); the BFS is from d.key.
    int32_t ToT(const Draw& d, NodeId v) const
    {
        if (v == d.t)
        {
            return 0;
        }
        if (!m_net.fwd[v] || m_dist[v] < 0)
        {
            return -1;
        }
        return m_dist[v] + (d.key != d.t ? 1 : 0);
    }

    /// Links from host d.s to d.t (-1: unreachable).
    int32_t StartDist(const Draw& d) const
    {
        int32_t best = -1;
        for (uint32_t i = m_net.begin[d.s]; i < m_net.begin[d.s + 1]; ++i)
        {
            int32_t dw = ToT(d, m_net.nbr[i]);
            if (dw >= 0 && (best < 0 || dw + 1 < best))
            {
                best = dw + 1;
            }
        }
        return best;
    }

    /// The path of one draw: a random walk, or a random shortest path when 1000 walks got stuck.
    Path PathFor(Draw d)
    {
        std::mt19937_64 prng(d.seed);
        const int32_t sd = Connect(d, prng);
        const int32_t budget = std::max<int32_t>(static_cast<int32_t>(m_limit), sd);
        Path path;
        for (uint32_t attempt = 0; attempt < 1000 && path.empty(); ++attempt)
        {
            path = Walk(d, budget, prng);
        }
        if (path.empty())
        {
            path = RandomShortest(d, sd, prng);
        }
        return path;
    }

    /**
     * Redraw the pair (from prng) while d.t cannot be reached from d.s;
     * return the distance between them.
     */
    int32_t Connect(Draw& d, std::mt19937_64& prng)
    {
        for (uint32_t redraw = 0;; ++redraw)
        {
            EnsureBfs(d.key);
            const int32_t sd = StartDist(d);
            if (sd >= 0)
            {
                return sd;
            }
            if (redraw == 1000)
            {
                throw TaggerError("random paths: no path between 1000 random pairs of hosts "
                                  "(the hosts are not connected)");
            }
            DrawPair(prng, d);
            d.key = KeyOf(d.t);
        }
    }

    /**
     * One random walk from d.s without repeated nodes, each step uniform
     * among the neighbours from which d.t is still reachable within budget
     * links; empty when it got stuck.
     */
    Path Walk(const Draw& d, int32_t budget, std::mt19937_64& prng)
    {
        const Net& net = m_net;
        ++m_stamp;
        Path walk{d.s};
        m_vis[d.s] = m_stamp;
        NodeId v = d.s;
        while (v != d.t)
        {
            int32_t g = static_cast<int32_t>(walk.size()) - 1;
            m_cands.clear();
            for (uint32_t i = net.begin[v]; i < net.begin[v + 1]; ++i)
            {
                NodeId w = net.nbr[i];
                int32_t dw = ToT(d, w);
                if (dw < 0 || m_vis[w] == m_stamp || g + 1 + dw > budget)
                {
                    continue;
                }
                m_cands.push_back(i);
            }
            if (m_cands.empty())
            {
                return {};
            }
            v = net.adj[m_cands[UniformIndex(prng, m_cands.size())]].nbr;
            m_vis[v] = m_stamp;
            walk.push_back(v);
        }
        return walk;
    }

    /// A random shortest path from d.s (sd links from d.t); always succeeds.
    Path RandomShortest(const Draw& d, int32_t sd, std::mt19937_64& prng)
    {
        const Net& net = m_net;
        Path path{d.s};
        NodeId v = d.s;
        while (v != d.t)
        {
            int32_t dv = v == d.s ? sd : ToT(d, v);
            m_cands.clear();
            for (uint32_t i = net.begin[v]; i < net.begin[v + 1]; ++i)
            {
                if (ToT(d, net.nbr[i]) == dv - 1)
                {
                    m_cands.push_back(i);
                }
            }
            v = net.adj[m_cands[UniformIndex(prng, m_cands.size())]].nbr;
            path.push_back(v);
        }
        return path;
    }

    const Net& m_net;
    uint32_t m_limit; //!< links a walk may take (at least the pair's distance)
    std::vector<int32_t> m_dist;
    std::vector<NodeId> m_bfs;
    NodeId m_curKey{kNone};
    std::vector<uint64_t> m_vis;
    uint64_t m_stamp{0};
    std::vector<uint32_t> m_cands;
};

} // namespace

void
AddRandomPaths(Elp& elp, const Topology& topo, uint64_t n, uint64_t seed)
{
    if (n == 0)
    {
        return;
    }
    // a default-constructed HopGraph has no topology: start a fresh one
    if (elp.graph.IsEmpty())
    {
        elp.graph = HopGraph(topo); // nothing is lost: an empty graph has no entry
    }
    else if (&elp.graph.GetTopology() != &topo)
    {
        throw TaggerError("random paths: the ELP was built for another topology");
    }
    Net net(topo);
    if (net.hosts.size() < 2)
    {
        throw TaggerError("random paths need at least two hosts");
    }
    const uint32_t limit = elp.longestPath > 0 ? elp.longestPath : kMaxLevel + 1;
    // The verifier checks an up-down family with its state machine, not with the
    // HopGraph, so random paths added to one are always kept explicitly (n of
    // them) to be verified path by path.
    // So are those added to a family kept as next hops (Elp::nextHops), to be
    // written beside them.
    const bool store =
        elp.paths.size() == elp.pathCount || elp.upDownBounces >= 0 || !elp.nextHops.empty();
    std::vector<Path> result = RandomPaths(net, limit).Run(n, seed);
    for (Path& p : result)
    {
        elp.graph.AddPath(p);
        elp.longestPath = std::max<uint32_t>(elp.longestPath, static_cast<uint32_t>(p.size() - 1));
    }
    elp.pathCount = SatAdd(elp.pathCount, n);
    if (store)
    {
        for (Path& p : result)
        {
            elp.paths.push_back(std::move(p));
        }
    }
}

} // namespace tagger
} // namespace ns3
