/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-pfc-device" (./test.py -s tagger-pfc-device):
 * device-level tests of PfcNetDevice and PfcChannel.  Defined here: frame
 * timing, the PFC frame on the wire, PFC frames ahead of queued data and the
 * schedulers between classes; the pause cases (processing delay, refresh,
 * StartPausing / StopPausing) are in pfc-device-pause-test.cc, link down,
 * pcap, the Internet stack and the hairpin RESUME in pfc-device-link-test.cc,
 * and the fixtures these three files share in pfc-device-test-util.h.  Plus
 * the cases of pfc-header-test.cc (PfcHeader, EthernetDot1qHeader) and
 * pfc-scheduler-test.cc (the egress schedulers).
 *
 * Every case of the three device files joins two host nodes with
 * PfcHelper::Connect and drives the devices directly (Send with an IPv4
 * header carrying the DSCP, or SendPfcFrame), except the one under ns-3's
 * Internet stack and the hairpin RESUME regression, which plays the switch
 * through the port's dequeue callback.  Expected times are worked out by hand
 * in the comments, from the Ethernet rules the devices model:
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

#include "pfc-device-test-util.h"
#include "pfc-test-util.h"

#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-scheduler.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

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

/**
 * \ingroup tagger-tests
 * The DSCP -> class map of a port: the default (class = DSCP / 8, the
 * attribute documentation's rule, computed here by hand for each DSCP),
 * one DSCP changed and changed back, and a whole map of one's own (class =
 * 7 - DSCP / 8) and back.  The port answers the default map without reading
 * its table; this checks that a change is seen and a return to the default
 * gives the default again.
 */
class PfcDscpMapTestCase : public TestCase
{
  public:
    PfcDscpMapTestCase()
        : TestCase("PfcNetDevice: the DSCP map, default, changed and restored")
    {
    }

  private:
    /// \param dev the port \param expect class of each DSCP \param what the step
    void Check(Ptr<PfcNetDevice> dev, const std::array<uint8_t, 64>& expect, const char* what)
    {
        for (uint8_t d = 0; d < 64; ++d)
        {
            NS_TEST_ASSERT_MSG_EQ(+dev->GetClassOfDscp(d), +expect[d], what << ": DSCP " << +d);
        }
    }

    void DoRun() override
    {
        Ptr<PfcNetDevice> dev = CreateObject<PfcNetDevice>();
        std::array<uint8_t, 64> expect;
        for (uint8_t d = 0; d < 64; ++d)
        {
            expect[d] = d / 8;
        }
        Check(dev, expect, "default");
        dev->SetDscpClass(26, 6); // AF31: default class 3
        expect[26] = 6;
        Check(dev, expect, "DSCP 26 to class 6");
        dev->SetDscpClass(26, 3);
        expect[26] = 3;
        Check(dev, expect, "DSCP 26 back to class 3");
        for (uint8_t d = 0; d < 64; ++d)
        {
            dev->SetDscpClass(d, uint8_t(7 - d / 8));
            expect[d] = uint8_t(7 - d / 8);
        }
        Check(dev, expect, "reversed map");
        for (uint8_t d = 0; d < 64; ++d)
        {
            dev->SetDscpClass(d, uint8_t(d / 8));
            expect[d] = uint8_t(d / 8);
            // Half-way back the map is still not the default.
            if (d == 31)
            {
                Check(dev, expect, "half-way back");
            }
        }
        Check(dev, expect, "back to the default");
        Simulator::Destroy();
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-pfc-device": PfcNetDevice, PfcChannel, the PFC and
 * 802.1Q headers, the egress schedulers and the port queues (PfcFifo).
 */
class TaggerPfcDeviceTestSuite : public TestSuite
{
  public:
    TaggerPfcDeviceTestSuite()
        : TestSuite("tagger-pfc-device", Type::UNIT)
    {
        AddTestCase(new PfcFrameTimingTestCase);
        AddTestCase(new PfcFrameBytesTestCase);
        for (TestCase* tc : MakePfcDevicePauseTestCases())
        {
            AddTestCase(tc);
        }
        AddTestCase(new PfcAheadOfDataTestCase);
        AddTestCase(new PfcSchedulerTestCase);
        AddTestCase(new PfcDscpMapTestCase);
        for (TestCase* tc : MakePfcDeviceLinkTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakePfcHeaderTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakePfcSchedulerTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakePfcFifoTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakePfcBlockPoolTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakePfcFlaggedTraceTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakeTaggerWheelSchedulerTestCases())
        {
            AddTestCase(tc);
        }
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerPfcDeviceTestSuite g_taggerPfcDeviceTestSuite;
