/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * SwitchMmu against a reference model, in the TestSuite "tagger-mmu"
 * (MakeSwitchMmuReferenceTestCases(), switch-mmu-test-util.h): seeded random
 * admissions and releases on every queue of a 3-port MMU, the state compared
 * with RefMmu (written from the SwitchMmu class comment) after every
 * operation, then a drain back to zero.  NS_LOG=SwitchMmuReferenceTest=info
 * prints each run's counts.
 */

#include "switch-mmu-test-util.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pfc-types.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("SwitchMmuReferenceTest");

namespace
{

/**
 * Reference model: the four cases and the lossy rule, written from the spec (the
 * class comment of SwitchMmu): case 3 by either HeadroomCheck, and a queue turns ON
 * only while its headroom is empty.
 */
struct RefMmu
{
    struct Q
    {
        uint64_t p = 0, w = 0, h = 0;
        bool off = false;
        std::deque<uint32_t> packets; // FIFO of packet sizes
    };

    uint32_t nPorts;
    uint64_t phi, eta, bs, lossyPool;
    double alpha, lossyAlpha;
    bool isStatic;
    uint64_t xoff, xon, xonOffset;
    uint8_t lossless;
    bool literal; // HeadroomCheck QueueLength (else Occupancy)
    std::vector<Q> q;
    std::vector<uint64_t> lossyB;
    std::vector<std::deque<uint32_t>> lossyPackets;
    uint64_t sharedUsed = 0, losslessUsed = 0, lossyUsed = 0;
    uint64_t pauses = 0, resumes = 0, losslessDrops = 0, lossyDrops = 0;
    uint64_t disagreements = 0;  // case 3/4 decisions the other HeadroomCheck would flip
    uint64_t blockedResumes = 0; // OFF, w < Xon, but h > 0: no RESUME

    uint64_t T() const
    {
        if (isStatic)
        {
            return xoff;
        }
        return sharedUsed >= bs ? 0 : static_cast<uint64_t>(alpha * double(bs - sharedUsed));
    }

    uint64_t Xon() const
    {
        if (isStatic)
        {
            return xon;
        }
        uint64_t t = T();
        return t > xonOffset ? t - xonOffset : 0;
    }

    SwitchMmu::Admission Admit(size_t i, uint32_t s)
    {
        Q& x = q[i];
        uint64_t qq = x.p + x.w + x.h;
        uint64_t t = T();
        SwitchMmu::Admission a{MmuSegment::DROPPED, false, false};
        if (qq < phi)
        {
            x.p += s;
            a.segment = MmuSegment::PRIVATE;
        }
        else if (qq < phi + t)
        {
            if (x.off && x.w < Xon())
            {
                if (x.h == 0)
                {
                    x.off = false;
                    a.resume = true;
                    ++resumes;
                }
                else
                {
                    ++blockedResumes;
                }
            }
            x.w += s;
            sharedUsed += s;
            a.segment = MmuSegment::SHARED;
        }
        else if (literal ? qq < phi + t + eta : x.h < eta)
        {
            disagreements += literal ? x.h >= eta : qq >= phi + t + eta;
            if (!x.off)
            {
                x.off = true;
                a.pause = true;
                ++pauses;
            }
            x.h += s;
            a.segment = MmuSegment::HEADROOM;
        }
        else
        {
            disagreements += literal ? x.h < eta : qq < phi + t + eta;
            ++losslessDrops;
            return a;
        }
        x.packets.push_back(s);
        losslessUsed += s;
        return a;
    }

    bool Release(size_t i, uint32_t s)
    {
        Q& x = q[i];
        uint64_t left = s;
        uint64_t fromH = std::min(left, x.h);
        x.h -= fromH;
        left -= fromH;
        uint64_t fromW = std::min(left, x.w);
        x.w -= fromW;
        sharedUsed -= fromW;
        left -= fromW;
        x.p -= left;
        losslessUsed -= s;
        bool empty = x.p + x.w + x.h == 0;
        if (x.off && (x.w < Xon() || empty))
        {
            if (x.h == 0)
            {
                x.off = false;
                ++resumes;
                return true;
            }
            ++blockedResumes;
        }
        return false;
    }

    bool AdmitLossy(size_t i, uint32_t s)
    {
        uint64_t free = lossyPool - lossyUsed;
        if (lossyB[i] + s <= static_cast<uint64_t>(lossyAlpha * double(free)) && s <= free)
        {
            lossyB[i] += s;
            lossyUsed += s;
            lossyPackets[i].push_back(s);
            return true;
        }
        ++lossyDrops;
        return false;
    }
};

/// Counts of one RandomRun, for the callers' coverage checks.
struct RunCounts
{
    uint64_t disagreements = 0;  //!< RefMmu::disagreements
    uint64_t blockedResumes = 0; //!< RefMmu::blockedResumes
};

/**
 * \ingroup tagger-tests
 * Base of the reference-model cases: one seeded random run.
 */
class MmuReferenceTestCase : public TestCase
{
  public:
    /// \param name the test name
    explicit MmuReferenceTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * One random run: compare the MMU with RefMmu after every operation; stop
     * at the first mismatch.
     * \param seed the seed of the operations \param isStatic ThresholdMode Static
     * \param alpha Alpha \param xonOffset XonOffset \param lossyAlpha LossyAlpha
     * \param check the HeadroomCheck attribute value
     * \return the coverage counts of the reference model
     */
    RunCounts RandomRun(uint32_t seed,
                        bool isStatic,
                        double alpha,
                        uint64_t xonOffset,
                        double lossyAlpha,
                        const std::string& check)
    {
        const std::string what = "seed " + std::to_string(seed) + ", " + check;
        RunCounts counts;
        const uint32_t nPorts = 3;
        // 3 ports, LosslessClasses 0x06 (classes 1, 2), phi 2000, eta 5000 fixed, lossy
        // pool 20,000, BufferSize 92,000: Bs = 72,000 - 2 * 3 * (2000 + 5000) = 30,000.
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetAttribute("BufferSize", UintegerValue(92000));
        mmu->SetAttribute("LossyPoolSize", UintegerValue(20000));
        mmu->SetAttribute("PrivateBytes", UintegerValue(2000));
        mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
        mmu->SetAttribute("Headroom", UintegerValue(5000));
        mmu->SetAttribute("LosslessClasses", UintegerValue(0x06));
        mmu->SetAttribute("Alpha", DoubleValue(alpha));
        mmu->SetAttribute("LossyAlpha", DoubleValue(lossyAlpha));
        mmu->SetAttribute("XonOffset", UintegerValue(xonOffset));
        mmu->SetAttribute("ThresholdMode", StringValue(isStatic ? "Static" : "Dynamic"));
        mmu->SetAttribute("StaticXoff", UintegerValue(6000));
        mmu->SetAttribute("StaticXon", UintegerValue(3000));
        mmu->SetAttribute("HeadroomCheck", StringValue(check));
        mmu->Setup(nPorts);
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedPoolSize(), 30000U, what << ": Bs");
        if (mmu->GetSharedPoolSize() != 30000U)
        {
            return counts;
        }
        MmuTraceLog log;
        NS_TEST_EXPECT_MSG_EQ(log.Connect(mmu, nPorts), true, what << ": trace sources");

        RefMmu ref;
        ref.nPorts = nPorts;
        ref.phi = 2000;
        ref.eta = 5000;
        ref.bs = 30000;
        ref.lossyPool = 20000;
        ref.alpha = alpha;
        ref.lossyAlpha = lossyAlpha;
        ref.isStatic = isStatic;
        ref.xoff = 6000;
        ref.xon = 3000;
        ref.xonOffset = xonOffset;
        ref.lossless = 0x06;
        ref.literal = check == "QueueLength";
        ref.q.resize(nPorts * 8);
        ref.lossyB.assign(nPorts * 8, 0);
        ref.lossyPackets.resize(nPorts * 8);

        std::mt19937 rng(seed);
        std::uniform_int_distribution<uint32_t> portDist(0, nPorts - 1);
        std::uniform_int_distribution<uint32_t> clsDist(0, 7);
        std::uniform_int_distribution<uint32_t> sizeDist(64, 1500);
        std::uniform_real_distribution<double> coin(0.0, 1.0);
        uint64_t admitted = 0;
        uint64_t released = 0;
        uint64_t lossyAdmitted = 0;
        uint64_t lossyReleased = 0;

        auto checkAll = [&](const std::string& when) {
            const std::string at = what + ", " + when;
            for (uint32_t port = 0; port < nPorts; ++port)
            {
                for (uint8_t cls = 0; cls < 8; ++cls)
                {
                    const size_t i = port * 8 + cls;
                    const std::string queue =
                        at + ", queue " + std::to_string(port) + "," + std::to_string(cls);
                    if ((0x06 >> cls) & 1)
                    {
                        NS_TEST_ASSERT_MSG_EQ(mmu->GetPrivateBytes(port, cls),
                                              ref.q[i].p,
                                              queue << ": private");
                        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedBytes(port, cls),
                                              ref.q[i].w,
                                              queue << ": shared");
                        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomBytes(port, cls),
                                              ref.q[i].h,
                                              queue << ": headroom");
                        NS_TEST_ASSERT_MSG_EQ(mmu->IsOff(port, cls),
                                              ref.q[i].off,
                                              queue << ": OFF");
                        NS_TEST_ASSERT_MSG_EQ(log.lastIngress[i],
                                              ref.q[i].p + ref.q[i].w + ref.q[i].h,
                                              queue << ": traced occupancy");
                    }
                    else
                    {
                        NS_TEST_ASSERT_MSG_EQ(mmu->GetLossyBytes(port, cls),
                                              ref.lossyB[i],
                                              queue << ": lossy bytes");
                        NS_TEST_ASSERT_MSG_EQ(log.lastLossy[i],
                                              ref.lossyB[i],
                                              queue << ": traced lossy occupancy");
                    }
                }
            }
            NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedUsed(), ref.sharedUsed, at << ": shared used");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetLosslessUsed(),
                                  ref.losslessUsed,
                                  at << ": lossless used");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetLossyUsed(), ref.lossyUsed, at << ": lossy used");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetDynamicThreshold(), ref.T(), at << ": T");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetXon(), ref.Xon(), at << ": Xon");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetPauseCount(), ref.pauses, at << ": pauses");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetResumeCount(), ref.resumes, at << ": resumes");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                                  ref.losslessDrops,
                                  at << ": lossless drops");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetDropCount(PfcDropReason::LOSSY_OVERFLOW),
                                  ref.lossyDrops,
                                  at << ": lossy drops");
            NS_TEST_ASSERT_MSG_EQ(log.pauses, ref.pauses, at << ": traced pauses");
            NS_TEST_ASSERT_MSG_EQ(log.resumes, ref.resumes, at << ": traced resumes");
            NS_TEST_ASSERT_MSG_EQ(log.losslessDrops,
                                  ref.losslessDrops,
                                  at << ": traced lossless drops");
            NS_TEST_ASSERT_MSG_EQ(log.lossyDrops, ref.lossyDrops, at << ": traced lossy drops");
            NS_TEST_ASSERT_MSG_EQ(log.ingressEvents,
                                  admitted + released,
                                  at << ": IngressOccupancy events");
            NS_TEST_ASSERT_MSG_EQ(log.lossyEvents,
                                  lossyAdmitted + lossyReleased,
                                  at << ": LossyOccupancy events");
        };

        // One operation on a queue: admit with probability pAdmit, else release its head.
        auto step = [&](uint32_t port, uint8_t cls, double pAdmit) {
            const size_t i = port * 8 + cls;
            const bool lossless = (0x06 >> cls) & 1;
            if (lossless)
            {
                if (coin(rng) < pAdmit || ref.q[i].packets.empty())
                {
                    const uint32_t s = sizeDist(rng);
                    SwitchMmu::Admission want = ref.Admit(i, s);
                    SwitchMmu::Admission got = mmu->AdmitLossless(port, cls, s);
                    NS_TEST_ASSERT_MSG_EQ(SegmentName(got.segment),
                                          SegmentName(want.segment),
                                          what << ": segment");
                    NS_TEST_ASSERT_MSG_EQ(got.pause, want.pause, what << ": PAUSE");
                    NS_TEST_ASSERT_MSG_EQ(got.resume, want.resume, what << ": RESUME");
                    admitted += want.segment != MmuSegment::DROPPED;
                }
                else
                {
                    const uint32_t s = ref.q[i].packets.front();
                    ref.q[i].packets.pop_front();
                    bool want = ref.Release(i, s);
                    NS_TEST_ASSERT_MSG_EQ(mmu->ReleaseLossless(port, cls, s),
                                          want,
                                          what << ": RESUME on release");
                    ++released;
                }
            }
            else
            {
                if (coin(rng) < pAdmit || ref.lossyPackets[i].empty())
                {
                    const uint32_t s = sizeDist(rng);
                    bool want = ref.AdmitLossy(i, s);
                    NS_TEST_ASSERT_MSG_EQ(mmu->AdmitLossy(port, cls, s), want, what << ": lossy");
                    lossyAdmitted += want;
                }
                else
                {
                    const uint32_t s = ref.lossyPackets[i].front();
                    ref.lossyPackets[i].pop_front();
                    ref.lossyB[i] -= s;
                    ref.lossyUsed -= s;
                    mmu->ReleaseLossy(port, cls, s);
                    ++lossyReleased;
                }
            }
        };

        // Phase 1: admissions dominate, then a balanced phase; hot queues get more traffic
        // so that every case (including drops) is visited.
        for (int n = 0; n < 6000; ++n)
        {
            const double pAdmit = n < 3000 ? 0.65 : 0.5;
            uint32_t port = portDist(rng);
            uint8_t cls = coin(rng) < 0.5 ? static_cast<uint8_t>(1 + (port % 2)) : clsDist(rng);
            step(port, cls, pAdmit);
            if (!IsStatusFailure())
            {
                checkAll("operation " + std::to_string(n));
            }
            if (IsStatusFailure())
            {
                NS_TEST_EXPECT_MSG_EQ(true, false, what << ": stopped at operation " << n);
                return counts;
            }
        }
        // Every case was visited.
        NS_TEST_EXPECT_MSG_GT(ref.pauses, 0U, what << ": pauses");
        NS_TEST_EXPECT_MSG_GT(ref.resumes, 0U, what << ": resumes");
        NS_TEST_EXPECT_MSG_GT(ref.losslessDrops, 0U, what << ": lossless drops");
        NS_TEST_EXPECT_MSG_GT(ref.lossyDrops, 0U, what << ": lossy drops");

        // Phase 2: drain every queue, in random order.
        for (;;)
        {
            std::vector<std::pair<uint32_t, uint8_t>> busy;
            for (uint32_t port = 0; port < nPorts; ++port)
            {
                for (uint8_t cls = 0; cls < 8; ++cls)
                {
                    const size_t i = port * 8 + cls;
                    if (!ref.q[i].packets.empty() || !ref.lossyPackets[i].empty())
                    {
                        busy.emplace_back(port, cls);
                    }
                }
            }
            if (busy.empty())
            {
                break;
            }
            auto [port, cls] = busy[std::uniform_int_distribution<size_t>(0, busy.size() - 1)(rng)];
            step(port, cls, 0.0);
            checkAll("drain");
            if (IsStatusFailure())
            {
                NS_TEST_EXPECT_MSG_EQ(true, false, what << ": stopped while draining");
                return counts;
            }
        }

        // Every counter back to zero, every queue ON.
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedUsed(), 0U, what << ": shared used");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLosslessUsed(), 0U, what << ": lossless used");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyUsed(), 0U, what << ": lossy used");
        for (uint32_t port = 0; port < nPorts; ++port)
        {
            for (uint8_t cls = 0; cls < 8; ++cls)
            {
                const std::string queue =
                    what + ", queue " + std::to_string(port) + "," + std::to_string(cls);
                NS_TEST_EXPECT_MSG_EQ(mmu->GetIngressBytes(port, cls), 0U, queue << ": ingress");
                NS_TEST_EXPECT_MSG_EQ(mmu->GetLossyBytes(port, cls), 0U, queue << ": lossy");
                NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(port, cls), false, queue << ": OFF");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPauseCount(), mmu->GetResumeCount(), what << ": pauses");
        NS_TEST_EXPECT_MSG_EQ(admitted, released, what << ": lossless packets");
        NS_TEST_EXPECT_MSG_EQ(lossyAdmitted, lossyReleased, what << ": lossy packets");
        NS_TEST_EXPECT_MSG_EQ(log.pauses, mmu->GetPauseCount(), what << ": traced pauses");
        NS_TEST_EXPECT_MSG_EQ(log.resumes, mmu->GetResumeCount(), what << ": traced resumes");
        counts.disagreements = ref.disagreements;
        counts.blockedResumes = ref.blockedResumes;
        NS_LOG_INFO(what << ": " << ref.pauses << " pauses, " << ref.resumes << " resumes, "
                         << ref.losslessDrops << " lossless drops, " << ref.disagreements
                         << " HeadroomCheck disagreements, " << ref.blockedResumes
                         << " resumes held back by h > 0");
        return counts;
    }

    /// The two HeadroomCheck modes (attribute names).
    static constexpr const char* kChecks[] = {"Occupancy", "QueueLength"};
};

/**
 * \ingroup tagger-tests
 * Dynamic thresholds with T(t) moving under OFF queues.
 */
class MmuRandomDynamicTestCase : public MmuReferenceTestCase
{
  public:
    MmuRandomDynamicTestCase()
        : MmuReferenceTestCase("SwitchMmu: equals a reference model, dynamic thresholds")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* check : kChecks)
        {
            const RunCounts a = RandomRun(1, false, 0.5, 1500, 1.0, check);
            const RunCounts b = RandomRun(2, false, 2.0, 0, 0.5, check);
            // T(t) moves under OFF queues: both new rules are exercised.
            NS_TEST_EXPECT_MSG_GT(a.disagreements + b.disagreements,
                                  0U,
                                  check << ": HeadroomCheck disagreements");
            NS_TEST_EXPECT_MSG_GT(a.blockedResumes + b.blockedResumes,
                                  0U,
                                  check << ": resumes held back by the headroom");
        }
    }
};

/**
 * \ingroup tagger-tests
 * Dynamic thresholds with Xon often 0.
 */
class MmuRandomXonZeroTestCase : public MmuReferenceTestCase
{
  public:
    MmuRandomXonZeroTestCase()
        : MmuReferenceTestCase("SwitchMmu: equals a reference model, Xon often 0")
    {
    }

  private:
    void DoRun() override
    {
        // XonOffset 3000 with Alpha 0.125: T <= 3000 once sum w >= 6000, so Xon is often 0.
        for (const char* check : kChecks)
        {
            const RunCounts c = RandomRun(3, false, 0.125, 3000, 2.0, check);
            NS_TEST_EXPECT_MSG_GT(c.disagreements, 0U, check << ": HeadroomCheck disagreements");
        }
    }
};

/**
 * \ingroup tagger-tests
 * Static thresholds.
 */
class MmuRandomStaticTestCase : public MmuReferenceTestCase
{
  public:
    MmuRandomStaticTestCase()
        : MmuReferenceTestCase("SwitchMmu: equals a reference model, static thresholds")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* check : kChecks)
        {
            RandomRun(4, true, 0.0, 0, 1.0, check);
        }
    }
};
} // namespace

std::vector<TestCase*>
MakeSwitchMmuReferenceTestCases()
{
    return {new MmuRandomDynamicTestCase,
            new MmuRandomXonZeroTestCase,
            new MmuRandomStaticTestCase};
}
