/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-rule-table.h"

#include "tagger-parallel.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{
namespace tagger
{

TagRules::TagRules(const Topology& topo)
    : m_topo(&topo),
      m_ports(topo.GetNNodes(), 0),
      m_table(topo.GetNNodes())
{
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        if (topo.IsForwarder(n))
        {
            m_ports[n] = topo.GetNode(n).ports;
        }
    }
}

void
TagRules::Set(NodeId node, Tag tag, PortNo in, PortNo out, Tag newTag)
{
    if (node >= m_table.size() || m_ports[node] == 0)
    {
        throw std::logic_error("TagRules::Set: node " + std::to_string(node) +
                               " is not a forwarding node");
    }
    if (tag == kLossyTag || newTag == kLossyTag || tag > kMaxTag || newTag > kMaxTag)
    {
        throw std::logic_error("TagRules::Set: tag out of range");
    }
    const uint32_t p = m_ports[node];
    if (in >= p || out >= p)
    {
        throw std::logic_error("TagRules::Set: port out of range");
    }
    auto& perTag = m_table[node];
    if (perTag.size() <= tag)
    {
        perTag.resize(tag + 1);
    }
    auto& cells = perTag[tag];
    if (cells.empty())
    {
        cells.assign(static_cast<size_t>(p) * p, kLossyTag);
    }
    Tag& cell = cells[static_cast<size_t>(in) * p + out];
    if (cell != kLossyTag && cell != newTag)
    {
        throw std::logic_error("TagRules::Set: " + m_topo->GetNode(node).name + " tag " +
                               std::to_string(tag) + " in " + std::to_string(in) + " out " +
                               std::to_string(out) + " already maps to " + std::to_string(cell) +
                               ", not " + std::to_string(newTag));
    }
    cell = newTag;
}

void
TagRules::ForEachRule(NodeId node, const std::function<void(const Rule&)>& fn) const
{
    const auto& perTag = m_table[node];
    const uint32_t p = m_ports[node];
    for (size_t t = 1; t < perTag.size(); ++t)
    {
        const auto& cells = perTag[t];
        if (cells.empty())
        {
            continue;
        }
        for (PortNo in = 0; in < p; ++in)
        {
            for (PortNo out = 0; out < p; ++out)
            {
                Tag nt = cells[static_cast<size_t>(in) * p + out];
                if (nt != kLossyTag)
                {
                    fn(Rule{static_cast<Tag>(t), in, out, nt});
                }
            }
        }
    }
}

uint32_t
TagRules::CountRules(NodeId node) const
{
    uint32_t count = 0;
    for (const auto& cells : m_table[node])
    {
        for (Tag nt : cells)
        {
            count += (nt != kLossyTag);
        }
    }
    return count;
}

std::vector<Rule>
TagRules::GetRules(NodeId node) const
{
    std::vector<Rule> rules;
    ForEachRule(node, [&rules](const Rule& r) { rules.push_back(r); });
    return rules;
}

uint32_t
TagRules::GetLosslessTags() const
{
    uint32_t lossless = 0;
    for (NodeId n = 0; n < m_table.size(); ++n)
    {
        // a tag held at a forwarding node's ingress: every rule's match tag, and
        // every new tag sent to a forwarding neighbour
        ForEachRule(n, [&](const Rule& r) {
            lossless = std::max<uint32_t>(lossless, r.tag);
            PortRef peer = m_topo->GetPeer(n, r.outPort);
            if (peer.node != kNone && m_topo->IsForwarder(peer.node))
            {
                lossless = std::max<uint32_t>(lossless, r.newTag);
            }
        });
    }
    return lossless;
}

Tag
TagRules::GetMaxTag() const
{
    Tag maxTag = 0;
    for (NodeId n = 0; n < m_table.size(); ++n)
    {
        ForEachRule(n, [&maxTag](const Rule& r) { maxTag = std::max({maxTag, r.tag, r.newTag}); });
    }
    return maxTag;
}

namespace
{

/// CompressTcamTable's second pass: the nodes with the most entries again,
/// thorough, while that lowers the maximum (see kThoroughNodes).
void
ThoroughOnFullest(const TagRules& rules, TcamTable& table)
{
    std::vector<char> tried(table.size(), 0);
    uint32_t budget = kThoroughNodes;
    for (;;)
    {
        size_t most = 0;
        std::vector<NodeId> fullest;
        for (NodeId n = 0; n < table.size(); ++n)
        {
            if (table[n].size() > most)
            {
                most = table[n].size();
                fullest.clear();
            }
            if (table[n].size() == most && most > 0)
            {
                fullest.push_back(n);
            }
        }
        if (fullest.empty() || fullest.size() > budget)
        {
            return;
        }
        bool lowered = true;
        for (NodeId n : fullest)
        {
            if (tried[n])
            {
                lowered = false;
                continue;
            }
            tried[n] = 1;
            --budget;
            std::vector<TcamEntry> entries = CompressTcam(rules, n, true);
            if (entries.size() < table[n].size())
            {
                table[n] = std::move(entries);
            }
            lowered = lowered && table[n].size() < most;
        }
        if (!lowered)
        {
            return;
        }
    }
}

} // namespace

TcamTable
CompressTcamTable(const TagRules& rules, unsigned threads)
{
    const Topology& topo = rules.GetTopology();
    TcamTable table(topo.GetNNodes());
    // nodes are independent: the table is the same for any thread count
    ParallelFor(threads, table.size(), 16, [&](std::size_t n) {
        table[n] = CompressTcam(rules, static_cast<NodeId>(n));
    });
    ThoroughOnFullest(rules, table);
    return table;
}

std::string
CheckTcam(const TagRules& rules, NodeId node, const std::vector<TcamEntry>& entries)
{
    const Topology& topo = rules.GetTopology();
    const uint32_t p = topo.GetNode(node).ports;
    uint32_t tags = 0; // the highest tag of this node's rules and entries
    rules.ForEachRule(node, [&tags](const Rule& r) {
        tags = std::max<uint32_t>(tags, std::max(r.tag, r.newTag));
    });
    for (const TcamEntry& e : entries)
    {
        tags = std::max<uint32_t>(tags, e.tag);
    }
    tags = std::min<uint32_t>(tags + 1, kMaxTag); // one tag without rules, too
    // the first match of every (tag, in, out): fill last entry first
    std::vector<Tag> first(size_t{tags + 1} * p * p, kLossyTag);
    for (auto e = entries.rbegin(); e != entries.rend(); ++e)
    {
        for (PortNo in : e->inPorts)
        {
            for (PortNo out : e->outPorts)
            {
                if (in >= p || out >= p || e->tag > tags)
                {
                    return topo.GetNode(node).name +
                           ": a TCAM entry names a port or tag out of range";
                }
                first[(size_t{e->tag} * p + in) * p + out] = e->newTag;
            }
        }
    }
    for (uint32_t t = 0; t <= tags; ++t)
    {
        for (PortNo in = 0; in < p; ++in)
        {
            for (PortNo out = 0; out < p; ++out)
            {
                const Tag want = rules.Get(node, static_cast<Tag>(t), in, out);
                const Tag got = first[(size_t{t} * p + in) * p + out];
                if (want != got)
                {
                    return topo.GetNode(node).name + ": TCAM gives tag " + std::to_string(got) +
                           " for (tag " + std::to_string(t) + ", in " + std::to_string(in) +
                           ", out " + std::to_string(out) + "), the rules " + std::to_string(want);
                }
            }
        }
    }
    return "";
}

Tag
LookupTcam(const std::vector<TcamEntry>& entries, Tag tag, PortNo in, PortNo out)
{
    for (const auto& e : entries)
    {
        if (e.tag == tag && std::binary_search(e.inPorts.begin(), e.inPorts.end(), in) &&
            std::binary_search(e.outPorts.begin(), e.outPorts.end(), out))
        {
            return e.newTag;
        }
    }
    return kLossyTag;
}

} // namespace tagger
} // namespace ns3
