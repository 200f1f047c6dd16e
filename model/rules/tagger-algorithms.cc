/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-algorithms.h"

#include "tagger-dynamic-topo-order.h"
#include "tagger-elp-core.h"

#include <algorithm>
#include <memory>
#include <random>

namespace ns3
{
namespace tagger
{

namespace
{

/// Bitmask of the start tags of `classes` classes: tags 1..classes.
uint64_t
StartTags(uint32_t classes)
{
    if (classes == 0 || classes > kMaxTag)
    {
        throw TaggerError("classes must be between 1 and " + std::to_string(kMaxTag) + ", not " +
                          std::to_string(classes));
    }
    return ((classes >= 63 ? ~0ULL : (1ULL << (classes + 1)) - 1)) & ~1ULL;
}

Tag
CheckedTag(uint32_t t)
{
    if (t > kMaxTag)
    {
        throw TaggerError("more than " + std::to_string(kMaxTag) +
                          " tags needed (the tag is a 6-bit DSCP value)");
    }
    return static_cast<Tag>(t);
}

/// true for a node that forwards transit packets and has ports.
bool
Forwards(const Topology& topo, NodeId n)
{
    return n != kNone && topo.IsForwarder(n) && topo.GetNode(n).ports > 0;
}

/**
 * A guess at the topological order of every G_t, used as the starting order of
 * the incremental cycle check (it never changes a decision, only the work):
 * ingress ports facing hosts first (they have no predecessor), then the links
 * that go "up" towards a BFS root, then those that go "down" (the up-star/down-star
 * order: turns it allows insert without any re-ordering).  A port is named by
 * its link w -> x (x's ingress port from w); rank = BFS distance from the
 * root, ties broken by node id.
 */
std::vector<uint32_t>
UpDownOrder(const Topology& topo)
{
    const uint32_t nNodes = topo.GetNNodes();
    std::vector<uint32_t> rank(nNodes, kNone);
    std::vector<NodeId> queue;
    for (NodeId root = 0; root < nNodes; ++root)
    {
        if (rank[root] != kNone || !Forwards(topo, root))
        {
            continue;
        }
        rank[root] = 0;
        queue.assign(1, root);
        for (size_t i = 0; i < queue.size(); ++i)
        {
            const NodeId x = queue[i];
            for (PortNo p = 0; p < topo.GetNode(x).ports; ++p)
            {
                const NodeId y = topo.GetPeer(x, p).node;
                if (Forwards(topo, y) && rank[y] == kNone)
                {
                    rank[y] = rank[x] + 1;
                    queue.push_back(y);
                }
            }
        }
    }
    auto key = [&rank](NodeId n) { return (uint64_t{rank[n]} << 32) | n; };
    std::vector<std::pair<uint64_t, uint32_t>> sources;
    std::vector<std::pair<uint64_t, uint32_t>> up;
    std::vector<std::pair<uint64_t, uint32_t>> down;
    for (PortIndex i = 0; i < topo.GetNPorts(); ++i)
    {
        const PortRef at = topo.GetPortRef(i);
        const NodeId from = topo.GetPeer(at.node, at.port).node;
        if (from == kNone || !Forwards(topo, from) || !Forwards(topo, at.node))
        {
            sources.emplace_back(i, i);
        }
        else if (key(at.node) < key(from))
        {
            up.emplace_back(~key(from), i); // up chains: sources of higher rank first
        }
        else
        {
            down.emplace_back(key(from), i); // down chains: sources of lower rank first
        }
    }
    std::sort(up.begin(), up.end());
    std::sort(down.begin(), down.end());
    std::vector<uint32_t> order;
    order.reserve(topo.GetNPorts());
    for (const auto* part : {&sources, &up, &down})
    {
        for (const auto& e : *part)
        {
            order.push_back(e.second);
        }
    }
    return order;
}

/**
 * Algorithm 2 over a HopGraph (TagGreedy): walks the brute-force levels in
 * order, tracking the set of tags with which packets arrive at every ingress
 * port, and decides every new transition (node, tag, in, out) once.  One
 * acyclic graph per tag over ingress ports (that tag's subgraph G_t) refuses
 * the merges that would close a cycle.
 */
class GreedyMerge
{
  public:
    GreedyMerge(const HopGraph& elp, const TaggingOptions& opt, GreedyStats& stats)
        : m_elp(elp),
          m_topo(elp.GetTopology()),
          m_opt(opt),
          m_stats(stats),
          m_nPorts(m_topo.GetNPorts()),
          m_rules(m_topo),
          m_tags(elp.GetMaxLevel() + 2),
          m_initialOrder(UpDownOrder(m_topo)),
          m_startPos(m_nPorts),
          m_source(m_nPorts),
          m_rng(opt.shuffleSeed)
    {
        for (uint32_t i = 0; i < m_nPorts; ++i)
        {
            m_startPos[m_initialOrder[i]] = i;
            const PortRef at = m_topo.GetPortRef(i);
            m_source[i] = !Forwards(m_topo, m_topo.GetPeer(at.node, at.port).node);
        }
        m_landmarks = Landmarks();
    }

    /// Tag every level, packets starting with the tags in `start`; return the rules.
    TagRules Run(uint64_t start)
    {
        const uint32_t maxLevel = m_elp.GetMaxLevel();
        m_tags[1].assign(m_nPorts, start);
        for (uint32_t level = 1; level <= maxLevel; ++level)
        {
            m_tags[level + 1].assign(m_nPorts, 0);
            m_raised = false;
            // Algorithm 2 leaves the order inside a level free.  First the
            // transitions whose edge agrees with the starting order (they can never
            // close a cycle among themselves, and insert in O(1)), then the others:
            // against the dense graph of the first pass most of them are refused by
            // the landmark filter instead of re-ordering large regions.
            if (m_opt.order == GreedyOrder::LOCAL || m_opt.order == GreedyOrder::PAPER)
            {
                for (int pass = 0; pass < 2; ++pass)
                {
                    for (NodeId x = 0; x < m_topo.GetNNodes(); ++x)
                    {
                        if (Forwards(m_topo, x))
                        {
                            TagNode(x, level, pass == 0);
                        }
                    }
                }
            }
            else
            {
                TagLevelInOrder(level);
            }
            m_tags[level].clear();
            m_tags[level].shrink_to_fit();
            if (m_opt.order == GreedyOrder::PAPER && m_raised)
            {
                ++m_floor;
            }
        }
        for (const auto& g : m_subgraph)
        {
            m_stats.visited += g ? g->GetVisited() : 0;
            m_stats.filtered += g ? g->GetFiltered() : 0;
        }
        return std::move(m_rules);
    }

  private:
    /**
     * Landmarks for the refusal filter: switch-to-switch links spread evenly
     * over the order (host-facing ports have no predecessor: useless there).
     */
    std::vector<uint32_t> Landmarks() const
    {
        std::vector<uint32_t> links;
        for (uint32_t i : m_initialOrder)
        {
            const PortRef at = m_topo.GetPortRef(i);
            if (Forwards(m_topo, at.node) &&
                Forwards(m_topo, m_topo.GetPeer(at.node, at.port).node))
            {
                links.push_back(i);
            }
        }
        std::vector<uint32_t> landmarks;
        const size_t count = std::min<size_t>(DynamicTopoOrder::kMaxLandmarks, links.size());
        for (size_t k = 0; k < count; ++k)
        {
            landmarks.push_back(links[k * links.size() / count]);
        }
        return landmarks;
    }

    /// The subgraph G_t (created on first use).
    DynamicTopoOrder& GraphOf(Tag t)
    {
        if (m_subgraph.size() <= t)
        {
            m_subgraph.resize(t + 1);
        }
        if (!m_subgraph[t])
        {
            m_subgraph[t] =
                std::make_unique<DynamicTopoOrder>(m_nPorts, m_opt.cycleCheck == CycleCheck::NAIVE);
            m_subgraph[t]->SetInitialOrder(m_initialOrder);
            m_subgraph[t]->SetLandmarks(m_landmarks);
        }
        return *m_subgraph[t];
    }

    /**
     * Call f(t, in, out, inIdx, peerIdx, agrees) for every transition of node x
     * at `level` with every tag t it carries, in (in, out, t) order; agrees
     * tells whether its edge agrees with the starting order.
     */
    template <typename F>
    void ForEachStep(NodeId x, uint32_t level, F f) const
    {
        const uint32_t p = m_topo.GetNode(x).ports;
        for (PortNo in = 0; in < p; ++in)
        {
            const PortIndex inIdx = m_topo.GetPortIndex(x, in);
            const uint64_t here = m_tags[level][inIdx];
            if (here == 0)
            {
                continue;
            }
            for (PortNo out = 0; out < p; ++out)
            {
                if (!(m_elp.GetMask(x, in, out) >> level & 1))
                {
                    continue;
                }
                const PortRef peer = m_topo.GetPeer(x, out);
                const bool toForwarder = Forwards(m_topo, peer.node);
                const PortIndex peerIdx =
                    toForwarder ? m_topo.GetPortIndex(peer.node, peer.port) : kNone;
                const bool agrees = !toForwarder || m_startPos[inIdx] < m_startPos[peerIdx];
                for (uint32_t t = 1; here >> t; ++t)
                {
                    if (here >> t & 1)
                    {
                        f(static_cast<Tag>(t), in, out, inIdx, peerIdx, agrees);
                    }
                }
            }
        }
    }

    /**
     * The transitions of node x at `level` whose edge agrees with the starting
     * order (agreeing) or does not (!agreeing), with every tag they carry.
     */
    void TagNode(NodeId x, uint32_t level, bool agreeing)
    {
        ForEachStep(x, level, [&](Tag t, PortNo in, PortNo out, PortIndex i, PortIndex j, bool a) {
            if (a == agreeing)
            {
                TagTransition(x, t, in, out, i, j, level);
            }
        });
    }

    /// One transition of a level with the tag it carries.
    struct Step
    {
        NodeId x;          //!< the node
        Tag t;             //!< the tag it arrives with
        PortNo in;         //!< in port
        PortNo out;        //!< out port
        PortIndex inIdx;   //!< index of the in port
        PortIndex peerIdx; //!< index of the next ingress port, or kNone
    };

    /**
     * GreedyOrder::PLAIN and SHUFFLED: collect the level's transitions, sort
     * them by (node, tag, in, out) or shuffle them (seeded), and decide them
     * in that order.
     */
    void TagLevelInOrder(uint32_t level)
    {
        std::vector<Step> steps;
        for (NodeId x = 0; x < m_topo.GetNNodes(); ++x)
        {
            if (Forwards(m_topo, x))
            {
                ForEachStep(x,
                            level,
                            [&](Tag t, PortNo in, PortNo out, PortIndex i, PortIndex j, bool) {
                                steps.push_back(Step{x, t, in, out, i, j});
                            });
            }
        }
        if (m_opt.order == GreedyOrder::SHUFFLED)
        {
            for (size_t i = steps.size(); i > 1; --i)
            {
                std::swap(steps[i - 1], steps[detail::UniformIndex(m_rng, i)]);
            }
        }
        else
        {
            // (node, in, out, tag) as collected: a stable sort on (node, tag) gives (node, tag, in,
            // out)
            std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
                return a.x != b.x ? a.x < b.x : a.t < b.t;
            });
        }
        for (const Step& s : steps)
        {
            TagTransition(s.x, s.t, s.in, s.out, s.inIdx, s.peerIdx, level);
        }
    }

    /**
     * Packets with tag t take (x, in, out) at `level`: decide the transition
     * when it is new, and record the tag they arrive with at the next ingress
     * port (peerIdx; kNone when the next node does not forward).
     */
    void TagTransition(NodeId x,
                       Tag t,
                       PortNo in,
                       PortNo out,
                       PortIndex inIdx,
                       PortIndex peerIdx,
                       uint32_t level)
    {
        Tag result = m_rules.Get(x, t, in, out);
        if (result == kLossyTag)
        {
            result = Decide(x, t, in, out, inIdx, peerIdx);
        }
        if (peerIdx != kNone)
        {
            m_tags[level + 1][peerIdx] |= 1ULL << result;
        }
    }

    /// Decide the new transition once for every packet that takes it.
    Tag Decide(NodeId x, Tag t, PortNo in, PortNo out, PortIndex inIdx, PortIndex peerIdx)
    {
        ++m_stats.transitions;
        uint32_t candidate = m_opt.order == GreedyOrder::PAPER ? std::max<uint32_t>(t, m_floor) : t;
        if (candidate == t && peerIdx != kNone && !m_source[inIdx])
        {
            // stays inside G_t: must not close a cycle there (an edge out of a
            // port nothing forwards into never can, and is not stored)
            ++m_stats.cycleChecks;
            if (!GraphOf(t).TryAddEdge(inIdx, peerIdx))
            {
                ++m_stats.rejected;
                ++candidate;
            }
        }
        // a higher tag adds an edge between tags, which only go up: it can never close a cycle
        const Tag result = CheckedTag(candidate);
        m_stats.merged += (result == t);
        m_raised |= (result > m_floor);
        m_rules.Set(x, t, in, out, result);
        return result;
    }

    const HopGraph& m_elp;
    const Topology& m_topo;
    const TaggingOptions& m_opt;
    GreedyStats& m_stats;
    const uint32_t m_nPorts;
    TagRules m_rules;
    /// m_tags[level][port]: the set of new tags with which packets of the ELP
    /// arrive at that ingress port at that brute-force level
    std::vector<std::vector<uint64_t>> m_tags;
    std::vector<uint32_t> m_initialOrder; //!< UpDownOrder: the start order of every G_t
    std::vector<uint32_t> m_startPos;     //!< position of each port in m_initialOrder
    std::vector<bool> m_source;           //!< ingress port whose peer does not forward
    std::vector<uint32_t> m_landmarks;    //!< for the refusal filter of every G_t
    std::vector<std::unique_ptr<DynamicTopoOrder>> m_subgraph; //!< G_t per tag t
    std::mt19937_64 m_rng; //!< GreedyOrder::SHUFFLED: the order's random draws
    uint32_t m_floor{1};   //!< Algorithm 2's t' (GreedyOrder::PAPER only)
    bool m_raised{false};  //!< this level gave some transition a tag above m_floor
};

} // namespace

std::string
GetName(GreedyOrder order)
{
    switch (order)
    {
    case GreedyOrder::LOCAL:
        return "local";
    case GreedyOrder::PAPER:
        return "paper";
    case GreedyOrder::PLAIN:
        return "plain";
    case GreedyOrder::SHUFFLED:
        break;
    case GreedyOrder::HEAVY:
        return "heavy";
    case GreedyOrder::CONFLICT:
        return "conflict";
    }
    return "shuffled";
}

GreedyStats&
GreedyStats::operator+=(const GreedyStats& other)
{
    transitions += other.transitions;
    merged += other.merged;
    cycleChecks += other.cycleChecks;
    rejected += other.rejected;
    visited += other.visited;
    filtered += other.filtered;
    return *this;
}

TagRules
TagBruteForce(const HopGraph& elp, const TaggingOptions& opt)
{
    const Topology& topo = elp.GetTopology();
    StartTags(opt.classes); // validates
    TagRules rules(topo);
    for (NodeId x = 0; x < topo.GetNNodes(); ++x)
    {
        if (!Forwards(topo, x))
        {
            continue;
        }
        const uint32_t p = topo.GetNode(x).ports;
        for (PortNo in = 0; in < p; ++in)
        {
            for (PortNo out = 0; out < p; ++out)
            {
                uint64_t mask = elp.GetMask(x, in, out);
                for (uint32_t level = 1; mask >> level; ++level)
                {
                    if (!(mask >> level & 1))
                    {
                        continue;
                    }
                    // the packet of class c arrives here with tag level + c - 1
                    for (uint32_t c = 1; c <= opt.classes; ++c)
                    {
                        Tag tag = CheckedTag(level + c - 1);
                        rules.Set(x, tag, in, out, CheckedTag(tag + 1u));
                    }
                }
            }
        }
    }
    return rules;
}

TagRules
TagGreedy(const HopGraph& elp, const TaggingOptions& opt)
{
    GreedyStats stats;
    return TagGreedy(elp, opt, stats);
}

TagRules
TagGreedy(const HopGraph& elp, const TaggingOptions& opt, GreedyStats& stats)
{
    const uint64_t start = StartTags(opt.classes);
    if (opt.order == GreedyOrder::HEAVY || opt.order == GreedyOrder::CONFLICT)
    {
        throw TaggerError("the greedy order " + GetName(opt.order) +
                          " needs explicit paths (PathGreedy), not a HopGraph");
    }
    return GreedyMerge(elp, opt, stats).Run(start);
}

TagRules
TagClos(const Topology& topo, uint32_t bounces, const TaggingOptions& opt)
{
    if (!topo.IsLayered())
    {
        throw TaggerError("the clos algorithm needs a layered (Clos) topology: every node must "
                          "have a layer; use --algorithm=greedy for other topologies");
    }
    StartTags(opt.classes); // validates
    const uint32_t maxTag = CheckedTag(bounces + opt.classes);
    TagRules rules(topo);
    for (NodeId x = 0; x < topo.GetNNodes(); ++x)
    {
        if (!Forwards(topo, x))
        {
            continue;
        }
        const int32_t layer = topo.GetNode(x).layer;
        const uint32_t p = topo.GetNode(x).ports;
        for (PortNo in = 0; in < p; ++in)
        {
            const PortRef from = topo.GetPeer(x, in);
            if (from.node == kNone)
            {
                continue;
            }
            const bool cameDown = topo.GetNode(from.node).layer > layer;
            for (PortNo out = 0; out < p; ++out)
            {
                const PortRef to = topo.GetPeer(x, out);
                if (out == in || to.node == kNone)
                {
                    continue;
                }
                const bool goesUp = topo.GetNode(to.node).layer > layer;
                const uint32_t step = (cameDown && goesUp) ? 1 : 0; // a bounce
                for (uint32_t t = 1; t + step <= maxTag; ++t)
                {
                    rules.Set(x, static_cast<Tag>(t), in, out, static_cast<Tag>(t + step));
                }
            }
        }
    }
    return rules;
}

} // namespace tagger
} // namespace ns3
