/*
 * SPDX-License-Identifier: GPL-2.0-only
 * Part of the tagger data plane (ns-3).
 */

#include "pfc-block-pool.h"

#include <algorithm>
#include <array>
#include <cstdint>
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

/// Number of block sizes: 64, 128, ..., kMaxBytes.
constexpr std::size_t kSizes = PfcBlockPool::kMaxBytes / PfcBlockPool::kBlockBytes;

/// The pool's state (one per process; see PfcBlockPool on threads).
struct PoolState
{
    /// Freed blocks of each size (index: blocks of 64 bytes, less one), each
    /// holding the next one's address.
    std::array<void*, kSizes> freeLists{};
    char* next = nullptr;               //!< the next byte never handed out
    char* end = nullptr;                //!< the end of the current chunk
    std::vector<std::uintptr_t> chunks; //!< every chunk's address, ascending (never freed)
    std::size_t inUse = 0;              //!< blocks handed out and not freed
};

/// \return the pool's state (never destroyed: an event may be freed while the process exits)
PoolState&
State()
{
    static PoolState* state = new PoolState;
    return *state;
}

/// \param bytes 1 to kMaxBytes \return the index of its block size
std::size_t
SizeIndex(std::size_t bytes)
{
    return (bytes - 1) / PfcBlockPool::kBlockBytes;
}

} // namespace

void*
PfcBlockPool::Allocate(std::size_t bytes)
{
    if (bytes == 0 || bytes > kMaxBytes)
    {
        throw std::bad_alloc(); // a caller's static_assert keeps this away
    }
    PoolState& s = State();
    std::size_t k = SizeIndex(bytes);
    if (void* block = s.freeLists[k])
    {
        s.freeLists[k] = *static_cast<void**>(block);
        ++s.inUse;
        return block;
    }
    std::size_t size = (k + 1) * kBlockBytes;
    if (std::size_t(s.end - s.next) < size)
    {
        void* chunk = std::aligned_alloc(kChunkBytes, kChunkBytes);
        if (!chunk)
        {
            throw std::bad_alloc();
        }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(chunk, kChunkBytes, MADV_HUGEPAGE); // advice: a refusal changes nothing
#endif
        auto a = reinterpret_cast<std::uintptr_t>(chunk);
        s.chunks.insert(std::lower_bound(s.chunks.begin(), s.chunks.end(), a), a);
        s.next = static_cast<char*>(chunk);
        s.end = s.next + kChunkBytes;
    }
    void* block = s.next;
    s.next += size;
    ++s.inUse;
    return block;
}

void
PfcBlockPool::Free(void* block, std::size_t bytes) noexcept
{
    if (!block)
    {
        return;
    }
    PoolState& s = State();
    std::size_t k = SizeIndex(bytes);
    *static_cast<void**>(block) = s.freeLists[k];
    s.freeLists[k] = block;
    --s.inUse;
}

bool
PfcBlockPool::Owns(const void* p) noexcept
{
    // Chunks are aligned to their size: p's chunk starts at p rounded down.
    auto a = reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t(kChunkBytes - 1);
    const std::vector<std::uintptr_t>& c = State().chunks;
    return std::binary_search(c.begin(), c.end(), a);
}

std::size_t
PfcBlockPool::GetChunkCount()
{
    return State().chunks.size();
}

std::size_t
PfcBlockPool::GetBlocksInUse()
{
    return State().inUse;
}

} // namespace ns3
