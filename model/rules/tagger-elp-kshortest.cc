/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * The k shortest loop-free paths per host pair (MakeKShortestElp).
 */

#include "tagger-elp-core.h"

#include <algorithm>

namespace ns3
{
namespace tagger
{

namespace
{

using namespace detail;

/**
 * The k first loop-free paths between two unit anchors in the order (number
 * of links, then node ids lexicographically), which is what Yen's algorithm
 * with lexicographic tie-breaking returns.  Found by iterative deepening: a
 * depth-first search in increasing neighbour id order enumerates the paths of
 * exactly l links in lexicographic order, pruned with the BFS distance to the
 * destination; l grows until k paths are found or no branch was cut by the
 * length bound.  A pair whose search exceeds a work budget falls back to Yen's
 * algorithm proper (polynomial).
 */
class KShortest
{
  public:
    KShortest(const Net& net, uint32_t k, uint64_t maxStore, Elp& elp)
        : m_net(net),
          m_k(k),
          m_maxStore(maxStore),
          m_store(maxStore > 0),
          m_elp(elp),
          m_uOut(net.topo)
    {
        m_dist.assign(net.n, -1);
        m_vis.assign(net.n, 0);
        m_vBase.assign(net.n + 1, 0);
        for (NodeId x = 0; x < net.n; ++x)
        {
            m_vBase[x + 1] = m_vBase[x] + (net.AttCount(x) > 0 ? net.topo.GetNode(x).ports : 0);
        }
        m_vMask.assign(m_vBase.back(), 0);
        m_budget = std::max<uint64_t>(20000, 4 * net.adj.size());
    }

    void Run()
    {
        const Net& net = m_net;
        m_useDp = m_k <= kMaxDpK;
        if (m_useDp)
        {
            // BFS orders hold the destination and forwarders only
            size_t slots = 1;
            for (NodeId v = 0; v < net.n; ++v)
            {
                slots += net.fwd[v] ? 1 : 0;
            }
            m_pos.assign(net.n, kNone);
            m_dpCnt.assign(slots, 0);
            m_dp.assign(slots * m_k, DpItem{0, 0});
        }
        for (NodeId y : net.units)
        {
            Bfs(y);
            if (m_useDp)
            {
                Dp(y);
            }
            for (NodeId x : net.units)
            {
                if (x != y)
                {
                    Pair(x, y);
                }
            }
            for (NodeId v : m_order)
            {
                m_dist[v] = -1;
            }
            Intra(y);
        }
        FillAttachedSources(net, m_uOut, m_elp.graph);
        for (NodeId y = 0; y < net.n; ++y)
        {
            for (uint32_t p = m_vBase[y]; p < m_vBase[y + 1]; ++p)
            {
                if (uint64_t m = m_vMask[p])
                {
                    for (uint32_t t = net.attBegin[y]; t < net.attBegin[y + 1]; ++t)
                    {
                        m_elp.graph.AddMask(y, p - m_vBase[y], net.adj[net.att[t]].out, m);
                    }
                }
            }
        }
        m_elp.pathCount = m_count;
        m_elp.longestPath = m_longest;
        if (!m_store)
        {
            m_elp.paths.clear();
        }
        SortPaths(m_elp.paths);
    }

    /// Number of pairs that needed Yen's algorithm (for tests).
    uint64_t GetYenPairs() const
    {
        return m_yenPairs;
    }

    void SetBudget(uint64_t b)
    {
        m_budget = b;
    }

  private:
    /// Distances to y over forwarders (y itself is the only non-forwarder allowed).
    void Bfs(NodeId y)
    {
        BfsOverForwarders(m_net, y, m_dist, m_order);
    }

    /**
     * The lexicographically first min(k, all) shortest paths from every node
     * to y, by dynamic programming over the BFS order: the paths of v are
     * those of its closer neighbours in increasing id order, each prefixed
     * with v (node ids decide lexicographic order at the first difference).
     * m_dp holds per BFS position k items (first entry, index of the rest at
     * the next node).
     */
    void Dp(NodeId y)
    {
        const Net& net = m_net;
        for (uint32_t q = 0; q < m_order.size(); ++q)
        {
            m_pos[m_order[q]] = q;
        }
        for (uint32_t q = 1; q < m_order.size(); ++q)
        {
            const NodeId v = m_order[q];
            const int32_t dv = m_dist[v];
            DpItem* out = &m_dp[size_t(q) * m_k];
            uint32_t c = 0;
            if (!net.fwd[y] && dv == 1)
            {
                out[c++] = DpItem{net.FindEntry(v, y), 0};
            }
            else
            {
                for (uint32_t i = net.begin[v]; i < net.fwdEnd[v] && c < m_k; ++i)
                {
                    const NodeId w = net.nbr[i];
                    if (m_dist[w] != dv - 1)
                    {
                        continue;
                    }
                    if (w == y)
                    {
                        out[c++] = DpItem{i, 0};
                        continue;
                    }
                    const uint32_t cw = m_dpCnt[m_pos[w]];
                    for (uint32_t j = 0; j < cw && c < m_k; ++j)
                    {
                        out[c++] = DpItem{i, j};
                    }
                }
            }
            m_dpCnt[q] = c;
        }
    }

    /// Lower bound on the links from x to y (-1: unreachable).
    int32_t StartDistance(NodeId x, NodeId y) const
    {
        if (m_net.fwd[x])
        {
            return m_dist[x];
        }
        int32_t best = -1;
        for (uint32_t i = m_net.begin[x]; i < m_net.begin[x + 1]; ++i)
        {
            NodeId w = m_net.nbr[i];
            int32_t d = w == y ? 1 : (m_net.fwd[w] && m_dist[w] >= 0 ? m_dist[w] + 1 : -1);
            if (d > 0 && (best < 0 || d < best))
            {
                best = d;
            }
        }
        return best;
    }

    /// Links an anchor path may have so that no path passes more than kMaxLevel forwarders.
    uint32_t MaxLinks(NodeId x, NodeId y) const
    {
        // forwarders = links - 1, + 1 when a source is attached to x, + 1 when a
        // destination is attached to y
        uint32_t extra = (m_net.AttCount(x) > 0 ? 1 : 0) + (m_net.AttCount(y) > 0 ? 1 : 0);
        return kMaxLevel + 1 - extra;
    }

    void Pair(NodeId x, NodeId y)
    {
        int32_t d0 = StartDistance(x, y);
        if (d0 < 0)
        {
            return;
        }
        m_paths.clear();
        m_pathBegin.assign(1, 0);
        const uint32_t maxLinks = MaxLinks(x, y);
        if (m_useDp && m_net.fwd[x] && m_dpCnt[m_pos[x]] == m_k)
        {
            // at least k shortest paths: the first k are the DP's
            if (static_cast<uint32_t>(d0) > maxLinks)
            {
                ThrowTooLong();
            }
            for (uint32_t j = 0; j < m_k; ++j)
            {
                NodeId v = x;
                uint32_t idx = j;
                while (v != y)
                {
                    const DpItem& it = m_dp[size_t(m_pos[v]) * m_k + idx];
                    m_paths.push_back(it.entry);
                    v = m_net.nbr[it.entry];
                    idx = it.rest;
                }
                m_pathBegin.push_back(static_cast<uint32_t>(m_paths.size()));
                Record(x, y, m_pathBegin[j], m_pathBegin[j + 1]);
            }
            return;
        }
        bool useYen = false;
        m_work = 0;
        uint32_t len = static_cast<uint32_t>(d0);
        while (m_pathBegin.size() - 1 < m_k)
        {
            if (len > maxLinks)
            {
                useYen = true; // Yen tells whether longer paths really exist
                break;
            }
            uint32_t next = kNone;
            if (!Dfs(x, y, len, next))
            {
                useYen = true;
                break;
            }
            if (next == kNone)
            {
                break; // no branch was cut by the length bound: no longer path exists
            }
            len = next;
        }
        if (useYen)
        {
            ++m_yenPairs;
            Yen(x, y);
        }
        for (size_t i = 0; i + 1 < m_pathBegin.size(); ++i)
        {
            Record(x, y, m_pathBegin[i], m_pathBegin[i + 1]);
        }
    }

    /**
     * Append the paths of exactly len links from x to y, lexicographically,
     * until k are known.  next becomes the smallest length a branch cut by the
     * length bound would need (kNone: none was cut).  Returns false when the
     * work budget ran out.
     */
    bool Dfs(NodeId x, NodeId y, uint32_t len, uint32_t& next)
    {
        const Net& net = m_net;
        ++m_stamp;
        m_vis[x] = m_stamp;
        m_frames.clear();
        m_stackEntries.clear();
        m_frames.push_back(Frame{x, net.begin[x], net.fwdEnd[x]});
        while (!m_frames.empty())
        {
            Frame& f = m_frames.back();
            const uint32_t g = static_cast<uint32_t>(m_frames.size()) - 1; // links so far
            if (g + 1 == len)
            {
                if (LastLink(x, y, f.v, g, next))
                {
                    return true;
                }
                f.it = f.end;
            }
            if (f.it >= f.end)
            {
                m_vis[f.v] = 0;
                m_frames.pop_back();
                if (!m_stackEntries.empty())
                {
                    m_stackEntries.pop_back();
                }
                continue;
            }
            const uint32_t i = f.it++;
            const NodeId w = net.nbr[i];
            if (w == y || m_vis[w] == m_stamp || m_dist[w] < 0)
            {
                continue;
            }
            const uint32_t need = g + 1 + static_cast<uint32_t>(m_dist[w]);
            if (need > len)
            {
                Cut(next, need);
                continue;
            }
            if (++m_work > m_budget)
            {
                return false;
            }
            m_vis[w] = m_stamp;
            m_stackEntries.push_back(i);
            m_frames.push_back(Frame{w, net.begin[w], net.fwdEnd[w]});
        }
        return true;
    }

    /// next = min(next, need): a branch that the length bound cut would need `need` links.
    static void Cut(uint32_t& next, uint32_t need)
    {
        if (need < next)
        {
            next = need;
        }
    }

    /**
     * The last link of a Dfs path: v is reached with g links and only y itself
     * can follow.  Appends the path when v links to y and notes in next the
     * lengths the other branches would need.  Returns true when that path was
     * the k-th.
     */
    bool LastLink(NodeId x, NodeId y, NodeId v, uint32_t g, uint32_t& next)
    {
        const Net& net = m_net;
        uint32_t e = kNone;
        if (v == x || m_dist[v] == 1)
        {
            e = net.FindEntry(v, y);
        }
        if (e != kNone)
        {
            m_paths.insert(m_paths.end(), m_stackEntries.begin(), m_stackEntries.end());
            m_paths.push_back(e);
            m_pathBegin.push_back(static_cast<uint32_t>(m_paths.size()));
            if (m_pathBegin.size() - 1 == m_k)
            {
                return true;
            }
        }
        for (uint32_t i = net.begin[v]; i < net.fwdEnd[v]; ++i)
        {
            NodeId w = net.nbr[i];
            if (w != y && m_vis[w] != m_stamp && m_dist[w] > 0)
            {
                Cut(next, g + 1 + static_cast<uint32_t>(m_dist[w]));
            }
        }
        return false;
    }

    /**
     * Lexicographically smallest shortest path from spur to y avoiding the
     * nodes marked in m_yenBlocked and the first hops in m_yenNoNext; empty
     * when none.
     */
    Path SpurPath(NodeId spur, NodeId y)
    {
        const Net& net = m_net;
        std::fill(m_ydist.begin(), m_ydist.end(), -1);
        std::vector<NodeId> queue{y};
        m_ydist[y] = 0;
        for (size_t q = 0; q < queue.size(); ++q)
        {
            NodeId v = queue[q];
            for (uint32_t i = net.begin[v]; i < net.fwdEnd[v]; ++i)
            {
                NodeId w = net.nbr[i];
                if (m_ydist[w] < 0 && !m_yenBlocked[w] && w != spur)
                {
                    m_ydist[w] = m_ydist[v] + 1;
                    queue.push_back(w);
                }
            }
        }
        // first hop from the spur: smallest id among the closest allowed neighbours
        NodeId best = kNone;
        int32_t bestD = -1;
        for (uint32_t i = net.begin[spur]; i < net.begin[spur + 1]; ++i)
        {
            NodeId w = net.nbr[i];
            if (m_ydist[w] < 0 ||
                std::find(m_yenNoNext.begin(), m_yenNoNext.end(), w) != m_yenNoNext.end())
            {
                continue;
            }
            if (bestD < 0 || m_ydist[w] < bestD || (m_ydist[w] == bestD && w < best))
            {
                best = w;
                bestD = m_ydist[w];
            }
        }
        if (best == kNone)
        {
            return {};
        }
        Path p{spur, best};
        NodeId v = best;
        while (v != y)
        {
            NodeId next = kNone;
            for (uint32_t i = net.begin[v]; i < net.begin[v + 1]; ++i)
            {
                NodeId w = net.nbr[i];
                if (m_ydist[w] == m_ydist[v] - 1 && (next == kNone || w < next))
                {
                    next = w;
                }
            }
            p.push_back(next);
            v = next;
        }
        return p;
    }

    static bool Less(const Path& a, const Path& b)
    {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    }

    /**
     * One spur of Yen's algorithm: the path that follows `last` up to node i,
     * then leaves it by a first hop no found path with that prefix took, added
     * to the sorted candidates when new.
     */
    void AddSpurCandidate(const std::vector<Path>& found,
                          const Path& last,
                          size_t i,
                          NodeId y,
                          std::vector<Path>& cands)
    {
        m_yenNoNext.clear();
        for (const Path& p : found)
        {
            if (p.size() > i + 1 && std::equal(p.begin(), p.begin() + i + 1, last.begin()))
            {
                m_yenNoNext.push_back(p[i + 1]);
            }
        }
        for (size_t j = 0; j < i; ++j)
        {
            m_yenBlocked[last[j]] = 1;
        }
        Path spur = SpurPath(last[i], y);
        for (size_t j = 0; j < i; ++j)
        {
            m_yenBlocked[last[j]] = 0;
        }
        if (spur.empty())
        {
            return;
        }
        Path cand(last.begin(), last.begin() + i);
        cand.insert(cand.end(), spur.begin(), spur.end());
        auto pos = std::lower_bound(cands.begin(), cands.end(), cand, Less);
        if (pos == cands.end() || *pos != cand)
        {
            cands.insert(pos, cand);
        }
    }

    /// Yen's algorithm for the pair (x, y); the result replaces m_paths.
    void Yen(NodeId x, NodeId y)
    {
        const Net& net = m_net;
        m_ydist.assign(net.n, -1);
        m_yenBlocked.assign(net.n, 0);
        std::vector<Path> found;
        std::vector<Path> cands;
        m_yenNoNext.clear();
        Path first = SpurPath(x, y);
        if (!first.empty())
        {
            found.push_back(first);
        }
        while (!found.empty() && found.size() < m_k)
        {
            const Path last = found.back();
            for (size_t i = 0; i + 1 < last.size(); ++i)
            {
                AddSpurCandidate(found, last, i, y, cands);
            }
            if (cands.empty())
            {
                break;
            }
            found.push_back(cands.front());
            cands.erase(cands.begin());
        }
        m_paths.clear();
        m_pathBegin.assign(1, 0);
        for (const Path& p : found)
        {
            if (p.size() - 1 > MaxLinks(x, y))
            {
                ThrowTooLong();
            }
            for (size_t i = 0; i + 1 < p.size(); ++i)
            {
                m_paths.push_back(net.FindEntry(p[i], p[i + 1]));
            }
            m_pathBegin.push_back(static_cast<uint32_t>(m_paths.size()));
        }
    }

    /// Account one anchor path (entries [b, e) of m_paths) for all its endpoint pairs.
    void Record(NodeId x, NodeId y, uint32_t b, uint32_t e)
    {
        const Net& net = m_net;
        HopGraph& g = m_elp.graph;
        const uint32_t links = e - b;
        const uint64_t base = (net.host[x] ? 1 : 0) | (net.AttCount(x) > 0 ? 2 : 0);
        if (net.AttCount(x) > 0)
        {
            m_uOut.Set(x, net.adj[m_paths[b]].out);
        }
        for (uint32_t i = 1; i < links; ++i)
        {
            const Adj& prev = net.adj[m_paths[b + i - 1]];
            g.AddMask(prev.nbr, prev.farIn, net.adj[m_paths[b + i]].out, base << i);
        }
        if (net.AttCount(y) > 0)
        {
            m_vMask[m_vBase[y] + net.adj[m_paths[e - 1]].farIn] |= base << links;
        }
        const uint64_t nSrc = (net.host[x] ? 1 : 0) + net.AttCount(x);
        const uint64_t nDst = (net.host[y] ? 1 : 0) + net.AttCount(y);
        m_count = SatAdd(m_count, SatMul(nSrc, nDst));
        m_longest = std::max(m_longest, HighestBit(base) + links + (net.AttCount(y) > 0 ? 1 : 0));
        if (KeepStoring())
        {
            Store(x, y, b, e);
        }
    }

    /// false once more than maxStore paths were counted (the stored ones are then dropped).
    bool KeepStoring()
    {
        if (m_store && m_count > m_maxStore)
        {
            m_store = false;
            m_elp.paths.clear();
            m_elp.paths.shrink_to_fit();
        }
        return m_store;
    }

    /// Store the host-to-host paths of one anchor path (entries [b, e) of m_paths).
    void Store(NodeId x, NodeId y, uint32_t b, uint32_t e)
    {
        const Net& net = m_net;
        Path core{x};
        for (uint32_t i = b; i < e; ++i)
        {
            core.push_back(net.adj[m_paths[i]].nbr);
        }
        std::vector<NodeId> srcs;
        std::vector<NodeId> dsts;
        if (net.host[x])
        {
            srcs.push_back(x);
        }
        for (uint32_t k = net.attBegin[x]; k < net.attBegin[x + 1]; ++k)
        {
            srcs.push_back(net.adj[net.att[k]].nbr);
        }
        if (net.host[y])
        {
            dsts.push_back(y);
        }
        for (uint32_t k = net.attBegin[y]; k < net.attBegin[y + 1]; ++k)
        {
            dsts.push_back(net.adj[net.att[k]].nbr);
        }
        for (NodeId s : srcs)
        {
            for (NodeId t : dsts)
            {
                Path p;
                if (s != x)
                {
                    p.push_back(s);
                }
                p.insert(p.end(), core.begin(), core.end());
                if (t != y)
                {
                    p.push_back(t);
                }
                m_elp.paths.push_back(std::move(p));
            }
        }
    }

    /// Paths inside one unit: attached host to attached host, and to / from a relaying anchor.
    void Intra(NodeId y)
    {
        const Net& net = m_net;
        const uint64_t d = net.AttCount(y);
        if (d == 0)
        {
            return;
        }
        for (uint32_t s = net.attBegin[y]; s < net.attBegin[y + 1]; ++s)
        {
            for (uint32_t t = net.attBegin[y]; t < net.attBegin[y + 1]; ++t)
            {
                if (s != t)
                {
                    m_elp.graph.AddMask(y, net.adj[net.att[s]].in, net.adj[net.att[t]].out, 2);
                }
            }
        }
        uint64_t count = SatAdd(SatMul(d, d - 1), net.host[y] ? 2 * d : 0);
        m_count = SatAdd(m_count, count);
        if (d >= 2)
        {
            m_longest = std::max<uint32_t>(m_longest, 2);
        }
        else if (net.host[y])
        {
            m_longest = std::max<uint32_t>(m_longest, 1);
        }
        if (!KeepStoring())
        {
            return;
        }
        for (uint32_t s = net.attBegin[y]; s < net.attBegin[y + 1]; ++s)
        {
            NodeId sn = net.adj[net.att[s]].nbr;
            if (net.host[y])
            {
                m_elp.paths.push_back(Path{sn, y});
                m_elp.paths.push_back(Path{y, sn});
            }
            for (uint32_t t = net.attBegin[y]; t < net.attBegin[y + 1]; ++t)
            {
                if (s != t)
                {
                    m_elp.paths.push_back(Path{sn, y, net.adj[net.att[t]].nbr});
                }
            }
        }
    }

    struct Frame
    {
        NodeId v;
        uint32_t it;
        uint32_t end;
    };

    struct DpItem
    {
        uint32_t entry; //!< first hop
        uint32_t rest;  //!< index of the rest among the next node's paths
    };

    /// Largest k for which the per-destination DP tables are kept.
    static constexpr uint32_t kMaxDpK = 64;

    const Net& m_net;
    uint32_t m_k;
    uint64_t m_maxStore;
    bool m_store;
    Elp& m_elp;
    PortSets m_uOut;
    std::vector<uint32_t>
        m_vBase; //!< per node: base into m_vMask (ports of units with attached hosts)
    std::vector<uint64_t> m_vMask; //!< arrival levels at an anchor, per in-port, toward its hosts
    std::vector<int32_t> m_dist;
    std::vector<NodeId> m_order;
    std::vector<uint64_t> m_vis;
    uint64_t m_stamp{0};
    std::vector<Frame> m_frames;
    std::vector<uint32_t> m_stackEntries;
    std::vector<uint32_t> m_paths;     //!< found anchor paths as entries, concatenated
    std::vector<uint32_t> m_pathBegin; //!< offsets into m_paths
    uint64_t m_work{0};
    uint64_t m_budget{200000};
    uint64_t m_yenPairs{0};
    bool m_useDp{false};
    std::vector<uint32_t> m_pos;   //!< BFS position per node
    std::vector<uint32_t> m_dpCnt; //!< per BFS position: shortest paths kept (<= k)
    std::vector<DpItem> m_dp;      //!< per BFS position: k items
    std::vector<int32_t> m_ydist;
    std::vector<char> m_yenBlocked;
    std::vector<NodeId> m_yenNoNext;
    uint64_t m_count{0};
    uint32_t m_longest{0};
};

} // namespace

Elp
MakeKShortestElp(const Topology& topo, uint32_t k, const ElpOptions& opt)
{
    if (k == 0)
    {
        throw TaggerError("k shortest paths: k must be at least 1");
    }
    Net net(topo);
    Elp elp;
    elp.graph = HopGraph(topo);
    KShortest ks(net, k, opt.maxExplicitPaths, elp);
    ks.Run();
    return elp;
}

} // namespace tagger
} // namespace ns3
