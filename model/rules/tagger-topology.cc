/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-topology.h"

#include <algorithm>

namespace ns3
{
namespace tagger
{

namespace
{
/// \param cp a code point \return whether it prints as nothing (or as a blank) though it is text
bool
IsInvisible(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD || (cp >= 0x200B && cp <= 0x200F) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0x2060 || cp == 0xFEFF;
}

/**
 * The length of the well-formed UTF-8 sequence at text[i] (2 to 4 bytes; no
 * overlong form, no surrogate, at most U+10FFFF) and its code point; 0 when
 * there is none.
 */
std::size_t
Utf8Sequence(const std::string& text, std::size_t i, uint32_t& cp)
{
    const auto byte = [&text](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    std::size_t n = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0;
    if (n == 0 || i + n > text.size())
    {
        return 0;
    }
    cp = b0 & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k)
    {
        if ((byte(i + k) & 0xC0) != 0x80)
        {
            return 0;
        }
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    {
        return 0;
    }
    return n;
}
} // namespace

std::string
PrintableText(const std::string& text)
{
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();)
    {
        const auto b = static_cast<unsigned char>(text[i]);
        std::size_t n = 1;
        bool keep = b >= 0x20 && b < 0x7F;
        if (b >= 0x80)
        {
            uint32_t cp = 0;
            n = Utf8Sequence(text, i, cp);
            keep = n > 0 && !IsInvisible(cp);
            n = std::max<std::size_t>(n, 1);
        }
        for (std::size_t k = i; k < i + n; ++k)
        {
            if (keep)
            {
                out.push_back(text[k]);
            }
            else
            {
                const auto c = static_cast<unsigned char>(text[k]);
                out += "\\x";
                out.push_back(hex[c >> 4]);
                out.push_back(hex[c & 0xF]);
            }
        }
        i += n;
    }
    return out;
}

NodeId
Topology::AddNode(const std::string& name, NodeKind kind, uint32_t ports, int32_t layer, bool relay)
{
    if (name.empty())
    {
        throw TaggerError("node name must not be empty");
    }
    if (m_byName.count(name))
    {
        throw TaggerError("duplicate node name '" + name + "'");
    }
    if (name.find_first_of(" \t\r\n#") != std::string::npos)
    {
        throw TaggerError("node name '" + name + "' contains a space or '#'");
    }
    NodeId id = GetNNodes();
    m_nodes.push_back(TopoNode{name, kind, ports, layer, relay});
    m_byName.emplace(name, id);
    m_portBase.push_back(static_cast<PortIndex>(m_peer.size()));
    m_peer.resize(m_peer.size() + ports, PortRef{});
    return id;
}

void
Topology::AddLink(NodeId a, PortNo aPort, NodeId b, PortNo bPort)
{
    auto check = [this](NodeId n, PortNo p) {
        if (n >= GetNNodes())
        {
            throw TaggerError("link end: node id " + std::to_string(n) + " does not exist");
        }
        if (p >= m_nodes[n].ports)
        {
            throw TaggerError("link end: port " + std::to_string(p) + " out of range on " +
                              m_nodes[n].name + " (it has " + std::to_string(m_nodes[n].ports) +
                              " ports)");
        }
        if (m_peer[m_portBase[n] + p].node != kNone)
        {
            throw TaggerError("link end: port " + std::to_string(p) + " of " + m_nodes[n].name +
                              " is already connected");
        }
    };
    check(a, aPort);
    check(b, bPort);
    if (a == b)
    {
        throw TaggerError("link connects " + m_nodes[a].name + " to itself");
    }
    m_peer[m_portBase[a] + aPort] = PortRef{b, bPort};
    m_peer[m_portBase[b] + bPort] = PortRef{a, aPort};
    m_links.push_back(TopoLink{PortRef{a, aPort}, PortRef{b, bPort}});
}

void
Topology::Connect(NodeId a, NodeId b)
{
    auto freePort = [this](NodeId n) {
        if (n >= GetNNodes())
        {
            throw TaggerError("connect: node id " + std::to_string(n) + " does not exist");
        }
        for (PortNo p = 0; p < m_nodes[n].ports; ++p)
        {
            if (m_peer[m_portBase[n] + p].node == kNone)
            {
                return p;
            }
        }
        throw TaggerError("connect: " + m_nodes[n].name + " has no free port");
    };
    PortNo pa = freePort(a);
    PortNo pb = freePort(b);
    AddLink(a, pa, b, pb);
}

NodeId
Topology::FindNode(const std::string& name) const
{
    auto it = m_byName.find(name);
    return it == m_byName.end() ? kNone : it->second;
}

NodeId
Topology::GetNodeId(const std::string& name) const
{
    NodeId n = FindNode(name);
    if (n == kNone)
    {
        throw TaggerError("unknown node '" + name + "'");
    }
    return n;
}

PortRef
Topology::GetPortRef(PortIndex idx) const
{
    auto it = std::upper_bound(m_portBase.begin(), m_portBase.end(), idx);
    // nodes with zero ports share a base with the next node: walk back to the owner
    NodeId n = static_cast<NodeId>(it - m_portBase.begin()) - 1;
    while (m_nodes[n].ports == 0 || idx - m_portBase[n] >= m_nodes[n].ports)
    {
        --n;
    }
    return PortRef{n, idx - m_portBase[n]};
}

PortNo
Topology::GetPortTo(NodeId a, NodeId b) const
{
    for (PortNo p = 0; p < m_nodes[a].ports; ++p)
    {
        if (m_peer[m_portBase[a] + p].node == b)
        {
            return p;
        }
    }
    return kNone;
}

std::vector<NodeId>
Topology::GetHosts() const
{
    std::vector<NodeId> v;
    for (NodeId n = 0; n < GetNNodes(); ++n)
    {
        if (m_nodes[n].kind == NodeKind::HOST)
        {
            v.push_back(n);
        }
    }
    return v;
}

std::vector<NodeId>
Topology::GetSwitches() const
{
    std::vector<NodeId> v;
    for (NodeId n = 0; n < GetNNodes(); ++n)
    {
        if (m_nodes[n].kind == NodeKind::SWITCH)
        {
            v.push_back(n);
        }
    }
    return v;
}

std::vector<NodeId>
Topology::GetNeighbors(NodeId n) const
{
    std::vector<NodeId> v;
    for (PortNo p = 0; p < m_nodes[n].ports; ++p)
    {
        const PortRef& r = m_peer[m_portBase[n] + p];
        if (r.node != kNone)
        {
            v.push_back(r.node);
        }
    }
    return v;
}

bool
Topology::IsLayered() const
{
    return !m_nodes.empty() && std::all_of(m_nodes.begin(), m_nodes.end(), [](const TopoNode& n) {
        return n.layer >= 0;
    });
}

bool
Topology::IsConnected() const
{
    if (m_nodes.empty())
    {
        return true;
    }
    std::vector<char> seen(m_nodes.size(), 0);
    std::vector<NodeId> stack{0};
    seen[0] = 1;
    size_t count = 1;
    while (!stack.empty())
    {
        NodeId n = stack.back();
        stack.pop_back();
        for (PortNo p = 0; p < m_nodes[n].ports; ++p)
        {
            NodeId m = m_peer[m_portBase[n] + p].node;
            if (m != kNone && !seen[m])
            {
                seen[m] = 1;
                ++count;
                stack.push_back(m);
            }
        }
    }
    return count == m_nodes.size();
}

} // namespace tagger
} // namespace ns3
