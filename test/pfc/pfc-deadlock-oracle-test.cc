/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * TestSuite "tagger-deadlock-oracle": the oracle's cycle search
 * (PfcDeadlockOracle::ForEachCycle) finds every elementary cycle of a
 * wait-for graph once, checked against a count by formula (complete
 * digraphs), a graph whose second cycle closes through a cross edge of a
 * depth-first search (one cycle per back edge misses it), and a brute-force
 * enumeration of simple paths on random graphs.  The oracle on switches is
 * tested in tagger-itsy (formations, Confirms).
 */

#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/test.h"

#include <algorithm>
#include <functional>
#include <random>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// A directed graph as adjacency lists.
using Graph = std::vector<std::vector<uint32_t>>;

/// \param adj graph \param cycle vertices \return whether each waits for the next, last for first
bool
IsCycle(const Graph& adj, const std::vector<uint32_t>& cycle)
{
    std::set<uint32_t> distinct(cycle.begin(), cycle.end());
    if (cycle.empty() || distinct.size() != cycle.size())
    {
        return false;
    }
    for (std::size_t i = 0; i < cycle.size(); ++i)
    {
        const std::vector<uint32_t>& out = adj[cycle[i]];
        if (std::find(out.begin(), out.end(), cycle[(i + 1) % cycle.size()]) == out.end())
        {
            return false;
        }
    }
    return true;
}

/// Cycles visited, each checked. \param adj graph \param limit most \param valid out: all cycles
/// \param distinct out: none twice \return the cycles
std::set<std::vector<uint32_t>>
Collect(const Graph& adj, uint32_t limit, bool& valid, bool& distinct, uint32_t& returned)
{
    std::set<std::vector<uint32_t>> seen;
    valid = true;
    distinct = true;
    returned = PfcDeadlockOracle::ForEachCycle(
        adj,
        [&](const std::vector<uint32_t>& c) {
            valid = valid && IsCycle(adj, c) && *std::min_element(c.begin(), c.end()) == c[0];
            distinct = seen.insert(c).second && distinct;
        },
        limit);
    return seen;
}

/// Brute force: from each start s, every simple path over vertices > s back to s.
/// \param adj graph \return the number of elementary cycles
uint64_t
BruteForceCycles(const Graph& adj)
{
    uint64_t count = 0;
    std::vector<bool> on(adj.size(), false);
    std::function<void(uint32_t, uint32_t)> walk = [&](uint32_t s, uint32_t v) {
        on[v] = true;
        for (uint32_t w : adj[v])
        {
            if (w == s)
            {
                ++count;
            }
            else if (w > s && !on[w])
            {
                walk(s, w);
            }
        }
        on[v] = false;
    };
    for (uint32_t s = 0; s < adj.size(); ++s)
    {
        walk(s, s);
    }
    return count;
}

/**
 * \ingroup tagger-tests
 * ForEachCycle against three independent counts.
 */
class OracleCyclesTestCase : public TestCase
{
  public:
    OracleCyclesTestCase()
        : TestCase("oracle cycle search: every elementary cycle once (formula, cross edge, "
                   "brute force)")
    {
    }

  private:
    void DoRun() override
    {
        bool valid = false;
        bool distinct = false;
        uint32_t returned = 0;
        // Complete digraphs: sum over k >= 2 of C(n, k) (k - 1)! cycles.
        for (uint32_t n = 2; n <= 6; ++n)
        {
            Graph k(n);
            for (uint32_t v = 0; v < n; ++v)
            {
                for (uint32_t w = 0; w < n; ++w)
                {
                    if (v != w)
                    {
                        k[v].push_back(w);
                    }
                }
            }
            uint64_t expected = 0;
            for (uint32_t size = 2; size <= n; ++size)
            {
                uint64_t choose = 1;
                for (uint32_t i = 0; i < size; ++i)
                {
                    choose = choose * (n - i) / (i + 1);
                }
                uint64_t arrangements = 1;
                for (uint32_t i = 2; i < size; ++i)
                {
                    arrangements *= i;
                }
                expected += choose * arrangements;
            }
            auto cycles = Collect(k, 100000, valid, distinct, returned);
            NS_TEST_EXPECT_MSG_EQ(cycles.size(), expected, "complete digraph on " << n);
            NS_TEST_EXPECT_MSG_EQ(returned, expected, "its count");
            NS_TEST_EXPECT_MSG_EQ(valid, true, "each a cycle from its lowest vertex");
            NS_TEST_EXPECT_MSG_EQ(distinct, true, "none twice");
        }
        // 0 -> 1 -> 0, and 0 -> 2 -> 1: a depth-first search from 0 closes
        // {0, 1} by a back edge and reaches 1 from 2 by a cross edge, so one
        // cycle per back edge misses 0 -> 2 -> 1 -> 0.
        Graph cross{{1, 2}, {0}, {1}};
        auto cycles = Collect(cross, 100, valid, distinct, returned);
        NS_TEST_EXPECT_MSG_EQ(cycles.size(), 2u, "both cycles");
        NS_TEST_EXPECT_MSG_EQ(cycles.count({0, 2, 1}), 1u, "the one through the cross edge");
        // An acyclic graph has none; the limit stops the search.
        Graph dag{{1, 2}, {2}, {}};
        NS_TEST_EXPECT_MSG_EQ(Collect(dag, 100, valid, distinct, returned).size(), 0u, "DAG");
        Graph k5(5);
        for (uint32_t v = 0; v < 5; ++v)
        {
            for (uint32_t w = 0; w < 5; ++w)
            {
                if (v != w)
                {
                    k5[v].push_back(w);
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(Collect(k5, 10, valid, distinct, returned).size(), 10u, "limit");
        NS_TEST_EXPECT_MSG_EQ(returned, 10u, "limit returned");
        // Random graphs of 8 vertices against the brute force.
        std::mt19937 rng(7);
        std::bernoulli_distribution edge(0.3);
        uint64_t total = 0;
        for (uint32_t g = 0; g < 60; ++g)
        {
            Graph adj(8);
            for (uint32_t v = 0; v < 8; ++v)
            {
                for (uint32_t w = 0; w < 8; ++w)
                {
                    if (v != w && edge(rng))
                    {
                        adj[v].push_back(w);
                    }
                }
            }
            const uint64_t brute = BruteForceCycles(adj);
            auto found = Collect(adj, 100000, valid, distinct, returned);
            NS_TEST_EXPECT_MSG_EQ(found.size(), brute, "random graph " << g);
            NS_TEST_EXPECT_MSG_EQ(valid && distinct, true, "random graph " << g);
            total += brute;
        }
        NS_TEST_EXPECT_MSG_GT(total, 100u, "the random graphs have cycles");
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The oracle's cycle search suite.
 */
class PfcDeadlockOracleTestSuite : public TestSuite
{
  public:
    PfcDeadlockOracleTestSuite()
        : TestSuite("tagger-deadlock-oracle", Type::UNIT)
    {
        AddTestCase(new OracleCyclesTestCase);
    }
};

/// The suite's instance.
static PfcDeadlockOracleTestSuite g_pfcDeadlockOracleTestSuite;
