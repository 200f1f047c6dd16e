/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * GoogleTest suite for the threads of the rule generator (tagger-parallel.h,
 * RuleGeneratorOptions::threads): ParallelFor and OrderedPipeline, and
 * GenerateRules on 1 and 3 threads, which must give identical ELPs, rules,
 * TCAM tables, JSON and verdicts.
 *
 * Expected values come from elsewhere: the helpers against a plain loop, the
 * generator's TCAM table (reused from the order search or compressed per
 * node) against CompressTcamTable of its rules, the verifier's verdict on
 * broken rules against the sequential one, and its cycle against a
 * Boost.Graph depth-first search over the stored edges.
 */

#include "tagger-algorithms.h"
#include "tagger-io.h"
#include "tagger-parallel.h"
#include "tagger-rule-generator.h"
#include "tagger-verifier.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3::tagger;

namespace
{

/// Everything a run computed except times and memory, as text: the JSON
/// (topology, rules, TCAM, ELP paths and next hops), every HopGraph mask and the counts.
std::string
Fingerprint(const RuleGeneratorResult& r)
{
    const Topology& topo = *r.topology;
    RulesOutput out;
    out.losslessTags = r.losslessTags;
    out.rules = &r.rules;
    out.elp = &r.elp.paths;
    out.elpNextHops = &r.elp.nextHops;
    out.tcam = &r.tcam;
    std::ostringstream os;
    WriteRulesJson(topo, out, os);
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        const uint32_t p = topo.IsForwarder(n) ? topo.GetNode(n).ports : 0;
        for (PortNo in = 0; in < p; ++in)
        {
            for (PortNo o = 0; o < p; ++o)
            {
                if (const uint64_t m = r.elp.graph.GetMask(n, in, o))
                {
                    os << n << ' ' << in << ' ' << o << ' ' << m << '\n';
                }
            }
        }
    }
    os << r.elp.pathCount << ' ' << r.longestPath << ' ' << r.lowerBound << ' ' << r.greedyOrder
       << ' ' << r.switchCounts.sumRules << ' ' << r.switchCounts.sumTcam << ' '
       << r.switchCounts.maxTcam << ' ' << r.verification.ok << '\n';
    return os.str();
}

/// The TCAM table as text.
std::string
TcamText(const TcamTable& table)
{
    std::ostringstream os;
    for (std::size_t n = 0; n < table.size(); ++n)
    {
        for (const TcamEntry& e : table[n])
        {
            os << n << ' ' << int(e.tag) << ' ' << int(e.newTag) << ':';
            for (PortNo p : e.inPorts)
            {
                os << ' ' << p;
            }
            os << " /";
            for (PortNo p : e.outPorts)
            {
                os << ' ' << p;
            }
            os << '\n';
        }
    }
    return os.str();
}

/// Jellyfish options: small enough for the order search to run every attempt when `search`.
RuleGeneratorOptions
Jellyfish(uint32_t switches, ElpFamily elp, bool search)
{
    RuleGeneratorOptions o;
    o.topology = TopologyGenerator::JELLYFISH;
    o.switches = switches;
    o.ports = 8;
    o.switchPorts = 4;
    o.seed = 7;
    o.elp = elp;
    o.greedySearch = search;
    o.search.restarts = 4;
    o.search.maxWork = 0;
    return o;
}

} // namespace

TEST(ParallelFor, EveryItemOnceAndTheLowestFailureWins)
{
    for (unsigned threads : {1u, 2u, 3u, 8u})
    {
        std::vector<int> hits(1000, 0);
        ParallelFor(threads, hits.size(), 7, [&](std::size_t i) { hits[i] += 1; });
        EXPECT_EQ(std::vector<int>(1000, 1), hits) << threads << " threads";
        std::vector<char> ran(1000, 0);
        try
        {
            ParallelFor(threads, ran.size(), 3, [&](std::size_t i) {
                ran[i] = 1;
                if (i == 500 || i == 123)
                {
                    throw std::runtime_error(std::to_string(i));
                }
            });
            ADD_FAILURE() << "no exception";
        }
        catch (const std::runtime_error& e)
        {
            EXPECT_EQ(std::string("123"), e.what()) << threads << " threads";
        }
        for (std::size_t i = 0; i < 123; ++i)
        {
            EXPECT_EQ(1, ran[i]) << "item " << i << " below the failure did not run";
        }
    }
}

TEST(OrderedPipeline, ConsumesInOrderAndRethrowsAtTheItem)
{
    for (unsigned threads : {1u, 2u, 3u})
    {
        std::vector<std::size_t> slots(4);
        std::vector<std::size_t> seen;
        OrderedPipeline(
            threads,
            100,
            slots,
            [](std::size_t i, std::size_t& slot, unsigned) { slot = i * i; },
            [&](std::size_t i, std::size_t& slot) {
                EXPECT_EQ(i * i, slot);
                seen.push_back(i);
            });
        ASSERT_EQ(100u, seen.size());
        for (std::size_t i = 0; i < seen.size(); ++i)
        {
            EXPECT_EQ(i, seen[i]);
        }
        seen.clear();
        EXPECT_THROW(OrderedPipeline(
                         threads,
                         100,
                         slots,
                         [](std::size_t i, std::size_t&, unsigned) {
                             if (i == 40)
                             {
                                 throw std::runtime_error("40");
                             }
                         },
                         [&](std::size_t i, std::size_t&) { seen.push_back(i); }),
                     std::runtime_error);
        EXPECT_EQ(40u, seen.size()) << "items before the failing one are consumed";
    }
}

TEST(RuleGeneratorThreads, OneAndThreeThreadsGiveTheSameResults)
{
    struct Case
    {
        uint32_t switches;
        ElpFamily elp;
        bool search;
    };

    for (const Case& c : {Case{24, ElpFamily::TREES, true},
                          Case{24, ElpFamily::SHORTEST, true},
                          Case{60, ElpFamily::TREES, false},
                          Case{60, ElpFamily::SHORTEST, false}})
    {
        RuleGeneratorOptions o = Jellyfish(c.switches, c.elp, c.search);
        o.threads = 1;
        const RuleGeneratorResult one = GenerateRules(o);
        o.threads = 3;
        const RuleGeneratorResult three = GenerateRules(o);
        EXPECT_EQ(1u, one.threads);
        EXPECT_EQ(3u, three.threads);
        EXPECT_TRUE(one.verification.ok);
        EXPECT_GT(one.elp.paths.size(), 0u);
        EXPECT_EQ(Fingerprint(one), Fingerprint(three))
            << c.switches << " switches, ELP " << GetName(c.elp);
        // the table the output used (the search's, or compressed per node) is the library's
        EXPECT_EQ(TcamText(CompressTcamTable(three.rules)), TcamText(three.tcam));
    }
}

TEST(RuleGeneratorThreads, NextHopsAreTheSameOnOneAndThreeThreads)
{
    const Topology topo = MakeJellyfish(40, 8, 4, 3);
    for (auto make : {MakeShortestPathTreeElp, MakeShortestPathElp})
    {
        ElpOptions eo;
        eo.seed = 5;
        eo.keepNextHops = true;
        eo.threads = 1;
        const Elp one = make(topo, eo);
        eo.threads = 3;
        const Elp three = make(topo, eo);
        ASSERT_EQ(one.nextHops.size(), three.nextHops.size());
        for (std::size_t i = 0; i < one.nextHops.size(); ++i)
        {
            EXPECT_EQ(one.nextHops[i].root, three.nextHops[i].root);
            EXPECT_EQ(one.nextHops[i].nodes, three.nextHops[i].nodes);
            EXPECT_EQ(one.nextHops[i].hops, three.nextHops[i].hops);
        }
        EXPECT_EQ(one.paths, three.paths);
    }
}

TEST(VerifierThreads, FailuresAreTheSameOnOneAndThreeThreads)
{
    const Topology topo = MakeJellyfish(40, 8, 4, 3);
    ElpOptions eo;
    eo.maxExplicitPaths = 0; // the HopGraph check, not the paths
    const Elp trees = MakeShortestPathTreeElp(topo, eo);
    const Elp all = MakeShortestPathElp(topo, eo);
    GreedyStats stats;
    const TagRules rules = TagGreedy(trees.graph, TaggingOptions(), stats);
    ASSERT_TRUE(Verify(rules, trees).ok);
    ASSERT_GT(rules.GetLosslessTags(), 1u);
    // the tree rules miss transitions of all shortest paths; one tag is too few
    const VerifyResult elpOne = VerifyElpLossless(rules, all, 1, 0, 1);
    const VerifyResult deadlockOne = VerifyDeadlockFree(rules, 1, 1);
    ASSERT_FALSE(elpOne.ok);
    ASSERT_FALSE(deadlockOne.ok);
    for (unsigned threads : {2u, 3u})
    {
        EXPECT_EQ(elpOne.problem, VerifyElpLossless(rules, all, 1, 0, threads).problem);
        EXPECT_EQ(deadlockOne.problem, VerifyDeadlockFree(rules, 1, threads).problem);
        EXPECT_TRUE(Verify(rules, trees, 1, threads).ok);
    }
}

namespace
{

using Digraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<Digraph>::vertex_descriptor;

/// The first back edge of a depth-first search.
struct BackEdge
{
    Vertex u; //!< its source
    Vertex v; //!< its target
};

/// Records the search tree; throws at the first back edge.
class CycleFinder : public boost::default_dfs_visitor
{
  public:
    explicit CycleFinder(std::vector<Vertex>& parent)
        : m_parent(&parent)
    {
    }

    template <class Edge, class Graph>
    void tree_edge(Edge e, const Graph& g)
    {
        (*m_parent)[boost::target(e, g)] = boost::source(e, g);
    }

    template <class Edge, class Graph>
    void back_edge(Edge e, const Graph& g)
    {
        throw BackEdge{boost::source(e, g), boost::target(e, g)};
    }

  private:
    std::vector<Vertex>* m_parent;
};

/// The cycle of tag 1 a Boost.Graph search finds over the stored edges (in rule order), as ports.
std::vector<PortIndex>
BoostCycle(const TagRules& rules)
{
    const Topology& topo = rules.GetTopology();
    Digraph g(topo.GetNPorts());
    for (NodeId x = 0; x < topo.GetNNodes(); ++x)
    {
        for (const Rule& r : rules.GetRules(x))
        {
            const PortRef peer = topo.GetPeer(x, r.outPort);
            if (r.tag == 1 && r.newTag == 1 && topo.IsForwarder(peer.node))
            {
                boost::add_edge(topo.GetPortIndex(x, r.inPort),
                                topo.GetPortIndex(peer.node, peer.port),
                                g);
            }
        }
    }
    std::vector<Vertex> parent(topo.GetNPorts());
    try
    {
        boost::depth_first_search(g, boost::visitor(CycleFinder(parent)));
    }
    catch (const BackEdge& e)
    {
        std::vector<PortIndex> cycle;
        for (Vertex n = e.u; n != e.v; n = parent[n])
        {
            cycle.push_back(static_cast<PortIndex>(n));
        }
        cycle.push_back(static_cast<PortIndex>(e.v));
        std::reverse(cycle.begin(), cycle.end());
        return cycle;
    }
    return {};
}

} // namespace

TEST(VerifierThreads, CycleIsTheOneOfADepthFirstSearchOverStoredEdges)
{
    for (uint64_t seed : {1, 2, 3})
    {
        const Topology topo = MakeJellyfish(30, 8, 4, seed);
        const Elp all = MakeShortestPathElp(topo);
        // every ELP transition keeps tag 1: the tag's graph has cycles
        TagRules rules(topo);
        for (NodeId x = 0; x < topo.GetNNodes(); ++x)
        {
            const uint32_t p = topo.IsForwarder(x) ? topo.GetNode(x).ports : 0;
            for (PortNo in = 0; in < p; ++in)
            {
                for (PortNo out = 0; out < p; ++out)
                {
                    if (all.graph.GetMask(x, in, out) != 0)
                    {
                        rules.Set(x, 1, in, out, 1);
                    }
                }
            }
        }
        const std::vector<PortIndex> expected = BoostCycle(rules);
        ASSERT_FALSE(expected.empty());
        for (unsigned threads : {1u, 3u})
        {
            const VerifyResult res = VerifyDeadlockFree(rules, 0, threads);
            ASSERT_FALSE(res.ok);
            std::vector<PortIndex> got;
            for (const TaggedNode& n : res.cycle)
            {
                EXPECT_EQ(1, n.tag);
                got.push_back(topo.GetPortIndex(n.node, n.port));
            }
            EXPECT_EQ(expected, got) << "seed " << seed << ", " << threads << " threads";
        }
    }
}
