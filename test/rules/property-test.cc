/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Property tests over seeded random topologies and random ELPs: brute force
 * and greedy (both cycle checks, both orders) always verify, both with the
 * library's verifier and with the independent checks of test-util.h; greedy
 * never needs more tags than brute force; the two cycle checks take the same
 * decisions; the TCAM equals the plain rules; the algorithms are deterministic.
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
#include <random>

using namespace ns3::tagger;
using namespace ns3::tagger::test;

namespace
{

struct Tally
{
    uint64_t cases{0};
    uint64_t bfTags{0};
    uint64_t greedyTags{0};
    uint32_t maxBf{0};
    uint32_t maxGreedy{0};
};

/**
 * Run every property on one (topology, ELP).  `paths` are the explicit paths
 * (may be empty when the ELP is only a HopGraph); `checkTcam` limits the cost.
 */
void
CheckAll(const Topology& topo,
         const Elp& elp,
         const std::vector<Path>& paths,
         uint32_t classes,
         bool checkTcam,
         Tally& tally)
{
    TaggingOptions base;
    base.classes = classes;

    TagRules bf = TagBruteForce(elp.graph, base);
    const uint32_t bfTags = bf.GetLosslessTags();
    EXPECT_EQ(bfTags, IndependentLosslessTags(bf));
    if (!paths.empty())
    {
        EXPECT_EQ(CollectRules(bf), ExpectedBruteForce(topo, paths, classes));
        uint32_t longest = 0;
        for (const Path& p : paths)
        {
            longest = std::max(longest, CountForwarders(topo, p));
        }
        EXPECT_EQ(bfTags, longest + classes - 1);
        EXPECT_EQ(IndependentElpCheck(bf, paths, classes, bfTags), "");
    }
    {
        VerifyResult v = Verify(bf, elp, classes);
        EXPECT_TRUE(v.ok) << "brute force: " << v.problem;
        VerifyResult l = VerifyElpLossless(bf, elp, classes, bfTags);
        EXPECT_TRUE(l.ok) << "brute force: " << l.problem;
        EXPECT_TRUE(VerifyDeadlockFree(bf, bfTags).ok);
    }
    EXPECT_EQ(IndependentDeadlockCheck(bf, bfTags), "");
    if (checkTcam)
    {
        EXPECT_EQ(CheckTcamEquivalent(bf), "");
    }

    for (GreedyOrder order : {GreedyOrder::LOCAL, GreedyOrder::PAPER})
    {
        const char* name = order == GreedyOrder::LOCAL ? "greedy LOCAL" : "greedy PAPER";
        TaggingOptions oi = base;
        oi.order = order;
        oi.cycleCheck = CycleCheck::INCREMENTAL;
        TaggingOptions on = oi;
        on.cycleCheck = CycleCheck::NAIVE;
        GreedyStats si;
        GreedyStats sn;
        TagRules gi = TagGreedy(elp.graph, oi, si);
        TagRules gn = TagGreedy(elp.graph, on, sn);
        RuleSet ri = CollectRules(gi);
        ASSERT_EQ(ri, CollectRules(gn)) << name << ": NAIVE and INCREMENTAL differ";
        EXPECT_EQ(si.transitions, sn.transitions);
        EXPECT_EQ(si.merged, sn.merged);
        // determinism
        ASSERT_EQ(ri, CollectRules(TagGreedy(elp.graph, oi))) << name << ": not deterministic";

        const uint32_t gTags = gi.GetLosslessTags();
        EXPECT_EQ(gTags, IndependentLosslessTags(gi)) << name;
        EXPECT_LE(gTags, bfTags) << name << " uses more tags than brute force";
        EXPECT_GE(gTags, std::min<uint32_t>(classes, bfTags)) << name;
        VerifyResult v = Verify(gi, elp, classes);
        EXPECT_TRUE(v.ok) << name << ": " << v.problem;
        VerifyResult l = VerifyElpLossless(gi, elp, classes, gTags);
        EXPECT_TRUE(l.ok) << name << ": " << l.problem;
        EXPECT_TRUE(VerifyDeadlockFree(gi, gTags).ok) << name;
        EXPECT_EQ(IndependentDeadlockCheck(gi, gTags), "") << name;
        if (!paths.empty())
        {
            EXPECT_EQ(IndependentElpCheck(gi, paths, classes, gTags), "") << name;
        }
        if (checkTcam)
        {
            EXPECT_EQ(CheckTcamEquivalent(gi), "") << name;
        }
        if (order == GreedyOrder::LOCAL)
        {
            tally.greedyTags += gTags;
            tally.maxGreedy = std::max(tally.maxGreedy, gTags);
        }
    }
    ASSERT_EQ(CollectRules(bf), CollectRules(TagBruteForce(elp.graph, base)))
        << "brute force not deterministic";
    tally.cases++;
    tally.bfTags += bfTags;
    tally.maxBf = std::max(tally.maxBf, bfTags);
}

TEST(PropertyTest, RandomGraphsWithRandomWalkPaths)
{
    Tally tally;
    for (uint64_t seed = 1; seed <= 400; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        uint32_t nSw = std::uniform_int_distribution<uint32_t>(4, 12)(rng);
        double extra = std::uniform_real_distribution<double>(0.05, 0.5)(rng);
        Topology topo = MakeRandomTopology(rng, nSw, extra);
        ASSERT_TRUE(topo.IsConnected());
        uint32_t nPaths = std::uniform_int_distribution<uint32_t>(5, 60)(rng);
        std::vector<Path> paths = RandomPaths(topo, rng, nPaths);
        ASSERT_FALSE(paths.empty());
        Elp elp = MakeElpFromPaths(topo, paths);
        ASSERT_EQ(elp.paths.size(), paths.size());
        uint32_t classes = seed % 5 == 0 ? 2 : 1;
        CheckAll(topo, elp, elp.paths, classes, true, tally);
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
    std::cout << "[ info ] " << tally.cases << " random graphs: mean tags brute force "
              << double(tally.bfTags) / tally.cases << " (max " << tally.maxBf << "), greedy LOCAL "
              << double(tally.greedyTags) / tally.cases << " (max " << tally.maxGreedy << ")\n";
}

TEST(PropertyTest, RandomGraphsWithLibraryRandomPaths)
{
    Tally tally;
    for (uint64_t seed = 1000; seed < 1040; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        uint32_t nSw = std::uniform_int_distribution<uint32_t>(4, 12)(rng);
        Topology topo = MakeRandomTopology(rng, nSw, 0.3);
        Elp elp = MakeElpFromPaths(topo, {});
        AddRandomPaths(elp, topo, 40, seed);
        ASSERT_GT(elp.pathCount, 0u);
        // every stored path is loop-free and host to host
        for (const Path& p : elp.paths)
        {
            ASSERT_GE(p.size(), 3u);
            EXPECT_TRUE(topo.IsHost(p.front()) && topo.IsHost(p.back()));
            EXPECT_EQ(std::set<NodeId>(p.begin(), p.end()).size(), p.size()) << FormatPath(topo, p);
        }
        CheckAll(topo, elp, elp.paths, 1, true, tally);
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
}

TEST(PropertyTest, JellyfishShortestAndRandomPaths)
{
    Tally tally;
    for (uint64_t seed = 1; seed <= 30; ++seed)
    {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed * 7919);
        uint32_t sw = std::uniform_int_distribution<uint32_t>(5, 10)(rng) * 2; // even
        uint32_t r = std::uniform_int_distribution<uint32_t>(3, 4)(rng);
        Topology topo = MakeJellyfish(sw, r + 1, r, seed);
        ASSERT_TRUE(topo.IsConnected());
        ElpOptions eo;
        eo.seed = seed;
        Elp elp = MakeShortestPathElp(topo, eo);
        if (seed % 3 == 0)
        {
            AddRandomPaths(elp, topo, 30, seed);
        }
        CheckAll(topo, elp, elp.paths, 1, true, tally);
        if (::testing::Test::HasFatalFailure())
        {
            return;
        }
    }
    std::cout << "[ info ] Jellyfish: mean tags brute force " << double(tally.bfTags) / tally.cases
              << ", greedy LOCAL " << double(tally.greedyTags) / tally.cases << " (max "
              << tally.maxGreedy << ")\n";
}

TEST(PropertyTest, SmallClosUpDownWithBounces)
{
    Tally tally;
    int idx = 0;
    for (uint32_t pods : {1u, 2u})
    {
        for (uint32_t spl : {1u, 2u})
        {
            for (uint32_t k = 0; k <= 2; ++k)
            {
                SCOPED_TRACE("pods " + std::to_string(pods) + " spinesPerLeaf " +
                             std::to_string(spl) + " bounces " + std::to_string(k));
                ClosParams p;
                p.pods = pods;
                p.torsPerPod = 2;
                p.leafsPerPod = 2;
                p.spines = 2;
                p.spinesPerLeaf = spl;
                p.hostsPerTor = 1;
                Topology topo = MakeClos(p);
                ElpOptions eo;
                eo.maxExplicitPaths = 100000;
                Elp gen = MakeUpDownElp(topo, k, eo);
                ASSERT_EQ(gen.paths.size(), gen.pathCount);
                // the HopGraph of the explicit paths (MakeUpDownElp's own graph is
                // checked in ClosTaggingTest.UpDownElpMatchesIndependentEnumeration)
                Elp elp = MakeElpFromPaths(topo, gen.paths);
                CheckAll(topo, elp, elp.paths, 1 + (idx % 2), true, tally);
                ++idx;
                TagRules clos = TagClos(topo, k);
                VerifyResult v = Verify(clos, PathsOnly(topo, elp));
                EXPECT_TRUE(v.ok) << v.problem;
                EXPECT_EQ(IndependentElpCheck(clos, elp.paths, 1, k + 1), "");
                EXPECT_EQ(clos.GetLosslessTags(), k + 1);
                if (::testing::Test::HasFatalFailure())
                {
                    return;
                }
            }
        }
    }
}

} // namespace
