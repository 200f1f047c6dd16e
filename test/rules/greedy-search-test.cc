/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest suite for the order search of the greedy merge
 * (tagger-greedy-search.h), the PLAIN order, the random sparse graphs
 * (MakeRandomSparse), the lower bound and the exact minimum
 * (tagger-exact-tags.h).
 *
 * Expected values come from elsewhere: the PLAIN order is re-implemented
 * here naively (sorted transitions, a fresh graph search per merge) and must
 * give the same rules; the triangle of Fig. 5 needs 3 tags under Algorithm 1
 * (Table III), 2 under Algorithm 2, and exactly 2 at least (one tag closes the
 * cycle B <- A <- C <- B of its 3-switch paths, see LowerBoundTriangle); the
 * exact minimum's solutions are checked by the independent checks of
 * test-util.h.
 */

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-exact-tags.h"
#include "tagger-greedy-search.h"
#include "tagger-topology-generators.h"
#include "tagger-verifier.h"
#include "test-util.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <vector>

using namespace ns3::tagger;
using namespace ns3::tagger::test;

namespace
{

/// A random sparse graph of degree 3 to maxDegree (at most n - 1) with its tree ELP.
struct SparseCase : SparseElpCase
{
    SparseCase(uint32_t n, uint32_t maxDegree, uint64_t extra, uint64_t seed)
        : SparseElpCase(n, 3, std::min(maxDegree, n - 1), extra, seed)
    {
    }
};

/// Lossless tags of one greedy order.
uint32_t
TagsOf(const HopGraph& g, GreedyOrder order)
{
    TaggingOptions opt;
    opt.order = order;
    return TagGreedy(g, opt).GetLosslessTags();
}

/**
 * The PLAIN order written plainly: level by level, the transitions
 * (node, tag, in, out) in sorted order; a new transition keeps its tag unless
 * its edge would close a cycle in that tag's graph (found by a fresh
 * depth-first search), else tag + 1.
 */
RuleSet
NaivePlain(const HopGraph& g)
{
    const Topology& topo = g.GetTopology();
    std::map<std::tuple<NodeId, int, int, int>, int> rule;
    std::map<int, std::map<PortIndex, std::set<PortIndex>>> edges; // per tag
    auto reaches = [&edges](int t, PortIndex from, PortIndex to) {
        return ReachesInGraph(edges[t], from, to);
    };
    // tags[port]: tags arriving at the port at the current level
    std::vector<std::set<int>> tags(topo.GetNPorts(), std::set<int>{1});
    for (uint32_t level = 1; level <= g.GetMaxLevel(); ++level)
    {
        std::vector<std::set<int>> next(topo.GetNPorts());
        for (NodeId x = 0; x < topo.GetNNodes(); ++x)
        {
            const uint32_t p = topo.IsForwarder(x) ? topo.GetNode(x).ports : 0;
            for (int t = 1; t <= 63; ++t)
            {
                for (PortNo in = 0; in < p; ++in)
                {
                    for (PortNo out = 0; out < p; ++out)
                    {
                        const PortIndex i = topo.GetPortIndex(x, in);
                        if (!tags[i].count(t) || !(g.GetMask(x, in, out) >> level & 1))
                        {
                            continue;
                        }
                        const PortRef peer = topo.GetPeer(x, out);
                        const bool fwd = topo.IsForwarder(peer.node);
                        const PortIndex j = fwd ? topo.GetPortIndex(peer.node, peer.port) : 0;
                        auto it = rule.find({x, t, in, out});
                        if (it == rule.end())
                        {
                            int result = t;
                            if (fwd && reaches(t, j, i))
                            {
                                result = t + 1;
                            }
                            else if (fwd)
                            {
                                edges[t][i].insert(j);
                            }
                            it = rule.emplace(std::make_tuple(x, t, in, out), result).first;
                        }
                        if (fwd)
                        {
                            next[j].insert(it->second);
                        }
                    }
                }
            }
        }
        tags = next;
    }
    RuleSet out;
    for (const auto& kv : rule)
    {
        out.emplace(std::get<0>(kv.first),
                    std::get<1>(kv.first),
                    std::get<2>(kv.first),
                    std::get<3>(kv.first),
                    kv.second);
    }
    return out;
}

/// "" when rules keep every explicit path lossless within `tags` tags and are deadlock-free.
std::string
CheckWitness(const TagRules& rules, const std::vector<Path>& paths, uint32_t tags)
{
    std::string why = IndependentDeadlockCheck(rules, tags);
    if (why.empty())
    {
        why = IndependentElpCheck(rules, paths, 1, tags);
    }
    return why;
}

} // namespace

TEST(RandomSparse, ShapeDegreesAndShuffledPorts)
{
    for (uint32_t n : {5u, 12u, 40u})
    {
        for (uint64_t seed = 1; seed <= 10; ++seed)
        {
            const uint32_t maxDegree = std::min(6u, n - 1);
            const Topology t = MakeRandomSparse(n, 3, maxDegree, seed);
            SCOPED_TRACE("n=" + std::to_string(n) + " seed=" + std::to_string(seed));
            ASSERT_EQ(t.GetSwitches().size(), n);
            ASSERT_EQ(t.GetHosts().size(), n);
            EXPECT_TRUE(t.IsConnected());
            std::set<PortNo> hostPorts;
            uint32_t belowMin = 0;
            for (NodeId s = 0; s < n; ++s)
            {
                const auto nbrs = t.GetNeighbors(s);
                ASSERT_EQ(nbrs.size(), t.GetNode(s).ports); // every port used
                ASSERT_EQ(std::set<NodeId>(nbrs.begin(), nbrs.end()).size(), nbrs.size());
                const PortNo hp = t.GetPortTo(s, t.GetNodeId("H" + std::to_string(s + 1)));
                ASSERT_NE(hp, kNone);
                hostPorts.insert(hp);
                const uint32_t degree = static_cast<uint32_t>(nbrs.size()) - 1;
                EXPECT_GE(degree, 1u);
                EXPECT_LE(degree, maxDegree);
                belowMin += degree < 3;
            }
            EXPECT_LE(belowMin * 5, n); // nearly every switch reaches the least degree
            EXPECT_GT(hostPorts.size(), 1u) << "the host port is always the same";
        }
    }
    // seeded: the same seed gives the same wiring, another seed another one
    auto wiring = [](uint64_t seed) {
        std::vector<std::tuple<NodeId, PortNo, NodeId, PortNo>> links;
        const Topology t = MakeRandomSparse(30, 3, 6, seed);
        for (const auto& l : t.GetLinks())
        {
            links.emplace_back(l.a.node, l.a.port, l.b.node, l.b.port);
        }
        return links;
    };
    EXPECT_EQ(wiring(7), wiring(7));
    EXPECT_NE(wiring(7), wiring(8));
}

TEST(RandomSparse, RefusesImpossibleParameters)
{
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeRandomSparse(1, 1, 1, 1); }), "switches"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeRandomSparse(10, 0, 3, 1); }), "minDegree"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeRandomSparse(10, 4, 3, 1); }), "minDegree"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeRandomSparse(5, 3, 5, 1); }), "less than switches"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { MakeRandomSparse(5, 1, 1, 1); }), "cannot connect"));
    EXPECT_EQ(MakeRandomSparse(2, 1, 1, 1).GetLinks().size(), 3u); // one link and two hosts
}

TEST(PlainOrder, EqualsANaiveSortedAlgorithm2)
{
    for (uint64_t seed = 1; seed <= 12; ++seed)
    {
        SparseCase c(6 + seed % 10, seed % 2 ? 4 : 6, seed % 3 ? 0 : 15, seed);
        TaggingOptions opt;
        opt.order = GreedyOrder::PLAIN;
        const TagRules rules = TagGreedy(c.elp.graph, opt);
        EXPECT_EQ(CollectRules(rules), NaivePlain(c.elp.graph)) << "seed " << seed;
        EXPECT_TRUE(Verify(rules, c.elp).ok);
    }
    // and on the triangle of Fig. 5 (Algorithm 2 merges its three tags into two)
    const Topology t = MakeTriangleTopology();
    const Elp elp = MakeElpFromPaths(t, TrianglePaths(t));
    TaggingOptions opt;
    opt.order = GreedyOrder::PLAIN;
    EXPECT_EQ(CollectRules(TagGreedy(elp.graph, opt)), NaivePlain(elp.graph));
    EXPECT_EQ(TagsOf(elp.graph, GreedyOrder::PLAIN), 2u);
}

TEST(LowerBound, TriangleLineAndClasses)
{
    // Fig. 5: the 3-switch paths HA A B C HC, HB B C A HA and HC C A B HB chain
    // B's port from A -> C's port from B -> A's port from C -> B's port from A.
    const Topology t = MakeTriangleTopology();
    const Elp elp = MakeElpFromPaths(t, TrianglePaths(t));
    EXPECT_EQ(TagLowerBound(elp.graph), 2u);
    EXPECT_EQ(TagLowerBound(elp.graph, 3), 4u); // the last class needs one more too
    // Only the direct paths: no path has two switch-to-switch hops, no cycle.
    std::vector<Path> direct = TrianglePaths(t);
    direct.resize(6);
    EXPECT_EQ(TagLowerBound(MakeElpFromPaths(t, direct).graph), 1u);
    // A line of three switches: shortest paths never turn back, acyclic.
    Topology line;
    for (const char* s : {"A", "B", "C"})
    {
        line.AddNode(s, NodeKind::SWITCH, 3);
    }
    for (const char* h : {"HA", "HB", "HC"})
    {
        line.AddNode(h, NodeKind::HOST, 1);
    }
    line.AddLink(0, 0, 3, 0);
    line.AddLink(1, 0, 4, 0);
    line.AddLink(2, 0, 5, 0);
    line.AddLink(0, 1, 1, 1);
    line.AddLink(1, 2, 2, 1);
    const Elp lineElp = MakeShortestPathElp(line);
    EXPECT_EQ(TagLowerBound(lineElp.graph), 1u);
    EXPECT_EQ(TagGreedyBest(lineElp.graph, TaggingOptions()).rules.GetLosslessTags(), 1u);
}

TEST(GreedySearch, NeverWorseThanAnyOrderAndVerified)
{
    for (uint64_t seed = 1; seed <= 16; ++seed)
    {
        const uint32_t n = 10 + 5 * (seed % 4);
        SparseCase c(n, seed % 2 ? 4 : 6, seed % 3 == 0 ? 30 : 0, seed);
        GreedySearchOptions search;
        search.seed = seed;
        const GreedySearchResult best = TagGreedyBest(c.elp.graph, TaggingOptions(), search);
        const uint32_t tags = best.rules.GetLosslessTags();
        SCOPED_TRACE("seed " + std::to_string(seed));
        for (GreedyOrder o : {GreedyOrder::LOCAL, GreedyOrder::PAPER, GreedyOrder::PLAIN})
        {
            EXPECT_LE(tags, TagsOf(c.elp.graph, o)) << GetName(o);
        }
        EXPECT_GE(tags, TagLowerBound(c.elp.graph));
        EXPECT_TRUE(Verify(best.rules, c.elp).ok);
        EXPECT_EQ(IndependentDeadlockCheck(best.rules, tags), "");
        EXPECT_EQ(best.winner.losslessTags, tags);
        EXPECT_EQ(best.attempts.size(), best.planned); // no time limit: the whole budget
        EXPECT_EQ(best.planned, best.possible);        // small inputs: every attempt
        for (const GreedyAttempt& a : best.attempts)
        {
            EXPECT_GE(a.losslessTags, tags);
        }
        // deterministic for a seed, and for any thread count
        search.threads = 1 + seed % 4;
        const GreedySearchResult again = TagGreedyBest(c.elp.graph, TaggingOptions(), search);
        EXPECT_EQ(CollectRules(again.rules), CollectRules(best.rules));
        EXPECT_EQ(again.winnerName, best.winnerName);
        ASSERT_EQ(again.attempts.size(), best.attempts.size());
        for (size_t i = 0; i < best.attempts.size(); ++i)
        {
            EXPECT_EQ(again.attempts[i].losslessTags, best.attempts[i].losslessTags);
            EXPECT_EQ(again.attempts[i].maxTcam, best.attempts[i].maxTcam);
            EXPECT_EQ(again.attempts[i].sumTcam, best.attempts[i].sumTcam);
        }
        EXPECT_EQ(again.stats.transitions, best.stats.transitions);
        EXPECT_EQ(again.stats.rejected, best.stats.rejected);
    }
}

TEST(GreedySearch, BudgetShrinksWithTheInput)
{
    SparseCase c(20, 5, 0, 3);
    const uint64_t entries = c.elp.graph.CountEntries();
    GreedySearchOptions search;
    search.maxWork = 2 * entries;
    EXPECT_EQ(TagGreedyBest(c.elp.graph, TaggingOptions(), search).attempts.size(), 2u);
    search.maxWork = 1; // below one attempt: still one, the LOCAL order
    const GreedySearchResult one = TagGreedyBest(c.elp.graph, TaggingOptions(), search);
    ASSERT_EQ(one.attempts.size(), 1u);
    EXPECT_EQ(one.winnerName, "local");
    EXPECT_EQ(CollectRules(one.rules), CollectRules(TagGreedy(c.elp.graph)));
    search.maxWork = 0; // no limit
    search.restarts = 5;
    EXPECT_EQ(TagGreedyBest(c.elp.graph, TaggingOptions(), search).attempts.size(), 8u);
}

TEST(ExactTags, TriangleNeedsTwo)
{
    if (!ExactTagsAvailable())
    {
        GTEST_SKIP() << "built without Z3";
    }
    const Topology t = MakeTriangleTopology();
    const std::vector<Path> paths = TrianglePaths(t);
    const Elp elp = MakeElpFromPaths(t, paths);
    EXPECT_EQ(TagBruteForce(elp.graph).GetLosslessTags(), 3u); // Table III
    // from 1: the solver must refuse one tag and find two
    const ExactTagsResult r = MinimumLosslessTags(t, paths, 1, 3);
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.minimum, 2u);
    ASSERT_TRUE(r.hasWitness);
    EXPECT_EQ(CheckWitness(r.witness, paths, 2), "");
    EXPECT_EQ(IndependentLosslessTags(r.witness), 2u);
    // the direct paths alone need one tag
    const std::vector<Path> direct(paths.begin(), paths.begin() + 6);
    const ExactTagsResult d = MinimumLosslessTags(t, direct, 1, 2);
    ASSERT_TRUE(d.solved);
    EXPECT_EQ(d.minimum, 1u);
    EXPECT_EQ(CheckWitness(d.witness, direct, 1), "");
}

TEST(ExactTags, OracleAgainstTheSearchOnRandomGraphs)
{
    if (!ExactTagsAvailable())
    {
        GTEST_SKIP() << "built without Z3";
    }
    for (uint64_t seed = 1; seed <= 12; ++seed)
    {
        // tiny cases: the search must find the minimum
        const uint32_t n = 6 + seed % 7;
        SparseCase c(n, 5, seed % 2 ? 12 : 0, seed);
        SCOPED_TRACE("seed " + std::to_string(seed) + " switches " + std::to_string(n));
        const uint32_t search =
            TagGreedyBest(c.elp.graph, TaggingOptions()).rules.GetLosslessTags();
        const uint32_t lb = TagLowerBound(c.elp.graph);
        // from the lower bound up to one more than the search: the solver decides every K
        const ExactTagsResult r = MinimumLosslessTags(c.topo, c.elp.paths, lb, search + 1);
        ASSERT_TRUE(r.solved);
        ASSERT_TRUE(r.hasWitness);
        EXPECT_EQ(CheckWitness(r.witness, c.elp.paths, r.minimum), "");
        EXPECT_EQ(search, r.minimum);
    }
    // 24 switches (seed 5): the LOCAL order needs 3 tags, the minimum is 2 (the
    // solver's rules are checked independently), and the search finds 2
    SparseCase c(24, 4, 0, 5);
    ASSERT_EQ(TagsOf(c.elp.graph, GreedyOrder::LOCAL), 3u);
    const ExactTagsResult r = MinimumLosslessTags(c.topo, c.elp.paths, 1, 3);
    ASSERT_TRUE(r.solved);
    EXPECT_EQ(r.minimum, 2u);
    ASSERT_TRUE(r.hasWitness);
    EXPECT_EQ(CheckWitness(r.witness, c.elp.paths, 2), "");
    EXPECT_EQ(TagGreedyBest(c.elp.graph, TaggingOptions()).rules.GetLosslessTags(), 2u);
}
