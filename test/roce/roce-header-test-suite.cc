/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of RoceBthHeader, RoceAethHeader and RoceIcrcTrailer, added to the
 * ns-3 TestSuite "tagger-roce" through MakeRoceHeaderTestCases(): the bytes
 * on the wire are written out by hand from the InfiniBand Architecture
 * Specification (vol. 1, 9.2 "Base Transport Header", 9.3.5 "ACK Extended
 * Transport Header") and the RoCEv2 annex (A17: CNP = BTH opcode 0x81 with
 * BECN set, 16 reserved bytes, ICRC), compared byte for byte with what the
 * headers serialise, and deserialised back.
 */

#include "../tagger-test-helpers.h"

#include "ns3/header.h"
#include "ns3/ipv4-header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-header.h"
#include "ns3/roce-int-header.h"
#include "ns3/test.h"
#include "ns3/trailer.h"
#include "ns3/type-id.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using tagger::test::BytesOf;
using tagger::test::CheckFatalError;
using tagger::test::Hex;

namespace
{

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

/**
 * \ingroup tagger-tests
 * The three TypeIds: registered, group "Tagger", constructible, with the
 * right parents; and the RoCEv2 UDP port.
 */
class RoceHeaderTypeIdTestCase : public TestCase
{
  public:
    RoceHeaderTypeIdTestCase()
        : TestCase("RoCE headers: TypeIds and the RoCEv2 UDP port")
    {
    }

  private:
    void DoRun() override
    {
        const char* names[] = {"ns3::RoceBthHeader", "ns3::RoceAethHeader", "ns3::RoceIcrcTrailer"};
        for (const char* name : names)
        {
            TypeId tid;
            bool found = TypeId::LookupByNameFailSafe(name, &tid);
            NS_TEST_ASSERT_MSG_EQ(found, true, name);
            if (IsStatusFailure())
            {
                return;
            }
            NS_TEST_EXPECT_MSG_EQ(tid.GetGroupName(), "Tagger", name);
            NS_TEST_EXPECT_MSG_EQ(tid.HasConstructor(), true, name);
        }
        NS_TEST_EXPECT_MSG_EQ(RoceBthHeader::GetTypeId().GetParent(), Header::GetTypeId(), "BTH");
        NS_TEST_EXPECT_MSG_EQ(RoceAethHeader::GetTypeId().GetParent(), Header::GetTypeId(), "AETH");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcTrailer::GetTypeId().GetParent(),
                              Trailer::GetTypeId(),
                              "ICRC");
        NS_TEST_EXPECT_MSG_EQ(RoceBthHeader().GetInstanceTypeId(),
                              RoceBthHeader::GetTypeId(),
                              "BTH instance");
        NS_TEST_EXPECT_MSG_EQ(RoceAethHeader().GetInstanceTypeId(),
                              RoceAethHeader::GetTypeId(),
                              "AETH instance");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcTrailer().GetInstanceTypeId(),
                              RoceIcrcTrailer::GetTypeId(),
                              "ICRC instance");
        NS_TEST_EXPECT_MSG_EQ(kRoceUdpPort, 4791, "the RoCEv2 UDP port");
    }
};

/**
 * \ingroup tagger-tests
 * Serialised sizes: BTH 12, AETH 4, ICRC 4 bytes.
 */
class RoceHeaderSizesTestCase : public TestCase
{
  public:
    RoceHeaderSizesTestCase()
        : TestCase("RoCE headers: BTH 12, AETH 4 and ICRC 4 bytes")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(RoceBthHeader().GetSerializedSize(), 12u, "BTH");
        NS_TEST_EXPECT_MSG_EQ(RoceAethHeader().GetSerializedSize(), 4u, "AETH");
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcTrailer().GetSerializedSize(), 4u, "ICRC");
    }
};

/**
 * \ingroup tagger-tests
 * A default BTH: partition key 0xFFFF (default partition), everything else
 * clear, in its fields and in its bytes.
 */
class RoceDefaultBthTestCase : public TestCase
{
  public:
    RoceDefaultBthTestCase()
        : TestCase("RoCE headers: a default BTH")
    {
    }

  private:
    void DoRun() override
    {
        // A default BTH: partition key 0xFFFF (default partition), everything else clear.
        RoceBthHeader bth;
        NS_TEST_EXPECT_MSG_EQ(bth.GetPartitionKey(), 0xFFFF, "partition key");
        NS_TEST_EXPECT_MSG_EQ(bth.GetSolicited(), false, "SE");
        NS_TEST_EXPECT_MSG_EQ(int(bth.GetPadCount()), 0, "pad count");
        NS_TEST_EXPECT_MSG_EQ(bth.GetBecn(), false, "BECN");
        NS_TEST_EXPECT_MSG_EQ(bth.GetAckRequest(), false, "AckReq");
        NS_TEST_EXPECT_MSG_EQ(bth.GetDestQp(), 0u, "destination QP");
        NS_TEST_EXPECT_MSG_EQ(bth.GetPsn(), 0u, "PSN");
        std::vector<uint8_t> bytes = Serialised(bth);
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), 12u, Hex(bytes));
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(int(bytes[2]), 0xFF, Hex(bytes));
        NS_TEST_EXPECT_MSG_EQ(int(bytes[3]), 0xFF, Hex(bytes));
        for (size_t i : {1, 4, 5, 6, 7, 8, 9, 10, 11})
        {
            NS_TEST_EXPECT_MSG_EQ(int(bytes[i]), 0x00, "byte " << i);
        }
    }
};

/**
 * \ingroup tagger-tests
 * The SEND_ONLY BTH serialises to kSendOnlyBth, and those bytes read back.
 */
class RoceSendOnlyBthTestCase : public TestCase
{
  public:
    RoceSendOnlyBthTestCase()
        : TestCase("RoCE headers: SEND_ONLY BTH bytes")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialised(SendOnlyBth())), Hex(kSendOnlyBth), "SEND_ONLY");

        RoceBthHeader read;
        uint32_t removed = PacketOf(kSendOnlyBth)->RemoveHeader(read);
        NS_TEST_EXPECT_MSG_EQ(removed, 12u, "bytes read");
        NS_TEST_EXPECT_MSG_EQ(int(read.GetOpcode()), int(RoceBthHeader::RC_SEND_ONLY), "opcode");
        NS_TEST_EXPECT_MSG_EQ(read.GetSolicited(), false, "SE");
        NS_TEST_EXPECT_MSG_EQ(int(read.GetPadCount()), 0, "pad count");
        NS_TEST_EXPECT_MSG_EQ(read.GetPartitionKey(), 0xFFFF, "partition key");
        NS_TEST_EXPECT_MSG_EQ(read.GetBecn(), false, "BECN");
        NS_TEST_EXPECT_MSG_EQ(read.GetDestQp(), 0x000123u, "destination QP");
        NS_TEST_EXPECT_MSG_EQ(read.GetAckRequest(), true, "AckReq");
        // 0xABCD = 10*4096 + 11*256 + 12*16 + 13
        NS_TEST_EXPECT_MSG_EQ(read.GetPsn(), 43981u, "PSN");
    }
};

/**
 * \ingroup tagger-tests
 * Every flag the BTH can set (kFlagsBth), cleared again, and where the pad
 * count and SE land in byte 1.
 */
class RoceFlagsBthTestCase : public TestCase
{
  public:
    RoceFlagsBthTestCase()
        : TestCase("RoCE headers: BTH flags, pad count and the largest 24-bit values")
    {
    }

  private:
    void DoRun() override
    {
        RoceBthHeader bth;
        bth.SetOpcode(RoceBthHeader::RC_SEND_FIRST);
        bth.SetSolicited(true);
        bth.SetPadCount(3);
        bth.SetPartitionKey(0x8001);
        bth.SetBecn(true);
        bth.SetDestQp(0xFFFFFF);
        bth.SetPsn(0xFFFFFF);
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialised(bth)), Hex(kFlagsBth), "every flag set");

        RoceBthHeader read;
        PacketOf(kFlagsBth)->RemoveHeader(read);
        NS_TEST_EXPECT_MSG_EQ(int(read.GetOpcode()), int(RoceBthHeader::RC_SEND_FIRST), "opcode");
        NS_TEST_EXPECT_MSG_EQ(read.GetSolicited(), true, "SE");
        NS_TEST_EXPECT_MSG_EQ(int(read.GetPadCount()), 3, "pad count");
        NS_TEST_EXPECT_MSG_EQ(read.GetPartitionKey(), 0x8001, "partition key");
        NS_TEST_EXPECT_MSG_EQ(read.GetBecn(), true, "BECN");
        NS_TEST_EXPECT_MSG_EQ(read.GetDestQp(), 0xFFFFFFu, "destination QP");
        NS_TEST_EXPECT_MSG_EQ(read.GetAckRequest(), false, "AckReq");
        NS_TEST_EXPECT_MSG_EQ(read.GetPsn(), 0xFFFFFFu, "PSN");

        // Clearing the flags leaves the fields around them alone: byte 1 back to 0x00 with
        // pad 0 and SE 0, byte 4 back to 0x00 with BECN 0.
        bth.SetSolicited(false);
        bth.SetPadCount(0);
        bth.SetBecn(false);
        std::vector<uint8_t> expected = kFlagsBth;
        expected[1] = 0x00;
        expected[4] = 0x00;
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialised(bth)), Hex(expected), "flags cleared");

        // Each pad count lands in bits 5-4 of byte 1: pad << 4 = 0x00, 0x10, 0x20, 0x30.
        for (uint8_t pad = 0; pad <= 3; ++pad)
        {
            bth.SetPadCount(pad);
            NS_TEST_EXPECT_MSG_EQ(int(bth.GetPadCount()), int(pad), "pad " << int(pad));
            NS_TEST_EXPECT_MSG_EQ(int(Serialised(bth)[1]), pad * 0x10, "pad " << int(pad));
        }
        // SE is bit 7 and independent of the pad count: 0x80 | 0x30 = 0xB0, then 0x30 alone.
        bth.SetSolicited(true);
        NS_TEST_EXPECT_MSG_EQ(int(Serialised(bth)[1]), 0xB0, "SE and pad 3");
        bth.SetSolicited(false);
        NS_TEST_EXPECT_MSG_EQ(int(Serialised(bth)[1]), 0x30, "pad 3 alone");
    }
};

/**
 * \ingroup tagger-tests
 * FECN (bit 7 of byte 4) has no setter, but a received BTH keeps it, and
 * clearing BECN leaves it set.
 */
class RoceFecnTestCase : public TestCase
{
  public:
    RoceFecnTestCase()
        : TestCase("RoCE headers: FECN and the reserved bits of byte 4 survive a round trip")
    {
    }

  private:
    void DoRun() override
    {
        // FECN (bit 7) has no setter but a received BTH keeps it: 0x80 | BECN 0x40 = 0xC0.
        std::vector<uint8_t> bytes = kSendOnlyBth;
        bytes[4] = 0xC0;
        RoceBthHeader read;
        PacketOf(bytes)->RemoveHeader(read);
        NS_TEST_EXPECT_MSG_EQ(read.GetBecn(), true, "BECN");
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialised(read)), Hex(bytes), "FECN kept");
        NS_TEST_EXPECT_MSG_NE(Printed(read).find("FECN"), std::string::npos, Printed(read));
        // Clearing BECN keeps FECN: 0xC0 -> 0x80.
        read.SetBecn(false);
        bytes[4] = 0x80;
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialised(read)), Hex(bytes), "BECN cleared, FECN kept");
    }
};

/**
 * \ingroup tagger-tests
 * An ACK (BTH + AETH) serialises to kAck, and those bytes read back.
 */
class RoceAckTestCase : public TestCase
{
  public:
    RoceAckTestCase()
        : TestCase("RoCE headers: ACK bytes")
    {
    }

  private:
    void DoRun() override
    {
        RoceBthHeader bth;
        bth.SetOpcode(RoceBthHeader::RC_ACK);
        bth.SetDestQp(0x000456);
        bth.SetPsn(0x10);
        RoceAethHeader aeth;
        aeth.SetSyndrome(RoceAethHeader::kSyndromeAck);
        aeth.SetMsn(7);
        NS_TEST_EXPECT_MSG_EQ(int(RoceAethHeader::kSyndromeAck), 0x1F, "ACK syndrome");
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), false, "an ACK");

        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(aeth);
        p->AddHeader(bth);
        NS_TEST_EXPECT_MSG_EQ(Hex(BytesOf(p)), Hex(kAck), "ACK");

        Ptr<Packet> in = PacketOf(kAck);
        RoceBthHeader readBth;
        RoceAethHeader readAeth;
        uint32_t bthBytes = in->RemoveHeader(readBth);
        uint32_t aethBytes = in->RemoveHeader(readAeth);
        NS_TEST_EXPECT_MSG_EQ(bthBytes, 12u, "BTH bytes read");
        NS_TEST_EXPECT_MSG_EQ(aethBytes, 4u, "AETH bytes read");
        NS_TEST_EXPECT_MSG_EQ(in->GetSize(), 0u, "nothing left");
        NS_TEST_EXPECT_MSG_EQ(int(readBth.GetOpcode()), 0x11, "opcode");
        NS_TEST_EXPECT_MSG_EQ(readBth.GetDestQp(), 0x456u, "destination QP");
        NS_TEST_EXPECT_MSG_EQ(readBth.GetPsn(), 16u, "PSN");
        NS_TEST_EXPECT_MSG_EQ(readBth.GetAckRequest(), false, "AckReq");
        NS_TEST_EXPECT_MSG_EQ(int(readAeth.GetSyndrome()), 0x1F, "syndrome");
        NS_TEST_EXPECT_MSG_EQ(readAeth.IsNak(), false, "an ACK");
        NS_TEST_EXPECT_MSG_EQ(readAeth.GetMsn(), 7u, "MSN");
    }
};

/**
 * \ingroup tagger-tests
 * A NAK (PSN sequence error) serialises to kNak, and those bytes read back.
 */
class RoceNakTestCase : public TestCase
{
  public:
    RoceNakTestCase()
        : TestCase("RoCE headers: NAK bytes")
    {
    }

  private:
    void DoRun() override
    {
        RoceBthHeader bth;
        bth.SetOpcode(RoceBthHeader::RC_ACK);
        bth.SetDestQp(0x000456);
        bth.SetPsn(0x11);
        RoceAethHeader aeth;
        aeth.SetSyndrome(RoceAethHeader::kSyndromeNakSequence);
        aeth.SetMsn(7);
        NS_TEST_EXPECT_MSG_EQ(int(RoceAethHeader::kSyndromeNakSequence), 0x60, "NAK syndrome");
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), true, "a NAK");

        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(aeth);
        p->AddHeader(bth);
        NS_TEST_EXPECT_MSG_EQ(Hex(BytesOf(p)), Hex(kNak), "NAK");

        Ptr<Packet> in = PacketOf(kNak);
        RoceBthHeader readBth;
        RoceAethHeader readAeth;
        in->RemoveHeader(readBth);
        in->RemoveHeader(readAeth);
        NS_TEST_EXPECT_MSG_EQ(readBth.GetPsn(), 17u, "PSN");
        NS_TEST_EXPECT_MSG_EQ(int(readAeth.GetSyndrome()), 0x60, "syndrome");
        NS_TEST_EXPECT_MSG_EQ(readAeth.IsNak(), true, "a NAK");
        NS_TEST_EXPECT_MSG_EQ(readAeth.GetMsn(), 7u, "MSN");
    }
};

/**
 * \ingroup tagger-tests
 * RoceAethHeader::IsNak reads bits 6-5 of the syndrome: only 11 is a NAK.
 */
class RoceNakSyndromeTestCase : public TestCase
{
  public:
    RoceNakSyndromeTestCase()
        : TestCase("RoCE headers: which syndromes are NAKs")
    {
    }

  private:
    void DoRun() override
    {
        // Bits 6-5 of the syndrome: 00 ACK, 01 RNR NAK, 10 reserved, 11 NAK.
        RoceAethHeader aeth;
        aeth.SetSyndrome(0x00); // ACK, credit 0
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), false, "0x00");
        aeth.SetSyndrome(0x1F); // ACK, credit invalid
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), false, "0x1F");
        aeth.SetSyndrome(0x20); // 0 01 00000: RNR NAK, not a NAK of sequence/error kind
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), false, "0x20");
        aeth.SetSyndrome(0x40); // 0 10 00000: reserved
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), false, "0x40");
        aeth.SetSyndrome(0x60); // 0 11 00000: NAK, PSN sequence error
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), true, "0x60");
        aeth.SetSyndrome(0x63); // 0 11 00011: NAK, remote operational error
        NS_TEST_EXPECT_MSG_EQ(aeth.IsNak(), true, "0x63");
    }
};

/**
 * \ingroup tagger-tests
 * A CNP's BTH serialises to kCnpBth, and those bytes read back.
 */
class RoceCnpTestCase : public TestCase
{
  public:
    RoceCnpTestCase()
        : TestCase("RoCE headers: CNP bytes")
    {
    }

  private:
    void DoRun() override
    {
        RoceBthHeader bth;
        bth.SetOpcode(RoceBthHeader::CNP);
        bth.SetBecn(true);
        bth.SetDestQp(0x000123);
        bth.SetPsn(0);
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialised(bth)), Hex(kCnpBth), "CNP");

        RoceBthHeader read;
        PacketOf(kCnpBth)->RemoveHeader(read);
        NS_TEST_EXPECT_MSG_EQ(int(read.GetOpcode()), 0x81, "opcode");
        NS_TEST_EXPECT_MSG_EQ(read.GetBecn(), true, "BECN");
        NS_TEST_EXPECT_MSG_EQ(read.GetDestQp(), 0x123u, "destination QP");
    }
};

/**
 * \ingroup tagger-tests
 * BTH and AETH fields survive a round trip for values whose bytes all
 * differ; the MSN sits in AETH bytes 1-3, most significant first.
 */
class RoceRoundTripTestCase : public TestCase
{
  public:
    RoceRoundTripTestCase()
        : TestCase("RoCE headers: BTH and AETH round trips")
    {
    }

  private:
    void DoRun() override
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
                std::ostringstream where;
                where << "qp " << qp << " psn " << psn;
                NS_TEST_EXPECT_MSG_EQ(int(read.GetOpcode()),
                                      int(RoceBthHeader::RC_SEND_MIDDLE),
                                      where.str());
                NS_TEST_EXPECT_MSG_EQ(read.GetDestQp(), qp, where.str());
                NS_TEST_EXPECT_MSG_EQ(read.GetPsn(), psn, where.str());
                NS_TEST_EXPECT_MSG_EQ(read.GetAckRequest(), ((psn & 1) != 0), where.str());
                NS_TEST_EXPECT_MSG_EQ(read.GetSolicited(), ((qp & 1) != 0), where.str());
                NS_TEST_EXPECT_MSG_EQ(unsigned(read.GetPadCount()), qp % 4, where.str());
                NS_TEST_EXPECT_MSG_EQ(read.GetPartitionKey(),
                                      static_cast<uint16_t>(qp ^ psn),
                                      where.str());
            }
            RoceAethHeader aeth;
            aeth.SetSyndrome(static_cast<uint8_t>(qp));
            aeth.SetMsn(qp);
            Ptr<Packet> p = Create<Packet>();
            p->AddHeader(aeth);
            RoceAethHeader read;
            p->RemoveHeader(read);
            NS_TEST_EXPECT_MSG_EQ(int(read.GetSyndrome()),
                                  int(static_cast<uint8_t>(qp)),
                                  "AETH, qp " << qp);
            NS_TEST_EXPECT_MSG_EQ(read.GetMsn(), qp, "AETH, qp " << qp);
        }
        // MSN 0x123456 sits in bytes 1-3 of the AETH, most significant byte first.
        RoceAethHeader aeth;
        aeth.SetSyndrome(0x1F);
        aeth.SetMsn(0x123456);
        NS_TEST_EXPECT_MSG_EQ(Hex(Serialised(aeth)),
                              Hex(std::vector<uint8_t>({0x1F, 0x12, 0x34, 0x56})),
                              "AETH bytes");
    }
};

/**
 * \ingroup tagger-tests
 * The ICRC trailer goes behind the payload, most significant byte first,
 * and reads back from there.
 */
class RoceIcrcTrailerTestCase : public TestCase
{
  public:
    RoceIcrcTrailerTestCase()
        : TestCase("RoCE headers: the ICRC trailer ends the packet")
    {
    }

  private:
    void DoRun() override
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
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 80u, "BTH + payload + ICRC");
        if (IsStatusFailure())
        {
            return;
        }

        std::vector<uint8_t> bytes = BytesOf(p);
        // bytes 0-11: the BTH
        NS_TEST_EXPECT_MSG_EQ(Hex(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 12)),
                              Hex(kSendOnlyBth),
                              "the BTH");
        // bytes 12-75: the payload, untouched
        NS_TEST_EXPECT_MSG_EQ(Hex(std::vector<uint8_t>(bytes.begin() + 12, bytes.begin() + 76)),
                              Hex(payload),
                              "the payload");
        // bytes 76-79: the ICRC, most significant byte first
        NS_TEST_EXPECT_MSG_EQ(int(bytes[76]), 0xDE, "ICRC byte 0");
        NS_TEST_EXPECT_MSG_EQ(int(bytes[77]), 0xAD, "ICRC byte 1");
        NS_TEST_EXPECT_MSG_EQ(int(bytes[78]), 0xBE, "ICRC byte 2");
        NS_TEST_EXPECT_MSG_EQ(int(bytes[79]), 0xEF, "ICRC byte 3");

        // Removing the trailer reads those last 4 bytes back, and leaves BTH + payload.
        RoceIcrcTrailer read;
        uint32_t removed = p->RemoveTrailer(read);
        NS_TEST_EXPECT_MSG_EQ(removed, 4u, "ICRC bytes read");
        NS_TEST_EXPECT_MSG_EQ(read.GetIcrc(), 0xDEADBEEFu, "ICRC");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 76u, "BTH + payload left");
        RoceBthHeader bth;
        p->RemoveHeader(bth);
        NS_TEST_EXPECT_MSG_EQ(Hex(BytesOf(p)), Hex(payload), "the payload left");

        // The default ICRC is 0 (not computed).
        NS_TEST_EXPECT_MSG_EQ(RoceIcrcTrailer().GetIcrc(), 0u, "default ICRC");
    }
};

/**
 * \ingroup tagger-tests
 * The ICRC trailer is the last 4 bytes of a hand-written packet, whatever is
 * in front of it.
 */
class RoceIcrcFromBytesTestCase : public TestCase
{
  public:
    RoceIcrcFromBytesTestCase()
        : TestCase("RoCE headers: the ICRC read from hand-written bytes")
    {
    }

  private:
    void DoRun() override
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
        NS_TEST_EXPECT_MSG_EQ(icrc.GetIcrc(), 0x01020304u, "ICRC");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 14u, "BTH + 2 bytes left");
        if (IsStatusFailure())
        {
            return;
        }
        std::vector<uint8_t> rest = BytesOf(p);
        NS_TEST_EXPECT_MSG_EQ(int(rest[12]), 0xAA, Hex(rest));
        NS_TEST_EXPECT_MSG_EQ(int(rest[13]), 0xBB, Hex(rest));
    }
};

/**
 * \ingroup tagger-tests
 * What the headers print: opcode names (others in hex), QP, PSN, flags,
 * ACK / NAK and MSN, the ICRC; the stream's formatting is restored.
 */
class RocePrintTestCase : public TestCase
{
  public:
    RocePrintTestCase()
        : TestCase("RoCE headers: Print")
    {
    }

  private:
    void DoRun() override
    {
        std::string send = Printed(SendOnlyBth());
        NS_TEST_EXPECT_MSG_NE(send.find("RC_SEND_ONLY"), std::string::npos, send);
        NS_TEST_EXPECT_MSG_NE(send.find("qp=0x000123"), std::string::npos, send);
        NS_TEST_EXPECT_MSG_NE(send.find("psn=43981"), std::string::npos, send);
        NS_TEST_EXPECT_MSG_NE(send.find("AckReq"), std::string::npos, send);
        NS_TEST_EXPECT_MSG_EQ(send.find("BECN"), std::string::npos, send);

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
            NS_TEST_EXPECT_MSG_NE(Printed(bth).find(name), std::string::npos, Printed(bth));
        }
        bth.SetOpcode(0x0A); // RC RDMA WRITE Only: not one of ours, printed in hex
        NS_TEST_EXPECT_MSG_NE(Printed(bth).find("0x0a"), std::string::npos, Printed(bth));
        bth.SetBecn(true);
        NS_TEST_EXPECT_MSG_NE(Printed(bth).find("BECN"), std::string::npos, Printed(bth));

        RoceAethHeader aeth;
        aeth.SetSyndrome(0x60);
        aeth.SetMsn(7);
        std::string nak = Printed(aeth);
        NS_TEST_EXPECT_MSG_NE(nak.find("NAK"), std::string::npos, nak);
        NS_TEST_EXPECT_MSG_NE(nak.find("msn=7"), std::string::npos, nak);
        aeth.SetSyndrome(0x1F);
        std::string ack = Printed(aeth);
        NS_TEST_EXPECT_MSG_NE(ack.find("ACK"), std::string::npos, ack);
        NS_TEST_EXPECT_MSG_EQ(ack.find("NAK"), std::string::npos, ack);

        RoceIcrcTrailer icrc;
        icrc.SetIcrc(0xDEADBEEF);
        NS_TEST_EXPECT_MSG_NE(Printed(icrc).find("0xdeadbeef"), std::string::npos, Printed(icrc));

        // The stream's formatting is left as it was.
        std::ostringstream os;
        SendOnlyBth().Print(os);
        os << 255;
        NS_TEST_EXPECT_MSG_EQ(os.str().substr(os.str().size() - 3), "255", os.str());
    }
};

/**
 * \ingroup tagger-tests
 * Values that do not fit their field end the program with a message naming
 * them (checked in a child process).
 */
class RoceOutOfRangeTestCase : public TestCase
{
  public:
    RoceOutOfRangeTestCase()
        : TestCase("RoCE headers: out-of-range values end the program")
    {
    }

  private:
    void DoRun() override
    {
        RoceBthHeader bth;
        // 24 bits: 0xFFFFFF = 16777215 is the largest; 0x1000000 = 16777216 is one too many.
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&bth]() { bth.SetDestQp(0x1000000); }, "destination QP 16777216"),
            "",
            "SetDestQp(0x1000000)");
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&bth]() { bth.SetPsn(0x1000000); }, "PSN 16777216"),
                              "",
                              "SetPsn(0x1000000)");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&bth]() { bth.SetPsn(0xFFFFFFFF); }, "PSN 4294967295"),
            "",
            "SetPsn(0xFFFFFFFF)");
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&bth]() { bth.SetPadCount(4); }, "pad count 4"),
                              "",
                              "SetPadCount(4)");
        RoceAethHeader aeth;
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&aeth]() { aeth.SetMsn(0x1000000); }, "MSN 16777216"),
            "",
            "SetMsn(0x1000000)");
    }
};

} // namespace

/**
 * The RoCE header test cases, for the TestSuite "tagger-roce".
 * \return new test cases (the suite takes ownership)
 */
/**
 * \ingroup tagger-tests
 * The INT header (RoceIntHeader) and the BTH's INT bit: bytes written out by
 * hand from the layout in roce-int-header.h, the counters' wrap, the sixth
 * hop, and the stamp on a frame (data packets only).
 */
class RoceIntHeaderTestCase : public TestCase
{
  public:
    RoceIntHeaderTestCase()
        : TestCase("RoCE headers: INT records (44 bytes), their wrap, the BTH INT bit, the stamp")
    {
    }

  private:
    void DoRun() override
    {
        RoceBthHeader bth;
        bth.SetInt(true);
        NS_TEST_EXPECT_MSG_EQ(int(Serialised(bth)[4]), 0x20, "INT is bit 5 of byte 4");
        bth.SetBecn(true);
        NS_TEST_EXPECT_MSG_EQ(int(Serialised(bth)[4]), 0x60, "BECN beside it");
        bth.SetInt(false);
        NS_TEST_EXPECT_MSG_EQ(int(Serialised(bth)[4]), 0x40, "INT cleared, BECN kept");

        RoceIntHeader t;
        NS_TEST_EXPECT_MSG_EQ(t.GetSerializedSize(), 44u, "4 + 5 x 8 bytes");
        // 40 Gb/s (code 4), t = 1,000,000 ns (0x0F4240), 1,280,000 bytes sent (10,000 units
        // of 128 = 0x02710), queue 8,000 B (100 units of 80 = 0x0064):
        // 0x4 0F4240 02710 0064 -> 40 F4 24 00 27 10 00 64
        t.PushHop(NanoSeconds(1000000), 1280000, 8000, 40000000000ULL);
        std::vector<uint8_t> bytes = Serialised(t);
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), 44u, "size");
        const std::vector<uint8_t> head =
            {0x01, 0, 0, 0, 0x40, 0xF4, 0x24, 0x00, 0x27, 0x10, 0x00, 0x64};
        NS_TEST_EXPECT_MSG_EQ(Hex(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 12)),
                              Hex(head),
                              "one hop");
        NS_TEST_EXPECT_MSG_EQ(std::count(bytes.begin() + 12, bytes.end(), 0), 32, "4 empty hops");
        RoceIntHeader read;
        PacketOf(bytes)->RemoveHeader(read);
        NS_TEST_ASSERT_MSG_EQ(read.GetNHops(), 1u, "hops read");
        NS_TEST_EXPECT_MSG_EQ(read.GetHop(0).rateBps, 40000000000ULL, "rate");
        NS_TEST_EXPECT_MSG_EQ(read.GetHop(0).timeNs, 1000000u, "time");
        NS_TEST_EXPECT_MSG_EQ(read.GetHop(0).queue, 8000u, "queue");

        // Wrap: 16,777,000 ns and 1,048,000 units, then 300 ns and 600 units later (mod 2^24
        // and 2^20): differences 2^24 - 16,777,000 + 300 = 516 ns and (2^20 - 1,048,000 +
        // 600) x 128 = 1,176 x 128 = 150,528 bytes.
        RoceIntHeader a;
        a.PushHop(NanoSeconds(16777000), 1048000ULL * 128, 0, 10000000000ULL);
        RoceIntHeader b;
        b.PushHop(NanoSeconds(16777216 + 300), (1048576ULL + 600) * 128, 0, 10000000000ULL);
        NS_TEST_EXPECT_MSG_EQ(RoceIntHeader::GetTimeDelta(b.GetHop(0), a.GetHop(0)), 516u, "time");
        NS_TEST_EXPECT_MSG_EQ(RoceIntHeader::GetBytesDelta(b.GetHop(0), a.GetHop(0)),
                              150528u,
                              "bytes");

        // A sixth hop is not recorded; a queue above 0xffff units saturates.
        RoceIntHeader six;
        for (int i = 0; i < 6; ++i)
        {
            six.PushHop(NanoSeconds(i), 0, 100000000, 100000000000ULL);
        }
        NS_TEST_EXPECT_MSG_EQ(six.GetNHops(), 5u, "five hops");
        NS_TEST_EXPECT_MSG_EQ(six.GetHop(4).queue, 0xffffu * 80, "saturated queue");
        NS_TEST_EXPECT_MSG_EQ(RoceIntHeader::IsEncodable(100000000000ULL), true, "100G");
        NS_TEST_EXPECT_MSG_EQ(RoceIntHeader::IsEncodable(12000000000ULL), false, "12G");

        // The stamp: a data frame with the INT bit gets a hop; an ACK with it does not.
        for (uint8_t opcode :
             {uint8_t(RoceBthHeader::RC_SEND_ONLY), uint8_t(RoceBthHeader::RC_ACK)})
        {
            Ptr<Packet> p = Create<Packet>(100);
            p->AddHeader(RoceIntHeader());
            RoceBthHeader h;
            h.SetOpcode(opcode);
            h.SetInt(true);
            p->AddHeader(h);
            UdpHeader udp;
            udp.SetDestinationPort(kRoceUdpPort);
            p->AddHeader(udp);
            Ipv4Header ip;
            ip.SetProtocol(17);
            ip.SetPayloadSize(p->GetSize());
            p->AddHeader(ip);
            AddEthernetHeader(p,
                              Mac48Address("00:00:00:00:00:01"),
                              Mac48Address("00:00:00:00:00:02"),
                              kEtherTypeIpv4,
                              false,
                              3);
            const uint32_t size = p->GetSize();
            const bool pushed = RoceIntStamp(p, MicroSeconds(5), 2000, 1000, 40000000000ULL);
            const bool wanted = opcode != RoceBthHeader::RC_ACK;
            NS_TEST_EXPECT_MSG_EQ(pushed, wanted, "opcode " << int(opcode));
            NS_TEST_EXPECT_MSG_EQ(p->GetSize(), size, "the frame keeps its size");
            EthernetDot1qHeader eth;
            p->RemoveHeader(eth);
            p->RemoveHeader(ip);
            p->RemoveHeader(udp);
            p->RemoveHeader(h);
            RoceIntHeader got;
            p->RemoveHeader(got);
            const uint32_t hops = pushed ? 1 : 0;
            NS_TEST_EXPECT_MSG_EQ(got.GetNHops(), hops, "hops after the stamp");
        }
    }
};

std::vector<TestCase*>
MakeRoceHeaderTestCases()
{
    return {new RoceHeaderTypeIdTestCase,
            new RoceHeaderSizesTestCase,
            new RoceDefaultBthTestCase,
            new RoceSendOnlyBthTestCase,
            new RoceFlagsBthTestCase,
            new RoceFecnTestCase,
            new RoceAckTestCase,
            new RoceNakTestCase,
            new RoceNakSyndromeTestCase,
            new RoceCnpTestCase,
            new RoceRoundTripTestCase,
            new RoceIcrcTrailerTestCase,
            new RoceIcrcFromBytesTestCase,
            new RocePrintTestCase,
            new RoceOutOfRangeTestCase,
            new RoceIntHeaderTestCase};
}
