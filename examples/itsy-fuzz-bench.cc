/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * itsy-fuzz-bench: ITSY against the deadlock oracle over seeded random runs
 * (ItsyFuzz): rings of 3 to 12 switches, 3x3 to 4x4 tori, Jellyfish and
 * k = 4 fat trees with pinned cyclic routes or a routing loop, random other
 * flows and slow receivers, link delays of 0 to 20 us, ProbeInterval 10 us
 * to 1 ms.  Run s (from --first-seed) has seed s and, with --kind=all, kind
 * ring, torus, jellyfish or fattree by s mod 4.  Prints progress to stderr
 * (at most once a second), every false positive or negative with its seed,
 * the counts, the distribution of the detection delay (declaration -
 * formation, and as a fraction of each run's bound) and ends with
 * RESULT runs=<n> deadlocked=<n> clean=<n> transient=<n> false_positives=<n>
 *        false_negatives=<n> dissolved=<n> delay_us_median=<x> delay_us_p90=<x>
 *        delay_us_max=<x> lossless_drops=<n> recurrences=<n>
 *        recovery_failures=<n>
 * (--verbose: one line per run).
 */

#include "ns3/core-module.h"
#include "ns3/itsy-fuzz.h"
#include "ns3/tagger-command-line.h"

#include <chrono>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    uint32_t runs = 200;
    uint32_t firstSeed = 1;
    std::string kind = "all";
    std::string recovery = "none";
    bool verbose = false;
    TaggerCommandLine cmd("itsy-fuzz-bench", __FILE__);
    cmd.AddInteger("runs", "number of runs", runs, 1, 100000);
    cmd.AddInteger("first-seed", "seed of the first run", firstSeed, 1, 1000000000);
    cmd.AddChoice("kind", "networks", kind, {"all", "ring", "torus", "jellyfish", "fattree"});
    cmd.AddChoice("recovery", "ITSY's recovery", recovery, {"none", "trigger", "break"});
    cmd.AddBool("verbose", "one line per run", verbose);
    cmd.Parse(argc, argv);

    typedef std::chrono::steady_clock Clock;
    const Clock::time_point start = Clock::now();
    Clock::time_point shown = start;
    ItsyFuzzSummary summary;
    for (uint32_t i = 0; i < runs; ++i)
    {
        ItsyFuzzConfig cfg;
        cfg.seed = firstSeed + i;
        cfg.kind = ItsyFuzz::KindOf(kind, cfg.seed);
        cfg.recovery = recovery;
        ItsyFuzzResult r = ItsyFuzz::Run(cfg);
        summary.Add(r);
        if (verbose)
        {
            const char* outcome[] = {"clean", "transient", "deadlocked"};
            std::cout << cfg.kind << " seed " << cfg.seed << ": " << outcome[r.outcome]
                      << ", cycles " << r.oracleCycles << " (" << r.endCycles
                      << " at the end), declarations " << r.declarations << ", FP "
                      << r.falsePositives << ", FN " << r.falseNegatives << ", delay "
                      << (r.delayMeasured ? r.delay.As(Time::US) : Time(0).As(Time::US)) << " of "
                      << r.bound.As(Time::US) << ", recurrences " << r.recurrences
                      << ", drops lossless " << r.losslessDrops << " recovery " << r.recoveryDrops
                      << ", end " << r.end.As(Time::US) << ": " << r.description << "\n";
        }
        const Clock::time_point now = Clock::now();
        if (now - shown >= std::chrono::seconds(1) || i + 1 == runs)
        {
            shown = now;
            std::cerr << "itsy-fuzz-bench: " << i + 1 << "/" << runs << " runs, "
                      << summary.deadlocked << " deadlocked, FP " << summary.falsePositives
                      << ", FN " << summary.falseNegatives << ", "
                      << std::chrono::duration<double>(now - start).count() << " s\n";
        }
    }
    summary.Print(std::cout);
    return 0;
}
