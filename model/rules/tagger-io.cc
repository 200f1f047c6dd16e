/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-io.h"

#include <algorithm>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ns3
{
namespace tagger
{

namespace
{

using Json = nlohmann::json;

/// Most ports a node read from a file may have.
constexpr uint32_t kMaxFilePorts = uint32_t(1) << 20;
/// Most nodes / total ports a file may describe.
constexpr uint64_t kMaxFileNodes = uint64_t(1) << 24;
constexpr uint64_t kMaxFileTotalPorts = uint64_t(1) << 28;

// ---------------------------------------------------------------------------
// Writing

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
        return Raw(Json(v).dump()); // "null" for NaN / infinity
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

// ---------------------------------------------------------------------------
// Reading JSON

/// "[json.exception.parse_error.101] parse error at ..." -> "parse error at ..."
std::string
StripJsonPrefix(const std::string& what)
{
    if (!what.empty() && what[0] == '[')
    {
        auto pos = what.find("] ");
        if (pos != std::string::npos)
        {
            return what.substr(pos + 2);
        }
    }
    return what;
}

/// A short rendering of a JSON value for messages.
std::string
Show(const Json& v)
{
    std::string s = v.dump();
    if (s.size() > 40)
    {
        s = s.substr(0, 37) + "...";
    }
    return s;
}

/**
 * Reads typed fields of one JSON object and throws TaggerError naming the
 * source, the object (e.g. "links[3]") and the field.
 */
class FieldReader
{
  public:
    FieldReader(const Json& obj, const std::string& source, const std::string& ctx)
        : m_obj(obj),
          m_source(source),
          m_ctx(ctx)
    {
        if (!obj.is_object())
        {
            Fail("must be a JSON object, got " + Show(obj));
        }
    }

    void SetContext(const std::string& ctx)
    {
        m_ctx = ctx;
    }

    [[noreturn]] void Fail(const std::string& what) const
    {
        throw TaggerError(m_source + ": " + m_ctx + ": " + what);
    }

    bool Has(const char* key) const
    {
        return m_obj.contains(key);
    }

    const Json& Get(const char* key) const
    {
        auto it = m_obj.find(key);
        if (it == m_obj.end())
        {
            Fail(std::string("missing field \"") + key + "\"");
        }
        return *it;
    }

    std::string String(const char* key) const
    {
        const Json& v = Get(key);
        if (!v.is_string())
        {
            Fail(std::string("field \"") + key + "\" must be a string, got " + Show(v));
        }
        return v.get<std::string>();
    }

    uint32_t UInt(const char* key, uint64_t max) const
    {
        const Json& v = Get(key);
        if (!v.is_number_unsigned())
        {
            Fail(std::string("field \"") + key + "\" must be a non-negative integer, got " +
                 Show(v));
        }
        uint64_t x = v.get<uint64_t>();
        if (x > max)
        {
            Fail(std::string("field \"") + key + "\" is " + std::to_string(x) + ", more than " +
                 std::to_string(max));
        }
        return static_cast<uint32_t>(x);
    }

    int32_t Int(const char* key, int64_t min, int64_t max) const
    {
        const Json& v = Get(key);
        if (!v.is_number_integer())
        {
            Fail(std::string("field \"") + key + "\" must be an integer, got " + Show(v));
        }
        int64_t x =
            v.is_number_unsigned()
                ? static_cast<int64_t>(std::min<uint64_t>(v.get<uint64_t>(), uint64_t(INT64_MAX)))
                : v.get<int64_t>();
        if (x < min || x > max)
        {
            Fail(std::string("field \"") + key + "\" is " + std::to_string(x) + ", outside " +
                 std::to_string(min) + ".." + std::to_string(max));
        }
        return static_cast<int32_t>(x);
    }

    bool Bool(const char* key) const
    {
        const Json& v = Get(key);
        if (!v.is_boolean())
        {
            Fail(std::string("field \"") + key + "\" must be true or false, got " + Show(v));
        }
        return v.get<bool>();
    }

  private:
    const Json& m_obj;
    const std::string& m_source;
    std::string m_ctx;
};

/// The member `key` of the root object, which must be an array.
const Json&
RootArray(const Json& root, const char* key, const std::string& source)
{
    auto it = root.find(key);
    if (it == root.end())
    {
        throw TaggerError(source + ": missing top-level field \"" + key + "\"");
    }
    if (!it->is_array())
    {
        throw TaggerError(source + ": top-level field \"" + key + "\" must be an array, got " +
                          Show(*it));
    }
    return *it;
}

/**
 * Receives the "rules" member of a tagger-rules file one rule at a time and
 * stores it in a TagRules, validating as it goes.
 */
class RuleStreamer
{
  public:
    RuleStreamer(const Topology& topo, const std::string& source, TagRules& rules)
        : m_topo(topo),
          m_source(source),
          m_rules(rules)
    {
    }

    /// The "rules" member was not an object.
    [[noreturn]] void NotAnObject(const std::string& got) const
    {
        throw TaggerError(m_source +
                          ": top-level field \"rules\" must be an object of node name -> rule "
                          "list, got " +
                          got);
    }

    /// Start the rule list of a node.
    void Node(const std::string& name)
    {
        m_where = "rules of node '" + name + "'";
        m_node = m_topo.FindNode(name);
        if (m_node == kNone)
        {
            Fail("unknown node '" + name + "'");
        }
        if (!m_topo.IsForwarder(m_node))
        {
            Fail("'" + name + "' is a host that does not relay and cannot have rules");
        }
        m_entry = 0;
    }

    /// The node's value is not an array.
    [[noreturn]] void NotAnArray(const std::string& got) const
    {
        Fail("must be an array, got " + got);
    }

    /// An entry of the list is not an object.
    [[noreturn]] void EntryNotAnObject(const std::string& got) const
    {
        FailEntry("must be a JSON object, got " + got);
    }

    void BeginRule()
    {
        for (auto& f : m_fields)
        {
            f = kNone;
        }
    }

    /// \return true when key is one of the rule fields
    bool IsField(const std::string& key) const
    {
        return FieldIndex(key) >= 0;
    }

    /// A primitive member of a rule object; unknown keys are ignored.
    void Field(const std::string& key, const Json& v)
    {
        int i = FieldIndex(key);
        if (i < 0)
        {
            return;
        }
        if (!v.is_number_unsigned())
        {
            FieldTypeError(key, Show(v));
        }
        const uint64_t x = v.get<uint64_t>();
        const uint64_t max = (i == 1 || i == 2) ? UINT32_MAX - 1 : kMaxTag;
        if (x > max)
        {
            FailEntry("field \"" + key + "\" is " + std::to_string(x) + ", more than " +
                      std::to_string(max));
        }
        m_fields[i] = static_cast<uint32_t>(x);
    }

    /// A rule field holds an object or an array.
    [[noreturn]] void FieldTypeError(const std::string& key, const std::string& got) const
    {
        FailEntry("field \"" + key + "\" must be a non-negative integer, got " + got);
    }

    void EndRule()
    {
        for (int i = 0; i < 4; ++i)
        {
            if (m_fields[i] == kNone)
            {
                FailEntry(std::string("missing field \"") + kFieldNames[i] + "\"");
            }
        }
        const uint32_t tag = m_fields[0];
        const uint32_t inPort = m_fields[1];
        const uint32_t outPort = m_fields[2];
        const uint32_t newTag = m_fields[3];
        if (tag == kLossyTag)
        {
            FailEntry("field \"tag\" is 0, the lossy tag, which has no rules");
        }
        const uint32_t ports = m_topo.GetNode(m_node).ports;
        for (uint32_t p : {inPort, outPort})
        {
            if (p >= ports)
            {
                FailEntry("port " + std::to_string(p) + " is out of range: '" +
                          m_topo.GetNode(m_node).name + "' has " + std::to_string(ports) +
                          " ports");
            }
        }
        if (newTag != kLossyTag) // new tag 0, "to lossy", is what no rule means
        {
            try
            {
                m_rules.Set(m_node,
                            static_cast<Tag>(tag),
                            inPort,
                            outPort,
                            static_cast<Tag>(newTag));
            }
            catch (const std::exception& e)
            {
                FailEntry("conflicting rule for (tag " + std::to_string(tag) + ", in_port " +
                          std::to_string(inPort) + ", out_port " + std::to_string(outPort) +
                          "): " + e.what());
            }
        }
        ++m_entry;
    }

  private:
    static constexpr const char* kFieldNames[4] = {"tag", "in_port", "out_port", "new_tag"};

    static int FieldIndex(const std::string& key)
    {
        for (int i = 0; i < 4; ++i)
        {
            if (key == kFieldNames[i])
            {
                return i;
            }
        }
        return -1;
    }

    [[noreturn]] void Fail(const std::string& what) const
    {
        throw TaggerError(m_source + ": " + m_where + ": " + what);
    }

    [[noreturn]] void FailEntry(const std::string& what) const
    {
        throw TaggerError(m_source + ": " + m_where + ", entry " + std::to_string(m_entry) + ": " +
                          what);
    }

    const Topology& m_topo;
    const std::string& m_source;
    TagRules& m_rules;
    std::string m_where;
    NodeId m_node{kNone};
    uint64_t m_entry{0};
    uint32_t m_fields[4];
};

/**
 * A SAX handler for the top-level JSON object of a topology or tagger-rules
 * file: builds a DOM only for the top-level members named in `keep` (the
 * small ones), streams "rules" into a RuleStreamer when one is given, and
 * skips everything else without building it.  A 300 MB rules file then reads
 * in about a second instead of the ten a full DOM takes.
 */
class TopLevelSax : public nlohmann::json_sax<Json>
{
  public:
    TopLevelSax(const std::string& source, std::set<std::string> keep, RuleStreamer* rules)
        : m_source(source),
          m_keep(std::move(keep)),
          m_rules(rules)
    {
    }

    /// The object of the kept members.
    Json& GetRoot()
    {
        return m_root;
    }

    /// true when a "rules" member was streamed.
    bool SawRules() const
    {
        return m_sawRules;
    }

    bool null() override
    {
        return Value(Json(nullptr));
    }

    bool boolean(bool v) override
    {
        return Value(Json(v));
    }

    bool number_integer(number_integer_t v) override
    {
        return Value(Json(v));
    }

    bool number_unsigned(number_unsigned_t v) override
    {
        return Value(Json(v));
    }

    bool number_float(number_float_t v, const string_t&) override
    {
        return Value(Json(v));
    }

    bool string(string_t& v) override
    {
        return Value(Json(std::move(v)));
    }

    bool binary(binary_t&) override
    {
        return Value(Json(nullptr)); // never produced by JSON text
    }

    bool key(string_t& k) override
    {
        m_stack.back().key = k;
        if (m_stack.back().mode == Mode::RULES)
        {
            m_rules->Node(k);
        }
        return true;
    }

    bool start_object(std::size_t) override
    {
        return Start(true);
    }

    bool start_array(std::size_t) override
    {
        return Start(false);
    }

    bool end_object() override
    {
        if (m_stack.back().mode == Mode::RULE)
        {
            m_rules->EndRule();
        }
        m_stack.pop_back();
        return true;
    }

    bool end_array() override
    {
        m_stack.pop_back();
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override
    {
        throw TaggerError(m_source + ": invalid JSON: " + StripJsonPrefix(e.what()));
    }

  private:
    enum class Mode
    {
        ROOT,      //!< the top-level object
        DOM,       //!< inside a kept member: build it
        SKIP,      //!< inside a member nobody needs
        RULES,     //!< the "rules" object: node name -> list
        RULE_LIST, //!< one node's list of rules
        RULE       //!< one rule object
    };

    struct Frame
    {
        Mode mode;
        Json* dom; //!< the container being built (DOM mode)
        std::string key;
    };

    /// Where a value or container that starts now goes, in DOM mode.
    Json* DomSlot(Frame& f)
    {
        if (f.dom->is_array())
        {
            f.dom->push_back(Json());
            return &f.dom->back();
        }
        return &(*f.dom)[f.key];
    }

    bool Value(Json&& v)
    {
        if (m_stack.empty())
        {
            throw TaggerError(m_source + ": the top level must be a JSON object, got " + Show(v));
        }
        Frame& f = m_stack.back();
        switch (f.mode)
        {
        case Mode::ROOT:
            if (m_rules && f.key == "rules")
            {
                m_rules->NotAnObject(Show(v));
            }
            if (m_keep.count(f.key))
            {
                m_root[f.key] = std::move(v);
            }
            break;
        case Mode::DOM:
            *DomSlot(f) = std::move(v);
            break;
        case Mode::SKIP:
            break;
        case Mode::RULES:
            m_rules->NotAnArray(Show(v));
        case Mode::RULE_LIST:
            m_rules->EntryNotAnObject(Show(v));
        case Mode::RULE:
            m_rules->Field(f.key, v);
            break;
        }
        return true;
    }

    bool Start(bool object)
    {
        const char* shown = object ? "an object" : "an array";
        if (m_stack.empty())
        {
            if (!object)
            {
                throw TaggerError(m_source + ": the top level must be a JSON object, got an array");
            }
            m_root = Json::object();
            m_stack.push_back(Frame{Mode::ROOT, &m_root, ""});
            return true;
        }
        Frame& f = m_stack.back();
        Frame next{Mode::SKIP, nullptr, ""};
        switch (f.mode)
        {
        case Mode::ROOT:
            if (m_rules && f.key == "rules")
            {
                if (!object)
                {
                    m_rules->NotAnObject(shown);
                }
                m_sawRules = true;
                next.mode = Mode::RULES;
            }
            else if (m_keep.count(f.key))
            {
                Json& slot = m_root[f.key];
                slot = object ? Json::object() : Json::array();
                next = Frame{Mode::DOM, &slot, ""};
            }
            break;
        case Mode::DOM: {
            Json* slot = DomSlot(f);
            *slot = object ? Json::object() : Json::array();
            next = Frame{Mode::DOM, slot, ""};
            break;
        }
        case Mode::SKIP:
            break;
        case Mode::RULES:
            if (object)
            {
                m_rules->NotAnArray(shown);
            }
            next.mode = Mode::RULE_LIST;
            break;
        case Mode::RULE_LIST:
            if (!object)
            {
                m_rules->EntryNotAnObject(shown);
            }
            m_rules->BeginRule();
            next.mode = Mode::RULE;
            break;
        case Mode::RULE:
            if (m_rules->IsField(f.key))
            {
                m_rules->FieldTypeError(f.key, shown);
            }
            break; // an unknown member of a rule: skip it
        }
        m_stack.push_back(std::move(next));
        return true;
    }

    const std::string& m_source;
    std::set<std::string> m_keep;
    RuleStreamer* m_rules;
    Json m_root;
    std::vector<Frame> m_stack;
    bool m_sawRules{false};
};

/**
 * Parse the top-level object of a JSON file, keeping the members in `keep`
 * as a DOM and streaming "rules" into `rules` when it is not null.
 */
Json
ParseTopLevel(std::istream& in,
              const std::string& source,
              const std::set<std::string>& keep,
              RuleStreamer* rules,
              bool* sawRules = nullptr)
{
    if (!in)
    {
        throw TaggerError(source + ": cannot read input");
    }
    TopLevelSax sax(source, keep, rules);
    try
    {
        Json::sax_parse(in, &sax);
    }
    catch (const Json::exception& e)
    {
        throw TaggerError(source + ": invalid JSON: " + StripJsonPrefix(e.what()));
    }
    if (sawRules)
    {
        *sawRules = sax.SawRules();
    }
    return std::move(sax.GetRoot());
}

Topology
TopologyFromJson(const Json& root, const std::string& source)
{
    if (!root.is_object())
    {
        throw TaggerError(source + ": the top level must be a JSON object");
    }
    const Json& nodes = RootArray(root, "nodes", source);
    const Json& links = RootArray(root, "links", source);
    if (nodes.size() > kMaxFileNodes)
    {
        throw TaggerError(source + ": too many nodes (" + std::to_string(nodes.size()) + ")");
    }

    Topology topo;
    uint64_t totalPorts = 0;
    for (size_t i = 0; i < nodes.size(); ++i)
    {
        const std::string where = "nodes[" + std::to_string(i) + "]";
        FieldReader f(nodes[i], source, where);
        const std::string name = f.String("name");
        f.SetContext("node '" + name + "' (" + where + ")");
        const std::string kindStr = f.String("kind");
        NodeKind kind;
        if (kindStr == "switch")
        {
            kind = NodeKind::SWITCH;
        }
        else if (kindStr == "host")
        {
            kind = NodeKind::HOST;
        }
        else
        {
            f.Fail("unknown kind \"" + kindStr + "\" (expected \"switch\" or \"host\")");
        }
        const uint32_t ports = f.UInt("ports", kMaxFilePorts);
        const int32_t layer = f.Has("layer") ? f.Int("layer", -1, 1000) : -1;
        const bool relay = f.Has("relay") ? f.Bool("relay") : false;
        if (relay && kind != NodeKind::HOST)
        {
            f.Fail("\"relay\": true is only allowed on hosts");
        }
        totalPorts += ports;
        if (totalPorts > kMaxFileTotalPorts)
        {
            f.Fail("too many ports in total (more than " + std::to_string(kMaxFileTotalPorts) +
                   ")");
        }
        try
        {
            topo.AddNode(name, kind, ports, layer, relay);
        }
        catch (const TaggerError& e)
        {
            throw TaggerError(source + ": " + where + ": " + e.what());
        }
    }

    // which link uses each port, to name the earlier user of a port used twice
    std::vector<uint32_t> portUser(topo.GetNPorts(), kNone);
    for (size_t i = 0; i < links.size(); ++i)
    {
        const std::string where = "links[" + std::to_string(i) + "]";
        FieldReader f(links[i], source, where);
        PortRef ends[2];
        const char* nodeKeys[2] = {"a", "b"};
        const char* portKeys[2] = {"a_port", "b_port"};
        for (int e = 0; e < 2; ++e)
        {
            const std::string name = f.String(nodeKeys[e]);
            NodeId n = topo.FindNode(name);
            if (n == kNone)
            {
                f.Fail("unknown node '" + name + "' in field \"" + nodeKeys[e] + "\"");
            }
            const uint32_t port = f.UInt(portKeys[e], UINT32_MAX);
            const uint32_t nPorts = topo.GetNode(n).ports;
            if (port >= nPorts)
            {
                f.Fail("port " + std::to_string(port) + " of node '" + name + "' (field \"" +
                       portKeys[e] + "\") is out of range: '" + name + "' has " +
                       std::to_string(nPorts) + " ports");
            }
            const uint32_t user = portUser[topo.GetPortIndex(n, port)];
            if (user != kNone)
            {
                f.Fail("port " + std::to_string(port) + " of node '" + name +
                       "' is already used by links[" + std::to_string(user) + "]");
            }
            ends[e] = PortRef{n, port};
        }
        if (ends[0].node == ends[1].node)
        {
            f.Fail("link connects node '" + topo.GetNode(ends[0].node).name + "' to itself");
        }
        portUser[topo.GetPortIndex(ends[0].node, ends[0].port)] = static_cast<uint32_t>(i);
        portUser[topo.GetPortIndex(ends[1].node, ends[1].port)] = static_cast<uint32_t>(i);
        topo.AddLink(ends[0].node, ends[0].port, ends[1].node, ends[1].port);
    }
    return topo;
}

// ---------------------------------------------------------------------------
// GraphML

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

/// Replace characters a node name cannot hold (white space, control, '#') by '_'.
std::string
SanitizeName(const std::string& s)
{
    std::string r = s;
    for (char& c : r)
    {
        auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f || c == ' ' || c == '#')
        {
            c = '_';
        }
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

} // namespace

// ---------------------------------------------------------------------------

Topology
ReadTopologyJson(std::istream& in, const std::string& source)
{
    Json root = ParseTopLevel(in, source, {"nodes", "links"}, nullptr);
    return TopologyFromJson(root, source);
}

void
WriteTopologyJson(const Topology& topo, std::ostream& out)
{
    JsonWriter w(out);
    w.Raw("{\n");
    WriteTopologyMembers(topo, w);
    w.Raw("\n}\n");
    w.Flush();
}

Topology
ReadGraphml(std::istream& in, const std::string& source, uint32_t hostsPerSwitch)
{
    pt::ptree tree;
    try
    {
        pt::read_xml(in, tree, pt::xml_parser::no_comments | pt::xml_parser::trim_whitespace);
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

    // ids of the keys holding node labels
    std::set<std::string> labelKeys;
    for (const auto& child : *gml)
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

    std::vector<GmlNode> nodes;
    std::vector<GmlEdge> edges;
    bool anyGraph = false;
    for (const auto& child : *gml)
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

    std::unordered_map<std::string, uint32_t> byId;
    for (uint32_t i = 0; i < nodes.size(); ++i)
    {
        if (!byId.emplace(nodes[i].id, i).second)
        {
            throw TaggerError(source + ": duplicate GraphML node id '" + nodes[i].id + "'");
        }
    }
    // resolve edges; count ports
    std::vector<std::pair<uint32_t, uint32_t>> ends;
    std::vector<uint64_t> degree(nodes.size(), 0);
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
    const uint64_t nHosts = uint64_t(nodes.size()) * hostsPerSwitch;
    uint64_t totalPorts = nHosts * 2 + ends.size() * 2;
    if (nodes.size() + nHosts > kMaxFileNodes || totalPorts > kMaxFileTotalPorts)
    {
        throw TaggerError(source + ": topology too large (" + std::to_string(nodes.size()) +
                          " switches with " + std::to_string(hostsPerSwitch) + " hosts each, " +
                          std::to_string(ends.size()) + " links)");
    }
    for (size_t i = 0; i < nodes.size(); ++i)
    {
        if (degree[i] + hostsPerSwitch > kMaxFilePorts)
        {
            throw TaggerError(source + ": node '" + nodes[i].id + "' has too many ports");
        }
    }

    // switch names: unique label, else id; never a host name H1..
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
ReadTopologyFile(const std::string& filename, uint32_t hostsPerSwitch)
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
    if (xml)
    {
        return ReadGraphml(f, filename, hostsPerSwitch);
    }
    return ReadTopologyJson(f, filename);
}

void
WriteRulesJson(const Topology& topo, const RulesOutput& out, std::ostream& os)
{
    const TagRules* rules = out.rules;
    if (rules)
    {
        const Topology& rt = rules->GetTopology();
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

    JsonWriter w(os);
    w.Raw("{\n");
    WriteTopologyMembers(topo, w);
    w.Raw(",\n  \"lossless_tags\": ").UInt(out.losslessTags);

    // plain rules
    w.Raw(",\n  \"rules\": {");
    bool firstNode = true;
    std::vector<NodeId> withRules;
    if (rules)
    {
        for (NodeId n = 0; n < topo.GetNNodes(); ++n)
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
            withRules.push_back(n);
            w.Raw(firstNode ? "\n    " : ",\n    ").Str(topo.GetNode(n).name).Raw(": [");
            firstNode = false;
            for (size_t i = 0; i < list.size(); ++i)
            {
                const Rule& r = list[i];
                w.Raw(i == 0 ? "\n      {\"tag\": " : ",\n      {\"tag\": ").UInt(r.tag);
                w.Raw(", \"in_port\": ").UInt(r.inPort).Raw(", \"out_port\": ").UInt(r.outPort);
                w.Raw(", \"new_tag\": ").UInt(r.newTag).Raw("}");
            }
            w.Raw("\n    ]");
        }
    }
    w.Raw(firstNode ? "}" : "\n  }");

    // TCAM entries
    w.Raw(",\n  \"tcam\": {");
    for (size_t k = 0; k < withRules.size(); ++k)
    {
        const NodeId n = withRules[k];
        const std::vector<TcamEntry> entries = CompressTcam(*rules, n);
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

    // ELP paths
    if (out.elp)
    {
        w.Raw(",\n  \"elp\": [");
        const auto& paths = *out.elp;
        for (size_t i = 0; i < paths.size(); ++i)
        {
            w.Raw(i == 0 ? "\n    [" : ",\n    [");
            for (size_t j = 0; j < paths[i].size(); ++j)
            {
                const NodeId n = paths[i][j];
                if (n >= topo.GetNNodes())
                {
                    throw TaggerError("WriteRulesJson: ELP path " + std::to_string(i) +
                                      " has node id " + std::to_string(n) +
                                      ", not in the topology");
                }
                w.Raw(j == 0 ? "" : ", ").Str(topo.GetNode(n).name);
            }
            w.Raw("]");
        }
        w.Raw(paths.empty() ? "]" : "\n  ]");
    }

    // statistics
    w.Raw(",\n  \"stats\": {");
    bool firstStat = true;
    for (const auto& kv : out.stats)
    {
        w.Raw(firstStat ? "" : ", ").Str(kv.first).Raw(": ").Double(kv.second);
        firstStat = false;
    }
    w.Raw("}\n}\n");
    w.Flush();
}

TagRules
ReadRulesJson(const Topology& topo,
              std::istream& in,
              const std::string& source,
              uint32_t& losslessTags)
{
    TagRules rules(topo);
    RuleStreamer streamer(topo, source, rules);
    bool sawRules = false;
    Json root = ParseTopLevel(in, source, {"lossless_tags", "nodes"}, &streamer, &sawRules);
    FieldReader top(root, source, "top level");
    const uint32_t lossless = top.UInt("lossless_tags", kMaxTag);
    if (!sawRules)
    {
        throw TaggerError(source + ": missing top-level field \"rules\"");
    }

    // the file's node list, when present, must describe this topology
    if (root.contains("nodes"))
    {
        const Json& nodes = RootArray(root, "nodes", source);
        for (size_t i = 0; i < nodes.size(); ++i)
        {
            const std::string where = "nodes[" + std::to_string(i) + "]";
            FieldReader f(nodes[i], source, where);
            const std::string name = f.String("name");
            f.SetContext("node '" + name + "' (" + where + ")");
            NodeId n = topo.FindNode(name);
            if (n == kNone)
            {
                f.Fail("not in the topology the rules are read for");
            }
            const uint32_t ports = f.UInt("ports", kMaxFilePorts);
            if (ports != topo.GetNode(n).ports)
            {
                f.Fail("has " + std::to_string(ports) + " ports in the file but " +
                       std::to_string(topo.GetNode(n).ports) + " in the topology");
            }
        }
    }

    const uint32_t needed = rules.GetLosslessTags();
    if (lossless < needed)
    {
        throw TaggerError(source + ": lossless_tags is " + std::to_string(lossless) +
                          " but the rules use " + std::to_string(needed) + " lossless tags");
    }
    losslessTags = lossless;
    return rules;
}

} // namespace tagger
} // namespace ns3
