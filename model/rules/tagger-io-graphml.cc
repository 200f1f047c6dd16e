/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * Reading GraphML (ReadGraphml) and topology files of either format
 * (ReadTopologyFile).
 */

#include "tagger-io.h"

#include <algorithm>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <cctype>
#include <fstream>
#include <istream>
#include <set>
#include <sstream>
#include <unordered_map>

namespace ns3
{
namespace tagger
{

namespace
{

namespace pt = boost::property_tree;

/// A raw GraphML node.
struct GmlNode
{
    std::string id;
    std::string label; //!< empty when absent
};

/// A raw GraphML edge.
struct GmlEdge
{
    std::string source;
    std::string target;
};

/**
 * The length of the well-formed UTF-8 sequence (RFC 3629: no overlong form,
 * no surrogate, nothing above U+10FFFF) that starts at s[i], or 0 when none
 * does.
 */
size_t
Utf8Length(const std::string& s, size_t i)
{
    auto at = [&s](size_t k) -> unsigned {
        return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u;
    };
    const unsigned lead = at(i);
    if (lead < 0x80)
    {
        return 1;
    }
    size_t len = 0;
    unsigned low = 0x80; // the range of the second byte
    unsigned high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf)
    {
        len = 2;
    }
    else if (lead >= 0xe0 && lead <= 0xef)
    {
        len = 3;
        low = lead == 0xe0 ? 0xa0 : 0x80;
        high = lead == 0xed ? 0x9f : 0xbf;
    }
    else if (lead >= 0xf0 && lead <= 0xf4)
    {
        len = 4;
        low = lead == 0xf0 ? 0x90 : 0x80;
        high = lead == 0xf4 ? 0x8f : 0xbf;
    }
    else
    {
        return 0;
    }
    if (at(i + 1) < low || at(i + 1) > high)
    {
        return 0;
    }
    for (size_t k = 2; k < len; ++k)
    {
        if (at(i + k) < 0x80 || at(i + k) > 0xbf)
        {
            return 0;
        }
    }
    return len;
}

/**
 * Replace what a node name cannot hold by '_': white space, control
 * characters, '#', and every byte that is not part of well-formed UTF-8 (the
 * JSON output must be UTF-8; e.g. a Latin-1 label).
 */
std::string
SanitizeName(const std::string& s)
{
    std::string r = s;
    for (size_t i = 0; i < r.size();)
    {
        auto u = static_cast<unsigned char>(r[i]);
        size_t len = Utf8Length(r, i);
        if (len == 0 || u < 0x20 || u == 0x7f || u == ' ' || u == '#')
        {
            r[i] = '_';
            len = 1;
        }
        i += len;
    }
    return r;
}

/// Attribute `name` of an element, or "" when absent.
std::string
XmlAttr(const pt::ptree& elem, const char* name)
{
    auto attrs = elem.get_child_optional("<xmlattr>");
    if (!attrs)
    {
        return "";
    }
    return attrs->get<std::string>(pt::ptree::path_type(name, '/'), "");
}

/// Collect nodes and edges of a <graph> element and the graphs nested in its nodes.
void
CollectGraph(const pt::ptree& graph,
             const std::set<std::string>& labelKeys,
             const std::string& source,
             std::vector<GmlNode>& nodes,
             std::vector<GmlEdge>& edges,
             int depth)
{
    if (depth > 64)
    {
        throw TaggerError(source + ": GraphML graphs nested too deeply");
    }
    for (const auto& child : graph)
    {
        if (child.first == "node")
        {
            GmlNode node;
            node.id = XmlAttr(child.second, "id");
            if (node.id.empty())
            {
                throw TaggerError(source + ": GraphML <node> number " +
                                  std::to_string(nodes.size() + 1) + " has no id attribute");
            }
            for (const auto& data : child.second)
            {
                if (data.first == "data" && labelKeys.count(XmlAttr(data.second, "key")))
                {
                    node.label = data.second.get_value<std::string>();
                }
            }
            nodes.push_back(node);
            for (const auto& sub : child.second)
            {
                if (sub.first == "graph")
                {
                    CollectGraph(sub.second, labelKeys, source, nodes, edges, depth + 1);
                }
            }
        }
        else if (child.first == "edge")
        {
            GmlEdge e{XmlAttr(child.second, "source"), XmlAttr(child.second, "target")};
            if (e.source.empty() || e.target.empty())
            {
                throw TaggerError(source + ": GraphML <edge> number " +
                                  std::to_string(edges.size() + 1) +
                                  " lacks a source or target attribute");
            }
            edges.push_back(e);
        }
    }
}

bool
EndsWithNoCase(const std::string& s, const std::string& suffix)
{
    if (s.size() < suffix.size())
    {
        return false;
    }
    for (size_t i = 0; i < suffix.size(); ++i)
    {
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) !=
            std::tolower(static_cast<unsigned char>(suffix[i])))
        {
            return false;
        }
    }
    return true;
}

/// The whole input; throws when it holds more than kMaxGraphmlBytes.
std::string
ReadGraphmlBytes(std::istream& in, const std::string& source)
{
    std::string text;
    char buf[65536];
    while (in.read(buf, sizeof(buf)) || in.gcount() > 0)
    {
        if (text.size() + static_cast<uint64_t>(in.gcount()) > kMaxGraphmlBytes)
        {
            throw TaggerError(source + ": GraphML file larger than the limit of " +
                              std::to_string(kMaxGraphmlBytes >> 20) + " MiB (kMaxGraphmlBytes)");
        }
        text.append(buf, static_cast<size_t>(in.gcount()));
    }
    if (in.bad())
    {
        throw TaggerError(source + ": read error");
    }
    return text;
}

/// The end of a markup construct at `from` closed by `close`, or npos.
size_t
AfterClose(const std::string& text, size_t from, const char* close)
{
    const size_t at = text.find(close, from);
    return at == std::string::npos ? at : at + std::char_traits<char>::length(close);
}

/**
 * The end of the tag or declaration starting at `i` ('<'): after its '>',
 * outside quotes and, in a declaration ("<!"), outside '[...]' (a DOCTYPE's
 * internal subset); npos when the text ends first.
 */
size_t
AfterTag(const std::string& text, size_t i)
{
    const bool declaration = text.compare(i, 2, "<!") == 0;
    char quote = 0;
    int brackets = 0;
    for (size_t j = i + 1; j < text.size(); ++j)
    {
        const char c = text[j];
        if (quote)
        {
            quote = c == quote ? 0 : quote;
        }
        else if (c == '"' || c == '\'')
        {
            quote = c;
        }
        else if (declaration && (c == '[' || c == ']'))
        {
            brackets += c == '[' ? 1 : -1;
        }
        else if (c == '>' && brackets <= 0)
        {
            return j + 1;
        }
    }
    return std::string::npos;
}

/**
 * Throw when elements nest deeper than kMaxXmlDepth.  A scan, not a parser:
 * start tags count up (not "<x/>"), end tags down; comments, CDATA sections,
 * processing instructions, declarations and quoted attribute values are
 * skipped.  It never counts less than an XML parser nests, and malformed
 * text is left to the parser.
 */
void
CheckXmlDepth(const std::string& text, const std::string& source)
{
    uint32_t depth = 0;
    size_t i = 0;
    while (i < text.size() && (i = text.find('<', i)) != std::string::npos)
    {
        size_t next;
        if (text.compare(i, 4, "<!--") == 0)
        {
            next = AfterClose(text, i + 4, "-->");
        }
        else if (text.compare(i, 9, "<![CDATA[") == 0)
        {
            next = AfterClose(text, i + 9, "]]>");
        }
        else if (text.compare(i, 2, "<?") == 0)
        {
            next = AfterClose(text, i + 2, "?>");
        }
        else
        {
            next = AfterTag(text, i);
            if (text.compare(i, 2, "</") == 0)
            {
                depth -= depth > 0 ? 1 : 0;
            }
            else if (text.compare(i, 2, "<!") != 0 &&
                     (next == std::string::npos || text[next - 2] != '/') && ++depth > kMaxXmlDepth)
            {
                const auto line = std::count(text.begin(), text.begin() + i, '\n') + 1;
                throw TaggerError(source + ":" + std::to_string(line) +
                                  ": GraphML elements nested more than " +
                                  std::to_string(kMaxXmlDepth) +
                                  " levels deep (the nesting limit, kMaxXmlDepth)");
            }
        }
        i = next;
    }
}

/**
 * The <graphml> element of a parsed document; throws for a file over the
 * limits (kMaxGraphmlBytes, kMaxXmlDepth), malformed XML or another root.
 */
const pt::ptree&
ParseGraphmlRoot(std::istream& in, const std::string& source, pt::ptree& tree)
{
    std::istringstream text(ReadGraphmlBytes(in, source));
    CheckXmlDepth(text.str(), source);
    try
    {
        pt::read_xml(text, tree, pt::xml_parser::no_comments | pt::xml_parser::trim_whitespace);
    }
    catch (const pt::xml_parser_error& e)
    {
        throw TaggerError(source + ":" + std::to_string(e.line()) +
                          ": malformed GraphML (XML error: " + e.message() + ")");
    }
    auto gml = tree.get_child_optional("graphml");
    if (!gml)
    {
        throw TaggerError(source + ": not a GraphML file (no <graphml> root element)");
    }
    return *gml;
}

/// The ids of the <key> elements that hold node labels.
std::set<std::string>
LabelKeys(const pt::ptree& gml)
{
    std::set<std::string> labelKeys;
    for (const auto& child : gml)
    {
        if (child.first != "key")
        {
            continue;
        }
        std::string name = XmlAttr(child.second, "attr.name");
        std::string forWhat = XmlAttr(child.second, "for");
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) {
            return static_cast<char>(std::tolower(c));
        });
        if (name == "label" && (forWhat == "node" || forWhat == "all" || forWhat.empty()))
        {
            labelKeys.insert(XmlAttr(child.second, "id"));
        }
    }
    return labelKeys;
}

/// The nodes and edges of every top-level <graph>; throws when there is none or no node.
void
CollectGraphs(const pt::ptree& gml,
              const std::string& source,
              std::vector<GmlNode>& nodes,
              std::vector<GmlEdge>& edges)
{
    const std::set<std::string> labelKeys = LabelKeys(gml);
    bool anyGraph = false;
    for (const auto& child : gml)
    {
        if (child.first == "graph")
        {
            anyGraph = true;
            CollectGraph(child.second, labelKeys, source, nodes, edges, 0);
        }
    }
    if (!anyGraph)
    {
        throw TaggerError(source + ": GraphML file has no <graph> element");
    }
    if (nodes.empty())
    {
        throw TaggerError(source + ": GraphML graph has no nodes");
    }
}

/// The edges as pairs of node indices (self-loops dropped); degree counts them per node.
std::vector<std::pair<uint32_t, uint32_t>>
ResolveEdges(const std::vector<GmlNode>& nodes,
             const std::vector<GmlEdge>& edges,
             const std::string& source,
             std::vector<uint64_t>& degree)
{
    std::unordered_map<std::string, uint32_t> byId;
    for (uint32_t i = 0; i < nodes.size(); ++i)
    {
        if (!byId.emplace(nodes[i].id, i).second)
        {
            throw TaggerError(source + ": duplicate GraphML node id '" + nodes[i].id + "'");
        }
    }
    std::vector<std::pair<uint32_t, uint32_t>> ends;
    degree.assign(nodes.size(), 0);
    for (size_t i = 0; i < edges.size(); ++i)
    {
        uint32_t end[2];
        const std::string* ids[2] = {&edges[i].source, &edges[i].target};
        for (int k = 0; k < 2; ++k)
        {
            auto it = byId.find(*ids[k]);
            if (it == byId.end())
            {
                throw TaggerError(source + ": GraphML edge number " + std::to_string(i + 1) + " (" +
                                  edges[i].source + " -> " + edges[i].target +
                                  ") refers to unknown node '" + *ids[k] + "'");
            }
            end[k] = it->second;
        }
        if (end[0] == end[1])
        {
            continue; // self-loop
        }
        ends.emplace_back(end[0], end[1]);
        ++degree[end[0]];
        ++degree[end[1]];
    }
    return ends;
}

/// Throw when the topology would exceed the file limits (kMaxFileNodes, ...).
void
CheckGraphmlSize(const std::vector<GmlNode>& nodes,
                 const std::vector<uint64_t>& degree,
                 uint64_t links,
                 uint32_t hostsPerSwitch,
                 const std::string& source)
{
    const uint64_t nHosts = uint64_t(nodes.size()) * hostsPerSwitch;
    uint64_t totalPorts = nHosts * 2 + links * 2;
    if (nodes.size() + nHosts > kMaxFileNodes || totalPorts > kMaxFileTotalPorts)
    {
        throw TaggerError(source + ": topology too large (" + std::to_string(nodes.size()) +
                          " switches with " + std::to_string(hostsPerSwitch) + " hosts each, " +
                          std::to_string(links) + " links)");
    }
    for (size_t i = 0; i < nodes.size(); ++i)
    {
        if (degree[i] + hostsPerSwitch > kMaxFilePorts)
        {
            throw TaggerError(source + ": node '" + nodes[i].id + "' has too many ports");
        }
    }
}

/// Switch names: the label when unique, else the id; never a host name H1..H<nHosts>.
std::vector<std::string>
SwitchNames(const std::vector<GmlNode>& nodes, uint64_t nHosts)
{
    std::unordered_map<std::string, uint32_t> labelCount;
    for (const auto& n : nodes)
    {
        if (!n.label.empty())
        {
            ++labelCount[SanitizeName(n.label)];
        }
    }
    std::set<std::string> used;
    for (uint64_t h = 1; h <= nHosts; ++h)
    {
        used.insert("H" + std::to_string(h));
    }
    std::vector<std::string> names;
    names.reserve(nodes.size());
    for (const auto& n : nodes)
    {
        const std::string label = SanitizeName(n.label);
        const std::string id = SanitizeName(n.id);
        std::string name = (!label.empty() && labelCount[label] == 1) ? label : id;
        if (used.count(name))
        {
            name = id;
        }
        for (uint32_t suffix = 2; used.count(name); ++suffix)
        {
            name = id + "_" + std::to_string(suffix);
        }
        used.insert(name);
        names.push_back(name);
    }
    return names;
}

} // namespace

Topology
ReadGraphml(std::istream& in, const std::string& source, uint32_t hostsPerSwitch)
{
    pt::ptree tree;
    const pt::ptree& gml = ParseGraphmlRoot(in, source, tree);
    std::vector<GmlNode> nodes;
    std::vector<GmlEdge> edges;
    CollectGraphs(gml, source, nodes, edges);
    std::vector<uint64_t> degree;
    const auto ends = ResolveEdges(nodes, edges, source, degree);
    CheckGraphmlSize(nodes, degree, ends.size(), hostsPerSwitch, source);
    const std::vector<std::string> names =
        SwitchNames(nodes, uint64_t(nodes.size()) * hostsPerSwitch);

    Topology topo;
    for (size_t i = 0; i < nodes.size(); ++i)
    {
        topo.AddNode(names[i], NodeKind::SWITCH, static_cast<uint32_t>(degree[i] + hostsPerSwitch));
    }
    const auto nSwitches = static_cast<NodeId>(nodes.size());
    for (NodeId s = 0; s < nSwitches; ++s)
    {
        for (uint32_t h = 0; h < hostsPerSwitch; ++h)
        {
            NodeId host = topo.AddNode("H" + std::to_string(uint64_t(s) * hostsPerSwitch + h + 1),
                                       NodeKind::HOST,
                                       1);
            topo.AddLink(s, h, host, 0);
        }
    }
    std::vector<PortNo> nextPort(nodes.size(), hostsPerSwitch);
    for (const auto& e : ends)
    {
        topo.AddLink(e.first, nextPort[e.first]++, e.second, nextPort[e.second]++);
    }
    return topo;
}

Topology
ReadTopologyFile(const std::string& filename, uint32_t hostsPerSwitch, bool* graphml)
{
    std::ifstream f(filename, std::ios::binary);
    if (!f)
    {
        throw TaggerError("cannot open topology file '" + filename + "'");
    }
    bool xml = EndsWithNoCase(filename, ".graphml") || EndsWithNoCase(filename, ".xml");
    if (!xml)
    {
        // sniff the first non-blank character (after a UTF-8 byte order mark)
        char head[4096];
        f.read(head, sizeof(head));
        if (f.bad())
        {
            throw TaggerError(ReadErrorText("topology file", filename));
        }
        const std::string text(head, static_cast<size_t>(f.gcount()));
        size_t first = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
        first = text.find_first_not_of(" \t\r\n", first);
        xml = first != std::string::npos && text[first] == '<';
        f.clear();
        f.seekg(0);
        if (!f)
        {
            throw TaggerError("cannot read topology file '" + filename + "'");
        }
    }
    if (graphml)
    {
        *graphml = xml;
    }
    try
    {
        return xml ? ReadGraphml(f, filename, hostsPerSwitch) : ReadTopologyJson(f, filename);
    }
    catch (const std::ios_base::failure&)
    {
        throw TaggerError(ReadErrorText("topology file", filename)); // libstdc++'s read errors
    }
}

} // namespace tagger
} // namespace ns3
