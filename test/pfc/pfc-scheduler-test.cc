/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of the egress schedulers, in the TestSuite "tagger-pfc-device"
 * (MakePfcSchedulerTestCases(), pfc-test-util.h).  Pick sequences of DWRR are
 * traced by hand in the comments (deficit of each class after each visit);
 * long-run shares are compared with the weight ratio; a plain,
 * one-visit-at-a-time DWRR written here from the description of Shreedhar
 * and Varghese checks the scheduler on random inputs.
 */

#include "../tagger-test-helpers.h"
#include "pfc-test-util.h"

#include "ns3/object-factory.h"
#include "ns3/pfc-scheduler.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using tagger::test::CheckFatalError;

namespace
{

/// Head-of-line frame size of each class.
using Heads = std::array<uint32_t, kPfcClasses>;

/// A DWRR scheduler with the given Weights and Quantum attributes.
Ptr<DwrrPfcScheduler>
MakeDwrr(const std::string& weights, uint32_t quantum = 1600)
{
    Ptr<DwrrPfcScheduler> s = CreateObject<DwrrPfcScheduler>();
    s->SetAttribute("Weights", StringValue(weights));
    s->SetAttribute("Quantum", UintegerValue(quantum));
    return s;
}

/// \param classes a pick sequence \return it as "0 1 1 ...", for comparisons
std::string
Join(const std::vector<uint8_t>& classes)
{
    std::ostringstream os;
    for (size_t i = 0; i < classes.size(); ++i)
    {
        os << (i ? " " : "") << int(classes[i]);
    }
    return os.str();
}

/// A plain DWRR: one visit per step, no shortcut.
class ReferenceDwrr
{
  public:
    ReferenceDwrr(const std::array<int64_t, kPfcClasses>& weights, int64_t quantum)
        : m_weights(weights),
          m_quantum(quantum)
    {
    }

    uint8_t Select(uint8_t eligible, const Heads& heads)
    {
        while (true)
        {
            if (!m_started)
            {
                m_deficit[m_cur] += m_weights[m_cur] * m_quantum;
                m_started = true;
            }
            bool isEligible = (eligible >> m_cur) & 1;
            if (isEligible && m_deficit[m_cur] >= heads[m_cur])
            {
                return m_cur;
            }
            if (!isEligible)
            {
                m_deficit[m_cur] = 0;
            }
            m_cur = (m_cur + 1) % kPfcClasses;
            m_started = false;
        }
    }

    void NotifySent(uint8_t c, uint32_t bytes)
    {
        m_deficit[c] -= bytes;
    }

  private:
    std::array<int64_t, kPfcClasses> m_weights;
    int64_t m_quantum;
    std::array<int64_t, kPfcClasses> m_deficit{};
    uint8_t m_cur{0};
    bool m_started{false};
};

/**
 * \ingroup tagger-tests
 * Base of the scheduler test cases: a pick that checks itself.
 */
class SchedulerTestCase : public TestCase
{
  public:
    /// \param name the test name
    explicit SchedulerTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Select, check the pick is eligible, notify the send.
     * \param s the scheduler \param eligible the eligible classes \param heads head sizes
     * \return the class picked
     */
    uint8_t Pick(PfcScheduler& s, uint8_t eligible, const Heads& heads)
    {
        uint8_t c = s.Select(eligible, heads);
        NS_TEST_EXPECT_MSG_LT(unsigned(c), unsigned(kPfcClasses), "the pick is a class");
        NS_TEST_EXPECT_MSG_EQ(bool(eligible & (1u << c)),
                              true,
                              "class " << int(c) << " is not eligible");
        s.NotifySent(c, heads[c]);
        return c;
    }
};

/**
 * \ingroup tagger-tests
 * The schedulers' TypeIds, creation by name with attributes, and the
 * Weights attribute's format.
 */
class SchedulerTypeIdsTestCase : public SchedulerTestCase
{
  public:
    SchedulerTypeIdsTestCase()
        : SchedulerTestCase("PfcScheduler: TypeIds, created by name, the Weights attribute")
    {
    }

  private:
    /**
     * Look up a TypeId by name.
     * \param name the TypeId's name \param tid where to put it
     * \return whether it exists
     */
    bool Lookup(const std::string& name, TypeId& tid)
    {
        tid = TypeId();
        NS_TEST_EXPECT_MSG_EQ(TypeId::LookupByNameFailSafe(name, &tid),
                              true,
                              name << " is registered");
        return tid.GetUid() != 0;
    }

    void DoRun() override
    {
        // (NS_TEST_ASSERT returns only under --stop-on-failure: the returns below
        // keep a failed lookup from reaching the TypeId's accessors.)
        TypeId tid;
        if (!Lookup("ns3::PfcScheduler", tid))
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(tid.GetGroupName(), "Tagger", "PfcScheduler group");
        if (!Lookup("ns3::StrictPriorityPfcScheduler", tid))
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(tid.GetParent(), PfcScheduler::GetTypeId(), "its parent");
        if (!Lookup("ns3::DwrrPfcScheduler", tid))
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(tid.GetParent(), PfcScheduler::GetTypeId(), "its parent");

        // Created by name with attributes, as a helper would.
        ObjectFactory f("ns3::DwrrPfcScheduler");
        f.Set("Weights", StringValue("1,2,3,4,5,6,7,8"));
        Ptr<Object> o = f.Create();
        Ptr<DwrrPfcScheduler> d = DynamicCast<DwrrPfcScheduler>(o);
        NS_TEST_ASSERT_MSG_NE(d, nullptr, "the factory makes a DwrrPfcScheduler");
        if (!d)
        {
            return;
        }
        StringValue w;
        d->GetAttribute("Weights", w);
        NS_TEST_EXPECT_MSG_EQ(w.Get(), "1,2,3,4,5,6,7,8", "Weights set by the factory");
        UintegerValue q;
        d->GetAttribute("Quantum", q);
        NS_TEST_EXPECT_MSG_EQ(q.Get(), 1600u, "default Quantum");

        Ptr<DwrrPfcScheduler> def = CreateObject<DwrrPfcScheduler>();
        def->GetAttribute("Weights", w);
        NS_TEST_EXPECT_MSG_EQ(w.Get(), "1,1,1,1,1,1,1,1", "default Weights");
        // Blanks around the numbers are accepted.
        def->SetAttribute("Weights", StringValue(" 2, 1,1,1 ,1,1,1,1"));
        def->GetAttribute("Weights", w);
        NS_TEST_EXPECT_MSG_EQ(w.Get(), "2,1,1,1,1,1,1,1", "Weights with blanks");
    }
};

/**
 * \ingroup tagger-tests
 * Strict priority picks the highest eligible class, whatever was sent before.
 */
class StrictPriorityTestCase : public SchedulerTestCase
{
  public:
    StrictPriorityTestCase()
        : SchedulerTestCase("StrictPriorityPfcScheduler: picks the highest eligible class")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<StrictPriorityPfcScheduler> s = CreateObject<StrictPriorityPfcScheduler>();
        Heads heads;
        heads.fill(1500);
        NS_TEST_EXPECT_MSG_EQ(int(s->Select(0b00000001, heads)), 0, "eligible 0b00000001");
        NS_TEST_EXPECT_MSG_EQ(int(s->Select(0b10000001, heads)), 7, "eligible 0b10000001");
        NS_TEST_EXPECT_MSG_EQ(int(s->Select(0b00101100, heads)), 5, "eligible 0b00101100");
        NS_TEST_EXPECT_MSG_EQ(int(s->Select(0b00000110, heads)), 2, "eligible 0b00000110");
        NS_TEST_EXPECT_MSG_EQ(int(s->Select(0b11111111, heads)), 7, "eligible 0b11111111");
        NS_TEST_EXPECT_MSG_EQ(int(s->Select(0b01000000, heads)), 6, "eligible 0b01000000");
        // No memory: the same input gives the same pick after sends.
        for (int i = 0; i < 10; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(Pick(*s, 0b00011010, heads)), 4, "pick " << i);
        }
    }
};

/**
 * \ingroup tagger-tests
 * DWRR gives each class a share of the bytes in proportion to its weight.
 */
class DwrrSharesTestCase : public SchedulerTestCase
{
  public:
    DwrrSharesTestCase()
        : SchedulerTestCase("DwrrPfcScheduler: byte shares follow the weights")
    {
    }

  private:
    void DoRun() override
    {
        // Weights 1..8, all classes always eligible, 1000-byte heads, Quantum 1600.
        // Class c is credited 1600 * (c + 1) bytes per round, so its share of the
        // bytes is (c + 1) / (1 + 2 + ... + 8) = (c + 1) / 36.  After 36000 picks
        // (36,000,000 bytes) class c should have sent (c + 1) * 1,000,000 bytes.
        // At any instant a class is at most one round (1600 * 8 bytes) plus one
        // head (1000) off its share: at most 13,800 bytes, i.e. 1.4 % of the
        // smallest expected count; tolerance 1.5 % of the expected count.
        Ptr<DwrrPfcScheduler> s = MakeDwrr("1,2,3,4,5,6,7,8");
        Heads heads;
        heads.fill(1000);
        std::array<uint64_t, kPfcClasses> bytes{};
        for (int i = 0; i < 36000; ++i)
        {
            uint8_t c = Pick(*s, 0xFF, heads);
            bytes[c] += heads[c];
        }
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            double expected = (c + 1) * 1e6;
            NS_TEST_EXPECT_MSG_EQ_TOL(double(bytes[c]),
                                      expected,
                                      0.015 * expected,
                                      "class " << int(c));
        }

        // A simple exact case: weights 1 and 2 on classes 0 and 1, Quantum 1000,
        // heads 1000: each round class 0 sends 1 frame, class 1 two.
        Ptr<DwrrPfcScheduler> t = MakeDwrr("1,2,1,1,1,1,1,1", 1000);
        std::vector<uint8_t> seq;
        for (int i = 0; i < 9; ++i)
        {
            seq.push_back(Pick(*t, 0b11, heads));
        }
        NS_TEST_EXPECT_MSG_EQ(Join(seq), "0 1 1 0 1 1 0 1 1", "weights 1 and 2, one frame each");
    }
};

/**
 * \ingroup tagger-tests
 * DWRR with heads larger than the quantum: the pick sequence traced by hand,
 * its period, and byte shares with jumbo frames.
 */
class DwrrLargeHeadsTestCase : public SchedulerTestCase
{
  public:
    DwrrLargeHeadsTestCase()
        : SchedulerTestCase("DwrrPfcScheduler: heads larger than the quantum, traced by hand")
    {
    }

  private:
    void DoRun() override
    {
        // Weights 1 (class 0) and 2 (class 1), Quantum 1600, heads 4000, only
        // classes 0 and 1 eligible.  Credits per turn: class 0 1600, class 1 3200.
        // Deficits (d0, d1) traced by hand, "->" = after the send of 4000:
        //  pick 1: c0 1600 no, c1 3200 no, c2..c7 reset, c0 3200 no, c1 6400 yes -> d1 2400
        //  pick 2: c1 2400 no, c0 4800 yes -> d0 800
        //  pick 3: c0 800 no, c1 2400+3200 = 5600 yes -> d1 1600
        //  pick 4: c1 1600 no, c0 800+1600 = 2400 no, c1 1600+3200 = 4800 yes -> d1 800
        //  pick 5: c1 800 no, c0 2400+1600 = 4000 yes -> d0 0
        //  pick 6: c0 0 no, c1 800+3200 = 4000 yes -> d1 0
        //  pick 7: c1 0 no, c0 1600 no, c1 3200 no, c0 3200 no, c1 6400 yes -> d1 2400,
        //          d0 3200, class 1's turn: the state after pick 1, so a period of 6
        //          picks: 1,0,1,1,0,1 (2 frames of class 0, 4 of class 1 = 1:2).
        Ptr<DwrrPfcScheduler> s = MakeDwrr("1,2,1,1,1,1,1,1", 1600);
        Heads heads;
        heads.fill(4000);
        std::vector<uint8_t> seq;
        for (int i = 0; i < 12; ++i)
        {
            seq.push_back(Pick(*s, 0b11, heads));
        }
        NS_TEST_EXPECT_MSG_EQ(Join(seq), "1 0 1 1 0 1 1 0 1 1 0 1", "the traced picks");
        // 600 picks = 100 periods: 200 of class 0, 400 of class 1; 12 already made.
        std::array<uint32_t, 2> count{4, 8};
        for (int i = 12; i < 600; ++i)
        {
            ++count[Pick(*s, 0b11, heads)];
        }
        NS_TEST_EXPECT_MSG_EQ(count[0], 200u, "frames of class 0 in 600 picks");
        NS_TEST_EXPECT_MSG_EQ(count[1], 400u, "frames of class 1 in 600 picks");

        // Jumbo heads (9000 bytes) with Quantum 1: 9000 rounds per frame for a
        // weight-1 class; weights 1 and 3 -> byte shares 1:3 (each class is at
        // most one head plus one round, 9000 + 3, off its share: with 4000 picks,
        // 36,000,000 bytes, expected 9,000,000 and 27,000,000; tolerance 0.2 %).
        Ptr<DwrrPfcScheduler> j = MakeDwrr("1,3,1,1,1,1,1,1", 1);
        heads.fill(9000);
        std::array<uint64_t, 2> bytes{};
        for (int i = 0; i < 4000; ++i)
        {
            bytes[Pick(*j, 0b11, heads)] += 9000;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(double(bytes[0]), 9e6, 0.002 * 9e6, "jumbo bytes of class 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(bytes[1]), 27e6, 0.002 * 27e6, "jumbo bytes of class 1");
    }
};

/**
 * \ingroup tagger-tests
 * An ineligible (paused) class keeps no deficit: it builds up no credit.
 */
class DwrrIneligibleTestCase : public SchedulerTestCase
{
  public:
    DwrrIneligibleTestCase()
        : SchedulerTestCase("DwrrPfcScheduler: an ineligible class keeps no deficit")
    {
    }

  private:
    void DoRun() override
    {
        // Weights 1, Quantum 1600, class 0 heads 1000, class 1 heads 3000.
        //  pick 1 {0,1}: c0 1600 yes -> d0 600
        //  pick 2 {0,1}: c0 600 no; c1 1600 < 3000 no (keeps 1600); c2..c7; c0 2200 yes -> 1200
        //  pick 3 {0,1}: c0 1200 yes -> 200
        //  pick 4 {0} (class 1 paused): c0 200 no; c1 ineligible: d1 1600 -> 0; c0 1800 yes -> 800
        //  pick 5 {0,1}: c0 800 no; c1 0 + 1600 = 1600 no (had it kept 1600: 3200, picked);
        //                c0 2400 yes -> 1400
        //  pick 6 {0,1}: c0 1400 yes -> 400
        //  pick 7 {0,1}: c0 400 no; c1 1600 + 1600 = 3200 yes
        Ptr<DwrrPfcScheduler> s = MakeDwrr("1,1,1,1,1,1,1,1", 1600);
        Heads heads;
        heads.fill(1000);
        heads[1] = 3000;
        const std::vector<uint8_t> eligible = {0b11, 0b11, 0b11, 0b01, 0b11, 0b11, 0b11};
        std::vector<uint8_t> seq;
        for (uint8_t e : eligible)
        {
            seq.push_back(Pick(*s, e, heads));
        }
        NS_TEST_EXPECT_MSG_EQ(Join(seq), "0 0 0 0 0 0 1", "the traced picks");

        // A class paused for a long time gets nothing and builds up no credit:
        // when it resumes it sends one quantum's worth in its first turn.
        // Weights 1, Quantum 1600, heads 1000 on classes 0 and 1.
        Ptr<DwrrPfcScheduler> t = MakeDwrr("1,1,1,1,1,1,1,1", 1600);
        heads.fill(1000);
        for (int i = 0; i < 1000; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(int(Pick(*t, 0b01, heads)), 0, "pick " << i << " of class 0");
        }
        // Class 1 resumes.  Class 0 holds the turn with some deficit; then class 1
        // gets 1600 = one 1000-byte frame (600 left), and the turn passes to class 0.
        std::vector<uint8_t> after;
        for (int i = 0; i < 8; ++i)
        {
            after.push_back(Pick(*t, 0b11, heads));
        }
        size_t firstOne = 0;
        while (firstOne < after.size() && after[firstOne] == 0)
        {
            ++firstOne;
        }
        // Class 0 has less than 2000 left: at most 1 more frame.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(firstOne, 1u, "picks: " << Join(after));
        NS_TEST_ASSERT_MSG_LT(firstOne + 1, after.size(), "picks: " << Join(after));
        if (firstOne + 1 >= after.size())
        {
            return; // NS_TEST_ASSERT returns only under --stop-on-failure
        }
        NS_TEST_EXPECT_MSG_EQ(int(after[firstOne]), 1, "picks: " << Join(after));
        NS_TEST_EXPECT_MSG_EQ(int(after[firstOne + 1]),
                              0,
                              "class 1 sent more than one quantum on resuming: " << Join(after));
    }
};

/**
 * \ingroup tagger-tests
 * The scheduler against the plain DWRR above on random input.
 */
class DwrrReferenceTestCase : public SchedulerTestCase
{
  public:
    DwrrReferenceTestCase()
        : SchedulerTestCase("DwrrPfcScheduler: matches a plain DWRR on random input")
    {
    }

  private:
    void DoRun() override
    {
        // The scheduler against the plain DWRR above, on random eligibility masks
        // and head sizes (64..3000 bytes) with a small Quantum (50 bytes), so that
        // many rounds pass between picks.
        std::mt19937 rng(12345);
        const std::array<int64_t, kPfcClasses> weights = {1, 3, 2, 5, 1, 4, 7, 2};
        Ptr<DwrrPfcScheduler> s = MakeDwrr("1,3,2,5,1,4,7,2", 50);
        ReferenceDwrr ref(weights, 50);
        Heads heads;
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            heads[c] = 64 + rng() % 2937;
        }
        for (int i = 0; i < 5000; ++i)
        {
            uint8_t eligible = 0;
            while (eligible == 0)
            {
                eligible = static_cast<uint8_t>(rng() & (rng() % 2 ? 0xFF : 0x0F));
            }
            uint8_t expected = ref.Select(eligible, heads);
            uint8_t got = s->Select(eligible, heads);
            NS_TEST_ASSERT_MSG_EQ(int(got), int(expected), "pick " << i);
            if (got != expected)
            {
                return; // the first difference only
            }
            s->NotifySent(got, heads[got]);
            ref.NotifySent(expected, heads[expected]);
            heads[got] = 64 + rng() % 2937; // the next frame of that class
        }
    }
};

/**
 * \ingroup tagger-tests
 * Malformed Weights end the program with a message quoting them.
 */
class DwrrBadWeightsTestCase : public SchedulerTestCase
{
  public:
    DwrrBadWeightsTestCase()
        : SchedulerTestCase("DwrrPfcScheduler: malformed Weights are fatal")
    {
    }

  private:
    /**
     * \param weights a Weights value \param pattern what the message must match
     * \return CheckFatalError's verdict for setting \p weights
     */
    static std::string SetWeights(const std::string& weights, const std::string& pattern)
    {
        Ptr<DwrrPfcScheduler> s = CreateObject<DwrrPfcScheduler>();
        return CheckFatalError(
            [&s, &weights]() { s->SetAttribute("Weights", StringValue(weights)); },
            pattern);
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(SetWeights("1,2,x,1,1,1,1,1", "Weights.*1,2,x,1,1,1,1,1"),
                              "",
                              "not a number");
        NS_TEST_EXPECT_MSG_EQ(SetWeights("1,1,1", "Weights.*1,1,1"), "", "three weights");
        NS_TEST_EXPECT_MSG_EQ(SetWeights("1,1,1,1,1,1,1,0", "Weights"), "", "a zero weight");
        NS_TEST_EXPECT_MSG_EQ(SetWeights("1,1,1,1,1,1,1,1,1", "Weights"), "", "nine weights");
        NS_TEST_EXPECT_MSG_EQ(SetWeights("1,1,1,1,1,1,1,", "Weights"), "", "an empty weight");
        NS_TEST_EXPECT_MSG_EQ(SetWeights("", "Weights"), "", "no weights");
    }
};

} // namespace

std::vector<TestCase*>
MakePfcSchedulerTestCases()
{
    return {new SchedulerTypeIdsTestCase,
            new StrictPriorityTestCase,
            new DwrrSharesTestCase,
            new DwrrLargeHeadsTestCase,
            new DwrrIneligibleTestCase,
            new DwrrReferenceTestCase,
            new DwrrBadWeightsTestCase};
}
