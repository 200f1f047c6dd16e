/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-topology" (./test.py -s tagger-topology inside an
 * ns-3 tree, tagger-test-runner --suite=tagger-topology in the standalone
 * build): PfcTopologyHelper and PfcHelper, the network a tagger::Topology
 * becomes.  This file holds the suite and the FatTree(4) basics, worked out
 * by hand from the fat-tree wiring (model/rules/tagger-topology-generators.h);
 * the other cases are in
 *  - pfc-topology-routes-test-suite.cc: routes on every topology family
 *    against a breadth-first search, names, link failures with local
 *    reroute, pinned and set routes, the errors a user can cause;
 *  - pfc-topology-relay-test-suite.cc: BCube relay servers (forwarding,
 *    local delivery, RoCE NICs and Tagger on them, the relay engine's local
 *    source and receive hook).
 */

#include "pfc-topology-test-case.h"

#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-scheduler.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"

#include <set>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

/// \return the route and failure test cases (test/topology/pfc-topology-routes-test-suite.cc)
std::vector<TestCase*> MakePfcTopologyRoutesTestCases();
/// \return the relay server test cases (test/topology/pfc-topology-relay-test-suite.cc)
std::vector<TestCase*> MakePfcTopologyRelayTestCases();

namespace
{

/**
 * \ingroup tagger-tests
 * FatTree(4): node ids T1-T8 (0-7), L1-L8 (8-15), S1-S4 (16-19), H1-H16
 * (20-35); node and host counts, host addresses and ECMP sets by hand.
 */
class FatTreeNodesTestCase : public PfcTopologyTestCase
{
  public:
    FatTreeNodesTestCase()
        : PfcTopologyTestCase("FatTree(4): nodes, addresses and ECMP sets")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeFatTree(4));
        net.Build();
        // k = 4: k^3/4 = 16 hosts, k pods * k switches + (k/2)^2 cores = 20 switches.
        NS_TEST_EXPECT_MSG_EQ(net.GetNHosts(), 16u, "hosts");
        NS_TEST_EXPECT_MSG_EQ(net.GetSwitches().GetN(), 20u, "switches");
        // Hosts are numbered 10.0.0.1, 10.0.0.2, ... in host order.
        NS_TEST_EXPECT_MSG_EQ(net.GetHostAddress(0), Ipv4Address("10.0.0.1"), "H1");
        NS_TEST_EXPECT_MSG_EQ(net.GetHostAddress(15), Ipv4Address("10.0.0.16"), "H16");

        const tagger::Topology& topo = net.GetTopology();
        tagger::NodeId t1 = topo.GetNodeId("T1");
        tagger::NodeId l1 = topo.GetNodeId("L1");
        tagger::NodeId s1 = topo.GetNodeId("S1");
        // H1 hangs on T1's port 0; H16 is in pod 4 (T8).
        Ipv4Address h1 = net.GetHostAddress(0);
        Ipv4Address h16 = net.GetHostAddress(15);
        // T1 -> H1: its host port only.
        NS_TEST_EXPECT_MSG_EQ(PortList(net.GetSwitch(t1)->Lookup(h1)), "{0}", "T1 -> H1");
        // T1 -> H16: both uplinks (ports k/2 = 2 and 3).
        NS_TEST_EXPECT_MSG_EQ(PortList(net.GetSwitch(t1)->Lookup(h16)), "{2, 3}", "T1 -> H16");
        // L1 -> H1: down to T1 (its port 0); L1 -> H16: both cores (ports 2 and 3).
        NS_TEST_EXPECT_MSG_EQ(PortList(net.GetSwitch(l1)->Lookup(h1)), "{0}", "L1 -> H1");
        NS_TEST_EXPECT_MSG_EQ(PortList(net.GetSwitch(l1)->Lookup(h16)), "{2, 3}", "L1 -> H16");
        // S1 -> H16: one port, to pod 4 (core port p goes to pod p: port 3).
        NS_TEST_EXPECT_MSG_EQ(PortList(net.GetSwitch(s1)->Lookup(h16)), "{3}", "S1 -> H16");
        // A destination no host has: no route.
        NS_TEST_EXPECT_MSG_EQ(net.GetSwitch(s1)->Lookup(Ipv4Address("10.0.1.0")).empty(),
                              true,
                              "S1 -> 10.0.1.0");
    }
};

/**
 * \ingroup tagger-tests
 * FatTree(4): a datagram H2 -> H16 crosses five switches and arrives with
 * TTL 64 - 5 = 59.
 */
class FatTreeTtlTestCase : public PfcTopologyTestCase
{
  public:
    FatTreeTtlTestCase()
        : PfcTopologyTestCase("FatTree(4): a packet crosses five switches and loses five TTL")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeFatTree(4));
        net.Build();
        std::pair<uint32_t, int> atH16{0, 0}; // (datagrams arrived, TTL of the last)
        // H2 -> H16 crosses T1, an aggregation, a core, an aggregation, T8:
        // five switches, so the default TTL 64 arrives as 59.
        net.GetHost(15)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
            "Rx",
            MakeBoundCallback(&CountUdp, &atH16));
        Ptr<Socket> socket = Socket::CreateSocket(net.GetHost(1), UdpSocketFactory::GetTypeId());
        socket->Connect(InetSocketAddress(net.GetHostAddress(15), 9));
        Simulator::Schedule(MicroSeconds(1), &SendUdp, socket, 100u);
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(atH16.first, 1u, "datagrams at H16");
        NS_TEST_EXPECT_MSG_EQ(atH16.second, 59, "TTL at H16");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(), 0u, "drops");
    }
};

/**
 * \ingroup tagger-tests
 * PfcHelper::SetScheduler: every device gets its own scheduler object, with
 * the attributes given.
 */
class PfcHelperSchedulerTestCase : public PfcTopologyTestCase
{
  public:
    PfcHelperSchedulerTestCase()
        : PfcTopologyTestCase("PfcHelper: every device gets its own scheduler")
    {
    }

  private:
    void DoRun() override
    {
        PfcHelper pfc;
        pfc.SetScheduler("ns3::DwrrPfcScheduler", "Weights", StringValue("1,2,3,4,5,6,7,8"));
        NodeContainer nodes;
        nodes.Create(3);
        NetDeviceContainer ab = pfc.Connect(nodes.Get(0), nodes.Get(1));
        NetDeviceContainer bc = pfc.Connect(nodes.Get(1), nodes.Get(2));
        std::set<Ptr<Object>> schedulers;
        for (NetDeviceContainer c : {ab, bc})
        {
            for (uint32_t i = 0; i < c.GetN(); ++i)
            {
                PointerValue p;
                c.Get(i)->GetAttribute("Scheduler", p);
                Ptr<DwrrPfcScheduler> dwrr = p.Get<DwrrPfcScheduler>();
                NS_TEST_ASSERT_MSG_NE(dwrr, nullptr, "device " << i << ": a DwrrPfcScheduler");
                if (IsStatusFailure())
                {
                    return;
                }
                StringValue weights;
                dwrr->GetAttribute("Weights", weights);
                NS_TEST_EXPECT_MSG_EQ(weights.Get(), "1,2,3,4,5,6,7,8", "device " << i);
                schedulers.insert(dwrr);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(schedulers.size(), 4u, "schedulers");
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The tagger-topology TestSuite.
 */
class TaggerTopologyTestSuite : public TestSuite
{
  public:
    TaggerTopologyTestSuite()
        : TestSuite("tagger-topology", Type::UNIT)
    {
        AddTestCase(new FatTreeNodesTestCase);
        AddTestCase(new FatTreeTtlTestCase);
        AddTestCase(new PfcHelperSchedulerTestCase);
        for (auto make : {&MakePfcTopologyRoutesTestCases, &MakePfcTopologyRelayTestCases})
        {
            for (TestCase* tc : make())
            {
                AddTestCase(tc);
            }
        }
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerTopologyTestSuite g_taggerTopologyTestSuite;
