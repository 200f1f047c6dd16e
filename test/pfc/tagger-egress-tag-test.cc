/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Egress by the new tag and by the old one, in the TestSuite
 * "tagger-classifier" (MakeTaggerEgressTagTestCases(), pfc-test-util.h):
 * a packet bounced at a switch leaves it with the new tag, in the new tag's
 * egress queue, which the downstream PAUSE of that class holds (item 1 of
 * the suite's list in tagger-classifier-test-suite.cc); and egress by the
 * old tag, the wrong behaviour of Tagger (ToN), Section VII-B, drops
 * lossless packets right after a bounce, egress by the new tag does not
 * (item 2).  The network settings, frame parsing and packet accounting are in
 * tagger-dataplane-test-util.h.  NS_LOG=TaggerDataplaneTest=info prints each
 * run of the second case.
 */

#include "pfc-test-util.h"
#include "tagger-dataplane-test-util.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/switch-mmu.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

/// The log component of NS_LOG_INFO here, shared with tagger-dataplane-fuzz-test.cc.
static LogComponent& g_log [[maybe_unused]] = TaggerDataplaneTestLog();

namespace
{

// ---------------------------------------------------------------------------
// 1. The classifiers hold the library's rules
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Real packets through a bounce: on a k = 4 fat tree with the Clos 1-bounce
 * rules, H1 -> H9 is pinned to T1-L1-S1-L3-S2-L5-T5, which bounces at L3
 * (down from S1, up to S2: tag 1 -> 2).  S2 pauses class 2 on its link from
 * L3.  With egress by the new tag, L3 holds the packets in its egress queue 2
 * towards S2, rewritten to DSCP 2, until S2 resumes; with egress by the old
 * tag they leave from queue 1 through the PAUSE.
 */
class BouncePacketTestCase : public TestCase
{
  public:
    BouncePacketTestCase()
        : TestCase("Tagger: a bounced packet leaves the switch with the new tag, in the new "
                   "tag's egress queue (paused by the downstream PAUSE of that class)")
    {
    }

  private:
    /// Counts of data frames by DSCP at one observation point.
    using DscpCounts = std::map<uint8_t, uint64_t>;

    /// What one run saw.
    struct Outcome
    {
        uint64_t queued1 = 0;        //!< frames in L3's egress queue 1 to S2 while paused
        uint64_t queued2 = 0;        //!< frames in its egress queue 2 to S2 while paused
        uint64_t queued2Dscp2 = 0;   //!< of those, frames carrying DSCP 2
        uint64_t l3IngressBytes = 0; //!< L3's MMU: ingress (from S1, queue 1) bytes while paused
        uint64_t deliveredWhilePaused = 0; //!< bytes H9 got before S2 resumed
        uint64_t deliveredAtEnd = 0;       //!< bytes H9 got in all
        DscpCounts intoL3;                 //!< data frames L3 received from S1, by DSCP
        DscpCounts intoS2;                 //!< data frames S2 received from L3, by DSCP
        DscpCounts intoH9;                 //!< data frames H9 received, by DSCP
    };

    /// Count a data frame by DSCP. \param counts where \param frame the frame
    static void CountDscp(DscpCounts* counts, Ptr<const Packet> frame)
    {
        FrameInfo info = ParseFrame(frame);
        if (info.kind == Kind::DATA)
        {
            ++(*counts)[info.dscp];
        }
    }

    /**
     * Record what the network holds while S2 pauses class 2 (the queued and
     * delivered fields of \p o).
     * \param[out] o the outcome
     * \param l3Out L3's port to S2
     * \param l3Mmu L3's MMU
     * \param l3FromS1 L3's switch port from S1
     * \param h9 H9's NIC
     */
    static void ObservePaused(Outcome* o,
                              Ptr<PfcNetDevice> l3Out,
                              Ptr<SwitchMmu> l3Mmu,
                              uint32_t l3FromS1,
                              Ptr<RdmaNic> h9)
    {
        o->queued1 = l3Out->GetQueue(1).size();
        o->queued2 = l3Out->GetQueue(2).size();
        for (const PfcQueueEntry& e : l3Out->GetQueue(2))
        {
            o->queued2Dscp2 += ParseFrame(e.frame).dscp == 2 ? 1 : 0;
        }
        o->l3IngressBytes = l3Mmu->GetIngressBytes(l3FromS1, 1);
        o->deliveredWhilePaused = h9->GetBytesDelivered();
    }

    /// \param egressByOldTag the classifier attribute \return what happened
    Outcome Run(bool egressByOldTag)
    {
        Outcome o;
        tagger::Topology topo = tagger::MakeFatTree(4);
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        TaggerHelper tagger;
        tagger.SetClassifierAttribute("EgressByOldTag", BooleanValue(egressByOldTag));
        tagger::TagRules rules = TaggerHelper::ComputeRules(topo, 1);
        tagger.Install(net, rules);
        const uint32_t h1 = 0;
        const uint32_t h9 = 8; // on T5 (ToR m hosts H(2m-1) and H(2m))
        net.GetRouteHelper().PinPath({"T1", "L1", "S1", "L3", "S2", "L5", "T5"}, h9);
        RdmaHelper rdma;
        rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
        rdma.Install(net);
        const uint32_t packets = 20;
        rdma.AddFlow(h1, h9, packets * kPayload, MicroSeconds(10), 1);

        tagger::NodeId s1 = net.GetNodeId("S1");
        tagger::NodeId l3 = net.GetNodeId("L3");
        tagger::NodeId s2 = net.GetNodeId("S2");
        tagger::PortNo l3FromS1 = topo.GetPortTo(l3, s1);
        tagger::PortNo l3ToS2 = topo.GetPortTo(l3, s2);
        tagger::PortNo s2FromL3 = topo.GetPortTo(s2, l3);
        Ptr<PfcNetDevice> l3Out = net.GetDevice(l3, l3ToS2);
        Ptr<PfcNetDevice> s2In = net.GetDevice(s2, s2FromL3);
        Ptr<PfcNetDevice> l3In = net.GetDevice(l3, l3FromS1);
        l3In->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&CountDscp, &o.intoL3));
        s2In->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&CountDscp, &o.intoS2));
        net.GetHostDevice(h9)->TraceConnectWithoutContext("MacRx",
                                                          MakeBoundCallback(&CountDscp, &o.intoH9));

        // S2 pauses class 2 towards L3 from 1 us (refreshing) until 150 us.
        Simulator::Schedule(MicroSeconds(1), &PfcNetDevice::StartPausing, s2In, uint8_t(2));
        Simulator::Schedule(MicroSeconds(150),
                            &ObservePaused,
                            &o,
                            l3Out,
                            net.GetSwitch(l3)->GetMmu(),
                            net.GetSwitchPort(l3, l3FromS1),
                            rdma.GetNic(h9));
        Simulator::Schedule(MicroSeconds(150), &PfcNetDevice::StopPausing, s2In, uint8_t(2));
        Simulator::Stop(MicroSeconds(400));
        Simulator::Run();
        o.deliveredAtEnd = rdma.GetNic(h9)->GetBytesDelivered();
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        // 20 packets of 1000 B: 20 frames of 1058 B.  At 40 Gbps a frame
        // takes (1058 + 4 + 20) * 8 / 40 = 216.4 ns on the wire, so all 20
        // reach L3 within about 10 + 5 hops * 1 us + 20 * 0.22 us < 25 us,
        // long before the 150 us check.
        const uint64_t packets = 20;
        Outcome n = Run(false);
        NS_TEST_EXPECT_MSG_EQ(n.queued2, packets, "new tag: L3 holds the packets in queue 2");
        NS_TEST_EXPECT_MSG_EQ(n.queued2Dscp2, packets, "new tag: queued packets carry DSCP 2");
        NS_TEST_EXPECT_MSG_EQ(n.queued1, 0, "new tag: nothing in queue 1");
        // The ingress side stays the old tag's: queue 1 of the port from S1,
        // 20 frames * 1058 B = 21160 B (below Xoff 50 KB: no PAUSE upstream).
        NS_TEST_EXPECT_MSG_EQ(n.l3IngressBytes,
                              packets * kDataFrame,
                              "new tag: L3 ingress queue 1");
        NS_TEST_EXPECT_MSG_EQ(n.deliveredWhilePaused, 0, "new tag: H9 got data through a PAUSE");
        NS_TEST_EXPECT_MSG_EQ(n.deliveredAtEnd, packets * kPayload, "new tag: H9 got everything");
        NS_TEST_EXPECT_MSG_EQ(n.intoL3[1], packets, "new tag: into L3 with tag 1");
        NS_TEST_EXPECT_MSG_EQ(n.intoL3.size(), 1, "new tag: into L3 only tag 1");
        NS_TEST_EXPECT_MSG_EQ(n.intoS2[2], packets, "new tag: into S2 with tag 2");
        NS_TEST_EXPECT_MSG_EQ(n.intoS2.size(), 1, "new tag: into S2 only tag 2");
        NS_TEST_EXPECT_MSG_EQ(n.intoH9[2], packets, "new tag: H9 receives tag 2");
        NS_TEST_EXPECT_MSG_EQ(n.intoH9.size(), 1, "new tag: H9 receives only tag 2");

        Outcome o = Run(true);
        NS_TEST_EXPECT_MSG_EQ(o.queued2, 0, "old tag: queue 2 stays empty");
        NS_TEST_EXPECT_MSG_EQ(o.queued1, 0, "old tag: queue 1 is not paused, so it drained");
        NS_TEST_EXPECT_MSG_EQ(o.deliveredWhilePaused,
                              packets * kPayload,
                              "old tag: the PAUSE of class 2 did not stop the packets");
        NS_TEST_EXPECT_MSG_EQ(o.intoS2[2], packets, "old tag: the DSCP is rewritten all the same");
    }
};

// ---------------------------------------------------------------------------
// 2. Egress by the old tag drops lossless packets
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Tagger (ToN), Section VII-B (Fig. 8).  Clos testbed (Fig. 2) with the Clos
 * 1-bounce rules.  Blue H5 -> H13 is pinned to T2-L2-S1-L3-S2-L4-T4: L3
 * bounces it (down from S1, up to S2), tag 1 -> 2.  H14, H15 and H16 send to
 * H13 too, all at line rate (no DCQCN): T4 -> H13 is the bottleneck and the
 * backpressure runs back along the blue path, T4 -> L4 -> S2 -> L3, in
 * class 2, the new tag: S2's ingress queue 2 from L3 pauses class 2 at L3.
 *
 * Egress by the new tag: L3 queues blue in egress queue 2, the PAUSE stops
 * it, L3's ingress queue 1 fills and pauses S1 in turn: no drop.  Egress by
 * the old tag: blue waits in L3's egress queue 1, which the PAUSE of class 2
 * does not stop; L3 keeps sending into S2's ingress queue 2 at 40 Gbps while
 * S2 drains it at the share T4 -> H13 allows, so S2's headroom overflows:
 * LOSSLESS_OVERFLOW drops, all at S2.
 */
class EgressByOldTagTestCase : public TestCase
{
  public:
    EgressByOldTagTestCase()
        : TestCase("Tagger (Section VII-B): egress by the old tag drops lossless packets after "
                   "a bounce, egress by the new tag does not")
    {
    }

  private:
    /// What one run saw.
    struct Outcome
    {
        uint64_t losslessDrops = 0;   //!< network-wide LOSSLESS_OVERFLOW
        uint64_t losslessDropsS2 = 0; //!< LOSSLESS_OVERFLOW at S2
        uint64_t otherDrops = 0;      //!< drops for any other reason
        uint64_t pauses = 0;          //!< PAUSE decisions
        uint64_t l3Pauses = 0;        //!< PAUSE decisions of L3 (its ingress from S1 backs up)
        bool deadlock = false;        //!< oracle or undrained buffers
        std::string accounting;       //!< Census::Check result
    };

    /// \param egressByOldTag the classifier attribute \return what happened
    Outcome Run(bool egressByOldTag)
    {
        Outcome o;
        tagger::Topology topo = tagger::MakeClos(tagger::PaperTestbedClos());
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        TaggerHelper tagger;
        tagger.SetClassifierAttribute("EgressByOldTag", BooleanValue(egressByOldTag));
        tagger::TagRules rules = TaggerHelper::ComputeRules(topo, 1);
        tagger.Install(net, rules);
        const uint32_t h5 = 4;
        const uint32_t h13 = 12;
        net.GetRouteHelper().PinPath({"T2", "L2", "S1", "L3", "S2", "L4", "T4"}, h13);
        RdmaHelper rdma;
        rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
        rdma.Install(net);
        Census census(net);
        // 2 MB each (multiples of 1000 B for the census); the senders stop at 2 ms.
        const uint64_t bytes = 2000000;
        rdma.AddFlow(h5, h13, bytes, MicroSeconds(10), 1);
        for (uint32_t h : {13u, 14u, 15u})
        {
            rdma.AddFlow(h, h13, bytes, MicroSeconds(10), 1);
        }
        Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
        oracle->AddSwitches(net.GetSwitches());
        oracle->Start(MicroSeconds(20), MilliSeconds(4));
        Simulator::Schedule(MilliSeconds(2), &StopAllFlows, &rdma);
        Simulator::Stop(MilliSeconds(4));
        Simulator::Run();
        census.CountQueued();
        o.losslessDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
        o.losslessDropsS2 =
            net.GetSwitch(net.GetNodeId("S2"))->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
        o.otherDrops = PfcStatsHelper(net).GetDropCount() - o.losslessDrops;
        o.pauses = PfcStatsHelper(net).GetPauseCount();
        o.l3Pauses = net.GetSwitch(net.GetNodeId("L3"))->GetPauseDecisions();
        o.deadlock = oracle->HasDeadlock() || PfcStatsHelper(net).GetLosslessBytes() > 0;
        o.accounting = census.Check(rdma, egressByOldTag ? "old tag" : "new tag");
        NS_LOG_INFO("egress by " << (egressByOldTag ? "old" : "new") << " tag: lossless drops "
                                 << o.losslessDrops << " (S2 " << o.losslessDropsS2
                                 << "), other drops " << o.otherDrops << ", pauses " << o.pauses
                                 << " (L3 " << o.l3Pauses << ")");
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        Outcome n = Run(false);
        NS_TEST_EXPECT_MSG_GT(n.pauses, 0, "new tag: no congestion at all");
        NS_TEST_EXPECT_MSG_GT(n.l3Pauses, 0, "new tag: the PAUSE of class 2 did not hold L3 back");
        NS_TEST_EXPECT_MSG_EQ(n.losslessDrops, 0, "new tag: lossless drops");
        NS_TEST_EXPECT_MSG_EQ(n.otherDrops, 0, "new tag: other drops");
        NS_TEST_EXPECT_MSG_EQ(n.deadlock, false, "new tag: deadlock");
        NS_TEST_EXPECT_MSG_EQ(n.accounting, "", "new tag: accounting");

        Outcome o = Run(true);
        NS_TEST_EXPECT_MSG_GT(o.losslessDrops, 0, "old tag: no lossless drop");
        NS_TEST_EXPECT_MSG_EQ(o.losslessDropsS2,
                              o.losslessDrops,
                              "old tag: lossless drops elsewhere than right after the bounce");
        NS_TEST_EXPECT_MSG_EQ(o.accounting, "", "old tag: accounting");
    }
};

} // namespace

std::vector<TestCase*>
MakeTaggerEgressTagTestCases()
{
    return {new BouncePacketTestCase, new EgressByOldTagTestCase};
}
