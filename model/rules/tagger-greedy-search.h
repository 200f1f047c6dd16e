/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_GREEDY_SEARCH_H
#define TAGGER_GREEDY_SEARCH_H

#include "tagger-algorithms.h"
#include "tagger-elp.h"
#include "tagger-exact-tags.h"
#include "tagger-rule-table.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The order search of the greedy merge: Algorithm 2 leaves the order of the
 * transitions inside a level free, and the tag count depends on it, so the
 * default greedy runs several orders and keeps the best rules.  Also the
 * cheap lower bound on the lossless tags printed beside the result.
 */

namespace ns3
{
namespace tagger
{

/// Shuffled restarts of the search by default (tagger-rules --restarts).
constexpr uint32_t kDefaultRestarts = 64;

/**
 * Work budget of the search by default, in HopGraph entries times attempts:
 * an ELP with E entries (HopGraph::CountEntries) gets at most
 * max(1, kDefaultSearchWork / E) attempts.  A random sparse graph of 30
 * switches with a tree ELP has about 1,200 entries (all 67 attempts), one of 60
 * about 3,500 (28 attempts); Table V's inputs (E from about 10^5 to the
 * millions) run the LOCAL order alone, as before the search existed (a
 * shuffled attempt costs up to three LOCAL ones there).
 */
constexpr uint64_t kDefaultSearchWork = 100000;

/**
 * Work budget of the path scope by default (TagGreedyBest on an Elp), in path
 * hops times greedy runs (attempts and repair reruns): a random sparse graph
 * of 50 switches with a tree ELP has about 10,000 hops (all 1,000 runs, about
 * 2 ms each), one of 80 about 30,000 (333 runs).  Measured in
 * doc/rules-table.rst.
 */
constexpr uint64_t kDefaultPathWork = 10000000;

/// Shuffled restarts of the path scope by default.
constexpr uint32_t kDefaultPathRestarts = 8;

/**
 * Largest ELP, in path hops, on which the search asks the exact solver by
 * default: measured on random sparse graphs, 50 switches (about 10,000 hops)
 * take 3 to 7 s and are solved within kDefaultExactResourceLimit, 65 (about
 * 18,000) are not solved within it after 20 to 26 s (doc/rules-table.rst).
 */
constexpr uint64_t kDefaultExactMaxHops = 12000;

/// Z3's deterministic resource limit per tag count tried, by default.
constexpr uint64_t kDefaultExactResourceLimit = 200000000;

/**
 * \ingroup tagger
 * \brief What the order search tries.
 *
 * The attempts, in this order: LOCAL, PAPER, PLAIN, then `restarts` SHUFFLED
 * orders with seeds derived from `seed` (restart i: SplitMix64(seed + i)).
 * The budget is counted in attempts, so the result depends on the input and
 * these options only: the first `maxWork / entries` attempts are run (at
 * least one; maxWork = 0: all), in rounds of `threads` attempts side by side
 * (each attempt holds its own rules: memory grows with threads).  A wall-clock
 * limit (timeLimit > 0) may stop the search early, after any complete round;
 * the result then depends on the machine (and the thread count), and
 * GreedySearchResult::stoppedByTime says so.
 */
struct GreedySearchOptions
{
    uint32_t restarts{kDefaultRestarts};  //!< SHUFFLED attempts after the three orders
    uint64_t seed{1};                     //!< seed of the shuffled orders
    uint64_t maxWork{kDefaultSearchWork}; //!< entries * attempts budget (0: no limit)
    double timeLimit{0};                  //!< wall-clock seconds (0: none); stops between rounds
    /// attempts run side by side; a round of one attempt compresses its TCAM on this many
    /// threads (the result does not depend on it)
    uint32_t threads{1};

    // The path scope and the exact solver (TagGreedyBest on an Elp only).
    uint32_t pathRestarts{kDefaultPathRestarts}; //!< SHUFFLED path-scope attempts
    uint64_t maxPathWork{kDefaultPathWork};      //!< hops * runs budget of the path scope (0: none)
    bool repair{true}; //!< run PathGreedy::Repair on the best path attempt
    uint64_t exactMaxHops{kDefaultExactMaxHops}; //!< exact solver up to this many hops (0: never)
    uint64_t exactResourceLimit{kDefaultExactResourceLimit}; //!< its rlimit per tag count
};

/// One attempt of the search and how good its rules are.
struct GreedyAttempt
{
    GreedyOrder order{GreedyOrder::LOCAL}; //!< the order
    ElpScope scope{ElpScope::HOP_GRAPH};   //!< HopGraph (TagGreedy) or paths (PathGreedy)
    uint64_t seed{0};                      //!< SHUFFLED: its seed
    uint32_t losslessTags{0};              //!< TagRules::GetLosslessTags
    uint64_t maxTcam{0};                   //!< most TCAM entries at one node
    uint64_t sumTcam{0};                   //!< TCAM entries over all nodes
};

/// The name of an attempt: "local", "paper", "plain", "shuffled#3" (restart 3, from 1);
/// path-scope attempts start with "paths-".
std::string GetName(const GreedyAttempt& attempt, uint32_t restart);

/// The rules the search kept and how it went.
struct GreedySearchResult
{
    TagRules rules;                      //!< the best rules
    GreedyStats stats;                   //!< the greedy's counters, summed over the attempts
    GreedyAttempt winner;                //!< the attempt that gave the rules
    std::string winnerName;              //!< GetName(winner, its restart number)
    std::vector<GreedyAttempt> attempts; //!< every attempt run, in order
    uint32_t planned{0};                 //!< attempts the budget allowed
    uint32_t possible{0};                //!< attempts the options asked for (3 + restarts)
    bool stoppedByTime{false};           //!< the wall-clock limit stopped the search early
    /// the winner's CompressTcamTable when the search counted TCAM entries (more than
    /// one attempt planned), else empty
    TcamTable tcam;

    // TagGreedyBest on an Elp only (else as initialized).
    ElpScope scope{ElpScope::HOP_GRAPH}; //!< what the rules cover (Verify with this scope)
    uint32_t lowerBound{0};              //!< TagLowerBound(elp.graph, classes)
    /// the rules' tag count is proven minimal: it equals lowerBound, or the exact
    /// solver proved no fewer tags suffice for the explicit paths
    bool optimal{false};
    uint32_t pathAttempts{0}; //!< path-scope attempts run
    uint32_t repairRuns{0};   //!< reruns the repair step spent
    bool repaired{false};     //!< the repair step improved the best path attempt
    bool exactTried{false};   //!< the exact solver was asked
    ExactTagsResult exact;    //!< its answer (when tried)
};

/**
 * Run the greedy merge (TagGreedy) with every order of GreedySearchOptions
 * within its budget and keep the rules with the fewest lossless tags, then
 * the fewest TCAM entries at the fullest node, then in total (CompressTcamTable);
 * on a full tie, the earlier attempt.  opt.order and opt.shuffleSeed are
 * ignored; opt's other fields apply to every attempt.  The first attempt is
 * LOCAL, so the result is never worse than the LOCAL order, nor than any
 * other attempt run.
 */
GreedySearchResult TagGreedyBest(const HopGraph& elp,
                                 const TaggingOptions& opt,
                                 const GreedySearchOptions& search = {});

/**
 * The default of tagger-rules: TagGreedyBest on elp.graph, then, when that
 * needs more tags than TagLowerBound and every ELP path is stored, the path
 * scope: PathGreedy with the orders plain, heavy, conflict and
 * search.pathRestarts shuffled ones (seeds as above), all within
 * search.maxPathWork, and the repair step on the best of them.  Path-scope
 * rules replace the HopGraph's only when they need fewer lossless tags (they
 * cover the paths only, ElpScope::PATHS).  Then, when the count is still
 * above the lower bound, with one class, Z3 built in and at most
 * search.exactMaxHops path hops, the exact solver (MinimumLosslessTags within
 * search.exactResourceLimit): when it proves a smaller count its witness
 * becomes the rules ("exact"), and when it proves the count minimal, or the
 * count equals the lower bound, the result says optimal.  Deterministic for a
 * given search.seed and any thread count (the wall-clock limit applies to the
 * HopGraph search only).
 */
GreedySearchResult TagGreedyBest(const Elp& elp,
                                 const TaggingOptions& opt,
                                 const GreedySearchOptions& search = {});

/**
 * A lower bound on the lossless tags of any rules for elp with `classes`
 * application classes: classes + 1 when the ELP's port graph (an edge from
 * the ingress port of every ELP transition (node, in, out) to the ingress
 * port its out port leads to, when that is a forwarding node) has a cycle,
 * else classes.  With one tag for the last class, every transition of the ELP
 * would keep it, and that tag's graph would be the port graph.  With an
 * acyclic port graph the bound is reached (every greedy order keeps every
 * tag), so the bound is the optimum then.
 */
uint32_t TagLowerBound(const HopGraph& elp, uint32_t classes = 1);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_GREEDY_SEARCH_H */
