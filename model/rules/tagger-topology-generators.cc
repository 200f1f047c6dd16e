/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#include "tagger-topology-generators.h"

#include <algorithm>
#include <functional>
#include <random>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ns3
{
namespace tagger
{

namespace
{

/// Largest topology a generator builds (nodes); beyond this memory runs out.
constexpr uint64_t kMaxGeneratedNodes = uint64_t(1) << 24;
/// Largest total port count a generator builds.
constexpr uint64_t kMaxGeneratedPorts = uint64_t(1) << 28;

/// Throw when a generated topology would be unreasonably large.
void
CheckSize(const std::string& what, uint64_t nodes, uint64_t ports)
{
    if (nodes > kMaxGeneratedNodes || ports > kMaxGeneratedPorts)
    {
        throw TaggerError(what + ": topology too large (" + std::to_string(nodes) + " nodes, " +
                          std::to_string(ports) + " ports; limits " +
                          std::to_string(kMaxGeneratedNodes) + " nodes, " +
                          std::to_string(kMaxGeneratedPorts) + " ports)");
    }
}

/// a * b saturating at UINT64_MAX (inputs are 32-bit so one product never overflows).
uint64_t
SatMul(uint64_t a, uint64_t b)
{
    if (a != 0 && b > UINT64_MAX / a)
    {
        return UINT64_MAX;
    }
    return a * b;
}

/**
 * A three-tier Clos-like network: pods of ToRs and leafs, a spine layer, with
 * the leaf-to-spine wiring given by spineOf(pod, leaf, s).
 */
struct ThreeTierSpec
{
    uint32_t pods;
    uint32_t torsPerPod;
    uint32_t leafsPerPod;
    uint32_t spines;
    uint32_t spinesPerLeaf;
    uint32_t hostsPerTor;
    /// spine (0-based) of the s-th uplink of leaf `leaf` in pod `pod`
    std::function<uint32_t(uint32_t pod, uint32_t leaf, uint32_t s)> spineOf;
};

/// Add the nodes T1.., L1.., S1.., H1.. of a three-tier network.
void
AddThreeTierNodes(const ThreeTierSpec& p, Topology& topo)
{
    const uint32_t nTors = p.pods * p.torsPerPod;
    const uint32_t nLeafs = p.pods * p.leafsPerPod;
    const uint32_t nHosts = nTors * p.hostsPerTor;

    // ports per spine: one per leaf uplink that lands on it
    std::vector<uint32_t> spinePorts(p.spines, 0);
    for (uint32_t pod = 0; pod < p.pods; ++pod)
    {
        for (uint32_t j = 0; j < p.leafsPerPod; ++j)
        {
            for (uint32_t s = 0; s < p.spinesPerLeaf; ++s)
            {
                ++spinePorts[p.spineOf(pod, j, s)];
            }
        }
    }

    for (uint32_t t = 0; t < nTors; ++t)
    {
        topo.AddNode("T" + std::to_string(t + 1),
                     NodeKind::SWITCH,
                     p.hostsPerTor + p.leafsPerPod,
                     1);
    }
    for (uint32_t l = 0; l < nLeafs; ++l)
    {
        topo.AddNode("L" + std::to_string(l + 1),
                     NodeKind::SWITCH,
                     p.torsPerPod + p.spinesPerLeaf,
                     2);
    }
    for (uint32_t s = 0; s < p.spines; ++s)
    {
        topo.AddNode("S" + std::to_string(s + 1), NodeKind::SWITCH, spinePorts[s], 3);
    }
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        topo.AddNode("H" + std::to_string(h + 1), NodeKind::HOST, 1, 0);
    }
}

/// Link the nodes AddThreeTierNodes added.
void
AddThreeTierLinks(const ThreeTierSpec& p, Topology& topo)
{
    const uint32_t nTors = p.pods * p.torsPerPod;
    const uint32_t nLeafs = p.pods * p.leafsPerPod;
    const NodeId torBase = 0;
    const NodeId leafBase = nTors;
    const NodeId spineBase = nTors + nLeafs;
    const NodeId hostBase = spineBase + p.spines;

    // hosts to ToRs
    for (uint32_t t = 0; t < nTors; ++t)
    {
        for (uint32_t h = 0; h < p.hostsPerTor; ++h)
        {
            topo.AddLink(torBase + t, h, hostBase + t * p.hostsPerTor + h, 0);
        }
    }
    // ToRs to leafs, full mesh inside each pod
    for (uint32_t pod = 0; pod < p.pods; ++pod)
    {
        for (uint32_t i = 0; i < p.torsPerPod; ++i)
        {
            for (uint32_t j = 0; j < p.leafsPerPod; ++j)
            {
                topo.AddLink(torBase + pod * p.torsPerPod + i,
                             p.hostsPerTor + j,
                             leafBase + pod * p.leafsPerPod + j,
                             i);
            }
        }
    }
    // leafs to spines; spine ports in (pod, leaf, s) order
    std::vector<uint32_t> nextSpinePort(p.spines, 0);
    for (uint32_t pod = 0; pod < p.pods; ++pod)
    {
        for (uint32_t j = 0; j < p.leafsPerPod; ++j)
        {
            for (uint32_t s = 0; s < p.spinesPerLeaf; ++s)
            {
                uint32_t spine = p.spineOf(pod, j, s);
                topo.AddLink(leafBase + pod * p.leafsPerPod + j,
                             p.torsPerPod + s,
                             spineBase + spine,
                             nextSpinePort[spine]++);
            }
        }
    }
}

/**
 * Build the network: nodes T1.., L1.., S1.., H1.. in that id order; ToR ports
 * hosts then leafs, leaf ports ToRs then spines, spine ports in (pod, leaf, s)
 * order.  The spec must be validated (no parallel links, every spine used).
 */
Topology
BuildThreeTier(const ThreeTierSpec& p)
{
    Topology topo;
    AddThreeTierNodes(p, topo);
    AddThreeTierLinks(p, topo);
    return topo;
}

/// Throw when a fat-tree style k is not an even number >= 2.
void
CheckEvenK(const std::string& what, uint32_t k)
{
    if (k < 2 || k % 2 != 0)
    {
        throw TaggerError(what + ": k must be an even number >= 2 (got k = " + std::to_string(k) +
                          ")");
    }
    uint64_t h = k / 2;
    CheckSize(what, SatMul(h * h, 5) + SatMul(SatMul(k, k), k) / 4, SatMul(SatMul(k, k), k) * 2);
}

/// A fat tree or an F10 AB fat tree.
Topology
MakeFatTreeLike(uint32_t k, bool ab)
{
    const uint32_t h = k / 2;
    ThreeTierSpec spec;
    spec.pods = k;
    spec.torsPerPod = h;
    spec.leafsPerPod = h;
    spec.spines = h * h;
    spec.spinesPerLeaf = h;
    spec.hostsPerTor = h;
    spec.spineOf = [h, ab](uint32_t pod, uint32_t i, uint32_t j) -> uint32_t {
        if (ab && pod % 2 == 1)
        {
            return i + j * h; // B pod: strided
        }
        return i * h + j; // A pod (and every fat-tree pod): consecutive block
    };
    return BuildThreeTier(spec);
}

/**
 * Uniform integers from a std::mt19937_64 by rejection sampling, so the
 * sequence is the same with every standard library (the engine's output is
 * fixed by the standard; std::uniform_int_distribution is not).
 */
class PortableRng
{
  public:
    explicit PortableRng(uint64_t seed)
        : m_gen(seed)
    {
    }

    /// Uniform in [0, n); n > 0.
    uint64_t Below(uint64_t n)
    {
        // values >= limit would bias the modulo; limit = 2^64 - (2^64 mod n)
        const uint64_t rem = (0 - n) % n; // 2^64 mod n
        uint64_t x;
        do
        {
            x = m_gen();
        } while (rem != 0 && x >= 0 - rem);
        return x % n;
    }

  private:
    std::mt19937_64 m_gen;
};

/**
 * The switch graph of a Jellyfish under construction: an edge list, a set of
 * edges for O(1) adjacency tests (never iterated, so the result does not
 * depend on the hash table's order), free port counts and the list of
 * switches with free ports.
 */
class JellyfishBuilder
{
  public:
    JellyfishBuilder(uint32_t n, uint32_t degree, PortableRng& rng)
        : m_n(n),
          m_rng(rng),
          m_free(n, degree),
          m_openPos(n, 0)
    {
        m_open.reserve(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            m_openPos[i] = i;
            m_open.push_back(i);
        }
        m_edgeSet.reserve(size_t(n) * degree);
        m_edges.reserve(size_t(n) * degree / 2);
    }

    /**
     * Run the incremental construction.
     * \return false when it got stuck (a switch with free ports and no edge
     * to break that would not create a parallel link)
     */
    bool Build()
    {
        while (true)
        {
            if (JoinRandomPair())
            {
                continue;
            }
            if (m_open.empty())
            {
                return true;
            }
            if (!SpliceIntoRandomLink())
            {
                return false;
            }
        }
    }

    const std::vector<std::pair<uint32_t, uint32_t>>& GetEdges() const
    {
        return m_edges;
    }

    bool IsConnected() const
    {
        std::vector<std::vector<uint32_t>> adj(m_n);
        for (const auto& e : m_edges)
        {
            adj[e.first].push_back(e.second);
            adj[e.second].push_back(e.first);
        }
        std::vector<char> seen(m_n, 0);
        std::vector<uint32_t> stack{0};
        seen[0] = 1;
        uint32_t count = 1;
        while (!stack.empty())
        {
            uint32_t u = stack.back();
            stack.pop_back();
            for (uint32_t v : adj[u])
            {
                if (!seen[v])
                {
                    seen[v] = 1;
                    ++count;
                    stack.push_back(v);
                }
            }
        }
        return count == m_n;
    }

  private:
    static uint64_t Key(uint32_t a, uint32_t b)
    {
        if (a > b)
        {
            std::swap(a, b);
        }
        return (uint64_t(a) << 32) | b;
    }

    bool Adjacent(uint32_t a, uint32_t b) const
    {
        return m_edgeSet.count(Key(a, b)) != 0;
    }

    void UseFreePort(uint32_t u)
    {
        if (--m_free[u] == 0)
        {
            // remove from the open list by swapping with the last
            uint32_t pos = m_openPos[u];
            uint32_t last = m_open.back();
            m_open[pos] = last;
            m_openPos[last] = pos;
            m_open.pop_back();
        }
    }

    void AddEdge(uint32_t a, uint32_t b)
    {
        m_edges.emplace_back(a, b);
        m_edgeSet.insert(Key(a, b));
        UseFreePort(a);
        UseFreePort(b);
    }

    /// Remove edge number idx without changing free port counts.
    void RemoveEdge(size_t idx)
    {
        m_edgeSet.erase(Key(m_edges[idx].first, m_edges[idx].second));
        m_edges[idx] = m_edges.back();
        m_edges.pop_back();
    }

    /// Join a uniformly random non-adjacent pair of switches with free ports.
    bool JoinRandomPair()
    {
        const size_t m = m_open.size();
        if (m < 2)
        {
            return false;
        }
        // rejection sampling; on repeated failure fall back to enumeration
        for (int tries = 0; tries < 16; ++tries)
        {
            uint32_t i = static_cast<uint32_t>(m_rng.Below(m));
            uint32_t j = static_cast<uint32_t>(m_rng.Below(m - 1));
            if (j >= i)
            {
                ++j;
            }
            if (!Adjacent(m_open[i], m_open[j]))
            {
                AddEdge(m_open[i], m_open[j]);
                return true;
            }
        }
        std::vector<std::pair<uint32_t, uint32_t>> candidates;
        for (size_t i = 0; i < m; ++i)
        {
            for (size_t j = i + 1; j < m; ++j)
            {
                if (!Adjacent(m_open[i], m_open[j]))
                {
                    candidates.emplace_back(m_open[i], m_open[j]);
                }
            }
        }
        if (candidates.empty())
        {
            return false;
        }
        const auto& c = candidates[m_rng.Below(candidates.size())];
        AddEdge(c.first, c.second);
        return true;
    }

    /**
     * Find a random edge (x, y) such that x can be joined to a and y to b
     * without a self-loop or parallel link.  \return its index or SIZE_MAX;
     * when found with the ends swapped, swaps them in place.
     */
    size_t FindSpliceEdge(uint32_t a, uint32_t b)
    {
        auto fits = [this, a, b](uint32_t x, uint32_t y) {
            return x != a && x != b && y != a && y != b && !Adjacent(a, x) && !Adjacent(b, y);
        };
        auto tryEdge = [this, &fits](size_t idx) {
            auto& e = m_edges[idx];
            if (fits(e.first, e.second))
            {
                return true;
            }
            if (fits(e.second, e.first))
            {
                std::swap(e.first, e.second);
                return true;
            }
            return false;
        };
        if (m_edges.empty())
        {
            return SIZE_MAX;
        }
        for (int tries = 0; tries < 64; ++tries)
        {
            size_t idx = m_rng.Below(m_edges.size());
            if (tryEdge(idx))
            {
                return idx;
            }
        }
        std::vector<size_t> candidates;
        for (size_t idx = 0; idx < m_edges.size(); ++idx)
        {
            const auto& e = m_edges[idx];
            if (fits(e.first, e.second) || fits(e.second, e.first))
            {
                candidates.push_back(idx);
            }
        }
        if (candidates.empty())
        {
            return SIZE_MAX;
        }
        size_t idx = candidates[m_rng.Below(candidates.size())];
        tryEdge(idx);
        return idx;
    }

    /**
     * No joinable pair is left.  A switch u with >= 2 free ports takes the
     * place of a random link (x, y): remove it, add (u, x) and (u, y).  When
     * every switch with free ports has exactly one (they are then pairwise
     * adjacent), two of them u, v replace (x, y) by (u, x) and (v, y).
     */
    bool SpliceIntoRandomLink()
    {
        std::vector<uint32_t> wide;
        for (uint32_t u : m_open)
        {
            if (m_free[u] >= 2)
            {
                wide.push_back(u);
            }
        }
        uint32_t a;
        uint32_t b;
        if (!wide.empty())
        {
            a = wide[m_rng.Below(wide.size())];
            b = a;
        }
        else
        {
            if (m_open.size() < 2)
            {
                return false; // an odd number of free ports; excluded by the caller
            }
            size_t i = m_rng.Below(m_open.size());
            size_t j = m_rng.Below(m_open.size() - 1);
            if (j >= i)
            {
                ++j;
            }
            a = m_open[i];
            b = m_open[j];
        }
        size_t idx = FindSpliceEdge(a, b);
        if (idx == SIZE_MAX)
        {
            return false;
        }
        auto e = m_edges[idx];
        RemoveEdge(idx);
        AddEdge(a, e.first);
        AddEdge(b, e.second);
        return true;
    }

    uint32_t m_n;
    PortableRng& m_rng;
    std::vector<uint32_t> m_free;    //!< free switch ports per switch
    std::vector<uint32_t> m_open;    //!< switches with free ports
    std::vector<uint32_t> m_openPos; //!< position in m_open
    std::vector<std::pair<uint32_t, uint32_t>> m_edges;
    std::unordered_set<uint64_t> m_edgeSet;
};

/// Digits of value (base n, `count` digits, most significant first) as a name part.
std::string
DigitString(uint64_t value, uint32_t n, uint32_t count)
{
    std::vector<uint64_t> digits(count);
    for (uint32_t i = 0; i < count; ++i)
    {
        digits[count - 1 - i] = value % n;
        value /= n;
    }
    std::string s;
    for (uint32_t i = 0; i < count; ++i)
    {
        if (n > 10 && i > 0)
        {
            s += '.';
        }
        s += std::to_string(digits[i]);
    }
    return s;
}

/// Throw TaggerError for Jellyfish parameters no random graph can have.
void
CheckJellyfish(uint32_t switches, uint32_t ports, uint32_t switchPorts)
{
    const std::string N = std::to_string(switches);
    const std::string n = std::to_string(ports);
    const std::string r = std::to_string(switchPorts);
    if (switches < 2)
    {
        throw TaggerError("Jellyfish: switches must be >= 2 (got " + N + ")");
    }
    if (switchPorts == 0)
    {
        throw TaggerError("Jellyfish: switchPorts must be >= 1 (got 0): the switches would be "
                          "disconnected");
    }
    if (switchPorts > ports)
    {
        throw TaggerError("Jellyfish: switchPorts (" + r + ") must not exceed ports (" + n + ")");
    }
    if (switchPorts >= switches)
    {
        throw TaggerError("Jellyfish: switchPorts (" + r + ") must be less than switches (" + N +
                          "): a switch has at most switches-1 neighbours");
    }
    if ((uint64_t(switches) * switchPorts) % 2 != 0)
    {
        throw TaggerError("Jellyfish: switches * switchPorts (" + N + " * " + r +
                          ") must be even: every link uses two switch ports");
    }
    if (switchPorts == 1 && switches > 2)
    {
        throw TaggerError("Jellyfish: switchPorts = 1 cannot connect " + N + " switches (only 2)");
    }
}

/// The Jellyfish topology of a switch graph (edges sorted, first < second).
Topology
JellyfishTopology(const std::vector<std::pair<uint32_t, uint32_t>>& edges,
                  uint32_t switches,
                  uint32_t ports,
                  uint32_t hostsPer)
{
    Topology topo;
    for (uint32_t i = 0; i < switches; ++i)
    {
        topo.AddNode("W" + std::to_string(i + 1), NodeKind::SWITCH, ports);
    }
    for (uint64_t h = 0; h < uint64_t(switches) * hostsPer; ++h)
    {
        topo.AddNode("H" + std::to_string(h + 1), NodeKind::HOST, 1);
    }
    for (uint32_t i = 0; i < switches; ++i)
    {
        for (uint32_t h = 0; h < hostsPer; ++h)
        {
            topo.AddLink(i, h, switches + i * hostsPer + h, 0);
        }
    }
    std::vector<PortNo> nextPort(switches, hostsPer);
    for (const auto& e : edges)
    {
        topo.AddLink(e.first, nextPort[e.first]++, e.second, nextPort[e.second]++);
    }
    return topo;
}

} // namespace

ClosParams
PaperTestbedClos()
{
    ClosParams p;
    p.pods = 2;
    p.torsPerPod = 2;
    p.leafsPerPod = 2;
    p.spines = 2;
    p.spinesPerLeaf = 2;
    p.hostsPerTor = 4;
    return p;
}

Topology
MakeClos(const ClosParams& p)
{
    auto nonZero = [](const char* name, uint32_t v) {
        if (v == 0)
        {
            throw TaggerError(std::string("Clos: ") + name + " must be >= 1 (got 0)");
        }
    };
    nonZero("pods", p.pods);
    nonZero("torsPerPod", p.torsPerPod);
    nonZero("leafsPerPod", p.leafsPerPod);
    nonZero("spines", p.spines);
    nonZero("spinesPerLeaf", p.spinesPerLeaf);
    nonZero("hostsPerTor", p.hostsPerTor);
    if (p.spinesPerLeaf > p.spines)
    {
        throw TaggerError("Clos: spinesPerLeaf (" + std::to_string(p.spinesPerLeaf) +
                          ") must not exceed spines (" + std::to_string(p.spines) +
                          "): a leaf would have parallel links to one spine");
    }
    if (uint64_t(p.leafsPerPod) * p.spinesPerLeaf < p.spines)
    {
        throw TaggerError("Clos: spines (" + std::to_string(p.spines) +
                          ") exceeds leafsPerPod * spinesPerLeaf (" +
                          std::to_string(uint64_t(p.leafsPerPod) * p.spinesPerLeaf) +
                          "): some spines would have no link");
    }
    const uint64_t tors = SatMul(p.pods, p.torsPerPod);
    const uint64_t leafs = SatMul(p.pods, p.leafsPerPod);
    const uint64_t hosts = SatMul(tors, p.hostsPerTor);
    const uint64_t torLinks = SatMul(tors, p.leafsPerPod);
    const uint64_t spineLinks = SatMul(leafs, p.spinesPerLeaf);
    uint64_t nodes = tors + leafs + p.spines + hosts;
    uint64_t ports = 2 * (hosts + torLinks + spineLinks);
    if (hosts == UINT64_MAX || torLinks == UINT64_MAX || spineLinks == UINT64_MAX)
    {
        nodes = ports = UINT64_MAX;
    }
    CheckSize("Clos", nodes, ports);

    ThreeTierSpec spec;
    spec.pods = p.pods;
    spec.torsPerPod = p.torsPerPod;
    spec.leafsPerPod = p.leafsPerPod;
    spec.spines = p.spines;
    spec.spinesPerLeaf = p.spinesPerLeaf;
    spec.hostsPerTor = p.hostsPerTor;
    const uint32_t spl = p.spinesPerLeaf;
    const uint32_t spines = p.spines;
    spec.spineOf = [spl, spines](uint32_t, uint32_t leaf, uint32_t s) -> uint32_t {
        return static_cast<uint32_t>((uint64_t(leaf) * spl + s) % spines);
    };
    return BuildThreeTier(spec);
}

Topology
MakeFatTree(uint32_t k)
{
    CheckEvenK("FatTree", k);
    return MakeFatTreeLike(k, false);
}

Topology
MakeF10(uint32_t k)
{
    CheckEvenK("F10", k);
    return MakeFatTreeLike(k, true);
}

Topology
MakeJellyfish(uint32_t switches, uint32_t ports, uint32_t switchPorts, uint64_t seed)
{
    CheckJellyfish(switches, ports, switchPorts);
    const std::string N = std::to_string(switches);
    const std::string r = std::to_string(switchPorts);
    const uint32_t hostsPer = ports - switchPorts;
    CheckSize("Jellyfish",
              uint64_t(switches) + SatMul(switches, hostsPer),
              SatMul(switches, ports) + SatMul(switches, hostsPer));

    PortableRng rng(seed);
    constexpr int kMaxAttempts = 1000;
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt)
    {
        JellyfishBuilder builder(switches, switchPorts, rng);
        if (!builder.Build() || !builder.IsConnected())
        {
            continue;
        }
        auto edges = builder.GetEdges();
        for (auto& e : edges)
        {
            if (e.first > e.second)
            {
                std::swap(e.first, e.second);
            }
        }
        std::sort(edges.begin(), edges.end());
        return JellyfishTopology(edges, switches, ports, hostsPer);
    }
    throw TaggerError("Jellyfish: no connected random graph of " + N + " switches with " + r +
                      " switch ports each after " + std::to_string(kMaxAttempts) +
                      " attempts (seed " + std::to_string(seed) + ")");
}

Topology
MakeLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    for (auto [name, value] : {std::make_pair("leaves", leaves),
                               std::make_pair("spines", spines),
                               std::make_pair("hostsPerLeaf", hostsPerLeaf)})
    {
        if (value == 0)
        {
            throw TaggerError(std::string("MakeLeafSpine: ") + name + " must be positive");
        }
    }
    Topology topo;
    std::vector<NodeId> spineIds;
    std::vector<NodeId> leafIds;
    for (uint32_t s = 0; s < spines; ++s)
    {
        spineIds.push_back(topo.AddNode("S" + std::to_string(s + 1), NodeKind::SWITCH, leaves, 2));
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        leafIds.push_back(
            topo.AddNode("L" + std::to_string(l + 1), NodeKind::SWITCH, hostsPerLeaf + spines, 1));
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t h = 0; h < hostsPerLeaf; ++h)
        {
            NodeId host =
                topo.AddNode("H" + std::to_string(l * hostsPerLeaf + h + 1), NodeKind::HOST, 1, 0);
            topo.AddLink(host, 0, leafIds[l], h);
        }
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            topo.AddLink(leafIds[l], hostsPerLeaf + s, spineIds[s], l);
        }
    }
    return topo;
}

Topology
MakeBCube(uint32_t n, uint32_t k)
{
    if (n < 2)
    {
        throw TaggerError("BCube: n (switch ports) must be >= 2 (got " + std::to_string(n) + ")");
    }
    if (k < 1)
    {
        throw TaggerError("BCube: k must be >= 1 (got 0; BCube_0 is a single switch)");
    }
    // n^(k+1) servers, (k+1) * n^k switches, (k+1) * n^(k+1) links
    uint64_t perLevel = 1; // n^k
    for (uint32_t i = 0; i < k && perLevel <= kMaxGeneratedNodes; ++i)
    {
        perLevel *= n;
    }
    const uint64_t servers = SatMul(perLevel, n);
    const uint64_t switchCount = SatMul(perLevel, uint64_t(k) + 1);
    CheckSize("BCube",
              perLevel > kMaxGeneratedNodes ? UINT64_MAX : servers + switchCount,
              perLevel > kMaxGeneratedNodes ? UINT64_MAX : 2 * SatMul(servers, uint64_t(k) + 1));

    Topology topo;
    for (uint64_t s = 0; s < servers; ++s)
    {
        topo.AddNode("H" + DigitString(s, n, k + 1), NodeKind::HOST, k + 1, -1, true);
    }
    const NodeId switchBase = static_cast<NodeId>(servers);
    for (uint32_t l = 0; l <= k; ++l)
    {
        for (uint64_t w = 0; w < perLevel; ++w)
        {
            topo.AddNode("W" + std::to_string(l) + "_" + DigitString(w, n, k), NodeKind::SWITCH, n);
        }
    }
    for (uint64_t s = 0; s < servers; ++s)
    {
        uint64_t low = 1; // n^l
        for (uint32_t l = 0; l <= k; ++l)
        {
            const uint64_t digit = (s / low) % n;
            // the server's digits without a_l: the digits above l shift down by one
            const uint64_t w = (s / (low * n)) * low + s % low;
            topo.AddLink(static_cast<NodeId>(s),
                         l,
                         switchBase + static_cast<NodeId>(l * perLevel + w),
                         static_cast<PortNo>(digit));
            low *= n;
        }
    }
    return topo;
}

} // namespace tagger
} // namespace ns3
