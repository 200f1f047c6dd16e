/*
 * SPDX-License-Identifier: GPL-2.0-only
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_EVENT_POOL_H
#define PFC_EVENT_POOL_H

#include "ns3/event-impl.h"

#include <cstddef>

/**
 * \file
 * \ingroup tagger
 * Fixed-size blocks for the per-frame event objects of the ports (PfcEventPool,
 * PfcPooledEvent).
 */

namespace ns3
{

/**
 * \ingroup tagger
 * A free list of 64-byte blocks, carved from 2 MiB chunks, for the event
 * objects a port schedules for every frame (its arrival at the peer, the end
 * of its transmission).
 *
 * With \c malloc those objects lie among everything else on the heap, and in
 * a large network the one the simulator runs next is often on a page whose
 * address translation has left the processor's cache.  Here they share a few
 * chunks, each a power-of-two-aligned 2 MiB that the kernel is asked to back
 * with one huge page (\c madvise \c MADV_HUGEPAGE, Linux; honoured when
 * transparent huge pages are \c madvise or \c always, else the chunk is
 * ordinary pages and only the packing remains).  A freed block is the next
 * one handed out (last in, first out), as with \c malloc's own caches.
 *
 * Chunks are never returned: the pool keeps as many as the most events in
 * flight at once needed (a chunk holds 32,768 blocks).  Where simulated
 * objects live does not change what happens, so results are the same as
 * with \c malloc.  One simulation thread uses the pool (ns-3 runs events on
 * one thread; the MPI simulators run one process per rank).
 */
class PfcEventPool
{
  public:
    /// Bytes of one block: an object allocated here must fit.
    static constexpr std::size_t kBlockBytes = 64;
    /// Bytes of one chunk, also its alignment.
    static constexpr std::size_t kChunkBytes = std::size_t(2) << 20;

    /**
     * \param bytes the object's size (at most kBlockBytes)
     * \return a block, aligned to kBlockBytes
     * \throw std::bad_alloc when no chunk can be allocated
     */
    static void* Allocate(std::size_t bytes);

    /// \param block a block from Allocate, or nullptr
    static void Free(void* block) noexcept;

    /// \return the chunks allocated so far
    static std::size_t GetChunkCount();

    /// \return the blocks handed out and not yet freed
    static std::size_t GetBlocksInUse();
};

/**
 * \ingroup tagger
 * An EventImpl allocated from PfcEventPool: derive from it, keep the derived
 * class within PfcEventPool::kBlockBytes, and schedule `new Derived(...)`
 * (the simulator owns the event and deletes it after running it, or when
 * Simulator::Destroy drops it).
 */
class PfcPooledEvent : public EventImpl
{
  public:
    /// \param bytes the object's size \return a pool block
    static void* operator new(std::size_t bytes)
    {
        return PfcEventPool::Allocate(bytes);
    }

    /// \param block a pool block
    static void operator delete(void* block)
    {
        PfcEventPool::Free(block);
    }
};

} // namespace ns3

#endif /* PFC_EVENT_POOL_H */
