/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "pfc-types.h"

#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"

#include <algorithm>
#include <array>

/**
 * \file
 * \ingroup tagger
 * Ethernet II header with an optional IEEE 802.1Q tag, and the IEEE 802.1Qbb
 * PFC frame body.
 */

namespace ns3
{

/// EtherType of IPv4.
constexpr uint16_t kEtherTypeIpv4 = 0x0800;
/// EtherType of MAC control frames (PAUSE, PFC).
constexpr uint16_t kEtherTypeMacControl = 0x8808;
/// Tag protocol identifier of IEEE 802.1Q.
constexpr uint16_t kEtherTypeVlan = 0x8100;
/// Minimum Ethernet frame on the wire without preamble, FCS included (bytes).
constexpr uint32_t kEthernetMinFrame = 64;
/// Frame check sequence (bytes): counted on the wire, not carried in packets.
constexpr uint32_t kEthernetFcs = 4;
/// Preamble + start delimiter (8) and minimum inter-frame gap (12), in bytes.
constexpr uint32_t kEthernetPhyOverhead = 20;
/// Untagged Ethernet II header: two addresses and the EtherType (bytes).
constexpr uint32_t kEthernetHeaderSize = 6 + 6 + 2;
/// IEEE 802.1Q tag: TPID and TCI (bytes).
constexpr uint32_t kDot1qTagSize = 2 + 2;
/// Ethernet II header with an 802.1Q tag (bytes).
constexpr uint32_t kEthernetTaggedHeaderSize = kEthernetHeaderSize + kDot1qTagSize;

/**
 * The bytes a frame occupies on the wire: FCS, padding up to the minimum
 * frame, preamble, start delimiter and inter-frame gap added.
 * \param frameBytes the frame, Ethernet header on, FCS not included (bytes)
 * \return its length on the wire (bytes)
 */
constexpr uint32_t
EthernetWireBytes(uint32_t frameBytes)
{
    return std::max(frameBytes + kEthernetFcs, kEthernetMinFrame) + kEthernetPhyOverhead;
}

/**
 * \ingroup tagger
 * Ethernet II header (destination, source, EtherType), with an optional
 * IEEE 802.1Q tag (TPID 0x8100, PCP, DEI, VID) between source and EtherType.
 *
 * kEthernetHeaderSize (14) bytes untagged, kEthernetTaggedHeaderSize (18)
 * tagged.  No preamble and no FCS: pcap files with the Ethernet link type
 * (DLT_EN10MB) start at the destination address.  AddEthernetHeader() builds
 * the header of every frame the module sends.
 */
class EthernetDot1qHeader : public Header
{
  public:
    EthernetDot1qHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    void SetDestination(Mac48Address dst); //!< \param dst destination MAC
    Mac48Address GetDestination() const;   //!< \return destination MAC
    void SetSource(Mac48Address src);      //!< \param src source MAC
    Mac48Address GetSource() const;        //!< \return source MAC
    void SetEtherType(uint16_t type);      //!< \param type the EtherType of the payload
    uint16_t GetEtherType() const;         //!< \return the EtherType of the payload

    /**
     * Add (or change) the 802.1Q tag.
     * \param pcp priority code point, 0..7
     * \param vid VLAN identifier, 0..4095 (0: priority-tagged frame)
     * \param dei drop eligible indicator
     */
    void SetVlan(uint8_t pcp, uint16_t vid = 0, bool dei = false);
    void RemoveVlan();       //!< remove the 802.1Q tag
    bool HasVlan() const;    //!< \return whether the header carries an 802.1Q tag
    uint8_t GetPcp() const;  //!< \return the PCP (0 when untagged)
    uint16_t GetVid() const; //!< \return the VID (0 when untagged)
    bool GetDei() const;     //!< \return the DEI bit (false when untagged)

  private:
    Mac48Address m_destination; //!< destination address
    Mac48Address m_source;      //!< source address
    uint16_t m_etherType;       //!< EtherType of the payload
    bool m_hasVlan;             //!< whether the 802.1Q tag is present
    uint16_t m_tci;             //!< tag control information: PCP(3) DEI(1) VID(12)
};

/**
 * Prepend an Ethernet II header to \p packet: the one place the module's
 * senders (host and switch data frames, PFC frames) build it.
 * \param packet the payload
 * \param source the source address
 * \param destination the destination address
 * \param etherType the EtherType of the payload
 * \param tagged whether to add an 802.1Q priority tag (VID 0)
 * \param pcp the tag's priority code point, 0..7 (unused when untagged)
 */
void AddEthernetHeader(Ptr<Packet> packet,
                       Mac48Address source,
                       Mac48Address destination,
                       uint16_t etherType,
                       bool tagged,
                       uint8_t pcp);

/**
 * \ingroup tagger
 * The body of an IEEE 802.1Qbb priority-based flow control frame, i.e. what
 * follows an Ethernet header with destination 01:80:C2:00:00:01 and EtherType
 * 0x8808: opcode 0x0101 (2 bytes), class-enable vector (2 bytes, bit i set =
 * time[i] is valid), eight 2-byte pause times in quanta of 512 bit times,
 * then zero padding up to the 64-byte minimum frame (26 bytes; 46 bytes of
 * body in all, so Ethernet header 14 + body 46 + FCS 4 = 64).
 *
 * A time of 0 for an enabled class resumes it (a "RESUME" frame).
 *
 * The padding is zero unless SetPadding() wrote something into it: 802.1Qbb
 * receivers ignore it, so a frame whose padding carries data (an ITSY
 * checking message, ItsyMessage) is still a valid PFC frame.
 */
class PfcHeader : public Header
{
  public:
    /// Opcode of priority-based flow control.
    static constexpr uint16_t kOpcode = 0x0101;
    /// Size of the body, padding included (bytes).
    static constexpr uint32_t kBodySize = 46;
    /// Bytes of the body before the padding: opcode, class-enable vector, eight times.
    static constexpr uint32_t kFieldsSize = 2 + 2 + 2 * kPfcClasses;
    /// Bytes of padding (reserved, ignored by 802.1Qbb receivers).
    static constexpr uint32_t kPaddingSize = kBodySize - kFieldsSize;
    /// The padding bytes.
    typedef std::array<uint8_t, kPaddingSize> Padding;

    PfcHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /// Reads the body; an opcode other than 0x0101 leaves GetOpcode() with the value read.
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// The PFC destination MAC address, 01:80:C2:00:00:01.
    static Mac48Address GetPfcDestination();

    /**
     * Enable class \p cls with \p quanta (0 = resume).
     * \param cls priority class, 0..7
     * \param quanta pause time in units of 512 bit times
     */
    void SetClass(uint8_t cls, uint16_t quanta);
    bool IsClassEnabled(uint8_t cls) const; //!< \param cls class \return enabled?
    uint16_t GetQuanta(uint8_t cls) const;  //!< \param cls class \return its time
    uint16_t GetClassEnableVector() const;  //!< \return the class-enable vector
    uint16_t GetOpcode() const;             //!< \return the opcode read or set
    /// \param padding the bytes to send in the padding (all zero by default)
    void SetPadding(const Padding& padding);
    const Padding& GetPadding() const; //!< \return the padding sent or read

  private:
    uint16_t m_opcode;                          //!< opcode (0x0101)
    uint16_t m_classEnable;                     //!< class-enable vector
    std::array<uint16_t, kPfcClasses> m_quanta; //!< pause times, in quanta
    Padding m_padding;                          //!< the padding
};

} // namespace ns3

#endif /* PFC_HEADER_H */
