/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * PfcNetDevice pause cases, in the TestSuite "tagger-pfc-device"
 * (MakePfcDevicePauseTestCases(), pfc-test-util.h): a PAUSE takes effect
 * after the processing delay, a later PFC frame replaces the pause time (0
 * resumes), StartPausing refreshes and StopPausing resumes.  Expected times
 * are worked out by hand in the comments from the Ethernet rules listed in
 * pfc-device-test-suite.cc; the fixtures are in pfc-device-test-util.h.
 */

#include "pfc-device-test-util.h"
#include "pfc-test-util.h"

#include "ns3/nstime.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// 3. Pause after the processing delay
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * A PAUSE takes effect ProcessingDelay after it arrives (default 3840 bytes
 * at the rate, or the attribute), pauses only its class, for quanta * 512
 * bit times.
 */
class PfcPauseTimingTestCase : public PfcDeviceTestCase
{
  public:
    PfcPauseTimingTestCase()
        : PfcDeviceTestCase("PfcNetDevice: PAUSE takes effect after the processing delay")
    {
    }

  private:
    void DoRun() override
    {
        {
            // 8 Gbps, 1 us, default processing delay 3840 ns.  b sends PAUSE
            // (class 3, 100 quanta) at t0: it arrives at t0 + 84 + 1000 = t0 + 1084
            // and takes effect at t0 + 1084 + 3840 = t0 + 4924, for 100 * 64 ns =
            // 6400 ns, until t0 + 11324.
            //  - class 3 at t0 + 4900 (not yet paused): leaves at once (to t0 + 5924);
            //  - class 3 at t0 + 6000 (paused): leaves at t0 + 11324;
            //  - class 0 at t0 + 6000: leaves at once.
            PfcPair p = MakePair("8Gbps", MicroSeconds(1));
            FrameLog tx;
            PauseLog pauses;
            p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
            p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
            Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, 100));
            Simulator::Schedule(At(4900), &SendFrames, p.da, Frames{{1000, 3}});
            Simulator::Schedule(At(6000), &SendFrames, p.da, Frames{{1000, 3}, {1000, 0}});
            bool pausedAt4923 = true;
            bool pausedAt4925 = false;
            Simulator::Schedule(At(4923), &SampleClassPaused, &pausedAt4923, p.da, 3);
            Simulator::Schedule(At(4925), &SampleClassPaused, &pausedAt4925, p.da, 3);
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Time processing = p.da->GetProcessingDelay();
            Time quanta = p.da->QuantaToTime(100);
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(processing, NanoSeconds(3840), "3840 bytes at 8 Gbps");
            NS_TEST_EXPECT_MSG_EQ(quanta, NanoSeconds(6400), "100 quanta of 64 ns");
            NS_TEST_EXPECT_MSG_EQ(pausedAt4923, false, "not paused before the delay");
            NS_TEST_EXPECT_MSG_EQ(pausedAt4925, true, "paused after the delay");
            CheckFrames(tx.events, {{4900, 3}, {6000, 0}, {11324, 3}}, "default delay");
            CheckPauses(pauses, {{4924, 3, true}, {11324, 3, false}}, "default delay");
        }
        {
            // ProcessingDelay = 2 us: effect at t0 + 1084 + 2000 = t0 + 3084, until
            // t0 + 3084 + 6400 = t0 + 9484.  Class 3 at t0 + 3000 leaves at once;
            // class 3 at t0 + 3100 waits until t0 + 9484.
            PfcHelper helper;
            helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
            helper.SetDeviceAttribute("ProcessingDelay", TimeValue(MicroSeconds(2)));
            helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
            PfcPair p = MakePair(helper);
            FrameLog tx;
            PauseLog pauses;
            p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
            p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
            Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, 100));
            Simulator::Schedule(At(3000), &SendFrames, p.da, Frames{{1000, 3}});
            Simulator::Schedule(At(3100), &SendFrames, p.da, Frames{{1000, 3}});
            Simulator::Stop(MicroSeconds(100));
            Simulator::Run();
            Time processing = p.da->GetProcessingDelay();
            Simulator::Destroy();

            NS_TEST_EXPECT_MSG_EQ(processing, MicroSeconds(2), "ProcessingDelay attribute");
            CheckFrames(tx.events, {{3000, 3}, {9484, 3}}, "2 us delay");
            CheckPauses(pauses, {{3084, 3, true}, {9484, 3, false}}, "2 us delay");
        }
    }
};

// ---------------------------------------------------------------------------
// 4. Refresh replaces, zero resumes
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * A second PAUSE before the first expires replaces its time (longer or
 * shorter); a RESUME (time 0) unpauses after the processing delay.
 */
class PfcPauseRefreshTestCase : public PfcDeviceTestCase
{
  public:
    PfcPauseRefreshTestCase()
        : PfcDeviceTestCase("PfcNetDevice: a later PFC frame replaces the pause time; 0 resumes")
    {
    }

  private:
    /**
     * b sends PAUSE(3, \p q1) at t0 and PFC(3, \p q2) at t0 + 3000; a queues a
     * class-3 frame at t0 + 5000 (paused by then).
     * \param q1 first time \param q2 second time
     * \param[out] tx a's PhyTxBegin \param[out] pauses a's ClassPause
     */
    void Run(uint16_t q1, uint16_t q2, FrameLog& tx, PauseLog& pauses)
    {
        PfcPair p = MakePair("8Gbps", MicroSeconds(1));
        p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &tx));
        p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &pauses));
        Simulator::Schedule(kT0, &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, q1));
        Simulator::Schedule(At(3000), &PfcNetDevice::SendPfcFrame, p.db, Pfc(3, q2));
        Simulator::Schedule(At(5000), &SendFrames, p.da, Frames{{1000, 3}});
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        Simulator::Destroy();
    }

    void DoRun() override
    {
        // Each PFC frame takes effect 84 + 1000 + 3840 = 4924 ns after it is sent:
        // the first at t0 + 4924, the second at t0 + 7924.
        {
            // 100 then 100 quanta (6400 ns): paused until t0 + 7924 + 6400 = t0 + 14324
            // (not t0 + 11324, the end of the first), with no unpause in between.
            FrameLog tx;
            PauseLog pauses;
            Run(100, 100, tx, pauses);
            CheckFrames(tx.events, {{14324, 3}}, "refresh extends");
            CheckPauses(pauses, {{4924, 3, true}, {14324, 3, false}}, "refresh extends");
        }
        {
            // 100 then 10 quanta (640 ns): the new time replaces the old one:
            // paused until t0 + 7924 + 640 = t0 + 8564, before t0 + 11324.
            FrameLog tx;
            PauseLog pauses;
            Run(100, 10, tx, pauses);
            CheckFrames(tx.events, {{8564, 3}}, "shorter refresh replaces");
            CheckPauses(pauses, {{4924, 3, true}, {8564, 3, false}}, "shorter refresh replaces");
        }
        {
            // 1000 quanta (64 us) then RESUME: unpaused at t0 + 7924.
            FrameLog tx;
            PauseLog pauses;
            Run(1000, 0, tx, pauses);
            CheckFrames(tx.events, {{7924, 3}}, "RESUME");
            CheckPauses(pauses, {{4924, 3, true}, {7924, 3, false}}, "RESUME");
        }
    }
};

// ---------------------------------------------------------------------------
// 5. StartPausing / StopPausing
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * StartPausing sends PAUSE and refreshes it every PauseRefresh (or half the
 * pause time); StopPausing sends RESUME and stops refreshing; without a
 * RESUME the peer resumes on its own when the pause time runs out.
 */
class PfcStartPausingTestCase : public PfcDeviceTestCase
{
  public:
    PfcStartPausingTestCase()
        : PfcDeviceTestCase("PfcNetDevice: StartPausing refreshes, StopPausing resumes")
    {
    }

  private:
    /// What one run observed.
    struct Result
    {
        PfcLog bTx;                 //!< PfcTx of b
        PauseLog aPauses;           //!< ClassPause of a
        FrameLog aTx;               //!< PhyTxBegin of a
        bool pausingMid = false;    //!< b.IsPausingPeer(3) at t0 + 5000
        bool pausingEnd = false;    //!< b.IsPausingPeer(3) at the end
        bool pausedAt12000 = false; //!< a.IsClassPaused(3) at t0 + 12000
        uint64_t pauseTx = 0;       //!< b's PAUSE count
        uint64_t resumeTx = 0;      //!< b's RESUME count
        uint64_t pfcRx = 0;         //!< a's PFC rx count
    };

    /**
     * b (PauseQuanta 100 = 6400 ns) starts pausing class 3 at t0 and stops at
     * t0 + \p stopNs (never if negative); a queues a class-3 frame at t0 + 5000.
     * \param refresh the PauseRefresh attribute \param stopNs when b stops
     * \return what was observed
     */
    Result Run(Time refresh, int64_t stopNs)
    {
        Result r;
        PfcHelper helper;
        helper.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
        helper.SetDeviceAttribute("PauseQuanta", UintegerValue(100));
        helper.SetDeviceAttribute("PauseRefresh", TimeValue(refresh));
        helper.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
        PfcPair p = MakePair(helper);
        p.db->TraceConnectWithoutContext("PfcTx", MakeCallback(&PfcLog::Sink, &r.bTx));
        p.da->TraceConnectWithoutContext("ClassPause", MakeCallback(&PauseLog::Sink, &r.aPauses));
        p.da->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&FrameLog::Eth, &r.aTx));
        Simulator::Schedule(kT0, &PfcNetDevice::StartPausing, p.db, 3);
        if (stopNs >= 0)
        {
            Simulator::Schedule(At(stopNs), &PfcNetDevice::StopPausing, p.db, 3);
        }
        Simulator::Schedule(At(5000), &SamplePausingPeer, &r.pausingMid, p.db, 3);
        Simulator::Schedule(At(5000), &SendFrames, p.da, Frames{{1000, 3}});
        Simulator::Schedule(At(12000), &SampleClassPaused, &r.pausedAt12000, p.da, 3);
        Simulator::Stop(At(40000));
        Simulator::Run();
        r.pausingEnd = p.db->IsPausingPeer(3);
        r.pauseTx = p.db->GetPauseTxFrames();
        r.resumeTx = p.db->GetResumeTxFrames();
        r.pfcRx = p.da->GetPfcRxFrames();
        Simulator::Destroy();
        return r;
    }

    /**
     * Check b's PFC frames: PAUSE(3, 100) at each of \p pauses (ns after t0),
     * then RESUME(3) at \p resumeNs (none if negative).
     * \param r the run \param pauses PAUSE times \param resumeNs RESUME time \param what label
     */
    void CheckPfcTx(const Result& r,
                    const std::vector<int64_t>& pauses,
                    int64_t resumeNs,
                    const std::string& what)
    {
        size_t n = pauses.size() + (resumeNs >= 0 ? 1 : 0);
        NS_TEST_EXPECT_MSG_EQ(r.bTx.events.size(), n, what << ": PFC frames sent");
        for (size_t i = 0; i < std::min(n, r.bTx.events.size()); ++i)
        {
            bool resume = i == pauses.size();
            const PfcHeader& h = r.bTx.events[i].second;
            NS_TEST_EXPECT_MSG_EQ(r.bTx.events[i].first,
                                  At(resume ? resumeNs : pauses[i]),
                                  what << ": time of PFC frame " << i);
            NS_TEST_EXPECT_MSG_EQ(h.GetClassEnableVector(), 1u << 3, what << ": class 3 only");
            NS_TEST_EXPECT_MSG_EQ(h.GetQuanta(3), (resume ? 0 : 100), what << ": time " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(r.pauseTx, pauses.size(), what << ": PAUSE count");
        NS_TEST_EXPECT_MSG_EQ(r.resumeTx, (resumeNs >= 0 ? 1u : 0u), what << ": RESUME count");
        NS_TEST_EXPECT_MSG_EQ(r.pfcRx, n, what << ": PFC frames received by the peer");
    }

    void DoRun() override
    {
        {
            // PauseRefresh 2 us, stop at t0 + 9000: PAUSE at 0, 2, 4, 6, 8 us
            // (1 + floor(9 / 2) = 5), RESUME at 9 us, nothing after (run to 40 us).
            // a is paused from t0 + 4924 (first PAUSE + 4924); each refresh
            // extends it (the one sent at 8 us to t0 + 8000 + 4924 + 6400); the
            // RESUME takes effect at t0 + 9000 + 4924 = t0 + 13924, when the
            // class-3 frame queued at t0 + 5000 leaves.  At t0 + 12000 a is
            // still paused although the first PAUSE alone ended at t0 + 11324.
            Result r = Run(MicroSeconds(2), 9000);
            CheckPfcTx(r, {0, 2000, 4000, 6000, 8000}, 9000, "refresh 2 us");
            CheckPauses(r.aPauses, {{4924, 3, true}, {13924, 3, false}}, "refresh 2 us");
            CheckFrames(r.aTx.events, {{13924, 3}}, "refresh 2 us");
            NS_TEST_EXPECT_MSG_EQ(r.pausedAt12000, true, "refreshed past the first PAUSE");
            NS_TEST_EXPECT_MSG_EQ(r.pausingMid, true, "IsPausingPeer while pausing");
            NS_TEST_EXPECT_MSG_EQ(r.pausingEnd, false, "IsPausingPeer after StopPausing");
        }
        {
            // PauseRefresh 0: half the pause time, 6400 / 2 = 3200 ns.  Stop at
            // t0 + 10000: PAUSE at 0, 3200, 6400, 9600 (1 + floor(10000 / 3200)
            // = 4), RESUME at 10000, effect at t0 + 14924.
            Result r = Run(Time(0), 10000);
            CheckPfcTx(r, {0, 3200, 6400, 9600}, 10000, "default refresh");
            CheckPauses(r.aPauses, {{4924, 3, true}, {14924, 3, false}}, "default refresh");
            CheckFrames(r.aTx.events, {{14924, 3}}, "default refresh");
        }
        {
            // No RESUME and no refresh (PauseRefresh 1 s, never stopped), as if
            // the peer stopped refreshing and its RESUME was lost: a resumes
            // on its own when the pause runs out, t0 + 4924 + 6400 = t0 + 11324,
            // and sends the frame queued at t0 + 5000 then.
            Result r = Run(Seconds(1), -1);
            CheckPfcTx(r, {0}, -1, "no RESUME");
            CheckPauses(r.aPauses, {{4924, 3, true}, {11324, 3, false}}, "no RESUME");
            CheckFrames(r.aTx.events, {{11324, 3}}, "no RESUME");
            NS_TEST_EXPECT_MSG_EQ(r.pausedAt12000, false, "the pause expired");
            NS_TEST_EXPECT_MSG_EQ(r.pausingEnd, true, "b still thinks it is pausing");
        }
    }
};

} // namespace

std::vector<TestCase*>
MakePfcDevicePauseTestCases()
{
    return {new PfcPauseTimingTestCase, new PfcPauseRefreshTestCase, new PfcStartPausingTestCase};
}
