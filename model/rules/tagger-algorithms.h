/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_ALGORITHMS_H
#define TAGGER_ALGORITHMS_H

#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace tagger
{

/// How the greedy merge checks that a merge keeps a tag's subgraph acyclic.
enum class CycleCheck
{
    INCREMENTAL, //!< dynamic topological order (two-way search), O(nodes it moves)
    NAIVE        //!< a fresh graph search per merge, as in the paper's analysis
};

/// In which order the greedy merge raises tags.
enum class GreedyOrder
{
    /**
     * Each transition keeps its incoming tag when that adds no cycle, else takes
     * tag + 1 (first fit per transition).
     */
    LOCAL,
    /**
     * Algorithm 2 as printed: one current tag t' for the whole level; once a
     * level needed t' + 1, every later level starts from t' + 1.
     */
    PAPER,
    /**
     * Algorithm 2 with the plainest order: inside a level the transitions
     * (switch, tag, in, out) are taken in sorted order (switch id, then tag,
     * in port, out port), each first fit as in LOCAL.
     */
    PLAIN,
    /**
     * A seeded random order inside every level (TaggingOptions::shuffleSeed),
     * each transition first fit as in LOCAL: the randomized restarts of the
     * order search (tagger-greedy-search.h).
     */
    SHUFFLED,
    /**
     * Explicit paths only (PathGreedy): inside a level, the transitions most
     * path instances take first.
     */
    HEAVY,
    /**
     * Explicit paths only (PathGreedy): inside a level, the transitions whose
     * edge has the largest conflict degree first.
     */
    CONFLICT
};

/// The tagger-rules name of an order: "local", "paper", "plain", "shuffled", "heavy", "conflict".
std::string GetName(GreedyOrder order);

/// Options of the tagging algorithms.
struct TaggingOptions
{
    uint32_t classes{1}; //!< application classes; class c starts with tag c
    CycleCheck cycleCheck{CycleCheck::INCREMENTAL};
    GreedyOrder order{GreedyOrder::LOCAL};
    uint64_t shuffleSeed{1}; //!< GreedyOrder::SHUFFLED: the seed of the order
};

/**
 * Algorithm 1 (brute force): the tag is the hop number, +1 at every hop.
 * With classes > 1, class c starts at tag c.
 */
TagRules TagBruteForce(const HopGraph& elp, const TaggingOptions& opt = {});

/**
 * Algorithm 2 (greedy merge of the brute-force tags), processing the levels of
 * the brute-force graph in order.  The unit of decision is a transition
 * (node, tag, in port, out port): all packets that share it get one new tag, so
 * the result is a function of (tag, in, out) by construction.  A transition
 * keeps its tag when the edge it adds leaves that tag's subgraph acyclic,
 * otherwise it gets the next tag (which can never close a cycle, since edges
 * between tags only go up).  Inside a level, transitions are taken in the
 * order opt.order names; LOCAL and PAPER take them in node, in-port, out-port
 * order, first those whose edge agrees with an up-down order of the links (BFS
 * ranks), then the others.  The result depends on the order (and, for
 * SHUFFLED, on opt.shuffleSeed) only, never on the cycle check.
 */
TagRules TagGreedy(const HopGraph& elp, const TaggingOptions& opt = {});

/**
 * Clos bounce tagging (section IV): ToR and Leaf switches raise the tag by one
 * when a packet that came down (arrived from a higher layer) goes up again;
 * every other transition keeps the tag.  Tags 1 .. bounces + classes: class c
 * starts at tag c, tolerates `bounces` bounces and becomes lossy after that.
 * Requires a layered topology (throws TaggerError otherwise).
 */
TagRules TagClos(const Topology& topo, uint32_t bounces, const TaggingOptions& opt = {});

/// Counters reported by the greedy merge (for benchmarks).
struct GreedyStats
{
    uint64_t transitions{0}; //!< decisions taken
    uint64_t merged{0};      //!< decisions that kept the tag
    uint64_t cycleChecks{0}; //!< edge insertions checked
    uint64_t rejected{0};    //!< checks that found a cycle
    uint64_t visited{0};     //!< nodes visited by the cycle checks' searches
    uint64_t filtered{0};    //!< refusals proven by the landmark filter, no search

    /// Add another run's counters.
    GreedyStats& operator+=(const GreedyStats& other);
};

/// TagGreedy with statistics.
TagRules TagGreedy(const HopGraph& elp, const TaggingOptions& opt, GreedyStats& stats);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_ALGORITHMS_H */
