/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Shared by the PfcNetDevice test files of the TestSuite "tagger-pfc-device"
 * (pfc-device-test-suite.cc, pfc-device-pause-test.cc,
 * pfc-device-link-test.cc): data frames of a given size and class, samples
 * of a device's state taken in an event, trace sinks that record frames,
 * ClassPause, PFC and Drop events with their times, two host nodes joined by
 * one link (MakePair), and the comparisons of PfcDeviceTestCase.  Expected
 * times count from kT0 (At); the Ethernet rules they are worked out from are
 * in the file comment of pfc-device-test-suite.cc.
 */

#ifndef TAGGER_PFC_DEVICE_TEST_UTIL_H
#define TAGGER_PFC_DEVICE_TEST_UTIL_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-types.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace ns3
{
namespace tagger
{
namespace test
{

/// Size of an untagged Ethernet II header (bytes).
constexpr uint32_t kEthBytes = 14;
/// Size of an IPv4 header without options (bytes).
constexpr uint32_t kIpBytes = 20;
/// Class recorded for a PFC frame in a FrameEvent.
constexpr int kPfcFrame = -1;
/// The time every scenario starts its traffic at (the nodes are initialised at 0).
inline const Time kT0 = MicroSeconds(10);

/**
 * \param ns nanoseconds after kT0
 * \return kT0 + ns
 */
inline Time
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
inline Ptr<Packet>
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
inline bool
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
inline void
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
inline void
SendDataInto(bool* accepted, Ptr<PfcNetDevice> dev, uint32_t frameBytes, uint8_t cls)
{
    *accepted = SendData(dev, frameBytes, cls);
}

/**
 * Sample PfcNetDevice::IsClassPaused (an event).
 * \param[out] paused the answer \param dev the device \param cls the class
 */
inline void
SampleClassPaused(bool* paused, Ptr<PfcNetDevice> dev, uint8_t cls)
{
    *paused = dev->IsClassPaused(cls);
}

/**
 * Sample PfcNetDevice::IsPausingPeer (an event).
 * \param[out] pausing the answer \param dev the device \param cls the class
 */
inline void
SamplePausingPeer(bool* pausing, Ptr<PfcNetDevice> dev, uint8_t cls)
{
    *pausing = dev->IsPausingPeer(cls);
}

/**
 * Sample PfcNetDevice::IsLinkUp (an event).
 * \param[out] up the answer \param dev the device
 */
inline void
SampleLinkUp(bool* up, Ptr<PfcNetDevice> dev)
{
    *up = dev->IsLinkUp();
}

/// Count a call (a link change callback). \param n the counter
inline void
Count(uint32_t* n)
{
    ++*n;
}

/// Count a packet (a trace sink). \param n the counter \param p the packet
inline void
CountPacket(uint32_t* n, Ptr<const Packet> p)
{
    ++*n;
}

/**
 * A PFC body for one class.
 * \param cls the class \param quanta its time (0: RESUME)
 * \return the body
 */
inline PfcHeader
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
inline int
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
inline PfcPair
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
inline PfcPair
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

} // namespace test
} // namespace tagger
} // namespace ns3

#endif /* TAGGER_PFC_DEVICE_TEST_UTIL_H */
