/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Relay servers (hosts that forward, as BCube's servers do), added to the
 * ns-3 TestSuite "tagger-topology" through MakePfcTopologyRelayTestCases():
 * on BCube(4,1) they are forwarders with an address, forward datagrams
 * without their IP stack seeing them, carry RoCE flows losslessly with PFC
 * and keep Tagger's lossless tags on packets they originate; on A -- R -- B
 * the relay engine's local source is bounded and its receive hook sees
 * local packets.
 */

#include "pfc-topology-test-case.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// BCube(4,1): relay servers
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * BCube(4,1): every server is a relay with an address on its switch device,
 * routes by hand and against the BFS, and the network's counters work.
 */
class BCubeRelayServersTestCase : public PfcTopologyTestCase
{
  public:
    BCubeRelayServersTestCase()
        : PfcTopologyTestCase("BCube: relay servers are forwarders with an address")
    {
    }

  private:
    void DoRun() override
    {
        // BCube(4,1): 16 servers H00..H33 with 2 ports (port l to the level-l
        // switch), 8 switches W0_0..W0_3, W1_0..W1_3 of 4 ports.
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        net.Build();
        NS_TEST_ASSERT_MSG_EQ(net.GetNHosts(), 16u, "servers");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(net.GetSwitches().GetN(), 8u, "switches");
        NS_TEST_EXPECT_MSG_EQ(net.GetForwarders().GetN(), 24u, "forwarders");
        for (uint32_t h = 0; h < 16; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(net.IsRelayHost(h), true, "host " << h);
            NS_TEST_EXPECT_MSG_EQ(net.GetHostDevice(h), nullptr, "host " << h);
            NS_TEST_ASSERT_MSG_NE(net.GetHostSwitch(h), nullptr, "host " << h);
            if (IsStatusFailure())
            {
                return;
            }
            NS_TEST_EXPECT_MSG_EQ(net.GetHostInterface(h),
                                  Ptr<NetDevice>(net.GetHostSwitch(h)),
                                  "host " << h);
            NS_TEST_EXPECT_MSG_EQ(net.GetHostSwitch(h)->GetNPorts(), 2u, "host " << h);
            NS_TEST_EXPECT_MSG_EQ(net.GetHostSwitch(h)->IsLocalAddress(net.GetHostAddress(h)),
                                  true,
                                  "host " << h);
            Ptr<Ipv4> ipv4 = net.GetHost(h)->GetObject<Ipv4>();
            int32_t itf = ipv4->GetInterfaceForDevice(net.GetHostSwitch(h));
            NS_TEST_ASSERT_MSG_GT_OR_EQ(itf, 0, "host " << h);
            if (IsStatusFailure())
            {
                return;
            }
            NS_TEST_EXPECT_MSG_EQ(ipv4->GetAddress(itf, 0).GetLocal(),
                                  net.GetHostAddress(h),
                                  "host " << h);
        }
        // Server H00: port 0 to W0_0, port 1 to W1_0.
        // H00 -> H01 (same level-0 switch): port 0 only.
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H00", "H01"), "{0}", "H00 -> H01");
        // H00 -> H10 (same level-1 switch W1_0): port 1 only.
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H00", "H10"), "{1}", "H00 -> H10");
        // H00 -> H11: two digits differ, via relay H01 (port 0) or H10 (port 1).
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H00", "H11"), "{0, 1}", "H00 -> H11");
        // W0_0 (servers H00..H03 on ports 0..3) -> H11: only through H01 (port 1),
        // which reaches H11 over W1_1.
        NS_TEST_EXPECT_MSG_EQ(Route(net, "W0_0", "H11"), "{1}", "W0_0 -> H11");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "W0_0", "H02"), "{2}", "W0_0 -> H02");
        NS_TEST_EXPECT_MSG_EQ(CheckFibAgainstBfs(net), "", "FIB against BFS");
        // The other helpers still work on a network with relay servers.
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetTrafficControlDrops(),
                              0u,
                              "traffic-control drops");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetPauseCount(), 0u, "pauses");
        std::ostringstream counters;
        PfcStatsHelper(net).PrintSwitchCounters(counters);
        NS_TEST_EXPECT_MSG_NE(counters.str().find("H01: pauses=0"),
                              std::string::npos,
                              counters.str());
    }
};

/**
 * \ingroup tagger-tests
 * BCube(4,1): a datagram H00 -> H11 crosses a switch, a relay server and a
 * switch, and only the destination's IP stack sees it.
 */
class BCubeDatagramTestCase : public PfcTopologyTestCase
{
  public:
    BCubeDatagramTestCase()
        : PfcTopologyTestCase("BCube: a datagram across a relay loses one TTL per forwarder")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        net.Build();
        uint32_t h00 = HostIndex(net, "H00");
        uint32_t h11 = HostIndex(net, "H11");
        uint32_t h01 = HostIndex(net, "H01");
        uint32_t h10 = HostIndex(net, "H10");
        PairTable t;
        t.ttl.assign(16, std::vector<int>(16, 0));
        t.count.assign(16, std::vector<uint32_t>(16, 0));
        std::vector<RxSlot> slots;
        for (uint32_t h : {h11, h01, h10})
        {
            slots.push_back(RxSlot{this, &t, h});
        }
        for (uint32_t i = 0; i < slots.size(); ++i)
        {
            Ptr<Node> node = net.GetHost(slots[i].dst);
            node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "Rx",
                MakeBoundCallback(&PfcTopologyTestCase::PairRx, &slots[i]));
            Socket::CreateSocket(node, UdpSocketFactory::GetTypeId())
                ->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        }
        Ptr<Socket> socket = Socket::CreateSocket(net.GetHost(h00), UdpSocketFactory::GetTypeId());
        socket->Connect(InetSocketAddress(net.GetHostAddress(h11), 9));
        Simulator::Schedule(MicroSeconds(1), &SendUdp, socket, 100u);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        // H00 -> W0_0 or W1_0 -> relay H01 or H10 -> W1_1 or W0_1 -> H11: three
        // forwarders after the source (which sends with 64): 64 - 3 = 61.
        NS_TEST_EXPECT_MSG_EQ(t.count[h00][h11], 1u, "datagrams at H11");
        NS_TEST_EXPECT_MSG_EQ(t.ttl[h00][h11], 61, "TTL at H11");
        // The relay forwarded it without its IP stack seeing it.
        NS_TEST_EXPECT_MSG_EQ(t.count[h00][h01] + t.count[h00][h10], 0u, "datagrams at relays");
        uint64_t relayed = net.GetHostSwitch(h01)->GetForwardedCount() +
                           net.GetHostSwitch(h10)->GetForwardedCount();
        NS_TEST_EXPECT_MSG_EQ(relayed, 1u, "forwarded by H01 and H10");
        // The source's engine forwarded its own datagram once too.
        NS_TEST_EXPECT_MSG_EQ(net.GetHostSwitch(h00)->GetForwardedCount(), 1u, "forwarded by H00");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
    }
};

/**
 * \ingroup tagger-tests
 * BCube(4,1): a datagram between every pair of servers, with the TTL of one
 * or three forwarders.
 */
class BCubeEveryPairTestCase : public PfcTopologyTestCase
{
  public:
    BCubeEveryPairTestCase()
        : PfcTopologyTestCase("BCube: every pair is reachable")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        net.Build();
        PairTable t = SendAllPairs(net);
        // Server s = (a1, a0) is host index 4 a1 + a0.  Servers that differ in one
        // digit share a switch: one forwarder, TTL 63; in both digits: switch,
        // relay server, switch: TTL 61.
        for (uint32_t s = 0; s < 16; ++s)
        {
            for (uint32_t d = 0; d < 16; ++d)
            {
                if (s == d)
                {
                    continue;
                }
                int differ = (s / 4 != d / 4) + (s % 4 != d % 4);
                NS_TEST_EXPECT_MSG_EQ(t.count[s][d], 1u, s << " -> " << d);
                NS_TEST_EXPECT_MSG_EQ(t.ttl[s][d], (differ == 1 ? 63 : 61), s << " -> " << d);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
    }
};

/**
 * \ingroup tagger-tests
 * BCube(4,1): RoCE flows into and out of a server, some across relay
 * servers that send their own flows, all complete without loss.
 */
class BCubeRoceFlowsTestCase : public PfcTopologyTestCase
{
  public:
    BCubeRoceFlowsTestCase()
        : PfcTopologyTestCase("BCube: RoCE flows through relay servers complete")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        net.Build();
        RdmaHelper rdma;
        rdma.Install(net);
        NS_TEST_ASSERT_MSG_EQ(rdma.GetNHosts(), 16u, "NICs");
        if (IsStatusFailure())
        {
            return;
        }
        uint32_t h00 = HostIndex(net, "H00");
        // Four senders into H00 at once, 200 KB each: two from its own switches
        // (H01, H10, one forwarder) and two across relays (H11, H22); H01 and H10
        // relay for others while sending their own flows.
        std::vector<uint32_t> senders = {HostIndex(net, "H01"),
                                         HostIndex(net, "H10"),
                                         HostIndex(net, "H11"),
                                         HostIndex(net, "H22")};
        for (uint32_t s : senders)
        {
            rdma.AddFlow(s, h00, 200000, MicroSeconds(10));
        }
        // And one from H00 to H33, across a relay, while it receives.
        rdma.AddFlow(h00, HostIndex(net, "H33"), 100000, MicroSeconds(10));
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        std::vector<RdmaFlowRecord> records = rdma.GetFlowRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 5u, "flow records");
        if (IsStatusFailure())
        {
            return;
        }
        for (const RdmaFlowRecord& r : records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, r.src << " -> " << r.dst);
            NS_TEST_EXPECT_MSG_EQ(r.retransmitted, 0u, r.src << " -> " << r.dst);
            NS_TEST_EXPECT_MSG_EQ(r.timeouts, 0u, r.src << " -> " << r.dst);
            // 200 KB at 40 Gb/s is 40 us of serialisation: the slowdown is finite and >= 1.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.slowdown, 1.0, r.src << " -> " << r.dst);
        }
        NS_TEST_EXPECT_MSG_EQ(rdma.GetActiveFlows(), 0u, "active flows");
        // 4 * 200,000 + 100,000 payload bytes delivered in order.
        NS_TEST_EXPECT_MSG_EQ(rdma.GetBytesDelivered(), 900000u, "bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
        // Every relay's local backlog drained.
        for (uint32_t h = 0; h < 16; ++h)
        {
            for (uint8_t c = 0; c < 8; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(net.GetHostSwitch(h)->GetLocalQueueBytes(c),
                                      0u,
                                      "host " << h << " class " << int(c));
            }
        }
    }
};

/**
 * \ingroup tagger-tests
 * BCube(4,1): a 15-to-1 RoCE incast without DCQCN is held by PFC alone, also
 * at relay servers, with no loss.
 */
class BCubeRoceIncastTestCase : public PfcTopologyTestCase
{
  public:
    BCubeRoceIncastTestCase()
        : PfcTopologyTestCase("BCube: a RoCE incast is lossless under PFC")
    {
    }

  private:
    void DoRun() override
    {
        // Without DCQCN an incast must be held by PFC alone, including at relay
        // servers whose ports get paused while their own NIC sends.
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        // A small buffer (1 MB, 100 KB of it lossy) so that queues reach Xoff.
        net.GetPfcHelper().SetMmuAttribute("BufferSize", UintegerValue(1000000));
        net.GetPfcHelper().SetMmuAttribute("LossyPoolSize", UintegerValue(100000));
        net.Build();
        RdmaHelper rdma;
        rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
        rdma.Install(net);
        uint32_t h00 = HostIndex(net, "H00");
        // Every other server sends 300 KB to H00 at once: 15 * 300,000 bytes into
        // two 40 Gb/s ports.
        for (uint32_t s = 0; s < 16; ++s)
        {
            if (s != h00)
            {
                rdma.AddFlow(s, h00, 300000, MicroSeconds(10));
            }
        }
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rdma.GetActiveFlows(), 0u, "active flows");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetBytesDelivered(), 15u * 300000u, "bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetRetransmittedPackets(), 0u, "retransmitted packets");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetTimeouts(), 0u, "timeouts");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
        NS_TEST_EXPECT_MSG_GT(PfcStatsHelper(net).GetPauseCount(), 0u, "pauses");
    }
};

/**
 * \ingroup tagger-tests
 * A -- R -- B: RoCE between plain hosts (NIC on a host PfcNetDevice) and a
 * relay server (NIC on its switch device), in both directions at once.
 */
class RelayRoceTestCase : public PfcTopologyTestCase
{
  public:
    RelayRoceTestCase()
        : PfcTopologyTestCase("RoCE between plain hosts and a relay server")
    {
    }

  private:
    void DoRun() override
    {
        // A -- R -- B: A and B are plain hosts (NIC on a host PfcNetDevice), R a
        // relay server (NIC on its switch device).  Flows A -> B (through R),
        // R -> B, B -> A (through R) and B -> R at once.
        tagger::Topology topo;
        tagger::NodeId a = topo.AddNode("A", tagger::NodeKind::HOST, 1);
        tagger::NodeId r = topo.AddNode("R", tagger::NodeKind::HOST, 2, -1, true);
        tagger::NodeId b = topo.AddNode("B", tagger::NodeKind::HOST, 1);
        topo.AddLink(a, 0, r, 0);
        topo.AddLink(r, 1, b, 0);
        PfcTopologyHelper net(topo);
        net.Build();
        RdmaHelper rdma;
        rdma.Install(net);
        rdma.AddFlow(0, 2, 100000, MicroSeconds(5));
        rdma.AddFlow(1, 2, 100000, MicroSeconds(5));
        rdma.AddFlow(2, 0, 100000, MicroSeconds(5));
        rdma.AddFlow(2, 1, 50000, MicroSeconds(5));
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rdma.GetActiveFlows(), 0u, "active flows");
        // 3 * 100,000 + 50,000 payload bytes.
        NS_TEST_EXPECT_MSG_EQ(rdma.GetBytesDelivered(), 350000u, "bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetNic(1)->GetBytesDelivered(), 50000u, "bytes at R");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetRetransmittedPackets(), 0u, "retransmitted packets");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
        // A -> B and R -> B share R's port 1 at 40 Gb/s: 200 KB take at least
        // 200,000 * 8 / 40e9 = 40 us, so the later of the two finishes after 40 us.
        Time last;
        for (const RdmaFlowRecord& rec : rdma.GetFlowRecords())
        {
            if (rec.dst == net.GetHostAddress(2))
            {
                last = Max(last, rec.fct);
            }
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(last, MicroSeconds(40), "the later FCT into B");
    }
};

/// Ipv4L3Protocol "Rx": remember the DSCP of the last UDP datagram.
void
LastDscp(int* dscp, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
{
    Ipv4Header ip;
    packet->PeekHeader(ip);
    if (ip.GetProtocol() == UdpL4Protocol::PROT_NUMBER)
    {
        *dscp = ip.GetDscp();
    }
}

/// Send a 100-byte datagram with TOS \p tos on a connected socket (for Simulator::Schedule).
void
SendWithTos(Ptr<Socket> socket, uint8_t tos)
{
    Ptr<Packet> p = Create<Packet>(100);
    SocketIpTosTag tag;
    tag.SetTos(tos);
    p->AddPacketTag(tag);
    socket->Send(p);
}

/**
 * \ingroup tagger-tests
 * BCube(4,1) with Tagger: packets a relay server originates keep a lossless
 * tag (a datagram and RoCE flows across relays).
 */
class BCubeTaggerTestCase : public PfcTopologyTestCase
{
  public:
    BCubeTaggerTestCase()
        : PfcTopologyTestCase("BCube: Tagger keeps relay-originated packets lossless")
    {
    }

  private:
    void DoRun() override
    {
        // Tagger on BCube(4,1), all shortest paths (greedy): relay servers get a
        // TaggerClassifier too.  A packet a relay server originates keeps its tag
        // at its own engine (no rule applies where a path starts); a lookup there
        // would find no rule and demote it to the lossy tag 0 for the rest of
        // the path.  A datagram H00 -> H11 sent with tag 1 must therefore arrive
        // with a lossless tag (1 .. lossless tags), not 0.
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        net.Build();
        TaggerHelper tagger;
        tagger.Install(net, TaggerHelper::ComputeRules(net.GetTopology(), 0));
        NS_TEST_ASSERT_MSG_GT_OR_EQ(tagger.GetLosslessTags(), 1u, "lossless tags");
        if (IsStatusFailure())
        {
            return;
        }
        uint32_t h00 = HostIndex(net, "H00");
        uint32_t h11 = HostIndex(net, "H11");
        NS_TEST_EXPECT_MSG_NE(tagger.GetClassifier(net.GetNodeId("H01")),
                              nullptr,
                              "H01's classifier");

        int dscp = -1;
        net.GetHost(h11)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&LastDscp, &dscp));
        Socket::CreateSocket(net.GetHost(h11), UdpSocketFactory::GetTypeId())
            ->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        Ptr<Socket> socket = Socket::CreateSocket(net.GetHost(h00), UdpSocketFactory::GetTypeId());
        socket->Connect(InetSocketAddress(net.GetHostAddress(h11), 9));
        // DSCP 1: tag 1
        Simulator::Schedule(MicroSeconds(1), &SendWithTos, socket, uint8_t(1 << 2));

        // RoCE with tag 1 across relays, both ways.
        RdmaHelper rdma;
        rdma.Install(net);
        rdma.AddFlow(h00, h11, 100000, MicroSeconds(5), 1);
        rdma.AddFlow(h11, h00, 100000, MicroSeconds(5), 1);
        rdma.AddFlow(HostIndex(net, "H23"), HostIndex(net, "H32"), 100000, MicroSeconds(5), 1);
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(dscp, 1, "DSCP of the datagram at H11");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(dscp,
                                    int(tagger.GetLosslessTags()),
                                    "DSCP of the datagram at H11");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetActiveFlows(), 0u, "active flows");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetBytesDelivered(), 300000u, "bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
    }
};

// ---------------------------------------------------------------------------
// The relay engine's local source and receive hook, on A -- R -- B
// ---------------------------------------------------------------------------

/// A transmit source that hands out \c left packets R -> B of class 3 and
/// records the largest local backlog and whether class 3 was ever refused.
struct TestSource
{
    Ptr<PfcSwitchNetDevice> relay; //!< R's engine
    Ipv4Address src;               //!< R
    Ipv4Address dst;               //!< B
    uint32_t left = 0;             //!< packets still to hand out
    uint64_t maxBacklog = 0;       //!< largest class-3 local backlog when class 3 was allowed
    uint64_t minFull = ~0ull;      //!< smallest class-3 local backlog when it was refused
    bool sawFull = false;          //!< class 3 was marked full once
    uint32_t asked = 0;            //!< calls

    /// \param full classes not to return \return a packet or null
    Ptr<Packet> Pull(uint8_t full)
    {
        ++asked;
        uint64_t backlog = relay->GetLocalQueueBytes(3);
        if (full & (1u << 3))
        {
            sawFull = true;
            minFull = std::min(minFull, backlog);
            return nullptr;
        }
        maxBacklog = std::max(maxBacklog, backlog);
        if (left == 0)
        {
            return nullptr;
        }
        --left;
        Ptr<Packet> p = Create<Packet>(972); // + UDP 8 + IPv4 20 = 1000 bytes
        UdpHeader udp;
        udp.SetSourcePort(1000);
        udp.SetDestinationPort(9);
        p->AddHeader(udp);
        Ipv4Header ip;
        ip.SetSource(src);
        ip.SetDestination(dst);
        ip.SetProtocol(17);
        ip.SetTtl(64);
        ip.SetDscp(Ipv4Header::DscpType(24)); // class 3
        ip.SetPayloadSize(p->GetSize());
        p->AddHeader(ip);
        return p;
    }
};

/// Receive hook that takes UDP packets to port 7 and lets the rest go up.
struct TestHook
{
    uint32_t taken = 0; //!< packets consumed

    /// \param packet IPv4 packet \return consumed
    bool Take(Ptr<Packet> packet)
    {
        Ipv4Header ip;
        UdpHeader udp;
        Ptr<Packet> copy = packet->Copy();
        copy->RemoveHeader(ip);
        copy->RemoveHeader(udp);
        if (ip.GetProtocol() == 17 && udp.GetDestinationPort() == 7)
        {
            ++taken;
            return true;
        }
        return false;
    }
};

/**
 * \ingroup tagger-tests
 * A -- R -- B: the relay engine asks its local source for class 3 only
 * while the local backlog is below LocalQueueLimit, and its receive hook
 * sees packets for R before R's stack does.
 */
class RelayEngineTestCase : public PfcTopologyTestCase
{
  public:
    RelayEngineTestCase()
        : PfcTopologyTestCase("Relay engine: the local source is bounded, the hook sees local "
                              "packets")
    {
    }

  private:
    void DoRun() override
    {
        // A -- R -- B as a topology: R a relay server with two ports.
        tagger::Topology topo;
        tagger::NodeId a = topo.AddNode("A", tagger::NodeKind::HOST, 1);
        tagger::NodeId r = topo.AddNode("R", tagger::NodeKind::HOST, 2, -1, true);
        tagger::NodeId b = topo.AddNode("B", tagger::NodeKind::HOST, 1);
        topo.AddLink(a, 0, r, 0);
        topo.AddLink(r, 1, b, 0);
        PfcTopologyHelper net(topo);
        net.Build();
        NS_TEST_ASSERT_MSG_EQ(net.IsRelayHost(1), true, "R relays");
        NS_TEST_ASSERT_MSG_EQ(net.IsRelayHost(0), false, "A does not relay");
        if (IsStatusFailure())
        {
            return;
        }
        Ptr<PfcSwitchNetDevice> relay = net.GetHostSwitch(1);
        relay->SetAttribute("LocalQueueLimit", UintegerValue(3000));

        TestSource source;
        source.relay = relay;
        source.src = net.GetHostAddress(1);
        source.dst = net.GetHostAddress(2);
        source.left = 20;
        relay->SetTransmitSource(MakeCallback(&TestSource::Pull, &source));
        TestHook hook;
        relay->SetReceiveHook(MakeCallback(&TestHook::Take, &hook));

        std::pair<uint32_t, int> atR{0, 0};
        std::pair<uint32_t, int> atB{0, 0};
        net.GetHost(1)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CountUdp, &atR));
        net.GetHost(2)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CountUdp, &atB));
        for (uint32_t h : {1u, 2u})
        {
            Socket::CreateSocket(net.GetHost(h), UdpSocketFactory::GetTypeId())
                ->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        }
        // A -> R port 7 (the hook takes it), A -> R port 9 (up the stack).
        Ptr<Socket> fromA = Socket::CreateSocket(net.GetHost(0), UdpSocketFactory::GetTypeId());
        fromA->Bind();
        Address to7 = InetSocketAddress(net.GetHostAddress(1), 7);
        Address to9 = InetSocketAddress(net.GetHostAddress(1), 9);
        Simulator::Schedule(MicroSeconds(1), &SendUdpTo, fromA, 100u, to7);
        Simulator::Schedule(MicroSeconds(2), &SendUdpTo, fromA, 100u, to9);
        Simulator::Schedule(MicroSeconds(5), &PfcSwitchNetDevice::NotifySourceReady, relay);
        Simulator::Stop(MicroSeconds(200));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(hook.taken, 1u, "datagrams the hook took");
        NS_TEST_EXPECT_MSG_EQ(atR.first, 1u, "only the port-9 datagram reached R's stack");
        NS_TEST_EXPECT_MSG_EQ(atR.second, 64, "delivered locally, not forwarded");
        // All 20 local packets reached B, leaving R with TTL 64 (R is their source).
        NS_TEST_EXPECT_MSG_EQ(source.left, 0u, "local packets left");
        NS_TEST_EXPECT_MSG_EQ(atB.first, 20u, "datagrams at B");
        NS_TEST_EXPECT_MSG_EQ(atB.second, 64, "TTL at B");
        // Frames are 1000 + 14 = 1014 bytes: R lets the source hand out class 3
        // while the backlog is below 3000, so with at most 2 * 1014 = 2028 bytes
        // queued (a third frame makes 3042 >= 3000: full).  The first frame goes
        // on the idle wire at once, so the source outruns the port and class 3 is
        // refused at least once.
        NS_TEST_EXPECT_MSG_LT_OR_EQ(source.maxBacklog, 2028u, "largest backlog allowed");
        NS_TEST_EXPECT_MSG_EQ(source.sawFull, true, "class 3 refused");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(source.minFull, 3000u, "smallest backlog refused");
        NS_TEST_EXPECT_MSG_EQ(relay->GetLocalQueueBytes(3), 0u, "backlog at the end");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
    }
};

} // namespace

/**
 * The relay server test cases, for the TestSuite "tagger-topology".
 * \return new test cases (the suite takes ownership)
 */
std::vector<TestCase*>
MakePfcTopologyRelayTestCases()
{
    return {new BCubeRelayServersTestCase,
            new BCubeDatagramTestCase,
            new BCubeEveryPairTestCase,
            new BCubeRoceFlowsTestCase,
            new BCubeRoceIncastTestCase,
            new RelayRoceTestCase,
            new BCubeTaggerTestCase,
            new RelayEngineTestCase};
}
