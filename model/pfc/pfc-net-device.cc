/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-net-device.h"

#include "pfc-block-pool.h"
#include "pfc-channel.h"
#include "pfc-net-device-internal.h"
#include "tagger-ns3-release-compat.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");

LogComponent&
PfcNetDeviceLogComponent()
{
    return g_log;
}

namespace
{

/**
 * Fire \p trace only when a sink is connected (its bit is set in \p traced):
 * TracedCallback's operator() is an out-of-line call that copies its
 * arguments, made several times per frame, and most runs connect nothing to
 * these traces.
 * \param traced the device's trace bits \param bit the trace's bit
 * \param trace the trace source \param args its arguments
 */
template <typename... Ts, typename... Args>
inline void
FireTrace(uint8_t traced, uint8_t bit, const PfcFlaggedTrace<Ts...>& trace, Args&&... args)
{
    if (traced & bit)
    {
        trace(std::forward<Args>(args)...);
    }
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);

static_assert(sizeof(PfcNetDevice) <= PfcBlockPool::kMaxBytes, "a pool block");
static_assert(alignof(PfcNetDevice) <= PfcBlockPool::kBlockBytes, "aligned by the pool");

namespace
{
/// Bytes of one pause quantum (512 bit times).
constexpr uint32_t kQuantumBytes = 64;
/// The 802.1Qbb cap on the PFC processing delay, in bytes at the link rate.
constexpr uint32_t kPfcProcessingCapBytes = 3840;
} // namespace

TypeId
PfcNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Tagger")
            .AddConstructor<PfcNetDevice>()
            .AddAttribute(
                "DataRate",
                "Link rate (bits/s) used to serialise frames.",
                DataRateValue(DataRate("40Gbps")),
                MakeDataRateAccessor(&PfcNetDevice::SetDataRate, &PfcNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest IPv4 packet the device carries (bytes, without the "
                          "Ethernet header).",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&PfcNetDevice::SetMtu, &PfcNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(68, 9216))
            .AddAttribute("Address",
                          "The MAC address of this device.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&PfcNetDevice::m_address),
                          MakeMac48AddressChecker())
            .AddAttribute(
                "ClassMode",
                "Where frames carry their priority class: the IPv4 DSCP (class = "
                "DSCP >> 3 unless remapped) or an IEEE 802.1Q PCP.",
                EnumValue(PfcNetDevice::CLASS_DSCP),
                MakeTaggerEnumAccessor(&PfcNetDevice::m_classMode),
                MakeEnumChecker(PfcNetDevice::CLASS_DSCP, "Dscp", PfcNetDevice::CLASS_PCP, "Pcp"))
            .AddAttribute("PauseQuanta",
                          "Pause time written in PAUSE frames (quanta of 512 bit times).",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&PfcNetDevice::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("PauseRefresh",
                          "Period (time) at which a PAUSE is sent again while the class is "
                          "held OFF; 0 means half the pause time (PauseQuanta at DataRate).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&PfcNetDevice::m_pauseRefresh),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProcessingDelay",
                          "Time (s) from the arrival of a PFC frame to its effect; negative "
                          "(the default) means the 802.1Qbb cap, 3840 bytes at DataRate.",
                          TimeValue(Time(-1)),
                          MakeTimeAccessor(&PfcNetDevice::m_processingDelay),
                          MakeTimeChecker())
            .AddAttribute("HostQueueLimit",
                          "On a host, bytes per class queue above which the class's transmit "
                          "queue is stopped (traffic control holds the rest); a frame that "
                          "does not fit is dropped (device-queue-full).",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&PfcNetDevice::m_hostQueueLimit),
                          MakeUintegerChecker<uint32_t>(1600))
            .AddAttribute("Scheduler",
                          "The egress scheduler; null (the default): strict priority, as "
                          "StrictPriorityPfcScheduler would choose.",
                          PointerValue(),
                          MakePointerAccessor(&PfcNetDevice::m_scheduler),
                          MakePointerChecker<PfcScheduler>())
            .AddAttribute("EcnKmin",
                          "On a switch port: class queue length (bytes) below which no frame is "
                          "ECN-marked (DCQCN Kmin).",
                          UintegerValue(5 * 1000),
                          MakeUintegerAccessor(&PfcNetDevice::m_ecnKmin),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnKmax",
                          "On a switch port: class queue length (bytes) above which every "
                          "ECN-capable frame is marked (DCQCN Kmax).",
                          UintegerValue(200 * 1000),
                          MakeUintegerAccessor(&PfcNetDevice::m_ecnKmax),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnPmax",
                          "On a switch port: marking probability (0..1) at EcnKmax (DCQCN Pmax).",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&PfcNetDevice::m_ecnPmax),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ReceiveErrorModel",
                          "Loses received data frames (each dropped with reason link-error); "
                          "PFC frames are never lost.  None by default.",
                          PointerValue(),
                          MakePointerAccessor(&PfcNetDevice::SetReceiveErrorModel,
                                              &PfcNetDevice::GetReceiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("MacTx",
                            "A frame was handed to the device for transmission.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A data frame was received and passed up (host).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame began to go out on the wire.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "A frame's last bit went out (frames that began after a "
                            "sink was connected).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame's last bit arrived.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Every frame sent or received (Ethernet header on).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame sent or received (Ethernet header on), for pcap.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Drop",
                            "A data frame was dropped by this device, with the reason.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_dropTrace),
                            "ns3::PfcNetDevice::DropTracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was queued for transmission (its body).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcTxTrace),
                            "ns3::PfcNetDevice::PfcFrameTracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame arrived (its body), before the processing delay.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcRxTrace),
                            "ns3::PfcNetDevice::PfcFrameTracedCallback")
            .AddTraceSource("ClassPause",
                            "A class of this device became paused (true) or unpaused (false).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_classPauseTrace),
                            "ns3::PfcNetDevice::ClassPauseTracedCallback");
    return tid;
}

PfcNetDevice::PfcNetDevice()
    : m_busy(false),
      m_txDonePending(false),
      m_linkUp(false),
      m_peerMacKnown(false),
      m_controlPending(false),
      m_dscpDefault(true),
      m_holdingOnWire(false),
      m_lossOnReceive(false),
      m_backlog(0),
      m_traced(0),
      m_pauseSet(0),
      m_classMode(CLASS_DSCP),
      m_switchPort(kPfcNoPort),
      m_owner(nullptr),
      m_linkDowns(0),
      m_ecnKmin(5 * 1000),
      m_ecnKmax(200 * 1000),
      m_ecnPmax(0.01),
      m_nodeContext(Simulator::NO_CONTEXT),
      m_peer(nullptr),
      m_peerContext(Simulator::NO_CONTEXT),
      m_wireFreeAt(0),
      m_bps("40Gbps"),
      m_mtu(1500),
      m_pauseQuanta(0xffff),
      m_pauseRefresh(0),
      m_processingDelay(-1),
      m_hostQueueLimit(64 * 1024),
      m_ifIndex(0),
      m_pausePaddingSet(0),
      m_pfcTx(0),
      m_pfcRx(0),
      m_pauseTx(0),
      m_resumeTx(0),
      m_pfcLost(0)
{
    NS_LOG_FUNCTION(this);
    for (uint8_t d = 0; d < 64; ++d)
    {
        SetDscpNibble(d, static_cast<uint8_t>(d >> 3));
    }
    m_macTxTrace.BindFlag(&m_traced, TRACE_MAC_TX);
    m_macRxTrace.BindFlag(&m_traced, TRACE_MAC_RX);
    m_phyTxBeginTrace.BindFlag(&m_traced, TRACE_PHY_TX_BEGIN);
    m_phyTxEndTrace.BindFlag(&m_traced, TRACE_PHY_TX_END);
    m_phyRxEndTrace.BindFlag(&m_traced, TRACE_PHY_RX_END);
    m_snifferTrace.BindFlag(&m_traced, TRACE_SNIFFER);
    m_promiscSnifferTrace.BindFlag(&m_traced, TRACE_PROMISC_SNIFFER);
    m_pausedUntil.fill(Time(0));
    m_pausedSince.fill(Time(0));
    m_ignorePauseUntil.fill(Time(0));
    m_pausingPeer.fill(false);
    m_pausingSince.fill(Time(0));
    m_drops.fill(0);
    m_ecnRandom = CreateObject<UniformRandomVariable>();
}

PfcNetDevice::~PfcNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
PfcNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        m_pauseExpiry[c].Cancel();
        m_refreshEvent[c].Cancel();
        m_queues[c].frames.clear();
        m_backlog = 0;
    }
    m_controlQueue.clear();
    m_controlPending = false;
    m_onWire = nullptr;
    m_holdingOnWire = false;
    m_node = nullptr;
    m_channel = nullptr;
    m_scheduler = nullptr;
    m_queueInterface = nullptr;
    m_owner = nullptr;
    m_switchPfc = SwitchPfcCallback();
    m_source = TransmitSourceCallback();
    m_receiveHook = ReceiveHookCallback();
    SetReceiveErrorModel(nullptr);
    m_peer = nullptr;
    m_ecnRandom = nullptr;
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    NetDevice::DoDispose();
}

void
PfcNetDevice::NotifyNewAggregate()
{
    if (!m_queueInterface)
    {
        Ptr<NetDeviceQueueInterface> ndqi = GetObject<NetDeviceQueueInterface>();
        if (ndqi)
        {
            NS_ABORT_MSG_IF(ndqi->GetNTxQueues() != kPfcClasses,
                            "PfcNetDevice: the aggregated NetDeviceQueueInterface must have "
                                << int(kPfcClasses) << " transmit queues (SetNTxQueues), not "
                                << ndqi->GetNTxQueues());
            m_queueInterface = ndqi;
            ndqi->SetSelectQueueCallback([this](Ptr<QueueItem> item) -> std::size_t {
                Ptr<Ipv4QueueDiscItem> ipItem = DynamicCast<Ipv4QueueDiscItem>(item);
                return ipItem ? GetClassOfDscp(ipItem->GetHeader().GetDscp()) : 0;
            });
        }
    }
    NetDevice::NotifyNewAggregate();
}

bool
PfcNetDevice::Attach(Ptr<PfcChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    m_linkUp = channel->IsLinkUp();
    m_linkDowns = channel->GetEpoch();
    m_linkChangeCallbacks();
    return true;
}

void
PfcNetDevice::SetSwitchPort(uint32_t port, PfcPortOwner* owner)
{
    NS_ABORT_MSG_IF(!owner, "PfcNetDevice::SetSwitchPort: no owner");
    m_switchPort = port;
    m_owner = owner;
}

bool
PfcNetDevice::IsSwitchPort() const
{
    return m_switchPort != kPfcNoPort;
}

void
PfcNetDevice::SetSwitchPfcHook(SwitchPfcCallback hook)
{
    m_switchPfc = hook;
}

Time
PfcNetDevice::GetWireTime(uint32_t bytes) const
{
    for (const WireTime& w : m_wireTimes)
    {
        if (w.bytes == bytes && bytes != 0)
        {
            return w.time;
        }
    }
    m_wireTimes[1] = m_wireTimes[0];
    m_wireTimes[0] = {bytes, PfcTxTime(m_bps, EthernetWireBytes(bytes))};
    return m_wireTimes[0].time;
}

Time
PfcNetDevice::QuantaToTime(uint16_t quanta) const
{
    return PfcTxTime(m_bps, uint64_t(quanta) * kQuantumBytes);
}

Time
PfcNetDevice::GetProcessingDelay() const
{
    if (m_processingDelay.IsNegative())
    {
        return PfcTxTime(m_bps, kPfcProcessingCapBytes);
    }
    return m_processingDelay;
}

Time
PfcNetDevice::GetRefreshPeriod() const
{
    if (m_pauseRefresh.IsStrictlyPositive())
    {
        return m_pauseRefresh;
    }
    return QuantaToTime(m_pauseQuanta) / 2;
}

// ---------------------------------------------------------------------------
// Transmit
// ---------------------------------------------------------------------------

void
PfcNetDevice::TryTransmit()
{
    if (!m_linkUp || !m_channel || WireBusy())
    {
        return;
    }
    Ptr<Packet> frame;
    int cls = -1;
    if (m_controlPending)
    {
        frame = m_controlQueue.front();
        m_controlQueue.pop_front();
        m_controlPending = !m_controlQueue.empty();
        StartFrame(frame);
    }
    else
    {
        uint8_t eligible = 0;
        std::array<uint32_t, kPfcClasses> heads{};
        Time now = Simulator::Now();
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            if ((m_backlog >> c) & 1 && !IsClassPausedAt(c, now))
            {
                eligible |= uint8_t(1u << c);
                heads[c] = m_queues[c].frames.front().bytes;
            }
        }
        if (eligible == 0)
        {
            if (m_source.IsNull())
            {
                return;
            }
            uint8_t paused = 0;
            for (uint8_t c = 0; c < kPfcClasses; ++c)
            {
                paused |= IsClassPausedAt(c, now) ? uint8_t(1u << c) : 0;
            }
            Ptr<Packet> packet = m_source(paused);
            if (!packet)
            {
                return;
            }
            uint8_t pcls = ClassOfHostPacket(packet, kEtherTypeIpv4);
            NS_ASSERT_MSG(!(paused & (1u << pcls)),
                          "PfcNetDevice: the transmit source returned a packet of paused class "
                              << int(pcls));
            Encapsulate(packet, m_address, kEtherTypeIpv4, pcls);
            FireTrace(m_traced, TRACE_MAC_TX, m_macTxTrace, packet);
            StartFrame(packet);
            return;
        }
        // No scheduler object: strict priority, decided here (the choice of
        // StrictPriorityPfcScheduler, without reading another object).
        cls = m_scheduler ? m_scheduler->Select(eligible, heads) : PfcHighestClass(eligible);
        NS_ASSERT(eligible & (1u << cls));
        PfcQueueEntry entry = std::move(m_queues[cls].frames.front());
        m_queues[cls].frames.pop_front();
        if (m_queues[cls].frames.empty())
        {
            m_backlog &= uint8_t(~(1u << cls));
        }
        m_queues[cls].bytes -= entry.bytes;
        SendEntry(entry, uint8_t(cls));
    }
    // UpdateHostTxQueue does nothing for a switch port: tested first (line
    // 0), a switch's frame does not read m_queueInterface's cold line.
    if (cls >= 0 && !IsSwitchPort() && m_queueInterface)
    {
        UpdateHostTxQueue(uint8_t(cls));
    }
}

void
PfcNetDevice::SendEntry(const PfcQueueEntry& entry, uint8_t cls)
{
    if (m_scheduler)
    {
        m_scheduler->NotifySent(cls, entry.bytes);
    }
    if (!m_egressStamp.IsNull())
    {
        uint64_t waiting = 0;
        for (const auto& q : m_queues)
        {
            waiting += q.bytes;
        }
        m_egressStamp(*this, entry.frame, m_txBytes + entry.frame->GetSize(), waiting);
    }
    // The frame goes on the wire (m_busy) before the switch releases its
    // buffer: the release can send a RESUME out of this very port (a frame
    // that leaves by the port it came in on, e.g. after a local reroute),
    // and that nested TryTransmit must find the port busy instead of
    // starting a second frame on the wire.
    StartFrame(entry.frame);
    if (m_owner)
    {
        m_owner->DequeuedFromPort(m_switchPort, entry);
    }
}

void
PfcNetDevice::StartFrame(Ptr<Packet> frame)
{
    m_busy = true;
    m_txBytes += frame->GetSize();
    if (m_traced & TRACE_PHY_TX_END)
    {
        // Kept for PhyTxEnd only: without a sink the port does not hold the
        // frame (releasing it at the end would read the packet once more).
        m_onWire = frame;
        m_holdingOnWire = true;
    }
    FireTrace(m_traced, TRACE_PHY_TX_BEGIN, m_phyTxBeginTrace, frame);
    FireTrace(m_traced, TRACE_SNIFFER, m_snifferTrace, frame);
    FireTrace(m_traced, TRACE_PROMISC_SNIFFER, m_promiscSnifferTrace, frame);
    Time txTime = GetWireTime(frame->GetSize());
    if (m_peer)
    {
        // PfcChannel::TransmitStart's event, scheduled here: the link is up
        // (TryTransmit checked), and the epoch is m_linkDowns.
        if (m_peerContext == Simulator::NO_CONTEXT)
        {
            m_peerContext = m_peer->GetNodeContext(); // once on its node
        }
        // The simulator takes the event (reference count 1) and frees it
        // after running it; the same order as Schedule for the same time.
        Simulator::ScheduleWithContext(
            m_peerContext,
            txTime + m_linkDelay,
            new ArrivalEvent(m_peer,
                             m_linkDelay.IsStrictlyPositive() ? frame : frame->Copy(),
                             m_linkDowns));
    }
    else
    {
        bool sent = m_channel->TransmitStart(frame, this, txTime);
        NS_ASSERT_MSG(sent, "PfcNetDevice: the channel refused a frame while the link is up");
    }
    m_wireFreeAt = Simulator::Now().GetTimeStep() + txTime.GetTimeStep();
    // Something waits behind this frame, or may (a host's transmit source):
    // the transmit-done event now; else WireBusy schedules it if needed.
    m_txDonePending = m_backlog != 0 || m_controlPending || !m_source.IsNull() || m_holdingOnWire;
    if (m_txDonePending)
    {
        Simulator::ScheduleWithContext(Simulator::GetContext(), txTime, new TxDoneEvent(this));
    }
}

bool
PfcNetDevice::WireBusy()
{
    if (m_busy && !m_txDonePending)
    {
        int64_t now = Simulator::Now().GetTimeStep();
        if (now >= m_wireFreeAt)
        {
            m_busy = false; // the frame ended: what its transmit-done would have found
        }
        else
        {
            m_txDonePending = true;
            Simulator::ScheduleWithContext(Simulator::GetContext(),
                                           TimeStep(m_wireFreeAt - now),
                                           new TxDoneEvent(this));
        }
    }
    return m_busy;
}

void
PfcNetDevice::SetTransmitSource(TransmitSourceCallback source)
{
    m_source = source;
}

void
PfcNetDevice::NotifySourceReady()
{
    TryTransmit();
}

void
PfcNetDevice::SetEgressStamp(EgressStampCallback stamp)
{
    m_egressStamp = stamp;
}

void
PfcNetDevice::SetReceiveHook(ReceiveHookCallback hook)
{
    m_receiveHook = hook;
}

bool
PfcNetDevice::ShouldMarkEcn(uint8_t cls)
{
    uint64_t q = m_queues[cls].bytes;
    if (q <= m_ecnKmin)
    {
        return false;
    }
    if (q >= m_ecnKmax)
    {
        return true;
    }
    double p = m_ecnPmax * double(q - m_ecnKmin) / double(m_ecnKmax - m_ecnKmin);
    return m_ecnRandom->GetValue() < p;
}

void
PfcNetDevice::TransmitComplete()
{
    NS_ASSERT(bool(m_busy) && bool(m_txDonePending)); // bool(): a bit-field has no sizeof
    m_txDonePending = false;
    if (m_holdingOnWire)
    {
        FireTrace(m_traced, TRACE_PHY_TX_END, m_phyTxEndTrace, m_onWire);
        m_onWire = nullptr;
        m_holdingOnWire = false;
    }
    m_busy = false;
    TryTransmit();
}

void
PfcNetDevice::Encapsulate(Ptr<Packet> packet, Mac48Address source, uint16_t etherType, uint8_t cls)
{
    AddEthernetHeader(packet, source, GetPeerAddress(), etherType, m_classMode == CLASS_PCP, cls);
}

bool
PfcNetDevice::EnqueueFromSwitch(const PfcQueueEntry& entry, uint8_t cls)
{
    NS_ASSERT(cls < kPfcClasses);
    FireTrace(m_traced, TRACE_MAC_TX, m_macTxTrace, entry.frame);
    if (!m_linkUp)
    {
        PfcQueueEntry dropped = entry;
        dropped.outQueue = cls;
        if (m_owner)
        {
            m_owner->DequeuedFromPort(m_switchPort, dropped);
        }
        DropEntry(dropped, PfcDropReason::LINK_DOWN);
        return false;
    }
    if (m_backlog == 0 && !m_controlPending && m_channel && !WireBusy() &&
        !IsClassPausedAt(cls, Simulator::Now()))
    {
        // An idle port with empty queues: TryTransmit would take this very
        // frame at once.  It is sent without passing through the class
        // queue's ring, whose slot, in a large network, is out of the cache.
        std::array<uint32_t, kPfcClasses> heads{};
        heads[cls] = entry.bytes;
        [[maybe_unused]] uint8_t chosen =
            m_scheduler ? m_scheduler->Select(uint8_t(1u << cls), heads) : cls;
        NS_ASSERT(chosen == cls);
        PfcQueueEntry sent = entry;
        sent.outQueue = cls;
        SendEntry(sent, cls);
        return true;
    }
    m_queues[cls].frames.push_back(entry);
    m_queues[cls].frames.back().outQueue = cls;
    m_backlog |= uint8_t(1u << cls);
    m_queues[cls].bytes += entry.bytes;
    TryTransmit();
    return true;
}

void
PfcNetDevice::DropEntry(const PfcQueueEntry& entry, PfcDropReason reason)
{
    NS_LOG_LOGIC("drop " << entry.frame << " reason " << reason);
    ++m_drops[static_cast<uint8_t>(reason)];
    m_dropTrace(entry.frame, reason);
}

bool
PfcNetDevice::DropIfLostOnLink(Ptr<Packet> frame)
{
    EthernetDot1qHeader eth;
    frame->PeekHeader(eth);
    if (eth.GetEtherType() == kEtherTypeMacControl || !m_receiveErrorModel->IsCorrupt(frame))
    {
        return false;
    }
    PfcQueueEntry entry;
    entry.frame = frame;
    entry.bytes = frame->GetSize();
    DropEntry(entry, PfcDropReason::LINK_ERROR);
    return true;
}

// ---------------------------------------------------------------------------
// Hosts
// ---------------------------------------------------------------------------

uint8_t
PfcNetDevice::ClassOfHostPacket(Ptr<const Packet> packet, uint16_t protocol) const
{
    if (protocol != kEtherTypeIpv4)
    {
        return 0;
    }
    // The version and TOS bytes, read raw (a whole Ipv4Header per frame is
    // not needed for one field): DSCP is the upper six bits of the TOS.
    uint8_t b[20];
    if (packet->CopyData(b, sizeof(b)) < sizeof(b) || (b[0] >> 4) != 4)
    {
        return 0;
    }
    return GetClassOfDscp(b[1] >> 2);
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    uint8_t cls = ClassOfHostPacket(packet, protocolNumber);
    // A point-to-point link: the frame goes to the peer whatever IP asked.
    Encapsulate(packet, Mac48Address::ConvertFrom(source), protocolNumber, cls);
    FireTrace(m_traced, TRACE_MAC_TX, m_macTxTrace, packet);
    return EnqueueHost(packet, cls);
}

bool
PfcNetDevice::EnqueueHost(Ptr<Packet> frame, uint8_t cls)
{
    PfcQueueEntry entry;
    entry.frame = frame;
    entry.bytes = frame->GetSize();
    entry.outQueue = cls;
    if (!m_linkUp)
    {
        DropEntry(entry, PfcDropReason::LINK_DOWN);
        return false;
    }
    if (m_queues[cls].bytes + entry.bytes > m_hostQueueLimit)
    {
        DropEntry(entry, PfcDropReason::DEVICE_QUEUE_FULL);
        return false;
    }
    m_queues[cls].frames.push_back(entry);
    m_backlog |= uint8_t(1u << cls);
    m_queues[cls].bytes += entry.bytes;
    UpdateHostTxQueue(cls);
    TryTransmit();
    return true;
}

void
PfcNetDevice::UpdateHostTxQueue(uint8_t cls)
{
    if (!m_queueInterface || IsSwitchPort())
    {
        return;
    }
    Ptr<NetDeviceQueue> txq = m_queueInterface->GetTxQueue(cls);
    // Room for one more largest frame (MTU + tagged Ethernet header)?
    bool full = m_queues[cls].bytes + m_mtu + kEthernetTaggedHeaderSize > m_hostQueueLimit;
    bool stop = full || IsClassPaused(cls) || !m_linkUp;
    if (stop && !txq->IsStopped())
    {
        txq->Stop();
    }
    else if (!stop && txq->IsStopped())
    {
        txq->Wake();
    }
}

// ---------------------------------------------------------------------------
// Receive
// ---------------------------------------------------------------------------

void
PfcNetDevice::SetDirectPeer(PfcNetDevice* peer, Time delay)
{
    m_peer = peer;
    m_linkDelay = delay;
    m_peerContext = Simulator::NO_CONTEXT;
}

void
PfcNetDevice::SetReceiveErrorModel(Ptr<ErrorModel> model)
{
    m_receiveErrorModel = model;
    m_lossOnReceive = bool(model);
}

Ptr<ErrorModel>
PfcNetDevice::GetReceiveErrorModel() const
{
    return m_receiveErrorModel;
}

void
PfcNetDevice::ReceiveFromLink(Ptr<Packet> frame, uint64_t epoch)
{
    if (!m_linkUp || epoch != m_linkDowns)
    {
        m_channel->LoseInFlight(frame, this);
        return;
    }
    Receive(frame);
}

void
PfcNetDevice::Receive(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (m_lossOnReceive && DropIfLostOnLink(frame))
    {
        return;
    }
    FireTrace(m_traced, TRACE_PHY_RX_END, m_phyRxEndTrace, frame);
    FireTrace(m_traced, TRACE_SNIFFER, m_snifferTrace, frame);
    FireTrace(m_traced, TRACE_PROMISC_SNIFFER, m_promiscSnifferTrace, frame);
    EthernetDot1qHeader eth;
    frame->RemoveHeader(eth);
    if (eth.GetEtherType() == kEtherTypeMacControl)
    {
        PfcHeader pfc;
        frame->RemoveHeader(pfc);
        if (pfc.GetOpcode() != PfcHeader::kOpcode)
        {
            NS_LOG_LOGIC("ignoring MAC control opcode " << pfc.GetOpcode());
            return;
        }
        ++m_pfcRx;
        m_pfcRxTrace(pfc);
        if (!m_switchPfc.IsNull())
        {
            m_switchPfc(m_switchPort, pfc);
        }
        Simulator::Schedule(GetProcessingDelay(), &PfcNetDevice::ApplyPfc, this, pfc, m_linkDowns);
        return;
    }
    if (IsSwitchPort())
    {
        m_owner->ReceiveFromPort(m_switchPort, *this, frame, eth);
        return;
    }
    if (!m_receiveHook.IsNull() && eth.GetEtherType() == kEtherTypeIpv4)
    {
        // The hook takes the headers off a packet it consumes, so MacRx
        // (the packet as it arrived) gets a copy, made only when traced.
        Ptr<Packet> traced = (m_traced & TRACE_MAC_RX) ? frame->Copy() : nullptr;
        if (m_receiveHook(frame))
        {
            m_macRxTrace(traced ? traced : frame);
            return;
        }
    }
    Mac48Address dst = eth.GetDestination();
    NetDevice::PacketType type = NetDevice::PACKET_OTHERHOST;
    if (dst == m_address)
    {
        type = NetDevice::PACKET_HOST;
    }
    else if (dst.IsBroadcast())
    {
        type = NetDevice::PACKET_BROADCAST;
    }
    else if (dst.IsGroup())
    {
        type = NetDevice::PACKET_MULTICAST;
    }
    if (!m_promiscCallback.IsNull())
    {
        m_promiscCallback(this, frame, eth.GetEtherType(), eth.GetSource(), dst, type);
    }
    if (type != NetDevice::PACKET_OTHERHOST)
    {
        m_macRxTrace(frame);
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, frame, eth.GetEtherType(), eth.GetSource());
        }
    }
}

// ---------------------------------------------------------------------------
// Link state
// ---------------------------------------------------------------------------

void
PfcNetDevice::NotifyLinkChange(bool up)
{
    NS_LOG_FUNCTION(this << up);
    m_linkUp = up;
    if (!up)
    {
        ++m_linkDowns;
        m_controlQueue.clear();
        m_controlPending = false;
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            PfcFifo<PfcQueueEntry> queue;
            queue.swap(m_queues[c].frames);
            m_backlog &= uint8_t(~(1u << c));
            m_queues[c].bytes = 0;
            for (const PfcQueueEntry& entry : queue)
            {
                if (m_owner)
                {
                    m_owner->DequeuedFromPort(m_switchPort, entry);
                }
                DropEntry(entry, PfcDropReason::LINK_DOWN);
            }
            m_refreshEvent[c].Cancel();
            if (IsClassPaused(c))
            {
                m_classPauseTrace(c, false);
            }
            SetPausedUntil(c, Time(0));
            m_pauseExpiry[c].Cancel();
        }
    }
    else
    {
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            if (m_pausingPeer[c])
            {
                RefreshPause(c);
            }
        }
    }
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        UpdateHostTxQueue(c);
    }
    m_linkChangeCallbacks();
    TryTransmit();
}

void
PfcNetDevice::NotifyLostInFlight(Ptr<const Packet> frame)
{
    EthernetDot1qHeader eth;
    frame->PeekHeader(eth);
    if (eth.GetEtherType() == kEtherTypeMacControl)
    {
        ++m_pfcLost;
        return;
    }
    PfcQueueEntry entry;
    entry.frame = frame->Copy();
    entry.bytes = frame->GetSize();
    DropEntry(entry, PfcDropReason::LINK_DOWN);
}

// ---------------------------------------------------------------------------
// Accessors
// ---------------------------------------------------------------------------

uint64_t
PfcNetDevice::GetQueueBytes(uint8_t cls) const
{
    return m_queues[cls].bytes;
}

const PfcFifo<PfcQueueEntry>&
PfcNetDevice::GetQueue(uint8_t cls) const
{
    return m_queues[cls].frames;
}

uint8_t
PfcNetDevice::GetClassOfDscp(uint8_t dscp) const
{
    dscp &= 0x3f;
    if (m_dscpDefault)
    {
        return dscp >> 3; // the default map, without reading m_dscpClass
    }
    return GetDscpNibble(dscp);
}

void
PfcNetDevice::SetDscpClass(uint8_t dscp, uint8_t cls)
{
    NS_ABORT_MSG_IF(dscp > 63, "PfcNetDevice::SetDscpClass: DSCP " << int(dscp) << " > 63");
    NS_ABORT_MSG_IF(cls >= kPfcClasses, "PfcNetDevice::SetDscpClass: class " << int(cls) << " > 7");
    SetDscpNibble(dscp, cls);
}

uint8_t
PfcNetDevice::GetDscpNibble(uint8_t dscp) const
{
    return (m_dscpClass[dscp >> 1] >> ((dscp & 1) * 4)) & 0xf;
}

void
PfcNetDevice::SetDscpNibble(uint8_t dscp, uint8_t cls)
{
    uint8_t shift = (dscp & 1) * 4;
    uint8_t& pair = m_dscpClass[dscp >> 1];
    pair = uint8_t((pair & ~(0xf << shift)) | (cls << shift));
    if (cls != dscp >> 3)
    {
        m_dscpDefault = false;
    }
    else if (!m_dscpDefault)
    {
        // Back to the default for this DSCP: maybe for all of them.
        bool all = true;
        for (uint8_t d = 0; d < 64 && all; ++d)
        {
            all = GetDscpNibble(d) == d >> 3;
        }
        m_dscpDefault = all;
    }
}

PfcNetDevice::ClassMode
PfcNetDevice::GetClassMode() const
{
    return m_classMode;
}

DataRate
PfcNetDevice::GetDataRate() const
{
    return m_bps;
}

void
PfcNetDevice::SetDataRate(DataRate rate)
{
    m_bps = rate;
    m_wireTimes = {}; // computed at the old rate
}

Ptr<PfcChannel>
PfcNetDevice::GetPfcChannel() const
{
    return m_channel;
}

Ptr<PfcNetDevice>
PfcNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

Mac48Address
PfcNetDevice::GetPeerAddress()
{
    if (!m_peerMacKnown)
    {
        Ptr<PfcNetDevice> peer = GetPeer();
        if (!peer)
        {
            return Mac48Address::GetBroadcast();
        }
        m_peerMac = Mac48Address::ConvertFrom(peer->GetAddress());
        m_peerMacKnown = true;
    }
    return m_peerMac;
}

uint64_t
PfcNetDevice::GetPfcTxFrames() const
{
    return m_pfcTx;
}

uint64_t
PfcNetDevice::GetPfcRxFrames() const
{
    return m_pfcRx;
}

uint64_t
PfcNetDevice::GetPauseTxFrames() const
{
    return m_pauseTx;
}

uint64_t
PfcNetDevice::GetResumeTxFrames() const
{
    return m_resumeTx;
}

uint64_t
PfcNetDevice::GetPfcLostFrames() const
{
    return m_pfcLost;
}

uint64_t
PfcNetDevice::GetDropCount(PfcDropReason reason) const
{
    return m_drops[static_cast<uint8_t>(reason)];
}

// ---------------------------------------------------------------------------
// NetDevice boilerplate
// ---------------------------------------------------------------------------

void
PfcNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
PfcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfcNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
PfcNetDevice::GetAddress() const
{
    return m_address;
}

Mac48Address
PfcNetDevice::GetMacAddress() const
{
    return m_address;
}

bool
PfcNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
PfcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcNetDevice::IsLinkUp() const
{
    return m_linkUp;
}

void
PfcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
PfcNetDevice::IsBroadcast() const
{
    return true;
}

Address
PfcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfcNetDevice::IsMulticast() const
{
    return true;
}

Address
PfcNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
PfcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfcNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
PfcNetDevice::GetNode() const
{
    return m_node;
}

void
PfcNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_nodeContext = node ? node->GetId() : Simulator::NO_CONTEXT;
}

uint32_t
PfcNetDevice::GetNodeContext() const
{
    return m_nodeContext;
}

bool
PfcNetDevice::NeedsArp() const
{
    return false;
}

void
PfcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
PfcNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
PfcNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
