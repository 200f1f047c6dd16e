/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the compact form of destination-rooted ELPs (ElpNextHops): the
 * next hops the tree and all-shortest families record rebuild the same ELP
 * (MakeNextHopElp), survive a JSON round trip (WriteRulesJson, ReadElpJson,
 * ReadElpFile), and bad next hops are refused; and of the path length limit
 * (kMaxLevel forwarding nodes).
 */

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-io.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "test-util.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

using namespace ns3::tagger;
using ns3::tagger::test::HasSubstr;

namespace
{

/// A triangle S1 S2 S3, hosts H1 (S1) and H3 (S3), and M, a host on S1 and S2
/// that does not relay (a multi-homed source with listed first hops).
Topology
MakeMultiHomed()
{
    Topology t;
    NodeId s1 = t.AddNode("S1", NodeKind::SWITCH, 4);
    NodeId s2 = t.AddNode("S2", NodeKind::SWITCH, 4);
    NodeId s3 = t.AddNode("S3", NodeKind::SWITCH, 4);
    NodeId m = t.AddNode("M", NodeKind::HOST, 2);
    t.Connect(s1, s2);
    t.Connect(s2, s3);
    t.Connect(s1, s3);
    t.Connect(t.AddNode("H1", NodeKind::HOST, 1), s1);
    t.Connect(t.AddNode("H3", NodeKind::HOST, 1), s3);
    t.Connect(m, s1);
    t.Connect(m, s2);
    return t;
}

/// The topologies the round trips run on: random graphs, a Jellyfish, BCube
/// (relaying servers), a multi-homed host.
std::vector<Topology>
Topologies()
{
    std::vector<Topology> v;
    std::mt19937_64 rng(11);
    for (uint32_t n = 3; n < 9; ++n)
    {
        v.push_back(test::MakeRandomTopology(rng, n, 0.5));
    }
    v.push_back(MakeJellyfish(12, 6, 3, 5));
    v.push_back(MakeBCube(3, 1));
    v.push_back(MakeMultiHomed());
    return v;
}

/// Build one family with next hops kept; tree or all shortest paths.
Elp
Family(const Topology& topo, bool tree)
{
    ElpOptions opt;
    opt.keepNextHops = true;
    opt.seed = 3;
    return tree ? MakeShortestPathTreeElp(topo, opt) : MakeShortestPathElp(topo, opt);
}

TEST(ElpNextHopsTest, NextHopsRebuildTheSameElp)
{
    for (const Topology& topo : Topologies())
    {
        for (bool tree : {true, false})
        {
            SCOPED_TRACE(std::to_string(topo.GetNNodes()) + " nodes, tree " + std::to_string(tree));
            Elp elp = Family(topo, tree);
            ASSERT_FALSE(elp.nextHops.empty());
            ASSERT_EQ(elp.paths.size(), elp.pathCount); // small: stored as well
            EXPECT_EQ(elp.nextHopPaths, elp.pathCount);
            Elp again = MakeNextHopElp(topo, elp.nextHops);
            EXPECT_EQ(again.pathCount, elp.pathCount);
            EXPECT_EQ(again.longestPath, elp.longestPath);
            EXPECT_EQ(again.paths, elp.paths);
            EXPECT_EQ(test::DiffHopGraphs(topo, elp.graph, again.graph), "");
            // the same family without next hops kept is the same ELP
            ElpOptions plain;
            plain.seed = 3;
            Elp without =
                tree ? MakeShortestPathTreeElp(topo, plain) : MakeShortestPathElp(topo, plain);
            EXPECT_TRUE(without.nextHops.empty());
            EXPECT_EQ(test::DiffHopGraphs(topo, elp.graph, without.graph), "");
        }
    }
}

TEST(ElpNextHopsTest, TreeHopsAreOneNeighbourOneHopCloser)
{
    // second method: BFS distances over forwarders computed here
    Topology topo = MakeJellyfish(14, 6, 3, 2);
    Elp elp = Family(topo, true);
    ASSERT_EQ(elp.nextHops.size(), topo.GetSwitches().size());
    for (const ElpNextHops& h : elp.nextHops)
    {
        std::vector<int> dist(topo.GetNNodes(), -1);
        std::vector<NodeId> queue{h.root};
        dist[h.root] = 0;
        for (size_t q = 0; q < queue.size(); ++q)
        {
            for (NodeId y : topo.GetSwitches())
            {
                if (dist[y] < 0 && topo.GetPortTo(queue[q], y) != kNone)
                {
                    dist[y] = dist[queue[q]] + 1;
                    queue.push_back(y);
                }
            }
        }
        // every switch but the root is listed, with one next hop one hop closer
        ASSERT_EQ(h.nodes.size(), topo.GetSwitches().size() - 1);
        for (size_t i = 0; i < h.nodes.size(); ++i)
        {
            ASSERT_EQ(h.begin[i + 1] - h.begin[i], 1u);
            const NodeId x = h.nodes[i];
            const NodeId y = h.hops[h.begin[i]];
            EXPECT_NE(topo.GetPortTo(x, y), kNone);
            EXPECT_EQ(dist[y], dist[x] - 1);
        }
    }
}

TEST(ElpNextHopsTest, JsonRoundTripWithExtraPaths)
{
    Topology topo = MakeJellyfish(16, 6, 3, 7);
    Elp elp = Family(topo, true);
    AddRandomPaths(elp, topo, 25, 9);
    ASSERT_EQ(elp.paths.size(), elp.nextHopPaths + 25);
    TagRules rules = TagGreedy(elp.graph);
    std::vector<Path> extra(elp.paths.begin() + elp.nextHopPaths, elp.paths.end());
    RulesOutput out;
    out.rules = &rules;
    out.elp = &extra;
    out.elpNextHops = &elp.nextHops;
    std::stringstream json;
    WriteRulesJson(topo, out, json);
    Elp back = ReadElpJson(topo, json, "test.json");
    EXPECT_EQ(back.pathCount, elp.pathCount);
    EXPECT_EQ(back.longestPath, elp.longestPath);
    EXPECT_EQ(test::DiffHopGraphs(topo, elp.graph, back.graph), "");
    EXPECT_EQ(back.paths, elp.paths);
    // and through ReadElpFile, which recognizes the JSON file
    const std::string file = ::testing::TempDir() + "elp-next-hops-test.json";
    {
        std::ofstream os(file);
        os << json.str();
    }
    Elp fromFile = ReadElpFile(topo, file);
    std::remove(file.c_str());
    EXPECT_EQ(fromFile.pathCount, elp.pathCount);
    EXPECT_EQ(test::DiffHopGraphs(topo, elp.graph, fromFile.graph), "");
}

TEST(ElpNextHopsTest, BadNextHopsAreRefused)
{
    Topology topo = MakeMultiHomed();
    const NodeId s1 = topo.GetNodeId("S1");
    const NodeId s2 = topo.GetNodeId("S2");
    const NodeId s3 = topo.GetNodeId("S3");
    auto error = [&topo](const ElpNextHops& h) {
        try
        {
            MakeNextHopElp(topo, {h});
        }
        catch (const TaggerError& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    ElpNextHops loop;
    loop.root = s3;
    loop.Add(s1, {s2});
    loop.Add(s2, {s1});
    EXPECT_TRUE(HasSubstr(error(loop), "loop"));
    ElpNextHops attached;
    attached.root = s3;
    attached.Add(s1, {s3});
    attached.Add(topo.GetNodeId("H1"), {s1});
    EXPECT_TRUE(HasSubstr(error(attached), "attached host"));
    ElpNextHops dangling;
    dangling.root = s3;
    dangling.Add(s1, {s2}); // S2 has no next hop
    EXPECT_TRUE(HasSubstr(error(dangling), "has no next hop"));
    ElpNextHops toHost;
    toHost.root = topo.GetNodeId("H1"); // attached: its switch is the destination
    EXPECT_TRUE(HasSubstr(error(toHost), "is not a switch nor a host"));
    std::stringstream bad(R"({"elp_next_hops": [{"destination": "S3", "next": {"S1": "X"}}]})");
    try
    {
        ReadElpJson(topo, bad, "bad.json");
        ADD_FAILURE() << "no error";
    }
    catch (const TaggerError& e)
    {
        EXPECT_TRUE(HasSubstr(e.what(), "bad.json: elp_next_hops[0].next.S1: \"X\""));
    }
}

TEST(ElpNextHopsTest, PathsOfMoreThanKMaxLevelForwardersAreRefusedNamingTheLimit)
{
    ASSERT_EQ(kMaxLevel, 63u);
    // 63 switches: accepted (the longest ELP path is 64 links)
    Topology ok = test::MakeLine(kMaxLevel);
    Elp elp = MakeShortestPathTreeElp(ok);
    EXPECT_EQ(elp.longestPath, kMaxLevel + 1);
    EXPECT_EQ(elp.pathCount, 2u);
    // 67 switches (a random loop-free path in a sparse graph can be that long)
    Topology chain = test::MakeLine(67);
    Path path;
    for (NodeId n = 0; n < chain.GetNNodes(); ++n)
    {
        path.push_back(n); // HA S1 .. S67 HB, in id order
    }
    try
    {
        MakeElpFromPaths(chain, {path});
        ADD_FAILURE() << "no error";
    }
    catch (const TaggerError& e)
    {
        EXPECT_TRUE(HasSubstr(e.what(), "67 forwarding nodes; at most 63"));
    }
    try
    {
        MakeShortestPathTreeElp(chain);
        ADD_FAILURE() << "no error";
    }
    catch (const TaggerError& e)
    {
        EXPECT_TRUE(HasSubstr(e.what(), "more than 63 forwarding nodes"));
    }
}

} // namespace
