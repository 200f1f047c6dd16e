/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "roce-header.h"

#include "ns3/abort.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/pfc-header.h"
#include "ns3/udp-header.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceBthHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceAethHeader);
NS_OBJECT_ENSURE_REGISTERED(RoceIcrcTrailer);

namespace
{

/// Size of the BTH (bytes).
constexpr uint32_t kBthSize = 12;
/// Size of the AETH (bytes).
constexpr uint32_t kAethSize = 4;
/// Size of the ICRC (bytes).
constexpr uint32_t kIcrcSize = 4;
/// Largest value of a 24-bit field (QP, PSN, MSN).
constexpr uint32_t kMax24 = 0x00FFFFFF;
/// Largest pad count.
constexpr uint8_t kMaxPad = 3;
/// Default partition key (full membership, default partition).
constexpr uint16_t kDefaultPkey = 0xFFFF;

/// BTH byte 1: solicited event.
constexpr uint8_t kSeBit = 0x80;
/// BTH byte 1: pad count mask (bits 5-4).
constexpr uint8_t kPadMask = 0x30;
/// BTH byte 1: shift of the pad count.
constexpr uint8_t kPadShift = 4;
/// BTH byte 4: forward ECN.
constexpr uint8_t kFecnBit = 0x80;
/// BTH byte 4: backward ECN.
constexpr uint8_t kBecnBit = 0x40;
/// BTH byte 4: this module's INT bit (the first reserved bit; RoceIntHeader).
constexpr uint8_t kIntBit = 0x20;
/// BTH byte 8: acknowledge request.
constexpr uint8_t kAckReqBit = 0x80;
/// AETH syndrome: bits 6-5 give the kind (00 ACK, 01 RNR NAK, 11 NAK).
constexpr uint8_t kSyndromeKindMask = 0x60;

/**
 * Write the low 24 bits of \p value, most significant byte first.
 * \param i the iterator, advanced by 3 bytes
 * \param value the value
 */
void
WriteU24(Buffer::Iterator& i, uint32_t value)
{
    i.WriteU8(static_cast<uint8_t>((value >> 16) & 0xFF));
    i.WriteU8(static_cast<uint8_t>((value >> 8) & 0xFF));
    i.WriteU8(static_cast<uint8_t>(value & 0xFF));
}

/**
 * Read a 24-bit value written most significant byte first.
 * \param i the iterator, advanced by 3 bytes
 * \return the value
 */
uint32_t
ReadU24(Buffer::Iterator& i)
{
    uint32_t value = static_cast<uint32_t>(i.ReadU8()) << 16;
    value |= static_cast<uint32_t>(i.ReadU8()) << 8;
    value |= i.ReadU8();
    return value;
}

/**
 * Print \p value as "0x" and \p digits hex digits, leaving the stream's flags as they were.
 * \param os the stream
 * \param value the value
 * \param digits the number of digits
 */
void
PrintHex(std::ostream& os, uint32_t value, int digits)
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    os << "0x" << std::hex << std::setw(digits) << std::setfill('0') << value;
    os.flags(flags);
    os.fill(fill);
}

/**
 * The name of a BTH opcode.
 * \param opcode the opcode
 * \return its name, or nullptr for an opcode the module does not use
 */
const char*
OpcodeName(uint8_t opcode)
{
    switch (opcode)
    {
    case RoceBthHeader::RC_SEND_FIRST:
        return "RC_SEND_FIRST";
    case RoceBthHeader::RC_SEND_MIDDLE:
        return "RC_SEND_MIDDLE";
    case RoceBthHeader::RC_SEND_LAST:
        return "RC_SEND_LAST";
    case RoceBthHeader::RC_SEND_ONLY:
        return "RC_SEND_ONLY";
    case RoceBthHeader::RC_ACK:
        return "RC_ACK";
    case RoceBthHeader::CNP:
        return "CNP";
    default:
        return nullptr;
    }
}

} // namespace

// ---------------------------------------------------------------------------
// RoceBthHeader
// ---------------------------------------------------------------------------

RoceBthHeader::RoceBthHeader()
    : m_opcode(RC_SEND_ONLY),
      m_flags(0),
      m_pkey(kDefaultPkey),
      m_becnByte(0),
      m_destQp(0),
      m_ackReq(false),
      m_psn(0)
{
}

TypeId
RoceBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Tagger")
                            .AddConstructor<RoceBthHeader>();
    return tid;
}

TypeId
RoceBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceBthHeader::Print(std::ostream& os) const
{
    os << "BTH ";
    const char* name = OpcodeName(m_opcode);
    if (name != nullptr)
    {
        os << name;
    }
    else
    {
        os << "opcode=";
        PrintHex(os, m_opcode, 2);
    }
    os << " qp=";
    PrintHex(os, m_destQp, 6);
    os << " psn=" << m_psn << " pkey=";
    PrintHex(os, m_pkey, 4);
    if (GetSolicited())
    {
        os << " SE";
    }
    if (GetPadCount() != 0)
    {
        os << " pad=" << static_cast<uint32_t>(GetPadCount());
    }
    if ((m_becnByte & kFecnBit) != 0)
    {
        os << " FECN";
    }
    if (GetBecn())
    {
        os << " BECN";
    }
    if (GetInt())
    {
        os << " INT";
    }
    if (m_ackReq)
    {
        os << " AckReq";
    }
}

uint32_t
RoceBthHeader::GetSerializedSize() const
{
    return kBthSize;
}

void
RoceBthHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_opcode);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_pkey);
    i.WriteU8(m_becnByte);
    WriteU24(i, m_destQp);
    i.WriteU8(m_ackReq ? kAckReqBit : 0);
    WriteU24(i, m_psn);
}

uint32_t
RoceBthHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadU8();
    m_flags = i.ReadU8();
    m_pkey = i.ReadNtohU16();
    m_becnByte = i.ReadU8();
    m_destQp = ReadU24(i);
    m_ackReq = (i.ReadU8() & kAckReqBit) != 0;
    m_psn = ReadU24(i);
    return i.GetDistanceFrom(start);
}

void
RoceBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
RoceBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
RoceBthHeader::SetSolicited(bool se)
{
    m_flags = se ? (m_flags | kSeBit) : (m_flags & ~kSeBit);
}

bool
RoceBthHeader::GetSolicited() const
{
    return (m_flags & kSeBit) != 0;
}

void
RoceBthHeader::SetPadCount(uint8_t pad)
{
    NS_ABORT_MSG_IF(pad > kMaxPad,
                    "RoceBthHeader::SetPadCount: pad count " << static_cast<uint32_t>(pad)
                                                             << " is out of range (0..3)");
    m_flags = static_cast<uint8_t>((m_flags & ~kPadMask) | (pad << kPadShift));
}

uint8_t
RoceBthHeader::GetPadCount() const
{
    return (m_flags & kPadMask) >> kPadShift;
}

void
RoceBthHeader::SetPartitionKey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
RoceBthHeader::GetPartitionKey() const
{
    return m_pkey;
}

void
RoceBthHeader::SetBecn(bool becn)
{
    m_becnByte = becn ? (m_becnByte | kBecnBit) : (m_becnByte & ~kBecnBit);
}

bool
RoceBthHeader::GetBecn() const
{
    return (m_becnByte & kBecnBit) != 0;
}

void
RoceBthHeader::SetInt(bool present)
{
    m_becnByte = present ? (m_becnByte | kIntBit) : (m_becnByte & ~kIntBit);
}

bool
RoceBthHeader::GetInt() const
{
    return (m_becnByte & kIntBit) != 0;
}

void
RoceBthHeader::SetDestQp(uint32_t qp)
{
    NS_ABORT_MSG_IF(qp > kMax24,
                    "RoceBthHeader::SetDestQp: destination QP " << qp << " (0x" << std::hex << qp
                                                                << std::dec
                                                                << ") does not fit in 24 bits");
    m_destQp = qp;
}

uint32_t
RoceBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
RoceBthHeader::SetAckRequest(bool ack)
{
    m_ackReq = ack;
}

bool
RoceBthHeader::GetAckRequest() const
{
    return m_ackReq;
}

void
RoceBthHeader::SetPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > kMax24,
                    "RoceBthHeader::SetPsn: PSN " << psn << " (0x" << std::hex << psn << std::dec
                                                  << ") does not fit in 24 bits");
    m_psn = psn;
}

uint32_t
RoceBthHeader::GetPsn() const
{
    return m_psn;
}

// ---------------------------------------------------------------------------
// RoceAethHeader
// ---------------------------------------------------------------------------

RoceAethHeader::RoceAethHeader()
    : m_syndrome(kSyndromeAck),
      m_msn(0)
{
}

TypeId
RoceAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Tagger")
                            .AddConstructor<RoceAethHeader>();
    return tid;
}

TypeId
RoceAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceAethHeader::Print(std::ostream& os) const
{
    os << "AETH " << (IsNak() ? "NAK" : "ACK") << " syndrome=";
    PrintHex(os, m_syndrome, 2);
    os << " msn=" << m_msn;
}

uint32_t
RoceAethHeader::GetSerializedSize() const
{
    return kAethSize;
}

void
RoceAethHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_syndrome);
    WriteU24(i, m_msn);
}

uint32_t
RoceAethHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_syndrome = i.ReadU8();
    m_msn = ReadU24(i);
    return i.GetDistanceFrom(start);
}

void
RoceAethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
RoceAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

bool
RoceAethHeader::IsNak() const
{
    return (m_syndrome & kSyndromeKindMask) == kSyndromeKindMask;
}

void
RoceAethHeader::SetMsn(uint32_t msn)
{
    NS_ABORT_MSG_IF(msn > kMax24,
                    "RoceAethHeader::SetMsn: MSN " << msn << " (0x" << std::hex << msn << std::dec
                                                   << ") does not fit in 24 bits");
    m_msn = msn;
}

uint32_t
RoceAethHeader::GetMsn() const
{
    return m_msn;
}

// ---------------------------------------------------------------------------
// RoceIcrcTrailer
// ---------------------------------------------------------------------------

RoceIcrcTrailer::RoceIcrcTrailer()
    : m_icrc(0)
{
}

TypeId
RoceIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("Tagger")
                            .AddConstructor<RoceIcrcTrailer>();
    return tid;
}

TypeId
RoceIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceIcrcTrailer::Print(std::ostream& os) const
{
    os << "ICRC=";
    PrintHex(os, m_icrc, 8);
}

uint32_t
RoceIcrcTrailer::GetSerializedSize() const
{
    return kIcrcSize;
}

void
RoceIcrcTrailer::Serialize(Buffer::Iterator start) const
{
    // The iterator points just past the end of the packet: step back over the trailer.
    Buffer::Iterator i = start;
    i.Prev(kIcrcSize);
    i.WriteHtonU32(m_icrc);
}

uint32_t
RoceIcrcTrailer::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    i.Prev(kIcrcSize);
    m_icrc = i.ReadNtohU32();
    return kIcrcSize;
}

void
RoceIcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
RoceIcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

bool
IsRoceDataPacket(Ptr<const Packet> packet)
{
    Ptr<Packet> p = packet->Copy();
    uint8_t first = 0;
    if (p->GetSize() == 0 || (p->CopyData(&first, 1), first) != 0x45)
    {
        EthernetDot1qHeader eth;
        if (p->GetSize() < eth.GetSerializedSize())
        {
            return false;
        }
        p->RemoveHeader(eth);
        if (eth.GetEtherType() != kEtherTypeIpv4)
        {
            return false;
        }
    }
    Ipv4Header ip;
    UdpHeader udp;
    RoceBthHeader bth;
    if (p->GetSize() < ip.GetSerializedSize())
    {
        return false;
    }
    p->RemoveHeader(ip);
    if (ip.GetProtocol() != 17 || p->GetSize() < udp.GetSerializedSize() + bth.GetSerializedSize())
    {
        return false;
    }
    p->RemoveHeader(udp);
    if (udp.GetDestinationPort() != kRoceUdpPort)
    {
        return false;
    }
    p->PeekHeader(bth);
    const uint8_t op = bth.GetOpcode();
    return op == RoceBthHeader::RC_SEND_FIRST || op == RoceBthHeader::RC_SEND_MIDDLE ||
           op == RoceBthHeader::RC_SEND_LAST || op == RoceBthHeader::RC_SEND_ONLY;
}

} // namespace ns3
