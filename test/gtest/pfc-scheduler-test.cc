/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the egress schedulers.  Pick sequences of DWRR are traced by hand
 * in the comments (deficit of each class after each visit); long-run shares
 * are compared with the weight ratio; a plain, one-visit-at-a-time DWRR
 * written here from the description of Shreedhar and Varghese checks the
 * scheduler on random inputs.
 */

#include "pfc-scheduler.h"

#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

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

/// Select, check the pick is eligible, notify the send; return the class.
uint8_t
Pick(PfcScheduler& s, uint8_t eligible, const Heads& heads)
{
    uint8_t c = s.Select(eligible, heads);
    EXPECT_LT(c, kPfcClasses);
    EXPECT_TRUE(eligible & (1u << c)) << "class " << int(c) << " is not eligible";
    s.NotifySent(c, heads[c]);
    return c;
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

} // namespace

TEST(PfcScheduler, TypeIds)
{
    TypeId tid;
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::PfcScheduler", &tid));
    EXPECT_EQ(tid.GetGroupName(), "Tagger");
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::StrictPriorityPfcScheduler", &tid));
    EXPECT_EQ(tid.GetParent(), PfcScheduler::GetTypeId());
    ASSERT_TRUE(TypeId::LookupByNameFailSafe("ns3::DwrrPfcScheduler", &tid));
    EXPECT_EQ(tid.GetParent(), PfcScheduler::GetTypeId());

    // Created by name with attributes, as a helper would.
    ObjectFactory f("ns3::DwrrPfcScheduler");
    f.Set("Weights", StringValue("1,2,3,4,5,6,7,8"));
    Ptr<Object> o = f.Create();
    Ptr<DwrrPfcScheduler> d = DynamicCast<DwrrPfcScheduler>(o);
    ASSERT_TRUE(d);
    StringValue w;
    d->GetAttribute("Weights", w);
    EXPECT_EQ(w.Get(), "1,2,3,4,5,6,7,8");
    UintegerValue q;
    d->GetAttribute("Quantum", q);
    EXPECT_EQ(q.Get(), 1600u);

    Ptr<DwrrPfcScheduler> def = CreateObject<DwrrPfcScheduler>();
    def->GetAttribute("Weights", w);
    EXPECT_EQ(w.Get(), "1,1,1,1,1,1,1,1");
    // Blanks around the numbers are accepted.
    def->SetAttribute("Weights", StringValue(" 2, 1,1,1 ,1,1,1,1"));
    def->GetAttribute("Weights", w);
    EXPECT_EQ(w.Get(), "2,1,1,1,1,1,1,1");
}

TEST(PfcScheduler, StrictPriorityPicksHighestClass)
{
    Ptr<StrictPriorityPfcScheduler> s = CreateObject<StrictPriorityPfcScheduler>();
    Heads heads;
    heads.fill(1500);
    EXPECT_EQ(s->Select(0b00000001, heads), 0);
    EXPECT_EQ(s->Select(0b10000001, heads), 7);
    EXPECT_EQ(s->Select(0b00101100, heads), 5);
    EXPECT_EQ(s->Select(0b00000110, heads), 2);
    EXPECT_EQ(s->Select(0b11111111, heads), 7);
    EXPECT_EQ(s->Select(0b01000000, heads), 6);
    // No memory: the same input gives the same pick after sends.
    for (int i = 0; i < 10; ++i)
    {
        EXPECT_EQ(Pick(*s, 0b00011010, heads), 4);
    }
}

TEST(PfcScheduler, DwrrSharesFollowWeights)
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
        EXPECT_NEAR(bytes[c], expected, 0.015 * expected) << "class " << int(c);
    }

    // A simple exact case: weights 1 and 2 on classes 0 and 1, Quantum 1000,
    // heads 1000: each round class 0 sends 1 frame, class 1 two.
    Ptr<DwrrPfcScheduler> t = MakeDwrr("1,2,1,1,1,1,1,1", 1000);
    std::vector<uint8_t> seq;
    for (int i = 0; i < 9; ++i)
    {
        seq.push_back(Pick(*t, 0b11, heads));
    }
    EXPECT_EQ(seq, (std::vector<uint8_t>{0, 1, 1, 0, 1, 1, 0, 1, 1}));
}

TEST(PfcScheduler, DwrrHeadsLargerThanQuantum)
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
    EXPECT_EQ(seq, (std::vector<uint8_t>{1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1}));
    // 600 picks = 100 periods: 200 of class 0, 400 of class 1; 12 already made.
    std::array<uint32_t, 2> count{4, 8};
    for (int i = 12; i < 600; ++i)
    {
        ++count[Pick(*s, 0b11, heads)];
    }
    EXPECT_EQ(count[0], 200u);
    EXPECT_EQ(count[1], 400u);

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
    EXPECT_NEAR(bytes[0], 9e6, 0.002 * 9e6);
    EXPECT_NEAR(bytes[1], 27e6, 0.002 * 27e6);
}

TEST(PfcScheduler, DwrrIneligibleClassKeepsNoDeficit)
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
    EXPECT_EQ(seq, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 1}));

    // A class paused for a long time gets nothing and builds up no credit:
    // when it resumes it sends one quantum's worth in its first turn.
    // Weights 1, Quantum 1600, heads 1000 on classes 0 and 1.
    Ptr<DwrrPfcScheduler> t = MakeDwrr("1,1,1,1,1,1,1,1", 1600);
    heads.fill(1000);
    for (int i = 0; i < 1000; ++i)
    {
        EXPECT_EQ(Pick(*t, 0b01, heads), 0);
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
    ASSERT_LE(firstOne, 1u); // class 0 has less than 2000 left: at most 1 more frame
    ASSERT_LT(firstOne + 1, after.size());
    EXPECT_EQ(after[firstOne], 1);
    EXPECT_EQ(after[firstOne + 1], 0) << "class 1 sent more than one quantum on resuming";
}

TEST(PfcScheduler, DwrrMatchesPlainDwrrOnRandomInput)
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
        ASSERT_EQ(got, expected) << "pick " << i;
        s->NotifySent(got, heads[got]);
        ref.NotifySent(expected, heads[expected]);
        heads[got] = 64 + rng() % 2937; // the next frame of that class
    }
}

TEST(PfcSchedulerDeathTest, MalformedWeightsAreFatal)
{
    Ptr<DwrrPfcScheduler> s = CreateObject<DwrrPfcScheduler>();
    EXPECT_DEATH(s->SetAttribute("Weights", StringValue("1,2,x,1,1,1,1,1")),
                 "Weights.*1,2,x,1,1,1,1,1");
    EXPECT_DEATH(s->SetAttribute("Weights", StringValue("1,1,1")), "Weights.*1,1,1");
    EXPECT_DEATH(s->SetAttribute("Weights", StringValue("1,1,1,1,1,1,1,0")), "Weights");
    EXPECT_DEATH(s->SetAttribute("Weights", StringValue("1,1,1,1,1,1,1,1,1")), "Weights");
    EXPECT_DEATH(s->SetAttribute("Weights", StringValue("1,1,1,1,1,1,1,")), "Weights");
    EXPECT_DEATH(s->SetAttribute("Weights", StringValue("")), "Weights");
}
