/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-pfc-switch" (./test.py -s tagger-pfc-switch):
 * network-level tests of the PFC switch, defined here: seeded incasts over a
 * leaf-spine (no lossless drop, conservation, buffers back to zero),
 * headroom too small (lossless drops), a lossy class (lossy drops, no PAUSE),
 * TTL and routing drops, ECMP spreading, a PFC deadlock on a ring of four
 * switches found by the deadlock oracle, and a RESUME that waits for the
 * packet leaving by its port; plus the relay server of pfc-relay-test.cc and
 * the data-plane fuzz in plain PFC mode (it deadlocks, see
 * tagger-classifier-test-suite.cc).
 *
 * Traffic uses UDP sockets directly (the module does not depend on ns-3's
 * applications module): a paced sender per flow and a counting sink per
 * destination host.
 */

#include "pfc-test-util.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"
#include "ns3/ttl-classifier.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
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
        // Connect() sets the socket's TOS from the address: DSCP = 8 * class.
        InetSocketAddress to(m_net.GetHostAddress(dst), kSinkPort);
        to.SetTos(uint8_t(spec.cls << 5));
        sender->socket->Connect(to);
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

/// Headroom of the PFC buffer background at 40 Gbps, by hand: 2 (C * Dprop + L_MTU) + 3840 B.
/// \param delayNs the propagation delay (ns) \return eta in bytes
uint64_t
HandHeadroom(uint64_t delayNs)
{
    return 2 * (kBytesPerNs * delayNs + 1500) + 3840;
}

// ---------------------------------------------------------------------------
// The incast (tests 1-3)
// ---------------------------------------------------------------------------

/// Leaf-spine of the incasts: 4 leaves x 9 hosts, 2 spines, 40 Gbps.
constexpr uint32_t kIncastLeaves = 4;
constexpr uint32_t kIncastSpines = 2;       //!< spines
constexpr uint32_t kIncastHostsPerLeaf = 9; //!< hosts per leaf
/// Shared buffer Bs of every switch in the incasts (BufferSize is sized per switch for it).
constexpr uint64_t kIncastShared = 64 * 1024;

/// One incast: hosts chosen at random send to host 0.
struct IncastParams
{
    uint32_t run = 1;                    //!< RngRun
    uint32_t senders = 8;                //!< N
    uint64_t minFlowBytes = 20000;       //!< per sender, uniform in [min, max]
    uint64_t maxFlowBytes = 100000;      //!< per sender
    uint8_t cls = kLosslessClass;        //!< the flows' class
    uint64_t fixedHeadroom = 0;          //!< HeadroomMode Fixed with this eta (0: FixedResponse)
    uint64_t lossyPoolSize = 128 * 1024; //!< LossyPoolSize
};

/// What an incast did.
struct IncastOutcome
{
    uint64_t sent = 0;                               //!< packets the sockets accepted
    uint64_t sendErrors = 0;                         //!< packets the sockets refused
    uint64_t delivered = 0;                          //!< packets host 0 received
    uint64_t drops = 0;                              //!< data-plane drops, every reason
    uint64_t tcDrops = 0;                            //!< host traffic-control drops
    uint64_t losslessDrops = 0;                      //!< LOSSLESS_OVERFLOW
    uint64_t lossyDrops = 0;                         //!< LOSSY_OVERFLOW
    uint64_t pauses = 0;                             //!< PAUSE decisions of all MMUs
    std::array<uint64_t, kPfcClasses> pauseFrames{}; //!< PFC frames sent pausing each class
    bool deadlock = false;                           //!< the oracle saw a cycle
    uint64_t losslessBytes = 0;                      //!< lossless bytes still held (all MMUs)
    uint64_t lossyBytes = 0;                         //!< lossy bytes still held (all MMUs)
    uint32_t busyIngressQueues = 0;                  //!< ingress queues with bytes after the drain
    uint32_t offIngressQueues = 0;                   //!< ingress queues still OFF after the drain
    uint32_t busyLossyQueues = 0;  //!< lossy egress queues with bytes after the drain
    uint64_t portQueueBytes = 0;   //!< bytes still in switch port queues
    uint32_t wrongSharedPools = 0; //!< switches whose Bs is not kIncastShared
    uint64_t totalFrameBytes = 0;  //!< frame bytes of all the flows
    uint64_t noPauseBound = 0;     //!< frame bytes the network can take without any PAUSE
};

/// Counts PFC frames that pause each class (trace sink of PfcNetDevice PfcTx).
struct PfcFrameCounter
{
    std::array<uint64_t, kPfcClasses> pausing{}; //!< per class

    /// \param pfc a PFC frame sent
    void Tx(const PfcHeader& pfc)
    {
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            if (pfc.IsClassEnabled(c) && pfc.GetQuanta(c) > 0)
            {
                ++pausing[c];
            }
        }
    }
};

/**
 * Run one incast to completion and collect its outcome.
 *
 * Network: LeafSpine(4, 2, 9) at 40 Gbps, each link's delay drawn in
 * [500, 5000] ns (set on the channels after Build; the MMUs read them at
 * start).  MMU: class 3 the only lossless class, Dynamic threshold (Alpha
 * 0.125, phi 3072 B), and BufferSize set per switch to LossyPoolSize + sum
 * over its ports of (phi + eta_port) + 64 KiB, so that every switch has
 * Bs = 64 KiB: a shallow buffer that makes PFC work hard.
 *
 * Traffic: N hosts drawn from 1..35 each send one flow of a size drawn in
 * [min, max] (whole 1000 B packets) to host 0, starting in the first 10 us,
 * at 40 Gbps.  The simulation runs 3 ms, far beyond the drain time (3.2 MB
 * at 40 Gbps is 0.64 ms).
 *
 * \param p the parameters \return the outcome
 */
IncastOutcome
RunIncast(const IncastParams& p)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(p.run);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();

    LeafSpine ls(kIncastLeaves, kIncastSpines, kIncastHostsPerLeaf);
    PfcTopologyHelper net(ls.topo);
    PfcHelper& pfc = net.GetPfcHelper();
    pfc.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    pfc.SetMmuAttribute("LosslessClasses", UintegerValue(kLosslessMask));
    pfc.SetMmuAttribute("LossyPoolSize", UintegerValue(p.lossyPoolSize));
    if (p.fixedHeadroom > 0)
    {
        pfc.SetMmuAttribute("HeadroomMode", StringValue("Fixed"));
        pfc.SetMmuAttribute("Headroom", UintegerValue(p.fixedHeadroom));
    }
    net.Build();

    // Mixed link delays, and the BufferSize that leaves Bs = 64 KiB on each switch.
    const tagger::Topology& topo = net.GetTopology();
    std::map<std::pair<tagger::NodeId, tagger::NodeId>, uint64_t> delayNs;
    std::map<tagger::NodeId, uint64_t> reserved; // per switch: sum of (phi + eta)
    for (const tagger::TopoLink& link : topo.GetLinks())
    {
        uint64_t d = rng->GetInteger(500, 5000);
        net.GetChannel(link.a.node, link.b.node)->SetAttribute("Delay", TimeValue(NanoSeconds(d)));
        delayNs[{link.a.node, link.b.node}] = d;
        delayNs[{link.b.node, link.a.node}] = d;
        uint64_t eta = p.fixedHeadroom > 0 ? p.fixedHeadroom : HandHeadroom(d);
        for (tagger::NodeId v : {link.a.node, link.b.node})
        {
            if (net.GetSwitch(v))
            {
                reserved[v] += kPhi + eta;
            }
        }
    }
    for (const auto& [v, bytes] : reserved)
    {
        net.GetSwitch(v)->GetMmu()->SetAttribute(
            "BufferSize",
            UintegerValue(p.lossyPoolSize + bytes + kIncastShared));
    }

    // N distinct senders among hosts 1..35, flow sizes, start times.
    const uint32_t nHosts = net.GetNHosts();
    std::vector<uint32_t> candidates;
    for (uint32_t h = 1; h < nHosts; ++h)
    {
        candidates.push_back(h);
    }
    for (uint32_t i = 0; i < p.senders; ++i) // partial Fisher-Yates
    {
        uint32_t j = rng->GetInteger(i, candidates.size() - 1);
        std::swap(candidates[i], candidates[j]);
    }
    Traffic traffic(net);
    IncastOutcome out;
    uint64_t lastNs = 0; // when the last NIC would finish if no host were ever paused
    std::set<uint32_t> senderLeaves;
    uint64_t wireBytes = 0; // bytes that can be on the wires of the flows' links
    for (uint32_t i = 0; i < p.senders; ++i)
    {
        uint32_t host = candidates[i];
        FlowSpec f;
        f.cls = p.cls;
        f.bytes = kPayload * rng->GetInteger(p.minFlowBytes / kPayload, p.maxFlowBytes / kPayload);
        uint64_t startNs = rng->GetInteger(0, 10000);
        f.start = NanoSeconds(startNs);
        traffic.AddFlow(host, 0, f);
        uint64_t packets = f.bytes / kPayload;
        out.totalFrameBytes += packets * kFrame;
        // A host NIC sends back to back (the sender paces at 200 ns, a frame takes
        // 1066 B / 5 B/ns = 213.2 ns on the wire), so unpaused it ends at
        // start + packets * 213.2 ns.
        lastNs = std::max<uint64_t>(lastNs, startNs + (packets * kWireFrame + 4) / kBytesPerNs);
        uint32_t leaf = host / kIncastHostsPerLeaf;
        senderLeaves.insert(leaf);
        tagger::NodeId hostId = topo.GetPeer(ls.leaves[leaf], host % kIncastHostsPerLeaf).node;
        wireBytes += kBytesPerNs * delayNs[{hostId, ls.leaves[leaf]}] + kWireFrame;
    }
    // Links the incast uses besides the senders' own: uplinks of remote sender
    // leaves, spine -> leaf 0, leaf 0 -> host 0.
    bool remote = false;
    for (uint32_t leaf : senderLeaves)
    {
        if (leaf == 0)
        {
            continue;
        }
        remote = true;
        for (tagger::NodeId s : ls.spines)
        {
            wireBytes += kBytesPerNs * delayNs[{ls.leaves[leaf], s}] + kWireFrame;
        }
    }
    if (remote)
    {
        for (tagger::NodeId s : ls.spines)
        {
            wireBytes += kBytesPerNs * delayNs[{s, ls.leaves[0]}] + kWireFrame;
        }
    }
    tagger::NodeId host0 = topo.GetPeer(ls.leaves[0], 0).node;
    wireBytes += kBytesPerNs * delayNs[{ls.leaves[0], host0}] + kWireFrame;
    // Without any PAUSE, at the time lastNs every frame has left its host and is
    // (a) delivered: at most 5 B/ns * lastNs through host 0's 40 Gbps link,
    // (b) on a wire: at most wireBytes, or
    // (c) in a switch: an ingress queue takes a frame into its private segment
    //     only below phi, and into the shared one only while T = Alpha (Bs - sum w)
    //     > 0, i.e. sum w < Bs; headroom is used only after a PAUSE.  So a switch
    //     with k ports holds at most k (phi + frame) + Bs + frame:
    //     leaf (k = 11): 11 * 4114 + 65536 + 1042 = 111832 B,
    //     spine (k = 4):  4 * 4114 + 65536 + 1042 =  83034 B; all: 4 * 111832 + 2 * 83034.
    const uint64_t leafMax =
        (kIncastHostsPerLeaf + kIncastSpines) * (kPhi + kFrame) + kIncastShared + kFrame;
    const uint64_t spineMax = kIncastLeaves * (kPhi + kFrame) + kIncastShared + kFrame;
    out.noPauseBound =
        kIncastLeaves * leafMax + kIncastSpines * spineMax + wireBytes + kBytesPerNs * lastNs;

    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    const Time stop = MilliSeconds(3);
    oracle->Start(MicroSeconds(10), stop);

    PfcFrameCounter pfcFrames;
    NodeContainer switches = net.GetSwitches();
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<PfcSwitchNetDevice> sw = PfcHelper::GetSwitch(switches.Get(i));
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            sw->GetPort(port)->TraceConnectWithoutContext(
                "PfcTx",
                MakeCallback(&PfcFrameCounter::Tx, &pfcFrames));
        }
    }

    Simulator::Stop(stop);
    Simulator::Run();

    out.sent = traffic.GetSent();
    out.sendErrors = traffic.GetSendErrors();
    out.delivered = traffic.GetReceived();
    out.drops = PfcStatsHelper(net).GetDropCount();
    out.tcDrops = PfcStatsHelper(net).GetTrafficControlDrops();
    out.losslessDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
    out.lossyDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSY_OVERFLOW);
    out.pauses = PfcStatsHelper(net).GetPauseCount();
    out.pauseFrames = pfcFrames.pausing;
    out.deadlock = oracle->HasDeadlock();
    out.losslessBytes = PfcStatsHelper(net).GetLosslessBytes();
    out.lossyBytes = PfcStatsHelper(net).GetLossyBytes();
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<PfcSwitchNetDevice> sw = PfcHelper::GetSwitch(switches.Get(i));
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        out.wrongSharedPools += mmu->GetSharedPoolSize() != kIncastShared ? 1 : 0;
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            for (uint8_t c = 0; c < kPfcClasses; ++c)
            {
                out.busyIngressQueues += mmu->GetIngressBytes(port, c) != 0 ? 1 : 0;
                out.offIngressQueues += mmu->IsOff(port, c) ? 1 : 0;
                out.busyLossyQueues += mmu->GetLossyBytes(port, c) != 0 ? 1 : 0;
                out.portQueueBytes += sw->GetPort(port)->GetQueueBytes(c);
            }
        }
    }
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup tagger-tests
 * Base of the incast tests: the checks every incast must pass.
 */
class IncastTestCaseBase : public TestCase
{
  protected:
    /// \param name the test's name
    explicit IncastTestCaseBase(std::string name)
        : TestCase(name)
    {
    }

    /**
     * Conservation and a drained network: sent = delivered + dropped, no
     * socket refused a packet, every MMU counter and port queue back to zero.
     * \param o the outcome \param what the run, for messages
     */
    void CheckConservedAndDrained(const IncastOutcome& o, const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(o.sendErrors, 0, what << ": a socket refused a packet");
        NS_TEST_EXPECT_MSG_GT(o.sent, 0, what << ": nothing sent");
        NS_TEST_EXPECT_MSG_EQ(o.sent,
                              o.delivered + o.drops + o.tcDrops,
                              what << ": sent != delivered " << o.delivered << " + dropped "
                                   << o.drops << " + traffic-control dropped " << o.tcDrops);
        NS_TEST_EXPECT_MSG_EQ(o.losslessBytes, 0, what << ": lossless bytes left in the MMUs");
        NS_TEST_EXPECT_MSG_EQ(o.lossyBytes, 0, what << ": lossy bytes left in the MMUs");
        NS_TEST_EXPECT_MSG_EQ(o.busyIngressQueues, 0, what << ": ingress queues not empty");
        NS_TEST_EXPECT_MSG_EQ(o.offIngressQueues, 0, what << ": ingress queues still OFF");
        NS_TEST_EXPECT_MSG_EQ(o.busyLossyQueues, 0, what << ": lossy egress queues not empty");
        NS_TEST_EXPECT_MSG_EQ(o.portQueueBytes, 0, what << ": bytes left in port queues");
        NS_TEST_EXPECT_MSG_EQ(o.wrongSharedPools,
                              0,
                              what << ": a switch's Bs is not the 64 KiB its BufferSize was "
                                      "sized for (headroom not computed from the link delay "
                                      "set after Build?)");
    }
};

// ---------------------------------------------------------------------------
// Test 1: seeded incasts, no lossless drop
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * 50 seeded incasts (runs 1..50, N = 2 + (run - 1) mod 31 senders, so every N
 * in 2..32 occurs) with mixed link delays and the FixedResponse headroom computed
 * from each link: no LOSSLESS_OVERFLOW drop, no deadlock, conservation and a
 * drained network in every run; every run whose flows exceed the no-PAUSE
 * bound of RunIncast pauses, and at least 10 runs are that large.
 */
class IncastLosslessTestCase : public IncastTestCaseBase
{
  public:
    IncastLosslessTestCase()
        : IncastTestCaseBase("PFC incast: 50 seeded leaf-spine incasts, mixed delays, no "
                             "lossless drop, conservation, buffers drain")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t mustPause = 0;
        for (uint32_t run = 1; run <= 50; ++run)
        {
            IncastParams p;
            p.run = run;
            p.senders = 2 + (run - 1) % 31;
            IncastOutcome o = RunIncast(p);
            std::string what =
                "run " + std::to_string(run) + " (" + std::to_string(p.senders) + " senders)";
            NS_TEST_EXPECT_MSG_EQ(o.losslessDrops, 0, what << ": lossless drops");
            NS_TEST_EXPECT_MSG_EQ(o.drops, 0, what << ": drops of any reason");
            NS_TEST_EXPECT_MSG_EQ(o.deadlock, false, what << ": the oracle saw a deadlock");
            CheckConservedAndDrained(o, what);
            if (o.totalFrameBytes > o.noPauseBound)
            {
                ++mustPause;
                NS_TEST_EXPECT_MSG_GT(o.pauses,
                                      0,
                                      what << ": " << o.totalFrameBytes << " B exceed the "
                                           << o.noPauseBound
                                           << " B the network holds without PAUSE");
                NS_TEST_EXPECT_MSG_GT(o.pauseFrames[kLosslessClass],
                                      0,
                                      what << ": no PFC frame paused class 3");
            }
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(mustPause, 10, "too few incasts large enough to need PFC");
    }
};

// ---------------------------------------------------------------------------
// Test 2: headroom far below eta
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * The incast of test 1 with 32 senders of 100 KB each and HeadroomMode Fixed,
 * Headroom 2000 B, against an FixedResponse eta of at least
 * 2 (5 B/ns * 500 ns + 1500) + 3840 = 11840 B per port: after a PAUSE the
 * upstream keeps sending for at least the PFC processing time (3840 B at
 * 40 Gbps) plus a round trip, so a queue that takes more than 2000 B after
 * its PAUSE drops.  32 * 100 frames * 1042 B = 3.33 MB exceed the no-PAUSE
 * bound, so queues do pause.  Expect LOSSLESS_OVERFLOW > 0, and conservation.
 */
class IncastSmallHeadroomTestCase : public IncastTestCaseBase
{
  public:
    IncastSmallHeadroomTestCase()
        : IncastTestCaseBase("PFC incast: fixed headroom of 2000 B (far below eta) drops "
                             "lossless packets, conservation holds")
    {
    }

  private:
    void DoRun() override
    {
        IncastParams p;
        p.run = 7;
        p.senders = 32;
        p.minFlowBytes = 100000;
        p.maxFlowBytes = 100000;
        p.fixedHeadroom = 2000;
        IncastOutcome o = RunIncast(p);
        NS_TEST_EXPECT_MSG_GT(o.totalFrameBytes, o.noPauseBound, "the incast is too small");
        NS_TEST_EXPECT_MSG_GT(o.pauses, 0, "no PAUSE");
        NS_TEST_EXPECT_MSG_GT(o.losslessDrops, 0, "2000 B of headroom dropped nothing");
        NS_TEST_EXPECT_MSG_EQ(o.drops, o.losslessDrops, "drops other than lossless overflow");
        CheckConservedAndDrained(o, "headroom 2000 B");
    }
};

// ---------------------------------------------------------------------------
// Test 3: a lossy class
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * The incast with class 0 (lossy: LosslessClasses 0x08) and LossyPoolSize
 * 32 KiB: 32 senders x 100 frames x 1042 B = 3.33 MB.  Lossy traffic is never
 * paused, so without a drop every frame is, when the last NIC finishes
 * (< 10 us + 100 * 213.2 ns = 31.4 us), delivered (< 5 B/ns * 31.4 us =
 * 157 KB), on a wire (< 41 links * (25000 + 1066) B = 1.07 MB) or in a lossy
 * pool (6 switches * 32 KiB = 197 KB): 1.42 MB in all, less than 3.33 MB, so
 * LOSSY_OVERFLOW > 0.  No PAUSE decision, no PFC frame for class 0.
 */
class IncastLossyTestCase : public IncastTestCaseBase
{
  public:
    IncastLossyTestCase()
        : IncastTestCaseBase("PFC incast: lossy class 0 with a 32 KiB lossy pool drops "
                             "(lossy overflow), never pauses, conservation holds")
    {
    }

  private:
    void DoRun() override
    {
        IncastParams p;
        p.run = 3;
        p.senders = 32;
        p.minFlowBytes = 100000;
        p.maxFlowBytes = 100000;
        p.cls = 0;
        p.lossyPoolSize = 32 * 1024;
        IncastOutcome o = RunIncast(p);
        NS_TEST_EXPECT_MSG_GT(o.lossyDrops, 0, "no lossy overflow");
        NS_TEST_EXPECT_MSG_EQ(o.losslessDrops, 0, "lossless overflow of a lossy class");
        NS_TEST_EXPECT_MSG_EQ(o.drops, o.lossyDrops, "drops other than lossy overflow");
        NS_TEST_EXPECT_MSG_EQ(o.pauses, 0, "a PAUSE decision for lossy traffic");
        NS_TEST_EXPECT_MSG_EQ(o.pauseFrames[0], 0, "a PFC frame paused class 0");
        uint64_t anyPause = 0;
        for (uint64_t n : o.pauseFrames)
        {
            anyPause += n;
        }
        NS_TEST_EXPECT_MSG_EQ(anyPause, 0, "a PFC frame paused some class");
        NS_TEST_EXPECT_MSG_EQ(o.deadlock, false, "deadlock");
        CheckConservedAndDrained(o, "lossy class 0");
    }
};

// ---------------------------------------------------------------------------
// Test 4: TTL and routing drops
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Test 7: a RESUME out of the port a packet is leaving by
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Regression: a switch forwarding a packet out of the port it came in on
 * (a bad route, a routing loop) releases that port's ingress buffer when
 * the packet leaves; when that release ends a PAUSE, the RESUME goes out of
 * the very port that is just starting the packet.  It must wait for the
 * packet (once re-entered, the device put both frames on the wire at once).
 * One leaf L1 with H1, H2, H3 (MakeLeafSpine(1, 1, 3)); L1 routes H3 back to
 * H1 (whose IP stack drops what is not its own); H1 and H2 send to H3 at
 * 40 Gbps, so 80 Gbps meet at L1's port to H1: L1 pauses both (static Xoff
 * 20 KB) and resumes them (Xon 10 KB) as the port drains - H1's packets
 * release H1's ingress queue while leaving by H1's port.  Expected: PAUSE
 * and RESUME frames go to H1, and that port never starts a frame while one
 * is on the wire.
 */
class SamePortResumeTestCase : public TestCase
{
  public:
    SamePortResumeTestCase()
        : TestCase("PFC switch: a RESUME for the port a packet is leaving by waits for it")
    {
    }

  private:
    /// PhyTxBegin. \param p the frame
    void TxBegin(Ptr<const Packet> p)
    {
        m_overlaps += m_onWire ? 1 : 0;
        m_onWire = true;
        ++m_frames;
    }

    /// PhyTxEnd. \param p the frame
    void TxEnd(Ptr<const Packet> p)
    {
        m_onWire = false;
    }

    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeLeafSpine(1, 1, 3);
        PfcTopologyHelper net(topo);
        net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
        net.GetPfcHelper().SetChannelAttribute("Delay", StringValue("1us"));
        net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
        net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(20000));
        net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(10000));
        net.Build();
        const uint32_t h1 = 0;
        const uint32_t h2 = 1;
        const uint32_t h3 = 2;
        net.GetRouteHelper().SetRoute("L1", h3, "H1");
        net.GetHost(h1)->GetObject<Ipv4>()->SetAttribute("IpForward", BooleanValue(false));

        tagger::NodeId l1 = net.GetNodeId("L1");
        tagger::NodeId hostH1 = net.GetNodeId("H1");
        Ptr<PfcNetDevice> port = net.GetDevice(l1, topo.GetPortTo(l1, hostH1));
        NS_TEST_ASSERT_MSG_NE(port, nullptr, "L1's port to H1");
        m_onWire = false;
        m_overlaps = 0;
        m_frames = 0;
        port->TraceConnectWithoutContext("PhyTxBegin",
                                         MakeCallback(&SamePortResumeTestCase::TxBegin, this));
        port->TraceConnectWithoutContext("PhyTxEnd",
                                         MakeCallback(&SamePortResumeTestCase::TxEnd, this));

        RdmaHelper rdma;
        rdma.Install(net);
        rdma.AddFlow(h1, h3, 10000000, MicroSeconds(1));
        rdma.AddFlow(h2, h3, 10000000, MicroSeconds(1));
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();

        // 300 us at 40 Gbps: about 1380 frames of ~1080 B out of the port.
        NS_TEST_EXPECT_MSG_GT(m_frames, 1000u, "the port to H1 is busy");
        NS_TEST_EXPECT_MSG_GT(port->GetPauseTxFrames(), 0u, "L1 pauses H1");
        NS_TEST_EXPECT_MSG_GT(port->GetResumeTxFrames(), 0u, "L1 resumes H1");
        NS_TEST_EXPECT_MSG_EQ(m_overlaps, 0u, "a frame started while another was on the wire");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "lossless");
        Simulator::Destroy();
    }

    bool m_onWire;       //!< a frame is on the wire
    uint32_t m_overlaps; //!< frames started while another was on the wire
    uint32_t m_frames;   //!< frames started
};

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

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-pfc-switch": PfcSwitchNetDevice and SwitchMmu in
 * networks, the deadlock oracle, and a relay server.
 */
class TaggerPfcSwitchTestSuite : public TestSuite
{
  public:
    TaggerPfcSwitchTestSuite()
        : TestSuite("tagger-pfc-switch", UNIT)
    {
        AddTestCase(new IncastLosslessTestCase, TestCase::QUICK);
        AddTestCase(new IncastSmallHeadroomTestCase, TestCase::QUICK);
        AddTestCase(new IncastLossyTestCase, TestCase::QUICK);
        AddTestCase(new TtlNoRouteTestCase, TestCase::QUICK);
        AddTestCase(new RemovePortTestCase, TestCase::QUICK);
        AddTestCase(new EcmpTestCase, TestCase::QUICK);
        AddTestCase(new RingDeadlockTestCase, TestCase::QUICK);
        AddTestCase(new RingNoDeadlockTestCase, TestCase::QUICK);
        AddTestCase(new SamePortResumeTestCase, TestCase::QUICK);
        AddTestCase(new TtlSharedPauseClassTestCase, TestCase::QUICK);
        AddTestCase(new RelayOriginatedTtlTestCase, TestCase::QUICK);
        for (TestCase* tc : MakePfcRelayTestCases())
        {
            AddTestCase(tc, TestCase::QUICK);
        }
        AddTestCase(MakeDataplaneFuzzTestCase(DataplaneFuzzMode::PFC), TestCase::QUICK);
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerPfcSwitchTestSuite g_taggerPfcSwitchTestSuite;
