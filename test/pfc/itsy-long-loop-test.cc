/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Test cases of the TestSuite "tagger-itsy" for loops whose round trip is
 * long against ProbeInterval: rings of 3 to 8 switches with links of 1 to
 * 20 us, every route pinned clockwise two hops (each ring link carries two
 * flows at 40 Gbps: the ring deadlocks), probed every 10 us to 1 ms.  ITSY
 * must declare the deadlock, name only queues of the oracle's cycle, and do
 * so within its bound: ProbeInterval plus eight round trips of the loop (a
 * round trip: per link, its delay, a control frame and the frame in
 * transmission before it; the manual, "ITSY: the detection bound").
 */

#include "itsy-test-util.h"

#include "ns3/core-module.h"
#include "ns3/itsy-helper.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"

#include <set>
#include <sstream>

namespace ns3
{
namespace tagger
{
namespace test
{
namespace
{

/// One ring: size, link delay, ProbeInterval.
struct RingCase
{
    uint32_t switches; //!< ring switches
    Time delay;        //!< every link's delay
    Time probe;        //!< ItsyDetector::ProbeInterval
};

/**
 * \param c the ring \param recovery ItsyDetector::Recovery
 * \return what the run saw (oracle every 10 us, 6 ms)
 */
ItsyOutcome
RunLongRing(const RingCase& c, const std::string& recovery)
{
    const uint32_t n = c.switches;
    tagger::Topology topo;
    std::vector<tagger::NodeId> r;
    for (uint32_t i = 0; i < n; ++i)
    {
        r.push_back(topo.AddNode("R" + std::to_string(i), tagger::NodeKind::SWITCH, 3, 1));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        tagger::NodeId h = topo.AddNode("H" + std::to_string(i), tagger::NodeKind::HOST, 1, 0);
        topo.AddLink(h, 0, r[i], 0);
        topo.AddLink(r[i], 1, r[(i + 1) % n], 2);
    }
    PfcTopologyHelper net(topo);
    ConfigureNet(net);
    net.GetPfcHelper().SetChannelAttribute("Delay", TimeValue(c.delay));
    net.Build();
    Traffic traffic(net);
    FlowSpec spec;
    spec.bytes = 100 * 1000 * 1000;
    spec.stop = MilliSeconds(5);
    for (uint32_t i = 0; i < n; ++i)
    {
        net.GetRouteHelper().PinPath({"R" + std::to_string(i),
                                      "R" + std::to_string((i + 1) % n),
                                      "R" + std::to_string((i + 2) % n)},
                                     (i + 2) % n);
        traffic.AddFlow(i, (i + 2) % n, spec);
    }
    Config::SetDefault("ns3::ItsyDetector::ProbeInterval", TimeValue(c.probe));
    ItsyOutcome out = RunAndCollect(net, traffic, MilliSeconds(6), recovery);
    Config::SetDefault("ns3::ItsyDetector::ProbeInterval", TimeValue(MicroSeconds(100)));
    return out;
}

/**
 * \ingroup tagger-tests
 * Rings whose round trip is longer than ProbeInterval (the livelock of a
 * temporal check restarted by every retry), and shorter ones.
 */
class ItsyLongLoopTestCase : public TestCase
{
  public:
    ItsyLongLoopTestCase()
        : TestCase("ITSY: rings of 3 to 8 switches, 1-20 us links, ProbeInterval 10 us - 1 ms: "
                   "declared within ProbeInterval + 8 round trips, only oracle queues")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<RingCase> cases = {
            {6, MicroSeconds(10), MicroSeconds(100)}, // the livelock of the issue
            {8, MicroSeconds(8), MicroSeconds(100)},
            {5, MicroSeconds(2), MicroSeconds(20)},
            {3, MicroSeconds(20), MicroSeconds(10)},
            {4, MicroSeconds(1), MicroSeconds(10)},
            {7, MicroSeconds(5), MilliSeconds(1)},
        };
        for (const RingCase& c : cases)
        {
            ItsyOutcome out = RunLongRing(c, "None");
            std::ostringstream what;
            what << c.switches << " switches, " << c.delay.As(Time::US) << " links, probe "
                 << c.probe.As(Time::US);
            NS_TEST_EXPECT_MSG_EQ(out.oracleDeadlock, true, what.str() << ": no deadlock formed");
            NS_TEST_EXPECT_MSG_GT(out.declarations.size(), 0, what.str() << ": not declared");
            if (out.declarations.empty())
            {
                continue;
            }
            // A round trip: per link its delay, a 64-byte control frame and a
            // 1,062-byte data frame ahead of it (1,082 and 84 bytes on the wire
            // at 40 Gbps: 217 + 17 ns, rounded up to 250 ns).
            const Time lap = (c.delay + NanoSeconds(250)) * int64_t(c.switches);
            const Time bound = c.probe + lap * 8;
            NS_TEST_EXPECT_MSG_LT_OR_EQ(out.declarations[0].time - out.formed,
                                        bound,
                                        what.str() << ": declared late");
            for (const ItsyDetector::Declaration& d : out.declarations)
            {
                for (const ItsyDetector::Hop& h : d.loop)
                {
                    NS_TEST_EXPECT_MSG_EQ(out.oracleQueues.count({h.node, h.port, h.cls}),
                                          1,
                                          what.str()
                                              << ": declared queue not in the oracle's cycle");
                }
            }
        }
    }
};

/// \param a a loop \param b another \return whether they pass the same switches
bool
SameLoop(const ItsyDetector::Declaration& a, const ItsyDetector::Declaration& b)
{
    std::set<uint32_t> na;
    std::set<uint32_t> nb;
    for (const ItsyDetector::Hop& h : a.loop)
    {
        na.insert(h.node);
    }
    for (const ItsyDetector::Hop& h : b.loop)
    {
        nb.insert(h.node);
    }
    return na == nb;
}

/**
 * \ingroup tagger-tests
 * Recovery Break breaks a loop once per episode.  On a ring every switch
 * is an initiator and declares the loop, within a lap of the others or
 * long after; only one break may follow (Break trace).  A later break of
 * the same loop is a recurrence only if the declaration it answers was
 * detected after the earlier break (the loop formed again); one detected
 * before it is the same episode, broken twice.  No lossless drop either.
 */
class ItsyBreakOnceTestCase : public TestCase
{
  public:
    ItsyBreakOnceTestCase()
        : TestCase("ITSY Break: rings of 4 to 8 switches, each loop episode broken once")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<RingCase> cases = {
            {6, MicroSeconds(10), MicroSeconds(100)},
            {4, MicroSeconds(2), MicroSeconds(100)},
            {8, MicroSeconds(8), MicroSeconds(100)},
            {5, MicroSeconds(0), MicroSeconds(20)},
        };
        for (const RingCase& c : cases)
        {
            ItsyOutcome out = RunLongRing(c, "Break");
            std::ostringstream what;
            what << c.switches << " switches, " << c.delay.As(Time::US) << " links";
            NS_TEST_EXPECT_MSG_GT(out.declarations.size(), 0, what.str() << ": not declared");
            NS_TEST_EXPECT_MSG_GT(out.breaks.size(), 0, what.str() << ": not broken");
            uint32_t twice = 0;
            for (std::size_t b = 0; b < out.breaks.size(); ++b)
            {
                for (std::size_t a = 0; a < b; ++a)
                {
                    twice += SameLoop(out.breaks[a], out.breaks[b]) &&
                                     out.breaks[b].detected <= out.breaks[a].time
                                 ? 1
                                 : 0;
                }
            }
            std::clog << "itsy break once: " << what.str() << ": " << out.declarations.size()
                      << " declarations, " << out.breaks.size() << " breaks, " << twice
                      << " of an episode already broken\n";
            NS_TEST_EXPECT_MSG_EQ(twice, 0, what.str() << ": an episode broken twice");
            NS_TEST_EXPECT_MSG_EQ(out.losslessDrops, 0, what.str() << ": lossless drops");
        }
    }
};

/**
 * \ingroup tagger-tests
 * The oracle reports every formation, and dates it at the cycle's last
 * PAUSE decision.  Rings left deadlocked: one formation, however long it
 * lasts.  The same rings with Recovery Break (the loop forms again after
 * each break, and may form and dissolve meanwhile): at least as many
 * formations as breaks.  Every formation's time is the time of a PAUSE
 * decision of some switch's MMU (its Pause trace), before the oracle saw it.
 */
class OracleFormationsTestCase : public TestCase
{
  public:
    OracleFormationsTestCase()
        : TestCase("oracle: every formation reported, dated at the last PAUSE decision")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<RingCase> cases = {
            {4, MicroSeconds(2), MicroSeconds(100)},
            {6, MicroSeconds(10), MicroSeconds(100)},
        };
        for (const RingCase& c : cases)
        {
            ItsyOutcome out = RunLongRing(c, "Break");
            ItsyOutcome none = RunLongRing(c, "None");
            std::ostringstream what;
            what << c.switches << " switches, " << c.delay.As(Time::US) << " links";
            NS_TEST_EXPECT_MSG_GT(out.formations.size(), 1, what.str() << ": recurrences");
            for (std::size_t k = 0; k < out.formations.size(); ++k)
            {
                const PfcDeadlockOracle::Deadlock& f = out.formations[k];
                NS_TEST_EXPECT_MSG_EQ(out.pauseDecisions.count(f.formed),
                                      1,
                                      what.str()
                                          << ": formation " << k << " at " << f.formed.As(Time::US)
                                          << " is no PAUSE decision");
                NS_TEST_EXPECT_MSG_LT(f.formed, f.detected, what.str() << ": seen before formed");
            }
            // Left alone, the deadlock is one formation however long it lasts;
            // broken, it forms again after each break (all but the last).
            NS_TEST_EXPECT_MSG_EQ(none.formations.size(), 1, what.str() << ": reported again");
            // Confirms: a verdict on the first formation's queues is confirmed
            // by it (at the end, with Break, that cycle may be gone), and never
            // one on a queue of no switch.
            NS_TEST_EXPECT_MSG_EQ(out.confirmsFirst, true, what.str() << ": Confirms");
            NS_TEST_EXPECT_MSG_EQ(out.confirmsUnknown, false, what.str() << ": Confirms unknown");
            NS_TEST_EXPECT_MSG_GT(out.breaks.size(), 1, what.str() << ": broken");
            NS_TEST_EXPECT_MSG_EQ(out.losslessDrops, 0, what.str() << ": lossless drops");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(out.formations.size(),
                                        out.breaks.size(),
                                        what.str() << ": a recurrence not reported");
        }
    }
};

/// Count a switch's drops of \p reason into \p n (Drop trace). \param n the count
/// \param reason the reason counted \param frame the frame \param port ingress \param r reason
void
CountDrops(uint64_t* n,
           PfcDropReason reason,
           Ptr<const Packet> /* frame */,
           uint32_t /* port */,
           PfcDropReason r)
{
    *n += r == reason ? 1 : 0;
}

/**
 * \ingroup tagger-tests
 * Trigger recovery ends lossless.  H1 sends 40 Gbps through switch S to H2,
 * whose link takes 10 Gbps: S's ingress from H1 turns OFF and pauses H1, and
 * stays OFF as long as H1 sends.  At 1 ms S is made the initial trigger of a
 * declared deadlock (ResolveTrigger, HoldTime 1 ms): the class turns lossy,
 * H1 is resumed and what overflows S's ingress is dropped as itsy-recovery.
 * When the hold ends the ingress queue is still OFF, and S must pause H1 at
 * once: no drop at all after the hold, none ever counted lossless-overflow.
 * (Without the re-evaluation the queue, OFF since the hold, never crossed
 * Xoff again, H1 was never paused again and S dropped for good.)
 */
class ItsyHoldEndsLosslessTestCase : public TestCase
{
  public:
    ItsyHoldEndsLosslessTestCase()
        : TestCase("ITSY Trigger: the hold ends lossless (a queue OFF at its end pauses at once)")
    {
    }

  private:
    void DoRun() override
    {
        tagger::Topology topo;
        tagger::NodeId s = topo.AddNode("S", tagger::NodeKind::SWITCH, 2, 1);
        tagger::NodeId h1 = topo.AddNode("H1", tagger::NodeKind::HOST, 1, 0);
        tagger::NodeId h2 = topo.AddNode("H2", tagger::NodeKind::HOST, 1, 0);
        topo.AddLink(h1, 0, s, 0);
        topo.AddLink(s, 1, h2, 0);
        PfcTopologyHelper net(topo);
        ConfigureNet(net);
        net.Build();
        for (Ptr<PfcNetDevice> dev : {net.GetDevice(s, 1), net.GetDevice(h2, 0)})
        {
            dev->SetAttribute("DataRate", StringValue("10Gbps"));
        }
        Traffic traffic(net);
        FlowSpec spec;
        spec.bytes = 100 * 1000 * 1000;
        spec.stop = MilliSeconds(5);
        traffic.AddFlow(0, 1, spec);
        ItsyHelper itsy;
        itsy.SetDetectorAttribute("Recovery", StringValue("Trigger"));
        itsy.SetDetectorAttribute("HoldTime", TimeValue(MilliSeconds(1)));
        std::vector<Ptr<ItsyDetector>> detectors = itsy.Install(net.GetSwitches());
        Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(s);
        uint64_t recovery = 0;
        uint64_t lossless = 0;
        sw->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(&CountDrops, &recovery, PfcDropReason::ITSY_RECOVERY));
        sw->TraceConnectWithoutContext(
            "Drop",
            MakeBoundCallback(&CountDrops, &lossless, PfcDropReason::LOSSLESS_OVERFLOW));
        const uint32_t node = net.GetNode(s)->GetId();
        Simulator::Schedule(MilliSeconds(1),
                            &ItsyDetector::ResolveTrigger,
                            detectors[0],
                            node,
                            0,
                            kLosslessClass);
        uint64_t atEnd = 0;
        Simulator::Schedule(MicroSeconds(2100), &CopyCount, &atEnd, &recovery);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(atEnd, 0, "the hold dropped what overflowed");
        NS_TEST_EXPECT_MSG_EQ(recovery, atEnd, "drops after the hold ended");
        NS_TEST_EXPECT_MSG_EQ(lossless, 0, "lossless drops");
        NS_TEST_EXPECT_MSG_EQ(net.GetDevice(s, 0)->IsPausingPeer(kLosslessClass),
                              true,
                              "S pauses H1 again");
        Simulator::Destroy();
    }

    /// \param to set to \p from's value \param from a counter
    static void CopyCount(uint64_t* to, const uint64_t* from)
    {
        *to = *from;
    }
};

} // namespace

TestCase*
MakeItsyLongLoopTestCase()

{
    return new ItsyLongLoopTestCase;
}

TestCase*
MakeOracleFormationsTestCase()
{
    return new OracleFormationsTestCase;
}

TestCase*
MakeItsyBreakOnceTestCase()
{
    return new ItsyBreakOnceTestCase;
}

TestCase*
MakeItsyRecoveryLosslessTestCase()
{
    return new ItsyHoldEndsLosslessTestCase;
}

} // namespace test
} // namespace tagger
} // namespace ns3
