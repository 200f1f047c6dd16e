/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of PfcFlaggedTrace, in the TestSuite "tagger-pfc-device"
 * (MakePfcFlaggedTraceTestCases(), pfc-test-util.h): the owner's bit follows
 * the sinks through every way ns-3 connects a trace source (the trace
 * source accessor with and without context, Config::Connect, direct calls),
 * and the trace fires its sinks.  PfcNetDevice's own flagged traces are
 * exercised by the device tests that connect MacRx, PhyRxEnd, PhyTxEnd and
 * the pcap sniffers after the device is built.
 */

#include "pfc-test-util.h"

#include "ns3/config.h"
#include "ns3/names.h"
#include "ns3/object.h"
#include "ns3/pfc-flagged-trace.h"
#include "ns3/test.h"
#include "ns3/trace-source-accessor.h"

#include <string>

using namespace ns3;

namespace
{

/**
 * \ingroup tagger-tests
 * An object with one flagged trace source "Value" on bit 4 of m_flags.
 */
class FlaggedOwner : public Object
{
  public:
    /// \return the TypeId
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TaggerTestFlaggedOwner")
                                .SetParent<Object>()
                                .SetGroupName("Tagger")
                                .AddConstructor<FlaggedOwner>()
                                .AddTraceSource("Value",
                                                "a test value",
                                                MakeTraceSourceAccessor(&FlaggedOwner::m_trace),
                                                "ns3::TracedValueCallback::Int32");
        return tid;
    }

    FlaggedOwner()
    {
        m_trace.BindFlag(&m_flags, 4);
    }

    uint8_t m_flags{0};               //!< the owner's byte
    PfcFlaggedTrace<int32_t> m_trace; //!< the trace
};

NS_OBJECT_ENSURE_REGISTERED(FlaggedOwner);

/**
 * \ingroup tagger-tests
 * The bit follows the sinks; the sinks get the values.
 */
class PfcFlaggedTraceTestCase : public TestCase
{
  public:
    PfcFlaggedTraceTestCase()
        : TestCase("PfcFlaggedTrace: the owner's bit is set exactly while a sink is connected")
    {
    }

  private:
    /// \param v a value
    void Sink(int32_t v)
    {
        m_sum += v;
    }

    /// \param context the context \param v a value
    void ContextSink(std::string context, int32_t v)
    {
        m_contexts += context + ";";
        m_sum += v;
    }

    void DoRun() override
    {
        Ptr<FlaggedOwner> o = CreateObject<FlaggedOwner>();
        o->m_flags = 0x81; // other bits stay as they are
        o->m_trace.BindFlag(&o->m_flags, 4);
        NS_TEST_ASSERT_MSG_EQ(int(o->m_flags), 0x81, "no sink: bit clear, others kept");

        Callback<void, int32_t> cb = MakeCallback(&PfcFlaggedTraceTestCase::Sink, this);
        bool ok = o->TraceConnectWithoutContext("Value", cb);
        NS_TEST_ASSERT_MSG_EQ(ok, true, "accessor connect");
        NS_TEST_ASSERT_MSG_EQ(int(o->m_flags), 0x85, "accessor connect sets the bit");
        o->m_trace(7);
        NS_TEST_ASSERT_MSG_EQ(m_sum, 7, "the sink got the value");

        Names::Add("flaggedOwner", o);
        Config::Connect("/Names/flaggedOwner/Value",
                        MakeCallback(&PfcFlaggedTraceTestCase::ContextSink, this));
        o->m_trace(5);
        NS_TEST_ASSERT_MSG_EQ(m_sum, 17, "both sinks got 5");
        NS_TEST_ASSERT_MSG_EQ(m_contexts, "/Names/flaggedOwner/Value;", "the context sink");

        o->TraceDisconnectWithoutContext("Value", cb);
        NS_TEST_ASSERT_MSG_EQ(int(o->m_flags), 0x85, "one sink left: bit still set");
        Config::Disconnect("/Names/flaggedOwner/Value",
                           MakeCallback(&PfcFlaggedTraceTestCase::ContextSink, this));
        NS_TEST_ASSERT_MSG_EQ(int(o->m_flags), 0x81, "no sink left: bit clear");

        o->m_trace.ConnectWithoutContext(cb);
        NS_TEST_ASSERT_MSG_EQ(int(o->m_flags), 0x85, "direct connect sets the bit");
        o->m_trace.DisconnectWithoutContext(cb);
        NS_TEST_ASSERT_MSG_EQ(int(o->m_flags), 0x81, "direct disconnect clears it");
        Names::Clear();
    }

    int32_t m_sum{0};       //!< sum of the values the sinks got
    std::string m_contexts; //!< contexts the context sink got
};

} // namespace

std::vector<TestCase*>
MakePfcFlaggedTraceTestCases()
{
    return {new PfcFlaggedTraceTestCase};
}
