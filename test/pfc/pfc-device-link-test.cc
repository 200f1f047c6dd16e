/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * PfcNetDevice cases on the link and above it, in the TestSuite
 * "tagger-pfc-device" (MakePfcDeviceLinkTestCases(), pfc-test-util.h): link
 * down and up, a pcap file read back (and decoded by tshark when it is
 * installed), two hosts under ns-3's Internet stack where a paused class
 * waits in traffic control, and the hairpin RESUME regression the data-plane
 * fuzz found, which plays the switch through the port's dequeue callback.
 * Expected times are worked out by hand in the comments from the Ethernet
 * rules listed in pfc-device-test-suite.cc; the fixtures are in
 * pfc-device-test-util.h.
 */

#include "pfc-device-test-util.h"
#include "pfc-test-util.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// 8. Link down and up
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Taking the link down loses the frames in flight and drops the queued ones
 * and any frame sent while down (LINK_DOWN); it clears the pause state; after
 * the link comes back, traffic flows and a pausing device pauses again.
 */
class PfcLinkDownTestCase : public PfcDeviceTestCase
{
  public:
    PfcLinkDownTestCase()
        : PfcDeviceTestCase("PfcNetDevice: link down drops frames in flight and queued")
    {
    }

  private:
    void DoRun() override
    {
        {
            // 8 Gbps, 1 us.  a queues three 1000-byte frames at t0: #1 on the wire
            // 0..1024 (arrives 2024), #2 1024..2048 (arrives 3048), #3 queued.
            // Link down at t0 + 1500: #3 dropped then; #1 and #2 are lost in
            // flight, counted when they would have arrived (2024, 3048); a Send
            // at t0 + 2000 is refused and dropped.  Link up at t0 + 5000; a frame
            // sent at t0 + 6000 arrives at t0 + 6000 + 1024 + 1000 = t0 + 8024.
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            DropLog drops;
            FrameLog rx;
            uint32_t lost = 0;
            uint32_t linkChanges = 0;
            p.da->TraceConnectWithoutContext("Drop", MakeCallback(&DropLog::Sink, &drops));
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            p.channel->TraceConnectWithoutContext("Lost", MakeBoundCallback(&CountPacket, &lost));
            p.da->AddLinkChangeCallback(MakeBoundCallback(&Count, &linkChanges));
            Simulator::Schedule(kT0, &SendFrames, p.da, Frames(3, {1000, 0}));
            Simulator::Schedule(At(1500), &PfcChannel::SetLinkUp, p.channel, false);
            bool sentWhileDown = true;
            bool upWhileDown = true;
            Simulator::Schedule(At(2000), &SampleLinkUp, &upWhileDown, p.da);
            Simulator::Schedule(At(2000), &SendDataInto, &sentWhileDown, p.da, 1000, 0);
            Simulator::Schedule(At(5000), &PfcChannel::SetLinkUp, p.channel, true);
            bool sentAfterUp = false;
            Simulator::Schedule(At(6000), &SendDataInto, &sentAfterUp, p.da, 1000, 2);
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            uint64_t linkDownCount = p.da->GetDropCount(PfcDropReason::LINK_DOWN);
            uint64_t bDrops = p.db->GetDropCount(PfcDropReason::LINK_DOWN);
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(upWhileDown, false, "IsLinkUp while down");
            NS_TEST_EXPECT_MSG_EQ(sentWhileDown, false, "Send while down is refused");
            NS_TEST_EXPECT_MSG_EQ(sentAfterUp, true, "Send after up is accepted");
            NS_TEST_EXPECT_MSG_EQ(drops.events.size(), 4u, "LINK_DOWN drops");
            const int64_t dropAt[] = {1500, 2000, 2024, 3048};
            for (size_t i = 0; i < std::min<size_t>(4, drops.events.size()); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(drops.events[i].first, At(dropAt[i]), "drop " << i);
                NS_TEST_EXPECT_MSG_EQ(drops.events[i].second,
                                      PfcDropReason::LINK_DOWN,
                                      "reason of drop " << i);
            }
            NS_TEST_EXPECT_MSG_EQ(linkDownCount, 4u, "GetDropCount(LINK_DOWN)");
            NS_TEST_EXPECT_MSG_EQ(bDrops, 0u, "b sent nothing, dropped nothing");
            NS_TEST_EXPECT_MSG_EQ(lost, 2u, "frames lost in flight (channel Lost trace)");
            NS_TEST_EXPECT_MSG_EQ(linkChanges, 2u, "link change callbacks: down, up");
            CheckFrames(rx.events, {{8024, 2}}, "only the frame sent after up arrives");
        }
        {
            // b pauses a's class 3 (PauseQuanta 1000 = 64 us, refresh 20 us) from
            // t0: a paused at t0 + 4924.  Link down at t0 + 6000: a's pause is
            // cleared at once; b's refresh stops.  Link up at t0 + 8000: b, still
            // pausing, sends PAUSE at once, effective at t0 + 8000 + 4924 = t0 + 12924.
            PfcHelper helper;
            helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
            helper.SetDeviceAttribute("PauseQuanta", UintegerValue(1000));
            helper.SetDeviceAttribute("PauseRefresh", TimeValue(MicroSeconds(20)));
            helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            PfcPair p = MakePair(helper);
            PauseLog pauses;
            PfcLog bTx;
            p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
            p.db->TraceConnectWithoutContext("PfcTx", MakeCallback(&PfcLog::Sink, &bTx));
            Simulator::Schedule(kT0, &PfcNetDevice::StartPausing, p.db, 3);
            Simulator::Schedule(At(6000), &PfcChannel::SetLinkUp, p.channel, false);
            bool pausedWhileDown = true;
            Simulator::Schedule(At(7000), &SampleClassPaused, &pausedWhileDown, p.da, 3);
            Simulator::Schedule(At(8000), &PfcChannel::SetLinkUp, p.channel, true);
            Simulator::Stop(At(15000));
            Simulator::Run();
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(pausedWhileDown, false, "link down clears the pause");
            CheckPauses(pauses,
                        {{4924, 3, true}, {6000, 3, false}, {12924, 3, true}},
                        "pause across a link flap");
            NS_TEST_EXPECT_MSG_EQ(bTx.events.size(), 2u, "b's PAUSE frames");
            if (bTx.events.size() == 2)
            {
                NS_TEST_EXPECT_MSG_EQ(bTx.events[0].first, At(0), "first PAUSE");
                NS_TEST_EXPECT_MSG_EQ(bTx.events[1].first, At(8000), "PAUSE again at link up");
            }
        }
        {
            // A PAUSE (1000 quanta) received at t0 + 1084, the link down at
            // t0 + 2000, before it takes effect (t0 + 4924), and up again at
            // t0 + 6000: the pause state was cleared by the link going down, so
            // a frame of class 3 queued at t0 + 7000 leaves at once.
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            FrameLog tx;
            PauseLog pauses;
            p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
            p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
            Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, 1000));
            Simulator::Schedule(At(2000), &PfcChannel::SetLinkUp, p.channel, false);
            Simulator::Schedule(At(6000), &PfcChannel::SetLinkUp, p.channel, true);
            Simulator::Schedule(At(7000), &SendFrames, p.da, Frames{{1000, 3}});
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            Simulator::Destroy();

            CheckFrames(tx.events, {{7000, 3}}, "PAUSE pending when the link went down");
            CheckPauses(pauses, {}, "PAUSE pending when the link went down");
        }
    }
};

/**
 * \ingroup tagger-tests
 * A frame in flight when the link goes down is lost even if the link is up
 * again when it arrives: the receiving device compares the link epoch of the
 * send with its own count of downs.  That count starts at the channel's
 * epoch when the device attaches, so a channel that went down and up before
 * its devices were attached still delivers.
 */
class PfcLinkDownUpInFlightTestCase : public PfcDeviceTestCase
{
  public:
    PfcLinkDownUpInFlightTestCase()
        : PfcDeviceTestCase("PfcNetDevice: link down and up while a frame flies: lost")
    {
    }

  private:
    void DoRun() override
    {
        {
            // 8 Gbps, 10 us.  a sends a 1000-byte frame at t0: on the wire
            // 0..1024, it would arrive at 1024 + 10000 = 11024.  The link goes
            // down at t0 + 2000 and up at t0 + 3000, so the frame is lost at
            // 11024 (Lost trace; a drops it, LINK_DOWN).  A frame sent at
            // t0 + 4000 arrives at 4000 + 1024 + 10000 = 15024.
            PfcPair p = MakePair("8Gbps", MicroSeconds(10));
            DropLog drops;
            FrameLog rx;
            uint32_t lost = 0;
            p.da->TraceConnectWithoutContext("Drop", MakeCallback(&DropLog::Sink, &drops));
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            p.channel->TraceConnectWithoutContext("Lost", MakeBoundCallback(&CountPacket, &lost));
            Simulator::Schedule(kT0, &SendFrames, p.da, Frames(1, {1000, 0}));
            Simulator::Schedule(At(2000), &PfcChannel::SetLinkUp, p.channel, false);
            Simulator::Schedule(At(3000), &PfcChannel::SetLinkUp, p.channel, true);
            Simulator::Schedule(At(4000), &SendFrames, p.da, Frames(1, {1000, 2}));
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(lost, 1u, "frames lost in flight (channel Lost trace)");
            NS_TEST_EXPECT_MSG_EQ(drops.events.size(), 1u, "LINK_DOWN drops at a");
            if (!drops.events.empty())
            {
                NS_TEST_EXPECT_MSG_EQ(drops.events[0].first, At(11024), "when it is lost");
                NS_TEST_EXPECT_MSG_EQ(drops.events[0].second, PfcDropReason::LINK_DOWN, "reason");
            }
            CheckFrames(rx.events, {{15024, 2}}, "only the frame sent after up arrives");
        }
        {
            // The channel goes down and up (epoch 1) before the devices attach;
            // a frame sent at t0 (8 Gbps, 1 us) arrives at 1024 + 1000 = 2024.
            NodeContainer nodes;
            nodes.Create(2);
            Ptr<PfcChannel> channel = CreateObject<PfcChannel>();
            channel->SetLinkUp(false);
            channel->SetLinkUp(true);
            std::array<Ptr<PfcNetDevice>, 2> dev;
            for (uint32_t i = 0; i < 2; ++i)
            {
                dev[i] = CreateObject<PfcNetDevice>();
                dev[i]->SetAttribute("DataRate", StringValue("8Gbps"));
                dev[i]->SetAddress(Mac48Address::Allocate());
                nodes.Get(i)->AddDevice(dev[i]);
            }
            dev[0]->Attach(channel);
            dev[1]->Attach(channel);
            FrameLog rx;
            uint32_t lost = 0;
            dev[1]->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            channel->TraceConnectWithoutContext("Lost", MakeBoundCallback(&CountPacket, &lost));
            Simulator::Schedule(kT0, &SendFrames, dev[0], Frames(1, {1000, 1}));
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(lost, 0u, "nothing lost");
            CheckFrames(rx.events, {{2024, 1}}, "the frame arrives");
        }
    }
};

/// Set \p dev's DataRate. \param dev the device \param rate the new rate
void
SetRate(Ptr<PfcNetDevice> dev, std::string rate)
{
    dev->SetAttribute("DataRate", StringValue(rate));
}

/**
 * \ingroup tagger-tests
 * A DataRate changed during the run applies to the next frame: the device
 * keeps the wire times of its last two frame sizes, and the change empties
 * them.
 */
class PfcDataRateChangeTestCase : public PfcDeviceTestCase
{
  public:
    PfcDataRateChangeTestCase()
        : PfcDeviceTestCase("PfcNetDevice: a DataRate change applies to the next frame")
    {
    }

  private:
    void DoRun() override
    {
        // 8 Gbps, 1 us: a 1000-byte frame sent at t0 takes (1000 + 4 + 20) * 8
        // / 8 = 1024 ns and arrives at 2024.  a's rate becomes 4 Gbps at
        // t0 + 5000; the same size sent at t0 + 6000 takes 2048 ns and arrives
        // at 6000 + 2048 + 1000 = 9048 (8024 with the old wire time).
        PfcPair p = MakePair("8Gbps", MicroSeconds(1));
        FrameLog rx;
        p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
        Simulator::Schedule(kT0, &SendFrames, p.da, Frames(1, {1000, 0}));
        Simulator::Schedule(At(5000), &SetRate, p.da, std::string("4Gbps"));
        Simulator::Schedule(At(6000), &SendFrames, p.da, Frames(1, {1000, 1}));
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        Simulator::Destroy();
        CheckFrames(rx.events, {{2024, 0}, {9048, 1}}, "arrivals before and after the change");
    }
};

// ---------------------------------------------------------------------------
// 9. Pcap
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * PfcHelper::EnablePcap writes an Ethernet (DLT_EN10MB) pcap file with the
 * frames a device sends and receives, PFC frames included, bytes as on the wire.
 */
class PfcPcapTestCase : public PfcDeviceTestCase
{
  public:
    PfcPcapTestCase()
        : PfcDeviceTestCase("PfcHelper: pcap of a PfcNetDevice, read back")
    {
    }

  private:
    void DoRun() override
    {
        std::string file = CreateTempDirFilename("pfc-device-test.pcap");
        Mac48Address macA;
        Mac48Address macB;
        {
            // a sends PAUSE(3, 0x0102) at t0 = 10 us and a 1000-byte class-2 frame
            // at 20 us; b sends PAUSE(6, 9) at 30 us, which a receives at
            // 30 us + 84 ns + 1 us = 31.084 us (31 us in the pcap's microseconds).
            PfcHelper helper;
            helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
            helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            PfcPair p = MakePair(helper);
            helper.EnablePcap(file, p.da, false, true);
            macA = Mac48Address::ConvertFrom(p.da->GetAddress());
            macB = Mac48Address::ConvertFrom(p.db->GetAddress());
            Simulator::Schedule(MicroSeconds(10),
                                &PfcNetDevice::SendPfcFrame,
                                p.da,
                                Pfc(3, 0x0102));
            Simulator::Schedule(MicroSeconds(20), &SendFrames, p.da, Frames{{1000, 2}});
            Simulator::Schedule(MicroSeconds(30), &PfcNetDevice::SendPfcFrame, p.db, Pfc(6, 9));
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Simulator::Destroy();
        } // the devices, and the pcap file they hold, go away here

        PcapFile pcap;
        pcap.Open(file, std::ios::in);
        NS_TEST_ASSERT_MSG_EQ(pcap.Fail(), false, "open " << file);
        NS_TEST_EXPECT_MSG_EQ(pcap.GetDataLinkType(), 1u, "link type 1 (Ethernet)");

        struct Record
        {
            uint32_t usec;
            std::vector<uint8_t> bytes;
            uint32_t origLen;
        };

        std::vector<Record> records;
        for (;;)
        {
            std::vector<uint8_t> buf(65536);
            uint32_t sec = 0;
            uint32_t usec = 0;
            uint32_t inclLen = 0;
            uint32_t origLen = 0;
            uint32_t readLen = 0;
            pcap.Read(buf.data(), buf.size(), sec, usec, inclLen, origLen, readLen);
            if (pcap.Eof() || pcap.Fail())
            {
                break;
            }
            buf.resize(readLen);
            records.push_back({sec * 1000000 + usec, buf, origLen});
        }
        pcap.Close();

        NS_TEST_ASSERT_MSG_EQ(records.size(), 3u, "three frames in the pcap");
        const uint32_t wantUsec[] = {10, 20, 31};
        const uint32_t wantLen[] = {60, 1000, 60};
        for (int i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(records[i].usec, wantUsec[i], "timestamp of record " << i);
            NS_TEST_EXPECT_MSG_EQ(records[i].bytes.size(), wantLen[i], "length of record " << i);
            NS_TEST_EXPECT_MSG_EQ(records[i].origLen, wantLen[i], "orig length of record " << i);
        }
        CheckPfcRecord(records[0].bytes, macA, 3, 0x0102, "sent PFC frame");
        CheckPfcRecord(records[2].bytes, macB, 6, 9, "received PFC frame");
        if (records[1].bytes.size() == 1000)
        {
            // Data: EtherType 0x0800, then IPv4 (version 4, IHL 5), TOS = DSCP 16 << 2.
            const std::vector<uint8_t>& b = records[1].bytes;
            NS_TEST_EXPECT_MSG_EQ(Be16(b, 12), 0x0800, "data EtherType");
            NS_TEST_EXPECT_MSG_EQ(int(b[14]), 0x45, "IPv4 version and IHL");
            NS_TEST_EXPECT_MSG_EQ(int(b[15]), 16 << 2, "TOS: DSCP 16 (class 2)");
        }

        // Optional: let tshark decode the file, when it is installed.
        if (std::system("command -v tshark > /dev/null 2>&1") == 0)
        {
            std::string cmd = "tshark -r '" + file + "' -V 2>/dev/null";
            FILE* pipe = popen(cmd.c_str(), "r");
            std::string out;
            if (pipe)
            {
                char chunk[4096];
                size_t n;
                while ((n = fread(chunk, 1, sizeof(chunk), pipe)) > 0)
                {
                    out.append(chunk, n);
                }
                pclose(pipe);
            }
            // 0x0102 = 258 quanta for class 3 in the first frame, 9 for class 6 in the third.
            for (const char* want : {"Type: MAC Control (0x8808)",
                                     "Opcode: Class Based Flow Control [CBFC] Pause (0x0101)",
                                     "CBFC Class Enable Vector: 0x0008",
                                     "C3: 258",
                                     "CBFC Class Enable Vector: 0x0040",
                                     "C6: 9"})
            {
                NS_TEST_EXPECT_MSG_NE(out.find(want),
                                      std::string::npos,
                                      "tshark -V prints \"" << want << "\"");
            }
        }
        std::remove(file.c_str());
    }

    /**
     * Check a pcap record of a PFC frame enabling only class \p cls.
     * \param b the record bytes \param src expected source
     * \param cls the class \param quanta its time \param what label
     */
    void CheckPfcRecord(const std::vector<uint8_t>& b,
                        Mac48Address src,
                        uint8_t cls,
                        uint16_t quanta,
                        const std::string& what)
    {
        if (b.size() != 60)
        {
            NS_TEST_EXPECT_MSG_EQ(b.size(), 60u, what << ": size");
            return;
        }
        const uint8_t dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
        uint8_t srcBytes[6];
        src.CopyTo(srcBytes);
        for (int i = 0; i < 6; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(b[i]), int(dst[i]), what << ": destination byte " << i);
            NS_TEST_EXPECT_MSG_EQ(int(b[6 + i]), int(srcBytes[i]), what << ": source byte " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 12), 0x8808, what << ": EtherType");
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 14), 0x0101, what << ": opcode");
        NS_TEST_EXPECT_MSG_EQ(Be16(b, 16), (1 << cls), what << ": class-enable vector");
        for (int c = 0; c < 8; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(Be16(b, 18 + 2 * c),
                                  (c == cls ? quanta : 0),
                                  what << ": time of class " << c);
        }
    }
};

// ---------------------------------------------------------------------------
// 10. Hosts under the Internet stack
// ---------------------------------------------------------------------------

/**
 * Read every datagram waiting on a socket (its receive callback).
 * \param[out] packets datagrams counted \param[out] bytes their bytes
 * \param socket the socket
 */
void
ReceiveAll(uint32_t* packets, uint32_t* bytes, Ptr<Socket> socket)
{
    while (Ptr<Packet> pkt = socket->Recv())
    {
        ++*packets;
        *bytes += pkt->GetSize();
    }
}

/**
 * Send one datagram on a connected socket (an event).
 * \param socket the socket \param payload its size (bytes)
 * \param[out] failures incremented when Send fails
 */
void
SendUdp(Ptr<Socket> socket, uint32_t payload, uint32_t* failures)
{
    if (socket->Send(Create<Packet>(payload)) < 0)
    {
        ++*failures;
    }
}

/// What PfcHostStackTestCase samples of the sender inside and after the pause.
struct HostTxProbe
{
    Ptr<PfcNetDevice> dev;             //!< the sender's device
    Ptr<NetDeviceQueueInterface> ndqi; //!< its transmit queues
    Ptr<QueueDisc> root;               //!< its root queue disc (mq)
    bool stopped3 = false;             //!< class-3 transmit queue stopped, inside
    bool stopped0 = true;              //!< class-0 transmit queue stopped, inside
    uint32_t heldInTc = 0;             //!< class-3 packets in traffic control, inside
    uint64_t inDevice3 = 1;            //!< class-3 bytes queued in the device, inside
    bool stoppedAfter = true;          //!< class-3 transmit queue stopped, after

    /// Sample inside the pause.
    void InsidePause()
    {
        stopped3 = ndqi->GetTxQueue(3)->IsStopped();
        stopped0 = ndqi->GetTxQueue(0)->IsStopped();
        // Enqueued minus sent: what the class-3 child holds, the packet
        // it dequeued and requeued when it found the queue stopped included.
        const QueueDisc::Stats& st = root->GetQueueDiscClass(3)->GetQueueDisc()->GetStats();
        heldInTc = st.nTotalEnqueuedPackets - st.nTotalSentPackets;
        inDevice3 = dev->GetQueueBytes(3);
    }

    /// Sample after the pause.
    void After()
    {
        stoppedAfter = ndqi->GetTxQueue(3)->IsStopped();
    }
};

/**
 * \ingroup tagger-tests
 * Two hosts with InternetStackHelper and PfcHelper::InstallHostTrafficControl,
 * two UDP flows (class 3 and class 0).  The receiver pauses class 3 for a
 * while: the sender's class-3 transmit queue stops, traffic control holds the
 * packets, class 0 goes on, and in the end every packet arrives, none dropped.
 */
class PfcHostStackTestCase : public PfcDeviceTestCase
{
  public:
    PfcHostStackTestCase()
        : PfcDeviceTestCase("PfcNetDevice: a paused class waits in traffic control, no loss")
    {
    }

  private:
    void DoRun() override
    {
        // 8 Gbps, 1 us.  UDP payload 500 bytes: frame 500 + 8 + 20 + 14 = 542
        // bytes, 566 ns on the wire.  Each flow sends one packet every 2 us
        // from 10 us, 100 packets (to 208 us); the link carries 2 * 566 ns per
        // 2 us, so nothing queues outside the pause.
        // b sends PAUSE(3, 1000 quanta = 64 us) at 50 us: effect at
        // 50 us + 84 + 1000 + 3840 ns = 54.924 us, until 118.924 us.
        const uint32_t kPackets = 100;
        const uint32_t kPayload = 500;
        const Time pauseStart = NanoSeconds(54924);
        const Time pauseEnd = NanoSeconds(118924);

        NodeContainer nodes;
        nodes.Create(2);
        PfcHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
        helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        NetDeviceContainer devices = helper.Connect(nodes.Get(0), nodes.Get(1));
        Ptr<PfcNetDevice> da = DynamicCast<PfcNetDevice>(devices.Get(0));
        Ptr<PfcNetDevice> db = DynamicCast<PfcNetDevice>(devices.Get(1));
        InternetStackHelper stack;
        stack.Install(nodes);
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer ifs = addresses.Assign(devices);
        // After Assign (which may install a default root queue disc): replaced.
        PfcHelper::InstallHostTrafficControl(devices);

        // Receivers: port 9 for class 3, port 10 for class 0.
        std::array<uint32_t, 2> received{};
        std::array<uint32_t, 2> receivedBytes{};
        std::array<uint16_t, 2> ports = {9, 10};
        std::array<uint8_t, 2> classes = {3, 0};
        std::vector<Ptr<Socket>> sockets;
        for (int f = 0; f < 2; ++f)
        {
            Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
            rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), ports[f]));
            rx->SetRecvCallback(MakeBoundCallback(&ReceiveAll, &received[f], &receivedBytes[f]));
            sockets.push_back(rx);
        }
        // Senders, the TOS carrying the class: TOS = DSCP << 2 = (cls << 3) << 2.
        uint32_t sendFailures = 0;
        for (int f = 0; f < 2; ++f)
        {
            Ptr<Socket> tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
            InetSocketAddress to(ifs.GetAddress(1), ports[f]);
            tx->Connect(to);
            tx->SetIpTos(classes[f] << 5); // after Connect: ns-3.35's Connect resets the TOS
            sockets.push_back(tx);
            for (uint32_t i = 0; i < kPackets; ++i)
            {
                Simulator::Schedule(MicroSeconds(10 + 2 * i),
                                    &SendUdp,
                                    tx,
                                    kPayload,
                                    &sendFailures);
            }
        }
        FrameLog aTx;
        da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &aTx));
        Simulator::Schedule(MicroSeconds(50), &PfcNetDevice::SendPfcFrame, db, Pfc(3, 1000));

        // Inside the pause (81 us): class 3 stopped, class 0 not; the class-3
        // packets sent at 56, 58, ..., 80 us (13) wait in the class-3 child
        // queue disc, none in the device.
        Ptr<NetDeviceQueueInterface> ndqi = da->GetObject<NetDeviceQueueInterface>();
        Ptr<TrafficControlLayer> tc = nodes.Get(0)->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> root = tc->GetRootQueueDiscOnDevice(da);
        HostTxProbe probe{da, ndqi, root};
        Simulator::Schedule(MicroSeconds(81), &HostTxProbe::InsidePause, &probe);
        Simulator::Schedule(MicroSeconds(300), &HostTxProbe::After, &probe);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        uint64_t devDrops = 0;
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            devDrops += da->GetDropCount(static_cast<PfcDropReason>(r)) +
                        db->GetDropCount(static_cast<PfcDropReason>(r));
        }
        uint32_t tcDrops = root->GetStats().nTotalDroppedPackets;
        bool eightClasses = root->GetNQueueDiscClasses() == kPfcClasses;
        for (Ptr<Socket> s : sockets)
        {
            s->Close();
        }
        sockets.clear();
        Simulator::Destroy();

        NS_TEST_EXPECT_MSG_EQ(eightClasses, true, "mq root with 8 classes");
        NS_TEST_EXPECT_MSG_EQ(sendFailures, 0u, "every socket Send accepted");
        NS_TEST_EXPECT_MSG_EQ(received[0], kPackets, "class-3 flow: all packets received");
        NS_TEST_EXPECT_MSG_EQ(received[1], kPackets, "class-0 flow: all packets received");
        NS_TEST_EXPECT_MSG_EQ(receivedBytes[0], kPackets * kPayload, "class-3 bytes");
        NS_TEST_EXPECT_MSG_EQ(devDrops, 0u, "no device drops");
        NS_TEST_EXPECT_MSG_EQ(tcDrops, 0u, "no traffic-control drops");
        NS_TEST_EXPECT_MSG_EQ(probe.stopped3, true, "class-3 transmit queue stopped while paused");
        NS_TEST_EXPECT_MSG_EQ(probe.stopped0, false, "class-0 transmit queue running");
        NS_TEST_EXPECT_MSG_EQ(probe.heldInTc, 13u, "class-3 packets held in traffic control");
        NS_TEST_EXPECT_MSG_EQ(probe.inDevice3, 0u, "no class-3 bytes queued in the device");
        NS_TEST_EXPECT_MSG_EQ(probe.stoppedAfter, false, "class-3 transmit queue woken after");

        // The wire: no class-3 frame starts inside the pause; the backlog starts
        // right when it ends; class 0 sends at 56, 58, ..., 118 us (32) inside it.
        uint32_t class3Inside = 0;
        uint32_t class0Inside = 0;
        uint32_t class3Total = 0;
        Time firstAfter = Seconds(1);
        for (const FrameEvent& e : aTx.events)
        {
            bool inside = e.t > pauseStart && e.t < pauseEnd;
            if (e.cls == 3)
            {
                ++class3Total;
                class3Inside += inside ? 1 : 0;
                if (e.t >= pauseEnd && e.t < firstAfter)
                {
                    firstAfter = e.t;
                }
            }
            else if (e.cls == 0)
            {
                class0Inside += inside ? 1 : 0;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(class3Total, kPackets, "class-3 frames on the wire");
        NS_TEST_EXPECT_MSG_EQ(class3Inside, 0u, "no class-3 frame during the pause");
        NS_TEST_EXPECT_MSG_EQ(firstAfter, pauseEnd, "class 3 resumes when the pause ends");
        NS_TEST_EXPECT_MSG_EQ(class0Inside, 32u, "class 0 kept going during the pause");
    }
};

// ---------------------------------------------------------------------------
// 11. A regression the data-plane fuzz found: a RESUME out of the port a frame leaves by
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * A frame that leaves a switch by the port it came in on (a hairpin, which
 * local reroute creates) releases its ingress buffer as it leaves; when that
 * turns the ingress queue ON, the switch sends a RESUME out of the very port
 * that is starting the frame.  The RESUME must wait for the frame: one frame
 * on a wire at a time.  (The device used to release the buffer before it
 * marked itself busy, so the nested transmission put the RESUME on the wire
 * too, and the second end of transmission failed NS_ASSERT(m_busy): the
 * data-plane fuzz, run 26, aborted.)  Here a PfcPortOwner plays the
 * switch, calling StopPausing on the same port for every frame released.
 */
class HairpinResumeTestCase : public TestCase
{
  public:
    HairpinResumeTestCase()
        : TestCase("PfcNetDevice: a RESUME sent while a frame leaves by the same port waits for "
                   "it (one frame on the wire at a time)")
    {
    }

  private:
    /// Data frames the switch queues on the port.
    static constexpr uint32_t kFrames = 2;

    /// A frame began on the wire. \param frame it
    void Begin(Ptr<const Packet> frame)
    {
        ++m_onWire;
        ++m_begun;
        m_maxOnWire = std::max(m_maxOnWire, m_onWire);
    }

    /// A frame's last bit went out. \param frame it
    void End(Ptr<const Packet> frame)
    {
        --m_onWire;
    }

    /// A frame reached the peer. \param frame it
    void Received(Ptr<const Packet> frame)
    {
        ++m_received;
    }

    /// The switch: every frame released sends a RESUME out of the same port.
    class Owner : public PfcPortOwner
    {
      public:
        /// \param test the test case
        explicit Owner(HairpinResumeTestCase* test)
            : m_test(test)
        {
        }

        /// Not used: the port receives no data frame.
        void ReceiveFromPort(uint32_t,
                             const PfcNetDevice&,
                             Ptr<Packet>,
                             const EthernetDot1qHeader&) override
        {
        }

        /// \param port the port \param entry the frame released
        void DequeuedFromPort(uint32_t port, const PfcQueueEntry& entry) override
        {
            ++m_test->m_released;
            m_test->m_dev->StopPausing(3);
        }

      private:
        HairpinResumeTestCase* m_test; //!< the test case
    };

    /// Queue kFrames lossless frames of class 3 on the port, as the switch would.
    void EnqueueFrames()
    {
        for (uint32_t i = 0; i < kFrames; ++i)
        {
            Ptr<Packet> frame = Create<Packet>(1000);
            EthernetDot1qHeader eth;
            eth.SetSource(Mac48Address::ConvertFrom(m_dev->GetAddress()));
            eth.SetDestination(m_dev->GetPeerAddress());
            eth.SetEtherType(kEtherTypeIpv4);
            frame->AddHeader(eth);
            PfcQueueEntry entry;
            entry.frame = frame;
            entry.bytes = frame->GetSize();
            entry.inPort = 0;
            entry.inQueue = 3;
            entry.pool = PfcBufferPool::LOSSLESS;
            m_dev->EnqueueFromSwitch(entry, 3);
        }
    }

    void DoRun() override
    {
        PfcHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
        helper.SetChannelAttribute("Delay", StringValue("1us"));
        NodeContainer nodes;
        nodes.Create(2);
        NetDeviceContainer devices = helper.Connect(nodes.Get(0), nodes.Get(1), false);
        m_dev = DynamicCast<PfcNetDevice>(devices.Get(0));
        Ptr<PfcNetDevice> peer = DynamicCast<PfcNetDevice>(devices.Get(1));
        m_dev->SetSwitchPort(0, &m_owner);
        m_dev->TraceConnectWithoutContext("PhyTxBegin",
                                          MakeCallback(&HairpinResumeTestCase::Begin, this));
        m_dev->TraceConnectWithoutContext("PhyTxEnd",
                                          MakeCallback(&HairpinResumeTestCase::End, this));
        peer->TraceConnectWithoutContext("PhyRxEnd",
                                         MakeCallback(&HairpinResumeTestCase::Received, this));
        Simulator::Schedule(MicroSeconds(1), &HairpinResumeTestCase::EnqueueFrames, this);
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        Simulator::Destroy();
        // Each of the 2 data frames is released once, and each release sends a
        // RESUME: 2 data frames + 2 PFC frames, one after the other.
        NS_TEST_EXPECT_MSG_EQ(m_released, kFrames, "frames released");
        NS_TEST_EXPECT_MSG_EQ(m_maxOnWire, 1, "two frames on the wire at once");
        NS_TEST_EXPECT_MSG_EQ(m_begun, 2 * kFrames, "frames sent (data and RESUME)");
        NS_TEST_EXPECT_MSG_EQ(m_received, 2 * kFrames, "frames the peer received");
    }

    Ptr<PfcNetDevice> m_dev;  //!< the switch port
    Owner m_owner{this};      //!< the switch
    uint32_t m_onWire = 0;    //!< frames on the wire now
    uint32_t m_maxOnWire = 0; //!< the most at once
    uint32_t m_begun = 0;     //!< frames begun
    uint32_t m_released = 0;  //!< dequeue callbacks
    uint32_t m_received = 0;  //!< frames the peer received
};

// ---------------------------------------------------------------------------
// Same-time arrivals (PfcChannel OrderArrivals)
// ---------------------------------------------------------------------------

/// MacRx sink that records which of c's devices received.
/// \param order log \param dev index \param frame the frame
void
RecordDevice(std::vector<std::pair<Time, uint32_t>>* order, uint32_t dev, Ptr<const Packet> frame)
{
    order->emplace_back(Simulator::Now(), dev);
}

/// \param channel a channel \param delay its new Delay
void
SetChannelDelay(Ptr<PfcChannel> channel, Time delay)
{
    channel->SetAttribute("Delay", TimeValue(delay));
}

/**
 * \ingroup tagger-tests
 * Each frame keeps the Delay of the moment it was sent: when Delay is
 * lowered while frames fly, the frames sent after overtake them.  8 Gbps (a frame of n bytes takes
 * n + 24 ns on the wire), Delay 10 us; a sends A (1000 bytes), B (1100) and C (1200) at t0:
 *  - A on the wire 0..1024, arrives 11024; B 1024..2148, arrives 12148;
 *  - Delay lowered to 1 us at 1500: C 2148..3372 arrives 4372;
 *  - D (1300) sent at 5000: 5000..6324, arrives 7324;
 *  - E (1000) sent at 20000, after all have arrived: 20000..21024, 22024.
 * So b receives C, D, A, B, E, each once, at those times.
 */
class ChannelDelayChangeTestCase : public PfcDeviceTestCase
{
  public:
    ChannelDelayChangeTestCase()
        : PfcDeviceTestCase("PfcChannel: Delay lowered while frames fly: later frames overtake")
    {
    }

  private:
    void DoRun() override
    {
        PfcPair p = MakePair("8Gbps", MicroSeconds(10));
        FrameLog tx;
        FrameLog rx;
        p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
        p.db->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&FrameLog::Eth, &rx));
        Simulator::Schedule(kT0, &SendFrames, p.da, Frames{{1000, 0}, {1100, 0}, {1200, 0}});
        Simulator::Schedule(At(1500), &SetChannelDelay, p.channel, MicroSeconds(1));
        Simulator::Schedule(At(5000), &SendFrames, p.da, Frames{{1300, 0}});
        Simulator::Schedule(At(20000), &SendFrames, p.da, Frames{{1000, 0}});
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(tx.events.size(), 5u, "frames a sent");
        CheckFrames(tx.events,
                    {{0, 0}, {1024, 0}, {2148, 0}, {5000, 0}, {20000, 0}},
                    "a's frames start");
        CheckFrames(rx.events,
                    {{4372, 0}, {7324, 0}, {11024, 0}, {12148, 0}, {22024, 0}},
                    "b's frames arrive");
        NS_TEST_ASSERT_MSG_EQ(rx.events.size(), 5u, "frames b received");
        const std::size_t sentAs[] = {2, 3, 0, 1, 4}; // C, D, A, B, E
        for (std::size_t i = 0; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(rx.events[i].size,
                                  tx.events[sentAs[i]].size,
                                  "frame " << i << " received is the one sent " << sentAs[i]);
        }
    }
};

/**
 * \ingroup tagger-tests
 * Two frames reach node c in the same nanosecond, from a (c's device 0) and
 * from b (c's device 1), b's delivery scheduled first.  By hand: both are
 * 1000 bytes at 8 Gbps over 1 us, sent at t0, so both arrive at t0 + 1024 +
 * 1000 ns.  Without OrderArrivals c handles them in scheduling order (b's
 * first); with it, after c's other events of that instant, in interface
 * order (a's first), whatever the scheduling order.
 */
class OrderArrivalsTestCase : public PfcDeviceTestCase
{
  public:
    OrderArrivalsTestCase()
        : PfcDeviceTestCase("PfcChannel: OrderArrivals hands same-time frames over in device order")
    {
    }

  private:
    /// \param ordered OrderArrivals \return (time, c's device) of each arrival
    std::vector<std::pair<Time, uint32_t>> Run(bool ordered)
    {
        PfcHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
        helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        helper.SetChannelAttribute("OrderArrivals", BooleanValue(ordered));
        NodeContainer nodes;
        nodes.Create(3);
        NetDeviceContainer ac = helper.Connect(nodes.Get(0), nodes.Get(2));
        NetDeviceContainer bc = helper.Connect(nodes.Get(1), nodes.Get(2));
        std::vector<std::pair<Time, uint32_t>> order;
        ac.Get(1)->TraceConnectWithoutContext("MacRx",
                                              MakeBoundCallback(&RecordDevice, &order, 0u));
        bc.Get(1)->TraceConnectWithoutContext("MacRx",
                                              MakeBoundCallback(&RecordDevice, &order, 1u));
        Ptr<PfcNetDevice> a = DynamicCast<PfcNetDevice>(ac.Get(0));
        Ptr<PfcNetDevice> b = DynamicCast<PfcNetDevice>(bc.Get(0));
        Simulator::Schedule(kT0, &SendFrames, b, Frames{{1000, 3}}); // scheduled first
        Simulator::Schedule(kT0, &SendFrames, a, Frames{{1000, 3}});
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        Simulator::Destroy();
        return order;
    }

    void DoRun() override
    {
        const Time at = At(1024 + 1000);
        using Seen = std::vector<std::pair<Time, uint32_t>>;
        NS_TEST_EXPECT_MSG_EQ((Run(false) == Seen{{at, 1}, {at, 0}}),
                              true,
                              "without OrderArrivals: b's frame (scheduled first) first");
        NS_TEST_EXPECT_MSG_EQ((Run(true) == Seen{{at, 0}, {at, 1}}),
                              true,
                              "with OrderArrivals: device 0's frame first");
    }
};

} // namespace

std::vector<TestCase*>
MakePfcDeviceLinkTestCases()
{
    return {new PfcLinkDownTestCase,
            new PfcLinkDownUpInFlightTestCase,
            new PfcDataRateChangeTestCase,
            new PfcPcapTestCase,
            new PfcHostStackTestCase,
            new HairpinResumeTestCase,
            new OrderArrivalsTestCase,
            new ChannelDelayChangeTestCase};
}
