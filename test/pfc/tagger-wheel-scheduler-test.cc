/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of TaggerWheelScheduler, in the TestSuite "tagger-pfc-device"
 * (MakeTaggerWheelSchedulerTestCases(), pfc-test-util.h):
 *  - random sequences of Insert, PeekNext, RemoveNext and Remove against a
 *    sorted reference (time stamp, then uid), with wheels of 64 buckets of
 *    1, 4 and 16 steps so that events fall in the current bucket, in later
 *    buckets, across the wrap of the ring and beyond the wheel (the far
 *    heap), and with gaps that leave the wheel empty;
 *  - a simulation that schedules from its own events runs them in the same
 *    order under this scheduler as under ns-3's MapScheduler.
 */

#include "pfc-test-util.h"

#include "ns3/map-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-wheel-scheduler.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <random>
#include <set>
#include <tuple>
#include <vector>

using namespace ns3;

namespace
{

/// \param ev an event \return its order key (time stamp, uid)
std::tuple<uint64_t, uint32_t>
KeyOf(const Scheduler::Event& ev)
{
    return {ev.key.m_ts, ev.key.m_uid};
}

/**
 * \ingroup tagger-tests
 * 12 random sequences of 20,000 operations on a TaggerWheelScheduler and on
 * a std::set ordered by (time stamp, uid), compared after every operation.
 */
class WheelReferenceTestCase : public TestCase
{
  public:
    WheelReferenceTestCase()
        : TestCase("TaggerWheelScheduler: random insert, peek, remove-next and remove against "
                   "a sorted set")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<char> storage(64);
        for (uint32_t run = 0; run < 12; ++run)
        {
            std::mt19937_64 rng(run);
            const uint64_t width = std::vector<uint64_t>{1, 4, 16}[run % 3];
            ObjectFactory factory("ns3::TaggerWheelScheduler");
            factory.Set("BucketWidth", TimeValue(TimeStep(width)));
            factory.Set("Buckets", UintegerValue(64));
            Ptr<Scheduler> wheel = factory.Create<Scheduler>();
            std::set<std::tuple<uint64_t, uint32_t>> ref;
            uint64_t now = 0;
            uint32_t uid = 0;
            // Delays: mostly inside the wheel (64 * width steps), some far
            // beyond it, some equal to now (same time stamp, later uid).
            std::uniform_int_distribution<int> kind(0, 99);
            for (uint32_t op = 0; op < 20000; ++op)
            {
                int k = kind(rng);
                if (k < 55 || ref.empty())
                {
                    uint64_t delay = 0;
                    if (k < 10)
                    {
                        delay = 0;
                    }
                    else if (k < 45)
                    {
                        delay = rng() % (64 * width);
                    }
                    else
                    {
                        delay = rng() % (1000 * width);
                    }
                    Scheduler::Event ev;
                    ev.impl = reinterpret_cast<EventImpl*>(storage.data() + (uid % 64));
                    ev.key.m_ts = now + delay;
                    ev.key.m_uid = uid++;
                    ev.key.m_context = 0;
                    wheel->Insert(ev);
                    ref.insert(KeyOf(ev));
                }
                else if (k < 65)
                {
                    NS_TEST_ASSERT_MSG_EQ((KeyOf(wheel->PeekNext()) == *ref.begin()),
                                          true,
                                          "PeekNext, run " << run << " op " << op);
                }
                else if (k < 95)
                {
                    Scheduler::Event ev = wheel->RemoveNext();
                    NS_TEST_ASSERT_MSG_EQ((KeyOf(ev) == *ref.begin()),
                                          true,
                                          "RemoveNext, run " << run << " op " << op);
                    ref.erase(ref.begin());
                    now = ev.key.m_ts;
                }
                else
                {
                    // Remove a random pending event (Simulator::Remove).
                    auto it = ref.begin();
                    std::advance(it, rng() % ref.size());
                    Scheduler::Event ev;
                    ev.impl = nullptr;
                    ev.key.m_ts = std::get<0>(*it);
                    ev.key.m_uid = std::get<1>(*it);
                    ev.key.m_context = 0;
                    wheel->Remove(ev);
                    ref.erase(it);
                }
                NS_TEST_ASSERT_MSG_EQ(wheel->IsEmpty(), ref.empty(), "IsEmpty, op " << op);
            }
            while (!ref.empty())
            {
                NS_TEST_ASSERT_MSG_EQ((KeyOf(wheel->RemoveNext()) == *ref.begin()),
                                      true,
                                      "draining, run " << run);
                ref.erase(ref.begin());
            }
            NS_TEST_ASSERT_MSG_EQ(wheel->IsEmpty(), true, "empty at the end, run " << run);
        }
    }
};

/**
 * \ingroup tagger-tests
 * Events that schedule events (random delays from 0 to 3 ms, some at the
 * same time) run in the same order under TaggerWheelScheduler (defaults:
 * 16 ns x 1024, so the longer delays go beyond the wheel) as under ns-3's
 * MapScheduler.
 */
class WheelSimulationTestCase : public TestCase
{
  public:
    WheelSimulationTestCase()
        : TestCase("TaggerWheelScheduler: a simulation runs its events in MapScheduler's order")
    {
    }

  private:
    /// Record this event and schedule up to two more.
    /// \param id this event's number
    void Step(uint32_t id)
    {
        m_order.push_back(id);
        m_times.push_back(Simulator::Now().GetTimeStep());
        for (int i = 0; i < 2 && m_next < 30000; ++i)
        {
            uint64_t r = m_rng() % 100;
            int64_t ns = r < 10 ? 0 : r < 80 ? int64_t(m_rng() % 2000) : int64_t(m_rng() % 3000000);
            Simulator::Schedule(NanoSeconds(ns), &WheelSimulationTestCase::Step, this, m_next++);
        }
    }

    /// \param scheduler a scheduler TypeId name \return the run's event order
    std::vector<uint32_t> Play(const std::string& scheduler)
    {
        m_order.clear();
        m_times.clear();
        m_next = 0;
        m_rng.seed(7);
        Simulator::SetScheduler(ObjectFactory(scheduler));
        for (uint32_t i = 0; i < 20; ++i)
        {
            Simulator::Schedule(NanoSeconds(i % 3), &WheelSimulationTestCase::Step, this, m_next++);
        }
        Simulator::Run();
        Simulator::Destroy();
        return m_order;
    }

    void DoRun() override
    {
        std::vector<uint32_t> map = Play("ns3::MapScheduler");
        std::vector<uint32_t> wheel = Play("ns3::TaggerWheelScheduler");
        NS_TEST_ASSERT_MSG_EQ(map.size(), 30000, "every event of the map run ran");
        NS_TEST_ASSERT_MSG_EQ(wheel.size(), map.size(), "same number of events");
        NS_TEST_ASSERT_MSG_EQ((wheel == map), true, "same order");
        bool sorted = true;
        for (std::size_t i = 1; i < m_times.size(); ++i)
        {
            sorted = sorted && m_times[i - 1] <= m_times[i];
        }
        NS_TEST_ASSERT_MSG_EQ(sorted, true, "time never goes back");
    }

    std::vector<uint32_t> m_order; //!< event numbers in the order they ran
    std::vector<int64_t> m_times;  //!< their times
    uint32_t m_next{0};            //!< next event number
    std::mt19937_64 m_rng;         //!< delays
};

} // namespace

std::vector<TestCase*>
MakeTaggerWheelSchedulerTestCases()
{
    return {new WheelReferenceTestCase, new WheelSimulationTestCase};
}
