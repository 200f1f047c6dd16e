/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the tagging algorithms (Algorithm 1 brute force, Algorithm 2 greedy
 * merge, Clos bounce tagging) against the Tagger paper (Hu et al., "Tagger:
 * Practical PFC Deadlock Prevention in Data Center Networks", IEEE/ACM ToN):
 * Fig. 5 / TABLE III / TABLE IV (section V), section IV (k + 1 tags for k
 * bounces) and section VI-A (multiple classes).
 */

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "tagger-verifier.h"
#include "test-util.h"

#include <gtest/gtest.h>
#include <iostream>
#include <set>
#include <tuple>

using namespace ns3::tagger;
using namespace ns3::tagger::test;

namespace
{

using Table = std::set<std::tuple<int, int, int, int>>;

// TABLE III of the paper (rules of Algorithm 1 for Fig. 5): table-iii.h.
const Table& kTable3A = ns3::tagger::test::PaperTableIII('A');
const Table& kTable3B = ns3::tagger::test::PaperTableIII('B');
const Table& kTable3C = ns3::tagger::test::PaperTableIII('C');

// TABLE IV of the paper (rules of Algorithm 2 for Fig. 5).
const Table kTable4A =
    {{1, 2, 3, 1}, {1, 2, 4, 1}, {1, 3, 2, 1}, {1, 3, 4, 2}, {1, 4, 2, 1}, {1, 4, 3, 1}};
const Table kTable4B =
    {{1, 2, 1, 1}, {1, 2, 4, 1}, {1, 1, 2, 1}, {1, 1, 4, 2}, {1, 4, 1, 1}, {1, 4, 2, 1}};
const Table kTable4C = {{1, 4, 1, 1},
                        {1, 4, 3, 1},
                        {1, 1, 3, 1},
                        {1, 1, 4, 1},
                        {1, 3, 1, 1},
                        {1, 3, 4, 1},
                        {2, 1, 4, 2},
                        {2, 3, 4, 2}};

std::string
FormatTable(const Table& t)
{
    std::ostringstream os;
    for (const auto& [a, b, c, d] : t)
    {
        os << "  (" << a << ", " << b << ", " << c << ") -> " << d << "\n";
    }
    return os.str();
}

class TriangleTest : public ::testing::Test
{
  protected:
    TriangleTest()
        : topo(MakeTriangleTopology()),
          a(topo.GetNodeId("A")),
          b(topo.GetNodeId("B")),
          c(topo.GetNodeId("C")),
          paths(TrianglePaths(topo)),
          elp(MakeElpFromPaths(topo, paths))
    {
    }

    Topology topo;
    NodeId a;
    NodeId b;
    NodeId c;
    std::vector<Path> paths;
    Elp elp;
};

TEST_F(TriangleTest, ElpHasTwelvePathsOfLevelsUpToThree)
{
    ASSERT_EQ(paths.size(), 12u);
    EXPECT_EQ(elp.pathCount, 12u);
    EXPECT_EQ(elp.graph.GetMaxLevel(), 3u);
    EXPECT_EQ(elp.longestPath, 4u); // HA A B C HC: 4 links
}

TEST_F(TriangleTest, BruteForceEqualsTable3)
{
    TagRules rules = TagBruteForce(elp.graph);
    EXPECT_EQ(rules.GetLosslessTags(), 3u) << "Fig. 5(b): three lossless priorities";
    EXPECT_EQ(rules.GetMaxTag(), 4) << "TABLE III: tag 4 only on destination servers";
    EXPECT_EQ(RulesAt(rules, a), kTable3A) << "at A:\n" << FormatTable(RulesAt(rules, a));
    EXPECT_EQ(RulesAt(rules, b), kTable3B) << "at B:\n" << FormatTable(RulesAt(rules, b));
    EXPECT_EQ(RulesAt(rules, c), kTable3C) << "at C:\n" << FormatTable(RulesAt(rules, c));
    for (NodeId h : topo.GetHosts())
    {
        EXPECT_EQ(rules.CountRules(h), 0u);
    }
    // Anything else is lossy (the "others -> lossy tag" row).
    EXPECT_EQ(rules.Get(a, 1, 3, 4), kLossyTag);
    EXPECT_EQ(rules.Get(a, 3, 3, 4), kLossyTag);
    EXPECT_EQ(rules.Get(a, 4, 3, 2), kLossyTag);
    EXPECT_EQ(rules.Get(a, 0, 2, 3), kLossyTag);
    EXPECT_EQ(rules.Get(a, 1, 2, 2), kLossyTag); // hairpin
    // Second method: the rules recomputed from the explicit paths.
    EXPECT_EQ(CollectRules(rules), ExpectedBruteForce(topo, paths));
    EXPECT_EQ(IndependentLosslessTags(rules), 3u);

    VerifyResult v = Verify(rules, elp);
    EXPECT_TRUE(v.ok) << v.problem;
    EXPECT_EQ(IndependentDeadlockCheck(rules, 3), "");
    EXPECT_EQ(IndependentElpCheck(rules, paths, 1, 3), "");
}

TEST_F(TriangleTest, BruteForceTwoClassesStartsClassTwoAtTagTwo)
{
    TaggingOptions opt;
    opt.classes = 2;
    TagRules rules = TagBruteForce(elp.graph, opt);
    EXPECT_EQ(CollectRules(rules), ExpectedBruteForce(topo, paths, 2))
        << FormatRuleSet(topo, CollectRules(rules));
    EXPECT_EQ(rules.GetLosslessTags(), 4u);
    EXPECT_EQ(rules.Get(a, 2, 2, 3), 3); // class 2 leaves its first switch with tag 3
    VerifyResult v = Verify(rules, elp, 2);
    EXPECT_TRUE(v.ok) << v.problem;
    EXPECT_EQ(IndependentDeadlockCheck(rules), "");
    EXPECT_EQ(IndependentElpCheck(rules, paths, 2, 4), "");
}

/*
 * Greedy (Algorithm 2) on Fig. 5.  By hand: the 6 level-1 transitions (host ->
 * neighbour) can never close a cycle.  The 6 level-2 transit transitions form
 * two directed 3-cycles of tagged nodes:
 *   clockwise  (A4,1)->(B1,1)->(C3,1)->(A4,1): A(in 4, out 3), B(in 1, out 4), C(in 3, out 1)
 *   counter    (A3,1)->(C1,1)->(B4,1)->(A3,1): A(in 3, out 4), C(in 1, out 3), B(in 4, out 1)
 * so, whatever the order, exactly one transition of each cycle must move to tag
 * 2 and all others stay at tag 1.  The two tag-2 packets then reach their
 * destination switch and are delivered with a (2, in, host) rule.  Total: 18
 * tag-1 rules + 2 tag-2 rules, 2 lossless tags.
 *
 * Compared with TABLE IV: the paper's Algorithm 2 bumped A(in 3, out 4) and
 * B(in 1, out 4), so C has the tag-2 rules (2,1,4) and (2,3,4).  Which member
 * of each cycle is bumped depends on the processing order; the test below
 * reports whether this implementation happens to reproduce TABLE IV exactly
 * (it prints the outcome) but only asserts what the algorithm must give.
 */
void
CheckGreedyTriangle(const Topology& topo,
                    const Elp& elp,
                    const std::vector<Path>& paths,
                    const TagRules& rules,
                    bool localOrder)
{
    NodeId a = topo.GetNodeId("A");
    NodeId b = topo.GetNodeId("B");
    NodeId c = topo.GetNodeId("C");
    EXPECT_EQ(rules.GetLosslessTags(), 2u) << "Fig. 5(c): two tags";
    EXPECT_EQ(IndependentLosslessTags(rules), 2u);
    VerifyResult v = Verify(rules, elp);
    EXPECT_TRUE(v.ok) << v.problem;
    EXPECT_EQ(IndependentDeadlockCheck(rules, 2), "");
    EXPECT_EQ(IndependentElpCheck(rules, paths, 1, 2), "");
    for (const Path& p : paths)
    {
        std::vector<Tag> tags = WalkTags(rules, p, 1);
        ASSERT_EQ(tags.size(), p.size() - 2) << FormatPath(topo, p);
        for (Tag t : tags)
        {
            EXPECT_NE(t, kLossyTag) << FormatPath(topo, p);
        }
    }
    if (!localOrder)
    {
        return;
    }
    RuleSet all = CollectRules(rules);
    EXPECT_EQ(all.size(), 20u) << FormatRuleSet(topo, all);
    using Tr = std::tuple<NodeId, int, int>;
    const std::vector<Tr> cw = {{a, 4, 3}, {b, 1, 4}, {c, 3, 1}};
    const std::vector<Tr> ccw = {{a, 3, 4}, {c, 1, 3}, {b, 4, 1}};
    for (const auto* cyc : {&cw, &ccw})
    {
        int bumped = 0;
        for (const auto& [n, in, out] : *cyc)
        {
            Tag nt = rules.Get(n, 1, in, out);
            EXPECT_TRUE(nt == 1 || nt == 2) << topo.GetNode(n).name;
            if (nt == 2)
            {
                ++bumped;
                // the bumped packet is delivered at the next switch with tag 2
                PortRef peer = topo.GetPeer(n, out);
                NodeId hostPortOwner = peer.node;
                PortNo hostPort = kNone;
                for (PortNo p = 0; p < topo.GetNode(hostPortOwner).ports; ++p)
                {
                    PortRef pr = topo.GetPeer(hostPortOwner, p);
                    if (pr.node != kNone && topo.IsHost(pr.node))
                    {
                        hostPort = p;
                    }
                }
                EXPECT_EQ(rules.Get(hostPortOwner, 2, peer.port, hostPort), 2);
            }
        }
        EXPECT_EQ(bumped, 1) << "exactly one transition of each 3-cycle must change tag";
    }
    int tag1 = 0;
    for (const auto& r : all)
    {
        tag1 += std::get<1>(r) == 1 ? 1 : 0;
    }
    EXPECT_EQ(tag1, 18);
}

TEST_F(TriangleTest, GreedyUsesTwoTagsIncremental)
{
    TaggingOptions opt;
    opt.cycleCheck = CycleCheck::INCREMENTAL;
    TagRules rules = TagGreedy(elp.graph, opt);
    CheckGreedyTriangle(topo, elp, paths, rules, true);

    bool matches = RulesAt(rules, a) == kTable4A && RulesAt(rules, b) == kTable4B &&
                   RulesAt(rules, c) == kTable4C;
    std::cout << "[ info ] greedy (LOCAL) on Fig. 5 " << (matches ? "MATCHES" : "differs from")
              << " TABLE IV\n";
    if (!matches)
    {
        std::cout << "A:\n"
                  << FormatTable(RulesAt(rules, a)) << "B:\n"
                  << FormatTable(RulesAt(rules, b)) << "C:\n"
                  << FormatTable(RulesAt(rules, c));
    }
    ::testing::Test::RecordProperty("matches_table_iv", matches ? "yes" : "no");
}

TEST_F(TriangleTest, GreedyNaiveEqualsIncremental)
{
    for (GreedyOrder order : {GreedyOrder::LOCAL, GreedyOrder::PAPER})
    {
        TaggingOptions o1;
        o1.order = order;
        o1.cycleCheck = CycleCheck::INCREMENTAL;
        TaggingOptions o2 = o1;
        o2.cycleCheck = CycleCheck::NAIVE;
        TagRules r1 = TagGreedy(elp.graph, o1);
        TagRules r2 = TagGreedy(elp.graph, o2);
        EXPECT_EQ(CollectRules(r1), CollectRules(r2));
        CheckGreedyTriangle(topo, elp, paths, r2, order == GreedyOrder::LOCAL);
    }
}

TEST_F(TriangleTest, GreedyPaperOrderUsesTwoTags)
{
    TaggingOptions opt;
    opt.order = GreedyOrder::PAPER;
    GreedyStats stats;
    TagRules rules = TagGreedy(elp.graph, opt, stats);
    CheckGreedyTriangle(topo, elp, paths, rules, false);
    EXPECT_GE(stats.transitions, 18u);
    EXPECT_GE(stats.rejected, 2u);
    EXPECT_LE(stats.merged, stats.transitions);
}

TEST_F(TriangleTest, GreedyStatsCountTheTwoRejections)
{
    GreedyStats stats;
    TagRules rules = TagGreedy(elp.graph, TaggingOptions{}, stats);
    // 6 level-1 + 12 level-2 + level-3 deliveries: the level-3 deliveries with
    // tag 1 reuse level-2 rules, so 20 distinct rules and exactly 2 refusals.
    EXPECT_EQ(stats.rejected, 2u);
    EXPECT_EQ(stats.transitions - stats.merged, 2u);
    EXPECT_EQ(CollectRules(rules).size(), 20u);
}

TEST_F(TriangleTest, ClosTaggingRefusesUnlayeredTopology)
{
    EXPECT_THROW(TagClos(topo, 1), TaggerError);
}

// ---------------------------------------------------------------------------
// Clos

/// Neighbours of n in a given layer, excluding some nodes.
std::vector<NodeId>
NeighborsInLayer(const Topology& topo, NodeId n, int layer, const std::set<NodeId>& exclude = {})
{
    std::vector<NodeId> out;
    for (NodeId nb : topo.GetNeighbors(n))
    {
        if (topo.GetNode(nb).layer == layer && !exclude.count(nb) &&
            std::find(out.begin(), out.end(), nb) == out.end())
        {
            out.push_back(nb);
        }
    }
    return out;
}

/**
 * In the testbed: a 1-bounce path H T1 L1 T2 L2 S L' T' H' (bounce at T2) and
 * its 2-bounce extension H T1 L1 T2 L2 S L' T' L'' T'' H'' (second bounce at T').
 */
struct BouncePaths
{
    Path one;
    Path two;
};

BouncePaths
MakeTestbedBouncePaths(const Topology& topo)
{
    NodeId t1 = topo.GetNodeId("T1");
    NodeId t2 = topo.GetNodeId("T2");
    NodeId l1 = topo.GetNodeId("L1");
    NodeId l2 = topo.GetNodeId("L2");
    NodeId h = NeighborsInLayer(topo, t1, 0).at(0);
    NodeId s = NeighborsInLayer(topo, l2, 3).at(0);
    NodeId lp = NeighborsInLayer(topo, s, 2, {l1, l2}).at(0);
    NodeId tp = NeighborsInLayer(topo, lp, 1, {t1, t2}).at(0);
    NodeId hp = NeighborsInLayer(topo, tp, 0).at(0);
    NodeId lpp = NeighborsInLayer(topo, tp, 2, {lp}).at(0);
    NodeId tpp = NeighborsInLayer(topo, lpp, 1, {tp}).at(0);
    NodeId hpp = NeighborsInLayer(topo, tpp, 0).at(0);
    BouncePaths bp;
    bp.one = {h, t1, l1, t2, l2, s, lp, tp, hp};
    bp.two = {h, t1, l1, t2, l2, s, lp, tp, lpp, tpp, hpp};
    return bp;
}

TEST(ClosTaggingTest, TestbedIsAsExpected)
{
    Topology topo = MakeClos(PaperTestbedClos());
    EXPECT_EQ(topo.GetHosts().size(), 16u);
    EXPECT_EQ(topo.GetSwitches().size(), 10u);
    EXPECT_TRUE(topo.IsLayered());
}

TEST(ClosTaggingTest, TestbedKBouncesNeedKPlusOneTags)
{
    Topology topo = MakeClos(PaperTestbedClos());
    ElpOptions eo;
    eo.maxExplicitPaths = 200000;
    for (uint32_t k = 0; k <= 3; ++k)
    {
        SCOPED_TRACE("bounces " + std::to_string(k));
        TagRules rules = TagClos(topo, k);
        EXPECT_EQ(rules.GetLosslessTags(), k + 1);
        EXPECT_EQ(IndependentLosslessTags(rules), k + 1);
        EXPECT_EQ(IndependentDeadlockCheck(rules, k + 1), "");
        Elp full = MakeUpDownElp(topo, k, eo);
        ASSERT_GT(full.pathCount, 0u);
        ASSERT_EQ(full.paths.size(), full.pathCount) << "small family should be explicit";
        // explicit paths only; the HopGraph is covered by VerifiesAgainstUpDownHopGraph
        Elp elp = PathsOnly(topo, full);
        VerifyResult v = Verify(rules, elp);
        EXPECT_TRUE(v.ok) << v.problem;
        VerifyResult v2 = VerifyElpLossless(rules, elp, 1, k + 1);
        EXPECT_TRUE(v2.ok) << v2.problem;
        uint32_t maxBounces = 0;
        for (const Path& p : elp.paths)
        {
            maxBounces = std::max(maxBounces, CountBounces(topo, p));
        }
        if (k > 0)
        {
            // rules for one bounce fewer fail exactly when some path uses all k
            // (the testbed has no loop-free 3-bounce path: its pods have 2 ToRs
            // and 2 leaves)
            EXPECT_EQ(VerifyElpLossless(TagClos(topo, k - 1), elp).ok, maxBounces < k);
        }
        EXPECT_EQ(maxBounces, std::min(k, 2u));
        // Independently: along every explicit path the tag is 1 + bounces so far.
        size_t checked = 0;
        for (const Path& p : elp.paths)
        {
            if (++checked > 50000)
            {
                break;
            }
            uint32_t bounces = CountBounces(topo, p);
            ASSERT_LE(bounces, k) << FormatPath(topo, p);
            std::vector<Tag> tags = WalkTags(rules, p, 1);
            ASSERT_EQ(tags.size(), p.size() - 2) << FormatPath(topo, p);
            ASSERT_EQ(tags.back(), 1 + bounces) << FormatPath(topo, p);
        }
    }
}

TEST(ClosTaggingTest, TestbedHandCheckedRulesAtTorAndLeaf)
{
    Topology topo = MakeClos(PaperTestbedClos());
    NodeId t2 = topo.GetNodeId("T2");
    NodeId l1 = topo.GetNodeId("L1");
    NodeId l2 = topo.GetNodeId("L2");
    NodeId t1 = topo.GetNodeId("T1");
    PortNo t2FromL1 = topo.GetPortTo(t2, l1);
    PortNo t2ToL2 = topo.GetPortTo(t2, l2);
    NodeId h = NeighborsInLayer(topo, t2, 0).at(0);
    PortNo t2Host = topo.GetPortTo(t2, h);
    PortNo l1FromT1 = topo.GetPortTo(l1, t1);
    PortNo l1ToT2 = topo.GetPortTo(l1, t2);
    NodeId s = NeighborsInLayer(topo, l1, 3).at(0);
    PortNo l1Spine = topo.GetPortTo(l1, s);
    for (uint32_t k = 0; k <= 3; ++k)
    {
        SCOPED_TRACE("bounces " + std::to_string(k));
        TagRules rules = TagClos(topo, k);
        for (Tag t = 1; t <= k + 1; ++t)
        {
            // ToR: down from L1, up to L2 = bounce
            EXPECT_EQ(rules.Get(t2, t, t2FromL1, t2ToL2), t <= k ? t + 1 : kLossyTag);
            // ToR: from a host up to a leaf, from a leaf down to a host: keep
            EXPECT_EQ(rules.Get(t2, t, t2Host, t2ToL2), t);
            EXPECT_EQ(rules.Get(t2, t, t2FromL1, t2Host), t);
            // Leaf: from a ToR up to a spine, down to another ToR; from a spine down: keep
            EXPECT_EQ(rules.Get(l1, t, l1FromT1, l1Spine), t);
            EXPECT_EQ(rules.Get(l1, t, l1FromT1, l1ToT2), t);
            EXPECT_EQ(rules.Get(l1, t, l1Spine, l1ToT2), t);
        }
        // a tag above k + 1 never has a rule
        EXPECT_EQ(rules.Get(t2, static_cast<Tag>(k + 2), t2Host, t2ToL2), kLossyTag);
    }
}

TEST(ClosTaggingTest, TestbedBouncePathWalk)
{
    Topology topo = MakeClos(PaperTestbedClos());
    BouncePaths bp = MakeTestbedBouncePaths(topo);
    ASSERT_EQ(CountBounces(topo, bp.one), 1u);
    ASSERT_EQ(CountBounces(topo, bp.two), 2u);
    // K = 0: the first bounce goes lossy (at T2, the 3rd forwarding node)
    {
        std::vector<Tag> w = WalkTags(TagClos(topo, 0), bp.one, 1);
        EXPECT_EQ(w, (std::vector<Tag>{1, 1, kLossyTag}));
    }
    // K = 1: one bounce is fine, the second bounce (at T', 7th node) is lossy
    {
        TagRules r = TagClos(topo, 1);
        EXPECT_EQ(WalkTags(r, bp.one, 1), (std::vector<Tag>{1, 1, 2, 2, 2, 2, 2}));
        EXPECT_EQ(WalkTags(r, bp.two, 1), (std::vector<Tag>{1, 1, 2, 2, 2, 2, kLossyTag}));
    }
    // K = 2: both bounces are lossless
    {
        TagRules r = TagClos(topo, 2);
        EXPECT_EQ(WalkTags(r, bp.two, 1), (std::vector<Tag>{1, 1, 2, 2, 2, 2, 3, 3, 3}));
    }
}

TEST(ClosTaggingTest, FatTreeLeafBounce)
{
    Topology topo = MakeFatTree(4);
    EXPECT_EQ(topo.GetHosts().size(), 16u);
    // an aggregation switch with two cores
    NodeId leaf = kNone;
    for (NodeId n : topo.GetSwitches())
    {
        if (topo.GetNode(n).layer == 2 && NeighborsInLayer(topo, n, 3).size() >= 2)
        {
            leaf = n;
            break;
        }
    }
    ASSERT_NE(leaf, kNone);
    std::vector<NodeId> cores = NeighborsInLayer(topo, leaf, 3);
    std::vector<NodeId> tors = NeighborsInLayer(topo, leaf, 1);
    ASSERT_GE(tors.size(), 2u);
    PortNo s1 = topo.GetPortTo(leaf, cores[0]);
    PortNo s2 = topo.GetPortTo(leaf, cores[1]);
    PortNo tA = topo.GetPortTo(leaf, tors[0]);
    PortNo tB = topo.GetPortTo(leaf, tors[1]);
    for (uint32_t k = 0; k <= 3; ++k)
    {
        SCOPED_TRACE("bounces " + std::to_string(k));
        TagRules rules = TagClos(topo, k);
        EXPECT_EQ(rules.GetLosslessTags(), k + 1);
        for (Tag t = 1; t <= k + 1; ++t)
        {
            // from a spine, to a spine: bounce
            EXPECT_EQ(rules.Get(leaf, t, s1, s2), t <= k ? t + 1 : kLossyTag);
            EXPECT_EQ(rules.Get(leaf, t, s2, s1), t <= k ? t + 1 : kLossyTag);
            // arriving from a ToR keeps its tag, going up or down
            EXPECT_EQ(rules.Get(leaf, t, tA, s1), t);
            EXPECT_EQ(rules.Get(leaf, t, tA, tB), t);
            // coming down keeps its tag
            EXPECT_EQ(rules.Get(leaf, t, s1, tB), t);
        }
        // spines never change the tag
        NodeId core = cores[0];
        std::vector<NodeId> downs = NeighborsInLayer(topo, core, 2);
        ASSERT_GE(downs.size(), 2u);
        PortNo c1 = topo.GetPortTo(core, downs[0]);
        PortNo c2 = topo.GetPortTo(core, downs[1]);
        EXPECT_EQ(rules.Get(core, 1, c1, c2), 1);
    }
}

TEST(ClosTaggingTest, FatTreesKBouncesVerify)
{
    for (uint32_t ft : {4u, 6u})
    {
        Topology topo = MakeFatTree(ft);
        ElpOptions eo;
        eo.maxExplicitPaths = ft == 4 ? 300000 : 0;
        for (uint32_t k = 0; k <= 3; ++k)
        {
            SCOPED_TRACE("FatTree(" + std::to_string(ft) + ") bounces " + std::to_string(k));
            TagRules rules = TagClos(topo, k);
            EXPECT_EQ(rules.GetLosslessTags(), k + 1);
            EXPECT_EQ(IndependentLosslessTags(rules), k + 1);
            EXPECT_EQ(IndependentDeadlockCheck(rules, k + 1), "");
            if (ft != 4)
            {
                continue; // HopGraph only: see VerifiesAgainstUpDownHopGraph
            }
            Elp full = MakeUpDownElp(topo, k, eo);
            ASSERT_EQ(full.paths.size(), full.pathCount);
            Elp elp = PathsOnly(topo, full);
            VerifyResult v = Verify(rules, elp);
            EXPECT_TRUE(v.ok) << v.problem;
            // one bounce fewer in the rules than in the ELP must fail
            if (k > 0)
            {
                TagRules fewer = TagClos(topo, k - 1);
                VerifyResult bad = VerifyElpLossless(fewer, elp);
                EXPECT_FALSE(bad.ok)
                    << "rules for " << k - 1 << " bounces passed a " << k << "-bounce ELP";
            }
            size_t checked = 0;
            for (const Path& p : elp.paths)
            {
                if (++checked > 50000)
                {
                    break;
                }
                std::vector<Tag> tags = WalkTags(rules, p, 1);
                ASSERT_EQ(tags.back(), 1 + CountBounces(topo, p)) << FormatPath(topo, p);
            }
        }
    }
}

TEST(ClosTaggingTest, UpDownBruteForceNeedsFiveTags)
{
    // Section V-A: "In a three-layer Clos network, the longest up-down path has
    // 5 hops, so Algorithm 1 will use 5 priorities".
    Topology topo = MakeClos(PaperTestbedClos());
    Elp elp = MakeUpDownElp(topo, 0);
    TagRules bf = TagBruteForce(elp.graph);
    EXPECT_EQ(bf.GetLosslessTags(), 5u);
    VerifyResult v = Verify(bf, elp);
    EXPECT_TRUE(v.ok) << v.problem;
}

TEST(ClosTaggingTest, GreedyOnUpDownNeedsOneTag)
{
    // Up-down transitions alone are acyclic, so the greedy merge keeps tag 1.
    for (int which = 0; which < 2; ++which)
    {
        Topology topo = which == 0 ? MakeClos(PaperTestbedClos()) : MakeFatTree(4);
        Elp elp = MakeUpDownElp(topo, 0);
        for (GreedyOrder order : {GreedyOrder::LOCAL, GreedyOrder::PAPER})
        {
            TaggingOptions opt;
            opt.order = order;
            TagRules g = TagGreedy(elp.graph, opt);
            EXPECT_EQ(g.GetLosslessTags(), 1u);
            VerifyResult v = Verify(g, elp);
            EXPECT_TRUE(v.ok) << v.problem;
        }
    }
}

/*
 * Greedy on the Clos testbed with k-bounce ELPs.  The paper (Fig. 6) says
 * Algorithm 2 needs 3 tags for 1 bounce where 2 are optimal.  Measured when
 * written (the "[ info ]" lines print the current values):
 *   k  graph                 brute force  greedy LOCAL  greedy PAPER  TagClos
 *   0  MakeUpDownElp / paths      5            1             1           1
 *   1  MakeUpDownElp / paths      9            3             3           2
 *   2  MakeUpDownElp             13            5             5           3
 *   2  HopGraph of the paths      9            3             4           3
 * (the 2-bounce generator graph is larger than its paths: see
 * UpDownElpMatchesIndependentEnumeration).
 */
TEST(ClosTaggingTest, GreedyOnBouncesVerifies)
{
    Topology topo = MakeClos(PaperTestbedClos());
    for (uint32_t k = 0; k <= 2; ++k)
    {
        for (int exact = 0; exact < 2; ++exact)
        {
            Elp gen = MakeUpDownElp(topo, k);
            // exact: the HopGraph rebuilt from the generator's explicit paths
            Elp elp = exact ? MakeElpFromPaths(topo, gen.paths) : gen;
            TagRules bf = TagBruteForce(elp.graph);
            for (GreedyOrder order : {GreedyOrder::LOCAL, GreedyOrder::PAPER})
            {
                SCOPED_TRACE("bounces " + std::to_string(k) +
                             (order == GreedyOrder::LOCAL ? " LOCAL" : " PAPER") +
                             (exact ? " path graph" : " generator graph"));
                TaggingOptions opt;
                opt.order = order;
                TagRules g = TagGreedy(elp.graph, opt);
                VerifyResult v = Verify(g, elp);
                EXPECT_TRUE(v.ok) << v.problem;
                EXPECT_EQ(IndependentDeadlockCheck(g), "");
                EXPECT_GE(g.GetLosslessTags(), k + 1) << "below the optimum of section IV-D";
                EXPECT_LE(g.GetLosslessTags(), bf.GetLosslessTags());
                std::cout << "[ info ] greedy " << (order == GreedyOrder::LOCAL ? "LOCAL" : "PAPER")
                          << " on the testbed, " << k << " bounces, "
                          << (exact ? "graph of the explicit paths" : "MakeUpDownElp graph") << ": "
                          << g.GetLosslessTags() << " tags (brute force " << bf.GetLosslessTags()
                          << ", TagClos " << k + 1 << ")\n";
            }
        }
    }
}

TEST(ClosTaggingTest, MultiClassUsesKPlusNTags)
{
    Topology topo = MakeClos(PaperTestbedClos());
    const uint32_t k = 1;
    Elp elp = PathsOnly(topo, MakeUpDownElp(topo, k));
    ASSERT_FALSE(elp.paths.empty());
    BouncePaths bp = MakeTestbedBouncePaths(topo);
    NodeId t2 = topo.GetNodeId("T2");
    PortNo in = topo.GetPortTo(t2, topo.GetNodeId("L1"));
    PortNo out = topo.GetPortTo(t2, topo.GetNodeId("L2"));
    for (uint32_t n : {2u, 3u})
    {
        SCOPED_TRACE("classes " + std::to_string(n));
        TaggingOptions opt;
        opt.classes = n;
        TagRules rules = TagClos(topo, k, opt);
        EXPECT_EQ(rules.GetLosslessTags(), k + n) << "section VI-A: M + N - 1 with M = k + 1";
        EXPECT_EQ(IndependentDeadlockCheck(rules, k + n), "");
        VerifyResult v = Verify(rules, elp, n);
        EXPECT_TRUE(v.ok) << v.problem;
        VerifyResult v2 = VerifyElpLossless(rules, elp, n, k + n);
        EXPECT_TRUE(v2.ok) << v2.problem;
        EXPECT_EQ(IndependentElpCheck(rules, elp.paths, n, k + n), "");
        for (uint32_t c = 1; c <= n; ++c)
        {
            // class c starts at tag c and bounces to c + 1
            std::vector<Tag> w = WalkTags(rules, bp.one, static_cast<Tag>(c));
            ASSERT_EQ(w.size(), 7u);
            EXPECT_EQ(w[0], c);
            EXPECT_EQ(w[1], c);
            EXPECT_EQ(w[2], c + 1);
            EXPECT_EQ(w.back(), c + 1);
        }
        // the last class cannot bounce k + 1 times
        std::vector<Tag> w = WalkTags(rules, bp.two, static_cast<Tag>(n));
        EXPECT_EQ(w.back(), kLossyTag);
        // the highest tag has no bounce rule, the one below has
        EXPECT_EQ(rules.Get(t2, static_cast<Tag>(k + n), in, out), kLossyTag);
        EXPECT_EQ(rules.Get(t2, static_cast<Tag>(k + n - 1), in, out), k + n);
        // single-class rules cannot carry class n
        VerifyResult bad = VerifyElpLossless(TagClos(topo, k), elp, n);
        EXPECT_FALSE(bad.ok);
    }
}

/*
 * The generator's up-down ELP holds exactly the loop-free paths with at most k
 * bounces (checked against an independent depth-first enumeration).  Its
 * HopGraph is documented as the up-down *walks* (per-hop transitions), so it
 * must contain the HopGraph of those paths; it may be larger.  Measured when
 * written: equal for k = 0; larger for k >= 1 (testbed, 1 bounce: L1 from T1
 * to T2 at level 4, only on a walk that repeats T1; 2 bounces: max level 13
 * against 9 on the paths, so brute force needs 13 tags on the generator graph
 * and 9 on the paths, greedy 5 against 3).  The "[ info ]" lines print the
 * extra entries.
 */
TEST(ClosTaggingTest, UpDownElpMatchesIndependentEnumeration)
{
    struct Case
    {
        std::string name;
        Topology topo;
        uint32_t maxK;
    };

    std::vector<Case> cases;
    cases.push_back({"testbed", MakeClos(PaperTestbedClos()), 3});
    cases.push_back({"FatTree(4)", MakeFatTree(4), 2});
    ClosParams small;
    small.pods = 1;
    small.torsPerPod = 2;
    small.leafsPerPod = 2;
    small.spines = 2;
    small.spinesPerLeaf = 1;
    small.hostsPerTor = 1;
    cases.push_back({"1-pod Clos", MakeClos(small), 2});
    for (const Case& c : cases)
    {
        for (uint32_t k = 0; k <= c.maxK; ++k)
        {
            SCOPED_TRACE(c.name + " bounces " + std::to_string(k));
            ElpOptions eo;
            eo.maxExplicitPaths = 1000000;
            Elp gen = MakeUpDownElp(c.topo, k, eo);
            std::set<Path> want = EnumerateUpDownPaths(c.topo, k);
            std::set<Path> got(gen.paths.begin(), gen.paths.end());
            EXPECT_EQ(got.size(), gen.paths.size()) << "duplicate paths";
            EXPECT_EQ(gen.pathCount, want.size());
            EXPECT_TRUE(got == want) << "path sets differ";
            HopGraph fromPaths(c.topo);
            for (const Path& p : want)
            {
                fromPaths.AddPath(p);
            }
            std::string diff = DiffHopGraphs(c.topo, gen.graph, fromPaths);
            EXPECT_EQ(diff.find("(only second)"), std::string::npos)
                << "a path transition is missing from MakeUpDownElp's HopGraph: " << diff;
            EXPECT_GE(gen.graph.GetMaxLevel(), fromPaths.GetMaxLevel());
            EXPECT_EQ(gen.longestPath, gen.graph.GetMaxLevel() + 1);
            if (k == 0)
            {
                EXPECT_EQ(diff, "") << "up-down walks without a bounce are simple paths";
            }
            else if (!diff.empty())
            {
                std::cout << "[ info ] " << c.name << ", " << k
                          << " bounces: MakeUpDownElp's HopGraph has walk-only transitions, max "
                          << "level " << gen.graph.GetMaxLevel()
                          << " (paths: " << fromPaths.GetMaxLevel() << "), e.g. "
                          << diff.substr(0, 120) << "\n";
            }
        }
    }
}

/*
 * TagClos(k) verifies against MakeUpDownElp(k) without explicit paths, i.e.
 * through the verifier's up-down check (Elp::upDownBounces).  The plain
 * HopGraph check could not do this: it walks the union of per-level
 * transitions, which stitches two 1-bounce paths into a 2-bounce walk when a
 * pod has 3 or more ToRs (T1 L1 T2 [bounce] L2 T3, then T3 bounces at level 5
 * on another path), and TagClos rightly makes that second bounce lossy.
 */
TEST(ClosTaggingTest, VerifiesAgainstUpDownHopGraph)
{
    for (int which = 0; which < 3; ++which)
    {
        Topology topo = which == 0   ? MakeClos(PaperTestbedClos())
                        : which == 1 ? MakeFatTree(4)
                                     : MakeFatTree(6);
        ElpOptions eo;
        eo.maxExplicitPaths = 0;
        for (uint32_t k = 0; k <= 3; ++k)
        {
            SCOPED_TRACE("topology " + std::to_string(which) + " bounces " + std::to_string(k));
            Elp elp = MakeUpDownElp(topo, k, eo);
            VerifyResult v = Verify(TagClos(topo, k), elp);
            EXPECT_TRUE(v.ok) << v.problem;
            TaggingOptions two;
            two.classes = 2;
            VerifyResult v2 = Verify(TagClos(topo, k, two), elp, 2);
            EXPECT_TRUE(v2.ok) << v2.problem;
            if (k == 1 || k == 2)
            {
                // one bounce fewer than the ELP allows must be caught
                EXPECT_FALSE(Verify(TagClos(topo, k - 1), elp).ok);
                EXPECT_FALSE(Verify(TagClos(topo, k), elp, 2).ok) << "class 2 needs tag k + 2";
            }
        }
    }
}

} // namespace
