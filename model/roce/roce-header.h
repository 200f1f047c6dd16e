/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef ROCE_HEADER_H
#define ROCE_HEADER_H

#include "ns3/header.h"
#include "ns3/packet.h"
#include "ns3/trailer.h"

/**
 * \file
 * \ingroup tagger
 * RoCEv2 headers: the InfiniBand Base Transport Header (BTH), the ACK
 * Extended Transport Header (AETH) and the invariant CRC trailer (ICRC).
 * A RoCEv2 packet is Ethernet / IPv4 / UDP (destination port 4791) / BTH /
 * [AETH] / payload / ICRC.
 */

namespace ns3
{

/// UDP destination port of RoCEv2.
constexpr uint16_t kRoceUdpPort = 4791;

/**
 * \ingroup tagger
 * InfiniBand Base Transport Header (12 bytes, network byte order):
 *   byte 0   opcode
 *   byte 1   SE(1) M(1) PadCnt(2) TVer(4)
 *   2-3      partition key (default 0xFFFF)
 *   4        FECN(1) BECN(1) INT(1) reserved(5): INT is this module's use of the
 *            first reserved bit, set when a RoceIntHeader follows the BTH (and
 *            the AETH of an ACK): HPCC's in-band telemetry, not an IBTA field
 *   5-7      destination QP (24 bits)
 *   8        AckReq(1) reserved(7)
 *   9-11     PSN (24 bits)
 */
class RoceBthHeader : public Header
{
  public:
    /// Opcodes used by the module (reliable connection, and the RoCEv2 CNP).
    enum Opcode : uint8_t
    {
        RC_SEND_FIRST = 0x00,  //!< first packet of a multi-packet message
        RC_SEND_MIDDLE = 0x01, //!< middle packet
        RC_SEND_LAST = 0x02,   //!< last packet
        RC_SEND_ONLY = 0x04,   //!< single-packet message
        RC_ACK = 0x11,         //!< acknowledge (an AETH follows: ACK or NAK)
        CNP = 0x81             //!< RoCEv2 congestion notification packet
    };

    RoceBthHeader();

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

    void SetOpcode(uint8_t opcode);      //!< \param opcode the opcode
    uint8_t GetOpcode() const;           //!< \return the opcode
    void SetSolicited(bool se);          //!< \param se solicited event bit
    bool GetSolicited() const;           //!< \return solicited event bit
    void SetPadCount(uint8_t pad);       //!< \param pad pad count 0..3
    uint8_t GetPadCount() const;         //!< \return pad count
    void SetPartitionKey(uint16_t pkey); //!< \param pkey partition key
    uint16_t GetPartitionKey() const;    //!< \return partition key
    void SetBecn(bool becn);             //!< \param becn backward ECN bit
    bool GetBecn() const;                //!< \return backward ECN bit
    void SetInt(bool present);           //!< \param present a RoceIntHeader follows
    bool GetInt() const;                 //!< \return a RoceIntHeader follows
    /// \param qp destination QP, 24 bits (larger values abort, naming the value)
    void SetDestQp(uint32_t qp);
    uint32_t GetDestQp() const;   //!< \return destination QP
    void SetAckRequest(bool ack); //!< \param ack AckReq bit
    bool GetAckRequest() const;   //!< \return AckReq bit
    /// \param psn packet sequence number, 24 bits (larger values abort)
    void SetPsn(uint32_t psn);
    uint32_t GetPsn() const; //!< \return PSN

  private:
    uint8_t m_opcode;   //!< opcode
    uint8_t m_flags;    //!< SE, M, PadCnt, TVer
    uint16_t m_pkey;    //!< partition key
    uint8_t m_becnByte; //!< FECN, BECN, reserved
    uint32_t m_destQp;  //!< destination QP (24 bits)
    bool m_ackReq;      //!< AckReq
    uint32_t m_psn;     //!< PSN (24 bits)
};

/**
 * \ingroup tagger
 * ACK Extended Transport Header (4 bytes): syndrome (8 bits) and message
 * sequence number (24 bits).  Syndrome 0b000xxxxx is an ACK (xxxxx: credit
 * count, 0x1F = invalid), 0b01100000 a NAK "PSN sequence error".  The PSN of
 * an ACK/NAK packet is in its BTH: the last PSN received in order (ACK) or
 * the PSN expected (NAK).
 */
class RoceAethHeader : public Header
{
  public:
    /// Syndrome of an ACK with no credit count (0x1F: "invalid credit").
    static constexpr uint8_t kSyndromeAck = 0x1F;
    /// Syndrome of a NAK, PSN sequence error.
    static constexpr uint8_t kSyndromeNakSequence = 0x60;

    RoceAethHeader();

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

    void SetSyndrome(uint8_t syndrome); //!< \param syndrome the syndrome byte
    uint8_t GetSyndrome() const;        //!< \return the syndrome byte
    bool IsNak() const;                 //!< \return syndrome bits 6-5 are 0b11 (NAK)
    /// \param msn message sequence number, 24 bits (larger values abort)
    void SetMsn(uint32_t msn);
    uint32_t GetMsn() const; //!< \return the MSN

  private:
    uint8_t m_syndrome; //!< syndrome
    uint32_t m_msn;     //!< MSN (24 bits)
};

/**
 * \ingroup tagger
 * The 4-byte invariant CRC that ends every RoCEv2 packet.  The module
 * carries it for the right packet sizes and decoding; its value is not
 * computed (written as 0) and not checked.
 */
class RoceIcrcTrailer : public Trailer
{
  public:
    RoceIcrcTrailer();

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

    void SetIcrc(uint32_t icrc); //!< \param icrc the value carried
    uint32_t GetIcrc() const;    //!< \return the value carried

  private:
    uint32_t m_icrc; //!< the value carried
};

/**
 * \ingroup tagger
 * Whether \p packet is a RoCEv2 data packet (IPv4, UDP to port 4791, a BTH
 * with an RC SEND opcode): what RdmaPacketAccount counts.  ACKs, NAKs, CNPs,
 * PFC frames and other traffic are not.
 * The packet may start with its Ethernet (802.1Q) header, as frames in
 * device queues do, or with its IPv4 header, as packets in a NIC's receive
 * buffer and some of the switches' drop traces do: a first byte 0x45 (IPv4
 * without options, all this module sends) is taken for IPv4, since as the
 * first byte of a destination MAC it would be a multicast address, which no
 * data frame carries.
 * \param packet the packet
 * \return true for a data packet
 */
bool IsRoceDataPacket(Ptr<const Packet> packet);

} // namespace ns3

#endif /* ROCE_HEADER_H */
