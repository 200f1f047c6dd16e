/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the verifier: the two deadlock-freedom requirements of section V of
 * the Tagger paper (no cycle inside one tag, no tag-decreasing edge), the
 * lossless limit and ELP coverage, on hand-made rule tables whose faults are
 * known in advance.
 */

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "tagger-verifier.h"
#include "test-util.h"

#include <algorithm>
#include <cctype>
#include <gtest/gtest.h>
#include <set>

using namespace ns3::tagger;
using namespace ns3::tagger::test;

namespace
{

std::string
Lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) {
        return static_cast<char>(std::tolower(ch));
    });
    return s;
}

bool
SameTaggedNode(const TaggedNode& x, const TaggedNode& y)
{
    return x.node == y.node && x.port == y.port && x.tag == y.tag;
}

/**
 * A ring of n switches R1..Rn, each with port 0 from the previous switch, port
 * 1 to the next one and port 2 to its host H1..Hn.
 */
Topology
MakeRing(uint32_t n)
{
    Topology t;
    std::vector<NodeId> r;
    for (uint32_t i = 0; i < n; ++i)
    {
        r.push_back(t.AddNode("R" + std::to_string(i + 1), NodeKind::SWITCH, 3));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        t.AddLink(r[i], 1, r[(i + 1) % n], 0);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        NodeId h = t.AddNode("H" + std::to_string(i + 1), NodeKind::HOST, 1);
        t.AddLink(r[i], 2, h, 0);
    }
    return t;
}

/// Clockwise paths Hi Ri .. Rj Hj over 2..n switches.
std::vector<Path>
RingPaths(const Topology& t, uint32_t n)
{
    std::vector<Path> out;
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t m = 2; m <= n; ++m)
        {
            Path p{t.GetNodeId("H" + std::to_string(i + 1))};
            for (uint32_t j = 0; j < m; ++j)
            {
                p.push_back(t.GetNodeId("R" + std::to_string((i + j) % n + 1)));
            }
            p.push_back(t.GetNodeId("H" + std::to_string((i + m - 1) % n + 1)));
            out.push_back(p);
        }
    }
    return out;
}

/// Same-tag rules all around the ring: host -> next, prev -> next, prev -> host.
TagRules
RingRules(const Topology& t, uint32_t n)
{
    TagRules rules(t);
    for (uint32_t i = 0; i < n; ++i)
    {
        NodeId r = t.GetNodeId("R" + std::to_string(i + 1));
        rules.Set(r, 1, 2, 1, 1);
        rules.Set(r, 1, 0, 1, 1);
        rules.Set(r, 1, 0, 2, 1);
    }
    return rules;
}

/// Check that `cycle` is a closed walk of edges the rules define.
void
ExpectCycleIsReal(const TagRules& rules, std::vector<TaggedNode> cycle)
{
    const Topology& topo = rules.GetTopology();
    if (cycle.size() > 1 && SameTaggedNode(cycle.front(), cycle.back()))
    {
        cycle.pop_back();
    }
    ASSERT_FALSE(cycle.empty());
    for (size_t i = 0; i < cycle.size(); ++i)
    {
        const TaggedNode& u = cycle[i];
        const TaggedNode& v = cycle[(i + 1) % cycle.size()];
        EXPECT_EQ(u.tag, cycle[0].tag) << "a cycle lies inside one tag";
        bool found = false;
        for (PortNo out = 0; out < topo.GetNode(u.node).ports; ++out)
        {
            PortRef peer = topo.GetPeer(u.node, out);
            if (peer.node == v.node && peer.port == v.port &&
                rules.Get(u.node, u.tag, u.port, out) == v.tag)
            {
                found = true;
            }
        }
        EXPECT_TRUE(found) << "no edge " << FormatTaggedNode(topo, u) << " -> "
                           << FormatTaggedNode(topo, v);
    }
}

TEST(VerifierTest, FormatTaggedNode)
{
    Topology t = MakeTriangleTopology();
    EXPECT_EQ(FormatTaggedNode(t, TaggedNode{t.GetNodeId("A"), 3, 2}), "A port 3 tag 2");
}

TEST(VerifierTest, SameTagRingIsACycle)
{
    for (uint32_t n : {3u, 4u})
    {
        SCOPED_TRACE("ring of " + std::to_string(n));
        Topology t = MakeRing(n);
        TagRules rules = RingRules(t, n);
        VerifyResult v = VerifyDeadlockFree(rules);
        EXPECT_FALSE(v.ok);
        EXPECT_NE(Lower(v.problem).find("cycle"), std::string::npos) << v.problem;
        std::set<NodeId> nodes;
        for (const TaggedNode& tn : v.cycle)
        {
            nodes.insert(tn.node);
            EXPECT_EQ(tn.port, 0u) << "the ring enters every switch at port 0";
            EXPECT_EQ(tn.tag, 1);
        }
        std::set<NodeId> ring;
        for (uint32_t i = 0; i < n; ++i)
        {
            ring.insert(t.GetNodeId("R" + std::to_string(i + 1)));
        }
        EXPECT_EQ(nodes, ring);
        ExpectCycleIsReal(rules, v.cycle);
        EXPECT_NE(IndependentDeadlockCheck(rules), "");

        // Every ELP path finds rules, so only the deadlock check can catch it.
        Elp elp = MakeElpFromPaths(t, RingPaths(t, n));
        VerifyResult cover = VerifyElpLossless(rules, elp);
        EXPECT_TRUE(cover.ok) << cover.problem;
        VerifyResult both = Verify(rules, elp);
        EXPECT_FALSE(both.ok);
        EXPECT_FALSE(both.cycle.empty());
    }
}

TEST(VerifierTest, RingBrokenByOneTagChangePasses)
{
    const uint32_t n = 4;
    Topology t = MakeRing(n);
    TagRules rules(t);
    for (uint32_t i = 0; i < n; ++i)
    {
        NodeId r = t.GetNodeId("R" + std::to_string(i + 1));
        rules.Set(r, 1, 2, 1, 1);
        rules.Set(r, 1, 0, 2, 1);
        // R4 moves transit packets to tag 2, breaking the tag-1 ring
        rules.Set(r, 1, 0, 1, i == n - 1 ? 2 : 1);
        rules.Set(r, 2, 0, 2, 2);
        if (i != n - 1)
        {
            rules.Set(r, 2, 0, 1, 2);
        }
    }
    VerifyResult v = VerifyDeadlockFree(rules);
    EXPECT_TRUE(v.ok) << v.problem;
    EXPECT_TRUE(v.problem.empty());
    EXPECT_TRUE(v.cycle.empty());
    EXPECT_TRUE(v.decrease.empty());
    EXPECT_EQ(IndependentDeadlockCheck(rules), "");
    EXPECT_EQ(rules.GetLosslessTags(), 2u);
    Elp elp = MakeElpFromPaths(t, RingPaths(t, n));
    VerifyResult all = Verify(rules, elp);
    EXPECT_TRUE(all.ok) << all.problem;
    EXPECT_TRUE(VerifyElpLossless(rules, elp, 1, 2).ok);
    EXPECT_FALSE(VerifyElpLossless(rules, elp, 1, 1).ok);
    EXPECT_FALSE(VerifyDeadlockFree(rules, 1).ok);
    EXPECT_TRUE(VerifyDeadlockFree(rules, 2).ok);
}

TEST(VerifierTest, GreedyBreaksTheRing)
{
    const uint32_t n = 4;
    Topology t = MakeRing(n);
    std::vector<Path> paths = RingPaths(t, n);
    Elp elp = MakeElpFromPaths(t, paths);
    TagRules bf = TagBruteForce(elp.graph);
    EXPECT_EQ(bf.GetLosslessTags(), 4u);
    EXPECT_TRUE(Verify(bf, elp).ok);
    TagRules g = TagGreedy(elp.graph);
    EXPECT_EQ(g.GetLosslessTags(), 2u);
    VerifyResult v = Verify(g, elp);
    EXPECT_TRUE(v.ok) << v.problem;
    EXPECT_EQ(IndependentDeadlockCheck(g), "");
    EXPECT_EQ(IndependentElpCheck(g, paths), "");
}

/// Line H1 - S1 - S2 - S3 - H3: S1 port 0 host, port 1 to S2; S2 port 0 from
/// S1, port 1 to S3; S3 port 0 from S2, port 1 host.
Topology
MakeLine()
{
    Topology t;
    NodeId s1 = t.AddNode("S1", NodeKind::SWITCH, 2);
    NodeId s2 = t.AddNode("S2", NodeKind::SWITCH, 2);
    NodeId s3 = t.AddNode("S3", NodeKind::SWITCH, 2);
    NodeId h1 = t.AddNode("H1", NodeKind::HOST, 1);
    NodeId h3 = t.AddNode("H3", NodeKind::HOST, 1);
    t.AddLink(s1, 0, h1, 0);
    t.AddLink(s1, 1, s2, 0);
    t.AddLink(s2, 1, s3, 0);
    t.AddLink(s3, 1, h3, 0);
    return t;
}

TEST(VerifierTest, DecreasingEdgeFails)
{
    Topology t = MakeLine();
    NodeId s1 = t.GetNodeId("S1");
    NodeId s2 = t.GetNodeId("S2");
    NodeId s3 = t.GetNodeId("S3");
    TagRules rules(t);
    rules.Set(s1, 1, 0, 1, 2);
    rules.Set(s2, 2, 0, 1, 1); // 2 -> 1 toward S3: decreasing
    rules.Set(s3, 1, 0, 1, 1);
    VerifyResult v = VerifyDeadlockFree(rules);
    EXPECT_FALSE(v.ok);
    EXPECT_FALSE(v.problem.empty());
    ASSERT_EQ(v.decrease.size(), 2u);
    EXPECT_TRUE(SameTaggedNode(v.decrease[0], TaggedNode{s2, 0, 2}))
        << FormatTaggedNode(t, v.decrease[0]);
    EXPECT_TRUE(SameTaggedNode(v.decrease[1], TaggedNode{s3, 0, 1}))
        << FormatTaggedNode(t, v.decrease[1]);
    EXPECT_NE(IndependentDeadlockCheck(rules), "");
    // the ELP path itself is covered: only the deadlock check catches it
    Elp elp = MakeElpFromPaths(t, {PathByNames(t, {"H1", "S1", "S2", "S3", "H3"})});
    EXPECT_TRUE(VerifyElpLossless(rules, elp).ok);
    EXPECT_FALSE(Verify(rules, elp).ok);
}

TEST(VerifierTest, NonDecreasingLinePasses)
{
    Topology t = MakeLine();
    TagRules rules(t);
    rules.Set(t.GetNodeId("S1"), 1, 0, 1, 2);
    rules.Set(t.GetNodeId("S2"), 2, 0, 1, 2);
    rules.Set(t.GetNodeId("S3"), 2, 0, 1, 2);
    VerifyResult v = VerifyDeadlockFree(rules);
    EXPECT_TRUE(v.ok) << v.problem;
    Elp elp = MakeElpFromPaths(t, {PathByNames(t, {"H1", "S1", "S2", "S3", "H3"})});
    EXPECT_TRUE(Verify(rules, elp).ok);
    // class 2 starts at tag 2 at S1, where no rule exists
    EXPECT_FALSE(VerifyElpLossless(rules, elp, 2).ok);
}

class TriangleVerifierTest : public ::testing::Test
{
  protected:
    TriangleVerifierTest()
        : topo(MakeTriangleTopology()),
          paths(TrianglePaths(topo)),
          elp(MakeElpFromPaths(topo, paths))
    {
    }

    Topology topo;
    std::vector<Path> paths;
    Elp elp;
};

TEST_F(TriangleVerifierTest, CorrectSystemsPass)
{
    for (int which = 0; which < 2; ++which)
    {
        TagRules rules = which == 0 ? TagBruteForce(elp.graph) : TagGreedy(elp.graph);
        VerifyResult v = Verify(rules, elp);
        EXPECT_TRUE(v.ok) << v.problem;
        EXPECT_TRUE(v.problem.empty());
        EXPECT_TRUE(v.path.empty());
        EXPECT_TRUE(VerifyDeadlockFree(rules, rules.GetLosslessTags()).ok);
        EXPECT_TRUE(VerifyElpLossless(rules, elp, 1, rules.GetLosslessTags()).ok);
    }
}

TEST_F(TriangleVerifierTest, MissingRuleNamesThePath)
{
    TagRules full = TagBruteForce(elp.graph);
    NodeId a = topo.GetNodeId("A");
    // Drop (tag 3, in 3, out 2) at A: used only by HC C B A HA.
    TagRules rules(topo);
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        for (const Rule& r : full.GetRules(n))
        {
            if (!(n == a && r.tag == 3 && r.inPort == 3 && r.outPort == 2))
            {
                rules.Set(n, r.tag, r.inPort, r.outPort, r.newTag);
            }
        }
    }
    ASSERT_EQ(CollectRules(rules).size() + 1, CollectRules(full).size());
    VerifyResult v = VerifyElpLossless(rules, elp);
    EXPECT_FALSE(v.ok);
    EXPECT_FALSE(v.problem.empty());
    Path want = PathByNames(topo, {"HC", "C", "B", "A", "HA"});
    EXPECT_EQ(v.path, want) << "got " << FormatPath(topo, v.path);
    EXPECT_NE(IndependentElpCheck(rules, paths), "");
    // removing a rule cannot create a deadlock
    EXPECT_TRUE(VerifyDeadlockFree(rules).ok);
    EXPECT_FALSE(Verify(rules, elp).ok);

    // Without explicit paths the HopGraph alone must catch it.
    Elp graphOnly = elp;
    graphOnly.paths.clear();
    VerifyResult g = VerifyElpLossless(rules, graphOnly);
    EXPECT_FALSE(g.ok);
    EXPECT_FALSE(g.problem.empty());
    EXPECT_TRUE(VerifyElpLossless(full, graphOnly).ok);
}

TEST_F(TriangleVerifierTest, TagAboveLosslessLimit)
{
    TagRules rules = TagBruteForce(elp.graph); // needs 3 lossless tags
    EXPECT_TRUE(VerifyDeadlockFree(rules, 0).ok);
    EXPECT_TRUE(VerifyDeadlockFree(rules, 3).ok);
    VerifyResult d = VerifyDeadlockFree(rules, 2);
    EXPECT_FALSE(d.ok);
    EXPECT_FALSE(d.problem.empty());
    EXPECT_NE(IndependentDeadlockCheck(rules, 2), "");

    EXPECT_TRUE(VerifyElpLossless(rules, elp, 1, 3).ok);
    VerifyResult e = VerifyElpLossless(rules, elp, 1, 2);
    EXPECT_FALSE(e.ok);
    EXPECT_EQ(e.path.size(), 5u) << "only 3-switch paths reach tag 3 at a switch: "
                                 << FormatPath(topo, e.path);
    EXPECT_EQ(CountForwarders(topo, e.path), 3u);
}

TEST_F(TriangleVerifierTest, WrongClassCountFails)
{
    TagRules one = TagBruteForce(elp.graph);
    EXPECT_FALSE(VerifyElpLossless(one, elp, 2).ok);
    TaggingOptions opt;
    opt.classes = 2;
    TagRules two = TagBruteForce(elp.graph, opt);
    EXPECT_TRUE(VerifyElpLossless(two, elp, 2).ok);
    EXPECT_TRUE(Verify(two, elp, 2).ok);
}

TEST(TagRulesTest, LosslessTagsCountArrivalsAtForwarders)
{
    Topology t = MakeLine();
    NodeId s1 = t.GetNodeId("S1");
    NodeId s3 = t.GetNodeId("S3");
    TagRules rules(t);
    EXPECT_EQ(rules.GetLosslessTags(), 0u);
    // tag 2 reaches S2's ingress even though S2 has no rule for it: queue 2 is needed
    rules.Set(s1, 1, 0, 1, 2);
    // tag 5 only reaches a host's NIC: not a lossless queue of the network
    rules.Set(s3, 1, 0, 1, 5);
    EXPECT_EQ(rules.GetLosslessTags(), 2u);
    EXPECT_EQ(IndependentLosslessTags(rules), 2u);
    EXPECT_EQ(rules.GetMaxTag(), 5);
    EXPECT_EQ(rules.CountRules(s1), 1u);
    EXPECT_EQ(rules.Get(s1, 1, 0, 1), 2);
    EXPECT_EQ(rules.Get(s1, 2, 0, 1), kLossyTag);
    EXPECT_EQ(rules.Get(s1, 1, 1, 0), kLossyTag);
    // a function: the same rule again is fine, a different new tag is refused
    EXPECT_NO_THROW(rules.Set(s1, 1, 0, 1, 2));
    EXPECT_THROW(rules.Set(s1, 1, 0, 1, 3), std::logic_error);
    EXPECT_EQ(rules.Get(s1, 1, 0, 1), 2);
    EXPECT_EQ(rules.CountRules(s1), 1u);
    // a rule matching tag 4 at a forwarder means tag 4 arrives there
    rules.Set(s3, 4, 0, 1, 4);
    EXPECT_EQ(rules.GetLosslessTags(), 4u);
}

} // namespace

// Random paths added to an up-down family too large to store (FatTree(8) has
// 128 hosts) are kept explicitly and verified one by one: Clos rules without
// bounces must fail on a random path that bounces, and pass once they tolerate
// as many bounces as the worst random path has (counted here independently).
TEST(VerifierTest, RandomPathsOnUpDownFamilyAreChecked)
{
    using namespace ns3::tagger;
    const Topology topo = MakeFatTree(8);
    Elp elp = MakeUpDownElp(topo, 0);
    ASSERT_TRUE(elp.paths.empty()); // too many to store
    AddRandomPaths(elp, topo, 300, 5);
    ASSERT_EQ(elp.paths.size(), 300u);
    uint32_t worst = 0;
    for (const Path& p : elp.paths)
    {
        uint32_t bounces = 0;
        for (size_t i = 1; i + 1 < p.size(); ++i)
        {
            const int32_t here = topo.GetNode(p[i]).layer;
            if (topo.GetNode(p[i - 1]).layer > here && topo.GetNode(p[i + 1]).layer > here)
            {
                ++bounces;
            }
        }
        worst = std::max(worst, bounces);
    }
    ASSERT_GT(worst, 0u) << "the random paths should include bouncing ones";
    const VerifyResult bad = Verify(TagClos(topo, 0), elp);
    EXPECT_FALSE(bad.ok);
    EXPECT_FALSE(bad.path.empty());
    EXPECT_TRUE(Verify(TagClos(topo, worst), elp).ok);
}
