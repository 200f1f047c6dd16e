/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of DynamicTopoOrder (incremental two-way ordered search and the naive
 * search) against a reference: a plain adjacency set with a DFS reachability
 * test, and Boost.Graph's topological_sort on the final graph.
 */

#include "tagger-dynamic-topo-order.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/topological_sort.hpp>
#include <gtest/gtest.h>
#include <iostream>
#include <iterator>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using ns3::tagger::DynamicTopoOrder;

namespace
{

/// Reference DAG: adjacency sets, DFS reachability.
class RefDag
{
  public:
    explicit RefDag(uint32_t n)
        : m_out(n)
    {
    }

    void Resize(uint32_t n)
    {
        if (n > m_out.size())
        {
            m_out.resize(n);
        }
    }

    bool Reaches(uint32_t from, uint32_t to) const
    {
        std::vector<char> seen(m_out.size(), 0);
        std::vector<uint32_t> st{from};
        seen[from] = 1;
        while (!st.empty())
        {
            uint32_t v = st.back();
            st.pop_back();
            if (v == to)
            {
                return true;
            }
            for (uint32_t w : m_out[v])
            {
                if (!seen[w])
                {
                    seen[w] = 1;
                    st.push_back(w);
                }
            }
        }
        return false;
    }

    /// What TryAddEdge must answer; inserts when accepted.
    bool TryAdd(uint32_t u, uint32_t v)
    {
        if (u == v)
        {
            return false;
        }
        if (m_out[u].count(v))
        {
            return true;
        }
        if (Reaches(v, u))
        {
            return false;
        }
        m_out[u].insert(v);
        ++m_edges;
        return true;
    }

    bool Has(uint32_t u, uint32_t v) const
    {
        return m_out[u].count(v) > 0;
    }

    uint64_t Edges() const
    {
        return m_edges;
    }

    uint32_t Nodes() const
    {
        return static_cast<uint32_t>(m_out.size());
    }

    const std::set<uint32_t>& Out(uint32_t u) const
    {
        return m_out[u];
    }

  private:
    std::vector<std::set<uint32_t>> m_out;
    uint64_t m_edges{0};
};

/// true when Boost's topological sort accepts the reference graph.
bool
BoostIsDag(const RefDag& ref)
{
    using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    G g(ref.Nodes());
    for (uint32_t u = 0; u < ref.Nodes(); ++u)
    {
        for (uint32_t v : ref.Out(u))
        {
            boost::add_edge(u, v, g);
        }
    }
    std::vector<G::vertex_descriptor> order;
    try
    {
        boost::topological_sort(g, std::back_inserter(order));
    }
    catch (const boost::not_a_dag&)
    {
        return false;
    }
    return true;
}

/// The labels of the order must be distinct (incremental mode).
void
ExpectDistinctLabels(const DynamicTopoOrder& d)
{
    std::set<uint64_t> labels;
    for (uint32_t n = 0; n < d.GetNNodes(); ++n)
    {
        labels.insert(d.GetOrder(n));
    }
    EXPECT_EQ(labels.size(), d.GetNNodes());
}

/// d holds exactly the edges of ref.
void
ExpectSameEdges(const DynamicTopoOrder& d, const RefDag& ref)
{
    ASSERT_EQ(d.GetNEdges(), ref.Edges());
    for (uint32_t u = 0; u < ref.Nodes(); ++u)
    {
        for (uint32_t v = 0; v < ref.Nodes(); ++v)
        {
            ASSERT_EQ(d.HasEdge(u, v), ref.Has(u, v)) << "edge " << u << " -> " << v;
        }
    }
}

TEST(DynamicTopoOrderTest, SelfLoopAndDuplicates)
{
    for (bool naive : {false, true})
    {
        DynamicTopoOrder d(5, naive);
        EXPECT_EQ(d.GetNNodes(), 5u);
        EXPECT_FALSE(d.TryAddEdge(3, 3));
        EXPECT_EQ(d.GetNEdges(), 0u);
        EXPECT_TRUE(d.TryAddEdge(1, 2));
        EXPECT_TRUE(d.TryAddEdge(1, 2));
        EXPECT_EQ(d.GetNEdges(), 1u);
        EXPECT_FALSE(d.TryAddEdge(2, 1));
        EXPECT_EQ(d.GetNEdges(), 1u);
    }
}

TEST(DynamicTopoOrderTest, HandMadeReorderAndCycle)
{
    for (bool naive : {false, true})
    {
        DynamicTopoOrder d(4, naive);
        // insert against the initial order first: forces a reorder
        EXPECT_TRUE(d.TryAddEdge(3, 0));
        EXPECT_TRUE(d.TryAddEdge(0, 1));
        EXPECT_TRUE(d.TryAddEdge(1, 2));
        EXPECT_FALSE(d.TryAddEdge(2, 3)); // 3 -> 0 -> 1 -> 2 -> 3
        EXPECT_FALSE(d.TryAddEdge(2, 0));
        EXPECT_TRUE(d.TryAddEdge(3, 2)); // shortcut, fine
        EXPECT_EQ(d.GetNEdges(), 4u);
        if (!naive)
        {
            EXPECT_TRUE(d.CheckOrder());
            EXPECT_LT(d.GetOrder(3), d.GetOrder(0));
            EXPECT_LT(d.GetOrder(0), d.GetOrder(1));
            EXPECT_LT(d.GetOrder(1), d.GetOrder(2));
            ExpectDistinctLabels(d);
        }
    }
}

TEST(DynamicTopoOrderTest, RandomInsertionsMatchReference)
{
    std::mt19937_64 rng(12345);
    for (int round = 0; round < 20; ++round)
    {
        uint32_t n = std::uniform_int_distribution<uint32_t>(2, 60)(rng);
        DynamicTopoOrder inc(n, false);
        DynamicTopoOrder nai(n, true);
        RefDag ref(n);
        std::uniform_int_distribution<uint32_t> pick(0, n - 1);
        for (int i = 0; i < 400; ++i)
        {
            uint32_t u = pick(rng);
            uint32_t v = pick(rng);
            bool want = ref.TryAdd(u, v);
            ASSERT_EQ(inc.TryAddEdge(u, v), want) << u << " -> " << v;
            ASSERT_EQ(nai.TryAddEdge(u, v), want) << u << " -> " << v;
            if (i % 37 == 0)
            {
                ASSERT_TRUE(inc.CheckOrder());
            }
        }
        EXPECT_TRUE(inc.CheckOrder());
        ExpectDistinctLabels(inc);
        ExpectSameEdges(inc, ref);
        ExpectSameEdges(nai, ref);
        EXPECT_EQ(nai.GetNEdges(), ref.Edges());
        EXPECT_TRUE(BoostIsDag(ref));
        // every edge of the reference respects the maintained order
        for (uint32_t u = 0; u < n; ++u)
        {
            for (uint32_t v : ref.Out(u))
            {
                ASSERT_LT(inc.GetOrder(u), inc.GetOrder(v));
            }
        }
    }
}

TEST(DynamicTopoOrderTest, NaiveAndIncrementalAgreeOnThousands)
{
    std::mt19937_64 rng(99);
    const uint32_t n = 300;
    DynamicTopoOrder inc(n, false);
    DynamicTopoOrder nai(n, true);
    std::uniform_int_distribution<uint32_t> pick(0, n - 1);
    uint32_t accepted = 0;
    uint32_t refused = 0;
    for (int i = 0; i < 20000; ++i)
    {
        uint32_t u = pick(rng);
        uint32_t v = pick(rng);
        bool a = inc.TryAddEdge(u, v);
        bool b = nai.TryAddEdge(u, v);
        ASSERT_EQ(a, b) << "insertion " << i << ": " << u << " -> " << v;
        (a ? accepted : refused)++;
    }
    EXPECT_EQ(inc.GetNEdges(), nai.GetNEdges());
    EXPECT_TRUE(inc.CheckOrder());
    // both outcomes must have happened for the comparison to mean something
    EXPECT_GT(accepted, 500u);
    EXPECT_GT(refused, 500u);
}

TEST(DynamicTopoOrderTest, ChainAgainstTheOrderRelabels)
{
    // k -> k-1 for k = 1, 2, ...: every edge goes against the initial order
    // 0, 1, 2, ..., and the moved nodes keep landing at the front of the list,
    // so the gap there runs out of labels (32 halvings of the initial spacing)
    // and must be relabelled; the order ends as the chain n-1, ..., 1, 0.
    const uint32_t n = 400;
    DynamicTopoOrder d(n, false);
    for (uint32_t k = 1; k < n; ++k)
    {
        ASSERT_TRUE(d.TryAddEdge(k, k - 1)) << k;
        ASSERT_FALSE(d.TryAddEdge(0, k)) << k; // 0 is reached from every k
    }
    EXPECT_TRUE(d.CheckOrder());
    ExpectDistinctLabels(d);
    for (uint32_t k = 1; k < n; ++k)
    {
        ASSERT_LT(d.GetOrder(k), d.GetOrder(k - 1));
    }
    EXPECT_EQ(d.GetNEdges(), n - 1);
    EXPECT_GT(d.GetRelabelled(), 0u);
}

TEST(DynamicTopoOrderTest, LayeredInsertionsStayAcyclic)
{
    // Edges mostly "backwards" in id order, which the incremental order must repair.
    std::mt19937_64 rng(5);
    const uint32_t n = 200;
    DynamicTopoOrder inc(n, false);
    RefDag ref(n);
    for (int i = 0; i < 3000; ++i)
    {
        uint32_t u = std::uniform_int_distribution<uint32_t>(1, n - 1)(rng);
        uint32_t v = std::uniform_int_distribution<uint32_t>(0, u - 1)(rng);
        if (i % 10 == 0)
        {
            std::swap(u, v);
        }
        ASSERT_EQ(inc.TryAddEdge(u, v), ref.TryAdd(u, v));
    }
    EXPECT_TRUE(inc.CheckOrder());
    EXPECT_TRUE(BoostIsDag(ref));
    ExpectSameEdges(inc, ref);
}

TEST(DynamicTopoOrderTest, Resize)
{
    for (bool naive : {false, true})
    {
        DynamicTopoOrder d(2, naive);
        EXPECT_TRUE(d.TryAddEdge(0, 1));
        d.Resize(5);
        EXPECT_EQ(d.GetNNodes(), 5u);
        EXPECT_TRUE(d.TryAddEdge(4, 0));
        EXPECT_TRUE(d.TryAddEdge(1, 3));
        EXPECT_FALSE(d.TryAddEdge(3, 4));
        EXPECT_EQ(d.GetNEdges(), 3u);
        if (!naive)
        {
            EXPECT_TRUE(d.CheckOrder());
            ExpectDistinctLabels(d);
        }
        d.Resize(3); // never shrinks below what exists
        EXPECT_GE(d.GetNNodes(), 5u);
    }
}

} // namespace

// The starting order and the landmark filter are performance knobs only: with
// any starting permutation and any landmarks, every decision must equal the
// reference's, and the filter must actually prove refusals on dense graphs.
TEST(DynamicTopoOrderTest, InitialOrderAndLandmarksKeepDecisions)
{
    std::mt19937_64 rng(777);
    uint64_t filtered = 0;
    for (int round = 0; round < 20; ++round)
    {
        const uint32_t n = std::uniform_int_distribution<uint32_t>(8, 80)(rng);
        std::vector<uint32_t> order(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            order[i] = i;
        }
        std::shuffle(order.begin(), order.end(), rng);
        std::vector<uint32_t> landmarks(order.begin(),
                                        order.begin() + std::min<uint32_t>(n, 1 + round * 3));
        DynamicTopoOrder inc(n, false);
        inc.SetInitialOrder(order);
        inc.SetLandmarks(landmarks);
        for (uint32_t i = 1; i < n; ++i)
        {
            ASSERT_LT(inc.GetOrder(order[i - 1]), inc.GetOrder(order[i]));
        }
        RefDag ref(n);
        std::uniform_int_distribution<uint32_t> pick(0, n - 1);
        for (int i = 0; i < 1500; ++i)
        {
            const uint32_t u = pick(rng);
            const uint32_t v = pick(rng);
            ASSERT_EQ(inc.TryAddEdge(u, v), ref.TryAdd(u, v)) << u << " -> " << v;
        }
        EXPECT_TRUE(inc.CheckOrder());
        EXPECT_EQ(inc.GetNEdges(), ref.Edges());
        filtered += inc.GetFiltered();
    }
    EXPECT_GT(filtered, 0u);
}

TEST(DynamicTopoOrderTest, InitialOrderAndLandmarksNeedEmptyGraph)
{
    DynamicTopoOrder g(3, false);
    EXPECT_THROW(g.SetInitialOrder({0, 1}), std::logic_error); // wrong size
    ASSERT_TRUE(g.TryAddEdge(0, 1));
    EXPECT_THROW(g.SetInitialOrder({2, 1, 0}), std::logic_error);
    EXPECT_THROW(g.SetLandmarks({0}), std::logic_error);
}
