/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-scenarios" (./test.py -s tagger-scenarios):
 * the deadlock experiments of Tagger (ToN), Section VIII-B, with the same
 * TaggerExperimentHelper runs as the examples tagger-clos-bounce (Figs. 3
 * and 10), tagger-routing-loop (Fig. 11) and tagger-pause-propagation
 * (Fig. 12), shortened to a few simulated milliseconds.
 *
 * Expected outcomes are the paper's (plain PFC deadlocks, Tagger does not);
 * the deadlock cycles follow from the pinned paths, and the rate bounds
 * from the link rate and the round-robin (DWRR) share of a congested port,
 * worked out in the comments.  One data packet carries 1000 B of payload in
 * about 1080 B on the wire (Ethernet, IPv4, UDP, BTH, ICRC, preamble and
 * gap), so a payload rate is about 0.925 of the wire rate.
 */

#include "ns3/nstime.h"
#include "ns3/tagger-experiment-helper.h"
#include "ns3/test.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * A short run of an experiment: the event at start + \p eventMs, the senders
 * stop at \p stopMs, buffers are checked \p drainMs later, rates are the
 * mean of the last 0.5 ms before the stop.
 * \param mode the mode \param eventMs ms \param stopMs ms \param drainMs ms
 * \return the config
 */
TaggerExperimentConfig
ShortRun(TaggerExperimentMode mode, double eventMs, double stopMs, double drainMs)
{
    TaggerExperimentConfig cfg;
    cfg.mode = mode;
    cfg.event = MicroSeconds(uint64_t(eventMs * 1000));
    cfg.stop = MicroSeconds(uint64_t(stopMs * 1000));
    cfg.drain = MicroSeconds(uint64_t(drainMs * 1000));
    cfg.tail = MicroSeconds(500);
    return cfg;
}

/// \param cycle queues \return them space separated
std::string
Join(const std::vector<std::string>& cycle)
{
    std::ostringstream s;
    for (const std::string& q : cycle)
    {
        s << (s.tellp() > 0 ? " " : "") << q;
    }
    return s.str();
}

/**
 * \param cycle a cycle found by the oracle \param expected the cycle expected
 * \return \p cycle is \p expected, starting anywhere (a cycle has no first member)
 */
bool
SameCycle(const std::vector<std::string>& cycle, const std::vector<std::string>& expected)
{
    if (cycle.size() != expected.size())
    {
        return false;
    }
    for (std::size_t shift = 0; shift < cycle.size(); ++shift)
    {
        bool same = true;
        for (std::size_t i = 0; i < cycle.size() && same; ++i)
        {
            same = cycle[(i + shift) % cycle.size()] == expected[i];
        }
        if (same)
        {
            return true;
        }
    }
    return false;
}

/// \param r a result \return its RESULT-style summary, for failure messages
std::string
Summary(const TaggerExperimentResult& r)
{
    std::ostringstream s;
    s << "mode " << TaggerExperimentModeName(r.mode) << ": cycles " << r.cycles.size();
    for (const auto& c : r.cycles)
    {
        s << " [" << Join(c) << "]";
    }
    s << ", undrained " << r.undrainedBytes << " B, lossless drops "
      << r.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW) << ", ttl drops "
      << r.GetDrops(PfcDropReason::TTL_EXPIRED) << ", rates";
    for (const TaggerFlowRates& f : r.flows)
    {
        s << " " << f.label << "=" << f.tailGbps;
    }
    return s.str();
}

/// The cycle of Fig. 3: each egress queue waits for the next (as the oracle names them).
const std::vector<std::string> kFig3Cycle = {"L2->S1", "S1->L3", "L3->S2", "S2->L2"};

/// A flow below this rate (Gbps) in the tail window has stopped (TaggerExperimentResult).
constexpr double kStopped = TaggerExperimentResult::kStoppedGbps;

} // namespace

/**
 * \ingroup tagger-tests
 * Figs. 3 and 10 (tagger-clos-bounce): blue H5->H13 and green H9->H1 on the
 * pinned 1-bounce paths, green from 0.51 ms, senders stop at 2 ms.
 * pfc: the oracle finds exactly the cycle of Fig. 3, L2->S1 -> S1->L3 ->
 * L3->S2 -> S2->L2 (both flows use L2->S1 and L3->S2; the bounces at L2 and
 * L3 close the loop), both rates are 0 and lossless bytes never drain.
 * tagger and ttl: no cycle, everything drains, no lossless drop, and each
 * flow gets the round-robin half of its receiver's ToR port (the other half
 * is the cross flow's, in another class): 20 Gbps of wire, about 18.5 Gbps
 * of payload, so between 16 and 20.
 */
class ClosBounceScenarioTestCase : public TestCase
{
  public:
    ClosBounceScenarioTestCase()
        : TestCase("Scenario Fig. 10 (clos-bounce): PFC deadlocks in the cycle of Fig. 3, "
                   "Tagger and TTL do not")
    {
    }

  private:
    void DoRun() override
    {
        TaggerExperimentResult pfc =
            TaggerExperimentHelper::RunClosBounce(ShortRun(TaggerExperimentMode::PFC, 0.5, 2, 1));
        NS_TEST_ASSERT_MSG_EQ(pfc.flows.size(), 2u, "blue and green are sampled");
        NS_TEST_ASSERT_MSG_EQ(pfc.cycles.size(), 1u, "one deadlock: " << Summary(pfc));
        NS_TEST_EXPECT_MSG_EQ(SameCycle(pfc.cycles[0], kFig3Cycle),
                              true,
                              "the cycle of Fig. 3 expected, got [" << Join(pfc.cycles[0]) << "]");
        NS_TEST_EXPECT_MSG_GT(pfc.undrainedBytes, 0u, "deadlocked bytes never drain");
        NS_TEST_EXPECT_MSG_EQ(pfc.IsDeadlock(), true, "deadlock");
        NS_TEST_EXPECT_MSG_LT(pfc.flows[0].tailGbps, kStopped, "blue stopped: " << Summary(pfc));
        NS_TEST_EXPECT_MSG_LT(pfc.flows[1].tailGbps, kStopped, "green stopped: " << Summary(pfc));
        NS_TEST_EXPECT_MSG_EQ(pfc.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "PFC deadlocks, it does not drop");
        NS_TEST_EXPECT_MSG_EQ(pfc.classes, 1u, "plain PFC: one lossless class");

        for (auto mode : {TaggerExperimentMode::TAGGER, TaggerExperimentMode::TTL})
        {
            TaggerExperimentResult r =
                TaggerExperimentHelper::RunClosBounce(ShortRun(mode, 0.5, 2, 1));
            NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 2u, "blue and green are sampled");
            NS_TEST_EXPECT_MSG_EQ(r.cycles.size(), 0u, "no deadlock: " << Summary(r));
            NS_TEST_EXPECT_MSG_EQ(r.undrainedBytes, 0u, "everything drains: " << Summary(r));
            NS_TEST_EXPECT_MSG_EQ(r.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW),
                                  0u,
                                  "lossless: " << Summary(r));
            for (const TaggerFlowRates& f : r.flows)
            {
                NS_TEST_EXPECT_MSG_GT(f.tailGbps, 16.0, f.label << ": " << Summary(r));
                NS_TEST_EXPECT_MSG_LT(f.tailGbps, 20.0, f.label << ": " << Summary(r));
            }
        }
    }
};

/**
 * \ingroup tagger-tests
 * Fig. 11 (tagger-routing-loop): F1 H1->H15 and F2 H2->H16 share T1->L1; at
 * 0.51 ms L1 sends H15's packets back to T1, senders stop at 2 ms.
 * pfc: the loop is a two-queue cycle, T1->L1 -> L1->T1 (each waits for the
 * other's buffer); F2, stuck in T1->L1's queue, stops; bytes never drain.
 * tagger: a packet that L1 sends back where it came from matches no rule
 * and goes lossy, so no cycle of lossless queues and no lossless drop.
 * F1 delivers nothing; its looping packets die by lossy overflow while F1
 * sends and by TTL once they circulate (the drain of 10 ms lets the last
 * ones reach TTL 0: a pass through a full lossy queue takes ~0.3 ms, and a
 * TTL of 64 allows 31 round trips).  F2 keeps running at a reduced rate:
 * T1->L1 is shared round robin by the lossy loop and tag 1, and tag 1 by F1
 * and F2, so F2 gets a quarter of 40 Gbps, 10 Gbps of wire (about 9.25 of
 * payload): between 5 and 15 Gbps, below the 18.5 it had before the loop.
 * ttl: every hop is a class, no cycle, looping packets die by TTL at the
 * 8th switch (while F1 sends); at most 8 classes share T1->L1 round robin,
 * so F2's class gets at least 5 Gbps of wire, shared with F1's first pass:
 * F2 above 2 Gbps.
 */
class RoutingLoopScenarioTestCase : public TestCase
{
  public:
    RoutingLoopScenarioTestCase()
        : TestCase("Scenario Fig. 11 (routing loop): PFC deadlocks T1<->L1 and pauses F2, "
                   "Tagger drops the loop lossy and TTL, F2 runs")
    {
    }

  private:
    void DoRun() override
    {
        TaggerExperimentResult pfc =
            TaggerExperimentHelper::RunRoutingLoop(ShortRun(TaggerExperimentMode::PFC, 0.5, 2, 1));
        NS_TEST_ASSERT_MSG_EQ(pfc.flows.size(), 2u, "F1 and F2 are sampled");
        NS_TEST_ASSERT_MSG_EQ(pfc.cycles.size(), 1u, "one deadlock: " << Summary(pfc));
        NS_TEST_EXPECT_MSG_EQ(SameCycle(pfc.cycles[0], {"T1->L1", "L1->T1"}),
                              true,
                              "the loop's cycle expected, got [" << Join(pfc.cycles[0]) << "]");
        NS_TEST_EXPECT_MSG_GT(pfc.undrainedBytes, 0u, "deadlocked bytes never drain");
        NS_TEST_EXPECT_MSG_LT(pfc.flows[1].tailGbps, kStopped, "F2 paused: " << Summary(pfc));
        NS_TEST_EXPECT_MSG_EQ(pfc.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "PFC deadlocks, it does not drop");

        TaggerExperimentResult tg = TaggerExperimentHelper::RunRoutingLoop(
            ShortRun(TaggerExperimentMode::TAGGER, 0.5, 2, 10));
        NS_TEST_ASSERT_MSG_EQ(tg.flows.size(), 2u, "F1 and F2 are sampled");
        NS_TEST_EXPECT_MSG_EQ(tg.cycles.size(), 0u, "no deadlock: " << Summary(tg));
        NS_TEST_EXPECT_MSG_EQ(tg.undrainedBytes, 0u, "everything drains: " << Summary(tg));
        NS_TEST_EXPECT_MSG_EQ(tg.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "lossless: " << Summary(tg));
        NS_TEST_EXPECT_MSG_GT(tg.GetDrops(PfcDropReason::TTL_EXPIRED),
                              0u,
                              "looping packets die by TTL: " << Summary(tg));
        NS_TEST_EXPECT_MSG_GT(tg.GetDrops(PfcDropReason::LOSSY_OVERFLOW),
                              0u,
                              "the loop overloads the lossy queue: " << Summary(tg));
        NS_TEST_EXPECT_MSG_LT(tg.flows[0].tailGbps, kStopped, "F1 loops: " << Summary(tg));
        NS_TEST_EXPECT_MSG_GT(tg.flows[1].tailGbps, 5.0, "F2 runs: " << Summary(tg));
        NS_TEST_EXPECT_MSG_LT(tg.flows[1].tailGbps, 15.0, "F2 is slowed down: " << Summary(tg));

        TaggerExperimentResult ttl =
            TaggerExperimentHelper::RunRoutingLoop(ShortRun(TaggerExperimentMode::TTL, 0.5, 2, 1));
        NS_TEST_ASSERT_MSG_EQ(ttl.flows.size(), 2u, "F1 and F2 are sampled");
        NS_TEST_EXPECT_MSG_EQ(ttl.cycles.size(), 0u, "no deadlock: " << Summary(ttl));
        NS_TEST_EXPECT_MSG_EQ(ttl.undrainedBytes, 0u, "everything drains: " << Summary(ttl));
        NS_TEST_EXPECT_MSG_EQ(ttl.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "lossless: " << Summary(ttl));
        NS_TEST_EXPECT_MSG_GT(ttl.GetDrops(PfcDropReason::TTL_EXPIRED),
                              0u,
                              "looping packets die by TTL: " << Summary(ttl));
        NS_TEST_EXPECT_MSG_GT(ttl.flows[1].tailGbps, 2.0, "F2 runs: " << Summary(ttl));
    }
};

/**
 * \ingroup tagger-tests
 * Fig. 12 (tagger-pause-propagation): the 4-to-1 shuffle to H1 and the
 * 1-to-4 shuffle from H5; at 0.51 ms links L2-T1 and L3-T4 fail and the
 * routes to T1's and T4's hosts move to the 1-bounce paths of Fig. 3;
 * senders stop at 2.5 ms.  pfc: the cycle of Fig. 3 deadlocks and the
 * PAUSE reaches every sender: all 8 flows stop (the H1 flows wait in
 * S2->L2 or behind it, H5's NIC is paused by T2, whose buffer holds H5's
 * packets for L2->S1).  tagger: no cycle, no lossless drop, no flow stops:
 * each runs above 1 Gbps (a congested port gives each class at least 1/8 of
 * 40 Gbps by round robin, 5 Gbps of wire, shared by at most 4 flows).
 */
class PausePropagationScenarioTestCase : public TestCase
{
  public:
    PausePropagationScenarioTestCase()
        : TestCase("Scenario Fig. 12 (pause propagation): with PFC all 8 flows stop, with "
                   "Tagger none")
    {
    }

  private:
    void DoRun() override
    {
        TaggerExperimentResult pfc = TaggerExperimentHelper::RunPausePropagation(
            ShortRun(TaggerExperimentMode::PFC, 0.5, 2.5, 1));
        NS_TEST_ASSERT_MSG_EQ(pfc.flows.size(), 8u, "the 8 flows are sampled");
        NS_TEST_ASSERT_MSG_EQ(pfc.cycles.size(), 1u, "one deadlock: " << Summary(pfc));
        NS_TEST_EXPECT_MSG_EQ(SameCycle(pfc.cycles[0], kFig3Cycle),
                              true,
                              "the cycle of Fig. 3 expected, got [" << Join(pfc.cycles[0]) << "]");
        NS_TEST_EXPECT_MSG_GT(pfc.undrainedBytes, 0u, "deadlocked bytes never drain");
        NS_TEST_EXPECT_MSG_EQ(pfc.CountStopped(), 8u, "every flow stops: " << Summary(pfc));
        NS_TEST_EXPECT_MSG_EQ(pfc.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "PFC deadlocks, it does not drop");

        TaggerExperimentResult tg = TaggerExperimentHelper::RunPausePropagation(
            ShortRun(TaggerExperimentMode::TAGGER, 0.5, 2.5, 1));
        NS_TEST_ASSERT_MSG_EQ(tg.flows.size(), 8u, "the 8 flows are sampled");
        NS_TEST_EXPECT_MSG_EQ(tg.cycles.size(), 0u, "no deadlock: " << Summary(tg));
        NS_TEST_EXPECT_MSG_EQ(tg.undrainedBytes, 0u, "everything drains: " << Summary(tg));
        NS_TEST_EXPECT_MSG_EQ(tg.GetDrops(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "lossless: " << Summary(tg));
        NS_TEST_EXPECT_MSG_EQ(tg.CountStopped(), 0u, "no flow stops: " << Summary(tg));
        for (const TaggerFlowRates& f : tg.flows)
        {
            NS_TEST_EXPECT_MSG_GT(f.tailGbps, 1.0, f.label << ": " << Summary(tg));
        }
    }
};

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-scenarios": the deadlock experiments of Section VIII-B.
 */
class TaggerScenariosTestSuite : public TestSuite
{
  public:
    TaggerScenariosTestSuite()
        : TestSuite("tagger-scenarios", Type::UNIT)
    {
        AddTestCase(new ClosBounceScenarioTestCase);
        AddTestCase(new RoutingLoopScenarioTestCase);
        AddTestCase(new PausePropagationScenarioTestCase);
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerScenariosTestSuite g_taggerScenariosTestSuite;
