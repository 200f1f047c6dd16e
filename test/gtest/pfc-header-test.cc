/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of EthernetDot1qHeader and PfcHeader: the bytes on the wire are
 * written out by hand from IEEE 802.3 (Ethernet II), IEEE 802.1Q (tag) and
 * IEEE 802.1Qbb (PFC frame) and compared byte for byte with what the headers
 * serialise; the same hand-written bytes are deserialised back.
 */

#include "pfc-header.h"

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

/// What \p h prints.
std::string
Printed(const Header& h)
{
    std::ostringstream os;
    h.Print(os);
    return os.str();
}

/// A PFC frame: class 3 paused for 0xFFFF quanta, class 5 for 0x0010 quanta, written by hand.
const std::vector<uint8_t> kPfcFrame = {
    // Ethernet II header (14 bytes)
    0x01,
    0x80,
    0xC2,
    0x00,
    0x00,
    0x01, // destination 01:80:C2:00:00:01 (PFC / MAC control)
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x07, // source 00:00:00:00:00:07
    0x88,
    0x08, // EtherType 0x8808 (MAC control)
    // PFC body (46 bytes)
    0x01,
    0x01, // opcode 0x0101 (PFC)
    0x00,
    0x28, // class-enable vector: bit 3 (0x08) | bit 5 (0x20) = 0x0028
    0x00,
    0x00, // time[0] = 0 (class not enabled)
    0x00,
    0x00, // time[1] = 0
    0x00,
    0x00, // time[2] = 0
    0xFF,
    0xFF, // time[3] = 0xFFFF = 65535 quanta
    0x00,
    0x00, // time[4] = 0
    0x00,
    0x10, // time[5] = 0x0010 = 16 quanta
    0x00,
    0x00, // time[6] = 0
    0x00,
    0x00, // time[7] = 0
    // padding: 46 - (2 + 2 + 8 * 2) = 26 zero bytes
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00, // 10
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00, // 20
    0x00,
    0x00,
    0x00,
    0x00,
    0x00,
    0x00, // 26
};

} // namespace

TEST(PfcHeader, ConstantsAndTypeIds)
{
    // 14 header + 46 body + 4 FCS = 64, the minimum Ethernet frame.
    EXPECT_EQ(kPfcFrame.size(), 60u);
    EXPECT_EQ(PfcHeader::kBodySize, 46u);
    EXPECT_EQ(PfcHeader::GetPfcDestination(), Mac48Address("01:80:C2:00:00:01"));

    TypeId tid;
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::PfcHeader", &tid));
    EXPECT_EQ(tid.GetGroupName(), "Tagger");
    EXPECT_TRUE(tid.HasConstructor());
    EXPECT_EQ(tid.GetParent(), Header::GetTypeId());
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::EthernetDot1qHeader", &tid));
    EXPECT_EQ(tid.GetGroupName(), "Tagger");
    EXPECT_TRUE(tid.HasConstructor());
}

TEST(PfcHeader, DefaultIsEmptyPfc)
{
    PfcHeader pfc;
    EXPECT_EQ(pfc.GetOpcode(), 0x0101);
    EXPECT_EQ(pfc.GetClassEnableVector(), 0);
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        EXPECT_FALSE(pfc.IsClassEnabled(c));
        EXPECT_EQ(pfc.GetQuanta(c), 0);
    }
    EXPECT_EQ(pfc.GetSerializedSize(), 46u);
}

TEST(PfcHeader, SerialisesByteForByte)
{
    PfcHeader pfc;
    pfc.SetClass(3, 0xFFFF);
    pfc.SetClass(5, 0x0010);
    EthernetDot1qHeader eth;
    eth.SetDestination(PfcHeader::GetPfcDestination());
    eth.SetSource(Mac48Address("00:00:00:00:00:07"));
    eth.SetEtherType(kEtherTypeMacControl);
    EXPECT_EQ(eth.GetSerializedSize(), 14u);

    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(pfc);
    p->AddHeader(eth);
    ASSERT_EQ(p->GetSize(), 60u);
    EXPECT_EQ(BytesOf(p), kPfcFrame);

    // Round trip through the packet.
    EthernetDot1qHeader eth2;
    EXPECT_EQ(p->RemoveHeader(eth2), 14u);
    EXPECT_EQ(eth2.GetDestination(), Mac48Address("01:80:C2:00:00:01"));
    EXPECT_EQ(eth2.GetSource(), Mac48Address("00:00:00:00:00:07"));
    EXPECT_EQ(eth2.GetEtherType(), 0x8808);
    EXPECT_FALSE(eth2.HasVlan());
    PfcHeader pfc2;
    EXPECT_EQ(p->RemoveHeader(pfc2), 46u);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(pfc2.GetOpcode(), 0x0101);
    EXPECT_EQ(pfc2.GetClassEnableVector(), 0x0028);
    for (uint8_t c = 0; c < kPfcClasses; ++c)
    {
        EXPECT_EQ(pfc2.IsClassEnabled(c), c == 3 || c == 5) << "class " << int(c);
    }
    EXPECT_EQ(pfc2.GetQuanta(3), 65535);
    EXPECT_EQ(pfc2.GetQuanta(5), 16);
    EXPECT_EQ(pfc2.GetQuanta(0), 0);
}

TEST(PfcHeader, DeserialisesHandWrittenBytes)
{
    Ptr<Packet> p = Create<Packet>(kPfcFrame.data(), kPfcFrame.size());
    EthernetDot1qHeader eth;
    PfcHeader pfc;
    p->RemoveHeader(eth);
    p->RemoveHeader(pfc);
    EXPECT_EQ(p->GetSize(), 0u);
    EXPECT_EQ(eth.GetDestination(), PfcHeader::GetPfcDestination());
    EXPECT_EQ(eth.GetEtherType(), kEtherTypeMacControl);
    EXPECT_EQ(pfc.GetClassEnableVector(), 0x28);
    EXPECT_EQ(pfc.GetQuanta(3), 0xFFFF);
    EXPECT_EQ(pfc.GetQuanta(5), 0x0010);
    EXPECT_EQ(Printed(pfc), "PFC cev=0x28 c3=65535 c5=16");
    EXPECT_NE(Printed(eth).find("type=0x8808"), std::string::npos) << Printed(eth);
}

TEST(PfcHeader, ResumeAndOtherOpcode)
{
    // Resume class 0: enabled with time 0.
    PfcHeader pfc;
    pfc.SetClass(0, 0);
    EXPECT_TRUE(pfc.IsClassEnabled(0));
    EXPECT_EQ(pfc.GetClassEnableVector(), 0x0001);
    EXPECT_EQ(Printed(pfc), "PFC cev=0x01 c0=0");
    // Setting a class again changes its time and keeps the vector.
    pfc.SetClass(0, 7);
    EXPECT_EQ(pfc.GetQuanta(0), 7);
    EXPECT_EQ(pfc.GetClassEnableVector(), 0x0001);

    // An 802.3x PAUSE body (opcode 0x0001): the opcode is reported as read.
    std::vector<uint8_t> pause(46, 0);
    pause[1] = 0x01; // opcode 0x0001
    Ptr<Packet> p = Create<Packet>(pause.data(), pause.size());
    PfcHeader read;
    EXPECT_EQ(p->RemoveHeader(read), 46u);
    EXPECT_EQ(read.GetOpcode(), 0x0001);
    EXPECT_NE(Printed(read).find("opcode=0x0001"), std::string::npos) << Printed(read);
}

TEST(EthernetDot1qHeader, TaggedBytesByHand)
{
    EthernetDot1qHeader eth;
    eth.SetDestination(Mac48Address("00:00:00:00:00:01"));
    eth.SetSource(Mac48Address("00:00:00:00:00:02"));
    eth.SetEtherType(kEtherTypeIpv4);
    EXPECT_FALSE(eth.HasVlan());
    EXPECT_EQ(eth.GetSerializedSize(), 14u);
    eth.SetVlan(5);
    EXPECT_TRUE(eth.HasVlan());
    EXPECT_EQ(eth.GetSerializedSize(), 18u); // 14 + TPID (2) + TCI (2)

    const std::vector<uint8_t> expected = {
        0x00,
        0x00,
        0x00,
        0x00,
        0x00,
        0x01, // destination
        0x00,
        0x00,
        0x00,
        0x00,
        0x00,
        0x02, // source
        0x81,
        0x00, // TPID 0x8100
        0xA0,
        0x00, // TCI: PCP 5 = 101b << 13 = 0xA000, DEI 0, VID 0
        0x08,
        0x00, // EtherType 0x0800 (IPv4)
    };
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(eth);
    EXPECT_EQ(BytesOf(p), expected);

    // Deserialise the hand-written bytes: the TPID is detected, the tag read.
    Ptr<Packet> q = Create<Packet>(expected.data(), expected.size());
    EthernetDot1qHeader read;
    EXPECT_EQ(q->RemoveHeader(read), 18u);
    EXPECT_EQ(q->GetSize(), 0u);
    EXPECT_TRUE(read.HasVlan());
    EXPECT_EQ(read.GetPcp(), 5);
    EXPECT_EQ(read.GetVid(), 0);
    EXPECT_FALSE(read.GetDei());
    EXPECT_EQ(read.GetEtherType(), 0x0800);
    EXPECT_EQ(read.GetDestination(), Mac48Address("00:00:00:00:00:01"));
    EXPECT_EQ(read.GetSource(), Mac48Address("00:00:00:00:00:02"));
    EXPECT_EQ(read.GetSerializedSize(), 18u);
}

TEST(EthernetDot1qHeader, TciFieldsAndRemoval)
{
    EthernetDot1qHeader eth;
    eth.SetEtherType(kEtherTypeIpv4);
    // PCP 3, DEI 1, VID 0x123: 011b << 13 = 0x6000, DEI 0x1000, VID 0x0123 -> TCI 0x7123.
    eth.SetVlan(3, 0x123, true);
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(eth);
    std::vector<uint8_t> bytes = BytesOf(p);
    ASSERT_EQ(bytes.size(), 18u);
    EXPECT_EQ(bytes[12], 0x81);
    EXPECT_EQ(bytes[13], 0x00);
    EXPECT_EQ(bytes[14], 0x71);
    EXPECT_EQ(bytes[15], 0x23);
    EXPECT_EQ(bytes[16], 0x08);
    EXPECT_EQ(bytes[17], 0x00);

    EthernetDot1qHeader read;
    p->RemoveHeader(read);
    EXPECT_EQ(read.GetPcp(), 3);
    EXPECT_EQ(read.GetVid(), 0x123);
    EXPECT_TRUE(read.GetDei());
    EXPECT_NE(Printed(read).find("pcp=3"), std::string::npos) << Printed(read);

    // PCP 7, VID 4095 (the largest values): TCI 0xE000 | 0x0FFF = 0xEFFF.
    read.SetVlan(7, 4095);
    EXPECT_EQ(read.GetPcp(), 7);
    EXPECT_EQ(read.GetVid(), 4095);
    EXPECT_FALSE(read.GetDei());

    read.RemoveVlan();
    EXPECT_FALSE(read.HasVlan());
    EXPECT_EQ(read.GetSerializedSize(), 14u);
    EXPECT_EQ(read.GetPcp(), 0);
    EXPECT_EQ(read.GetVid(), 0);
    EXPECT_FALSE(read.GetDei());
    Ptr<Packet> untagged = Create<Packet>();
    untagged->AddHeader(read);
    bytes = BytesOf(untagged);
    ASSERT_EQ(bytes.size(), 14u);
    EXPECT_EQ(bytes[12], 0x08); // EtherType right after the source
    EXPECT_EQ(bytes[13], 0x00);
}

TEST(PfcHeaderDeathTest, BadClassAborts)
{
    PfcHeader pfc;
    EXPECT_DEATH(pfc.SetClass(8, 1), "class 8");
    EXPECT_DEATH(pfc.GetQuanta(9), "class 9");
    EthernetDot1qHeader eth;
    EXPECT_DEATH(eth.SetVlan(8), "PCP 8");
    EXPECT_DEATH(eth.SetVlan(1, 4096), "VID 4096");
}
