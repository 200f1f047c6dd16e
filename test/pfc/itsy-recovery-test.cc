/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Test cases of the TestSuite "tagger-itsy" for what acts on a deadlock
 * and what causes one: ITSY's recovery (Break, Trigger) on a ring deadlock
 * caused by a host in PFC storm (ITSY Fig. 5), and the RoCE NIC's receive
 * buffer (RdmaRxBuffer): a slow receiver, a PFC storm.
 */

#include "itsy-test-util.h"

#include "ns3/core-module.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/pointer.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-rx-buffer.h"

namespace ns3
{
namespace tagger
{
namespace test
{
namespace
{

/**
 * \ingroup tagger-tests
 * A slow host of ring R2 (1 Gbps receive drain) pauses it continually, or
 * switch X (its 1 Gbps host link) does: the ring deadlocks with the host
 * (X) as initial trigger, off the loop.  Break drops the initiator's loop
 * queue (counted as itsy-recovery by the switches too), and the trigger
 * makes the deadlock come back; Trigger also lets R2 ignore the host's
 * PAUSE frames (turns X's pausing ingress lossy), and no deadlock names
 * the trigger again (the ring may still deadlock once more while it
 * unwinds, from a ring switch).
 */
class ItsyRecoveryTestCase : public TestCase
{
  public:
    /// \param trigger Trigger (else Break) \param mode the ring (a pausing host or switch X)
    ItsyRecoveryTestCase(bool trigger, RingMode mode)
        : TestCase(
              std::string(trigger ? "recovery Trigger: " : "recovery Break: ") +
              (mode == RingMode::PAUSING_HOST ? "pausing host" : "switch X off the loop") +
              (trigger ? ", broken, no recurrence from the trigger" : ", the deadlock recurs")),
          m_trigger(trigger),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        ItsyOutcome o = RunRing(m_mode, m_trigger ? "Trigger" : "Break");
        NS_TEST_ASSERT_MSG_GT(o.declarations.size(), 0u, "the storm deadlocks the ring");
        const auto& first = o.declarations.front();
        NS_TEST_EXPECT_MSG_EQ(first.trigNode, o.xNode, "the host (or X) is the trigger");
        NS_TEST_EXPECT_MSG_EQ(first.onLoop, false, "off the loop");
        NS_TEST_EXPECT_MSG_GT(o.recoveryDrops, 0u, "Break drops frames");
        NS_TEST_EXPECT_MSG_EQ(o.losslessDrops, 0u, "a recovery never drops a lossless frame");
        NS_TEST_EXPECT_MSG_EQ(o.switchRecoveryDrops,
                              o.recoveryDrops,
                              "the switches count them as itsy-recovery");
        // Recurrences caused by the trigger: declarations naming it after the first.
        uint32_t byHost = 0;
        for (const auto& d : o.declarations)
        {
            byHost += d.trigNode == o.xNode ? 1 : 0;
        }
        if (m_trigger)
        {
            NS_TEST_EXPECT_MSG_EQ(byHost, 1u, "the trigger causes no recurrence");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(byHost, 1u, "the deadlock recurs, again from the trigger");
        }
    }

    bool m_trigger;  //!< Trigger (else Break)
    RingMode m_mode; //!< the ring
};

/**
 * \ingroup tagger-tests
 * H0 -> H1 (2 MB, RoCE, line S1 - S2 - S3) with H1's receive buffer
 * draining at 10 Gbps: H1 pauses S3 (Xoff 128 KiB), nothing is lost and
 * the flow takes at least 2 MB / 10 Gbps = 1.6 ms (0.4 ms at 40 Gbps).
 * Storm: from 200 us H1 stalls and pauses for good; the flow stops, S3's
 * port to H1 stays paused, still nothing is lost.
 */
class RxBufferTestCase : public TestCase
{
  public:
    /// \param storm fault mode from 200 us
    explicit RxBufferTestCase(bool storm)
        : TestCase(storm ? "RdmaRxBuffer: PFC storm from 200 us stops the flow, nothing lost"
                         : "RdmaRxBuffer: a 10 Gbps receiver pauses its switch, nothing lost"),
          m_storm(storm)
    {
    }

  private:
    void DoRun() override
    {
        Line line;
        PfcTopologyHelper net(line.topo);
        ConfigureNet(net);
        net.Build();
        RdmaHelper rdma;
        rdma.Install(net);
        Ptr<RdmaRxBuffer> buffer = CreateObjectWithAttributes<RdmaRxBuffer>(
            "DrainRate",
            DataRateValue(DataRate("10Gbps")),
            "StormStart",
            TimeValue(m_storm ? MicroSeconds(200) : Time(-1)));
        rdma.GetNic(1)->SetRxBuffer(buffer);
        const uint64_t bytes = 2000000;
        rdma.AddFlow(0, 1, bytes, Time(0));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        std::vector<RdmaFlowRecord> records = rdma.GetFlowRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1u, "one flow");
        NS_TEST_EXPECT_MSG_EQ(buffer->GetDrops(), 0u, "PFC keeps the buffer from overflowing");
        NS_TEST_EXPECT_MSG_GT(buffer->GetPauses(), 0u, "the NIC paused");
        NS_TEST_EXPECT_MSG_GT(net.GetHostDevice(1)->GetPauseTxFrames(), 0u, "PAUSE frames sent");
        PfcStatsHelper stats(net);
        NS_TEST_EXPECT_MSG_EQ(stats.GetDropCount(), 0u, "no frame lost");
        Ptr<PfcNetDevice> s3ToH1 = net.GetDevice(line.s[2], 1);
        if (m_storm)
        {
            NS_TEST_EXPECT_MSG_EQ(records[0].finished, false, "the flow never finishes");
            NS_TEST_EXPECT_MSG_EQ(s3ToH1->IsClassPaused(kLosslessClass), true, "S3 paused");
            // Delivered: at most what 200 us at 40 Gbps carries (1 MB).
            NS_TEST_EXPECT_MSG_LT(rdma.GetBytesDelivered(), 1000000u, "stopped early");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(records[0].finished, true, "the flow finishes");
            NS_TEST_EXPECT_MSG_GT(records[0].fct, MicroSeconds(1600), "drain-rate bound");
            NS_TEST_EXPECT_MSG_EQ(s3ToH1->IsClassPaused(kLosslessClass), false, "resumed");
        }
        Simulator::Destroy();
    }

    bool m_storm; //!< fault mode
};

/**
 * \ingroup tagger-tests
 * The PFC watchdog on S3 of the line H0 - S1 - S2 - S3 - H1, H1 in PFC
 * storm from 200 us to 1 ms under a 2 MB RoCE flow: S3's queue to H1 is
 * paused with frames from 200 us, so the watchdog (DetectionTime 200 us,
 * polls every 10 us) detects a storm within [400, 420] us, flushes the
 * queue and drops what arrives for it (pfc-watchdog, counted by the
 * switch too); 1 ms (RestorationTime) after the last PAUSE (the storm's refreshes end at
 * 1 ms) it restores the queue, and the flow then finishes (go-back-N
 * resends what was dropped).
 */
class WatchdogTestCase : public TestCase
{
  public:
    WatchdogTestCase()
        : TestCase("PFC watchdog: storm detected after DetectionTime, drops, restoration")
    {
    }

  private:
    void DoRun() override
    {
        Line line;
        PfcTopologyHelper net(line.topo);
        ConfigureNet(net);
        net.Build();
        Ptr<PfcWatchdog> wd = CreateObject<PfcWatchdog>();
        Ptr<PfcSwitchNetDevice> s3 = net.GetSwitch(line.s[2]);
        s3->SetAttribute("Watchdog", PointerValue(wd));
        Time detected;
        wd->TraceConnectWithoutContext("Storm", MakeBoundCallback(&RecordStorm, &detected));
        RdmaHelper rdma;
        rdma.Install(net);
        rdma.GetNic(1)->SetRxBuffer(
            CreateObjectWithAttributes<RdmaRxBuffer>("StormStart",
                                                     TimeValue(MicroSeconds(200)),
                                                     "StormStop",
                                                     TimeValue(MilliSeconds(1))));
        rdma.AddFlow(0, 1, 2000000, Time(0));
        Simulator::Stop(MilliSeconds(8));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(wd->GetStorms(), 1u, "one storm");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(detected, MicroSeconds(400), "not before DetectionTime");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(detected, MicroSeconds(420), "within two polls");
        NS_TEST_EXPECT_MSG_GT(wd->GetDrops(), 0u, "frames dropped");
        NS_TEST_EXPECT_MSG_EQ(s3->GetDropCount(PfcDropReason::PFC_WATCHDOG),
                              wd->GetDrops(),
                              "counted as pfc-watchdog");
        NS_TEST_EXPECT_MSG_EQ(wd->GetRestorations(), 1u, "restored after the storm");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetFlowRecords()[0].finished, true, "flow finishes");
        Simulator::Destroy();
    }

    /// Storm trace: record the first detection. \param at where
    /// \param port port \param cls class \param on detected
    static void RecordStorm(Time* at, uint32_t port, uint8_t cls, bool on)
    {
        if (on && at->IsZero())
        {
            *at = Simulator::Now();
        }
    }
};

} // namespace

TestCase*
MakeWatchdogTestCase()
{
    return new WatchdogTestCase;
}

TestCase*
MakeItsyRecoveryTestCase(bool trigger, RingMode mode)
{
    return new ItsyRecoveryTestCase(trigger, mode);
}

TestCase*
MakeRxBufferTestCase(bool storm)
{
    return new RxBufferTestCase(storm);
}

} // namespace test
} // namespace tagger
} // namespace ns3
