/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * Writing JSON: topologies (WriteTopologyJson) and tagger-rules output
 * (WriteRulesJson).
 */

#include "tagger-io.h"

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

namespace ns3
{
namespace tagger
{

namespace
{

/**
 * A small buffered JSON text writer: numbers with std::to_chars, strings
 * escaped, output handed to the stream in 64 KiB blocks.
 */
class JsonWriter
{
  public:
    explicit JsonWriter(std::ostream& os)
        : m_os(os)
    {
        m_buf.reserve(kBlock + 4096);
    }

    JsonWriter& Raw(std::string_view s)
    {
        m_buf.append(s.data(), s.size());
        MaybeFlush();
        return *this;
    }

    JsonWriter& UInt(uint64_t v)
    {
        char tmp[24];
        auto r = std::to_chars(tmp, tmp + sizeof(tmp), v);
        m_buf.append(tmp, r.ptr);
        return *this;
    }

    JsonWriter& Int(int64_t v)
    {
        char tmp[24];
        auto r = std::to_chars(tmp, tmp + sizeof(tmp), v);
        m_buf.append(tmp, r.ptr);
        return *this;
    }

    /// A number: integral values without a fraction, others shortest round trip.
    JsonWriter& Double(double v)
    {
        if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
        {
            return Int(static_cast<int64_t>(v));
        }
        return Raw(nlohmann::json(v).dump()); // "null" for NaN / infinity
    }

    /// A JSON string literal.
    JsonWriter& Str(const std::string& s)
    {
        m_buf += '"';
        for (char c : s)
        {
            auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\')
            {
                m_buf += '\\';
                m_buf += c;
            }
            else if (u < 0x20)
            {
                static const char* hex = "0123456789abcdef";
                m_buf += "\\u00";
                m_buf += hex[u >> 4];
                m_buf += hex[u & 15];
            }
            else
            {
                m_buf += c;
            }
        }
        m_buf += '"';
        MaybeFlush();
        return *this;
    }

    /// Write out what is buffered; throws TaggerError when the stream fails.
    void Flush()
    {
        m_os.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
        m_buf.clear();
        if (!m_os)
        {
            throw TaggerError("error writing JSON output (stream failed)");
        }
    }

  private:
    static constexpr size_t kBlock = 1 << 16;

    void MaybeFlush()
    {
        if (m_buf.size() >= kBlock)
        {
            Flush();
        }
    }

    std::ostream& m_os;
    std::string m_buf;
};

/// Write the "nodes" and "links" members (no enclosing braces).
void
WriteTopologyMembers(const Topology& topo, JsonWriter& w)
{
    w.Raw("  \"nodes\": [");
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        const TopoNode& node = topo.GetNode(n);
        w.Raw(n == 0 ? "\n    {\"name\": " : ",\n    {\"name\": ");
        w.Str(node.name);
        w.Raw(node.kind == NodeKind::SWITCH ? ", \"kind\": \"switch\", \"ports\": "
                                            : ", \"kind\": \"host\", \"ports\": ");
        w.UInt(node.ports).Raw(", \"layer\": ").Int(node.layer);
        if (node.kind == NodeKind::HOST && node.relay)
        {
            w.Raw(", \"relay\": true");
        }
        w.Raw("}");
    }
    w.Raw(topo.GetNNodes() ? "\n  ],\n" : "],\n");
    w.Raw("  \"links\": [");
    const auto& links = topo.GetLinks();
    for (size_t i = 0; i < links.size(); ++i)
    {
        const TopoLink& l = links[i];
        w.Raw(i == 0 ? "\n    {\"a\": " : ",\n    {\"a\": ");
        w.Str(topo.GetNode(l.a.node).name).Raw(", \"a_port\": ").UInt(l.a.port);
        w.Raw(", \"b\": ").Str(topo.GetNode(l.b.node).name).Raw(", \"b_port\": ").UInt(l.b.port);
        w.Raw("}");
    }
    w.Raw(links.empty() ? "]" : "\n  ]");
}

/// Write a sorted port list as a JSON array.
void
WritePortList(JsonWriter& w, const std::vector<PortNo>& ports)
{
    w.Raw("[");
    for (size_t i = 0; i < ports.size(); ++i)
    {
        if (i)
        {
            w.Raw(", ");
        }
        w.UInt(ports[i]);
    }
    w.Raw("]");
}

/// Throw unless the rules were computed for a topology with topo's nodes and port counts.
void
CheckSameTopology(const Topology& topo, const TagRules& rules)
{
    const Topology& rt = rules.GetTopology();
    bool same = rt.GetNNodes() == topo.GetNNodes();
    for (NodeId n = 0; same && n < topo.GetNNodes(); ++n)
    {
        same = rt.GetNode(n).ports == topo.GetNode(n).ports;
    }
    if (!same)
    {
        throw TaggerError("WriteRulesJson: the rules belong to a different topology");
    }
}

/// Write the "rules" member; return the forwarding nodes that have rules.
std::vector<NodeId>
WriteRuleMember(const Topology& topo, const TagRules* rules, JsonWriter& w)
{
    w.Raw(",\n  \"rules\": {");
    std::vector<NodeId> withRules;
    for (NodeId n = 0; rules && n < topo.GetNNodes(); ++n)
    {
        if (!topo.IsForwarder(n))
        {
            continue;
        }
        const std::vector<Rule> list = rules->GetRules(n);
        if (list.empty())
        {
            continue;
        }
        w.Raw(withRules.empty() ? "\n    " : ",\n    ").Str(topo.GetNode(n).name).Raw(": [");
        withRules.push_back(n);
        for (size_t i = 0; i < list.size(); ++i)
        {
            const Rule& r = list[i];
            w.Raw(i == 0 ? "\n      {\"tag\": " : ",\n      {\"tag\": ").UInt(r.tag);
            w.Raw(", \"in_port\": ").UInt(r.inPort).Raw(", \"out_port\": ").UInt(r.outPort);
            w.Raw(", \"new_tag\": ").UInt(r.newTag).Raw("}");
        }
        w.Raw("\n    ]");
    }
    w.Raw(withRules.empty() ? "}" : "\n  }");
    return withRules;
}

/// Write the "tcam" member for the nodes withRules (from out.tcam when given).
void
WriteTcamMember(const Topology& topo,
                const RulesOutput& out,
                const std::vector<NodeId>& withRules,
                JsonWriter& w)
{
    if (out.tcam && out.tcam->size() != topo.GetNNodes())
    {
        throw TaggerError("WriteRulesJson: the TCAM table belongs to a different topology");
    }
    w.Raw(",\n  \"tcam\": {");
    for (size_t k = 0; k < withRules.size(); ++k)
    {
        const NodeId n = withRules[k];
        std::vector<TcamEntry> compressed;
        if (!out.tcam)
        {
            compressed = CompressTcam(*out.rules, n);
        }
        const std::vector<TcamEntry>& entries = out.tcam ? (*out.tcam)[n] : compressed;
        w.Raw(k == 0 ? "\n    " : ",\n    ").Str(topo.GetNode(n).name).Raw(": [");
        for (size_t i = 0; i < entries.size(); ++i)
        {
            const TcamEntry& e = entries[i];
            w.Raw(i == 0 ? "\n      {\"tag\": " : ",\n      {\"tag\": ").UInt(e.tag);
            w.Raw(", \"in_ports\": ");
            WritePortList(w, e.inPorts);
            w.Raw(", \"out_ports\": ");
            WritePortList(w, e.outPorts);
            w.Raw(", \"new_tag\": ").UInt(e.newTag).Raw("}");
        }
        w.Raw(entries.empty() ? "]" : "\n    ]");
    }
    w.Raw(withRules.empty() ? "}" : "\n  }");
}

/// Write the "elp" member: the paths as node names.
void
WriteElpMember(const Topology& topo, const std::vector<Path>& paths, JsonWriter& w)
{
    w.Raw(",\n  \"elp\": [");
    for (size_t i = 0; i < paths.size(); ++i)
    {
        w.Raw(i == 0 ? "\n    [" : ",\n    [");
        for (size_t j = 0; j < paths[i].size(); ++j)
        {
            const NodeId n = paths[i][j];
            if (n >= topo.GetNNodes())
            {
                throw TaggerError("WriteRulesJson: ELP path " + std::to_string(i) +
                                  " has node id " + std::to_string(n) + ", not in the topology");
            }
            w.Raw(j == 0 ? "" : ", ").Str(topo.GetNode(n).name);
        }
        w.Raw("]");
    }
    w.Raw(paths.empty() ? "]" : "\n  ]");
}

/**
 * Write the "elp_next_hops" member: per destination unit, {"destination":
 * name, "next": {node: next hop, ...}}, a list of names for several next hops.
 */
void
WriteNextHopsMember(const Topology& topo, const std::vector<ElpNextHops>& hops, JsonWriter& w)
{
    auto name = [&topo](NodeId n) -> const std::string& {
        if (n >= topo.GetNNodes())
        {
            throw TaggerError("WriteRulesJson: next hops name node id " + std::to_string(n) +
                              ", not in the topology");
        }
        return topo.GetNode(n).name;
    };
    w.Raw(",\n  \"elp_next_hops\": [");
    for (size_t d = 0; d < hops.size(); ++d)
    {
        const ElpNextHops& h = hops[d];
        w.Raw(d == 0 ? "\n    {\"destination\": " : ",\n    {\"destination\": ")
            .Str(name(h.root))
            .Raw(", \"next\": {");
        for (size_t i = 0; i < h.nodes.size(); ++i)
        {
            w.Raw(i == 0 ? "" : ", ").Str(name(h.nodes[i])).Raw(": ");
            const uint32_t from = h.begin[i];
            const uint32_t to = h.begin[i + 1];
            w.Raw(to - from == 1 ? "" : "[");
            for (uint32_t k = from; k < to; ++k)
            {
                w.Raw(k == from ? "" : ", ").Str(name(h.hops[k]));
            }
            w.Raw(to - from == 1 ? "" : "]");
        }
        w.Raw("}}");
    }
    w.Raw(hops.empty() ? "]" : "\n  ]");
}

} // namespace

void
WriteTopologyJson(const Topology& topo, std::ostream& out)
{
    JsonWriter w(out);
    w.Raw("{\n");
    WriteTopologyMembers(topo, w);
    w.Raw("\n}\n");
    w.Flush();
}

void
WriteRulesJson(const Topology& topo, const RulesOutput& out, std::ostream& os)
{
    if (out.rules)
    {
        CheckSameTopology(topo, *out.rules);
    }
    JsonWriter w(os);
    w.Raw("{\n");
    WriteTopologyMembers(topo, w);
    w.Raw(",\n  \"lossless_tags\": ").UInt(out.losslessTags);
    const std::vector<NodeId> withRules = WriteRuleMember(topo, out.rules, w);
    WriteTcamMember(topo, out, withRules, w);
    if (out.elp)
    {
        WriteElpMember(topo, *out.elp, w);
    }
    if (out.elpNextHops)
    {
        WriteNextHopsMember(topo, *out.elpNextHops, w);
    }
    w.Raw(",\n  \"stats\": {");
    bool firstStat = true;
    for (const auto& kv : out.stats)
    {
        w.Raw(firstStat ? "" : ", ").Str(kv.first).Raw(": ").Double(kv.second);
        firstStat = false;
    }
    for (const auto& kv : out.textStats)
    {
        w.Raw(firstStat ? "" : ", ").Str(kv.first).Raw(": ").Str(kv.second);
        firstStat = false;
    }
    w.Raw("}\n}\n");
    w.Flush();
}

} // namespace tagger
} // namespace ns3
