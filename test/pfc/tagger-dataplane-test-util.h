/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Shared by the data-plane test files of the TestSuite "tagger-classifier"
 * (tagger-classifier-test-suite.cc, tagger-egress-tag-test.cc,
 * tagger-dataplane-fuzz-test.cc, whose fuzz also runs in tagger-ttl and
 * tagger-pfc-switch): the network settings of examples/tagger-clos-bounce.cc,
 * the kinds of the frames the traces see (ParseFrame), the packet accounting
 * of a whole network (Census), and the log component the files share.
 */

#ifndef TAGGER_DATAPLANE_TEST_UTIL_H
#define TAGGER_DATAPLANE_TEST_UTIL_H

#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/pfc-types.h"
#include "ns3/ptr.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/roce-header.h"
#include "ns3/string.h"
#include "ns3/tagger-topology.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

namespace ns3
{
namespace tagger
{
namespace test
{

/**
 * The log component "TaggerDataplaneTest" (NS_LOG=TaggerDataplaneTest=info)
 * of the files that log to it, tagger-egress-tag-test.cc and
 * tagger-dataplane-fuzz-test.cc.  ns-3 registers a component name once per
 * program, so instead of NS_LOG_COMPONENT_DEFINE each file binds its g_log,
 * which the NS_LOG macros use, to this one instance.
 * \return the component, registered on the first call
 */
inline LogComponent&
TaggerDataplaneTestLog()
{
    static LogComponent log("TaggerDataplaneTest", __FILE__);
    return log;
}

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
inline void
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
inline void
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
inline const char* const kKindNames[kKinds + 1] = {"data", "ack", "nak", "cnp", "other", "?"};

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
inline FrameInfo
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

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_DATAPLANE_TEST_UTIL_H */
