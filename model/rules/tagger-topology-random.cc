/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 *
 * MakeRandomSparse (tagger-topology-generators.h): connected random sparse
 * switch graphs with one host per switch.
 */

#include "tagger-elp-core.h"
#include "tagger-topology-generators.h"

#include <algorithm>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{
namespace tagger
{

namespace
{

using detail::UniformIndex;

/// The switch graph under construction: degrees, targets and the edge set.
class SparseBuilder
{
  public:
    SparseBuilder(uint32_t n, uint32_t minDegree, uint32_t maxDegree, std::mt19937_64& rng)
        : m_n(n),
          m_max(maxDegree),
          m_rng(rng),
          m_degree(n, 0),
          m_target(n)
    {
        for (uint32_t& t : m_target)
        {
            t = minDegree + static_cast<uint32_t>(UniformIndex(m_rng, maxDegree - minDegree + 1));
        }
    }

    /// The random spanning tree: each switch (in random order) joins an earlier one.
    void SpanningTree()
    {
        std::vector<uint32_t> order(m_n);
        for (uint32_t i = 0; i < m_n; ++i)
        {
            order[i] = i;
        }
        Shuffle(order);
        std::vector<uint32_t> open;
        for (uint32_t k = 1; k < m_n; ++k)
        {
            for (uint32_t cap : {0u, 1u})
            {
                open.clear();
                for (uint32_t j = 0; j < k; ++j)
                {
                    const uint32_t v = order[j];
                    if (m_degree[v] < (cap == 0 ? m_target[v] : m_max))
                    {
                        open.push_back(v);
                    }
                }
                if (!open.empty())
                {
                    break;
                }
            }
            // a tree on k nodes has degree sum 2(k-1) < 2k: some node is below maxDegree >= 2
            Join(order[k], open[UniformIndex(m_rng, open.size())]);
        }
    }

    /// Join random pairs below their targets that are not neighbours, until none is left.
    void Fill()
    {
        for (;;)
        {
            std::vector<uint32_t> open;
            for (uint32_t v = 0; v < m_n; ++v)
            {
                if (m_degree[v] < m_target[v])
                {
                    open.push_back(v);
                }
            }
            if (!JoinRandomOpenPair(open))
            {
                return;
            }
        }
    }

    /// The edges, (lower, higher), sorted.
    const std::set<std::pair<uint32_t, uint32_t>>& GetEdges() const
    {
        return m_edges;
    }

    /// A seeded Fisher-Yates shuffle.
    template <typename T>
    void Shuffle(std::vector<T>& v)
    {
        for (size_t i = v.size(); i > 1; --i)
        {
            std::swap(v[i - 1], v[UniformIndex(m_rng, i)]);
        }
    }

  private:
    bool Linked(uint32_t a, uint32_t b) const
    {
        return m_edges.count({std::min(a, b), std::max(a, b)}) > 0;
    }

    void Join(uint32_t a, uint32_t b)
    {
        m_edges.insert({std::min(a, b), std::max(a, b)});
        ++m_degree[a];
        ++m_degree[b];
    }

    /// 100 random draws of a pair of open switches, then every pair in order.
    bool JoinRandomOpenPair(const std::vector<uint32_t>& open)
    {
        if (open.size() < 2)
        {
            return false;
        }
        for (int tries = 0; tries < 100; ++tries)
        {
            const uint32_t a = open[UniformIndex(m_rng, open.size())];
            const uint32_t b = open[UniformIndex(m_rng, open.size())];
            if (a != b && !Linked(a, b))
            {
                Join(a, b);
                return true;
            }
        }
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        for (size_t i = 0; i < open.size(); ++i)
        {
            for (size_t j = i + 1; j < open.size(); ++j)
            {
                if (!Linked(open[i], open[j]))
                {
                    pairs.emplace_back(open[i], open[j]);
                }
            }
        }
        if (pairs.empty())
        {
            return false;
        }
        const auto& p = pairs[UniformIndex(m_rng, pairs.size())];
        Join(p.first, p.second);
        return true;
    }

    uint32_t m_n;
    uint32_t m_max;
    std::mt19937_64& m_rng;
    std::vector<uint32_t> m_degree;
    std::vector<uint32_t> m_target;
    std::set<std::pair<uint32_t, uint32_t>> m_edges;
};

/// Throw TaggerError for parameters no connected graph of this kind can have.
void
CheckRandomSparse(uint32_t switches, uint32_t minDegree, uint32_t maxDegree)
{
    const std::string n = std::to_string(switches);
    if (switches < 2 || switches > 100000)
    {
        throw TaggerError("random sparse graph: switches must be 2 to 100000 (got " + n + ")");
    }
    if (minDegree < 1 || maxDegree < minDegree)
    {
        throw TaggerError("random sparse graph: need 1 <= minDegree <= maxDegree (got " +
                          std::to_string(minDegree) + " and " + std::to_string(maxDegree) + ")");
    }
    if (maxDegree >= switches)
    {
        throw TaggerError("random sparse graph: maxDegree (" + std::to_string(maxDegree) +
                          ") must be less than switches (" + n + ")");
    }
    if (maxDegree < 2 && switches > 2)
    {
        throw TaggerError("random sparse graph: maxDegree 1 cannot connect " + n + " switches");
    }
}

} // namespace

Topology
MakeRandomSparse(uint32_t switches, uint32_t minDegree, uint32_t maxDegree, uint64_t seed)
{
    CheckRandomSparse(switches, minDegree, maxDegree);
    std::mt19937_64 rng(seed);
    SparseBuilder b(switches, minDegree, maxDegree, rng);
    b.SpanningTree();
    b.Fill();
    std::vector<std::vector<uint32_t>> nbrs(switches);
    for (const auto& e : b.GetEdges())
    {
        nbrs[e.first].push_back(e.second);
        nbrs[e.second].push_back(e.first);
    }
    Topology topo;
    for (uint32_t i = 0; i < switches; ++i)
    {
        topo.AddNode("W" + std::to_string(i + 1), NodeKind::SWITCH, nbrs[i].size() + 1);
    }
    for (uint32_t i = 0; i < switches; ++i)
    {
        topo.AddNode("H" + std::to_string(i + 1), NodeKind::HOST, 1);
    }
    // port[i][k]: switch i's port to its k-th neighbour (ascending ids); the last is the host's
    std::vector<std::vector<PortNo>> port(switches);
    for (uint32_t i = 0; i < switches; ++i)
    {
        port[i].resize(nbrs[i].size() + 1);
        for (size_t k = 0; k < port[i].size(); ++k)
        {
            port[i][k] = static_cast<PortNo>(k);
        }
        b.Shuffle(port[i]);
        topo.AddLink(i, port[i].back(), switches + i, 0);
    }
    for (const auto& e : b.GetEdges())
    {
        const auto& na = nbrs[e.first];
        const auto& nb = nbrs[e.second];
        const size_t ka = std::find(na.begin(), na.end(), e.second) - na.begin();
        const size_t kb = std::find(nb.begin(), nb.end(), e.first) - nb.begin();
        topo.AddLink(e.first, port[e.first][ka], e.second, port[e.second][kb]);
    }
    return topo;
}

} // namespace tagger
} // namespace ns3
