/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the TCAM compression (Tagger (ToN), Sec. VII-C): first-match
 * evaluation of the entries must give exactly the plain rules' new tag for
 * every (tag, in, out); hand-worked covers have the expected entry counts.
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

/// First match by a plain scan of the entries (independent of LookupTcam and
/// CheckTcam): the first entry whose tag, in set and out set all match.
Tag
FirstMatch(const std::vector<TcamEntry>& tcam, uint32_t tag, PortNo in, PortNo out)
{
    for (const TcamEntry& e : tcam)
    {
        if (e.tag == tag && std::find(e.inPorts.begin(), e.inPorts.end(), in) != e.inPorts.end() &&
            std::find(e.outPorts.begin(), e.outPorts.end(), out) != e.outPorts.end())
        {
            return e.newTag;
        }
    }
    return kLossyTag;
}

/**
 * Checks of one node's TCAM against its plain rules:
 * - exact equivalence for every (tag, in, out), tags 0 .. max + 2, hairpins
 *   included, twice: FirstMatch against a map built from GetRules, and the
 *   library's LookupTcam and CheckTcam;
 * - ports sorted, unique, non-empty; no entry rewrites to the lossy tag;
 * - never more entries than the per-out-port aggregation (number of distinct
 *   in-port sets per (tag, new tag)), nor than plain rules.
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
    std::map<std::tuple<uint32_t, PortNo, PortNo>, Tag> plain;
    for (const Rule& r : rules.GetRules(n))
    {
        plain[{r.tag, r.inPort, r.outPort}] = r.newTag;
    }
    const uint32_t maxTag = rules.GetMaxTag() + 2u;
    for (uint32_t t = 0; t <= maxTag; ++t)
    {
        for (PortNo i = 0; i < ports; ++i)
        {
            for (PortNo o = 0; o < ports; ++o)
            {
                auto it = plain.find({t, i, o});
                const Tag want = it == plain.end() ? kLossyTag : it->second;
                ASSERT_EQ(FirstMatch(tcam, t, i, o), want)
                    << "tag " << t << " in " << i << " out " << o;
                ASSERT_EQ(LookupTcam(tcam, static_cast<Tag>(t), i, o), want);
            }
        }
    }
    EXPECT_EQ(CheckTcam(rules, n, tcam), "");
    // the per-out-port aggregation's entry count is an upper bound
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
    EXPECT_LE(tcam.size(), groups.size());
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

TEST(TcamTest, FirstMatchLetsTheLargerActionCoverAnException)
{
    // tag 1: in {0,1,2,3} x out {4,5} -> 2, except (in 3, out 5) -> 3.  Per
    // out port that is 3 entries (out 4; out 5 from {0,1,2}; out 5 from {3}).
    // With first match: the exception first, then one rectangle over all 8
    // cells (the exception's cell is already decided): 2 entries.
    Topology t = MakeBareSwitches({6});
    TagRules rules(t);
    for (PortNo i = 0; i < 4; ++i)
    {
        for (PortNo o : {4u, 5u})
        {
            rules.Set(0, 1, i, o, (i == 3 && o == 5) ? 3 : 2);
        }
    }
    std::vector<TcamEntry> tcam = CompressTcam(rules, 0);
    ASSERT_EQ(tcam.size(), 2u);
    EXPECT_EQ(tcam[0].inPorts, (std::vector<PortNo>{3}));
    EXPECT_EQ(tcam[0].outPorts, (std::vector<PortNo>{5}));
    EXPECT_EQ(tcam[0].newTag, 3);
    EXPECT_EQ(tcam[1].inPorts, (std::vector<PortNo>{0, 1, 2, 3}));
    EXPECT_EQ(tcam[1].outPorts, (std::vector<PortNo>{4, 5}));
    EXPECT_EQ(tcam[1].newTag, 2);
    CheckNodeTcam(rules, 0);
}

TEST(TcamTest, AllButHairpinsNeedsFewerEntriesThanPorts)
{
    // tag 1 -> 1 for every in != out on n ports.  Per out port: n entries
    // (every in-port set differs).  A rectangle I x O must have I and O
    // disjoint; splitting the ports by each bit of the port number (ins with
    // the bit clear x outs with it set, and the reverse) covers every pair in
    // 2 log2(n) rectangles.  No cover has fewer than the smallest k with
    // C(k, k/2) >= n rectangles (each port's set of rectangles where it is an in
    // port must not contain another port's, Sperner): 4 for n = 4 and 6,
    // 5 for n = 8, 6 for n = 16.
    const std::map<uint32_t, std::pair<size_t, size_t>> bounds{{4, {4, 4}},
                                                               {6, {4, 6}},
                                                               {8, {5, 6}},
                                                               {16, {6, 8}}};
    for (const auto& [n, range] : bounds)
    {
        Topology t = MakeBareSwitches({n});
        TagRules rules(t);
        for (PortNo i = 0; i < n; ++i)
        {
            for (PortNo o = 0; o < n; ++o)
            {
                if (i != o)
                {
                    rules.Set(0, 1, i, o, 1);
                }
            }
        }
        const size_t entries = CompressTcam(rules, 0).size();
        EXPECT_GE(entries, range.first) << n;
        EXPECT_LE(entries, range.second) << n;
        CheckNodeTcam(rules, 0);
    }
}

/// Set tag 1's rules at node 0 from a grid: row = in port, column = out
/// port, '.' no rule, a digit the new tag.
void
SetGrid(TagRules& rules, const std::vector<std::string>& grid)
{
    for (PortNo in = 0; in < grid.size(); ++in)
    {
        for (PortNo out = 0; out < grid[in].size(); ++out)
        {
            if (grid[in][out] != '.')
            {
                rules.Set(0, 1, in, out, static_cast<Tag>(grid[in][out] - '0'));
            }
        }
    }
}

TEST(TcamTest, DropAndMergeReachTheMinimum)
{
    // Ports 0, 1, 2 reach each other (6 cells), port 3 only reaches 1.  A
    // rectangle's in and out sets are disjoint within {0, 1, 2} (the hairpins
    // have no rule), so it holds at most 2 of those 6 cells: at least 3
    // entries, and {1,2}x{0,3}, {0,1}x{2,3}, {0,2,3}x{1} are 3.  The greedy
    // alone (largest rectangle first) takes 4; the drop and merge steps
    // reach 3.
    Topology t = MakeBareSwitches({4});
    TagRules rules(t);
    SetGrid(rules, {".222", "2.22", "22.2", ".2.."});
    EXPECT_EQ(CompressTcam(rules, 0).size(), 3u);
    CheckNodeTcam(rules, 0);

    // The same block with exceptions (2, 0) -> 3 and (3, 2) -> 3.  They need
    // 2 entries ({2,3}x{0,2} would match the hairpin (2, 2) and (3, 0), which
    // have no rule, in any order).  The 5 cells -> 2 within {0, 1, 2} need 3
    // more, 2 per rectangle as above ((2, 0) may be matched again after its
    // exception): at least 5.  The greedy alone takes 6; with the drop and
    // merge steps, 5.
    Topology t2 = MakeBareSwitches({4});
    TagRules rules2(t2);
    SetGrid(rules2, {".222", "2.22", "32.2", ".23."});
    EXPECT_EQ(CompressTcam(rules2, 0).size(), 5u);
    CheckNodeTcam(rules2, 0);
}

TEST(TcamTest, WidePortsAreEquivalent)
{
    // more than 64 ports: the cover's bitsets have two words per row
    std::mt19937_64 rng(99);
    for (int round = 0; round < 3; ++round)
    {
        Topology t = MakeBareSwitches({70});
        TagRules rules(t);
        std::bernoulli_distribution coin(0.2 + 0.3 * round);
        for (Tag tag = 1; tag <= 2; ++tag)
        {
            for (PortNo i = 0; i < 70; ++i)
            {
                for (PortNo o = 0; o < 70; ++o)
                {
                    if (i != o && coin(rng))
                    {
                        rules.Set(0, tag, i, o, static_cast<Tag>(tag + rng() % 2));
                    }
                }
            }
        }
        CheckNodeTcam(rules, 0);
    }
}

TEST(TcamTest, TableCompressesTheFullestNodesThoroughly)
{
    // CompressTcamTable compresses the nodes with the most entries again with
    // more covers: a node never gets more entries than CompressTcam alone,
    // the thorough cover never more than the plain one, and both stay exact.
    std::mt19937_64 rng(11);
    for (int round = 0; round < 6; ++round)
    {
        Topology topo = MakeRandomTopology(rng, 6 + round, 0.5);
        Elp elp = MakeElpFromPaths(topo, RandomPaths(topo, rng, 60));
        TagRules rules = TagGreedy(elp.graph);
        const TcamTable table = CompressTcamTable(rules);
        size_t tableMost = 0;
        size_t plainMost = 0;
        for (NodeId n : topo.GetSwitches())
        {
            const size_t plain = CompressTcam(rules, n).size();
            const std::vector<TcamEntry> thorough = CompressTcam(rules, n, true);
            EXPECT_LE(table[n].size(), plain);
            EXPECT_LE(thorough.size(), plain);
            EXPECT_EQ(CheckTcam(rules, n, table[n]), "");
            EXPECT_EQ(CheckTcam(rules, n, thorough), "");
            tableMost = std::max(tableMost, table[n].size());
            plainMost = std::max(plainMost, plain);
        }
        EXPECT_LE(tableMost, plainMost);
    }
}

TEST(TcamTest, CheckTcamFindsAWrongEntry)
{
    Topology t = MakeBareSwitches({4});
    TagRules rules(t);
    rules.Set(0, 1, 0, 2, 2);
    rules.Set(0, 1, 1, 2, 2);
    std::vector<TcamEntry> tcam = CompressTcam(rules, 0);
    EXPECT_EQ(CheckTcam(rules, 0, tcam), "");
    // an extra entry in front that sends (1, in 1, out 2) elsewhere
    tcam.insert(tcam.begin(), TcamEntry{1, {1}, {2}, 3});
    EXPECT_NE(CheckTcam(rules, 0, tcam).find("(tag 1, in 1, out 2)"), std::string::npos);
    // the same entry behind the right one is shadowed: still equivalent
    std::rotate(tcam.begin(), tcam.begin() + 1, tcam.end());
    EXPECT_EQ(CheckTcam(rules, 0, tcam), "");
    // an entry matching a cell without a rule
    tcam.push_back(TcamEntry{2, {0}, {3}, 2});
    EXPECT_NE(CheckTcam(rules, 0, tcam), "");
}

TEST(TcamTest, EmptyNode)
{
    Topology t = MakeBareSwitches({3});
    TagRules rules(t);
    std::vector<TcamEntry> tcam = CompressTcam(rules, 0);
    EXPECT_TRUE(tcam.empty());
    EXPECT_EQ(LookupTcam(tcam, 1, 0, 1), kLossyTag);
}

TEST(TcamTest, TriangleBruteForceFourEntriesPerSwitch)
{
    // TABLE III at A: tag 1 {2}->{3,4}: 1 entry; tag 2: out 2 <- {3,4}, out 4 <- {3},
    // out 3 <- {4}: per out port 3 entries, but the rectangles {3}x{2,4} and
    // {4}x{2,3} cover it (one cannot: {3,4}x{2,3,4} holds the hairpins 3->3,
    // 4->4): 2 entries; tag 3 {3,4}->{2}: 1 entry.  Same shape at B and C.
    Topology topo = MakeTriangleTopology();
    Elp elp = MakeElpFromPaths(topo, TrianglePaths(topo));
    TagRules rules = TagBruteForce(elp.graph);
    for (const char* s : {"A", "B", "C"})
    {
        NodeId n = topo.GetNodeId(s);
        EXPECT_EQ(CompressTcam(rules, n).size(), 4u) << s;
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
