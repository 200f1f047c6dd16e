/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * Reading JSON: topologies (ReadTopologyJson) and the rules of a tagger-rules
 * file (ReadRulesJson), both through one SAX handler that builds a DOM only
 * for the small top-level members.
 */

#include "tagger-elp-core.h"
#include "tagger-io.h"

#include <algorithm>
#include <istream>
#include <nlohmann/json.hpp>
#include <set>

namespace ns3
{
namespace tagger
{

namespace
{

using Json = nlohmann::json;

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
 * skips everything else without building it.  Refuses nesting deeper than
 * kMaxJsonDepth as it starts.  A 300 MB rules file then reads
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

    /// The frame for a top-level member `key` that starts a container.
    Frame StartMember(const std::string& key, bool object)
    {
        if (m_rules && key == "rules")
        {
            if (!object)
            {
                m_rules->NotAnObject("an array");
            }
            m_sawRules = true;
            return Frame{Mode::RULES, nullptr, ""};
        }
        if (m_keep.count(key))
        {
            Json& slot = m_root[key];
            slot = object ? Json::object() : Json::array();
            return Frame{Mode::DOM, &slot, ""};
        }
        return Frame{Mode::SKIP, nullptr, ""};
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
        if (m_stack.size() >= kMaxJsonDepth)
        {
            throw TaggerError(m_source + ": JSON objects and arrays nested more than " +
                              std::to_string(kMaxJsonDepth) +
                              " levels deep (the nesting limit, kMaxJsonDepth)");
        }
        Frame& f = m_stack.back();
        Frame next{Mode::SKIP, nullptr, ""};
        switch (f.mode)
        {
        case Mode::ROOT:
            next = StartMember(f.key, object);
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

/// Add the nodes of the "nodes" array to topo.
void
ReadNodes(const Json& nodes, const std::string& source, Topology& topo)
{
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
}

/// Add the links of the "links" array to topo (whose nodes are read).
void
ReadLinks(const Json& links, const std::string& source, Topology& topo)
{
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
}

/**
 * Check that every link of a rules file's "links" array is a link of \p topo
 * (the same ports at both ends), so that rules computed for another wiring
 * with the same names are refused.
 */
void
CheckLinksMatch(const Json& links, const std::string& source, const Topology& topo)
{
    for (size_t i = 0; i < links.size(); ++i)
    {
        FieldReader f(links[i], source, "links[" + std::to_string(i) + "]");
        PortRef ends[2];
        const char* nodeKeys[2] = {"a", "b"};
        const char* portKeys[2] = {"a_port", "b_port"};
        for (int e = 0; e < 2; ++e)
        {
            const std::string name = f.String(nodeKeys[e]);
            ends[e] = PortRef{topo.FindNode(name), f.UInt(portKeys[e], UINT32_MAX)};
            if (ends[e].node == kNone || ends[e].port >= topo.GetNode(ends[e].node).ports)
            {
                f.Fail("'" + name + "' port " + std::to_string(ends[e].port) +
                       " is not in the topology the rules are read for");
            }
        }
        const PortRef peer = topo.GetPeer(ends[0].node, ends[0].port);
        if (peer.node != ends[1].node || peer.port != ends[1].port)
        {
            f.Fail("'" + topo.GetNode(ends[0].node).name + "' port " +
                   std::to_string(ends[0].port) + " goes to '" + topo.GetNode(ends[1].node).name +
                   "' port " + std::to_string(ends[1].port) +
                   " in the file but not in the topology the rules are read for");
        }
    }
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
    ReadNodes(nodes, source, topo);
    ReadLinks(links, source, topo);
    return topo;
}

/// The node id of a JSON string naming a node of topo.
NodeId
NamedNode(const Topology& topo, const Json& v, const std::string& source, const std::string& ctx)
{
    const NodeId n = v.is_string() ? topo.FindNode(v.get<std::string>()) : kNone;
    if (n == kNone)
    {
        throw TaggerError(source + ": " + ctx + ": " + Show(v) + " is not a node name");
    }
    return n;
}

/// The "elp_next_hops" member: per destination, every node's next hops.
std::vector<ElpNextHops>
ReadNextHops(const Topology& topo, const Json& arr, const std::string& source)
{
    std::vector<ElpNextHops> result;
    for (size_t d = 0; d < arr.size(); ++d)
    {
        const std::string ctx = "elp_next_hops[" + std::to_string(d) + "]";
        FieldReader f(arr[d], source, ctx);
        ElpNextHops h;
        h.root = NamedNode(topo,
                           arr[d].contains("destination") ? arr[d]["destination"] : Json(),
                           source,
                           ctx + ".destination");
        const Json& next = arr[d].contains("next") ? arr[d]["next"] : Json();
        if (!next.is_object())
        {
            f.Fail("\"next\" must be an object of node: next hop(s)");
        }
        std::vector<std::pair<NodeId, std::vector<NodeId>>> rows;
        for (auto it = next.begin(); it != next.end(); ++it)
        {
            const std::string at = ctx + ".next." + it.key();
            std::vector<NodeId> hops;
            for (const Json& v : it->is_array() ? *it : Json::array({*it}))
            {
                hops.push_back(NamedNode(topo, v, source, at));
            }
            rows.emplace_back(NamedNode(topo, Json(it.key()), source, at), std::move(hops));
        }
        std::sort(rows.begin(), rows.end());
        for (const auto& [node, hops] : rows)
        {
            h.Add(node, hops);
        }
        result.push_back(std::move(h));
    }
    return result;
}

} // namespace

Elp
ReadElpJson(const Topology& topo, std::istream& in, const std::string& source)
{
    Json root = ParseTopLevel(in, source, {"elp", "elp_next_hops"}, nullptr);
    if (!root.contains("elp") && !root.contains("elp_next_hops"))
    {
        throw TaggerError(source + ": no ELP (top-level \"elp\" or \"elp_next_hops\")");
    }
    Elp elp;
    elp.graph = HopGraph(topo);
    if (root.contains("elp_next_hops"))
    {
        std::vector<ElpNextHops> hops =
            ReadNextHops(topo, RootArray(root, "elp_next_hops", source), source);
        try
        {
            elp = MakeNextHopElp(topo, hops);
        }
        catch (const TaggerError& e)
        {
            throw TaggerError(source + ": elp_next_hops: " + e.what());
        }
    }
    if (root.contains("elp"))
    {
        const Json& paths = RootArray(root, "elp", source);
        for (size_t i = 0; i < paths.size(); ++i)
        {
            const std::string ctx = "elp[" + std::to_string(i) + "]";
            if (!paths[i].is_array())
            {
                throw TaggerError(source + ": " + ctx + ": a path must be an array of node names");
            }
            Path path;
            for (const Json& v : paths[i])
            {
                path.push_back(NamedNode(topo, v, source, ctx));
            }
            const std::string err = detail::CheckPath(topo, path);
            if (!err.empty())
            {
                throw TaggerError(source + ": " + ctx + ": " + err);
            }
            elp.graph.AddPath(path);
            elp.longestPath =
                std::max<uint32_t>(elp.longestPath, static_cast<uint32_t>(path.size() - 1));
            elp.paths.push_back(std::move(path));
            ++elp.pathCount;
        }
    }
    if (elp.pathCount == 0)
    {
        throw TaggerError(source + ": the ELP has no path");
    }
    return elp;
}

Topology
ReadTopologyJson(std::istream& in, const std::string& source)
{
    Json root = ParseTopLevel(in, source, {"nodes", "links"}, nullptr);
    return TopologyFromJson(root, source);
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
    Json root =
        ParseTopLevel(in, source, {"lossless_tags", "nodes", "links"}, &streamer, &sawRules);
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

    if (root.contains("links"))
    {
        CheckLinksMatch(RootArray(root, "links", source), source, topo);
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
