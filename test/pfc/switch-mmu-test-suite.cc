/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-mmu" (./test.py -s tagger-mmu): tests of
 * ns3::SwitchMmu, the PFC switch buffer of the PFC buffer background (Section
 * II-B/C) with the headroom formulas of the PFC buffer background (Eq. 1) and
 * the TTL scheme (Eq. 14).  This file: the attributes, the headroom formulas,
 * Setup, the four cases on one queue and the configuration errors; the
 * thresholds with several queues are in switch-mmu-threshold-test.cc, the
 * comparison with a reference model in switch-mmu-reference-test.cc.
 *
 * Every expected number is worked out by hand in the comment next to it.  The
 * small configuration used by most tests ("Small", MakeSmallMmu) is:
 *   2 ports, LosslessClasses 0x02 (only class 1 lossless), PrivateBytes phi =
 *   3000, fixed Headroom eta = 6000, LossyPoolSize 10000, BufferSize 48000:
 *   Bs = (48000 - 10000) - 1 class * 2 ports * (3000 + 6000) = 38000 - 18000 = 20000.
 * HeadroomCheck: tests where T(t) does not shrink under an OFF queue run in both modes
 * with the same expected values; MmuThresholdShrinksTestCase shows where they
 * part, MmuResumeTestCase that a queue turns ON only with an empty headroom
 * (switch-mmu-threshold-test.cc).
 */

#include "../tagger-test-helpers.h"
#include "pfc-test-util.h"
#include "switch-mmu-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/tagger-ns3-release-compat.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using tagger::test::CheckFatalError;

namespace
{

// ---------------------------------------------------------------------------
// Attributes and headroom formulas
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * The attributes' defaults and the names of the enum values.
 */
class MmuAttributesTestCase : public MmuTestCase
{
  public:
    MmuAttributesTestCase()
        : MmuTestCase("SwitchMmu: attribute defaults and enum names")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        UintegerValue u;
        DoubleValue d;
        TaggerEnumValue<SwitchMmu::ThresholdMode> threshold;
        TaggerEnumValue<SwitchMmu::HeadroomMode> headroomMode;
        TaggerEnumValue<SwitchMmu::HeadroomCheck> headroomCheck;
        mmu->GetAttribute("BufferSize", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 12582912U, "BufferSize: 12 * 1024 * 1024");
        mmu->GetAttribute("LossyPoolSize", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 3145728U, "LossyPoolSize: 3 * 1024 * 1024");
        mmu->GetAttribute("PrivateBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 3072U, "PrivateBytes");
        mmu->GetAttribute("StaticXoff", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 65536U, "StaticXoff");
        mmu->GetAttribute("StaticXon", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 32768U, "StaticXon");
        mmu->GetAttribute("XonOffset", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 3072U, "XonOffset");
        mmu->GetAttribute("Headroom", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 0U, "Headroom");
        mmu->GetAttribute("LosslessClasses", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 0xFEU, "LosslessClasses");
        mmu->GetAttribute("Alpha", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), 0.125, "Alpha");
        mmu->GetAttribute("LossyAlpha", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), 1.0, "LossyAlpha");
        mmu->GetAttribute("ThresholdMode", threshold);
        NS_TEST_EXPECT_MSG_EQ(threshold.Get(), SwitchMmu::DYNAMIC, "ThresholdMode");
        mmu->GetAttribute("HeadroomMode", headroomMode);
        NS_TEST_EXPECT_MSG_EQ(headroomMode.Get(),
                              SwitchMmu::HEADROOM_FIXED_RESPONSE,
                              "HeadroomMode");
        mmu->GetAttribute("HeadroomCheck", headroomCheck);
        NS_TEST_EXPECT_MSG_EQ(headroomCheck.Get(), SwitchMmu::HEADROOM_OCCUPANCY, "HeadroomCheck");

        // The enum names.
        mmu->SetAttribute("ThresholdMode", StringValue("Static"));
        mmu->GetAttribute("ThresholdMode", threshold);
        NS_TEST_EXPECT_MSG_EQ(threshold.Get(), SwitchMmu::STATIC, "ThresholdMode Static");
        mmu->SetAttribute("HeadroomMode", StringValue("WireProcessing"));
        mmu->GetAttribute("HeadroomMode", headroomMode);
        NS_TEST_EXPECT_MSG_EQ(headroomMode.Get(),
                              SwitchMmu::HEADROOM_WIRE_PROCESSING,
                              "HeadroomMode WireProcessing");
        mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
        mmu->GetAttribute("HeadroomMode", headroomMode);
        NS_TEST_EXPECT_MSG_EQ(headroomMode.Get(), SwitchMmu::HEADROOM_FIXED, "HeadroomMode Fixed");
        mmu->SetAttribute("HeadroomMode", StringValue("FixedResponse"));
        mmu->GetAttribute("HeadroomMode", headroomMode);
        NS_TEST_EXPECT_MSG_EQ(headroomMode.Get(),
                              SwitchMmu::HEADROOM_FIXED_RESPONSE,
                              "HeadroomMode FixedResponse");
        mmu->SetAttribute("HeadroomCheck", StringValue("QueueLength"));
        mmu->GetAttribute("HeadroomCheck", headroomCheck);
        NS_TEST_EXPECT_MSG_EQ(headroomCheck.Get(),
                              SwitchMmu::QUEUE_LENGTH,
                              "HeadroomCheck QueueLength");
        mmu->SetAttribute("HeadroomCheck", StringValue("Occupancy"));
        mmu->GetAttribute("HeadroomCheck", headroomCheck);
        NS_TEST_EXPECT_MSG_EQ(headroomCheck.Get(),
                              SwitchMmu::HEADROOM_OCCUPANCY,
                              "HeadroomCheck Occupancy");

        // Default LosslessClasses 0xFE: class 0 lossy, 1..7 lossless, 8 is no class.
        NS_TEST_EXPECT_MSG_EQ(mmu->IsLossless(0), false, "class 0");
        for (uint8_t cls = 1; cls < 8; ++cls)
        {
            NS_TEST_EXPECT_MSG_EQ(mmu->IsLossless(cls), true, "class " << +cls);
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->IsLossless(8), false, "class 8");
    }
};

/**
 * \ingroup tagger-tests
 * The headroom formulas on the values of the PFC buffer background and the TTL scheme.
 */
class MmuHeadroomPaperTestCase : public MmuTestCase
{
  public:
    MmuHeadroomPaperTestCase()
        : MmuTestCase("SwitchMmu: headroom formulas at 40 Gbps, the papers' values")
    {
    }

  private:
    void DoRun() override
    {
        // The PFC buffer background: C * Dprop = 40e9 b/s * 1.5e-6 s = 60,000 b = 7,500 B;
        // eta = 2 (7,500 + 1,500) + 3,840 = 18,000 + 3,840 = 21,840 B.
        NS_TEST_EXPECT_MSG_EQ(
            SwitchMmu::HeadroomFixedResponse(DataRate("40Gbps"), NanoSeconds(1500), 1500),
            21840U,
            "FixedResponse, 40 Gbps, 1.5 us");
        // The TTL scheme: r * t_pro = 40e9 * 768e-9 = 30,720 b = 3,840 B (60 quanta of 512 b);
        // b_hr = 2 (1,500 + 64 + 7,500) + 3,840 = 18,128 + 3,840 = 21,968 B.
        NS_TEST_EXPECT_MSG_EQ(SwitchMmu::HeadroomWireProcessing(DataRate("40Gbps"),
                                                                NanoSeconds(1500),
                                                                1500,
                                                                64,
                                                                NanoSeconds(768)),
                              21968U,
                              "WireProcessing, 40 Gbps, 1.5 us, t_pro 768 ns");
    }
};

/**
 * \ingroup tagger-tests
 * The headroom formulas on hand-computed cases: rounding up, a product beyond
 * 64 bits, zero delay.
 */
class MmuHeadroomHandTestCase : public MmuTestCase
{
  public:
    MmuHeadroomHandTestCase()
        : MmuTestCase("SwitchMmu: headroom formulas, hand-computed cases")
    {
    }

  private:
    void DoRun() override
    {
        // 100 Gbps, 100 m at 5 ns/m: Dprop = 500 ns; C * Dprop = 1e11 * 5e-7 = 50,000 b
        // = 6,250 B. FixedResponse: 2 (6,250 + 1,500) + 3,840 = 15,500 + 3,840 = 19,340 B.
        NS_TEST_EXPECT_MSG_EQ(
            SwitchMmu::HeadroomFixedResponse(DataRate("100Gbps"), NanoSeconds(500), 1500),
            19340U,
            "FixedResponse, 100 Gbps, 500 ns");
        // WireProcessing with t_pro = 400 ns: r * t_pro = 1e11 * 4e-7 = 40,000 b = 5,000 B;
        // 2 (1,500 + 64 + 6,250) + 5,000 = 15,628 + 5,000 = 20,628 B.
        NS_TEST_EXPECT_MSG_EQ(SwitchMmu::HeadroomWireProcessing(DataRate("100Gbps"),
                                                                NanoSeconds(500),
                                                                1500,
                                                                64,
                                                                NanoSeconds(400)),
                              20628U,
                              "WireProcessing, 100 Gbps, 500 ns, t_pro 400 ns");
        // Rounding up: 10 Gbps * 1 ns = 10 b = 1.25 B -> 2 B;
        // FixedResponse: 2 (2 + 1,500) + 3,840 = 3,004 + 3,840 = 6,844 B.
        NS_TEST_EXPECT_MSG_EQ(
            SwitchMmu::HeadroomFixedResponse(DataRate("10Gbps"), NanoSeconds(1), 1500),
            6844U,
            "FixedResponse, 10 Gbps, 1 ns");
        // 002: r t_wire = 2 B as above, r t_pro = 10 Gbps * 3 ns = 30 b = 3.75 B -> 4 B;
        // 2 (1,500 + 64 + 2) + 4 = 3,132 + 4 = 3,136 B.
        NS_TEST_EXPECT_MSG_EQ(SwitchMmu::HeadroomWireProcessing(DataRate("10Gbps"),
                                                                NanoSeconds(1),
                                                                1500,
                                                                64,
                                                                NanoSeconds(3)),
                              3136U,
                              "WireProcessing, 10 Gbps, 1 ns, t_pro 3 ns");
        // A product beyond 64 bits in bit-femtoseconds: 400 Gbps * 10 ms = 4e9 b = 5e8 B;
        // 2 (500,000,000 + 1,500) + 3,840 = 1,000,003,000 + 3,840 = 1,000,006,840 B.
        NS_TEST_EXPECT_MSG_EQ(
            SwitchMmu::HeadroomFixedResponse(DataRate("400Gbps"), MilliSeconds(10), 1500),
            1000006840ULL,
            "FixedResponse, 400 Gbps, 10 ms");
        // Zero delay: 2 * 1,500 + 3,840 = 6,840 B.
        NS_TEST_EXPECT_MSG_EQ(
            SwitchMmu::HeadroomFixedResponse(DataRate("40Gbps"), Seconds(0), 1500),
            6840U,
            "FixedResponse, zero delay");
    }
};

/**
 * \ingroup tagger-tests
 * Setup: per-port headroom from each port's link, and the shared pool left.
 */
class MmuSetupPerPortTestCase : public MmuTestCase
{
  public:
    MmuSetupPerPortTestCase()
        : MmuTestCase("SwitchMmu: Setup gives each port its headroom, the rest is shared")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>(); // defaults: 7 lossless classes, phi 3072
        // SetPortLink before Setup, in any order.
        mmu->SetPortLink(1, DataRate("100Gbps"), NanoSeconds(500), 1500, NanoSeconds(400));
        mmu->SetPortLink(0, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
        mmu->Setup(2);
        // FixedResponse: eta_0 = 21,840, eta_1 = 19,340 (the headroom formula cases).
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(0), 21840U, "FixedResponse eta_0");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(1), 19340U, "FixedResponse eta_1");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPrivateSize(), 3072U, "phi");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyPoolSize(), 3145728U, "lossy pool");
        // Lossless pool 12,582,912 - 3,145,728 = 9,437,184; reserved 7 classes *
        // (2 * 3,072 + 21,840 + 19,340) = 7 * (6,144 + 41,180) = 7 * 47,324 = 331,268;
        // Bs = 9,437,184 - 331,268 = 9,105,916.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedPoolSize(), 9105916U, "FixedResponse Bs");
        // T = 0.125 * 9,105,916 = 1,138,239.5 -> 1,138,239; Xon = 1,138,239 - 3,072 = 1,135,167.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(), 1138239U, "T");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetXon(), 1135167U, "Xon");

        // WireProcessing, Setup again: eta_0 = 21,968, eta_1 = 20,628; reserved 7 * (6,144 +
        // 42,596) = 7 * 48,740 = 341,180; Bs = 9,437,184 - 341,180 = 9,096,004.
        mmu->SetAttribute("HeadroomMode", StringValue("WireProcessing"));
        mmu->Setup(2);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(0), 21968U, "WireProcessing eta_0");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(1), 20628U, "WireProcessing eta_1");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedPoolSize(), 9096004U, "WireProcessing Bs");

        // Port 1 relinked at 40 Gbps, 1.5 us, t_pro 768 ns: eta_1 = 21,968; reserved
        // 7 * (6,144 + 43,936) = 7 * 50,080 = 350,560; Bs = 9,437,184 - 350,560 = 9,086,624.
        mmu->SetPortLink(1, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
        mmu->Setup(2);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(1), 21968U, "relinked eta_1");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedPoolSize(), 9086624U, "relinked Bs");

        // Fixed 30,000 B on both ports: reserved 7 * (6,144 + 60,000) = 463,008;
        // Bs = 9,437,184 - 463,008 = 8,974,176.
        mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
        mmu->SetAttribute("Headroom", UintegerValue(30000));
        mmu->Setup(2);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(0), 30000U, "Fixed eta_0");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(1), 30000U, "Fixed eta_1");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedPoolSize(), 8974176U, "Fixed Bs");
    }
};

/**
 * \ingroup tagger-tests
 * Setup of the Small configuration, and the smallest legal shared pool.
 */
class MmuSetupSmallTestCase : public MmuTestCase
{
  public:
    MmuSetupSmallTestCase()
        : MmuTestCase("SwitchMmu: Setup of the small configuration; Bs = 1 is legal")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = MakeSmallMmu();
        mmu->Setup(2);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedPoolSize(), 20000U, "Bs (file comment)");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(0), 6000U, "eta_0");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(1), 6000U, "eta_1");
        // T = 0.5 * 20,000 = 10,000; Xon = 10,000 - 1,000 = 9,000.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(), 10000U, "T");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetXon(), 9000U, "Xon");
        // Bs = 1 is still legal: BufferSize 28,001 -> 18,001 - 18,000 = 1.
        Ptr<SwitchMmu> tight = MakeSmallMmu(0.5, 1000, 28001);
        tight->Setup(2);
        NS_TEST_EXPECT_MSG_EQ(tight->GetSharedPoolSize(), 1U, "Bs with BufferSize 28,001");
    }
};

/**
 * \ingroup tagger-tests
 * A fixed headroom below what a port's link needs is kept, with a warning
 * naming the port (checked where NS_LOG is compiled in).
 */
class MmuSetupWarnsTestCase : public MmuTestCase
{
  public:
    MmuSetupWarnsTestCase()
        : MmuTestCase("SwitchMmu: a fixed headroom below a link's need warns, and is used")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = MakeSmallMmu(); // fixed eta 6,000
        // Port 1 at 40 Gbps, 1.5 us, 1500 B needs 21,840 B (FixedResponse); port 0 has no link.
        mmu->SetPortLink(1, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
        std::ostringstream captured;
        std::streambuf* old = std::clog.rdbuf(captured.rdbuf());
        LogComponentEnable("SwitchMmu", LOG_LEVEL_WARN);
        mmu->Setup(2);
        LogComponentDisable("SwitchMmu", LOG_LEVEL_ALL);
        std::clog.rdbuf(old);
#ifdef NS3_LOG_ENABLE
        // The warning exists only where NS_LOG is compiled in (not in optimized builds).
        const std::string text = captured.str();
        NS_TEST_EXPECT_MSG_NE(text.find("port 1"), std::string::npos, text);
        NS_TEST_EXPECT_MSG_NE(text.find("6000"), std::string::npos, text);
        NS_TEST_EXPECT_MSG_NE(text.find("21840"), std::string::npos, text);
        NS_TEST_EXPECT_MSG_EQ(text.find("port 0"), std::string::npos, text);
#endif
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomSize(1), 6000U, "the fixed value is still used");
    }
};

// ---------------------------------------------------------------------------
// The four cases, one queue (Small, Alpha 0.5, XonOffset 1000)
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * One queue filled through the four cases and drained, step by step, in both
 * HeadroomCheck modes.
 */
class MmuFillDrainTestCase : public MmuTestCase
{
  public:
    MmuFillDrainTestCase()
        : MmuTestCase("SwitchMmu: one queue fills private, shared, headroom, drops; drains")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* check : kChecks)
        {
            Run(check);
        }
    }

    /// The test in one HeadroomCheck mode. \param check the mode
    void Run(const std::string& check)
    {
        Ptr<SwitchMmu> mmu = MakeSmallMmu();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        MmuTraceLog log;
        NS_TEST_ASSERT_MSG_EQ(log.Connect(mmu, 2), true, check << ": trace sources");

        // Packets of 1000 B into (0, 1); q before arrival k is 1000 (k - 1); phi = 3000,
        // eta = 6000; T before arrival k = 0.5 (20,000 - w), Xon = T - 1000.
        const std::vector<MmuStep> fill = {
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
            AdmitAndCheck(mmu, 0, fill[k], check + ", arrival " + std::to_string(k + 1));
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPauseCount(), 1U, check << ": pauses");
        NS_TEST_EXPECT_MSG_EQ(log.pauses, 1U, check << ": traced pauses");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              1U,
                              check << ": lossless drops");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW),
                              0U,
                              check << ": lossy drops");
        NS_TEST_EXPECT_MSG_EQ(log.losslessDrops, 1U, check << ": traced lossless drops");
        NS_TEST_EXPECT_MSG_EQ(log.lastPort, 0U, check << ": port of the drop");
        NS_TEST_EXPECT_MSG_EQ(unsigned(log.lastCls), 1U, check << ": class of the drop");
        NS_TEST_EXPECT_MSG_EQ(log.lastDropBytes, 1000U, check << ": bytes of the drop");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 7000U, check << ": shared used");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLosslessUsed(),
                              16000U,
                              check << ": lossless used: 16 admitted packets");
        NS_TEST_EXPECT_MSG_EQ(log.ingressEvents,
                              16U,
                              check << ": IngressOccupancy events (none for the drop)");
        NS_TEST_EXPECT_MSG_EQ(log.lastIngress[0 * 8 + 1], 16000U, check << ": last occupancy");
        // The other port is untouched.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetIngressBytes(1, 1), 0U, check << ": port 1 untouched");
        NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(1, 1), false, check << ": port 1 ON");

        // Release 1000 B at a time: headroom first, then shared, then private.  Xon after
        // each release = 0.5 (20,000 - w) - 1000.
        const std::vector<MmuStep> drain = {
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
            ReleaseAndCheck(mmu, 0, drain[r], check + ", release " + std::to_string(r + 1));
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetResumeCount(), 1U, check << ": resumes");
        NS_TEST_EXPECT_MSG_EQ(log.resumes, 1U, check << ": traced resumes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 0U, check << ": shared used at the end");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLosslessUsed(), 0U, check << ": lossless used at the end");
        NS_TEST_EXPECT_MSG_EQ(log.ingressEvents, 32U, check << ": IngressOccupancy events");
        NS_TEST_EXPECT_MSG_EQ(log.lastIngress[0 * 8 + 1], 0U, check << ": last occupancy");
    }
};

/**
 * \ingroup tagger-tests
 * A release larger than a segment takes headroom, then shared, then private
 * bytes; an arrival goes whole into one segment.
 */
class MmuReleaseSpansTestCase : public MmuTestCase
{
  public:
    MmuReleaseSpansTestCase()
        : MmuTestCase("SwitchMmu: a release spans segments, an arrival goes to one")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* check : kChecks)
        {
            Run(check);
        }
    }

    /// The test in one HeadroomCheck mode. \param check the mode
    void Run(const std::string& check)
    {
        Ptr<SwitchMmu> mmu = MakeSmallMmu();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        // 11 packets of 1000 B: private 3000, w 7000, headroom 1000 (MmuFillDrainTestCase k11).
        for (int k = 0; k < 11; ++k)
        {
            mmu->AdmitLossless(0, 1, 1000);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomBytes(0, 1), 1000U, check << ": headroom");
        // Releasing 2500 B takes the 1000 B of headroom, then 1500 B of shared: w 5500.
        // T = 0.5 (20,000 - 5,500) = 7,250, Xon 6,250 > 5,500: RESUME.
        NS_TEST_EXPECT_MSG_EQ(mmu->ReleaseLossless(0, 1, 2500), true, check << ": RESUME");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomBytes(0, 1), 0U, check << ": headroom");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedBytes(0, 1), 5500U, check << ": shared");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPrivateBytes(0, 1), 3000U, check << ": private");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 5500U, check << ": shared used");
        // Releasing 6000 B: 5500 shared, then 500 private.
        NS_TEST_EXPECT_MSG_EQ(mmu->ReleaseLossless(0, 1, 6000), false, check << ": no RESUME");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedBytes(0, 1), 0U, check << ": shared");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPrivateBytes(0, 1), 2500U, check << ": private");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLosslessUsed(), 2500U, check << ": lossless used");
        // A whole packet goes to one segment: q 2500 < phi 3000, a 1500 B packet is all
        // private (private 4000 > phi); the next one, q 4000 >= phi, is shared.
        NS_TEST_EXPECT_MSG_EQ(SegmentName(mmu->AdmitLossless(0, 1, 1500).segment),
                              SegmentName(P),
                              check << ": q 2500");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPrivateBytes(0, 1), 4000U, check << ": private");
        NS_TEST_EXPECT_MSG_EQ(SegmentName(mmu->AdmitLossless(0, 1, 1500).segment),
                              SegmentName(S),
                              check << ": q 4000");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedBytes(0, 1), 1500U, check << ": shared");
    }
};

// ---------------------------------------------------------------------------
// Configuration errors (NS_FATAL_ERROR)
// ---------------------------------------------------------------------------

/// Set up a Small MMU with BufferSize 28,000 (no shared buffer).
void
SetupNoSharedBuffer()
{
    Ptr<SwitchMmu> mmu = MakeSmallMmu(0.5, 1000, 28000);
    mmu->Setup(2);
}

/// Set up a Small MMU with BufferSize 9,000 (below its lossy pool of 10,000).
void
SetupLossyPoolLargerThanBuffer()
{
    Ptr<SwitchMmu> mmu = MakeSmallMmu(0.5, 1000, 9000); // lossy pool 10,000
    mmu->Setup(2);
}

/// Set up a default (FixedResponse) MMU of two ports with a link on port 0 only.
void
SetupFormulaModeWithoutLink()
{
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetPortLink(0, DataRate("40Gbps"), NanoSeconds(1500), 1500, NanoSeconds(768));
    mmu->Setup(2);
}

/**
 * \ingroup tagger-tests
 * Configurations Setup refuses, each with a message naming the values.
 */
class MmuConfigErrorsTestCase : public MmuTestCase
{
  public:
    MmuConfigErrorsTestCase()
        : MmuTestCase("SwitchMmu: no shared buffer, a lossy pool above the buffer, a formula "
                      "headroom without a link are fatal")
    {
    }

  private:
    void DoRun() override
    {
        // BufferSize 28,000: Bs = 18,000 - 18,000 = 0.
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(&SetupNoSharedBuffer, "BufferSize 28000.*PrivateBytes 3000.*18000"),
            "",
            "no shared buffer");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(&SetupLossyPoolLargerThanBuffer,
                            "LossyPoolSize \\(10000 B\\) is larger than BufferSize \\(9000 B\\)"),
            "",
            "lossy pool larger than the buffer");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(&SetupFormulaModeWithoutLink, "FixedResponse but port 1 has no link"),
            "",
            "a formula headroom mode needs every port's link");
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-mmu": SwitchMmu on its own, every number worked out by hand.
 */
class TaggerMmuTestSuite : public TestSuite
{
  public:
    TaggerMmuTestSuite()
        : TestSuite("tagger-mmu", Type::UNIT)
    {
        AddTestCase(new MmuAttributesTestCase);
        AddTestCase(new MmuHeadroomPaperTestCase);
        AddTestCase(new MmuHeadroomHandTestCase);
        AddTestCase(new MmuSetupPerPortTestCase);
        AddTestCase(new MmuSetupSmallTestCase);
        AddTestCase(new MmuSetupWarnsTestCase);
        AddTestCase(new MmuFillDrainTestCase);
        AddTestCase(new MmuReleaseSpansTestCase);
        for (TestCase* tc : MakeSwitchMmuThresholdTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakeSwitchMmuReferenceTestCases())
        {
            AddTestCase(tc);
        }
        AddTestCase(new MmuConfigErrorsTestCase);
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerMmuTestSuite g_taggerMmuTestSuite;
