/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_ELP_H
#define TAGGER_ELP_H

#include "tagger-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace tagger
{

/// A path as node ids, from a source host to a destination host.
using Path = std::vector<NodeId>;

/**
 * Which walks a set of rules is made for, and checked against.  The HopGraph
 * merges the ELP's paths by (ingress port, level), so it also holds walks
 * spliced from the prefix of one path and the suffix of another; rules for
 * ElpScope::PATHS cover the explicit paths only (a spliced walk that is no
 * ELP path may meet a hop without a rule there and go lossy).
 */
enum class ElpScope
{
    HOP_GRAPH, //!< every walk of the HopGraph (the ELP's paths and the walks spliced from them)
    PATHS      //!< the explicit ELP paths only (PathGreedy, the exact solver's witness)
};

/// Highest hop level a HopGraph can hold (levels are bits 1..63 of a uint64_t).
constexpr uint32_t kMaxLevel = 63;

/**
 * \ingroup tagger
 * \brief The brute-force tagged graph of Algorithm 1 in compact form.
 *
 * Algorithm 1 tags a packet with its hop number: the packet arrives at the
 * i-th forwarding node of its path with tag i (the first switch after the
 * source host sees level 1).  A node of the brute-force graph is therefore
 * (ingress port, level) and an edge leaves it through an egress port.  This
 * class keeps, for every forwarding node and every (in port, out port) pair, the
 * bitmask of levels at which some ELP path takes that transition.  The next
 * node of an edge is the far end of the out port at level + 1; when that far
 * end is a host which is the path's destination, the edge is the last hop.
 *
 * The same structure is filled from explicit paths or directly from per-hop
 * transition rules (shortest paths, shortest-path trees, up-down with bounces),
 * so families with billions of paths never need enumerating.
 *
 * Paths are node sequences; between two nodes joined by parallel links a path
 * leaves by the lowest port (Topology::GetPortTo) and arrives at that port's
 * peer.  Only forwarding nodes (switches, relaying hosts) have entries.
 */
class HopGraph
{
  public:
    HopGraph() = default;
    explicit HopGraph(const Topology& topo);

    /// Record that a path arrives at (node, in) at `level` and leaves by `out`.
    void Add(NodeId node, PortNo in, PortNo out, uint32_t level);
    /// OR a whole bitmask of levels (bit L = level L).
    void AddMask(NodeId node, PortNo in, PortNo out, uint64_t levels);

    /// One AddMask call, for AddMasks.
    struct MaskUpdate
    {
        NodeId node;     //!< the forwarding node
        PortNo in;       //!< in port
        PortNo out;      //!< out port
        uint64_t levels; //!< bitmask of levels
    };

    /**
     * AddMask for every update, checked in order as AddMask checks one (the
     * first bad update throws).  Faster than one call each on a large graph:
     * the cells of later updates are fetched from memory while earlier ones
     * are applied.
     */
    void AddMasks(const std::vector<MaskUpdate>& updates);

    /// Bitmask of levels for (node, in, out); 0 when none.
    uint64_t GetMask(NodeId node, PortNo in, PortNo out) const
    {
        const auto& m = m_masks[node];
        return m.empty() ? 0 : m[in * m_ports[node] + out];
    }

    /// Record a whole explicit path (host ... host).  Throws TaggerError for a
    /// path that is too short, not host-to-host, has a loop, uses two nodes
    /// that are not linked, or passes through a host that does not relay.
    void AddPath(const Path& path);

    /// Highest level present (0 when empty).
    uint32_t GetMaxLevel() const
    {
        return m_maxLevel;
    }

    /// Number of (node, in, out, level) entries.
    uint64_t CountEntries() const;

    /// true when nothing was added.
    bool IsEmpty() const
    {
        return m_maxLevel == 0;
    }

    const Topology& GetTopology() const
    {
        return *m_topo;
    }

  private:
    /// Check an AddMask call (throws TaggerError) and allocate the node's cells.
    /// \return the cell of (node, in, out), nullptr when levels is 0
    uint64_t* Cell(NodeId node, PortNo in, PortNo out, uint64_t levels);

    const Topology* m_topo{nullptr};
    std::vector<uint32_t> m_ports;              //!< ports per node (0 for non-forwarders)
    std::vector<std::vector<uint64_t>> m_masks; //!< per node: [in * ports + out]
    uint32_t m_maxLevel{0};
};

/**
 * \ingroup tagger
 * \brief A destination-rooted ELP family in compact form: for one destination
 * unit, every node's next hops toward it.
 *
 * The destinations are the hosts attached to `root` (hosts whose only
 * neighbour is root and that do not relay) and root itself when it is a host.
 * The paths toward a destination host t: from every other host s, s's next
 * hop (an attached host's is its switch, implicitly; other hosts are listed),
 * then that node's next hops, until root, then t when t is not root.  A node
 * with several next hops (all shortest paths) branches into several paths; a
 * tree gives one next hop per node.  Hosts attached to root reach t through
 * root directly.  Nodes not listed send nothing toward root.
 */
struct ElpNextHops
{
    NodeId root{kNone};          //!< the destination unit: a switch with attached hosts, or a host
    std::vector<NodeId> nodes;   //!< the nodes with next hops, ascending
    std::vector<uint32_t> begin; //!< next hops of nodes[i]: hops[begin[i] .. begin[i + 1])
    std::vector<NodeId> hops;    //!< the next hops

    /// Append node (above every node so far) with its next hops.
    void Add(NodeId node, const std::vector<NodeId>& next)
    {
        if (begin.empty())
        {
            begin.push_back(0);
        }
        nodes.push_back(node);
        hops.insert(hops.end(), next.begin(), next.end());
        begin.push_back(static_cast<uint32_t>(hops.size()));
    }
};

/**
 * \ingroup tagger
 * \brief Expected lossless paths: always as a HopGraph, and as explicit paths
 * when the generator enumerated them (small families, files, random paths).
 */
struct Elp
{
    HopGraph graph;
    std::vector<Path> paths; //!< explicit paths; may be empty for large families
    /**
     * The destination-rooted family in compact form (ElpOptions::keepNextHops;
     * trees and all-shortest families only), else empty.  Then the first
     * nextHopPaths entries of paths (0 when they were not stored) are the
     * family's paths and the rest were added (AddRandomPaths).
     */
    std::vector<ElpNextHops> nextHops;
    uint64_t nextHopPaths{0}; //!< leading entries of paths that nextHops describe
    uint64_t pathCount{0};    //!< number of ELP paths (counted even when not stored)
    uint32_t longestPath{0};  //!< links on the longest path (host to host), = max level + 1
    /**
     * -1, or K when the ELP is exactly the Clos up-down walks with at most K
     * bounces (MakeUpDownElp).  The HopGraph merges walks by (port, level), so it
     * also holds walks stitched from two ELP walks, which may bounce more than K
     * times; the verifier therefore checks such a family with a state machine
     * over (port, bounces) instead of the HopGraph.
     */
    int32_t upDownBounces{-1};
};

/**
 * \ingroup tagger
 * \brief Options for the ELP generators.
 */
struct ElpOptions
{
    /// Keep explicit paths in Elp::paths when at most this many (0: never).
    uint64_t maxExplicitPaths{1000000};
    uint64_t seed{1}; //!< for tie breaking in trees and for random paths
    /// Trees and all shortest paths: also fill Elp::nextHops (memory: one entry
    /// per (destination unit, node) pair, more for all shortest paths)
    bool keepNextHops{false};
    /// Trees and all shortest paths: threads for the per-destination searches (0: one per
    /// hardware thread); the ELP does not depend on it
    unsigned threads{0};
};

/**
 * All shortest host-to-host paths (every equal-cost path), transiting
 * forwarding nodes only (BCube servers relay).  Built per destination from the
 * BFS shortest-path DAG without enumerating paths; pathCount is the number of
 * paths (not pairs), and the paths are stored when at most
 * opt.maxExplicitPaths.
 */
Elp MakeShortestPathElp(const Topology& topo, const ElpOptions& opt = {});

/**
 * Destination-rooted shortest-path spanning trees (Table V): for every
 * destination switch one BFS tree toward it, each node choosing its parent
 * among equal-distance neighbours at random (seeded); every host reaches every
 * other host along the tree of the destination's switch.  Hosts that relay or
 * have several neighbours get a tree of their own, rooted at themselves, and
 * a multi-homed source picks its first hop at random among the closest.
 * pathCount is the number of connected ordered host pairs; the paths are
 * stored when at most opt.maxExplicitPaths.  Same seed, same trees.
 */
Elp MakeShortestPathTreeElp(const Topology& topo, const ElpOptions& opt = {});

/**
 * Clos up-down paths with up to `bounces` bounces.  Requires a layered
 * topology (TaggerError otherwise).
 *
 * The family, exactly: walks h, n1, ..., nm, h' where h and h' are hosts and
 * n1..nm forwarding nodes, every hop goes to a higher layer (up) or a lower
 * one (down; links within a layer are never used), no hop goes straight back
 * to the node it came from, and at most `bounces` nodes n_i are bounces (entered
 * from a higher layer and left to a higher layer).  The HopGraph holds every
 * transition of every such walk.  A walk may revisit a node (with bounces, or
 * in a full leaf-spine mesh: H1 T1 L1 S1 L2 T1 H2) and may end at its own source
 * host, so the HopGraph can be a superset of the HopGraph of the loop-free
 * up-down paths; it is what the per-hop rule "up, down, bounce at most k
 * times" admits.  Throws TaggerError when such walks would pass more than
 * kMaxLevel forwarding nodes (too many bounces).
 *
 * pathCount and paths: with at most 64 hosts, the loop-free paths of the
 * family are enumerated (stored when at most opt.maxExplicitPaths) and
 * pathCount is their number; with more hosts nothing is stored and pathCount
 * is the number of walks (counted by dynamic programming, saturating at
 * UINT64_MAX).  longestPath is GetMaxLevel() + 1 (over walks).
 */
Elp MakeUpDownElp(const Topology& topo, uint32_t bounces, const ElpOptions& opt = {});

/**
 * The ELP of destination-rooted next hops (Elp::nextHops, e.g. read back from
 * a file): every path ElpNextHops describes, as MakeShortestPathTreeElp
 * builds them (paths stored when at most opt.maxExplicitPaths; the result's
 * nextHops is `hops`).  Throws TaggerError for a hop between nodes that are
 * not linked, a hop from or to a host that must not have one (attached hosts,
 * other than root as a last hop), a node listed twice, next hops that loop,
 * and a path through more than kMaxLevel forwarding nodes.
 */
Elp MakeNextHopElp(const Topology& topo,
                   const std::vector<ElpNextHops>& hops,
                   const ElpOptions& opt = {});

/**
 * The k shortest loop-free paths between every ordered host pair, transiting
 * forwarding nodes only: the first k in the order (number of links, then node
 * ids lexicographically), i.e. what Yen's algorithm with lexicographic
 * tie-breaking returns.  Pairs with fewer loop-free paths get all of them.
 * Hosts under one switch share the search; the first k shortest paths come
 * from a per-destination table when there are at least k, otherwise from an
 * iterative-deepening search (Yen's algorithm for pairs where that search
 * grows too large).  k = 0 throws TaggerError.
 */
Elp MakeKShortestElp(const Topology& topo, uint32_t k, const ElpOptions& opt = {});

/**
 * Add n random loop-free host-to-host paths, seeded, to an ELP: a random
 * source and a random other destination host, then a random walk through
 * forwarding nodes without repeated nodes, each step uniform among the
 * neighbours from which the destination can still be reached within the length
 * limit, restarting when stuck (after 1000 tries: a random shortest path).
 * The length limit is elp.longestPath links when the ELP is not empty (so the
 * random paths never lengthen it, as in Table V), else kMaxLevel + 1 links;
 * never less than the pair's distance.  pathCount grows by n (duplicates
 * included); the paths are appended to elp.paths when the ELP keeps all its
 * paths (paths.size() == pathCount), is an up-down family (upDownBounces >=
 * 0, whose paths the verifier must see one by one), or keeps next hops
 * (nextHops not empty: the random paths are written beside them).  An empty ELP gets a graph for
 * topo; a non-empty one must have been built for topo.
 */
void AddRandomPaths(Elp& elp, const Topology& topo, uint64_t n, uint64_t seed);

/**
 * Read paths from a text file: one path per line, node names separated by
 * spaces, '#' starts a comment, blank lines ignored.  A file whose first
 * non-blank character is '{' is a tagger-rules JSON file instead, read with
 * ReadElpJson (tagger-io.h): its "elp" paths and "elp_next_hops".  Throws TaggerError naming
 * the file and line for an unknown node, a loop, unlinked neighbours, ...
 * ("paths.txt:7: unknown node 'X9'"), for a line longer than kMaxLineBytes
 * (tagger-io.h), and for a file without any path.
 */
Elp ReadElpFile(const Topology& topo, const std::string& filename);

/// Build an Elp from explicit paths (validates each path).
Elp MakeElpFromPaths(const Topology& topo, std::vector<Path> paths);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_ELP_H */
