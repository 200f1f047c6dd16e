/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_ORDER_BENCH_H
#define TAGGER_ORDER_BENCH_H

#include "tagger-exact-tags.h"
#include "tagger-greedy-search.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The random-graph comparison of the greedy's orders (tagger-order-bench):
 * random sparse switch graphs (MakeRandomSparse) with a destination-rooted
 * shortest-path-tree ELP (MakeShortestPathTreeElp) plus random loop-free
 * paths (AddRandomPaths), tagged by every single order and by the order
 * search, every output verified, and compared with the lower bound and, on
 * small cases, the exact minimum (MinimumLosslessTags).
 */

namespace ns3
{
namespace tagger
{

/// The cases of the comparison: every (size, max degree, extra paths) times `graphs` seeds.
struct OrderBenchConfig
{
    std::vector<uint32_t> sizes{20, 35, 50, 65, 80}; //!< switches per graph
    uint32_t minDegree{3};                           //!< least target degree
    std::vector<uint32_t> maxDegrees{4, 6};          //!< largest target degrees
    std::vector<uint64_t> extraPaths{0, 50};         //!< random paths added to the tree ELP
    uint32_t graphs{10};                             //!< seeds per (size, degree, extra paths)
    uint64_t seed{1};                                //!< seed of case 0 (case i: seed + i)
    GreedySearchOptions search;                      //!< the default (order search)
    /// a second exact solve, for the reference only, where the default's own exact step
    /// (search.exactMaxHops) did not run and the default is above the lower bound: up to
    /// this many switches (0: never)
    uint32_t exactMaxSwitches{0};
    uint64_t exactResourceLimit{200000000}; //!< Z3 rlimit per tag count of that solve tried
};

/// The orders compared one by one: local, paper, plain over the HopGraph, then plain over
/// the explicit paths (a plain Algorithm 2, PathGreedy); then the default.
constexpr uint32_t kBenchOrders = 4;

/// One case and its results.
struct OrderBenchCase
{
    uint32_t switches{0};          //!< switches
    uint32_t maxDegree{0};         //!< largest target degree
    uint64_t extraPaths{0};        //!< random paths added
    uint64_t seed{0};              //!< seed of graph, trees and random paths
    uint32_t tags[kBenchOrders]{}; //!< lossless tags of local, paper, plain, paths-plain
    uint32_t defaultTags{0};       //!< lossless tags of the default (TagGreedyBest on the Elp)
    std::string winner;            //!< the attempt that won the default's search
    uint32_t lowerBound{0};        //!< TagLowerBound
    bool optimal{false};           //!< the default proved its count minimal
    double seconds{0};             //!< the default's wall-clock time
    bool exactTried{false};        //!< an exact minimum was asked (default or reference)
    ExactTagsResult exact;         //!< its answer (when tried)
};

/**
 * Run every case of config (progress(done, total) after each, may be empty).
 * Throws TaggerError when an output fails the verifier (a bug of the library).
 */
std::vector<OrderBenchCase> RunOrderBench(const OrderBenchConfig& config,
                                          const std::function<void(size_t, size_t)>& progress);

/**
 * Print the comparison: per order how often it needs k tags, how often the
 * default is worse, equal or better than each order, how often it is proven
 * optimal, its gap to the best known count and to the lower bound, and its
 * time per graph by size; the last line is
 *   RESULT cases=<n> default_worse=<cases where the default needs more tags
 *   than some order> mean_tags_local=... mean_tags_paper=... mean_tags_plain=...
 *   mean_tags_paths-plain=... mean_tags_default=... optimal=<proven optimal>
 *   above_best=<cases where a count below the default's is known>
 *   unproven_gap1=<not proven, one above the lower bound> unproven_gap2=<two or more>
 *   exact_cases=<exact minimum solved> median_s=<default's time per graph> max_s=...
 */
void PrintOrderBench(const std::vector<OrderBenchCase>& cases, std::ostream& os);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_ORDER_BENCH_H */
