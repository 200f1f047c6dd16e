/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of EthernetDot1qHeader and PfcHeader, in the TestSuite
 * "tagger-pfc-device" (MakePfcHeaderTestCases(), pfc-test-util.h): the bytes
 * on the wire are written out by hand from IEEE 802.3 (Ethernet II), IEEE
 * 802.1Q (tag) and IEEE 802.1Qbb (PFC frame) and compared byte for byte with
 * what the headers serialise; the same hand-written bytes are deserialised
 * back.
 */

#include "../tagger-test-helpers.h"
#include "pfc-test-util.h"

#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/test.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using tagger::test::CheckFatalError;

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

/// \p bytes in hex ("01 80 c2 ..."), for comparisons that show where bytes differ.
std::string
Hex(const std::vector<uint8_t>& bytes)
{
    std::ostringstream os;
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        os << (i ? " " : "") << std::hex << std::setw(2) << std::setfill('0') << unsigned(bytes[i]);
    }
    return os.str();
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

/**
 * \ingroup tagger-tests
 * The frame constants and the TypeIds of the two headers.
 */
class PfcHeaderConstantsTestCase : public TestCase
{
  public:
    PfcHeaderConstantsTestCase()
        : TestCase("PfcHeader: the minimum frame, the PFC address and the TypeIds")
    {
    }

  private:
    void DoRun() override
    {
        // 14 header + 46 body + 4 FCS = 64, the minimum Ethernet frame.
        NS_TEST_EXPECT_MSG_EQ(kPfcFrame.size(), 60u, "a PFC frame without its FCS");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::kBodySize, 46u, "the PFC body");
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::GetPfcDestination(),
                              Mac48Address("01:80:C2:00:00:01"),
                              "the PFC destination address");

        // (NS_TEST_ASSERT returns only under --stop-on-failure: the guards below
        // keep a failed lookup from reaching the TypeId's accessors.)
        TypeId tid;
        NS_TEST_ASSERT_MSG_EQ(TypeId::LookupByNameFailSafe("ns3::PfcHeader", &tid),
                              true,
                              "ns3::PfcHeader is registered");
        if (tid.GetUid() == 0)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(tid.GetGroupName(), "Tagger", "PfcHeader group");
        NS_TEST_EXPECT_MSG_EQ(tid.HasConstructor(), true, "PfcHeader constructor");
        NS_TEST_EXPECT_MSG_EQ(tid.GetParent(), Header::GetTypeId(), "PfcHeader parent");
        tid = TypeId();
        NS_TEST_ASSERT_MSG_EQ(TypeId::LookupByNameFailSafe("ns3::EthernetDot1qHeader", &tid),
                              true,
                              "ns3::EthernetDot1qHeader is registered");
        if (tid.GetUid() == 0)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(tid.GetGroupName(), "Tagger", "EthernetDot1qHeader group");
        NS_TEST_EXPECT_MSG_EQ(tid.HasConstructor(), true, "EthernetDot1qHeader constructor");
    }
};

/**
 * \ingroup tagger-tests
 * A default PfcHeader is an empty PFC body.
 */
class PfcHeaderDefaultTestCase : public TestCase
{
  public:
    PfcHeaderDefaultTestCase()
        : TestCase("PfcHeader: the default is a PFC body with no class enabled")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc;
        NS_TEST_EXPECT_MSG_EQ(pfc.GetOpcode(), 0x0101, "opcode");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetClassEnableVector(), 0, "class-enable vector");
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(pfc.IsClassEnabled(c), false, "class " << int(c) << " enabled");
            NS_TEST_EXPECT_MSG_EQ(pfc.GetQuanta(c), 0, "quanta of class " << int(c));
        }
        NS_TEST_EXPECT_MSG_EQ(pfc.GetSerializedSize(), 46u, "serialised size");
    }
};

/**
 * \ingroup tagger-tests
 * A PFC frame serialises to the hand-written bytes and reads back.
 */
class PfcHeaderSerialiseTestCase : public TestCase
{
  public:
    PfcHeaderSerialiseTestCase()
        : TestCase("PfcHeader: a PFC frame serialises byte for byte as written by hand")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc;
        pfc.SetClass(3, 0xFFFF);
        pfc.SetClass(5, 0x0010);
        EthernetDot1qHeader eth;
        eth.SetDestination(PfcHeader::GetPfcDestination());
        eth.SetSource(Mac48Address("00:00:00:00:00:07"));
        eth.SetEtherType(kEtherTypeMacControl);
        NS_TEST_EXPECT_MSG_EQ(eth.GetSerializedSize(), 14u, "untagged Ethernet header");

        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(pfc);
        p->AddHeader(eth);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 60u, "frame size");
        NS_TEST_EXPECT_MSG_EQ(Hex(BytesOf(p)), Hex(kPfcFrame), "the frame's bytes");

        // Round trip through the packet.
        EthernetDot1qHeader eth2;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(eth2), 14u, "Ethernet header read");
        NS_TEST_EXPECT_MSG_EQ(eth2.GetDestination(),
                              Mac48Address("01:80:C2:00:00:01"),
                              "destination");
        NS_TEST_EXPECT_MSG_EQ(eth2.GetSource(), Mac48Address("00:00:00:00:00:07"), "source");
        NS_TEST_EXPECT_MSG_EQ(eth2.GetEtherType(), 0x8808, "EtherType");
        NS_TEST_EXPECT_MSG_EQ(eth2.HasVlan(), false, "no 802.1Q tag");
        PfcHeader pfc2;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(pfc2), 46u, "PFC body read");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 0u, "nothing left");
        NS_TEST_EXPECT_MSG_EQ(pfc2.GetOpcode(), 0x0101, "opcode");
        NS_TEST_EXPECT_MSG_EQ(pfc2.GetClassEnableVector(), 0x0028, "class-enable vector");
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(pfc2.IsClassEnabled(c), (c == 3 || c == 5), "class " << int(c));
        }
        NS_TEST_EXPECT_MSG_EQ(pfc2.GetQuanta(3), 65535, "quanta of class 3");
        NS_TEST_EXPECT_MSG_EQ(pfc2.GetQuanta(5), 16, "quanta of class 5");
        NS_TEST_EXPECT_MSG_EQ(pfc2.GetQuanta(0), 0, "quanta of class 0");
    }
};

/**
 * \ingroup tagger-tests
 * The hand-written bytes deserialise to the PFC frame they describe.
 */
class PfcHeaderDeserialiseTestCase : public TestCase
{
  public:
    PfcHeaderDeserialiseTestCase()
        : TestCase("PfcHeader: hand-written bytes deserialise, and print")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> p = Create<Packet>(kPfcFrame.data(), kPfcFrame.size());
        EthernetDot1qHeader eth;
        PfcHeader pfc;
        p->RemoveHeader(eth);
        p->RemoveHeader(pfc);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 0u, "nothing left");
        NS_TEST_EXPECT_MSG_EQ(eth.GetDestination(), PfcHeader::GetPfcDestination(), "destination");
        NS_TEST_EXPECT_MSG_EQ(eth.GetEtherType(), kEtherTypeMacControl, "EtherType");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetClassEnableVector(), 0x28, "class-enable vector");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetQuanta(3), 0xFFFF, "quanta of class 3");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetQuanta(5), 0x0010, "quanta of class 5");
        NS_TEST_EXPECT_MSG_EQ(Printed(pfc), "PFC cev=0x28 c3=65535 c5=16", "PfcHeader::Print");
        NS_TEST_EXPECT_MSG_NE(Printed(eth).find("type=0x8808"),
                              std::string::npos,
                              "EthernetDot1qHeader::Print: " << Printed(eth));
    }
};

/**
 * \ingroup tagger-tests
 * A RESUME (time 0), a class set twice, and a body with another opcode.
 */
class PfcHeaderResumeTestCase : public TestCase
{
  public:
    PfcHeaderResumeTestCase()
        : TestCase("PfcHeader: RESUME is time 0; an 802.3x PAUSE opcode is read as is")
    {
    }

  private:
    void DoRun() override
    {
        // Resume class 0: enabled with time 0.
        PfcHeader pfc;
        pfc.SetClass(0, 0);
        NS_TEST_EXPECT_MSG_EQ(pfc.IsClassEnabled(0), true, "class 0 enabled");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetClassEnableVector(), 0x0001, "class-enable vector");
        NS_TEST_EXPECT_MSG_EQ(Printed(pfc), "PFC cev=0x01 c0=0", "PfcHeader::Print");
        // Setting a class again changes its time and keeps the vector.
        pfc.SetClass(0, 7);
        NS_TEST_EXPECT_MSG_EQ(pfc.GetQuanta(0), 7, "quanta of class 0");
        NS_TEST_EXPECT_MSG_EQ(pfc.GetClassEnableVector(), 0x0001, "class-enable vector");

        // An 802.3x PAUSE body (opcode 0x0001): the opcode is reported as read.
        std::vector<uint8_t> pause(46, 0);
        pause[1] = 0x01; // opcode 0x0001
        Ptr<Packet> p = Create<Packet>(pause.data(), pause.size());
        PfcHeader read;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(read), 46u, "body read");
        NS_TEST_EXPECT_MSG_EQ(read.GetOpcode(), 0x0001, "opcode");
        NS_TEST_EXPECT_MSG_NE(Printed(read).find("opcode=0x0001"),
                              std::string::npos,
                              "PfcHeader::Print: " << Printed(read));
    }
};

/**
 * \ingroup tagger-tests
 * An 802.1Q-tagged header, byte for byte.
 */
class EthernetDot1qTaggedTestCase : public TestCase
{
  public:
    EthernetDot1qTaggedTestCase()
        : TestCase("EthernetDot1qHeader: a tagged header byte for byte as written by hand")
    {
    }

  private:
    void DoRun() override
    {
        EthernetDot1qHeader eth;
        eth.SetDestination(Mac48Address("00:00:00:00:00:01"));
        eth.SetSource(Mac48Address("00:00:00:00:00:02"));
        eth.SetEtherType(kEtherTypeIpv4);
        NS_TEST_EXPECT_MSG_EQ(eth.HasVlan(), false, "untagged");
        NS_TEST_EXPECT_MSG_EQ(eth.GetSerializedSize(), 14u, "untagged size");
        eth.SetVlan(5);
        NS_TEST_EXPECT_MSG_EQ(eth.HasVlan(), true, "tagged");
        NS_TEST_EXPECT_MSG_EQ(eth.GetSerializedSize(), 18u, "14 + TPID (2) + TCI (2)");

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
        NS_TEST_EXPECT_MSG_EQ(Hex(BytesOf(p)), Hex(expected), "the header's bytes");

        // Deserialise the hand-written bytes: the TPID is detected, the tag read.
        Ptr<Packet> q = Create<Packet>(expected.data(), expected.size());
        EthernetDot1qHeader read;
        NS_TEST_EXPECT_MSG_EQ(q->RemoveHeader(read), 18u, "header read");
        NS_TEST_EXPECT_MSG_EQ(q->GetSize(), 0u, "nothing left");
        NS_TEST_EXPECT_MSG_EQ(read.HasVlan(), true, "tagged");
        NS_TEST_EXPECT_MSG_EQ(unsigned(read.GetPcp()), 5u, "PCP");
        NS_TEST_EXPECT_MSG_EQ(read.GetVid(), 0, "VID");
        NS_TEST_EXPECT_MSG_EQ(read.GetDei(), false, "DEI");
        NS_TEST_EXPECT_MSG_EQ(read.GetEtherType(), 0x0800, "EtherType");
        NS_TEST_EXPECT_MSG_EQ(read.GetDestination(),
                              Mac48Address("00:00:00:00:00:01"),
                              "destination");
        NS_TEST_EXPECT_MSG_EQ(read.GetSource(), Mac48Address("00:00:00:00:00:02"), "source");
        NS_TEST_EXPECT_MSG_EQ(read.GetSerializedSize(), 18u, "tagged size");
    }
};

/**
 * \ingroup tagger-tests
 * The TCI fields (PCP, DEI, VID) at their bit positions, and removing the tag.
 */
class EthernetDot1qTciTestCase : public TestCase
{
  public:
    EthernetDot1qTciTestCase()
        : TestCase("EthernetDot1qHeader: PCP, DEI and VID in the TCI; removing the tag")
    {
    }

  private:
    void DoRun() override
    {
        EthernetDot1qHeader eth;
        eth.SetEtherType(kEtherTypeIpv4);
        // PCP 3, DEI 1, VID 0x123: 011b << 13 = 0x6000, DEI 0x1000, VID 0x0123 -> TCI 0x7123.
        eth.SetVlan(3, 0x123, true);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(eth);
        std::vector<uint8_t> bytes = BytesOf(p);
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), 18u, "tagged size");
        if (bytes.size() != 18)
        {
            return; // NS_TEST_ASSERT returns only under --stop-on-failure
        }
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[12]), 0x81u, "TPID, high byte");
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[13]), 0x00u, "TPID, low byte");
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[14]), 0x71u, "TCI, high byte");
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[15]), 0x23u, "TCI, low byte");
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[16]), 0x08u, "EtherType, high byte");
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[17]), 0x00u, "EtherType, low byte");

        EthernetDot1qHeader read;
        p->RemoveHeader(read);
        NS_TEST_EXPECT_MSG_EQ(unsigned(read.GetPcp()), 3u, "PCP");
        NS_TEST_EXPECT_MSG_EQ(read.GetVid(), 0x123, "VID");
        NS_TEST_EXPECT_MSG_EQ(read.GetDei(), true, "DEI");
        NS_TEST_EXPECT_MSG_NE(Printed(read).find("pcp=3"),
                              std::string::npos,
                              "EthernetDot1qHeader::Print: " << Printed(read));

        // PCP 7, VID 4095 (the largest values): TCI 0xE000 | 0x0FFF = 0xEFFF.
        read.SetVlan(7, 4095);
        NS_TEST_EXPECT_MSG_EQ(unsigned(read.GetPcp()), 7u, "largest PCP");
        NS_TEST_EXPECT_MSG_EQ(read.GetVid(), 4095, "largest VID");
        NS_TEST_EXPECT_MSG_EQ(read.GetDei(), false, "DEI cleared");

        read.RemoveVlan();
        NS_TEST_EXPECT_MSG_EQ(read.HasVlan(), false, "tag removed");
        NS_TEST_EXPECT_MSG_EQ(read.GetSerializedSize(), 14u, "untagged size");
        NS_TEST_EXPECT_MSG_EQ(unsigned(read.GetPcp()), 0u, "PCP when untagged");
        NS_TEST_EXPECT_MSG_EQ(read.GetVid(), 0, "VID when untagged");
        NS_TEST_EXPECT_MSG_EQ(read.GetDei(), false, "DEI when untagged");
        Ptr<Packet> untagged = Create<Packet>();
        untagged->AddHeader(read);
        bytes = BytesOf(untagged);
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), 14u, "untagged size");
        if (bytes.size() != 14)
        {
            return;
        }
        // The EtherType right after the source.
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[12]), 0x08u, "EtherType, high byte");
        NS_TEST_EXPECT_MSG_EQ(unsigned(bytes[13]), 0x00u, "EtherType, low byte");
    }
};

/**
 * \ingroup tagger-tests
 * A class, PCP or VID out of range ends the program with a message naming it.
 */
class PfcHeaderBadClassTestCase : public TestCase
{
  public:
    PfcHeaderBadClassTestCase()
        : TestCase("PfcHeader, EthernetDot1qHeader: a class, PCP or VID out of range is fatal")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc;
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&pfc]() { pfc.SetClass(8, 1); }, "class 8"),
                              "",
                              "PfcHeader::SetClass(8, 1)");
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&pfc]() { pfc.GetQuanta(9); }, "class 9"),
                              "",
                              "PfcHeader::GetQuanta(9)");
        EthernetDot1qHeader eth;
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&eth]() { eth.SetVlan(8); }, "PCP 8"),
                              "",
                              "EthernetDot1qHeader::SetVlan(8)");
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&eth]() { eth.SetVlan(1, 4096); }, "VID 4096"),
                              "",
                              "EthernetDot1qHeader::SetVlan(1, 4096)");
    }
};

} // namespace

std::vector<TestCase*>
MakePfcHeaderTestCases()
{
    return {new PfcHeaderConstantsTestCase,
            new PfcHeaderDefaultTestCase,
            new PfcHeaderSerialiseTestCase,
            new PfcHeaderDeserialiseTestCase,
            new PfcHeaderResumeTestCase,
            new EthernetDot1qTaggedTestCase,
            new EthernetDot1qTciTestCase,
            new PfcHeaderBadClassTestCase};
}
