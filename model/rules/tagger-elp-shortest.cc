/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * The destination-rooted ELP families: all shortest paths
 * (MakeShortestPathElp) and shortest-path trees (MakeShortestPathTreeElp).
 */

#include "tagger-elp-core.h"
#include "tagger-parallel.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <random>

namespace ns3
{
namespace tagger
{

namespace
{

using namespace detail;

enum class DagMode
{
    TREE,  //!< one random parent per node (destination-rooted spanning tree)
    ALL,   //!< every neighbour one hop closer (all shortest paths)
    GIVEN, //!< the next hops of Elp::nextHops (ElpNextHops)
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
    /**
     * \param keepHops record every destination's next hops in elp.nextHops
     * \param given GIVEN mode: the next hops to build the family from
     * \param threads threads for the BFS of the destinations (0: one per hardware thread)
     */
    DagFamily(const Net& net,
              DagMode mode,
              uint64_t seed,
              bool store,
              Elp& elp,
              bool keepHops,
              const std::vector<ElpNextHops>* given,
              unsigned threads)
        : m_net(net),
          m_mode(mode),
          m_rng(seed),
          m_threads(threads),
          m_store(store),
          m_keepHops(keepHops),
          m_given(given),
          m_elp(elp),
          m_uOut(net.topo)
    {
        m_dist.assign(net.n, -1);
        m_a.assign(net.n, 0);
        m_cnt.assign(net.n, 0);
        m_succBegin.assign(net.n, 0);
        m_succEnd.assign(net.n, 0);
    }

    /**
     * Every destination unit in ascending order.  The BFS of the units (no
     * random draws) runs on m_threads threads ahead of the rest, which runs
     * in unit order on this thread: the ELP is the same for any thread count.
     */
    void Run()
    {
        auto finish = [this]() {
            for (NodeId x : m_order)
            {
                m_dist[x] = -1;
            }
        };
        if (m_given)
        {
            for (const ElpNextHops& h : *m_given)
            {
                m_hops = &h;
                Root(h.root, nullptr);
                finish();
            }
        }
        else
        {
            const unsigned threads = ResolveThreads(m_threads);
            std::vector<RootBfs> slots(2 * threads + 2);
            std::vector<std::unique_ptr<RootBfsScratch>> scratch(threads);
            OrderedPipeline(
                threads,
                m_net.units.size(),
                slots,
                [this, &scratch](size_t i, RootBfs& b, unsigned t) {
                    if (!scratch[t])
                    {
                        scratch[t] = std::make_unique<RootBfsScratch>(m_net);
                    }
                    RunRootBfs(m_net, m_net.units[i], *scratch[t], b);
                },
                [this, &finish](size_t i, RootBfs& b) {
                    Root(m_net.units[i], &b);
                    finish();
                });
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

    /// x's successors among its \p count candidates \p cands (TREE: one at random).
    void Choose(NodeId x, const Adj* cands, size_t count)
    {
        m_succBegin[x] = static_cast<uint32_t>(m_succ.size());
        if (m_mode == DagMode::TREE)
        {
            m_succ.push_back(cands[UniformIndex(m_rng, count)]);
        }
        else
        {
            m_succ.insert(m_succ.end(), cands, cands + count);
        }
        m_succEnd[x] = static_cast<uint32_t>(m_succ.size());
    }

    /**
     * Take root r's BFS from b (swapping its order in): m_order, m_dist, and
     * every node's successors (Choose, in BFS order: the random draws are
     * those of a sequential run).
     */
    void ApplyBfs(NodeId r, RootBfs& b)
    {
        const Net& net = m_net;
        m_order.swap(b.order);
        m_succ.clear();
        for (size_t q = 0; q < m_order.size(); ++q)
        {
            m_dist[m_order[q]] = b.dist[q];
        }
        if (!net.fwd[r])
        {
            // a host root: its neighbours (BFS positions 1..) send straight to it
            for (uint32_t i = net.begin[r]; i < net.fwdEnd[r]; ++i)
            {
                const NodeId y = net.nbr[i];
                m_succBegin[y] = static_cast<uint32_t>(m_succ.size());
                m_succ.push_back(net.adj[net.rev[i]]);
                m_succEnd[y] = static_cast<uint32_t>(m_succ.size());
            }
        }
        for (size_t q = 1; q < m_order.size(); ++q)
        {
            if (net.fwd[r] || b.dist[q] > 1)
            {
                Choose(m_order[q],
                       b.candAdj.data() + b.candBegin[q],
                       b.candBegin[q + 1] - b.candBegin[q]);
            }
        }
    }

    /**
     * Everything for destination unit r: its BFS (bfs, or the given next hops),
     * sources, the sweep, the root.
     */
    void Root(NodeId r, RootBfs* bfs)
    {
        if (m_hops)
        {
            GivenOrder(*m_hops);
            InitSources(r);
            CollectGivenExtras(*m_hops);
        }
        else
        {
            ApplyBfs(r, *bfs);
            InitSources(r);
            CollectExtras(r);
        }
        if (m_keepHops)
        {
            RecordHops(r);
        }
        m_updates.clear();
        Sweep(r);
        RootTransitions(r);
        m_elp.graph.AddMasks(m_updates);
        CountAtRoot(r);
        if (m_store)
        {
            StorePaths(r);
        }
    }

    /// Append root r's next hops (successors, and the extras' first hops) to elp.nextHops.
    void RecordHops(NodeId r)
    {
        std::vector<std::pair<NodeId, NodeId>> pairs; // (node, next hop)
        for (size_t q = 1; q < m_order.size(); ++q)
        {
            const NodeId x = m_order[q];
            for (uint32_t k = m_succBegin[x]; k < m_succEnd[x]; ++k)
            {
                pairs.emplace_back(x, m_succ[k].nbr);
            }
        }
        for (const Extra& ex : m_extras)
        {
            pairs.emplace_back(ex.src, ex.at);
        }
        std::sort(pairs.begin(), pairs.end());
        ElpNextHops h;
        h.root = r;
        std::vector<NodeId> next;
        for (size_t i = 0; i < pairs.size(); ++i)
        {
            next.push_back(pairs[i].second);
            if (i + 1 == pairs.size() || pairs[i + 1].first != pairs[i].first)
            {
                h.Add(pairs[i].first, next);
                next.clear();
            }
        }
        m_elp.nextHops.push_back(std::move(h));
    }

    [[noreturn]] void BadHop(const ElpNextHops& h, NodeId x, const std::string& what) const
    {
        const Topology& topo = m_net.topo;
        throw TaggerError("next hops toward " + topo.GetNode(h.root).name + ": " +
                          topo.GetNode(x).name + ": " + what);
    }

    /**
     * GIVEN mode: m_order (root first, then the listed forwarders by height,
     * the most hops to the root last), the successors and m_dist (= height).
     */
    void GivenOrder(const ElpNextHops& h)
    {
        const Net& net = m_net;
        const NodeId r = h.root;
        if (r >= net.n || (net.host[r] ? net.anchorOf[r] != kNone : !net.fwd[r]))
        {
            throw TaggerError("next hops: destination '" +
                              (r < net.n ? net.topo.GetNode(r).name : std::to_string(r)) +
                              "' is not a switch nor a host that is not attached to one");
        }
        if (h.begin.size() != h.nodes.size() + (h.nodes.empty() ? 0 : 1) ||
            (!h.nodes.empty() && h.begin.back() != h.hops.size()))
        {
            throw TaggerError("next hops toward " + net.topo.GetNode(r).name + ": malformed");
        }
        m_order.assign(1, r);
        m_succ.clear();
        m_dist[r] = 0;
        for (size_t i = 0; i < h.nodes.size(); ++i)
        {
            const NodeId x = h.nodes[i];
            if (x >= net.n || x == r || m_dist[x] != -1 || (i > 0 && h.nodes[i - 1] >= x))
            {
                BadHop(h, std::min(x, net.n - 1), "listed twice, out of order, or the destination");
            }
            if (h.begin[i] == h.begin[i + 1])
            {
                BadHop(h, x, "listed without a next hop");
            }
            if (!net.fwd[x])
            {
                continue; // a host: an extra (CollectGivenExtras)
            }
            m_succBegin[x] = static_cast<uint32_t>(m_succ.size());
            for (uint32_t k = h.begin[i]; k < h.begin[i + 1]; ++k)
            {
                const NodeId y = h.hops[k];
                const uint32_t e = y < net.n ? net.FindEntry(x, y) : kNone;
                if (e == kNone || (!net.fwd[y] && y != r))
                {
                    BadHop(h, x, "next hop is not a linked forwarder or the destination");
                }
                m_succ.push_back(net.adj[e]);
            }
            m_succEnd[x] = static_cast<uint32_t>(m_succ.size());
            m_dist[x] = -2; // listed, height not known yet
            m_order.push_back(x);
        }
        for (size_t q = 1; q < m_order.size(); ++q)
        {
            Height(h, m_order[q]);
        }
        std::sort(m_order.begin() + 1, m_order.end(), [this](NodeId a, NodeId b) {
            return m_dist[a] != m_dist[b] ? m_dist[a] < m_dist[b] : a < b;
        });
    }

    /// m_dist[x] = most hops from x to the root along next hops (iterative DFS).
    void Height(const ElpNextHops& h, NodeId x)
    {
        std::vector<std::pair<NodeId, uint32_t>> stack{{x, m_succBegin[x]}};
        m_dist[x] = -3; // on the stack
        while (!stack.empty())
        {
            auto& [v, k] = stack.back();
            if (k < m_succEnd[v])
            {
                const NodeId y = m_succ[k++].nbr;
                if (m_dist[y] == -3)
                {
                    BadHop(h, v, "the next hops loop (through " + m_net.topo.GetNode(y).name + ")");
                }
                if (m_dist[y] == -1)
                {
                    BadHop(h,
                           v,
                           "next hop " + m_net.topo.GetNode(y).name + " has no next hop itself");
                }
                if (m_dist[y] == -2)
                {
                    m_dist[y] = -3;
                    stack.emplace_back(y, m_succBegin[y]);
                }
                continue;
            }
            int32_t height = 0;
            for (uint32_t j = m_succBegin[v]; j < m_succEnd[v]; ++j)
            {
                height = std::max(height, m_dist[m_succ[j].nbr] + 1);
            }
            if (height > static_cast<int32_t>(kMaxLevel))
            {
                ThrowTooLong();
            }
            m_dist[v] = height;
            stack.pop_back();
        }
    }

    /// GIVEN mode: the listed hosts that are neither attached nor relaying enter at their next
    /// hops.
    void CollectGivenExtras(const ElpNextHops& h)
    {
        const Net& net = m_net;
        m_extras.clear();
        for (size_t i = 0; i < h.nodes.size(); ++i)
        {
            const NodeId f = h.nodes[i];
            if (net.fwd[f])
            {
                continue;
            }
            if (net.anchorOf[f] != kNone)
            {
                BadHop(h, f, "an attached host has no listed next hop (it is its switch)");
            }
            for (uint32_t k = h.begin[i]; k < h.begin[i + 1]; ++k)
            {
                const NodeId y = h.hops[k];
                const uint32_t e = y < net.n ? net.FindEntry(f, y) : kNone;
                if (e == kNone || m_dist[y] < 0)
                {
                    BadHop(h, f, "next hop is not linked or has no next hop itself");
                }
                m_extras.push_back(Extra{y, f, e});
                m_a[y] |= 2;
                m_cnt[y] = SatAdd(m_cnt[y], 1);
            }
        }
        std::sort(m_extras.begin(), m_extras.end(), [](const Extra& a, const Extra& b) {
            return a.at != b.at ? a.at < b.at : a.src < b.src;
        });
    }

    /// A(x) and the source counts of the nodes reached: relay hosts and attached hosts.
    void InitSources(NodeId r)
    {
        const Net& net = m_net;
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
    }

    /**
     * The free hosts that do not relay (multi-homed): each enters at its
     * closest neighbours (one at random for a tree), as a source at distance 1.
     */
    void CollectExtras(NodeId r)
    {
        const Net& net = m_net;
        m_extras.clear();
        for (NodeId f : net.freeNonFwd)
        {
            if (f == r)
            {
                continue;
            }
            ClosestEntries(f, r);
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
    }

    /// m_cands: the entries of host f toward its neighbours closest to r.
    void ClosestEntries(NodeId f, NodeId r)
    {
        const Net& net = m_net;
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
    }

    /// Queue HopGraph::AddMask(x, in, out, levels) for this root's AddMasks.
    void Add(NodeId x, PortNo in, PortNo out, uint64_t levels)
    {
        m_updates.push_back(HopGraph::MaskUpdate{x, in, out, levels});
    }

    /// The bottom-up sweep, farthest nodes first.
    void Sweep(NodeId r)
    {
        const Net& net = m_net;
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
                        Add(w, net.adj[it->entry].farIn, m_succ[k].out, 2);
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
            for (uint32_t k = m_succBegin[w]; k < m_succEnd[w]; ++k)
            {
                PushToSuccessor(r, w, m_succ[k]);
            }
        }
    }

    /// Pass w's sources (levels A(w) << 1) on to the successor e.nbr.
    void PushToSuccessor(NodeId r, NodeId w, const Adj& e)
    {
        const Net& net = m_net;
        const uint64_t sh = m_a[w] << 1;
        NodeId x = e.nbr;
        m_a[x] |= sh;
        m_cnt[x] = SatAdd(m_cnt[x], m_cnt[w]);
        if (x != r)
        {
            for (uint32_t k2 = m_succBegin[x]; k2 < m_succEnd[x]; ++k2)
            {
                Add(x, e.farIn, m_succ[k2].out, sh);
            }
        }
        else
        {
            for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
            {
                Add(r, e.farIn, net.adj[net.att[t]].out, sh);
            }
        }
        if (net.AttCount(w) > 0)
        {
            m_uOut.Set(w, e.out);
        }
    }

    /// The root: sources arriving at r go to r itself (a host) or to its attached hosts.
    void RootTransitions(NodeId r)
    {
        const Net& net = m_net;
        {
            auto range = ExtrasAt(r);
            for (auto it = range.first; it != range.second; ++it)
            {
                for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
                {
                    Add(r, net.adj[it->entry].farIn, net.adj[net.att[t]].out, 2);
                }
            }
        }
        for (uint32_t s = net.attBegin[r]; s < net.attBegin[r + 1]; ++s)
        {
            for (uint32_t t = net.attBegin[r]; t < net.attBegin[r + 1]; ++t)
            {
                if (s != t)
                {
                    Add(r, net.adj[net.att[s]].in, net.adj[net.att[t]].out, 2);
                }
            }
        }
    }

    /// Count the paths toward unit r and update the longest path.
    void CountAtRoot(NodeId r)
    {
        const Net& net = m_net;
        const uint64_t d = net.AttCount(r);
        const bool self = net.host[r];
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
                Walk(m_succ[k].nbr);
            }
        }
        m_prefix.pop_back();
    }

    const Net& m_net;
    DagMode m_mode;
    std::mt19937_64 m_rng;
    unsigned m_threads; //!< threads for the BFS (0: one per hardware thread)
    bool m_store;
    bool m_keepHops;                         //!< record next hops in elp.nextHops
    const std::vector<ElpNextHops>* m_given; //!< GIVEN mode: the next hops
    const ElpNextHops* m_hops{nullptr};      //!< GIVEN mode: the current root's
    Elp& m_elp;
    PortSets m_uOut; //!< per forwarder: out ports its attached hosts use
    std::vector<int32_t> m_dist;
    std::vector<NodeId> m_order;
    std::vector<uint64_t> m_a;
    std::vector<uint64_t> m_cnt;
    std::vector<uint32_t> m_succBegin;
    std::vector<uint32_t> m_succEnd;
    std::vector<Adj> m_succ; //!< per node [m_succBegin, m_succEnd): its successors
    std::vector<uint32_t> m_cands;
    std::vector<Extra> m_extras;
    std::vector<HopGraph::MaskUpdate> m_updates; //!< the current root's transitions
    uint64_t m_count{0};
    uint32_t m_longest{0};
    NodeId m_root{kNone};
    Path m_prefix;
};

Elp
MakeDagElp(const Topology& topo,
           DagMode mode,
           const ElpOptions& opt,
           const std::vector<ElpNextHops>* given = nullptr)
{
    Net net(topo);
    Elp elp;
    elp.graph = HopGraph(topo);
    DagFamily(net, mode, opt.seed, false, elp, opt.keepNextHops && !given, given, opt.threads)
        .Run();
    if (opt.maxExplicitPaths > 0 && elp.pathCount > 0 && elp.pathCount <= opt.maxExplicitPaths)
    {
        // same seed, same choices: this pass only collects the paths
        Elp again;
        again.graph = HopGraph(topo);
        DagFamily(net, mode, opt.seed, true, again, false, given, opt.threads).Run();
        elp.paths = std::move(again.paths);
        SortPaths(elp.paths);
    }
    if (given)
    {
        elp.nextHops = *given;
    }
    if (!elp.nextHops.empty())
    {
        elp.nextHopPaths = elp.paths.size();
    }
    return elp;
}

} // namespace

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
MakeNextHopElp(const Topology& topo, const std::vector<ElpNextHops>& hops, const ElpOptions& opt)
{
    return MakeDagElp(topo, DagMode::GIVEN, opt, &hops);
}

} // namespace tagger
} // namespace ns3
