/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-classifier" (./test.py -s tagger-classifier):
 * data-plane tests of Tagger, and the data-plane fuzz of Tagger, the TTL
 * scheme and plain PFC:
 *
 *  1. the switch classifiers hold exactly the algorithm library's rules (every
 *     switch of a k = 4 fat tree, every tag, every port pair), and a real
 *     packet bounced at a switch leaves it with the new tag in the new tag's
 *     egress queue;
 *  2. egress by the old tag (the wrong behaviour of Tagger (ToN), Section VII-B)
 *     drops lossless packets right after a tag change, egress by the new tag
 *     does not;
 *  3. a seeded fuzz on a k = 4 fat tree (random link failures with local
 *     reroute, random RoCE flows and an incast): Tagger and TTL priorities
 *     never deadlock, never drop a lossless packet and account for every
 *     packet; plain PFC deadlocks in some runs.  One test case per data
 *     plane (MakeDataplaneFuzzTestCase, pfc-test-util.h): Tagger's is in
 *     this suite, TTL's in tagger-ttl (ttl-classifier-test-suite.cc), plain
 *     PFC's in tagger-pfc-switch;
 *  4. TaggerHelper::InstallFromJson refuses a rules file with a tag-1 cycle
 *     unless SetVerifyRules(false) (tagger-helper-rules-file-test.cc).
 *
 * Defined here: the first case of 1.  The bounced packet of 1 and the cases
 * of 2 are in tagger-egress-tag-test.cc, the fuzz in
 * tagger-dataplane-fuzz-test.cc, and the network settings, frame parsing and
 * packet accounting these three files share in tagger-dataplane-test-util.h.
 */

#include "pfc-test-util.h"
#include "tagger-dataplane-test-util.h"

#include "ns3/pfc-classifier.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/tagger-algorithms.h"
#include "ns3/tagger-classifier.h"
#include "ns3/tagger-elp.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"

#include <cstdint>
#include <map>
#include <string>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// 1. The classifiers hold the library's rules
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Every switch's TaggerClassifier answers like the library's TagRules, for
 * every (tag 0..7, in port, out port) of a k = 4 fat tree, with the Clos
 * rules (shortest + 1-bounce, TaggerHelper::ComputeRules) and with the greedy
 * rules of all shortest paths (TagGreedy).
 */
class ClassifierMatchesRulesTestCase : public TestCase
{
  public:
    ClassifierMatchesRulesTestCase()
        : TestCase("Tagger: every switch classifier equals the library rules (k=4 fat tree, "
                   "Clos 1-bounce and greedy rules, all tags and port pairs)")
    {
    }

  private:
    /// Result counts of one comparison.
    struct Counts
    {
        uint64_t checked = 0;                 //!< (switch, tag, in, out) compared
        uint64_t mismatches = 0;              //!< differences
        std::map<uint8_t, uint64_t> byNewTag; //!< lookups per new tag (0 included)
    };

    /**
     * Install \p rules on a fresh fat tree and compare every lookup.
     * \param topo the topology \param rules its rules \param what name for messages
     * \return the counts
     */
    Counts Compare(const tagger::Topology& topo,
                   const tagger::TagRules& rules,
                   const std::string& what)
    {
        Counts c;
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        TaggerHelper tagger;
        tagger.Install(net, rules);
        for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
        {
            if (topo.IsHost(v))
            {
                continue;
            }
            Ptr<TaggerClassifier> cls = tagger.GetClassifier(v);
            NS_TEST_EXPECT_MSG_EQ(bool(cls),
                                  true,
                                  what << ": no classifier on " << topo.GetNode(v).name);
            if (!cls)
            {
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(net.GetSwitch(v)->GetClassifier(),
                                  Ptr<PfcClassifier>(cls),
                                  what << ": the switch does not use the installed classifier");
            const uint32_t ports = topo.GetNode(v).ports;
            for (uint8_t tag = 0; tag < kPfcClasses; ++tag)
            {
                for (tagger::PortNo in = 0; in < ports; ++in)
                {
                    if (topo.GetPeer(v, in).node == tagger::kNone)
                    {
                        continue;
                    }
                    for (tagger::PortNo out = 0; out < ports; ++out)
                    {
                        if (topo.GetPeer(v, out).node == tagger::kNone)
                        {
                            continue;
                        }
                        uint8_t got =
                            cls->Lookup(tag, net.GetSwitchPort(v, in), net.GetSwitchPort(v, out));
                        uint8_t want = rules.Get(v, tag, in, out);
                        ++c.checked;
                        ++c.byNewTag[got];
                        if (got != want)
                        {
                            ++c.mismatches;
                            NS_TEST_EXPECT_MSG_EQ(int(got),
                                                  int(want),
                                                  what << ": " << topo.GetNode(v).name << " tag "
                                                       << int(tag) << " in " << in << " out "
                                                       << out);
                        }
                    }
                }
            }
        }
        Simulator::Destroy();
        return c;
    }

    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeFatTree(4);
        // 8 ToRs, 8 aggregation switches, 4 cores with 4 connected ports each:
        // 20 switches x 8 tags x 4 in ports x 4 out ports = 2560 lookups.
        const uint64_t lookups = 20 * 8 * 4 * 4;

        tagger::TagRules clos = TaggerHelper::ComputeRules(topo, 1);
        Counts c = Compare(topo, clos, "Clos 1-bounce");
        NS_TEST_ASSERT_MSG_EQ(c.checked, lookups, "Clos: lookups");
        NS_TEST_EXPECT_MSG_EQ(c.mismatches, 0, "Clos: classifier != rules");
        // By hand (TagClos, 1 bounce, 2 tags; in != out only, so the 4
        // (in == in) pairs of each switch and tag are lossy):
        //  ToR: hosts on ports 0-1, aggregations on 2-3.  Bounces (from an
        //   aggregation back up to the other one): 2 transitions, rule 1 -> 2
        //   only; the other 12 - 2 = 10 transitions keep tags 1 and 2.
        //  Aggregation: ToRs on 0-1, cores on 2-3: the same, 2 bounces + 10.
        //  Core: every port goes down, 12 transitions keep tags 1 and 2.
        //  Tag 2 results: (10 + 2) per ToR or aggregation, 12 per core:
        //   16 * 12 + 4 * 12 = 240.  Tag 1 results: 10 per ToR or aggregation,
        //   12 per core: 16 * 10 + 4 * 12 = 208.  Everything else is lossy:
        //   2560 - 240 - 208 = 2112.
        NS_TEST_EXPECT_MSG_EQ(c.byNewTag[2], 240, "Clos: lookups giving tag 2");
        NS_TEST_EXPECT_MSG_EQ(c.byNewTag[1], 208, "Clos: lookups giving tag 1");
        NS_TEST_EXPECT_MSG_EQ(c.byNewTag[0], 2112, "Clos: lookups giving the lossy tag");

        tagger::Elp elp = tagger::MakeShortestPathElp(topo);
        tagger::TagRules greedy = tagger::TagGreedy(elp.graph);
        Counts g = Compare(topo, greedy, "greedy shortest paths");
        NS_TEST_ASSERT_MSG_EQ(g.checked, lookups, "greedy: lookups");
        NS_TEST_EXPECT_MSG_EQ(g.mismatches, 0, "greedy: classifier != rules");
        // By hand: shortest paths in a fat tree never bounce, so one tag
        // suffices and every transition on a shortest path keeps tag 1:
        //  ToR: host -> other host (2), host -> aggregation (2 x 2), aggregation
        //   -> host (2 x 2): 10.  Aggregation: ToR -> other ToR (2), ToR -> core
        //   (4), core -> ToR (4): 10.  Core: aggregation -> aggregation of
        //   another pod: 4 x 3 = 12.  8 * 10 + 8 * 10 + 4 * 12 = 208 with tag
        //   1, the other 2560 - 208 = 2352 lookups lossy.
        NS_TEST_EXPECT_MSG_EQ(greedy.GetLosslessTags(), 1, "greedy: lossless tags");
        NS_TEST_EXPECT_MSG_EQ(g.byNewTag[1], 208, "greedy: lookups giving tag 1");
        NS_TEST_EXPECT_MSG_EQ(g.byNewTag[0], 2352, "greedy: lookups giving the lossy tag");
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-classifier": the Tagger data plane (TaggerClassifier
 * in the switches).
 */
class TaggerClassifierTestSuite : public TestSuite
{
  public:
    TaggerClassifierTestSuite()
        : TestSuite("tagger-classifier", Type::UNIT)
    {
        AddTestCase(new ClassifierMatchesRulesTestCase);
        for (TestCase* tc : MakeTaggerEgressTagTestCases())
        {
            AddTestCase(tc);
        }
        AddTestCase(MakeDataplaneFuzzTestCase(DataplaneFuzzMode::TAGGER));
        AddTestCase(MakeRulesFileInstallTestCase());
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerClassifierTestSuite g_taggerClassifierTestSuite;
