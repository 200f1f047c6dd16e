/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PfcTopologyHelper on every topology family: routes (against a breadth-first
 * search written here, or worked out by hand), datagrams between hosts (TTL =
 * 64 - forwarders crossed), BCube relay servers (forwarding, local delivery,
 * RoCE NICs on them), names, link failures with local reroute, pinned and
 * set routes, and the errors a user can cause.
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"

#include <algorithm>
#include <deque>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// Simulator::Destroy after each test (nodes, names, events).
class PfcTopologyBuild : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

/// Death tests: run in their own process, named *DeathTest so gtest runs them first.
using PfcTopologyBuildDeathTest = PfcTopologyBuild;

/// Datagrams seen by the hosts: ttl[src][dst] (0: none arrived), count[src][dst].
struct PairTable
{
    std::vector<std::vector<int>> ttl;        //!< TTL on arrival
    std::vector<std::vector<uint32_t>> count; //!< datagrams arrived
};

/// Where a host's IPv4 Rx trace writes.
struct RxSlot
{
    PairTable* table; //!< the table
    uint32_t dst;     //!< this host's index
};

/// Ipv4L3Protocol "Rx" at host slot->dst: record UDP datagrams by source.
void
PairRx(RxSlot* slot, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
{
    Ipv4Header ip;
    packet->PeekHeader(ip);
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
    {
        return;
    }
    uint32_t src = ip.GetSource().Get() - ((10u << 24) | 1u); // hosts are 10.0.0.1, ...
    ASSERT_LT(src, slot->table->ttl.size());
    slot->table->ttl[src][slot->dst] = ip.GetTtl();
    ++slot->table->count[src][slot->dst];
}

/**
 * One 100-byte UDP datagram between every ordered pair of hosts: in round r
 * (r = 1 .. n-1, at r * 5 us) host i sends to host (i + r) mod n, so every
 * host sends one and receives one per round.
 * \param net the network (built) \return what arrived
 */
PairTable
SendAllPairs(PfcTopologyHelper& net)
{
    const uint32_t n = net.GetNHosts();
    PairTable table;
    table.ttl.assign(n, std::vector<int>(n, 0));
    table.count.assign(n, std::vector<uint32_t>(n, 0));
    std::vector<RxSlot> slots(n);
    std::vector<Ptr<Socket>> senders(n);
    for (uint32_t h = 0; h < n; ++h)
    {
        slots[h] = RxSlot{&table, h};
        net.GetHost(h)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&PairRx, &slots[h]));
        Ptr<Socket> sink = Socket::CreateSocket(net.GetHost(h), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        senders[h] = Socket::CreateSocket(net.GetHost(h), UdpSocketFactory::GetTypeId());
        senders[h]->Bind();
    }
    for (uint32_t r = 1; r < n; ++r)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Socket> s = senders[i];
            InetSocketAddress to(net.GetHostAddress((i + r) % n), 9);
            Simulator::Schedule(MicroSeconds(5 * r),
                                [s, to]() { s->SendTo(Create<Packet>(100), 0, to); });
        }
    }
    Simulator::Stop(MicroSeconds(5 * n + 500));
    Simulator::Run();
    return table;
}

/// Forwarders in the test's own terms: switches and hosts with relay set.
bool
Forwards(const tagger::Topology& topo, tagger::NodeId v)
{
    return topo.GetNode(v).kind == tagger::NodeKind::SWITCH || topo.GetNode(v).relay;
}

/// Hop counts from \p from over links, entering only forwarders (and \p from).
std::vector<uint32_t>
Bfs(const tagger::Topology& topo, tagger::NodeId from)
{
    std::vector<uint32_t> dist(topo.GetNNodes(), tagger::kNone);
    dist[from] = 0;
    std::deque<tagger::NodeId> queue{from};
    while (!queue.empty())
    {
        tagger::NodeId u = queue.front();
        queue.pop_front();
        if (u != from && !Forwards(topo, u))
        {
            continue;
        }
        for (tagger::NodeId w : topo.GetNeighbors(u))
        {
            if (dist[w] == tagger::kNone)
            {
                dist[w] = dist[u] + 1;
                queue.push_back(w);
            }
        }
    }
    return dist;
}

/**
 * Every forwarder's FIB set for every host must be its shortest-path next
 * hops: the ports to a neighbour that is the host or a forwarder one hop
 * closer to it (no failures: switch port index = topology port).
 * \return "" or the first mismatch
 */
std::string
CheckFibAgainstBfs(const PfcTopologyHelper& net)
{
    const tagger::Topology& topo = net.GetTopology();
    const std::vector<tagger::NodeId> hosts = topo.GetHosts();
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        std::vector<uint32_t> dist = Bfs(topo, hosts[h]);
        for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
        {
            if (!Forwards(topo, v) || v == hosts[h])
            {
                continue;
            }
            std::set<uint32_t> want;
            for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
            {
                tagger::NodeId w = topo.GetPeer(v, p).node;
                if (w != tagger::kNone && (w == hosts[h] || Forwards(topo, w)) &&
                    dist[w] + 1 == dist[v])
                {
                    want.insert(p);
                }
            }
            std::vector<uint32_t> got = net.GetSwitch(v)->Lookup(net.GetHostAddress(h));
            std::set<uint32_t> gotSet(got.begin(), got.end());
            if (want.empty() || gotSet != want || got.size() != want.size())
            {
                return topo.GetNode(v).name + " -> " + topo.GetNode(hosts[h]).name + ": FIB has " +
                       std::to_string(got.size()) + " ports, BFS wants " +
                       std::to_string(want.size());
            }
        }
    }
    return "";
}

/// \return the host index of the host named \p name
uint32_t
HostIndex(const PfcTopologyHelper& net, const std::string& name)
{
    const std::vector<tagger::NodeId> hosts = net.GetTopology().GetHosts();
    tagger::NodeId v = net.GetNodeId(name);
    return uint32_t(std::find(hosts.begin(), hosts.end(), v) - hosts.begin());
}

/// \return the FIB set of forwarder \p sw for host \p host (names)
std::vector<uint32_t>
Route(const PfcTopologyHelper& net, const std::string& sw, const std::string& host)
{
    return net.GetSwitch(net.GetNodeId(sw))->Lookup(net.GetHostAddress(HostIndex(net, host)));
}

} // namespace

// ---------------------------------------------------------------------------
// Jellyfish: routes against an independent BFS, every pair reachable
// ---------------------------------------------------------------------------

TEST_F(PfcTopologyBuild, JellyfishRoutesAreShortestPathsAndEveryPairIsReachable)
{
    // 20 switches of 8 ports, 4 to other switches: 20 * (8 - 4) = 80 hosts.
    PfcTopologyHelper net(tagger::MakeJellyfish(20, 8, 4, 7));
    net.Build();
    ASSERT_EQ(net.GetNHosts(), 80u);
    EXPECT_EQ(net.GetSwitches().GetN(), 20u);
    EXPECT_EQ(net.GetForwarders().GetN(), 20u);
    EXPECT_EQ(CheckFibAgainstBfs(net), "");

    const tagger::Topology& topo = net.GetTopology();
    const std::vector<tagger::NodeId> hosts = topo.GetHosts();
    PairTable t = SendAllPairs(net);
    uint32_t arrived = 0;
    for (uint32_t s = 0; s < hosts.size(); ++s)
    {
        // Host-to-host hop count d crosses d - 1 switches: TTL 64 - (d - 1).
        std::vector<uint32_t> dist = Bfs(topo, hosts[s]);
        for (uint32_t d = 0; d < hosts.size(); ++d)
        {
            if (s == d)
            {
                continue;
            }
            EXPECT_EQ(t.count[s][d], 1u) << "H" << s + 1 << " -> H" << d + 1;
            EXPECT_EQ(t.ttl[s][d], 64 - int(dist[hosts[d]] - 1))
                << "H" << s + 1 << " -> H" << d + 1;
            arrived += t.count[s][d];
        }
    }
    EXPECT_EQ(arrived, 80u * 79u);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
}

// ---------------------------------------------------------------------------
// F10(4): ECMP set sizes by hand
// ---------------------------------------------------------------------------

TEST_F(PfcTopologyBuild, F10EcmpSetSizes)
{
    // F10(4): 4 pods of 2 ToRs (T) and 2 aggregations (L), 4 cores (S), 16
    // hosts, 2 per ToR.  Pods 1 and 3 (0-based) are B pods: aggregation i
    // reaches cores i and i + 2 (strided) instead of 2i and 2i + 1.
    PfcTopologyHelper net(tagger::MakeF10(4));
    net.Build();
    ASSERT_EQ(net.GetNHosts(), 16u);

    // The B-pod wiring: L3 (pod 1, aggregation 0) port 3 goes to core 2 = S3
    // (in FatTree(4) it would be S2).
    const tagger::Topology& topo = net.GetTopology();
    EXPECT_EQ(topo.GetNode(topo.GetPeer(net.GetNodeId("L3"), 3).node).name, "S3");

    // By hand, for one destination (any pod looks alike):
    //   ToR -> host on it: 1 (the host port); ToR -> any other host: 2 (both aggregations);
    //   aggregation -> host in its pod: 1 (down to the ToR); other pod: 2 (its two cores);
    //   core -> any host: 1 (its one link to that pod).
    EXPECT_EQ(Route(net, "T1", "H1"), std::vector<uint32_t>({0}));
    EXPECT_EQ(Route(net, "T1", "H3"), std::vector<uint32_t>({2, 3})); // same pod, T2
    EXPECT_EQ(Route(net, "T1", "H5"), std::vector<uint32_t>({2, 3})); // pod 1
    EXPECT_EQ(Route(net, "L3", "H5"), std::vector<uint32_t>({0}));    // T3 is L3's port 0
    EXPECT_EQ(Route(net, "L3", "H1"), std::vector<uint32_t>({2, 3})); // cores S1 and S3
    EXPECT_EQ(Route(net, "S3", "H1"), std::vector<uint32_t>({0}));    // core port p: pod p
    EXPECT_EQ(Route(net, "S3", "H16"), std::vector<uint32_t>({3}));

    // Sum of set sizes over every (switch, host):
    //   8 ToRs   * (2 hosts * 1 + 14 hosts * 2) = 8 * 30 = 240
    //   8 aggs   * (4 hosts * 1 + 12 hosts * 2) = 8 * 28 = 224
    //   4 cores  * 16 hosts * 1                 =           64
    //   total 528; and every set has 1 or 2 ports as above.
    uint32_t total = 0;
    for (tagger::NodeId v : topo.GetSwitches())
    {
        for (uint32_t h = 0; h < net.GetNHosts(); ++h)
        {
            uint32_t size = net.GetSwitch(v)->Lookup(net.GetHostAddress(h)).size();
            EXPECT_TRUE(size == 1 || size == 2) << topo.GetNode(v).name;
            total += size;
        }
    }
    EXPECT_EQ(total, 528u);
    EXPECT_EQ(CheckFibAgainstBfs(net), "");
}

// ---------------------------------------------------------------------------
// Every generator builds and routes
// ---------------------------------------------------------------------------

TEST_F(PfcTopologyBuild, EveryFamilyBuildsWithShortestPathRoutes)
{
    std::vector<std::pair<std::string, tagger::Topology>> families = {
        {"paper testbed", tagger::MakeClos(tagger::PaperTestbedClos())},
        {"FatTree(4)", tagger::MakeFatTree(4)},
        {"F10(4)", tagger::MakeF10(4)},
        {"Jellyfish(10,6,3)", tagger::MakeJellyfish(10, 6, 3, 1)},
        {"LeafSpine(3,2,2)", tagger::MakeLeafSpine(3, 2, 2)},
        {"BCube(3,1)", tagger::MakeBCube(3, 1)},
        {"BCube(2,2)", tagger::MakeBCube(2, 2)},
    };
    for (const auto& [label, topo] : families)
    {
        PfcTopologyHelper net(topo);
        net.Build();
        EXPECT_EQ(net.GetNHosts(), topo.GetHosts().size()) << label;
        EXPECT_EQ(net.GetSwitches().GetN(), topo.GetSwitches().size()) << label;
        EXPECT_EQ(CheckFibAgainstBfs(net), "") << label;
        Simulator::Destroy();
    }
}

// ---------------------------------------------------------------------------
// BCube(4,1): relay servers
// ---------------------------------------------------------------------------

TEST_F(PfcTopologyBuild, BCubeRelayServersAreForwardersWithAnAddress)
{
    // BCube(4,1): 16 servers H00..H33 with 2 ports (port l to the level-l
    // switch), 8 switches W0_0..W0_3, W1_0..W1_3 of 4 ports.
    PfcTopologyHelper net(tagger::MakeBCube(4, 1));
    net.Build();
    ASSERT_EQ(net.GetNHosts(), 16u);
    EXPECT_EQ(net.GetSwitches().GetN(), 8u);
    EXPECT_EQ(net.GetForwarders().GetN(), 24u);
    for (uint32_t h = 0; h < 16; ++h)
    {
        EXPECT_TRUE(net.IsRelayHost(h));
        EXPECT_EQ(net.GetHostDevice(h), nullptr);
        ASSERT_NE(net.GetHostSwitch(h), nullptr);
        EXPECT_EQ(net.GetHostInterface(h), Ptr<NetDevice>(net.GetHostSwitch(h)));
        EXPECT_EQ(net.GetHostSwitch(h)->GetNPorts(), 2u);
        EXPECT_TRUE(net.GetHostSwitch(h)->IsLocalAddress(net.GetHostAddress(h)));
        Ptr<Ipv4> ipv4 = net.GetHost(h)->GetObject<Ipv4>();
        int32_t itf = ipv4->GetInterfaceForDevice(net.GetHostSwitch(h));
        ASSERT_GE(itf, 0);
        EXPECT_EQ(ipv4->GetAddress(itf, 0).GetLocal(), net.GetHostAddress(h));
    }
    // Server H00: port 0 to W0_0, port 1 to W1_0.
    // H00 -> H01 (same level-0 switch): port 0 only.
    EXPECT_EQ(Route(net, "H00", "H01"), std::vector<uint32_t>({0}));
    // H00 -> H10 (same level-1 switch W1_0): port 1 only.
    EXPECT_EQ(Route(net, "H00", "H10"), std::vector<uint32_t>({1}));
    // H00 -> H11: two digits differ, via relay H01 (port 0) or H10 (port 1).
    EXPECT_EQ(Route(net, "H00", "H11"), std::vector<uint32_t>({0, 1}));
    // W0_0 (servers H00..H03 on ports 0..3) -> H11: only through H01 (port 1),
    // which reaches H11 over W1_1.
    EXPECT_EQ(Route(net, "W0_0", "H11"), std::vector<uint32_t>({1}));
    EXPECT_EQ(Route(net, "W0_0", "H02"), std::vector<uint32_t>({2}));
    EXPECT_EQ(CheckFibAgainstBfs(net), "");
    // The other helpers still work on a network with relay servers.
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
    EXPECT_EQ(PfcStatsHelper(net).GetTrafficControlDrops(), 0u);
    EXPECT_EQ(PfcStatsHelper(net).GetPauseCount(), 0u);
    std::ostringstream counters;
    PfcStatsHelper(net).PrintSwitchCounters(counters);
    EXPECT_NE(counters.str().find("H01: pauses=0"), std::string::npos) << counters.str();
}

TEST_F(PfcTopologyBuild, BCubeDatagramAcrossARelayLosesOneTtlPerForwarder)
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
        slots.push_back(RxSlot{&t, h});
    }
    for (uint32_t i = 0; i < slots.size(); ++i)
    {
        Ptr<Node> node = net.GetHost(slots[i].dst);
        node->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&PairRx, &slots[i]));
        Socket::CreateSocket(node, UdpSocketFactory::GetTypeId())
            ->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    }
    Ptr<Socket> socket = Socket::CreateSocket(net.GetHost(h00), UdpSocketFactory::GetTypeId());
    socket->Connect(InetSocketAddress(net.GetHostAddress(h11), 9));
    Simulator::Schedule(MicroSeconds(1), [socket]() { socket->Send(Create<Packet>(100)); });
    Simulator::Stop(MicroSeconds(100));
    Simulator::Run();
    // H00 -> W0_0 or W1_0 -> relay H01 or H10 -> W1_1 or W0_1 -> H11: three
    // forwarders after the source (which sends with 64): 64 - 3 = 61.
    EXPECT_EQ(t.count[h00][h11], 1u);
    EXPECT_EQ(t.ttl[h00][h11], 61);
    // The relay forwarded it without its IP stack seeing it.
    EXPECT_EQ(t.count[h00][h01] + t.count[h00][h10], 0u);
    uint64_t relayed =
        net.GetHostSwitch(h01)->GetForwardedCount() + net.GetHostSwitch(h10)->GetForwardedCount();
    EXPECT_EQ(relayed, 1u);
    // The source's engine forwarded its own datagram once too.
    EXPECT_EQ(net.GetHostSwitch(h00)->GetForwardedCount(), 1u);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
}

TEST_F(PfcTopologyBuild, BCubeEveryPairIsReachable)
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
            EXPECT_EQ(t.count[s][d], 1u) << s << " -> " << d;
            EXPECT_EQ(t.ttl[s][d], differ == 1 ? 63 : 61) << s << " -> " << d;
        }
    }
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
}

TEST_F(PfcTopologyBuild, BCubeRoceFlowsThroughRelayServersComplete)
{
    PfcTopologyHelper net(tagger::MakeBCube(4, 1));
    net.Build();
    RdmaHelper rdma;
    rdma.Install(net);
    ASSERT_EQ(rdma.GetNHosts(), 16u);
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
    ASSERT_EQ(records.size(), 5u);
    for (const RdmaFlowRecord& r : records)
    {
        EXPECT_TRUE(r.finish.IsStrictlyPositive()) << r.src << " -> " << r.dst;
        EXPECT_EQ(r.retransmitted, 0u) << r.src << " -> " << r.dst;
        EXPECT_EQ(r.timeouts, 0u) << r.src << " -> " << r.dst;
        // 200 KB at 40 Gb/s is 40 us of serialisation: the slowdown is finite and >= 1.
        EXPECT_GE(r.slowdown, 1.0);
    }
    EXPECT_EQ(rdma.GetActiveFlows(), 0u);
    // 4 * 200,000 + 100,000 payload bytes delivered in order.
    EXPECT_EQ(rdma.GetBytesDelivered(), 900000u);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
    // Every relay's local backlog drained.
    for (uint32_t h = 0; h < 16; ++h)
    {
        for (uint8_t c = 0; c < 8; ++c)
        {
            EXPECT_EQ(net.GetHostSwitch(h)->GetLocalQueueBytes(c), 0u);
        }
    }
}

TEST_F(PfcTopologyBuild, BCubeRoceIncastIsLosslessUnderPfc)
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
    EXPECT_EQ(rdma.GetActiveFlows(), 0u);
    EXPECT_EQ(rdma.GetBytesDelivered(), 15u * 300000u);
    EXPECT_EQ(rdma.GetRetransmittedPackets(), 0u);
    EXPECT_EQ(rdma.GetTimeouts(), 0u);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
    EXPECT_GT(PfcStatsHelper(net).GetPauseCount(), 0u);
}

TEST_F(PfcTopologyBuild, RoceBetweenPlainHostsAndARelayServer)
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
    EXPECT_EQ(rdma.GetActiveFlows(), 0u);
    // 3 * 100,000 + 50,000 payload bytes.
    EXPECT_EQ(rdma.GetBytesDelivered(), 350000u);
    EXPECT_EQ(rdma.GetNic(1)->GetBytesDelivered(), 50000u);
    EXPECT_EQ(rdma.GetRetransmittedPackets(), 0u);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
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
    EXPECT_GE(last, MicroSeconds(40));
}

namespace
{

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

} // namespace

TEST_F(PfcTopologyBuild, BCubeTaggerKeepsRelayOriginatedPacketsLossless)
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
    ASSERT_GE(tagger.GetLosslessTags(), 1u);
    uint32_t h00 = HostIndex(net, "H00");
    uint32_t h11 = HostIndex(net, "H11");
    EXPECT_NE(tagger.GetClassifier(net.GetNodeId("H01")), nullptr);

    int dscp = -1;
    net.GetHost(h11)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
        "Rx",
        MakeBoundCallback(&LastDscp, &dscp));
    Socket::CreateSocket(net.GetHost(h11), UdpSocketFactory::GetTypeId())
        ->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
    Ptr<Socket> socket = Socket::CreateSocket(net.GetHost(h00), UdpSocketFactory::GetTypeId());
    socket->Connect(InetSocketAddress(net.GetHostAddress(h11), 9));
    Simulator::Schedule(MicroSeconds(1), [socket]() {
        Ptr<Packet> p = Create<Packet>(100);
        SocketIpTosTag tos; // DSCP 1: tag 1
        tos.SetTos(1 << 2);
        p->AddPacketTag(tos);
        socket->Send(p);
    });

    // RoCE with tag 1 across relays, both ways.
    RdmaHelper rdma;
    rdma.Install(net);
    rdma.AddFlow(h00, h11, 100000, MicroSeconds(5), 1);
    rdma.AddFlow(h11, h00, 100000, MicroSeconds(5), 1);
    rdma.AddFlow(HostIndex(net, "H23"), HostIndex(net, "H32"), 100000, MicroSeconds(5), 1);
    Simulator::Stop(MilliSeconds(2));
    Simulator::Run();
    EXPECT_GE(dscp, 1);
    EXPECT_LE(dscp, int(tagger.GetLosslessTags()));
    EXPECT_EQ(rdma.GetActiveFlows(), 0u);
    EXPECT_EQ(rdma.GetBytesDelivered(), 300000u);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
}

// ---------------------------------------------------------------------------
// The relay engine's local source and receive hook, on A -- R -- B
// ---------------------------------------------------------------------------

namespace
{

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

/// Count UDP datagrams reaching an IPv4 layer; remember the last TTL.
void
CountUdp(std::pair<uint32_t, int>* seen, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
{
    Ipv4Header ip;
    packet->PeekHeader(ip);
    if (ip.GetProtocol() == UdpL4Protocol::PROT_NUMBER)
    {
        ++seen->first;
        seen->second = ip.GetTtl();
    }
}

} // namespace

TEST_F(PfcTopologyBuild, RelayEngineLocalSourceIsBoundedAndHookSeesLocalPackets)
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
    ASSERT_TRUE(net.IsRelayHost(1));
    ASSERT_FALSE(net.IsRelayHost(0));
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
    InetSocketAddress to7(net.GetHostAddress(1), 7);
    InetSocketAddress to9(net.GetHostAddress(1), 9);
    Simulator::Schedule(MicroSeconds(1),
                        [fromA, to7]() { fromA->SendTo(Create<Packet>(100), 0, to7); });
    Simulator::Schedule(MicroSeconds(2),
                        [fromA, to9]() { fromA->SendTo(Create<Packet>(100), 0, to9); });
    Simulator::Schedule(MicroSeconds(5), [relay]() { relay->NotifySourceReady(); });
    Simulator::Stop(MicroSeconds(200));
    Simulator::Run();

    EXPECT_EQ(hook.taken, 1u);
    EXPECT_EQ(atR.first, 1u);  // only the port-9 datagram reached R's stack
    EXPECT_EQ(atR.second, 64); // delivered locally, not forwarded
    // All 20 local packets reached B, leaving R with TTL 64 (R is their source).
    EXPECT_EQ(source.left, 0u);
    EXPECT_EQ(atB.first, 20u);
    EXPECT_EQ(atB.second, 64);
    // Frames are 1000 + 14 = 1014 bytes: R lets the source hand out class 3
    // while the backlog is below 3000, so with at most 2 * 1014 = 2028 bytes
    // queued (a third frame makes 3042 >= 3000: full).  The first frame goes
    // on the idle wire at once, so the source outruns the port and class 3 is
    // refused at least once.
    EXPECT_LE(source.maxBacklog, 2028u);
    EXPECT_TRUE(source.sawFull);
    EXPECT_GE(source.minFull, 3000u);
    EXPECT_EQ(relay->GetLocalQueueBytes(3), 0u);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
}

// ---------------------------------------------------------------------------
// Names and pcap file names
// ---------------------------------------------------------------------------

TEST_F(PfcTopologyBuild, NamesAndPcapFileNames)
{
    PfcTopologyHelper net(tagger::MakeFatTree(4));
    net.Build();
    tagger::NodeId l2 = net.GetNodeId("L2");
    EXPECT_EQ(Names::Find<Node>("L2"), net.GetNode(l2));
    EXPECT_EQ(Names::Find<Node>("H16"), net.GetHost(15));
    // L2 (aggregation) ports: 0, 1 to T1, T2; 2, 3 to cores.
    Ptr<PfcNetDevice> port3 = net.GetDevice(l2, 3);
    ASSERT_NE(port3, nullptr);
    EXPECT_EQ(Names::Find<NetDevice>("L2/port3"), Ptr<NetDevice>(port3));
    EXPECT_EQ(Names::FindName(port3), "port3");
    PcapHelper pcap;
    EXPECT_EQ(pcap.GetFilenameFromDevice("run", port3), "run-L2-port3.pcap");
    EXPECT_EQ(pcap.GetFilenameFromDevice("run", net.GetHostDevice(0)), "run-H1-port0.pcap");

    // A second network takes the names over.
    Simulator::Destroy();
    PfcTopologyHelper again(tagger::MakeClos(tagger::PaperTestbedClos()));
    again.Build();
    EXPECT_EQ(Names::Find<Node>("L2"), again.GetNode(again.GetNodeId("L2")));
}

TEST_F(PfcTopologyBuild, BCubeNamesIncludeRelayPorts)
{
    PfcTopologyHelper net(tagger::MakeBCube(4, 1));
    net.Build();
    EXPECT_EQ(Names::Find<Node>("H12"), net.GetHost(6)); // 4 * 1 + 2
    Ptr<PfcNetDevice> port1 = net.GetDevice(net.GetNodeId("H12"), 1);
    EXPECT_EQ(Names::Find<NetDevice>("H12/port1"), Ptr<NetDevice>(port1));
    EXPECT_EQ(PcapHelper().GetFilenameFromDevice("b", port1), "b-H12-port1.pcap");
}

// ---------------------------------------------------------------------------
// Link failures, local reroute, restore, pinned and set routes (paper testbed)
// ---------------------------------------------------------------------------

namespace
{

/**
 * Paper testbed (T1-T4, L1-L4, S1-S2, H1-H16; every leaf on both spines):
 * L2's ports are 0 to T1, 1 to T2, 2 to S1, 3 to S2; H1-H4 hang on T1.  Fail L2-T1 and return L2's
 * sets for H1-H4. \param run RngRun \param stream the helper's stream
 */
std::vector<std::vector<uint32_t>>
RerouteAfterFailure(uint64_t run, int64_t stream)
{
    uint64_t saved = RngSeedManager::GetRun();
    RngSeedManager::SetRun(run);
    std::vector<std::vector<uint32_t>> sets;
    {
        PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
        net.GetRouteHelper().AssignStreams(stream);
        net.Build();
        net.GetRouteHelper().FailLink("L2", "T1");
        for (const char* h : {"H1", "H2", "H3", "H4"})
        {
            sets.push_back(Route(net, "L2", h));
        }
    }
    Simulator::Destroy();
    RngSeedManager::SetRun(saved);
    return sets;
}

} // namespace

TEST_F(PfcTopologyBuild, FailLinkReroutesLocallyAndRestoreLinkBringsSetsBack)
{
    PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
    net.GetRouteHelper().AssignStreams(11);
    net.Build();
    // Paper testbed: every leaf on both spines, so L2's ports are 0 T1, 1 T2,
    // 2 S1, 3 S2, and a spine's ports are L1, L2, L3, L4.
    // Before: L2 -> H1 down to T1 (port 0); T1 -> H5 (on T2) up both leafs
    // (ports 4 and 5: L1, L2); L2 -> H9 (pod 2) up to both spines; S2 -> H1
    // down to both leafs of pod 1.
    EXPECT_EQ(Route(net, "L2", "H1"), std::vector<uint32_t>({0}));
    EXPECT_EQ(Route(net, "T1", "H5"), std::vector<uint32_t>({4, 5}));
    EXPECT_EQ(Route(net, "L2", "H9"), std::vector<uint32_t>({2, 3}));
    EXPECT_EQ(Route(net, "S2", "H1"), std::vector<uint32_t>({0, 1}));

    net.GetRouteHelper().FailLink("L2", "T1");
    // L2's set for H1 lost port 0 and, empty, got one random port to a
    // switch: 1 (T2), 2 (S1) or 3 (S2).
    std::vector<uint32_t> l2h1 = Route(net, "L2", "H1");
    ASSERT_EQ(l2h1.size(), 1u);
    EXPECT_TRUE(l2h1[0] >= 1 && l2h1[0] <= 3) << l2h1[0];
    // T1's end: its sets lose port 5 (L2) and keep port 4.
    EXPECT_EQ(Route(net, "T1", "H5"), std::vector<uint32_t>({4}));
    // Sets without the failed port are untouched (local reroute only: S2
    // still sends H1's packets to L2, which bounces them).
    EXPECT_EQ(Route(net, "L2", "H9"), std::vector<uint32_t>({2, 3}));
    EXPECT_EQ(Route(net, "S2", "H1"), std::vector<uint32_t>({0, 1}));

    net.GetRouteHelper().RestoreLink("L2", "T1");
    EXPECT_EQ(Route(net, "L2", "H1"), std::vector<uint32_t>({0}));
    EXPECT_EQ(Route(net, "T1", "H5"), std::vector<uint32_t>({4, 5}));
    EXPECT_EQ(CheckFibAgainstBfs(net), "");
}

TEST_F(PfcTopologyBuild, LocalRerouteIsSeeded)
{
    // Same run and stream: the same choices.
    std::vector<std::vector<uint32_t>> first = RerouteAfterFailure(1, 5);
    EXPECT_EQ(RerouteAfterFailure(1, 5), first);
    for (const auto& set : first)
    {
        ASSERT_EQ(set.size(), 1u);
        EXPECT_TRUE(set[0] >= 1 && set[0] <= 3);
    }
    // Four independent choices among 3 ports: another run repeats all four
    // with probability 1/81; over 20 runs some run must differ.
    bool differs = false;
    for (uint64_t run = 2; run <= 21 && !differs; ++run)
    {
        differs = RerouteAfterFailure(run, 5) != first;
    }
    EXPECT_TRUE(differs);
}

TEST_F(PfcTopologyBuild, PinPathAndSetRoute)
{
    PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
    net.Build();
    uint32_t h9 = HostIndex(net, "H9"); // on T3, pod 2
    ASSERT_EQ(h9, 8u);
    // T1 -> L1 -> S1 -> L3 -> T3 -> H9.  Ports: T1 port 4 is L1; L1 port 2 is
    // S1 (3 is S2); S1's ports are L1, L2, L3, L4: port 2; L3 port 0 is T3;
    // T3 port 0 is H9.
    net.GetRouteHelper().PinPath({"T1", "L1", "S1", "L3", "T3"}, h9);
    EXPECT_EQ(Route(net, "T1", "H9"), std::vector<uint32_t>({4}));
    EXPECT_EQ(Route(net, "L1", "H9"), std::vector<uint32_t>({2}));
    EXPECT_EQ(Route(net, "S1", "H9"), std::vector<uint32_t>({2}));
    EXPECT_EQ(Route(net, "L3", "H9"), std::vector<uint32_t>({0}));
    EXPECT_EQ(Route(net, "T3", "H9"), std::vector<uint32_t>({0}));
    // A fail and restore recomputes every route; the pin stays.
    net.GetRouteHelper().FailLink("L2", "T1");
    net.GetRouteHelper().RestoreLink("L2", "T1");
    EXPECT_EQ(Route(net, "T1", "H9"), std::vector<uint32_t>({4}));
    EXPECT_EQ(Route(net, "L1", "H9"), std::vector<uint32_t>({2}));
    // Unpinned destinations got their ECMP sets back (T1 -> H13 on T4: both leafs).
    EXPECT_EQ(Route(net, "T1", "H13"), std::vector<uint32_t>({4, 5}));

    // SetRoute: L2 sends H1's traffic to T2 (its port 1), a bad route.
    net.GetRouteHelper().SetRoute("L2", 0, "T2");
    EXPECT_EQ(Route(net, "L2", "H1"), std::vector<uint32_t>({1}));
    // ScheduleRoute: L1 -> H2 goes up to S1 (port 2) at 10 us.
    net.GetRouteHelper().ScheduleRoute(MicroSeconds(10), "L1", 1, "S1");
    EXPECT_EQ(Route(net, "L1", "H2"), std::vector<uint32_t>({0}));
    Simulator::Stop(MicroSeconds(20));
    Simulator::Run();
    EXPECT_EQ(Route(net, "L1", "H2"), std::vector<uint32_t>({2}));
}

TEST_F(PfcTopologyBuild, BCubeFailLinkReroutesAtRelayServers)
{
    PfcTopologyHelper net(tagger::MakeBCube(4, 1));
    net.GetRouteHelper().AssignStreams(3);
    net.Build();
    // H00 -> H11 uses both ports; fail H00 - W0_0 (H00's port 0): only port 1 is left.
    net.GetRouteHelper().FailLink("H00", "W0_0");
    EXPECT_EQ(Route(net, "H00", "H11"), std::vector<uint32_t>({1}));
    // H00 -> H01 was port 0 only: now the one remaining port to a forwarder, port 1.
    EXPECT_EQ(Route(net, "H00", "H01"), std::vector<uint32_t>({1}));
    net.GetRouteHelper().RestoreLink("H00", "W0_0");
    EXPECT_EQ(Route(net, "H00", "H11"), std::vector<uint32_t>({0, 1}));
    // A relay server can be on a pinned path: H00 -> W1_0 -> H10 -> W0_1 -> H11.
    net.GetRouteHelper().PinPath({"H00", "W1_0", "H10", "W0_1"}, HostIndex(net, "H11"));
    EXPECT_EQ(Route(net, "H00", "H11"), std::vector<uint32_t>({1}));
    EXPECT_EQ(Route(net, "W1_0", "H11"), std::vector<uint32_t>({1})); // W1_0 port a1 = 1
    EXPECT_EQ(Route(net, "H10", "H11"), std::vector<uint32_t>({0}));
    EXPECT_EQ(Route(net, "W0_1", "H11"), std::vector<uint32_t>({1})); // W0_1 port a0 = 1
}

// ---------------------------------------------------------------------------
// Errors a user can cause
// ---------------------------------------------------------------------------

TEST_F(PfcTopologyBuildDeathTest, BadNamesAreFatalAndNamed)
{
    PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
    net.Build();
    EXPECT_DEATH(net.GetRouteHelper().FailLink("L2", "X9"), "no node named 'X9'");
    EXPECT_DEATH(net.GetRouteHelper().RestoreLink("Q1", "T1"), "no node named 'Q1'");
    EXPECT_DEATH(net.GetRouteHelper().FailLink("L1", "L2"), "no link between 'L1' and 'L2'");
    EXPECT_DEATH(net.GetRouteHelper().ScheduleFailLink(MicroSeconds(5), "T1", "T3"),
                 "no link between 'T1' and 'T3'");
    EXPECT_DEATH(net.GetRouteHelper().PinPath({"T1", "L9"}, 8), "no node named 'L9'");
    EXPECT_DEATH(net.GetRouteHelper().SetRoute("H1", 0, "T1"), "'H1' is not a switch");
    EXPECT_DEATH(net.GetRouteHelper().SetRoute("T1", 99, "H1"), "no host 99");
    EXPECT_DEATH(net.GetRouteHelper().ScheduleRoute(MicroSeconds(5), "S1", 0, "T1"),
                 "no link between 'S1' and 'T1'");
    EXPECT_DEATH(net.GetNodeId("nope"), "no node named 'nope'");
}

TEST_F(PfcTopologyBuildDeathTest, HostWithTwoPortsThatDoesNotRelayIsFatal)
{
    tagger::Topology topo;
    tagger::NodeId s = topo.AddNode("S", tagger::NodeKind::SWITCH, 2);
    tagger::NodeId h = topo.AddNode("H", tagger::NodeKind::HOST, 2); // relay = false
    topo.AddLink(s, 0, h, 0);
    topo.AddLink(s, 1, h, 1);
    EXPECT_DEATH(
        {
            PfcTopologyHelper net(topo);
            net.Build();
        },
        "host H must have exactly one connected port");
}
