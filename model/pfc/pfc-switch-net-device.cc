/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-switch-net-device.h"

#include "pfc-channel.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/roce-int-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcSwitchNetDevice");
NS_OBJECT_ENSURE_REGISTERED(PfcSwitchNetDevice);

namespace
{
/// IPv4 protocol number of TCP.
constexpr uint8_t kProtocolTcp = 6;
/// IPv4 protocol number of UDP.
constexpr uint8_t kProtocolUdp = 17;

/// 64-bit finaliser (MurmurHash3's fmix64): a bijective mix of all bits.
inline uint64_t
Mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}
} // namespace

TypeId
PfcSwitchNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcSwitchNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Tagger")
            .AddConstructor<PfcSwitchNetDevice>()
            .AddAttribute("EcmpSeed",
                          "Seed of the ECMP 5-tuple hash (dimensionless); 0 derives one from "
                          "the node id, so switches do not hash alike (no polarisation).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PfcSwitchNetDevice::m_ecmpSeed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Mtu",
                          "MTU reported to an IP stack on relay servers (bytes).",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&PfcSwitchNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(68))
            .AddAttribute("LocalQueueLimit",
                          "Relay servers: the transmit source (RoCE NIC) is not asked for "
                          "packets of a class while frames this node originated of that class "
                          "hold this many bytes or more in the port queues (bytes per class).",
                          UintegerValue(4000),
                          MakeUintegerAccessor(&PfcSwitchNetDevice::m_localLimit),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Mmu",
                          "The buffer model.",
                          PointerValue(),
                          MakePointerAccessor(&PfcSwitchNetDevice::m_mmu),
                          MakePointerChecker<SwitchMmu>())
            .AddAttribute("Classifier",
                          "The priority policy (plain DSCP/PCP classes by default).",
                          PointerValue(),
                          MakePointerAccessor(&PfcSwitchNetDevice::m_classifier),
                          MakePointerChecker<PfcClassifier>())
            .AddAttribute("Itsy",
                          "The ITSY deadlock detector of this switch (ITSY); null, the "
                          "default, turns it off.  Set before the simulation starts.",
                          PointerValue(),
                          MakePointerAccessor(&PfcSwitchNetDevice::m_itsy),
                          MakePointerChecker<ItsyDetector>())
            .AddAttribute("Int",
                          "In-band telemetry (HPCC): every RoCEv2 data packet that asks for "
                          "it (BTH INT bit) gets a hop record (queue, bytes sent, time, link "
                          "rate) as it leaves a port of this switch (RoceIntHeader).  Set "
                          "before the simulation starts.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PfcSwitchNetDevice::m_int),
                          MakeBooleanChecker())
            .AddAttribute("Watchdog",
                          "The PFC watchdog of this switch; null, the default, turns it off.  "
                          "Set before the simulation starts.",
                          PointerValue(),
                          MakePointerAccessor(&PfcSwitchNetDevice::m_watchdog),
                          MakePointerChecker<PfcWatchdog>())
            .AddTraceSource("Drop",
                            "A data frame was dropped in this switch or on one of its ports "
                            "(frame, ingress port or 0xffffffff, reason).",
                            MakeTraceSourceAccessor(&PfcSwitchNetDevice::m_dropTrace),
                            "ns3::PfcSwitchNetDevice::SwitchDropTracedCallback")
            .AddTraceSource("Forward",
                            "A transit packet got its egress port (IP payload, IPv4 header as "
                            "received, ingress port, egress port); fired before the TTL check "
                            "and the buffer admission, so a packet dropped there fires it too.",
                            MakeTraceSourceAccessor(&PfcSwitchNetDevice::m_forwardTrace),
                            "ns3::PfcSwitchNetDevice::ForwardTracedCallback");
    return tid;
}

PfcSwitchNetDevice::PfcSwitchNetDevice()
    : m_ecmpSeed(0),
      m_mtu(1500),
      m_localLimit(4000),
      m_ifIndex(0),
      m_seed(0),
      m_checksum(false),
      m_initialized(false),
      m_observed(false),
      m_forwarded(0),
      m_ecnMarked(0)
{
    NS_LOG_FUNCTION(this);
    m_mmu = CreateObject<SwitchMmu>();
    m_classifier = CreateObject<DscpPfcClassifier>();
    m_address = Mac48Address::Allocate();
    m_drops.fill(0);
    m_localBytes.fill(0);
}

PfcSwitchNetDevice::~PfcSwitchNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
PfcSwitchNetDevice::DescribePortLinks()
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Ptr<PfcNetDevice> port = m_ports[i];
        Ptr<PfcChannel> channel = port->GetPfcChannel();
        Ptr<PfcNetDevice> peer = port->GetPeer();
        NS_ABORT_MSG_IF(!channel || !peer,
                        "PfcSwitchNetDevice (node " << (m_node ? int64_t(m_node->GetId()) : -1)
                                                    << "): port " << i
                                                    << " is not connected to a peer");
        // The headroom absorbs what the upstream (peer) sends after our PAUSE.
        m_mmu->SetPortLink(i,
                           peer->GetDataRate(),
                           channel->GetDelay(),
                           peer->GetMtu(),
                           peer->GetProcessingDelay());
    }
}

std::string
PfcSwitchNetDevice::CheckBuffer()
{
    DescribePortLinks();
    return m_mmu->CheckFit(m_ports.size());
}

void
PfcSwitchNetDevice::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_node, "PfcSwitchNetDevice: not added to a node");
    m_seed = m_ecmpSeed != 0 ? m_ecmpSeed : uint32_t(Mix64(m_node->GetId() + 1));
    m_checksum = Node::ChecksumEnabled();
    const std::string why = CheckBuffer();
    if (!why.empty())
    {
        const std::string name = Names::FindName(m_node);
        PfcConfigurationError("switch " +
                              (name.empty() ? "node " + std::to_string(m_node->GetId()) : name) +
                              ": " + why);
    }
    m_mmu->Setup(m_ports.size());
    for (const Ptr<PfcNetDevice>& port : m_ports)
    {
        if (m_int && !RoceIntHeader::IsEncodable(port->GetDataRate().GetBitRate()))
        {
            PfcConfigurationError("switch " + std::to_string(m_node->GetId()) +
                                  ": Int on a port of " +
                                  std::to_string(port->GetDataRate().GetBitRate() / 1000000) +
                                  " Mb/s; an INT record carries 1, 10, 25, 40, 50, 100, 200, 400 "
                                  "or 800 Gb/s");
        }
        port->SetEgressStamp(m_int ? MakeCallback(&PfcSwitchNetDevice::StampInt, this)
                                   : PfcNetDevice::EgressStampCallback());
    }
    // The Itsy and Watchdog attributes are monitors like AddMonitor's, first.
    std::vector<Ptr<PfcSwitchMonitor>> monitors;
    if (m_itsy)
    {
        monitors.push_back(m_itsy);
    }
    if (m_watchdog)
    {
        monitors.push_back(m_watchdog);
    }
    monitors.insert(monitors.end(), m_monitors.begin(), m_monitors.end());
    m_monitors = monitors;
    for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
    {
        monitor->Attach(this);
    }
    m_observed = !m_monitors.empty();
    if (m_observed)
    {
        for (const Ptr<PfcNetDevice>& port : m_ports)
        {
            port->SetSwitchPfcHook(MakeCallback(&PfcSwitchNetDevice::PfcReceived, this));
        }
    }
    m_initialized = true;
    NetDevice::DoInitialize();
}

void
PfcSwitchNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ports.clear();
    m_mmu = nullptr;
    m_classifier = nullptr;
    for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
    {
        monitor->Dispose();
    }
    m_monitors.clear();
    if (m_itsy)
    {
        m_itsy->Dispose();
        m_itsy = nullptr;
    }
    if (m_watchdog)
    {
        m_watchdog->Dispose();
        m_watchdog = nullptr;
    }
    m_node = nullptr;
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    m_source = PfcNetDevice::TransmitSourceCallback();
    m_receiveHook = PfcNetDevice::ReceiveHookCallback();
    m_pullEvent.Cancel();
    NetDevice::DoDispose();
}

uint32_t
PfcSwitchNetDevice::AddPort(Ptr<PfcNetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    NS_ABORT_MSG_IF(m_initialized,
                    "PfcSwitchNetDevice::AddPort: ports must be added before the simulation "
                    "starts");
    NS_ABORT_MSG_IF(!port->GetNode() || port->GetNode() != m_node,
                    "PfcSwitchNetDevice::AddPort: the port must be on the switch's node");
    NS_ABORT_MSG_IF(port->IsSwitchPort(),
                    "PfcSwitchNetDevice::AddPort: the device is already a switch port");
    uint32_t index = m_ports.size();
    m_ports.push_back(port);
    port->SetSwitchPort(index, this);
    port->TraceConnectWithoutContext("Drop", MakeCallback(&PfcSwitchNetDevice::PortDrop, this));
    return index;
}

void
PfcSwitchNetDevice::StampInt(const PfcNetDevice& port,
                             Ptr<Packet> frame,
                             uint64_t txBytes,
                             uint64_t queueBytes)
{
    RoceIntStamp(frame, Simulator::Now(), txBytes, queueBytes, port.GetDataRate().GetBitRate());
}

uint32_t
PfcSwitchNetDevice::GetNPorts() const
{
    return m_ports.size();
}

Ptr<PfcNetDevice>
PfcSwitchNetDevice::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(),
                    "PfcSwitchNetDevice::GetPort: no port " << i << " (" << m_ports.size()
                                                            << " ports)");
    return m_ports[i];
}

// ---------------------------------------------------------------------------
// FIB
// ---------------------------------------------------------------------------

void
PfcSwitchNetDevice::AddRoute(Ipv4Address dest, Ipv4Mask mask, uint32_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "PfcSwitchNetDevice: route to " << dest << mask << " names port " << port
                                                    << " but the switch has " << m_ports.size()
                                                    << " ports");
    m_fib.Add(dest.Get(), mask.Get(), port);
}

void
PfcSwitchNetDevice::SetRoute(Ipv4Address dest, Ipv4Mask mask, const std::vector<uint32_t>& ports)
{
    for (uint32_t p : ports)
    {
        NS_ABORT_MSG_IF(p >= m_ports.size(),
                        "PfcSwitchNetDevice: route to " << dest << mask << " names port " << p
                                                        << " but the switch has " << m_ports.size()
                                                        << " ports");
    }
    m_fib.Set(dest.Get(), mask.Get(), ports);
}

void
PfcSwitchNetDevice::ClearRoutes()
{
    m_fib.Clear();
}

uint32_t
PfcSwitchNetDevice::RemovePortFromRoutes(uint32_t port)
{
    return m_fib.RemovePort(port);
}

std::vector<uint32_t>
PfcSwitchNetDevice::Lookup(Ipv4Address dest) const
{
    const PfcRouteTable::PortSet* ports = m_fib.Find(dest.Get());
    return ports ? *ports : std::vector<uint32_t>();
}

const PfcRouteTable&
PfcSwitchNetDevice::GetRouteTable() const
{
    return m_fib;
}

void
PfcSwitchNetDevice::AddLocalAddress(Ipv4Address address)
{
    m_localAddresses.push_back(address.Get());
}

bool
PfcSwitchNetDevice::IsLocalAddress(Ipv4Address address) const
{
    return std::find(m_localAddresses.begin(), m_localAddresses.end(), address.Get()) !=
           m_localAddresses.end();
}

uint32_t
PfcSwitchNetDevice::EcmpIndex(Ipv4Address src,
                              Ipv4Address dst,
                              uint8_t proto,
                              uint16_t sport,
                              uint16_t dport,
                              uint32_t nChoices) const
{
    uint32_t seed =
        m_seed != 0
            ? m_seed
            : (m_ecmpSeed != 0 ? m_ecmpSeed : uint32_t(Mix64(m_node ? m_node->GetId() + 1 : 1)));
    uint64_t h = Mix64(uint64_t(seed) << 32 | src.Get());
    h = Mix64(h ^ dst.Get());
    h = Mix64(h ^ (uint64_t(proto) << 32 | uint64_t(sport) << 16 | dport));
    return uint32_t(h % nChoices);
}

// ---------------------------------------------------------------------------
// Pipeline
// ---------------------------------------------------------------------------

void
PfcSwitchNetDevice::ReceiveFromPort(uint32_t inPort,
                                    const PfcNetDevice& port,
                                    Ptr<Packet> frame,
                                    const EthernetDot1qHeader& eth)
{
    NS_LOG_FUNCTION(this << inPort << frame);
    uint32_t bytes = frame->GetSize() + eth.GetSerializedSize();
    if (eth.GetEtherType() != kEtherTypeIpv4)
    {
        for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
        {
            if (eth.GetEtherType() == monitor->GetEtherType())
            {
                monitor->ReceiveFrame(inPort, frame);
                return;
            }
        }
        frame->AddHeader(eth);
        Drop(frame, inPort, PfcDropReason::NOT_IPV4);
        return;
    }
    Ipv4Header ip;
    frame->RemoveHeader(ip);
    NS_ASSERT(&port == PeekPointer(m_ports[inPort]));
    PfcPacketContext ctx;
    ctx.inPort = inPort;
    ctx.outPort = 0;
    ctx.ip = &ip;
    ctx.hasVlan = eth.HasVlan();
    ctx.pcp = eth.GetPcp();
    ctx.frameClass = (ctx.hasVlan && port.GetClassMode() == PfcNetDevice::CLASS_PCP)
                         ? ctx.pcp
                         : port.GetClassOfDscp(ip.GetDscp());

    if (!m_localAddresses.empty() && IsLocalAddress(ip.GetDestination()))
    {
        if (m_checksum)
        {
            ip.EnableChecksum();
        }
        frame->AddHeader(ip);
        if (!m_receiveHook.IsNull() && m_receiveHook(frame))
        {
            return; // the RoCE NIC consumed it
        }
        if (!m_promiscCallback.IsNull())
        {
            m_promiscCallback(this,
                              frame,
                              kEtherTypeIpv4,
                              eth.GetSource(),
                              m_address,
                              NetDevice::PACKET_HOST);
        }
        if (!m_rxCallback.IsNull())
        {
            m_rxCallback(this, frame, kEtherTypeIpv4, eth.GetSource());
        }
        return;
    }
    Forward(frame, ip, inPort, bytes, ctx);
}

void
PfcSwitchNetDevice::Forward(Ptr<Packet> packet,
                            Ipv4Header& ip,
                            uint32_t inPort,
                            uint32_t bytes,
                            PfcPacketContext& ctx)
{
    PfcQueueEntry entry;
    entry.bytes = bytes;
    entry.inPort = inPort;
    // The egress port's pointer is read from m_ports as soon as the route
    // is known; in a large network that array is out of the cache, so ask
    // for it now, while the route is looked up: one prefetch per 8 ports
    // from the first, which misses the last line when the array does not
    // start on a line boundary (the figures were measured so).
    for (size_t i = 0; i < m_ports.size(); i += 8)
    {
        __builtin_prefetch(&m_ports[i]);
    }
    entry.inQueue = Classify(ctx);
    m_mmu->PrefetchIngress(inPort, entry.inQueue); // read by AdmitIngress
    uint32_t outPort = SelectPort(packet, ip, inPort);
    if (outPort != kPfcNoPort)
    {
        // Lines of the port that AdmitEgress, Encapsulate and Enqueue read.
        m_ports[outPort]->PrefetchEnqueueLines(entry.inQueue);
        m_forwardTrace(packet, ip, inPort, outPort); // an empty list when nobody listens
    }
    if (outPort == kPfcNoPort || !DecrementTtl(packet, ip, inPort) ||
        !AdmitIngress(packet, ip, entry))
    {
        return;
    }
    uint8_t outQueue = Rewrite(ctx, outPort);
    if (!AdmitEgress(packet, ip, entry, outPort, outQueue))
    {
        return;
    }
    Encapsulate(packet, ip, outPort, outQueue);
    Enqueue(packet, entry, outPort, outQueue);
}

uint8_t
PfcSwitchNetDevice::Classify(const PfcPacketContext& ctx) const
{
    // The policy sees the header as received (TTL included).
    return m_classifier->GetIngressQueue(ctx);
}

uint32_t
PfcSwitchNetDevice::SelectPort(Ptr<Packet> packet, Ipv4Header& ip, uint32_t inPort)
{
    uint32_t only;
    const PfcRouteTable::PortSet* route = m_fib.Find(ip.GetDestination().Get(), only);
    if (only != PfcRouteTable::kNoSinglePort)
    {
        return only; // the set itself not read
    }
    if (!route || route->empty())
    {
        DropPacket(packet, ip, inPort, PfcDropReason::NO_ROUTE);
        return kPfcNoPort;
    }
    uint32_t n = route->size();
    uint16_t sport = 0;
    uint16_t dport = 0;
    uint8_t proto = ip.GetProtocol();
    if ((proto == kProtocolTcp || proto == kProtocolUdp) && packet->GetSize() >= 4)
    {
        uint8_t l4[4];
        packet->CopyData(l4, 4);
        sport = uint16_t(l4[0] << 8 | l4[1]);
        dport = uint16_t(l4[2] << 8 | l4[3]);
    }
    return (*route)[EcmpIndex(ip.GetSource(), ip.GetDestination(), proto, sport, dport, n)];
}

bool
PfcSwitchNetDevice::DecrementTtl(Ptr<Packet> packet, Ipv4Header& ip, uint32_t inPort)
{
    if (ip.GetTtl() <= 1)
    {
        DropPacket(packet, ip, inPort, PfcDropReason::TTL_EXPIRED);
        return false;
    }
    ip.SetTtl(ip.GetTtl() - 1);
    return true;
}

bool
PfcSwitchNetDevice::AdmitIngress(Ptr<Packet> packet, Ipv4Header& ip, PfcQueueEntry& entry)
{
    if (!m_mmu->IsLossless(entry.inQueue))
    {
        return true; // lossy: admitted at egress
    }
    SwitchMmu::Admission adm = m_mmu->AdmitLossless(entry.inPort, entry.inQueue, entry.bytes);
    if (adm.segment == MmuSegment::DROPPED)
    {
        // While a monitor holds the class lossy (ITSY's Trigger recovery), and
        // until what the upstream sent then has arrived, its upstream was not
        // paused: what overflows is that recovery's drop, not PFC's failure.
        const uint8_t cls = m_classifier->GetPauseClass(entry.inQueue);
        for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
        {
            if (monitor->IsHoldDrop(entry.inPort, cls))
            {
                packet->AddHeader(ip);
                RecoveryDrop(packet, entry.inPort, *monitor);
                return false;
            }
        }
        DropPacket(packet, ip, entry.inPort, PfcDropReason::LOSSLESS_OVERFLOW);
        return false;
    }
    if (adm.pause || adm.resume)
    {
        IngressQueueTurned(entry.inPort, entry.inQueue, adm.pause);
    }
    entry.pool = PfcBufferPool::LOSSLESS;
    return true;
}

uint8_t
PfcSwitchNetDevice::Rewrite(PfcPacketContext& ctx, uint32_t outPort)
{
    ctx.outPort = outPort;
    uint8_t outQueue = m_classifier->Rewrite(ctx);
    NS_ASSERT(outQueue < kPfcClasses);
    return outQueue;
}

bool
PfcSwitchNetDevice::AdmitEgress(Ptr<Packet> packet,
                                Ipv4Header& ip,
                                PfcQueueEntry& entry,
                                uint32_t outPort,
                                uint8_t outQueue)
{
    if (entry.pool == PfcBufferPool::LOSSLESS)
    {
        return true; // charged at ingress
    }
    if (!m_mmu->AdmitLossy(outPort, outQueue, entry.bytes))
    {
        DropPacket(packet, ip, entry.inPort, PfcDropReason::LOSSY_OVERFLOW);
        return false;
    }
    entry.pool = PfcBufferPool::LOSSY;
    return true;
}

void
PfcSwitchNetDevice::Encapsulate(Ptr<Packet> packet,
                                Ipv4Header& ip,
                                uint32_t outPort,
                                uint8_t outQueue)
{
    const Ptr<PfcNetDevice>& out = m_ports[outPort];
    // ECN (DCQCN): RED-like marking on the egress class queue, ECN-capable packets only.
    Ipv4Header::EcnType ecn = ip.GetEcn();
    if ((ecn == Ipv4Header::ECN_ECT0 || ecn == Ipv4Header::ECN_ECT1) &&
        out->ShouldMarkEcn(outQueue))
    {
        ip.SetEcn(Ipv4Header::ECN_CE);
        ++m_ecnMarked;
    }
    if (m_checksum)
    {
        ip.EnableChecksum();
    }
    packet->AddHeader(ip);
    out->Encapsulate(packet, out->GetMacAddress(), kEtherTypeIpv4, outQueue);
}

void
PfcSwitchNetDevice::Enqueue(Ptr<Packet> frame,
                            PfcQueueEntry& entry,
                            uint32_t outPort,
                            uint8_t outQueue)
{
    entry.frame = frame;
    if (m_observed) // monitors: the only test when there is none
    {
        if (DropForRecovery(entry, outPort, outQueue))
        {
            return;
        }
        if (entry.pool == PfcBufferPool::LOSSLESS)
        {
            const uint8_t inCls = m_classifier->GetPauseClass(entry.inQueue);
            for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
            {
                monitor->NotifyEnqueue(outPort, outQueue, entry.inPort, inCls);
            }
        }
    }
    ++m_forwarded;
    m_ports[outPort]->EnqueueFromSwitch(entry, outQueue);
}

bool
PfcSwitchNetDevice::DropForRecovery(const PfcQueueEntry& entry, uint32_t outPort, uint8_t outQueue)
{
    const bool lossless = entry.pool == PfcBufferPool::LOSSLESS;
    auto by = std::find_if(m_monitors.begin(), m_monitors.end(), [&](const auto& monitor) {
        return monitor->IsDropping(outPort, outQueue, lossless);
    });
    if (by == m_monitors.end())
    {
        return false;
    }
    if (entry.pool == PfcBufferPool::LOSSLESS &&
        m_mmu->ReleaseLossless(entry.inPort, entry.inQueue, entry.bytes))
    {
        IngressQueueTurned(entry.inPort, entry.inQueue, false);
    }
    else if (entry.pool == PfcBufferPool::LOSSY)
    {
        m_mmu->ReleaseLossy(outPort, outQueue, entry.bytes);
    }
    else if (entry.pool == PfcBufferPool::NONE && entry.inPort == kPfcNoPort)
    {
        m_localBytes[entry.inQueue] -= entry.bytes; // charged by SendLocal
    }
    RecoveryDrop(entry.frame, entry.inPort, **by);
    return true;
}

void
PfcSwitchNetDevice::RecoveryDrop(Ptr<const Packet> frame, uint32_t inPort, PfcSwitchMonitor& by)
{
    by.CountRecoveryDrops(1);
    Drop(frame, inPort, by.GetRecoveryDropReason());
}

uint32_t
PfcSwitchNetDevice::FlushForRecovery(uint32_t port, uint8_t cls, PfcSwitchMonitor& by)
{
    NS_ABORT_MSG_IF(port >= m_ports.size() || cls >= kPfcClasses,
                    "PfcSwitchNetDevice::FlushForRecovery: no port " << port << " class "
                                                                     << int(cls));
    // The port drops each frame (its Drop trace and counters, reaching this
    // switch's), and hands it back through DequeuedFromPort, which releases
    // its buffer as for a frame sent.
    const uint32_t n = m_ports[port]->DropLosslessFrames(cls, by.GetRecoveryDropReason());
    by.CountRecoveryDrops(n);
    return n;
}

void
PfcSwitchNetDevice::AddMonitor(Ptr<PfcSwitchMonitor> monitor)
{
    NS_ABORT_MSG_IF(m_initialized, "PfcSwitchNetDevice::AddMonitor: the switch has started");
    NS_ABORT_MSG_IF(!monitor, "PfcSwitchNetDevice::AddMonitor: null monitor");
    m_monitors.push_back(monitor);
}

uint32_t
PfcSwitchNetDevice::GetNMonitors() const
{
    return m_monitors.size();
}

Ptr<PfcSwitchMonitor>
PfcSwitchNetDevice::GetMonitor(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_monitors.size(), "PfcSwitchNetDevice::GetMonitor: no monitor " << i);
    return m_monitors[i];
}

void
PfcSwitchNetDevice::PfcReceived(uint32_t port, const PfcHeader& pfc)
{
    for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
    {
        monitor->ReceivePfc(port, pfc);
    }
}

void
PfcSwitchNetDevice::IngressQueueTurned(uint32_t port, uint8_t queue, bool off)
{
    // The MMU owns the OFF state of each ingress queue; the port owns the
    // pause of its peer's class (and refreshes it).  The class is paused while
    // any ingress queue of the port that maps to it is OFF: a queue that turns
    // OFF or ON changes it only when no other such queue is OFF.
    uint8_t cls = m_classifier->GetPauseClass(queue);
    for (uint8_t q = 0; q < kPfcClasses; ++q)
    {
        if (q != queue && m_mmu->IsOff(port, q) && m_classifier->GetPauseClass(q) == cls)
        {
            return;
        }
    }
    if (off)
    {
        for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
        {
            if (monitor->IsHoldingLossy(port, cls))
            {
                return; // a recovery (ITSY's Trigger): this class pauses nobody for a while
            }
        }
        for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
        {
            monitor->BeforePause(port, cls); // ITSY: the PAUSE carries its checking message
        }
        m_ports[port]->StartPausing(cls);
        for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
        {
            monitor->AfterPause(port, cls);
        }
    }
    else
    {
        m_ports[port]->StopPausing(cls);
        for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
        {
            monitor->AfterResume(port, cls);
        }
    }
}

void
PfcSwitchNetDevice::ReevaluatePause(uint32_t port, uint8_t cls)
{
    if (port >= m_ports.size() || m_ports[port]->IsPausingPeer(cls))
    {
        return;
    }
    for (uint8_t q = 0; q < kPfcClasses; ++q)
    {
        if (m_classifier->GetPauseClass(q) == cls && m_mmu->IsOff(port, q))
        {
            IngressQueueTurned(port, q, true); // still OFF: PAUSE now
            return;
        }
    }
}

void
PfcSwitchNetDevice::DequeuedFromPort(uint32_t outPort, const PfcQueueEntry& entry)
{
    switch (entry.pool)
    {
    case PfcBufferPool::LOSSLESS:
        if (m_observed)
        {
            const uint8_t inCls = m_classifier->GetPauseClass(entry.inQueue);
            for (const Ptr<PfcSwitchMonitor>& monitor : m_monitors)
            {
                monitor->NotifyDequeue(outPort, entry.outQueue, entry.inPort, inCls);
            }
        }
        if (m_mmu->ReleaseLossless(entry.inPort, entry.inQueue, entry.bytes))
        {
            IngressQueueTurned(entry.inPort, entry.inQueue, false);
        }
        break;
    case PfcBufferPool::LOSSY:
        m_mmu->ReleaseLossy(outPort, entry.outQueue, entry.bytes);
        break;
    case PfcBufferPool::NONE:
        if (entry.inPort == kPfcNoPort)
        {
            NS_ASSERT(m_localBytes[entry.inQueue] >= entry.bytes);
            m_localBytes[entry.inQueue] -= entry.bytes;
            if (!m_source.IsNull())
            {
                NotifySourceReady();
            }
        }
        break;
    }
}

// ---------------------------------------------------------------------------
// Locally originated and destined packets (relay servers)
// ---------------------------------------------------------------------------

void
PfcSwitchNetDevice::SetTransmitSource(PfcNetDevice::TransmitSourceCallback source)
{
    m_source = source;
}

void
PfcSwitchNetDevice::SetReceiveHook(PfcNetDevice::ReceiveHookCallback hook)
{
    m_receiveHook = hook;
}

void
PfcSwitchNetDevice::NotifySourceReady()
{
    // A new event: the caller may be inside a port's transmit path (a frame
    // just left its queue), which must finish before the port takes another.
    if (m_pullEvent.IsExpired())
    {
        m_pullEvent = Simulator::ScheduleNow(&PfcSwitchNetDevice::PullLocal, this);
    }
}

void
PfcSwitchNetDevice::PullLocal()
{
    while (!m_source.IsNull())
    {
        uint8_t full = 0;
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            full |= m_localBytes[c] >= m_localLimit ? uint8_t(1u << c) : 0;
        }
        if (full == 0xff)
        {
            return;
        }
        Ptr<Packet> packet = m_source(full);
        if (!packet)
        {
            return;
        }
        Ipv4Header ip;
        packet->PeekHeader(ip);
        NS_ASSERT_MSG(!(full & (1u << GetClassOfDscp(ip.GetDscp()))),
                      "PfcSwitchNetDevice: the transmit source returned a packet of a class "
                      "whose local backlog is full");
        SendLocal(packet);
    }
}

uint8_t
PfcSwitchNetDevice::GetClassOfDscp(uint8_t dscp) const
{
    return m_ports.empty() ? 0 : m_ports[0]->GetClassOfDscp(dscp);
}

uint64_t
PfcSwitchNetDevice::GetLocalQueueBytes(uint8_t cls) const
{
    NS_ABORT_MSG_IF(cls >= kPfcClasses, "PfcSwitchNetDevice: no class " << int(cls));
    return m_localBytes[cls];
}

void
PfcSwitchNetDevice::SendLocal(Ptr<Packet> packet)
{
    // Bytes charged: the untagged frame (a transit frame is charged its size on arrival).
    uint32_t bytes = packet->GetSize() + kEthernetHeaderSize;
    Ipv4Header ip;
    packet->RemoveHeader(ip);
    PfcPacketContext ctx;
    ctx.inPort = kPfcNoPort;
    ctx.outPort = 0;
    ctx.ip = &ip;
    ctx.hasVlan = false;
    ctx.pcp = 0;
    ctx.frameClass = GetClassOfDscp(ip.GetDscp());
    // Frames this node originates are charged to no pool and skip the
    // ingress stages: no ingress queue, and they leave with the TTL they were
    // given (not decremented), except that none may leave with TTL 0.  Their
    // entry's inQueue carries the class of their DSCP for the local backlog
    // (PullLocal).
    PfcQueueEntry entry;
    entry.bytes = bytes;
    entry.inPort = kPfcNoPort;
    entry.inQueue = ctx.frameClass;
    uint32_t outPort = SelectPort(packet, ip, kPfcNoPort);
    if (outPort == kPfcNoPort)
    {
        return;
    }
    if (ip.GetTtl() == 0)
    {
        DropPacket(packet, ip, kPfcNoPort, PfcDropReason::TTL_EXPIRED);
        return;
    }
    uint8_t outQueue = Rewrite(ctx, outPort);
    Encapsulate(packet, ip, outPort, outQueue);
    m_localBytes[entry.inQueue] += bytes; // released by DequeuedFromPort
    Enqueue(packet, entry, outPort, outQueue);
}

void
PfcSwitchNetDevice::DropPacket(Ptr<Packet> packet,
                               const Ipv4Header& ip,
                               uint32_t inPort,
                               PfcDropReason reason)
{
    packet->AddHeader(ip);
    Drop(packet, inPort, reason);
}

void
PfcSwitchNetDevice::Drop(Ptr<const Packet> frame, uint32_t inPort, PfcDropReason reason)
{
    NS_LOG_LOGIC("drop at port " << inPort << ": " << reason);
    ++m_drops[static_cast<uint8_t>(reason)];
    m_dropTrace(frame, inPort, reason);
}

void
PfcSwitchNetDevice::PortDrop(Ptr<const Packet> frame, PfcDropReason reason)
{
    Drop(frame, kPfcNoPort, reason);
}

// ---------------------------------------------------------------------------
// Accessors
// ---------------------------------------------------------------------------

void
PfcSwitchNetDevice::SetClassifier(Ptr<PfcClassifier> classifier)
{
    NS_ABORT_MSG_IF(!classifier, "PfcSwitchNetDevice::SetClassifier: null classifier");
    m_classifier = classifier;
}

Ptr<PfcClassifier>
PfcSwitchNetDevice::GetClassifier() const
{
    return m_classifier;
}

Ptr<SwitchMmu>
PfcSwitchNetDevice::GetMmu() const
{
    return m_mmu;
}

Ptr<ItsyDetector>
PfcSwitchNetDevice::GetItsy() const
{
    return m_itsy;
}

Ptr<PfcWatchdog>
PfcSwitchNetDevice::GetWatchdog() const
{
    return m_watchdog;
}

uint64_t
PfcSwitchNetDevice::GetDropCount(PfcDropReason reason) const
{
    return m_drops[static_cast<uint8_t>(reason)];
}

uint64_t
PfcSwitchNetDevice::GetForwardedCount() const
{
    return m_forwarded;
}

uint64_t
PfcSwitchNetDevice::GetEcnMarkedCount() const
{
    return m_ecnMarked;
}

uint64_t
PfcSwitchNetDevice::GetPauseDecisions() const
{
    return m_mmu->GetPauseCount();
}

uint64_t
PfcSwitchNetDevice::GetResumeDecisions() const
{
    return m_mmu->GetResumeCount();
}

// ---------------------------------------------------------------------------
// NetDevice (the switch as an interface of a relay server's IP stack)
// ---------------------------------------------------------------------------

bool
PfcSwitchNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
PfcSwitchNetDevice::SendFrom(Ptr<Packet> packet,
                             const Address& source,
                             const Address& dest,
                             uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << protocolNumber);
    if (protocolNumber != kEtherTypeIpv4)
    {
        Drop(packet, kPfcNoPort, PfcDropReason::NOT_IPV4);
        return false;
    }
    SendLocal(packet);
    return true;
}

void
PfcSwitchNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
PfcSwitchNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfcSwitchNetDevice::GetChannel() const
{
    return nullptr;
}

void
PfcSwitchNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
PfcSwitchNetDevice::GetAddress() const
{
    return m_address;
}

bool
PfcSwitchNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
PfcSwitchNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcSwitchNetDevice::IsLinkUp() const
{
    return true;
}

void
PfcSwitchNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
PfcSwitchNetDevice::IsBroadcast() const
{
    return true;
}

Address
PfcSwitchNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfcSwitchNetDevice::IsMulticast() const
{
    return false;
}

Address
PfcSwitchNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
PfcSwitchNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcSwitchNetDevice::IsPointToPoint() const
{
    return false;
}

bool
PfcSwitchNetDevice::IsBridge() const
{
    return false;
}

Ptr<Node>
PfcSwitchNetDevice::GetNode() const
{
    return m_node;
}

void
PfcSwitchNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
PfcSwitchNetDevice::NeedsArp() const
{
    return false;
}

void
PfcSwitchNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
}

void
PfcSwitchNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
PfcSwitchNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
