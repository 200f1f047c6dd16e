/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of PfcEventPool, the blocks of the ports' per-frame events, in the
 * TestSuite "tagger-pfc-device" (MakePfcEventPoolTestCases(),
 * pfc-test-util.h): blocks are distinct, aligned and reused last in, first
 * out, across chunks; an object too large is refused; and every event a port
 * schedules gives its block back, after it runs or when Simulator::Destroy
 * drops it unrun.
 */

#include "pfc-device-test-util.h"
#include "pfc-test-util.h"

#include "ns3/pfc-event-pool.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

/**
 * \ingroup tagger-tests
 * 40,000 blocks (more than one 2 MiB chunk of 32,768): all distinct, on
 * 64-byte boundaries and inside the chunks; the count in use follows; freed
 * blocks come back last freed first; 65 bytes are refused.
 */
class PfcEventPoolBlocksTestCase : public TestCase
{
  public:
    PfcEventPoolBlocksTestCase()
        : TestCase("PfcEventPool: distinct aligned blocks, reused last in first out")
    {
    }

  private:
    void DoRun() override
    {
        const std::size_t inUse0 = PfcEventPool::GetBlocksInUse();
        const std::size_t n = 40000;
        std::vector<void*> blocks;
        for (std::size_t i = 0; i < n; ++i)
        {
            blocks.push_back(PfcEventPool::Allocate(48));
        }
        NS_TEST_ASSERT_MSG_EQ(PfcEventPool::GetBlocksInUse(), inUse0 + n, "blocks in use");
        // 2 MiB / 64 B = 32,768 blocks per chunk: at least two chunks now.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(PfcEventPool::GetChunkCount(), 2, "chunks");
        std::set<uintptr_t> addresses;
        std::set<uintptr_t> chunks;
        for (void* b : blocks)
        {
            uintptr_t a = reinterpret_cast<uintptr_t>(b);
            NS_TEST_ASSERT_MSG_EQ(a % 64, 0, "a block on a 64-byte boundary");
            addresses.insert(a);
            chunks.insert(a & ~uintptr_t((2u << 20) - 1));
        }
        NS_TEST_ASSERT_MSG_EQ(addresses.size(), n, "distinct blocks");
        // Blocks of 64 bytes 64 apart cannot overlap; each lies in one
        // 2 MiB-aligned chunk, and no more chunks hold them than exist.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(chunks.size(), PfcEventPool::GetChunkCount(), "chunks used");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(chunks.size(), 2, "blocks in two chunks or more");

        // Last in, first out.
        void* x = blocks[100];
        void* y = blocks[30000];
        PfcEventPool::Free(x);
        PfcEventPool::Free(y);
        NS_TEST_ASSERT_MSG_EQ(PfcEventPool::Allocate(64), y, "the last freed comes first");
        NS_TEST_ASSERT_MSG_EQ(PfcEventPool::Allocate(1), x, "then the one before");
        for (void* b : blocks)
        {
            PfcEventPool::Free(b);
        }
        PfcEventPool::Free(nullptr);
        NS_TEST_ASSERT_MSG_EQ(PfcEventPool::GetBlocksInUse(), inUse0, "all freed");

        bool refused = false;
        try
        {
            PfcEventPool::Free(PfcEventPool::Allocate(65));
        }
        catch (const std::bad_alloc&)
        {
            refused = true;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "65 bytes refused");
        NS_TEST_ASSERT_MSG_EQ(PfcEventPool::GetBlocksInUse(), inUse0, "a refusal takes no block");
    }
};

/**
 * \ingroup tagger-tests
 * A port's per-frame events (arrival at the peer, end of transmission) come
 * from the pool and go back to it: 10 frames of 1000 bytes at 8 Gbps over
 * 1 us arrive at 1000 + 1024 (i + 1) ns (the wire time of 1024 bytes with
 * preamble and gap, back to back, plus the delay) with no block left in use;
 * stopped after the third arrival, the three pending events of the frames on
 * the link and on the wire hold blocks until Simulator::Destroy frees them.
 */
class PfcEventPoolDeviceTestCase : public PfcDeviceTestCase
{
  public:
    PfcEventPoolDeviceTestCase()
        : PfcDeviceTestCase("PfcEventPool: a port's events return their blocks, run or not")
    {
    }

  private:
    void DoRun() override
    {
        const std::size_t inUse0 = PfcEventPool::GetBlocksInUse();
        {
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            FrameLog rx;
            p.db->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Ip, &rx));
            Simulator::Schedule(kT0, &SendFrames, p.da, Frames(10, {1000, 0}));
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(PfcEventPool::GetBlocksInUse(), inUse0, "all events ran");
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
            NS_TEST_ASSERT_MSG_EQ(PfcEventPool::GetBlocksInUse(),
                                  inUse0 + 3,
                                  "two arrivals and one end of transmission pending");
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(PfcEventPool::GetBlocksInUse(),
                                  inUse0,
                                  "Destroy freed the unrun events");
        }
    }
};

} // namespace

std::vector<TestCase*>
MakePfcEventPoolTestCases()
{
    return {new PfcEventPoolBlocksTestCase, new PfcEventPoolDeviceTestCase};
}
