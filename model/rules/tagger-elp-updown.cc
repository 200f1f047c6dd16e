/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * Clos up-down walks with bounces (MakeUpDownElp).
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

/// MakeUpDownElp enumerates loop-free paths when there are at most this many hosts.
constexpr size_t kUpDownExplicitHosts = 64;
/// ... and gives up enumerating (counting walks instead) after this many paths.
constexpr uint64_t kUpDownMaxEnumerated = 20000000;

enum : uint8_t
{
    kFlat = 0, //!< same layer: not a legal hop
    kUp = 1,   //!< to a higher layer
    kDown = 2  //!< to a lower layer
};

/**
 * Per-hop transition computation of MakeUpDownElp.  A state is (forwarder x,
 * the entry it arrived through, level L, bounces b); the bounces of all states
 * sharing (x, entry, L) form a bitmask.  C[entry] is the set of bounce counts
 * with which a walk can still be completed to a host (fixpoint, no level), the
 * forward pass walks the levels and keeps only completable states, so every
 * transition it records lies on a complete walk.
 */
class UpDownFamily
{
  public:
    UpDownFamily(const Net& net, uint32_t bounces, Elp& elp)
        : m_net(net),
          m_elp(elp)
    {
        m_b = std::min<uint32_t>(bounces, 32);
        m_full = (uint64_t{2} << m_b) - 1;
        m_cls.assign(net.adj.size(), kFlat);
        for (NodeId x = 0; x < net.n; ++x)
        {
            int32_t lx = net.topo.GetNode(x).layer;
            for (uint32_t i = net.begin[x]; i < net.begin[x + 1]; ++i)
            {
                int32_t ly = net.topo.GetNode(net.nbr[i]).layer;
                m_cls[i] = ly > lx ? kUp : (ly < lx ? kDown : kFlat);
            }
        }
    }

    /// Fill the HopGraph; returns the number of walks (saturating) when countWalks.
    uint64_t Run(bool countWalks)
    {
        Completable();
        return Forward(countWalks);
    }

    /// Enumerate the loop-free paths (DFS); stops after `cap` paths (returns false then).
    bool EnumerateSimple(uint64_t cap, uint64_t maxStore, uint64_t& count, std::vector<Path>& out)
    {
        m_cap = cap;
        m_maxStore = maxStore;
        m_simpleCount = 0;
        m_out = &out;
        m_storing = maxStore > 0;
        m_onPath.assign(m_net.n, 0);
        for (NodeId s : m_net.hosts)
        {
            m_stack.assign(1, s);
            m_onPath[s] = 1;
            for (uint32_t j = m_net.begin[s]; j < m_net.begin[s + 1]; ++j)
            {
                NodeId y = m_net.adj[j].nbr;
                if (!m_net.fwd[y] || m_cls[j] == kFlat)
                {
                    continue;
                }
                m_onPath[y] = 1;
                m_stack.push_back(y);
                bool ok = Dfs(y, m_net.rev[j], 0, 1);
                m_stack.pop_back();
                m_onPath[y] = 0;
                if (!ok)
                {
                    m_onPath[s] = 0;
                    return false;
                }
            }
            m_onPath[s] = 0;
        }
        count = m_simpleCount;
        if (!m_storing)
        {
            out.clear();
        }
        return true;
    }

  private:
    uint64_t Value(uint32_t outEntry) const
    {
        NodeId y = m_net.adj[outEntry].nbr;
        uint64_t v = m_net.host[y] ? m_full : 0;
        if (m_net.fwd[y])
        {
            v |= m_c[m_net.rev[outEntry]];
        }
        return v;
    }

    void Completable()
    {
        const Net& net = m_net;
        m_c.assign(net.adj.size(), 0);
        std::vector<uint64_t> val;
        std::vector<uint64_t> sufUp;
        std::vector<uint64_t> sufDown;
        bool changed = true;
        while (changed)
        {
            changed = false;
            for (NodeId x = 0; x < net.n; ++x)
            {
                if (!net.fwd[x])
                {
                    continue;
                }
                uint32_t b = net.begin[x];
                uint32_t deg = net.begin[x + 1] - b;
                val.assign(deg, 0);
                sufUp.assign(deg + 1, 0);
                sufDown.assign(deg + 1, 0);
                for (uint32_t j = 0; j < deg; ++j)
                {
                    if (m_cls[b + j] != kFlat)
                    {
                        val[j] = Value(b + j);
                    }
                }
                for (uint32_t j = deg; j-- > 0;)
                {
                    sufUp[j] = sufUp[j + 1] | (m_cls[b + j] == kUp ? val[j] : 0);
                    sufDown[j] = sufDown[j + 1] | (m_cls[b + j] == kDown ? val[j] : 0);
                }
                uint64_t preUp = 0;
                uint64_t preDown = 0;
                for (uint32_t j = 0; j < deg; ++j)
                {
                    uint32_t e = b + j;
                    uint64_t nc = 0;
                    if (m_cls[e] == kUp)
                    {
                        // arrived from above: going up again is a bounce
                        nc = ((preUp | sufUp[j + 1]) >> 1) | sufDown[0];
                    }
                    else if (m_cls[e] == kDown)
                    {
                        nc = sufUp[0] | preDown | sufDown[j + 1];
                    }
                    nc &= m_full;
                    if (nc & ~m_c[e])
                    {
                        m_c[e] |= nc;
                        changed = true;
                    }
                    preUp |= m_cls[e] == kUp ? val[j] : 0;
                    preDown |= m_cls[e] == kDown ? val[j] : 0;
                }
            }
        }
    }

    uint64_t Forward(bool countWalks)
    {
        const Net& net = m_net;
        const size_t nE = net.adj.size();
        m_countWalks = countWalks;
        m_cur.assign(nE, 0);
        m_nxt.assign(nE, 0);
        if (countWalks)
        {
            m_curCnt.assign(nE * (m_b + 1), 0);
            m_nxtCnt.assign(nE * (m_b + 1), 0);
        }
        for (NodeId h : net.hosts)
        {
            for (uint32_t j = net.begin[h]; j < net.begin[h + 1]; ++j)
            {
                if (net.fwd[net.adj[j].nbr] && m_cls[j] != kFlat)
                {
                    m_cur[net.rev[j]] |= 1;
                    if (countWalks)
                    {
                        m_curCnt[size_t(net.rev[j]) * (m_b + 1)] += 1;
                    }
                }
            }
        }
        m_walks = 0;
        bool active = true;
        for (uint32_t level = 1; active; ++level)
        {
            active = false;
            for (NodeId x = 0; x < net.n; ++x)
            {
                if (!net.fwd[x])
                {
                    continue;
                }
                for (uint32_t e = net.begin[x]; e < net.begin[x + 1]; ++e)
                {
                    uint64_t f = m_cur[e] & m_c[e];
                    m_cur[e] = 0;
                    if (f && Leave(x, e, f, level))
                    {
                        active = true;
                    }
                }
            }
            std::swap(m_cur, m_nxt);
            if (countWalks)
            {
                std::swap(m_curCnt, m_nxtCnt);
                std::fill(m_nxtCnt.begin(), m_nxtCnt.end(), 0);
            }
        }
        return m_walks;
    }

    /**
     * The transitions out of x for the walks that arrived through entry e at
     * `level` with the bounce counts in f; records every transition that lies
     * on a complete walk.  Returns true when some walk goes on to a forwarder.
     */
    bool Leave(NodeId x, uint32_t e, uint64_t f, uint32_t level)
    {
        const Net& net = m_net;
        const bool fromAbove = m_cls[e] == kUp;
        bool active = false;
        for (uint32_t o = net.begin[x]; o < net.begin[x + 1]; ++o)
        {
            if (o == e || m_cls[o] == kFlat)
            {
                continue;
            }
            const bool bounce = fromAbove && m_cls[o] == kUp;
            uint64_t f2 = bounce ? (f << 1) & m_full : f;
            if (!f2)
            {
                continue;
            }
            NodeId y = net.adj[o].nbr;
            bool used = false;
            if (net.host[y])
            {
                used = true;
                if (m_countWalks)
                {
                    CountArrivals(e, f2, bounce);
                }
            }
            if (net.fwd[y] && GoOn(e, o, f2, bounce, level))
            {
                used = true;
                active = true;
            }
            if (used)
            {
                m_elp.graph.AddMask(x, net.adj[e].in, net.adj[o].out, uint64_t{1} << level);
            }
        }
        return active;
    }

    /// Walks from entry e reach a host with the bounce counts f2: count them.
    void CountArrivals(uint32_t e, uint64_t f2, bool bounce)
    {
        const uint32_t nb = m_b + 1;
        for (uint32_t b = 0; b < nb; ++b)
        {
            if (f2 >> (bounce ? b + 1 : b) & 1)
            {
                m_walks = SatAdd(m_walks, m_curCnt[size_t(e) * nb + b]);
            }
        }
    }

    /**
     * Walks from entry e go on through out entry o to a forwarder with the
     * bounce counts f2; keep those that can still complete.  Returns true when
     * any can.
     */
    bool GoOn(uint32_t e, uint32_t o, uint64_t f2, bool bounce, uint32_t level)
    {
        const uint32_t nb = m_b + 1;
        uint32_t r = m_net.rev[o];
        uint64_t g2 = f2 & m_c[r];
        if (!g2)
        {
            return false;
        }
        if (level >= kMaxLevel)
        {
            ThrowTooLongUpDown();
        }
        m_nxt[r] |= g2;
        if (m_countWalks)
        {
            for (uint32_t b = 0; b < nb; ++b)
            {
                uint32_t b2 = bounce ? b + 1 : b;
                if (b2 < nb && (g2 >> b2 & 1))
                {
                    uint64_t& dst = m_nxtCnt[size_t(r) * nb + b2];
                    dst = SatAdd(dst, m_curCnt[size_t(e) * nb + b]);
                }
            }
        }
        return true;
    }

    [[noreturn]] void ThrowTooLongUpDown() const
    {
        throw TaggerError("up-down ELP with " + std::to_string(m_b) +
                          " bounces has walks through more than " + std::to_string(kMaxLevel) +
                          " forwarding nodes; use fewer bounces");
    }

    bool Dfs(NodeId x, uint32_t in, uint32_t bounces, uint32_t level)
    {
        const Net& net = m_net;
        const bool fromAbove = m_cls[in] == kUp;
        for (uint32_t o = net.begin[x]; o < net.begin[x + 1]; ++o)
        {
            if (o == in || m_cls[o] == kFlat)
            {
                continue;
            }
            uint32_t b2 = bounces + (fromAbove && m_cls[o] == kUp ? 1 : 0);
            NodeId y = net.adj[o].nbr;
            if (b2 > m_b || m_onPath[y])
            {
                continue;
            }
            if (net.host[y])
            {
                if (++m_simpleCount > m_cap)
                {
                    return false;
                }
                if (m_storing)
                {
                    if (m_simpleCount > m_maxStore)
                    {
                        m_storing = false;
                        m_out->clear();
                    }
                    else
                    {
                        m_out->push_back(m_stack);
                        m_out->back().push_back(y);
                    }
                }
            }
            if (net.fwd[y] && level < kMaxLevel)
            {
                m_onPath[y] = 1;
                m_stack.push_back(y);
                bool ok = Dfs(y, net.rev[o], b2, level + 1);
                m_stack.pop_back();
                m_onPath[y] = 0;
                if (!ok)
                {
                    return false;
                }
            }
        }
        return true;
    }

    const Net& m_net;
    Elp& m_elp;
    uint32_t m_b{0};
    uint64_t m_full{1};
    std::vector<uint8_t> m_cls;
    std::vector<uint64_t> m_c;
    // forward pass: per entry, the bounce counts (and walk counts) at this level and the next
    bool m_countWalks{false};
    uint64_t m_walks{0};
    std::vector<uint64_t> m_cur;
    std::vector<uint64_t> m_nxt;
    std::vector<uint64_t> m_curCnt;
    std::vector<uint64_t> m_nxtCnt;
    // simple path enumeration
    uint64_t m_cap{0};
    uint64_t m_maxStore{0};
    uint64_t m_simpleCount{0};
    bool m_storing{false};
    std::vector<Path>* m_out{nullptr};
    std::vector<char> m_onPath;
    Path m_stack;
};

} // namespace

Elp
MakeUpDownElp(const Topology& topo, uint32_t bounces, const ElpOptions& opt)
{
    if (!topo.IsLayered())
    {
        for (NodeId n = 0; n < topo.GetNNodes(); ++n)
        {
            if (topo.GetNode(n).layer < 0)
            {
                throw TaggerError("up-down ELP needs a layered (Clos) topology, but node " +
                                  topo.GetNode(n).name + " has no layer");
            }
        }
        throw TaggerError("up-down ELP needs a layered (Clos) topology, but the topology is empty");
    }
    Net net(topo);
    Elp elp;
    elp.graph = HopGraph(topo);
    elp.upDownBounces = static_cast<int32_t>(bounces);
    UpDownFamily family(net, bounces, elp);
    const bool small = net.hosts.size() <= kUpDownExplicitHosts;
    uint64_t walks = family.Run(!small);
    elp.longestPath = elp.graph.IsEmpty() ? 0 : elp.graph.GetMaxLevel() + 1;
    if (!small)
    {
        elp.pathCount = walks;
        return elp;
    }
    uint64_t count = 0;
    if (family.EnumerateSimple(kUpDownMaxEnumerated, opt.maxExplicitPaths, count, elp.paths))
    {
        elp.pathCount = count;
        SortPaths(elp.paths);
    }
    else
    {
        // too many loop-free paths to enumerate: count walks instead
        elp.paths.clear();
        Elp again;
        again.graph = HopGraph(topo);
        UpDownFamily f2(net, bounces, again);
        elp.pathCount = f2.Run(true);
    }
    return elp;
}

} // namespace tagger
} // namespace ns3
