/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * TTL in PFC switch networks, in the TestSuite "tagger-pfc-switch"
 * (MakePfcSwitchTtlTestCases(), pfc-test-util.h): with TTL classes two
 * ingress queues share one PAUSE class, which is resumed only when both are
 * ON; and a relay server's own packets leave with the TTL they were given.
 * The traffic and the line topology are in pfc-switch-test-util.h.
 */

#include "pfc-switch-test-util.h"
#include "pfc-test-util.h"

#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-classifier.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"
#include "ns3/ttl-classifier.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// TTL classes: two ingress queues share one PAUSE class
// ---------------------------------------------------------------------------

/**
 * Checks, whenever a port sends a RESUME, that no ingress queue of that port
 * whose PAUSE class the RESUME names is still OFF (PfcTx trace sink).
 */
struct SharedPauseClassChecker
{
    Ptr<SwitchMmu> mmu;            //!< the switch's MMU
    Ptr<PfcClassifier> classifier; //!< its classifier (GetPauseClass)
    uint32_t port = 0;             //!< the switch port traced
    uint64_t resumes = 0;          //!< RESUME frames (class 0) sent
    uint64_t resumesWhileOff = 0;  //!< ... while a queue of class 0 was OFF
    bool bothOff = false;          //!< ingress queues 0 and 1 of the port were OFF together

    /// MMU Pause trace sink. \param p port \param queue the ingress queue turned OFF
    void Off(uint32_t p, uint8_t queue)
    {
        bothOff = bothOff || (p == port && mmu->IsOff(port, 0) && mmu->IsOff(port, 1));
    }

    /// \param pfc a PFC frame the port sends
    void Tx(const PfcHeader& pfc)
    {
        if (!pfc.IsClassEnabled(0) || pfc.GetQuanta(0) > 0)
        {
            return;
        }
        ++resumes;
        for (uint8_t q = 0; q < kPfcClasses; ++q)
        {
            if (classifier->GetPauseClass(q) == 0 && mmu->IsOff(port, q))
            {
                ++resumesWhileOff;
                return;
            }
        }
    }
};

/**
 * \ingroup tagger-tests
 * TTL classes (TtlClassifier, Ttl0 8) on S1 of the line H0 - S1 - S2 - S3 -
 * H1, every class lossless, static thresholds (StaticXoff 6000 B, StaticXon
 * 3000 B).  H0 sends two class-0 flows from 0 to 150 us: A with TTL 8
 * (ingress queue 0 at S1) and B with TTL 7 (ingress queue 1), each 1000 B
 * every 400 ns.  The TTL scheme maps ingress queues 0 and 1 to the same PAUSE
 * class, 0 (the host's).  S2 pauses S1's classes 0 and 1 (egress queue =
 * ingress queue) from 1 us, resumes class 0 at 100 us and class 1 at 200 us.
 * Both of S1's ingress queues from H0 turn OFF; at 100 us queue 0 drains and
 * turns ON while queue 1 stays OFF.  S1 must not RESUME class 0 towards H0
 * then: queue 1 still needs the pause, and a RESUME lets H0 overrun its
 * headroom (lossless drops).  Checked: no RESUME of class 0 leaves S1's port
 * to H0 while an ingress queue of that class is OFF, no lossless drop, every
 * packet sent is delivered or dropped, and the buffers drain.
 */
class TtlSharedPauseClassTestCase : public TestCase
{
  public:
    TtlSharedPauseClassTestCase()
        : TestCase("PFC switch (TTL classes): a PAUSE class shared by two ingress queues is "
                   "resumed only when both are ON")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        Line line;
        PfcTopologyHelper net(line.topo);
        net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
        net.GetPfcHelper().SetChannelAttribute("Delay", StringValue("1us"));
        net.Build();
        Ptr<PfcSwitchNetDevice> s1 = net.GetSwitch(line.s[0]);
        Ptr<TtlClassifier> ttl = CreateObject<TtlClassifier>();
        ttl->SetAttribute("Ttl0", UintegerValue(8));
        s1->SetClassifier(ttl);
        Ptr<SwitchMmu> mmu = s1->GetMmu();
        mmu->SetAttribute("LosslessClasses", UintegerValue(0xff));
        mmu->SetAttribute("ThresholdMode", StringValue("Static"));
        mmu->SetAttribute("StaticXoff", UintegerValue(6000));
        mmu->SetAttribute("StaticXon", UintegerValue(3000));

        SharedPauseClassChecker checker;
        checker.mmu = mmu;
        checker.classifier = ttl;
        checker.port = net.GetSwitchPort(line.s[0], 0);
        Ptr<PfcNetDevice> toH0 = s1->GetPort(checker.port);
        toH0->TraceConnectWithoutContext("PfcTx",
                                         MakeCallback(&SharedPauseClassChecker::Tx, &checker));
        mmu->TraceConnectWithoutContext("Pause",
                                        MakeCallback(&SharedPauseClassChecker::Off, &checker));

        Traffic traffic(net);
        for (uint8_t t : {8, 7})
        {
            FlowSpec f;
            f.cls = 0;
            f.ttl = t;
            f.bytes = ~uint64_t(0);
            f.stop = MicroSeconds(150);
            f.interval = NanoSeconds(400);
            traffic.AddFlow(0, 1, f);
        }
        // S2's port from S1 pauses S1's classes 0 and 1, then resumes them one by one.
        Ptr<PfcNetDevice> s2In = net.GetDevice(line.s[1], 0);
        for (uint8_t c : {0, 1})
        {
            Simulator::Schedule(MicroSeconds(1), &PfcNetDevice::StartPausing, s2In, c);
        }
        Simulator::Schedule(MicroSeconds(100), &PfcNetDevice::StopPausing, s2In, uint8_t(0));
        Simulator::Schedule(MicroSeconds(200), &PfcNetDevice::StopPausing, s2In, uint8_t(1));
        Simulator::Stop(MicroSeconds(600));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(checker.bothOff,
                              true,
                              "S1's ingress queues 0 and 1 did not both turn OFF");
        NS_TEST_EXPECT_MSG_GT(checker.resumes, 0, "S1 never resumed H0");
        NS_TEST_EXPECT_MSG_EQ(checker.resumesWhileOff,
                              0,
                              "RESUME of class 0 while an ingress queue of class 0 was OFF");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              0,
                              "lossless drops");
        NS_TEST_EXPECT_MSG_GT(traffic.GetReceived(), 0, "nothing delivered");
        NS_TEST_EXPECT_MSG_EQ(traffic.GetSent(),
                              traffic.GetReceived() + PfcStatsHelper(net).GetDropCount() +
                                  PfcStatsHelper(net).GetTrafficControlDrops(),
                              "sent != delivered + dropped");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetLosslessBytes(),
                              0,
                              "S1's buffer did not drain");
        NS_TEST_EXPECT_MSG_EQ(toH0->IsPausingPeer(0), false, "S1 still pauses H0");
        Simulator::Destroy();
    }
};

/// MacRx trace sink: record the TTL of a received IPv4 packet. \param ttl where
/// \param packet the packet, IPv4 header on
void
RecordTtl(std::vector<uint8_t>* ttl, Ptr<const Packet> packet)
{
    Ipv4Header ip;
    packet->PeekHeader(ip);
    ttl->push_back(ip.GetTtl());
}

/**
 * \ingroup tagger-tests
 * A relay server originates packets through its forwarding engine, which
 * must leave their TTL alone: R (relay) - S - H, R's stack sends one UDP
 * packet with TTL 64 and, in a second run, one with TTL 255; H receives
 * them with 63 and 254 (S decrements once).  (The engine used to raise the
 * TTL by one and lower it again, which turned 255 into 254 at R.)
 */
class RelayOriginatedTtlTestCase : public TestCase
{
  public:
    RelayOriginatedTtlTestCase()
        : TestCase("PFC switch: a relay server's own packets leave with the TTL they were given "
                   "(255 included)")
    {
    }

  private:
    /// Send one packet R -> H with \p ttl. \param ttl its TTL \return the TTLs H received
    std::vector<uint8_t> SendOne(uint8_t ttl)
    {
        tagger::Topology topo;
        tagger::NodeId r = topo.AddNode("R", tagger::NodeKind::HOST, 1, -1, true);
        tagger::NodeId h = topo.AddNode("H", tagger::NodeKind::HOST, 1);
        tagger::NodeId sw = topo.AddNode("S", tagger::NodeKind::SWITCH, 2);
        topo.AddLink(r, 0, sw, 0);
        topo.AddLink(h, 0, sw, 1);
        PfcTopologyHelper net(topo);
        net.Build();
        NS_TEST_EXPECT_MSG_EQ(net.IsRelayHost(0), true, "R is not a relay server");
        std::vector<uint8_t> received;
        net.GetHostDevice(1)->TraceConnectWithoutContext("MacRx",
                                                         MakeBoundCallback(&RecordTtl, &received));
        Traffic traffic(net);
        FlowSpec f;
        f.ttl = ttl;
        traffic.AddFlow(0, 1, f);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(traffic.GetReceived(), 1, "TTL " << int(ttl) << ": not delivered");
        Simulator::Destroy();
        return received;
    }

    void DoRun() override
    {
        for (uint8_t ttl : {64, 255})
        {
            std::vector<uint8_t> received = SendOne(ttl);
            NS_TEST_ASSERT_MSG_EQ(received.size(), 1, "TTL " << int(ttl) << ": packets at H");
            NS_TEST_EXPECT_MSG_EQ(int(received[0]),
                                  ttl - 1,
                                  "TTL " << int(ttl) << ": TTL at H (R must not decrement)");
        }
    }
};

} // namespace

std::vector<TestCase*>
MakePfcSwitchTtlTestCases()
{
    return {new TtlSharedPauseClassTestCase, new RelayOriginatedTtlTestCase};
}
