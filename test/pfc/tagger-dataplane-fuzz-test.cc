/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The data-plane fuzz of Tagger, the TTL scheme and plain PFC
 * (MakeDataplaneFuzzTestCase(), pfc-test-util.h): a seeded fuzz on a k = 4
 * fat tree (random link failures with local reroute, random RoCE flows and
 * an incast) in which Tagger and TTL priorities never deadlock, never drop a
 * lossless packet and account for every packet, and plain PFC deadlocks in
 * some runs.  One test case per data plane, each in the suite of that data
 * plane: Tagger's in tagger-classifier (item 3 of the list in
 * tagger-classifier-test-suite.cc), TTL's in tagger-ttl
 * (ttl-classifier-test-suite.cc), plain PFC's in tagger-pfc-switch.  The
 * network settings, frame parsing and packet accounting are in
 * tagger-dataplane-test-util.h.
 */

#include "pfc-test-util.h"
#include "tagger-dataplane-test-util.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/tagger-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

/// The log component of NS_LOG_INFO here, shared with tagger-egress-tag-test.cc.
static LogComponent& g_log [[maybe_unused]] = TaggerDataplaneTestLog();

namespace
{

// ---------------------------------------------------------------------------
// 3. Fuzz: random failures and flows on a fat tree
// ---------------------------------------------------------------------------

/// The fuzz's data planes (DataplaneFuzzMode) as they appear in messages.
const char* const kFuzzModeNames[] = {"tagger", "ttl", "pfc"};

/// One random link failure.
struct FuzzFailure
{
    std::string a; //!< one end (switch name)
    std::string b; //!< the other end (switch name)
    Time at;       //!< when
};

/// One random flow.
struct FuzzFlow
{
    uint32_t src;   //!< sending host
    uint32_t dst;   //!< receiving host
    uint64_t bytes; //!< size (a multiple of 1000 B)
    Time start;     //!< start time
};

/// One seeded scenario, the same for every mode.
struct FuzzScenario
{
    uint32_t run = 0;                  //!< RngSeedManager run number
    std::vector<FuzzFailure> failures; //!< in time order
    std::vector<FuzzFlow> flows;       //!< random flows, then the incast
    uint32_t incastDst = 0;            //!< the incast's receiver
    uint32_t routeSwitches = 0;        //!< longest route over every FIB state (switches)
    bool routeLoop = false;            //!< some FIB state has a forwarding loop
};

/// Totals over the runs of one mode.
struct FuzzTotals
{
    uint32_t runs = 0;            //!< runs
    uint32_t deadlocks = 0;       //!< runs that deadlocked (oracle or undrained)
    uint32_t oracleDeadlocks = 0; //!< runs whose oracle saw a cycle
    uint32_t undrained = 0;       //!< runs with lossless bytes after the drain
    uint64_t dataSent = 0;        //!< data packets sent
    uint64_t dataDelivered = 0;   //!< data packets delivered in order
    uint64_t flowsDone = 0;       //!< flows acknowledged in full
    uint64_t flows = 0;           //!< flows
    std::array<uint64_t, kPfcDropReasons> dataDrops{}; //!< data drops per reason
    std::array<uint64_t, kPfcDropReasons> ctrlDrops{}; //!< ACK/NAK/CNP drops per reason
    uint64_t pauses = 0;                               //!< PAUSE decisions
    uint64_t stuck = 0;                                //!< frames queued or on a wire at the end
    uint64_t deliveredUntagged = 0;                    //!< data packets delivered with DSCP 0
    uint64_t taggedTtlDrops = 0;                       //!< TTL expiries of packets with DSCP != 0
    uint32_t extended = 0; //!< runs that needed time after the drain test
    Time maxExtra;         //!< the most time needed after it
};

/// Time the senders stop (the drain test begins).
const Time kFuzzStop = MilliSeconds(2);
/// End of a run: the senders have been stopped for 2 ms.
const Time kFuzzEnd = MilliSeconds(4);

/**
 * \ingroup tagger-tests
 * The fuzz: for each run number, a random scenario on a k = 4 fat tree
 * (Draw), played in one of three modes with the settings of
 * tagger-clos-bounce (40 Gbps, 1 us, DWRR, static Xoff 50 KB / Xon 5 KB, no
 * DCQCN):
 *
 *  - Tagger, the Clos rules for shortest + 1-bounce paths (2 lossless tags),
 *    hosts sending tag 1 with TTL 64;
 *  - TTL priorities, Ttl0 from the routes (MeasureRoutes: 9, the most 8
 *    classes allow, when a forwarding loop can form), hosts sending DSCP 0;
 *  - plain PFC, DSCP 24 (class 3).
 *
 * The senders stop at 2 ms (RdmaNic::StopFlows); at 4 ms the drain test
 * looks for lossless bytes still buffered.  Tagger and TTL: no deadlock
 * (oracle, drain test), no LOSSLESS_OVERFLOW, Tagger's lossy drops and TTL
 * expiries only for packets with the lossy tag, no lossy drop with TTL, and
 * every packet accounted for (Census) at the drain test and once the network
 * is empty.  All modes: the accounting identity (stuck frames are queued),
 * and no lossless drop (PFC does not drop, it deadlocks).  Plain PFC must
 * deadlock in at least one run: the scenarios are the same in every mode,
 * so that shows they are hard enough for the other two.  One test case per
 * mode, each in the suite of its data plane (MakeDataplaneFuzzTestCase):
 * tagger-classifier, tagger-ttl and tagger-pfc-switch.
 * NS_LOG=TaggerDataplaneTest=info prints each run and the mode's totals.
 */
class DataplaneFuzzTestCase : public TestCase
{
  public:
    /**
     * \param firstRun first RngSeedManager run number \param runs number of runs
     * \param mode the data plane to play
     */
    DataplaneFuzzTestCase(uint32_t firstRun, uint32_t runs, DataplaneFuzzMode mode)
        : TestCase(Name(runs, mode)),
          m_firstRun(firstRun),
          m_runs(runs),
          m_mode(mode)
    {
    }

  private:
    /**
     * \param runs number of runs \param mode the data plane
     * \return the test case's name
     */
    static std::string Name(uint32_t runs, DataplaneFuzzMode mode)
    {
        const std::string plane = mode == DataplaneFuzzMode::TAGGER ? "Tagger"
                                  : mode == DataplaneFuzzMode::TTL  ? "TTL"
                                                                    : "Plain PFC";
        const std::string expected = mode == DataplaneFuzzMode::PFC
                                         ? "deadlocks in some runs, never drops lossless packets"
                                         : "never deadlocks nor drops lossless packets";
        return plane + " fuzz on a k=4 fat tree: " + std::to_string(runs) +
               " seeded runs of random link failures (local reroute), random RoCE flows and an "
               "incast; " +
               expected + ", every packet accounted for";
    }

    /**
     * Draw the scenario of run \p run.
     *
     * Failures: 1 to 3 distinct switch-switch links (of the 32: 16 ToR -
     * aggregation, 16 aggregation - core), each at a random time in
     * [100 us, 1500 us).  Flows: 16 to 32 flows between random distinct
     * hosts, 50 to 500 packets of 1000 B, starting in [10 us, 1000 us); an
     * incast of 4 to 8 senders to one random host, 100 to 300 packets each,
     * all starting at one random time in [100 us, 800 us).
     * \param topo the fat tree \param run the run number \return the scenario
     */
    FuzzScenario Draw(const tagger::Topology& topo, uint32_t run)
    {
        FuzzScenario s;
        s.run = run;
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(run);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(0);
        std::vector<std::pair<std::string, std::string>> links;
        for (const tagger::TopoLink& l : topo.GetLinks())
        {
            if (!topo.IsHost(l.a.node) && !topo.IsHost(l.b.node))
            {
                links.emplace_back(topo.GetNode(l.a.node).name, topo.GetNode(l.b.node).name);
            }
        }
        uint32_t nFail = u->GetInteger(1, 3);
        for (uint32_t i = 0; i < nFail; ++i)
        {
            uint32_t k = u->GetInteger(0, links.size() - 1);
            s.failures.push_back(
                {links[k].first, links[k].second, NanoSeconds(u->GetInteger(100000, 1499999))});
            links.erase(links.begin() + k);
        }
        std::sort(s.failures.begin(),
                  s.failures.end(),
                  [](const FuzzFailure& x, const FuzzFailure& y) { return x.at < y.at; });
        const uint32_t hosts = topo.GetHosts().size();
        uint32_t nFlows = u->GetInteger(16, 32);
        for (uint32_t i = 0; i < nFlows; ++i)
        {
            uint32_t src = u->GetInteger(0, hosts - 1);
            uint32_t dst = (src + u->GetInteger(1, hosts - 1)) % hosts;
            s.flows.push_back({src,
                               dst,
                               kPayload * u->GetInteger(50, 500),
                               NanoSeconds(u->GetInteger(10000, 999999))});
        }
        s.incastDst = u->GetInteger(0, hosts - 1);
        uint32_t nSenders = u->GetInteger(4, 8);
        Time incastStart = NanoSeconds(u->GetInteger(100000, 799999));
        std::set<uint32_t> senders;
        while (senders.size() < nSenders)
        {
            uint32_t h = u->GetInteger(0, hosts - 1);
            if (h != s.incastDst)
            {
                senders.insert(h);
            }
        }
        for (uint32_t h : senders)
        {
            s.flows.push_back({h, s.incastDst, kPayload * u->GetInteger(100, 300), incastStart});
        }
        return s;
    }

    /**
     * The routes a packet can follow: apply the failures (with the local
     * reroute's seeded choices, exactly as the runs will) on a network that
     * carries no traffic, and collect, for every destination host, every
     * next hop of every switch in any FIB state (before the first failure and
     * after each).  A packet that crosses a reroute follows next hops of
     * several states, so the union bounds every path.  Sets
     * s.routeSwitches to the most switches on a loop-free walk of the union
     * from a ToR to the destination, and s.routeLoop when the union has a
     * cycle (a packet may then loop until its TTL runs out).
     * \param topo the fat tree \param s the scenario
     */
    void MeasureRoutes(const tagger::Topology& topo, FuzzScenario& s)
    {
        RngSeedManager::SetRun(s.run);
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        net.GetRouteHelper().AssignStreams(1);
        const uint32_t n = topo.GetNNodes();
        const uint32_t hosts = net.GetNHosts();
        // next[dst host][switch] = set of next nodes
        std::vector<std::vector<std::set<tagger::NodeId>>> next(
            hosts,
            std::vector<std::set<tagger::NodeId>>(n));
        auto snapshot = [&]() {
            for (tagger::NodeId v = 0; v < n; ++v)
            {
                Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v);
                if (!sw)
                {
                    continue;
                }
                // switch port index -> topology port (the helper adds ports in port order)
                for (uint32_t h = 0; h < hosts; ++h)
                {
                    for (uint32_t sp : sw->Lookup(net.GetHostAddress(h)))
                    {
                        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
                        {
                            if (net.GetSwitchPort(v, p) == sp)
                            {
                                next[h][v].insert(topo.GetPeer(v, p).node);
                            }
                        }
                    }
                }
            }
        };
        snapshot();
        for (const FuzzFailure& f : s.failures)
        {
            net.GetRouteHelper().FailLink(f.a, f.b);
            snapshot();
        }
        Simulator::Destroy();

        std::vector<tagger::NodeId> hostIds = topo.GetHosts();
        s.routeSwitches = 0;
        s.routeLoop = false;
        for (uint32_t h = 0; h < hosts; ++h)
        {
            // Longest walk (in switches) from v to host h; colours for cycle detection.
            std::vector<int> colour(n, 0); // 0 new, 1 on the stack, 2 done
            std::vector<uint32_t> longest(n, 0);
            std::function<uint32_t(tagger::NodeId)> visit = [&](tagger::NodeId v) -> uint32_t {
                if (colour[v] == 2)
                {
                    return longest[v];
                }
                if (colour[v] == 1)
                {
                    s.routeLoop = true;
                    return 0;
                }
                colour[v] = 1;
                uint32_t best = 1;
                for (tagger::NodeId w : next[h][v])
                {
                    if (w != tagger::kNone && !topo.IsHost(w))
                    {
                        best = std::max(best, 1 + visit(w));
                    }
                }
                colour[v] = 2;
                longest[v] = best;
                return best;
            };
            for (tagger::NodeId src : hostIds)
            {
                tagger::NodeId tor = topo.GetPeer(src, 0).node;
                if (src != hostIds[h])
                {
                    s.routeSwitches = std::max(s.routeSwitches, visit(tor));
                }
            }
        }
    }

    /**
     * Play scenario \p s in mode \p mode and check it.
     * \param topo the fat tree \param rules the Tagger rules \param s the scenario
     * \param mode the mode \param totals where to add up
     * \return whether the run deadlocked
     */
    bool Play(const tagger::Topology& topo,
              const tagger::TagRules& rules,
              const FuzzScenario& s,
              DataplaneFuzzMode mode,
              FuzzTotals& totals)
    {
        std::string what = std::string(kFuzzModeNames[static_cast<std::size_t>(mode)]) + " run " +
                           std::to_string(s.run);
        RngSeedManager::SetRun(s.run);
        PfcTopologyHelper net(topo);
        ConfigureNetwork(net);
        net.Build();
        net.GetRouteHelper().AssignStreams(1);
        RdmaHelper rdma;
        rdma.SetNicAttribute("Dcqcn", BooleanValue(false));
        uint8_t dscp = kPfcDscp;
        if (mode == DataplaneFuzzMode::TAGGER)
        {
            TaggerHelper tagger;
            tagger.Install(net, rules);
            dscp = 1; // hosts start at tag 1
        }
        else if (mode == DataplaneFuzzMode::TTL)
        {
            // Ttl0: what the routes need (MeasureRoutes), at most the 8
            // classes PFC has.  Longer walks and loops end in TTL_EXPIRED,
            // before a ninth switch would buffer them.
            uint32_t switches =
                s.routeLoop ? kPfcClasses : std::min<uint32_t>(s.routeSwitches, kPfcClasses);
            uint8_t ttl0 = TtlHelper::Ttl0ForPath(switches);
            TtlHelper::Install(net, ttl0);
            rdma.SetNicAttribute("Ttl", UintegerValue(ttl0));
            dscp = 0;
        }
        rdma.Install(net);
        Census census(net);
        for (const FuzzFailure& f : s.failures)
        {
            net.GetRouteHelper().ScheduleFailLink(f.at, f.a, f.b);
        }
        for (const FuzzFlow& f : s.flows)
        {
            rdma.AddFlow(f.src, f.dst, f.bytes, f.start, dscp);
        }
        Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
        oracle->AddSwitches(net.GetSwitches());
        oracle->Start(MicroSeconds(20), kFuzzEnd);
        Simulator::Schedule(kFuzzStop, &StopAllFlows, &rdma);
        Simulator::Stop(kFuzzEnd);
        Simulator::Run();

        // The drain test: the senders stopped 2 ms ago.  Lossless bytes that
        // are still buffered will never leave (the TTL scheme's definition).
        census.CountQueued();
        bool oracleDeadlock = oracle->HasDeadlock();
        uint64_t undrained = PfcStatsHelper(net).GetLosslessBytes();
        bool deadlock = oracleDeadlock || undrained > 0;
        // Every mode: the books balance now (frames stuck in a deadlock are
        // queued, frames circulating in a forwarding loop queued or on a wire).
        std::string accounting = census.Check(rdma, what + " at the drain test", !deadlock);
        NS_TEST_EXPECT_MSG_EQ(accounting, "", what << ": accounting");
        if (mode != DataplaneFuzzMode::PFC)
        {
            NS_TEST_EXPECT_MSG_EQ(oracleDeadlock, false, what << ": the oracle saw a deadlock");
            NS_TEST_EXPECT_MSG_EQ(undrained, 0, what << ": lossless bytes left after the drain");
            // Lossy packets caught in a forwarding loop (local reroute can
            // send a packet back where it came from) circulate until their
            // TTL (64) runs out, which at a loaded loop can take longer than
            // the drain: let them, 1 ms at a time (at most 20 ms), then every
            // packet must have been delivered or dropped.
            Time limit = Simulator::Now() + MilliSeconds(20);
            while ((census.Queued() > 0 || census.OnWire() > 0) && Simulator::Now() < limit)
            {
                Simulator::Stop(MilliSeconds(1));
                Simulator::Run();
                census.CountQueued();
            }
            Time extra = Simulator::Now() - kFuzzEnd;
            totals.maxExtra = std::max(totals.maxExtra, extra);
            totals.extended += extra.IsStrictlyPositive() ? 1 : 0;
            NS_TEST_EXPECT_MSG_EQ(census.Queued(), 0, what << ": frames never left the queues");
            NS_TEST_EXPECT_MSG_EQ(census.OnWire(), 0, what << ": frames on a wire");
            NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetLossyBytes(),
                                  0,
                                  what << ": lossy bytes left");
            NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetLosslessBytes(),
                                  0,
                                  what << ": lossless bytes left");
            accounting = census.Check(rdma, what + " at the end");
            NS_TEST_EXPECT_MSG_EQ(accounting, "", what << ": accounting at the end");
            if (mode == DataplaneFuzzMode::TAGGER)
            {
                // Lossy drops only for packets that left the ELP: a packet
                // is lossy only with the lossy tag, which only a switch
                // writes, for a transition outside the ELP (the classifier
                // test shows the switches hold exactly the rules).  Nor
                // does a packet with a lossless tag run out of TTL (64): a
                // forwarding loop in a Clos bounces (goes down, then up) at
                // least once per turn, or turns back by the port it came in
                // on, and the rules make it lossy at the second bounce or
                // at the turn; lossless packets never loop.
                NS_TEST_EXPECT_MSG_EQ(census.TaggedDrops(PfcDropReason::LOSSY_OVERFLOW),
                                      0,
                                      what << ": lossy drops of packets with a lossless tag");
                NS_TEST_EXPECT_MSG_EQ(census.TaggedDrops(PfcDropReason::TTL_EXPIRED),
                                      0,
                                      what << ": TTL expiry of packets with a lossless tag");
            }
            if (mode == DataplaneFuzzMode::TTL)
            {
                NS_TEST_EXPECT_MSG_EQ(
                    PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSY_OVERFLOW),
                    0,
                    what << ": lossy drops in TTL mode");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(census.Dropped(Kind::OTHER), 0, what << ": non-RoCE drops");
        // PFC itself loses nothing, deadlocked or not: the headroom absorbs
        // what arrives after a PAUSE (plain PFC included).
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              0,
                              what << ": lossless drops");

        ++totals.runs;
        totals.deadlocks += deadlock ? 1 : 0;
        totals.oracleDeadlocks += oracleDeadlock ? 1 : 0;
        totals.undrained += undrained > 0 ? 1 : 0;
        totals.dataSent += census.Sent(Kind::DATA);
        totals.dataDelivered += census.Received(Kind::DATA);
        totals.stuck += census.Queued() + census.OnWire();
        totals.deliveredUntagged += census.ReceivedUntagged();
        totals.taggedTtlDrops += census.TaggedDrops(PfcDropReason::TTL_EXPIRED);
        totals.pauses += PfcStatsHelper(net).GetPauseCount();
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            PfcDropReason reason = static_cast<PfcDropReason>(r);
            totals.dataDrops[r] += census.Dropped(Kind::DATA, reason);
            totals.ctrlDrops[r] += census.Dropped(Kind::ACK, reason) +
                                   census.Dropped(Kind::NAK, reason) +
                                   census.Dropped(Kind::CNP, reason);
        }
        for (const RdmaFlowRecord& r : rdma.GetFlowRecords())
        {
            ++totals.flows;
            totals.flowsDone += r.finished ? 1 : 0;
        }
        NS_LOG_INFO(
            what << ": " << (deadlock ? "DEADLOCK" : "ok") << " oracle=" << oracleDeadlock
                 << " undrained=" << undrained << " sent=" << census.Sent(Kind::DATA)
                 << " delivered=" << census.Received(Kind::DATA)
                 << " drops=" << PfcStatsHelper(net).GetDropCount() << " lossless="
                 << PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW)
                 << " lossy=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSY_OVERFLOW)
                 << " ttl=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::TTL_EXPIRED)
                 << " linkdown=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::LINK_DOWN)
                 << " noroute=" << PfcStatsHelper(net).GetDropCount(PfcDropReason::NO_ROUTE)
                 << " queued=" << census.Queued() << " wire=" << census.OnWire()
                 << " end=" << Simulator::Now().As(Time::MS));
        Simulator::Destroy();
        return deadlock;
    }

    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeFatTree(4);
        tagger::TagRules rules = TaggerHelper::ComputeRules(topo, 1);
        if (m_mode == DataplaneFuzzMode::TAGGER)
        {
            NS_TEST_ASSERT_MSG_EQ(rules.GetLosslessTags(),
                                  2,
                                  "shortest + 1-bounce: 2 lossless tags");
        }
        FuzzTotals totals;
        uint32_t loops = 0;
        uint32_t longest = 0;
        for (uint32_t run = m_firstRun; run < m_firstRun + m_runs; ++run)
        {
            FuzzScenario s = Draw(topo, run);
            MeasureRoutes(topo, s);
            loops += s.routeLoop ? 1 : 0;
            if (!s.routeLoop)
            {
                longest = std::max(longest, s.routeSwitches);
            }
            Play(topo, rules, s, m_mode, totals);
        }
        RngSeedManager::SetRun(1);
        std::ostringstream os;
        os << "fuzz: " << m_runs << " runs (" << m_firstRun << ".." << m_firstRun + m_runs - 1
           << "); forwarding loops (TTL mode: Ttl0 9) in " << loops << " runs";
        if (loops < m_runs)
        {
            os << ", longest route of the others " << longest << " switches";
        }
        os << "\n";
        const FuzzTotals& t = totals;
        os << "  " << kFuzzModeNames[static_cast<std::size_t>(m_mode)] << ": deadlocks "
           << t.deadlocks << "/" << t.runs << " (oracle " << t.oracleDeadlocks << ", undrained "
           << t.undrained << "), flows done " << t.flowsDone << "/" << t.flows << ", data sent "
           << t.dataSent << " delivered " << t.dataDelivered << ", stuck at the end " << t.stuck
           << ", delivered with DSCP 0 " << t.deliveredUntagged << ", TTL expiries with DSCP != 0 "
           << t.taggedTtlDrops << ", pauses " << t.pauses
           << ", runs draining lossy loops after the "
           << "drain test " << t.extended << " (at most " << t.maxExtra.As(Time::MS) << ")"
           << "\n    data drops:";
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            os << " " << static_cast<PfcDropReason>(r) << "=" << t.dataDrops[r];
        }
        os << "\n    control drops:";
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            os << " " << static_cast<PfcDropReason>(r) << "=" << t.ctrlDrops[r];
        }
        os << "\n";
        NS_LOG_INFO(os.str());
        if (m_mode == DataplaneFuzzMode::PFC)
        {
            NS_TEST_EXPECT_MSG_GT(t.deadlocks,
                                  0,
                                  "plain PFC never deadlocked: the fuzz is too gentle\n"
                                      << os.str());
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ(t.deadlocks,
                                  0,
                                  (m_mode == DataplaneFuzzMode::TAGGER ? "Tagger" : "TTL")
                                      << " deadlocked\n"
                                      << os.str());
        }
    }

    uint32_t m_firstRun;      //!< first run number
    uint32_t m_runs;          //!< runs
    DataplaneFuzzMode m_mode; //!< the data plane played
};

} // namespace

TestCase*
MakeDataplaneFuzzTestCase(DataplaneFuzzMode mode)
{
    return new DataplaneFuzzTestCase(1, 30, mode);
}
