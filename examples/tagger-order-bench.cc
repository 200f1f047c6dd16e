/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tagger-order-bench: how many lossless tags the greedy merge (Tagger (ToN),
 * Algorithm 2) needs with each order of the transitions inside a level (over
 * the HopGraph, and plain over the explicit paths), and with the default
 * (tagger-greedy-search.h: the order search, the path scope with its repair
 * step, and the exact solver where affordable), on random sparse switch
 * graphs (one host per switch, shuffled port numbers) with a
 * destination-rooted shortest-path-tree ELP plus random loop-free paths.
 * Every output is verified.  Prints the tag histograms, the default against
 * every order, how often it is proven optimal, its time per graph, and ends with
 *   RESULT cases=<n> default_worse=<n> mean_tags_<order>=... optimal=<n>
 *          above_best=<n> unproven_gap1=<n> unproven_gap2=<n> exact_cases=<n>
 *          median_s=<s> max_s=<s>
 */

#include "ns3/tagger-order-bench.h"

#include "ns3/tagger-command-line.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    tagger::OrderBenchConfig cfg;
    TaggerCommandLine cmd("tagger-order-bench", __FILE__);
    cmd.AddIntegerList("sizes", "switches per graph (comma-separated)", cfg.sizes, 3, 1000);
    cmd.AddInteger("min-degree", "least target degree of a switch", cfg.minDegree, 1, 64);
    cmd.AddIntegerList("max-degrees",
                       "largest target degrees (comma-separated; each at least --min-degree)",
                       cfg.maxDegrees,
                       2,
                       64);
    cmd.AddIntegerList("extra-paths",
                       "random loop-free paths added to the tree ELP (comma-separated)",
                       cfg.extraPaths,
                       0,
                       100000);
    cmd.AddInteger("graphs",
                   "graphs (seeds) per (size, degree, extra paths)",
                   cfg.graphs,
                   1,
                   10000);
    cmd.AddInteger("seed", "seed of the first graph (graph i: seed + i)", cfg.seed, 0, INT64_MAX);
    cmd.AddInteger("restarts",
                   "the default's shuffled orders after local, paper and plain",
                   cfg.search.restarts,
                   0,
                   10000);
    cmd.AddInteger("exact-max-hops",
                   "the default asks the exact solver up to this many path hops (0: never)",
                   cfg.search.exactMaxHops,
                   0,
                   INT64_MAX);
    cmd.AddInteger("exact-max-switches",
                   "a reference exact solve where the default did not ask one, up to this many "
                   "switches (0: never)",
                   cfg.exactMaxSwitches,
                   0,
                   1000);
    cmd.AddInteger("exact-rlimit",
                   "Z3's deterministic resource limit per tag count of the reference solve",
                   cfg.exactResourceLimit,
                   0,
                   UINT32_MAX);
    cmd.Parse(argc, argv);
    for (uint32_t d : cfg.maxDegrees)
    {
        if (d < cfg.minDegree)
        {
            cmd.Fail("max-degrees", std::to_string(d), "less than --min-degree");
        }
    }
    cfg.search.seed = cfg.seed;
    const size_t total = cfg.sizes.size() * cfg.maxDegrees.size() * cfg.extraPaths.size();
    cmd.CheckedMultiply("graphs", cfg.graphs, "sizes", total, 100000);

    std::cout << "random sparse graphs: sizes " << cmd.GetText("sizes") << ", degree "
              << cfg.minDegree << " to " << cmd.GetText("max-degrees") << ", extra paths "
              << cmd.GetText("extra-paths") << ", " << cfg.graphs << " graphs each from seed "
              << cfg.seed << "; default = best of local, paper, plain and " << cfg.search.restarts
              << " shuffled orders, then plain, heavy, conflict and " << cfg.search.pathRestarts
              << " shuffled over the paths with the repair step, "
              << "then the exact solver "
              << (tagger::ExactTagsAvailable()
                      ? "(Z3) up to " + std::to_string(cfg.search.exactMaxHops) + " path hops"
                      : std::string("(not built: no Z3)"))
              << "\n";
    auto progress = [](size_t done, size_t all) {
        if (done % 20 == 0 || done == all)
        {
            std::cerr << "tagger-order-bench: " << done << " of " << all << " cases\n";
        }
    };
    tagger::PrintOrderBench(tagger::RunOrderBench(cfg, progress), std::cout);
    return 0;
}
