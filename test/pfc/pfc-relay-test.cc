/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * A server that relays (BCube) runs the switch's forwarding engine: a
 * PfcSwitchNetDevice that is also the server's IPv4 interface.
 * A -- R -- B: R's switch device owns both links; R has an address too.
 * In the TestSuite "tagger-pfc-switch" (MakePfcRelayTestCases(),
 * pfc-test-util.h).
 */

#include "pfc-test-util.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-helper.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/// What a UDP receiver saw.
struct Seen
{
    uint32_t packets = 0; //!< datagrams
    uint8_t ttl = 0;      //!< IPv4 TTL of the last one
};

/// Count UDP datagrams reaching \p node's IPv4 (header still on).
void
IpRx(Seen* seen, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
{
    Ipv4Header ip;
    packet->PeekHeader(ip);
    if (ip.GetProtocol() == UdpL4Protocol::PROT_NUMBER)
    {
        ++seen->packets;
        seen->ttl = ip.GetTtl();
    }
}

/// Give \p device an address on \p node (Internet stack installed) and bring it up.
void
AddAddress(Ptr<Node> node, Ptr<NetDevice> device, Ipv4Address address)
{
    Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
    int32_t itf = ipv4->AddInterface(device);
    ipv4->AddAddress(itf, Ipv4InterfaceAddress(address, Ipv4Mask("255.0.0.0")));
    ipv4->SetUp(itf);
}

/// Send one 100-byte datagram on \p socket. \param socket a connected UDP socket
void
SendDatagram(Ptr<Socket> socket)
{
    socket->Send(Create<Packet>(100));
}

/// Send one 100-byte datagram from \p from to \p to, \p at from now.
void
SendAt(Ptr<Node> from, Ipv4Address to, Time at)
{
    Ptr<Socket> socket = Socket::CreateSocket(from, UdpSocketFactory::GetTypeId());
    socket->Connect(InetSocketAddress(to, 9));
    Simulator::Schedule(at, &SendDatagram, socket);
}

/**
 * \ingroup tagger-tests
 * A relay server R between A and B forwards A -> B in its switch (TTL - 1,
 * never up its IP stack), delivers A -> R locally, and originates R -> B.
 */
class PfcRelayServerTestCase : public TestCase
{
  public:
    PfcRelayServerTestCase()
        : TestCase("PFC switch as a relay server: forwards transit, delivers local, originates")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(3); // A, R, B
        Ptr<Node> a = nodes.Get(0);
        Ptr<Node> r = nodes.Get(1);
        Ptr<Node> b = nodes.Get(2);
        PfcHelper pfc;
        Ptr<PfcSwitchNetDevice> relay = pfc.InstallSwitch(r);
        NetDeviceContainer ar = pfc.Connect(a, r); // R's port 0
        NetDeviceContainer rb = pfc.Connect(r, b); // R's port 1
        InternetStackHelper internet;
        internet.Install(nodes);
        Ipv4Address addrA("10.0.0.1");
        Ipv4Address addrR("10.0.0.2");
        Ipv4Address addrB("10.0.0.3");
        AddAddress(a, ar.Get(0), addrA);
        AddAddress(r, relay, addrR);
        AddAddress(b, rb.Get(1), addrB);
        relay->AddLocalAddress(addrR);
        relay->SetRoute(addrA, Ipv4Mask("255.255.255.255"), {0});
        relay->SetRoute(addrB, Ipv4Mask("255.255.255.255"), {1});

        // Receivers on port 9, so no ICMP port-unreachable comes back.
        for (Ptr<Node> node : {r, b})
        {
            Ptr<Socket> sink = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
            sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        }
        Seen atR;
        Seen atB;
        r->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("Rx",
                                                                   MakeBoundCallback(&IpRx, &atR));
        b->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext("Rx",
                                                                   MakeBoundCallback(&IpRx, &atB));

        // 1. A -> B crosses R's forwarding engine once: TTL 64 - 1 = 63, and R's
        //    IP stack never sees it.
        SendAt(a, addrB, MicroSeconds(10));
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(atB.packets, 1u, "A -> B reaches B");
        NS_TEST_EXPECT_MSG_EQ(int(atB.ttl), 63, "A -> B: TTL after one forwarding engine");
        NS_TEST_EXPECT_MSG_EQ(atR.packets, 0u, "A -> B: R's IP stack never sees it");

        // 2. A -> R is delivered up R's stack, unforwarded: TTL 64.
        SendAt(a, addrR, MicroSeconds(10));
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(atR.packets, 1u, "A -> R reaches R's IP stack");
        NS_TEST_EXPECT_MSG_EQ(int(atR.ttl), 64, "A -> R: not forwarded");

        // 3. R -> B: R originates; it leaves R as the first hop with TTL 64.
        SendAt(r, addrB, MicroSeconds(10));
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(atB.packets, 2u, "R -> B reaches B");
        NS_TEST_EXPECT_MSG_EQ(int(atB.ttl), 64, "R -> B: R is the first hop");
        NS_TEST_EXPECT_MSG_EQ(relay->GetForwardedCount(), 2u, "forwarded: A -> B and R -> B");
        for (uint8_t reason = 0; reason < kPfcDropReasons; ++reason)
        {
            NS_TEST_EXPECT_MSG_EQ(relay->GetDropCount(static_cast<PfcDropReason>(reason)),
                                  0u,
                                  "drops for " << static_cast<PfcDropReason>(reason));
        }
        Simulator::Destroy();
    }
};

} // namespace

std::vector<TestCase*>
MakePfcRelayTestCases()
{
    return {new PfcRelayServerTestCase};
}
