/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of topology / rules file IO: JSON round trips, GraphML (Topology-Zoo
 * style) reading, and one TaggerError naming the culprit for every bad input.
 * Written JSON is checked by parsing it with nlohmann::json directly, not only
 * by reading it back with the library.
 */

#include "tagger-io.h"
#include "tagger-rule-table.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "test-util.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3::tagger;
using ns3::tagger::test::ErrorOf;
using ns3::tagger::test::HasSubstr;

namespace
{

/// Whether text contains every one of parts.
::testing::AssertionResult
HasAll(const std::string& text, const std::vector<std::string>& parts)
{
    for (const auto& part : parts)
    {
        if (text.find(part) == std::string::npos)
        {
            return HasSubstr(text, part);
        }
    }
    return ::testing::AssertionSuccess();
}

/// Directory of the test data files (test/data).
std::string
DataDir()
{
#ifdef TAGGER_TEST_DATA_DIR
    return TAGGER_TEST_DATA_DIR;
#else
    std::string f = __FILE__; // .../test/rules/io-test.cc
    auto pos = f.rfind("rules/");
    return (pos == std::string::npos ? std::string("test/") : f.substr(0, pos)) + "data";
#endif
}

std::string
ErrorOfJson(const std::string& text, const std::string& source = "bad.json")
{
    return ErrorOf([&] {
        std::istringstream in(text);
        ReadTopologyJson(in, source);
    });
}

std::string
ErrorOfGraphml(const std::string& text, uint32_t hosts = 1)
{
    return ErrorOf([&] {
        std::istringstream in(text);
        ReadGraphml(in, "bad.graphml", hosts);
    });
}

/// Node fields and the ordered link list must be identical.
void
ExpectSameTopology(const Topology& a, const Topology& b)
{
    ASSERT_EQ(a.GetNNodes(), b.GetNNodes());
    for (NodeId n = 0; n < a.GetNNodes(); ++n)
    {
        const TopoNode& x = a.GetNode(n);
        const TopoNode& y = b.GetNode(n);
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.kind, y.kind) << x.name;
        EXPECT_EQ(x.ports, y.ports) << x.name;
        EXPECT_EQ(x.layer, y.layer) << x.name;
        EXPECT_EQ(x.relay, y.relay) << x.name;
    }
    ASSERT_EQ(a.GetLinks().size(), b.GetLinks().size());
    for (size_t i = 0; i < a.GetLinks().size(); ++i)
    {
        EXPECT_EQ(a.GetLinks()[i].a, b.GetLinks()[i].a) << i;
        EXPECT_EQ(a.GetLinks()[i].b, b.GetLinks()[i].b) << i;
    }
}

/// "name:port" of the far end of (node, port), or "-".
std::string
PeerOf(const Topology& t, const std::string& node, PortNo port)
{
    NodeId n = t.GetNodeId(node);
    PortRef r = t.GetPeer(n, port);
    return r.node == kNone ? "-" : t.GetNode(r.node).name + ":" + std::to_string(r.port);
}

/// Every rule as (node name, tag, in, out, new tag).
std::set<std::tuple<std::string, int, int, int, int>>
AllRules(const Topology& t, const TagRules& rules)
{
    std::set<std::tuple<std::string, int, int, int, int>> s;
    for (NodeId n = 0; n < t.GetNNodes(); ++n)
    {
        if (!t.IsForwarder(n))
        {
            continue;
        }
        for (const Rule& r : rules.GetRules(n))
        {
            s.emplace(t.GetNode(n).name, r.tag, r.inPort, r.outPort, r.newTag);
        }
    }
    return s;
}

const char* kTwoSwitches = R"({"nodes": [
  {"name": "A", "kind": "switch", "ports": 2},
  {"name": "B", "kind": "switch", "ports": 2}],
 "links": [{"a": "A", "a_port": 0, "b": "B", "b_port": 1}]})";

} // namespace

// ---------------------------------------------------------------------------
// Topology JSON

TEST(TopologyJsonTest, RoundTrip)
{
    std::vector<Topology> topos;
    topos.push_back(MakeClos(PaperTestbedClos()));
    topos.push_back(MakeFatTree(4));
    topos.push_back(MakeBCube(3, 1)); // relaying hosts
    topos.push_back(MakeJellyfish(10, 6, 3, 5));
    for (const Topology& t : topos)
    {
        std::ostringstream out;
        WriteTopologyJson(t, out);
        std::istringstream in(out.str());
        Topology back = ReadTopologyJson(in, "roundtrip");
        ExpectSameTopology(t, back);
    }
    // an empty topology
    std::ostringstream out;
    WriteTopologyJson(Topology(), out);
    std::istringstream in(out.str());
    EXPECT_EQ(ReadTopologyJson(in, "empty").GetNNodes(), 0u);
}

TEST(TopologyJsonTest, WrittenFormat)
{
    Topology t = MakeClos(PaperTestbedClos());
    std::ostringstream out;
    WriteTopologyJson(t, out);
    nlohmann::json j = nlohmann::json::parse(out.str());
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j.size(), 2u);
    ASSERT_EQ(j["nodes"].size(), 26u);
    EXPECT_EQ(j["nodes"][0],
              nlohmann::json::parse(R"({"name": "T1", "kind": "switch", "ports": 6, "layer": 1})"));
    EXPECT_EQ(j["nodes"][25],
              nlohmann::json::parse(R"({"name": "H16", "kind": "host", "ports": 1, "layer": 0})"));
    ASSERT_EQ(j["links"].size(), 32u);
    EXPECT_EQ(j["links"][0],
              nlohmann::json::parse(R"({"a": "T1", "a_port": 0, "b": "H1", "b_port": 0})"));

    Topology b = MakeBCube(2, 1);
    std::ostringstream bout;
    WriteTopologyJson(b, bout);
    nlohmann::json bj = nlohmann::json::parse(bout.str());
    EXPECT_EQ(bj["nodes"][0]["relay"], true);
    EXPECT_FALSE(bj["nodes"][4].contains("relay")); // a switch
}

TEST(TopologyJsonTest, NamesAreEscaped)
{
    Topology t;
    t.AddNode("a\"b\\c", NodeKind::SWITCH, 1);
    t.AddNode("x\x01y", NodeKind::HOST, 1);
    t.Connect(0, 1);
    std::ostringstream out;
    WriteTopologyJson(t, out);
    nlohmann::json j = nlohmann::json::parse(out.str());
    EXPECT_EQ(j["nodes"][0]["name"], "a\"b\\c");
    EXPECT_EQ(j["nodes"][1]["name"], "x\x01y");
    std::istringstream in(out.str());
    ExpectSameTopology(t, ReadTopologyJson(in, "esc"));
}

TEST(TopologyJsonTest, HandWrittenFile)
{
    Topology t = ReadTopologyFile(DataDir() + "/small-topo.json", 7); // hosts ignored for JSON
    ASSERT_EQ(t.GetNNodes(), 4u);
    EXPECT_EQ(t.GetNode(t.GetNodeId("A")).layer, 1);
    EXPECT_EQ(t.GetNode(t.GetNodeId("A")).ports, 3u);
    EXPECT_EQ(t.GetNode(t.GetNodeId("B")).layer, -1);
    EXPECT_EQ(t.GetNode(t.GetNodeId("H1")).kind, NodeKind::HOST);
    EXPECT_FALSE(t.GetNode(t.GetNodeId("H1")).relay);
    EXPECT_TRUE(t.GetNode(t.GetNodeId("R")).relay);
    EXPECT_EQ(t.GetLinks().size(), 3u);
    EXPECT_EQ(PeerOf(t, "A", 0), "H1:0");
    EXPECT_EQ(PeerOf(t, "A", 1), "-");
    EXPECT_EQ(PeerOf(t, "A", 2), "B:1");
    EXPECT_EQ(PeerOf(t, "B", 0), "R:1");
    EXPECT_EQ(PeerOf(t, "R", 0), "-");
}

TEST(TopologyJsonTest, BadInputNamesTheCulprit)
{
    struct Case
    {
        const char* json;
        std::vector<const char*> expect;
    };

    const std::vector<Case> cases = {
        {R"({"nodes": [], "links": [)", {"bad.json", "invalid JSON", "line 1"}},
        {"", {"bad.json", "invalid JSON"}},
        {R"([1, 2])", {"bad.json", "top level must be a JSON object"}},
        {R"(5)", {"bad.json", "top level must be a JSON object"}},
        {R"({"nodes": [], "links": []} x)", {"bad.json", "invalid JSON"}},
        {R"({"links": []})", {"bad.json", "missing top-level field \"nodes\""}},
        {R"({"nodes": []})", {"bad.json", "missing top-level field \"links\""}},
        {R"({"nodes": {}, "links": []})", {"\"nodes\" must be an array"}},
        {R"({"nodes": [3], "links": []})", {"nodes[0]", "must be a JSON object"}},
        {R"({"nodes": [{"kind": "switch", "ports": 1}], "links": []})",
         {"bad.json", "nodes[0]", "missing field \"name\""}},
        {R"({"nodes": [{"name": 5, "kind": "switch", "ports": 1}], "links": []})",
         {"nodes[0]", "field \"name\" must be a string"}},
        {R"({"nodes": [{"name": "A", "ports": 1}], "links": []})",
         {"node 'A' (nodes[0])", "missing field \"kind\""}},
        {R"({"nodes": [{"name": "A", "kind": "router", "ports": 1}], "links": []})",
         {"node 'A'", "unknown kind \"router\""}},
        {R"({"nodes": [{"name": "A", "kind": "switch"}], "links": []})",
         {"node 'A'", "missing field \"ports\""}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": -1}], "links": []})",
         {"node 'A'", "\"ports\" must be a non-negative integer, got -1"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2.5}], "links": []})",
         {"node 'A'", "\"ports\" must be a non-negative integer, got 2.5"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": "4"}], "links": []})",
         {"node 'A'", "\"ports\" must be a non-negative integer"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 99999999}], "links": []})",
         {"node 'A'", "\"ports\" is 99999999"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 1, "layer": "x"}], "links": []})",
         {"node 'A'", "\"layer\" must be an integer"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 1, "layer": -2}], "links": []})",
         {"node 'A'", "\"layer\" is -2"}},
        {R"({"nodes": [{"name": "A", "kind": "host", "ports": 1, "relay": 1}], "links": []})",
         {"node 'A'", "\"relay\" must be true or false"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 1, "relay": true}], "links": []})",
         {"node 'A'", "only allowed on hosts"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 1},
                       {"name": "A", "kind": "host", "ports": 1}], "links": []})",
         {"bad.json", "nodes[1]", "duplicate node name 'A'"}},
        {R"({"nodes": [{"name": "", "kind": "switch", "ports": 1}], "links": []})",
         {"nodes[0]", "must not be empty"}},
        {R"({"nodes": [{"name": "a b", "kind": "switch", "ports": 1}], "links": []})",
         {"nodes[0]", "'a b'"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2}],
             "links": [{"a": "A", "a_port": 0, "b": "Z", "b_port": 0}]})",
         {"bad.json", "links[0]", "unknown node 'Z'", "\"b\""}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2}],
             "links": [{"a_port": 0, "b": "A", "b_port": 0}]})",
         {"links[0]", "missing field \"a\""}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2},
                       {"name": "B", "kind": "switch", "ports": 2}],
             "links": [{"a": "A", "a_port": 0, "b": "B"}]})",
         {"links[0]", "missing field \"b_port\""}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2},
                       {"name": "B", "kind": "switch", "ports": 2}],
             "links": [{"a": "A", "a_port": 2, "b": "B", "b_port": 0}]})",
         {"bad.json", "links[0]", "port 2 of node 'A'", "out of range", "has 2 ports"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2},
                       {"name": "B", "kind": "switch", "ports": 2}],
             "links": [{"a": "A", "a_port": 0, "b": "B", "b_port": -1}]})",
         {"links[0]", "\"b_port\" must be a non-negative integer"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2},
                       {"name": "B", "kind": "switch", "ports": 2},
                       {"name": "C", "kind": "switch", "ports": 2}],
             "links": [{"a": "A", "a_port": 0, "b": "B", "b_port": 0},
                       {"a": "C", "a_port": 0, "b": "B", "b_port": 0}]})",
         {"bad.json", "links[1]", "port 0 of node 'B'", "already used by links[0]"}},
        {R"({"nodes": [{"name": "A", "kind": "switch", "ports": 2}],
             "links": [{"a": "A", "a_port": 0, "b": "A", "b_port": 1}]})",
         {"links[0]", "'A' to itself"}},
        {R"({"nodes": [], "links": [7]})", {"links[0]", "must be a JSON object"}},
    };
    for (const Case& c : cases)
    {
        std::string msg = ErrorOfJson(c.json);
        EXPECT_FALSE(msg.empty()) << "no error for: " << c.json;
        for (const char* e : c.expect)
        {
            EXPECT_TRUE(HasSubstr(msg, e)) << "input: " << c.json;
        }
    }
    // the valid base case really is valid
    EXPECT_EQ(ErrorOfJson(kTwoSwitches), "");
}

// ---------------------------------------------------------------------------
// GraphML

TEST(GraphmlTest, TopologyZooLikeRing)
{
    // ring5.graphml: ring 0-1-2-3-4-0, chord 0-2, edge 1-2 twice, self-loop 3-3
    Topology t = ReadTopologyFile(DataDir() + "/ring5.graphml", 2);
    ASSERT_EQ(t.GetSwitches().size(), 5u);
    ASSERT_EQ(t.GetHosts().size(), 10u);
    EXPECT_EQ(t.GetLinks().size(), 7u + 10u); // self-loop skipped, parallel edge kept
    // names: unique labels; the two "Paris" nodes and the unlabelled node by id
    const std::vector<std::string> names = {"Amsterdam", "New_York", "2", "3", "4"};
    const std::vector<uint32_t> degree = {3, 3, 4, 2, 2};
    for (uint32_t i = 0; i < 5; ++i)
    {
        NodeId n = t.FindNode(names[i]);
        ASSERT_NE(n, kNone) << names[i];
        EXPECT_EQ(n, i); // switches keep file order
        EXPECT_EQ(t.GetNode(n).kind, NodeKind::SWITCH);
        EXPECT_EQ(t.GetNode(n).layer, -1);
        EXPECT_EQ(t.GetNode(n).ports, 2 + degree[i]) << names[i];
        // host ports first: H(2i+1), H(2i+2)
        EXPECT_EQ(PeerOf(t, names[i], 0), "H" + std::to_string(2 * i + 1) + ":0");
        EXPECT_EQ(PeerOf(t, names[i], 1), "H" + std::to_string(2 * i + 2) + ":0");
    }
    // edge ports in file order
    EXPECT_EQ(PeerOf(t, "Amsterdam", 2), "New_York:2"); // 0-1
    EXPECT_EQ(PeerOf(t, "New_York", 3), "2:2");         // 1-2
    EXPECT_EQ(PeerOf(t, "2", 3), "3:2");                // 2-3
    EXPECT_EQ(PeerOf(t, "3", 3), "4:2");                // 3-4
    EXPECT_EQ(PeerOf(t, "4", 3), "Amsterdam:3");        // 4-0
    EXPECT_EQ(PeerOf(t, "Amsterdam", 4), "2:4");        // chord 0-2
    EXPECT_EQ(PeerOf(t, "2", 5), "New_York:4");         // duplicate 2-1
    for (NodeId h : t.GetHosts())
    {
        EXPECT_EQ(t.GetNode(h).ports, 1u);
        EXPECT_FALSE(t.GetNode(h).relay);
    }
    EXPECT_TRUE(t.IsConnected());

    // no hosts
    Topology bare = ReadTopologyFile(DataDir() + "/ring5.graphml", 0);
    EXPECT_EQ(bare.GetNNodes(), 5u);
    EXPECT_EQ(bare.GetLinks().size(), 7u);
    EXPECT_EQ(PeerOf(bare, "Amsterdam", 0), "New_York:0");
}

TEST(GraphmlTest, NamesNeverCollide)
{
    // label "H1" would clash with a host name; label "n0" with an id taken
    // before; node n2's id is taken by node n1's label.  A directed graph.
    const char* text = R"(<?xml version="1.0"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key attr.name="label" attr.type="string" for="node" id="lbl"/>
  <graph edgedefault="directed">
    <node id="n0"><data key="lbl">H1</data></node>
    <node id="n1"><data key="lbl">n2</data></node>
    <node id="n2"/>
    <node id="n3"><data key="lbl">n0</data></node>
    <edge source="n0" target="n1"/>
    <edge source="n2" target="n1" directed="false"/>
    <edge source="n3" target="n2"/>
  </graph>
</graphml>)";
    std::istringstream in(text);
    Topology t = ReadGraphml(in, "collide.graphml", 1);
    ASSERT_EQ(t.GetNNodes(), 8u);
    EXPECT_EQ(t.GetNode(0).name, "n0");   // label "H1" is a host's name: the id
    EXPECT_EQ(t.GetNode(1).name, "n2");   // unique label
    EXPECT_EQ(t.GetNode(2).name, "n2_2"); // no label, id taken: suffixed id
    EXPECT_EQ(t.GetNode(3).name, "n3");   // label "n0" taken: the id
    for (int h = 0; h < 4; ++h)
    {
        EXPECT_EQ(t.GetNode(4 + h).name, "H" + std::to_string(h + 1));
    }
    EXPECT_EQ(t.GetLinks().size(), 4u + 3u);
    EXPECT_EQ(PeerOf(t, "n2", 2), "n2_2:1"); // n1: host, n0 edge, this edge
}

TEST(GraphmlTest, BadInputNamesTheFile)
{
    EXPECT_TRUE(HasAll(ErrorOfGraphml("<graphml><graph edgedefault='undirected'><node id='a'>"),
                       {"bad.graphml", "malformed GraphML"}));
    EXPECT_TRUE(HasAll(ErrorOfGraphml("<graphml>\n<graph>\n<node id='a'/>\n<node id=>\n</graph>"
                                      "</graphml>"),
                       {"bad.graphml:4", "malformed"}));
    EXPECT_TRUE(HasAll(ErrorOfGraphml("<foo/>"), {"bad.graphml", "no <graphml> root"}));
    EXPECT_TRUE(HasAll(ErrorOfGraphml("<graphml><key id='x' for='node'/></graphml>"),
                       {"bad.graphml", "no <graph> element"}));
    EXPECT_TRUE(HasSubstr(ErrorOfGraphml("<graphml><graph/></graphml>"), "no nodes"));
    EXPECT_TRUE(HasAll(ErrorOfGraphml("<graphml><graph><node id='a'/><node/></graph></graphml>"),
                       {"bad.graphml", "<node> number 2 has no id"}));
    EXPECT_TRUE(
        HasAll(ErrorOfGraphml("<graphml><graph><node id='a'/><node id='a'/></graph></graphml>"),
               {"bad.graphml", "duplicate GraphML node id 'a'"}));
    EXPECT_TRUE(HasAll(ErrorOfGraphml("<graphml><graph><node id='a'/><node id='b'/>"
                                      "<edge source='a' target='c'/></graph></graphml>"),
                       {"bad.graphml", "unknown node 'c'"}));
    EXPECT_TRUE(HasSubstr(ErrorOfGraphml("<graphml><graph><node id='a'/><edge source='a'/></graph>"
                                         "</graphml>"),
                          "lacks a source or target"));
    EXPECT_TRUE(HasAll(ErrorOfGraphml("<graphml><graph><node id='a'/></graph></graphml>", 2000000),
                       {"bad.graphml", "node 'a' has too many ports"}));
    EXPECT_TRUE(HasAll(
        ErrorOfGraphml("<graphml><graph><node id='a'/><node id='b'/></graph></graphml>", 10000000),
        {"bad.graphml", "too large"}));
}

TEST(TopologyFileTest, FormatDetectionAndMissingFile)
{
    EXPECT_TRUE(HasSubstr(ErrorOf([] { ReadTopologyFile("/nonexistent/topo.json", 1); }),
                          "cannot open topology file '/nonexistent/topo.json'"));
    // GraphML content in a file whose name says nothing: sniffed by '<'
    std::string path = ::testing::TempDir() + "tagger-io-test-sniff.txt";
    {
        std::ofstream f(path);
        f << "\n  <graphml><graph><node id='a'/><node id='b'/>"
             "<edge source='a' target='b'/></graph></graphml>";
    }
    Topology t = ReadTopologyFile(path, 1);
    EXPECT_EQ(t.GetNNodes(), 4u);
    // a JSON error names the file
    {
        std::ofstream f(path);
        f << "{\"nodes\": [}";
    }
    EXPECT_TRUE(HasAll(ErrorOf([&] { ReadTopologyFile(path, 1); }), {path, "invalid JSON"}));
    std::remove(path.c_str());
}

// ---------------------------------------------------------------------------
// Rules JSON

namespace
{

/// Some rules on the testbed: T1 bounce-style rules plus rules at L1 and S1.
TagRules
TestbedRules(const Topology& t)
{
    TagRules rules(t);
    NodeId t1 = t.GetNodeId("T1");
    // tag 1 from hosts 0,1,3 up to L1 (port 4): stays 1
    for (PortNo in : {0u, 1u, 3u})
    {
        rules.Set(t1, 1, in, 4, 1);
    }
    // tag 1 from L2 (port 5) to L1 (port 4): bounce -> 2; down to hosts: keep 1
    rules.Set(t1, 1, 5, 4, 2);
    rules.Set(t1, 1, 4, 0, 1);
    rules.Set(t1, 1, 5, 0, 1);
    rules.Set(t1, 2, 4, 2, 2);
    NodeId l1 = t.GetNodeId("L1");
    rules.Set(l1, 1, 0, 2, 1);
    rules.Set(l1, 1, 0, 3, 1);
    rules.Set(l1, 1, 1, 2, 1);
    rules.Set(l1, 2, 2, 1, 2);
    return rules;
}

} // namespace

TEST(RulesJsonTest, WrittenFormatAndRoundTrip)
{
    Topology t = MakeClos(PaperTestbedClos());
    TagRules rules = TestbedRules(t);
    std::vector<Path> elp = {{t.GetNodeId("H1"),
                              t.GetNodeId("T1"),
                              t.GetNodeId("L1"),
                              t.GetNodeId("T2"),
                              t.GetNodeId("H5")}};
    RulesOutput out;
    out.losslessTags = 2;
    out.rules = &rules;
    out.elp = &elp;
    out.stats["max_rules_per_switch"] = 7;
    out.stats["runtime_s"] = 0.1;
    std::ostringstream os;
    WriteRulesJson(t, out, os);

    // check the text independently with nlohmann
    nlohmann::json j = nlohmann::json::parse(os.str());
    EXPECT_EQ(j["nodes"].size(), 26u);
    EXPECT_EQ(j["links"].size(), 32u);
    EXPECT_EQ(j["lossless_tags"], 2);
    ASSERT_TRUE(j["rules"].is_object());
    EXPECT_EQ(j["rules"].size(), 2u); // only T1 and L1 have rules
    ASSERT_EQ(j["rules"]["T1"].size(), 7u);
    EXPECT_EQ(j["rules"]["T1"][0],
              nlohmann::json::parse(R"({"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1})"));
    EXPECT_EQ(j["rules"]["L1"].size(), 4u);
    EXPECT_EQ(j["elp"], nlohmann::json::parse(R"([["H1", "T1", "L1", "T2", "H5"]])"));
    EXPECT_EQ(j["stats"],
              nlohmann::json::parse(R"({"max_rules_per_switch": 7, "runtime_s": 0.1})"));
    EXPECT_TRUE(j["stats"]["max_rules_per_switch"].is_number_integer());

    // every plain rule of the file equals the TCAM of the file, for every key
    for (const char* node : {"T1", "L1"})
    {
        const auto& plain = j["rules"][node];
        const auto& tcam = j["tcam"][node];
        ASSERT_TRUE(tcam.is_array()) << node;
        uint32_t ports = t.GetNode(t.GetNodeId(node)).ports;
        for (int tag = 1; tag <= 3; ++tag)
        {
            for (uint32_t in = 0; in < ports; ++in)
            {
                for (uint32_t outp = 0; outp < ports; ++outp)
                {
                    int want = 0;
                    for (const auto& r : plain)
                    {
                        if (r["tag"] == tag && r["in_port"] == in && r["out_port"] == outp)
                        {
                            want = r["new_tag"];
                        }
                    }
                    int got = 0;
                    for (const auto& e : tcam)
                    {
                        auto has = [](const nlohmann::json& a, uint32_t p) {
                            for (const auto& x : a)
                            {
                                if (x == p)
                                {
                                    return true;
                                }
                            }
                            return false;
                        };
                        if (e["tag"] == tag && has(e["in_ports"], in) && has(e["out_ports"], outp))
                        {
                            got = e["new_tag"];
                            break;
                        }
                    }
                    EXPECT_EQ(got, want) << node << " " << tag << " " << in << " " << outp;
                }
            }
        }
    }
    // T1, tag 1, new tag 1, out port 4: in ports {0, 1, 3} aggregated
    bool found = false;
    for (const auto& e : j["tcam"]["T1"])
    {
        if (e["out_ports"] == nlohmann::json::parse("[4]") && e["new_tag"] == 1)
        {
            EXPECT_EQ(e["in_ports"], nlohmann::json::parse("[0, 1, 3]"));
            found = true;
        }
    }
    EXPECT_TRUE(found);

    // read back
    uint32_t lossless = 0;
    std::istringstream in(os.str());
    TagRules back = ReadRulesJson(t, in, "rules.json", lossless);
    EXPECT_EQ(lossless, 2u);
    EXPECT_EQ(AllRules(t, back), AllRules(t, rules));
    EXPECT_EQ(AllRules(t, back).size(), 11u);

    // the topology part reads back as a topology
    std::istringstream tin(os.str());
    ExpectSameTopology(t, ReadTopologyJson(tin, "rules.json"));
}

TEST(RulesJsonTest, NoRulesNoElp)
{
    Topology t = MakeClos(PaperTestbedClos());
    TagRules rules(t);
    RulesOutput out;
    out.rules = &rules;
    std::ostringstream os;
    WriteRulesJson(t, out, os);
    nlohmann::json j = nlohmann::json::parse(os.str());
    EXPECT_EQ(j["lossless_tags"], 0);
    EXPECT_TRUE(j["rules"].is_object() && j["rules"].empty());
    EXPECT_TRUE(j["tcam"].is_object() && j["tcam"].empty());
    EXPECT_FALSE(j.contains("elp"));
    EXPECT_TRUE(j["stats"].is_object() && j["stats"].empty());
    uint32_t lossless = 99;
    std::istringstream in(os.str());
    TagRules back = ReadRulesJson(t, in, "empty-rules", lossless);
    EXPECT_EQ(lossless, 0u);
    EXPECT_TRUE(AllRules(t, back).empty());
}

TEST(RulesJsonTest, RelayingHostRules)
{
    Topology t = MakeBCube(2, 1);
    TagRules rules(t);
    rules.Set(t.GetNodeId("H01"), 1, 0, 1, 2);
    RulesOutput out;
    out.losslessTags = 2;
    out.rules = &rules;
    std::ostringstream os;
    WriteRulesJson(t, out, os);
    uint32_t lossless = 0;
    std::istringstream in(os.str());
    TagRules back = ReadRulesJson(t, in, "bcube", lossless);
    EXPECT_EQ(back.Get(t.GetNodeId("H01"), 1, 0, 1), 2);
    EXPECT_EQ(AllRules(t, back).size(), 1u);
}

TEST(RulesJsonTest, WrongTopologyForWriting)
{
    Topology t = MakeClos(PaperTestbedClos());
    Topology other = MakeFatTree(4);
    TagRules rules(other);
    RulesOutput out;
    out.rules = &rules;
    std::ostringstream os;
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { WriteRulesJson(t, out, os); }), "different topology"));
}

TEST(RulesJsonTest, BadInputNamesTheCulprit)
{
    Topology t = MakeClos(PaperTestbedClos());
    auto err = [&t](const std::string& text) {
        return ErrorOf([&] {
            uint32_t lossless = 0;
            std::istringstream in(text);
            ReadRulesJson(t, in, "r.json", lossless);
        });
    };

    struct Case
    {
        std::string json;
        std::vector<const char*> expect;
    };

    const std::vector<Case> cases = {
        {R"({"rules": {}})", {"r.json", "missing field \"lossless_tags\""}},
        {R"({"lossless_tags": -1, "rules": {}})", {"r.json", "lossless_tags"}},
        {R"({"lossless_tags": 64, "rules": {}})", {"\"lossless_tags\" is 64"}},
        {R"({"lossless_tags": 1})", {"r.json", "missing top-level field \"rules\""}},
        {R"({"lossless_tags": 1, "rules": []})", {"\"rules\" must be an object"}},
        {R"({"lossless_tags": 1, "rules": {"Q9": []}})", {"r.json", "unknown node 'Q9'"}},
        {R"({"lossless_tags": 1, "rules": {"H1": []}})", {"r.json", "'H1' is a host"}},
        {R"({"lossless_tags": 1, "rules": {"T1": {}}})", {"node 'T1'", "must be an array"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [{"tag": 1, "in_port": 0, "out_port": 4}]}})",
         {"node 'T1', entry 0", "missing field \"new_tag\""}},
        {R"({"lossless_tags": 1, "rules": {"T1": [{"tag": 0, "in_port": 0, "out_port": 4,
             "new_tag": 1}]}})",
         {"node 'T1', entry 0", "\"tag\" is 0"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [{"tag": 64, "in_port": 0, "out_port": 4,
             "new_tag": 1}]}})",
         {"node 'T1', entry 0", "\"tag\" is 64"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [{"tag": 1, "in_port": 0, "out_port": 6,
             "new_tag": 1}]}})",
         {"node 'T1', entry 0", "port 6 is out of range", "6 ports"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [{"tag": 1, "in_port": 1.5, "out_port": 2,
             "new_tag": 1}]}})",
         {"node 'T1', entry 0", "\"in_port\" must be a non-negative integer"}},
        {R"({"lossless_tags": 2, "rules": {"T1": [
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1},
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 2}]}})",
         {"r.json", "node 'T1', entry 1", "conflicting rule", "tag 1, in_port 0, out_port 4"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [
             {"tag": 1, "in_port": 5, "out_port": 4, "new_tag": 2}]}})",
         {"r.json", "lossless_tags is 1", "use 2"}},
        {R"({"lossless_tags": 1, "nodes": [{"name": "T1", "kind": "switch", "ports": 5}],
             "rules": {}})",
         {"node 'T1' (nodes[0])", "5 ports in the file but 6"}},
        {R"({"lossless_tags": 1, "nodes": [{"name": "X7", "kind": "switch", "ports": 5}],
             "rules": {}})",
         {"node 'X7'", "not in the topology"}},
        // T1 port 4 goes to L1 port 0 in the testbed (the file: L2 port 0)
        {R"({"lossless_tags": 1, "links": [{"a": "T1", "a_port": 4, "b": "L2", "b_port": 0}],
             "rules": {}})",
         {"links[0]", "'T1' port 4 goes to 'L2' port 0 in the file but not in the topology"}},
        {R"({"lossless_tags": 1, "links": [{"a": "T1", "a_port": 4, "b": "L1", "b_port": 0},
             {"a": "T1", "a_port": 9, "b": "L1", "b_port": 0}], "rules": {}})",
         {"links[1]", "'T1' port 9 is not in the topology"}},
        {R"({"lossless_tags": 1, "links": [{"a": "Q1", "a_port": 0, "b": "L1", "b_port": 0}],
             "rules": {}})",
         {"links[0]", "'Q1' port 0 is not in the topology"}},
        {R"({"lossless_tags": 1, "rules": {)", {"r.json", "invalid JSON"}},
        {R"([{"lossless_tags": 1, "rules": {}}])", {"r.json", "top level must be a JSON object"}},
        {R"("rules")", {"r.json", "top level must be a JSON object"}},
        {R"({"lossless_tags": 1, "rules": [{"T1": []}]})",
         {"r.json", "\"rules\" must be an object"}},
        {R"({"lossless_tags": 1, "rules": 7})", {"r.json", "\"rules\" must be an object", "got 7"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [5]}})",
         {"node 'T1', entry 0", "must be a JSON object, got 5"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [[1, 0, 4, 1]]}})",
         {"node 'T1', entry 0", "must be a JSON object, got an array"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1},
             {"tag": {"v": 1}, "in_port": 0, "out_port": 4, "new_tag": 1}]}})",
         {"node 'T1', entry 1", "\"tag\" must be a non-negative integer, got an object"}},
        {R"({"lossless_tags": 1, "rules": {"T1": [
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": "1"}]}})",
         {"node 'T1', entry 0", "\"new_tag\" must be a non-negative integer, got \"1\""}},
        {R"({"lossless_tags": 1, "rules": {"T1": [], "L1": [
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1},
             {"tag": 1, "in_port": 0, "out_port": 3, "new_tag": 1},
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1}]}})",
         {"node 'L1', entry 0", "port 4 is out of range: 'L1' has 4 ports"}},
        {R"({"lossless_tags": "2", "rules": {}})", {"\"lossless_tags\" must be a non-negative"}},
    };
    for (const Case& c : cases)
    {
        std::string msg = err(c.json);
        EXPECT_FALSE(msg.empty()) << "no error for: " << c.json;
        for (const char* e : c.expect)
        {
            EXPECT_TRUE(HasSubstr(msg, e)) << "input: " << c.json;
        }
    }
    // unknown members anywhere are ignored, as are tcam / elp / stats content
    EXPECT_EQ(err(R"({"comment": {"x": [1, {"y": null}]}, "tcam": 5, "elp": [[true]],
                     "rules": {"T1": [{"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1,
                                       "why": {"a": [1, 2]}, "note": "x"}]},
                     "lossless_tags": 1})"),
              "");
    // duplicates that agree are fine; new_tag 0 means "no rule"
    EXPECT_EQ(err(R"({"lossless_tags": 1, "rules": {"T1": [
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1},
             {"tag": 1, "in_port": 0, "out_port": 4, "new_tag": 1},
             {"tag": 1, "in_port": 1, "out_port": 4, "new_tag": 0}]}})"),
              "");
}

// ---------------------------------------------------------------------------
// Limits: nesting depth (the parsers recurse, or their values do), file size, line length

namespace
{

/// `depth` levels of XML elements: the <graphml> root, one <graph> with two nodes, and
/// depth - 2 nested <data> elements inside the first node.
std::string
DeepGraphml(uint32_t depth)
{
    std::string open;
    std::string close;
    for (uint32_t d = 3; d < depth; ++d)
    {
        open += "<data key='x'>";
        close += "</data>";
    }
    return "<?xml version='1.0'?>\n<!-- a comment <a> <b> -->"
           "<!DOCTYPE graphml [<!ELEMENT graphml ANY>]>\n<graphml><graph>"
           "<node id='a'>" +
           (depth >= 3 ? open + "<data key='y'/>" + close : std::string()) +
           "</node><node id='b'/><edge source='a' target='b'/></graph></graphml>";
}

/// A topology JSON file whose member "extra" makes it `depth` levels deep (the root is 1).
std::string
DeepJson(uint32_t depth)
{
    return R"({"nodes": [{"name": "A", "kind": "switch", "ports": 1},
                         {"name": "B", "kind": "switch", "ports": 1}],
               "links": [{"a": "A", "a_port": 0, "b": "B", "b_port": 0}], "extra": )" +
           std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
}

/// A stream buffer of `size` blanks made as they are read (no copy of a large input).
class Blanks : public std::streambuf
{
  public:
    explicit Blanks(uint64_t size)
        : m_left(size),
          m_buf(65536, ' ')
    {
    }

  protected:
    int_type underflow() override
    {
        if (m_left == 0)
        {
            return traits_type::eof();
        }
        const auto n = static_cast<size_t>(std::min<uint64_t>(m_left, m_buf.size()));
        m_left -= n;
        setg(&m_buf[0], &m_buf[0], &m_buf[0] + n);
        return traits_type::to_int_type(m_buf[0]);
    }

  private:
    uint64_t m_left;
    std::string m_buf;
};

} // namespace

TEST(LimitsTest, GraphmlNestingAndSize)
{
    // the scan counts element levels as the parser does: kMaxXmlDepth levels are read
    std::istringstream ok(DeepGraphml(kMaxXmlDepth));
    EXPECT_EQ(ReadGraphml(ok, "ok.graphml", 0).GetNNodes(), 2u);
    EXPECT_TRUE(HasAll(ErrorOfGraphml(DeepGraphml(kMaxXmlDepth + 1)),
                       {"bad.graphml:3", "nested more than 256 levels", "kMaxXmlDepth"}));
    // 25,000 levels overflowed the stack of Boost's recursive parser before the limit
    EXPECT_TRUE(HasSubstr(ErrorOfGraphml(DeepGraphml(100000)), "kMaxXmlDepth"));
    // self-closing elements, end tags, quoted '>' and '/>' do not deepen the nesting
    std::string flat = "<graphml><graph>";
    for (uint32_t i = 0; i < 2 * kMaxXmlDepth; ++i)
    {
        flat += "<node id='n" + std::to_string(i) + "'><data key=\"a>b/>\">x</data></node>";
    }
    std::istringstream flatIn(flat + "</graph></graphml>");
    EXPECT_EQ(ReadGraphml(flatIn, "flat.graphml", 0).GetNNodes(), 2 * kMaxXmlDepth);
    // a file over kMaxGraphmlBytes is refused while it is read
    Blanks blanks(kMaxGraphmlBytes + 1);
    std::istream big(&blanks);
    EXPECT_TRUE(HasAll(ErrorOf([&] { ReadGraphml(big, "big.graphml", 1); }),
                       {"big.graphml", "larger than the limit of 256 MiB", "kMaxGraphmlBytes"}));
}

TEST(LimitsTest, JsonNesting)
{
    EXPECT_EQ(ErrorOfJson(DeepJson(kMaxJsonDepth)), "");
    EXPECT_TRUE(HasAll(ErrorOfJson(DeepJson(kMaxJsonDepth + 1)),
                       {"bad.json", "nested more than 256 levels", "kMaxJsonDepth"}));
    EXPECT_TRUE(HasSubstr(ErrorOfJson(DeepJson(100000)), "kMaxJsonDepth"));
    // in a kept member (built as a DOM) and in the rules of a rules file as well
    EXPECT_TRUE(HasSubstr(ErrorOfJson("{\"nodes\": " + std::string(kMaxJsonDepth, '[') +
                                      std::string(kMaxJsonDepth, ']') + "}"),
                          "kMaxJsonDepth"));
    Topology t = MakeClos(PaperTestbedClos());
    std::istringstream rules("{\"lossless_tags\": 1, \"rules\": {\"T1\": [{\"tag\": 1, \"x\": " +
                             std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']') +
                             "}]}}");
    uint32_t lossless = 0;
    EXPECT_TRUE(HasAll(ErrorOf([&] { ReadRulesJson(t, rules, "r.json", lossless); }),
                       {"r.json", "kMaxJsonDepth"}));
}

TEST(LimitsTest, LineLength)
{
    bool tooLong = true;
    std::string line;
    std::istringstream in("abc\n\nabcd\nab");
    EXPECT_TRUE(GetLineBounded(in, line, 3, tooLong));
    EXPECT_EQ(line, "abc");
    EXPECT_FALSE(tooLong);
    EXPECT_TRUE(GetLineBounded(in, line, 3, tooLong));
    EXPECT_EQ(line, "");
    EXPECT_TRUE(GetLineBounded(in, line, 3, tooLong));
    EXPECT_TRUE(tooLong);
    EXPECT_EQ(line, "abc");
    std::istringstream last("ab");
    EXPECT_TRUE(GetLineBounded(last, line, 3, tooLong));
    EXPECT_EQ(line, "ab");
    EXPECT_FALSE(tooLong);
    EXPECT_FALSE(GetLineBounded(last, line, 3, tooLong));

    // an ELP file: a line of kMaxLineBytes is read, one byte more is refused
    std::istringstream gml("<graphml><graph><node id='a'/><node id='b'/>"
                           "<edge source='a' target='b'/></graph></graphml>");
    Topology t = ReadGraphml(gml, "two.graphml", 1);
    const std::string path = ::testing::TempDir() + "tagger-io-test-elp.txt";
    const std::string hops = "H1 a b H2 #";
    std::ofstream(path) << hops << std::string(kMaxLineBytes - hops.size(), 'x') << "\n";
    EXPECT_EQ(ReadElpFile(t, path).paths.size(), 1u);
    std::ofstream(path) << hops << std::string(kMaxLineBytes - hops.size() + 1, 'x') << "\n";
    EXPECT_TRUE(HasAll(ErrorOf([&] { ReadElpFile(t, path); }),
                       {path + ":1", "longer than the limit of 1048576 bytes", "kMaxLineBytes"}));
    std::remove(path.c_str());
}
