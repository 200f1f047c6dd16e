/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * What the test files of the ns-3 TestSuite "tagger-topology" share: a
 * TestCase base that destroys the simulation after each case and sends a
 * datagram between every pair of hosts, an independent breadth-first search
 * to check routes against, and small helpers (host index by name, a FIB set
 * as text, UDP senders and receive counters for Simulator::Schedule and
 * traces).
 */

#ifndef PFC_TOPOLOGY_TEST_CASE_H
#define PFC_TOPOLOGY_TEST_CASE_H

#include "ns3/address.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/packet.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <deque>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace tagger
{
namespace test
{

/// Datagrams seen by the hosts: ttl[src][dst] (0: none arrived), count[src][dst].
struct PairTable
{
    std::vector<std::vector<int>> ttl;        //!< TTL on arrival
    std::vector<std::vector<uint32_t>> count; //!< datagrams arrived
};

class PfcTopologyTestCase;

/// Where a host's IPv4 Rx trace writes.
struct RxSlot
{
    PfcTopologyTestCase* test; //!< the test case that checks what arrives
    PairTable* table;          //!< the table
    uint32_t dst;              //!< this host's index
};

/**
 * Send a packet on a connected socket (for Simulator::Schedule).
 * \param socket the socket \param bytes the packet size (bytes)
 */
inline void
SendUdp(Ptr<Socket> socket, uint32_t bytes)
{
    socket->Send(Create<Packet>(bytes));
}

/**
 * Send a packet to an address (for Simulator::Schedule).
 * \param socket the socket \param bytes the packet size (bytes) \param to the destination
 */
inline void
SendUdpTo(Ptr<Socket> socket, uint32_t bytes, Address to)
{
    socket->SendTo(Create<Packet>(bytes), 0, to);
}

/**
 * Ipv4L3Protocol "Rx": count UDP datagrams reaching an IPv4 layer and
 * remember the last TTL.
 * \param seen (datagrams, last TTL) \param packet the IPv4 packet
 */
inline void
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

/// Forwarders in the test's own terms: switches and hosts with relay set.
inline bool
Forwards(const Topology& topo, NodeId v)
{
    return topo.GetNode(v).kind == NodeKind::SWITCH || topo.GetNode(v).relay;
}

/// Hop counts from \p from over links, entering only forwarders (and \p from).
inline std::vector<uint32_t>
Bfs(const Topology& topo, NodeId from)
{
    std::vector<uint32_t> dist(topo.GetNNodes(), kNone);
    dist[from] = 0;
    std::deque<NodeId> queue{from};
    while (!queue.empty())
    {
        NodeId u = queue.front();
        queue.pop_front();
        if (u != from && !Forwards(topo, u))
        {
            continue;
        }
        for (NodeId w : topo.GetNeighbors(u))
        {
            if (dist[w] == kNone)
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
inline std::string
CheckFibAgainstBfs(const PfcTopologyHelper& net)
{
    const Topology& topo = net.GetTopology();
    const std::vector<NodeId> hosts = topo.GetHosts();
    for (uint32_t h = 0; h < hosts.size(); ++h)
    {
        std::vector<uint32_t> dist = Bfs(topo, hosts[h]);
        for (NodeId v = 0; v < topo.GetNNodes(); ++v)
        {
            if (!Forwards(topo, v) || v == hosts[h])
            {
                continue;
            }
            std::set<uint32_t> want;
            for (PortNo p = 0; p < topo.GetNode(v).ports; ++p)
            {
                NodeId w = topo.GetPeer(v, p).node;
                if (w != kNone && (w == hosts[h] || Forwards(topo, w)) && dist[w] + 1 == dist[v])
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
inline uint32_t
HostIndex(const PfcTopologyHelper& net, const std::string& name)
{
    const std::vector<NodeId> hosts = net.GetTopology().GetHosts();
    NodeId v = net.GetNodeId(name);
    return uint32_t(std::find(hosts.begin(), hosts.end(), v) - hosts.begin());
}

/// \return the FIB set of forwarder \p sw for host \p host (names)
inline std::vector<uint32_t>
RoutePorts(const PfcTopologyHelper& net, const std::string& sw, const std::string& host)
{
    return net.GetSwitch(net.GetNodeId(sw))->Lookup(net.GetHostAddress(HostIndex(net, host)));
}

/// \param ports a FIB set \return it as text, "{2, 3}", for comparisons and messages
inline std::string
PortList(const std::vector<uint32_t>& ports)
{
    std::ostringstream os;
    os << "{";
    for (size_t i = 0; i < ports.size(); ++i)
    {
        os << (i == 0 ? "" : ", ") << ports[i];
    }
    os << "}";
    return os.str();
}

/// \return the FIB set of forwarder \p sw for host \p host (names), as text: "{2, 3}"
inline std::string
Route(const PfcTopologyHelper& net, const std::string& sw, const std::string& host)
{
    return PortList(RoutePorts(net, sw, host));
}

/**
 * \ingroup tagger-tests
 * A test case on networks PfcTopologyHelper builds: Simulator::Destroy runs
 * after it (nodes, names, events), and it can send a datagram between every
 * pair of hosts and check where each comes from.
 */
class PfcTopologyTestCase : public TestCase
{
  protected:
    /// \param name the test case's name
    explicit PfcTopologyTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Ipv4L3Protocol "Rx" at host slot->dst: record UDP datagrams by source.
     * \param slot where to record \param packet the IPv4 packet
     */
    static void PairRx(RxSlot* slot, Ptr<const Packet> packet, Ptr<Ipv4>, uint32_t)
    {
        slot->test->RecordDatagram(*slot, packet);
    }

    /**
     * One 100-byte UDP datagram between every ordered pair of hosts: in round r
     * (r = 1 .. n-1, at r * 5 us) host i sends to host (i + r) mod n, so every
     * host sends one and receives one per round.
     * \param net the network (built) \return what arrived
     */
    PairTable SendAllPairs(PfcTopologyHelper& net)
    {
        const uint32_t n = net.GetNHosts();
        PairTable table;
        table.ttl.assign(n, std::vector<int>(n, 0));
        table.count.assign(n, std::vector<uint32_t>(n, 0));
        std::vector<RxSlot> slots(n);
        std::vector<Ptr<Socket>> senders(n);
        for (uint32_t h = 0; h < n; ++h)
        {
            slots[h] = RxSlot{this, &table, h};
            net.GetHost(h)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "Rx",
                MakeBoundCallback(&PfcTopologyTestCase::PairRx, &slots[h]));
            Ptr<Socket> sink = Socket::CreateSocket(net.GetHost(h), UdpSocketFactory::GetTypeId());
            sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
            senders[h] = Socket::CreateSocket(net.GetHost(h), UdpSocketFactory::GetTypeId());
            senders[h]->Bind();
        }
        for (uint32_t r = 1; r < n; ++r)
        {
            for (uint32_t i = 0; i < n; ++i)
            {
                Address to = InetSocketAddress(net.GetHostAddress((i + r) % n), 9);
                Simulator::Schedule(MicroSeconds(5 * r), &SendUdpTo, senders[i], 100u, to);
            }
        }
        Simulator::Stop(MicroSeconds(5 * n + 500));
        Simulator::Run();
        return table;
    }

  private:
    /// \param slot where to record \param packet an IPv4 packet at host slot.dst
    void RecordDatagram(const RxSlot& slot, Ptr<const Packet> packet)
    {
        Ipv4Header ip;
        packet->PeekHeader(ip);
        if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER)
        {
            return;
        }
        uint32_t src = ip.GetSource().Get() - ((10u << 24) | 1u); // hosts are 10.0.0.1, ...
        NS_TEST_ASSERT_MSG_LT(src, slot.table->ttl.size(), "a datagram from " << ip.GetSource());
        if (IsStatusFailure())
        {
            return;
        }
        slot.table->ttl[src][slot.dst] = ip.GetTtl();
        ++slot.table->count[src][slot.dst];
    }

    void DoTeardown() override
    {
        Simulator::Destroy();
    }
};

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* PFC_TOPOLOGY_TEST_CASE_H */
