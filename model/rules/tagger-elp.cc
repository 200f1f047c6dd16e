/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * HopGraph.  The ELP generators are in tagger-elp-*.cc: shortest paths and
 * trees (-shortest), k shortest paths (-kshortest), up-down walks (-updown),
 * random paths (-random), explicit paths and path files (-file); the pieces
 * they share are in tagger-elp-core.{h,cc}.
 */

#include "tagger-elp-core.h"

#include <algorithm>

namespace ns3
{
namespace tagger
{

using detail::CheckPath;
using detail::HighestBit;
using detail::PathText;

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

uint64_t*
HopGraph::Cell(NodeId node, PortNo in, PortNo out, uint64_t levels)
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
        return nullptr;
    }
    auto& m = m_masks[node];
    if (m.empty())
    {
        m.assign(size_t(p) * p, 0);
    }
    return &m[size_t(in) * p + out];
}

void
HopGraph::AddMask(NodeId node, PortNo in, PortNo out, uint64_t levels)
{
    if (uint64_t* cell = Cell(node, in, out, levels))
    {
        *cell |= levels;
        m_maxLevel = std::max(m_maxLevel, HighestBit(levels));
    }
}

void
HopGraph::AddMasks(const std::vector<MaskUpdate>& updates)
{
    // a ring of the next cells: update i + kAhead is checked and its cell
    // prefetched while update i is applied
    constexpr size_t kAhead = 16;
    uint64_t* cells[kAhead];
    uint64_t all = 0;
    auto fetch = [&](size_t i) {
        const MaskUpdate& u = updates[i];
        cells[i % kAhead] = Cell(u.node, u.in, u.out, u.levels);
        __builtin_prefetch(cells[i % kAhead], 1);
    };
    for (size_t i = 0; i < std::min(kAhead, updates.size()); ++i)
    {
        fetch(i);
    }
    for (size_t i = 0; i < updates.size(); ++i)
    {
        if (uint64_t* cell = cells[i % kAhead])
        {
            *cell |= updates[i].levels;
            all |= updates[i].levels;
        }
        if (i + kAhead < updates.size())
        {
            fetch(i + kAhead);
        }
    }
    if (all != 0)
    {
        m_maxLevel = std::max(m_maxLevel, HighestBit(all));
    }
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

} // namespace tagger
} // namespace ns3
