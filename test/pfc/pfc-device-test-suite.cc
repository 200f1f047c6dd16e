/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-pfc-device" (./test.py -s tagger-pfc-device):
 * device-level tests of PfcNetDevice and PfcChannel, defined here, plus the
 * cases of pfc-header-test.cc (PfcHeader, EthernetDot1qHeader) and
 * pfc-scheduler-test.cc (the egress schedulers).
 *
 * Every case here joins two host nodes with PfcHelper::Connect and drives
 * the devices directly (Send with an IPv4 header carrying the DSCP, or
 * SendPfcFrame), except the one under ns-3's Internet stack and the
 * hairpin RESUME regression, which plays the switch through the port's
 * dequeue callback.  Expected times are worked out by hand in the comments,
 * from the Ethernet rules the devices model:
 *
 *  - wire time of a frame of N bytes (Ethernet header on, FCS not carried):
 *    (max(N + 4, 64) + 20) * 8 / rate (FCS, minimum frame, preamble + start
 *    delimiter + inter-frame gap);
 *  - arrival of the last bit at the peer: start + wire time + Delay;
 *  - a pause quantum is 512 bit times; a received PFC frame takes effect
 *    ProcessingDelay after its last bit arrived, by default 3840 bytes at the rate.
 *
 * Most cases run at 8 Gbps, where one byte takes exactly 1 ns, so that every
 * time is a whole number of nanoseconds (ns-3's default resolution):
 * a 1000-byte frame takes 1024 ns, a PFC frame (60 bytes, 64 with the FCS)
 * 84 ns, a quantum 64 ns and the default processing delay 3840 ns.
 */

#include "pfc-test-util.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-header.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/node-container.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-scheduler.h"
#include "ns3/pointer.h"
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
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

/// Size of an untagged Ethernet II header (bytes).
constexpr uint32_t kEthBytes = 14;
/// Size of an IPv4 header without options (bytes).
constexpr uint32_t kIpBytes = 20;
/// Class recorded for a PFC frame in a FrameEvent.
constexpr int kPfcFrame = -1;
/// The time every scenario starts its traffic at (the nodes are initialised at 0).
const Time kT0 = MicroSeconds(10);

/**
 * \param ns nanoseconds after kT0
 * \return kT0 + ns
 */
Time
At(int64_t ns)
{
    return kT0 + NanoSeconds(ns);
}

/**
 * An IPv4 packet that, once the device adds its 14-byte Ethernet header,
 * makes a frame of \p frameBytes bytes of class \p cls (DSCP = cls << 3).
 * \param frameBytes frame size, Ethernet header included (>= 34)
 * \param cls the class
 * \return the packet (IPv4 header on)
 */
Ptr<Packet>
MakeIpv4Packet(uint32_t frameBytes, uint8_t cls)
{
    NS_ASSERT(frameBytes >= kEthBytes + kIpBytes);
    uint32_t payload = frameBytes - kEthBytes - kIpBytes;
    Ptr<Packet> p = Create<Packet>(payload);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(253); // "for experimentation" (RFC 3692): no transport header follows
    ip.SetTtl(64);
    ip.SetPayloadSize(payload);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(cls << 3));
    p->AddHeader(ip);
    return p;
}

/**
 * Send a data frame of \p frameBytes bytes, class \p cls, from \p dev to its peer.
 * \param dev the sending device \param frameBytes frame size \param cls class
 * \return what Send returned
 */
bool
SendData(Ptr<PfcNetDevice> dev, uint32_t frameBytes, uint8_t cls)
{
    return dev->Send(MakeIpv4Packet(frameBytes, cls), dev->GetPeerAddress(), kEtherTypeIpv4);
}

/// A data frame to send: (frame size in bytes, class).
using FrameSpec = std::pair<uint32_t, uint8_t>;
/// Data frames to send one after the other.
using Frames = std::vector<FrameSpec>;

/**
 * Send data frames from \p dev to its peer, in order, in one event: the
 * first may start at once, the others queue behind it.
 * \param dev the sending device \param frames (frame size, class) of each
 */
void
SendFrames(Ptr<PfcNetDevice> dev, const Frames& frames)
{
    for (const FrameSpec& f : frames)
    {
        SendData(dev, f.first, f.second);
    }
}

/**
 * SendData as an event that keeps what Send returned.
 * \param[out] accepted what Send returned
 * \param dev the sending device \param frameBytes frame size \param cls class
 */
void
SendDataInto(bool* accepted, Ptr<PfcNetDevice> dev, uint32_t frameBytes, uint8_t cls)
{
    *accepted = SendData(dev, frameBytes, cls);
}

/**
 * Sample PfcNetDevice::IsClassPaused (an event).
 * \param[out] paused the answer \param dev the device \param cls the class
 */
void
SampleClassPaused(bool* paused, Ptr<PfcNetDevice> dev, uint8_t cls)
{
    *paused = dev->IsClassPaused(cls);
}

/**
 * Sample PfcNetDevice::IsPausingPeer (an event).
 * \param[out] pausing the answer \param dev the device \param cls the class
 */
void
SamplePausingPeer(bool* pausing, Ptr<PfcNetDevice> dev, uint8_t cls)
{
    *pausing = dev->IsPausingPeer(cls);
}

/**
 * Sample PfcNetDevice::IsLinkUp (an event).
 * \param[out] up the answer \param dev the device
 */
void
SampleLinkUp(bool* up, Ptr<PfcNetDevice> dev)
{
    *up = dev->IsLinkUp();
}

/// Count a call (a link change callback). \param n the counter
void
Count(uint32_t* n)
{
    ++*n;
}

/// Count a packet (a trace sink). \param n the counter \param p the packet
void
CountPacket(uint32_t* n, Ptr<const Packet> p)
{
    ++*n;
}

/**
 * A PFC body for one class.
 * \param cls the class \param quanta its time (0: RESUME)
 * \return the body
 */
PfcHeader
Pfc(uint8_t cls, uint16_t quanta)
{
    PfcHeader pfc;
    pfc.SetClass(cls, quanta);
    return pfc;
}

/**
 * Class of a frame as it appears in a trace.
 * \param frame the frame
 * \param hasEth whether the Ethernet header is still on
 * \return its class (DSCP >> 3), or kPfcFrame for a MAC control frame
 */
int
ClassOfFrame(Ptr<const Packet> frame, bool hasEth)
{
    Ptr<Packet> p = frame->Copy();
    if (hasEth)
    {
        EthernetDot1qHeader eth;
        p->RemoveHeader(eth);
        if (eth.GetEtherType() == kEtherTypeMacControl)
        {
            return kPfcFrame;
        }
    }
    Ipv4Header ip;
    p->PeekHeader(ip);
    return ip.GetDscp() >> 3;
}

/**
 * \param b bytes (a vector or an array) \param off offset
 * \return the big-endian 16-bit value at \p off
 */
template <typename Bytes>
int
Be16(const Bytes& b, size_t off)
{
    return (b[off] << 8) | b[off + 1];
}

/// One frame seen by a trace.
struct FrameEvent
{
    Time t;        //!< when
    int cls;       //!< class, or kPfcFrame
    uint32_t size; //!< bytes as traced
};

/// Records frames from packet traces.
struct FrameLog
{
    std::vector<FrameEvent> events; //!< what was seen

    /// Trace sink for frames with the Ethernet header on. \param f the frame
    void Eth(Ptr<const Packet> f)
    {
        events.push_back({Simulator::Now(), ClassOfFrame(f, true), f->GetSize()});
    }

    /// Trace sink for frames without it (MacRx). \param f the frame
    void Ip(Ptr<const Packet> f)
    {
        events.push_back({Simulator::Now(), ClassOfFrame(f, false), f->GetSize()});
    }
};

/// Records ClassPause events.
struct PauseLog
{
    /// (time, class, paused)
    std::vector<std::tuple<Time, int, bool>> events;

    /// Trace sink. \param cls class \param paused state
    void Sink(uint8_t cls, bool paused)
    {
        events.emplace_back(Simulator::Now(), cls, paused);
    }
};

/// Records PfcTx / PfcRx events.
struct PfcLog
{
    std::vector<std::pair<Time, PfcHeader>> events; //!< (time, body)

    /// Trace sink. \param pfc the body
    void Sink(const PfcHeader& pfc)
    {
        events.emplace_back(Simulator::Now(), pfc);
    }
};

/// Records Drop events.
struct DropLog
{
    std::vector<std::pair<Time, PfcDropReason>> events; //!< (time, reason)

    /// Trace sink. \param frame the frame \param reason why
    void Sink(Ptr<const Packet> frame, PfcDropReason reason)
    {
        events.emplace_back(Simulator::Now(), reason);
    }
};

/// Two host nodes joined by one link.
struct PfcPair
{
    NodeContainer nodes;     //!< node 0 (a) and node 1 (b)
    Ptr<PfcNetDevice> da;    //!< device on a
    Ptr<PfcNetDevice> db;    //!< device on b
    Ptr<PfcChannel> channel; //!< the link
};

/**
 * Join two new host nodes.
 * \param helper the helper, device and channel attributes set
 * \return the pair
 */
PfcPair
MakePair(const PfcHelper& helper)
{
    PfcPair pair;
    pair.nodes.Create(2);
    NetDeviceContainer devices = helper.Connect(pair.nodes.Get(0), pair.nodes.Get(1));
    pair.da = DynamicCast<PfcNetDevice>(devices.Get(0));
    pair.db = DynamicCast<PfcNetDevice>(devices.Get(1));
    pair.channel = pair.da->GetPfcChannel();
    return pair;
}

/**
 * Join two new host nodes with the given rate and delay.
 * \param rate the DataRate \param delay the channel Delay
 * \return the pair
 */
PfcPair
MakePair(const std::string& rate, Time delay)
{
    PfcHelper helper;
    helper.SetDeviceAttribute("DataRate", StringValue(rate));
    helper.SetChannelAttribute("Delay", TimeValue(delay));
    return MakePair(helper);
}

/**
 * \ingroup tagger-tests
 * Base of the device test cases: comparison helpers.
 */
class PfcDeviceTestCase : public TestCase
{
  public:
    /// \param name the test name
    explicit PfcDeviceTestCase(std::string name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Compare frames seen with the expected (ns after kT0, class) list.
     * \param got frames seen \param want expected frames \param what label
     */
    void CheckFrames(const std::vector<FrameEvent>& got,
                     const std::vector<std::pair<int64_t, int>>& want,
                     const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(got.size(), want.size(), what << ": number of frames");
        for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(got[i].t, At(want[i].first), what << ": time of frame " << i);
            NS_TEST_EXPECT_MSG_EQ(got[i].cls, want[i].second, what << ": class of frame " << i);
        }
    }

    /**
     * Compare ClassPause events with the expected (ns after kT0, class, paused) list.
     * \param got events seen \param want expected events \param what label
     */
    void CheckPauses(const PauseLog& got,
                     const std::vector<std::tuple<int64_t, int, bool>>& want,
                     const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(got.events.size(), want.size(), what << ": ClassPause events");
        for (size_t i = 0; i < std::min(got.events.size(), want.size()); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(std::get<0>(got.events[i]),
                                  At(std::get<0>(want[i])),
                                  what << ": time of ClassPause event " << i);
            NS_TEST_EXPECT_MSG_EQ(std::get<1>(got.events[i]),
                                  std::get<1>(want[i]),
                                  what << ": class of ClassPause event " << i);
            NS_TEST_EXPECT_MSG_EQ(std::get<2>(got.events[i]),
                                  std::get<2>(want[i]),
                                  what << ": state of ClassPause event " << i);
        }
    }
};

// ---------------------------------------------------------------------------
// 1. Frame timing
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * A frame of N bytes arrives at the peer wire time + Delay after it started:
 * large frames at 10 Gbps, runts padded to the 64-byte minimum at 8 Gbps,
 * frames queued back to back, and a frame sent before Simulator::Run.
 */
class PfcFrameTimingTestCase : public PfcDeviceTestCase
{
  public:
    PfcFrameTimingTestCase()
        : PfcDeviceTestCase("PfcNetDevice: a frame arrives wire time + delay after it starts")
    {
    }

  private:
    void DoRun() override
    {
        {
            // 10 Gbps, 1 us.  A 1226-byte frame: (1226 + 4 + 20) * 8 = 10000 bits
            // = 1000 ns; sent at t0, its last bit leaves at t0 + 1000 ns and
            // arrives at t0 + 1000 + 1000 = t0 + 2000 ns.  A second one queued
            // in the same event starts at t0 + 1000 and arrives at t0 + 3000.
            PfcPair p = MakePair("10Gbps", MicroSeconds(1));
            FrameLog rx;
            FrameLog phyRx;
            FrameLog txEnd;
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            p.db->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&FrameLog::Eth, &phyRx));
            p.da->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&FrameLog::Eth, &txEnd));
            Simulator::Schedule(kT0, &SendFrames, p.da, Frames{{1226, 0}, {1226, 2}});
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Time wire = p.da->GetWireTime(1226);
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(wire, NanoSeconds(1000), "wire time of 1226 bytes at 10 Gbps");
            CheckFrames(txEnd.events, {{1000, 0}, {2000, 2}}, "10G PhyTxEnd");
            CheckFrames(phyRx.events, {{2000, 0}, {3000, 2}}, "10G PhyRxEnd");
            CheckFrames(rx.events, {{2000, 0}, {3000, 2}}, "10G MacRx");
            if (rx.events.size() == 2)
            {
                // MacRx gives the packet without the Ethernet header: 1226 - 14.
                NS_TEST_EXPECT_MSG_EQ(rx.events[0].size, 1212u, "MacRx strips the header");
            }
            if (phyRx.events.size() == 2)
            {
                NS_TEST_EXPECT_MSG_EQ(phyRx.events[0].size, 1226u, "PhyRxEnd has the header");
            }
        }
        {
            // 8 Gbps, 2 us.  A 40-byte frame is padded: (max(40 + 4, 64) + 20) = 84
            // bytes = 84 ns, arrives at t0 + 84 + 2000 = t0 + 2084.  Then a 61-byte
            // frame: 61 + 4 = 65 > 64, 85 bytes = 85 ns, from t0 + 84 to t0 + 169,
            // arrives at t0 + 2169.
            PfcPair p = MakePair("8Gbps", MicroSeconds(2));
            FrameLog rx;
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            Simulator::Schedule(kT0, &SendFrames, p.da, Frames{{40, 1}, {61, 1}});
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Time runt = p.da->GetWireTime(40);
            Time min = p.da->GetWireTime(60);
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(runt, NanoSeconds(84), "40 bytes are padded to 64");
            NS_TEST_EXPECT_MSG_EQ(min, NanoSeconds(84), "60 bytes + FCS are exactly 64");
            CheckFrames(rx.events, {{2084, 1}, {2169, 1}}, "8G runts");
        }
        {
            // A frame sent before Simulator::Run (at time 0, before the nodes are
            // initialised): 1000 bytes at 8 Gbps = 1024 ns, + 1000 ns delay: it
            // arrives at 2024 ns, i.e. At(2024 - 10000) as At() counts from t0 = 10 us.
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            FrameLog rx;
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            bool accepted = SendData(p.da, 1000, 4);
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(accepted, true, "Send before Run is accepted");
            CheckFrames(rx.events, {{2024 - 10000, 4}}, "frame sent before Run");
        }
    }
};

// ---------------------------------------------------------------------------
// 2. The PFC frame on the wire
// ---------------------------------------------------------------------------

/**
 * Keep a copy of a frame and when it came (a trace sink).
 * \param[out] frames the copies \param[out] times when \param f the frame
 */
void
CopyFrame(std::vector<Ptr<Packet>>* frames, std::vector<Time>* times, Ptr<const Packet> f)
{
    frames->push_back(f->Copy());
    times->push_back(Simulator::Now());
}

/**
 * \ingroup tagger-tests
 * The bytes of a PFC frame as the peer receives them: 802.1Qbb layout, 60
 * bytes (64 with the FCS), and its arrival time.
 */
class PfcFrameBytesTestCase : public PfcDeviceTestCase
{
  public:
    PfcFrameBytesTestCase()
        : PfcDeviceTestCase("PfcNetDevice: a PFC frame on the wire has the 802.1Qbb layout")
    {
    }

  private:
    void DoRun() override
    {
        PfcPair p = MakePair("8Gbps", MicroSeconds(1));
        std::vector<Ptr<Packet>> frames;
        std::vector<Time> times;
        PfcLog rxPfc;
        p.db->TraceConnectWithoutContext("PhyRxEnd",
                                         MakeBoundCallback(&CopyFrame, &frames, &times));
        p.db->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcLog::Sink, &rxPfc));
        PfcHeader pfc;
        pfc.SetClass(3, 0x1234);
        pfc.SetClass(5, 0);
        Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.da, pfc);
        // A RESUME only: counted as a resume frame.
        Simulator::Schedule(At(5000), &PfcNetDevice::SendPfcFrame, p.da, Pfc(2, 0));
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        Mac48Address src = Mac48Address::ConvertFrom(p.da->GetAddress());
        uint64_t pfcTx = p.da->GetPfcTxFrames();
        uint64_t pauseTx = p.da->GetPauseTxFrames();
        uint64_t resumeTx = p.da->GetResumeTxFrames();
        uint64_t pfcRx = p.db->GetPfcRxFrames();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(frames.size(), 2u, "two PFC frames arrived");
        // 60 bytes = 64 with the FCS: 84 bytes on the wire = 84 ns, + 1000 ns.
        NS_TEST_EXPECT_MSG_EQ(times[0], At(84 + 1000), "arrival of the first PFC frame");
        NS_TEST_EXPECT_MSG_EQ(times[1], At(5000 + 84 + 1000), "arrival of the second");
        NS_TEST_EXPECT_MSG_EQ(frames[0]->GetSize(), 60u, "PFC frame: 14 + 46 bytes");

        std::array<uint8_t, 60> b{};
        frames[0]->CopyData(b.data(), b.size());
        const uint8_t dst[6] = {0x01, 0x80, 0xc2, 0x00, 0x00, 0x01};
        for (int i = 0; i < 6; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(b[i]), int(dst[i]), "destination byte " << i);
        }
        uint8_t srcBytes[6];
        src.CopyTo(srcBytes);
        for (int i = 0; i < 6; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(b[6 + i]), int(srcBytes[i]), "source byte " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(int(b[12]), 0x88, "EtherType high byte");
        NS_TEST_EXPECT_MSG_EQ(int(b[13]), 0x08, "EtherType low byte");
        NS_TEST_EXPECT_MSG_EQ(int(b[14]), 0x01, "opcode high byte");
        NS_TEST_EXPECT_MSG_EQ(int(b[15]), 0x01, "opcode low byte");
        // Classes 3 and 5 enabled: (1 << 3) | (1 << 5) = 0x0028.
        NS_TEST_EXPECT_MSG_EQ(int(b[16]), 0x00, "class-enable vector high byte");
        NS_TEST_EXPECT_MSG_EQ(int(b[17]), 0x28, "class-enable vector low byte");
        for (int c = 0; c < 8; ++c)
        {
            // time[c] at offset 18 + 2c, big endian: only time[3] = 0x1234 is nonzero.
            int want = c == 3 ? 0x1234 : 0;
            int got = Be16(b, 18 + 2 * c);
            NS_TEST_EXPECT_MSG_EQ(got, want, "time of class " << c);
        }
        for (int i = 34; i < 60; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(b[i]), 0, "padding byte " << i);
        }

        NS_TEST_EXPECT_MSG_EQ(rxPfc.events.size(), 2u, "PfcRx events");
        if (!rxPfc.events.empty())
        {
            const PfcHeader& h = rxPfc.events[0].second;
            NS_TEST_EXPECT_MSG_EQ(h.GetClassEnableVector(), 0x28, "PfcRx: class-enable vector");
            NS_TEST_EXPECT_MSG_EQ(h.GetQuanta(3), 0x1234, "PfcRx: time of class 3");
        }
        NS_TEST_EXPECT_MSG_EQ(pfcTx, 2u, "PFC frames sent");
        NS_TEST_EXPECT_MSG_EQ(pauseTx, 1u, "the first has a nonzero time: a PAUSE");
        NS_TEST_EXPECT_MSG_EQ(resumeTx, 1u, "the second has only zero times: a RESUME");
        NS_TEST_EXPECT_MSG_EQ(pfcRx, 2u, "PFC frames received");
    }
};

// ---------------------------------------------------------------------------
// 3. Pause after the processing delay
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * A PAUSE takes effect ProcessingDelay after it arrives (default 3840 bytes
 * at the rate, or the attribute), pauses only its class, for quanta * 512
 * bit times.
 */
class PfcPauseTimingTestCase : public PfcDeviceTestCase
{
  public:
    PfcPauseTimingTestCase()
        : PfcDeviceTestCase("PfcNetDevice: PAUSE takes effect after the processing delay")
    {
    }

  private:
    void DoRun() override
    {
        {
            // 8 Gbps, 1 us, default processing delay 3840 ns.  b sends PAUSE
            // (class 3, 100 quanta) at t0: it arrives at t0 + 84 + 1000 = t0 + 1084
            // and takes effect at t0 + 1084 + 3840 = t0 + 4924, for 100 * 64 ns =
            // 6400 ns, until t0 + 11324.
            //  - class 3 at t0 + 4900 (not yet paused): leaves at once (to t0 + 5924);
            //  - class 3 at t0 + 6000 (paused): leaves at t0 + 11324;
            //  - class 0 at t0 + 6000: leaves at once.
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            FrameLog tx;
            PauseLog pauses;
            p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
            p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
            Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, 100));
            Simulator::Schedule(At(4900), &SendFrames, p.da, Frames{{1000, 3}});
            Simulator::Schedule(At(6000), &SendFrames, p.da, Frames{{1000, 3}, {1000, 0}});
            bool pausedAt4923 = true;
            bool pausedAt4925 = false;
            Simulator::Schedule(At(4923), &SampleClassPaused, &pausedAt4923, p.da, 3);
            Simulator::Schedule(At(4925), &SampleClassPaused, &pausedAt4925, p.da, 3);
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Time processing = p.da->GetProcessingDelay();
            Time quanta = p.da->QuantaToTime(100);
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(processing, NanoSeconds(3840), "3840 bytes at 8 Gbps");
            NS_TEST_EXPECT_MSG_EQ(quanta, NanoSeconds(6400), "100 quanta of 64 ns");
            NS_TEST_EXPECT_MSG_EQ(pausedAt4923, false, "not paused before the delay");
            NS_TEST_EXPECT_MSG_EQ(pausedAt4925, true, "paused after the delay");
            CheckFrames(tx.events, {{4900, 3}, {6000, 0}, {11324, 3}}, "default delay");
            CheckPauses(pauses, {{4924, 3, true}, {11324, 3, false}}, "default delay");
        }
        {
            // ProcessingDelay = 2 us: effect at t0 + 1084 + 2000 = t0 + 3084, until
            // t0 + 3084 + 6400 = t0 + 9484.  Class 3 at t0 + 3000 leaves at once;
            // class 3 at t0 + 3100 waits until t0 + 9484.
            PfcHelper helper;
            helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
            helper.SetDeviceAttribute("ProcessingDelay", TimeValue(MicroSeconds(2)));
            helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            PfcPair p = MakePair(helper);
            FrameLog tx;
            PauseLog pauses;
            p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
            p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
            Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, 100));
            Simulator::Schedule(At(3000), &SendFrames, p.da, Frames{{1000, 3}});
            Simulator::Schedule(At(3100), &SendFrames, p.da, Frames{{1000, 3}});
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Time processing = p.da->GetProcessingDelay();
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(processing, MicroSeconds(2), "ProcessingDelay attribute");
            CheckFrames(tx.events, {{3000, 3}, {9484, 3}}, "2 us delay");
            CheckPauses(pauses, {{3084, 3, true}, {9484, 3, false}}, "2 us delay");
        }
    }
};

// ---------------------------------------------------------------------------
// 4. Refresh replaces, zero resumes
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * A second PAUSE before the first expires replaces its time (longer or
 * shorter); a RESUME (time 0) unpauses after the processing delay.
 */
class PfcPauseRefreshTestCase : public PfcDeviceTestCase
{
  public:
    PfcPauseRefreshTestCase()
        : PfcDeviceTestCase("PfcNetDevice: a later PFC frame replaces the pause time; 0 resumes")
    {
    }

  private:
    /**
     * b sends PAUSE(3, \p q1) at t0 and PFC(3, \p q2) at t0 + 3000; a queues a
     * class-3 frame at t0 + 5000 (paused by then).
     * \param q1 first time \param q2 second time
     * \param[out] tx a's PhyTxBegin \param[out] pauses a's ClassPause
     */
    void Run(uint16_t q1, uint16_t q2, FrameLog& tx, PauseLog& pauses)
    {
        PfcPair p = MakePair("8Gbps", MicroSeconds(1));
        p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
        p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
        Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, q1));
        Simulator::Schedule(At(3000), &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, q2));
        Simulator::Schedule(At(5000), &SendFrames, p.da, Frames{{1000, 3}});
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        // Each PFC frame takes effect 84 + 1000 + 3840 = 4924 ns after it is sent:
        // the first at t0 + 4924, the second at t0 + 7924.
        {
            // 100 then 100 quanta (6400 ns): paused until t0 + 7924 + 6400 = t0 + 14324
            // (not t0 + 11324, the end of the first), with no unpause in between.
            FrameLog tx;
            PauseLog pauses;
            Run(100, 100, tx, pauses);
            CheckFrames(tx.events, {{14324, 3}}, "refresh extends");
            CheckPauses(pauses, {{4924, 3, true}, {14324, 3, false}}, "refresh extends");
        }
        {
            // 100 then 10 quanta (640 ns): the new time replaces the old one:
            // paused until t0 + 7924 + 640 = t0 + 8564, before t0 + 11324.
            FrameLog tx;
            PauseLog pauses;
            Run(100, 10, tx, pauses);
            CheckFrames(tx.events, {{8564, 3}}, "shorter refresh replaces");
            CheckPauses(pauses, {{4924, 3, true}, {8564, 3, false}}, "shorter refresh replaces");
        }
        {
            // 1000 quanta (64 us) then RESUME: unpaused at t0 + 7924.
            FrameLog tx;
            PauseLog pauses;
            Run(1000, 0, tx, pauses);
            CheckFrames(tx.events, {{7924, 3}}, "RESUME");
            CheckPauses(pauses, {{4924, 3, true}, {7924, 3, false}}, "RESUME");
        }
    }
};

// ---------------------------------------------------------------------------
// 5. StartPausing / StopPausing
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * StartPausing sends PAUSE and refreshes it every PauseRefresh (or half the
 * pause time); StopPausing sends RESUME and stops refreshing; without a
 * RESUME the peer resumes on its own when the pause time runs out.
 */
class PfcStartPausingTestCase : public PfcDeviceTestCase
{
  public:
    PfcStartPausingTestCase()
        : PfcDeviceTestCase("PfcNetDevice: StartPausing refreshes, StopPausing resumes")
    {
    }

  private:
    /// What one run observed.
    struct Result
    {
        PfcLog bTx;                 //!< PfcTx of b
        PauseLog aPauses;           //!< ClassPause of a
        FrameLog aTx;               //!< PhyTxBegin of a
        bool pausingMid = false;    //!< b.IsPausingPeer(3) at t0 + 5000
        bool pausingEnd = false;    //!< b.IsPausingPeer(3) at the end
        bool pausedAt12000 = false; //!< a.IsClassPaused(3) at t0 + 12000
        uint64_t pauseTx = 0;       //!< b's PAUSE count
        uint64_t resumeTx = 0;      //!< b's RESUME count
        uint64_t pfcRx = 0;         //!< a's PFC rx count
    };

    /**
     * b (PauseQuanta 100 = 6400 ns) starts pausing class 3 at t0 and stops at
     * t0 + \p stopNs (never if negative); a queues a class-3 frame at t0 + 5000.
     * \param refresh the PauseRefresh attribute \param stopNs when b stops
     * \return what was observed
     */
    Result Run(Time refresh, int64_t stopNs)
    {
        Result r;
        PfcHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
        helper.SetDeviceAttribute("PauseQuanta", UintegerValue(100));
        helper.SetDeviceAttribute("PauseRefresh", TimeValue(refresh));
        helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        PfcPair p = MakePair(helper);
        p.db->TraceConnectWithoutContext("PfcTx", MakeCallback(&PfcLog::Sink, &r.bTx));
        p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &r.aPauses));
        p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &r.aTx));
        Simulator::Schedule(kT0, &PfcNetDevice::StartPausing, p.db, 3);
        if (stopNs >= 0)
        {
            Simulator::Schedule(At(stopNs), &PfcNetDevice::StopPausing, p.db, 3);
        }
        Simulator::Schedule(At(5000), &SamplePausingPeer, &r.pausingMid, p.db, 3);
        Simulator::Schedule(At(5000), &SendFrames, p.da, Frames{{1000, 3}});
        Simulator::Schedule(At(12000), &SampleClassPaused, &r.pausedAt12000, p.da, 3);
        Simulator::Stop(At(40000));
        Simulator::Run();
        r.pausingEnd = p.db->IsPausingPeer(3);
        r.pauseTx = p.db->GetPauseTxFrames();
        r.resumeTx = p.db->GetResumeTxFrames();
        r.pfcRx = p.da->GetPfcRxFrames();
        Simulator::Destroy();
        return r;
    }

    /**
     * Check b's PFC frames: PAUSE(3, 100) at each of \p pauses (ns after t0),
     * then RESUME(3) at \p resumeNs (none if negative).
     * \param r the run \param pauses PAUSE times \param resumeNs RESUME time \param what label
     */
    void CheckPfcTx(const Result& r,
                    const std::vector<int64_t>& pauses,
                    int64_t resumeNs,
                    const std::string& what)
    {
        size_t n = pauses.size() + (resumeNs >= 0 ? 1 : 0);
        NS_TEST_EXPECT_MSG_EQ(r.bTx.events.size(), n, what << ": PFC frames sent");
        for (size_t i = 0; i < std::min(n, r.bTx.events.size()); ++i)
        {
            bool resume = i == pauses.size();
            const PfcHeader& h = r.bTx.events[i].second;
            NS_TEST_EXPECT_MSG_EQ(r.bTx.events[i].first,
                                  At(resume ? resumeNs : pauses[i]),
                                  what << ": time of PFC frame " << i);
            NS_TEST_EXPECT_MSG_EQ(h.GetClassEnableVector(), 1u << 3, what << ": class 3 only");
            NS_TEST_EXPECT_MSG_EQ(h.GetQuanta(3), (resume ? 0 : 100), what << ": time " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(r.pauseTx, pauses.size(), what << ": PAUSE count");
        NS_TEST_EXPECT_MSG_EQ(r.resumeTx, (resumeNs >= 0 ? 1u : 0u), what << ": RESUME count");
        NS_TEST_EXPECT_MSG_EQ(r.pfcRx, n, what << ": PFC frames received by the peer");
    }

    void DoRun() override
    {
        {
            // PauseRefresh 2 us, stop at t0 + 9000: PAUSE at 0, 2, 4, 6, 8 us
            // (1 + floor(9 / 2) = 5), RESUME at 9 us, nothing after (run to 40 us).
            // a is paused from t0 + 4924 (first PAUSE + 4924); each refresh
            // extends it (the one sent at 8 us to t0 + 8000 + 4924 + 6400); the
            // RESUME takes effect at t0 + 9000 + 4924 = t0 + 13924, when the
            // class-3 frame queued at t0 + 5000 leaves.  At t0 + 12000 a is
            // still paused although the first PAUSE alone ended at t0 + 11324.
            Result r = Run(MicroSeconds(2), 9000);
            CheckPfcTx(r, {0, 2000, 4000, 6000, 8000}, 9000, "refresh 2 us");
            CheckPauses(r.aPauses, {{4924, 3, true}, {13924, 3, false}}, "refresh 2 us");
            CheckFrames(r.aTx.events, {{13924, 3}}, "refresh 2 us");
            NS_TEST_EXPECT_MSG_EQ(r.pausedAt12000, true, "refreshed past the first PAUSE");
            NS_TEST_EXPECT_MSG_EQ(r.pausingMid, true, "IsPausingPeer while pausing");
            NS_TEST_EXPECT_MSG_EQ(r.pausingEnd, false, "IsPausingPeer after StopPausing");
        }
        {
            // PauseRefresh 0: half the pause time, 6400 / 2 = 3200 ns.  Stop at
            // t0 + 10000: PAUSE at 0, 3200, 6400, 9600 (1 + floor(10000 / 3200)
            // = 4), RESUME at 10000, effect at t0 + 14924.
            Result r = Run(Time(0), 10000);
            CheckPfcTx(r, {0, 3200, 6400, 9600}, 10000, "default refresh");
            CheckPauses(r.aPauses, {{4924, 3, true}, {14924, 3, false}}, "default refresh");
            CheckFrames(r.aTx.events, {{14924, 3}}, "default refresh");
        }
        {
            // No RESUME and no refresh (PauseRefresh 1 s, never stopped), as if
            // the peer stopped refreshing and its RESUME was lost: a resumes
            // on its own when the pause runs out, t0 + 4924 + 6400 = t0 + 11324,
            // and sends the frame queued at t0 + 5000 then.
            Result r = Run(Seconds(1), -1);
            CheckPfcTx(r, {0}, -1, "no RESUME");
            CheckPauses(r.aPauses, {{4924, 3, true}, {11324, 3, false}}, "no RESUME");
            CheckFrames(r.aTx.events, {{11324, 3}}, "no RESUME");
            NS_TEST_EXPECT_MSG_EQ(r.pausedAt12000, false, "the pause expired");
            NS_TEST_EXPECT_MSG_EQ(r.pausingEnd, true, "b still thinks it is pausing");
        }
    }
};

// ---------------------------------------------------------------------------
// 6. PFC frames go ahead of data, never preempting
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * PFC frames queued while a data frame is on the wire go right after it,
 * ahead of the queued data, in the order they were queued.
 */
class PfcAheadOfDataTestCase : public PfcDeviceTestCase
{
  public:
    PfcAheadOfDataTestCase()
        : PfcDeviceTestCase("PfcNetDevice: PFC frames go ahead of queued data, not preempting")
    {
    }

  private:
    void DoRun() override
    {
        // 8 Gbps, 1 us.  a queues three 1000-byte class-0 frames at t0 (1024 ns
        // each); at t0 + 500 (first frame on the wire) a PAUSE(5), at t0 + 600 a
        // RESUME(5).  On the wire: data 0..1024, PAUSE 1024..1108, RESUME
        // 1108..1192, data 1192..2216, data 2216..3240.  Arrivals: + wire + 1000.
        PfcPair p = MakePair("8Gbps", MicroSeconds(1));
        FrameLog tx;
        FrameLog txEnd;
        FrameLog rx;
        PfcLog rxPfc;
        p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
        p.da->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&FrameLog::Eth, &txEnd));
        p.db->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&FrameLog::Eth, &rx));
        p.db->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcLog::Sink, &rxPfc));
        Simulator::Schedule(kT0, &SendFrames, p.da, Frames(3, {1000, 0}));
        Simulator::Schedule(At(500), &PfcNetDevice::SendPfcFrame, p.da, Pfc(5, 7));
        Simulator::Schedule(At(600), &PfcNetDevice::SendPfcFrame, p.da, Pfc(5, 0));
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        Simulator::Destroy();

        CheckFrames(tx.events,
                    {{0, 0}, {1024, kPfcFrame}, {1108, kPfcFrame}, {1192, 0}, {2216, 0}},
                    "PhyTxBegin");
        CheckFrames(txEnd.events,
                    {{1024, 0}, {1108, kPfcFrame}, {1192, kPfcFrame}, {2216, 0}, {3240, 0}},
                    "PhyTxEnd (the first data frame is not cut)");
        CheckFrames(rx.events,
                    {{2024, 0}, {2108, kPfcFrame}, {2192, kPfcFrame}, {3216, 0}, {4240, 0}},
                    "PhyRxEnd at the peer");
        NS_TEST_EXPECT_MSG_EQ(rxPfc.events.size(), 2u, "two PFC frames");
        if (rxPfc.events.size() == 2)
        {
            NS_TEST_EXPECT_MSG_EQ(rxPfc.events[0].second.GetQuanta(5), 7, "PAUSE first");
            NS_TEST_EXPECT_MSG_EQ(rxPfc.events[1].second.GetQuanta(5), 0, "then RESUME");
        }
    }
};

// ---------------------------------------------------------------------------
// 7. Schedulers
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Strict priority (the default) sends class 5 before class 1; a
 * DwrrPfcScheduler given through the Scheduler attribute shares by weight.
 */
class PfcSchedulerTestCase : public PfcDeviceTestCase
{
  public:
    PfcSchedulerTestCase()
        : PfcDeviceTestCase("PfcNetDevice: strict priority and DWRR between classes")
    {
    }

  private:
    /**
     * a sends a class-0 frame (alone, so it goes at once), then \p classes in
     * one event, 1000-byte frames; returns the classes in arrival order at b.
     * \param scheduler a's scheduler (nullptr: default)
     * \param classes the classes queued behind the first frame
     * \param[out] rx b's MacRx
     */
    void Run(Ptr<PfcScheduler> scheduler, const std::vector<uint8_t>& classes, FrameLog& rx)
    {
        PfcPair p = MakePair("8Gbps", MicroSeconds(1));
        if (scheduler)
        {
            p.da->SetAttribute("Scheduler", PointerValue(scheduler));
        }
        p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
        Frames frames{{1000, 0}};
        for (uint8_t c : classes)
        {
            frames.emplace_back(1000, c);
        }
        Simulator::Schedule(kT0, &SendFrames, p.da, frames);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        {
            // Strict priority: behind the class-0 frame, 1, 5, 1, 5 leave as
            // 5, 5, 1, 1.  Back to back, 1024 ns apart: arrivals at
            // t0 + 1024 * k + 1000 for k = 1..5.
            FrameLog rx;
            Run(nullptr, {1, 5, 1, 5}, rx);
            CheckFrames(rx.events,
                        {{2024, 0}, {3048, 5}, {4072, 5}, {5096, 1}, {6120, 1}},
                        "strict priority");
        }
        {
            // DWRR, Quantum 1000 bytes (= one frame), weight 1 for class 1 and 2
            // for class 5.  The class-0 frame goes alone (class 0 gets 1000 at
            // its turn, sends, deficit 0).  Then each round gives class 1 one
            // frame (1000) and class 5 two (2000): 1, 5, 5, 1, 5, 5, 1, 5, 5 for
            // three class-1 and six class-5 frames.  Strict priority would send
            // the six class-5 frames first.
            Ptr<DwrrPfcScheduler> dwrr =
                CreateObjectWithAttributes<DwrrPfcScheduler>("Weights",
                                                             StringValue("1,1,1,1,1,2,1,1"),
                                                             "Quantum",
                                                             UintegerValue(1000));
            FrameLog rx;
            Run(dwrr, {1, 1, 1, 5, 5, 5, 5, 5, 5}, rx);
            std::vector<std::pair<int64_t, int>> want;
            const int order[] = {0, 1, 5, 5, 1, 5, 5, 1, 5, 5};
            for (int k = 0; k < 10; ++k)
            {
                want.emplace_back(1024 * (k + 1) + 1000, order[k]);
            }
            CheckFrames(rx.events, want, "DWRR 1:2");
        }
    }
};

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
            to.SetTos(classes[f] << 5);
            tx->Connect(to);
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
 * data-plane fuzz, run 26, aborted.)  Here the port's dequeue callback plays
 * the switch, calling StopPausing on the same port for every frame released.
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

    /// The switch's dequeue callback. \param port the port \param entry the frame released
    void Released(uint32_t port, const PfcQueueEntry& entry)
    {
        ++m_released;
        m_dev->StopPausing(3);
    }

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
        m_dev->SetSwitchPort(0,
                             MakeNullCallback<void, uint32_t, Ptr<Packet>>(),
                             MakeCallback(&HairpinResumeTestCase::Released, this));
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
    uint32_t m_onWire = 0;    //!< frames on the wire now
    uint32_t m_maxOnWire = 0; //!< the most at once
    uint32_t m_begun = 0;     //!< frames begun
    uint32_t m_released = 0;  //!< dequeue callbacks
    uint32_t m_received = 0;  //!< frames the peer received
};

} // namespace

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-pfc-device": PfcNetDevice, PfcChannel, the PFC and
 * 802.1Q headers and the egress schedulers.
 */
class TaggerPfcDeviceTestSuite : public TestSuite
{
  public:
    TaggerPfcDeviceTestSuite()
        : TestSuite("tagger-pfc-device", UNIT)
    {
        AddTestCase(new PfcFrameTimingTestCase, TestCase::QUICK);
        AddTestCase(new PfcFrameBytesTestCase, TestCase::QUICK);
        AddTestCase(new PfcPauseTimingTestCase, TestCase::QUICK);
        AddTestCase(new PfcPauseRefreshTestCase, TestCase::QUICK);
        AddTestCase(new PfcStartPausingTestCase, TestCase::QUICK);
        AddTestCase(new PfcAheadOfDataTestCase, TestCase::QUICK);
        AddTestCase(new PfcSchedulerTestCase, TestCase::QUICK);
        AddTestCase(new PfcLinkDownTestCase, TestCase::QUICK);
        AddTestCase(new PfcPcapTestCase, TestCase::QUICK);
        AddTestCase(new PfcHostStackTestCase, TestCase::QUICK);
        AddTestCase(new HairpinResumeTestCase, TestCase::QUICK);
        for (TestCase* tc : MakePfcHeaderTestCases())
        {
            AddTestCase(tc, TestCase::QUICK);
        }
        for (TestCase* tc : MakePfcSchedulerTestCases())
        {
            AddTestCase(tc, TestCase::QUICK);
        }
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerPfcDeviceTestSuite g_taggerPfcDeviceTestSuite;
