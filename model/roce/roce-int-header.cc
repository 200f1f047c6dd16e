/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-int-header.h"

#include "roce-header.h"

#include "ns3/abort.h"
#include "ns3/ipv4-header.h"
#include "ns3/node.h"
#include "ns3/pfc-header.h"
#include "ns3/udp-header.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RoceIntHeader);

namespace
{
/// Link rates a hop record carries, by code (index; 0: none), in Gb/s.
constexpr std::array<uint64_t, 10> kRateGbps = {0, 1, 10, 25, 40, 50, 100, 200, 400, 800};

/// \param rateBps a rate \return its code (0: none in the table)
uint64_t
RateCode(uint64_t rateBps)
{
    for (uint64_t c = 1; c < kRateGbps.size(); ++c)
    {
        if (kRateGbps[c] * 1000000000ULL == rateBps)
        {
            return c;
        }
    }
    return 0;
}
} // namespace

TypeId
RoceIntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIntHeader")
                            .SetParent<Header>()
                            .SetGroupName("Tagger")
                            .AddConstructor<RoceIntHeader>();
    return tid;
}

TypeId
RoceIntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
RoceIntHeader::GetSerializedSize() const
{
    return kSize;
}

void
RoceIntHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_nHops);
    start.WriteU8(0);
    start.WriteU16(0);
    for (uint64_t hop : m_hops)
    {
        start.WriteHtonU64(hop);
    }
}

uint32_t
RoceIntHeader::Deserialize(Buffer::Iterator start)
{
    m_nHops = std::min<uint8_t>(start.ReadU8(), kMaxHops);
    start.Next(3);
    for (uint64_t& hop : m_hops)
    {
        hop = start.ReadNtohU64();
    }
    return kSize;
}

void
RoceIntHeader::Print(std::ostream& os) const
{
    os << "INT hops=" << uint32_t(m_nHops);
    for (uint32_t i = 0; i < m_nHops; ++i)
    {
        const Hop h = GetHop(i);
        os << " [" << h.rateBps / 1000000000 << "G t=" << h.timeNs << " b=" << h.bytes
           << " q=" << h.queue << "]";
    }
}

bool
RoceIntHeader::IsEncodable(uint64_t rateBps)
{
    return RateCode(rateBps) != 0;
}

void
RoceIntHeader::PushHop(Time now, uint64_t txBytes, uint64_t queueBytes, uint64_t rateBps)
{
    const uint64_t code = RateCode(rateBps);
    NS_ABORT_MSG_IF(code == 0,
                    "RoceIntHeader: a link of " << rateBps
                                                << " bit/s; INT records 1, 10, 25, 40, 50, 100, "
                                                   "200, 400 or 800 Gb/s");
    if (m_nHops >= kMaxHops)
    {
        return;
    }
    const uint64_t t = uint64_t(now.GetNanoSeconds()) % kTimeRange;
    const uint64_t b = (txBytes / kByteUnit) % kByteRange;
    const uint64_t q = std::min<uint64_t>(queueBytes / kQueueUnit, kQueueMax);
    m_hops[m_nHops++] = code << 60 | t << 36 | b << 16 | q;
}

uint32_t
RoceIntHeader::GetNHops() const
{
    return m_nHops;
}

RoceIntHeader::Hop
RoceIntHeader::GetHop(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nHops, "RoceIntHeader::GetHop: hop " << i << " of " << int(m_nHops));
    const uint64_t v = m_hops[i];
    Hop h;
    h.rateBps = kRateGbps[std::min<uint64_t>(v >> 60, kRateGbps.size() - 1)] * 1000000000ULL;
    h.timeNs = (v >> 36) & (kTimeRange - 1);
    h.bytes = (v >> 16) & (kByteRange - 1);
    h.queue = (v & 0xffff) * kQueueUnit;
    return h;
}

uint64_t
RoceIntHeader::GetTimeDelta(const Hop& later, const Hop& earlier)
{
    return (later.timeNs + kTimeRange - earlier.timeNs) % kTimeRange;
}

uint64_t
RoceIntHeader::GetBytesDelta(const Hop& later, const Hop& earlier)
{
    return ((later.bytes + kByteRange - earlier.bytes) % kByteRange) * kByteUnit;
}

bool
RoceIntStamp(Ptr<Packet> frame, Time now, uint64_t txBytes, uint64_t queueBytes, uint64_t rateBps)
{
    EthernetDot1qHeader eth;
    frame->RemoveHeader(eth);
    bool pushed = false;
    if (eth.GetEtherType() == kEtherTypeIpv4)
    {
        Ipv4Header ip;
        frame->RemoveHeader(ip);
        if (ip.GetProtocol() == 17 && frame->GetSize() >= 8 + 12 + RoceIntHeader::kSize)
        {
            UdpHeader udp;
            frame->RemoveHeader(udp);
            RoceBthHeader bth;
            frame->RemoveHeader(bth);
            if (udp.GetDestinationPort() == kRoceUdpPort && bth.GetInt() &&
                bth.GetOpcode() <= RoceBthHeader::RC_SEND_ONLY)
            {
                RoceIntHeader telemetry;
                frame->RemoveHeader(telemetry);
                telemetry.PushHop(now, txBytes, queueBytes, rateBps);
                frame->AddHeader(telemetry);
                pushed = true;
            }
            frame->AddHeader(bth);
            frame->AddHeader(udp);
        }
        if (Node::ChecksumEnabled())
        {
            ip.EnableChecksum();
        }
        frame->AddHeader(ip);
    }
    frame->AddHeader(eth);
    return pushed;
}

} // namespace ns3
