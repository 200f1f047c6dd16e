/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * TestSuite "tagger-itsy-fuzz": ITSY against the deadlock oracle over 100
 * seeded runs of the k = 4 fat tree (ItsyExperiment, scenario fuzz: random
 * link failures outside pod 0, pinned bounce routes making a random subset
 * of pod 0's loop flows at random rates, random other flows and slow
 * receivers), with and without real deadlocks.
 *
 * The criteria (ItsyExperiment): no declaration names a queue that is on
 * no oracle cycle at the time of the declaration (false positive), and
 * every cycle present at the end of a run shares a queue with a
 * declaration made within Bound() = 2 ProbeInterval + 100 us of its
 * formation (false negative).  Both counts must be 0, and the runs must
 * include both kinds (a fuzz that never deadlocks would prove nothing).
 * A second case runs 30 seeds of ItsyFuzz (rings, tori, Jellyfish; the fast
 * subset of itsy-fuzz-bench) with the same criteria, and Trigger recovery
 * on each deadlocked one.
 */

#include "itsy-test-util.h"

#include "ns3/itsy-experiment.h"
#include "ns3/test.h"

#include <algorithm>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/**
 * \ingroup tagger-tests
 * 100 seeded runs, counted.
 */
class ItsyFuzzTestCase : public TestCase
{
  public:
    ItsyFuzzTestCase()
        : TestCase("100 seeded k=4 fat-tree runs: 0 false positives, 0 false negatives")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t deadlocks = 0;
        uint32_t clean = 0;
        uint32_t fp = 0;
        uint32_t fn = 0;
        Time worst;
        ItsyExperimentConfig cfg;
        cfg.scenario = "fuzz";
        for (uint32_t seed = 1; seed <= 100; ++seed)
        {
            cfg.seed = seed;
            ItsyExperimentResult r = ItsyExperiment::Run(cfg);
            fp += r.falsePositives;
            fn += r.falseNegatives;
            bool deadlock = r.endCycles > 0;
            deadlocks += deadlock ? 1 : 0;
            clean += !r.oracleDeadlock && r.declarations.empty() ? 1 : 0;
            if (deadlock && !r.declarations.empty())
            {
                worst = std::max(worst, r.declarations.front().time - r.formed);
            }
            NS_TEST_EXPECT_MSG_EQ(r.falsePositives + r.falseNegatives, 0u, "seed " << seed);
        }
        std::ostringstream os;
        os << "itsy fuzz: 100 runs, " << deadlocks << " deadlocked, " << clean
           << " without any cycle or declaration, false positives " << fp << ", false negatives "
           << fn << ", worst detection delay " << worst.GetMicroSeconds() << " us (bound "
           << ItsyExperiment::Bound(cfg).GetMicroSeconds() << " us)";
        std::clog << os.str() << "\n";
        NS_TEST_EXPECT_MSG_EQ(fp, 0u, "false positives");
        NS_TEST_EXPECT_MSG_EQ(fn, 0u, "false negatives");
        NS_TEST_EXPECT_MSG_GT(deadlocks, 10u, "the fuzz must deadlock often");
        NS_TEST_EXPECT_MSG_GT(clean, 10u, "and often not");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(worst, ItsyExperiment::Bound(cfg), "within the bound");
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The ITSY fuzz suite.
 */
class ItsyFuzzTestSuite : public TestSuite
{
  public:
    ItsyFuzzTestSuite()
        : TestSuite("tagger-itsy-fuzz", Type::UNIT)
    {
        AddTestCase(new ItsyFuzzTestCase);
        AddTestCase(tagger::test::MakeItsyFuzzAnyTopologyTestCase());
    }
};

/// The suite's instance.
static ItsyFuzzTestSuite g_itsyFuzzTestSuite;
