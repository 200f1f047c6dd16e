/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * ITSY against the deadlock oracle on seeded random networks: rings of 3 to
 * 12 switches, tori, Jellyfish; links of 0 to 20 us; ProbeInterval 10 us to
 * 1 ms; bad routes pinned round a random loop, all of its flows or some,
 * at rates below, at or above what the loop needs (ItsyFuzz).  Prints the
 * false positives and negatives, the detection delays, and what the
 * recovery did, ending with
 *   RESULT runs=<n> deadlocked=<n> clean=<n> transient=<n> false_positives=<n>
 *          false_negatives=<n> delay_us_median=<x> delay_us_p90=<x>
 *          delay_us_max=<x> worst_of_bound=<x> lossless_drops=<n> breaks=<n>
 *          recurrences=<n> cleared=<n>
 * (deadlocked: a cycle at the end or, with a recovery, a declaration; clean: no
 * cycle ever; transient: cycles that dissolved on their own; recurrences:
 * breaks after a run's first; cleared: deadlocked runs that end with no cycle
 * and no lossless byte left).
 */

#include "ns3/core-module.h"
#include "ns3/itsy-fuzz.h"
#include "ns3/tagger-command-line.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t runs = 200;
    uint32_t first = 1;
    ItsyFuzzConfig cfg;
    TaggerCommandLine cmd("itsy-fuzz-bench", __FILE__);
    cmd.AddInteger("runs", "seeded runs", runs, 1, 100000);
    cmd.AddInteger("first-seed", "the first run's seed", first, 1, 1000000000);
    cmd.AddChoice("kind", "network shape", cfg.kind, {"any", "ring", "torus", "jellyfish"});
    cmd.AddChoice("recovery", "ITSY's recovery", cfg.recovery, {"None", "Break", "Trigger"});
    cmd.Parse(argc, argv);

    uint32_t deadlocked = 0, clean = 0, transient = 0, fp = 0, fn = 0, cleared = 0;
    uint64_t lossless = 0, breaks = 0, recurrences = 0;
    std::vector<double> delays;
    double worst = 0;
    auto last = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < runs; ++i)
    {
        cfg.seed = first + i;
        ItsyFuzzResult r = ItsyFuzz::Run(cfg);
        const bool dead = r.endCycles > 0 || (cfg.recovery != "None" && r.declarations > 0);
        deadlocked += dead ? 1 : 0;
        clean += r.formations == 0 ? 1 : 0;
        transient += r.formations > 0 && !dead ? 1 : 0;
        cleared += dead && r.endCycles == 0 && r.losslessBytesEnd == 0 ? 1 : 0;
        fp += r.falsePositives;
        fn += r.falseNegatives;
        lossless += r.losslessDrops;
        breaks += r.breaks;
        recurrences += r.breaks > 1 ? r.breaks - 1 : 0;
        for (Time d : r.delays)
        {
            delays.push_back(d.GetNanoSeconds() / 1000.0);
            worst = std::max(worst, double(d.GetNanoSeconds()) / r.bound.GetNanoSeconds());
        }
        if (r.falsePositives + r.falseNegatives > 0 || r.losslessDrops > 0)
        {
            std::cout << "seed " << cfg.seed << ": " << r.description << ": " << r.falsePositives
                      << " false positives, " << r.falseNegatives << " false negatives, "
                      << r.losslessDrops << " lossless drops\n";
        }
        if (std::chrono::steady_clock::now() - last > std::chrono::seconds(1) || i + 1 == runs)
        {
            last = std::chrono::steady_clock::now();
            std::cerr << "itsy-fuzz-bench: " << i + 1 << " of " << runs << " runs\n";
        }
    }
    std::sort(delays.begin(), delays.end());
    auto at = [&delays](double q) {
        return delays.empty() ? 0.0
                              : delays[std::min<size_t>(delays.size() - 1, q * delays.size())];
    };
    std::cout << std::fixed << std::setprecision(1) << "RESULT runs=" << runs
              << " deadlocked=" << deadlocked << " clean=" << clean << " transient=" << transient
              << " false_positives=" << fp << " false_negatives=" << fn
              << " delay_us_median=" << at(0.5) << " delay_us_p90=" << at(0.9)
              << " delay_us_max=" << (delays.empty() ? 0.0 : delays.back()) << std::setprecision(2)
              << " worst_of_bound=" << worst << " lossless_drops=" << lossless
              << " breaks=" << breaks << " recurrences=" << recurrences << " cleared=" << cleared
              << std::endl;
    return 0;
}
