/*
 * SPDX-License-Identifier: GPL-2.0-only
 * Part of the tagger data plane (ns-3).
 */

#include "pfc-event-pool.h"

#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ns3
{

namespace
{

/// The pool's state (one per process; see PfcEventPool on threads).
struct PoolState
{
    void* freeList = nullptr;  //!< freed blocks, each holding the next one's address
    char* next = nullptr;      //!< the next block never handed out
    char* end = nullptr;       //!< the end of the current chunk
    std::vector<void*> chunks; //!< every chunk (never freed)
    std::size_t inUse = 0;     //!< blocks handed out and not freed
};

/// \return the pool's state (never destroyed: an event may be freed while the process exits)
PoolState&
State()
{
    static PoolState* state = new PoolState;
    return *state;
}

} // namespace

void*
PfcEventPool::Allocate(std::size_t bytes)
{
    if (bytes > kBlockBytes)
    {
        throw std::bad_alloc(); // a caller's static_assert keeps this away
    }
    PoolState& s = State();
    ++s.inUse;
    if (s.freeList)
    {
        void* block = s.freeList;
        s.freeList = *static_cast<void**>(block);
        return block;
    }
    if (s.next == s.end)
    {
        void* chunk = std::aligned_alloc(kChunkBytes, kChunkBytes);
        if (!chunk)
        {
            --s.inUse;
            throw std::bad_alloc();
        }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(chunk, kChunkBytes, MADV_HUGEPAGE); // advice: a refusal changes nothing
#endif
        s.chunks.push_back(chunk);
        s.next = static_cast<char*>(chunk);
        s.end = s.next + kChunkBytes;
    }
    void* block = s.next;
    s.next += kBlockBytes;
    return block;
}

void
PfcEventPool::Free(void* block) noexcept
{
    if (!block)
    {
        return;
    }
    PoolState& s = State();
    *static_cast<void**>(block) = s.freeList;
    s.freeList = block;
    --s.inUse;
}

std::size_t
PfcEventPool::GetChunkCount()
{
    return State().chunks.size();
}

std::size_t
PfcEventPool::GetBlocksInUse()
{
    return State().inUse;
}

} // namespace ns3
