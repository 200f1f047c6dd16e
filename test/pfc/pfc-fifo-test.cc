/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of PfcFifo, the ring buffer of the port queues, in the TestSuite
 * "tagger-pfc-device" (MakePfcFifoTestCases(), pfc-test-util.h): random
 * sequences of push_back, pop_front, clear and swap against std::deque as the
 * reference (contents in order, front, back, size), through several growths
 * and wrap-arounds; a Ptr is released when its element is popped, not when
 * the slot is reused.
 */

#include "pfc-test-util.h"

#include "ns3/packet.h"
#include "ns3/pfc-fifo.h"
#include "ns3/test.h"

#include <deque>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup tagger-tests
 * 20 random sequences of 2,000 operations on two PfcFifo<int> and two
 * std::deque<int>, compared after every operation.
 */
class PfcFifoReferenceTestCase : public TestCase
{
  public:
    PfcFifoReferenceTestCase()
        : TestCase("PfcFifo: random push, pop, clear and swap against std::deque")
    {
    }

  private:
    /// \param fifo the queue \param ref the reference \param what the step
    void Compare(const PfcFifo<int>& fifo, const std::deque<int>& ref, const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(fifo.size(), ref.size(), "size after " << what);
        NS_TEST_ASSERT_MSG_EQ(fifo.empty(), ref.empty(), "empty after " << what);
        std::vector<int> got(fifo.begin(), fifo.end());
        std::vector<int> want(ref.begin(), ref.end());
        NS_TEST_ASSERT_MSG_EQ((got == want), true, "contents after " << what);
        if (!ref.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(fifo.front(), ref.front(), "front after " << what);
        }
    }

    void DoRun() override
    {
        std::mt19937 rng(7);
        for (int seq = 0; seq < 20; ++seq)
        {
            PfcFifo<int> fifo[2];
            std::deque<int> ref[2];
            int next = 0;
            for (int step = 0; step < 2000; ++step)
            {
                int q = rng() % 2;
                uint32_t op = rng() % 100;
                std::string what = "step " + std::to_string(step) + " of sequence " +
                                   std::to_string(seq) + ", op " + std::to_string(op);
                // Mostly pushes and pops (queues grow to tens, empty, wrap).
                if (op < uint32_t(55 - seq))
                {
                    fifo[q].push_back(next);
                    ref[q].push_back(next);
                    ++next;
                    NS_TEST_ASSERT_MSG_EQ(fifo[q].back(), ref[q].back(), "back after " << what);
                }
                else if (op < 97)
                {
                    if (!ref[q].empty())
                    {
                        fifo[q].pop_front();
                        ref[q].pop_front();
                    }
                }
                else if (op < 98)
                {
                    fifo[q].clear();
                    ref[q].clear();
                }
                else
                {
                    fifo[0].swap(fifo[1]);
                    ref[0].swap(ref[1]);
                }
                Compare(fifo[0], ref[0], what);
                Compare(fifo[1], ref[1], what);
            }
        }
    }
};

/**
 * \ingroup tagger-tests
 * A popped Ptr is released at once; clear() releases every element.
 */
class PfcFifoReleaseTestCase : public TestCase
{
  public:
    PfcFifoReleaseTestCase()
        : TestCase("PfcFifo: pop_front and clear release their Ptr")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> a = Create<Packet>(10);
        Ptr<Packet> b = Create<Packet>(20);
        PfcFifo<Ptr<Packet>> fifo;
        fifo.push_back(a);
        fifo.push_back(b);
        // Ours (a, b) plus the queue's copies.
        NS_TEST_ASSERT_MSG_EQ(a->GetReferenceCount(), 2, "a queued");
        fifo.pop_front();
        NS_TEST_ASSERT_MSG_EQ(a->GetReferenceCount(), 1, "a popped: its slot holds nothing");
        NS_TEST_ASSERT_MSG_EQ(fifo.front(), b, "b at the front");
        fifo.clear();
        NS_TEST_ASSERT_MSG_EQ(b->GetReferenceCount(), 1, "b cleared");
        NS_TEST_ASSERT_MSG_EQ(fifo.empty(), true, "empty after clear");
    }
};

} // namespace

std::vector<TestCase*>
MakePfcFifoTestCases()
{
    return {new PfcFifoReferenceTestCase, new PfcFifoReleaseTestCase};
}
