/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_GREEDY_PATHS_H
#define TAGGER_GREEDY_PATHS_H

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Algorithm 2 over the explicit ELP paths (ElpScope::PATHS) and the repair
 * step that tries to empty the highest tag.
 *
 * TagGreedy works on the HopGraph, which merges paths by (ingress port,
 * level): it also tags every walk spliced from the prefix of one path and the
 * suffix of another.  Those walks add transitions, hence edges to the tag
 * graphs, hence cycles that cost tags; on random sparse graphs with shortest-path
 * trees the HopGraph greedy needs 3 lossless tags where 2 suffice for the
 * paths themselves.  Here every path carries its own tag from hop to hop, so
 * only the transitions (node, tag, in port, out port) that some path takes
 * with that tag get a rule.  A packet of a spliced walk that is not an ELP
 * path finds no rule at some hop and goes to the lossy queue: deadlock
 * freedom is unaffected (only lossless tags form dependencies), and every ELP
 * path stays lossless.  VerifyElpLossless checks such rules with
 * ElpScope::PATHS.
 */

namespace ns3
{
namespace tagger
{

/// A transition of a packet: at `node` with `tag`, from port `in` to port `out`.
struct TransitionKey
{
    NodeId node{0}; //!< the forwarding node
    Tag tag{0};     //!< the tag the packet arrives with
    PortNo in{0};   //!< ingress port
    PortNo out{0};  //!< egress port

    /// Ordered by node, tag, in port, out port.
    bool operator<(const TransitionKey& o) const;
    /// All four fields equal.
    bool operator==(const TransitionKey& o) const;
};

/// One run of the path greedy and how good its rules are.
struct PathGreedyRun
{
    TagRules rules;           //!< rules for the transitions the paths take
    uint32_t losslessTags{0}; //!< rules.GetLosslessTags()
    /// path hops that arrive at a forwarding node with the highest tag (the
    /// repair step lowers it)
    uint64_t topHops{0};
    /// the raises (tag t to t + 1) on the paths that reach the highest tag, highest t
    /// first, then sorted
    std::vector<TransitionKey> raisedToTop;
    uint64_t transitions{0}; //!< decisions taken
};

/**
 * \ingroup tagger
 * \brief Algorithm 2 with one tag per path instance (ElpScope::PATHS).
 *
 * Levels are hop numbers along the paths (the first forwarding node is level
 * 1).  At each level the transitions the paths take with their current tags
 * are collected, and every one not decided before is decided once: it keeps
 * its tag when its edge (ingress port to the next ingress port) leaves that
 * tag's graph acyclic, else it takes the next tag (first fit, as
 * GreedyOrder::LOCAL).  Inside a level the transitions are taken in this
 * order: the `priority` transitions first (sorted), then by `order`:
 *  - PLAIN: sorted (node, tag, in, out): the plainest Algorithm 2;
 *  - HEAVY: most path instances taking the transition at this level first;
 *  - CONFLICT: largest conflict degree first: (edges into the ingress port)
 *    times (edges out of the next ingress port) in the ELP's port graph, the
 *    number of two-hop walks through the edge, a cheap measure of how many
 *    cycles it can close;
 *  - SHUFFLED: a seeded random order (seed).
 * Other orders throw TaggerError.  Class c's packets start with tag c.
 */
class PathGreedy
{
  public:
    /**
     * \param topo the topology  \param paths explicit paths (host, switches,
     * host), checked as CheckPath does  \param classes application classes
     * Throws TaggerError for a bad path or a bad class count.
     */
    PathGreedy(const Topology& topo, const std::vector<Path>& paths, uint32_t classes = 1);

    /**
     * Run Algorithm 2 once with `order` (seed: SHUFFLED), the priority
     * transitions first in their level, and the `raise` transitions (sorted)
     * given the next tag without trying to keep theirs.
     */
    PathGreedyRun Run(GreedyOrder order,
                      uint64_t seed = 1,
                      const std::vector<TransitionKey>& priority = {},
                      const std::vector<TransitionKey>& raise = {}) const;

    /**
     * The repair step: try to empty the highest tag of `start` (made by Run
     * with `order` and `seed`).  A transition k raised into the highest tag K
     * was refused by a cycle of G_{K-1} that its edge would close; for every
     * such k in turn, and every transition j whose edge lies on that cycle,
     * the greedy is rerun with k first in its level and j raised (a swap: j
     * leaves G_{K-1} so that k can stay).  The swap is kept when the rerun
     * needs fewer tags, or as many with fewer hops at the highest tag.
     * Rounds repeat while one improves, until `lowerBound` is reached or
     * `maxRuns` reruns were spent.  Deterministic.  \return the best run
     * (start when nothing improved); *runs (when given) the reruns spent
     */
    PathGreedyRun Repair(PathGreedyRun start,
                         GreedyOrder order,
                         uint64_t seed,
                         uint32_t lowerBound,
                         uint32_t maxRuns,
                         uint32_t* runs = nullptr) const;

    /// Path hops (forwarding nodes visited) over all paths: the cost of one run.
    uint64_t GetHops() const
    {
        return m_hops.size();
    }

  private:
    /// The transitions of G_{K-1} (K = run's highest tag) on a cycle that key's edge would close.
    std::vector<TransitionKey> BlockingCycle(const PathGreedyRun& run,
                                             const TransitionKey& key) const;

    /// One hop of a path at a forwarding node.
    struct Hop
    {
        NodeId node;    //!< the forwarding node
        PortNo in;      //!< ingress port
        PortNo out;     //!< egress port
        PortIndex from; //!< ingress port index, kNone when a host sent the packet
        PortIndex to;   //!< next ingress port index, kNone when the next node is a host
    };

    const Topology& m_topo;
    uint32_t m_classes;
    std::vector<Hop> m_hops;        //!< all paths' hops, path after path
    std::vector<uint64_t> m_begin;  //!< hops of path i: [m_begin[i], m_begin[i + 1])
    uint32_t m_levels{0};           //!< most hops of one path
    std::vector<uint64_t> m_degree; //!< CONFLICT: conflict degree per hop
};

/// The name of a path-scope order: "paths-plain", "paths-heavy", ...
std::string GetPathOrderName(GreedyOrder order);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_GREEDY_PATHS_H */
