/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic.h"

#include "rdma-dcqcn.h"
#include "roce-header.h"
#include "roce-int-header.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
constexpr uint32_t kPsnMask = 0xffffff; //!< 24-bit PSN
constexpr uint32_t kCnpPayload = 16;    //!< reserved bytes after a CNP's BTH
/// QP number of flow 0 (InfiniBand reserves QP 0 and 1 for management).
constexpr uint32_t kQpnBase = 0x100;

/// The 32-bit sequence index nearest \p ref whose low 24 bits are \p psn24.
uint32_t
Unwrap(uint32_t ref, uint32_t psn24)
{
    int32_t delta = int32_t((psn24 - (ref & kPsnMask)) << 8) >> 8; // sign-extend 24 bits
    return uint32_t(int64_t(ref) + delta);
}
} // namespace

/// Sender state of one queue pair (one flow).
struct RdmaNic::SendQp
{
    uint32_t id = 0;          //!< flow id (QP number 256 + id on both ends)
    RdmaFlowSpec spec;        //!< what to send
    uint8_t cls = 0;          //!< device class of spec.dscp
    uint32_t packets = 0;     //!< data packets of the message
    uint32_t lastPayload = 0; //!< payload of the last packet
    uint32_t next = 0;        //!< next sequence index to send
    uint32_t una = 0;         //!< oldest unacknowledged index
    uint32_t maxSent = 0;     //!< one past the highest index ever sent
    bool started = false;     //!< StartFlow ran
    bool done = false;        //!< every packet acknowledged
    Time nextSend;            //!< rate limiter: earliest next packet
    double rc = 0;            //!< rate (bit/s), the policy's
    uint64_t window = 0;      //!< payload bytes in flight allowed by the policy (0: any)
    // RTT sampling (WantsRtt): one timed packet at a time, Karn's rule on resends
    bool timing = false;   //!< a packet is being timed
    uint32_t timedPsn = 0; //!< its sequence index
    Time timedAt;          //!< when it was sent
    // The RTO and the delayed ACK are lazy timers: restarting one moves its
    // deadline and leaves the one pending event alone (a cancelled ns-3 event
    // stays in the scheduler until its time, so cancel-and-reschedule on
    // every ACK filled the event set with one dead event per ACK).  When the
    // event runs before the deadline it schedules itself again for it.
    EventId rtoEvent;      //!< pending RTO check (at or before rtoDeadline)
    Time rtoDeadline;      //!< when the RTO fires, if armed
    bool rtoArmed = false; //!< the RTO is running
    RdmaFlowRecord record; //!< what happened
};

/// Receiver state of one queue pair.
struct RdmaNic::RecvQp
{
    Ipv4Address src;         //!< the sender
    uint16_t sport = 0;      //!< its UDP source port
    uint8_t dscp = 0;        //!< DSCP of its packets (ACKs use it too)
    uint32_t qpn = 0;        //!< the queue pair number
    uint32_t expected = 0;   //!< next in-order sequence index
    uint32_t sinceAck = 0;   //!< in-order packets since the last ACK
    EventId ackTimer;        //!< pending delayed-ACK check (at or before ackDeadline)
    Time ackDeadline;        //!< when the delayed ACK is due, if armed
    bool ackArmed = false;   //!< a delayed ACK is due
    bool nakPending = false; //!< a NAK was sent, the gap is not filled yet
    bool ceSinceAck = false; //!< data since the last ACK arrived CE-marked (EchoesEcn)
    bool hasInt = false;     //!< the last data packet carried INT (echoed by the next ACK)
    RoceIntHeader lastInt;   //!< its INT
    Time lastCnp = Time(-1); //!< last CNP sent (negative: never)
};

std::string
RdmaFlowRecord::CsvHeader()
{
    return "flow_id,src,dst,sport,dscp,bytes,start_ns,finish_ns,fct_ns,ideal_fct_ns,slowdown,"
           "packets,retransmitted,timeouts,cnps";
}

void
RdmaFlowRecord::WriteCsv(std::ostream& os, const RdmaFlowRecord& r)
{
    os << r.flowId << "," << r.src << "," << r.dst << "," << r.sport << "," << int(r.dscp) << ","
       << r.bytes << "," << r.start.GetNanoSeconds() << "," << r.finish.GetNanoSeconds() << ","
       << r.fct.GetNanoSeconds() << "," << r.idealFct.GetNanoSeconds() << "," << std::fixed
       << std::setprecision(4) << r.slowdown << std::defaultfloat << "," << r.packets << ","
       << r.retransmitted << "," << r.timeouts << "," << r.cnps;
}

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("Tagger")
            .AddConstructor<RdmaNic>()
            .AddAttribute("PayloadSize",
                          "Payload bytes per RoCEv2 data packet (the last one may be shorter).",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RdmaNic::m_payloadSize),
                          MakeUintegerChecker<uint32_t>(1, 9000))
            .AddAttribute("Ttl",
                          "IPv4 TTL of the packets this host sends (hops).",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaNic::m_ttl),
                          MakeUintegerChecker<uint8_t>(1))
            .AddAttribute("Dcqcn",
                          "With CongestionControl ns3::RdmaDcqcn (the default): DCQCN on "
                          "(true) or every flow at line rate (false); no effect on the others.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::SetDcqcn, &RdmaNic::GetDcqcn),
                          MakeBooleanChecker())
            .AddAttribute("CongestionControl",
                          "The congestion control policy, a subclass of "
                          "ns3::RdmaCongestionControl: ns3::RdmaDcqcn, ns3::RdmaHpcc, "
                          "ns3::RdmaDctcp, ns3::RdmaTimely or ns3::RdmaNoCongestionControl "
                          "(line rate).  Set before the first flow.",
                          TypeIdValue(RdmaDcqcn::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaNic::SetCongestionControlType,
                                             &RdmaNic::GetCongestionControlType),
                          MakeTypeIdChecker())
            .AddAttribute("InitialPsn",
                          "PSN of every queue pair's first packet (an RC queue pair may start "
                          "anywhere in the 24-bit range; both ends must agree).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_initialPsn),
                          MakeUintegerChecker<uint32_t>(0, 0xffffff))
            .AddAttribute("AckInterval",
                          "ACK coalescing: acknowledge every this many in-order packets "
                          "(packets; the last packet of a message is always acknowledged).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckDelay",
                          "ACK coalescing: an in-order packet is acknowledged at the latest "
                          "this long after it arrived (time).",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&RdmaNic::m_ackDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ControlDscp",
                          "DSCP of the ACKs, NAKs and CNPs this host sends as a receiver; 64 "
                          "(the default) echoes the DSCP of the data packet answered.  With "
                          "Tagger set it to the class's first tag: data arrives rewritten.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&RdmaNic::m_controlDscp),
                          MakeUintegerChecker<uint32_t>(0, 64))
            .AddAttribute("RetransmitTimeout",
                          "Go back to the oldest unacknowledged packet when no ACK progress "
                          "is seen for this long (time).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(MicroSeconds(1)))
            .AddAttribute("MaxBytesInFlight",
                          "Most payload bytes a queue pair has sent and not yet seen "
                          "acknowledged (bytes; 0: no limit).  A full window waits for an "
                          "ACK; go-back-N then resends at most this much.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaNic::m_maxInflight),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("CnpInterval",
                          "Receiver: at most one CNP per queue pair per this interval (time; "
                          "DCQCN N = 50 us).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("AlphaG",
                          "DCQCN gain g of the alpha estimate (dimensionless; 1/256).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&RdmaNic::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaTimer",
                          "DCQCN alpha update period K without CNPs (time; 55 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaNic::m_alphaTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateIncreaseTimer",
                          "DCQCN rate increase timer T (time; 55 us).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&RdmaNic::m_rateTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "DCQCN byte counter B: a rate increase event every this many bytes "
                          "sent (bytes; 10 MB).  0 turns it off: the timer alone counts the "
                          "stages (fast recovery, additive, hyper), as Mellanox NICs and the "
                          "HPCC family do.",
                          UintegerValue(10 * 1000 * 1000),
                          MakeUintegerAccessor(&RdmaNic::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoverySteps",
                          "DCQCN F: increase events of fast recovery before additive increase "
                          "(events; 5).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaNic::m_fastSteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAI",
                          "DCQCN additive increase step R_AI (bit/s; 40 Mb/s).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&RdmaNic::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("RateHAI",
                          "DCQCN hyper increase step R_HAI (bit/s; 10 R_AI by default, our "
                          "choice).",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&RdmaNic::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("RateDecreaseInterval",
                          "DCQCN: 0 (the default) cuts the rate on every CNP, as the DCQCN "
                          "paper's RP; a positive time cuts at most once per interval, on a "
                          "timer started by the first CNP, as Mellanox NICs and the HPCC "
                          "family do (their RATE_DECREASE_INTERVAL; alpha then moves on its "
                          "timer only) (time).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaNic::m_decreaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ClampTargetRate",
                          "DCQCN: every rate cut sets the target rate to the current rate "
                          "(true, the DCQCN paper's RP) or only a cut after a rate increase "
                          "event (false, Mellanox's clamp_tgt_rate=0 as the HPCC family runs it).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Lowest rate the congestion control cuts a flow to (bit/s).",
                          DataRateValue(DataRate("10Mbps")),
                          MakeDataRateAccessor(&RdmaNic::m_minRate),
                          MakeDataRateChecker())
            .AddTraceSource("FlowComplete",
                            "A flow's last byte was acknowledged (its record).",
                            MakeTraceSourceAccessor(&RdmaNic::m_flowCompleteTrace),
                            "ns3::RdmaNic::FlowRecordTracedCallback")
            .AddTraceSource("RateChange",
                            "The congestion control changed a flow's rate (flow id, bit/s).",
                            MakeTraceSourceAccessor(&RdmaNic::m_rateTrace),
                            "ns3::RdmaNic::RateTracedCallback")
            .AddTraceSource("RttSample",
                            "An RTT sample the congestion control asked for (RdmaTimely): a "
                            "data packet sent once, from its sending to the ACK that covers it "
                            "(flow id, time).",
                            MakeTraceSourceAccessor(&RdmaNic::m_rttTrace),
                            "ns3::RdmaNic::RttTracedCallback")
            .AddTraceSource("DataSent",
                            "A data packet handed to the device, first transmission or "
                            "go-back-N resend (flow id, the packet's number in the flow from "
                            "0, whether it was sent before); GetDataPacketsSent counts the "
                            "same packets.",
                            MakeTraceSourceAccessor(&RdmaNic::m_dataSentTrace),
                            "ns3::RdmaNic::DataSentTracedCallback");
    return tid;
}

uint64_t
RdmaNic::GetMaxFlowBytes()
{
    struct TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(GetTypeId().LookupAttributeByName("PayloadSize", &info));
    // Config::SetDefault (and --ns3::RdmaNic::PayloadSize) changes initialValue.
    Ptr<const UintegerValue> payload = DynamicCast<const UintegerValue>(info.initialValue);
    NS_ABORT_UNLESS(payload);
    return kMaxFlowPackets * payload->Get();
}

RdmaNic::RdmaNic()
    : m_payloadSize(1000),
      m_ttl(64),
      m_dcqcn(true),
      m_ccType(RdmaDcqcn::GetTypeId()),
      m_initialPsn(0),
      m_ackInterval(4),
      m_ackDelay(MicroSeconds(10)),
      m_controlDscp(64),
      m_rto(MilliSeconds(1)),
      m_maxInflight(0),
      m_cnpInterval(MicroSeconds(50)),
      m_g(1.0 / 256),
      m_alphaTimer(MicroSeconds(55)),
      m_rateTimer(MicroSeconds(55)),
      m_byteCounter(10 * 1000 * 1000),
      m_fastSteps(5),
      m_clampTargetRate(true),
      m_decreaseInterval(0),
      m_rai("40Mbps"),
      m_rhai("400Mbps"),
      m_minRate("10Mbps"),
      m_lineRate(0),
      m_rrNext(0),
      m_nextSport(49152),
      m_dataSent(0),
      m_retransmitted(0),
      m_timeouts(0),
      m_cnpsSent(0),
      m_cnpsReceived(0),
      m_ecnEchoes(0),
      m_naksSent(0),
      m_delivered(0),
      m_duplicates(0),
      m_deliveredPackets(0)
{
}

RdmaNic::~RdmaNic()
{
    for (SendQp* qp : m_send)
    {
        delete qp;
    }
    for (auto& kv : m_recv)
    {
        delete kv.second;
    }
}

void
RdmaNic::DoDispose()
{
    for (SendQp* qp : m_send)
    {
        qp->rtoEvent.Cancel();
    }
    if (m_cc)
    {
        m_cc->Dispose();
        m_cc = nullptr;
    }
    for (auto& kv : m_recv)
    {
        kv.second->ackTimer.Cancel();
    }
    m_wake.Cancel();
    if (m_device)
    {
        m_device->SetTransmitSource(PfcNetDevice::TransmitSourceCallback());
        m_device->SetReceiveHook(PfcNetDevice::ReceiveHookCallback());
    }
    if (m_relay)
    {
        m_relay->SetTransmitSource(PfcNetDevice::TransmitSourceCallback());
        m_relay->SetReceiveHook(PfcNetDevice::ReceiveHookCallback());
    }
    if (m_rxBuffer)
    {
        m_rxBuffer->Dispose();
        m_rxBuffer = nullptr;
    }
    m_device = nullptr;
    m_relay = nullptr;
    m_control.clear();
    Object::DoDispose();
}

void
RdmaNic::Attach(Ptr<PfcNetDevice> device, Ipv4Address local)
{
    NS_ABORT_MSG_IF(!device || device->IsSwitchPort(),
                    "RdmaNic::Attach: the device must be a host PfcNetDevice");
    NS_ABORT_MSG_IF(m_device || m_relay, "RdmaNic::Attach: already attached");
    m_lineRate = double(device->GetDataRate().GetBitRate());
    CreateCongestionControl();
    if (m_payloadSize + GetDataHeaderBytes() > device->GetMtu())
    {
        PfcConfigurationError(
            "RdmaNic: PayloadSize " + std::to_string(m_payloadSize) + " + " +
            std::to_string(GetDataHeaderBytes()) +
            " header bytes exceed the Mtu of the host's device, " +
            std::to_string(device->GetMtu()) +
            " B: lower ns3::RdmaNic::PayloadSize or raise ns3::PfcNetDevice::Mtu");
    }
    m_device = device;
    m_local = local;
    device->SetTransmitSource(MakeCallback(&RdmaNic::PullPacket, this));
    device->SetReceiveHook(MakeCallback(&RdmaNic::ReceivePacket, this));
    if (m_rxBuffer)
    {
        m_rxBuffer->Attach(device, MakeCallback(&RdmaNic::ReceivePacket, this));
    }
}

void
RdmaNic::SetRxBuffer(Ptr<RdmaRxBuffer> buffer)
{
    NS_ABORT_MSG_IF(m_relay, "RdmaNic::SetRxBuffer: host devices only, not relay servers");
    m_rxBuffer = buffer;
    if (m_device)
    {
        buffer->Attach(m_device, MakeCallback(&RdmaNic::ReceivePacket, this));
    }
}

Ptr<RdmaRxBuffer>
RdmaNic::GetRxBuffer() const
{
    return m_rxBuffer;
}

void
RdmaNic::Attach(Ptr<PfcSwitchNetDevice> relay, Ipv4Address local)
{
    NS_ABORT_MSG_IF(!relay || relay->GetNPorts() == 0,
                    "RdmaNic::Attach: the relay server's switch device has no port");
    NS_ABORT_MSG_IF(!relay->IsLocalAddress(local),
                    "RdmaNic::Attach: " << local << " is not a local address of the relay server");
    NS_ABORT_MSG_IF(m_device || m_relay, "RdmaNic::Attach: already attached");
    m_relay = relay;
    m_local = local;
    m_lineRate = 0;
    for (uint32_t p = 0; p < relay->GetNPorts(); ++p)
    {
        m_lineRate = std::max(m_lineRate, double(relay->GetPort(p)->GetDataRate().GetBitRate()));
    }
    CreateCongestionControl();
    relay->SetTransmitSource(MakeCallback(&RdmaNic::PullPacket, this));
    relay->SetReceiveHook(MakeCallback(&RdmaNic::ReceivePacket, this));
}

void
RdmaNic::NotifyDevice()
{
    if (m_device)
    {
        m_device->NotifySourceReady();
    }
    else
    {
        m_relay->NotifySourceReady();
    }
}

uint8_t
RdmaNic::ClassOfDscp(uint8_t dscp) const
{
    return m_device ? m_device->GetClassOfDscp(dscp) : m_relay->GetClassOfDscp(dscp);
}

double
RdmaNic::WireBits(uint32_t bytes) const
{
    return 8.0 * EthernetWireBytes(bytes + kEthernetHeaderSize);
}

uint32_t
RdmaNic::AddFlow(const RdmaFlowSpec& spec)
{
    NS_ABORT_MSG_IF(!m_device && !m_relay, "RdmaNic::AddFlow: the NIC is not attached to a device");
    NS_ABORT_MSG_IF(spec.bytes == 0, "RdmaNic::AddFlow: a flow of 0 bytes");
    NS_ABORT_MSG_IF(spec.dscp > 63, "RdmaNic::AddFlow: DSCP " << int(spec.dscp) << " > 63");
    NS_ABORT_MSG_IF(spec.dst == m_local,
                    "RdmaNic::AddFlow: a flow from " << m_local << " to itself");
    NS_ABORT_MSG_IF(spec.start < Simulator::Now(),
                    "RdmaNic::AddFlow: start time " << spec.start.As(Time::US)
                                                    << " is in the past");
    SendQp* qp = new SendQp;
    qp->id = m_send.size();
    NS_ABORT_MSG_IF(qp->id + kQpnBase > kPsnMask,
                    "RdmaNic::AddFlow: more than 2^24 - 256 flows on one NIC");
    qp->spec = spec;
    qp->spec.sport = spec.sport != 0 ? spec.sport : m_nextSport++;
    if (m_nextSport == 0)
    {
        m_nextSport = 49152;
    }
    qp->cls = ClassOfDscp(spec.dscp);
    uint64_t packets = (spec.bytes + m_payloadSize - 1) / m_payloadSize;
    NS_ABORT_MSG_IF(packets > kMaxFlowPackets,
                    "RdmaNic::AddFlow: a flow of " << spec.bytes << " bytes needs " << packets
                                                   << " packets of " << m_payloadSize
                                                   << " bytes, more than the " << kMaxFlowPackets
                                                   << " a flow may have (GetMaxFlowBytes)");
    qp->packets = uint32_t(packets);
    qp->lastPayload = uint32_t(spec.bytes - (packets - 1) * m_payloadSize);
    qp->rc = m_lineRate;
    RdmaFlowRecord& r = qp->record;
    r.flowId = qp->id;
    r.src = m_local;
    r.dst = spec.dst;
    r.sport = qp->spec.sport;
    r.dscp = spec.dscp;
    r.bytes = spec.bytes;
    r.start = spec.start;
    r.packets = qp->packets;
    r.idealFct = spec.idealFct.IsStrictlyPositive() ? spec.idealFct : IdealFct(*qp);
    m_send.push_back(qp);
    m_cc->FlowAdded(qp->id);
    // In a distributed run (MPI) every rank holds every NIC; only the rank
    // of the NIC's node starts its flows (the others keep the record unstarted).
    if (GetNode()->GetSystemId() == Simulator::GetSystemId())
    {
        Simulator::Schedule(spec.start - Simulator::Now(), &RdmaNic::StartFlow, this, qp->id);
    }
    return qp->id;
}

Ptr<Node>
RdmaNic::GetNode() const
{
    return m_device ? m_device->GetNode() : (m_relay ? m_relay->GetNode() : nullptr);
}

Time
RdmaNic::IdealFct(const SendQp& qp) const
{
    double bits = (qp.packets - 1) * WireBits(m_payloadSize + GetDataHeaderBytes()) +
                  WireBits(qp.lastPayload + GetDataHeaderBytes());
    return Seconds(bits / m_lineRate);
}

void
RdmaNic::StartFlow(uint32_t flowId)
{
    SendQp& qp = *m_send[flowId];
    if (qp.done)
    {
        return; // stopped before it started
    }
    qp.started = true;
    qp.nextSend = Simulator::Now();
    auto at = std::lower_bound(m_activeQps.begin(),
                               m_activeQps.end(),
                               qp.id,
                               [](const SendQp* q, uint32_t id) { return q->id < id; });
    m_activeQps.insert(at, &qp);
    m_cc->FlowStarted(qp.id);
    NotifyDevice();
}

// ---------------------------------------------------------------------------
// Sending
// ---------------------------------------------------------------------------

Ptr<Packet>
RdmaNic::BuildData(SendQp& qp, uint32_t psn)
{
    bool last = psn + 1 == qp.packets;
    uint32_t payload = last ? qp.lastPayload : m_payloadSize;
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddTrailer(RoceIcrcTrailer());
    RoceBthHeader bth;
    if (qp.packets == 1)
    {
        bth.SetOpcode(RoceBthHeader::RC_SEND_ONLY);
    }
    else if (psn == 0)
    {
        bth.SetOpcode(RoceBthHeader::RC_SEND_FIRST);
    }
    else
    {
        bth.SetOpcode(last ? RoceBthHeader::RC_SEND_LAST : RoceBthHeader::RC_SEND_MIDDLE);
    }
    bth.SetDestQp(qp.id + kQpnBase);
    bth.SetPsn((psn + m_initialPsn) & kPsnMask);
    bth.SetAckRequest(last);
    if (m_wantsInt)
    {
        p->AddHeader(RoceIntHeader()); // the switches fill it in
        bth.SetInt(true);
    }
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(qp.spec.sport);
    udp.SetDestinationPort(kRoceUdpPort);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(m_local);
    ip.SetDestination(qp.spec.dst);
    ip.SetProtocol(17);
    ip.SetTtl(m_ttl);
    ip.SetDscp(Ipv4Header::DscpType(qp.spec.dscp));
    ip.SetEcn(Ipv4Header::ECN_ECT0);
    ip.SetPayloadSize(p->GetSize());
    ip.SetIdentification(uint16_t(psn));
    if (Node::ChecksumEnabled())
    {
        ip.EnableChecksum();
    }
    p->AddHeader(ip);
    return p;
}

void
RdmaNic::QueueControl(Ipv4Address dst,
                      uint16_t sport,
                      uint8_t dscp,
                      uint8_t opcode,
                      uint32_t destQp,
                      uint32_t psn,
                      uint8_t syndrome,
                      bool becn,
                      const RoceIntHeader* echo)
{
    Ptr<Packet> p = Create<Packet>(opcode == RoceBthHeader::CNP ? kCnpPayload : 0);
    p->AddTrailer(RoceIcrcTrailer());
    if (echo)
    {
        p->AddHeader(*echo);
    }
    if (opcode == RoceBthHeader::RC_ACK)
    {
        RoceAethHeader aeth;
        aeth.SetSyndrome(syndrome);
        p->AddHeader(aeth);
    }
    RoceBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(destQp);
    bth.SetPsn((opcode == RoceBthHeader::CNP ? psn : psn + m_initialPsn) & kPsnMask);
    if (opcode == RoceBthHeader::CNP || becn)
    {
        bth.SetBecn(true);
    }
    bth.SetInt(echo != nullptr);
    p->AddHeader(bth);
    UdpHeader udp;
    udp.SetSourcePort(sport);
    udp.SetDestinationPort(kRoceUdpPort);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(m_local);
    ip.SetDestination(dst);
    ip.SetProtocol(17);
    ip.SetTtl(m_ttl);
    ip.SetDscp(Ipv4Header::DscpType(dscp));
    ip.SetPayloadSize(p->GetSize());
    if (Node::ChecksumEnabled())
    {
        ip.EnableChecksum();
    }
    p->AddHeader(ip);
    m_control.emplace_back(p, ClassOfDscp(dscp));
    NotifyDevice();
}

Ptr<Packet>
RdmaNic::PullPacket(uint8_t pausedMask)
{
    // Control packets first, in order, skipping paused classes.
    for (auto it = m_control.begin(); it != m_control.end(); ++it)
    {
        if (!(pausedMask & (1u << it->second)))
        {
            Ptr<Packet> p = it->first;
            m_control.erase(it);
            return p;
        }
    }
    // Data: round robin over the started, unfinished queue pairs (kept in
    // flow id order), from the first one at or after m_rrNext.
    Time now = Simulator::Now();
    Time earliest = Time::Max();
    uint32_t n = m_activeQps.size();
    uint32_t first = std::lower_bound(m_activeQps.begin(),
                                      m_activeQps.end(),
                                      m_rrNext,
                                      [](const SendQp* qp, uint32_t id) { return qp->id < id; }) -
                     m_activeQps.begin();
    for (uint32_t k = 0; k < n; ++k)
    {
        SendQp& qp = *m_activeQps[(first + k) % n];
        if (qp.next >= qp.packets || (pausedMask & (1u << qp.cls)))
        {
            continue;
        }
        if (WindowFull(qp))
        {
            continue; // an ACK opens it (OnAck)
        }
        if (qp.nextSend > now)
        {
            earliest = std::min(earliest, qp.nextSend);
            continue;
        }
        uint32_t psn = qp.next++;
        Ptr<Packet> p = BuildData(qp, psn);
        ++m_dataSent;
        const bool resent = psn < qp.maxSent;
        if (resent)
        {
            ++m_retransmitted;
            ++qp.record.retransmitted;
        }
        qp.maxSent = std::max(qp.maxSent, psn + 1);
        double bits = WireBits(p->GetSize());
        qp.nextSend = now + Seconds(bits / qp.rc);
        if (!qp.rtoArmed)
        {
            RestartRto(qp);
        }
        if (m_wantsRtt && !qp.timing)
        {
            qp.timing = psn + 1 == qp.maxSent; // a first transmission only (Karn)
            qp.timedPsn = psn;
            qp.timedAt = now;
        }
        m_cc->PacketSent(qp.id, p->GetSize());
        m_dataSentTrace(qp.id, psn, resent);
        m_rrNext = qp.id + 1;
        return p;
    }
    if (earliest != Time::Max())
    {
        ScheduleWake(earliest);
    }
    return nullptr;
}

bool
RdmaNic::WindowFull(const SendQp& qp) const
{
    uint32_t inFlight = qp.next - qp.una;
    return inFlight >= kMaxPacketsInFlight ||
           (m_maxInflight > 0 && uint64_t(inFlight) * m_payloadSize >= m_maxInflight) ||
           (qp.window > 0 && uint64_t(inFlight) * m_payloadSize >= qp.window);
}

void
RdmaNic::ScheduleWake(Time at)
{
    if (!m_wake.IsExpired() && m_wakeAt <= at)
    {
        return;
    }
    m_wake.Cancel();
    m_wakeAt = at;
    m_wake = Simulator::Schedule(at - Simulator::Now(), &RdmaNic::Wake, this);
}

void
RdmaNic::Wake()
{
    NotifyDevice();
}

void
RdmaNic::RestartRto(SendQp& qp)
{
    qp.rtoArmed = true;
    qp.rtoDeadline = Simulator::Now() + m_rto;
    if (qp.rtoEvent.IsExpired())
    {
        qp.rtoEvent = Simulator::Schedule(m_rto, &RdmaNic::RetransmitTimeout, this, qp.id);
    }
}

void
RdmaNic::RetransmitTimeout(uint32_t flowId)
{
    SendQp& qp = *m_send[flowId];
    if (!qp.rtoArmed)
    {
        return;
    }
    if (Simulator::Now() < qp.rtoDeadline)
    {
        qp.rtoEvent = Simulator::Schedule(qp.rtoDeadline - Simulator::Now(),
                                          &RdmaNic::RetransmitTimeout,
                                          this,
                                          flowId);
        return;
    }
    qp.rtoArmed = false; // expired (RestartRto below arms it again)
    if (qp.done || qp.una >= qp.maxSent)
    {
        return;
    }
    NS_LOG_LOGIC("flow " << flowId << " RTO: back to " << qp.una << " from " << qp.next);
    ++m_timeouts;
    ++qp.record.timeouts;
    qp.next = qp.una;
    qp.timing = false; // Karn: what is resent is not timed
    RestartRto(qp);
    NotifyDevice();
}

// ---------------------------------------------------------------------------
// Receiving
// ---------------------------------------------------------------------------

bool
RdmaNic::IsRoceForUs(const Ptr<Packet>& packet) const
{
    // The raw bytes of the IPv4 and UDP headers, read without taking them off.
    uint8_t b[64];
    uint32_t n = packet->CopyData(b, sizeof(b));
    uint32_t ihl = n > 0 ? (b[0] & 0x0f) * 4u : 0;
    if (n < 20 || (b[0] >> 4) != 4 || ihl < 20 || n < ihl + 4 || b[9] != 17)
    {
        return false;
    }
    uint32_t dst = uint32_t(b[16]) << 24 | uint32_t(b[17]) << 16 | uint32_t(b[18]) << 8 | b[19];
    return dst == m_local.Get() && (uint16_t(b[ihl + 2]) << 8 | b[ihl + 3]) == kRoceUdpPort;
}

bool
RdmaNic::ReceivePacket(Ptr<Packet> packet)
{
    if (!IsRoceForUs(packet))
    {
        return false;
    }
    // Ours: the headers come off the packet itself (no copy).
    const Ptr<Packet>& p = packet;
    Ipv4Header ip;
    p->RemoveHeader(ip);
    UdpHeader udp;
    p->RemoveHeader(udp);
    RoceBthHeader bth;
    p->RemoveHeader(bth);
    uint8_t opcode = bth.GetOpcode();
    if (opcode == RoceBthHeader::RC_ACK || opcode == RoceBthHeader::CNP)
    {
        uint32_t id = bth.GetDestQp() - kQpnBase; // wraps to a large value below the base
        if (id >= m_send.size() || m_send[id]->spec.dst != ip.GetSource())
        {
            NS_LOG_LOGIC("control packet for unknown QP " << id);
            return true;
        }
        if (opcode == RoceBthHeader::CNP)
        {
            OnCnp(*m_send[id]);
        }
        else
        {
            RoceAethHeader aeth;
            p->RemoveHeader(aeth);
            m_ecnEchoes += bth.GetBecn() ? 1 : 0;
            RoceIntHeader telemetry;
            if (bth.GetInt())
            {
                p->RemoveHeader(telemetry);
            }
            OnAck(*m_send[id],
                  (bth.GetPsn() - m_initialPsn) & kPsnMask,
                  aeth.IsNak(),
                  bth.GetBecn(),
                  bth.GetInt() ? &telemetry : nullptr);
        }
        return true;
    }
    RoceIntHeader telemetry;
    if (bth.GetInt())
    {
        p->RemoveHeader(telemetry);
    }
    RoceIcrcTrailer icrc;
    p->RemoveTrailer(icrc);
    OnData(ip.GetSource(),
           udp.GetSourcePort(),
           ip.GetDscp(),
           ip.GetEcn() == Ipv4Header::ECN_CE,
           bth,
           p->GetSize(),
           bth.GetInt() ? &telemetry : nullptr);
    return true;
}

void
RdmaNic::OnData(Ipv4Address src,
                uint16_t sport,
                uint8_t dscp,
                bool ce,
                const RoceBthHeader& bth,
                uint32_t payload,
                const RoceIntHeader* telemetry)
{
    if (!m_lastRecv || m_lastRecv->src != src || m_lastRecv->qpn != bth.GetDestQp())
    {
        RecvQp*& slot = m_recv[(uint64_t(src.Get()) << 32) | bth.GetDestQp()];
        if (!slot)
        {
            slot = new RecvQp;
        }
        m_lastRecv = slot;
    }
    RecvQp& qp = *m_lastRecv;
    qp.src = src;
    qp.sport = sport;
    qp.dscp = m_controlDscp < 64 ? uint8_t(m_controlDscp) : dscp;
    qp.qpn = bth.GetDestQp();
    Time now = Simulator::Now();
    qp.ceSinceAck = qp.ceSinceAck || ce;
    qp.hasInt = telemetry != nullptr;
    if (telemetry)
    {
        qp.lastInt = *telemetry;
    }
    if (ce && m_sendsCnps && (qp.lastCnp.IsNegative() || now - qp.lastCnp >= m_cnpInterval))
    {
        qp.lastCnp = now;
        ++m_cnpsSent;
        QueueControl(src, sport, qp.dscp, RoceBthHeader::CNP, bth.GetDestQp(), 0, 0);
    }
    uint32_t psn = Unwrap(qp.expected, (bth.GetPsn() - m_initialPsn) & kPsnMask);
    uint8_t op = bth.GetOpcode();
    bool last = op == RoceBthHeader::RC_SEND_LAST || op == RoceBthHeader::RC_SEND_ONLY;
    if (psn == qp.expected)
    {
        ++qp.expected;
        qp.nakPending = false;
        m_delivered += payload;
        ++m_deliveredPackets;
        if (++qp.sinceAck >= m_ackInterval || last || bth.GetAckRequest())
        {
            SendAck(qp);
        }
        else if (!qp.ackArmed)
        {
            qp.ackArmed = true;
            qp.ackDeadline = now + m_ackDelay;
            if (qp.ackTimer.IsExpired())
            {
                qp.ackTimer =
                    Simulator::Schedule(m_ackDelay, &RdmaNic::DelayedAck, this, std::ref(qp));
            }
        }
        return;
    }
    ++m_duplicates;
    if (int32_t(psn - qp.expected) > 0)
    {
        // A gap: NAK once, naming the PSN expected.
        if (!qp.nakPending)
        {
            qp.nakPending = true;
            ++m_naksSent;
            QueueControl(src,
                         sport,
                         qp.dscp,
                         RoceBthHeader::RC_ACK,
                         bth.GetDestQp(),
                         qp.expected,
                         RoceAethHeader::kSyndromeNakSequence);
        }
        return;
    }
    // An old packet (a retransmission of what arrived): say how far we are.
    if (qp.expected > 0)
    {
        QueueControl(src,
                     sport,
                     qp.dscp,
                     RoceBthHeader::RC_ACK,
                     bth.GetDestQp(),
                     qp.expected - 1,
                     RoceAethHeader::kSyndromeAck);
    }
}

void
RdmaNic::DelayedAck(RecvQp& qp)
{
    if (!qp.ackArmed)
    {
        return;
    }
    if (Simulator::Now() < qp.ackDeadline)
    {
        qp.ackTimer = Simulator::Schedule(qp.ackDeadline - Simulator::Now(),
                                          &RdmaNic::DelayedAck,
                                          this,
                                          std::ref(qp));
        return;
    }
    SendAck(qp);
}

void
RdmaNic::SendAck(RecvQp& qp)
{
    qp.ackArmed = false;
    qp.sinceAck = 0;
    QueueControl(qp.src,
                 qp.sport,
                 qp.dscp,
                 RoceBthHeader::RC_ACK,
                 qp.qpn,
                 qp.expected - 1,
                 RoceAethHeader::kSyndromeAck,
                 m_echoesEcn && qp.ceSinceAck,
                 qp.hasInt ? &qp.lastInt : nullptr);
    qp.ceSinceAck = false;
}

void
RdmaNic::OnAck(SendQp& qp, uint32_t psn24, bool nak, bool becn, const RoceIntHeader* telemetry)
{
    if (qp.done)
    {
        return;
    }
    uint32_t psn = Unwrap(qp.una, psn24);
    // Invariant: una <= next (WindowFull counts next - una as the packets in flight).
    if (nak)
    {
        // Everything before psn arrived, nothing after it: send from psn on.
        // A NAK below una is stale (an ACK covered its gap since, e.g. the
        // packets a spurious timeout sent again) and changes nothing.
        if (int32_t(psn - qp.una) < 0)
        {
            return;
        }
        qp.una = std::min(psn, qp.packets);
        if (int32_t(qp.next - psn) > 0)
        {
            NS_LOG_LOGIC("flow " << qp.id << " NAK: back to " << psn << " from " << qp.next);
            qp.timing = false; // Karn: what is resent is not timed
        }
        qp.next = qp.una; // back, or ahead past what a timeout had sent again
        RestartRto(qp);
        NotifyDevice();
        return;
    }
    if (int32_t(psn + 1 - qp.una) > 0)
    {
        const bool wasFull = WindowFull(qp);
        RdmaAckInfo info;
        info.acked = std::min(psn + 1, qp.packets) - qp.una;
        qp.una = std::min(psn + 1, qp.packets);
        if (int32_t(qp.next - qp.una) < 0)
        {
            // After a timeout sent it back to una, the packets it had sent
            // before arrived after all (a pause outlasted the timeout): what
            // they acknowledge is not sent again.
            qp.next = qp.una;
        }
        info.una = qp.una;
        info.next = qp.next;
        info.ecnEcho = becn;
        info.telemetry = telemetry;
        if (qp.timing && qp.una > qp.timedPsn)
        {
            qp.timing = false;
            info.rtt = Simulator::Now() - qp.timedAt;
            m_rttTrace(qp.id, info.rtt);
        }
        m_cc->AckReceived(qp.id, info);
        if ((wasFull || qp.window > 0) && qp.una < qp.packets)
        {
            NotifyDevice(); // the window opened
        }
        if (qp.una >= qp.packets)
        {
            Finish(qp);
            return;
        }
        if (qp.una >= qp.maxSent)
        {
            // Nothing outstanding: the next packet sent arms the timer afresh
            // (PullPacket), so an idle (paused, rate-limited) spell is not
            // counted against it.
            qp.rtoArmed = false;
            return;
        }
        RestartRto(qp);
    }
}

void
RdmaNic::Finish(SendQp& qp)
{
    qp.done = true;
    qp.rtoArmed = false;
    qp.rtoEvent.Cancel();
    m_cc->FlowFinished(qp.id);
    m_activeQps.erase(std::find(m_activeQps.begin(), m_activeQps.end(), &qp));
    RdmaFlowRecord& r = qp.record;
    r.finished = true;
    r.finish = Simulator::Now();
    r.fct = r.finish - r.start;
    r.slowdown = r.idealFct.IsStrictlyPositive() ? r.fct.GetSeconds() / r.idealFct.GetSeconds() : 0;
    NS_LOG_INFO("flow " << qp.id << " " << m_local << " -> " << r.dst << " done, fct "
                        << r.fct.As(Time::US));
    m_flowCompleteTrace(r);
}

// ---------------------------------------------------------------------------
// Congestion control: the policy's rate and window (RdmaCongestionControl)
// ---------------------------------------------------------------------------

void
RdmaNic::SetRate(SendQp& qp, double bps)
{
    bps = std::max(std::min(bps, m_lineRate), double(m_minRate.GetBitRate()));
    if (bps != qp.rc)
    {
        qp.rc = bps;
        m_rateTrace(qp.id, uint64_t(bps));
    }
}

void
RdmaNic::OnCnp(SendQp& qp)
{
    ++m_cnpsReceived;
    ++qp.record.cnps;
    if (!qp.done)
    {
        m_cc->CnpReceived(qp.id);
    }
}

double
RdmaNic::GetFlowRate(uint32_t flowId) const
{
    return m_send[flowId]->rc;
}

void
RdmaNic::SetFlowRate(uint32_t flowId, double bps)
{
    SetRate(*m_send[flowId], bps);
}

void
RdmaNic::SetFlowWindow(uint32_t flowId, uint64_t bytes)
{
    SendQp& qp = *m_send[flowId];
    const bool opens = bytes == 0 || bytes > qp.window;
    qp.window = bytes;
    if (opens && !qp.done)
    {
        NotifyDevice();
    }
}

void
RdmaNic::SetCongestionControlType(TypeId tid)
{
    m_ccType = tid;
    CreateCongestionControl();
}

TypeId
RdmaNic::GetCongestionControlType() const
{
    return m_ccType;
}

void
RdmaNic::SetDcqcn(bool on)
{
    m_dcqcn = on;
    CreateCongestionControl();
}

bool
RdmaNic::GetDcqcn() const
{
    return m_dcqcn;
}

void
RdmaNic::CreateCongestionControl()
{
    if (m_lineRate == 0)
    {
        return; // not attached yet (the attributes are being set): Attach creates it
    }
    if (!m_ccType.IsChildOf(RdmaCongestionControl::GetTypeId()))
    {
        PfcConfigurationError("RdmaNic: CongestionControl " + m_ccType.GetName() +
                              " is not a congestion control (a subclass of "
                              "ns3::RdmaCongestionControl: ns3::RdmaDcqcn, ns3::RdmaHpcc, "
                              "ns3::RdmaDctcp, ns3::RdmaTimely, ns3::RdmaNoCongestionControl)");
    }
    NS_ABORT_MSG_IF(!m_send.empty(),
                    "RdmaNic: CongestionControl or Dcqcn changed after flows were added");
    const bool off = !m_dcqcn && m_ccType == RdmaDcqcn::GetTypeId();
    ObjectFactory factory;
    factory.SetTypeId(off ? RdmaNoCongestionControl::GetTypeId() : m_ccType);
    if (m_cc)
    {
        m_cc->Dispose();
    }
    m_cc = factory.Create<RdmaCongestionControl>();
    m_cc->SetNic(this);
    m_sendsCnps = m_cc->SendsCnps();
    m_echoesEcn = m_cc->EchoesEcn();
    m_wantsRtt = m_cc->WantsRtt();
    m_wantsInt = m_cc->WantsInt();
}

Ptr<RdmaCongestionControl>
RdmaNic::GetCongestionControl() const
{
    return m_cc;
}

// ---------------------------------------------------------------------------
// Accessors
// ---------------------------------------------------------------------------

void
RdmaNic::StopFlows()
{
    for (SendQp* qp : m_send)
    {
        if (!qp->done)
        {
            // No more data: PullPacket and the ACK path skip a done QP.
            qp->done = true;
            qp->rtoArmed = false;
            qp->rtoEvent.Cancel();
            if (m_cc)
            {
                m_cc->FlowFinished(qp->id);
            }
        }
    }
    m_activeQps.clear();
}

std::vector<RdmaFlowRecord>
RdmaNic::GetFlowRecords() const
{
    std::vector<RdmaFlowRecord> records;
    for (const SendQp* qp : m_send)
    {
        records.push_back(qp->record);
    }
    return records;
}

uint32_t
RdmaNic::GetActiveFlows() const
{
    return m_activeQps.size();
}

uint32_t
RdmaNic::GetDataFrameWireBytes() const
{
    return uint32_t(WireBits(m_payloadSize + GetDataHeaderBytes()) / 8);
}

uint32_t
RdmaNic::GetDataHeaderBytes() const
{
    return kRoceHeaderBytes + (m_wantsInt ? RoceIntHeader::kSize : 0);
}

uint64_t
RdmaNic::GetDataPacketsSent() const
{
    return m_dataSent;
}

uint64_t
RdmaNic::GetRetransmittedPackets() const
{
    return m_retransmitted;
}

uint64_t
RdmaNic::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RdmaNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaNic::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

uint64_t
RdmaNic::GetEcnEchoesReceived() const
{
    return m_ecnEchoes;
}

uint64_t
RdmaNic::GetNaksSent() const
{
    return m_naksSent;
}

uint64_t
RdmaNic::GetBytesDelivered() const
{
    return m_delivered;
}

uint64_t
RdmaNic::GetDuplicatePackets() const
{
    return m_duplicates;
}

uint64_t
RdmaNic::GetDataPacketsDelivered() const
{
    return m_deliveredPackets;
}

uint64_t
RdmaNic::GetAckedBytes(uint32_t flowId) const
{
    NS_ABORT_MSG_IF(flowId >= m_send.size(), "RdmaNic::GetAckedBytes: no flow " << flowId);
    const SendQp& qp = *m_send[flowId];
    if (qp.una >= qp.packets)
    {
        return qp.spec.bytes;
    }
    return uint64_t(qp.una) * m_payloadSize;
}

DataRate
RdmaNic::GetRate(uint32_t flowId) const
{
    NS_ABORT_MSG_IF(flowId >= m_send.size(), "RdmaNic::GetRate: no flow " << flowId);
    return DataRate(uint64_t(m_send[flowId]->rc));
}

} // namespace ns3
