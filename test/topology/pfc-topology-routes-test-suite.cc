/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * PfcTopologyHelper's routes, added to the ns-3 TestSuite "tagger-topology"
 * through MakePfcTopologyRoutesTestCases(): routes on every topology family
 * (against a breadth-first search written in pfc-topology-test-case.h, or
 * worked out by hand), datagrams between every pair of hosts (TTL = 64 -
 * forwarders crossed), node and device names, link failures with local
 * reroute, pinned and set routes, and the errors a user can cause.
 */

#include "../tagger-test-helpers.h"
#include "pfc-topology-test-case.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"

#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// Jellyfish: routes against an independent BFS, every pair reachable
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Jellyfish(20, 8, 4): every FIB set is the BFS's shortest-path next hops,
 * and a datagram between every pair of the 80 hosts arrives with TTL
 * 64 - switches crossed.
 */
class JellyfishRoutesTestCase : public PfcTopologyTestCase
{
  public:
    JellyfishRoutesTestCase()
        : PfcTopologyTestCase("Jellyfish: routes are shortest paths, every pair is reachable")
    {
    }

  private:
    void DoRun() override
    {
        // 20 switches of 8 ports, 4 to other switches: 20 * (8 - 4) = 80 hosts.
        PfcTopologyHelper net(tagger::MakeJellyfish(20, 8, 4, 7));
        net.Build();
        NS_TEST_ASSERT_MSG_EQ(net.GetNHosts(), 80u, "hosts");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(net.GetSwitches().GetN(), 20u, "switches");
        NS_TEST_EXPECT_MSG_EQ(net.GetForwarders().GetN(), 20u, "forwarders");
        NS_TEST_EXPECT_MSG_EQ(CheckFibAgainstBfs(net), "", "FIB against BFS");

        const tagger::Topology& topo = net.GetTopology();
        const std::vector<tagger::NodeId> hosts = topo.GetHosts();
        PairTable t = SendAllPairs(net);
        uint32_t arrived = 0;
        for (uint32_t s = 0; s < hosts.size(); ++s)
        {
            // Host-to-host hop count d crosses d - 1 switches: TTL 64 - (d - 1).
            std::vector<uint32_t> dist = Bfs(topo, hosts[s]);
            for (uint32_t d = 0; d < hosts.size(); ++d)
            {
                if (s == d)
                {
                    continue;
                }
                NS_TEST_EXPECT_MSG_EQ(t.count[s][d], 1u, "H" << s + 1 << " -> H" << d + 1);
                NS_TEST_EXPECT_MSG_EQ(t.ttl[s][d],
                                      64 - int(dist[hosts[d]] - 1),
                                      "H" << s + 1 << " -> H" << d + 1);
                arrived += t.count[s][d];
            }
        }
        NS_TEST_EXPECT_MSG_EQ(arrived, 80u * 79u, "datagrams arrived");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
    }
};

// ---------------------------------------------------------------------------
// F10(4): ECMP set sizes by hand
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * F10(4): the B-pod wiring and every ECMP set size, by hand.
 */
class F10EcmpTestCase : public PfcTopologyTestCase
{
  public:
    F10EcmpTestCase()
        : PfcTopologyTestCase("F10(4): ECMP set sizes")
    {
    }

  private:
    void DoRun() override
    {
        // F10(4): 4 pods of 2 ToRs (T) and 2 aggregations (L), 4 cores (S), 16
        // hosts, 2 per ToR.  Pods 1 and 3 (0-based) are B pods: aggregation i
        // reaches cores i and i + 2 (strided) instead of 2i and 2i + 1.
        PfcTopologyHelper net(tagger::MakeF10(4));
        net.Build();
        NS_TEST_ASSERT_MSG_EQ(net.GetNHosts(), 16u, "hosts");
        if (IsStatusFailure())
        {
            return;
        }

        // The B-pod wiring: L3 (pod 1, aggregation 0) port 3 goes to core 2 = S3
        // (in FatTree(4) it would be S2).
        const tagger::Topology& topo = net.GetTopology();
        NS_TEST_EXPECT_MSG_EQ(topo.GetNode(topo.GetPeer(net.GetNodeId("L3"), 3).node).name,
                              "S3",
                              "L3 port 3");

        // By hand, for one destination (any pod looks alike):
        //   ToR -> host on it: 1 (the host port); ToR -> any other host: 2 (both aggregations);
        //   aggregation -> host in its pod: 1 (down to the ToR); other pod: 2 (its two cores);
        //   core -> any host: 1 (its one link to that pod).
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H1"), "{0}", "T1 -> H1");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H3"), "{2, 3}", "same pod, T2");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H5"), "{2, 3}", "pod 1");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L3", "H5"), "{0}", "T3 is L3's port 0");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L3", "H1"), "{2, 3}", "cores S1 and S3");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "S3", "H1"), "{0}", "core port p: pod p");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "S3", "H16"), "{3}", "S3 -> H16");

        // Sum of set sizes over every (switch, host):
        //   8 ToRs   * (2 hosts * 1 + 14 hosts * 2) = 8 * 30 = 240
        //   8 aggs   * (4 hosts * 1 + 12 hosts * 2) = 8 * 28 = 224
        //   4 cores  * 16 hosts * 1                 =           64
        //   total 528; and every set has 1 or 2 ports as above.
        uint32_t total = 0;
        for (tagger::NodeId v : topo.GetSwitches())
        {
            for (uint32_t h = 0; h < net.GetNHosts(); ++h)
            {
                uint32_t size = net.GetSwitch(v)->Lookup(net.GetHostAddress(h)).size();
                NS_TEST_EXPECT_MSG_EQ((size == 1 || size == 2),
                                      true,
                                      topo.GetNode(v).name << ": " << size << " ports");
                total += size;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(total, 528u, "sum of set sizes");
        NS_TEST_EXPECT_MSG_EQ(CheckFibAgainstBfs(net), "", "FIB against BFS");
    }
};

// ---------------------------------------------------------------------------
// Every generator builds and routes
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Every topology family builds, with shortest-path routes.
 */
class EveryFamilyTestCase : public PfcTopologyTestCase
{
  public:
    EveryFamilyTestCase()
        : PfcTopologyTestCase("Every family builds with shortest-path routes")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::pair<std::string, tagger::Topology>> families = {
            {"paper testbed", tagger::MakeClos(tagger::PaperTestbedClos())},
            {"FatTree(4)", tagger::MakeFatTree(4)},
            {"F10(4)", tagger::MakeF10(4)},
            {"Jellyfish(10,6,3)", tagger::MakeJellyfish(10, 6, 3, 1)},
            {"LeafSpine(3,2,2)", tagger::MakeLeafSpine(3, 2, 2)},
            {"BCube(3,1)", tagger::MakeBCube(3, 1)},
            {"BCube(2,2)", tagger::MakeBCube(2, 2)},
        };
        for (const auto& [label, topo] : families)
        {
            PfcTopologyHelper net(topo);
            net.Build();
            NS_TEST_EXPECT_MSG_EQ(net.GetNHosts(), topo.GetHosts().size(), label);
            NS_TEST_EXPECT_MSG_EQ(net.GetSwitches().GetN(), topo.GetSwitches().size(), label);
            NS_TEST_EXPECT_MSG_EQ(CheckFibAgainstBfs(net), "", label);
            Simulator::Destroy();
        }
    }
};

// ---------------------------------------------------------------------------
// Names and pcap file names
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Nodes and ports are named after the topology (Names, pcap file names); a
 * second network takes the names over.
 */
class NamesTestCase : public PfcTopologyTestCase
{
  public:
    NamesTestCase()
        : PfcTopologyTestCase("Names and pcap file names")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeFatTree(4));
        net.Build();
        tagger::NodeId l2 = net.GetNodeId("L2");
        NS_TEST_EXPECT_MSG_EQ(Names::Find<Node>("L2"), net.GetNode(l2), "L2");
        NS_TEST_EXPECT_MSG_EQ(Names::Find<Node>("H16"), net.GetHost(15), "H16");
        // L2 (aggregation) ports: 0, 1 to T1, T2; 2, 3 to cores.
        Ptr<PfcNetDevice> port3 = net.GetDevice(l2, 3);
        NS_TEST_ASSERT_MSG_NE(port3, nullptr, "L2 port 3");
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(Names::Find<NetDevice>("L2/port3"),
                              Ptr<NetDevice>(port3),
                              "L2/port3");
        NS_TEST_EXPECT_MSG_EQ(Names::FindName(port3), "port3", "L2 port 3");
        PcapHelper pcap;
        NS_TEST_EXPECT_MSG_EQ(pcap.GetFilenameFromDevice("run", port3),
                              "run-L2-port3.pcap",
                              "L2 port 3");
        NS_TEST_EXPECT_MSG_EQ(pcap.GetFilenameFromDevice("run", net.GetHostDevice(0)),
                              "run-H1-port0.pcap",
                              "H1 port 0");

        // A second network takes the names over.
        Simulator::Destroy();
        PfcTopologyHelper again(tagger::MakeClos(tagger::PaperTestbedClos()));
        again.Build();
        NS_TEST_EXPECT_MSG_EQ(Names::Find<Node>("L2"),
                              again.GetNode(again.GetNodeId("L2")),
                              "L2 of the second network");
    }
};

/**
 * \ingroup tagger-tests
 * BCube(4,1): relay servers' ports are named too.
 */
class BCubeNamesTestCase : public PfcTopologyTestCase
{
  public:
    BCubeNamesTestCase()
        : PfcTopologyTestCase("BCube names include relay ports")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        net.Build();
        NS_TEST_EXPECT_MSG_EQ(Names::Find<Node>("H12"), net.GetHost(6), "H12: 4 * 1 + 2");
        Ptr<PfcNetDevice> port1 = net.GetDevice(net.GetNodeId("H12"), 1);
        NS_TEST_EXPECT_MSG_EQ(Names::Find<NetDevice>("H12/port1"), Ptr<NetDevice>(port1), "port");
        NS_TEST_EXPECT_MSG_EQ(PcapHelper().GetFilenameFromDevice("b", port1),
                              "b-H12-port1.pcap",
                              "pcap file");
    }
};

// ---------------------------------------------------------------------------
// Link failures, local reroute, restore, pinned and set routes (paper testbed)
// ---------------------------------------------------------------------------

/**
 * Paper testbed (T1-T4, L1-L4, S1-S2, H1-H16; every leaf on both spines):
 * L2's ports are 0 to T1, 1 to T2, 2 to S1, 3 to S2; H1-H4 hang on T1.  Fail L2-T1 and return L2's
 * sets for H1-H4. \param run RngRun \param stream the helper's stream
 */
std::vector<std::vector<uint32_t>>
RerouteAfterFailure(uint64_t run, int64_t stream)
{
    uint64_t saved = RngSeedManager::GetRun();
    RngSeedManager::SetRun(run);
    std::vector<std::vector<uint32_t>> sets;
    {
        PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
        net.GetRouteHelper().AssignStreams(stream);
        net.Build();
        net.GetRouteHelper().FailLink("L2", "T1");
        for (const char* h : {"H1", "H2", "H3", "H4"})
        {
            sets.push_back(RoutePorts(net, "L2", h));
        }
    }
    Simulator::Destroy();
    RngSeedManager::SetRun(saved);
    return sets;
}

/**
 * \ingroup tagger-tests
 * FailLink removes the failed port from the sets at both ends and gives an
 * emptied set one random port; RestoreLink brings every set back.
 */
class FailLinkTestCase : public PfcTopologyTestCase
{
  public:
    FailLinkTestCase()
        : PfcTopologyTestCase("FailLink reroutes locally, RestoreLink brings the sets back")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
        net.GetRouteHelper().AssignStreams(11);
        net.Build();
        // Paper testbed: every leaf on both spines, so L2's ports are 0 T1, 1 T2,
        // 2 S1, 3 S2, and a spine's ports are L1, L2, L3, L4.
        // Before: L2 -> H1 down to T1 (port 0); T1 -> H5 (on T2) up both leafs
        // (ports 4 and 5: L1, L2); L2 -> H9 (pod 2) up to both spines; S2 -> H1
        // down to both leafs of pod 1.
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L2", "H1"), "{0}", "L2 -> H1 before");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H5"), "{4, 5}", "T1 -> H5 before");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L2", "H9"), "{2, 3}", "L2 -> H9 before");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "S2", "H1"), "{0, 1}", "S2 -> H1 before");

        net.GetRouteHelper().FailLink("L2", "T1");
        // L2's set for H1 lost port 0 and, empty, got one random port to a
        // switch: 1 (T2), 2 (S1) or 3 (S2).
        std::vector<uint32_t> l2h1 = RoutePorts(net, "L2", "H1");
        NS_TEST_ASSERT_MSG_EQ(l2h1.size(), 1u, "L2 -> H1 after: " << PortList(l2h1));
        if (IsStatusFailure())
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ((l2h1[0] >= 1 && l2h1[0] <= 3), true, l2h1[0]);
        // T1's end: its sets lose port 5 (L2) and keep port 4.
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H5"), "{4}", "T1 -> H5 after");
        // Sets without the failed port are untouched (local reroute only: S2
        // still sends H1's packets to L2, which bounces them).
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L2", "H9"), "{2, 3}", "L2 -> H9 after");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "S2", "H1"), "{0, 1}", "S2 -> H1 after");

        net.GetRouteHelper().RestoreLink("L2", "T1");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L2", "H1"), "{0}", "L2 -> H1 restored");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H5"), "{4, 5}", "T1 -> H5 restored");
        NS_TEST_EXPECT_MSG_EQ(CheckFibAgainstBfs(net), "", "FIB against BFS, restored");
    }
};

/**
 * \ingroup tagger-tests
 * The random port of a local reroute depends on RngRun and the stream only.
 */
class LocalRerouteSeedTestCase : public PfcTopologyTestCase
{
  public:
    LocalRerouteSeedTestCase()
        : PfcTopologyTestCase("Local reroute is seeded")
    {
    }

  private:
    void DoRun() override
    {
        // Same run and stream: the same choices.
        std::vector<std::vector<uint32_t>> first = RerouteAfterFailure(1, 5);
        NS_TEST_EXPECT_MSG_EQ((RerouteAfterFailure(1, 5) == first), true, "same run and stream");
        for (const auto& set : first)
        {
            NS_TEST_ASSERT_MSG_EQ(set.size(), 1u, PortList(set));
            if (IsStatusFailure())
            {
                return;
            }
            NS_TEST_EXPECT_MSG_EQ((set[0] >= 1 && set[0] <= 3), true, set[0]);
        }
        // Four independent choices among 3 ports: another run repeats all four
        // with probability 1/81; over 20 runs some run must differ.
        bool differs = false;
        for (uint64_t run = 2; run <= 21 && !differs; ++run)
        {
            differs = RerouteAfterFailure(run, 5) != first;
        }
        NS_TEST_EXPECT_MSG_EQ(differs, true, "runs 2 .. 21 against run 1");
    }
};

/**
 * \ingroup tagger-tests
 * PinPath, SetRoute and ScheduleRoute on the paper testbed; a pin survives
 * a fail and restore.
 */
class PinPathTestCase : public PfcTopologyTestCase
{
  public:
    PinPathTestCase()
        : PfcTopologyTestCase("PinPath and SetRoute")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
        net.Build();
        uint32_t h9 = HostIndex(net, "H9"); // on T3, pod 2
        NS_TEST_ASSERT_MSG_EQ(h9, 8u, "H9");
        if (IsStatusFailure())
        {
            return;
        }
        // T1 -> L1 -> S1 -> L3 -> T3 -> H9.  Ports: T1 port 4 is L1; L1 port 2 is
        // S1 (3 is S2); S1's ports are L1, L2, L3, L4: port 2; L3 port 0 is T3;
        // T3 port 0 is H9.
        net.GetRouteHelper().PinPath({"T1", "L1", "S1", "L3", "T3"}, h9);
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H9"), "{4}", "T1 -> H9 pinned");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L1", "H9"), "{2}", "L1 -> H9 pinned");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "S1", "H9"), "{2}", "S1 -> H9 pinned");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L3", "H9"), "{0}", "L3 -> H9 pinned");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T3", "H9"), "{0}", "T3 -> H9 pinned");
        // A fail and restore recomputes every route; the pin stays.
        net.GetRouteHelper().FailLink("L2", "T1");
        net.GetRouteHelper().RestoreLink("L2", "T1");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H9"), "{4}", "T1 -> H9 pinned, restored");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L1", "H9"), "{2}", "L1 -> H9 pinned, restored");
        // Unpinned destinations got their ECMP sets back (T1 -> H13 on T4: both leafs).
        NS_TEST_EXPECT_MSG_EQ(Route(net, "T1", "H13"), "{4, 5}", "T1 -> H13 restored");

        // SetRoute: L2 sends H1's traffic to T2 (its port 1), a bad route.
        net.GetRouteHelper().SetRoute("L2", 0, "T2");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L2", "H1"), "{1}", "L2 -> H1 set");
        // ScheduleRoute: L1 -> H2 goes up to S1 (port 2) at 10 us.
        net.GetRouteHelper().ScheduleRoute(MicroSeconds(10), "L1", 1, "S1");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L1", "H2"), "{0}", "L1 -> H2 before 10 us");
        Simulator::Stop(MicroSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(Route(net, "L1", "H2"), "{2}", "L1 -> H2 after 10 us");
    }
};

/**
 * \ingroup tagger-tests
 * BCube(4,1): a failed server link reroutes at the relay server; a pinned
 * path may cross relay servers.
 */
class BCubeFailLinkTestCase : public PfcTopologyTestCase
{
  public:
    BCubeFailLinkTestCase()
        : PfcTopologyTestCase("BCube: FailLink reroutes at relay servers")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeBCube(4, 1));
        net.GetRouteHelper().AssignStreams(3);
        net.Build();
        // H00 -> H11 uses both ports; fail H00 - W0_0 (H00's port 0): only port 1 is left.
        net.GetRouteHelper().FailLink("H00", "W0_0");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H00", "H11"), "{1}", "H00 -> H11, failed");
        // H00 -> H01 was port 0 only: now the one remaining port to a forwarder, port 1.
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H00", "H01"), "{1}", "H00 -> H01, failed");
        net.GetRouteHelper().RestoreLink("H00", "W0_0");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H00", "H11"), "{0, 1}", "H00 -> H11, restored");
        // A relay server can be on a pinned path: H00 -> W1_0 -> H10 -> W0_1 -> H11.
        net.GetRouteHelper().PinPath({"H00", "W1_0", "H10", "W0_1"}, HostIndex(net, "H11"));
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H00", "H11"), "{1}", "H00 -> H11 pinned");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "W1_0", "H11"), "{1}", "W1_0 port a1 = 1");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "H10", "H11"), "{0}", "H10 -> H11 pinned");
        NS_TEST_EXPECT_MSG_EQ(Route(net, "W0_1", "H11"), "{1}", "W0_1 port a0 = 1");
    }
};

// ---------------------------------------------------------------------------
// Errors a user can cause
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * Names no node or link has end the program with a message naming them
 * (checked in a child process).
 */
class BadNamesTestCase : public PfcTopologyTestCase
{
  public:
    BadNamesTestCase()
        : PfcTopologyTestCase("Bad names end the program, named")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
        net.Build();
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&net]() { net.GetRouteHelper().FailLink("L2", "X9"); },
                            "no node named 'X9'"),
            "",
            "FailLink to X9");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&net]() { net.GetRouteHelper().RestoreLink("Q1", "T1"); },
                            "no node named 'Q1'"),
            "",
            "RestoreLink from Q1");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&net]() { net.GetRouteHelper().FailLink("L1", "L2"); },
                            "no link between 'L1' and 'L2'"),
            "",
            "FailLink L1 - L2");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(
                [&net]() { net.GetRouteHelper().ScheduleFailLink(MicroSeconds(5), "T1", "T3"); },
                "no link between 'T1' and 'T3'"),
            "",
            "ScheduleFailLink T1 - T3");
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError(
                                  [&net]() {
                                      net.GetRouteHelper().PinPath({"T1", "L9"}, 8);
                                  },
                                  "no node named 'L9'"),
                              "",
                              "PinPath through L9");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&net]() { net.GetRouteHelper().SetRoute("H1", 0, "T1"); },
                            "'H1' is not a switch"),
            "",
            "SetRoute at H1");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&net]() { net.GetRouteHelper().SetRoute("T1", 99, "H1"); },
                            "no host 99"),
            "",
            "SetRoute to host 99");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(
                [&net]() { net.GetRouteHelper().ScheduleRoute(MicroSeconds(5), "S1", 0, "T1"); },
                "no link between 'S1' and 'T1'"),
            "",
            "ScheduleRoute S1 - T1");
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&net]() { net.GetNodeId("nope"); }, "no node named 'nope'"),
            "",
            "GetNodeId of nope");
    }
};

/**
 * \ingroup tagger-tests
 * A host with two connected ports that does not relay ends the program at
 * Build (checked in a child process).
 */
class TwoPortHostTestCase : public PfcTopologyTestCase
{
  public:
    TwoPortHostTestCase()
        : PfcTopologyTestCase("A host with two ports that does not relay ends the program")
    {
    }

  private:
    void DoRun() override
    {
        tagger::Topology topo;
        tagger::NodeId s = topo.AddNode("S", tagger::NodeKind::SWITCH, 2);
        tagger::NodeId h = topo.AddNode("H", tagger::NodeKind::HOST, 2); // relay = false
        topo.AddLink(s, 0, h, 0);
        topo.AddLink(s, 1, h, 1);
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError(
                                  [&topo]() {
                                      PfcTopologyHelper net(topo);
                                      net.Build();
                                  },
                                  "host H must have exactly one connected port"),
                              "",
                              "Build");
    }
};

/**
 * \ingroup tagger-tests
 * RanksByPod on a k=4 fat tree, against what its construction gives by
 * hand: hosts are numbered pod by pod (4 per pod), so with 2 ranks host h is
 * on rank h / 8 and with 3 ranks on rank {0, 0, 1, 2}[h / 4]; the 4 cores go
 * to ranks c * R / 4 in id order; each ToR is on the rank of its hosts; only
 * core links cross ranks (2 ranks: each core reaches 2 pods of the other
 * rank, 8 links).  No layers, or a map of the wrong size: a clear error.
 */
class RanksByPodTestCase : public PfcTopologyTestCase
{
  public:
    RanksByPodTestCase()
        : PfcTopologyTestCase("RanksByPod splits a fat tree by pod; cores in blocks")
    {
    }

  private:
    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeFatTree(4);
        const std::vector<uint32_t> podToRank3{0, 0, 1, 2};
        for (uint32_t ranks : {1u, 2u, 3u})
        {
            std::vector<uint32_t> rank = PfcTopologyHelper::RanksByPod(topo, ranks);
            NS_TEST_ASSERT_MSG_EQ(rank.size(), topo.GetNNodes(), "one rank per node");
            std::vector<tagger::NodeId> hosts = topo.GetHosts();
            for (uint32_t h = 0; h < hosts.size(); ++h)
            {
                uint32_t want = ranks == 1 ? 0 : (ranks == 2 ? h / 8 : podToRank3[h / 4]);
                NS_TEST_EXPECT_MSG_EQ(rank[hosts[h]],
                                      want,
                                      "host " << h << ", " << ranks << " ranks");
                tagger::NodeId tor = topo.GetNeighbors(hosts[h])[0];
                NS_TEST_EXPECT_MSG_EQ(rank[tor], want, "ToR of host " << h);
            }
            uint32_t c = 0;
            for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
            {
                if (topo.GetNode(v).layer == 3)
                {
                    NS_TEST_EXPECT_MSG_EQ(rank[v], c * ranks / 4, "core " << c);
                    ++c;
                }
            }
            NS_TEST_EXPECT_MSG_EQ(c, 4u, "a k=4 fat tree has 4 cores");
            uint32_t crossing = 0;
            for (const tagger::TopoLink& l : topo.GetLinks())
            {
                if (rank[l.a.node] != rank[l.b.node])
                {
                    ++crossing;
                    NS_TEST_EXPECT_MSG_EQ(
                        (topo.GetNode(l.a.node).layer == 3 || topo.GetNode(l.b.node).layer == 3),
                        true,
                        "only core links cross ranks");
                }
            }
            if (ranks == 2)
            {
                NS_TEST_EXPECT_MSG_EQ(crossing, 8u, "core links between the two halves");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError(
                []() { PfcTopologyHelper::RanksByPod(tagger::MakeJellyfish(8, 4, 3, 1), 2); },
                "has no layers, so no pods"),
            "",
            "Jellyfish");
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError(
                                  [&topo]() {
                                      PfcTopologyHelper net(topo);
                                      net.SetNodeRanks({0, 1});
                                  },
                                  "2 ranks for 36 nodes"),
                              "",
                              "a map of the wrong size");
        PfcTopologyHelper net(topo);
        NS_TEST_EXPECT_MSG_EQ((net.GetNodeRanks() == std::vector<uint32_t>(topo.GetNNodes(), 0)),
                              true,
                              "without SetNodeRanks every node is on rank 0");
    }
};

} // namespace

/**
 * The route, name and failure test cases, for the TestSuite "tagger-topology".
 * \return new test cases (the suite takes ownership)
 */
/**
 * \ingroup tagger-tests
 * The memory estimate counts what it says: a k = 4 fat tree has 16 hosts and
 * 20 switches of 4 ports (80 switch ports), by hand; 10^13 flows (13 PB)
 * exceed any machine's memory and are refused with the figures.
 */
class MemoryEstimateTestCase : public TestCase
{
  public:
    MemoryEstimateTestCase()
        : TestCase("PfcTopologyHelper: the memory estimate counts hosts, switch ports and flows")
    {
    }

  private:
    void DoRun() override
    {
        const tagger::Topology fatTree = tagger::MakeFatTree(4);
        const uint64_t byHand =
            PfcTopologyHelper::kBytesBase + 16 * PfcTopologyHelper::kBytesPerHost +
            80 * PfcTopologyHelper::kBytesPerSwitchPort + 1000 * PfcTopologyHelper::kBytesPerFlow;
        NS_TEST_EXPECT_MSG_EQ(PfcTopologyHelper::EstimateMemory(fatTree, 1000), byHand, "k = 4");
        NS_TEST_EXPECT_MSG_EQ(PfcTopologyHelper::CheckMemory(fatTree, 1000), "", "fits");
        const std::string why = PfcTopologyHelper::CheckMemory(fatTree, 10000000000000ULL);
        const bool named = why.find("needs about 13000") != std::string::npos; // 1.3e16 B
        NS_TEST_EXPECT_MSG_EQ(named, true, why);
    }
};

std::vector<TestCase*>
MakePfcTopologyRoutesTestCases()
{
    return {new MemoryEstimateTestCase,
            new JellyfishRoutesTestCase,
            new F10EcmpTestCase,
            new EveryFamilyTestCase,
            new NamesTestCase,
            new BCubeNamesTestCase,
            new FailLinkTestCase,
            new LocalRerouteSeedTestCase,
            new PinPathTestCase,
            new BCubeFailLinkTestCase,
            new BadNamesTestCase,
            new TwoPortHostTestCase,
            new RanksByPodTestCase};
}
