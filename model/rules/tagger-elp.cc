/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-elp.h"

#include <algorithm>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

namespace ns3
{
namespace tagger
{

namespace
{

constexpr uint64_t kAllOnes = std::numeric_limits<uint64_t>::max();

/// MakeUpDownElp enumerates loop-free paths when there are at most this many hosts.
constexpr size_t kUpDownExplicitHosts = 64;
/// ... and gives up enumerating (counting walks instead) after this many paths.
constexpr uint64_t kUpDownMaxEnumerated = 20000000;

/// Index of the highest set bit of a non-zero mask.
uint32_t
HighestBit(uint64_t m)
{
    return 63u - static_cast<uint32_t>(__builtin_clzll(m));
}

uint64_t
SatAdd(uint64_t a, uint64_t b)
{
    uint64_t s = a + b;
    return s < a ? kAllOnes : s;
}

uint64_t
SatMul(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 0)
    {
        return 0;
    }
    return a > kAllOnes / b ? kAllOnes : a * b;
}

/**
 * Uniform integer in [0, n) from a 64-bit Mersenne twister, by rejection, so
 * the sequence is the same with every standard library (the distributions of
 * <random> are implementation-defined).
 */
uint64_t
UniformIndex(std::mt19937_64& rng, uint64_t n)
{
    if (n <= 1)
    {
        return 0;
    }
    const uint64_t rem = (kAllOnes % n + 1) % n; // 2^64 mod n
    const uint64_t limit = 0 - rem;              // 2^64 - rem (0: accept all)
    for (;;)
    {
        uint64_t v = rng();
        if (rem == 0 || v < limit)
        {
            return v % n;
        }
    }
}

[[noreturn]] void
ThrowTooLong()
{
    throw TaggerError("an ELP path would pass more than " + std::to_string(kMaxLevel) +
                      " forwarding nodes (the most a HopGraph can hold)");
}

/// "H1 T1 L1 T2 H2" (shortened in the middle for very long paths).
std::string
PathText(const Topology& topo, const Path& path)
{
    std::string s;
    for (size_t i = 0; i < path.size(); ++i)
    {
        if (path.size() > 24 && i == 12)
        {
            s += " ...";
            i = path.size() - 12;
        }
        if (!s.empty())
        {
            s += ' ';
        }
        s +=
            path[i] < topo.GetNNodes() ? topo.GetNode(path[i]).name : "#" + std::to_string(path[i]);
    }
    return s;
}

/**
 * Why a path is not a valid ELP path, or "" when it is.  The message names
 * the node(s) at fault but not the path (the caller adds the context).
 */
std::string
CheckPath(const Topology& topo, const Path& path)
{
    if (path.size() < 2)
    {
        return "a path needs at least two nodes, this one has " + std::to_string(path.size());
    }
    for (NodeId n : path)
    {
        if (n >= topo.GetNNodes())
        {
            return "node id " + std::to_string(n) + " does not exist";
        }
    }
    if (!topo.IsHost(path.front()))
    {
        return "the path starts at " + topo.GetNode(path.front()).name + ", which is not a host";
    }
    if (!topo.IsHost(path.back()))
    {
        return "the path ends at " + topo.GetNode(path.back()).name + ", which is not a host";
    }
    {
        std::vector<NodeId> sorted(path);
        std::sort(sorted.begin(), sorted.end());
        auto it = std::adjacent_find(sorted.begin(), sorted.end());
        if (it != sorted.end())
        {
            return "node " + topo.GetNode(*it).name + " appears twice (a loop)";
        }
    }
    for (size_t i = 0; i + 1 < path.size(); ++i)
    {
        if (topo.GetPortTo(path[i], path[i + 1]) == kNone)
        {
            return topo.GetNode(path[i]).name + " and " + topo.GetNode(path[i + 1]).name +
                   " are not linked";
        }
    }
    for (size_t i = 1; i + 1 < path.size(); ++i)
    {
        if (!topo.IsForwarder(path[i]))
        {
            return "the path passes through host " + topo.GetNode(path[i]).name +
                   ", which does not relay";
        }
    }
    if (path.size() - 2 > kMaxLevel)
    {
        return "the path has " + std::to_string(path.size() - 2) + " forwarding nodes; at most " +
               std::to_string(kMaxLevel) + " are supported";
    }
    return "";
}

/**
 * One direction of a link between two distinct neighbours, as a node-path
 * uses it: the lowest port of the owner to nbr (GetPortTo).
 */
struct Adj
{
    NodeId nbr;   //!< the neighbour
    PortNo out;   //!< owner's port to nbr (lowest)
    PortNo in;    //!< owner's port where nbr's packets arrive (peer of nbr's lowest port)
    PortNo farIn; //!< nbr's port where the owner's packets arrive (peer of out)
};

/**
 * Compressed adjacency over distinct neighbours, plus the "units" the
 * per-destination generators work with.
 *
 * A host is attached to forwarder a when it does not relay and a is its only
 * neighbour (a Jellyfish or Clos server under its ToR).  Attached hosts of one
 * forwarder behave identically, so the generators handle them together.  The
 * units are the forwarders with attached hosts and every host that is not
 * attached (relaying BCube servers, multi-homed hosts): one per-destination
 * computation per unit.
 */
class Net
{
  public:
    explicit Net(const Topology& topo);

    const Topology& topo;
    uint32_t n;
    std::vector<char> fwd;          //!< forwarder (switch or relay host)
    std::vector<char> host;         //!< host
    std::vector<uint32_t> begin;    //!< CSR start per node (n + 1)
    std::vector<uint32_t> fwdEnd;   //!< end of the forwarder neighbours (sorted by id)
    std::vector<Adj> adj;           //!< forwarder neighbours first, then the others
    std::vector<NodeId> nbr;        //!< adj[i].nbr, compact for scanning
    std::vector<uint32_t> rev;      //!< entry of the opposite direction
    std::vector<NodeId> anchorOf;   //!< host: forwarder it is attached to, or kNone
    std::vector<uint32_t> attBegin; //!< CSR over att (n + 1)
    std::vector<uint32_t> att;      //!< entries of a forwarder toward its attached hosts
    std::vector<NodeId> units;      //!< unit anchors, ascending
    std::vector<NodeId> hosts;      //!< all hosts, ascending
    std::vector<NodeId> freeNonFwd; //!< unattached hosts that do not relay

    uint32_t AttCount(NodeId x) const
    {
        return attBegin[x + 1] - attBegin[x];
    }

    /// Entry of x toward y, or kNone.
    uint32_t FindEntry(NodeId x, NodeId y) const
    {
        for (uint32_t i = begin[x]; i < begin[x + 1]; ++i)
        {
            if (adj[i].nbr == y)
            {
                return i;
            }
        }
        return kNone;
    }
};

/**
 * Breadth-first distances from root over forwarding nodes (root itself may be a
 * host).  dist must hold -1 for every node not yet reached; order receives the
 * nodes reached, root first.
 */
void
BfsOverForwarders(const Net& net,
                  NodeId root,
                  std::vector<int32_t>& dist,
                  std::vector<NodeId>& order)
{
    order.assign(1, root);
    dist[root] = 0;
    for (size_t q = 0; q < order.size(); ++q)
    {
        const NodeId x = order[q];
        for (uint32_t i = net.begin[x]; i < net.fwdEnd[x]; ++i)
        {
            const NodeId w = net.nbr[i];
            if (dist[w] < 0)
            {
                dist[w] = dist[x] + 1;
                order.push_back(w);
            }
        }
    }
}

Net::Net(const Topology& t)
    : topo(t),
      n(t.GetNNodes())
{
    fwd.resize(n);
    host.resize(n);
    for (NodeId x = 0; x < n; ++x)
    {
        fwd[x] = t.IsForwarder(x);
        host[x] = t.IsHost(x);
        if (host[x])
        {
            hosts.push_back(x);
        }
    }
    begin.assign(n + 1, 0);
    fwdEnd.assign(n, 0);
    std::vector<NodeId> mark(n, kNone);
    std::vector<Adj> list;
    for (NodeId x = 0; x < n; ++x)
    {
        list.clear();
        for (PortNo p = 0; p < t.GetNode(x).ports; ++p)
        {
            PortRef r = t.GetPeer(x, p);
            if (r.node == kNone || mark[r.node] == x)
            {
                continue;
            }
            mark[r.node] = x;
            list.push_back(Adj{r.node, p, kNone, r.port});
        }
        std::sort(list.begin(), list.end(), [this](const Adj& a, const Adj& b) {
            if (fwd[a.nbr] != fwd[b.nbr])
            {
                return fwd[a.nbr] > fwd[b.nbr];
            }
            return a.nbr < b.nbr;
        });
        begin[x] = static_cast<uint32_t>(adj.size());
        uint32_t nf = 0;
        for (const Adj& a : list)
        {
            nf += fwd[a.nbr] ? 1 : 0;
        }
        fwdEnd[x] = begin[x] + nf;
        adj.insert(adj.end(), list.begin(), list.end());
    }
    begin[n] = static_cast<uint32_t>(adj.size());
    nbr.resize(adj.size());
    for (size_t i = 0; i < adj.size(); ++i)
    {
        nbr[i] = adj[i].nbr;
    }
    rev.assign(adj.size(), kNone);
    for (NodeId x = 0; x < n; ++x)
    {
        for (uint32_t i = begin[x]; i < begin[x + 1]; ++i)
        {
            uint32_t j = FindEntry(adj[i].nbr, x);
            rev[i] = j;
            adj[i].in = adj[j].farIn;
        }
    }
    anchorOf.assign(n, kNone);
    for (NodeId h : hosts)
    {
        if (!fwd[h] && begin[h + 1] - begin[h] == 1 && fwd[adj[begin[h]].nbr])
        {
            anchorOf[h] = adj[begin[h]].nbr;
        }
    }
    attBegin.assign(n + 1, 0);
    for (NodeId x = 0; x < n; ++x)
    {
        attBegin[x] = static_cast<uint32_t>(att.size());
        if (!fwd[x])
        {
            continue;
        }
        for (uint32_t i = fwdEnd[x]; i < begin[x + 1]; ++i)
        {
            if (anchorOf[adj[i].nbr] == x)
            {
                att.push_back(i);
            }
        }
    }
    attBegin[n] = static_cast<uint32_t>(att.size());
    for (NodeId x = 0; x < n; ++x)
    {
        bool freeHost = host[x] && anchorOf[x] == kNone && begin[x + 1] > begin[x];
        if ((fwd[x] && AttCount(x) > 0) || freeHost)
        {
            units.push_back(x);
        }
        if (freeHost && !fwd[x])
        {
            freeNonFwd.push_back(x);
        }
    }
}

/// Per-forwarder bitset over its ports.
class PortSets
{
  public:
    explicit PortSets(const Topology& topo)
    {
        m_base.resize(topo.GetNNodes() + 1, 0);
        for (NodeId x = 0; x < topo.GetNNodes(); ++x)
        {
            m_base[x + 1] = m_base[x] + (topo.GetNode(x).ports + 63) / 64;
        }
        m_bits.assign(m_base.back(), 0);
    }

    void Set(NodeId x, PortNo p)
    {
        m_bits[m_base[x] + p / 64] |= uint64_t{1} << (p % 64);
    }

    template <typename F>
    void ForEach(NodeId x, F f) const
    {
        for (uint32_t w = m_base[x]; w < m_base[x + 1]; ++w)
        {
            uint64_t b = m_bits[w];
            while (b)
            {
                uint32_t bit = static_cast<uint32_t>(__builtin_ctzll(b));
                b &= b - 1;
                f(static_cast<PortNo>((w - m_base[x]) * 64 + bit));
            }
        }
    }

  private:
    std::vector<uint32_t> m_base;
    std::vector<uint64_t> m_bits;
};

/**
 * Level-1 transitions of attached hosts: (x, in from host s, out p) for every
 * attached s of x and every p collected in the set.
 */
void
FillAttachedSources(const Net& net, const PortSets& outs, HopGraph& g)
{
    for (NodeId x = 0; x < net.n; ++x)
    {
        if (!net.fwd[x] || net.AttCount(x) == 0)
        {
            continue;
        }
        outs.ForEach(x, [&](PortNo p) {
            for (uint32_t k = net.attBegin[x]; k < net.attBegin[x + 1]; ++k)
            {
                g.AddMask(x, net.adj[net.att[k]].in, p, uint64_t{1} << 1);
            }
        });
    }
}

// ---------------------------------------------------------------------------
// Shortest-path DAGs and shortest-path trees, per destination unit
// ---------------------------------------------------------------------------

enum class DagMode
{
    TREE, //!< one random parent per node (destination-rooted spanning tree)
    ALL   //!< every neighbour one hop closer (all shortest paths)
};

/**
 * Fills the HopGraph of a destination-rooted family without enumerating
 * paths.  For destination unit r: BFS over forwarders from r; each node keeps
 * its successors (one random parent, or all neighbours one hop closer).  A(x)
 * is the bitmask of distances (= arrival levels) of the sources whose paths
 * reach x, built bottom-up in reverse BFS order: a relay host is a source at
 * distance 0 of itself, attached hosts at distance 1 of their forwarder, and
 * A(x) |= A(w) << 1 for every predecessor w.  Every shortest path from w's
 * sources continues along any successor of x, so the transition
 * (x, in from w, out to successor) holds exactly the levels A(w) << 1.
 */
class DagFamily
{
  public:
    DagFamily(const Net& net, DagMode mode, uint64_t seed, bool store, Elp& elp)
        : m_net(net),
          m_mode(mode),
          m_rng(seed),
          m_store(store),
          m_elp(elp),
          m_uOut(net.topo)
    {
        m_dist.assign(net.n, -1);
        m_a.assign(net.n, 0);
        m_cnt.assign(net.n, 0);
        m_succBegin.assign(net.n, 0);
        m_succEnd.assign(net.n, 0);
    }

    void Run()
    {
        for (NodeId r : m_net.units)
        {
            Root(r);
            for (NodeId x : m_order)
            {
                m_dist[x] = -1;
            }
        }
        FillAttachedSources(m_net, m_uOut, m_elp.graph);
        m_elp.pathCount = m_count;
        m_elp.longestPath = m_longest;
    }

  private:
    struct Extra
    {
        NodeId at;      //!< first forwarder (or the root) of the source
        NodeId src;     //!< a host that is neither attached nor relaying
        uint32_t entry; //!< entry src -> at
    };

    void Choose(NodeId x)
    {
        m_succBegin[x] = static_cast<uint32_t>(m_succ.size());
        if (m_mode == DagMode::TREE)
        {
            m_succ.push_back(m_cands[UniformIndex(m_rng, m_cands.size())]);
        }
        else
        {
            m_succ.insert(m_succ.end(), m_cands.begin(), m_cands.end());
        }
        m_succEnd[x] = static_cast<uint32_t>(m_succ.size());
    }

    void Bfs(NodeId r)
    {
        const Net& net = m_net;
        m_order.clear();
        m_succ.clear();
        m_dist[r] = 0;
        m_order.push_back(r);
        for (uint32_t i = net.begin[r]; i < net.fwdEnd[r]; ++i)
        {
            NodeId y = net.nbr[i];
            m_dist[y] = 1;
            m_order.push_back(y);
            if (!net.fwd[r])
            {
                m_succBegin[y] = static_cast<uint32_t>(m_succ.size());
                m_succ.push_back(net.rev[i]);
                m_succEnd[y] = static_cast<uint32_t>(m_succ.size());
            }
        }
        for (size_t q = 1; q < m_order.size(); ++q)
        {
            NodeId x = m_order[q];
            int32_t dx = m_dist[x];
            m_cands.clear();
            for (uint32_t i = net.begin[x]; i < net.fwdEnd[x]; ++i)
            {
                NodeId y = net.nbr[i];
                int32_t dy = m_dist[y];
                if (dy < 0)
                {
                    m_dist[y] = dx + 1;
                    m_order.push_back(y);
                }
                else if (dy == dx - 1)
                {
                    m_cands.push_back(i);
                }
            }
            if (net.fwd[r] || dx > 1)
            {
                Choose(x);
            }
        }
    }

    void Root(NodeId r)
    {
        const Net& net = m_net;
        HopGraph& g = m_elp.graph;
        Bfs(r);
        for (size_t q = 1; q < m_order.size(); ++q)
        {
            NodeId x = m_order[q];
            uint64_t a = 0;
            uint64_t c = 0;
            if (net.host[x])
            {
                a = 1; // a relay host is a source at distance 0 from itself
                c = 1;
            }
            if (uint32_t na = net.AttCount(x))
            {
                a |= 2;
                c += na;
            }
            m_a[x] = a;
            m_cnt[x] = c;
        }
        m_a[r] = 0;
        m_cnt[r] = 0;
        m_extras.clear();
        for (NodeId f : net.freeNonFwd)
        {
            if (f == r)
            {
                continue;
            }
            int32_t best = std::numeric_limits<int32_t>::max();
            m_cands.clear();
            for (uint32_t i = net.begin[f]; i < net.begin[f + 1]; ++i)
            {
                NodeId y = net.nbr[i];
                int32_t dy;
                if (y == r)
                {
                    dy = 0;
                }
                else if (net.fwd[y] && m_dist[y] >= 0)
                {
                    dy = m_dist[y];
                }
                else
                {
                    continue;
                }
                if (dy < best)
                {
                    best = dy;
                    m_cands.clear();
                }
                if (dy == best)
                {
                    m_cands.push_back(i);
                }
            }
            if (m_cands.empty())
            {
                continue;
            }
            size_t from = 0;
            size_t to = m_cands.size();
            if (m_mode == DagMode::TREE)
            {
                from = UniformIndex(m_rng, m_cands.size());
                to = from + 1;
            }
            for (size_t k = from; k < to; ++k)
            {
                NodeId y = net.adj[m_cands[k]].nbr;
                m_extras.push_back(Extra{y, f, m_cands[k]});
                m_a[y] |= 2;
                m_cnt[y] = SatAdd(m_cnt[y], 1);
            }
        }
        std::sort(m_extras.begin(), m_extras.end(), [](const Extra& a, const Extra& b) {
            return a.at != b.at ? a.at < b.at : a.src < b.src;
        });

        // bottom-up sweep, farthest nodes first
        for (size_t q = m_order.size() - 1; q >= 1; --q)
        {
            NodeId w = m_order[q];
            if (!m_extras.empty())
            {
                auto range = ExtrasAt(w);
                for (auto it = range.first; it != range.second; ++it)
                {
                    for (uint32_t k = m_succBegin[w]; k < m_succEnd[w]; ++k)
                    {
                        g.AddMask(w, net.adj[it->entry].farIn, net.adj[m_succ[k]].out, 2);
                    }
                }
            }
            uint64_t aw = m_a[w];
            if (aw == 0)
            {
                continue;
            }
            if (aw >> 63)
            {
                ThrowTooLong();
            }
            uint64_t sh = aw << 1;
            for (uint32_t k = m_succBegin[w]; k < m_succEnd[w]; ++k)
            {
                const Adj& e = net.adj[m_succ[k]];
                NodeId x = e.nbr;
                m_a[x] |= sh;
                m_cnt[x] = SatAdd(m_cnt[x], m_cnt[w]);
                if (x != r)
                {
                    for (uint32_t k2 = m_succBegin[x]; k2 < m_succEnd[x]; ++k2)
                    {
                        g.AddMask(x, e.farIn, net.adj[m_succ[k2]].out, sh);
                    }
                }
                else
                {
                    for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
                    {
                        g.AddMask(r, e.farIn, net.adj[net.att[t]].out, sh);
                    }
                }
                if (net.AttCount(w) > 0)
                {
                    m_uOut.Set(w, e.out);
                }
            }
        }

        // the root: sources arriving at r go to r itself (a host) or to its attached hosts
        const uint64_t d = net.AttCount(r);
        const bool self = net.host[r];
        {
            auto range = ExtrasAt(r);
            for (auto it = range.first; it != range.second; ++it)
            {
                for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
                {
                    g.AddMask(r, net.adj[it->entry].farIn, net.adj[net.att[t]].out, 2);
                }
            }
        }
        for (uint32_t s = net.attBegin[r]; s < net.attBegin[r + 1]; ++s)
        {
            for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
            {
                if (s != t)
                {
                    g.AddMask(r, net.adj[net.att[s]].in, net.adj[net.att[t]].out, 2);
                }
            }
        }
        const uint64_t p = m_cnt[r];
        uint64_t count = 0;
        if (self)
        {
            count = SatAdd(p, d); // to r: from predecessors and from r's attached hosts
        }
        count = SatAdd(count, SatMul(d, SatAdd(p, self ? 1 : 0)));
        count = SatAdd(count, SatMul(d, d > 0 ? d - 1 : 0));
        m_count = SatAdd(m_count, count);
        uint64_t toSelf = m_a[r] | (d > 0 ? 2 : 0);
        if (self && toSelf)
        {
            m_longest = std::max(m_longest, HighestBit(toSelf));
        }
        uint64_t toAtt = m_a[r] | (d >= 2 ? 2 : 0) | (self ? 1 : 0);
        if (d > 0 && toAtt)
        {
            m_longest = std::max(m_longest, HighestBit(toAtt) + 1);
        }
        if (m_store)
        {
            StorePaths(r);
        }
    }

    std::pair<std::vector<Extra>::const_iterator, std::vector<Extra>::const_iterator> ExtrasAt(
        NodeId w) const
    {
        return std::equal_range(m_extras.begin(),
                                m_extras.end(),
                                Extra{w, 0, 0},
                                [](const Extra& a, const Extra& b) { return a.at < b.at; });
    }

    void StorePaths(NodeId r)
    {
        const Net& net = m_net;
        m_root = r;
        for (NodeId s : net.hosts)
        {
            m_prefix.clear();
            if (s == r)
            {
                for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
                {
                    m_elp.paths.push_back(Path{r, net.adj[net.att[t]].nbr});
                }
                continue;
            }
            NodeId a = net.anchorOf[s];
            if (a != kNone)
            {
                if (a == r)
                {
                    if (net.host[r])
                    {
                        m_elp.paths.push_back(Path{s, r});
                    }
                    for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
                    {
                        NodeId tn = net.adj[net.att[t]].nbr;
                        if (tn != s)
                        {
                            m_elp.paths.push_back(Path{s, r, tn});
                        }
                    }
                }
                else if (m_dist[a] >= 0)
                {
                    m_prefix.push_back(s);
                    Walk(a);
                }
            }
            else if (net.fwd[s])
            {
                if (m_dist[s] >= 0)
                {
                    Walk(s);
                }
            }
            else
            {
                for (const Extra& ex : m_extras)
                {
                    if (ex.src == s)
                    {
                        m_prefix.assign(1, s);
                        Walk(ex.at);
                    }
                }
            }
        }
    }

    void Walk(NodeId v)
    {
        m_prefix.push_back(v);
        if (v == m_root)
        {
            if (m_net.host[v])
            {
                m_elp.paths.push_back(m_prefix);
            }
            for (uint32_t t = m_net.attBegin[v]; t < m_net.attBegin[v + 1]; ++t)
            {
                m_elp.paths.push_back(m_prefix);
                m_elp.paths.back().push_back(m_net.adj[m_net.att[t]].nbr);
            }
        }
        else
        {
            for (uint32_t k = m_succBegin[v]; k < m_succEnd[v]; ++k)
            {
                Walk(m_net.adj[m_succ[k]].nbr);
            }
        }
        m_prefix.pop_back();
    }

    const Net& m_net;
    DagMode m_mode;
    std::mt19937_64 m_rng;
    bool m_store;
    Elp& m_elp;
    PortSets m_uOut; //!< per forwarder: out ports its attached hosts use
    std::vector<int32_t> m_dist;
    std::vector<NodeId> m_order;
    std::vector<uint64_t> m_a;
    std::vector<uint64_t> m_cnt;
    std::vector<uint32_t> m_succBegin;
    std::vector<uint32_t> m_succEnd;
    std::vector<uint32_t> m_succ;
    std::vector<uint32_t> m_cands;
    std::vector<Extra> m_extras;
    uint64_t m_count{0};
    uint32_t m_longest{0};
    NodeId m_root{kNone};
    Path m_prefix;
};

void
SortPaths(std::vector<Path>& paths)
{
    std::stable_sort(paths.begin(), paths.end(), [](const Path& a, const Path& b) {
        return a.front() != b.front() ? a.front() < b.front() : a.back() < b.back();
    });
}

Elp
MakeDagElp(const Topology& topo, DagMode mode, const ElpOptions& opt)
{
    Net net(topo);
    Elp elp;
    elp.graph = HopGraph(topo);
    DagFamily(net, mode, opt.seed, false, elp).Run();
    if (opt.maxExplicitPaths > 0 && elp.pathCount > 0 && elp.pathCount <= opt.maxExplicitPaths)
    {
        // same seed, same choices: this pass only collects the paths
        Elp again;
        again.graph = HopGraph(topo);
        DagFamily(net, mode, opt.seed, true, again).Run();
        elp.paths = std::move(again.paths);
        SortPaths(elp.paths);
    }
    return elp;
}

// ---------------------------------------------------------------------------
// k shortest loop-free paths
// ---------------------------------------------------------------------------

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
        auto cut = [&next](uint32_t need) {
            if (need < next)
            {
                next = need;
            }
        };
        while (!m_frames.empty())
        {
            Frame& f = m_frames.back();
            const uint32_t g = static_cast<uint32_t>(m_frames.size()) - 1; // links so far
            if (g + 1 == len)
            {
                // the last link: only y itself can follow
                uint32_t e = kNone;
                if (f.v == x || m_dist[f.v] == 1)
                {
                    e = net.FindEntry(f.v, y);
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
                for (uint32_t i = net.begin[f.v]; i < net.fwdEnd[f.v]; ++i)
                {
                    NodeId w = net.nbr[i];
                    if (w != y && m_vis[w] != m_stamp && m_dist[w] > 0)
                    {
                        cut(g + 1 + static_cast<uint32_t>(m_dist[w]));
                    }
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
                cut(need);
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
                    continue;
                }
                Path cand(last.begin(), last.begin() + i);
                cand.insert(cand.end(), spur.begin(), spur.end());
                auto pos = std::lower_bound(cands.begin(), cands.end(), cand, Less);
                if (pos == cands.end() || *pos != cand)
                {
                    cands.insert(pos, cand);
                }
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
        if (!m_store)
        {
            return;
        }
        if (m_count > m_maxStore)
        {
            m_store = false;
            m_elp.paths.clear();
            m_elp.paths.shrink_to_fit();
            return;
        }
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
        if (!m_store)
        {
            return;
        }
        if (m_count > m_maxStore)
        {
            m_store = false;
            m_elp.paths.clear();
            m_elp.paths.shrink_to_fit();
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

// ---------------------------------------------------------------------------
// Up-down walks with bounces
// ---------------------------------------------------------------------------

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
        HopGraph& g = m_elp.graph;
        const size_t nE = net.adj.size();
        const uint32_t nb = m_b + 1;
        std::vector<uint64_t> cur(nE, 0);
        std::vector<uint64_t> nxt(nE, 0);
        std::vector<uint64_t> curCnt;
        std::vector<uint64_t> nxtCnt;
        if (countWalks)
        {
            curCnt.assign(nE * nb, 0);
            nxtCnt.assign(nE * nb, 0);
        }
        for (NodeId h : net.hosts)
        {
            for (uint32_t j = net.begin[h]; j < net.begin[h + 1]; ++j)
            {
                if (net.fwd[net.adj[j].nbr] && m_cls[j] != kFlat)
                {
                    cur[net.rev[j]] |= 1;
                    if (countWalks)
                    {
                        curCnt[size_t(net.rev[j]) * nb] += 1;
                    }
                }
            }
        }
        uint64_t walks = 0;
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
                    uint64_t f = cur[e] & m_c[e];
                    cur[e] = 0;
                    if (!f)
                    {
                        continue;
                    }
                    const bool fromAbove = m_cls[e] == kUp;
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
                            if (countWalks)
                            {
                                for (uint32_t b = 0; b < nb; ++b)
                                {
                                    if (f2 >> (bounce ? b + 1 : b) & 1)
                                    {
                                        walks = SatAdd(walks, curCnt[size_t(e) * nb + b]);
                                    }
                                }
                            }
                        }
                        if (net.fwd[y])
                        {
                            uint32_t r = net.rev[o];
                            uint64_t g2 = f2 & m_c[r];
                            if (g2)
                            {
                                if (level >= kMaxLevel)
                                {
                                    ThrowTooLongUpDown();
                                }
                                used = true;
                                active = true;
                                nxt[r] |= g2;
                                if (countWalks)
                                {
                                    for (uint32_t b = 0; b < nb; ++b)
                                    {
                                        uint32_t b2 = bounce ? b + 1 : b;
                                        if (b2 < nb && (g2 >> b2 & 1))
                                        {
                                            uint64_t& dst = nxtCnt[size_t(r) * nb + b2];
                                            dst = SatAdd(dst, curCnt[size_t(e) * nb + b]);
                                        }
                                    }
                                }
                            }
                        }
                        if (used)
                        {
                            g.AddMask(x, net.adj[e].in, net.adj[o].out, uint64_t{1} << level);
                        }
                    }
                }
            }
            std::swap(cur, nxt);
            if (countWalks)
            {
                std::swap(curCnt, nxtCnt);
                std::fill(nxtCnt.begin(), nxtCnt.end(), 0);
            }
        }
        return walks;
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

// ---------------------------------------------------------------------------
// HopGraph
// ---------------------------------------------------------------------------

HopGraph::HopGraph(const Topology& topo)
    : m_topo(&topo)
{
    m_ports.resize(topo.GetNNodes(), 0);
    m_masks.resize(topo.GetNNodes());
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        m_ports[n] = topo.IsForwarder(n) ? topo.GetNode(n).ports : 0;
    }
}

void
HopGraph::Add(NodeId node, PortNo in, PortNo out, uint32_t level)
{
    if (level == 0 || level > kMaxLevel)
    {
        throw TaggerError("hop level " + std::to_string(level) + " is out of range 1.." +
                          std::to_string(kMaxLevel));
    }
    AddMask(node, in, out, uint64_t{1} << level);
}

void
HopGraph::AddMask(NodeId node, PortNo in, PortNo out, uint64_t levels)
{
    if (m_topo == nullptr)
    {
        throw TaggerError("HopGraph without a topology");
    }
    if (node >= m_ports.size())
    {
        throw TaggerError("HopGraph: node id " + std::to_string(node) + " does not exist");
    }
    const uint32_t p = m_ports[node];
    if (p == 0)
    {
        throw TaggerError("HopGraph: " + m_topo->GetNode(node).name +
                          " does not forward packets (no hop levels there)");
    }
    if (in >= p || out >= p)
    {
        throw TaggerError("HopGraph: port " + std::to_string(in >= p ? in : out) +
                          " out of range on " + m_topo->GetNode(node).name);
    }
    if (levels & 1)
    {
        throw TaggerError("HopGraph: level 0 is not a hop level");
    }
    if (levels == 0)
    {
        return;
    }
    auto& m = m_masks[node];
    if (m.empty())
    {
        m.assign(size_t(p) * p, 0);
    }
    m[size_t(in) * p + out] |= levels;
    m_maxLevel = std::max(m_maxLevel, HighestBit(levels));
}

void
HopGraph::AddPath(const Path& path)
{
    if (m_topo == nullptr)
    {
        throw TaggerError("HopGraph without a topology");
    }
    std::string err = CheckPath(*m_topo, path);
    if (!err.empty())
    {
        throw TaggerError("path " + PathText(*m_topo, path) + ": " + err);
    }
    for (size_t i = 1; i + 1 < path.size(); ++i)
    {
        NodeId prev = path[i - 1];
        NodeId node = path[i];
        PortNo in = m_topo->GetPeer(prev, m_topo->GetPortTo(prev, node)).port;
        PortNo out = m_topo->GetPortTo(node, path[i + 1]);
        AddMask(node, in, out, uint64_t{1} << i);
    }
}

uint64_t
HopGraph::CountEntries() const
{
    uint64_t n = 0;
    for (const auto& m : m_masks)
    {
        for (uint64_t v : m)
        {
            n += static_cast<uint64_t>(__builtin_popcountll(v));
        }
    }
    return n;
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

Elp
MakeShortestPathElp(const Topology& topo, const ElpOptions& opt)
{
    return MakeDagElp(topo, DagMode::ALL, opt);
}

Elp
MakeShortestPathTreeElp(const Topology& topo, const ElpOptions& opt)
{
    return MakeDagElp(topo, DagMode::TREE, opt);
}

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
    const bool store = elp.paths.size() == elp.pathCount || elp.upDownBounces >= 0;
    std::mt19937_64 rng(seed);

    struct Draw
    {
        NodeId s;
        NodeId t;
        uint64_t seed;
        NodeId key; //!< BFS root: t's anchor when attached, else t
    };

    std::vector<Draw> draws(n);
    const uint64_t nh = net.hosts.size();
    for (Draw& d : draws)
    {
        d.s = net.hosts[UniformIndex(rng, nh)];
        uint64_t ti = UniformIndex(rng, nh - 1);
        d.t = net.hosts[ti];
        if (d.t == d.s)
        {
            d.t = net.hosts[nh - 1];
        }
        d.seed = rng();
        d.key = net.anchorOf[d.t] != kNone ? net.anchorOf[d.t] : d.t;
    }
    std::vector<uint64_t> order(n);
    for (uint64_t i = 0; i < n; ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&draws](uint64_t a, uint64_t b) {
        return draws[a].key < draws[b].key;
    });

    std::vector<Path> result(n);
    std::vector<int32_t> dist(net.n, -1);
    std::vector<NodeId> bfs;
    std::vector<uint64_t> vis(net.n, 0);
    uint64_t stamp = 0;
    NodeId curKey = kNone;
    std::vector<uint32_t> cands;
    auto ensureBfs = [&](NodeId key) {
        if (key == curKey)
        {
            return;
        }
        for (NodeId v : bfs)
        {
            dist[v] = -1;
        }
        BfsOverForwarders(net, key, dist, bfs);
        curKey = key;
    };
    for (uint64_t idx : order)
    {
        Draw d = draws[idx];
        std::mt19937_64 prng(d.seed);
        // links from node v to t (-1: unreachable); the BFS is from d.key
        auto toT = [&](NodeId v) -> int32_t {
            if (v == d.t)
            {
                return 0;
            }
            if (!net.fwd[v] || dist[v] < 0)
            {
                return -1;
            }
            return dist[v] + (d.key != d.t ? 1 : 0);
        };
        auto startDist = [&](NodeId s) -> int32_t {
            int32_t best = -1;
            for (uint32_t i = net.begin[s]; i < net.begin[s + 1]; ++i)
            {
                int32_t dw = toT(net.nbr[i]);
                if (dw >= 0 && (best < 0 || dw + 1 < best))
                {
                    best = dw + 1;
                }
            }
            return best;
        };
        int32_t sd = -1;
        for (uint32_t redraw = 0;; ++redraw)
        {
            ensureBfs(d.key);
            sd = startDist(d.s);
            if (sd >= 0)
            {
                break;
            }
            if (redraw == 1000)
            {
                throw TaggerError("random paths: no path between 1000 random pairs of hosts "
                                  "(the hosts are not connected)");
            }
            // t cannot be reached from s: draw another pair
            d.s = net.hosts[UniformIndex(prng, nh)];
            d.t = net.hosts[UniformIndex(prng, nh - 1)];
            if (d.t == d.s)
            {
                d.t = net.hosts[nh - 1];
            }
            d.key = net.anchorOf[d.t] != kNone ? net.anchorOf[d.t] : d.t;
        }
        const int32_t budget = std::max<int32_t>(static_cast<int32_t>(limit), sd);
        Path path;
        for (uint32_t attempt = 0; attempt < 1000 && path.empty(); ++attempt)
        {
            ++stamp;
            Path walk{d.s};
            vis[d.s] = stamp;
            NodeId v = d.s;
            while (v != d.t)
            {
                int32_t g = static_cast<int32_t>(walk.size()) - 1;
                cands.clear();
                for (uint32_t i = net.begin[v]; i < net.begin[v + 1]; ++i)
                {
                    NodeId w = net.nbr[i];
                    int32_t dw = toT(w);
                    if (dw < 0 || vis[w] == stamp || g + 1 + dw > budget)
                    {
                        continue;
                    }
                    cands.push_back(i);
                }
                if (cands.empty())
                {
                    break;
                }
                v = net.adj[cands[UniformIndex(prng, cands.size())]].nbr;
                vis[v] = stamp;
                walk.push_back(v);
            }
            if (v == d.t)
            {
                path = std::move(walk);
            }
        }
        if (path.empty())
        {
            // unlucky walks: take a random shortest path instead (always succeeds)
            path.assign(1, d.s);
            NodeId v = d.s;
            while (v != d.t)
            {
                int32_t dv = v == d.s ? sd : toT(v);
                cands.clear();
                for (uint32_t i = net.begin[v]; i < net.begin[v + 1]; ++i)
                {
                    if (toT(net.nbr[i]) == dv - 1)
                    {
                        cands.push_back(i);
                    }
                }
                v = net.adj[cands[UniformIndex(prng, cands.size())]].nbr;
                path.push_back(v);
            }
        }
        result[idx] = std::move(path);
    }
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

Elp
MakeElpFromPaths(const Topology& topo, std::vector<Path> paths)
{
    Elp elp;
    elp.graph = HopGraph(topo);
    for (size_t i = 0; i < paths.size(); ++i)
    {
        std::string err = CheckPath(topo, paths[i]);
        if (!err.empty())
        {
            throw TaggerError("ELP path " + std::to_string(i + 1) + " (" +
                              PathText(topo, paths[i]) + "): " + err);
        }
        elp.graph.AddPath(paths[i]);
        elp.longestPath =
            std::max<uint32_t>(elp.longestPath, static_cast<uint32_t>(paths[i].size() - 1));
    }
    elp.pathCount = paths.size();
    elp.paths = std::move(paths);
    return elp;
}

Elp
ReadElpFile(const Topology& topo, const std::string& filename)
{
    std::ifstream in(filename);
    if (!in)
    {
        throw TaggerError("cannot open ELP file '" + filename + "'");
    }
    Elp elp;
    elp.graph = HopGraph(topo);
    std::string line;
    uint64_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        auto hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.erase(hash);
        }
        std::istringstream words(line);
        std::string word;
        Path path;
        while (words >> word)
        {
            NodeId id = topo.FindNode(word);
            if (id == kNone)
            {
                throw TaggerError(filename + ":" + std::to_string(lineNo) + ": unknown node '" +
                                  word + "'");
            }
            path.push_back(id);
        }
        if (path.empty())
        {
            continue;
        }
        std::string err = CheckPath(topo, path);
        if (!err.empty())
        {
            throw TaggerError(filename + ":" + std::to_string(lineNo) + ": " + err);
        }
        elp.graph.AddPath(path);
        elp.longestPath =
            std::max<uint32_t>(elp.longestPath, static_cast<uint32_t>(path.size() - 1));
        elp.paths.push_back(std::move(path));
    }
    if (in.bad())
    {
        throw TaggerError(filename + ": read error after line " + std::to_string(lineNo));
    }
    if (elp.paths.empty())
    {
        throw TaggerError(filename + ": no path in the file");
    }
    elp.pathCount = elp.paths.size();
    return elp;
}

} // namespace tagger
} // namespace ns3
