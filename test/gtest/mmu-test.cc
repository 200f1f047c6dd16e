/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of ns3::SwitchMmu, the PFC switch buffer of the PFC buffer background (Section II-B/C)
 * with the headroom formulas of the PFC buffer background (Eq. 1) and the TTL scheme (Eq. 14).
 *
 * Every expected number is worked out by hand in the comment next to it.  The
 * small configuration used by most tests ("Small") is:
 *   2 ports, LosslessClasses 0x02 (only class 1 lossless), PrivateBytes phi =
 *   3000, fixed Headroom eta = 6000, LossyPoolSize 10000, BufferSize 48000:
 *   Bs = (48000 - 10000) - 1 class * 2 ports * (3000 + 6000) = 38000 - 18000 = 20000.
 * HeadroomCheck: tests where T(t) does not shrink under an OFF queue run in both modes
 * with the same expected values; MmuHeadroomCheck shows where they part, MmuResume
 * that a queue turns ON only with an empty headroom.
 */

#include "switch-mmu.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <deque>
#include <gtest/gtest.h>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The Small configuration of the file comment, with DT Alpha and XonOffset given.
Ptr<SwitchMmu>
Small(double alpha = 0.5, uint64_t xonOffset = 1000, uint64_t bufferSize = 48000)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(bufferSize));
    mmu->SetAttribute("LossyPoolSize", UintegerValue(10000));
    mmu->SetAttribute("PrivateBytes", UintegerValue(3000));
    mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
    mmu->SetAttribute("Headroom", UintegerValue(6000));
    mmu->SetAttribute("LosslessClasses", UintegerValue(0x02));
    mmu->SetAttribute("Alpha", DoubleValue(alpha));
    mmu->SetAttribute("XonOffset", UintegerValue(xonOffset));
    return mmu;
}

/// Counts of every trace source of one MMU.
struct TraceLog
{
    uint64_t pauses = 0;               //!< Pause events
    uint64_t resumes = 0;              //!< Resume events
    uint64_t losslessDrops = 0;        //!< Drop events, LOSSLESS_OVERFLOW
    uint64_t lossyDrops = 0;           //!< Drop events, LOSSY_OVERFLOW
    uint64_t ingressEvents = 0;        //!< IngressOccupancy events
    uint64_t lossyEvents = 0;          //!< LossyOccupancy events
    std::vector<uint64_t> lastIngress; //!< last IngressOccupancy value, [port * 8 + cls]
    std::vector<uint64_t> lastLossy;   //!< last LossyOccupancy value, [port * 8 + cls]
    uint32_t lastPort = 99;            //!< port of the last Pause/Resume/Drop
    uint8_t lastCls = 99;              //!< class of the last Pause/Resume/Drop
    uint32_t lastDropBytes = 0;        //!< bytes of the last Drop

    /// Connect to every trace source of \p mmu (\p nPorts ports).
    void Connect(Ptr<SwitchMmu> mmu, uint32_t nPorts)
    {
        lastIngress.assign(nPorts * 8, 0);
        lastLossy.assign(nPorts * 8, 0);
        ASSERT_TRUE(mmu->TraceConnectWithoutContext(
            "Pause",
            Callback<void, uint32_t, uint8_t>([this](uint32_t port, uint8_t cls) {
                ++pauses;
                lastPort = port;
                lastCls = cls;
            })));
        ASSERT_TRUE(mmu->TraceConnectWithoutContext(
            "Resume",
            Callback<void, uint32_t, uint8_t>([this](uint32_t port, uint8_t cls) {
                ++resumes;
                lastPort = port;
                lastCls = cls;
            })));
        ASSERT_TRUE(mmu->TraceConnectWithoutContext(
            "Drop",
            Callback<void, uint32_t, uint8_t, uint32_t, PfcDropReason>(
                [this](uint32_t port, uint8_t cls, uint32_t bytes, PfcDropReason reason) {
                    (reason == PfcDropReason::LOSSLESS_OVERFLOW ? losslessDrops : lossyDrops)++;
                    lastPort = port;
                    lastCls = cls;
                    lastDropBytes = bytes;
                })));
        ASSERT_TRUE(
            mmu->TraceConnectWithoutContext("IngressOccupancy",
                                            Callback<void, uint32_t, uint8_t, uint64_t>(
                                                [this](uint32_t port, uint8_t cls, uint64_t bytes) {
                                                    ++ingressEvents;
                                                    lastIngress[port * 8 + cls] = bytes;
                                                })));
        ASSERT_TRUE(
            mmu->TraceConnectWithoutContext("LossyOccupancy",
                                            Callback<void, uint32_t, uint8_t, uint64_t>(
                                                [this](uint32_t port, uint8_t cls, uint64_t bytes) {
                                                    ++lossyEvents;
                                                    lastLossy[port * 8 + cls] = bytes;
                                                })));
    }
};

/// Expected state of queue (port, class 1) after one step.
struct Step
{
    MmuSegment segment; //!< where the arrival went (ignored for releases)
    uint64_t priv;      //!< private bytes
    uint64_t shared;    //!< w
    uint64_t headroom;  //!< headroom bytes
    uint64_t t;         //!< T(t) after the step
    uint64_t xon;       //!< Xon after the step
    bool pause;         //!< PAUSE decided by this step
    bool resume;        //!< RESUME decided by this step
    bool off;           //!< queue OFF after the step
};

/// Check the state of queue (port, 1) of \p mmu against \p s; \p i names the step.
void
ExpectState(Ptr<SwitchMmu> mmu, uint32_t port, const Step& s, const std::string& what)
{
    SCOPED_TRACE(what);
    EXPECT_EQ(mmu->GetPrivateBytes(port, 1), s.priv);
    EXPECT_EQ(mmu->GetSharedBytes(port, 1), s.shared);
    EXPECT_EQ(mmu->GetHeadroomBytes(port, 1), s.headroom);
    EXPECT_EQ(mmu->GetIngressBytes(port, 1), s.priv + s.shared + s.headroom);
    EXPECT_EQ(mmu->GetDynamicThreshold(), s.t);
    EXPECT_EQ(mmu->GetXon(), s.xon);
    EXPECT_EQ(mmu->IsOff(port, 1), s.off);
}

/// Admit a 1000 B packet at (port, 1) and check the decision and state.
void
AdmitAndCheck(Ptr<SwitchMmu> mmu, uint32_t port, const Step& s, const std::string& what)
{
    SCOPED_TRACE(what);
    SwitchMmu::Admission a = mmu->AdmitLossless(port, 1, 1000);
    EXPECT_EQ(static_cast<int>(a.segment), static_cast<int>(s.segment));
    EXPECT_EQ(a.pause, s.pause);
    EXPECT_EQ(a.resume, s.resume);
    ExpectState(mmu, port, s, what);
}

/// Release a 1000 B packet at (port, 1) and check the decision and state.
void
ReleaseAndCheck(Ptr<SwitchMmu> mmu, uint32_t port, const Step& s, const std::string& what)
{
    SCOPED_TRACE(what);
    EXPECT_EQ(mmu->ReleaseLossless(port, 1, 1000), s.resume);
    ExpectState(mmu, port, s, what);
}

/**
 * The two HeadroomCheck modes (attribute names).  Tests in which T(t) does not
 * shrink while a queue is OFF run in both: the two readings of case 3 must agree.
 */
const char* const kChecks[] = {"Occupancy", "QueueLength"};

constexpr MmuSegment P = MmuSegment::PRIVATE;
constexpr MmuSegment S = MmuSegment::SHARED;
constexpr MmuSegment H = MmuSegment::HEADROOM;
constexpr MmuSegment D = MmuSegment::DROPPED;

} // namespace

// ---------------------------------------------------------------------------
// Attributes and headroom formulas
// ---------------------------------------------------------------------------

TEST(MmuAttributes, DefaultsAndNames)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    UintegerValue u;
    DoubleValue d;
    EnumValue e;
    mmu->GetAttribute("BufferSize", u);
    EXPECT_EQ(u.Get(), 12582912U); // 12 * 1024 * 1024
    mmu->GetAttribute("LossyPoolSize", u);
    EXPECT_EQ(u.Get(), 3145728U); // 3 * 1024 * 1024
    mmu->GetAttribute("PrivateBytes", u);
    EXPECT_EQ(u.Get(), 3072U);
    mmu->GetAttribute("StaticXoff", u);
    EXPECT_EQ(u.Get(), 65536U);
    mmu->GetAttribute("StaticXon", u);
    EXPECT_EQ(u.Get(), 32768U);
    mmu->GetAttribute("XonOffset", u);
    EXPECT_EQ(u.Get(), 3072U);
    mmu->GetAttribute("Headroom", u);
    EXPECT_EQ(u.Get(), 0U);
    mmu->GetAttribute("LosslessClasses", u);
    EXPECT_EQ(u.Get(), 0xFEU);
    mmu->GetAttribute("Alpha", d);
    EXPECT_DOUBLE_EQ(d.Get(), 0.125);
    mmu->GetAttribute("LossyAlpha", d);
    EXPECT_DOUBLE_EQ(d.Get(), 1.0);
    mmu->GetAttribute("ThresholdMode", e);
    EXPECT_EQ(e.Get(), SwitchMmu::DYNAMIC);
    mmu->GetAttribute("HeadroomMode", e);
    EXPECT_EQ(e.Get(), SwitchMmu::HEADROOM_FIXED_RESPONSE);
    mmu->GetAttribute("HeadroomCheck", e);
    EXPECT_EQ(e.Get(), SwitchMmu::HEADROOM_OCCUPANCY);

    // The enum names.
    mmu->SetAttribute("ThresholdMode", StringValue("Static"));
    mmu->GetAttribute("ThresholdMode", e);
    EXPECT_EQ(e.Get(), SwitchMmu::STATIC);
    mmu->SetAttribute("HeadroomMode", StringValue("WireProcessing"));
    mmu->GetAttribute("HeadroomMode", e);
    EXPECT_EQ(e.Get(), SwitchMmu::HEADROOM_WIRE_PROCESSING);
    mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
    mmu->GetAttribute("HeadroomMode", e);
    EXPECT_EQ(e.Get(), SwitchMmu::HEADROOM_FIXED);
    mmu->SetAttribute("HeadroomMode", StringValue("FixedResponse"));
    mmu->GetAttribute("HeadroomMode", e);
    EXPECT_EQ(e.Get(), SwitchMmu::HEADROOM_FIXED_RESPONSE);
    mmu->SetAttribute("HeadroomCheck", StringValue("QueueLength"));
    mmu->GetAttribute("HeadroomCheck", e);
    EXPECT_EQ(e.Get(), SwitchMmu::QUEUE_LENGTH);
    mmu->SetAttribute("HeadroomCheck", StringValue("Occupancy"));
    mmu->GetAttribute("HeadroomCheck", e);
    EXPECT_EQ(e.Get(), SwitchMmu::HEADROOM_OCCUPANCY);

    // Default LosslessClasses 0xFE: class 0 lossy, 1..7 lossless, 8 is no class.
    EXPECT_FALSE(mmu->IsLossless(0));
    for (uint8_t cls = 1; cls < 8; ++cls)
    {
        EXPECT_TRUE(mmu->IsLossless(cls)) << +cls;
    }
    EXPECT_FALSE(mmu->IsLossless(8));
}

TEST(MmuHeadroom, PaperValuesAt40G)
{
    // The PFC buffer background: C * Dprop = 40e9 b/s * 1.5e-6 s = 60,000 b = 7,500 B;
    // eta = 2 (7,500 + 1,500) + 3,840 = 18,000 + 3,840 = 21,840 B.
    EXPECT_EQ(SwitchMmu::HeadroomFixedResponse(DataRate("40Gbps"), NanoSeconds(1500), 1500),
              21840U);
    // The TTL scheme: r * t_pro = 40e9 * 768e-9 = 30,720 b = 3,840 B (60 quanta of 512 b);
    // b_hr = 2 (1,500 + 64 + 7,500) + 3,840 = 18,128 + 3,840 = 21,968 B.
    EXPECT_EQ(SwitchMmu::HeadroomWireProcessing(DataRate("40Gbps"),
                                                NanoSeconds(1500),
                                                1500,
                                                64,
                                                NanoSeconds(768)),
              21968U);
}

TEST(MmuHeadroom, HandComputedCases)
{
    // 100 Gbps, 100 m at 5 ns/m: Dprop = 500 ns; C * Dprop = 1e11 * 5e-7 = 50,000 b
    // = 6,250 B. FixedResponse: 2 (6,250 + 1,500) + 3,840 = 15,500 + 3,840 = 19,340 B.
    EXPECT_EQ(SwitchMmu::HeadroomFixedResponse(DataRate("100Gbps"), NanoSeconds(500), 1500),
              19340U);
    // WireProcessing with t_pro = 400 ns: r * t_pro = 1e11 * 4e-7 = 40,000 b = 5,000 B;
    // 2 (1,500 + 64 + 6,250) + 5,000 = 15,628 + 5,000 = 20,628 B.
    EXPECT_EQ(SwitchMmu::HeadroomWireProcessing(DataRate("100Gbps"),
                                                NanoSeconds(500),
                                                1500,
                                                64,
                                                NanoSeconds(400)),
              20628U);
    // Rounding up: 10 Gbps * 1 ns = 10 b = 1.25 B -> 2 B;
    // FixedResponse: 2 (2 + 1,500) + 3,840 = 3,004 + 3,840 = 6,844 B.
    EXPECT_EQ(SwitchMmu::HeadroomFixedResponse(DataRate("10Gbps"), NanoSeconds(1), 1500), 6844U);
    // 002: r t_wire = 2 B as above, r t_pro = 10 Gbps * 3 ns = 30 b = 3.75 B -> 4 B;
    // 2 (1,500 + 64 + 2) + 4 = 3,132 + 4 = 3,136 B.
    EXPECT_EQ(SwitchMmu::HeadroomWireProcessing(DataRate("10Gbps"),
                                                NanoSeconds(1),
                                                1500,
                                                64,
                                                NanoSeconds(3)),
              3136U);
    // A product beyond 64 bits in bit-femtoseconds: 400 Gbps * 10 ms = 4e9 b = 5e8 B;
    // 2 (500,000,000 + 1,500) + 3,840 = 1,000,003,000 + 3,840 = 1,000,006,840 B.
    EXPECT_EQ(SwitchMmu::HeadroomFixedResponse(DataRate("400Gbps"), MilliSeconds(10), 1500),
              1000006840ULL);
    // Zero delay: 2 * 1,500 + 3,840 = 6,840 B.
    EXPECT_EQ(SwitchMmu::HeadroomFixedResponse(DataRate("40Gbps"), Seconds(0), 1500), 6840U);
}

TEST(MmuSetup, PerPortHeadroomAndSharedPool)
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>(); // defaults: 7 lossless classes, phi 3072
    // SetPortLink before Setup, in any order.
    mmu->SetPortLink(1, DataRate("100Gbps"), NanoSeconds(500), 1500, NanoSeconds(400));
    mmu->SetPortLink(0, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
    mmu->Setup(2);
    // FixedResponse: eta_0 = 21,840, eta_1 = 19,340 (MmuHeadroom tests).
    EXPECT_EQ(mmu->GetHeadroomSize(0), 21840U);
    EXPECT_EQ(mmu->GetHeadroomSize(1), 19340U);
    EXPECT_EQ(mmu->GetPrivateSize(), 3072U);
    EXPECT_EQ(mmu->GetLossyPoolSize(), 3145728U);
    // Lossless pool 12,582,912 - 3,145,728 = 9,437,184; reserved 7 classes *
    // (2 * 3,072 + 21,840 + 19,340) = 7 * (6,144 + 41,180) = 7 * 47,324 = 331,268;
    // Bs = 9,437,184 - 331,268 = 9,105,916.
    EXPECT_EQ(mmu->GetSharedPoolSize(), 9105916U);
    // T = 0.125 * 9,105,916 = 1,138,239.5 -> 1,138,239; Xon = 1,138,239 - 3,072 = 1,135,167.
    EXPECT_EQ(mmu->GetDynamicThreshold(), 1138239U);
    EXPECT_EQ(mmu->GetXon(), 1135167U);

    // WireProcessing, Setup again: eta_0 = 21,968, eta_1 = 20,628; reserved 7 * (6,144 + 42,596)
    // = 7 * 48,740 = 341,180; Bs = 9,437,184 - 341,180 = 9,096,004.
    mmu->SetAttribute("HeadroomMode", StringValue("WireProcessing"));
    mmu->Setup(2);
    EXPECT_EQ(mmu->GetHeadroomSize(0), 21968U);
    EXPECT_EQ(mmu->GetHeadroomSize(1), 20628U);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 9096004U);

    // Port 1 relinked at 40 Gbps, 1.5 us, t_pro 768 ns: eta_1 = 21,968; reserved
    // 7 * (6,144 + 43,936) = 7 * 50,080 = 350,560; Bs = 9,437,184 - 350,560 = 9,086,624.
    mmu->SetPortLink(1, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
    mmu->Setup(2);
    EXPECT_EQ(mmu->GetHeadroomSize(1), 21968U);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 9086624U);

    // Fixed 30,000 B on both ports: reserved 7 * (6,144 + 60,000) = 463,008;
    // Bs = 9,437,184 - 463,008 = 8,974,176.
    mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
    mmu->SetAttribute("Headroom", UintegerValue(30000));
    mmu->Setup(2);
    EXPECT_EQ(mmu->GetHeadroomSize(0), 30000U);
    EXPECT_EQ(mmu->GetHeadroomSize(1), 30000U);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 8974176U);
}

TEST(MmuSetup, SmallConfiguration)
{
    Ptr<SwitchMmu> mmu = Small();
    mmu->Setup(2);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 20000U); // file comment
    EXPECT_EQ(mmu->GetHeadroomSize(0), 6000U);
    EXPECT_EQ(mmu->GetHeadroomSize(1), 6000U);
    // T = 0.5 * 20,000 = 10,000; Xon = 10,000 - 1,000 = 9,000.
    EXPECT_EQ(mmu->GetDynamicThreshold(), 10000U);
    EXPECT_EQ(mmu->GetXon(), 9000U);
    // Bs = 1 is still legal: BufferSize 28,001 -> 18,001 - 18,000 = 1.
    Ptr<SwitchMmu> tight = Small(0.5, 1000, 28001);
    tight->Setup(2);
    EXPECT_EQ(tight->GetSharedPoolSize(), 1U);
}

TEST(MmuSetup, FixedHeadroomBelowLinkNeedWarns)
{
    Ptr<SwitchMmu> mmu = Small(); // fixed eta 6,000
    // Port 1 at 40 Gbps, 1.5 us, 1500 B needs 21,840 B (FixedResponse); port 0 has no link.
    mmu->SetPortLink(1, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
    std::ostringstream captured;
    std::streambuf* old = std::clog.rdbuf(captured.rdbuf());
    LogComponentEnable("SwitchMmu", LOG_LEVEL_WARN);
    mmu->Setup(2);
    LogComponentDisable("SwitchMmu", LOG_LEVEL_ALL);
    std::clog.rdbuf(old);
    const std::string text = captured.str();
    EXPECT_NE(text.find("port 1"), std::string::npos) << text;
    EXPECT_NE(text.find("6000"), std::string::npos) << text;
    EXPECT_NE(text.find("21840"), std::string::npos) << text;
    EXPECT_EQ(text.find("port 0"), std::string::npos) << text;
    EXPECT_EQ(mmu->GetHeadroomSize(1), 6000U); // the fixed value is still used
}

// ---------------------------------------------------------------------------
// The four cases, one queue (Small, Alpha 0.5, XonOffset 1000)
// ---------------------------------------------------------------------------

TEST(MmuFourCases, FillDrainOneQueue)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        TraceLog log;
        log.Connect(mmu, 2);

        // Packets of 1000 B into (0, 1); q before arrival k is 1000 (k - 1); phi = 3000,
        // eta = 6000; T before arrival k = 0.5 (20,000 - w), Xon = T - 1000.
        const std::vector<Step> fill = {
            // k1..3: q = 0, 1000, 2000 < phi: private; T stays 0.5 * 20,000 = 10,000.
            {P, 1000, 0, 0, 10000, 9000, false, false, false},
            {P, 2000, 0, 0, 10000, 9000, false, false, false},
            {P, 3000, 0, 0, 10000, 9000, false, false, false},
            // k4: q 3000 < 3000 + 10,000: shared, w 1000; T after 0.5 * 19,000 = 9,500.
            {S, 3000, 1000, 0, 9500, 8500, false, false, false},
            // k5: q 4000 < 3000 + 9,500: shared, w 2000; T 0.5 * 18,000 = 9,000.
            {S, 3000, 2000, 0, 9000, 8000, false, false, false},
            // k6: q 5000 < 12,000; w 3000; T 8,500.
            {S, 3000, 3000, 0, 8500, 7500, false, false, false},
            // k7: q 6000 < 11,500; w 4000; T 8,000.
            {S, 3000, 4000, 0, 8000, 7000, false, false, false},
            // k8: q 7000 < 11,000; w 5000; T 7,500.
            {S, 3000, 5000, 0, 7500, 6500, false, false, false},
            // k9: q 8000 < 10,500; w 6000; T 7,000.
            {S, 3000, 6000, 0, 7000, 6000, false, false, false},
            // k10: q 9000 < 10,000; w 7000; T 6,500.
            {S, 3000, 7000, 0, 6500, 5500, false, false, false},
            // k11: q 10,000 >= 3000 + 6,500 = 9,500; QueueLength: q < 9,500 + 6,000 =
            // 15,500; Occupancy: h 0 < eta 6000: headroom, the queue was ON: PAUSE.
            // T unchanged (w unchanged), so the two checks agree from here on.
            {H, 3000, 7000, 1000, 6500, 5500, true, false, true},
            // k12..16: q 11,000 .. 15,000 < 15,500 and h 1000 .. 5000 < 6000:
            // headroom, already OFF: no PAUSE.
            {H, 3000, 7000, 2000, 6500, 5500, false, false, true},
            {H, 3000, 7000, 3000, 6500, 5500, false, false, true},
            {H, 3000, 7000, 4000, 6500, 5500, false, false, true},
            {H, 3000, 7000, 5000, 6500, 5500, false, false, true},
            {H, 3000, 7000, 6000, 6500, 5500, false, false, true},
            // k17: q 16,000 >= 15,500 and h 6000 = eta: dropped, nothing changes.
            {D, 3000, 7000, 6000, 6500, 5500, false, false, true},
        };
        for (size_t k = 0; k < fill.size(); ++k)
        {
            AdmitAndCheck(mmu, 0, fill[k], "arrival " + std::to_string(k + 1));
        }
        EXPECT_EQ(mmu->GetPauseCount(), 1U);
        EXPECT_EQ(log.pauses, 1U);
        EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW), 1U);
        EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), 0U);
        EXPECT_EQ(log.losslessDrops, 1U);
        EXPECT_EQ(log.lastPort, 0U);
        EXPECT_EQ(log.lastCls, 1U);
        EXPECT_EQ(log.lastDropBytes, 1000U);
        EXPECT_EQ(mmu->GetSharedUsed(), 7000U);
        EXPECT_EQ(mmu->GetLosslessUsed(), 16000U); // 16 admitted packets
        EXPECT_EQ(log.ingressEvents, 16U);         // no event for the drop
        EXPECT_EQ(log.lastIngress[0 * 8 + 1], 16000U);
        // The other port is untouched.
        EXPECT_EQ(mmu->GetIngressBytes(1, 1), 0U);
        EXPECT_FALSE(mmu->IsOff(1, 1));

        // Release 1000 B at a time: headroom first, then shared, then private.  Xon after
        // each release = 0.5 (20,000 - w) - 1000.
        const std::vector<Step> drain = {
            // r1..6: headroom 5000 .. 0, w 7000 >= Xon 5,500: stays OFF.
            {P, 3000, 7000, 5000, 6500, 5500, false, false, true},
            {P, 3000, 7000, 4000, 6500, 5500, false, false, true},
            {P, 3000, 7000, 3000, 6500, 5500, false, false, true},
            {P, 3000, 7000, 2000, 6500, 5500, false, false, true},
            {P, 3000, 7000, 1000, 6500, 5500, false, false, true},
            {P, 3000, 7000, 0, 6500, 5500, false, false, true},
            // r7: w 6000, T 0.5 * 14,000 = 7,000, Xon 6,000: w = Xon, not below: OFF.
            {P, 3000, 6000, 0, 7000, 6000, false, false, true},
            // r8: w 5000, T 7,500, Xon 6,500: w < Xon: RESUME, ON.
            {P, 3000, 5000, 0, 7500, 6500, false, true, false},
            // r9..13: w 4000 .. 0, ON: nothing.
            {P, 3000, 4000, 0, 8000, 7000, false, false, false},
            {P, 3000, 3000, 0, 8500, 7500, false, false, false},
            {P, 3000, 2000, 0, 9000, 8000, false, false, false},
            {P, 3000, 1000, 0, 9500, 8500, false, false, false},
            {P, 3000, 0, 0, 10000, 9000, false, false, false},
            // r14..16: private 2000 .. 0.
            {P, 2000, 0, 0, 10000, 9000, false, false, false},
            {P, 1000, 0, 0, 10000, 9000, false, false, false},
            {P, 0, 0, 0, 10000, 9000, false, false, false},
        };
        for (size_t r = 0; r < drain.size(); ++r)
        {
            ReleaseAndCheck(mmu, 0, drain[r], "release " + std::to_string(r + 1));
        }
        EXPECT_EQ(mmu->GetResumeCount(), 1U);
        EXPECT_EQ(log.resumes, 1U);
        EXPECT_EQ(mmu->GetSharedUsed(), 0U);
        EXPECT_EQ(mmu->GetLosslessUsed(), 0U);
        EXPECT_EQ(log.ingressEvents, 32U);
        EXPECT_EQ(log.lastIngress[0 * 8 + 1], 0U);
    }
}

TEST(MmuFourCases, ReleaseSpansSegments)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        // 11 packets of 1000 B: private 3000, w 7000, headroom 1000 (FillDrainOneQueue k11).
        for (int k = 0; k < 11; ++k)
        {
            mmu->AdmitLossless(0, 1, 1000);
        }
        ASSERT_EQ(mmu->GetHeadroomBytes(0, 1), 1000U);
        // Releasing 2500 B takes the 1000 B of headroom, then 1500 B of shared: w 5500.
        // T = 0.5 (20,000 - 5,500) = 7,250, Xon 6,250 > 5,500: RESUME.
        EXPECT_TRUE(mmu->ReleaseLossless(0, 1, 2500));
        EXPECT_EQ(mmu->GetHeadroomBytes(0, 1), 0U);
        EXPECT_EQ(mmu->GetSharedBytes(0, 1), 5500U);
        EXPECT_EQ(mmu->GetPrivateBytes(0, 1), 3000U);
        EXPECT_EQ(mmu->GetSharedUsed(), 5500U);
        // Releasing 6000 B: 5500 shared, then 500 private.
        EXPECT_FALSE(mmu->ReleaseLossless(0, 1, 6000));
        EXPECT_EQ(mmu->GetSharedBytes(0, 1), 0U);
        EXPECT_EQ(mmu->GetPrivateBytes(0, 1), 2500U);
        EXPECT_EQ(mmu->GetLosslessUsed(), 2500U);
        // A whole packet goes to one segment: q 2500 < phi 3000, a 1500 B packet is all
        // private (private 4000 > phi); the next one, q 4000 >= phi, is shared.
        EXPECT_EQ(mmu->AdmitLossless(0, 1, 1500).segment, MmuSegment::PRIVATE);
        EXPECT_EQ(mmu->GetPrivateBytes(0, 1), 4000U);
        EXPECT_EQ(mmu->AdmitLossless(0, 1, 1500).segment, MmuSegment::SHARED);
        EXPECT_EQ(mmu->GetSharedBytes(0, 1), 1500U);
    }
}

// ---------------------------------------------------------------------------
// Dynamic Threshold with two queues
// ---------------------------------------------------------------------------

namespace
{

/**
 * Small (Alpha 0.5, XonOffset 1000).  Queue B = (1, 1) takes 9 packets of 1000 B:
 * private 3000, w_B 6000 (as FillDrainOneQueue k1..9).  Then queue A = (0, 1)
 * takes 9 packets; its T shrinks with B's occupancy.  Returns with A OFF.
 */
void
FillTwoQueues(Ptr<SwitchMmu> mmu)
{
    for (int k = 0; k < 9; ++k)
    {
        mmu->AdmitLossless(1, 1, 1000);
    }
    ASSERT_EQ(mmu->GetSharedBytes(1, 1), 6000U);
    // T = 0.5 (20,000 - 6,000) = 7,000 for every queue now.
    ASSERT_EQ(mmu->GetDynamicThreshold(), 7000U);

    const std::vector<Step> a = {
        {P, 1000, 0, 0, 7000, 6000, false, false, false},
        {P, 2000, 0, 0, 7000, 6000, false, false, false},
        {P, 3000, 0, 0, 7000, 6000, false, false, false},
        // A4: q 3000 < 3000 + 7,000: shared; sum w 7000, T 0.5 * 13,000 = 6,500.
        {S, 3000, 1000, 0, 6500, 5500, false, false, false},
        // A5: q 4000 < 9,500; sum w 8000, T 6,000.
        {S, 3000, 2000, 0, 6000, 5000, false, false, false},
        // A6: q 5000 < 9,000; sum w 9000, T 5,500.
        {S, 3000, 3000, 0, 5500, 4500, false, false, false},
        // A7: q 6000 < 8,500; sum w 10,000, T 5,000.
        {S, 3000, 4000, 0, 5000, 4000, false, false, false},
        // A8: q 7000 < 8,000; sum w 11,000, T 4,500.
        {S, 3000, 5000, 0, 4500, 3500, false, false, false},
        // A9: q 8000 >= 3000 + 4,500 = 7,500: headroom + PAUSE.  Alone, A would have
        // had T = 7,500 here and taken this packet into the shared buffer.
        {H, 3000, 5000, 1000, 4500, 3500, true, false, true},
    };
    for (size_t k = 0; k < a.size(); ++k)
    {
        AdmitAndCheck(mmu, 0, a[k], "A arrival " + std::to_string(k + 1));
    }
    // A releases its headroom: q 8000, w 5000 >= Xon 3,500: still OFF.
    ReleaseAndCheck(mmu, 0, {P, 3000, 5000, 0, 4500, 3500, false, false, true}, "A release");
}

} // namespace

TEST(MmuDynamicThreshold, ShrinksWithOtherQueues)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        FillTwoQueues(mmu);
        EXPECT_EQ(mmu->GetSharedUsed(), 11000U); // 5000 (A) + 6000 (B)
        EXPECT_EQ(mmu->GetPauseCount(), 1U);
        EXPECT_FALSE(mmu->IsOff(1, 1));
    }
}

TEST(MmuDynamicThreshold, ArrivalSideResume)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        FillTwoQueues(mmu);
        // B releases shared bytes; T and Xon grow, A (no event of its own) stays OFF.
        // After j releases: sum w = 11,000 - 1000 j, T = 0.5 (9,000 + 1000 j), Xon = T - 1000.
        const uint64_t t[] = {5000, 5500, 6000, 6500};
        for (int j = 1; j <= 4; ++j)
        {
            EXPECT_FALSE(mmu->ReleaseLossless(1, 1, 1000)) << j; // B is ON
            EXPECT_EQ(mmu->GetDynamicThreshold(), t[j - 1]) << j;
            EXPECT_EQ(mmu->GetXon(), t[j - 1] - 1000) << j;
            EXPECT_TRUE(mmu->IsOff(0, 1)) << j;
        }
        // Now w_A 5000 < Xon 5,500.  A arrival: q 8000 < 3000 + 6,500: shared (case 2),
        // OFF and w < Xon: RESUME on arrival; w_A 6000.
        SwitchMmu::Admission adm = mmu->AdmitLossless(0, 1, 1000);
        EXPECT_EQ(adm.segment, MmuSegment::SHARED);
        EXPECT_FALSE(adm.pause);
        EXPECT_TRUE(adm.resume);
        EXPECT_FALSE(mmu->IsOff(0, 1));
        EXPECT_EQ(mmu->GetSharedBytes(0, 1), 6000U);
        EXPECT_EQ(mmu->GetResumeCount(), 1U);
    }
}

TEST(MmuDynamicThreshold, NoArrivalResumeAtXon)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        FillTwoQueues(mmu);
        // Three B releases: T 6,000, Xon 5,000 = w_A (above).
        for (int j = 0; j < 3; ++j)
        {
            mmu->ReleaseLossless(1, 1, 1000);
        }
        ASSERT_EQ(mmu->GetXon(), 5000U);
        // A arrival: q 8000 < 3000 + 6,000: shared; w_A 5000 is not below Xon: stays OFF.
        SwitchMmu::Admission adm = mmu->AdmitLossless(0, 1, 1000);
        EXPECT_EQ(adm.segment, MmuSegment::SHARED);
        EXPECT_FALSE(adm.resume);
        EXPECT_TRUE(mmu->IsOff(0, 1));
        EXPECT_EQ(mmu->GetResumeCount(), 0U);
    }
}

TEST(MmuDynamicThreshold, ClampsAtZero)
{
    // Alpha 4, packets of 4000 B into A = (0, 1); T before each arrival = 4 (20,000 - w):
    //  a1: q 0 < phi 3000: private 4000;
    //  a2: q 4000 < 3000 + 4 * 20,000 = 83,000: shared, w 4000;
    //  a3: q 8000 < 3000 + 4 * 16,000 = 67,000: shared, w 8000;
    //  a4: q 12,000 < 3000 + 4 * 12,000 = 51,000: shared, w 12,000;
    //  a5: q 16,000 < 3000 + 4 * 8,000 = 35,000: shared, w 16,000; T = 4 * 4,000 = 16,000;
    //  a6: q 20,000 >= 3000 + 16,000 = 19,000; q < 25,000 (QueueLength) and h 0 < 6000
    //      (Occupancy): headroom, PAUSE.
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        const bool literal = std::string(check) == "QueueLength";
        Ptr<SwitchMmu> mmu = Small(4.0, 1000);
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        for (int k = 0; k < 5; ++k)
        {
            mmu->AdmitLossless(0, 1, 4000);
        }
        EXPECT_EQ(mmu->GetPrivateBytes(0, 1), 4000U);
        EXPECT_EQ(mmu->GetSharedBytes(0, 1), 16000U);
        EXPECT_EQ(mmu->GetDynamicThreshold(), 16000U);
        EXPECT_TRUE(mmu->AdmitLossless(0, 1, 4000).pause);
        EXPECT_EQ(mmu->GetHeadroomBytes(0, 1), 4000U);
        // Queue B overshoots the pool: private 4000 (q 0), then q 4000 < 3000 + 16,000:
        // shared, sum w = 20,000 = Bs: T = 0, Xon = 0.  Another B packet, q 8000 >=
        // 3000 + 0; q 8000 < 3000 + 0 + 6000 = 9000 and h 0 < 6000: headroom (PAUSE).
        mmu->AdmitLossless(1, 1, 4000);
        EXPECT_EQ(mmu->AdmitLossless(1, 1, 4000).segment, S);
        EXPECT_EQ(mmu->GetSharedUsed(), 20000U);
        EXPECT_EQ(mmu->GetDynamicThreshold(), 0U);
        EXPECT_EQ(mmu->GetXon(), 0U);
        SwitchMmu::Admission adm = mmu->AdmitLossless(1, 1, 4000);
        EXPECT_EQ(adm.segment, H);
        EXPECT_TRUE(adm.pause);
        // 1000 B packets to B, q_B = 12,000, h_B = 4000 before the first:
        //  QueueLength: 12,000 < 3000 + 0 + 6000 = 9000? no: dropped (and every later one);
        //  Occupancy: h 4000 < 6000: headroom (h 5000); h 5000 < 6000: headroom (h 6000);
        //  h 6000 = eta: dropped.
        EXPECT_EQ(mmu->AdmitLossless(1, 1, 1000).segment, literal ? D : H);
        EXPECT_EQ(mmu->AdmitLossless(1, 1, 1000).segment, literal ? D : H);
        EXPECT_EQ(mmu->AdmitLossless(1, 1, 1000).segment, D);
        EXPECT_EQ(mmu->GetHeadroomBytes(1, 1), literal ? 4000U : 6000U);
        // A, OFF since a6, also lost T = 16,000 to B: q_A 24,000, h_A 4000; 1000 B:
        // QueueLength 24,000 < 3000 + 0 + 6000? no: dropped; Occupancy h 4000 < 6000:
        // headroom (h 5000).
        EXPECT_EQ(mmu->AdmitLossless(0, 1, 1000).segment, literal ? D : H);
        // Drops: QueueLength 3 (B) + 1 (A) = 4; Occupancy 1 (B's third).
        EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW), literal ? 4U : 1U);
        EXPECT_EQ(mmu->GetPauseCount(), 2U);
        EXPECT_EQ(mmu->GetResumeCount(), 0U);
    }
}

TEST(MmuDynamicThreshold, EmptiedOffQueueResumesWhenXonIsZero)
{
    // Alpha 0.5, XonOffset 20,000: Xon = max(T - 20,000, 0) = 0 always, so w < Xon
    // never holds; the queue turns ON when its last byte leaves.
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small(0.5, 20000);
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        for (int k = 0; k < 11; ++k) // as FillDrainOneQueue: PAUSE at k11
        {
            mmu->AdmitLossless(0, 1, 1000);
        }
        ASSERT_TRUE(mmu->IsOff(0, 1));
        ASSERT_EQ(mmu->GetXon(), 0U);
        for (int r = 0; r < 10; ++r) // 11,000 B -> 1000 B
        {
            EXPECT_FALSE(mmu->ReleaseLossless(0, 1, 1000)) << r;
        }
        EXPECT_TRUE(mmu->IsOff(0, 1));
        EXPECT_TRUE(mmu->ReleaseLossless(0, 1, 1000)); // empty now
        EXPECT_FALSE(mmu->IsOff(0, 1));
        EXPECT_EQ(mmu->GetResumeCount(), 1U);
    }
}

// ---------------------------------------------------------------------------
// HeadroomCheck and RESUME with a moving T(t) (Small, Alpha 0.5, XonOffset 1000)
// ---------------------------------------------------------------------------

TEST(MmuHeadroomCheck, ThresholdShrinksAfterPause)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        const bool literal = std::string(check) == "QueueLength";
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        TraceLog log;
        log.Connect(mmu, 2);

        // A = (0, 1) alone, 11 packets of 1000 B: as FillDrainOneQueue k1..11, PAUSE at
        // k11 (both checks agree: T stood still): private 3000, w_A 7000, h_A 1000,
        // T = 0.5 (20,000 - 7,000) = 6,500.
        for (int k = 1; k <= 11; ++k)
        {
            EXPECT_EQ(mmu->AdmitLossless(0, 1, 1000).pause, k == 11) << k;
        }
        ExpectState(mmu, 0, {H, 3000, 7000, 1000, 6500, 5500, false, false, true}, "A paused");

        // While the PAUSE travels upstream, B = (1, 1) fills the shared buffer; T before
        // B's arrival = 0.5 (20,000 - 7,000 - w_B):
        const std::vector<Step> b = {
            // B1..3: q_B 0, 1000, 2000 < phi: private; T stays 6,500.
            {P, 1000, 0, 0, 6500, 5500, false, false, false},
            {P, 2000, 0, 0, 6500, 5500, false, false, false},
            {P, 3000, 0, 0, 6500, 5500, false, false, false},
            // B4: q_B 3000 < 3000 + 6,500: shared; sum w 8000, T 0.5 * 12,000 = 6,000.
            {S, 3000, 1000, 0, 6000, 5000, false, false, false},
            // B5: q_B 4000 < 9,000; sum w 9000, T 5,500.
            {S, 3000, 2000, 0, 5500, 4500, false, false, false},
            // B6: q_B 5000 < 8,500; sum w 10,000, T 5,000.
            {S, 3000, 3000, 0, 5000, 4000, false, false, false},
            // B7: q_B 6000 < 8,000; sum w 11,000, T 4,500.
            {S, 3000, 4000, 0, 4500, 3500, false, false, false},
            // B8: q_B 7000 < 7,500; sum w 12,000, T 4,000.
            {S, 3000, 5000, 0, 4000, 3000, false, false, false},
        };
        for (size_t k = 0; k < b.size(); ++k)
        {
            AdmitAndCheck(mmu, 1, b[k], "B arrival " + std::to_string(k + 1));
        }

        // A's in-flight packets arrive with T = 4,000 (A's arrivals do not change w):
        // q_A >= phi + T = 7,000 always, so case 3 or 4.  QueueLength admits while
        // q_A < 3000 + 4,000 + 6,000 = 13,000; Occupancy while h_A < 6,000.
        //  k12: q 11,000 < 13,000, h 1000 < 6000: headroom in both (h 2000);
        //  k13: q 12,000 < 13,000, h 2000 < 6000: headroom in both (h 3000);
        //  k14: q 13,000 = 13,000: QueueLength drops, with 6000 - 3000 = 3000 B of the
        //       queue's reserved headroom unused; h 3000 < 6000: Occupancy admits (h 4000);
        //  k15, k16: QueueLength drops (q stays 13,000); Occupancy h 4000, 5000 < 6000:
        //       headroom (h 5000, 6000);
        //  k17: h 6000 = eta: both drop.
        std::vector<Step> a = {
            {H, 3000, 7000, 2000, 4000, 3000, false, false, true},
            {H, 3000, 7000, 3000, 4000, 3000, false, false, true},
        };
        if (literal)
        {
            for (int k = 14; k <= 17; ++k)
            {
                a.push_back({D, 3000, 7000, 3000, 4000, 3000, false, false, true});
            }
        }
        else
        {
            a.push_back({H, 3000, 7000, 4000, 4000, 3000, false, false, true});
            a.push_back({H, 3000, 7000, 5000, 4000, 3000, false, false, true});
            a.push_back({H, 3000, 7000, 6000, 4000, 3000, false, false, true});
            a.push_back({D, 3000, 7000, 6000, 4000, 3000, false, false, true});
        }
        for (size_t k = 0; k < a.size(); ++k)
        {
            AdmitAndCheck(mmu, 0, a[k], "A arrival " + std::to_string(k + 12));
        }
        // QueueLength: k14..17 dropped; Occupancy: k17 only.
        EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW), literal ? 4U : 1U);
        EXPECT_EQ(log.losslessDrops, literal ? 4U : 1U);
        EXPECT_EQ(mmu->GetPauseCount(), 1U); // B never reached case 3
        // Lossless bytes: A 3000 + 7000 + (3000 or 6000), B 3000 + 5000.
        EXPECT_EQ(mmu->GetLosslessUsed(), literal ? 21000U : 24000U);
    }
}

TEST(MmuResume, WaitsForEmptyHeadroom)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);

        // B = (1, 1) first, 9 packets: private 3000, w_B 6000 (as FillDrainOneQueue
        // k1..9); T = 0.5 (20,000 - 6,000) = 7,000.
        for (int k = 0; k < 9; ++k)
        {
            mmu->AdmitLossless(1, 1, 1000);
        }
        ASSERT_EQ(mmu->GetSharedBytes(1, 1), 6000U);

        // A = (0, 1), 10 packets (as FillTwoQueues A1..9, plus one in flight):
        const std::vector<Step> a = {
            {P, 1000, 0, 0, 7000, 6000, false, false, false},
            {P, 2000, 0, 0, 7000, 6000, false, false, false},
            {P, 3000, 0, 0, 7000, 6000, false, false, false},
            // A4..8: q 3000 .. 7000 < 3000 + T; sum w 7000 .. 11,000,
            // T = 0.5 (20,000 - sum w) = 6,500 .. 4,500.
            {S, 3000, 1000, 0, 6500, 5500, false, false, false},
            {S, 3000, 2000, 0, 6000, 5000, false, false, false},
            {S, 3000, 3000, 0, 5500, 4500, false, false, false},
            {S, 3000, 4000, 0, 5000, 4000, false, false, false},
            {S, 3000, 5000, 0, 4500, 3500, false, false, false},
            // A9: q 8000 >= 3000 + 4,500; q < 7,500 + 6,000 and h 0 < 6000: headroom, PAUSE.
            {H, 3000, 5000, 1000, 4500, 3500, true, false, true},
            // A10: q 9000 < 13,500, h 1000 < 6000: headroom.
            {H, 3000, 5000, 2000, 4500, 3500, false, false, true},
        };
        for (size_t k = 0; k < a.size(); ++k)
        {
            AdmitAndCheck(mmu, 0, a[k], "A arrival " + std::to_string(k + 1));
        }

        // B drains its shared bytes: after j releases sum w = 11,000 - 1000 j,
        // T = 0.5 (9,000 + 1000 j), Xon = T - 1000.  From j = 4 on (Xon 5,500) w_A 5000
        // is below Xon while h_A = 2000 > 0.
        const uint64_t t[] = {5000, 5500, 6000, 6500, 7000, 7500};
        for (int j = 1; j <= 6; ++j)
        {
            EXPECT_FALSE(mmu->ReleaseLossless(1, 1, 1000)) << j; // B is ON
            EXPECT_EQ(mmu->GetDynamicThreshold(), t[j - 1]) << j;
            EXPECT_EQ(mmu->GetXon(), t[j - 1] - 1000) << j;
            EXPECT_TRUE(mmu->IsOff(0, 1)) << j;
        }
        ASSERT_EQ(mmu->GetSharedUsed(), 5000U); // w_A only

        // A arrival of 100 B: q_A 10,000 < phi + T = 3000 + 7,500 = 10,500: shared (case
        // 2); OFF and w_A 5000 < Xon 6,500, but h_A 2000 > 0: no RESUME.  After: w_A
        // 5,100, T = 0.5 (20,000 - 5,100) = 7,450, Xon 6,450.
        SwitchMmu::Admission adm = mmu->AdmitLossless(0, 1, 100);
        EXPECT_EQ(adm.segment, S);
        EXPECT_FALSE(adm.pause);
        EXPECT_FALSE(adm.resume);
        ExpectState(mmu, 0, {S, 3000, 5100, 2000, 7450, 6450, false, false, true}, "A 100 B");

        // A releases 1000 B: from the headroom, h_A 1000; w_A 5,100 < Xon 6,450 but
        // h_A > 0: still OFF.
        ReleaseAndCheck(mmu,
                        0,
                        {P, 3000, 5100, 1000, 7450, 6450, false, false, true},
                        "A release 1");
        // A releases 1000 B: h_A 0, w_A 5,100 < 6,450: RESUME.
        ReleaseAndCheck(mmu, 0, {P, 3000, 5100, 0, 7450, 6450, false, true, false}, "A release 2");
        EXPECT_EQ(mmu->GetPauseCount(), 1U);
        EXPECT_EQ(mmu->GetResumeCount(), 1U);
        EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW), 0U);
    }
}

// ---------------------------------------------------------------------------
// Static thresholds
// ---------------------------------------------------------------------------

TEST(MmuStatic, FixedXoffXon)
{
    for (const char* check : kChecks)
    {
        SCOPED_TRACE(check);
        Ptr<SwitchMmu> mmu = Small();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->SetAttribute("ThresholdMode", StringValue("Static"));
        mmu->SetAttribute("StaticXoff", UintegerValue(5000));
        mmu->SetAttribute("StaticXon", UintegerValue(2000));
        mmu->Setup(2);
        EXPECT_EQ(mmu->GetDynamicThreshold(), 5000U);
        EXPECT_EQ(mmu->GetXon(), 2000U);

        // T = 5000 always: phi + T = 8000, phi + T + eta = 14,000.
        const std::vector<Step> fill = {
            {P, 1000, 0, 0, 5000, 2000, false, false, false},
            {P, 2000, 0, 0, 5000, 2000, false, false, false},
            {P, 3000, 0, 0, 5000, 2000, false, false, false},
            // q 3000 .. 7000 < 8000: shared, w 1000 .. 5000.
            {S, 3000, 1000, 0, 5000, 2000, false, false, false},
            {S, 3000, 2000, 0, 5000, 2000, false, false, false},
            {S, 3000, 3000, 0, 5000, 2000, false, false, false},
            {S, 3000, 4000, 0, 5000, 2000, false, false, false},
            {S, 3000, 5000, 0, 5000, 2000, false, false, false},
            // q 8000 >= 8000: headroom + PAUSE; q 9000 .. 13,000: headroom.
            {H, 3000, 5000, 1000, 5000, 2000, true, false, true},
            {H, 3000, 5000, 2000, 5000, 2000, false, false, true},
            {H, 3000, 5000, 3000, 5000, 2000, false, false, true},
            {H, 3000, 5000, 4000, 5000, 2000, false, false, true},
            {H, 3000, 5000, 5000, 5000, 2000, false, false, true},
            {H, 3000, 5000, 6000, 5000, 2000, false, false, true},
            // q 14,000 >= 14,000: drop.
            {D, 3000, 5000, 6000, 5000, 2000, false, false, true},
        };
        for (size_t k = 0; k < fill.size(); ++k)
        {
            AdmitAndCheck(mmu, 0, fill[k], "arrival " + std::to_string(k + 1));
        }
        // The other queue's threshold does not depend on A's shared bytes: B = (1, 1)
        // also gets 5 shared packets and pauses at its 9th.
        for (int k = 1; k <= 9; ++k)
        {
            SwitchMmu::Admission adm = mmu->AdmitLossless(1, 1, 1000);
            EXPECT_EQ(adm.segment, k <= 3 ? P : (k <= 8 ? S : H)) << k;
            EXPECT_EQ(adm.pause, k == 9) << k;
        }
        EXPECT_EQ(mmu->GetSharedUsed(), 10000U);

        const std::vector<Step> drain = {
            {P, 3000, 5000, 5000, 5000, 2000, false, false, true},
            {P, 3000, 5000, 4000, 5000, 2000, false, false, true},
            {P, 3000, 5000, 3000, 5000, 2000, false, false, true},
            {P, 3000, 5000, 2000, 5000, 2000, false, false, true},
            {P, 3000, 5000, 1000, 5000, 2000, false, false, true},
            {P, 3000, 5000, 0, 5000, 2000, false, false, true},
            {P, 3000, 4000, 0, 5000, 2000, false, false, true},
            {P, 3000, 3000, 0, 5000, 2000, false, false, true},
            // w 2000 = Xon: not below, still OFF.
            {P, 3000, 2000, 0, 5000, 2000, false, false, true},
            // w 1000 < 2000: RESUME.
            {P, 3000, 1000, 0, 5000, 2000, false, true, false},
            {P, 3000, 0, 0, 5000, 2000, false, false, false},
        };
        for (size_t r = 0; r < drain.size(); ++r)
        {
            ReleaseAndCheck(mmu, 0, drain[r], "release " + std::to_string(r + 1));
        }
        EXPECT_EQ(mmu->GetPauseCount(), 2U);
        EXPECT_EQ(mmu->GetResumeCount(), 1U);
        EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW), 1U);
    }
}

// ---------------------------------------------------------------------------
// Lossy pool
// ---------------------------------------------------------------------------

TEST(MmuLossy, DynamicThresholdAdmitDrop)
{
    Ptr<SwitchMmu> mmu = Small(); // lossy pool 10,000 B, LossyAlpha 1; class 0 lossy
    mmu->Setup(2);
    TraceLog log;
    log.Connect(mmu, 2);
    // Rule: admit iff b + bytes <= 1.0 * (10,000 - used).  Queue (0, 0), 1000 B:
    // b = used = 0: 1000 <= 10,000; 1000: 2000 <= 9000; 2000: 3000 <= 8000;
    // 3000: 4000 <= 7000; 4000: 5000 <= 6000; 5000: 6000 <= 5000 fails: drop.
    for (int k = 1; k <= 5; ++k)
    {
        EXPECT_TRUE(mmu->AdmitLossy(0, 0, 1000)) << k;
        EXPECT_EQ(log.lastLossy[0], 1000U * k);
    }
    EXPECT_FALSE(mmu->AdmitLossy(0, 0, 1000));
    EXPECT_EQ(mmu->GetLossyBytes(0, 0), 5000U);
    EXPECT_EQ(mmu->GetLossyUsed(), 5000U);
    EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), 1U);
    EXPECT_EQ(log.lossyDrops, 1U);
    EXPECT_EQ(log.lastPort, 0U);
    EXPECT_EQ(log.lastCls, 0U);
    // Queue (1, 0): b 0, used 5000: 1000 <= 5000; b 1000, used 6000: 2000 <= 4000;
    // b 2000, used 7000: 3000 <= 3000 (equal: admitted); b 3000, used 8000:
    // 4000 <= 2000 fails.
    EXPECT_TRUE(mmu->AdmitLossy(1, 0, 1000));
    EXPECT_TRUE(mmu->AdmitLossy(1, 0, 1000));
    EXPECT_TRUE(mmu->AdmitLossy(1, 0, 1000));
    EXPECT_FALSE(mmu->AdmitLossy(1, 0, 1000));
    // Queue (0, 0) again: 6000 <= 2000 fails.
    EXPECT_FALSE(mmu->AdmitLossy(0, 0, 1000));
    // Another lossy class on port 0, (0, 3) [LosslessClasses 0x02]: 1000 <= 2000.
    EXPECT_TRUE(mmu->AdmitLossy(0, 3, 1000));
    EXPECT_EQ(mmu->GetLossyUsed(), 9000U);
    // (1, 0) releases 1000: b 2000, used 8000.  Then (1, 0) 1500 B: 3500 <= 2000 fails;
    // (0, 3) 1000 B: 2000 <= 2000 admitted.
    mmu->ReleaseLossy(1, 0, 1000);
    EXPECT_EQ(log.lastLossy[1 * 8 + 0], 2000U);
    EXPECT_FALSE(mmu->AdmitLossy(1, 0, 1500));
    EXPECT_TRUE(mmu->AdmitLossy(0, 3, 1000));
    EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), 4U);
    EXPECT_EQ(log.lossyDrops, 4U);
    // The lossless pool is untouched.
    EXPECT_EQ(mmu->GetLosslessUsed(), 0U);
    EXPECT_EQ(mmu->GetSharedUsed(), 0U);

    // Drain everything: 5000 + 2000 + 2000.
    mmu->ReleaseLossy(0, 0, 5000);
    mmu->ReleaseLossy(1, 0, 2000);
    mmu->ReleaseLossy(0, 3, 2000);
    EXPECT_EQ(mmu->GetLossyUsed(), 0U);
    EXPECT_EQ(log.lossyEvents, 10U + 4U); // 5 + 3 + 2 admissions, 4 releases
}

TEST(MmuLossy, PoolCapWithLargeAlpha)
{
    Ptr<SwitchMmu> mmu = Small();
    mmu->SetAttribute("LossyAlpha", DoubleValue(8.0));
    mmu->Setup(2);
    // (0, 0), 1000 B: admit while b + 1000 <= 8 (10,000 - b): b = 8000: 9000 <= 16,000
    // admitted; b = 9000: 10,000 <= 8000 fails.  So 9 packets.
    for (int k = 1; k <= 9; ++k)
    {
        EXPECT_TRUE(mmu->AdmitLossy(0, 0, 1000)) << k;
    }
    EXPECT_FALSE(mmu->AdmitLossy(0, 0, 1000));
    // (1, 0), 1500 B: the DT alone admits (1500 <= 8 * 1000 = 8000), but the pool has
    // only 1000 B free: dropped.  1000 B fits exactly.
    EXPECT_FALSE(mmu->AdmitLossy(1, 0, 1500));
    EXPECT_TRUE(mmu->AdmitLossy(1, 0, 1000));
    EXPECT_EQ(mmu->GetLossyUsed(), 10000U);
    EXPECT_FALSE(mmu->AdmitLossy(1, 0, 1));
    EXPECT_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), 3U);
}

// ---------------------------------------------------------------------------
// Conservation against a reference model
// ---------------------------------------------------------------------------

namespace
{

/**
 * Reference model: the four cases and the lossy rule, written from the spec (the
 * class comment of SwitchMmu): case 3 by either HeadroomCheck, and a queue turns ON
 * only while its headroom is empty.
 */
struct RefMmu
{
    struct Q
    {
        uint64_t p = 0, w = 0, h = 0;
        bool off = false;
        std::deque<uint32_t> packets; // FIFO of packet sizes
    };

    uint32_t nPorts;
    uint64_t phi, eta, bs, lossyPool;
    double alpha, lossyAlpha;
    bool isStatic;
    uint64_t xoff, xon, xonOffset;
    uint8_t lossless;
    bool literal; // HeadroomCheck QueueLength (else Occupancy)
    std::vector<Q> q;
    std::vector<uint64_t> lossyB;
    std::vector<std::deque<uint32_t>> lossyPackets;
    uint64_t sharedUsed = 0, losslessUsed = 0, lossyUsed = 0;
    uint64_t pauses = 0, resumes = 0, losslessDrops = 0, lossyDrops = 0;
    uint64_t disagreements = 0;  // case 3/4 decisions the other HeadroomCheck would flip
    uint64_t blockedResumes = 0; // OFF, w < Xon, but h > 0: no RESUME

    uint64_t T() const
    {
        if (isStatic)
        {
            return xoff;
        }
        return sharedUsed >= bs ? 0 : static_cast<uint64_t>(alpha * double(bs - sharedUsed));
    }

    uint64_t Xon() const
    {
        if (isStatic)
        {
            return xon;
        }
        uint64_t t = T();
        return t > xonOffset ? t - xonOffset : 0;
    }

    SwitchMmu::Admission Admit(size_t i, uint32_t s)
    {
        Q& x = q[i];
        uint64_t qq = x.p + x.w + x.h;
        uint64_t t = T();
        SwitchMmu::Admission a{MmuSegment::DROPPED, false, false};
        if (qq < phi)
        {
            x.p += s;
            a.segment = MmuSegment::PRIVATE;
        }
        else if (qq < phi + t)
        {
            if (x.off && x.w < Xon())
            {
                if (x.h == 0)
                {
                    x.off = false;
                    a.resume = true;
                    ++resumes;
                }
                else
                {
                    ++blockedResumes;
                }
            }
            x.w += s;
            sharedUsed += s;
            a.segment = MmuSegment::SHARED;
        }
        else if (literal ? qq < phi + t + eta : x.h < eta)
        {
            disagreements += literal ? x.h >= eta : qq >= phi + t + eta;
            if (!x.off)
            {
                x.off = true;
                a.pause = true;
                ++pauses;
            }
            x.h += s;
            a.segment = MmuSegment::HEADROOM;
        }
        else
        {
            disagreements += literal ? x.h < eta : qq < phi + t + eta;
            ++losslessDrops;
            return a;
        }
        x.packets.push_back(s);
        losslessUsed += s;
        return a;
    }

    bool Release(size_t i, uint32_t s)
    {
        Q& x = q[i];
        uint64_t left = s;
        uint64_t fromH = std::min(left, x.h);
        x.h -= fromH;
        left -= fromH;
        uint64_t fromW = std::min(left, x.w);
        x.w -= fromW;
        sharedUsed -= fromW;
        left -= fromW;
        x.p -= left;
        losslessUsed -= s;
        bool empty = x.p + x.w + x.h == 0;
        if (x.off && (x.w < Xon() || empty))
        {
            if (x.h == 0)
            {
                x.off = false;
                ++resumes;
                return true;
            }
            ++blockedResumes;
        }
        return false;
    }

    bool AdmitLossy(size_t i, uint32_t s)
    {
        uint64_t free = lossyPool - lossyUsed;
        if (lossyB[i] + s <= static_cast<uint64_t>(lossyAlpha * double(free)) && s <= free)
        {
            lossyB[i] += s;
            lossyUsed += s;
            lossyPackets[i].push_back(s);
            return true;
        }
        ++lossyDrops;
        return false;
    }
};

/// Counts of one RandomRun, for the callers' coverage checks.
struct RunCounts
{
    uint64_t disagreements = 0;  //!< RefMmu::disagreements
    uint64_t blockedResumes = 0; //!< RefMmu::blockedResumes
};

/**
 * One random run: compare the MMU with RefMmu after every operation.
 * \param check the HeadroomCheck attribute value
 * \return the coverage counts of the reference model
 */
RunCounts
RandomRun(uint32_t seed,
          bool isStatic,
          double alpha,
          uint64_t xonOffset,
          double lossyAlpha,
          const std::string& check)
{
    SCOPED_TRACE("seed " + std::to_string(seed) + ", " + check);
    RunCounts counts;
    const uint32_t nPorts = 3;
    // 3 ports, LosslessClasses 0x06 (classes 1, 2), phi 2000, eta 5000 fixed, lossy
    // pool 20,000, BufferSize 92,000: Bs = 72,000 - 2 * 3 * (2000 + 5000) = 30,000.
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(92000));
    mmu->SetAttribute("LossyPoolSize", UintegerValue(20000));
    mmu->SetAttribute("PrivateBytes", UintegerValue(2000));
    mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
    mmu->SetAttribute("Headroom", UintegerValue(5000));
    mmu->SetAttribute("LosslessClasses", UintegerValue(0x06));
    mmu->SetAttribute("Alpha", DoubleValue(alpha));
    mmu->SetAttribute("LossyAlpha", DoubleValue(lossyAlpha));
    mmu->SetAttribute("XonOffset", UintegerValue(xonOffset));
    mmu->SetAttribute("ThresholdMode", StringValue(isStatic ? "Static" : "Dynamic"));
    mmu->SetAttribute("StaticXoff", UintegerValue(6000));
    mmu->SetAttribute("StaticXon", UintegerValue(3000));
    mmu->SetAttribute("HeadroomCheck", StringValue(check));
    mmu->Setup(nPorts);
    EXPECT_EQ(mmu->GetSharedPoolSize(), 30000U);
    if (mmu->GetSharedPoolSize() != 30000U)
    {
        return counts;
    }
    TraceLog log;
    log.Connect(mmu, nPorts);

    RefMmu ref;
    ref.nPorts = nPorts;
    ref.phi = 2000;
    ref.eta = 5000;
    ref.bs = 30000;
    ref.lossyPool = 20000;
    ref.alpha = alpha;
    ref.lossyAlpha = lossyAlpha;
    ref.isStatic = isStatic;
    ref.xoff = 6000;
    ref.xon = 3000;
    ref.xonOffset = xonOffset;
    ref.lossless = 0x06;
    ref.literal = check == "QueueLength";
    ref.q.resize(nPorts * 8);
    ref.lossyB.assign(nPorts * 8, 0);
    ref.lossyPackets.resize(nPorts * 8);

    std::mt19937 rng(seed);
    std::uniform_int_distribution<uint32_t> portDist(0, nPorts - 1);
    std::uniform_int_distribution<uint32_t> clsDist(0, 7);
    std::uniform_int_distribution<uint32_t> sizeDist(64, 1500);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    uint64_t admitted = 0;
    uint64_t released = 0;
    uint64_t lossyAdmitted = 0;
    uint64_t lossyReleased = 0;

    auto checkAll = [&](const std::string& when) {
        SCOPED_TRACE(when);
        for (uint32_t port = 0; port < nPorts; ++port)
        {
            for (uint8_t cls = 0; cls < 8; ++cls)
            {
                const size_t i = port * 8 + cls;
                if ((0x06 >> cls) & 1)
                {
                    ASSERT_EQ(mmu->GetPrivateBytes(port, cls), ref.q[i].p) << port << "," << +cls;
                    ASSERT_EQ(mmu->GetSharedBytes(port, cls), ref.q[i].w) << port << "," << +cls;
                    ASSERT_EQ(mmu->GetHeadroomBytes(port, cls), ref.q[i].h) << port << "," << +cls;
                    ASSERT_EQ(mmu->IsOff(port, cls), ref.q[i].off) << port << "," << +cls;
                    ASSERT_EQ(log.lastIngress[i], ref.q[i].p + ref.q[i].w + ref.q[i].h);
                }
                else
                {
                    ASSERT_EQ(mmu->GetLossyBytes(port, cls), ref.lossyB[i]) << port << "," << +cls;
                    ASSERT_EQ(log.lastLossy[i], ref.lossyB[i]);
                }
            }
        }
        ASSERT_EQ(mmu->GetSharedUsed(), ref.sharedUsed);
        ASSERT_EQ(mmu->GetLosslessUsed(), ref.losslessUsed);
        ASSERT_EQ(mmu->GetLossyUsed(), ref.lossyUsed);
        ASSERT_EQ(mmu->GetDynamicThreshold(), ref.T());
        ASSERT_EQ(mmu->GetXon(), ref.Xon());
        ASSERT_EQ(mmu->GetPauseCount(), ref.pauses);
        ASSERT_EQ(mmu->GetResumeCount(), ref.resumes);
        ASSERT_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW), ref.losslessDrops);
        ASSERT_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), ref.lossyDrops);
        ASSERT_EQ(log.pauses, ref.pauses);
        ASSERT_EQ(log.resumes, ref.resumes);
        ASSERT_EQ(log.losslessDrops, ref.losslessDrops);
        ASSERT_EQ(log.lossyDrops, ref.lossyDrops);
        ASSERT_EQ(log.ingressEvents, admitted + released);
        ASSERT_EQ(log.lossyEvents, lossyAdmitted + lossyReleased);
    };

    // One operation on a queue: admit with probability pAdmit, else release its head.
    auto step = [&](uint32_t port, uint8_t cls, double pAdmit) {
        const size_t i = port * 8 + cls;
        const bool lossless = (0x06 >> cls) & 1;
        if (lossless)
        {
            if (coin(rng) < pAdmit || ref.q[i].packets.empty())
            {
                const uint32_t s = sizeDist(rng);
                SwitchMmu::Admission want = ref.Admit(i, s);
                SwitchMmu::Admission got = mmu->AdmitLossless(port, cls, s);
                ASSERT_EQ(got.segment, want.segment);
                ASSERT_EQ(got.pause, want.pause);
                ASSERT_EQ(got.resume, want.resume);
                admitted += want.segment != MmuSegment::DROPPED;
            }
            else
            {
                const uint32_t s = ref.q[i].packets.front();
                ref.q[i].packets.pop_front();
                bool want = ref.Release(i, s);
                ASSERT_EQ(mmu->ReleaseLossless(port, cls, s), want);
                ++released;
            }
        }
        else
        {
            if (coin(rng) < pAdmit || ref.lossyPackets[i].empty())
            {
                const uint32_t s = sizeDist(rng);
                bool want = ref.AdmitLossy(i, s);
                ASSERT_EQ(mmu->AdmitLossy(port, cls, s), want);
                lossyAdmitted += want;
            }
            else
            {
                const uint32_t s = ref.lossyPackets[i].front();
                ref.lossyPackets[i].pop_front();
                ref.lossyB[i] -= s;
                ref.lossyUsed -= s;
                mmu->ReleaseLossy(port, cls, s);
                ++lossyReleased;
            }
        }
    };

    // Phase 1: admissions dominate, then a balanced phase; hot queues get more traffic
    // so that every case (including drops) is visited.
    for (int n = 0; n < 6000; ++n)
    {
        const double pAdmit = n < 3000 ? 0.65 : 0.5;
        uint32_t port = portDist(rng);
        uint8_t cls = coin(rng) < 0.5 ? static_cast<uint8_t>(1 + (port % 2)) : clsDist(rng);
        step(port, cls, pAdmit);
        if (::testing::Test::HasFatalFailure())
        {
            ADD_FAILURE() << "at operation " << n;
            return counts;
        }
        checkAll("operation " + std::to_string(n));
        if (::testing::Test::HasFatalFailure())
        {
            ADD_FAILURE() << "at operation " << n;
            return counts;
        }
    }
    // Every case was visited.
    EXPECT_GT(ref.pauses, 0U);
    EXPECT_GT(ref.resumes, 0U);
    EXPECT_GT(ref.losslessDrops, 0U);
    EXPECT_GT(ref.lossyDrops, 0U);

    // Phase 2: drain every queue, in random order.
    for (;;)
    {
        std::vector<std::pair<uint32_t, uint8_t>> busy;
        for (uint32_t port = 0; port < nPorts; ++port)
        {
            for (uint8_t cls = 0; cls < 8; ++cls)
            {
                const size_t i = port * 8 + cls;
                if (!ref.q[i].packets.empty() || !ref.lossyPackets[i].empty())
                {
                    busy.emplace_back(port, cls);
                }
            }
        }
        if (busy.empty())
        {
            break;
        }
        auto [port, cls] = busy[std::uniform_int_distribution<size_t>(0, busy.size() - 1)(rng)];
        step(port, cls, 0.0);
        checkAll("drain");
        if (::testing::Test::HasFatalFailure())
        {
            ADD_FAILURE() << "while draining";
            return counts;
        }
    }

    // Every counter back to zero, every queue ON.
    EXPECT_EQ(mmu->GetSharedUsed(), 0U);
    EXPECT_EQ(mmu->GetLosslessUsed(), 0U);
    EXPECT_EQ(mmu->GetLossyUsed(), 0U);
    for (uint32_t port = 0; port < nPorts; ++port)
    {
        for (uint8_t cls = 0; cls < 8; ++cls)
        {
            EXPECT_EQ(mmu->GetIngressBytes(port, cls), 0U);
            EXPECT_EQ(mmu->GetLossyBytes(port, cls), 0U);
            EXPECT_FALSE(mmu->IsOff(port, cls));
        }
    }
    EXPECT_EQ(mmu->GetPauseCount(), mmu->GetResumeCount());
    EXPECT_EQ(admitted, released);
    EXPECT_EQ(lossyAdmitted, lossyReleased);
    EXPECT_EQ(log.pauses, mmu->GetPauseCount());
    EXPECT_EQ(log.resumes, mmu->GetResumeCount());
    counts.disagreements = ref.disagreements;
    counts.blockedResumes = ref.blockedResumes;
    std::cout << "[ info     ] seed " << seed << ", " << check << ": " << ref.pauses << " pauses, "
              << ref.resumes << " resumes, " << ref.losslessDrops << " lossless drops, "
              << ref.disagreements << " HeadroomCheck disagreements, " << ref.blockedResumes
              << " resumes held back by h > 0\n";
    return counts;
}

} // namespace

TEST(MmuConservation, RandomDynamic)
{
    for (const char* check : kChecks)
    {
        const RunCounts a = RandomRun(1, false, 0.5, 1500, 1.0, check);
        const RunCounts b = RandomRun(2, false, 2.0, 0, 0.5, check);
        // T(t) moves under OFF queues: both new rules are exercised.
        EXPECT_GT(a.disagreements + b.disagreements, 0U) << check;
        EXPECT_GT(a.blockedResumes + b.blockedResumes, 0U) << check;
    }
}

TEST(MmuConservation, RandomDynamicXonOftenZero)
{
    // XonOffset 3000 with Alpha 0.125: T <= 3000 once sum w >= 6000, so Xon is often 0.
    for (const char* check : kChecks)
    {
        const RunCounts c = RandomRun(3, false, 0.125, 3000, 2.0, check);
        EXPECT_GT(c.disagreements, 0U) << check;
    }
}

TEST(MmuConservation, RandomStatic)
{
    for (const char* check : kChecks)
    {
        RandomRun(4, true, 0.0, 0, 1.0, check);
    }
}

// ---------------------------------------------------------------------------
// Configuration errors (NS_FATAL_ERROR)
// ---------------------------------------------------------------------------

TEST(MmuDeathTest, NoSharedBuffer)
{
    // BufferSize 28,000: Bs = 18,000 - 18,000 = 0.
    EXPECT_DEATH(
        {
            Ptr<SwitchMmu> mmu = Small(0.5, 1000, 28000);
            mmu->Setup(2);
        },
        "BufferSize 28000.*PrivateBytes 3000.*18000");
}

TEST(MmuDeathTest, LossyPoolLargerThanBuffer)
{
    EXPECT_DEATH(
        {
            Ptr<SwitchMmu> mmu = Small(0.5, 1000, 9000); // lossy pool 10,000
            mmu->Setup(2);
        },
        "LossyPoolSize \\(10000 B\\) is larger than BufferSize \\(9000 B\\)");
}

TEST(MmuDeathTest, FormulaModeNeedsLink)
{
    EXPECT_DEATH(
        {
            Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
            mmu->SetPortLink(0, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
            mmu->Setup(2);
        },
        "FixedResponse but port 1 has no link");
}
