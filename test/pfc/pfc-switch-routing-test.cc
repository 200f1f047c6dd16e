/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Routing in PFC switch networks, in the TestSuite "tagger-pfc-switch"
 * (MakePfcSwitchRoutingTestCases(), pfc-test-util.h): TTL expiry at the
 * right switch of a line and NO_ROUTE drops, RemovePortFromRoutes shrinking
 * ECMP sets, ECMP spreading flows over two spines, and a PFC deadlock on a
 * ring of four switches found by the deadlock oracle (and a ring without a
 * cyclic dependency that drains).  The traffic and topologies are in
 * pfc-switch-test-util.h.
 */

#include "pfc-switch-test-util.h"
#include "pfc-test-util.h"

#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// Test 4: TTL and routing drops
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * TTL on a line of three switches.  A switch drops a packet that arrives with
 * TTL <= 1 and decrements the others (the sending host does not decrement):
 * TTL 1 dies at S1, 2 at S2 (S1 leaves 1), 3 at S3, 4 is delivered with
 * TTL 1.  Each case is its own simulation, so the single TTL_EXPIRED drop
 * must be counted by exactly the switch named.  Then NO_ROUTE: S2 without
 * routes drops the packet there.
 */
class TtlNoRouteTestCase : public TestCase
{
  public:
    TtlNoRouteTestCase()
        : TestCase("PFC switch: TTL expiry at the right switch of three, NO_ROUTE without a FIB "
                   "entry")
    {
    }

  private:
    /// Send one packet H0 -> H1. \param ttl its TTL \param clearS2 remove S2's routes
    /// \param expired TTL_EXPIRED per switch \param noRoute NO_ROUTE per switch
    /// \return packets delivered
    uint64_t SendOne(uint8_t ttl,
                     bool clearS2,
                     std::array<uint64_t, 3>& expired,
                     std::array<uint64_t, 3>& noRoute)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        Line line;
        PfcTopologyHelper net(line.topo);
        net.Build();
        if (clearS2)
        {
            net.GetSwitch(line.s[1])->ClearRoutes();
            NS_TEST_EXPECT_MSG_EQ(net.GetSwitch(line.s[1])->Lookup(net.GetHostAddress(1)).size(),
                                  0,
                                  "S2 still has a route after ClearRoutes");
        }
        Traffic traffic(net);
        FlowSpec f;
        f.ttl = ttl;
        traffic.AddFlow(0, 1, f);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        for (uint32_t i = 0; i < 3; ++i)
        {
            expired[i] = net.GetSwitch(line.s[i])->GetDropCount(PfcDropReason::TTL_EXPIRED);
            noRoute[i] = net.GetSwitch(line.s[i])->GetDropCount(PfcDropReason::NO_ROUTE);
        }
        NS_TEST_EXPECT_MSG_EQ(traffic.GetSent(), 1, "the host did not send its packet");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(),
                              expired[0] + expired[1] + expired[2] + noRoute[0] + noRoute[1] +
                                  noRoute[2],
                              "drops of other reasons");
        uint64_t delivered = traffic.GetReceived();
        Simulator::Destroy();
        return delivered;
    }

    void DoRun() override
    {
        // TTL t: dies at switch t (1-based) for t <= 3; TTL 4 arrives.
        for (uint8_t ttl = 1; ttl <= 4; ++ttl)
        {
            std::array<uint64_t, 3> expired{};
            std::array<uint64_t, 3> noRoute{};
            uint64_t delivered = SendOne(ttl, false, expired, noRoute);
            for (uint32_t i = 0; i < 3; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(expired[i],
                                      ((ttl == i + 1) ? 1 : 0),
                                      "TTL " << int(ttl) << ": TTL_EXPIRED at S" << i + 1);
                NS_TEST_EXPECT_MSG_EQ(noRoute[i], 0, "TTL " << int(ttl) << ": NO_ROUTE");
            }
            NS_TEST_EXPECT_MSG_EQ(delivered,
                                  (ttl == 4 ? 1 : 0),
                                  "TTL " << int(ttl) << ": delivered");
        }
        // S2 without routes.
        std::array<uint64_t, 3> expired{};
        std::array<uint64_t, 3> noRoute{};
        uint64_t delivered = SendOne(64, true, expired, noRoute);
        NS_TEST_EXPECT_MSG_EQ(noRoute[0], 0, "NO_ROUTE at S1");
        NS_TEST_EXPECT_MSG_EQ(noRoute[1], 1, "NO_ROUTE at S2 (no FIB entry)");
        NS_TEST_EXPECT_MSG_EQ(noRoute[2], 0, "NO_ROUTE at S3");
        NS_TEST_EXPECT_MSG_EQ(delivered, 0, "delivered without a route");
    }
};

/**
 * \ingroup tagger-tests
 * RemovePortFromRoutes on a leaf-spine of 2 leaves x 2 hosts and 2 spines.
 * Leaf 0's FIB has four /32 sets: its hosts H0, H1 (one host port each) and
 * H2, H3 on leaf 1 (both spine ports).  Removing spine 0's port changes the
 * two remote sets (returns 2) and leaves {spine 1's port}; removing spine 1's
 * port changes them again (2) and leaves them empty; removing it once more
 * changes nothing (0).  Then H0 -> H2 is a NO_ROUTE drop at leaf 0, while
 * H0 -> H1 is still delivered.
 */
class RemovePortTestCase : public TestCase
{
  public:
    RemovePortTestCase()
        : TestCase("PFC switch: RemovePortFromRoutes shrinks ECMP sets, an empty set is "
                   "NO_ROUTE")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        LeafSpine ls(2, 2, 2);
        PfcTopologyHelper net(ls.topo);
        net.Build();
        Ptr<PfcSwitchNetDevice> leaf0 = net.GetSwitch(ls.leaves[0]);
        const tagger::Topology& topo = net.GetTopology();
        uint32_t up0 = net.GetSwitchPort(ls.leaves[0], topo.GetPortTo(ls.leaves[0], ls.spines[0]));
        uint32_t up1 = net.GetSwitchPort(ls.leaves[0], topo.GetPortTo(ls.leaves[0], ls.spines[1]));
        Ipv4Address h2 = net.GetHostAddress(2);

        std::vector<uint32_t> set = leaf0->Lookup(h2);
        std::sort(set.begin(), set.end());
        std::vector<uint32_t> both{std::min(up0, up1), std::max(up0, up1)};
        NS_TEST_ASSERT_MSG_EQ((set == both), true, "leaf 0's ECMP set to H2 is not both spines");

        NS_TEST_EXPECT_MSG_EQ(leaf0->RemovePortFromRoutes(up0), 2, "sets changed, spine 0");
        set = leaf0->Lookup(h2);
        NS_TEST_EXPECT_MSG_EQ(set.size(), 1, "set size after removing spine 0");
        NS_TEST_EXPECT_MSG_EQ((set.size() == 1 && set[0] == up1), true, "spine 1 left");
        NS_TEST_EXPECT_MSG_EQ(leaf0->RemovePortFromRoutes(up1), 2, "sets changed, spine 1");
        NS_TEST_EXPECT_MSG_EQ(leaf0->Lookup(h2).size(), 0, "set not empty");
        NS_TEST_EXPECT_MSG_EQ(leaf0->Lookup(net.GetHostAddress(3)).size(), 0, "H3 set not empty");
        NS_TEST_EXPECT_MSG_EQ(leaf0->RemovePortFromRoutes(up1), 0, "sets changed twice");
        NS_TEST_EXPECT_MSG_EQ(leaf0->Lookup(net.GetHostAddress(1)).size(), 1, "local route lost");

        Traffic traffic(net);
        FlowSpec f;
        traffic.AddFlow(0, 2, f);
        traffic.AddFlow(0, 1, f);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(traffic.GetSent(), 2, "sent");
        NS_TEST_EXPECT_MSG_EQ(leaf0->GetDropCount(PfcDropReason::NO_ROUTE),
                              1,
                              "NO_ROUTE at leaf 0");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 1, "drops in all");
        NS_TEST_EXPECT_MSG_EQ(traffic.GetReceived(), 1, "H0 -> H1 not delivered");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
// Test 5: ECMP
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * ECMP over the two spines of a leaf-spine (2 leaves x 2 hosts).
 *  - 200 one-packet flows H0 -> H2 with source ports 10000..10199: leaf 0
 *    hashes each onto a spine.  For a fair hash the count on spine 0 is
 *    Binomial(200, 1/2): mean 100, sd sqrt(200)/2 = 7.1; [60, 140] is
 *    +-5.7 sd, so each spine must carry 30-70 % of the flows.
 *  - One flow of 50 packets: all 50 cross the same spine (0 and 50).
 *  - Leaf 0 and leaf 1 (seeds derived from their node ids) do not choose
 *    alike for all 200 tuples (no polarisation), and EcmpIndex is a function
 *    of the 5-tuple (same answer when asked again); two switches with the
 *    same EcmpSeed do choose alike.
 */
class EcmpTestCase : public TestCase
{
  public:
    EcmpTestCase()
        : TestCase("PFC switch: ECMP spreads flows over two spines, per-flow consistent, "
                   "per-switch seeds")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        LeafSpine ls(2, 2, 2);
        PfcTopologyHelper net(ls.topo);
        net.Build();
        Traffic traffic(net);
        const uint32_t flows = 200;
        for (uint32_t i = 0; i < flows; ++i)
        {
            FlowSpec f;
            f.sport = uint16_t(10000 + i);
            f.start = NanoSeconds(300 * i);
            traffic.AddFlow(0, 2, f);
        }
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        Ptr<PfcSwitchNetDevice> s0 = net.GetSwitch(ls.spines[0]);
        Ptr<PfcSwitchNetDevice> s1 = net.GetSwitch(ls.spines[1]);
        uint64_t on0 = s0->GetForwardedCount();
        uint64_t on1 = s1->GetForwardedCount();
        NS_TEST_EXPECT_MSG_EQ(traffic.GetReceived(), flows, "flows delivered");
        NS_TEST_EXPECT_MSG_EQ(on0 + on1, flows, "flows through the spines");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(on0, 60, "spine 0 carries < 30 % of the flows");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(on1, 60, "spine 1 carries < 30 % of the flows");

        // The ECMP choices of the two leaves for the same tuples (UDP = 17).
        Ptr<PfcSwitchNetDevice> leaf0 = net.GetSwitch(ls.leaves[0]);
        Ptr<PfcSwitchNetDevice> leaf1 = net.GetSwitch(ls.leaves[1]);
        Ipv4Address a = net.GetHostAddress(0);
        Ipv4Address b = net.GetHostAddress(2);
        uint32_t same = 0;
        uint32_t stable = 0;
        for (uint32_t i = 0; i < flows; ++i)
        {
            uint16_t sport = uint16_t(10000 + i);
            uint32_t x = leaf0->EcmpIndex(a, b, 17, sport, kSinkPort, 2);
            uint32_t y = leaf1->EcmpIndex(a, b, 17, sport, kSinkPort, 2);
            same += x == y ? 1 : 0;
            stable += x == leaf0->EcmpIndex(a, b, 17, sport, kSinkPort, 2) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_LT(same, flows, "leaf 0 and leaf 1 hash alike: polarisation");
        NS_TEST_EXPECT_MSG_EQ(stable, flows, "EcmpIndex is not a function of the 5-tuple");
        Simulator::Destroy();

        // One long flow: one path.
        RngSeedManager::SetRun(2);
        LeafSpine ls2(2, 2, 2);
        PfcTopologyHelper net2(ls2.topo);
        net2.Build();
        Traffic traffic2(net2);
        FlowSpec f;
        f.bytes = 50 * kPayload;
        f.sport = 12345;
        traffic2.AddFlow(0, 2, f);
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();
        uint64_t n0 = net2.GetSwitch(ls2.spines[0])->GetForwardedCount();
        uint64_t n1 = net2.GetSwitch(ls2.spines[1])->GetForwardedCount();
        NS_TEST_EXPECT_MSG_EQ(traffic2.GetReceived(), 50, "packets delivered");
        NS_TEST_EXPECT_MSG_EQ(std::min(n0, n1), 0, "one flow took both spines");
        NS_TEST_EXPECT_MSG_EQ(std::max(n0, n1), 50, "one flow's packets");
        Simulator::Destroy();

        // The seed is what differs: equal EcmpSeeds choose alike.
        Ptr<PfcSwitchNetDevice> p = CreateObject<PfcSwitchNetDevice>();
        Ptr<PfcSwitchNetDevice> q = CreateObject<PfcSwitchNetDevice>();
        p->SetAttribute("EcmpSeed", UintegerValue(7));
        q->SetAttribute("EcmpSeed", UintegerValue(7));
        uint32_t alike = 0;
        for (uint32_t i = 0; i < flows; ++i)
        {
            uint16_t sport = uint16_t(10000 + i);
            alike += p->EcmpIndex(a, b, 17, sport, kSinkPort, 4) ==
                             q->EcmpIndex(a, b, 17, sport, kSinkPort, 4)
                         ? 1
                         : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(alike, flows, "equal EcmpSeeds choose differently");
        p->Dispose();
        q->Dispose();
    }
};

// ---------------------------------------------------------------------------
// Test 6: deadlock on a ring
// ---------------------------------------------------------------------------

/**
 * A ring of four switches A, B, C, D (clockwise), one host each.  Switch
 * ports: 0 its host, 1 the clockwise neighbour, 2 the counter-clockwise one.
 * Hosts are HA, HB, HC, HD = host indices 0..3.
 */
struct Ring
{
    tagger::Topology topo;           //!< the graph
    std::array<tagger::NodeId, 4> s; //!< A, B, C, D

    Ring()
    {
        const char* names[4] = {"A", "B", "C", "D"};
        for (uint32_t i = 0; i < 4; ++i)
        {
            s[i] = topo.AddNode(names[i], tagger::NodeKind::SWITCH, 3, 1);
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            tagger::NodeId h =
                topo.AddNode(std::string("H") + names[i], tagger::NodeKind::HOST, 1, 0);
            topo.AddLink(s[i], 0, h, 0);
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            topo.AddLink(s[i], 1, s[(i + 1) % 4], 2);
        }
    }
};

/// What a ring run did.
struct RingOutcome
{
    std::vector<PfcDeadlockOracle::Deadlock> deadlocks; //!< oracle's deadlocks
    std::array<uint32_t, 4> switchNode;                 //!< node ids of A..D
    std::array<uint32_t, 4> cwPort;                     //!< switch port toward the cw neighbour
    uint64_t pauses = 0;                                //!< PAUSE decisions
    uint64_t losslessBytesAfterDrain = 0;               //!< held 5 ms after the senders stopped
    uint64_t sent = 0;                                  //!< packets sent
    uint64_t delivered = 0;                             //!< packets delivered
    uint64_t drops = 0;                                 //!< all data-plane drops
    uint64_t tcDrops = 0;                               //!< traffic-control drops
    uint64_t losslessDrops = 0;                         //!< LOSSLESS_OVERFLOW
};

/**
 * Run the ring with clockwise routes: host i sends at 40 Gbps for 1 ms to
 * host i + 2 (two hops clockwise) for each i in \p flows.  Small static
 * thresholds (StaticXoff 8 KiB, StaticXon 4 KiB), class 3 lossless.  The
 * oracle checks every 10 us until 6 ms; the simulation ends at 6 ms, 5 ms
 * after the senders stopped.
 * \param flows the sending hosts \return the outcome
 */
RingOutcome
RunRing(const std::vector<uint32_t>& flows)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    Ring ring;
    PfcTopologyHelper net(ring.topo);
    PfcHelper& pfc = net.GetPfcHelper();
    pfc.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    pfc.SetChannelAttribute("Delay", StringValue("1us"));
    pfc.SetMmuAttribute("LosslessClasses", UintegerValue(kLosslessMask));
    pfc.SetMmuAttribute("BufferSize", UintegerValue(256 * 1024));
    pfc.SetMmuAttribute("LossyPoolSize", UintegerValue(16 * 1024));
    pfc.SetMmuAttribute("ThresholdMode", StringValue("Static"));
    pfc.SetMmuAttribute("StaticXoff", UintegerValue(8 * 1024));
    pfc.SetMmuAttribute("StaticXon", UintegerValue(4 * 1024));
    net.Build();

    // Every switch: its own host on port 0, every other host clockwise.
    RingOutcome out;
    for (uint32_t i = 0; i < 4; ++i)
    {
        Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(ring.s[i]);
        sw->ClearRoutes();
        uint32_t hostPort = net.GetSwitchPort(ring.s[i], 0);
        uint32_t cw = net.GetSwitchPort(ring.s[i], 1);
        for (uint32_t h = 0; h < 4; ++h)
        {
            sw->SetRoute(net.GetHostAddress(h),
                         Ipv4Mask("255.255.255.255"),
                         {h == i ? hostPort : cw});
        }
        out.switchNode[i] = sw->GetNode()->GetId();
        out.cwPort[i] = cw;
    }

    Traffic traffic(net);
    for (uint32_t i : flows)
    {
        FlowSpec f;
        f.bytes = ~uint64_t(0);
        f.stop = MilliSeconds(1);
        traffic.AddFlow(i, (i + 2) % 4, f);
    }
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
    oracle->AddSwitches(net.GetSwitches());
    oracle->Start(MicroSeconds(10), MilliSeconds(6));

    Simulator::Stop(MilliSeconds(6));
    Simulator::Run();
    out.deadlocks = oracle->GetDeadlocks();
    out.pauses = PfcStatsHelper(net).GetPauseCount();
    out.losslessBytesAfterDrain = oracle->GetLosslessBytes();
    out.sent = traffic.GetSent();
    out.delivered = traffic.GetReceived();
    out.drops = PfcStatsHelper(net).GetDropCount();
    out.tcDrops = PfcStatsHelper(net).GetTrafficControlDrops();
    out.losslessDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup tagger-tests
 * The ring with the four clockwise two-hop flows A->B->C, B->C->D, C->D->A,
 * D->A->B in one lossless class: each switch's clockwise egress queue holds
 * transit frames of the flow that entered from its counter-clockwise
 * neighbour, and is paused by its clockwise neighbour, whose ingress queue is
 * full of frames waiting for that neighbour's own clockwise egress: a cyclic
 * buffer dependency, so PFC deadlocks.  The oracle must report a cycle of 4
 * members, one per switch, each the port toward the clockwise neighbour, class
 * 3, formed <= detected; and 5 ms after the senders stop, lossless bytes are
 * still held (they never drain).
 */
class RingDeadlockTestCase : public TestCase
{
  public:
    RingDeadlockTestCase()
        : TestCase("PFC deadlock oracle: four clockwise flows on a 4-switch ring deadlock "
                   "(4-member cycle, buffers never drain)")
    {
    }

  private:
    void DoRun() override
    {
        RingOutcome o = RunRing({0, 1, 2, 3});
        NS_TEST_EXPECT_MSG_GT(o.pauses, 0, "no PAUSE");
        NS_TEST_EXPECT_MSG_EQ(o.losslessDrops, 0, "lossless drops on the ring");
        NS_TEST_ASSERT_MSG_GT(o.deadlocks.size(), 0, "the oracle found no deadlock");
        bool found = false;
        for (const PfcDeadlockOracle::Deadlock& d : o.deadlocks)
        {
            NS_TEST_EXPECT_MSG_EQ(d.cycle.size(), 4, "cycle size");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(d.formed, d.detected, "formed after detected");
            std::set<uint32_t> nodes;
            bool ok = d.cycle.size() == 4;
            for (const PfcDeadlockOracle::Member& m : d.cycle)
            {
                nodes.insert(m.node);
                auto it = std::find(o.switchNode.begin(), o.switchNode.end(), m.node);
                NS_TEST_EXPECT_MSG_EQ((it != o.switchNode.end()), true, "member not a switch");
                if (it == o.switchNode.end())
                {
                    ok = false;
                    continue;
                }
                uint32_t i = it - o.switchNode.begin();
                NS_TEST_EXPECT_MSG_EQ(m.port, o.cwPort[i], "member port not clockwise");
                NS_TEST_EXPECT_MSG_EQ(int(m.cls), int(kLosslessClass), "member class");
                ok = ok && m.port == o.cwPort[i] && m.cls == kLosslessClass;
            }
            NS_TEST_EXPECT_MSG_EQ(nodes.size(), 4, "cycle not one member per switch");
            found = found || (ok && nodes.size() == 4);
        }
        NS_TEST_EXPECT_MSG_EQ(found, true, "no cycle A->B->C->D->A of clockwise ports");
        NS_TEST_EXPECT_MSG_GT(o.losslessBytesAfterDrain,
                              0,
                              "the deadlocked buffers drained 5 ms after the senders stopped");
    }
};

/**
 * \ingroup tagger-tests
 * The ring without a cyclic dependency, same routes and buffers:
 *  (a) three of the four flows (no D->A->B): A's clockwise egress then holds
 *      only frames of A's own host, never transit frames, so the dependency
 *      chain B->C->D->A stops at A.  B's clockwise link is offered 80 Gbps
 *      (A's transit flow and B's own) against 40 Gbps for 1 ms: 5 MB more than
 *      it carries, far beyond B's 256 KiB buffer, so without lossless drops
 *      PFC must pause;
 *  (b) two flows between opposite hosts, A->B->C and C->D->A: disjoint
 *      segments, no contention.
 * Neither deadlocks; 5 ms after the senders stop no lossless byte is held
 * and sent = delivered + dropped.
 */
class RingNoDeadlockTestCase : public TestCase
{
  public:
    RingNoDeadlockTestCase()
        : TestCase("PFC deadlock oracle: a ring without a cyclic dependency does not deadlock "
                   "and drains")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::vector<uint32_t>> cases{{0, 1, 2}, {0, 2}};
        for (const auto& flows : cases)
        {
            std::string what = std::to_string(flows.size()) + " flows";
            RingOutcome o = RunRing(flows);
            if (flows.size() == 3)
            {
                NS_TEST_EXPECT_MSG_GT(o.pauses, 0, what << ": no PAUSE");
            }
            NS_TEST_EXPECT_MSG_EQ(o.deadlocks.size(), 0, what << ": the oracle saw a deadlock");
            NS_TEST_EXPECT_MSG_EQ(o.losslessBytesAfterDrain, 0, what << ": buffers did not drain");
            NS_TEST_EXPECT_MSG_EQ(o.losslessDrops, 0, what << ": lossless drops");
            NS_TEST_EXPECT_MSG_EQ(o.sent,
                                  o.delivered + o.drops + o.tcDrops,
                                  what << ": sent != delivered + dropped");
        }
    }
};

} // namespace

std::vector<TestCase*>
MakePfcSwitchRoutingTestCases()
{
    return {new TtlNoRouteTestCase,
            new RemovePortTestCase,
            new EcmpTestCase,
            new RingDeadlockTestCase,
            new RingNoDeadlockTestCase};
}
