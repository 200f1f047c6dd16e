/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "pfc-header.h"

#include "ns3/abort.h"
#include "ns3/address-utils.h"
#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");

NS_OBJECT_ENSURE_REGISTERED(EthernetDot1qHeader);
NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{

/// Largest priority code point.
constexpr uint8_t kMaxPcp = 7;
/// Largest VLAN identifier.
constexpr uint16_t kMaxVid = 0x0FFF;

/**
 * Abort when \p cls is not a priority class.
 * \param cls the class given by the caller
 * \param what the name of the method, for the message
 */
void
CheckClass(uint8_t cls, const char* what)
{
    NS_ABORT_MSG_IF(cls >= kPfcClasses,
                    "PfcHeader::" << what << ": class " << static_cast<uint32_t>(cls)
                                  << " is not a priority class (0.." << (kPfcClasses - 1) << ")");
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

} // namespace

// ---------------------------------------------------------------------------
// EthernetDot1qHeader
// ---------------------------------------------------------------------------

EthernetDot1qHeader::EthernetDot1qHeader()
    : m_destination(),
      m_source(),
      m_etherType(0),
      m_hasVlan(false),
      m_tci(0)
{
}

TypeId
EthernetDot1qHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EthernetDot1qHeader")
                            .SetParent<Header>()
                            .SetGroupName("Tagger")
                            .AddConstructor<EthernetDot1qHeader>();
    return tid;
}

TypeId
EthernetDot1qHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
EthernetDot1qHeader::Print(std::ostream& os) const
{
    os << m_source << " > " << m_destination;
    if (m_hasVlan)
    {
        os << " 802.1Q pcp=" << static_cast<uint32_t>(GetPcp()) << " dei=" << GetDei()
           << " vid=" << GetVid();
    }
    os << " type=";
    PrintHex(os, m_etherType, 4);
}

uint32_t
EthernetDot1qHeader::GetSerializedSize() const
{
    return kEthernetHeaderSize + (m_hasVlan ? kDot1qTagSize : 0);
}

void
EthernetDot1qHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    WriteTo(i, m_destination);
    WriteTo(i, m_source);
    if (m_hasVlan)
    {
        i.WriteHtonU16(kEtherTypeVlan);
        i.WriteHtonU16(m_tci);
    }
    i.WriteHtonU16(m_etherType);
}

uint32_t
EthernetDot1qHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    ReadFrom(i, m_destination);
    ReadFrom(i, m_source);
    uint16_t type = i.ReadNtohU16();
    if (type == kEtherTypeVlan)
    {
        m_hasVlan = true;
        m_tci = i.ReadNtohU16();
        type = i.ReadNtohU16();
    }
    else
    {
        m_hasVlan = false;
        m_tci = 0;
    }
    m_etherType = type;
    return i.GetDistanceFrom(start);
}

void
EthernetDot1qHeader::SetDestination(Mac48Address dst)
{
    m_destination = dst;
}

Mac48Address
EthernetDot1qHeader::GetDestination() const
{
    return m_destination;
}

void
EthernetDot1qHeader::SetSource(Mac48Address src)
{
    m_source = src;
}

Mac48Address
EthernetDot1qHeader::GetSource() const
{
    return m_source;
}

void
EthernetDot1qHeader::SetEtherType(uint16_t type)
{
    m_etherType = type;
}

uint16_t
EthernetDot1qHeader::GetEtherType() const
{
    return m_etherType;
}

void
EthernetDot1qHeader::SetVlan(uint8_t pcp, uint16_t vid, bool dei)
{
    NS_ABORT_MSG_IF(pcp > kMaxPcp,
                    "EthernetDot1qHeader::SetVlan: PCP " << static_cast<uint32_t>(pcp)
                                                         << " is out of range (0..7)");
    NS_ABORT_MSG_IF(vid > kMaxVid,
                    "EthernetDot1qHeader::SetVlan: VID " << vid << " is out of range (0..4095)");
    m_hasVlan = true;
    m_tci = static_cast<uint16_t>((pcp << 13) | (dei ? 0x1000 : 0) | vid);
}

void
EthernetDot1qHeader::RemoveVlan()
{
    m_hasVlan = false;
    m_tci = 0;
}

bool
EthernetDot1qHeader::HasVlan() const
{
    return m_hasVlan;
}

uint8_t
EthernetDot1qHeader::GetPcp() const
{
    return m_hasVlan ? static_cast<uint8_t>(m_tci >> 13) : 0;
}

uint16_t
EthernetDot1qHeader::GetVid() const
{
    return m_hasVlan ? (m_tci & kMaxVid) : 0;
}

bool
EthernetDot1qHeader::GetDei() const
{
    return m_hasVlan && (m_tci & 0x1000) != 0;
}

void
AddEthernetHeader(Ptr<Packet> packet,
                  Mac48Address source,
                  Mac48Address destination,
                  uint16_t etherType,
                  bool tagged,
                  uint8_t pcp)
{
    EthernetDot1qHeader eth;
    eth.SetSource(source);
    eth.SetDestination(destination);
    eth.SetEtherType(etherType);
    if (tagged)
    {
        eth.SetVlan(pcp);
    }
    packet->AddHeader(eth);
}

// ---------------------------------------------------------------------------
// PfcHeader
// ---------------------------------------------------------------------------

PfcHeader::PfcHeader()
    : m_opcode(kOpcode),
      m_classEnable(0),
      m_quanta{},
      m_padding{}
{
}

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Tagger")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
PfcHeader::Print(std::ostream& os) const
{
    os << "PFC";
    if (m_opcode != kOpcode)
    {
        os << " opcode=";
        PrintHex(os, m_opcode, 4);
    }
    os << " cev=";
    PrintHex(os, m_classEnable, 2);
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        if (IsClassEnabled(c))
        {
            os << " c" << static_cast<uint32_t>(c) << "=" << m_quanta[c];
        }
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return kBodySize;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteHtonU16(m_classEnable);
    for (uint16_t quanta : m_quanta)
    {
        i.WriteHtonU16(quanta);
    }
    i.Write(m_padding.data(), kPaddingSize);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    m_classEnable = i.ReadNtohU16();
    for (uint16_t& quanta : m_quanta)
    {
        quanta = i.ReadNtohU16();
    }
    i.Read(m_padding.data(), kPaddingSize);
    return i.GetDistanceFrom(start);
}

Mac48Address
PfcHeader::GetPfcDestination()
{
    static const Mac48Address pfc("01:80:c2:00:00:01");
    return pfc;
}

void
PfcHeader::SetClass(uint8_t cls, uint16_t quanta)
{
    CheckClass(cls, "SetClass");
    m_classEnable |= static_cast<uint16_t>(1u << cls);
    m_quanta[cls] = quanta;
}

bool
PfcHeader::IsClassEnabled(uint8_t cls) const
{
    CheckClass(cls, "IsClassEnabled");
    return (m_classEnable & (1u << cls)) != 0;
}

uint16_t
PfcHeader::GetQuanta(uint8_t cls) const
{
    CheckClass(cls, "GetQuanta");
    return m_quanta[cls];
}

uint16_t
PfcHeader::GetClassEnableVector() const
{
    return m_classEnable;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

void
PfcHeader::SetPadding(const Padding& padding)
{
    m_padding = padding;
}

const PfcHeader::Padding&
PfcHeader::GetPadding() const
{
    return m_padding;
}

} // namespace ns3
