/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-hpcc": HPCC-family input files run in this
 * module (HpccScenarioHelper) and per-link properties (PfcTopologyHelper::
 * SetLinkProperties).  Values are written by hand from the small files
 * below: node kinds and names, each link's device rates and channel delay,
 * the flows' hosts, sizes, starts and classes, flows that complete; export
 * then import gives the same topology, links and flows; a link of error
 * rate 1 loses every data frame, counted as link-error drops; one FCT line
 * against a line computed by hand; a wrong number of link properties ends
 * the program.
 */

#include "../tagger-test-helpers.h"

#include "ns3/core-module.h"
#include "ns3/hpcc-scenario-helper.h"
#include "ns3/network-module.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/tagger-io-hpcc.h"
#include "ns3/test.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

/**
 * Hosts 0..3, switches 4 and 5, mixed rates and delays: H0 and H1 on S4,
 * H2 and H3 on S5, S4 -- S5 at 100 Gbps.
 */
const char* const kTopology = "6 2 5\n"
                              "4 5\n"
                              "0 4 10Gbps 1us 0\n"
                              "1 4 40Gbps 2us 0\n"
                              "4 5 100Gbps 0.5us 0\n"
                              "2 5 25Gbps 3us 0\n"
                              "3 5 40Gbps 0.001ms 0\n";

/// Three flows across S4 -- S5 and back, priorities 3, 1 and 5.
const char* const kFlows = "3\n"
                           "0 2 3 100 20000 0.000001\n"
                           "1 3 1 200 5000 0.00001\n"
                           "3 0 5 300 3000 0.000002\n";

/// \param text a topology file \return what ReadHpccTopology reads
tagger::HpccTopology
ReadTopology(const std::string& text)
{
    std::istringstream in(text);
    return tagger::ReadHpccTopology(in, "test");
}

/// \param text a flow file \param topo its topology \return the flows
std::vector<tagger::HpccFlow>
ReadFlows(const std::string& text, const tagger::HpccTopology& topo)
{
    std::istringstream in(text);
    return tagger::ReadHpccFlows(in, "test", topo.topo);
}

/**
 * \ingroup tagger-tests
 * The network of kTopology: names, kinds, per-link rates and delays.
 */
class HpccNetworkTestCase : public TestCase
{
  public:
    HpccNetworkTestCase()
        : TestCase("HPCC topology: node kinds, names, per-link DataRate and Delay")
    {
    }

  private:
    void DoRun() override
    {
        tagger::HpccTopology topo = ReadTopology(kTopology);
        HpccScenarioHelper scenario(topo, ReadFlows(kFlows, topo));
        scenario.Build();
        PfcTopologyHelper& net = scenario.GetNetwork();
        NS_TEST_ASSERT_MSG_EQ(net.GetNHosts(), 4u, "hosts");
        NS_TEST_EXPECT_MSG_EQ(net.GetSwitches().GetN(), 2u, "switches");
        const char* names[] = {"H0", "H1", "H2", "H3", "S4", "S5"};
        for (uint32_t v = 0; v < 6; ++v)
        {
            NS_TEST_EXPECT_MSG_EQ(Names::FindName(net.GetNode(v)), names[v], "node " << v);
            NS_TEST_EXPECT_MSG_EQ((net.GetSwitch(v) != nullptr), (v >= 4), "node " << v);
        }
        // {node, port, rate in Gbps x 10, delay in ns}: both ends of every link.
        const uint32_t ends[][4] = {{0, 0, 100, 1000},
                                    {4, 0, 100, 1000},
                                    {1, 0, 400, 2000},
                                    {4, 1, 400, 2000},
                                    {4, 2, 1000, 500},
                                    {5, 0, 1000, 500},
                                    {2, 0, 250, 3000},
                                    {5, 1, 250, 3000},
                                    {3, 0, 400, 1000},
                                    {5, 2, 400, 1000}};
        for (const auto& e : ends)
        {
            Ptr<PfcNetDevice> dev = net.GetDevice(e[0], e[1]);
            NS_TEST_ASSERT_MSG_NE(dev, nullptr, "node " << e[0] << " port " << e[1]);
            NS_TEST_EXPECT_MSG_EQ(dev->GetDataRate().GetBitRate(),
                                  uint64_t(e[2]) * 100000000,
                                  "node " << e[0] << " port " << e[1]);
            NS_TEST_EXPECT_MSG_EQ(dev->GetPfcChannel()->GetDelay(),
                                  NanoSeconds(e[3]),
                                  "node " << e[0] << " port " << e[1]);
        }
        // The host addresses as the module gives them; the HPCC-style ones.
        NS_TEST_EXPECT_MSG_EQ(net.GetHostAddress(2), Ipv4Address("10.0.0.3"), "host 2");
        NS_TEST_EXPECT_MSG_EQ(HpccScenarioHelper::HpccNodeAddress(5),
                              Ipv4Address("11.0.5.1"),
                              "node 5");
        NS_TEST_EXPECT_MSG_EQ(HpccScenarioHelper::HpccNodeAddress(258),
                              Ipv4Address("11.1.2.1"),
                              "node 258");
        Simulator::Destroy();
    }
};

/**
 * \ingroup tagger-tests
 * The flows of kFlows: hosts, sizes, starts, classes, and they complete.
 */
class HpccFlowsTestCase : public TestCase
{
  public:
    HpccFlowsTestCase()
        : TestCase("HPCC flows: hosts, size, start, class; all complete")
    {
    }

  private:
    void DoRun() override
    {
        tagger::HpccTopology topo = ReadTopology(kTopology);
        HpccScenarioHelper scenario(topo, ReadFlows(kFlows, topo));
        scenario.Build();
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        PfcTopologyHelper& net = scenario.GetNetwork();
        std::vector<RdmaFlowRecord> r = scenario.GetFlowRecords();
        NS_TEST_ASSERT_MSG_EQ(r.size(), 3u, "flows");
        // {src host, dst host, bytes, start ns, DSCP}
        const uint64_t expected[][5] = {{0, 2, 20000, 1000, 24},
                                        {1, 3, 5000, 10000, 8},
                                        {3, 0, 3000, 2000, 40}};
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(r[i].src, net.GetHostAddress(expected[i][0]), "flow " << i);
            NS_TEST_EXPECT_MSG_EQ(r[i].dst, net.GetHostAddress(expected[i][1]), "flow " << i);
            NS_TEST_EXPECT_MSG_EQ(r[i].bytes, expected[i][2], "flow " << i);
            NS_TEST_EXPECT_MSG_EQ(r[i].start, NanoSeconds(expected[i][3]), "flow " << i);
            NS_TEST_EXPECT_MSG_EQ(uint32_t(r[i].dscp), expected[i][4], "flow " << i);
            NS_TEST_EXPECT_MSG_EQ(r[i].finished, true, "flow " << i);
        }
        // Flow 0 is bound by its 10 Gbps first link: 20,000 bytes take at
        // least 16 us there, plus 1 + 0.5 + 3 us of propagation.
        NS_TEST_EXPECT_MSG_GT(r[0].fct, MicroSeconds(20), "flow 0's FCT");
        // Ideal FCTs along the path: a full packet is 1000 + 44 (RoCE) + 14
        // (Ethernet) + 4 (FCS) + 20 (preamble, gap) = 1082 bytes, 8656 bits:
        // 866 ns at 10 Gbps, 346 at 25, 216 at 40, 87 at 100 (rounded).
        // Flow 0 (10, 100, 25 Gbps; 1, 0.5, 3 us): 20 packets at the 10 Gbps
        // bottleneck, the first packet once more at 100 and 25 Gbps.
        NS_TEST_EXPECT_MSG_EQ(r[0].idealFct,
                              NanoSeconds(20 * 866 + 87 + 346 + 4500),
                              "flow 0's ideal FCT");
        // Flow 1 (40, 100, 40 Gbps; 2, 0.5, 1 us): 5 packets at the first
        // 40 Gbps link (the first of the two slowest), one at 100 and 40.
        NS_TEST_EXPECT_MSG_EQ(r[1].idealFct,
                              NanoSeconds(5 * 216 + 87 + 216 + 3500),
                              "flow 1's ideal FCT");
        Simulator::Destroy();
    }
};

/**
 * \ingroup tagger-tests
 * Export then import gives the same topology, link properties and flows.
 */
class HpccRoundTripTestCase : public TestCase
{
  public:
    HpccRoundTripTestCase()
        : TestCase("HPCC export then import: same nodes, ports, links and flows")
    {
    }

  private:
    void DoRun() override
    {
        tagger::HpccTopology topo =
            ReadTopology(std::string(kTopology).insert(5, " 2")); // with a ToR count
        std::vector<tagger::HpccFlow> flows = ReadFlows(kFlows, topo);
        HpccScenarioHelper scenario(topo, flows);
        scenario.Build();
        std::ostringstream topoOut;
        std::ostringstream flowOut;
        scenario.Export(topoOut, flowOut);
        tagger::HpccTopology back = ReadTopology(topoOut.str());
        std::vector<tagger::HpccFlow> flowsBack = ReadFlows(flowOut.str(), back);
        NS_TEST_EXPECT_MSG_EQ(back.torCount.value_or(0), 2u, "ToR count");
        NS_TEST_ASSERT_MSG_EQ(back.topo.GetNNodes(), 6u, "nodes");
        NS_TEST_EXPECT_MSG_EQ((back.topo.GetSwitches() == topo.topo.GetSwitches()),
                              true,
                              "switches");
        NS_TEST_ASSERT_MSG_EQ(back.links.size(), 5u, "links");
        for (uint32_t i = 0; i < 5; ++i)
        {
            const tagger::TopoLink& a = topo.topo.GetLinks()[i];
            const tagger::TopoLink& b = back.topo.GetLinks()[i];
            NS_TEST_EXPECT_MSG_EQ((a.a == b.a && a.b == b.b), true, "link " << i);
            NS_TEST_EXPECT_MSG_EQ(back.links[i].rateBps, topo.links[i].rateBps, "link " << i);
            // The same ns-3 delay (the text read may differ in the last bit
            // of its double: 0.001ms was 0.001 * 1e-3 s, comes back as 1us).
            NS_TEST_EXPECT_MSG_EQ(Seconds(back.links[i].delaySeconds),
                                  Seconds(topo.links[i].delaySeconds),
                                  "link " << i);
            NS_TEST_EXPECT_MSG_EQ(back.links[i].errorRate, topo.links[i].errorRate, "link " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(flowsBack.size(), 3u, "flows");
        for (uint32_t i = 0; i < 3; ++i)
        {
            const tagger::HpccFlow& a = flows[i];
            const tagger::HpccFlow& b = flowsBack[i];
            NS_TEST_EXPECT_MSG_EQ((a.src == b.src && a.dst == b.dst && a.priority == b.priority &&
                                   a.dport == b.dport && a.sizeBytes == b.sizeBytes &&
                                   Seconds(a.startSeconds) == Seconds(b.startSeconds)),
                                  true,
                                  "flow " << i);
        }
        Simulator::Destroy();
    }
};

/// Count a transmitted frame (PhyTxBegin). \param n the counter \param frame the frame
void
CountFrame(uint64_t* n, Ptr<const Packet> frame)
{
    ++*n;
}

/**
 * \ingroup tagger-tests
 * A link of error rate 1 loses every data frame: each a link-error drop.
 */
class HpccLinkErrorTestCase : public TestCase
{
  public:
    HpccLinkErrorTestCase()
        : TestCase("Link error rate 1: every data frame lost, counted as link-error")
    {
    }

  private:
    void DoRun() override
    {
        // H0 -- S2 loses everything, H1 -- S2 nothing.
        tagger::HpccTopology topo = ReadTopology("3 1 2\n2\n0 2 40Gbps 1us 1\n1 2 40Gbps 1us 0\n");
        HpccScenarioHelper scenario(topo, ReadFlows("1\n0 1 3 100 4000 0\n", topo));
        scenario.Build();
        PfcTopologyHelper& net = scenario.GetNetwork();
        uint64_t sent = 0;
        net.GetDevice(0, 0)->TraceConnectWithoutContext("PhyTxBegin",
                                                        MakeBoundCallback(&CountFrame, &sent));
        Simulator::Stop(MilliSeconds(2));
        Simulator::Run();
        PfcStatsHelper stats(net);
        NS_TEST_EXPECT_MSG_GT(sent, 0u, "H0 sent frames");
        NS_TEST_EXPECT_MSG_EQ(stats.GetDropCount(PfcDropReason::LINK_ERROR), sent, "lost");
        NS_TEST_EXPECT_MSG_EQ(stats.GetDropCount(), sent, "every drop is a link error");
        NS_TEST_EXPECT_MSG_EQ(net.GetSwitch(2)->GetForwardedCount(), 0u, "forwarded");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetFlowRecords()[0].finish, Time(0), "never finishes");
        NS_TEST_EXPECT_MSG_EQ(net.GetLinkProperties()[0].errorRate, 1.0, "error rate");
        NS_TEST_EXPECT_MSG_EQ(PfcDropReasonName(PfcDropReason::LINK_ERROR), "link-error", "name");
        Simulator::Destroy();
    }
};

/**
 * \ingroup tagger-tests
 * Default link properties, and a wrong number of them.
 */
class HpccLinkPropertiesTestCase : public TestCase
{
  public:
    HpccLinkPropertiesTestCase()
        : TestCase("SetLinkProperties: defaults without it, a wrong count is fatal")
    {
    }

  private:
    void DoRun() override
    {
        tagger::HpccTopology topo = ReadTopology(kTopology);
        {
            PfcTopologyHelper net(topo.topo);
            net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("25Gbps"));
            net.Build();
            std::vector<PfcLinkProperties> links = net.GetLinkProperties();
            NS_TEST_ASSERT_MSG_EQ(links.size(), 5u, "links");
            for (const PfcLinkProperties& p : links)
            {
                NS_TEST_EXPECT_MSG_EQ(p.rate, DataRate("25Gbps"), "the PfcHelper's rate");
                NS_TEST_EXPECT_MSG_EQ(p.delay, MicroSeconds(1), "PfcChannel's default Delay");
                NS_TEST_EXPECT_MSG_EQ(p.errorRate, 0.0, "no loss");
            }
            NS_TEST_EXPECT_MSG_EQ(net.GetDevice(0, 0)->GetDataRate(), DataRate("25Gbps"), "H0");
            Simulator::Destroy();
        }
        PfcTopologyHelper net(topo.topo);
        std::vector<PfcLinkProperties> four(4);
        NS_TEST_EXPECT_MSG_EQ(CheckFatalError([&net, &four]() { net.SetLinkProperties(four); },
                                              "4 link properties for 5 topology links"),
                              "",
                              "wrong count");
        std::vector<PfcLinkProperties> bad(5);
        bad[2].errorRate = 1.5;
        NS_TEST_EXPECT_MSG_EQ(
            CheckFatalError([&net, &bad]() { net.SetLinkProperties(bad); }, "link 2 .S4-S5.: rate"),
            "",
            "error rate 1.5");
    }
};

/**
 * \ingroup tagger-tests
 * One FCT line against a line written by hand.
 */
class HpccFctLineTestCase : public TestCase
{
  public:
    HpccFctLineTestCase()
        : TestCase("FCT line in HPCC's layout")
    {
    }

  private:
    void DoRun() override
    {
        RdmaFlowRecord r;
        r.sport = 49152;
        r.bytes = 10000;
        r.start = Seconds(2);
        r.finish = Seconds(2) + NanoSeconds(12345);
        r.fct = NanoSeconds(12345);
        r.idealFct = NanoSeconds(10000);
        std::ostringstream out;
        HpccScenarioHelper::WriteFctLine(out, r, 1, 300, 100);
        // Node 1: 0x0b000001 + 0x100; node 300 = 256 + 44: + 0x10000 + 0x2c00.
        NS_TEST_EXPECT_MSG_EQ(out.str(),
                              "0b000101 0b012c01 49152 100 10000 2000000000 12345 10000\n",
                              "line");
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The tagger-hpcc TestSuite.
 */
class TaggerHpccTestSuite : public TestSuite
{
  public:
    TaggerHpccTestSuite()
        : TestSuite("tagger-hpcc", Type::UNIT)
    {
        AddTestCase(new HpccNetworkTestCase);
        AddTestCase(new HpccFlowsTestCase);
        AddTestCase(new HpccRoundTripTestCase);
        AddTestCase(new HpccLinkErrorTestCase);
        AddTestCase(new HpccLinkPropertiesTestCase);
        AddTestCase(new HpccFctLineTestCase);
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerHpccTestSuite g_taggerHpccTestSuite;
