/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Whole RoCEv2 frames, added to the ns-3 TestSuite "tagger-roce" through
 * MakeRoceFrameTestCases().  Packets built from the module's headers
 * (EthernetDot1qHeader, ns-3's Ipv4Header and UdpHeader, RoceBthHeader,
 * RoceAethHeader, RoceIcrcTrailer) are checked twice: byte for byte against a
 * frame written by hand, and by Wireshark's own decoder (tshark, when it is
 * installed; the case says SKIPPED on standard error when it is not), which
 * must read every field where the InfiniBand specification puts it.
 */

#include "../tagger-test-helpers.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-header.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

using namespace ns3;
using tagger::test::BytesOf;
using tagger::test::Hex;
using tagger::test::IsInstalled;
using tagger::test::RunCommand;

/**
 * Expect \p text to contain \p needle (in a TestCase member function; a
 * macro so that a failure names the line of the check).
 */
#define TAGGER_TEST_EXPECT_HAS(text, needle)                                                       \
    NS_TEST_EXPECT_MSG_NE((text).find(needle),                                                     \
                          std::string::npos,                                                       \
                          "missing \"" << (needle) << "\" in:\n"                                   \
                                       << (text))

namespace
{

/**
 * A RoCEv2 frame: Ethernet (00:00:00:00:00:01 > 00:00:00:00:00:02, IPv4) / IPv4
 * (10.0.0.1 > 10.0.0.2, TTL 64, DSCP 24, UDP) / UDP (49152 > 4791) / BTH /
 * [AETH] / payload / ICRC.
 *
 * The ICRC is added first: UdpHeader writes its length field from the bytes
 * behind it when it is serialised, so the trailer must already be there.
 *
 * \param bth the BTH
 * \param aeth the AETH, or nullptr for none
 * \param payload the payload behind the transport headers
 * \param icrc the ICRC value
 * \return the frame
 */
Ptr<Packet>
MakeRoceFrame(const RoceBthHeader& bth,
              const RoceAethHeader* aeth,
              const std::vector<uint8_t>& payload,
              uint32_t icrc)
{
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    RoceIcrcTrailer trailer;
    trailer.SetIcrc(icrc);
    p->AddTrailer(trailer);
    if (aeth != nullptr)
    {
        p->AddHeader(*aeth);
    }
    p->AddHeader(bth);

    UdpHeader udp;
    udp.SetSourcePort(49152);
    udp.SetDestinationPort(kRoceUdpPort);
    p->AddHeader(udp);

    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetDscp(Ipv4Header::DscpType(24));
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);

    EthernetDot1qHeader eth;
    eth.SetDestination(Mac48Address("00:00:00:00:00:02"));
    eth.SetSource(Mac48Address("00:00:00:00:00:01"));
    eth.SetEtherType(kEtherTypeIpv4);
    p->AddHeader(eth);
    return p;
}

/// 64 bytes of payload 0x00, 0x01, ..., 0x3F.
std::vector<uint8_t>
Payload64()
{
    std::vector<uint8_t> payload(64);
    for (size_t i = 0; i < payload.size(); ++i)
    {
        payload[i] = static_cast<uint8_t>(i);
    }
    return payload;
}

/// SEND_ONLY, dest QP 0x000123, PSN 0x00ABCD, AckReq, pkey 0xFFFF, 64 bytes, ICRC 0x12345678.
Ptr<Packet>
SendFrame()
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::RC_SEND_ONLY);
    bth.SetPartitionKey(0xFFFF);
    bth.SetDestQp(0x000123);
    bth.SetAckRequest(true);
    bth.SetPsn(0x00ABCD);
    return MakeRoceFrame(bth, nullptr, Payload64(), 0x12345678);
}

/// RC ACK (or NAK), dest QP 0x000456, PSN \p psn, AETH \p syndrome, MSN 7.
Ptr<Packet>
AckFrame(uint8_t syndrome, uint32_t psn)
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::RC_ACK);
    bth.SetDestQp(0x000456);
    bth.SetPsn(psn);
    RoceAethHeader aeth;
    aeth.SetSyndrome(syndrome);
    aeth.SetMsn(7);
    return MakeRoceFrame(bth, &aeth, {}, 0);
}

/// CNP: opcode 0x81, BECN, dest QP 0x000123, PSN 0, 16 reserved bytes.
Ptr<Packet>
CnpFrame()
{
    RoceBthHeader bth;
    bth.SetOpcode(RoceBthHeader::CNP);
    bth.SetBecn(true);
    bth.SetDestQp(0x000123);
    return MakeRoceFrame(bth, nullptr, std::vector<uint8_t>(16, 0), 0);
}

/**
 * Split the output of `tshark -V` into its frames: each one starts with a
 * line "Frame N: ...".
 * \param out the output
 * \return the text of each frame, in order
 */
std::vector<std::string>
SplitFrames(const std::string& out)
{
    std::vector<size_t> starts;
    if (out.compare(0, 6, "Frame ") == 0)
    {
        starts.push_back(0);
    }
    for (size_t pos = out.find("\nFrame "); pos != std::string::npos;
         pos = out.find("\nFrame ", pos + 1))
    {
        starts.push_back(pos + 1);
    }
    std::vector<std::string> frames;
    for (size_t k = 0; k < starts.size(); ++k)
    {
        size_t end = (k + 1 < starts.size()) ? starts[k + 1] : out.size();
        frames.push_back(out.substr(starts[k], end - starts[k]));
    }
    return frames;
}

/// \param text some text \return its non-empty lines
std::vector<std::string>
NonEmptyLines(const std::string& text)
{
    std::vector<std::string> lines;
    for (size_t start = 0, end; start < text.size(); start = end + 1)
    {
        end = text.find('\n', start);
        if (end == std::string::npos)
        {
            end = text.size();
        }
        if (end > start)
        {
            lines.push_back(text.substr(start, end - start));
        }
    }
    return lines;
}

/**
 * \ingroup tagger-tests
 * The SEND_ONLY frame, byte for byte as written out by hand: Ethernet, IPv4
 * (with its checksum worked out), UDP, BTH, payload and ICRC.
 */
class RoceSendFrameBytesTestCase : public TestCase
{
  public:
    RoceSendFrameBytesTestCase()
        : TestCase("RoCE frames: SEND_ONLY frame bytes")
    {
    }

  private:
    void DoRun() override
    {
        // clang-format off
        const std::vector<uint8_t> headers = {
            // Ethernet II (14 bytes)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x02, // destination 00:00:00:00:00:02
            0x00, 0x00, 0x00, 0x00, 0x00, 0x01, // source 00:00:00:00:00:01
            0x08, 0x00,                         // EtherType IPv4
            // IPv4 (20 bytes)
            0x45,       // version 4, IHL 5 words
            0x60,       // TOS: DSCP 24 << 2 = 0x60, ECN 00
            0x00, 0x6C, // total length 20 + 8 + 12 + 64 + 4 = 108 = 0x6C
            0x00, 0x00, // identification 0
            0x00, 0x00, // flags 0, fragment offset 0
            0x40,       // TTL 64
            0x11,       // protocol 17 (UDP)
            0x66, 0x1F, // checksum: 0x4560 + 0x006C + 0x4011 + 0x0A00 + 0x0001 + 0x0A00 + 0x0002
                        //   = 0x99E0, one's complement 0x661F
            0x0A, 0x00, 0x00, 0x01, // source 10.0.0.1
            0x0A, 0x00, 0x00, 0x02, // destination 10.0.0.2
            // UDP (8 bytes)
            0xC0, 0x00, // source port 49152 = 0xC000
            0x12, 0xB7, // destination port 4791 = 0x12B7
            0x00, 0x58, // length 8 + 12 + 64 + 4 = 88 = 0x58 (the ICRC counts)
            0x00, 0x00, // checksum 0: not computed (allowed over IPv4)
            // BTH (12 bytes)
            0x04,             // opcode RC SEND Only
            0x00,             // SE 0, M 0, PadCnt 0, TVer 0
            0xFF, 0xFF,       // partition key 0xFFFF
            0x00,             // FECN 0, BECN 0
            0x00, 0x01, 0x23, // destination QP 0x000123
            0x80,             // AckReq
            0x00, 0xAB, 0xCD, // PSN 0x00ABCD
        };
        // clang-format on
        std::vector<uint8_t> expected = headers;
        std::vector<uint8_t> payload = Payload64();
        expected.insert(expected.end(), payload.begin(), payload.end());
        for (uint8_t b : {0x12, 0x34, 0x56, 0x78}) // ICRC 0x12345678
        {
            expected.push_back(b);
        }
        // 14 + 20 + 8 + 12 + 64 + 4
        NS_TEST_ASSERT_MSG_EQ(expected.size(), 122u, "the frame written by hand");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(Hex(BytesOf(SendFrame())), Hex(expected), "the SEND_ONLY frame");
    }
};

/**
 * \ingroup tagger-tests
 * The ACK and CNP frames: their lengths, the IPv4 and UDP length fields and
 * a few bytes at offsets worked out by hand.
 */
class RoceAckCnpFrameTestCase : public TestCase
{
  public:
    RoceAckCnpFrameTestCase()
        : TestCase("RoCE frames: ACK and CNP frame lengths")
    {
    }

  private:
    void DoRun() override
    {
        // ACK: 14 + 20 + 8 + 12 (BTH) + 4 (AETH) + 4 (ICRC) = 62 bytes; IPv4 total length
        // 62 - 14 = 48 = 0x30; UDP length 48 - 20 = 28 = 0x1C.
        std::vector<uint8_t> ack = BytesOf(AckFrame(RoceAethHeader::kSyndromeAck, 16));
        NS_TEST_ASSERT_MSG_EQ(ack.size(), 62u, Hex(ack));
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(int(ack[16]), 0x00, "IPv4 total length, high byte");
        NS_TEST_EXPECT_MSG_EQ(int(ack[17]), 0x30, "IPv4 total length, low byte");
        NS_TEST_EXPECT_MSG_EQ(int(ack[38]), 0x00, "UDP length, high byte");
        NS_TEST_EXPECT_MSG_EQ(int(ack[39]), 0x1C, "UDP length, low byte");
        NS_TEST_EXPECT_MSG_EQ(int(ack[42]), 0x11, "BTH opcode at 14 + 20 + 8 = 42");
        NS_TEST_EXPECT_MSG_EQ(int(ack[54]), 0x1F, "AETH syndrome at 42 + 12 = 54");
        NS_TEST_EXPECT_MSG_EQ(int(ack[57]), 0x07, "MSN low byte at 54 + 3 = 57");

        // CNP: 14 + 20 + 8 + 12 + 16 + 4 = 74 bytes; IPv4 60 = 0x3C; UDP 40 = 0x28.
        std::vector<uint8_t> cnp = BytesOf(CnpFrame());
        NS_TEST_ASSERT_MSG_EQ(cnp.size(), 74u, Hex(cnp));
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(int(cnp[17]), 0x3C, "IPv4 total length, low byte");
        NS_TEST_EXPECT_MSG_EQ(int(cnp[39]), 0x28, "UDP length, low byte");
        NS_TEST_EXPECT_MSG_EQ(int(cnp[42]), 0x81, "opcode");
        NS_TEST_EXPECT_MSG_EQ(int(cnp[46]), 0x40, "byte 4 of the BTH: BECN");
    }
};

/**
 * \ingroup tagger-tests
 * The four frames in a pcap file, decoded by tshark: every field where the
 * InfiniBand specification puts it.  Skipped, with a line on standard error
 * saying so, when tshark is not installed.
 */
class RoceTsharkTestCase : public TestCase
{
  public:
    RoceTsharkTestCase()
        : TestCase("RoCE frames: Wireshark (tshark) decodes the frames")
    {
    }

  private:
    void DoRun() override
    {
        if (!IsInstalled("tshark"))
        {
            std::clog << GetName()
                      << ": SKIPPED: tshark is not installed: the Wireshark decoding of RoCEv2 "
                         "frames is not checked (apt-get install tshark)"
                      << std::endl;
            return;
        }

        const std::string file = CreateTempDirFilename("roce-tshark.pcap");
        {
            PcapFile pcap;
            pcap.Open(file, std::ios::out);
            NS_TEST_ASSERT_MSG_EQ(pcap.Fail(), false, "cannot write " << file);
            if (IsStatusFailure())
            {
                return;
            }
            pcap.Init(1); // DLT_EN10MB: Ethernet, starting at the destination address
            pcap.Write(1, 0, SendFrame());
            pcap.Write(2, 0, AckFrame(RoceAethHeader::kSyndromeAck, 16));
            pcap.Write(3, 0, AckFrame(RoceAethHeader::kSyndromeNakSequence, 17));
            pcap.Write(4, 0, CnpFrame());
            pcap.Close();
        }

        // One line a frame: the protocol column names RoCEv2 ("RRoCE", routable RoCE).
        int status = 0;
        std::string summary = RunCommand("tshark -r '" + file + "' 2>/dev/null", &status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, summary);
        if (IsStatusFailure())
        {
            return;
        }
        std::vector<std::string> lines = NonEmptyLines(summary);
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 4u, summary);
        if (IsStatusFailure())
        {
            return;
        }
        for (const std::string& line : lines)
        {
            TAGGER_TEST_EXPECT_HAS(line, "RRoCE");
            TAGGER_TEST_EXPECT_HAS(line, "10.0.0.1");
        }

        // The details, with the IPv4 header checksum verified.
        std::string out =
            RunCommand("tshark -r '" + file + "' -V -o ip.check_checksum:TRUE 2>/dev/null",
                       &status);
        std::remove(file.c_str());
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        if (IsStatusFailure())
        {
            return;
        }
        std::vector<std::string> frames = SplitFrames(out);
        NS_TEST_ASSERT_MSG_EQ(frames.size(), 4u, out);
        if (IsStatusFailure())
        {
            return;
        }
        CheckSend(frames[0]);
        CheckAckNak(frames[1], frames[2]);
        CheckCnp(frames[3]);
    }

    /// Frame 1: SEND_ONLY with 64 bytes of payload. \param send tshark's text
    void CheckSend(const std::string& send)
    {
        TAGGER_TEST_EXPECT_HAS(send, "Frame Length: 122 bytes"); // 14 + 20 + 8 + 12 + 64 + 4
        TAGGER_TEST_EXPECT_HAS(send, "Type: IPv4 (0x0800)");
        NS_TEST_EXPECT_MSG_EQ(
            std::regex_search(send, std::regex("Differentiated Services Codepoint: .*\\(24\\)")),
            true,
            send);
        TAGGER_TEST_EXPECT_HAS(send, "Total Length: 108");
        TAGGER_TEST_EXPECT_HAS(send, "Protocol: UDP (17)");
        // arithmetic in RoceSendFrameBytesTestCase
        TAGGER_TEST_EXPECT_HAS(send, "Header Checksum: 0x661f [correct]");
        TAGGER_TEST_EXPECT_HAS(send, "Source Port: 49152");
        TAGGER_TEST_EXPECT_HAS(send, "Destination Port: 4791");
        TAGGER_TEST_EXPECT_HAS(send, "Length: 88"); // UDP: 8 + 12 + 64 + 4
        TAGGER_TEST_EXPECT_HAS(send, "InfiniBand");
        TAGGER_TEST_EXPECT_HAS(send, "Base Transport Header");
        TAGGER_TEST_EXPECT_HAS(send, "SEND Only (4)");
        TAGGER_TEST_EXPECT_HAS(send, "= Solicited Event: False");
        TAGGER_TEST_EXPECT_HAS(send, "= Pad Count: 0");
        TAGGER_TEST_EXPECT_HAS(send, "Partition Key: 65535");
        TAGGER_TEST_EXPECT_HAS(send, "Destination Queue Pair: 0x000123");
        TAGGER_TEST_EXPECT_HAS(send, "= Acknowledge Request: True");
        TAGGER_TEST_EXPECT_HAS(send, "Packet Sequence Number: 43981"); // 0xABCD
        TAGGER_TEST_EXPECT_HAS(send, "Invariant CRC: 0x12345678");
        TAGGER_TEST_EXPECT_HAS(send, "Data (64 bytes)");
    }

    /**
     * Frames 2 and 3: the ACK and the NAK.
     * \param ack tshark's text of the ACK \param nak and of the NAK
     */
    void CheckAckNak(const std::string& ack, const std::string& nak)
    {
        // Frame 2: ACK, syndrome 0x1F = 31, MSN 7.
        TAGGER_TEST_EXPECT_HAS(ack, "Frame Length: 62 bytes");
        TAGGER_TEST_EXPECT_HAS(ack, "InfiniBand");
        TAGGER_TEST_EXPECT_HAS(ack, "Acknowledge (17)");
        TAGGER_TEST_EXPECT_HAS(ack, "Destination Queue Pair: 0x000456");
        TAGGER_TEST_EXPECT_HAS(ack, "= Acknowledge Request: False");
        TAGGER_TEST_EXPECT_HAS(ack, "Packet Sequence Number: 16");
        TAGGER_TEST_EXPECT_HAS(ack, "ACK Extended Transport Header");
        TAGGER_TEST_EXPECT_HAS(ack, "Syndrome: 31, Ack");
        TAGGER_TEST_EXPECT_HAS(ack, "Credit Count: 31");
        TAGGER_TEST_EXPECT_HAS(ack, "Message Sequence Number: 7");
        TAGGER_TEST_EXPECT_HAS(ack, "Invariant CRC: 0x00000000");

        // Frame 3: NAK, syndrome 0x60 = 96, PSN sequence error, PSN 17.
        TAGGER_TEST_EXPECT_HAS(nak, "Acknowledge (17)");
        TAGGER_TEST_EXPECT_HAS(nak, "Packet Sequence Number: 17");
        TAGGER_TEST_EXPECT_HAS(nak, "Syndrome: 96, Nak");
        TAGGER_TEST_EXPECT_HAS(nak, "PSN Sequence Error");
        TAGGER_TEST_EXPECT_HAS(nak, "Message Sequence Number: 7");
    }

    /// Frame 4: the CNP. \param cnp tshark's text
    void CheckCnp(const std::string& cnp)
    {
        // Opcode 0x81 = 129 (Wireshark 4.0 names it "Unknown"; later ones may not).
        TAGGER_TEST_EXPECT_HAS(cnp, "Frame Length: 74 bytes");
        TAGGER_TEST_EXPECT_HAS(cnp, "InfiniBand");
        NS_TEST_EXPECT_MSG_EQ(std::regex_search(cnp, std::regex("Opcode: .*\\(129\\)")), true, cnp);
        TAGGER_TEST_EXPECT_HAS(cnp, "Destination Queue Pair: 0x000123");
        TAGGER_TEST_EXPECT_HAS(cnp, "Packet Sequence Number: 0");
    }
};

} // namespace

/**
 * The RoCE frame test cases, for the TestSuite "tagger-roce".
 * \return new test cases (the suite takes ownership)
 */
std::vector<TestCase*>
MakeRoceFrameTestCases()
{
    return {new RoceSendFrameBytesTestCase, new RoceAckCnpFrameTestCase, new RoceTsharkTestCase};
}
