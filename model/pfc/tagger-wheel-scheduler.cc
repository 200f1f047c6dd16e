/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#include "tagger-wheel-scheduler.h"

#include "pfc-block-pool.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TaggerWheelScheduler");

NS_OBJECT_ENSURE_REGISTERED(TaggerWheelScheduler);

namespace
{
// Order: ns-3's operator< and operator> on Scheduler::Event (time stamp,
// then uid).  The current bucket is sorted with <, earliest first; the far
// heap is a heap under > (std::greater), the earliest on top.
using Earlier = std::less<Scheduler::Event>;
using Later = std::greater<Scheduler::Event>;

/// Ask the processor to fetch the first 128 bytes of \p ev's EventImpl.
/// \param ev an event
inline void
PrefetchEvent(const Scheduler::Event& ev)
{
    const char* p = reinterpret_cast<const char*>(ev.impl);
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
}

/// \param v a positive number \return the largest power of two <= v, as its log2
uint32_t
FloorLog2(uint64_t v)
{
    uint32_t n = 0;
    while (v > 1)
    {
        v >>= 1;
        ++n;
    }
    return n;
}
} // namespace

TypeId
TaggerWheelScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TaggerWheelScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("Tagger")
            .AddConstructor<TaggerWheelScheduler>()
            .AddAttribute("BucketWidth",
                          "Time one bucket of the wheel covers (rounded down to a power of "
                          "two of the time resolution, at least one step).",
                          TimeValue(NanoSeconds(16)),
                          MakeTimeAccessor(&TaggerWheelScheduler::m_width),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("Buckets",
                          "Number of buckets of the wheel (rounded down to a power of two, "
                          "64 to 2^24); events beyond Buckets x BucketWidth wait in a heap.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&TaggerWheelScheduler::m_count),
                          MakeUintegerChecker<uint32_t>(64, 1u << 24));
    return tid;
}

TaggerWheelScheduler::TaggerWheelScheduler()
{
    NS_LOG_FUNCTION(this);
}

TaggerWheelScheduler::~TaggerWheelScheduler()
{
    NS_LOG_FUNCTION(this);
}

void
TaggerWheelScheduler::Setup()
{
    m_shift = FloorLog2(std::max<int64_t>(m_width.GetTimeStep(), 1));
    NS_ABORT_MSG_IF(m_shift > 40, "TaggerWheelScheduler: BucketWidth " << m_width << " too large");
    uint64_t count = uint64_t(1) << FloorLog2(m_count);
    m_mask = count - 1;
    m_buckets.assign(count, {});
    m_nonEmpty.assign(count / 64, 0);
    m_set = true;
}

uint64_t
TaggerWheelScheduler::BucketOf(uint64_t ts) const
{
    return ts >> m_shift;
}

void
TaggerWheelScheduler::MarkBucket(uint64_t i, bool on) const
{
    uint64_t bit = uint64_t(1) << (i & 63);
    if (on)
    {
        m_nonEmpty[i >> 6] |= bit;
    }
    else
    {
        m_nonEmpty[i >> 6] &= ~bit;
    }
}

void
TaggerWheelScheduler::SortBucket(uint64_t i) const
{
    std::vector<Event>& bucket = m_buckets[i];
    const uint64_t steps = uint64_t(1) << m_shift;
    if (steps > kCountingSteps || bucket.size() < kCountingEvents)
    {
        std::sort(bucket.begin(), bucket.end(), Earlier());
        return;
    }
    // Events of equal time stamp are already in uid order here: a new event
    // has the largest uid so far, and the far heap hands its events over in
    // (time stamp, uid) order into a bucket that is still empty (an event
    // waits there only while its bucket is beyond the wheel, and they all
    // move in when the wheel reaches it).  So a stable counting sort on the
    // time stamp's offset in the bucket gives (time stamp, uid) order.
    m_counts.assign(steps + 1, 0);
    for (const Event& e : bucket)
    {
        ++m_counts[(e.key.m_ts & (steps - 1)) + 1];
    }
    for (uint64_t k = 1; k <= steps; ++k)
    {
        m_counts[k] += m_counts[k - 1];
    }
    // Copied out and scattered back: the bucket keeps its buffer, and
    // m_spare its own, as large as the largest bucket counted so far.
    m_spare.assign(bucket.begin(), bucket.end());
    for (const Event& e : m_spare)
    {
        bucket[m_counts[e.key.m_ts & (steps - 1)]++] = e;
    }
    NS_ASSERT(std::is_sorted(bucket.begin(), bucket.end(), Earlier()));
}

void
TaggerWheelScheduler::ReleaseBucket(uint64_t b)
{
    std::vector<Event>& bucket = m_buckets[b & m_mask];
    bucket.clear();
    m_pool.emplace_back();
    m_pool.back().swap(bucket);
    if (b == m_current)
    {
        m_head = 0;
    }
    MarkBucket(b & m_mask, false);
}

void
TaggerWheelScheduler::InsertInWheel(const Event& ev)
{
    uint64_t b = BucketOf(ev.key.m_ts);
    std::vector<Event>& bucket = m_buckets[b & m_mask];
    if (bucket.capacity() == 0 && !m_pool.empty())
    {
        // The buffer drained last: its lines are likely still in the cache.
        bucket.swap(m_pool.back());
        m_pool.pop_back();
    }
    if (b == m_current && !bucket.empty() && Earlier()(ev, bucket.back()))
    {
        // Keep the current bucket sorted.  A new event has the largest uid,
        // so this is only one due before the bucket's latest.
        bucket.insert(std::upper_bound(bucket.begin() + m_head, bucket.end(), ev, Earlier()), ev);
    }
    else
    {
        bucket.push_back(ev);
    }
    MarkBucket(b & m_mask, true);
    ++m_inWheel;
}

void
TaggerWheelScheduler::Insert(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    if (!m_set)
    {
        Setup();
    }
    // The simulator never schedules before its current time, which is the
    // time of the last event removed, in bucket m_base.
    NS_ASSERT(BucketOf(ev.key.m_ts) >= m_base);
    if (BucketOf(ev.key.m_ts) <= m_base + m_mask)
    {
        InsertInWheel(ev);
    }
    else
    {
        m_far.push_back(ev);
        std::push_heap(m_far.begin(), m_far.end(), Later());
    }
}

bool
TaggerWheelScheduler::IsEmpty() const
{
    return m_inWheel == 0 && m_far.empty();
}

uint64_t
TaggerWheelScheduler::FirstBucket() const
{
    const uint64_t words = m_nonEmpty.size();
    uint64_t start = m_base & m_mask;
    uint64_t w = start >> 6;
    uint64_t bits = m_nonEmpty[w] & (~uint64_t(0) << (start & 63));
    uint64_t index = 0;
    for (uint64_t step = 0;; ++step)
    {
        NS_ASSERT_MSG(step <= words, "TaggerWheelScheduler: wheel count out of step");
        if (bits != 0)
        {
            index = (w << 6) | uint64_t(__builtin_ctzll(bits));
            break;
        }
        w = (w + 1) % words;
        bits = m_nonEmpty[w];
    }
    // Buckets before start in index order are later in time (the wheel wraps).
    uint64_t b = m_base + ((index - start) & m_mask);
    if (b != m_current)
    {
        // The bucket left behind is empty, or was only peeked at and then an
        // earlier event came: nothing was removed from it, and it is sorted
        // again when the wheel reaches it.
        NS_ASSERT(m_head == 0);
        SortBucket(index);
        std::vector<Event>& bucket = m_buckets[index];
        m_current = b;
        PrefetchEvent(bucket.front());
        if (bucket.size() > 1)
        {
            PrefetchEvent(bucket[1]);
        }
    }
    return b;
}

Scheduler::Event
TaggerWheelScheduler::PeekNext() const
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!IsEmpty());
    if (m_inWheel == 0)
    {
        return m_far.front();
    }
    return m_buckets[FirstBucket() & m_mask][m_head];
}

void
TaggerWheelScheduler::PullFromFar()
{
    while (!m_far.empty() && BucketOf(m_far.front().key.m_ts) <= m_base + m_mask)
    {
        std::pop_heap(m_far.begin(), m_far.end(), Later());
        Event ev = m_far.back();
        m_far.pop_back();
        InsertInWheel(ev);
    }
}

Scheduler::Event
TaggerWheelScheduler::RemoveNext()
{
    NS_LOG_FUNCTION(this);
    NS_ASSERT(!IsEmpty());
    if (m_inWheel == 0)
    {
        m_base = BucketOf(m_far.front().key.m_ts);
        PullFromFar();
    }
    uint64_t b = FirstBucket();
    if (b != m_base)
    {
        m_base = b;
        PullFromFar();
    }
    std::vector<Event>& bucket = m_buckets[b & m_mask];
    Event ev = bucket[m_head++];
    --m_inWheel;
    if (m_head == bucket.size())
    {
        ReleaseBucket(b);
    }
    else if (m_head + 1 < bucket.size())
    {
        // The simulator runs these two events next unless the one running
        // now schedules an earlier one: start reading the second now (its
        // first two lines: the vtable pointer, the cancel flag, the object
        // and the arguments of a MakeEvent event); the first was asked for
        // one event ago.  In a large network they are out of the cache; the
        // fetch overlaps the wait with the events running before them.
        PrefetchEvent(bucket[m_head + 1]);
    }
    if (m_head < bucket.size() && PfcBlockPool::Owns(bucket[m_head].impl))
    {
        // The event after this one, asked for one event ago: its object is
        // read, and it can ask for what it will read (a port's lines, a frame).
        static_cast<const PfcPooledEvent*>(bucket[m_head].impl)->Prefetch();
    }
    return ev;
}

void
TaggerWheelScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.impl << ev.key.m_ts << ev.key.m_uid);
    auto same = [&ev](const Event& e) { return e.key.m_uid == ev.key.m_uid; };
    uint64_t b = BucketOf(ev.key.m_ts);
    if (m_set && b >= m_base && b <= m_base + m_mask)
    {
        std::vector<Event>& bucket = m_buckets[b & m_mask];
        uint32_t from = b == m_current ? m_head : 0;
        auto it = std::find_if(bucket.begin() + from, bucket.end(), same);
        if (it != bucket.end())
        {
            bucket.erase(it); // keeps the current bucket sorted
            if (bucket.size() == from)
            {
                ReleaseBucket(b); // only removed events were left
            }
            --m_inWheel;
            return;
        }
    }
    auto it = std::find_if(m_far.begin(), m_far.end(), same);
    NS_ASSERT_MSG(it != m_far.end(), "TaggerWheelScheduler: removing an event it does not hold");
    if (it != m_far.end())
    {
        m_far.erase(it);
        std::make_heap(m_far.begin(), m_far.end(), Later());
    }
}

} // namespace ns3
