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
 * the slot is reused; every element is constructed and destroyed exactly once.
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

/// An element that counts the live objects of its type and checks it is alive when used.
struct Tracked
{
    static int s_live; //!< objects constructed and not yet destroyed
    int value;         //!< the payload
    uint32_t magic;    //!< kAlive while the object lives

    static constexpr uint32_t kAlive = 0x5a5a1234; //!< the mark of a live object

    /// \param v the payload
    explicit Tracked(int v)
        : value(v),
          magic(kAlive)
    {
        ++s_live;
    }

    /// \param o the original, which must be alive
    Tracked(const Tracked& o)
        : value(o.value),
          magic(o.magic == kAlive ? kAlive : 0)
    {
        ++s_live;
    }

    /// \param o the original, which must be alive (moving copies: it stays alive)
    Tracked(Tracked&& o) noexcept
        : value(o.value),
          magic(o.magic == kAlive ? kAlive : 0)
    {
        ++s_live;
    }

    Tracked& operator=(const Tracked&) = delete;

    ~Tracked()
    {
        --s_live;
        magic = 0;
    }
};

int Tracked::s_live = 0;

/**
 * \ingroup tagger-tests
 * Every element is constructed once into its slot and destroyed once, by
 * pop_front, clear, growth (the old copy) or the destructor: the live count
 * equals the elements held after every step of a random sequence, each element
 * read is alive and in order, moving a queue leaves the source empty, and
 * nothing is left alive at the end.
 */
class PfcFifoLifetimeTestCase : public TestCase
{
  public:
    PfcFifoLifetimeTestCase()
        : TestCase("PfcFifo: each element constructed and destroyed exactly once")
    {
    }

  private:
    void DoRun() override
    {
        Tracked::s_live = 0;
        {
            std::mt19937 rng(11);
            PfcFifo<Tracked> fifo[2];
            std::deque<int> ref[2];
            int next = 0;
            for (int step = 0; step < 5000; ++step)
            {
                int q = rng() % 2;
                uint32_t op = rng() % 100;
                if (op < 55)
                {
                    if (op % 2)
                    {
                        fifo[q].push_back(Tracked(next)); // the moving push
                    }
                    else
                    {
                        Tracked t(next);
                        fifo[q].push_back(t); // the copying push
                    }
                    ref[q].push_back(next++);
                }
                else if (op < 96)
                {
                    if (!ref[q].empty())
                    {
                        NS_TEST_ASSERT_MSG_EQ(fifo[q].front().magic, Tracked::kAlive, "alive");
                        NS_TEST_ASSERT_MSG_EQ(fifo[q].front().value, ref[q].front(), "in order");
                        fifo[q].pop_front();
                        ref[q].pop_front();
                    }
                }
                else if (op < 97)
                {
                    fifo[q].clear();
                    ref[q].clear();
                }
                else if (op < 98)
                {
                    fifo[0].swap(fifo[1]);
                    ref[0].swap(ref[1]);
                }
                else
                {
                    PfcFifo<Tracked> moved(std::move(fifo[q]));
                    NS_TEST_ASSERT_MSG_EQ(fifo[q].size(), 0, "moved-from queue empty");
                    fifo[q] = std::move(moved);
                    NS_TEST_ASSERT_MSG_EQ(moved.size(), 0, "moved-from queue empty");
                }
                NS_TEST_ASSERT_MSG_EQ(Tracked::s_live,
                                      int(ref[0].size() + ref[1].size()),
                                      "live elements after step " << step << ", op " << op);
                NS_TEST_ASSERT_MSG_EQ(fifo[q].size(), ref[q].size(), "size after step " << step);
                for (const Tracked& t : fifo[q])
                {
                    NS_TEST_ASSERT_MSG_EQ(t.magic, Tracked::kAlive, "an element read is alive");
                }
            }
            NS_TEST_ASSERT_MSG_GT(Tracked::s_live, 0, "the queues still hold elements");
        }
        NS_TEST_ASSERT_MSG_EQ(Tracked::s_live, 0, "the destructors destroyed every element");
    }
};

} // namespace

std::vector<TestCase*>
MakePfcFifoTestCases()
{
    return {new PfcFifoReferenceTestCase, new PfcFifoReleaseTestCase, new PfcFifoLifetimeTestCase};
}
