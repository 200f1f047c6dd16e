/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the TCAM compression of section VII-C of the Tagger paper: the
 * compressed entries must match exactly the same (tag, in, out) triples as the
 * plain rules, and compress as the header describes (group by (tag, new tag),
 * aggregate in ports per out port, share entries between out ports with equal
 * in-port sets).
 */

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology.h"
#include "test-util.h"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>

using namespace ns3::tagger;
using namespace ns3::tagger::test;

namespace
{

/// A topology of unconnected switches with the given port counts (rules do
/// not need links).
Topology
MakeBareSwitches(const std::vector<uint32_t>& ports)
{
    Topology t;
    for (size_t i = 0; i < ports.size(); ++i)
    {
        t.AddNode("X" + std::to_string(i + 1), NodeKind::SWITCH, ports[i]);
    }
    return t;
}

/**
 * Structural checks of one node's TCAM against its plain rules:
 * - exact equivalence for every (tag, in, out), tags 0 .. max + 2, hairpins included;
 * - entries are disjoint (at most one entry matches any triple);
 * - ports sorted, unique, non-empty; no entry rewrites to the lossy tag;
 * - for each (tag, new tag, out) one entry at most, and the number of entries
 *   is the number of distinct in-port sets per (tag, new tag) group;
 * - never more entries than plain rules.
 */
void
CheckNodeTcam(const TagRules& rules, NodeId n)
{
    const Topology& topo = rules.GetTopology();
    const uint32_t ports = topo.GetNode(n).ports;
    std::vector<TcamEntry> tcam = CompressTcam(rules, n);
    ASSERT_LE(tcam.size(), rules.CountRules(n));
    for (const TcamEntry& e : tcam)
    {
        ASSERT_FALSE(e.inPorts.empty());
        ASSERT_FALSE(e.outPorts.empty());
        EXPECT_TRUE(std::is_sorted(e.inPorts.begin(), e.inPorts.end()));
        EXPECT_TRUE(std::is_sorted(e.outPorts.begin(), e.outPorts.end()));
        EXPECT_EQ(std::adjacent_find(e.inPorts.begin(), e.inPorts.end()), e.inPorts.end());
        EXPECT_EQ(std::adjacent_find(e.outPorts.begin(), e.outPorts.end()), e.outPorts.end());
        EXPECT_NE(e.newTag, kLossyTag);
        EXPECT_NE(e.tag, kLossyTag);
    }
    const uint32_t maxTag = rules.GetMaxTag() + 2u;
    for (uint32_t t = 0; t <= maxTag; ++t)
    {
        for (PortNo i = 0; i < ports; ++i)
        {
            for (PortNo o = 0; o < ports; ++o)
            {
                int matches = 0;
                for (const TcamEntry& e : tcam)
                {
                    if (e.tag == t && std::binary_search(e.inPorts.begin(), e.inPorts.end(), i) &&
                        std::binary_search(e.outPorts.begin(), e.outPorts.end(), o))
                    {
                        ++matches;
                    }
                }
                ASSERT_LE(matches, 1)
                    << "overlapping entries at tag " << t << " in " << i << " out " << o;
                ASSERT_EQ(LookupTcam(tcam, static_cast<Tag>(t), i, o),
                          rules.Get(n, static_cast<Tag>(t), i, o))
                    << "tag " << t << " in " << i << " out " << o;
            }
        }
    }
    // expected entry count from the plain rules
    std::map<std::tuple<int, int, int>, std::set<PortNo>> inSet; // (tag, new, out) -> ins
    for (const Rule& r : rules.GetRules(n))
    {
        inSet[{r.tag, r.newTag, r.outPort}].insert(r.inPort);
    }
    std::set<std::tuple<int, int, std::set<PortNo>>> groups;
    for (const auto& [k, ins] : inSet)
    {
        groups.emplace(std::get<0>(k), std::get<1>(k), ins);
    }
    EXPECT_EQ(tcam.size(), groups.size());
    std::set<std::tuple<int, int, PortNo>> seenOut;
    for (const TcamEntry& e : tcam)
    {
        for (PortNo o : e.outPorts)
        {
            EXPECT_TRUE(seenOut.emplace(e.tag, e.newTag, o).second)
                << "out port " << o << " split over entries for tag " << int(e.tag);
        }
    }
}

TEST(TcamTest, Fig9ThreeRulesOneEntry)
{
    Topology t = MakeBareSwitches({4});
    TagRules rules(t);
    // Fig. 9: rules 1-3, (tag 1, in 0/1/3, out 2) -> 2
    rules.Set(0, 1, 0, 2, 2);
    rules.Set(0, 1, 1, 2, 2);
    rules.Set(0, 1, 3, 2, 2);
    std::vector<TcamEntry> tcam = CompressTcam(rules, 0);
    ASSERT_EQ(tcam.size(), 1u);
    EXPECT_EQ(tcam[0].tag, 1);
    EXPECT_EQ(tcam[0].inPorts, (std::vector<PortNo>{0, 1, 3}));
    EXPECT_EQ(tcam[0].outPorts, (std::vector<PortNo>{2}));
    EXPECT_EQ(tcam[0].newTag, 2);
    EXPECT_EQ(LookupTcam(tcam, 1, 0, 2), 2);
    EXPECT_EQ(LookupTcam(tcam, 1, 3, 2), 2);
    EXPECT_EQ(LookupTcam(tcam, 1, 2, 2), kLossyTag);
    EXPECT_EQ(LookupTcam(tcam, 1, 0, 1), kLossyTag);
    EXPECT_EQ(LookupTcam(tcam, 2, 0, 2), kLossyTag);
    EXPECT_EQ(LookupTcam(tcam, 0, 0, 2), kLossyTag);
    CheckNodeTcam(rules, 0);
}

TEST(TcamTest, OutPortsWithEqualInSetsShareAnEntry)
{
    Topology t = MakeBareSwitches({6, 6, 6});
    TagRules rules(t);
    // X1: ins {0,1} to outs 2 and 3 -> one entry
    for (PortNo i : {0u, 1u})
    {
        for (PortNo o : {2u, 3u})
        {
            rules.Set(0, 1, i, o, 2);
        }
    }
    // X2: ins {0,1} to out 2, {0} to out 3 -> two entries
    rules.Set(1, 1, 0, 2, 2);
    rules.Set(1, 1, 1, 2, 2);
    rules.Set(1, 1, 0, 3, 2);
    // X3: same match, different new tags -> separate entries
    rules.Set(2, 1, 0, 2, 2);
    rules.Set(2, 1, 1, 2, 3);
    std::vector<TcamEntry> e0 = CompressTcam(rules, 0);
    ASSERT_EQ(e0.size(), 1u);
    EXPECT_EQ(e0[0].inPorts, (std::vector<PortNo>{0, 1}));
    EXPECT_EQ(e0[0].outPorts, (std::vector<PortNo>{2, 3}));
    EXPECT_EQ(CompressTcam(rules, 1).size(), 2u);
    EXPECT_EQ(CompressTcam(rules, 2).size(), 2u);
    for (NodeId n = 0; n < 3; ++n)
    {
        CheckNodeTcam(rules, n);
    }
}

TEST(TcamTest, EmptyNode)
{
    Topology t = MakeBareSwitches({3});
    TagRules rules(t);
    std::vector<TcamEntry> tcam = CompressTcam(rules, 0);
    EXPECT_TRUE(tcam.empty());
    EXPECT_EQ(LookupTcam(tcam, 1, 0, 1), kLossyTag);
}

TEST(TcamTest, TriangleBruteForceFiveEntriesPerSwitch)
{
    // TABLE III at A: tag 1 {2}->{3,4}: 1 entry; tag 2: out 2 <- {3,4}, out 4 <- {3},
    // out 3 <- {4}: 3 entries; tag 3 {3,4}->{2}: 1 entry.  Same shape at B and C.
    Topology topo = MakeTriangleTopology();
    Elp elp = MakeElpFromPaths(topo, TrianglePaths(topo));
    TagRules rules = TagBruteForce(elp.graph);
    for (const char* s : {"A", "B", "C"})
    {
        NodeId n = topo.GetNodeId(s);
        EXPECT_EQ(CompressTcam(rules, n).size(), 5u) << s;
        CheckNodeTcam(rules, n);
    }
    std::vector<TcamEntry> a = CompressTcam(rules, topo.GetNodeId("A"));
    bool found = false;
    for (const TcamEntry& e : a)
    {
        if (e.tag == 3)
        {
            found = true;
            EXPECT_EQ(e.inPorts, (std::vector<PortNo>{3, 4}));
            EXPECT_EQ(e.outPorts, (std::vector<PortNo>{2}));
            EXPECT_EQ(e.newTag, 4);
        }
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(CheckTcamEquivalent(rules), "");
}

TEST(TcamTest, RandomRuleSetsAreEquivalent)
{
    std::mt19937_64 rng(20240601);
    for (int round = 0; round < 300; ++round)
    {
        SCOPED_TRACE("round " + std::to_string(round));
        uint32_t ports = std::uniform_int_distribution<uint32_t>(1, 12)(rng);
        Topology t = MakeBareSwitches({ports});
        TagRules rules(t);
        uint32_t maxTag = std::uniform_int_distribution<uint32_t>(1, 8)(rng);
        double density = std::uniform_real_distribution<double>(0.02, 0.9)(rng);
        // few distinct new tags so that groups form
        uint32_t newTags = std::uniform_int_distribution<uint32_t>(1, 3)(rng);
        std::bernoulli_distribution coin(density);
        for (uint32_t tag = 1; tag <= maxTag; ++tag)
        {
            for (PortNo i = 0; i < ports; ++i)
            {
                for (PortNo o = 0; o < ports; ++o) // hairpins included
                {
                    if (coin(rng))
                    {
                        Tag nt = static_cast<Tag>(
                            tag + std::uniform_int_distribution<uint32_t>(0, newTags - 1)(rng));
                        rules.Set(0, static_cast<Tag>(tag), i, o, nt);
                    }
                }
            }
        }
        CheckNodeTcam(rules, 0);
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
}

TEST(TcamTest, RandomTopologyRulesAreEquivalent)
{
    std::mt19937_64 rng(7);
    for (int round = 0; round < 40; ++round)
    {
        Topology topo = MakeRandomTopology(rng, 3 + round % 8, 0.4);
        std::vector<Path> paths = RandomPaths(topo, rng, 30);
        Elp elp = MakeElpFromPaths(topo, paths);
        for (int which = 0; which < 2; ++which)
        {
            TagRules rules = which == 0 ? TagBruteForce(elp.graph) : TagGreedy(elp.graph);
            EXPECT_EQ(CheckTcamEquivalent(rules), "");
            for (NodeId n : topo.GetSwitches())
            {
                CheckNodeTcam(rules, n);
            }
        }
    }
}

} // namespace
