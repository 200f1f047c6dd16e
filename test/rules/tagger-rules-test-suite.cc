/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-rules" (./test.py -s tagger-rules inside an ns-3
 * tree, tagger-test-runner --suite=tagger-rules in the standalone build): the
 * rule library through its public headers, checked against expectations
 * worked out by hand or printed in Tagger (ToN): Fig. 5 and Table III
 * (table-iii.h, shared with the GoogleTest files of this folder) for the
 * triangle, Section IV for the Clos testbed of Fig. 2.  The rule library's
 * GoogleTest files (test/rules/<name>-test.cc) test it in more depth in the
 * standalone build.
 */

#include "table-iii.h"

#include "ns3/tagger-algorithms.h"
#include "ns3/tagger-elp.h"
#include "ns3/tagger-rule-table.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/tagger-topology.h"
#include "ns3/tagger-verifier.h"
#include "ns3/test.h"

#include <exception>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger;

namespace
{

/// Rules as "(tag,in,out)->new" lines, for failure messages.
std::string
FormatRules(const std::vector<Rule>& rules)
{
    std::ostringstream os;
    for (const auto& r : rules)
    {
        os << " (" << unsigned(r.tag) << "," << r.inPort << "," << r.outPort << ")->"
           << unsigned(r.newTag);
    }
    return os.str();
}

/**
 * Table III (table-iii.h) for one switch, in the order the paper prints it.
 * \param sw 'A', 'B' or 'C'
 * \return the switch's rules
 */
std::vector<Rule>
TableRules(char sw)
{
    std::vector<Rule> rules;
    for (const auto& [tag, in, out, newTag] : test::PaperTableIII(sw))
    {
        rules.push_back({static_cast<Tag>(tag),
                         static_cast<PortNo>(in),
                         static_cast<PortNo>(out),
                         static_cast<Tag>(newTag)});
    }
    return rules;
}

} // namespace

/**
 * \ingroup tagger-tests
 * Algorithm 1 on the triangle of Fig. 5 reproduces Table III: 3 lossless tags
 * (tag 4 reaches destination hosts only) and exactly the 8 rules of each
 * switch; the result passes the verifier.
 */
class TaggerTriangleBruteForceTestCase : public TestCase
{
  public:
    TaggerTriangleBruteForceTestCase()
        : TestCase("Fig. 5 triangle: brute force (Algorithm 1) gives Table III")
    {
    }

  private:
    void DoRun() override
    {
        try
        {
            Check();
        }
        catch (const std::exception& e)
        {
            NS_TEST_ASSERT_MSG_EQ(true, false, "unexpected exception: " << e.what());
        }
    }

    /// Compare one switch's rules with a table of the paper.
    void CheckTable(const TagRules& rules,
                    NodeId node,
                    const std::string& name,
                    const std::vector<Rule>& expected)
    {
        std::vector<Rule> got = rules.GetRules(node);
        NS_TEST_ASSERT_MSG_EQ(got.size(),
                              expected.size(),
                              "rule count at " << name << "; got" << FormatRules(got));
        NS_TEST_ASSERT_MSG_EQ(rules.CountRules(node), expected.size(), "CountRules at " << name);
        for (size_t i = 0; i < expected.size(); ++i)
        {
            std::ostringstream where;
            where << name << " rule " << i << "; got" << FormatRules(got) << "; expected"
                  << FormatRules(expected);
            NS_TEST_ASSERT_MSG_EQ(unsigned(got[i].tag), unsigned(expected[i].tag), where.str());
            NS_TEST_ASSERT_MSG_EQ(got[i].inPort, expected[i].inPort, where.str());
            NS_TEST_ASSERT_MSG_EQ(got[i].outPort, expected[i].outPort, where.str());
            NS_TEST_ASSERT_MSG_EQ(unsigned(got[i].newTag),
                                  unsigned(expected[i].newTag),
                                  where.str());
            NS_TEST_ASSERT_MSG_EQ(
                unsigned(rules.Get(node, expected[i].tag, expected[i].inPort, expected[i].outPort)),
                unsigned(expected[i].newTag),
                "Get() disagrees with GetRules() at " << where.str());
        }
    }

    void Check()
    {
        Topology topo = test::MakeTriangleTopology();
        Elp elp = MakeElpFromPaths(topo, test::TrianglePaths(topo));
        NS_TEST_ASSERT_MSG_EQ(elp.pathCount, 12u, "the triangle has 12 loop-free host paths");

        TagRules rules = TagBruteForce(elp.graph);
        NS_TEST_ASSERT_MSG_EQ(rules.GetLosslessTags(), 3u, "Fig. 5(b): three lossless tags");
        NS_TEST_ASSERT_MSG_EQ(unsigned(rules.GetMaxTag()),
                              4u,
                              "Table III: tag 4 appears on destination servers only");

        // Table III (a), (b) and (c), row by row: tag, in port, out port, new tag.
        const NodeId a = topo.GetNodeId("A");
        CheckTable(rules, a, "A", TableRules('A'));
        CheckTable(rules, topo.GetNodeId("B"), "B", TableRules('B'));
        CheckTable(rules, topo.GetNodeId("C"), "C", TableRules('C'));

        // "others -> lossy tag": a transition no ELP path takes has no rule.
        NS_TEST_ASSERT_MSG_EQ(unsigned(rules.Get(a, 1, 3, 4)),
                              unsigned(kLossyTag),
                              "A: tag 1 from B to C is not in the ELP");
        NS_TEST_ASSERT_MSG_EQ(unsigned(rules.Get(a, 3, 3, 4)),
                              unsigned(kLossyTag),
                              "A: tag 3 from B to C (a fourth switch hop) is not in the ELP");

        VerifyResult v = Verify(rules, elp);
        NS_TEST_ASSERT_MSG_EQ(v.ok, true, "Algorithm 1 rules must verify: " << v.problem);
    }
};

/**
 * \ingroup tagger-tests
 * Algorithm 2 on the triangle merges the brute-force tags into two (Fig. 5(c)):
 * one tag cannot do, because both directions around the triangle form a cycle
 * of tag-1 buffers; the result passes the verifier.
 */
class TaggerTriangleGreedyTestCase : public TestCase
{
  public:
    TaggerTriangleGreedyTestCase()
        : TestCase("Fig. 5 triangle: greedy merge (Algorithm 2) needs 2 tags")
    {
    }

  private:
    void DoRun() override
    {
        try
        {
            Check();
        }
        catch (const std::exception& e)
        {
            NS_TEST_ASSERT_MSG_EQ(true, false, "unexpected exception: " << e.what());
        }
    }

    void Check()
    {
        Topology topo = test::MakeTriangleTopology();
        Elp elp = MakeElpFromPaths(topo, test::TrianglePaths(topo));

        for (auto order : {GreedyOrder::LOCAL, GreedyOrder::PAPER})
        {
            for (auto check : {CycleCheck::INCREMENTAL, CycleCheck::NAIVE})
            {
                TaggingOptions opt;
                opt.order = order;
                opt.cycleCheck = check;
                std::ostringstream cfg;
                cfg << "order " << (order == GreedyOrder::LOCAL ? "LOCAL" : "PAPER") << ", check "
                    << (check == CycleCheck::INCREMENTAL ? "INCREMENTAL" : "NAIVE");
                GreedyStats stats;
                TagRules rules = TagGreedy(elp.graph, opt, stats);
                NS_TEST_ASSERT_MSG_EQ(rules.GetLosslessTags(),
                                      2u,
                                      "Fig. 5(c): two lossless tags (" << cfg.str() << ")");
                NS_TEST_ASSERT_MSG_GT(stats.rejected,
                                      0u,
                                      "the triangle's cycles must force a new tag (" << cfg.str()
                                                                                     << ")");
                VerifyResult v = Verify(rules, elp);
                NS_TEST_ASSERT_MSG_EQ(v.ok,
                                      true,
                                      "greedy rules must verify (" << cfg.str()
                                                                   << "): " << v.problem);
            }
        }
    }
};

/**
 * \ingroup tagger-tests
 * The verifier finds the deadlock of plain PFC on the triangle: with a single
 * lossless class (every hop keeps tag 1) the buffers A->B->C->A form a cyclic
 * buffer dependency, so VerifyDeadlockFree must fail with a cycle of tag-1
 * nodes.
 */
class TaggerTriangleSingleClassTestCase : public TestCase
{
  public:
    TaggerTriangleSingleClassTestCase()
        : TestCase("Fig. 5 triangle: one lossless class has a cyclic buffer dependency")
    {
    }

  private:
    void DoRun() override
    {
        try
        {
            Check();
        }
        catch (const std::exception& e)
        {
            NS_TEST_ASSERT_MSG_EQ(true, false, "unexpected exception: " << e.what());
        }
    }

    void Check()
    {
        Topology topo = test::MakeTriangleTopology();
        std::vector<Path> paths = test::TrianglePaths(topo);
        Elp elp = MakeElpFromPaths(topo, paths);
        TagRules rules(topo);
        for (const auto& p : paths)
        {
            for (size_t i = 1; i + 1 < p.size(); ++i)
            {
                rules.Set(p[i],
                          1,
                          topo.GetPortTo(p[i], p[i - 1]),
                          topo.GetPortTo(p[i], p[i + 1]),
                          1);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(rules.GetLosslessTags(), 1u, "one class");
        NS_TEST_ASSERT_MSG_EQ(rules.CountRules(topo.GetNodeId("A")),
                              6u,
                              "A: 2 host->switch, 2 switch->host, 2 transit");

        VerifyResult dl = VerifyDeadlockFree(rules);
        NS_TEST_ASSERT_MSG_EQ(dl.ok, false, "a single class on the triangle must deadlock");
        // Each transit port has one tag-1 successor, so every cycle goes once
        // around the triangle: 3 distinct nodes (the closing node may be repeated).
        size_t distinct = dl.cycle.size();
        if (distinct > 1 && dl.cycle.front().node == dl.cycle.back().node &&
            dl.cycle.front().port == dl.cycle.back().port)
        {
            --distinct;
        }
        NS_TEST_ASSERT_MSG_EQ(distinct, 3u, "a tag-1 cycle goes once around the triangle");
        for (const auto& n : dl.cycle)
        {
            NS_TEST_ASSERT_MSG_EQ(unsigned(n.tag), 1u, "the cycle lies in tag 1");
            NS_TEST_ASSERT_MSG_EQ(topo.IsForwarder(n.node), true, "cycle nodes are switch ports");
        }
        NS_TEST_ASSERT_MSG_EQ(dl.problem.empty(), false, "a failure explains itself");

        // Every path still finds a rule at every hop: lossless, but not deadlock-free.
        VerifyResult cover = VerifyElpLossless(rules, elp);
        NS_TEST_ASSERT_MSG_EQ(cover.ok, true, "ELP coverage: " << cover.problem);
        NS_TEST_ASSERT_MSG_EQ(Verify(rules, elp).ok, false, "Verify must report the cycle");
    }
};

/**
 * \ingroup tagger-tests
 * Section IV on the testbed of Fig. 2 (MakeClos(PaperTestbedClos())): the Clos
 * bounce tagging with k bounces needs k + 1 lossless tags and keeps every
 * up-down path with up to k bounces lossless and deadlock-free.  With k = 0 a
 * 1-bounce path leaves the lossless classes, which the verifier must notice.
 */
class TaggerClosBounceTestCase : public TestCase
{
  public:
    TaggerClosBounceTestCase()
        : TestCase("Clos testbed (Fig. 2): k bounces need k + 1 lossless tags")
    {
    }

  private:
    void DoRun() override
    {
        try
        {
            Check();
        }
        catch (const std::exception& e)
        {
            NS_TEST_ASSERT_MSG_EQ(true, false, "unexpected exception: " << e.what());
        }
    }

    void Check()
    {
        Topology topo = MakeClos(PaperTestbedClos());
        // Fig. 2: T1-T4, L1-L4, S1-S2 and 16 servers.
        NS_TEST_ASSERT_MSG_EQ(topo.GetSwitches().size(), 10u, "testbed switches");
        NS_TEST_ASSERT_MSG_EQ(topo.GetHosts().size(), 16u, "testbed servers");

        for (uint32_t bounces = 0; bounces <= 3; ++bounces)
        {
            TagRules rules = TagClos(topo, bounces);
            NS_TEST_ASSERT_MSG_EQ(rules.GetLosslessTags(),
                                  bounces + 1,
                                  "TagClos with " << bounces << " bounces");
            Elp elp = MakeUpDownElp(topo, bounces);
            NS_TEST_ASSERT_MSG_GT(elp.pathCount, 0u, "up-down ELP with " << bounces << " bounces");
            VerifyResult v = Verify(rules, elp);
            NS_TEST_ASSERT_MSG_EQ(v.ok,
                                  true,
                                  "TagClos(" << bounces << ") against MakeUpDownElp(" << bounces
                                             << "): " << v.problem);
        }

        // Rules for plain up-down routing cannot carry a bounced path.
        TagRules noBounce = TagClos(topo, 0);
        Elp oneBounce = MakeUpDownElp(topo, 1);
        VerifyResult v = VerifyElpLossless(noBounce, oneBounce);
        NS_TEST_ASSERT_MSG_EQ(v.ok, false, "0-bounce rules must not cover 1-bounce paths");
        NS_TEST_ASSERT_MSG_EQ(v.problem.empty(), false, "a failure explains itself");
    }
};

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-rules": the rule library on the paper's examples.
 */
class TaggerRulesTestSuite : public TestSuite
{
  public:
    TaggerRulesTestSuite()
        : TestSuite("tagger-rules", Type::UNIT)
    {
        AddTestCase(new TaggerTriangleBruteForceTestCase);
        AddTestCase(new TaggerTriangleGreedyTestCase);
        AddTestCase(new TaggerTriangleSingleClassTestCase);
        AddTestCase(new TaggerClosBounceTestCase);
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerRulesTestSuite g_taggerRulesTestSuite;
