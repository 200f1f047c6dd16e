/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "itsy-header.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ItsyHeader");
NS_OBJECT_ENSURE_REGISTERED(ItsyHeader);

namespace
{
/// Bytes before the hops: message, detection time, hop count.
constexpr uint32_t kFixedSize = ItsyMessage::kSize + 8 + 1;
/// Bytes per hop.
constexpr uint32_t kHopSize = 4 + 2 + 1;
/// Smallest body: an Ethernet frame of 64 bytes (header 14, FCS 4).
constexpr uint32_t kMinBody = 46;
} // namespace

void
ItsyMessage::Write(Buffer::Iterator& i) const
{
    i.WriteHtonU16(kMagic);
    i.WriteU8(type);
    i.WriteU8(cls);
    i.WriteHtonU32(genNode);
    i.WriteHtonU16(genPort);
    i.WriteHtonU32(seq);
    i.WriteHtonU32(trigNode);
    i.WriteHtonU16(trigPort);
}

bool
ItsyMessage::Read(Buffer::Iterator& i)
{
    uint16_t magic = i.ReadNtohU16();
    uint8_t t = i.ReadU8();
    cls = i.ReadU8();
    genNode = i.ReadNtohU32();
    genPort = i.ReadNtohU16();
    seq = i.ReadNtohU32();
    trigNode = i.ReadNtohU32();
    trigPort = i.ReadNtohU16();
    bool ok =
        magic == kMagic && (t == CHECKING || t == TEMPORAL || t == BREAK) && cls < kPfcClasses;
    type = ok ? Type(t) : NONE;
    return ok;
}

PfcHeader::Padding
ItsyMessage::ToPadding() const
{
    Buffer buffer;
    buffer.AddAtStart(PfcHeader::kPaddingSize);
    Buffer::Iterator i = buffer.Begin();
    Write(i);
    PfcHeader::Padding padding{};
    buffer.CopyData(padding.data(), kSize);
    return padding;
}

ItsyMessage
ItsyMessage::FromPadding(const PfcHeader::Padding& padding)
{
    Buffer buffer;
    buffer.AddAtStart(PfcHeader::kPaddingSize);
    Buffer::Iterator w = buffer.Begin();
    w.Write(padding.data(), PfcHeader::kPaddingSize);
    Buffer::Iterator r = buffer.Begin();
    ItsyMessage m;
    if (!m.Read(r) || m.type != CHECKING)
    {
        return ItsyMessage();
    }
    return m;
}

ItsyHeader::ItsyHeader()
{
}

TypeId
ItsyHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ItsyHeader")
                            .SetParent<Header>()
                            .SetGroupName("Tagger")
                            .AddConstructor<ItsyHeader>();
    return tid;
}

TypeId
ItsyHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
ItsyHeader::Print(std::ostream& os) const
{
    static const char* const kTypes[] = {"none", "checking", "temporal", "break"};
    os << "ITSY " << kTypes[message.type <= ItsyMessage::BREAK ? message.type : 0]
       << " c=" << int(message.cls) << " gen=" << message.genNode << ":" << (message.genPort >> 3)
       << "/" << (message.genPort & 7) << " seq=" << message.seq << " tri=" << message.trigNode
       << ":" << (message.trigPort >> 3) << "/" << (message.trigPort & 7)
       << " hops=" << hops.size();
}

uint32_t
ItsyHeader::GetSerializedSize() const
{
    uint32_t n = std::min<uint32_t>(hops.size(), kMaxHops);
    return std::max(kFixedSize + kHopSize * n, kMinBody);
}

void
ItsyHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    message.Write(i);
    i.WriteHtonU64(message.detectedNs);
    uint32_t n = std::min<uint32_t>(hops.size(), kMaxHops);
    i.WriteU8(uint8_t(n));
    for (uint32_t h = 0; h < n; ++h)
    {
        i.WriteHtonU32(hops[h].node);
        i.WriteHtonU16(hops[h].port);
        i.WriteU8(hops[h].cls);
    }
    uint32_t used = kFixedSize + kHopSize * n;
    if (used < kMinBody)
    {
        i.WriteU8(0, kMinBody - used);
    }
}

uint32_t
ItsyHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    message.Read(i);
    message.detectedNs = i.ReadNtohU64();
    uint32_t n = std::min<uint32_t>(i.ReadU8(), kMaxHops);
    hops.clear();
    for (uint32_t h = 0; h < n; ++h)
    {
        Hop hop;
        hop.node = i.ReadNtohU32();
        hop.port = i.ReadNtohU16();
        hop.cls = i.ReadU8();
        hops.push_back(hop);
    }
    return GetSerializedSize();
}

} // namespace ns3
