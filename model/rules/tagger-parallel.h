/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_PARALLEL_H
#define TAGGER_PARALLEL_H

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Splitting independent work items over threads, for the stages of the rule
 * generator: every item writes only its own result slot, so the results do
 * not depend on the thread count.
 */

namespace ns3
{
namespace tagger
{

/**
 * \param threads threads asked for; 0 means one per hardware thread
 * \return the threads to run (at least 1)
 */
inline unsigned
ResolveThreads(unsigned threads)
{
    return threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

/**
 * Call fn(i) for every i in [0, count) on up to ResolveThreads(threads)
 * threads (the caller's thread is one of them).  Items are handed out in
 * ascending order in chunks of \p chunk; fn must touch only data of item i
 * (or data it only reads).  When items throw, no item above the lowest one
 * that threw is started afterwards, every item below it runs, and the
 * exception of the lowest throwing item is rethrown: the same one for any
 * thread count.
 * \param threads threads (0: one per hardware thread)
 * \param count items
 * \param chunk items handed out at once (at least 1)
 * \param fn the work, called as fn(std::size_t i)
 */
template <typename Fn>
void
ParallelFor(unsigned threads, std::size_t count, std::size_t chunk, Fn fn)
{
    chunk = std::max<std::size_t>(chunk, 1);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    const unsigned n =
        static_cast<unsigned>(std::min<std::size_t>(ResolveThreads(threads), chunks));
    if (n <= 1)
    {
        for (std::size_t i = 0; i < count; ++i)
        {
            fn(i);
        }
        return;
    }
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> failedAt{count}; // lowest item that threw
    std::mutex lock;
    std::exception_ptr error;
    auto work = [&]() {
        for (;;)
        {
            const std::size_t begin = next.fetch_add(chunk);
            if (begin >= count || begin > failedAt.load())
            {
                return;
            }
            for (std::size_t i = begin; i < std::min(begin + chunk, count); ++i)
            {
                try
                {
                    fn(i);
                }
                catch (...)
                {
                    std::lock_guard<std::mutex> guard(lock);
                    if (i < failedAt.load())
                    {
                        failedAt = i;
                        error = std::current_exception();
                    }
                    return;
                }
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t)
    {
        pool.emplace_back(work);
    }
    work();
    for (std::thread& th : pool)
    {
        th.join();
    }
    if (error)
    {
        std::rethrow_exception(error);
    }
}

/**
 * Produce items 0 .. count-1 on up to ResolveThreads(threads) threads and
 * consume them in ascending order on the caller's thread: a pipeline for work
 * whose expensive part is independent per item (produce) and whose cheap part
 * must run in item order (consume, e.g. drawing from one random generator).
 * Item i is produced into slots[i % slots.size()] and consumed from there
 * before item i + slots.size() is produced into the same slot; the caller's
 * thread produces too while the next item to consume is not ready.  An
 * exception of produce is rethrown when its item would be consumed; one of
 * consume stops the pipeline and is rethrown.  The consumed sequence is the
 * same for any thread count.
 * \param threads threads (0: one per hardware thread)
 * \param count items
 * \param slots the buffers (at least one; about twice the threads is enough)
 * \param produce called as produce(std::size_t i, Slot& slot, unsigned thread), thread in
 *        [0, threads): for per-thread scratch space
 * \param consume called as consume(std::size_t i, Slot& slot), in ascending i
 */
template <typename Slot, typename Produce, typename Consume>
void OrderedPipeline(unsigned threads,
                     std::size_t count,
                     std::vector<Slot>& slots,
                     Produce produce,
                     Consume consume);

namespace detail
{

/// The shared state of one OrderedPipeline call.
template <typename Slot, typename Produce, typename Consume>
class Pipeline
{
  public:
    Pipeline(std::size_t count, std::vector<Slot>& slots, Produce& produce, Consume& consume)
        : m_count(count),
          m_slots(slots),
          m_produce(produce),
          m_consume(consume),
          m_ready(slots.size(), 0),
          m_errors(slots.size())
    {
    }

    /// A helper thread: produce items until none is left.
    void Work(unsigned thread)
    {
        std::unique_lock<std::mutex> held(m_lock);
        while (!m_stop && m_claimed < m_count)
        {
            if (!ProduceOne(held, thread))
            {
                m_changed.wait(held);
            }
        }
    }

    /// The caller's thread: consume every item in order (producing while waiting).
    void ConsumeAll()
    {
        const std::size_t window = m_slots.size();
        for (std::size_t i = 0; i < m_count; ++i)
        {
            std::unique_lock<std::mutex> held(m_lock);
            while (!m_ready[i % window])
            {
                if (!ProduceOne(held, 0))
                {
                    m_changed.wait(held);
                }
            }
            m_ready[i % window] = 0;
            if (m_errors[i % window])
            {
                std::rethrow_exception(m_errors[i % window]);
            }
            held.unlock();
            m_consume(i, m_slots[i % window]);
            held.lock();
            m_consumed = i + 1;
            m_changed.notify_all();
        }
    }

    /// Let the helper threads return.
    void Stop()
    {
        std::lock_guard<std::mutex> held(m_lock);
        m_stop = true;
        m_changed.notify_all();
    }

  private:
    /// With the lock held: produce the next item if its slot is free; false when none is.
    bool ProduceOne(std::unique_lock<std::mutex>& held, unsigned thread)
    {
        const std::size_t window = m_slots.size();
        if (m_stop || m_claimed >= m_count || m_claimed >= m_consumed + window)
        {
            return false;
        }
        const std::size_t i = m_claimed++;
        held.unlock();
        std::exception_ptr error;
        try
        {
            m_produce(i, m_slots[i % window], thread);
        }
        catch (...)
        {
            error = std::current_exception();
        }
        held.lock();
        m_errors[i % window] = error;
        m_ready[i % window] = 1;
        m_changed.notify_all();
        return true;
    }

    std::size_t m_count;                      //!< items
    std::vector<Slot>& m_slots;               //!< the buffers
    Produce& m_produce;                       //!< the independent part
    Consume& m_consume;                       //!< the ordered part
    std::mutex m_lock;                        //!< guards the rest
    std::condition_variable m_changed;        //!< a slot got ready or free
    std::size_t m_claimed{0};                 //!< items handed out
    std::size_t m_consumed{0};                //!< items consumed
    bool m_stop{false};                       //!< the caller is done (or failed)
    std::vector<char> m_ready;                //!< per slot: produced, not consumed
    std::vector<std::exception_ptr> m_errors; //!< per slot: what produce threw
};

} // namespace detail

template <typename Slot, typename Produce, typename Consume>
void
OrderedPipeline(unsigned threads,
                std::size_t count,
                std::vector<Slot>& slots,
                Produce produce,
                Consume consume)
{
    const unsigned n = static_cast<unsigned>(std::min<std::size_t>(ResolveThreads(threads), count));
    detail::Pipeline<Slot, Produce, Consume> pipeline(count, slots, produce, consume);
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t)
    {
        pool.emplace_back([&pipeline, t]() { pipeline.Work(t); });
    }
    std::exception_ptr error;
    try
    {
        pipeline.ConsumeAll();
    }
    catch (...)
    {
        error = std::current_exception();
    }
    pipeline.Stop();
    for (std::thread& th : pool)
    {
        th.join();
    }
    if (error)
    {
        std::rethrow_exception(error);
    }
}

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_PARALLEL_H */
