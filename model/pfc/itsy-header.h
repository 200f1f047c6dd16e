/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef ITSY_HEADER_H
#define ITSY_HEADER_H

#include "pfc-header.h"

#include "ns3/header.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The ITSY checking message (ITSY, Sec. III-B), in the padding of a PFC
 * frame or in a synthesized frame of its own EtherType.
 */

namespace ns3
{

/// EtherType of synthesized ITSY frames: IEEE 802 local experimental EtherType 1.
constexpr uint16_t kEtherTypeItsy = 0x88B5;

/**
 * \ingroup tagger
 * An ITSY message: {S_gen-ini, P_gen-ini, Seq_id} and the initial trigger
 * {S_tri, P_tri} (ITSY, Table I), plus, in a temporal consistency check,
 * the time the causality loop was detected.
 *
 * A port ID is (port index << 3 | PFC class): the chain of pauses may
 * change class at a hop (Tagger), so a port alone does not name a queue.
 *
 * Wire layout (big endian), 20 bytes: magic 0x4954 ("IT"), type, class,
 * S_gen (4), P_gen (2), Seq (4), S_tri (4), P_tri (2).  In a PFC frame
 * these are the first 20 of the 26 padding bytes (the rest stay zero).
 */
struct ItsyMessage
{
    /// What the message is.
    enum Type : uint8_t
    {
        NONE = 0,     //!< no message (zero padding)
        CHECKING = 1, //!< causality-chain checking message (Lemma 1, 3)
        TEMPORAL = 2, //!< temporal consistency check (Lemma 2)
        BREAK = 3     //!< break request to the loop's breaker (trigPort: the hop it goes to)
    };

    /// Bytes of the common part on the wire.
    static constexpr uint32_t kSize = 20;
    /// The magic number that marks a message ("IT").
    static constexpr uint16_t kMagic = 0x4954;

    Type type = NONE;        //!< the type
    uint8_t cls = 0;         //!< PFC class of the hop that carries it
    uint32_t genNode = 0;    //!< S_gen-ini: node id of the generic initiator
    uint16_t genPort = 0;    //!< P_gen-ini: its port ID (port << 3 | class)
    uint32_t seq = 0;        //!< Seq_id of the episode
    uint32_t trigNode = 0;   //!< S_tri: node id of the initial trigger
    uint16_t trigPort = 0;   //!< P_tri: its port ID (port << 3 | class)
    uint64_t detectedNs = 0; //!< TEMPORAL only: when the loop was detected (ns)

    /// \return the message in the 26 padding bytes of a PFC frame
    PfcHeader::Padding ToPadding() const;
    /**
     * \param padding the padding of a received PFC frame
     * \return the message it carries (type NONE when none)
     */
    static ItsyMessage FromPadding(const PfcHeader::Padding& padding);
    /// \param i where to write kSize bytes
    void Write(Buffer::Iterator& i) const;
    /// \param i where to read kSize bytes \return false when the magic is absent
    bool Read(Buffer::Iterator& i);
};

/**
 * \ingroup tagger
 * Body of a synthesized ITSY frame (EtherType kEtherTypeItsy): the message,
 * the detection time (8 bytes, TEMPORAL; zero otherwise), the number of
 * hops (1 byte) and the hops a temporal check passed, 7 bytes each (node 4,
 * port 2, class 1: a header stack, as a P4 switch would push, so that the
 * declaring switch can name the loop), zero padded to 46 bytes.  At most
 * kMaxHops hops are kept; a longer loop keeps its first kMaxHops.
 */
class ItsyHeader : public Header
{
  public:
    /// One egress queue a temporal check passed.
    struct Hop
    {
        uint32_t node; //!< node id
        uint16_t port; //!< port index
        uint8_t cls;   //!< class
    };

    /// Most hops carried.
    static constexpr uint32_t kMaxHops = 64;

    ItsyHeader();
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

    ItsyMessage message;   //!< the message
    std::vector<Hop> hops; //!< hops passed (TEMPORAL)
};

} // namespace ns3

#endif /* ITSY_HEADER_H */
