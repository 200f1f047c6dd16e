/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-greedy-paths.h"

#include "tagger-dynamic-topo-order.h"
#include "tagger-elp-core.h"

#include <algorithm>
#include <memory>
#include <random>
#include <tuple>

namespace ns3
{
namespace tagger
{

bool
TransitionKey::operator<(const TransitionKey& o) const
{
    return std::tie(node, tag, in, out) < std::tie(o.node, o.tag, o.in, o.out);
}

bool
TransitionKey::operator==(const TransitionKey& o) const
{
    return node == o.node && tag == o.tag && in == o.in && out == o.out;
}

std::string
GetPathOrderName(GreedyOrder order)
{
    return "paths-" + GetName(order);
}

PathGreedy::PathGreedy(const Topology& topo, const std::vector<Path>& paths, uint32_t classes)
    : m_topo(topo),
      m_classes(classes)
{
    if (classes == 0 || classes > kMaxTag)
    {
        throw TaggerError("classes must be between 1 and " + std::to_string(kMaxTag));
    }
    m_begin.push_back(0);
    for (const Path& p : paths)
    {
        const std::string why = detail::CheckPath(topo, p);
        if (!why.empty())
        {
            throw TaggerError("ELP path " + detail::PathText(topo, p) + ": " + why);
        }
        for (size_t i = 1; i + 1 < p.size(); ++i)
        {
            // with parallel links a path leaves by the lowest port (as in the HopGraph)
            const NodeId x = p[i];
            const PortNo in = topo.GetPeer(p[i - 1], topo.GetPortTo(p[i - 1], x)).port;
            const PortNo out = topo.GetPortTo(x, p[i + 1]);
            const PortRef prev = topo.GetPeer(x, in);
            const PortRef next = topo.GetPeer(x, out);
            const bool fromForwarder = topo.IsForwarder(prev.node);
            const bool toForwarder = topo.IsForwarder(next.node);
            m_hops.push_back(Hop{x,
                                 in,
                                 out,
                                 fromForwarder ? topo.GetPortIndex(x, in) : kNone,
                                 toForwarder ? topo.GetPortIndex(next.node, next.port) : kNone});
        }
        m_levels = std::max<uint32_t>(m_levels, static_cast<uint32_t>(p.size() - 2));
        m_begin.push_back(m_hops.size());
    }
    // CONFLICT: two-hop walks through each edge of the ELP's port graph (each
    // distinct edge counted once in the degrees)
    std::vector<std::pair<PortIndex, PortIndex>> edges;
    for (const Hop& h : m_hops)
    {
        if (h.from != kNone && h.to != kNone)
        {
            edges.emplace_back(h.from, h.to);
        }
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    std::vector<uint64_t> inDeg(topo.GetNPorts(), 0);
    std::vector<uint64_t> outDeg(topo.GetNPorts(), 0);
    for (const auto& e : edges)
    {
        ++outDeg[e.first];
        ++inDeg[e.second];
    }
    m_degree.reserve(m_hops.size());
    for (const Hop& h : m_hops)
    {
        m_degree.push_back(h.from != kNone && h.to != kNone ? inDeg[h.from] * outDeg[h.to] : 0);
    }
}

PathGreedyRun
PathGreedy::Run(GreedyOrder order,
                uint64_t seed,
                const std::vector<TransitionKey>& priority,
                const std::vector<TransitionKey>& raise) const
{
    if (order == GreedyOrder::LOCAL || order == GreedyOrder::PAPER)
    {
        throw TaggerError("the path greedy takes the orders plain, heavy, conflict and "
                          "shuffled, not " +
                          GetName(order));
    }
    const uint64_t nPaths = m_begin.size() - 1;
    PathGreedyRun run{TagRules(m_topo), 0, 0, {}, 0};
    std::vector<std::unique_ptr<DynamicTopoOrder>> graphs;
    auto graphOf = [&](Tag t) -> DynamicTopoOrder& {
        if (graphs.size() <= t)
        {
            graphs.resize(t + 1);
        }
        if (!graphs[t])
        {
            graphs[t] = std::make_unique<DynamicTopoOrder>(m_topo.GetNPorts());
        }
        return *graphs[t];
    };
    // one instance per (class, path); tag[k] is its current tag
    std::vector<Tag> tag(nPaths * m_classes);
    for (uint32_t c = 0; c < m_classes; ++c)
    {
        std::fill(tag.begin() + c * nPaths, tag.begin() + (c + 1) * nPaths, Tag(c + 1));
    }
    std::mt19937_64 rng(seed);

    // a level's transitions: (key, hop of one instance taking it, instances taking it)
    struct Step
    {
        TransitionKey key;
        uint64_t hop;
        uint64_t weight;
    };

    std::vector<Step> steps;
    std::vector<uint64_t> atTag(kMaxTag + 2, 0); // hops arriving at a forwarder per tag
    for (uint32_t level = 0; level < m_levels; ++level)
    {
        steps.clear();
        for (uint64_t k = 0; k < tag.size(); ++k)
        {
            const uint64_t p = k % nPaths;
            if (m_begin[p] + level >= m_begin[p + 1])
            {
                continue;
            }
            const uint64_t h = m_begin[p] + level;
            const Hop& hop = m_hops[h];
            steps.push_back(Step{TransitionKey{hop.node, tag[k], hop.in, hop.out}, h, 1});
            if (level == 0)
            {
                ++atTag[tag[k]];
            }
        }
        // one step per distinct transition, with the number of instances taking it
        std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
            return a.key < b.key;
        });
        size_t n = 0;
        for (size_t i = 0; i < steps.size(); ++i)
        {
            if (n > 0 && steps[n - 1].key == steps[i].key)
            {
                ++steps[n - 1].weight;
            }
            else
            {
                steps[n++] = steps[i];
            }
        }
        steps.resize(n);
        if (order == GreedyOrder::SHUFFLED)
        {
            for (size_t i = steps.size(); i > 1; --i)
            {
                std::swap(steps[i - 1], steps[detail::UniformIndex(rng, i)]);
            }
        }
        else if (order == GreedyOrder::HEAVY || order == GreedyOrder::CONFLICT)
        {
            std::stable_sort(steps.begin(), steps.end(), [&](const Step& a, const Step& b) {
                return order == GreedyOrder::HEAVY ? a.weight > b.weight
                                                   : m_degree[a.hop] > m_degree[b.hop];
            });
        }
        if (!priority.empty())
        {
            std::stable_partition(steps.begin(), steps.end(), [&](const Step& s) {
                return std::binary_search(priority.begin(), priority.end(), s.key);
            });
        }
        for (const Step& s : steps)
        {
            if (run.rules.Get(s.key.node, s.key.tag, s.key.in, s.key.out) != kLossyTag)
            {
                continue; // decided at an earlier level
            }
            ++run.transitions;
            const Hop& hop = m_hops[s.hop];
            uint32_t result = s.key.tag;
            if (std::binary_search(raise.begin(), raise.end(), s.key))
            {
                ++result;
            }
            else if (hop.from != kNone && hop.to != kNone &&
                     !graphOf(s.key.tag).TryAddEdge(hop.from, hop.to))
            {
                ++result; // edges between tags only go up: the next tag closes no cycle
            }
            if (result > kMaxTag)
            {
                throw TaggerError("more than " + std::to_string(kMaxTag) +
                                  " tags needed (the tag is a 6-bit DSCP value)");
            }
            run.rules.Set(s.key.node, s.key.tag, s.key.in, s.key.out, static_cast<Tag>(result));
        }
        for (uint64_t k = 0; k < tag.size(); ++k)
        {
            const uint64_t p = k % nPaths;
            if (m_begin[p] + level >= m_begin[p + 1])
            {
                continue;
            }
            const Hop& hop = m_hops[m_begin[p] + level];
            tag[k] = run.rules.Get(hop.node, tag[k], hop.in, hop.out);
            if (hop.to != kNone)
            {
                ++atTag[tag[k]];
            }
        }
    }
    run.losslessTags = run.rules.GetLosslessTags();
    run.topHops = atTag[run.losslessTags];
    // the raises (tag to tag + 1) along every path instance that reaches the highest tag
    std::vector<TransitionKey> raises;
    for (uint64_t k = 0; k < tag.size(); ++k)
    {
        const uint64_t p = k % nPaths;
        Tag t = static_cast<Tag>(k / nPaths + 1);
        raises.clear();
        bool top = t == run.losslessTags;
        for (uint64_t h = m_begin[p]; h < m_begin[p + 1]; ++h)
        {
            const Hop& hop = m_hops[h];
            const Tag next = run.rules.Get(hop.node, t, hop.in, hop.out);
            if (next > t)
            {
                raises.push_back(TransitionKey{hop.node, t, hop.in, hop.out});
            }
            top |= hop.to != kNone && next == run.losslessTags;
            t = next;
        }
        if (top)
        {
            run.raisedToTop.insert(run.raisedToTop.end(), raises.begin(), raises.end());
        }
    }
    // highest tags first, each transition once
    std::sort(run.raisedToTop.begin(), run.raisedToTop.end(), [](const auto& a, const auto& b) {
        return a.tag != b.tag ? a.tag > b.tag : a < b;
    });
    run.raisedToTop.erase(std::unique(run.raisedToTop.begin(), run.raisedToTop.end()),
                          run.raisedToTop.end());
    return run;
}

std::vector<TransitionKey>
PathGreedy::BlockingCycle(const PathGreedyRun& run, const TransitionKey& key) const
{
    // the edge of a transition: its ingress port to the next ingress port (kNone: no edge)
    auto edgeOf = [&](NodeId x, PortNo in, PortNo out) {
        const PortRef prev = m_topo.GetPeer(x, in);
        const PortRef next = m_topo.GetPeer(x, out);
        const bool both = m_topo.IsForwarder(prev.node) && m_topo.IsForwarder(next.node);
        return both ? std::make_pair(m_topo.GetPortIndex(x, in),
                                     m_topo.GetPortIndex(next.node, next.port))
                    : std::make_pair(kNone, kNone);
    };
    const auto [from, to] = edgeOf(key.node, key.in, key.out);
    if (from == kNone)
    {
        return {};
    }
    // G_{key.tag}: edges with the transition that put them there
    std::vector<std::vector<std::pair<PortIndex, TransitionKey>>> adj(m_topo.GetNPorts());
    for (NodeId x = 0; x < m_topo.GetNNodes(); ++x)
    {
        for (const Rule& r : run.rules.GetRules(x))
        {
            const auto e = edgeOf(x, r.inPort, r.outPort);
            if (r.tag == key.tag && r.newTag == key.tag && e.first != kNone)
            {
                adj[e.first].emplace_back(e.second, TransitionKey{x, r.tag, r.inPort, r.outPort});
            }
        }
    }
    // breadth-first from the edge's head back to its tail
    std::vector<int64_t> parentEdge(m_topo.GetNPorts(), -1);
    std::vector<std::pair<PortIndex, TransitionKey>> via; // (previous port, transition)
    std::vector<bool> seen(m_topo.GetNPorts(), false);
    std::vector<PortIndex> queue{to};
    seen[to] = true;
    for (size_t q = 0; q < queue.size() && !seen[from]; ++q)
    {
        const PortIndex u = queue[q];
        for (const auto& [v, k] : adj[u])
        {
            if (!seen[v])
            {
                seen[v] = true;
                parentEdge[v] = static_cast<int64_t>(via.size());
                via.emplace_back(u, k);
                queue.push_back(v);
            }
        }
    }
    std::vector<TransitionKey> cycle;
    for (PortIndex v = from; seen[from] && v != to;)
    {
        const auto& [u, k] = via[parentEdge[v]];
        cycle.push_back(k);
        v = u;
    }
    std::reverse(cycle.begin(), cycle.end());
    return cycle;
}

PathGreedyRun
PathGreedy::Repair(PathGreedyRun start,
                   GreedyOrder order,
                   uint64_t seed,
                   uint32_t lowerBound,
                   uint32_t maxRuns,
                   uint32_t* runs) const
{
    auto better = [](const PathGreedyRun& a, const PathGreedyRun& b) {
        return std::make_tuple(a.losslessTags, a.topHops) <
               std::make_tuple(b.losslessTags, b.topHops);
    };
    auto with = [](std::vector<TransitionKey> set, const TransitionKey& k) {
        if (!std::binary_search(set.begin(), set.end(), k))
        {
            set.insert(std::upper_bound(set.begin(), set.end(), k), k);
        }
        return set;
    };
    PathGreedyRun best = std::move(start);
    std::vector<TransitionKey> priority;
    std::vector<TransitionKey> raise;
    uint32_t spent = 0;
    bool improved = true;
    while (improved && best.losslessTags > lowerBound && spent < maxRuns)
    {
        improved = false;
        const PathGreedyRun current = best; // the candidates of this round
        for (const TransitionKey& k : current.raisedToTop)
        {
            for (const TransitionKey& j : BlockingCycle(current, k))
            {
                if (spent >= maxRuns || best.losslessTags <= lowerBound)
                {
                    break;
                }
                std::vector<TransitionKey> p = with(priority, k);
                std::vector<TransitionKey> r = with(raise, j);
                PathGreedyRun run = Run(order, seed, p, r);
                ++spent;
                if (better(run, best))
                {
                    best = std::move(run);
                    priority = std::move(p);
                    raise = std::move(r);
                    improved = true;
                    break;
                }
            }
        }
    }
    if (runs)
    {
        *runs = spent;
    }
    return best;
}

} // namespace tagger
} // namespace ns3
