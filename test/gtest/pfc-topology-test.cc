/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PfcTopologyHelper and PfcHelper: the network a tagger::Topology becomes.
 * Expected values are worked out by hand from the fat-tree wiring
 * (model/tagger-topology-generators.h).
 */

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/tagger-topology-generators.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// FatTree(4): node ids T1-T8 (0-7), L1-L8 (8-15), S1-S4 (16-19), H1-H16 (20-35).
class PfcFatTree4 : public ::testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }
};

uint8_t g_ttl = 0;      //!< TTL of the last packet the receiver's IPv4 saw
uint32_t g_arrived = 0; //!< packets the receiver's IPv4 saw

void
IpRx(Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
{
    Ipv4Header ip;
    packet->PeekHeader(ip);
    if (ip.GetProtocol() == UdpL4Protocol::PROT_NUMBER)
    {
        g_ttl = ip.GetTtl();
        ++g_arrived;
    }
}

} // namespace

TEST_F(PfcFatTree4, NodesAddressesAndEcmpSets)
{
    PfcTopologyHelper net(tagger::MakeFatTree(4));
    net.Build();
    // k = 4: k^3/4 = 16 hosts, k pods * k switches + (k/2)^2 cores = 20 switches.
    EXPECT_EQ(net.GetNHosts(), 16u);
    EXPECT_EQ(net.GetSwitches().GetN(), 20u);
    // Hosts are numbered 10.0.0.1, 10.0.0.2, ... in host order.
    EXPECT_EQ(net.GetHostAddress(0), Ipv4Address("10.0.0.1"));
    EXPECT_EQ(net.GetHostAddress(15), Ipv4Address("10.0.0.16"));

    const tagger::Topology& topo = net.GetTopology();
    tagger::NodeId t1 = topo.GetNodeId("T1");
    tagger::NodeId l1 = topo.GetNodeId("L1");
    tagger::NodeId s1 = topo.GetNodeId("S1");
    // H1 hangs on T1's port 0; H16 is in pod 4 (T8).
    Ipv4Address h1 = net.GetHostAddress(0);
    Ipv4Address h16 = net.GetHostAddress(15);
    // T1 -> H1: its host port only.
    EXPECT_EQ(net.GetSwitch(t1)->Lookup(h1), std::vector<uint32_t>({0}));
    // T1 -> H16: both uplinks (ports k/2 = 2 and 3).
    EXPECT_EQ(net.GetSwitch(t1)->Lookup(h16), std::vector<uint32_t>({2, 3}));
    // L1 -> H1: down to T1 (its port 0); L1 -> H16: both cores (ports 2 and 3).
    EXPECT_EQ(net.GetSwitch(l1)->Lookup(h1), std::vector<uint32_t>({0}));
    EXPECT_EQ(net.GetSwitch(l1)->Lookup(h16), std::vector<uint32_t>({2, 3}));
    // S1 -> H16: one port, to pod 4 (core port p goes to pod p: port 3).
    EXPECT_EQ(net.GetSwitch(s1)->Lookup(h16), std::vector<uint32_t>({3}));
    // A destination no host has: no route.
    EXPECT_TRUE(net.GetSwitch(s1)->Lookup(Ipv4Address("10.0.1.0")).empty());
}

TEST_F(PfcFatTree4, PacketCrossesFiveSwitchesAndLosesFiveTtl)
{
    PfcTopologyHelper net(tagger::MakeFatTree(4));
    net.Build();
    g_ttl = 0;
    g_arrived = 0;
    // H2 -> H16 crosses T1, an aggregation, a core, an aggregation, T8:
    // five switches, so the default TTL 64 arrives as 59.
    net.GetHost(15)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("Rx",
                                                                             MakeCallback(&IpRx));
    Ptr<Socket> socket = Socket::CreateSocket(net.GetHost(1), UdpSocketFactory::GetTypeId());
    socket->Connect(InetSocketAddress(net.GetHostAddress(15), 9));
    Simulator::Schedule(MicroSeconds(1), [socket]() { socket->Send(Create<Packet>(100)); });
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    EXPECT_EQ(g_arrived, 1u);
    EXPECT_EQ(g_ttl, 59);
    EXPECT_EQ(PfcStatsHelper(net).GetDropCount(), 0u);
}

TEST(PfcHelper, EveryDeviceGetsItsOwnScheduler)
{
    PfcHelper pfc;
    pfc.SetScheduler("ns3::DwrrPfcScheduler", "Weights", StringValue("1,2,3,4,5,6,7,8"));
    NodeContainer nodes;
    nodes.Create(3);
    NetDeviceContainer ab = pfc.Connect(nodes.Get(0), nodes.Get(1));
    NetDeviceContainer bc = pfc.Connect(nodes.Get(1), nodes.Get(2));
    std::set<Ptr<Object>> schedulers;
    for (NetDeviceContainer c : {ab, bc})
    {
        for (uint32_t i = 0; i < c.GetN(); ++i)
        {
            PointerValue p;
            c.Get(i)->GetAttribute("Scheduler", p);
            Ptr<DwrrPfcScheduler> dwrr = p.Get<DwrrPfcScheduler>();
            ASSERT_TRUE(dwrr);
            StringValue weights;
            dwrr->GetAttribute("Weights", weights);
            EXPECT_EQ(weights.Get(), "1,2,3,4,5,6,7,8");
            schedulers.insert(dwrr);
        }
    }
    EXPECT_EQ(schedulers.size(), 4u);
    Simulator::Destroy();
}
