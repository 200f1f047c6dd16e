/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of RoceBthHeader, RoceAethHeader and RoceIcrcTrailer: the bytes on the
 * wire are written out by hand from the InfiniBand Architecture Specification
 * (vol. 1, 9.2 "Base Transport Header", 9.3.5 "ACK Extended Transport Header")
 * and the RoCEv2 annex (A17: CNP = BTH opcode 0x81 with BECN set, 16 reserved
 * bytes, ICRC), compared byte for byte with what the headers serialise, and
 * deserialised back.
 */

#include "roce-header.h"

#include "ns3/packet.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The bytes of \p p.
std::vector<uint8_t>
BytesOf(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/// The bytes \p h serialises to, alone in a packet.
std::vector<uint8_t>
Serialised(const Header& h)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return BytesOf(p);
}

/// A packet holding exactly \p bytes.
Ptr<Packet>
PacketOf(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), bytes.size());
}

/// What \p c prints.
std::string
Printed(const Chunk& c)
{
    std::ostringstream os;
    c.Print(os);
    return os.str();
}

// clang-format off

/// BTH of an RC SEND_ONLY: dest QP 0x000123, PSN 0x00ABCD, AckReq, pkey 0xFFFF.
const std::vector<uint8_t> kSendOnlyBth = {
    0x04,             // byte 0: opcode 0x04 = RC SEND Only (RC = 000b, SEND Only = 00100b)
    0x00,             // byte 1: SE 0, M 0, PadCnt 00, TVer 0000
    0xFF, 0xFF,       // bytes 2-3: partition key 0xFFFF
    0x00,             // byte 4: FECN 0, BECN 0, reserved 000000
    0x00, 0x01, 0x23, // bytes 5-7: destination QP 0x000123
    0x80,             // byte 8: AckReq 1 (bit 7) = 0x80, reserved 0000000
    0x00, 0xAB, 0xCD, // bytes 9-11: PSN 0x00ABCD = 43981
};

/// BTH of a SEND_FIRST with every flag the header can set: SE, PadCnt 3, BECN,
/// pkey 0x8001, dest QP 0xFFFFFF and PSN 0xFFFFFF (the largest 24-bit values).
const std::vector<uint8_t> kFlagsBth = {
    0x00,             // opcode 0x00 = RC SEND First
    0xB0,             // SE (0x80) | PadCnt 3 << 4 (0x30) = 0xB0; M 0, TVer 0
    0x80, 0x01,       // partition key 0x8001
    0x40,             // FECN 0, BECN 1 (bit 6) = 0x40
    0xFF, 0xFF, 0xFF, // destination QP 0xFFFFFF
    0x00,             // AckReq 0
    0xFF, 0xFF, 0xFF, // PSN 0xFFFFFF
};

/// An ACK: BTH (opcode 0x11, dest QP 0x000456, PSN 0x000010) + AETH (syndrome 0x1F, MSN 7).
const std::vector<uint8_t> kAck = {
    // BTH (12 bytes)
    0x11,             // opcode 0x11 = RC Acknowledge (000b, 10001b)
    0x00,             // SE 0, M 0, PadCnt 0, TVer 0
    0xFF, 0xFF,       // partition key 0xFFFF
    0x00,             // FECN 0, BECN 0
    0x00, 0x04, 0x56, // destination QP 0x000456
    0x00,             // AckReq 0
    0x00, 0x00, 0x10, // PSN 0x000010 = 16: the last PSN received in order
    // AETH (4 bytes)
    0x1F,             // syndrome 0 00 11111: ACK (bits 6-5 = 00), credit count 0x1F (invalid)
    0x00, 0x00, 0x07, // MSN 7
};

/// A NAK, PSN sequence error: BTH (opcode 0x11, dest QP 0x000456, PSN 0x000011) + AETH
/// (syndrome 0x60, MSN 7).
const std::vector<uint8_t> kNak = {
    // BTH (12 bytes)
    0x11,             // opcode 0x11 = RC Acknowledge
    0x00,             // SE 0, M 0, PadCnt 0, TVer 0
    0xFF, 0xFF,       // partition key 0xFFFF
    0x00,             // FECN 0, BECN 0
    0x00, 0x04, 0x56, // destination QP 0x000456
    0x00,             // AckReq 0
    0x00, 0x00, 0x11, // PSN 0x000011 = 17: the PSN expected
    // AETH (4 bytes)
    0x60,             // syndrome 0 11 00000: NAK (bits 6-5 = 11), code 0 = PSN sequence error
    0x00, 0x00, 0x07, // MSN 7
};

/// BTH of a RoCEv2 CNP: opcode 0x81, BECN set, dest QP 0x000123, PSN 0.
const std::vector<uint8_t> kCnpBth = {
    0x81,             // opcode 0x81 = CNP (110b = "CNP" transport class, 00001b)
    0x00,             // SE 0, M 0, PadCnt 0, TVer 0
    0xFF, 0xFF,       // partition key 0xFFFF
    0x40,             // FECN 0, BECN 1 = 0x40
    0x00, 0x01, 0x23, // destination QP 0x000123
    0x00,             // AckReq 0
    0x00, 0x00, 0x00, // PSN 0
};

// clang-format on

/// The SEND_ONLY BTH of kSendOnlyBth, built with the setters.
RoceBthHeader
SendOnlyBth()
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::RC_SEND_ONLY);
    bth.SetPartitionKey(0xFFFF);
    bth.SetDestQp(0x000123);
    bth.SetAckRequest(true);
    bth.SetPsn(0x00ABCD);
    return bth;
}

} // namespace

TEST(RoceHeaderTest, TypeIds)
{
    const char* names[] = {"ns3::RoceBthHeader", "ns3::RoceAethHeader", "ns3::RoceIcrcTrailer"};
    for (const char* name : names)
    {
        TypeId tid;
        ASSERT_TRUE(TypeId::LookupByNameFailSafe(name, &tid)) << name;
        EXPECT_EQ(tid.GetGroupName(), "Tagger") << name;
        EXPECT_TRUE(tid.HasConstructor()) << name;
    }
    EXPECT_EQ(RoceBthHeader::GetTypeId().GetParent(), Header::GetTypeId());
    EXPECT_EQ(RoceAethHeader::GetTypeId().GetParent(), Header::GetTypeId());
    EXPECT_EQ(RoceIcrcTrailer::GetTypeId().GetParent(), Trailer::GetTypeId());
    EXPECT_EQ(RoceBthHeader().GetInstanceTypeId(), RoceBthHeader::GetTypeId());
    EXPECT_EQ(RoceAethHeader().GetInstanceTypeId(), RoceAethHeader::GetTypeId());
    EXPECT_EQ(RoceIcrcTrailer().GetInstanceTypeId(), RoceIcrcTrailer::GetTypeId());
    EXPECT_EQ(kRoceUdpPort, 4791);
}

TEST(RoceHeaderTest, Sizes)
{
    EXPECT_EQ(RoceBthHeader().GetSerializedSize(), 12u);
    EXPECT_EQ(RoceAethHeader().GetSerializedSize(), 4u);
    EXPECT_EQ(RoceIcrcTrailer().GetSerializedSize(), 4u);
}

TEST(RoceHeaderTest, DefaultBth)
{
    // A default BTH: partition key 0xFFFF (default partition), everything else clear.
    RoceBthHeader bth;
    EXPECT_EQ(bth.GetPartitionKey(), 0xFFFF);
    EXPECT_FALSE(bth.GetSolicited());
    EXPECT_EQ(bth.GetPadCount(), 0);
    EXPECT_FALSE(bth.GetBecn());
    EXPECT_FALSE(bth.GetAckRequest());
    EXPECT_EQ(bth.GetDestQp(), 0u);
    EXPECT_EQ(bth.GetPsn(), 0u);
    std::vector<uint8_t> bytes = Serialised(bth);
    ASSERT_EQ(bytes.size(), 12u);
    EXPECT_EQ(bytes[2], 0xFF);
    EXPECT_EQ(bytes[3], 0xFF);
    for (size_t i : {1, 4, 5, 6, 7, 8, 9, 10, 11})
    {
        EXPECT_EQ(bytes[i], 0x00) << "byte " << i;
    }
}

TEST(RoceHeaderTest, SendOnlyBthBytes)
{
    EXPECT_EQ(Serialised(SendOnlyBth()), kSendOnlyBth);

    RoceBthHeader read;
    EXPECT_EQ(PacketOf(kSendOnlyBth)->RemoveHeader(read), 12u);
    EXPECT_EQ(read.GetOpcode(), RoceBthHeader::RC_SEND_ONLY);
    EXPECT_FALSE(read.GetSolicited());
    EXPECT_EQ(read.GetPadCount(), 0);
    EXPECT_EQ(read.GetPartitionKey(), 0xFFFF);
    EXPECT_FALSE(read.GetBecn());
    EXPECT_EQ(read.GetDestQp(), 0x000123u);
    EXPECT_TRUE(read.GetAckRequest());
    EXPECT_EQ(read.GetPsn(), 43981u); // 0xABCD = 10*4096 + 11*256 + 12*16 + 13
}

TEST(RoceHeaderTest, FlagsBthBytes)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::RC_SEND_FIRST);
    bth.SetSolicited(true);
    bth.SetPadCount(3);
    bth.SetPartitionKey(0x8001);
    bth.SetBecn(true);
    bth.SetDestQp(0xFFFFFF);
    bth.SetPsn(0xFFFFFF);
    EXPECT_EQ(Serialised(bth), kFlagsBth);

    RoceBthHeader read;
    PacketOf(kFlagsBth)->RemoveHeader(read);
    EXPECT_EQ(read.GetOpcode(), RoceBthHeader::RC_SEND_FIRST);
    EXPECT_TRUE(read.GetSolicited());
    EXPECT_EQ(read.GetPadCount(), 3);
    EXPECT_EQ(read.GetPartitionKey(), 0x8001);
    EXPECT_TRUE(read.GetBecn());
    EXPECT_EQ(read.GetDestQp(), 0xFFFFFFu);
    EXPECT_FALSE(read.GetAckRequest());
    EXPECT_EQ(read.GetPsn(), 0xFFFFFFu);

    // Clearing the flags leaves the fields around them alone: byte 1 back to 0x00 with
    // pad 0 and SE 0, byte 4 back to 0x00 with BECN 0.
    bth.SetSolicited(false);
    bth.SetPadCount(0);
    bth.SetBecn(false);
    std::vector<uint8_t> expected = kFlagsBth;
    expected[1] = 0x00;
    expected[4] = 0x00;
    EXPECT_EQ(Serialised(bth), expected);

    // Each pad count lands in bits 5-4 of byte 1: pad << 4 = 0x00, 0x10, 0x20, 0x30.
    for (uint8_t pad = 0; pad <= 3; ++pad)
    {
        bth.SetPadCount(pad);
        EXPECT_EQ(bth.GetPadCount(), pad);
        EXPECT_EQ(Serialised(bth)[1], pad * 0x10) << "pad " << static_cast<int>(pad);
    }
    // SE is bit 7 and independent of the pad count: 0x80 | 0x30 = 0xB0, then 0x30 alone.
    bth.SetSolicited(true);
    EXPECT_EQ(Serialised(bth)[1], 0xB0);
    bth.SetSolicited(false);
    EXPECT_EQ(Serialised(bth)[1], 0x30);
}

TEST(RoceHeaderTest, FecnAndReservedBitsOfByte4SurviveARoundTrip)
{
    // FECN (bit 7) has no setter but a received BTH keeps it: 0x80 | BECN 0x40 = 0xC0.
    std::vector<uint8_t> bytes = kSendOnlyBth;
    bytes[4] = 0xC0;
    RoceBthHeader read;
    PacketOf(bytes)->RemoveHeader(read);
    EXPECT_TRUE(read.GetBecn());
    EXPECT_EQ(Serialised(read), bytes);
    EXPECT_NE(Printed(read).find("FECN"), std::string::npos) << Printed(read);
    // Clearing BECN keeps FECN: 0xC0 -> 0x80.
    read.SetBecn(false);
    bytes[4] = 0x80;
    EXPECT_EQ(Serialised(read), bytes);
}

TEST(RoceHeaderTest, AckBytes)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::RC_ACK);
    bth.SetDestQp(0x000456);
    bth.SetPsn(0x10);
    RoceAethHeader aeth;
    aeth.SetSyndrome(RoceAethHeader::kSyndromeAck);
    aeth.SetMsn(7);
    EXPECT_EQ(RoceAethHeader::kSyndromeAck, 0x1F);
    EXPECT_FALSE(aeth.IsNak());

    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(aeth);
    p->AddHeader(bth);
    EXPECT_EQ(BytesOf(p), kAck);

    Ptr<Packet> in = PacketOf(kAck);
    RoceBthHeader readBth;
    RoceAethHeader readAeth;
    EXPECT_EQ(in->RemoveHeader(readBth), 12u);
    EXPECT_EQ(in->RemoveHeader(readAeth), 4u);
    EXPECT_EQ(in->GetSize(), 0u);
    EXPECT_EQ(readBth.GetOpcode(), 0x11);
    EXPECT_EQ(readBth.GetDestQp(), 0x456u);
    EXPECT_EQ(readBth.GetPsn(), 16u);
    EXPECT_FALSE(readBth.GetAckRequest());
    EXPECT_EQ(readAeth.GetSyndrome(), 0x1F);
    EXPECT_FALSE(readAeth.IsNak());
    EXPECT_EQ(readAeth.GetMsn(), 7u);
}

TEST(RoceHeaderTest, NakBytes)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::RC_ACK);
    bth.SetDestQp(0x000456);
    bth.SetPsn(0x11);
    RoceAethHeader aeth;
    aeth.SetSyndrome(RoceAethHeader::kSyndromeNakSequence);
    aeth.SetMsn(7);
    EXPECT_EQ(RoceAethHeader::kSyndromeNakSequence, 0x60);
    EXPECT_TRUE(aeth.IsNak());

    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(aeth);
    p->AddHeader(bth);
    EXPECT_EQ(BytesOf(p), kNak);

    Ptr<Packet> in = PacketOf(kNak);
    RoceBthHeader readBth;
    RoceAethHeader readAeth;
    in->RemoveHeader(readBth);
    in->RemoveHeader(readAeth);
    EXPECT_EQ(readBth.GetPsn(), 17u);
    EXPECT_EQ(readAeth.GetSyndrome(), 0x60);
    EXPECT_TRUE(readAeth.IsNak());
    EXPECT_EQ(readAeth.GetMsn(), 7u);
}

TEST(RoceHeaderTest, NakReadingOfTheSyndrome)
{
    // Bits 6-5 of the syndrome: 00 ACK, 01 RNR NAK, 10 reserved, 11 NAK.
    RoceAethHeader aeth;
    aeth.SetSyndrome(0x00); // ACK, credit 0
    EXPECT_FALSE(aeth.IsNak());
    aeth.SetSyndrome(0x1F); // ACK, credit invalid
    EXPECT_FALSE(aeth.IsNak());
    aeth.SetSyndrome(0x20); // 0 01 00000: RNR NAK, not a NAK of sequence/error kind
    EXPECT_FALSE(aeth.IsNak());
    aeth.SetSyndrome(0x40); // 0 10 00000: reserved
    EXPECT_FALSE(aeth.IsNak());
    aeth.SetSyndrome(0x60); // 0 11 00000: NAK, PSN sequence error
    EXPECT_TRUE(aeth.IsNak());
    aeth.SetSyndrome(0x63); // 0 11 00011: NAK, remote operational error
    EXPECT_TRUE(aeth.IsNak());
}

TEST(RoceHeaderTest, CnpBytes)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::CNP);
    bth.SetBecn(true);
    bth.SetDestQp(0x000123);
    bth.SetPsn(0);
    EXPECT_EQ(Serialised(bth), kCnpBth);

    RoceBthHeader read;
    PacketOf(kCnpBth)->RemoveHeader(read);
    EXPECT_EQ(read.GetOpcode(), 0x81);
    EXPECT_TRUE(read.GetBecn());
    EXPECT_EQ(read.GetDestQp(), 0x123u);
}

TEST(RoceHeaderTest, RoundTrips)
{
    // Values picked so that every byte of the 24-bit fields differs.
    const uint32_t qps[] = {0, 1, 0x123456, 0xFFFFFF};
    const uint32_t psns[] = {0, 0xFF, 0x010203, 0xFFFFFE};
    for (uint32_t qp : qps)
    {
        for (uint32_t psn : psns)
        {
            RoceBthHeader bth;
            bth.SetOpcode(RoceBthHeader::RC_SEND_MIDDLE);
            bth.SetDestQp(qp);
            bth.SetPsn(psn);
            bth.SetAckRequest((psn & 1) != 0);
            bth.SetSolicited((qp & 1) != 0);
            bth.SetPadCount(static_cast<uint8_t>(qp % 4));
            bth.SetPartitionKey(static_cast<uint16_t>(qp ^ psn));
            Ptr<Packet> p = Create<Packet>();
            p->AddHeader(bth);
            RoceBthHeader read;
            p->RemoveHeader(read);
            EXPECT_EQ(read.GetOpcode(), RoceBthHeader::RC_SEND_MIDDLE);
            EXPECT_EQ(read.GetDestQp(), qp);
            EXPECT_EQ(read.GetPsn(), psn);
            EXPECT_EQ(read.GetAckRequest(), (psn & 1) != 0);
            EXPECT_EQ(read.GetSolicited(), (qp & 1) != 0);
            EXPECT_EQ(read.GetPadCount(), qp % 4);
            EXPECT_EQ(read.GetPartitionKey(), static_cast<uint16_t>(qp ^ psn));
        }
        RoceAethHeader aeth;
        aeth.SetSyndrome(static_cast<uint8_t>(qp));
        aeth.SetMsn(qp);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(aeth);
        RoceAethHeader read;
        p->RemoveHeader(read);
        EXPECT_EQ(read.GetSyndrome(), static_cast<uint8_t>(qp));
        EXPECT_EQ(read.GetMsn(), qp);
    }
    // MSN 0x123456 sits in bytes 1-3 of the AETH, most significant byte first.
    RoceAethHeader aeth;
    aeth.SetSyndrome(0x1F);
    aeth.SetMsn(0x123456);
    EXPECT_EQ(Serialised(aeth), (std::vector<uint8_t>{0x1F, 0x12, 0x34, 0x56}));
}

TEST(RoceHeaderTest, IcrcTrailerEndsThePacket)
{
    // 64 bytes of payload 0x00..0x3F, then BTH in front and ICRC behind:
    // 12 + 64 + 4 = 80 bytes.
    std::vector<uint8_t> payload(64);
    for (size_t i = 0; i < payload.size(); ++i)
    {
        payload[i] = static_cast<uint8_t>(i);
    }
    Ptr<Packet> p = PacketOf(payload);
    p->AddHeader(SendOnlyBth());
    RoceIcrcTrailer icrc;
    icrc.SetIcrc(0xDEADBEEF);
    p->AddTrailer(icrc);
    ASSERT_EQ(p->GetSize(), 80u);

    std::vector<uint8_t> bytes = BytesOf(p);
    // bytes 0-11: the BTH
    EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 12), kSendOnlyBth);
    // bytes 12-75: the payload, untouched
    EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + 12, bytes.begin() + 76), payload);
    // bytes 76-79: the ICRC, most significant byte first
    EXPECT_EQ(bytes[76], 0xDE);
    EXPECT_EQ(bytes[77], 0xAD);
    EXPECT_EQ(bytes[78], 0xBE);
    EXPECT_EQ(bytes[79], 0xEF);

    // Removing the trailer reads those last 4 bytes back, and leaves BTH + payload.
    RoceIcrcTrailer read;
    EXPECT_EQ(p->RemoveTrailer(read), 4u);
    EXPECT_EQ(read.GetIcrc(), 0xDEADBEEFu);
    EXPECT_EQ(p->GetSize(), 76u);
    RoceBthHeader bth;
    p->RemoveHeader(bth);
    EXPECT_EQ(BytesOf(p), payload);

    // The default ICRC is 0 (not computed).
    EXPECT_EQ(RoceIcrcTrailer().GetIcrc(), 0u);
}

TEST(RoceHeaderTest, IcrcTrailerReadFromHandWrittenBytes)
{
    // BTH + 2 bytes + ICRC 0x01020304, written by hand: the trailer is the last 4 bytes
    // whatever is in front of it.
    std::vector<uint8_t> bytes = kCnpBth;
    bytes.push_back(0xAA);
    bytes.push_back(0xBB);
    for (uint8_t b : {0x01, 0x02, 0x03, 0x04})
    {
        bytes.push_back(b);
    }
    Ptr<Packet> p = PacketOf(bytes);
    RoceIcrcTrailer icrc;
    p->RemoveTrailer(icrc);
    EXPECT_EQ(icrc.GetIcrc(), 0x01020304u);
    ASSERT_EQ(p->GetSize(), 14u);
    std::vector<uint8_t> rest = BytesOf(p);
    EXPECT_EQ(rest[12], 0xAA);
    EXPECT_EQ(rest[13], 0xBB);
}

TEST(RoceHeaderTest, Print)
{
    std::string send = Printed(SendOnlyBth());
    EXPECT_NE(send.find("RC_SEND_ONLY"), std::string::npos) << send;
    EXPECT_NE(send.find("qp=0x000123"), std::string::npos) << send;
    EXPECT_NE(send.find("psn=43981"), std::string::npos) << send;
    EXPECT_NE(send.find("AckReq"), std::string::npos) << send;
    EXPECT_EQ(send.find("BECN"), std::string::npos) << send;

    RoceBthHeader bth;
    const std::pair<uint8_t, const char*> names[] = {{0x00, "RC_SEND_FIRST"},
                                                     {0x01, "RC_SEND_MIDDLE"},
                                                     {0x02, "RC_SEND_LAST"},
                                                     {0x04, "RC_SEND_ONLY"},
                                                     {0x11, "RC_ACK"},
                                                     {0x81, "CNP"}};
    for (const auto& [opcode, name] : names)
    {
        bth.SetOpcode(opcode);
        EXPECT_NE(Printed(bth).find(name), std::string::npos) << Printed(bth);
    }
    bth.SetOpcode(0x0A); // RC RDMA WRITE Only: not one of ours, printed in hex
    EXPECT_NE(Printed(bth).find("0x0a"), std::string::npos) << Printed(bth);
    bth.SetBecn(true);
    EXPECT_NE(Printed(bth).find("BECN"), std::string::npos) << Printed(bth);

    RoceAethHeader aeth;
    aeth.SetSyndrome(0x60);
    aeth.SetMsn(7);
    std::string nak = Printed(aeth);
    EXPECT_NE(nak.find("NAK"), std::string::npos) << nak;
    EXPECT_NE(nak.find("msn=7"), std::string::npos) << nak;
    aeth.SetSyndrome(0x1F);
    std::string ack = Printed(aeth);
    EXPECT_NE(ack.find("ACK"), std::string::npos) << ack;
    EXPECT_EQ(ack.find("NAK"), std::string::npos) << ack;

    RoceIcrcTrailer icrc;
    icrc.SetIcrc(0xDEADBEEF);
    EXPECT_NE(Printed(icrc).find("0xdeadbeef"), std::string::npos) << Printed(icrc);

    // The stream's formatting is left as it was.
    std::ostringstream os;
    SendOnlyBth().Print(os);
    os << 255;
    EXPECT_EQ(os.str().substr(os.str().size() - 3), "255");
}

TEST(RoceHeaderDeathTest, OutOfRangeValuesAbort)
{
    RoceBthHeader bth;
    // 24 bits: 0xFFFFFF = 16777215 is the largest; 0x1000000 = 16777216 is one too many.
    EXPECT_DEATH(bth.SetDestQp(0x1000000), "destination QP 16777216");
    EXPECT_DEATH(bth.SetPsn(0x1000000), "PSN 16777216");
    EXPECT_DEATH(bth.SetPsn(0xFFFFFFFF), "PSN 4294967295");
    EXPECT_DEATH(bth.SetPadCount(4), "pad count 4");
    RoceAethHeader aeth;
    EXPECT_DEATH(aeth.SetMsn(0x1000000), "MSN 16777216");
}
