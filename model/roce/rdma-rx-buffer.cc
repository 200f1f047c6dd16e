/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-rx-buffer.h"

#include "roce-header.h"

#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaRxBuffer");
NS_OBJECT_ENSURE_REGISTERED(RdmaRxBuffer);

TypeId
RdmaRxBuffer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaRxBuffer")
            .SetParent<Object>()
            .SetGroupName("Tagger")
            .AddConstructor<RdmaRxBuffer>()
            .AddAttribute("DrainRate",
                          "Rate (bits/s) at which the NIC engine takes packets from the buffer.",
                          DataRateValue(DataRate("40Gbps")),
                          MakeDataRateAccessor(&RdmaRxBuffer::m_drainRate),
                          MakeDataRateChecker())
            .AddAttribute("Capacity",
                          "Receive buffer size (bytes); a packet that does not fit is dropped.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&RdmaRxBuffer::m_capacity),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Xoff",
                          "Occupancy (bytes) at or above which PauseClass is paused.",
                          UintegerValue(128 * 1024),
                          MakeUintegerAccessor(&RdmaRxBuffer::m_xoff),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Xon",
                          "Occupancy (bytes) below which the pause is lifted.",
                          UintegerValue(64 * 1024),
                          MakeUintegerAccessor(&RdmaRxBuffer::m_xon),
                          MakeUintegerChecker<uint64_t>(0))
            .AddAttribute("PauseClass",
                          "The PFC class (0..7) the NIC pauses.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaRxBuffer::m_class),
                          MakeUintegerChecker<uint8_t>(0, kPfcClasses - 1))
            .AddAttribute("StormStart",
                          "Fault mode (PFC storm) from this time (absolute; negative: never): "
                          "no drain, PauseClass paused continuously.",
                          TimeValue(Time(-1)),
                          MakeTimeAccessor(&RdmaRxBuffer::m_stormStart),
                          MakeTimeChecker())
            .AddAttribute("StormStop",
                          "End of the fault mode (absolute time).",
                          TimeValue(Time::Max()),
                          MakeTimeAccessor(&RdmaRxBuffer::m_stormStop),
                          MakeTimeChecker())
            .AddTraceSource("Pause",
                            "The NIC paused (true) or resumed (false) its switch.",
                            MakeTraceSourceAccessor(&RdmaRxBuffer::m_pauseTrace),
                            "ns3::RdmaRxBuffer::PauseTracedCallback")
            .AddTraceSource("Drop",
                            "A packet did not fit in the buffer (rx-buffer-overflow).",
                            MakeTraceSourceAccessor(&RdmaRxBuffer::m_dropTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

RdmaRxBuffer::RdmaRxBuffer()
    : m_drainRate("40Gbps"),
      m_capacity(256 * 1024),
      m_xoff(128 * 1024),
      m_xon(64 * 1024),
      m_class(3),
      m_stormStart(-1),
      m_stormStop(Time::Max()),
      m_bytes(0),
      m_pausing(false),
      m_storm(false),
      m_drops(0),
      m_pauses(0)
{
}

void
RdmaRxBuffer::DoDispose()
{
    m_drainEvent.Cancel();
    m_packets.clear();
    m_device = nullptr;
    m_deliver = DeliverCallback();
    Object::DoDispose();
}

void
RdmaRxBuffer::Attach(Ptr<PfcNetDevice> device, DeliverCallback deliver)
{
    NS_ABORT_MSG_IF(m_xon > m_xoff || m_xoff > m_capacity,
                    "RdmaRxBuffer: need Xon <= Xoff <= Capacity (" << m_xon << ", " << m_xoff
                                                                   << ", " << m_capacity << ")");
    NS_ABORT_MSG_IF(m_drainRate.GetBitRate() == 0, "RdmaRxBuffer: DrainRate must be positive");
    m_device = device;
    m_deliver = deliver;
    device->SetReceiveHook(MakeCallback(&RdmaRxBuffer::Receive, this));
    if (!m_stormStart.IsStrictlyNegative())
    {
        Simulator::Schedule(m_stormStart - Simulator::Now(), &RdmaRxBuffer::SetStorm, this, true);
        if (m_stormStop != Time::Max())
        {
            Simulator::Schedule(m_stormStop - Simulator::Now(),
                                &RdmaRxBuffer::SetStorm,
                                this,
                                false);
        }
    }
}

bool
RdmaRxBuffer::Receive(Ptr<Packet> packet)
{
    Ipv4Header ip;
    UdpHeader udp;
    Ptr<Packet> copy = packet->Copy();
    copy->RemoveHeader(ip);
    if (ip.GetProtocol() != 17 || copy->GetSize() < udp.GetSerializedSize())
    {
        return m_deliver(packet);
    }
    copy->PeekHeader(udp);
    if (udp.GetDestinationPort() != kRoceUdpPort)
    {
        return m_deliver(packet);
    }
    if (m_bytes + packet->GetSize() > m_capacity)
    {
        ++m_drops;
        m_dropTrace(packet);
        return true;
    }
    m_packets.push_back(packet);
    m_bytes += packet->GetSize();
    UpdatePause();
    ScheduleDrain();
    return true;
}

void
RdmaRxBuffer::ScheduleDrain()
{
    if (m_storm || m_packets.empty() || !m_drainEvent.IsExpired())
    {
        return;
    }
    m_drainEvent = Simulator::Schedule(PfcTxTime(m_drainRate, m_packets.front()->GetSize()),
                                       &RdmaRxBuffer::Drain,
                                       this);
}

void
RdmaRxBuffer::Drain()
{
    Ptr<Packet> packet = m_packets.front();
    m_packets.pop_front();
    m_bytes -= packet->GetSize();
    m_deliver(packet);
    UpdatePause();
    ScheduleDrain();
}

void
RdmaRxBuffer::UpdatePause()
{
    bool pause = m_storm || m_bytes >= m_xoff || (m_pausing && m_bytes >= m_xon);
    if (pause == m_pausing)
    {
        return;
    }
    m_pausing = pause;
    if (pause)
    {
        ++m_pauses;
        m_device->StartPausing(m_class);
    }
    else
    {
        m_device->StopPausing(m_class);
    }
    m_pauseTrace(pause);
}

void
RdmaRxBuffer::SetStorm(bool on)
{
    NS_LOG_FUNCTION(this << on);
    m_storm = on;
    if (!on)
    {
        ScheduleDrain();
    }
    UpdatePause();
}

uint64_t
RdmaRxBuffer::GetBytes() const
{
    return m_bytes;
}

const std::deque<Ptr<Packet>>&
RdmaRxBuffer::GetHeldPackets() const
{
    return m_packets;
}

uint64_t
RdmaRxBuffer::GetDrops() const
{
    return m_drops;
}

uint64_t
RdmaRxBuffer::GetPauses() const
{
    return m_pauses;
}

bool
RdmaRxBuffer::IsStorming() const
{
    return m_storm;
}

} // namespace ns3
