/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-algorithms.h"

#include "tagger-dynamic-topo-order.h"

#include <algorithm>
#include <memory>

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

} // namespace

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
    const Topology& topo = elp.GetTopology();
    const uint64_t start = StartTags(opt.classes);
    const uint32_t maxLevel = elp.GetMaxLevel();
    const uint32_t nPorts = topo.GetNPorts();
    TagRules rules(topo);

    // tags[level][port]: the set of new tags with which packets of the ELP
    // arrive at that ingress port at that brute-force level
    std::vector<std::vector<uint64_t>> tags(maxLevel + 2);
    tags[1].assign(nPorts, start);
    // one acyclic graph per tag over ingress ports: that tag's subgraph G_t
    std::vector<std::unique_ptr<DynamicTopoOrder>> subgraph;
    auto graphOf = [&](Tag t) -> DynamicTopoOrder& {
        if (subgraph.size() <= t)
        {
            subgraph.resize(t + 1);
        }
        if (!subgraph[t])
        {
            subgraph[t] =
                std::make_unique<DynamicTopoOrder>(nPorts, opt.cycleCheck == CycleCheck::NAIVE);
        }
        return *subgraph[t];
    };

    uint32_t floor = 1; // Algorithm 2's t' (GreedyOrder::PAPER only)
    for (uint32_t level = 1; level <= maxLevel; ++level)
    {
        tags[level + 1].assign(nPorts, 0);
        bool raised = false;
        for (NodeId x = 0; x < topo.GetNNodes(); ++x)
        {
            if (!Forwards(topo, x))
            {
                continue;
            }
            const uint32_t p = topo.GetNode(x).ports;
            for (PortNo in = 0; in < p; ++in)
            {
                const PortIndex inIdx = topo.GetPortIndex(x, in);
                const uint64_t here = tags[level][inIdx];
                if (here == 0)
                {
                    continue;
                }
                for (PortNo out = 0; out < p; ++out)
                {
                    if (!(elp.GetMask(x, in, out) >> level & 1))
                    {
                        continue;
                    }
                    const PortRef peer = topo.GetPeer(x, out);
                    const bool toForwarder = Forwards(topo, peer.node);
                    const PortIndex peerIdx =
                        toForwarder ? topo.GetPortIndex(peer.node, peer.port) : kNone;
                    for (uint32_t t = 1; here >> t; ++t)
                    {
                        if (!(here >> t & 1))
                        {
                            continue;
                        }
                        Tag result = rules.Get(x, static_cast<Tag>(t), in, out);
                        if (result == kLossyTag)
                        {
                            // decide this transition once for every packet that takes it
                            ++stats.transitions;
                            uint32_t candidate =
                                opt.order == GreedyOrder::PAPER ? std::max(t, floor) : t;
                            if (candidate == t && toForwarder)
                            {
                                // stays inside G_t: must not close a cycle there
                                ++stats.cycleChecks;
                                if (!graphOf(static_cast<Tag>(t)).TryAddEdge(inIdx, peerIdx))
                                {
                                    ++stats.rejected;
                                    ++candidate;
                                }
                            }
                            // a higher tag adds an edge between tags, which only go up:
                            // it can never close a cycle
                            result = CheckedTag(candidate);
                            stats.merged += (result == t);
                            raised |= (result > floor);
                            rules.Set(x, static_cast<Tag>(t), in, out, result);
                        }
                        if (toForwarder)
                        {
                            tags[level + 1][peerIdx] |= 1ULL << result;
                        }
                    }
                }
            }
        }
        tags[level].clear();
        tags[level].shrink_to_fit();
        if (opt.order == GreedyOrder::PAPER && raised)
        {
            ++floor;
        }
    }
    return rules;
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
