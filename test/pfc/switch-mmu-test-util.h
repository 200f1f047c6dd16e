/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Shared by the SwitchMmu test files of the TestSuite "tagger-mmu"
 * (switch-mmu-test-suite.cc, switch-mmu-threshold-test.cc,
 * switch-mmu-reference-test.cc): the "Small" configuration, a counter of
 * every trace source, and the step-by-step checks of one queue.
 *
 * The small configuration used by most tests ("Small") is:
 *   2 ports, LosslessClasses 0x02 (only class 1 lossless), PrivateBytes phi =
 *   3000, fixed Headroom eta = 6000, LossyPoolSize 10000, BufferSize 48000:
 *   Bs = (48000 - 10000) - 1 class * 2 ports * (3000 + 6000) = 38000 - 18000 = 20000.
 */

#ifndef TAGGER_SWITCH_MMU_TEST_UTIL_H
#define TAGGER_SWITCH_MMU_TEST_UTIL_H

#include "ns3/callback.h"
#include "ns3/double.h"
#include "ns3/pfc-types.h"
#include "ns3/ptr.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <string>
#include <vector>

/// \return the cases of switch-mmu-threshold-test.cc (several queues, static, lossy)
std::vector<ns3::TestCase*> MakeSwitchMmuThresholdTestCases();
/// \return the cases of switch-mmu-reference-test.cc (against a reference model)
std::vector<ns3::TestCase*> MakeSwitchMmuReferenceTestCases();

/**
 * The Small configuration of the file comment, with DT Alpha and XonOffset given.
 * \param alpha the Alpha attribute \param xonOffset the XonOffset attribute
 * \param bufferSize the BufferSize attribute
 * \return the MMU (not set up)
 */
inline ns3::Ptr<ns3::SwitchMmu>
MakeSmallMmu(double alpha = 0.5, uint64_t xonOffset = 1000, uint64_t bufferSize = 48000)
{
    using namespace ns3;
    Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
    mmu->SetAttribute("BufferSize", UintegerValue(bufferSize));
    mmu->SetAttribute("LossyPoolSize", UintegerValue(10000));
    mmu->SetAttribute("PrivateBytes", UintegerValue(3000));
    mmu->SetAttribute("HeadroomMode", StringValue("Fixed"));
    mmu->SetAttribute("Headroom", UintegerValue(6000));
    mmu->SetAttribute("LosslessClasses", UintegerValue(0x02));
    mmu->SetAttribute("Alpha", DoubleValue(alpha));
    mmu->SetAttribute("XonOffset", UintegerValue(xonOffset));
    return mmu;
}

/// \param segment a segment \return its name, for comparisons that print it
inline std::string
SegmentName(ns3::MmuSegment segment)
{
    switch (segment)
    {
    case ns3::MmuSegment::PRIVATE:
        return "PRIVATE";
    case ns3::MmuSegment::SHARED:
        return "SHARED";
    case ns3::MmuSegment::HEADROOM:
        return "HEADROOM";
    case ns3::MmuSegment::DROPPED:
        return "DROPPED";
    case ns3::MmuSegment::LOSSY:
        return "LOSSY";
    }
    return "?";
}

/// Counts of every trace source of one MMU.
struct MmuTraceLog
{
    uint64_t pauses = 0;               //!< Pause events
    uint64_t resumes = 0;              //!< Resume events
    uint64_t losslessDrops = 0;        //!< Drop events, LOSSLESS_OVERFLOW
    uint64_t lossyDrops = 0;           //!< Drop events, LOSSY_OVERFLOW
    uint64_t ingressEvents = 0;        //!< IngressOccupancy events
    uint64_t lossyEvents = 0;          //!< LossyOccupancy events
    std::vector<uint64_t> lastIngress; //!< last IngressOccupancy value, [port * 8 + cls]
    std::vector<uint64_t> lastLossy;   //!< last LossyOccupancy value, [port * 8 + cls]
    uint32_t lastPort = 99;            //!< port of the last Pause/Resume/Drop
    uint8_t lastCls = 99;              //!< class of the last Pause/Resume/Drop
    uint32_t lastDropBytes = 0;        //!< bytes of the last Drop

    /**
     * Connect to every trace source of \p mmu.
     * \param mmu the MMU \param nPorts its ports
     * \return whether every connection succeeded
     */
    bool Connect(ns3::Ptr<ns3::SwitchMmu> mmu, uint32_t nPorts)
    {
        using ns3::MakeCallback;
        lastIngress.assign(nPorts * 8, 0);
        lastLossy.assign(nPorts * 8, 0);
        return mmu->TraceConnectWithoutContext("Pause", MakeCallback(&MmuTraceLog::Pause, this)) &&
               mmu->TraceConnectWithoutContext("Resume",
                                               MakeCallback(&MmuTraceLog::Resume, this)) &&
               mmu->TraceConnectWithoutContext("Drop", MakeCallback(&MmuTraceLog::Drop, this)) &&
               mmu->TraceConnectWithoutContext("IngressOccupancy",
                                               MakeCallback(&MmuTraceLog::Ingress, this)) &&
               mmu->TraceConnectWithoutContext("LossyOccupancy",
                                               MakeCallback(&MmuTraceLog::Lossy, this));
    }

    /// Pause sink. \param port port \param cls class
    void Pause(uint32_t port, uint8_t cls)
    {
        ++pauses;
        lastPort = port;
        lastCls = cls;
    }

    /// Resume sink. \param port port \param cls class
    void Resume(uint32_t port, uint8_t cls)
    {
        ++resumes;
        lastPort = port;
        lastCls = cls;
    }

    /// Drop sink. \param port port \param cls class \param bytes size \param reason why
    void Drop(uint32_t port, uint8_t cls, uint32_t bytes, ns3::PfcDropReason reason)
    {
        (reason == ns3::PfcDropReason::LOSSLESS_OVERFLOW ? losslessDrops : lossyDrops)++;
        lastPort = port;
        lastCls = cls;
        lastDropBytes = bytes;
    }

    /// IngressOccupancy sink. \param port port \param cls class \param bytes occupancy
    void Ingress(uint32_t port, uint8_t cls, uint64_t bytes)
    {
        ++ingressEvents;
        lastIngress[port * 8 + cls] = bytes;
    }

    /// LossyOccupancy sink. \param port port \param cls class \param bytes occupancy
    void Lossy(uint32_t port, uint8_t cls, uint64_t bytes)
    {
        ++lossyEvents;
        lastLossy[port * 8 + cls] = bytes;
    }
};

/// Expected state of queue (port, class 1) after one step.
struct MmuStep
{
    ns3::MmuSegment segment; //!< where the arrival went (ignored for releases)
    uint64_t priv;           //!< private bytes
    uint64_t shared;         //!< w
    uint64_t headroom;       //!< headroom bytes
    uint64_t t;              //!< T(t) after the step
    uint64_t xon;            //!< Xon after the step
    bool pause;              //!< PAUSE decided by this step
    bool resume;             //!< RESUME decided by this step
    bool off;                //!< queue OFF after the step
};

/**
 * \ingroup tagger-tests
 * Base of the SwitchMmu test cases that follow one queue step by step.
 */
class MmuTestCase : public ns3::TestCase
{
  public:
    /// \param name the test name
    explicit MmuTestCase(const std::string& name)
        : ns3::TestCase(name)
    {
    }

  protected:
    /// Short names of the segments for the step tables.
    static constexpr ns3::MmuSegment P = ns3::MmuSegment::PRIVATE;
    static constexpr ns3::MmuSegment S = ns3::MmuSegment::SHARED;   //!< \copydoc P
    static constexpr ns3::MmuSegment H = ns3::MmuSegment::HEADROOM; //!< \copydoc P
    static constexpr ns3::MmuSegment D = ns3::MmuSegment::DROPPED;  //!< \copydoc P

    /**
     * The two HeadroomCheck modes (attribute names).  Tests in which T(t) does not
     * shrink while a queue is OFF run in both: the two readings of case 3 must agree.
     */
    static constexpr const char* kChecks[] = {"Occupancy", "QueueLength"};

    /**
     * Check the state of queue (port, 1) of \p mmu against \p s.
     * \param mmu the MMU \param port the port \param s the expected state
     * \param what names the step in messages
     */
    void ExpectState(ns3::Ptr<ns3::SwitchMmu> mmu,
                     uint32_t port,
                     const MmuStep& s,
                     const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(mmu->GetPrivateBytes(port, 1), s.priv, what << ": private bytes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetSharedBytes(port, 1), s.shared, what << ": shared bytes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetHeadroomBytes(port, 1),
                              s.headroom,
                              what << ": headroom bytes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetIngressBytes(port, 1),
                              s.priv + s.shared + s.headroom,
                              what << ": ingress bytes");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetDynamicThreshold(), s.t, what << ": T(t)");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetXon(), s.xon, what << ": Xon");
        NS_TEST_EXPECT_MSG_EQ(mmu->IsOff(port, 1), s.off, what << ": OFF");
    }

    /**
     * Admit a 1000 B packet at (port, 1) and check the decision and state.
     * \param mmu the MMU \param port the port \param s the expected decision and state
     * \param what names the step in messages
     */
    void AdmitAndCheck(ns3::Ptr<ns3::SwitchMmu> mmu,
                       uint32_t port,
                       const MmuStep& s,
                       const std::string& what)
    {
        ns3::SwitchMmu::Admission a = mmu->AdmitLossless(port, 1, 1000);
        NS_TEST_EXPECT_MSG_EQ(SegmentName(a.segment), SegmentName(s.segment), what << ": segment");
        NS_TEST_EXPECT_MSG_EQ(a.pause, s.pause, what << ": PAUSE");
        NS_TEST_EXPECT_MSG_EQ(a.resume, s.resume, what << ": RESUME");
        ExpectState(mmu, port, s, what);
    }

    /**
     * Release a 1000 B packet at (port, 1) and check the decision and state.
     * \param mmu the MMU \param port the port \param s the expected decision and state
     * \param what names the step in messages
     */
    void ReleaseAndCheck(ns3::Ptr<ns3::SwitchMmu> mmu,
                         uint32_t port,
                         const MmuStep& s,
                         const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(mmu->ReleaseLossless(port, 1, 1000), s.resume, what << ": RESUME");
        ExpectState(mmu, port, s, what);
    }
};

#endif /* TAGGER_SWITCH_MMU_TEST_UTIL_H */
