/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-classifier" (./test.py -s tagger-classifier):
 * data-plane tests of Tagger, and the data-plane fuzz of Tagger, the TTL
 * scheme and plain PFC:
 *
 *  1. the switch classifiers hold exactly the algorithm library's rules (every
 *     switch of a k = 4 fat tree, every tag, every port pair), and a real
 *     packet bounced at a switch leaves it with the new tag in the new tag's
 *     egress queue;
 *  2. egress by the old tag (the wrong behaviour of Tagger (ToN), Section VII-B)
 *     drops lossless packets right after a tag change, egress by the new tag
 *     does not;
 *  3. a seeded fuzz on a k = 4 fat tree (random link failures with local
 *     reroute, random RoCE flows and an incast): Tagger and TTL priorities
 *     never deadlock, never drop a lossless packet and account for every
 *     packet; plain PFC deadlocks in some runs.  One test case per data
 *     plane (MakeDataplaneFuzzTestCase, pfc-test-util.h): Tagger's is in
 *     this suite, TTL's in tagger-ttl (ttl-classifier-test-suite.cc), plain
 *     PFC's in tagger-pfc-switch;
 *  4. TaggerHelper::InstallFromJson refuses a rules file with a tag-1 cycle
 *     unless SetVerifyRules(false) (tagger-helper-rules-file-test.cc).
 */

#include "pfc-test-util.h"

#include "ns3/boolean.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/tagger-algorithms.h"
#include "ns3/tagger-elp.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("TaggerDataplaneTest");

namespace
{

// ---------------------------------------------------------------------------
// Constants shared by the tests
// ---------------------------------------------------------------------------

/// RdmaNic PayloadSize (its default): payload bytes of a full data packet.
constexpr uint64_t kPayload = 1000;
/**
 * A full RoCEv2 data frame as the switches buffer it: payload 1000 + ICRC 4 +
 * BTH 12 + UDP 8 + IPv4 20 + Ethernet 14 (no FCS, no 802.1Q tag) = 1058 B.
 */
constexpr uint64_t kDataFrame = kPayload + 4 + 12 + 8 + 20 + 14;
/// The lossy tag (Tagger) and DSCP 0.
constexpr uint8_t kLossyTag = 0;
/// Plain PFC: DSCP 24 = lossless class 3.
constexpr uint8_t kPfcDscp = 24;

/**
 * The network settings of examples/tagger-clos-bounce.cc: 40 Gbps links of
 * 1 us, DWRR between classes, static PFC thresholds (Xoff 50 KB, Xon 5 KB of
 * shared buffer per ingress queue), with which deadlocks form in small
 * scenarios.  ECN marking is a step at 20 KB of class queue (EcnKmin =
 * EcnKmax): no random draw, so a seeded run does not depend on the random
 * streams earlier tests used (CNPs still flow; DCQCN is off in these tests).
 * \param net the network (not built yet)
 */
void
ConfigureNetwork(PfcTopologyHelper& net)
{
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    net.GetPfcHelper().SetDeviceAttribute("EcnKmin", UintegerValue(20000));
    net.GetPfcHelper().SetDeviceAttribute("EcnKmax", UintegerValue(20000));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue("1us"));
    net.GetPfcHelper().SetScheduler("ns3::DwrrPfcScheduler");
    net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
    net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(50000));
    net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(5000));
}

/// Stop every sender of \p rdma now (the drain test of the TTL scheme). \param rdma the NICs
void
StopAllFlows(RdmaHelper* rdma)
{
    for (uint32_t h = 0; h < rdma->GetNHosts(); ++h)
    {
        rdma->GetNic(h)->StopFlows();
    }
}

// ---------------------------------------------------------------------------
// Parsing the frames the traces see
// ---------------------------------------------------------------------------

/// What a frame is, as far as the tests care.
enum class Kind : uint8_t
{
    DATA = 0, //!< a RoCEv2 SEND (first, middle, last, only)
    ACK,      //!< an RC ACK
    NAK,      //!< an RC NAK
    CNP,      //!< a congestion notification packet
    OTHER,    //!< anything else (PFC frames, non-RoCE packets)
    COUNT     //!< number of kinds (not a kind)
};

/// Number of frame kinds.
constexpr std::size_t kKinds = static_cast<std::size_t>(Kind::COUNT);

/// The kinds' names, for messages.
const char* const kKindNames[kKinds + 1] = {"data", "ack", "nak", "cnp", "other", "?"};

/// What ParseFrame found.
struct FrameInfo
{
    Kind kind = Kind::OTHER; //!< the kind
    uint8_t dscp = 0;        //!< IPv4 DSCP (the tag), when IPv4
    uint8_t ttl = 0;         //!< IPv4 TTL, when IPv4
};

/**
 * Classify a frame or an IPv4 packet.  The traces see both: device traces
 * and port drops carry the Ethernet header, the switch pipeline's drops only
 * the IPv4 packet.  An IPv4 header starts with version 4 in the high nibble;
 * an Ethernet frame starts with the destination MAC, whose first byte is 0x00
 * (ns-3 allocates addresses from 00:00:00:...) or 0x01 (the PFC address).
 * \param frame the frame or packet
 * \return what it is
 */
FrameInfo
ParseFrame(Ptr<const Packet> frame)
{
    FrameInfo info;
    if (frame->GetSize() == 0)
    {
        return info;
    }
    Ptr<Packet> p = frame->Copy();
    uint8_t first = 0;
    p->CopyData(&first, 1);
    if ((first >> 4) != 4)
    {
        EthernetDot1qHeader eth;
        p->RemoveHeader(eth);
        if (eth.GetEtherType() != kEtherTypeIpv4)
        {
            return info;
        }
    }
    Ipv4Header ip;
    p->RemoveHeader(ip);
    info.dscp = ip.GetDscp();
    info.ttl = ip.GetTtl();
    if (ip.GetProtocol() != 17)
    {
        return info;
    }
    UdpHeader udp;
    p->RemoveHeader(udp);
    if (udp.GetDestinationPort() != kRoceUdpPort)
    {
        return info;
    }
    RoceBthHeader bth;
    p->RemoveHeader(bth);
    switch (bth.GetOpcode())
    {
    case RoceBthHeader::RC_SEND_FIRST:
    case RoceBthHeader::RC_SEND_MIDDLE:
    case RoceBthHeader::RC_SEND_LAST:
    case RoceBthHeader::RC_SEND_ONLY:
        info.kind = Kind::DATA;
        break;
    case RoceBthHeader::RC_ACK: {
        RoceAethHeader aeth;
        p->RemoveHeader(aeth);
        info.kind = aeth.IsNak() ? Kind::NAK : Kind::ACK;
        break;
    }
    case RoceBthHeader::CNP:
        info.kind = Kind::CNP;
        break;
    default:
        break;
    }
    return info;
}

// ---------------------------------------------------------------------------
// Packet accounting
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Counts every frame the host NICs put on their links, every frame they
 * received, every data-plane drop (switches, their ports, host devices) by
 * kind and by drop reason, and the frames on the wires, from the devices',
 * switches' and channels' traces.
 *
 * The accounting identity it checks (Check()), per kind k (data, ACK, NAK,
 * CNP), exact at any moment:
 *
 *   sent_k = received_k + sum over reasons r of dropped_k,r + queued_k + wire_k
 *
 * where sent_k counts the frames the host devices transmitted (MacTx),
 * received_k the frames the host NICs consumed (MacRx: only a frame's
 * destination receives it, switches route by destination address),
 * dropped_k,r the drops traced with reason r (a frame lost on a wire that
 * went down included: LINK_DOWN), queued_k the frames in a switch or host
 * queue (CountQueued) and wire_k the frames on a wire: frames that began
 * on a wire (PhyTxBegin, every device) minus frames that arrived (PhyRxEnd)
 * minus frames lost on a wire that went down (PfcChannel Lost).  A switch
 * handles an arriving frame at once (queued or dropped), so a frame is always
 * in exactly one of these places, and the network never duplicates one: the
 * identity is exact.  The NIC counters must agree with the traces:
 *
 *   sent_data = sum of RdmaNic::GetDataPacketsSent()          (first sends and resends)
 *   received_data = sum of GetBytesDelivered() / 1000 + GetDuplicatePackets()
 *                   (every flow is a multiple of 1000 B, so every in-order
 *                    packet carries 1000 B; every other arrival is a duplicate)
 *   sent_nak = sum of GetNaksSent(), sent_cnp = sum of GetCnpsSent(),
 *   received_cnp = sum of GetCnpsReceived(),
 *
 * and for each reason the traced drops (all kinds) equal
 * PfcTopologyHelper::GetDropCount(reason).  (ACKs have no NIC counter: they
 * are checked by the identity only.)
 */
class Census
{
  public:
    /// Connect to every host device and switch of \p net. \param net the network (built)
    explicit Census(const PfcTopologyHelper& net)
        : m_net(net)
    {
        for (auto& row : m_dropped)
        {
            row.fill(0);
        }
        m_sent.fill(0);
        m_received.fill(0);
        m_queued.fill(0);
        m_wire.fill(0);
        for (uint32_t h = 0; h < net.GetNHosts(); ++h)
        {
            Ptr<PfcNetDevice> dev = net.GetHostDevice(h);
            dev->TraceConnectWithoutContext("MacTx", MakeCallback(&Census::HostTx, this));
            dev->TraceConnectWithoutContext("MacRx", MakeCallback(&Census::HostRx, this));
            dev->TraceConnectWithoutContext("Drop", MakeCallback(&Census::HostDrop, this));
        }
        const tagger::Topology& topo = net.GetTopology();
        for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
        {
            if (Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v))
            {
                sw->TraceConnectWithoutContext("Drop", MakeCallback(&Census::SwitchDrop, this));
            }
            for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
            {
                if (Ptr<PfcNetDevice> dev = net.GetDevice(v, p))
                {
                    dev->TraceConnectWithoutContext("PhyTxBegin",
                                                    MakeCallback(&Census::WireBegin, this));
                    dev->TraceConnectWithoutContext("PhyRxEnd",
                                                    MakeCallback(&Census::WireEnd, this));
                }
            }
        }
        for (const tagger::TopoLink& l : topo.GetLinks())
        {
            net.GetChannel(l.a.node, l.b.node)
                ->TraceConnectWithoutContext("Lost", MakeCallback(&Census::WireEnd, this));
        }
    }

    /// Count the frames in every switch port and host device queue now.
    void CountQueued()
    {
        m_queued.fill(0);
        const tagger::Topology& topo = m_net.GetTopology();
        for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
        {
            for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
            {
                Ptr<PfcNetDevice> dev = m_net.GetDevice(v, p);
                for (uint8_t c = 0; dev && c < kPfcClasses; ++c)
                {
                    for (const PfcQueueEntry& e : dev->GetQueue(c))
                    {
                        ++m_queued[Index(ParseFrame(e.frame).kind)];
                    }
                }
            }
        }
    }

    /// \param k kind \return frames of kind \p k the hosts sent
    uint64_t Sent(Kind k) const
    {
        return m_sent[Index(k)];
    }

    /// \param k kind \return frames of kind \p k the hosts received
    uint64_t Received(Kind k) const
    {
        return m_received[Index(k)];
    }

    /// \param k kind \param r reason \return frames of kind \p k dropped for \p r
    uint64_t Dropped(Kind k, PfcDropReason r) const
    {
        return m_dropped[Index(k)][static_cast<std::size_t>(r)];
    }

    /// \param k kind \return frames of kind \p k dropped, all reasons
    uint64_t Dropped(Kind k) const
    {
        uint64_t n = 0;
        for (uint64_t d : m_dropped[Index(k)])
        {
            n += d;
        }
        return n;
    }

    /// \param k kind \return frames of kind \p k still queued (after CountQueued)
    uint64_t Queued(Kind k) const
    {
        return m_queued[Index(k)];
    }

    /// \param k kind \return frames of kind \p k on a wire now
    int64_t OnWire(Kind k) const
    {
        return m_wire[Index(k)];
    }

    /// \return frames on a wire now, all kinds but OTHER (PFC frames)
    int64_t OnWire() const
    {
        int64_t n = 0;
        for (std::size_t k = 0; k < kKinds; ++k)
        {
            n += static_cast<Kind>(k) == Kind::OTHER ? 0 : m_wire[k];
        }
        return n;
    }

    /// \return frames still queued, all kinds (after CountQueued)
    uint64_t Queued() const
    {
        uint64_t n = 0;
        for (uint64_t q : m_queued)
        {
            n += q;
        }
        return n;
    }

    /// \param r reason \return drops for \p r of packets with a nonzero DSCP (a lossless tag)
    uint64_t TaggedDrops(PfcDropReason r) const
    {
        return m_taggedDrops[static_cast<std::size_t>(r)];
    }

    /// \return data packets the hosts received with DSCP 0 (Tagger: they left the ELP)
    uint64_t ReceivedUntagged() const
    {
        return m_receivedUntagged;
    }

    /**
     * Check the accounting identity and the NIC counters (see the class).
     * \param rdma the NICs \param what run description for messages
     * \param nicsIdle whether every NIC has sent all it queued: the NIC
     *        counts NAKs and CNPs when it queues them, and a host whose class
     *        stays paused (a deadlock) keeps some; then the traces may only
     *        fall short of those counters
     * \return an empty string, or what does not add up
     */
    std::string Check(const RdmaHelper& rdma, const std::string& what, bool nicsIdle = true) const
    {
        std::ostringstream err;
        for (std::size_t k = 0; k < kKinds; ++k)
        {
            Kind kind = static_cast<Kind>(k);
            if (kind == Kind::OTHER)
            {
                continue;
            }
            int64_t right = Received(kind) + Dropped(kind) + Queued(kind) + OnWire(kind);
            if (OnWire(kind) < 0 || int64_t(Sent(kind)) != right)
            {
                err << what << ": " << kKindNames[k] << " sent " << Sent(kind) << " != received "
                    << Received(kind) << " + dropped " << Dropped(kind) << " + queued "
                    << Queued(kind) << " + on a wire " << OnWire(kind) << "; ";
            }
        }
        uint64_t nicSent = 0;
        uint64_t nicDelivered = 0;
        uint64_t nicDuplicates = 0;
        uint64_t nicNaks = 0;
        uint64_t nicCnpsSent = 0;
        uint64_t nicCnpsReceived = 0;
        for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
        {
            Ptr<RdmaNic> nic = rdma.GetNic(h);
            nicSent += nic->GetDataPacketsSent();
            nicDelivered += nic->GetBytesDelivered();
            nicDuplicates += nic->GetDuplicatePackets();
            nicNaks += nic->GetNaksSent();
            nicCnpsSent += nic->GetCnpsSent();
            nicCnpsReceived += nic->GetCnpsReceived();
        }
        if (nicDelivered % kPayload != 0)
        {
            err << what << ": delivered bytes " << nicDelivered << " not a multiple of " << kPayload
                << "; ";
        }
        auto expect = [&err,
                       &what](const char* name, uint64_t traced, uint64_t counted, bool exact) {
            if (exact ? traced != counted : traced > counted)
            {
                err << what << ": " << name << ": traces " << traced << (exact ? " != " : " > ")
                    << "NIC counters " << counted << "; ";
            }
        };
        expect("data sent", Sent(Kind::DATA), nicSent, true);
        expect("data received",
               Received(Kind::DATA),
               nicDelivered / kPayload + nicDuplicates,
               true);
        expect("NAKs sent", Sent(Kind::NAK), nicNaks, nicsIdle);
        expect("CNPs sent", Sent(Kind::CNP), nicCnpsSent, nicsIdle);
        expect("CNPs received", Received(Kind::CNP), nicCnpsReceived, true);
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            PfcDropReason reason = static_cast<PfcDropReason>(r);
            uint64_t traced = 0;
            for (std::size_t k = 0; k < kKinds; ++k)
            {
                traced += m_dropped[k][r];
            }
            if (traced != PfcStatsHelper(m_net).GetDropCount(reason))
            {
                err << what << ": " << reason << " drops traced " << traced
                    << " != PfcTopologyHelper::GetDropCount "
                    << PfcStatsHelper(m_net).GetDropCount(reason) << "; ";
            }
        }
        return err.str();
    }

  private:
    /// \param k kind \return its index
    static std::size_t Index(Kind k)
    {
        return static_cast<std::size_t>(k);
    }

    /// MacTx of a host device. \param frame the frame
    void HostTx(Ptr<const Packet> frame)
    {
        ++m_sent[Index(ParseFrame(frame).kind)];
    }

    /// MacRx of a host device. \param packet the IPv4 packet
    void HostRx(Ptr<const Packet> packet)
    {
        FrameInfo info = ParseFrame(packet);
        ++m_received[Index(info.kind)];
        m_receivedUntagged += info.kind == Kind::DATA && info.dscp == kLossyTag ? 1 : 0;
    }

    /**
     * The kind of a frame on a wire: data frames are the only ones of
     * kDataFrame bytes (every flow is a multiple of 1000 B; control frames
     * are 60 to 74 B), so only the others are parsed.
     * \param frame the frame (Ethernet header on) \return its kind
     */
    static Kind WireKind(Ptr<const Packet> frame)
    {
        return frame->GetSize() == kDataFrame ? Kind::DATA : ParseFrame(frame).kind;
    }

    /// A frame began on a wire. \param frame the frame
    void WireBegin(Ptr<const Packet> frame)
    {
        ++m_wire[Index(WireKind(frame))];
    }

    /// A frame left a wire (arrived, or lost as the link went down). \param frame the frame
    void WireEnd(Ptr<const Packet> frame)
    {
        --m_wire[Index(WireKind(frame))];
    }

    /// Drop of a host device. \param frame the frame \param reason why
    void HostDrop(Ptr<const Packet> frame, PfcDropReason reason)
    {
        Count(frame, reason);
    }

    /// Drop of a switch. \param frame the frame \param inPort port \param reason why
    void SwitchDrop(Ptr<const Packet> frame, uint32_t inPort, PfcDropReason reason)
    {
        Count(frame, reason);
    }

    /// Count a drop. \param frame the frame \param reason why
    void Count(Ptr<const Packet> frame, PfcDropReason reason)
    {
        FrameInfo info = ParseFrame(frame);
        ++m_dropped[Index(info.kind)][static_cast<std::size_t>(reason)];
        if (info.dscp != kLossyTag)
        {
            ++m_taggedDrops[static_cast<std::size_t>(reason)];
        }
    }

    const PfcTopologyHelper& m_net;                                      //!< the network
    std::array<uint64_t, kKinds> m_sent;                                 //!< per kind
    std::array<uint64_t, kKinds> m_received;                             //!< per kind
    std::array<std::array<uint64_t, kPfcDropReasons>, kKinds> m_dropped; //!< [kind][reason]
    std::array<uint64_t, kKinds> m_queued;                               //!< per kind
    std::array<int64_t, kKinds> m_wire;                                  //!< per kind
    std::array<uint64_t, kPfcDropReasons> m_taggedDrops{}; //!< drops with DSCP != 0, per reason
    uint64_t m_receivedUntagged = 0;                       //!< data received with DSCP 0
};

// ---------------------------------------------------------------------------
// 1. The classifiers hold the library's rules
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Every switch's TaggerClassifier answers like the library's TagRules, for
 * every (tag 0..7, in port, out port) of a k = 4 fat tree, with the Clos
 * rules (shortest + 1-bounce, TaggerHelper::ComputeRules) and with the greedy
 * rules of all shortest paths (TagGreedy).
 */
class ClassifierMatchesRulesTestCase : public TestCase
{
  public:
    ClassifierMatchesRulesTestCase()
        : TestCase("Tagger: every switch classifier equals the library rules (k=4 fat tree, "
                   "Clos 1-bounce and greedy rules, all tags and port pairs)")
    {
    }

  private:
    /// Result counts of one comparison.
    struct Counts
    {
        uint64_t checked = 0;                 //!< (switch, tag, in, out) compared
        uint64_t mismatches = 0;              //!< differences
        std::map<uint8_t, uint64_t> byNewTag; //!< lookups per new tag (0 included)
    };

    /**
     * Install \p rules on a fresh fat tree and compare every lookup.
     * \param topo the topology \param rules its rules \param what name for messages
     * \return the counts
     */
    Counts Compare(const tagger::Topology& topo,
                   const tagger::TagRules& rules,
                   const std::string& what)
    {
        Counts c;
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        TaggerHelper tagger;
        tagger.Install(net, rules);
        for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
        {
            if (topo.IsHost(v))
            {
                continue;
            }
            Ptr<TaggerClassifier> cls = tagger.GetClassifier(v);
            NS_TEST_EXPECT_MSG_EQ(bool(cls),
                                  true,
                                  what << ": no classifier on " << topo.GetNode(v).name);
            if (!cls)
            {
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(net.GetSwitch(v)->GetClassifier(),
                                  Ptr<PfcClassifier>(cls),
                                  what << ": the switch does not use the installed classifier");
            const uint32_t ports = topo.GetNode(v).ports;
            for (uint8_t tag = 0; tag < kPfcClasses; ++tag)
            {
                for (tagger::PortNo in = 0; in < ports; ++in)
                {
                    if (topo.GetPeer(v, in).node == tagger::kNone)
                    {
                        continue;
                    }
                    for (tagger::PortNo out = 0; out < ports; ++out)
                    {
                        if (topo.GetPeer(v, out).node == tagger::kNone)
                        {
                            continue;
                        }
                        uint8_t got =
                            cls->Lookup(tag, net.GetSwitchPort(v, in), net.GetSwitchPort(v, out));
                        uint8_t want = rules.Get(v, tag, in, out);
                        ++c.checked;
                        ++c.byNewTag[got];
                        if (got != want)
                        {
                            ++c.mismatches;
                            NS_TEST_EXPECT_MSG_EQ(int(got),
                                                  int(want),
                                                  what << ": " << topo.GetNode(v).name << " tag "
                                                       << int(tag) << " in " << in << " out "
                                                       << out);
                        }
                    }
                }
            }
        }
        Simulator::Destroy();
        return c;
    }

    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeFatTree(4);
        // 8 ToRs, 8 aggregation switches, 4 cores with 4 connected ports each:
        // 20 switches x 8 tags x 4 in ports x 4 out ports = 2560 lookups.
        const uint64_t lookups = 20 * 8 * 4 * 4;

        tagger::TagRules clos = TaggerHelper::ComputeRules(topo, 1);
        Counts c = Compare(topo, clos, "Clos 1-bounce");
        NS_TEST_ASSERT_MSG_EQ(c.checked, lookups, "Clos: lookups");
        NS_TEST_EXPECT_MSG_EQ(c.mismatches, 0, "Clos: classifier != rules");
        // By hand (TagClos, 1 bounce, 2 tags; in != out only, so the 4
        // (in == in) pairs of each switch and tag are lossy):
        //  ToR: hosts on ports 0-1, aggregations on 2-3.  Bounces (from an
        //   aggregation back up to the other one): 2 transitions, rule 1 -> 2
        //   only; the other 12 - 2 = 10 transitions keep tags 1 and 2.
        //  Aggregation: ToRs on 0-1, cores on 2-3: the same, 2 bounces + 10.
        //  Core: every port goes down, 12 transitions keep tags 1 and 2.
        //  Tag 2 results: (10 + 2) per ToR or aggregation, 12 per core:
        //   16 * 12 + 4 * 12 = 240.  Tag 1 results: 10 per ToR or aggregation,
        //   12 per core: 16 * 10 + 4 * 12 = 208.  Everything else is lossy:
        //   2560 - 240 - 208 = 2112.
        NS_TEST_EXPECT_MSG_EQ(c.byNewTag[2], 240, "Clos: lookups giving tag 2");
        NS_TEST_EXPECT_MSG_EQ(c.byNewTag[1], 208, "Clos: lookups giving tag 1");
        NS_TEST_EXPECT_MSG_EQ(c.byNewTag[0], 2112, "Clos: lookups giving the lossy tag");

        tagger::Elp elp = tagger::MakeShortestPathElp(topo);
        tagger::TagRules greedy = tagger::TagGreedy(elp.graph);
        Counts g = Compare(topo, greedy, "greedy shortest paths");
        NS_TEST_ASSERT_MSG_EQ(g.checked, lookups, "greedy: lookups");
        NS_TEST_EXPECT_MSG_EQ(g.mismatches, 0, "greedy: classifier != rules");
        // By hand: shortest paths in a fat tree never bounce, so one tag
        // suffices and every transition on a shortest path keeps tag 1:
        //  ToR: host -> other host (2), host -> aggregation (2 x 2), aggregation
        //   -> host (2 x 2): 10.  Aggregation: ToR -> other ToR (2), ToR -> core
        //   (4), core -> ToR (4): 10.  Core: aggregation -> aggregation of
        //   another pod: 4 x 3 = 12.  8 * 10 + 8 * 10 + 4 * 12 = 208 with tag
        //   1, the other 2560 - 208 = 2352 lookups lossy.
        NS_TEST_EXPECT_MSG_EQ(greedy.GetLosslessTags(), 1, "greedy: lossless tags");
        NS_TEST_EXPECT_MSG_EQ(g.byNewTag[1], 208, "greedy: lookups giving tag 1");
        NS_TEST_EXPECT_MSG_EQ(g.byNewTag[0], 2352, "greedy: lookups giving the lossy tag");
    }
};

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

// ---------------------------------------------------------------------------
// 3. Fuzz: random failures and flows on a fat tree
// ---------------------------------------------------------------------------

/// The fuzz's data planes (DataplaneFuzzMode) as they appear in messages.
const char* const kFuzzModeNames[] = {"tagger", "ttl", "pfc"};

/// One random link failure.
struct FuzzFailure
{
    std::string a; //!< one end (switch name)
    std::string b; //!< the other end (switch name)
    Time at;       //!< when
};

/// One random flow.
struct FuzzFlow
{
    uint32_t src;   //!< sending host
    uint32_t dst;   //!< receiving host
    uint64_t bytes; //!< size (a multiple of 1000 B)
    Time start;     //!< start time
};

/// One seeded scenario, the same for every mode.
struct FuzzScenario
{
    uint32_t run = 0;                  //!< RngSeedManager run number
    std::vector<FuzzFailure> failures; //!< in time order
    std::vector<FuzzFlow> flows;       //!< random flows, then the incast
    uint32_t incastDst = 0;            //!< the incast's receiver
    uint32_t routeSwitches = 0;        //!< longest route over every FIB state (switches)
    bool routeLoop = false;            //!< some FIB state has a forwarding loop
};

/// Totals over the runs of one mode.
struct FuzzTotals
{
    uint32_t runs = 0;            //!< runs
    uint32_t deadlocks = 0;       //!< runs that deadlocked (oracle or undrained)
    uint32_t oracleDeadlocks = 0; //!< runs whose oracle saw a cycle
    uint32_t undrained = 0;       //!< runs with lossless bytes after the drain
    uint64_t dataSent = 0;        //!< data packets sent
    uint64_t dataDelivered = 0;   //!< data packets delivered in order
    uint64_t flowsDone = 0;       //!< flows acknowledged in full
    uint64_t flows = 0;           //!< flows
    std::array<uint64_t, kPfcDropReasons> dataDrops{}; //!< data drops per reason
    std::array<uint64_t, kPfcDropReasons> ctrlDrops{}; //!< ACK/NAK/CNP drops per reason
    uint64_t pauses = 0;                               //!< PAUSE decisions
    uint64_t stuck = 0;                                //!< frames queued or on a wire at the end
    uint64_t deliveredUntagged = 0;                    //!< data packets delivered with DSCP 0
    uint64_t taggedTtlDrops = 0;                       //!< TTL expiries of packets with DSCP != 0
    uint32_t extended = 0; //!< runs that needed time after the drain test
    Time maxExtra;         //!< the most time needed after it
};

/// Time the senders stop (the drain test begins).
const Time kFuzzStop = MilliSeconds(2);
/// End of a run: the senders have been stopped for 2 ms.
const Time kFuzzEnd = MilliSeconds(4);

/**
 * \ingroup tagger-tests
 * The fuzz: for each run number, a random scenario on a k = 4 fat tree
 * (Draw), played in one of three modes with the settings of
 * tagger-clos-bounce (40 Gbps, 1 us, DWRR, static Xoff 50 KB / Xon 5 KB, no
 * DCQCN):
 *
 *  - Tagger, the Clos rules for shortest + 1-bounce paths (2 lossless tags),
 *    hosts sending tag 1 with TTL 64;
 *  - TTL priorities, Ttl0 from the routes (MeasureRoutes: 9, the most 8
 *    classes allow, when a forwarding loop can form), hosts sending DSCP 0;
 *  - plain PFC, DSCP 24 (class 3).
 *
 * The senders stop at 2 ms (RdmaNic::StopFlows); at 4 ms the drain test
 * looks for lossless bytes still buffered.  Tagger and TTL: no deadlock
 * (oracle, drain test), no LOSSLESS_OVERFLOW, Tagger's lossy drops and TTL
 * expiries only for packets with the lossy tag, no lossy drop with TTL, and
 * every packet accounted for (Census) at the drain test and once the network
 * is empty.  All modes: the accounting identity (stuck frames are queued),
 * and no lossless drop (PFC does not drop, it deadlocks).  Plain PFC must
 * deadlock in at least one run: the scenarios are the same in every mode,
 * so that shows they are hard enough for the other two.  One test case per
 * mode, each in the suite of its data plane (MakeDataplaneFuzzTestCase):
 * tagger-classifier, tagger-ttl and tagger-pfc-switch.
 * NS_LOG=TaggerDataplaneTest=info prints each run and the mode's totals.
 */
class DataplaneFuzzTestCase : public TestCase
{
  public:
    /**
     * \param firstRun first RngSeedManager run number \param runs number of runs
     * \param mode the data plane to play
     */
    DataplaneFuzzTestCase(uint32_t firstRun, uint32_t runs, DataplaneFuzzMode mode)
        : TestCase(Name(runs, mode)),
          m_firstRun(firstRun),
          m_runs(runs),
          m_mode(mode)
    {
    }

  private:
    /**
     * \param runs number of runs \param mode the data plane
     * \return the test case's name
     */
    static std::string Name(uint32_t runs, DataplaneFuzzMode mode)
    {
        const std::string plane = mode == DataplaneFuzzMode::TAGGER ? "Tagger"
                                  : mode == DataplaneFuzzMode::TTL  ? "TTL"
                                                                    : "Plain PFC";
        const std::string expected = mode == DataplaneFuzzMode::PFC
                                         ? "deadlocks in some runs, never drops lossless packets"
                                         : "never deadlocks nor drops lossless packets";
        return plane + " fuzz on a k=4 fat tree: " + std::to_string(runs) +
               " seeded runs of random link failures (local reroute), random RoCE flows and an "
               "incast; " +
               expected + ", every packet accounted for";
    }

    /**
     * Draw the scenario of run \p run.
     *
     * Failures: 1 to 3 distinct switch-switch links (of the 32: 16 ToR -
     * aggregation, 16 aggregation - core), each at a random time in
     * [100 us, 1500 us).  Flows: 16 to 32 flows between random distinct
     * hosts, 50 to 500 packets of 1000 B, starting in [10 us, 1000 us); an
     * incast of 4 to 8 senders to one random host, 100 to 300 packets each,
     * all starting at one random time in [100 us, 800 us).
     * \param topo the fat tree \param run the run number \return the scenario
     */
    FuzzScenario Draw(const tagger::Topology& topo, uint32_t run)
    {
        FuzzScenario s;
        s.run = run;
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(run);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(0);
        std::vector<std::pair<std::string, std::string>> links;
        for (const tagger::TopoLink& l : topo.GetLinks())
        {
            if (!topo.IsHost(l.a.node) && !topo.IsHost(l.b.node))
            {
                links.emplace_back(topo.GetNode(l.a.node).name, topo.GetNode(l.b.node).name);
            }
        }
        uint32_t nFail = u->GetInteger(1, 3);
        for (uint32_t i = 0; i < nFail; ++i)
        {
            uint32_t k = u->GetInteger(0, links.size() - 1);
            s.failures.push_back(
                {links[k].first, links[k].second, NanoSeconds(u->GetInteger(100000, 1499999))});
            links.erase(links.begin() + k);
        }
        std::sort(s.failures.begin(),
                  s.failures.end(),
                  [](const FuzzFailure& x, const FuzzFailure& y) { return x.at < y.at; });
        const uint32_t hosts = topo.GetHosts().size();
        uint32_t nFlows = u->GetInteger(16, 32);
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            uint32_t src = u->GetInteger(0, hosts - 1);
            uint32_t dst = (src + u->GetInteger(1, hosts - 1)) % hosts;
            s.flows.push_back({src,
                               dst,
                               kPayload * u->GetInteger(50, 500),
                               NanoSeconds(u->GetInteger(10000, 999999))});
        }
        s.incastDst = u->GetInteger(0, hosts - 1);
        uint32_t nSenders = u->GetInteger(4, 8);
        Time incastStart = NanoSeconds(u->GetInteger(100000, 799999));
        std::set<uint32_t> senders;
        while (senders.size() < nSenders)
        {
            uint32_t h = u->GetInteger(0, hosts - 1);
            if (h != s.incastDst)
            {
                senders.insert(h);
            }
        }
        for (uint32_t h : senders)
        {
            s.flows.push_back({h, s.incastDst, kPayload * u->GetInteger(100, 300), incastStart});
        }
        return s;
    }

    /**
     * The routes a packet can follow: apply the failures (with the local
     * reroute's seeded choices, exactly as the runs will) on a network that
     * carries no traffic, and collect, for every destination host, every
     * next hop of every switch in any FIB state (before the first failure and
     * after each).  A packet that crosses a reroute follows next hops of
     * several states, so the union bounds every path.  Sets
     * s.routeSwitches to the most switches on a loop-free walk of the union
     * from a ToR to the destination, and s.routeLoop when the union has a
     * cycle (a packet may then loop until its TTL runs out).
     * \param topo the fat tree \param s the scenario
     */
    void MeasureRoutes(const tagger::Topology& topo, FuzzScenario& s)
    {
        RngSeedManager::SetRun(s.run);
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        net.GetRouteHelper().AssignStreams(1);
        const uint32_t n = topo.GetNNodes();
        const uint32_t hosts = net.GetNHosts();
        // next[dst host][switch] = set of next nodes
        std::vector<std::vector<std::set<tagger::NodeId>>> next(
            hosts,
            std::vector<std::set<tagger::NodeId>>(n));
        auto snapshot = [&]() {
            for (tagger::NodeId v = 0; v < n; ++v)
            {
                Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v);
                if (!sw)
                {
                    continue;
                }
                // switch port index -> topology port (the helper adds ports in port order)
                for (uint32_t h = 0; h < hosts; ++h)
                {
                    for (uint32_t sp : sw->Lookup(net.GetHostAddress(h)))
                    {
                        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
                        {
                            if (net.GetSwitchPort(v, p) == sp)
                            {
                                next[h][v].insert(topo.GetPeer(v, p).node);
                            }
                        }
                    }
                }
            }
        };
        snapshot();
        for (const FuzzFailure& f : s.failures)
        {
            net.GetRouteHelper().FailLink(f.a, f.b);
            snapshot();
        }
        Simulator::Destroy();

        std::vector<tagger::NodeId> hostIds = topo.GetHosts();
        s.routeSwitches = 0;
        s.routeLoop = false;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            // Longest walk (in switches) from v to host h; colours for cycle detection.
            std::vector<int> colour(n, 0); // 0 new, 1 on the stack, 2 done
            std::vector<uint32_t> longest(n, 0);
            std::function<uint32_t(tagger::NodeId)> visit = [&](tagger::NodeId v) -> uint32_t {
                if (colour[v] == 2)
                {
                    return longest[v];
                }
                if (colour[v] == 1)
                {
                    s.routeLoop = true;
                    return 0;
                }
                colour[v] = 1;
                uint32_t best = 1;
                for (tagger::NodeId w : next[h][v])
                {
                    if (w != tagger::kNone && !topo.IsHost(w))
                    {
                        best = std::max(best, 1 + visit(w));
                    }
                }
                colour[v] = 2;
                longest[v] = best;
                return best;
            };
            for (tagger::NodeId src : hostIds)
            {
                tagger::NodeId tor = topo.GetPeer(src, 0).node;
                if (src != hostIds[h])
                {
                    s.routeSwitches = std::max(s.routeSwitches, visit(tor));
                }
            }
        }
    }

    /**
     * Play scenario \p s in mode \p mode and check it.
     * \param topo the fat tree \param rules the Tagger rules \param s the scenario
     * \param mode the mode \param totals where to add up
     * \return whether the run deadlocked
     */
    bool Play(const tagger::Topology& topo,
              const tagger::TagRules& rules,
              const FuzzScenario& s,
              DataplaneFuzzMode mode,
              FuzzTotals& totals)
    {
        std::string what = std::string(kFuzzModeNames[static_cast<std::size_t>(mode)]) + " run " +
                           std::to_string(s.run);
        RngSeedManager::SetRun(s.run);
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        net.GetRouteHelper().AssignStreams(1);
        RdmaHelper rdma;
        rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
        uint8_t dscp = kPfcDscp;
        if (mode == DataplaneFuzzMode::TAGGER)
        {
            TaggerHelper tagger;
            tagger.Install(net, rules);
            dscp = 1; // hosts start at tag 1
        }
        else if (mode == DataplaneFuzzMode::TTL)
        {
            // Ttl0: what the routes need (MeasureRoutes), at most the 8
            // classes PFC has.  Longer walks and loops end in TTL_EXPIRED,
            // before a ninth switch would buffer them.
            uint32_t switches =
                s.routeLoop ? kPfcClasses : std::min<uint32_t>(s.routeSwitches, kPfcClasses);
            uint8_t ttl0 = TtlHelper::Ttl0ForPath(switches);
            TtlHelper::Install(net, ttl0);
            rdma.SetNicAttribute("Ttl", UintegerValue(ttl0));
            dscp = 0;
        }
        rdma.Install(net);
        Census census(net);
        for (const FuzzFailure& f : s.failures)
        {
            net.GetRouteHelper().ScheduleFailLink(f.at, f.a, f.b);
        }
        for (const FuzzFlow& f : s.flows)
        {
            rdma.AddFlow(f.src, f.dst, f.bytes, f.start, dscp);
        }
        Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
        oracle->AddSwitches(net.GetSwitches());
        oracle->Start(MicroSeconds(20), kFuzzEnd);
        Simulator::Schedule(kFuzzStop, &StopAllFlows, &rdma);
        Simulator::Stop(kFuzzEnd);
        Simulator::Run();

        // The drain test: the senders stopped 2 ms ago.  Lossless bytes that
        // are still buffered will never leave (the TTL scheme's definition).
        census.CountQueued();
        bool oracleDeadlock = oracle->HasDeadlock();
        uint64_t undrained = PfcStatsHelper(net).GetLosslessBytes();
        bool deadlock = oracleDeadlock || undrained > 0;
        // Every mode: the books balance now (frames stuck in a deadlock are
        // queued, frames circulating in a forwarding loop queued or on a wire).
        std::string accounting = census.Check(rdma, what + " at the drain test", !deadlock);
        NS_TEST_EXPECT_MSG_EQ(accounting, "", what << ": accounting");
        if (mode != DataplaneFuzzMode::PFC)
        {
            NS_TEST_EXPECT_MSG_EQ(oracleDeadlock, false, what << ": the oracle saw a deadlock");
            NS_TEST_EXPECT_MSG_EQ(undrained, 0, what << ": lossless bytes left after the drain");
            // Lossy packets caught in a forwarding loop (local reroute can
            // send a packet back where it came from) circulate until their
            // TTL (64) runs out, which at a loaded loop can take longer than
            // the drain: let them, 1 ms at a time (at most 20 ms), then every
            // packet must have been delivered or dropped.
            Time limit = Simulator::Now() + MilliSeconds(20);
            while ((census.Queued() > 0 || census.OnWire() > 0) && Simulator::Now() < limit)
            {
                Simulator::Stop(MilliSeconds(1));
                Simulator::Run();
                census.CountQueued();
            }
            Time extra = Simulator::Now() - kFuzzEnd;
            totals.maxExtra = std::max(totals.maxExtra, extra);
            totals.extended += extra.IsStrictlyPositive() ? 1 : 0;
            NS_TEST_EXPECT_MSG_EQ(census.Queued(), 0, what << ": frames never left the queues");
            NS_TEST_EXPECT_MSG_EQ(census.OnWire(), 0, what << ": frames on a wire");
            NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetLossyBytes(),
                                  0,
                                  what << ": lossy bytes left");
            NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetLosslessBytes(),
                                  0,
                                  what << ": lossless bytes left");
            accounting = census.Check(rdma, what + " at the end");
            NS_TEST_EXPECT_MSG_EQ(accounting, "", what << ": accounting at the end");
            if (mode == DataplaneFuzzMode::TAGGER)
            {
                // Lossy drops only for packets that left the ELP: a packet
                // is lossy only with the lossy tag, which only a switch
                // writes, for a transition outside the ELP (the classifier
                // test shows the switches hold exactly the rules).  Nor
                // does a packet with a lossless tag run out of TTL (64): a
                // forwarding loop in a Clos bounces (goes down, then up) at
                // least once per turn, or turns back by the port it came in
                // on, and the rules make it lossy at the second bounce or
                // at the turn; lossless packets never loop.
                NS_TEST_EXPECT_MSG_EQ(census.TaggedDrops(PfcDropReason::LOSSY_OVERFLOW),
                                      0,
                                      what << ": lossy drops of packets with a lossless tag");
                NS_TEST_EXPECT_MSG_EQ(census.TaggedDrops(PfcDropReason::TTL_EXPIRED),
                                      0,
                                      what << ": TTL expiry of packets with a lossless tag");
            }
            if (mode == DataplaneFuzzMode::TTL)
            {
                NS_TEST_EXPECT_MSG_EQ(
                    PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSY_OVERFLOW),
                    0,
                    what << ": lossy drops in TTL mode");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(census.Dropped(Kind::OTHER), 0, what << ": non-RoCE drops");
        // PFC itself loses nothing, deadlocked or not: the headroom absorbs
        // what arrives after a PAUSE (plain PFC included).
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              0,
                              what << ": lossless drops");

        ++totals.runs;
        totals.deadlocks += deadlock ? 1 : 0;
        totals.oracleDeadlocks += oracleDeadlock ? 1 : 0;
        totals.undrained += undrained > 0 ? 1 : 0;
        totals.dataSent += census.Sent(Kind::DATA);
        totals.dataDelivered += census.Received(Kind::DATA);
        totals.stuck += census.Queued() + census.OnWire();
        totals.deliveredUntagged += census.ReceivedUntagged();
        totals.taggedTtlDrops += census.TaggedDrops(PfcDropReason::TTL_EXPIRED);
        totals.pauses += PfcStatsHelper(net).GetPauseCount();
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            PfcDropReason reason = static_cast<PfcDropReason>(r);
            totals.dataDrops[r] += census.Dropped(Kind::DATA, reason);
            totals.ctrlDrops[r] += census.Dropped(Kind::ACK, reason) +
                                   census.Dropped(Kind::NAK, reason) +
                                   census.Dropped(Kind::CNP, reason);
        }
        for (const RdmaFlowRecord& r : rdma.GetFlowRecords())
        {
            ++totals.flows;
            totals.flowsDone += r.finish.IsStrictlyPositive() ? 1 : 0;
        }
        NS_LOG_INFO(
            what << ": " << (deadlock ? "DEADLOCK" : "ok") << " oracle=" << oracleDeadlock
                 << " undrained=" << undrained << " sent=" << census.Sent(Kind::DATA)
                 << " delivered=" << census.Received(Kind::DATA)
                 << " drops=" << PfcStatsHelper(net).GetDropCount() << " lossless="
                 << PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
                 << " lossy=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSY_OVERFLOW)
                 << " ttl=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::TTL_EXPIRED)
                 << " linkdown=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::LINK_DOWN)
                 << " noroute=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::NO_ROUTE)
                 << " queued=" << census.Queued() << " wire=" << census.OnWire()
                 << " end=" << Simulator::Now().As(Time::MS));
        Simulator::Destroy();
        return deadlock;
    }

    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeFatTree(4);
        tagger::TagRules rules = TaggerHelper::ComputeRules(topo, 1);
        if (m_mode == DataplaneFuzzMode::TAGGER)
        {
            NS_TEST_ASSERT_MSG_EQ(rules.GetLosslessTags(),
                                  2,
                                  "shortest + 1-bounce: 2 lossless tags");
        }
        FuzzTotals totals;
        uint32_t loops = 0;
        uint32_t longest = 0;
        for (uint32_t run = m_firstRun; run < m_firstRun + m_runs; ++run)
        {
            FuzzScenario s = Draw(topo, run);
            MeasureRoutes(topo, s);
            loops += s.routeLoop ? 1 : 0;
            if (!s.routeLoop)
            {
                longest = std::max(longest, s.routeSwitches);
            }
            Play(topo, rules, s, m_mode, totals);
        }
        RngSeedManager::SetRun(1);
        std::ostringstream os;
        os << "fuzz: " << m_runs << " runs (" << m_firstRun << ".." << m_firstRun + m_runs - 1
           << "); forwarding loops (TTL mode: Ttl0 9) in " << loops << " runs";
        if (loops < m_runs)
        {
            os << ", longest route of the others " << longest << " switches";
        }
        os << "\n";
        const FuzzTotals& t = totals;
        os << "  " << kFuzzModeNames[static_cast<std::size_t>(m_mode)] << ": deadlocks "
           << t.deadlocks << "/" << t.runs << " (oracle " << t.oracleDeadlocks << ", undrained "
           << t.undrained << "), flows done " << t.flowsDone << "/" << t.flows << ", data sent "
           << t.dataSent << " delivered " << t.dataDelivered << ", stuck at the end " << t.stuck
           << ", delivered with DSCP 0 " << t.deliveredUntagged << ", TTL expiries with DSCP != 0 "
           << t.taggedTtlDrops << ", pauses " << t.pauses
           << ", runs draining lossy loops after the "
           << "drain test " << t.extended << " (at most " << t.maxExtra.As(Time::MS) << ")"
           << "\n    data drops:";
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            os << " " << static_cast<PfcDropReason>(r) << "=" << t.dataDrops[r];
        }
        os << "\n    control drops:";
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            os << " " << static_cast<PfcDropReason>(r) << "=" << t.ctrlDrops[r];
        }
        os << "\n";
        NS_LOG_INFO(os.str());
        if (m_mode == DataplaneFuzzMode::PFC)
        {
            NS_TEST_EXPECT_MSG_GT(t.deadlocks,
                                  0,
                                  "plain PFC never deadlocked: the fuzz is too gentle\n"
                                      << os.str());
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(t.deadlocks,
                                  0,
                                  (m_mode == DataplaneFuzzMode::TAGGER ? "Tagger" : "TTL")
                                      << " deadlocked\n"
                                      << os.str());
        }
    }

    uint32_t m_firstRun;      //!< first run number
    uint32_t m_runs;          //!< runs
    DataplaneFuzzMode m_mode; //!< the data plane played
};

} // namespace

TestCase*
MakeDataplaneFuzzTestCase(DataplaneFuzzMode mode)
{
    return new DataplaneFuzzTestCase(1, 30, mode);
}

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-classifier": the Tagger data plane (TaggerClassifier
 * in the switches).
 */
class TaggerClassifierTestSuite : public TestSuite
{
  public:
    TaggerClassifierTestSuite()
        : TestSuite("tagger-classifier", UNIT)
    {
        AddTestCase(new ClassifierMatchesRulesTestCase, TestCase::QUICK);
        AddTestCase(new BouncePacketTestCase, TestCase::QUICK);
        AddTestCase(new EgressByOldTagTestCase, TestCase::QUICK);
        AddTestCase(MakeDataplaneFuzzTestCase(DataplaneFuzzMode::TAGGER), TestCase::QUICK);
        AddTestCase(MakeRulesFileInstallTestCase(), TestCase::QUICK);
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerClassifierTestSuite g_taggerClassifierTestSuite;
