/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * SwitchMmu thresholds with more than one queue, in the TestSuite
 * "tagger-mmu" (MakeSwitchMmuThresholdTestCases(), switch-mmu-test-util.h):
 * the Dynamic Threshold T(t) shrinking with the other queues' shared bytes,
 * RESUME on arrival, T(t) clamped at zero, the two HeadroomCheck modes where
 * they part, RESUME only with an empty headroom, static thresholds and the
 * lossy pool.  The Small configuration (MakeSmallMmu) and the reading of the
 * step tables are in switch-mmu-test-suite.cc.  Every expected number is
 * worked out by hand in the comment next to it.
 */

#include "switch-mmu-test-util.h"

#include "ns3/double.h"
#include "ns3/pfc-types.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// ---------------------------------------------------------------------------
// Dynamic Threshold with two queues
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Base of the cases that start from two filled queues.
 */
class MmuTwoQueuesTestCase : public MmuTestCase
{
  public:
    /// \param name the test name
    explicit MmuTwoQueuesTestCase(const std::string& name)
        : MmuTestCase(name)
    {
    }

  protected:
    /**
     * Small (Alpha 0.5, XonOffset 1000).  Queue B = (1, 1) takes 9 packets of 1000 B:
     * private 3000, w_B 6000 (as MmuFillDrainTestCase k1..9).  Then queue A = (0, 1)
     * takes 9 packets; its T shrinks with B's occupancy.  Returns with A OFF.
     * \param mmu the MMU (set up) \param check the HeadroomCheck mode, for messages
     */
    void FillTwoQueues(Ptr<SwitchMmu> mmu, const std::string& check)
    {
        for (int k = 0; k < 9; ++k)
        {
            mmu->AdmitLossless(1, 1, 1000);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedBytes(1, 1), 6000U, check << ": w_B");
        // T = 0.5 (20,000 - 6,000) = 7,000 for every queue now.
        NS_TEST_ASSERT_MSG_EQ(mmu->GetDynamicThreshold(), 7000U, check << ": T");

        const std::vector<MmuStep> a = {
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
            AdmitAndCheck(mmu, 0, a[k], check + ", A arrival " + std::to_string(k + 1));
        }
        // A releases its headroom: q 8000, w 5000 >= Xon 3,500: still OFF.
        ReleaseAndCheck(mmu,
                        0,
                        {P, 3000, 5000, 0, 4500, 3500, false, false, true},
                        check + ", A release");
    }

    /**
     * A Small MMU (Alpha 0.5, XonOffset 1000) of 2 ports, set up.
     * \param check the HeadroomCheck mode \return the MMU
     */
    static Ptr<SwitchMmu> SmallMmu(const std::string& check)
    {
        Ptr<SwitchMmu> mmu = MakeSmallMmu();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        return mmu;
    }
};

/**
 * \ingroup tagger-tests
 * A's threshold shrinks with B's shared bytes: A pauses where, alone, it would not.
 */
class MmuShrinksTestCase : public MmuTwoQueuesTestCase
{
  public:
    MmuShrinksTestCase()
        : MmuTwoQueuesTestCase("SwitchMmu: T(t) shrinks with the other queues' shared bytes")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string check : kChecks)
        {
            Ptr<SwitchMmu> mmu = SmallMmu(check);
            FillTwoQueues(mmu, check);
            NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 11000U, check << ": 5000 (A) + 6000 (B)");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetPauseCount(), 1U, check << ": pauses");
            NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(1, 1), false, check << ": B ON");
        }
    }
};

/**
 * \ingroup tagger-tests
 * An OFF queue whose w falls below a growing Xon resumes on its next arrival.
 */
class MmuArrivalResumeTestCase : public MmuTwoQueuesTestCase
{
  public:
    MmuArrivalResumeTestCase()
        : MmuTwoQueuesTestCase("SwitchMmu: an OFF queue below Xon resumes on arrival")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string check : kChecks)
        {
            Ptr<SwitchMmu> mmu = SmallMmu(check);
            FillTwoQueues(mmu, check);
            // B releases shared bytes; T and Xon grow, A (no event of its own) stays OFF.
            // After j releases: sum w = 11,000 - 1000 j, T = 0.5 (9,000 + 1000 j), Xon = T - 1000.
            const uint64_t t[] = {5000, 5500, 6000, 6500};
            for (int j = 1; j <= 4; ++j)
            {
                NS_TEST_EXPECT_MSG_EQ(mmu->ReleaseLossless(1, 1, 1000),
                                      false,
                                      check << ": B is ON, release " << j);
                NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(),
                                      t[j - 1],
                                      check << ": T, release " << j);
                NS_TEST_EXPECT_MSG_EQ(mmu->GetXon(),
                                      t[j - 1] - 1000,
                                      check << ": Xon, release " << j);
                NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(0, 1), true, check << ": A OFF, release " << j);
            }
            // Now w_A 5000 < Xon 5,500.  A arrival: q 8000 < 3000 + 6,500: shared (case 2),
            // OFF and w < Xon: RESUME on arrival; w_A 6000.
            SwitchMmu::Admission adm = mmu->AdmitLossless(0, 1, 1000);
            NS_TEST_EXPECT_MSG_EQ(SegmentName(adm.segment), SegmentName(S), check << ": segment");
            NS_TEST_EXPECT_MSG_EQ(adm.pause, false, check << ": PAUSE");
            NS_TEST_EXPECT_MSG_EQ(adm.resume, true, check << ": RESUME");
            NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(0, 1), false, check << ": A ON");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedBytes(0, 1), 6000U, check << ": w_A");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetResumeCount(), 1U, check << ": resumes");
        }
    }
};

/**
 * \ingroup tagger-tests
 * w equal to Xon is not below it: no RESUME on arrival.
 */
class MmuNoResumeAtXonTestCase : public MmuTwoQueuesTestCase
{
  public:
    MmuNoResumeAtXonTestCase()
        : MmuTwoQueuesTestCase("SwitchMmu: no RESUME on arrival when w equals Xon")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string check : kChecks)
        {
            Ptr<SwitchMmu> mmu = SmallMmu(check);
            FillTwoQueues(mmu, check);
            // Three B releases: T 6,000, Xon 5,000 = w_A (above).
            for (int j = 0; j < 3; ++j)
            {
                mmu->ReleaseLossless(1, 1, 1000);
            }
            NS_TEST_ASSERT_MSG_EQ(mmu->GetXon(), 5000U, check << ": Xon");
            // A arrival: q 8000 < 3000 + 6,000: shared; w_A 5000 is not below Xon: stays OFF.
            SwitchMmu::Admission adm = mmu->AdmitLossless(0, 1, 1000);
            NS_TEST_EXPECT_MSG_EQ(SegmentName(adm.segment), SegmentName(S), check << ": segment");
            NS_TEST_EXPECT_MSG_EQ(adm.resume, false, check << ": RESUME");
            NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(0, 1), true, check << ": A OFF");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetResumeCount(), 0U, check << ": resumes");
        }
    }
};

/**
 * \ingroup tagger-tests
 * T(t) clamps at zero once the shared bytes reach Bs; the HeadroomCheck modes
 * then part.
 */
class MmuClampsAtZeroTestCase : public MmuTestCase
{
  public:
    MmuClampsAtZeroTestCase()
        : MmuTestCase("SwitchMmu: T(t) clamps at zero when the shared pool is full")
    {
    }

  private:
    void DoRun() override
    {
        // Alpha 4, packets of 4000 B into A = (0, 1); T before each arrival = 4 (20,000 - w):
        //  a1: q 0 < phi 3000: private 4000;
        //  a2: q 4000 < 3000 + 4 * 20,000 = 83,000: shared, w 4000;
        //  a3: q 8000 < 3000 + 4 * 16,000 = 67,000: shared, w 8000;
        //  a4: q 12,000 < 3000 + 4 * 12,000 = 51,000: shared, w 12,000;
        //  a5: q 16,000 < 3000 + 4 * 8,000 = 35,000: shared, w 16,000; T = 4 * 4,000 = 16,000;
        //  a6: q 20,000 >= 3000 + 16,000 = 19,000; q < 25,000 (QueueLength) and h 0 < 6000
        //      (Occupancy): headroom, PAUSE.
        for (const std::string check : kChecks)
        {
            const bool literal = check == "QueueLength";
            Ptr<SwitchMmu> mmu = MakeSmallMmu(4.0, 1000);
            mmu->SetAttribute("HeadroomCheck", StringValue(check));
            mmu->Setup(2);
            for (int k = 0; k < 5; ++k)
            {
                mmu->AdmitLossless(0, 1, 4000);
            }
            NS_TEST_EXPECT_MSG_EQ(mmu->GetPrivateBytes(0, 1), 4000U, check << ": A private");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedBytes(0, 1), 16000U, check << ": A shared");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(), 16000U, check << ": T");
            NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossless(0, 1, 4000).pause, true, check << ": a6");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomBytes(0, 1), 4000U, check << ": A headroom");
            // Queue B overshoots the pool: private 4000 (q 0), then q 4000 < 3000 + 16,000:
            // shared, sum w = 20,000 = Bs: T = 0, Xon = 0.  Another B packet, q 8000 >=
            // 3000 + 0; q 8000 < 3000 + 0 + 6000 = 9000 and h 0 < 6000: headroom (PAUSE).
            mmu->AdmitLossless(1, 1, 4000);
            NS_TEST_EXPECT_MSG_EQ(SegmentName(mmu->AdmitLossless(1, 1, 4000).segment),
                                  SegmentName(S),
                                  check << ": B's second packet");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 20000U, check << ": shared used");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(), 0U, check << ": T");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetXon(), 0U, check << ": Xon");
            SwitchMmu::Admission adm = mmu->AdmitLossless(1, 1, 4000);
            NS_TEST_EXPECT_MSG_EQ(SegmentName(adm.segment),
                                  SegmentName(H),
                                  check << ": B's third packet");
            NS_TEST_EXPECT_MSG_EQ(adm.pause, true, check << ": B's third packet pauses");
            // 1000 B packets to B, q_B = 12,000, h_B = 4000 before the first:
            //  QueueLength: 12,000 < 3000 + 0 + 6000 = 9000? no: dropped (and every later one);
            //  Occupancy: h 4000 < 6000: headroom (h 5000); h 5000 < 6000: headroom (h 6000);
            //  h 6000 = eta: dropped.
            NS_TEST_EXPECT_MSG_EQ(SegmentName(mmu->AdmitLossless(1, 1, 1000).segment),
                                  SegmentName(literal ? D : H),
                                  check << ": B, first 1000 B");
            NS_TEST_EXPECT_MSG_EQ(SegmentName(mmu->AdmitLossless(1, 1, 1000).segment),
                                  SegmentName(literal ? D : H),
                                  check << ": B, second 1000 B");
            NS_TEST_EXPECT_MSG_EQ(SegmentName(mmu->AdmitLossless(1, 1, 1000).segment),
                                  SegmentName(D),
                                  check << ": B, third 1000 B");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomBytes(1, 1),
                                  (literal ? 4000U : 6000U),
                                  check << ": B headroom");
            // A, OFF since a6, also lost T = 16,000 to B: q_A 24,000, h_A 4000; 1000 B:
            // QueueLength 24,000 < 3000 + 0 + 6000? no: dropped; Occupancy h 4000 < 6000:
            // headroom (h 5000).
            NS_TEST_EXPECT_MSG_EQ(SegmentName(mmu->AdmitLossless(0, 1, 1000).segment),
                                  SegmentName(literal ? D : H),
                                  check << ": A, 1000 B");
            // Drops: QueueLength 3 (B) + 1 (A) = 4; Occupancy 1 (B's third).
            NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                                  (literal ? 4U : 1U),
                                  check << ": lossless drops");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetPauseCount(), 2U, check << ": pauses");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetResumeCount(), 0U, check << ": resumes");
        }
    }
};

/**
 * \ingroup tagger-tests
 * With Xon always 0 an OFF queue turns ON when its last byte leaves.
 */
class MmuXonZeroTestCase : public MmuTestCase
{
  public:
    MmuXonZeroTestCase()
        : MmuTestCase("SwitchMmu: with Xon 0 an OFF queue resumes when it is empty")
    {
    }

  private:
    void DoRun() override
    {
        // Alpha 0.5, XonOffset 20,000: Xon = max(T - 20,000, 0) = 0 always, so w < Xon
        // never holds; the queue turns ON when its last byte leaves.
        for (const std::string check : kChecks)
        {
            Ptr<SwitchMmu> mmu = MakeSmallMmu(0.5, 20000);
            mmu->SetAttribute("HeadroomCheck", StringValue(check));
            mmu->Setup(2);
            for (int k = 0; k < 11; ++k) // as MmuFillDrainTestCase: PAUSE at k11
            {
                mmu->AdmitLossless(0, 1, 1000);
            }
            NS_TEST_ASSERT_MSG_EQ(mmu->IsOff(0, 1), true, check << ": OFF");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetXon(), 0U, check << ": Xon");
            for (int r = 0; r < 10; ++r) // 11,000 B -> 1000 B
            {
                NS_TEST_EXPECT_MSG_EQ(mmu->ReleaseLossless(0, 1, 1000),
                                      false,
                                      check << ": release " << r);
            }
            NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(0, 1), true, check << ": OFF with 1000 B left");
            NS_TEST_EXPECT_MSG_EQ(mmu->ReleaseLossless(0, 1, 1000),
                                  true,
                                  check << ": RESUME, empty now");
            NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(0, 1), false, check << ": ON");
            NS_TEST_EXPECT_MSG_EQ(mmu->GetResumeCount(), 1U, check << ": resumes");
        }
    }
};

// ---------------------------------------------------------------------------
// HeadroomCheck and RESUME with a moving T(t) (Small, Alpha 0.5, XonOffset 1000)
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * T(t) shrinks after a PAUSE: QueueLength drops with headroom unused,
 * Occupancy fills the headroom.
 */
class MmuThresholdShrinksTestCase : public MmuTestCase
{
  public:
    MmuThresholdShrinksTestCase()
        : MmuTestCase("SwitchMmu: HeadroomCheck, T(t) shrinking after a PAUSE")
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
        const bool literal = check == "QueueLength";
        Ptr<SwitchMmu> mmu = MakeSmallMmu();
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(2);
        MmuTraceLog log;
        NS_TEST_ASSERT_MSG_EQ(log.Connect(mmu, 2), true, check << ": trace sources");

        // A = (0, 1) alone, 11 packets of 1000 B: as MmuFillDrainTestCase k1..11, PAUSE at
        // k11 (both checks agree: T stood still): private 3000, w_A 7000, h_A 1000,
        // T = 0.5 (20,000 - 7,000) = 6,500.
        for (int k = 1; k <= 11; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossless(0, 1, 1000).pause,
                                  (k == 11),
                                  check << ": A arrival " << k);
        }
        ExpectState(mmu,
                    0,
                    {H, 3000, 7000, 1000, 6500, 5500, false, false, true},
                    check + ", A paused");

        // While the PAUSE travels upstream, B = (1, 1) fills the shared buffer; T before
        // B's arrival = 0.5 (20,000 - 7,000 - w_B):
        const std::vector<MmuStep> b = {
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
            AdmitAndCheck(mmu, 1, b[k], check + ", B arrival " + std::to_string(k + 1));
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
        std::vector<MmuStep> a = {
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
            AdmitAndCheck(mmu, 0, a[k], check + ", A arrival " + std::to_string(k + 12));
        }
        // QueueLength: k14..17 dropped; Occupancy: k17 only.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              (literal ? 4U : 1U),
                              check << ": lossless drops");
        NS_TEST_EXPECT_MSG_EQ(log.losslessDrops,
                              (literal ? 4U : 1U),
                              check << ": traced lossless drops");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPauseCount(), 1U, check << ": B never reached case 3");
        // Lossless bytes: A 3000 + 7000 + (3000 or 6000), B 3000 + 5000.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLosslessUsed(),
                              (literal ? 21000U : 24000U),
                              check << ": lossless used");
    }
};

/**
 * \ingroup tagger-tests
 * An OFF queue below Xon stays OFF while its headroom holds bytes.
 */
class MmuResumeTestCase : public MmuTestCase
{
  public:
    MmuResumeTestCase()
        : MmuTestCase("SwitchMmu: RESUME waits for an empty headroom")
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

        // B = (1, 1) first, 9 packets: private 3000, w_B 6000 (as MmuFillDrainTestCase
        // k1..9); T = 0.5 (20,000 - 6,000) = 7,000.
        for (int k = 0; k < 9; ++k)
        {
            mmu->AdmitLossless(1, 1, 1000);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedBytes(1, 1), 6000U, check << ": w_B");

        // A = (0, 1), 10 packets (as FillTwoQueues A1..9, plus one in flight):
        const std::vector<MmuStep> a = {
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
            AdmitAndCheck(mmu, 0, a[k], check + ", A arrival " + std::to_string(k + 1));
        }

        // B drains its shared bytes: after j releases sum w = 11,000 - 1000 j,
        // T = 0.5 (9,000 + 1000 j), Xon = T - 1000.  From j = 4 on (Xon 5,500) w_A 5000
        // is below Xon while h_A = 2000 > 0.
        const uint64_t t[] = {5000, 5500, 6000, 6500, 7000, 7500};
        for (int j = 1; j <= 6; ++j)
        {
            NS_TEST_EXPECT_MSG_EQ(mmu->ReleaseLossless(1, 1, 1000),
                                  false,
                                  check << ": B is ON, release " << j);
            NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(),
                                  t[j - 1],
                                  check << ": T, release " << j);
            NS_TEST_EXPECT_MSG_EQ(mmu->GetXon(), t[j - 1] - 1000, check << ": Xon, release " << j);
            NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(0, 1), true, check << ": A OFF, release " << j);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedUsed(), 5000U, check << ": w_A only");

        // A arrival of 100 B: q_A 10,000 < phi + T = 3000 + 7,500 = 10,500: shared (case
        // 2); OFF and w_A 5000 < Xon 6,500, but h_A 2000 > 0: no RESUME.  After: w_A
        // 5,100, T = 0.5 (20,000 - 5,100) = 7,450, Xon 6,450.
        SwitchMmu::Admission adm = mmu->AdmitLossless(0, 1, 100);
        NS_TEST_EXPECT_MSG_EQ(SegmentName(adm.segment), SegmentName(S), check << ": A 100 B");
        NS_TEST_EXPECT_MSG_EQ(adm.pause, false, check << ": A 100 B, PAUSE");
        NS_TEST_EXPECT_MSG_EQ(adm.resume, false, check << ": A 100 B, RESUME");
        ExpectState(mmu,
                    0,
                    {S, 3000, 5100, 2000, 7450, 6450, false, false, true},
                    check + ", A 100 B");

        // A releases 1000 B: from the headroom, h_A 1000; w_A 5,100 < Xon 6,450 but
        // h_A > 0: still OFF.
        ReleaseAndCheck(mmu,
                        0,
                        {P, 3000, 5100, 1000, 7450, 6450, false, false, true},
                        check + ", A release 1");
        // A releases 1000 B: h_A 0, w_A 5,100 < 6,450: RESUME.
        ReleaseAndCheck(mmu,
                        0,
                        {P, 3000, 5100, 0, 7450, 6450, false, true, false},
                        check + ", A release 2");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPauseCount(), 1U, check << ": pauses");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetResumeCount(), 1U, check << ": resumes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              0U,
                              check << ": lossless drops");
    }
};

// ---------------------------------------------------------------------------
// Static thresholds
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Static Xoff / Xon: the same threshold for every queue, whatever the others hold.
 */
class MmuStaticTestCase : public MmuTestCase
{
  public:
    MmuStaticTestCase()
        : MmuTestCase("SwitchMmu: static Xoff and Xon")
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
        mmu->SetAttribute("ThresholdMode", StringValue("Static"));
        mmu->SetAttribute("StaticXoff", UintegerValue(5000));
        mmu->SetAttribute("StaticXon", UintegerValue(2000));
        mmu->Setup(2);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(), 5000U, check << ": T = StaticXoff");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetXon(), 2000U, check << ": Xon = StaticXon");

        // T = 5000 always: phi + T = 8000, phi + T + eta = 14,000.
        const std::vector<MmuStep> fill = {
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
            AdmitAndCheck(mmu, 0, fill[k], check + ", arrival " + std::to_string(k + 1));
        }
        // The other queue's threshold does not depend on A's shared bytes: B = (1, 1)
        // also gets 5 shared packets and pauses at its 9th.
        for (int k = 1; k <= 9; ++k)
        {
            SwitchMmu::Admission adm = mmu->AdmitLossless(1, 1, 1000);
            NS_TEST_EXPECT_MSG_EQ(SegmentName(adm.segment),
                                  SegmentName(k <= 3 ? P : (k <= 8 ? S : H)),
                                  check << ": B arrival " << k);
            NS_TEST_EXPECT_MSG_EQ(adm.pause, (k == 9), check << ": B arrival " << k << ", PAUSE");
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 10000U, check << ": shared used");

        const std::vector<MmuStep> drain = {
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
            ReleaseAndCheck(mmu, 0, drain[r], check + ", release " + std::to_string(r + 1));
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPauseCount(), 2U, check << ": pauses");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetResumeCount(), 1U, check << ": resumes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              1U,
                              check << ": lossless drops");
    }
};

// ---------------------------------------------------------------------------
// Lossy pool
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * The lossy pool's Dynamic Threshold: admit iff b + bytes <= LossyAlpha * free.
 */
class MmuLossyTestCase : public MmuTestCase
{
  public:
    MmuLossyTestCase()
        : MmuTestCase("SwitchMmu: lossy pool, Dynamic Threshold admits and drops")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = MakeSmallMmu(); // lossy pool 10,000 B, LossyAlpha 1; class 0 lossy
        mmu->Setup(2);
        MmuTraceLog log;
        NS_TEST_ASSERT_MSG_EQ(log.Connect(mmu, 2), true, "trace sources");
        // Rule: admit iff b + bytes <= 1.0 * (10,000 - used).  Queue (0, 0), 1000 B:
        // b = used = 0: 1000 <= 10,000; 1000: 2000 <= 9000; 2000: 3000 <= 8000;
        // 3000: 4000 <= 7000; 4000: 5000 <= 6000; 5000: 6000 <= 5000 fails: drop.
        for (int k = 1; k <= 5; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(0, 0, 1000), true, "(0, 0) packet " << k);
            NS_TEST_EXPECT_MSG_EQ(log.lastLossy[0], 1000U * k, "(0, 0) occupancy " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(0, 0, 1000), false, "(0, 0) packet 6");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyBytes(0, 0), 5000U, "(0, 0) bytes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyUsed(), 5000U, "lossy used");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), 1U, "lossy drops");
        NS_TEST_EXPECT_MSG_EQ(log.lossyDrops, 1U, "traced lossy drops");
        NS_TEST_EXPECT_MSG_EQ(log.lastPort, 0U, "port of the drop");
        NS_TEST_EXPECT_MSG_EQ(unsigned(log.lastCls), 0U, "class of the drop");
        // Queue (1, 0): b 0, used 5000: 1000 <= 5000; b 1000, used 6000: 2000 <= 4000;
        // b 2000, used 7000: 3000 <= 3000 (equal: admitted); b 3000, used 8000:
        // 4000 <= 2000 fails.
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1000), true, "(1, 0) packet 1");
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1000), true, "(1, 0) packet 2");
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1000), true, "(1, 0) packet 3");
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1000), false, "(1, 0) packet 4");
        // Queue (0, 0) again: 6000 <= 2000 fails.
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(0, 0, 1000), false, "(0, 0) again");
        // Another lossy class on port 0, (0, 3) [LosslessClasses 0x02]: 1000 <= 2000.
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(0, 3, 1000), true, "(0, 3) packet 1");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyUsed(), 9000U, "lossy used");
        // (1, 0) releases 1000: b 2000, used 8000.  Then (1, 0) 1500 B: 3500 <= 2000 fails;
        // (0, 3) 1000 B: 2000 <= 2000 admitted.
        mmu->ReleaseLossy(1, 0, 1000);
        NS_TEST_EXPECT_MSG_EQ(log.lastLossy[1 * 8 + 0], 2000U, "(1, 0) occupancy");
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1500), false, "(1, 0) 1500 B");
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(0, 3, 1000), true, "(0, 3) packet 2");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), 4U, "lossy drops");
        NS_TEST_EXPECT_MSG_EQ(log.lossyDrops, 4U, "traced lossy drops");
        // The lossless pool is untouched.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLosslessUsed(), 0U, "lossless used");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 0U, "shared used");

        // Drain everything: 5000 + 2000 + 2000.
        mmu->ReleaseLossy(0, 0, 5000);
        mmu->ReleaseLossy(1, 0, 2000);
        mmu->ReleaseLossy(0, 3, 2000);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyUsed(), 0U, "lossy used after the drain");
        NS_TEST_EXPECT_MSG_EQ(log.lossyEvents,
                              10U + 4U,
                              "LossyOccupancy events: 5 + 3 + 2 admissions, 4 releases");
    }
};

/**
 * \ingroup tagger-tests
 * With a large LossyAlpha the pool's free space caps the admissions.
 */
class MmuLossyPoolCapTestCase : public MmuTestCase
{
  public:
    MmuLossyPoolCapTestCase()
        : MmuTestCase("SwitchMmu: lossy pool, a large LossyAlpha is capped by the free space")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = MakeSmallMmu();
        mmu->SetAttribute("LossyAlpha", DoubleValue(8.0));
        mmu->Setup(2);
        // (0, 0), 1000 B: admit while b + 1000 <= 8 (10,000 - b): b = 8000: 9000 <= 16,000
        // admitted; b = 9000: 10,000 <= 8000 fails.  So 9 packets.
        for (int k = 1; k <= 9; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(0, 0, 1000), true, "(0, 0) packet " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(0, 0, 1000), false, "(0, 0) packet 10");
        // (1, 0), 1500 B: the DT alone admits (1500 <= 8 * 1000 = 8000), but the pool has
        // only 1000 B free: dropped.  1000 B fits exactly.
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1500), false, "(1, 0) 1500 B");
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1000), true, "(1, 0) 1000 B");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyUsed(), 10000U, "lossy used");
        NS_TEST_EXPECT_MSG_EQ(mmu->AdmitLossy(1, 0, 1), false, "(1, 0) 1 B");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW), 3U, "lossy drops");
    }
};

} // namespace

std::vector<TestCase*>
MakeSwitchMmuThresholdTestCases()
{
    return {new MmuShrinksTestCase,
            new MmuArrivalResumeTestCase,
            new MmuNoResumeAtXonTestCase,
            new MmuClampsAtZeroTestCase,
            new MmuXonZeroTestCase,
            new MmuThresholdShrinksTestCase,
            new MmuResumeTestCase,
            new MmuStaticTestCase,
            new MmuLossyTestCase,
            new MmuLossyPoolCapTestCase};
}
