/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * TestSuite "tagger-itsy": the ITSY detector (ITSY, Sec. III) on
 * hand-built networks, each checked against the deadlock oracle, and the
 * message handling of one detector fed by hand.
 *
 * - on-loop: a ring of four switches, each host sending two hops clockwise
 *   at 40 Gbps (two flows per ring link): the ring deadlocks; a ring switch
 *   is the initial trigger and declares (Lemma 1, 2).
 * - out-of-loop: the same ring, underloaded (two 8.5 Gbps flows per link),
 *   plus a switch X off the ring whose host link is 10 Gbps, fed 10.7 Gbps
 *   across R1 -> R2: X pauses first, the pause goes round the ring and the
 *   ring deadlocks; R2 sees X's trigger at two ports and declares as
 *   middle switch (Lemma 3).
 * - no loop (ITSY Fig. 4): a diamond S7 -> {S5, S6} -> U -> S1 -> slow
 *   host; S7 receives S1's trigger from S5 and from S6, starts an episode
 *   as middle switch, and nothing is declared (no deadlock, the oracle
 *   agrees).
 * - by hand: a checking message with no causal pausing port is dropped;
 *   a record stored again after a RESUME fails the temporal check
 *   (a resumed episode: no declaration).
 */

#include "itsy-test-util.h"

#include "ns3/core-module.h"
#include "ns3/itsy-detector.h"
#include "ns3/itsy-helper.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-rx-buffer.h"
#include "ns3/test.h"

#include <set>
#include <sstream>

using namespace ns3;
using namespace ns3::tagger::test;

namespace ns3
{
namespace tagger
{
namespace test
{

/// Common set-up: 40 Gbps, class 3 lossless, static Xoff/Xon. \param net the network
void
ConfigureNet(PfcTopologyHelper& net)
{
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(kLosslessMask));
    net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
    net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(40000));
    net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(20000));
}

/// Append \p d to \p to (a Break trace). \param to the list \param d a break
void
AppendDeclaration(std::vector<ItsyDetector::Declaration>* to, const ItsyDetector::Declaration& d)
{
    to->push_back(d);
}

/// Insert the time now into \p to (an MMU Pause trace). \param to the set
/// \param port the port \param cls the class
void
InsertNow(std::set<Time>* to, uint32_t /* port */, uint8_t /* cls */)
{
    to->insert(Simulator::Now());
}

/**
 * Turn ITSY on, watch with the oracle (every 10 us), run until \p stop.
 * \param net the built network, traffic set \param stop end \return outcome
 */
ItsyOutcome
RunAndCollect(PfcTopologyHelper& net, Traffic& traffic, Time stop, const std::string& recovery)
{
    ItsyHelper itsy;
    itsy.SetDetectorAttribute("Recovery", StringValue(recovery));
    std::vector<ItsyDetector::Declaration> breaks;
    for (const Ptr<ItsyDetector>& d : itsy.Install(net.GetSwitches()))
    {
        d->TraceConnectWithoutContext("Break", MakeBoundCallback(&AppendDeclaration, &breaks));
    }
    std::set<Time> decisions;
    for (uint32_t i = 0; i < net.GetSwitches().GetN(); ++i)
    {
        PfcHelper::GetSwitch(net.GetSwitches().Get(i))
            ->GetMmu()
            ->TraceConnectWithoutContext("Pause", MakeBoundCallback(&InsertNow, &decisions));
    }
    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    oracle->SetAttribute("Interval", TimeValue(MicroSeconds(10)));
    oracle->Start(Time(0), stop);
    Simulator::Stop(stop);
    Simulator::Run();

    ItsyOutcome out;
    out.oracleDeadlock = oracle->HasDeadlock();
    for (const auto& d : oracle->GetDeadlocks())
    {
        out.formed = out.formed.IsZero() ? d.formed : std::min(out.formed, d.formed);
        for (const auto& m : d.cycle)
        {
            out.oracleQueues.insert({m.node, m.port, m.cls});
        }
    }
    out.declarations = itsy.GetDeclarations();
    out.breaks = breaks;
    std::ostringstream printed;
    itsy.PrintDeclarations(printed);
    out.printed = printed.str();
    out.r0Id = net.GetNode(0)->GetId();
    out.formations = oracle->GetDeadlocks();
    out.confirmsUnknown = oracle->Confirms({{999999, 0, 3}}, Time::Max());
    if (!out.formations.empty())
    {
        out.confirmsFirst =
            oracle->Confirms(out.formations.front().cycle, out.formations.front().formed);
    }
    out.pauseDecisions = decisions;
    for (const auto& d : itsy.GetDetectors())
    {
        out.middles += d->GetMiddleEpisodes();
        out.triggers += d->GetInitialTriggers();
        out.recoveryDrops += d->GetRecoveryDrops();
    }
    out.switchRecoveryDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::ITSY_RECOVERY);
    out.losslessDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
    out.received = traffic.GetReceived();
    Simulator::Destroy();
    return out;
}

ItsyOutcome
RunRing(RingMode mode, const std::string& recovery)
{
    tagger::Topology topo;
    std::vector<tagger::NodeId> r;
    for (uint32_t i = 0; i < 4; ++i)
    {
        r.push_back(topo.AddNode("R" + std::to_string(i), tagger::NodeKind::SWITCH, 4, 1));
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        tagger::NodeId h = topo.AddNode("H" + std::to_string(i), tagger::NodeKind::HOST, 1, 0);
        topo.AddLink(h, 0, r[i], 0);
    }
    for (uint32_t i = 0; i < 4; ++i)
    {
        topo.AddLink(r[i], 1, r[(i + 1) % 4], 2);
    }
    tagger::NodeId hx = topo.AddNode("HX", tagger::NodeKind::HOST, 1, 0);
    tagger::NodeId x = hx;
    if (mode == RingMode::PAUSING_HOST)
    {
        topo.AddLink(r[2], 3, hx, 0);
    }
    else
    {
        x = topo.AddNode("X", tagger::NodeKind::SWITCH, 2, 1);
        topo.AddLink(r[2], 3, x, 0);
        topo.AddLink(x, 1, hx, 0);
    }

    PfcTopologyHelper net(topo);
    ConfigureNet(net);
    net.Build();
    RdmaHelper rdma;
    if (mode == RingMode::PAUSING_HOST)
    {
        // HX's NIC takes 1 Gbps of a 10.7 Gbps RoCE flow from H1: it pauses R2 continually.
        rdma.Install(net);
        rdma.GetNic(4)->SetRxBuffer(
            CreateObjectWithAttributes<RdmaRxBuffer>("DrainRate",
                                                     DataRateValue(DataRate("1Gbps"))));
        rdma.AddFlow(1, 4, 100 * 1000 * 1000, Time(0));
    }
    else
    {
        for (Ptr<PfcNetDevice> dev : {net.GetDevice(x, 1), net.GetDevice(hx, 0)})
        {
            dev->SetAttribute("DataRate", StringValue("1Gbps"));
        }
    }
    PfcRouteHelper& routes = net.GetRouteHelper();
    if (mode == RingMode::PAUSING_HOST)
    {
        routes.PinPath({"R1", "R2"}, 4);
    }
    Traffic traffic(net);
    FlowSpec spec;
    spec.bytes = 100 * 1000 * 1000;
    spec.stop = MilliSeconds(2);
    spec.interval = NanoSeconds(mode == RingMode::ON_LOOP ? 200 : 1000);
    for (uint32_t i = 0; i < 4; ++i)
    {
        routes.PinPath({"R" + std::to_string(i),
                        "R" + std::to_string((i + 1) % 4),
                        "R" + std::to_string((i + 2) % 4)},
                       (i + 2) % 4);
        traffic.AddFlow(i, (i + 2) % 4, spec);
    }
    if (mode == RingMode::OUT_OF_LOOP)
    {
        routes.PinPath({"R1", "R2", "X"}, 4);
        spec.interval = NanoSeconds(800);
        traffic.AddFlow(1, 4, spec);
    }
    ItsyOutcome out = RunAndCollect(net, traffic, MilliSeconds(3), recovery);
    out.xNode = net.GetNode(x)->GetId();
    return out;
}

/**
 * ITSY Fig. 4: S8 -> S7 -> {S5, S6} -> U -> S1 -> HD (1 Gbps); two flows
 * from S8's hosts to HD, one through S5, one through S6.  S1 is the
 * initial trigger; S7 receives its trigger from S5 and from S6.
 * \return outcome
 */
ItsyOutcome
RunDiamond()
{
    tagger::Topology topo;
    auto sw = [&topo](const std::string& name, uint32_t ports) {
        return topo.AddNode(name, tagger::NodeKind::SWITCH, ports, 1);
    };
    tagger::NodeId s8 = sw("S8", 3);
    tagger::NodeId s7 = sw("S7", 3);
    tagger::NodeId s5 = sw("S5", 2);
    tagger::NodeId s6 = sw("S6", 2);
    tagger::NodeId u = sw("U", 3);
    tagger::NodeId s1 = sw("S1", 3);
    tagger::NodeId ha = topo.AddNode("HA", tagger::NodeKind::HOST, 1, 0);
    tagger::NodeId hb = topo.AddNode("HB", tagger::NodeKind::HOST, 1, 0);
    tagger::NodeId hd = topo.AddNode("HD", tagger::NodeKind::HOST, 1, 0);
    tagger::NodeId he = topo.AddNode("HE", tagger::NodeKind::HOST, 1, 0);
    topo.AddLink(ha, 0, s8, 0);
    topo.AddLink(hb, 0, s8, 1);
    topo.AddLink(s8, 2, s7, 0);
    topo.AddLink(s7, 1, s5, 0);
    topo.AddLink(s7, 2, s6, 0);
    topo.AddLink(s5, 1, u, 0);
    topo.AddLink(s6, 1, u, 1);
    topo.AddLink(u, 2, s1, 0);
    topo.AddLink(s1, 1, hd, 0);
    topo.AddLink(s1, 2, he, 0);

    PfcTopologyHelper net(topo);
    ConfigureNet(net);
    net.Build();
    for (Ptr<PfcNetDevice> dev :
         {net.GetDevice(s1, 1), net.GetDevice(hd, 0), net.GetDevice(s1, 2), net.GetDevice(he, 0)})
    {
        dev->SetAttribute("DataRate", StringValue("1Gbps"));
    }
    Traffic traffic(net);
    FlowSpec spec;
    spec.bytes = 100 * 1000 * 1000;
    spec.stop = MilliSeconds(2);
    spec.interval = NanoSeconds(800);
    net.GetRouteHelper().PinPath({"S8", "S7", "S5", "U", "S1"}, 2);
    net.GetRouteHelper().PinPath({"S8", "S7", "S6", "U", "S1"}, 3);
    traffic.AddFlow(0, 2, spec);
    traffic.AddFlow(1, 3, spec);
    return RunAndCollect(net, traffic, MilliSeconds(3), "None");
}

} // namespace test
} // namespace tagger
} // namespace ns3

namespace
{

/// Every queue of every declared loop is a queue of an oracle cycle.
/// \param o outcome \return yes
bool
DeclaredLoopsAreOracleCycles(const ItsyOutcome& o)
{
    for (const auto& d : o.declarations)
    {
        for (const auto& h : d.loop)
        {
            if (!o.oracleQueues.count({h.node, h.port, h.cls}))
            {
                return false;
            }
        }
    }
    return true;
}

/**
 * \ingroup tagger-tests
 * On-loop initial trigger: a declaration, on the loop, naming oracle queues.
 */
class ItsyOnLoopTestCase : public TestCase
{
  public:
    ItsyOnLoopTestCase()
        : TestCase("ring deadlock, initial trigger on the loop: declared (Lemma 1, 2)")
    {
    }

  private:
    void DoRun() override
    {
        ItsyOutcome o = RunRing(RingMode::ON_LOOP, "None");
        NS_TEST_ASSERT_MSG_EQ(o.oracleDeadlock, true, "the ring must deadlock");
        NS_TEST_ASSERT_MSG_GT(o.declarations.size(), 0u, "ITSY must declare");
        const auto& d = o.declarations.front();
        NS_TEST_EXPECT_MSG_EQ(d.onLoop, true, "the trigger is a ring switch");
        NS_TEST_EXPECT_MSG_EQ(d.loop.size(), 4u, "the loop is the ring's four egress queues");
        NS_TEST_EXPECT_MSG_EQ(DeclaredLoopsAreOracleCycles(o), true, "loop = oracle cycle");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(d.time, o.formed, "declared after the formation");
        NS_TEST_EXPECT_MSG_LT(d.time, o.formed + MicroSeconds(300), "declared soon after");
        // The report names the switches as the topology does (R0 .. R3).
        const std::string first = o.printed.substr(0, o.printed.find('\n'));
        const bool named =
            first.find(" by R" + std::to_string(d.genNode - o.r0Id)) != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(named, true, "initiator named: " << first);
        NS_TEST_EXPECT_MSG_EQ(first.find("node "), std::string::npos, "no bare id: " << first);
    }
};

/**
 * \ingroup tagger-tests
 * Out-of-loop initial trigger: declared by the middle switch (Lemma 3).
 */
class ItsyOutOfLoopTestCase : public TestCase
{
  public:
    ItsyOutOfLoopTestCase()
        : TestCase(
              "ring deadlock, initial trigger X off the loop: middle switch declares (Lemma 3)")
    {
    }

  private:
    void DoRun() override
    {
        ItsyOutcome o = RunRing(RingMode::OUT_OF_LOOP, "None");
        NS_TEST_ASSERT_MSG_EQ(o.oracleDeadlock, true, "the ring must deadlock");
        NS_TEST_ASSERT_MSG_GT(o.declarations.size(), 0u, "ITSY must declare");
        bool middleOut = false;
        for (const auto& d : o.declarations)
        {
            middleOut = middleOut || (d.middle && !d.onLoop && d.trigNode == o.xNode);
        }
        NS_TEST_EXPECT_MSG_EQ(middleOut, true, "a middle switch names X, off the loop");
        NS_TEST_EXPECT_MSG_EQ(DeclaredLoopsAreOracleCycles(o), true, "loop = oracle cycle");
    }
};

/**
 * \ingroup tagger-tests
 * ITSY Fig. 4: the same trigger from two ports, no loop: nothing declared.
 */
class ItsyNoLoopTestCase : public TestCase
{
  public:
    ItsyNoLoopTestCase()
        : TestCase("same trigger from two ports, no loop (Fig. 4): middle switch, no declaration")
    {
    }

  private:
    void DoRun() override
    {
        ItsyOutcome o = RunDiamond();
        NS_TEST_EXPECT_MSG_EQ(o.oracleDeadlock, false, "no cycle");
        NS_TEST_EXPECT_MSG_GT(o.middles, 0u, "S7 saw S1's trigger at two ports");
        NS_TEST_EXPECT_MSG_EQ(o.declarations.size(), 0u, "nothing declared");
    }
};

/// A PFC body for class 3: PAUSE (\p quanta > 0) or RESUME, with \p m in its padding.
/// \param quanta time \param m message (type NONE: none) \return the body
PfcHeader
Pfc(uint16_t quanta, const ItsyMessage& m)
{
    PfcHeader pfc;
    pfc.SetClass(kLosslessClass, quanta);
    if (m.type != ItsyMessage::NONE)
    {
        pfc.SetPadding(m.ToPadding());
    }
    return pfc;
}

/// A synthesized TEMPORAL frame body. \param m its message \return the body
Ptr<Packet>
Temporal(ItsyMessage m)
{
    m.type = ItsyMessage::TEMPORAL;
    ItsyHeader h;
    h.message = m;
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(h);
    return p;
}

/**
 * \ingroup tagger-tests
 * One detector fed by hand (the middle switch of a line S1 - S2 - S3, no
 * traffic, so no port of S2 is causal with another): a checking message is
 * stored and dropped; a temporal check of Seq 7 detected at 25 us passes
 * only where the record of Seq 7 was stored before 25 us and never resumed.
 */
class ItsyByHandTestCase : public TestCase
{
  public:
    /// What happens between the first PAUSE (10 us) and the check (40 us).
    enum Story
    {
        KEPT,    //!< nothing: the record of 10 us stays
        NEW_SEQ, //!< RESUME at 20 us, PAUSE with Seq 8 at 30 us (a new episode)
        SAME_SEQ //!< RESUME at 20 us, PAUSE with Seq 7 again at 30 us (after the detection)
    };

    /// \param story the story
    ItsyByHandTestCase(Story story)
        : TestCase(std::string("temporal check by hand: ") +
                   (story == KEPT      ? "record kept, check passes"
                    : story == NEW_SEQ ? "resumed, new Seq_id: check fails"
                                       : "resumed, same Seq_id stored again later: check fails")),
          m_story(story)
    {
    }

  private:
    void DoRun() override
    {
        Line line;
        PfcTopologyHelper net(line.topo);
        ConfigureNet(net);
        net.Build();
        ItsyHelper itsy;
        itsy.Install(net.GetSwitches());
        Ptr<ItsyDetector> d = net.GetSwitch(line.s[1])->GetItsy();
        ItsyMessage m;
        m.type = ItsyMessage::CHECKING;
        m.cls = kLosslessClass;
        m.genNode = 99;
        m.genPort = 2 << 3 | kLosslessClass;
        m.seq = 7;
        m.trigNode = 99;
        m.trigPort = m.genPort;
        m.detectedNs = 25000;
        Simulator::Schedule(MicroSeconds(10), &ItsyDetector::ReceivePfc, d, 1u, Pfc(100, m));
        if (m_story != KEPT)
        {
            ItsyMessage again = m;
            again.seq = m_story == NEW_SEQ ? 8 : 7;
            Simulator::Schedule(MicroSeconds(20), &ItsyDetector::ReceivePfc, d, 1u, Pfc(0, m));
            Simulator::Schedule(MicroSeconds(30),
                                &ItsyDetector::ReceivePfc,
                                d,
                                1u,
                                Pfc(100, again));
        }
        Simulator::Schedule(MicroSeconds(40), &ItsyDetector::ReceiveFrame, d, 1u, Temporal(m));
        Simulator::Stop(MicroSeconds(50));
        Simulator::Run();
        // Every checking message found no causal pausing port: dropped, nothing sent.
        NS_TEST_EXPECT_MSG_EQ(d->GetSynthesized(), 0u, "nothing forwarded");
        uint64_t checks = m_story == KEPT ? 1 : 2;
        uint64_t failed = m_story == KEPT ? 0 : 1;
        NS_TEST_EXPECT_MSG_EQ(d->GetTemporalFailed(), failed, "temporal check");
        // Dropped: each checking message, and a passing check (no causal port).
        NS_TEST_EXPECT_MSG_EQ(d->GetDropped(), checks + (1 - failed), "dropped messages");
        NS_TEST_EXPECT_MSG_EQ(d->GetDeclarations(), 0u, "not the initiator: no declaration");
        Simulator::Destroy();
    }

    Story m_story; //!< the story
};

} // namespace

/**
 * \ingroup tagger-tests
 * The ITSY test suite.
 */
class ItsyTestSuite : public TestSuite
{
  public:
    ItsyTestSuite()
        : TestSuite("tagger-itsy", Type::UNIT)
    {
        AddTestCase(new ItsyOnLoopTestCase);
        AddTestCase(new ItsyOutOfLoopTestCase);
        AddTestCase(new ItsyNoLoopTestCase);
        AddTestCase(new ItsyByHandTestCase(ItsyByHandTestCase::KEPT));
        AddTestCase(new ItsyByHandTestCase(ItsyByHandTestCase::NEW_SEQ));
        AddTestCase(new ItsyByHandTestCase(ItsyByHandTestCase::SAME_SEQ));
        for (RingMode mode : {RingMode::PAUSING_HOST, RingMode::OUT_OF_LOOP})
        {
            AddTestCase(MakeItsyRecoveryTestCase(false, mode));
            AddTestCase(MakeItsyRecoveryTestCase(true, mode));
        }
        AddTestCase(MakeRxBufferTestCase(false));
        AddTestCase(MakeRxBufferTestCase(true));
        AddTestCase(MakeWatchdogTestCase());
        AddTestCase(MakeItsyLongLoopTestCase());
        AddTestCase(MakeItsyRecoveryLosslessTestCase());
        AddTestCase(MakeItsyBreakOnceTestCase());
        AddTestCase(MakeOracleFormationsTestCase());
    }
};

/// The suite's instance.
static ItsyTestSuite g_itsyTestSuite;
