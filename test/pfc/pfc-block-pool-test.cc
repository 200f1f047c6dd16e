/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of PfcBlockPool, the blocks of the ports and of their per-frame
 * events, in the TestSuite "tagger-pfc-device" (MakePfcBlockPoolTestCases(),
 * pfc-test-util.h): blocks are distinct, aligned, each inside one chunk, and
 * reused last in, first out per size; sizes out of range are refused; ports
 * live in the pool; every event a port schedules gives its block back, after
 * it runs or when Simulator::Destroy drops it unrun; and the wheel scheduler
 * asks a pooled event to prefetch one event before it runs.
 */

#include "pfc-device-test-util.h"
#include "pfc-test-util.h"

#include "ns3/object-factory.h"
#include "ns3/pfc-block-pool.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

/// 2 MiB: a chunk's size and alignment, written here independently of the pool.
constexpr uintptr_t kChunk = uintptr_t(2) << 20;

/// \param a an address \return the 2 MiB-aligned region it lies in
uintptr_t
ChunkOf(uintptr_t a)
{
    return a & ~(kChunk - 1);
}

/// \param bytes a request \return the block size it gets (64-byte multiples)
std::size_t
Rounded(std::size_t bytes)
{
    return (bytes + 63) / 64 * 64;
}

/// \param bytes a request \return whether Allocate threw std::bad_alloc
bool
Refused(std::size_t bytes)
{
    try
    {
        PfcBlockPool::Free(PfcBlockPool::Allocate(bytes), bytes);
    }
    catch (const std::bad_alloc&)
    {
        return true;
    }
    return false;
}

/**
 * \ingroup tagger-tests
 * 40,000 blocks of 48 bytes (more than one 2 MiB chunk of 32,768 such):
 * distinct, on 64-byte boundaries, at least two chunks; freed blocks come
 * back last freed first.  3,000 blocks of random sizes from 1 byte to 64 KiB,
 * each filled with its own byte, keep their bytes (no two overlap), each
 * lies inside one 2 MiB-aligned chunk, and a freed block is handed out again
 * only for a request of its rounded size.  0 bytes and 64 KiB + 1 are
 * refused; 64 KiB is not.
 */
class PfcBlockPoolBlocksTestCase : public TestCase
{
  public:
    PfcBlockPoolBlocksTestCase()
        : TestCase("PfcBlockPool: distinct aligned blocks in chunks, reused last in first out")
    {
    }

  private:
    void DoRun() override
    {
        const std::size_t inUse0 = PfcBlockPool::GetBlocksInUse();
        const std::size_t n = 40000;
        std::vector<void*> blocks;
        for (std::size_t i = 0; i < n; ++i)
        {
            blocks.push_back(PfcBlockPool::Allocate(48));
        }
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::GetBlocksInUse(), inUse0 + n, "blocks in use");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(PfcBlockPool::GetChunkCount(), 2, "chunks");
        std::set<uintptr_t> addresses;
        std::set<uintptr_t> chunks;
        for (void* b : blocks)
        {
            uintptr_t a = reinterpret_cast<uintptr_t>(b);
            NS_TEST_ASSERT_MSG_EQ(a % 64, 0, "a block on a 64-byte boundary");
            NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Owns(b), true, "the pool owns its block");
            addresses.insert(a);
            chunks.insert(ChunkOf(a));
        }
        NS_TEST_ASSERT_MSG_EQ(addresses.size(), n, "distinct blocks");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(chunks.size(), PfcBlockPool::GetChunkCount(), "chunks used");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(chunks.size(), 2, "blocks in two chunks or more");

        // Last in, first out, per size.
        void* x = blocks[100];
        void* y = blocks[30000];
        PfcBlockPool::Free(x, 48);
        PfcBlockPool::Free(y, 48);
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Allocate(64), y, "the last freed comes first");
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Allocate(1), x, "then the one before");
        for (void* b : blocks)
        {
            PfcBlockPool::Free(b, 48);
        }
        PfcBlockPool::Free(nullptr, 48);
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::GetBlocksInUse(), inUse0, "all freed");

        // Mixed sizes: no overlap, no block across a chunk boundary.
        std::mt19937 rng(5);

        struct Block
        {
            unsigned char* p;
            std::size_t bytes;
        };

        std::vector<Block> mixed;
        for (int i = 0; i < 3000; ++i)
        {
            std::size_t bytes =
                i % 10 == 0 ? 1 + rng() % PfcBlockPool::kMaxBytes : 1 + rng() % 2048;
            auto* p = static_cast<unsigned char*>(PfcBlockPool::Allocate(bytes));
            std::memset(p, i & 0xff, Rounded(bytes));
            mixed.push_back({p, bytes});
        }
        for (std::size_t i = 0; i < mixed.size(); ++i)
        {
            const Block& b = mixed[i];
            uintptr_t a = reinterpret_cast<uintptr_t>(b.p);
            NS_TEST_ASSERT_MSG_EQ(a % 64, 0, "a block on a 64-byte boundary");
            NS_TEST_ASSERT_MSG_EQ(ChunkOf(a),
                                  ChunkOf(a + Rounded(b.bytes) - 1),
                                  "block " << i << " of " << b.bytes << " bytes within one chunk");
            bool intact = std::all_of(b.p, b.p + Rounded(b.bytes), [i](unsigned char c) {
                return c == (i & 0xff);
            });
            NS_TEST_ASSERT_MSG_EQ(intact, true, "block " << i << " keeps its bytes");
        }
        // Block 1 (its size rounded) is not handed out for a different size.
        std::size_t size1 = Rounded(mixed[1].bytes);
        PfcBlockPool::Free(mixed[1].p, mixed[1].bytes);
        void* other = PfcBlockPool::Allocate(size1 + 64);
        NS_TEST_ASSERT_MSG_NE(other, static_cast<void*>(mixed[1].p), "another size, another list");
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Allocate(size1),
                              static_cast<void*>(mixed[1].p),
                              "its own size gets it back");
        PfcBlockPool::Free(other, size1 + 64);
        for (const Block& b : mixed)
        {
            PfcBlockPool::Free(b.p, b.bytes);
        }
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::GetBlocksInUse(), inUse0, "all freed again");

        NS_TEST_ASSERT_MSG_EQ(Refused(0), true, "0 bytes refused");
        NS_TEST_ASSERT_MSG_EQ(Refused(PfcBlockPool::kMaxBytes + 1), true, "64 KiB + 1 refused");
        NS_TEST_ASSERT_MSG_EQ(Refused(PfcBlockPool::kMaxBytes), false, "64 KiB taken");
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::GetBlocksInUse(), inUse0, "a refusal takes no block");
        int onStack = 0;
        std::vector<int> onHeap(4);
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Owns(&onStack), false, "a stack address");
        NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Owns(onHeap.data()), false, "a heap address");
    }
};

/**
 * \ingroup tagger-tests
 * Ports live in the pool, and their per-frame events (arrival at the peer,
 * end of transmission) come from it and go back to it: 10 frames of 1000
 * bytes at 8 Gbps over 1 us arrive at 1000 + 1024 (i + 1) ns (the wire time
 * of 1024 bytes with preamble and gap, back to back, plus the delay) with no
 * event block left in use; stopped after the third arrival, the three
 * pending events of the frames on the link and on the wire hold blocks until
 * Simulator::Destroy frees them.
 */
class PfcBlockPoolDeviceTestCase : public PfcDeviceTestCase
{
  public:
    PfcBlockPoolDeviceTestCase()
        : PfcDeviceTestCase("PfcBlockPool: ports in the pool; their events return their blocks")
    {
    }

  private:
    void DoRun() override
    {
        {
            const std::size_t before = PfcBlockPool::GetBlocksInUse();
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Owns(PeekPointer(p.da)), true, "port a");
            NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::Owns(PeekPointer(p.db)), true, "port b");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(PfcBlockPool::GetBlocksInUse(), before + 2, "two ports");
            const std::size_t inUse0 = PfcBlockPool::GetBlocksInUse();
            FrameLog rx;
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            Simulator::Schedule(kT0, &SendFrames, p.da, Frames(10, {1000, 0}));
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::GetBlocksInUse(), inUse0, "all events ran");
            Simulator::Destroy();
            std::vector<std::pair<int64_t, int>> want;
            for (int i = 0; i < 10; ++i)
            {
                want.emplace_back(1000 + 1024 * (i + 1), 0);
            }
            CheckFrames(rx.events, want, "ten frames back to back");
        }
        {
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            const std::size_t inUse0 = PfcBlockPool::GetBlocksInUse();
            FrameLog rx;
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            Simulator::Schedule(kT0, &SendFrames, p.da, Frames(10, {1000, 0}));
            // After the third arrival (4072) and before the fourth (5096):
            // the fourth frame is on the link (its arrival pending) and the
            // fifth on the wire since 4096 (its end of transmission at 5120
            // and its arrival at 6120 pending: the sender schedules the
            // arrival when the frame starts).
            Simulator::Stop(At(4500));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(rx.events.size(), 3, "three frames arrived");
            NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::GetBlocksInUse(),
                                  inUse0 + 3,
                                  "two arrivals and one end of transmission pending");
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(PfcBlockPool::GetBlocksInUse(),
                                  inUse0,
                                  "Destroy freed the unrun events");
        }
    }
};

/// A pooled event that logs its Prefetch and Notify calls.
class LoggingEvent : public PfcPooledEvent
{
  public:
    /// \param log the log \param id this event's number
    LoggingEvent(std::string* log, int id)
        : m_log(log),
          m_id(id)
    {
    }

    void Prefetch() const noexcept override
    {
        *m_log += "P" + std::to_string(m_id) + " ";
    }

  private:
    void Notify() override
    {
        *m_log += "N" + std::to_string(m_id) + " ";
    }

    std::string* m_log; //!< the log
    int m_id;           //!< this event's number
};

/**
 * \ingroup tagger-tests
 * TaggerWheelScheduler asks a pooled event to prefetch when it hands out the
 * event before it: five events at 1 to 5 ns (one 16 ns bucket) log
 * P1 N0 P2 N1 P3 N2 P4 N3 N4 (the first of a bucket is not asked; each
 * other is asked once, before the one ahead of it runs), and a cancelled
 * event is asked and not run.  The default MapScheduler asks none.
 */
class PfcBlockPoolPrefetchTestCase : public TestCase
{
  public:
    PfcBlockPoolPrefetchTestCase()
        : TestCase("PfcBlockPool: the wheel asks a pooled event to prefetch one event ahead")
    {
    }

  private:
    /// \param scheduler a scheduler TypeId name \param cancel an event to cancel, or -1
    /// \return the log of a run of five events
    std::string Play(const std::string& scheduler, int cancel)
    {
        std::string log;
        Simulator::SetScheduler(ObjectFactory(scheduler));
        for (int i = 0; i < 5; ++i)
        {
            EventId id = Simulator::Schedule(NanoSeconds(i + 1), new LoggingEvent(&log, i));
            if (i == cancel)
            {
                id.Cancel();
            }
        }
        Simulator::Run();
        Simulator::Destroy();
        return log;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Play("ns3::TaggerWheelScheduler", -1),
                              "P1 N0 P2 N1 P3 N2 P4 N3 N4 ",
                              "the wheel");
        NS_TEST_ASSERT_MSG_EQ(Play("ns3::TaggerWheelScheduler", 2),
                              "P1 N0 P2 N1 P3 P4 N3 N4 ",
                              "the wheel, event 2 cancelled");
        NS_TEST_ASSERT_MSG_EQ(Play("ns3::MapScheduler", -1), "N0 N1 N2 N3 N4 ", "the map");
    }
};

} // namespace

std::vector<TestCase*>
MakePfcBlockPoolTestCases()
{
    return {new PfcBlockPoolBlocksTestCase,
            new PfcBlockPoolDeviceTestCase,
            new PfcBlockPoolPrefetchTestCase};
}
