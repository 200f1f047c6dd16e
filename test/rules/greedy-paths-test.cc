/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the path-scope greedy (tagger-greedy-paths.h), its repair step,
 * and the default search's path scope and exact step (TagGreedyBest on an
 * Elp): never more tags than a plain Algorithm 2 over the paths written
 * independently here, every output checked by the independent checks of
 * test-util.h, and optimal where the lower bound or the exact solver says so.
 */

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-exact-tags.h"
#include "tagger-greedy-paths.h"
#include "tagger-greedy-search.h"
#include "tagger-topology-generators.h"
#include "tagger-verifier.h"
#include "test-util.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <tuple>
#include <vector>

using namespace ns3::tagger;
using namespace ns3::tagger::test;

namespace
{

using Case = SparseElpCase;

/**
 * Algorithm 2 over explicit paths, written plainly: every path carries its own
 * tag; at hop level i the keys (switch, tag, in, out) the paths take are
 * decided in sorted order, each keeping its tag unless its edge (ingress port
 * to the next switch's ingress port) closes a cycle in that tag's graph (a
 * fresh depth-first search), else tag + 1.  \return the lossless tags: the
 * highest tag a packet carries into a switch
 */
uint32_t
NaivePathPlain(const Topology& topo, const std::vector<Path>& paths)
{
    using Key = std::tuple<NodeId, int, PortNo, PortNo>;
    std::map<Key, int> rule;
    std::map<int, std::map<PortIndex, std::set<PortIndex>>> edges;
    auto reaches = [&edges](int t, PortIndex from, PortIndex to) {
        return ReachesInGraph(edges[t], from, to);
    };
    std::vector<int> tag(paths.size(), 1);
    uint32_t lossless = 1;
    size_t longest = 0;
    for (const Path& p : paths)
    {
        longest = std::max(longest, p.size());
    }
    for (size_t i = 1; i + 1 < longest; ++i)
    {
        // key -> (from port, to port); -1: no edge (a host at either end)
        std::map<Key, std::pair<int64_t, int64_t>> level;
        for (size_t k = 0; k < paths.size(); ++k)
        {
            const Path& p = paths[k];
            if (i + 1 >= p.size())
            {
                continue;
            }
            const NodeId x = p[i];
            const PortNo in = PortTo(topo, x, p[i - 1]);
            const PortNo out = PortTo(topo, x, p[i + 1]);
            const bool edge = topo.IsForwarder(p[i - 1]) && topo.IsForwarder(p[i + 1]);
            level[Key{x, tag[k], in, out}] =
                edge ? std::make_pair<int64_t, int64_t>(
                           topo.GetPortIndex(x, in),
                           topo.GetPortIndex(p[i + 1], PortTo(topo, p[i + 1], x)))
                     : std::make_pair<int64_t, int64_t>(-1, -1);
        }
        for (const auto& [key, e] : level)
        {
            if (rule.count(key))
            {
                continue;
            }
            const int t = std::get<1>(key);
            int result = t;
            if (e.first >= 0)
            {
                if (reaches(t, e.second, e.first))
                {
                    result = t + 1;
                }
                else
                {
                    edges[t][e.first].insert(e.second);
                }
            }
            rule[key] = result;
        }
        for (size_t k = 0; k < paths.size(); ++k)
        {
            const Path& p = paths[k];
            if (i + 1 >= p.size())
            {
                continue;
            }
            const NodeId x = p[i];
            tag[k] = rule[Key{x, tag[k], PortTo(topo, x, p[i - 1]), PortTo(topo, x, p[i + 1])}];
            if (topo.IsForwarder(p[i + 1]))
            {
                lossless = std::max<uint32_t>(lossless, tag[k]);
            }
        }
    }
    return lossless;
}

} // namespace

TEST(PathGreedy, PlainOrderMatchesTheNaiveOneAndIsChecked)
{
    for (uint64_t seed = 1; seed <= 6; ++seed)
    {
        const Case c(12 + 4 * seed, 3, 5, seed % 2 ? 20 : 0, seed);
        SCOPED_TRACE("seed " + std::to_string(seed));
        const PathGreedy greedy(c.topo, c.elp.paths);
        const PathGreedyRun run = greedy.Run(GreedyOrder::PLAIN);
        EXPECT_EQ(run.losslessTags, NaivePathPlain(c.topo, c.elp.paths));
        EXPECT_EQ(IndependentLosslessTags(run.rules), run.losslessTags);
        EXPECT_EQ(IndependentDeadlockCheck(run.rules, run.losslessTags), "");
        EXPECT_EQ(IndependentElpCheck(run.rules, c.elp.paths, 1, run.losslessTags), "");
        EXPECT_TRUE(Verify(run.rules, c.elp, 1, 1, ElpScope::PATHS).ok);
        for (GreedyOrder o : {GreedyOrder::HEAVY, GreedyOrder::CONFLICT, GreedyOrder::SHUFFLED})
        {
            const PathGreedyRun other = greedy.Run(o, seed);
            EXPECT_EQ(IndependentDeadlockCheck(other.rules, other.losslessTags), "") << GetName(o);
            EXPECT_EQ(IndependentElpCheck(other.rules, c.elp.paths), "") << GetName(o);
        }
    }
}

/**
 * A ring of three switches S0 -> S1 -> S2 -> S0 whose level-2 transitions
 * close one cycle in tag 1's graph, so that exactly one of the three is
 * raised to tag 2: the one decided last in the level.  S4 hangs off S1 (for
 * the CONFLICT case); each switch has hosts of its own.
 */
struct RingOfThree
{
    RingOfThree()
    {
        for (const char* name : {"S0", "S1", "S2", "S4"})
        {
            sw.push_back(topo.AddNode(name, NodeKind::SWITCH, 6));
        }
        for (const char* name : {"H0", "H1", "H1b", "H2", "H4"})
        {
            host.push_back(topo.AddNode(name, NodeKind::HOST, 1));
        }
        topo.Connect(sw[0], sw[1]);
        topo.Connect(sw[1], sw[2]);
        topo.Connect(sw[2], sw[0]);
        topo.Connect(sw[3], sw[1]);
        topo.Connect(host[0], sw[0]);
        topo.Connect(host[1], sw[1]);
        topo.Connect(host[2], sw[1]);
        topo.Connect(host[3], sw[2]);
        topo.Connect(host[4], sw[3]);
    }

    /// The tag a packet with tag 1 leaves `x` with, arriving from `from`, sent to `to`.
    Tag After(const TagRules& rules, NodeId x, NodeId from, NodeId to) const
    {
        return rules.Get(x, 1, topo.GetPortTo(x, from), topo.GetPortTo(x, to));
    }

    Topology topo;
    std::vector<NodeId> sw;   //!< S0, S1, S2, S4
    std::vector<NodeId> host; //!< H0 (at S0), H1 and H1b (S1), H2 (S2), H4 (S4)
};

// HEAVY decides the transition most path instances take first: two paths
// take S2 (from S1, to S0), one each the others; ties stay in key order
// (S0 before S1).  So HEAVY raises S1's transition, PLAIN (key order) S2's.
TEST(PathGreedy, HeavyOrderDecidesTheBusiestTransitionFirst)
{
    RingOfThree r;
    const auto& s = r.sw;
    const auto& h = r.host;
    const std::vector<Path> paths = {{h[0], s[0], s[1], s[2], h[3]},
                                     {h[1], s[1], s[2], s[0], h[0]},
                                     {h[2], s[1], s[2], s[0], h[0]},
                                     {h[3], s[2], s[0], s[1], h[1]}};
    const PathGreedy greedy(r.topo, paths);
    const PathGreedyRun heavy = greedy.Run(GreedyOrder::HEAVY);
    EXPECT_EQ(r.After(heavy.rules, s[2], s[1], s[0]), 1);
    EXPECT_EQ(r.After(heavy.rules, s[0], s[2], s[1]), 1);
    EXPECT_EQ(r.After(heavy.rules, s[1], s[0], s[2]), 2);
    const PathGreedyRun plain = greedy.Run(GreedyOrder::PLAIN);
    EXPECT_EQ(r.After(plain.rules, s[0], s[2], s[1]), 1);
    EXPECT_EQ(r.After(plain.rules, s[1], s[0], s[2]), 1);
    EXPECT_EQ(r.After(plain.rules, s[2], s[1], s[0]), 2);
    for (const PathGreedyRun* run : {&heavy, &plain})
    {
        EXPECT_EQ(run->losslessTags, 2u);
        EXPECT_EQ(IndependentElpCheck(run->rules, paths, 1, 2), "");
        EXPECT_EQ(IndependentDeadlockCheck(run->rules, 2), "");
    }
}

// CONFLICT decides the edge with the most two-hop walks through it first.
// The ELP's port graph has the ring's three edges and S1 (from S4) -> S2:
// S2's transition (from S1, to S0) has 2 edges into its ingress port and 1
// out of the next one (degree 2), S0's and S1's (from S0) degree 1, S1's
// from S4 degree 0 (nothing enters S1 from S4).  So CONFLICT raises S1's
// ring transition (decided after S0's), PLAIN and HEAVY (all weights 1) S2's.
TEST(PathGreedy, ConflictOrderDecidesTheMostConnectedEdgeFirst)
{
    RingOfThree r;
    const auto& s = r.sw;
    const auto& h = r.host;
    const std::vector<Path> paths = {{h[0], s[0], s[1], s[2], h[3]},
                                     {h[1], s[1], s[2], s[0], h[0]},
                                     {h[3], s[2], s[0], s[1], h[1]},
                                     {h[4], s[3], s[1], s[2], h[3]}};
    const PathGreedy greedy(r.topo, paths);
    const PathGreedyRun conflict = greedy.Run(GreedyOrder::CONFLICT);
    EXPECT_EQ(r.After(conflict.rules, s[2], s[1], s[0]), 1);
    EXPECT_EQ(r.After(conflict.rules, s[0], s[2], s[1]), 1);
    EXPECT_EQ(r.After(conflict.rules, s[1], s[0], s[2]), 2);
    EXPECT_EQ(r.After(conflict.rules, s[1], s[3], s[2]), 1);
    for (GreedyOrder o : {GreedyOrder::PLAIN, GreedyOrder::HEAVY})
    {
        const PathGreedyRun run = greedy.Run(o);
        EXPECT_EQ(r.After(run.rules, s[1], s[0], s[2]), 1) << GetName(o);
        EXPECT_EQ(r.After(run.rules, s[2], s[1], s[0]), 2) << GetName(o);
    }
    EXPECT_EQ(conflict.losslessTags, 2u);
    EXPECT_EQ(IndependentElpCheck(conflict.rules, paths, 1, 2), "");
    EXPECT_EQ(IndependentDeadlockCheck(conflict.rules, 2), "");
}

TEST(PathGreedy, TwoClassesStartApartAndStayLossless)
{
    const Case c(20, 3, 5, 10, 3);
    const PathGreedyRun one = PathGreedy(c.topo, c.elp.paths, 1).Run(GreedyOrder::PLAIN);
    const PathGreedyRun two = PathGreedy(c.topo, c.elp.paths, 2).Run(GreedyOrder::PLAIN);
    // class 2 starts at tag 2: no fewer than the two-class lower bound (3: the port graph
    // has a cycle)
    ASSERT_EQ(TagLowerBound(c.elp.graph, 2), 3u);
    EXPECT_GE(two.losslessTags, 3u);
    EXPECT_EQ(IndependentElpCheck(two.rules, c.elp.paths, 2, two.losslessTags), "");
    EXPECT_EQ(IndependentDeadlockCheck(two.rules, two.losslessTags), "");
    EXPECT_TRUE(Verify(two.rules, c.elp, 2, 1, ElpScope::PATHS).ok);
    EXPECT_FALSE(Verify(one.rules, c.elp, 2, 1, ElpScope::PATHS).ok); // no rules for class 2
}

TEST(PathGreedy, OrdersBelongToTheirScope)
{
    const Case c(12, 3, 4, 0, 1);
    TaggingOptions opt;
    opt.order = GreedyOrder::HEAVY;
    EXPECT_THROW(TagGreedy(c.elp.graph, opt), TaggerError);
    EXPECT_THROW(PathGreedy(c.topo, c.elp.paths).Run(GreedyOrder::LOCAL), TaggerError);
    // a path scope verdict needs every path stored
    Elp partial = c.elp;
    partial.paths.pop_back();
    const PathGreedyRun run = PathGreedy(c.topo, c.elp.paths).Run(GreedyOrder::PLAIN);
    const VerifyResult v = VerifyElpLossless(run.rules, partial, 1, 0, 1, ElpScope::PATHS);
    EXPECT_FALSE(v.ok);
    EXPECT_TRUE(HasSubstr(v.problem, "not stored")) << v.problem;
}

// Graphs where a plain Algorithm 2 over the paths (NaivePathPlain) needed 2
// lossless tags and the HopGraph search 3 (before the path scope existed):
// the default must need no more than the plain order, here 2.
TEST(PathGreedy, DefaultNeverWorseThanThePlainLevelOrder)
{
    const std::vector<std::tuple<uint32_t, uint32_t, uint32_t, uint64_t, uint64_t>> cases = {
        {36, 4, 4, 0, 2},
        {40, 4, 4, 0, 1},
        {28, 3, 4, 50, 1},
        {36, 3, 5, 0, 1},
    };
    for (const auto& [n, minDeg, maxDeg, extra, seed] : cases)
    {
        const Case c(n, minDeg, maxDeg, extra, seed);
        SCOPED_TRACE("n " + std::to_string(n) + " seed " + std::to_string(seed));
        const uint32_t plain = NaivePathPlain(c.topo, c.elp.paths);
        ASSERT_EQ(plain, 2u);
        EXPECT_EQ(TagGreedyBest(c.elp.graph, TaggingOptions()).rules.GetLosslessTags(), 3u);
        const GreedySearchResult best = TagGreedyBest(c.elp, TaggingOptions());
        const uint32_t tags = best.rules.GetLosslessTags();
        EXPECT_LE(tags, plain);
        EXPECT_EQ(IndependentLosslessTags(best.rules), tags);
        EXPECT_EQ(IndependentDeadlockCheck(best.rules, tags), "");
        EXPECT_EQ(IndependentElpCheck(best.rules, c.elp.paths, 1, tags), "");
        EXPECT_EQ(best.scope, ElpScope::PATHS);
        EXPECT_TRUE(Verify(best.rules, c.elp, 1, 1, ElpScope::PATHS).ok);
        EXPECT_EQ(best.lowerBound, 2u);
        EXPECT_TRUE(best.optimal);
        EXPECT_EQ(best.winnerName.rfind("paths-", 0), 0u) << best.winnerName;
    }
}

TEST(PathGreedy, NeverWorseOnRandomGraphsAndDeterministic)
{
    for (uint64_t seed = 1; seed <= 10; ++seed)
    {
        const Case c(16 + 3 * seed, 3, 4 + seed % 3, seed % 2 ? 30 : 0, seed);
        SCOPED_TRACE("seed " + std::to_string(seed));
        GreedySearchOptions search;
        search.seed = seed;
        search.exactMaxHops = 0;
        const GreedySearchResult best = TagGreedyBest(c.elp, TaggingOptions(), search);
        const uint32_t tags = best.rules.GetLosslessTags();
        EXPECT_LE(tags, NaivePathPlain(c.topo, c.elp.paths));
        for (GreedyOrder o : {GreedyOrder::LOCAL, GreedyOrder::PAPER, GreedyOrder::PLAIN})
        {
            TaggingOptions opt;
            opt.order = o;
            EXPECT_LE(tags, TagGreedy(c.elp.graph, opt).GetLosslessTags()) << GetName(o);
        }
        EXPECT_GE(tags, best.lowerBound);
        EXPECT_EQ(best.optimal, tags == best.lowerBound);
        EXPECT_TRUE(Verify(best.rules, c.elp, 1, 1, best.scope).ok);
        EXPECT_EQ(IndependentDeadlockCheck(best.rules, tags), "");
        search.threads = 1 + seed % 3;
        const GreedySearchResult again = TagGreedyBest(c.elp, TaggingOptions(), search);
        EXPECT_EQ(CollectRules(again.rules), CollectRules(best.rules));
        EXPECT_EQ(again.winnerName, best.winnerName);
        EXPECT_EQ(again.repairRuns, best.repairRuns);
    }
}

// 22 switches (degree 3 to 6, 30 extra paths, seed 4): the plain order over the
// paths needs 3 tags; the repair step swaps raises until 2 suffice.
TEST(PathGreedy, RepairEmptiesTheHighestTag)
{
    const Case c(22, 3, 6, 30, 4);
    const PathGreedy greedy(c.topo, c.elp.paths);
    const PathGreedyRun start = greedy.Run(GreedyOrder::PLAIN);
    ASSERT_EQ(start.losslessTags, 3u);
    ASSERT_FALSE(start.raisedToTop.empty());
    uint32_t runs = 0;
    const PathGreedyRun fixed = greedy.Repair(start, GreedyOrder::PLAIN, 1, 2, 500, &runs);
    EXPECT_EQ(fixed.losslessTags, 2u);
    EXPECT_GT(runs, 0u);
    EXPECT_LE(runs, 500u);
    EXPECT_EQ(IndependentLosslessTags(fixed.rules), 2u);
    EXPECT_EQ(IndependentDeadlockCheck(fixed.rules, 2), "");
    EXPECT_EQ(IndependentElpCheck(fixed.rules, c.elp.paths, 1, 2), "");
    // at the lower bound already: nothing to do
    uint32_t none = 7;
    EXPECT_EQ(greedy.Repair(fixed, GreedyOrder::PLAIN, 1, 2, 500, &none).losslessTags, 2u);
    EXPECT_EQ(none, 0u);
    // no budget: the start comes back
    EXPECT_EQ(greedy.Repair(start, GreedyOrder::PLAIN, 1, 2, 0).losslessTags, 3u);
}

// A search cut down to the plain orders leaves 3 tags on 23 switches (30 extra
// paths, seed 2); the exact step finds 2 and says the result is optimal.
TEST(PathGreedy, ExactStepProvesTheMinimum)
{
    if (!ExactTagsAvailable())
    {
        GTEST_SKIP() << "built without Z3";
    }
    const Case c(23, 3, 4, 30, 2);
    GreedySearchOptions small;
    small.maxWork = 1;     // the HopGraph's LOCAL order only
    small.maxPathWork = 1; // the paths' plain order only
    small.repair = false;
    small.exactMaxHops = 0;
    const GreedySearchResult greedy = TagGreedyBest(c.elp, TaggingOptions(), small);
    ASSERT_EQ(greedy.rules.GetLosslessTags(), 3u);
    EXPECT_FALSE(greedy.optimal);
    EXPECT_FALSE(greedy.exactTried);
    small.exactMaxHops = kDefaultExactMaxHops;
    const GreedySearchResult exact = TagGreedyBest(c.elp, TaggingOptions(), small);
    ASSERT_TRUE(exact.exactTried);
    ASSERT_TRUE(exact.exact.solved);
    EXPECT_EQ(exact.rules.GetLosslessTags(), 2u);
    EXPECT_EQ(exact.winnerName, "exact");
    EXPECT_TRUE(exact.optimal);
    EXPECT_EQ(exact.scope, ElpScope::PATHS);
    EXPECT_EQ(CheckTcamEquivalent(exact.rules), "");
    EXPECT_EQ(IndependentDeadlockCheck(exact.rules, 2), "");
    EXPECT_EQ(IndependentElpCheck(exact.rules, c.elp.paths, 1, 2), "");
}
