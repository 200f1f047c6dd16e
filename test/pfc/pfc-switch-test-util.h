/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Shared by the test files of the TestSuite "tagger-pfc-switch"
 * (pfc-switch-test-suite.cc, pfc-switch-routing-test.cc,
 * pfc-switch-ttl-test.cc): the constants of the test networks, paced UDP
 * senders and counting sinks (Traffic; UDP sockets directly, as the module
 * does not depend on ns-3's applications module), and two topologies, a
 * leaf-spine (LeafSpine) and a line of three switches (Line).
 */

#ifndef TAGGER_PFC_SWITCH_TEST_UTIL_H
#define TAGGER_PFC_SWITCH_TEST_UTIL_H

#include "ns3/address.h"
#include "ns3/callback.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tagger-topology.h"
#include "ns3/udp-socket-factory.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{
namespace tagger
{
namespace test
{

// ---------------------------------------------------------------------------
// Constants of the test networks
// ---------------------------------------------------------------------------

/// UDP port of every sink.
constexpr uint16_t kSinkPort = 9000;
/// UDP payload of a full packet (bytes).
constexpr uint32_t kPayload = 1000;
/// Frame of a full packet in the buffers: payload + UDP 8 + IPv4 20 + Ethernet 14.
constexpr uint32_t kFrame = kPayload + 8 + 20 + 14; // 1042 B
/// The same frame on the wire: + FCS 4 + preamble, delimiter and gap 20.
constexpr uint32_t kWireFrame = kFrame + 4 + 20; // 1066 B
/// Bytes per nanosecond at 40 Gbps: 40e9 / 8 / 1e9.
constexpr uint64_t kBytesPerNs = 5;
/// The lossless class of the tests (DSCP 24).
constexpr uint8_t kLosslessClass = 3;
/// SwitchMmu LosslessClasses for the tests: class 3 only (classes 0..2, 4..7 lossy).
constexpr uint8_t kLosslessMask = 1u << kLosslessClass;
/// SwitchMmu PrivateBytes (its default), phi.
constexpr uint64_t kPhi = 3072;

// ---------------------------------------------------------------------------
// Traffic: paced UDP senders and counting sinks
// ---------------------------------------------------------------------------

/// What one flow sends.
struct FlowSpec
{
    uint64_t bytes = kPayload;        //!< payload bytes in all (last packet may be short)
    uint8_t cls = kLosslessClass;     //!< class (DSCP = 8 * class)
    Time start = Time(0);             //!< first packet
    Time stop = Time::Max();          //!< no packet at or after this time
    uint16_t sport = 0;               //!< source port (0: ephemeral)
    uint8_t ttl = 0;                  //!< IPv4 TTL (0: the stack's default)
    Time interval = NanoSeconds(200); //!< between packets: 1000 B at 40 Gbps
};

/**
 * \ingroup tagger-tests
 * UDP flows between hosts of a PfcTopologyHelper network, counting packets
 * the senders handed to their sockets and packets the sinks received.
 */
class Traffic
{
  public:
    /// \param net the built network
    explicit Traffic(PfcTopologyHelper& net)
        : m_net(net)
    {
    }

    /// Add a flow from host \p src to host \p dst. \param src host \param dst host
    /// \param spec the flow
    void AddFlow(uint32_t src, uint32_t dst, const FlowSpec& spec)
    {
        InstallSink(dst);
        auto sender = std::make_unique<Sender>();
        sender->owner = this;
        sender->spec = spec;
        sender->left = spec.bytes;
        sender->socket = Socket::CreateSocket(m_net.GetHost(src), UdpSocketFactory::GetTypeId());
        if (spec.sport != 0)
        {
            sender->socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), spec.sport));
        }
        else
        {
            sender->socket->Bind();
        }
        if (spec.ttl != 0)
        {
            sender->socket->SetIpTtl(spec.ttl);
        }
        // DSCP = 8 * class.  The TOS is set after Connect(), which in
        // ns-3.35 resets it to the (zero) TOS of the address.
        sender->socket->Connect(InetSocketAddress(m_net.GetHostAddress(dst), kSinkPort));
        sender->socket->SetIpTos(uint8_t(spec.cls << 5));
        Simulator::Schedule(spec.start, &Sender::SendNext, sender.get());
        m_senders.push_back(std::move(sender));
    }

    uint64_t GetSent() const //!< \return packets the sockets accepted
    {
        return m_sent;
    }

    uint64_t GetSendErrors() const //!< \return packets the sockets refused
    {
        return m_errors;
    }

    uint64_t GetReceived() const //!< \return packets the sinks received
    {
        return m_received;
    }

    /// \param src a host \return packets received from it
    uint64_t GetReceivedFrom(uint32_t src) const
    {
        auto it = m_receivedFrom.find(m_net.GetHostAddress(src).Get());
        return it == m_receivedFrom.end() ? 0 : it->second;
    }

  private:
    /// One paced sender.
    struct Sender
    {
        Traffic* owner;     //!< counters
        FlowSpec spec;      //!< the flow
        uint64_t left;      //!< payload bytes still to send
        Ptr<Socket> socket; //!< its socket

        /// Send one packet and schedule the next.
        void SendNext()
        {
            if (left == 0 || Simulator::Now() >= spec.stop)
            {
                return;
            }
            uint32_t size = uint32_t(std::min<uint64_t>(kPayload, left));
            left -= size;
            if (socket->Send(Create<Packet>(size)) >= 0)
            {
                ++owner->m_sent;
            }
            else
            {
                ++owner->m_errors;
            }
            Simulator::Schedule(spec.interval, &Sender::SendNext, this);
        }
    };

    /// Give host \p dst a sink (once). \param dst host
    void InstallSink(uint32_t dst)
    {
        if (m_sinks.count(dst))
        {
            return;
        }
        Ptr<Socket> sink = Socket::CreateSocket(m_net.GetHost(dst), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), kSinkPort));
        sink->SetRecvCallback(MakeCallback(&Traffic::Receive, this));
        m_sinks[dst] = sink;
    }

    /// Drain a sink. \param socket the sink
    void Receive(Ptr<Socket> socket)
    {
        Address from;
        while (Ptr<Packet> p = socket->RecvFrom(from))
        {
            ++m_received;
            ++m_receivedFrom[InetSocketAddress::ConvertFrom(from).GetIpv4().Get()];
        }
    }

    PfcTopologyHelper& m_net;                       //!< the network
    std::vector<std::unique_ptr<Sender>> m_senders; //!< senders
    std::map<uint32_t, Ptr<Socket>> m_sinks;        //!< sinks by host
    std::map<uint32_t, uint64_t> m_receivedFrom;    //!< received by source address
    uint64_t m_sent = 0;                            //!< accepted by the sockets
    uint64_t m_errors = 0;                          //!< refused by the sockets
    uint64_t m_received = 0;                        //!< received
};

// ---------------------------------------------------------------------------
// Topologies
// ---------------------------------------------------------------------------

/// A two-tier leaf-spine as a tagger::Topology (every leaf to every spine).
struct LeafSpine
{
    tagger::Topology topo;              //!< the graph
    std::vector<tagger::NodeId> spines; //!< spine ids
    std::vector<tagger::NodeId> leaves; //!< leaf ids
    uint32_t hostsPerLeaf;              //!< hosts per leaf; host h is on leaf h / hostsPerLeaf

    /// \param nLeaves leaves \param nSpines spines \param hosts hosts per leaf
    LeafSpine(uint32_t nLeaves, uint32_t nSpines, uint32_t hosts)
        : hostsPerLeaf(hosts)
    {
        for (uint32_t s = 0; s < nSpines; ++s)
        {
            spines.push_back(
                topo.AddNode("S" + std::to_string(s), tagger::NodeKind::SWITCH, nLeaves, 2));
        }
        for (uint32_t l = 0; l < nLeaves; ++l)
        {
            leaves.push_back(topo.AddNode("L" + std::to_string(l),
                                          tagger::NodeKind::SWITCH,
                                          hosts + nSpines,
                                          1));
        }
        // Hosts first, so a leaf's ports 0..hosts-1 are its hosts.
        for (uint32_t l = 0; l < nLeaves; ++l)
        {
            for (uint32_t h = 0; h < hosts; ++h)
            {
                tagger::NodeId host =
                    topo.AddNode("H" + std::to_string(l * hosts + h), tagger::NodeKind::HOST, 1, 0);
                topo.Connect(host, leaves[l]);
            }
        }
        for (uint32_t l = 0; l < nLeaves; ++l)
        {
            for (uint32_t s = 0; s < nSpines; ++s)
            {
                topo.Connect(leaves[l], spines[s]);
            }
        }
    }
};

/// A line H0 - S1 - S2 - S3 - H1 (switch ports: 0 toward H0, 1 toward H1).
struct Line
{
    tagger::Topology topo;           //!< the graph
    std::array<tagger::NodeId, 3> s; //!< S1, S2, S3

    Line()
    {
        for (uint32_t i = 0; i < 3; ++i)
        {
            s[i] = topo.AddNode("S" + std::to_string(i + 1), tagger::NodeKind::SWITCH, 2, 1);
        }
        tagger::NodeId h0 = topo.AddNode("H0", tagger::NodeKind::HOST, 1, 0);
        tagger::NodeId h1 = topo.AddNode("H1", tagger::NodeKind::HOST, 1, 0);
        topo.AddLink(h0, 0, s[0], 0);
        topo.AddLink(s[0], 1, s[1], 0);
        topo.AddLink(s[1], 1, s[2], 0);
        topo.AddLink(s[2], 1, h1, 0);
    }
};

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_PFC_SWITCH_TEST_UTIL_H */
