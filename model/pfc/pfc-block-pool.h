/*
 * SPDX-License-Identifier: GPL-2.0-only
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_BLOCK_POOL_H
#define PFC_BLOCK_POOL_H

#include "ns3/event-impl.h"

#include <cstddef>

/**
 * \file
 * \ingroup tagger
 * Blocks in huge-page chunks for the objects every frame touches: the ports'
 * per-frame events and the ports themselves (PfcBlockPool, PfcPooledEvent).
 */

namespace ns3
{

/**
 * \ingroup tagger
 * Blocks of a multiple of 64 bytes, up to 64 KiB, carved from 2 MiB chunks,
 * for the objects a frame touches at every hop: the event objects a port
 * schedules for every frame (its arrival at the peer, the end of its
 * transmission; PfcPooledEvent) and the ports (PfcNetDevice).
 *
 * With \c malloc those objects lie among everything else on the heap, one
 * 4 KiB page each or less, and in a large network the port or event the
 * simulator needs next is often on a page whose address translation has left
 * the processor's cache (a k=16 fat tree has 6,144 ports of 2 KiB).
 * Here they share a few chunks, each a power-of-two-aligned 2 MiB that the
 * kernel is asked to back with one huge page (\c madvise \c MADV_HUGEPAGE,
 * Linux; honoured when transparent huge pages are \c madvise or \c always,
 * else the chunk is ordinary pages and only the packing remains).
 *
 * Each block size (64, 128, ... bytes) has its own free list; a freed block
 * is the next one of its size handed out (last in, first out), as with
 * \c malloc's own caches.  A request that does not fit in what is left of
 * the current chunk starts a new one, and the rest of the old chunk (less
 * than the request, so at most 64 KiB) is never used.  Chunks are never
 * returned: the pool keeps as many as the most objects alive at once
 * needed.  Where simulated objects live does not change what happens, so
 * results are the same as with \c malloc.  One simulation thread uses the
 * pool (ns-3 runs events on one thread; the MPI simulators run one process
 * per rank).
 */
class PfcBlockPool
{
  public:
    /// Bytes of the smallest block; every block is a multiple, aligned to it.
    static constexpr std::size_t kBlockBytes = 64;
    /// Bytes of the largest block.
    static constexpr std::size_t kMaxBytes = std::size_t(64) << 10;
    /// Bytes of one chunk, also its alignment.
    static constexpr std::size_t kChunkBytes = std::size_t(2) << 20;

    /**
     * \param bytes the object's size (1 to kMaxBytes)
     * \return a block of \p bytes rounded up to a multiple of kBlockBytes,
     *         aligned to kBlockBytes
     * \throw std::bad_alloc when \p bytes is 0 or above kMaxBytes, or no
     *        chunk can be allocated
     */
    static void* Allocate(std::size_t bytes);

    /**
     * \param block a block from Allocate, or nullptr
     * \param bytes the size it was allocated with
     */
    static void Free(void* block, std::size_t bytes) noexcept;

    /**
     * \param p any address
     * \return whether \p p lies in one of the pool's chunks (so an EventImpl
     *         at \p p is a PfcPooledEvent: no other EventImpl lives there)
     */
    static bool Owns(const void* p) noexcept;

    /// \return the chunks allocated so far
    static std::size_t GetChunkCount();

    /// \return the blocks handed out and not yet freed
    static std::size_t GetBlocksInUse();
};

/**
 * \ingroup tagger
 * A base that puts objects of the derived class in PfcBlockPool blocks: add
 * it as a further (empty) base.  The derived class must fit in
 * PfcBlockPool::kMaxBytes, need no more than 64-byte alignment, and be
 * deleted through a virtual destructor or its own type (so the size given
 * back is its own).  Not for EventImpl classes: derive those from
 * PfcPooledEvent, since the scheduler takes every EventImpl in the pool for
 * one.
 */
class PfcPoolAllocated
{
  public:
    /// \param bytes the object's size \return a pool block
    static void* operator new(std::size_t bytes)
    {
        return PfcBlockPool::Allocate(bytes);
    }

    /// \param block a pool block \param bytes the object's size
    static void operator delete(void* block, std::size_t bytes) noexcept
    {
        PfcBlockPool::Free(block, bytes);
    }
};

/**
 * \ingroup tagger
 * An EventImpl allocated from PfcBlockPool: derive from it and schedule
 * `new Derived(...)` (the simulator owns the event and deletes it after
 * running it, or when Simulator::Destroy drops it).  The scheduler
 * (TaggerWheelScheduler) calls Prefetch on a pooled event one event before
 * running it.
 */
class PfcPooledEvent : public EventImpl, public PfcPoolAllocated
{
  public:
    /**
     * Ask the processor to start fetching the memory Notify reads first
     * (the objects it points to: their addresses are in this event, which
     * the scheduler asked for one event earlier still).  The default asks
     * for nothing.
     */
    virtual void Prefetch() const noexcept
    {
    }
};

} // namespace ns3

#endif /* PFC_BLOCK_POOL_H */
