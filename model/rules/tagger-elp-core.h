/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_ELP_CORE_H
#define TAGGER_ELP_CORE_H

#include "tagger-elp.h"
#include "tagger-topology.h"

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The pieces the ELP generators (tagger-elp-*.cc) share: saturating counts,
 * seeded uniform draws, path checks, and Net, the compressed adjacency with
 * the per-destination "units".  Internal to the rule library (namespace
 * detail); the API is tagger-elp.h.
 */

namespace ns3
{
namespace tagger
{
namespace detail
{

/// All 64 bits set (also the saturated count).
constexpr uint64_t kAllOnes = std::numeric_limits<uint64_t>::max();

/// Index of the highest set bit of a non-zero mask.
inline uint32_t
HighestBit(uint64_t m)
{
    return 63u - static_cast<uint32_t>(__builtin_clzll(m));
}

/// a + b, saturating at kAllOnes.
inline uint64_t
SatAdd(uint64_t a, uint64_t b)
{
    uint64_t s = a + b;
    return s < a ? kAllOnes : s;
}

/// a * b, saturating at kAllOnes.
inline uint64_t
SatMul(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 0)
    {
        return 0;
    }
    return a > kAllOnes / b ? kAllOnes : a * b;
}

/// 2^64 mod n for n below kSmallModuli (0 and 1: 0), computed once at compile time.
constexpr uint32_t kSmallModuli = 256;

/// The table of 2^64 mod n for n < kSmallModuli.
constexpr std::array<uint64_t, kSmallModuli>
MakeSmallRemainders()
{
    std::array<uint64_t, kSmallModuli> rem{};
    for (uint64_t n = 2; n < kSmallModuli; ++n)
    {
        rem[n] = (kAllOnes % n + 1) % n;
    }
    return rem;
}

/// 2^64 mod n for n < kSmallModuli (saves a division per draw: trees draw once per node).
inline constexpr std::array<uint64_t, kSmallModuli> kSmallRemainders = MakeSmallRemainders();

/**
 * Uniform integer in [0, n) from a 64-bit Mersenne twister, by rejection, so
 * the sequence is the same with every standard library (the distributions of
 * <random> are implementation-defined).
 */
inline uint64_t
UniformIndex(std::mt19937_64& rng, uint64_t n)
{
    if (n <= 1)
    {
        return 0;
    }
    // 2^64 mod n
    const uint64_t rem = n < kSmallModuli ? kSmallRemainders[n] : (kAllOnes % n + 1) % n;
    const uint64_t limit = 0 - rem; // 2^64 - rem (0: accept all)
    for (;;)
    {
        uint64_t v = rng();
        if (rem == 0 || v < limit)
        {
            return v % n;
        }
    }
}

/// Throw the TaggerError of a path through more than kMaxLevel forwarding nodes.
[[noreturn]] void ThrowTooLong();

/// "H1 T1 L1 T2 H2" (shortened in the middle for very long paths).
std::string PathText(const Topology& topo, const Path& path);

/**
 * Why a path is not a valid ELP path, or "" when it is.  The message names
 * the node(s) at fault but not the path (the caller adds the context).
 */
std::string CheckPath(const Topology& topo, const Path& path);

/// Stable sort by (source, destination): the order the generators store paths in.
void SortPaths(std::vector<Path>& paths);

/**
 * One direction of a link between two distinct neighbours, as a node-path
 * uses it: the lowest port of the owner to nbr (GetPortTo).
 */
struct Adj
{
    NodeId nbr;   //!< the neighbour
    PortNo out;   //!< owner's port to nbr (lowest)
    PortNo in;    //!< owner's port where nbr's packets arrive (peer of nbr's lowest port)
    PortNo farIn; //!< nbr's port where the owner's packets arrive (peer of out)
};

/**
 * Compressed adjacency over distinct neighbours, plus the "units" the
 * per-destination generators work with.
 *
 * A host is attached to forwarder a when it does not relay and a is its only
 * neighbour (a Jellyfish or Clos server under its ToR).  Attached hosts of one
 * forwarder behave identically, so the generators handle them together.  The
 * units are the forwarders with attached hosts and every host that is not
 * attached (relaying BCube servers, multi-homed hosts): one per-destination
 * computation per unit.
 */
class Net
{
  public:
    explicit Net(const Topology& topo);

    const Topology& topo;
    uint32_t n;
    std::vector<char> fwd;          //!< forwarder (switch or relay host)
    std::vector<char> host;         //!< host
    std::vector<uint32_t> begin;    //!< CSR start per node (n + 1)
    std::vector<uint32_t> fwdEnd;   //!< end of the forwarder neighbours (sorted by id)
    std::vector<Adj> adj;           //!< forwarder neighbours first, then the others
    std::vector<NodeId> nbr;        //!< adj[i].nbr, compact for scanning
    std::vector<uint32_t> rev;      //!< entry of the opposite direction
    std::vector<NodeId> anchorOf;   //!< host: forwarder it is attached to, or kNone
    std::vector<uint32_t> attBegin; //!< CSR over att (n + 1)
    std::vector<uint32_t> att;      //!< entries of a forwarder toward its attached hosts
    std::vector<NodeId> units;      //!< unit anchors, ascending
    std::vector<NodeId> hosts;      //!< all hosts, ascending
    std::vector<NodeId> freeNonFwd; //!< unattached hosts that do not relay

    uint32_t AttCount(NodeId x) const
    {
        return attBegin[x + 1] - attBegin[x];
    }

    /// Entry of x toward y, or kNone.
    uint32_t FindEntry(NodeId x, NodeId y) const
    {
        for (uint32_t i = begin[x]; i < begin[x + 1]; ++i)
        {
            if (adj[i].nbr == y)
            {
                return i;
            }
        }
        return kNone;
    }

  private:
    void BuildAdjacency();  //!< begin, fwdEnd, adj, nbr
    void LinkDirections();  //!< rev and Adj::in
    void FindAttachments(); //!< anchorOf, attBegin, att
    void FindUnits();       //!< units, freeNonFwd
};

/**
 * Breadth-first distances from root over forwarding nodes (root itself may be a
 * host).  dist must hold -1 for every node not yet reached; order receives the
 * nodes reached, root first.
 */
void BfsOverForwarders(const Net& net,
                       NodeId root,
                       std::vector<int32_t>& dist,
                       std::vector<NodeId>& order);

/**
 * One destination's BFS over forwarders with, for every node reached, its
 * candidates: the entries toward its forwarder neighbours one hop closer to
 * the root, in adjacency order.  The result is that of the plain BFS
 * (BfsOverForwarders, then every node scanning its neighbours); positions
 * are those of its order.
 */
struct RootBfs
{
    std::vector<NodeId> order;       //!< the nodes reached, root first, in BFS order
    std::vector<int32_t> dist;       //!< per order position: hops to the root
    std::vector<uint32_t> candBegin; //!< per order position: start in cands (one more at the end)
    std::vector<uint32_t> cands;     //!< Net entries of the candidates
    std::vector<Adj> candAdj;        //!< Net::adj of the candidates
};

/// Scratch space of RunRootBfs, one per thread.
struct RootBfsScratch
{
    /// \param net the network (sizes the per-node arrays)
    explicit RootBfsScratch(const Net& net);

    std::vector<int32_t> dist;  //!< per node: hops to the root, -1 (restored on return)
    std::vector<uint32_t> pos;  //!< per node: position in the order (when reached)
    std::vector<NodeId> fwds;   //!< every forwarder, ascending
    std::vector<NodeId> unseen; //!< forwarders not reached yet (bottom-up steps)
    uint32_t words{1};          //!< 64-bit words of a bitset over the most forwarder neighbours
    /// top-down: per new node a bitset over its adjacency; bottom-up: (key, node) pairs
    std::vector<uint64_t> keys;
    std::vector<uint32_t> tmp; //!< candidates before they are laid out in order
    std::vector<uint32_t> at;  //!< per new node: start of its candidates in tmp
};

/**
 * RootBfs of root r, direction-optimizing: a level whose frontier is larger
 * than the forwarders not reached yet is grown bottom-up (each unreached
 * forwarder looks for a neighbour in the frontier: its candidates), the
 * others top-down (the frontier's scan discovers the next level and gives its
 * candidates); the order is rebuilt as the top-down one (by first parent,
 * then the parent's adjacency).  Once every forwarder is reached no node is
 * scanned again.
 */
void RunRootBfs(const Net& net, NodeId r, RootBfsScratch& scratch, RootBfs& b);

/// Per-forwarder bitset over its ports.
class PortSets
{
  public:
    explicit PortSets(const Topology& topo);

    void Set(NodeId x, PortNo p)
    {
        m_bits[m_base[x] + p / 64] |= uint64_t{1} << (p % 64);
    }

    /// Call f(port) for every port of x in the set, ascending.
    template <typename F>
    void ForEach(NodeId x, F f) const
    {
        for (uint32_t w = m_base[x]; w < m_base[x + 1]; ++w)
        {
            uint64_t b = m_bits[w];
            while (b)
            {
                uint32_t bit = static_cast<uint32_t>(__builtin_ctzll(b));
                b &= b - 1;
                f(static_cast<PortNo>((w - m_base[x]) * 64 + bit));
            }
        }
    }

  private:
    std::vector<uint32_t> m_base;
    std::vector<uint64_t> m_bits;
};

/**
 * Level-1 transitions of attached hosts: (x, in from host s, out p) for every
 * attached s of x and every p collected in the set.
 */
void FillAttachedSources(const Net& net, const PortSets& outs, HopGraph& g);

} // namespace detail
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_ELP_CORE_H */
