/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * TestSuite "tagger-pfc-switch-monitor": PfcSwitchMonitor, the interface
 * through which detectors and recovery policies attach to a switch, with a
 * monitor written here as a user would (AddMonitor).  The network: H0 - S1
 * - S2 - H2 and H1 - S2, 40 Gbps; H0 and H1 each send 2 MB of lossless UDP
 * to H2 at line rate, so S2's queue to H2 fills and S2 pauses S1 and H1.
 * What the monitor counts is checked against what the switches and ports
 * count themselves (forwarded frames, pause decisions, PFC frames sent by
 * the peer) and against the traffic (sent - received = the drops).
 */

#include "pfc-switch-test-util.h"

#include "ns3/core-module.h"
#include "ns3/pfc-switch-monitor.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/test.h"

namespace ns3
{
namespace tagger
{
namespace test
{
namespace
{

/// An EtherType no one else here uses (IEEE 802 local experimental 2; ITSY has 1).
constexpr uint16_t kEtherTypeTest = 0x88B6;

/**
 * \ingroup tagger-tests
 * A monitor that counts every hook, and on request drops for an egress
 * queue during a window, holds an ingress class lossy, or sends a frame
 * of its own EtherType.
 */
class CountingMonitor : public PfcSwitchMonitor
{
  public:
    void Attach(PfcSwitchNetDevice* sw) override
    {
        SetSwitch(sw);
    }

    PfcDropReason GetRecoveryDropReason() const override
    {
        return PfcDropReason::PFC_WATCHDOG;
    }

    void NotifyEnqueue(uint32_t, uint8_t, uint32_t, uint8_t) override
    {
        ++enqueues;
    }

    void NotifyDequeue(uint32_t, uint8_t, uint32_t, uint8_t) override
    {
        ++dequeues;
    }

    void BeforePause(uint32_t port, uint8_t cls) override
    {
        ++beforePause;
        misordered += GetSwitch()->GetPort(port)->IsPausingPeer(cls) ? 1 : 0;
    }

    void AfterPause(uint32_t port, uint8_t cls) override
    {
        ++afterPause;
        misordered += GetSwitch()->GetPort(port)->IsPausingPeer(cls) ? 0 : 1;
    }

    void AfterResume(uint32_t port, uint8_t cls) override
    {
        ++afterResume;
        misordered += GetSwitch()->GetPort(port)->IsPausingPeer(cls) ? 1 : 0;
    }

    void ReceivePfc(uint32_t, const PfcHeader&) override
    {
        ++pfcFrames;
    }

    uint16_t GetEtherType() const override
    {
        return kEtherTypeTest;
    }

    void ReceiveFrame(uint32_t, Ptr<Packet>) override
    {
        ++ownFrames;
    }

    bool IsDropping(uint32_t port, uint8_t, bool lossless) const override
    {
        const Time now = Simulator::Now();
        return lossless && port == dropPort && now >= dropFrom && now < dropUntil;
    }

    bool IsHoldingLossy(uint32_t port, uint8_t) const override
    {
        return port == holdPort;
    }

    bool IsHoldDrop(uint32_t port, uint8_t) const override
    {
        return port == holdPort;
    }

    /// Send one frame of kEtherTypeTest out of \p port. \param port port
    void SendOwnFrame(uint32_t port)
    {
        Ptr<PfcNetDevice> dev = GetSwitch()->GetPort(port);
        Ptr<Packet> frame = Create<Packet>(46);
        dev->Encapsulate(frame, dev->GetMacAddress(), kEtherTypeTest, kLosslessClass);
        dev->SendControlFrame(frame);
    }

    uint64_t enqueues = 0;          //!< NotifyEnqueue calls
    uint64_t dequeues = 0;          //!< NotifyDequeue calls
    uint64_t beforePause = 0;       //!< BeforePause calls
    uint64_t afterPause = 0;        //!< AfterPause calls
    uint64_t afterResume = 0;       //!< AfterResume calls
    uint64_t pfcFrames = 0;         //!< ReceivePfc calls
    uint64_t ownFrames = 0;         //!< ReceiveFrame calls
    uint64_t misordered = 0;        //!< hooks that saw the port's pause in the wrong state
    uint32_t dropPort = kPfcNoPort; //!< IsDropping's egress port
    Time dropFrom;                  //!< and window
    Time dropUntil;                 //!< end of the window
    uint32_t holdPort = kPfcNoPort; //!< IsHoldingLossy's ingress port
};

/// What the network of the file comment saw.
struct MonitorRun
{
    Ptr<PfcSwitchNetDevice> s1;     //!< S1
    Ptr<PfcSwitchNetDevice> s2;     //!< S2
    Ptr<CountingMonitor> m1;        //!< S1's monitor
    Ptr<CountingMonitor> m2;        //!< S2's monitor
    uint64_t sent = 0;              //!< UDP packets sent
    uint64_t received = 0;          //!< and received
    uint64_t s1PfcFromS2 = 0;       //!< PFC frames S2 sent to S1
    uint64_t s2PausesToH1 = 0;      //!< PAUSE frames S2 sent to H1
    uint64_t s2Forwarded = 0;       //!< frames S2 forwarded
    uint64_t s2PauseDecisions = 0;  //!< S2's MMU PAUSE decisions
    uint64_t s2ResumeDecisions = 0; //!< and RESUME decisions
    uint64_t flushed = 0;           //!< FlushForRecovery's count
    uint64_t s2LosslessUsed = 0;    //!< lossless bytes S2 holds at the end
};

/// S2's monitor flushes S2's queue to H2. \param r the run
void
Flush(MonitorRun* r)
{
    r->flushed = r->s2->FlushForRecovery(2, kLosslessClass, *r->m2);
}

/**
 * Build the network, give each switch a CountingMonitor set by \p setup,
 * run 5 ms (the flows end at about 1 ms: everything drains).
 * \param setup sets S2's monitor up \param flushAt when S2's monitor flushes
 * its queue to H2 (0: never) \return what it saw
 */
MonitorRun
RunNetwork(const std::function<void(CountingMonitor&)>& setup, Time flushAt = Time(0))
{
    Topology topo;
    const NodeId s1 = topo.AddNode("S1", NodeKind::SWITCH, 2, 1);
    const NodeId s2 = topo.AddNode("S2", NodeKind::SWITCH, 3, 1);
    const NodeId h0 = topo.AddNode("H0", NodeKind::HOST, 1, 0);
    const NodeId h1 = topo.AddNode("H1", NodeKind::HOST, 1, 0);
    const NodeId h2 = topo.AddNode("H2", NodeKind::HOST, 1, 0);
    topo.AddLink(h0, 0, s1, 0);
    topo.AddLink(s1, 1, s2, 0);
    topo.AddLink(h1, 0, s2, 1);
    topo.AddLink(h2, 0, s2, 2);
    PfcTopologyHelper net(topo);
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(kLosslessMask));
    net.Build();
    MonitorRun r;
    r.s1 = net.GetSwitch(s1);
    r.s2 = net.GetSwitch(s2);
    r.m1 = CreateObject<CountingMonitor>();
    r.m2 = CreateObject<CountingMonitor>();
    setup(*r.m2);
    r.s1->AddMonitor(r.m1);
    r.s2->AddMonitor(r.m2);
    Simulator::Schedule(MicroSeconds(1), &CountingMonitor::SendOwnFrame, r.m1, 1);
    if (flushAt.IsStrictlyPositive())
    {
        Simulator::Schedule(flushAt, &Flush, &r);
    }
    Traffic traffic(net);
    FlowSpec spec;
    spec.bytes = 2000 * kPayload;
    traffic.AddFlow(0, 2, spec); // hosts in the order added: H0, H1, H2
    traffic.AddFlow(1, 2, spec);
    Simulator::Stop(MilliSeconds(5));
    Simulator::Run();
    r.sent = traffic.GetSent();
    r.received = traffic.GetReceived();
    r.s1PfcFromS2 = r.s2->GetPort(0)->GetPauseTxFrames() + r.s2->GetPort(0)->GetResumeTxFrames();
    r.s2PausesToH1 = r.s2->GetPort(1)->GetPauseTxFrames();
    r.s2Forwarded = r.s2->GetForwardedCount();
    r.s2PauseDecisions = r.s2->GetPauseDecisions();
    r.s2ResumeDecisions = r.s2->GetResumeDecisions();
    r.s2LosslessUsed = r.s2->GetMmu()->GetLosslessUsed();
    Simulator::Destroy();
    return r;
}

/// \param sw a switch \return its data frames dropped, every reason
uint64_t
AllDrops(Ptr<PfcSwitchNetDevice> sw)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < kPfcDropReasons; ++i)
    {
        n += sw->GetDropCount(PfcDropReason(i));
    }
    return n;
}

/**
 * \ingroup tagger-tests
 * The hooks see what the switch does: as many enqueues and dequeues as
 * frames forwarded, a BeforePause and an AfterPause per PAUSE decision (the
 * port not pausing yet, then pausing), an AfterResume per RESUME decision,
 * every PFC frame the peer sent, and the frame of its own EtherType.
 */
class MonitorObservesTestCase : public TestCase
{
  public:
    MonitorObservesTestCase()
        : TestCase("a monitor sees enqueues, dequeues, pause decisions, PFC frames, its frames")
    {
    }

  private:
    void DoRun() override
    {
        MonitorRun r = RunNetwork([](CountingMonitor&) {});
        NS_TEST_EXPECT_MSG_EQ(r.received, r.sent, "nothing is lost");
        NS_TEST_EXPECT_MSG_EQ(r.sent, 4000u, "both flows sent");
        NS_TEST_EXPECT_MSG_EQ(r.m2->enqueues, r.s2Forwarded, "an enqueue per frame forwarded");
        NS_TEST_EXPECT_MSG_EQ(r.m2->dequeues, r.s2Forwarded, "and a dequeue (all drained)");
        NS_TEST_EXPECT_MSG_GT(r.s2PauseDecisions, 0u, "the incast pauses");
        NS_TEST_EXPECT_MSG_EQ(r.m2->beforePause, r.s2PauseDecisions, "BeforePause per PAUSE");
        NS_TEST_EXPECT_MSG_EQ(r.m2->afterPause, r.s2PauseDecisions, "AfterPause per PAUSE");
        NS_TEST_EXPECT_MSG_EQ(r.m2->afterResume, r.s2ResumeDecisions, "AfterResume per RESUME");
        NS_TEST_EXPECT_MSG_EQ(r.m2->misordered, 0u, "hooks before and after the port acts");
        NS_TEST_EXPECT_MSG_GT(r.s1PfcFromS2, 0u, "S2 paused S1");
        NS_TEST_EXPECT_MSG_EQ(r.m1->pfcFrames, r.s1PfcFromS2, "S1's monitor saw every PFC frame");
        NS_TEST_EXPECT_MSG_EQ(r.m2->ownFrames, 1u, "S2's monitor got S1's monitor's frame");
        NS_TEST_EXPECT_MSG_EQ(AllDrops(r.s2), 0u, "and the switch did not drop it");
    }
};

/**
 * \ingroup tagger-tests
 * Recovery drops: IsDropping for S2's queue to H2 from 100 to 150 us, and a
 * FlushForRecovery of that queue at 300 us.  Every packet not received is
 * one recovery drop, with the monitor's reason, counted by the monitor.
 */
class MonitorDropsTestCase : public TestCase
{
  public:
    MonitorDropsTestCase()
        : TestCase("a monitor's recovery drops: the monitor's reason and count, nothing else lost")
    {
    }

  private:
    void DoRun() override
    {
        MonitorRun r = RunNetwork(
            [](CountingMonitor& m) {
                m.dropPort = 2;
                m.dropFrom = MicroSeconds(100);
                m.dropUntil = MicroSeconds(150);
            },
            MicroSeconds(300));
        const uint64_t lost = r.sent - r.received;
        // 50 us of a 40 Gbps egress at line rate: about 235 frames of 1,066 B.
        NS_TEST_EXPECT_MSG_GT(lost, 200u, "the window dropped");
        NS_TEST_EXPECT_MSG_GT(r.flushed, 0u, "the flush dropped what the queue held");
        NS_TEST_EXPECT_MSG_EQ(r.m2->GetRecoveryDrops(), lost, "every loss is a recovery drop");
        NS_TEST_EXPECT_MSG_EQ(r.s2->GetDropCount(PfcDropReason::PFC_WATCHDOG),
                              lost,
                              "with the monitor's reason");
        NS_TEST_EXPECT_MSG_EQ(AllDrops(r.s2), lost, "and no other");
        NS_TEST_EXPECT_MSG_EQ(r.m2->dequeues, r.m2->enqueues, "the buffer was released");
        NS_TEST_EXPECT_MSG_EQ(r.s2LosslessUsed, 0u, "all of it");
    }
};

/**
 * \ingroup tagger-tests
 * A class held lossy: S2 never pauses H1 (while it pauses S1 as before),
 * and what H1's ingress queue cannot hold is a recovery drop, never a
 * lossless one.
 */
class MonitorHoldsTestCase : public TestCase
{
  public:
    MonitorHoldsTestCase()
        : TestCase("a monitor holding a class lossy: no PAUSE, overflow is a recovery drop")
    {
    }

  private:
    void DoRun() override
    {
        MonitorRun r = RunNetwork([](CountingMonitor& m) { m.holdPort = 1; });
        const uint64_t lost = r.sent - r.received;
        NS_TEST_EXPECT_MSG_EQ(r.s2PausesToH1, 0u, "H1 was never paused");
        NS_TEST_EXPECT_MSG_GT(r.s1PfcFromS2, 0u, "S1 was");
        NS_TEST_EXPECT_MSG_GT(lost, 0u, "H1's queue overflowed");
        NS_TEST_EXPECT_MSG_EQ(r.s2->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "no lossless drop");
        NS_TEST_EXPECT_MSG_EQ(r.m2->GetRecoveryDrops(), lost, "every loss is a recovery drop");
        NS_TEST_EXPECT_MSG_EQ(AllDrops(r.s2), lost, "and no other");
    }
};

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-pfc-switch-monitor".
 */
class PfcSwitchMonitorTestSuite : public TestSuite
{
  public:
    PfcSwitchMonitorTestSuite()
        : TestSuite("tagger-pfc-switch-monitor", Type::UNIT)
    {
        AddTestCase(new MonitorObservesTestCase);
        AddTestCase(new MonitorDropsTestCase);
        AddTestCase(new MonitorHoldsTestCase);
    }
};

/// The suite's instance.
PfcSwitchMonitorTestSuite g_pfcSwitchMonitorTestSuite;

} // namespace
} // namespace test
} // namespace tagger
} // namespace ns3
