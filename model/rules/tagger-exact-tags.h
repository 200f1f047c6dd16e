/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_EXACT_TAGS_H
#define TAGGER_EXACT_TAGS_H

#include "tagger-elp.h"
#include "tagger-rule-table.h"
#include "tagger-topology.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The exact minimum number of lossless tags for small ELPs, by an SMT
 * encoding solved with Z3 (Debian package libz3-dev): the oracle of the
 * greedy's tests and of the order benchmark.  Built only when CMake finds
 * Z3; otherwise ExactTagsAvailable() is false and the solver is never called.
 *
 * The problem, exactly.  Given a topology and explicit ELP paths (host, n1,
 * ..., nm, host; n1..nm forwarding nodes), find rules f(x, t, in, out) -> t'
 * with t <= t' <= K for the transitions the paths take, such that
 *  - a packet of every path, starting with tag 1 at n1 (one application
 *    class) and rewritten by f at every node, arrives at every n_i with a tag
 *    in 1..K (every path lossless, tags never decrease), and
 *  - for every tag t, the graph G_t over ingress ports with an edge from
 *    (n_i, its in port) to (n_{i+1}, its in port) for every hop whose
 *    packet arrives with t and leaves with t, is acyclic (no cyclic buffer
 *    dependency within a tag),
 * and the minimum K for which such rules exist.  Only the transitions the
 * paths take get rules (any other rule could only add edges), and the tag
 * delivered to the destination host is free (it is not counted, as in
 * TagRules::GetLosslessTags).  Tags may jump by more than one.
 *
 * Every greedy order's rules meet these conditions for the paths (the
 * verifier checks them), so the minimum is at most any greedy's count.
 *
 * The encoding: one integer tag per distinct path prefix (paths that share
 * a prefix share its tags, since f is a function), one integer f per
 * (node, tag, in, out) used, "prefix tag = t implies next tag = f(x, t, in,
 * out)", and one integer rank per (tag, ingress port) with "both ends of a
 * hop keep t implies rank rises along the hop" (a graph is acyclic exactly
 * when such ranks exist).  K is tried upward from the lower bound.
 */

namespace ns3
{
namespace tagger
{

/// \return true when the library was built with Z3 (MinimumLosslessTags works)
bool ExactTagsAvailable();

/// Outcome of MinimumLosslessTags.
struct ExactTagsResult
{
    bool solved{false};   //!< the minimum is known
    uint32_t minimum{0};  //!< the minimum K (when solved; else 0)
    uint64_t prefixes{0}; //!< distinct path prefixes (tag variables) of the encoding
    /// true when the solver found the minimum (below upperBound): witness holds
    /// the rules of its solution (for the paths' transitions only)
    bool hasWitness{false};
    TagRules witness; //!< with hasWitness: rules with `minimum` lossless tags
};

/**
 * The minimum K of the problem of this file for topo and paths, searched in
 * [lowerBound, upperBound]: K = lowerBound, lowerBound + 1, ... is solved in
 * turn; when every K < upperBound is infeasible the minimum is upperBound,
 * which the caller must know feasible (e.g. a greedy's count; the solver
 * does not check it).  resourceLimit bounds the solver's work per K (Z3's
 * deterministic rlimit, 0: none); when a K runs out of it the result is not
 * solved.  Throws TaggerError when the library was built without Z3, for an
 * invalid path (CheckPath), or when lowerBound is 0 or above upperBound.
 */
ExactTagsResult MinimumLosslessTags(const Topology& topo,
                                    const std::vector<Path>& paths,
                                    uint32_t lowerBound,
                                    uint32_t upperBound,
                                    uint64_t resourceLimit = 0);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_EXACT_TAGS_H */
