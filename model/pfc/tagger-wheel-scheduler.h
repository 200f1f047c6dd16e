/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef TAGGER_WHEEL_SCHEDULER_H
#define TAGGER_WHEEL_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * An event scheduler for dense packet-level runs: a timing wheel of short
 * buckets, with a binary heap for the events beyond it
 * (ns3::TaggerWheelScheduler).
 */

namespace ns3
{

/**
 * \ingroup tagger
 * An ns-3 event scheduler built for packet simulations where most events
 * fall a few hundred nanoseconds to a few microseconds ahead (the end of a
 * frame's transmission, its arrival), many thousands of them pending at once
 * in a large network.
 *
 * Time is cut into buckets of BucketWidth (rounded down to a power of two of
 * the time resolution).  The Buckets buckets after the current one form the
 * wheel: an event that falls in it is appended to its bucket's vector in
 * O(1), and a bitmap of the non-empty buckets finds the next one.  A bucket
 * is sorted when the simulator reaches it, and its events leave from the
 * front, in order.  Events beyond the wheel (timers, flow starts, the stop
 * event) wait in a binary heap and move into the wheel when it reaches
 * them.
 *
 * Order: like every ns-3 scheduler, events leave by time stamp and, at equal
 * time stamps, by insertion (the event uid), so results are the same as
 * with any other scheduler; only the cost differs.
 *
 * Cost: insertion is O(1); a bucket of b events is sorted once, and each
 * removal is then O(1).  The sort counts: events of equal time stamp are in
 * uid order in a bucket already, so a stable counting sort on the time
 * stamp, O(b + w) for a bucket w time steps wide, orders them (std::sort,
 * O(b log b), for buckets of fewer than 16 events or wider than 256
 * steps).  An event inserted into the
 * bucket being emptied before its latest event (rare: it must fall within
 * the same BucketWidth as the present) shifts the later ones.  When it
 * removes an event it also asks the processor to fetch the first 128 bytes
 * of the EventImpl of the one after next, which the simulator reads when it
 * runs that event: in a large network that memory is no longer in the
 * cache, and the prefetch overlaps the wait with the events running before.
 * The next event, whose EventImpl was asked for one removal ago, is asked
 * in turn for what it points to when it is a PfcPooledEvent (a port's
 * arrival and end-of-transmission events: PfcPooledEvent::Prefetch); other
 * events are not read (PfcBlockPool::Owns tells them apart by address).
 * Only events of the same bucket are asked ahead: the first event of a
 * bucket is not.  Measured against ns3::PriorityQueueScheduler (one binary heap of all
 * pending events) in an optimised build, the wheel alone made no
 * difference; with the prefetch the k=16 scenario of pfc-bench (12,000
 * events pending at most) ran about 6 % faster and the k=4 one (400) about
 * 3.5 %.  Sorting the bucket instead of keeping it a binary heap (about 125
 * events per 16 ns bucket at k=16) took another 7 to 11 % off k=16 and
 * nothing off k=4, and counting instead of std::sort about 4 % more off
 * k=16 (see the Performance section of the documentation).
 *
 * Edge cases, honestly:
 *  - memory: a drained bucket's buffer keeps its capacity and goes to a
 *    pool, and the next bucket to receive an event while it has no buffer
 *    takes the one drained last (its lines are likely still in the cache;
 *    a bucket that kept its own buffer wrote, a wheel turn later, to memory
 *    long out of the cache).  So the buffers number about the buckets that
 *    hold events at once, not the Buckets attribute, each about as large
 *    as the busiest bucket so far: about 200 events of 24 bytes in
 *    pfc-bench's k=16 scenario, whose peak memory fell by 3.3 MiB;
 *  - a frame's events fall within the wheel when its wire time plus the
 *    link delay is below 16 us (1,500 bytes at 1 Gbit/s with a 4 us link);
 *    events further ahead go to the heap and cost what they cost in
 *    ns3::PriorityQueueScheduler;
 *  - a run whose events are far apart (more than a bucket width) skips empty
 *    buckets through the bitmap, 64 at a time;
 *  - Remove (Simulator::Remove, not Cancel) searches one bucket or the far
 *    heap linearly, as the heap scheduler does.
 */
class TaggerWheelScheduler : public Scheduler
{
  public:
    /// \return the object TypeId
    static TypeId GetTypeId();

    TaggerWheelScheduler();
    ~TaggerWheelScheduler() override;

    // Inherited from Scheduler.
    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

  private:
    /// Size the wheel from the attributes (first Insert).
    void Setup();
    /// \param ts a time stamp \return its absolute bucket number
    uint64_t BucketOf(uint64_t ts) const;
    /**
     * Bucket \p b holds no more events: empty it, hand its buffer to the
     * pool, and clear its bit.
     * \param b an absolute bucket number
     */
    void ReleaseBucket(uint64_t b);
    /// Put \p ev in the wheel (its bucket is inside the wheel).
    void InsertInWheel(const Event& ev);
    /// Move the far events that the wheel now covers into it.
    void PullFromFar();
    /**
     * Find the first non-empty bucket from m_base on (the wheel is not empty)
     * and make it the current, sorted bucket.
     * \return its absolute number
     */
    uint64_t FirstBucket() const;
    /// \param i a bucket index \param on whether it holds events
    void MarkBucket(uint64_t i, bool on) const;
    /**
     * Sort bucket \p i by (time stamp, uid): a counting sort on the time
     * stamp when the bucket is at most kCountingSteps time steps wide and
     * holds at least kCountingEvents events (its events of equal time
     * stamp are in uid order already), std::sort otherwise.
     * \param i a bucket index
     */
    void SortBucket(uint64_t i) const;

    /// Widest bucket, in time steps, sorted by counting.
    static constexpr uint64_t kCountingSteps = 256;
    /// Fewest events in a bucket sorted by counting (std::sort is faster
    /// on fewer, e.g. the one or two per bucket of a small network).
    static constexpr std::size_t kCountingEvents = 16;

    Time m_width;      //!< BucketWidth attribute
    uint32_t m_count;  //!< Buckets attribute
    bool m_set{false}; //!< whether Setup ran

    uint32_t m_shift{0}; //!< log2 of the bucket width in time steps
    uint64_t m_mask{0};  //!< bucket count - 1
    /// Absolute number of the current bucket: the wheel covers
    /// [m_base, m_base + bucket count).  Moves only in RemoveNext.
    uint64_t m_base{0};
    /// The buckets; the one numbered m_current is sorted, earliest first.
    mutable std::vector<std::vector<Event>> m_buckets;
    mutable std::vector<uint64_t> m_nonEmpty; //!< one bit per bucket
    mutable uint64_t m_current{UINT64_MAX};   //!< absolute number, or none
    /// Events of the current bucket before this index have been removed.
    mutable uint32_t m_head{0};
    mutable std::vector<Event> m_far;       //!< min-heap beyond the wheel
    mutable uint64_t m_inWheel{0};          //!< events in the buckets
    mutable std::vector<Event> m_spare;     //!< the counting sort's copy
    mutable std::vector<uint32_t> m_counts; //!< the counting sort's counts
    /// Buffers of drained buckets, the last drained at the back.
    std::vector<std::vector<Event>> m_pool;
};

} // namespace ns3

#endif /* TAGGER_WHEEL_SCHEDULER_H */
