/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger helpers (ns-3).
 */

#include "rdma-packet-account.h"

#include "pfc-topology-helper.h"
#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

RdmaPacketAccount::RdmaPacketAccount(const PfcTopologyHelper& net, const RdmaHelper& rdma)
    : m_net(net),
      m_rdma(rdma)
{
    const tagger::Topology& topo = net.GetTopology();
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        // A switch (or relay server) reports its ports' drops with its own.
        if (topo.IsForwarder(v))
        {
            net.GetSwitch(v)->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&RdmaPacketAccount::SwitchDrop, this));
        }
        else if (topo.IsHost(v))
        {
            net.GetDevice(v, 0)->TraceConnectWithoutContext(
                "Drop",
                MakeCallback(&RdmaPacketAccount::DeviceDrop, this));
        }
    }
    for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
    {
        if (Ptr<RdmaRxBuffer> buffer = rdma.GetNic(h)->GetRxBuffer())
        {
            buffer->TraceConnectWithoutContext("Drop",
                                               MakeCallback(&RdmaPacketAccount::BufferDrop, this));
        }
    }
}

RdmaPacketAccount::~RdmaPacketAccount() = default;

void
RdmaPacketAccount::SwitchDrop(Ptr<const Packet> frame, uint32_t /* port */, PfcDropReason reason)
{
    DeviceDrop(frame, reason);
}

void
RdmaPacketAccount::DeviceDrop(Ptr<const Packet> frame, PfcDropReason reason)
{
    if (IsRoceDataPacket(frame))
    {
        ++m_drops[static_cast<uint8_t>(reason)];
    }
}

void
RdmaPacketAccount::BufferDrop(Ptr<const Packet> packet)
{
    DeviceDrop(packet, PfcDropReason::RX_BUFFER_OVERFLOW);
}

uint64_t
RdmaPacketAccount::Counts::Fates() const
{
    uint64_t n = delivered + discarded;
    for (uint64_t d : dropped)
    {
        n += d;
    }
    return n;
}

RdmaPacketAccount::Counts
RdmaPacketAccount::Now() const
{
    Counts c;
    for (uint32_t h = 0; h < m_rdma.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic = m_rdma.GetNic(h);
        c.sent += nic->GetDataPacketsSent();
        c.delivered += nic->GetDataPacketsDelivered();
        c.discarded += nic->GetDuplicatePackets();
    }
    c.dropped = m_drops;
    return c;
}

uint64_t
RdmaPacketAccount::Forwarded() const
{
    uint64_t n = 0;
    const tagger::Topology& topo = m_net.GetTopology();
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        if (topo.IsForwarder(v))
        {
            n += m_net.GetSwitch(v)->GetForwardedCount();
        }
    }
    return n;
}

uint64_t
RdmaPacketAccount::QueuedData() const
{
    uint64_t n = 0;
    const tagger::Topology& topo = m_net.GetTopology();
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            Ptr<PfcNetDevice> device = m_net.GetDevice(v, p);
            for (uint8_t cls = 0; device && cls < kPfcClasses; ++cls)
            {
                for (const PfcQueueEntry& entry : device->GetQueue(cls))
                {
                    n += IsRoceDataPacket(entry.frame) ? 1 : 0;
                }
            }
        }
    }
    for (uint32_t h = 0; h < m_rdma.GetNHosts(); ++h)
    {
        if (Ptr<RdmaRxBuffer> buffer = m_rdma.GetNic(h)->GetRxBuffer())
        {
            for (const Ptr<Packet>& packet : buffer->GetHeldPackets())
            {
                n += IsRoceDataPacket(packet) ? 1 : 0;
            }
        }
    }
    return n;
}

Time
RdmaPacketAccount::GetDefaultQuiet() const
{
    Time longest;
    const tagger::Topology& topo = m_net.GetTopology();
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            if (Ptr<PfcNetDevice> device = m_net.GetDevice(v, p))
            {
                UintegerValue quanta;
                device->GetAttribute("PauseQuanta", quanta);
                longest = Max(longest, PfcTxTime(device->GetDataRate(), quanta.Get() * 512 / 8));
            }
        }
    }
    return longest * 2 + MilliSeconds(1);
}

void
RdmaPacketAccount::Settle(Time quiet, Time limit)
{
    NS_ABORT_MSG_IF(m_measured, "RdmaPacketAccount::Settle: called twice");
    NS_ABORT_MSG_IF(quiet.IsStrictlyNegative(), "RdmaPacketAccount::Settle: quiet must be >= 0");
    quiet = quiet.IsZero() ? GetDefaultQuiet() : quiet;
    m_measured = true;
    m_atStop = Now();
    for (uint32_t h = 0; h < m_rdma.GetNHosts(); ++h)
    {
        m_rdma.GetNic(h)->StopFlows();
    }
    const Time start = Simulator::Now();
    Time lastChange = start;
    uint64_t fates = m_atStop.Fates();
    uint64_t queued = QueuedData();
    uint64_t forwarded = Forwarded(); // frames that move from queue to queue
    // Run on in steps of `quiet` (a stop another helper scheduled may end a
    // step early) until nothing changed for `quiet`: no fate, no queue, no
    // switch forwarding a frame (a frame that moves between queues changes
    // neither of the others), or the limit.
    while (Simulator::Now() - lastChange < quiet && Simulator::Now() - start < limit)
    {
        Simulator::Stop(quiet);
        Simulator::Run();
        const uint64_t f = Now().Fates();
        const uint64_t q = QueuedData();
        const uint64_t w = Forwarded();
        if (f != fates || q != queued || w != forwarded)
        {
            fates = f;
            queued = q;
            forwarded = w;
            lastChange = Simulator::Now();
        }
    }
    m_settled = Simulator::Now() - lastChange >= quiet;
    NS_ABORT_MSG_IF(Now().sent != m_atStop.sent,
                    "RdmaPacketAccount::Settle: a NIC sent data after StopFlows");
    m_inFlight = fates - m_atStop.Fates() + queued;
}

uint64_t
RdmaPacketAccount::GetSent() const
{
    return m_measured ? m_atStop.sent : Now().sent;
}

uint64_t
RdmaPacketAccount::GetDelivered() const
{
    return m_measured ? m_atStop.delivered : Now().delivered;
}

uint64_t
RdmaPacketAccount::GetDiscarded() const
{
    return m_measured ? m_atStop.discarded : Now().discarded;
}

uint64_t
RdmaPacketAccount::GetDropped(PfcDropReason reason) const
{
    return (m_measured ? m_atStop.dropped : m_drops)[static_cast<uint8_t>(reason)];
}

uint64_t
RdmaPacketAccount::GetDropped() const
{
    uint64_t n = 0;
    for (uint8_t r = 0; r < kPfcDropReasons; ++r)
    {
        n += GetDropped(static_cast<PfcDropReason>(r));
    }
    return n;
}

uint64_t
RdmaPacketAccount::GetInFlight() const
{
    return m_inFlight;
}

bool
RdmaPacketAccount::IsSettled() const
{
    return m_settled;
}

bool
RdmaPacketAccount::IsBalanced() const
{
    return m_measured && m_settled &&
           GetSent() == GetDelivered() + GetDiscarded() + GetDropped() + GetInFlight();
}

void
RdmaPacketAccount::Print(std::ostream& os) const
{
    os << "data packets: sent=" << GetSent() << " delivered=" << GetDelivered()
       << " discarded=" << GetDiscarded() << " dropped=" << GetDropped() << " (";
    bool first = true;
    for (uint8_t r = 0; r < kPfcDropReasons; ++r)
    {
        const auto reason = static_cast<PfcDropReason>(r);
        if (GetDropped(reason) > 0)
        {
            os << (first ? "" : " ") << reason << "=" << GetDropped(reason);
            first = false;
        }
    }
    os << (first ? "none" : "") << ") in_flight=";
    if (m_measured && m_settled)
    {
        os << GetInFlight();
    }
    else
    {
        os << (m_measured ? "unsettled" : "unmeasured");
    }
    os << " balanced=" << (IsBalanced() ? "yes" : "no") << "\n";
}

} // namespace ns3
