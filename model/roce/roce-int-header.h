/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef ROCE_INT_HEADER_H
#define ROCE_INT_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <array>
#include <cstdint>

/**
 * \file
 * \ingroup tagger
 * HPCC's in-band network telemetry (INT) as real header bytes of a RoCEv2
 * packet, and the switch's stamp.
 */

namespace ns3
{

/**
 * \ingroup tagger
 * \brief In-band network telemetry of HPCC (Li et al., SIGCOMM 2019): one
 * record per switch egress port a data packet leaves.
 *
 * Where: after the BTH of a data packet (before the payload) and after the
 * AETH of the ACK that echoes it, flagged by the BTH's INT bit
 * (RoceBthHeader::SetInt).  44 bytes, fixed (a packet does not grow on its
 * way, so buffers account for it once):
 *
 *   byte 0     hops recorded (0..5)
 *   bytes 1-3  reserved (0)
 *   then 5 records of 8 bytes, network byte order, unused ones 0:
 *     bits 63-60  link rate code (1 Gb/s, 10, 25, 40, 50, 100, 200, 400, 800;
 *                 0: none)
 *     bits 59-36  time stamp, ns, modulo 2^24 (16.8 ms)
 *     bits 35-16  bytes the port has transmitted, in units of 128 B, modulo
 *                 2^20 (128 MiB)
 *     bits 15-0   the port's queue, in units of 80 B (saturating at 5.2 MB)
 *
 * The layout is this module's (HPCC's switches pack a hop into 8 bytes too,
 * with other widths); the counters wrap, so a reader takes differences of
 * two records of the same hop modulo their range (GetTimeDelta,
 * GetBytesDelta): right while less than 16.8 ms and 128 MiB pass between the
 * two, which per-ACK feedback keeps far below.  A sixth switch on a path
 * records nothing (the hop count stays 5).
 */
class RoceIntHeader : public Header
{
  public:
    static constexpr uint32_t kMaxHops = 5;         //!< records carried
    static constexpr uint32_t kSize = 4 + 8 * 5;    //!< bytes on the wire
    static constexpr uint64_t kTimeRange = 1 << 24; //!< ns before the stamp wraps
    static constexpr uint64_t kByteUnit = 128;      //!< bytes per transmitted-bytes unit
    static constexpr uint64_t kByteRange = 1 << 20; //!< units before the count wraps
    static constexpr uint64_t kQueueUnit = 80;      //!< bytes per queue unit
    static constexpr uint64_t kQueueMax = 0xffff;   //!< largest queue value (units)

    /// One hop as decoded.
    struct Hop
    {
        uint64_t rateBps = 0; //!< link rate (bit/s)
        uint64_t timeNs = 0;  //!< time stamp modulo kTimeRange (ns)
        uint64_t bytes = 0;   //!< transmitted bytes, in kByteUnit units, modulo kByteRange
        uint64_t queue = 0;   //!< queue (bytes, a multiple of kQueueUnit)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * Record one hop (nothing when kMaxHops are recorded).
     * \param now time \param txBytes bytes the port has sent \param queueBytes its queue
     * \param rateBps its link rate: a rate of the code table, else it aborts naming it
     */
    void PushHop(Time now, uint64_t txBytes, uint64_t queueBytes, uint64_t rateBps);
    uint32_t GetNHops() const;    //!< \return hops recorded
    Hop GetHop(uint32_t i) const; //!< \param i a hop below GetNHops \return it, decoded
    /// \param later a later stamp \param earlier an earlier one \return ns between them
    static uint64_t GetTimeDelta(const Hop& later, const Hop& earlier);
    /// \param later a later record \param earlier an earlier one \return bytes sent between
    static uint64_t GetBytesDelta(const Hop& later, const Hop& earlier);
    /// \param rateBps a link rate \return whether a hop record can carry it
    static bool IsEncodable(uint64_t rateBps);

  private:
    uint8_t m_nHops = 0;                     //!< hops recorded
    std::array<uint64_t, kMaxHops> m_hops{}; //!< the packed records
};

/**
 * \ingroup tagger
 * The switch's INT stamp: when \p frame (an Ethernet frame, 802.1Q tag or
 * not) carries a RoCEv2 data packet whose BTH has the INT bit, push a hop
 * onto its RoceIntHeader.  ACKs (which echo INT) and other frames are left
 * alone.
 * \param frame the frame leaving a port \param now time \param txBytes bytes the port has
 * sent, this frame included \param queueBytes what waits in the port's queues behind it
 * \param rateBps the port's rate
 * \return whether a hop was pushed
 */
bool RoceIntStamp(Ptr<Packet> frame,
                  Time now,
                  uint64_t txBytes,
                  uint64_t queueBytes,
                  uint64_t rateBps);

} // namespace ns3

#endif /* ROCE_INT_HEADER_H */
