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
void
OrderedPipeline(unsigned threads,
                std::size_t count,
                std::vector<Slot>& slots,
                Produce produce,
                Consume consume)
{
    const std::size_t window = slots.size();
    const unsigned n = static_cast<unsigned>(std::min<std::size_t>(ResolveThreads(threads), count));
    std::mutex lock;
    std::condition_variable changed;
    std::size_t claimed = 0;  // items handed out
    std::size_t consumed = 0; // items consumed
    bool stop = false;
    std::vector<char> ready(window, 0);
    std::vector<std::exception_ptr> errors(window);
    // with the lock held: produce the next item when its slot is free; false when none is
    auto produceOne = [&](std::unique_lock<std::mutex>& held, unsigned thread) {
        if (stop || claimed >= count || claimed >= consumed + window)
        {
            return false;
        }
        const std::size_t i = claimed++;
        held.unlock();
        std::exception_ptr error;
        try
        {
            produce(i, slots[i % window], thread);
        }
        catch (...)
        {
            error = std::current_exception();
        }
        held.lock();
        errors[i % window] = error;
        ready[i % window] = 1;
        changed.notify_all();
        return true;
    };
    auto work = [&](unsigned thread) {
        std::unique_lock<std::mutex> held(lock);
        while (!stop && claimed < count)
        {
            if (!produceOne(held, thread))
            {
                changed.wait(held);
            }
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < n; ++t)
    {
        pool.emplace_back(work, t);
    }
    std::exception_ptr error;
    try
    {
        for (std::size_t i = 0; i < count; ++i)
        {
            std::unique_lock<std::mutex> held(lock);
            while (!ready[i % window])
            {
                if (!produceOne(held, 0))
                {
                    changed.wait(held);
                }
            }
            ready[i % window] = 0;
            if (errors[i % window])
            {
                std::rethrow_exception(errors[i % window]);
            }
            held.unlock();
            consume(i, slots[i % window]);
            held.lock();
            consumed = i + 1;
            changed.notify_all();
        }
    }
    catch (...)
    {
        error = std::current_exception();
    }
    {
        std::lock_guard<std::mutex> held(lock);
        stop = true;
        changed.notify_all();
    }
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
