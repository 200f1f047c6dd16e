/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Nothing a simulation counts is lost (RdmaPacketAccount): data packets sent
 * = delivered + discarded at the receiver + dropped by reason + in flight at
 * the stop, each term measured on its own, on the runs where packets go
 * astray: a link that fails under traffic, PFC off (lossy drops, go-back-N
 * duplicates), DCQCN off, ITSY's recoveries and the PFC watchdog, a deadlock
 * (packets stuck for good), and stops in the middle of the traffic.  Each
 * case also checks that the terms it exercises are not zero, so the identity
 * is not met by an empty run.
 */

#include "ns3/core-module.h"
#include "ns3/itsy-experiment.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-packet-account.h"
#include "ns3/rdma-workload.h"
#include "ns3/tagger-experiment-helper.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-loss-experiment.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"

#include <sstream>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup tagger-tests
 * RoCE incasts built with the helpers and stopped at a chosen time: a k = 4
 * fat tree with Tagger and a core link failing under traffic, or a
 * leaf-spine with PFC off.
 */
class AccountIncastTestCase : public TestCase
{
  public:
    /// \param failure a core link fails (fat tree, Tagger) \param pfc PFC on
    /// \param stop the stop (ms) \param name the case \param run the RngRun
    AccountIncastTestCase(bool failure,
                          bool pfc,
                          double stop,
                          const std::string& name,
                          uint64_t run = 1)
        : TestCase("RdmaPacketAccount: " + name),
          m_failure(failure),
          m_pfc(pfc),
          m_stop(MicroSeconds(int64_t(stop * 1000))),
          m_run(run)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(m_run);
        PfcTopologyHelper net(m_failure ? tagger::MakeFatTree(4) : tagger::MakeLeafSpine(2, 2, 8));
        if (!m_pfc)
        {
            net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(0));
        }
        net.Build();
        RdmaHelper rdma;
        uint8_t dscp = 24;
        if (m_failure)
        {
            TaggerHelper tagger;
            tagger.Install(net, TaggerHelper::ComputeRules(net.GetTopology(), 1));
            dscp = 1;
            rdma.SetNicAttribute("ControlDscp", UintegerValue(dscp));
            // Host 0's pod loses a core link while every sender is sending.
            net.GetRouteHelper().ScheduleFailLink(MicroSeconds(200), "S1", "L1");
        }
        rdma.Install(net);
        for (uint32_t h = 1; h < net.GetNHosts(); ++h)
        {
            rdma.AddFlow(h, 0, 400000, MicroSeconds(1 + h % 3), dscp);
        }
        RdmaPacketAccount account(net, rdma);
        Simulator::Stop(m_stop);
        Simulator::Run();
        account.Settle();
        std::ostringstream line;
        account.Print(line);
        NS_TEST_EXPECT_MSG_EQ(account.IsSettled(), true, line.str());
        NS_TEST_EXPECT_MSG_EQ(account.GetSent(),
                              account.GetDelivered() + account.GetDiscarded() +
                                  account.GetDropped() + account.GetInFlight(),
                              line.str());
        NS_TEST_EXPECT_MSG_EQ(account.IsBalanced(), true, line.str());
        NS_TEST_EXPECT_MSG_GT(account.GetSent(), 1000, line.str());
        if (m_failure)
        {
            NS_TEST_EXPECT_MSG_GT(account.GetDropped(PfcDropReason::LINK_DOWN), 0, line.str());
        }
        if (!m_pfc)
        {
            NS_TEST_EXPECT_MSG_GT(account.GetDropped(PfcDropReason::LOSSY_OVERFLOW), 0, line.str());
            NS_TEST_EXPECT_MSG_GT(account.GetDiscarded(), 0, line.str());
        }
        // 15 x 400 packets at least are sent; a stop before they are all
        // through leaves some in flight.
        if (m_stop < MilliSeconds(1))
        {
            NS_TEST_EXPECT_MSG_GT(account.GetInFlight(), 0, line.str());
        }
        Simulator::Destroy();
    }

    bool m_failure; //!< a core link fails under Tagger
    bool m_pfc;     //!< PFC on
    Time m_stop;    //!< the stop
    uint64_t m_run; //!< RngRun
};

/**
 * \ingroup tagger-tests
 * The experiments' own accounts: a Table VI cell with DCQCN off, the Fig. 3
 * deadlock (packets stuck in the cycle for good), ITSY's Break and Trigger
 * recoveries and the PFC watchdog; each balances.
 */
class AccountExperimentsTestCase : public TestCase
{
  public:
    AccountExperimentsTestCase()
        : TestCase("RdmaPacketAccount: DCQCN off, a deadlock, ITSY recovery and the watchdog")
    {
    }

  private:
    void DoRun() override
    {
        // A Table VI cell, RoCE without PFC and without DCQCN: lossy drops.
        TaggerLossConfig loss;
        loss.k = 4;
        loss.senders = 6;
        loss.packets = 30000;
        loss.dcqcn = false;
        loss.lossyPool = 100000;
        loss.cdf = FindTaggerDataFile("websearch.cdf");
        TaggerLossResult lr = TaggerLossExperiment::Run(loss);
        NS_TEST_EXPECT_MSG_EQ(lr.balanced, true, lr.accounting);
        NS_TEST_EXPECT_MSG_GT(lr.lossyDrops, 0, "no lossy drop without PFC");

        // Fig. 3 under plain PFC: the cycle deadlocks, packets stay in it.
        TaggerExperimentConfig clos;
        clos.event = MilliSeconds(1);
        clos.stop = MilliSeconds(6);
        clos.drain = MilliSeconds(10);
        TaggerExperimentResult cr = TaggerExperimentHelper::RunClosBounce(clos);
        NS_TEST_EXPECT_MSG_EQ(cr.balanced, true, cr.accounting);
        const bool stuck = cr.accounting.find("in_flight=0 ") == std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(stuck, true, "deadlocked packets are in flight: " << cr.accounting);

        // ITSY's recoveries and the watchdog drop what the deadlock holds.
        for (const std::string recovery : {"break", "trigger", "watchdog"})
        {
            ItsyExperimentConfig itsy;
            itsy.scenario = recovery == "trigger" ? "storm" : "on-loop";
            itsy.recovery = recovery;
            itsy.itsy = recovery != "watchdog";
            ItsyExperimentResult ir = ItsyExperiment::Run(itsy);
            NS_TEST_EXPECT_MSG_EQ(ir.balanced, true, recovery << ": " << ir.accounting);
            const bool dropped = ir.accounting.find("dropped=0 ") == std::string::npos;
            NS_TEST_EXPECT_MSG_EQ(dropped, true, recovery << " drops: " << ir.accounting);
        }
    }
};

} // namespace

/// \return the packet accounting test cases
std::vector<TestCase*>
MakeRdmaPacketAccountTestCases()
{
    return {new AccountIncastTestCase(true,
                                      true,
                                      0.4,
                                      "a core link fails under Tagger, stop at 0.4 ms"),
            new AccountIncastTestCase(true, true, 20, "a core link fails under Tagger, to the end"),
            // Runs where frames still moved between queues, paused for up to a
            // PAUSE's lifetime, when counts and queues had not changed for 1 ms.
            new AccountIncastTestCase(true, true, 20, "the same, RngRun 2", 2),
            new AccountIncastTestCase(true, true, 20, "the same, RngRun 3", 3),
            new AccountIncastTestCase(false, false, 0.5, "PFC off, stop at 0.5 ms"),
            new AccountIncastTestCase(false, false, 50, "PFC off, to the end"),
            new AccountExperimentsTestCase};
}
