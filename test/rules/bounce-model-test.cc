/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the flow-level bounce model (Tagger (ToN), Sec. VIII-D) and the
 * shared local-reroute rule, on FatTree(4) with chosen failed links.  The
 * expected sets, paths and bounce counts are worked out by hand from the
 * wiring of FatTree(4): pod p has ToRs T(2p+1), T(2p+2) and aggregations
 * L(2p+1), L(2p+2); L(2p+1) goes to cores S1, S2 and L(2p+2) to S3, S4; ToR
 * Ti has hosts H(2i-1), H(2i); a switch's ports are its downlinks, then its
 * uplinks.
 */

#include "tagger-bounce-grid.h"
#include "tagger-bounce-model.h"
#include "tagger-reroute.h"
#include "tagger-topology-generators.h"
#include "test-util.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace ns3::tagger;

namespace
{

/// FatTree(4) and helpers naming its nodes and links.
class BounceModelTest : public ::testing::Test
{
  protected:
    Topology topo = MakeFatTree(4);
    EcmpDistances dist{topo};

    NodeId N(const std::string& name) const
    {
        return topo.GetNodeId(name);
    }

    /// Index of the link between two named nodes.
    uint32_t Link(const std::string& a, const std::string& b) const
    {
        for (uint32_t i = 0; i < topo.GetLinks().size(); ++i)
        {
            const TopoLink& l = topo.GetLinks()[i];
            if ((l.a.node == N(a) && l.b.node == N(b)) || (l.a.node == N(b) && l.b.node == N(a)))
            {
                return i;
            }
        }
        ADD_FAILURE() << "no link " << a << "-" << b;
        return kNone;
    }

    /// Names of the peers of \p sw's ECMP set for \p host.
    std::vector<std::string> Set(const RouteView& r, const std::string& sw, const std::string& host)
    {
        std::vector<PortNo> set;
        r.GetEcmpSet(N(sw), N(host), set);
        std::vector<std::string> names;
        for (PortNo p : set)
        {
            names.push_back(topo.GetNode(topo.GetPeer(N(sw), p).node).name);
        }
        return names;
    }

    /// A chooser taking, at each named switch, the set index given (0 elsewhere).
    FlowChooser Choose(const std::map<std::string, uint32_t>& at) const
    {
        std::map<NodeId, uint32_t> byId;
        for (const auto& [name, i] : at)
        {
            byId[N(name)] = i;
        }
        return [byId](NodeId sw, uint32_t n, uint32_t visit) {
            auto it = byId.find(sw);
            return ((it == byId.end() ? 0 : it->second) + visit) % n; // the next at a revisit
        };
    }

    /// The walk's node names, space separated.
    std::string Path(const FlowWalk& w) const
    {
        std::string s;
        for (NodeId n : w.nodes)
        {
            s += (s.empty() ? "" : " ") + topo.GetNode(n).name;
        }
        return s;
    }
};

TEST_F(BounceModelTest, EcmpSetsWithoutFailures)
{
    BounceRoutes r(dist, {}, 1);
    EXPECT_EQ(Set(r, "T1", "H5"), (std::vector<std::string>{"L1", "L2"}));
    EXPECT_EQ(Set(r, "L1", "H5"), (std::vector<std::string>{"S1", "S2"}));
    EXPECT_EQ(Set(r, "S1", "H5"), (std::vector<std::string>{"L3"}));
    EXPECT_EQ(Set(r, "L3", "H5"), (std::vector<std::string>{"T3"}));
    EXPECT_EQ(Set(r, "T3", "H5"), (std::vector<std::string>{"H5"}));
    EXPECT_EQ(Set(r, "L1", "H3"), (std::vector<std::string>{"T2"}));
    FlowWalk w = WalkFlow(topo, r, N("H1"), N("H5"), Choose({{"T1", 1}, {"L2", 1}}));
    EXPECT_EQ(Path(w), "H1 T1 L2 S4 L4 T3 H5");
    EXPECT_EQ(w.outcome, WalkOutcome::DELIVERED);
    EXPECT_EQ(w.bounces, 0u);
}

TEST_F(BounceModelTest, RerouteCandidatesAreOtherUpPortsToSwitches)
{
    // T1: ports 0, 1 to hosts (never candidates), 2 to L1, 3 to L2.
    auto allUp = [](PortNo) { return true; };
    EXPECT_EQ(RerouteCandidates(topo, allUp, N("T1"), 2), (std::vector<PortNo>{3}));
    // L1: T1, T2, S1, S2; L1-T1 fails while L1-S2 is already down.
    auto s2Down = [](PortNo p) { return p != 3; };
    EXPECT_EQ(RerouteCandidates(topo, s2Down, N("L1"), 0), (std::vector<PortNo>{1, 2}));
    std::vector<uint32_t> set{0};
    uint32_t calls = 0;
    auto pickLast = [&calls](uint32_t n) {
        ++calls;
        return n - 1;
    };
    EXPECT_TRUE(ApplyLocalReroute(set, 0, {1, 2}, pickLast));
    EXPECT_EQ(set, (std::vector<uint32_t>{2}));
    std::vector<uint32_t> two{2, 3};
    EXPECT_TRUE(ApplyLocalReroute(two, 2, {0, 1, 3}, pickLast));
    EXPECT_EQ(two, (std::vector<uint32_t>{3})); // not emptied: no choice made
    EXPECT_FALSE(ApplyLocalReroute(two, 2, {0, 1}, pickLast));
    EXPECT_EQ(calls, 1u);
    std::vector<uint32_t> last{1};
    EXPECT_TRUE(ApplyLocalReroute(last, 1, {}, pickLast));
    EXPECT_TRUE(last.empty()); // no candidate: unreachable from here
}

TEST_F(BounceModelTest, ForcedRerouteLoopsBackToTheSourceTor)
{
    // L1 loses S1, then S2, then T1: whatever it picked for H1 before, its
    // only candidate at the end is T2.  Its sets for remote hosts went to T1
    // or T2 (both down-links) when S2 failed, and to T2 when T1 failed.
    BounceRoutes r(dist, {Link("L1", "S1"), Link("L1", "S2"), Link("L1", "T1")}, 7);
    EXPECT_EQ(Set(r, "L1", "H1"), (std::vector<std::string>{"T2"}));
    EXPECT_EQ(Set(r, "L1", "H5"), (std::vector<std::string>{"T2"}));
    EXPECT_EQ(Set(r, "T2", "H1"), (std::vector<std::string>{"L1", "L2"}));
    EXPECT_EQ(Set(r, "L2", "H1"), (std::vector<std::string>{"T1"}));
    // H3 -> H1: T2 hashes this flow to L1 every time, so L1 sends it back
    // to T2, which sends it to L1 again: a loop.
    FlowWalk loop = WalkFlow(topo, r, N("H3"), N("H1"), Choose({{"T2", 0}}));
    EXPECT_EQ(loop.outcome, WalkOutcome::LOOPED);
    EXPECT_EQ(Path(loop), "H3 T2 L1 T2");
    FlowWalk ok = WalkFlow(topo, r, N("H3"), N("H1"), Choose({{"T2", 1}}));
    EXPECT_EQ(ok.outcome, WalkOutcome::DELIVERED);
    EXPECT_EQ(Path(ok), "H3 T2 L2 T1 H1");
    EXPECT_EQ(ok.bounces, 0u);
    // Redraw variant: back at T2, the flow takes the next port (L2) and
    // escapes with one bounce, at T2 (from L1 above to L2 above).
    FlowWalk escaped = WalkFlow(topo, r, N("H3"), N("H1"), Choose({{"T2", 0}}), 63, true);
    EXPECT_EQ(escaped.outcome, WalkOutcome::DELIVERED);
    EXPECT_EQ(Path(escaped), "H3 T2 L1 T2 L2 T1 H1");
    EXPECT_EQ(escaped.bounces, 1u);
}

TEST_F(BounceModelTest, OneBounceAtTheSiblingTor)
{
    // L3-T3 fails: L3's set for H5 becomes one of T4, S1, S2 (a hashed
    // choice).  H1 -> H5 through L1, S1, L3:
    //   T4: T4 hashes the flow to L4 (index 1) -> T3: one bounce, at T4;
    //   S1: S1's only way to pod 1 is L3 -> S1 again: loop;
    //   S2: S2's only way to pod 1 is L3 -> L3 again: loop.
    std::map<std::string, int> seen;
    for (uint64_t seed = 1; seed <= 40; ++seed)
    {
        BounceRoutes r(dist, {Link("L3", "T3")}, seed);
        std::vector<std::string> set = Set(r, "L3", "H5");
        ASSERT_EQ(set.size(), 1u);
        ++seen[set[0]];
        FlowWalk w = WalkFlow(topo, r, N("H1"), N("H5"), Choose({{"T4", 1}}));
        if (set[0] == "T4")
        {
            EXPECT_EQ(Path(w), "H1 T1 L1 S1 L3 T4 L4 T3 H5");
            EXPECT_EQ(w.outcome, WalkOutcome::DELIVERED);
            EXPECT_EQ(w.bounces, 1u);
        }
        else
        {
            EXPECT_EQ(w.outcome, WalkOutcome::LOOPED) << set[0];
            EXPECT_EQ(w.nodes.size(), set[0] == "S1" ? 6u : 7u) << Path(w);
        }
    }
    EXPECT_EQ(seen.size(), 3u) << "each candidate is drawn for some seed";
}

TEST_F(BounceModelTest, TwoBouncesAndUnreachableOnHandRoutes)
{
    // Explicit one-port routes for H5 along T1 L1 T2 L2 S3 L4 T4 L3 T3: two
    // DOWN-then-UP turns, at T2 (L1 -> T2 -> L2) and T4 (L4 -> T4 -> L3).
    TableRoutes r;
    std::vector<std::string> path{"T1", "L1", "T2", "L2", "S3", "L4", "T4", "L3", "T3", "H5"};
    for (std::size_t i = 0; i + 1 < path.size(); ++i)
    {
        r.SetEcmpSet(N(path[i]), N("H5"), {topo.GetPortTo(N(path[i]), N(path[i + 1]))});
    }
    FlowWalk w = WalkFlow(topo, r, N("H1"), N("H5"), Choose({}));
    EXPECT_EQ(w.outcome, WalkOutcome::DELIVERED);
    EXPECT_EQ(w.bounces, 2u);
    EXPECT_EQ(Path(w), "H1 T1 L1 T2 L2 S3 L4 T4 L3 T3 H5");
    // No route at T2 for H6.
    r.SetEcmpSet(N("T1"), N("H6"), {topo.GetPortTo(N("T1"), N("L1"))});
    r.SetEcmpSet(N("L1"), N("H6"), {topo.GetPortTo(N("L1"), N("T2"))});
    FlowWalk lost = WalkFlow(topo, r, N("H1"), N("H6"), Choose({}));
    EXPECT_EQ(lost.outcome, WalkOutcome::UNREACHABLE);
    EXPECT_EQ(Path(lost), "H1 T1 L1 T2");
    // The TTL: a path of 9 switches with a limit of 8 is cut (LOOPED).
    EXPECT_EQ(WalkFlow(topo, r, N("H1"), N("H5"), Choose({}), 8).outcome, WalkOutcome::LOOPED);
}

TEST_F(BounceModelTest, NoFailureNoBounce)
{
    for (uint32_t k : {4u, 8u, 6u})
    {
        Topology t = MakeFatTree(k);
        EcmpDistances d(t);
        BounceRoutes r(d, DrawLinkFailures(t, 0.0, 3), 3);
        BounceCounts c = RunBounceFlows(r, d, 20000, 3, 1, k == 6); // k = 6: redraw variant
        EXPECT_EQ(c.flows, 20000u);
        EXPECT_EQ(c.bounced[0], 20000u) << "k=" << k;
        EXPECT_EQ(c.looped + c.unreachable, 0u);
    }
}

TEST_F(BounceModelTest, FailuresAreSwitchLinksWithTheGivenRate)
{
    Topology t = MakeFatTree(16); // 2 * 16^3 / 4 = 2048 switch-to-switch links
    std::vector<uint32_t> none = DrawLinkFailures(t, 0.0, 1);
    std::vector<uint32_t> all = DrawLinkFailures(t, 1.0, 1);
    std::vector<uint32_t> some = DrawLinkFailures(t, 0.2, 1);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(all.size(), 2048u);
    // Binomial(2048, 0.2): mean 409.6, sd 18.1; 5 sd either side.
    EXPECT_NEAR(double(some.size()), 409.6, 91.0);
    EXPECT_EQ(some, DrawLinkFailures(t, 0.2, 1));
    EXPECT_THROW(DrawLinkFailures(t, 1.5, 1), TaggerError);
}

TEST_F(BounceModelTest, CountsDoNotDependOnThreads)
{
    Topology t = MakeFatTree(8);
    EcmpDistances d1(t, 1);
    EcmpDistances d3(t, 3);
    std::vector<uint32_t> failed = DrawLinkFailures(t, 0.2, 5);
    BounceRoutes r1(d1, failed, 5);
    BounceRoutes r3(d3, failed, 5);
    BounceCounts a = RunBounceFlows(r1, d1, 30000, 9, 1);
    BounceCounts b = RunBounceFlows(r3, d3, 30000, 9, 3);
    EXPECT_EQ(a.bounced, b.bounced);
    EXPECT_EQ(a.looped, b.looped);
    EXPECT_EQ(a.unreachable, b.unreachable);
    EXPECT_GT(a.bounced[1], 0u) << "20 % failures bounce some flows";
}

TEST_F(BounceModelTest, ConfidenceInterval)
{
    MeanCi one = MeanCi95({4.0});
    EXPECT_DOUBLE_EQ(one.mean, 4.0);
    EXPECT_DOUBLE_EQ(one.half, 0.0);
    // 1, 2, 3: mean 2, s = 1, t(2) = 4.303: half = 4.303 / sqrt(3).
    MeanCi three = MeanCi95({1.0, 2.0, 3.0});
    EXPECT_DOUBLE_EQ(three.mean, 2.0);
    EXPECT_NEAR(three.half, 4.303 / std::sqrt(3.0), 1e-9);
}

TEST(BounceGridTest, PointsResultLinesAndErrors)
{
    BounceGridConfig cfg;
    cfg.ks = {4};
    cfg.rates = {0.0, 0.3};
    cfg.flows = 1001;
    cfg.seeds = 4;
    uint32_t calls = 0;
    std::vector<BouncePoint> p = RunBounceGrid(cfg, [&calls](const BouncePoint&) { ++calls; });
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(calls, 2u);
    EXPECT_EQ(p[0].flows, 1001u); // 251 + 250 + 250 + 250
    EXPECT_EQ(FormatBounceResult(p[0]),
              "RESULT k=4 failure_rate=0 flows=1001 once=0.0000 twice=0.0000 more=0.0000 "
              "unreachable=0.0000");
    double all =
        p[1].once.mean + p[1].twice.mean + p[1].more.mean + p[1].looped.mean + p[1].noRoute.mean;
    EXPECT_GT(all, 0.0) << "30 % failures disturb some flows";
    EXPECT_LE(all, 100.0);
    cfg.ks = {5};
    EXPECT_THROW(RunBounceGrid(cfg, nullptr), TaggerError);
    cfg.ks = {4};
    cfg.flows = 3;
    EXPECT_THROW(RunBounceGrid(cfg, nullptr), TaggerError) << "fewer flows than seeds";
}

TEST(BounceGridTest, TableRowAndImageName)
{
    BouncePoint p;
    p.k = 8;
    p.rate = 0.2;
    p.once = {10.25, 0.5};
    p.twice = {1.0, 0.125};
    p.more = {0.0, 0.0};
    p.looped = {23.0, 1.0};
    p.noRoute = {0.3, 0.1};
    // Widths 4, 7.1, 8.4 +- -8.4 (three times), 9.4, 9.4, worked out by hand.
    EXPECT_EQ(FormatBounceRow(p),
              "   8    20.0  10.2500 +- 0.5000     1.0000 +- 0.1250     0.0000 +- 0.0000  "
              "   23.0000    0.3000\n");
    EXPECT_EQ(BounceTableHeader().substr(0, 12), "   k   fail%");
    EXPECT_EQ(BouncePlotImage("fig14.plt"), "fig14.png");
    EXPECT_EQ(BouncePlotImage("out/plot"), "out/plot.png");
    EXPECT_EQ(BouncePlotImage(".plt"), ".plt.png");
}

} // namespace
