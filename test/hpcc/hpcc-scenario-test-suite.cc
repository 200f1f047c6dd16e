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
 * the program; a config file's keys as attributes (HpccConfigHelper) and
 * its refusals; the pfc.txt lines.
 */

#include "../tagger-test-helpers.h"

#include "ns3/core-module.h"
#include "ns3/hpcc-config-helper.h"
#include "ns3/hpcc-scenario-helper.h"
#include "ns3/network-module.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/tagger-io-hpcc.h"
#include "ns3/test.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
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
        HpccScenarioHelper::WriteFctLine(out, r, 1, 300, r.sport, 100);
        // Node 1: 0x0b000001 + 0x100; node 300 = 256 + 44: + 0x10000 + 0x2c00.
        NS_TEST_EXPECT_MSG_EQ(out.str(),
                              "0b000101 0b012c01 49152 100 10000 2000000000 12345 10000\n",
                              "line");
    }
};

/// A config of the family for kTopology: every DCQCN key, ECN maps per rate.
const char* const kConfig = "CC_MODE 1\n"
                            "ENABLE_QCN 1\n"
                            "PACKET_PAYLOAD_SIZE 1000\n"
                            "TOPOLOGY_FILE topo.txt\n"
                            "FLOW_FILE flows.txt\n"
                            "FCT_OUTPUT_FILE fct.txt\n"
                            "SIMULATOR_STOP_TIME 0.02\n"
                            "ALPHA_RESUME_INTERVAL 55\n"
                            "RATE_DECREASE_INTERVAL 50\n"
                            "CLAMP_TARGET_RATE 0\n"
                            "RP_TIMER 60.5\n"
                            "EWMA_GAIN 0.00390625\n"
                            "FAST_RECOVERY_TIMES 5\n"
                            "RATE_AI 40Mb/s\n"
                            "RATE_HAI 80Mb/s\n"
                            "MIN_RATE 10Mb/s\n"
                            "L2_CHUNK_SIZE 4000\n"
                            "L2_ACK_INTERVAL 2000000000\n"
                            "HAS_WIN 1\n"
                            "GLOBAL_T 1\n"
                            "U_TARGET 0.95\n"
                            "TRACE_FILE trace.txt\n"
                            "KMIN_MAP 4 10000000000 10 25000000000 25 40000000000 40 "
                            "100000000000 100\n"
                            "KMAX_MAP 4 10Gb/s 200 25Gb/s 250 40Gb/s 400 100Gb/s 1000\n"
                            "PMAX_MAP 4 10Gb/s 0.1 25Gb/s 0.25 40Gb/s 0.4 100Gb/s 1\n"
                            "BUFFER_SIZE 9\n";

/// \param path a file \param text what to write in it
void
WriteFile(const std::string& path, const std::string& text)
{
    std::ofstream out(path);
    out << text;
}

/// \param name an RdmaNic or SwitchMmu attribute ("ns3::RdmaNic::AlphaTimer")
/// \return its default, as text
std::string
DefaultOf(const std::string& name)
{
    std::size_t colons = name.rfind("::");
    TypeId tid = TypeId::LookupByName(name.substr(0, colons));
    TypeId::AttributeInformation info;
    NS_ABORT_UNLESS(tid.LookupAttributeByName(name.substr(colons + 2), &info));
    return info.initialValue->SerializeToString(info.checker);
}

/**
 * \ingroup tagger-tests
 * An HPCC-family config file (HpccConfigHelper): each key's attribute set to
 * the value converted by hand (microseconds to ns, F + 1 fast-recovery
 * steps, a 4-packet ACK interval from 4000-byte chunks of 1000-byte
 * payloads, MiB, the window the BDP of kTopology's H1 -- H3 path gives by
 * hand), files found in the config's folder, keys without a meaning listed
 * as ignored, ECN thresholds per link rate on the built switches, and the
 * refusals: CC_MODE 10 named HPCC-PINT, an unknown CC_MODE, an ECN map that
 * lacks a link's rate, LINK_DOWN between nodes without a link.  CC_MODE 1, 3,
 * 7 and 8 pick DCQCN, HPCC (INT on the switches, T = the largest host-pair
 * round trip by hand: nodes 1 -- 4 -- 5 -- 2, 2 x (2 + 0.5 + 3) us + one
 * payload at 40, 100 and 25 Gb/s (0.2 + 0.08 + 0.32 us) = 11.6 us; U_TARGET
 * and MI_THRESH),
 * TIMELY (RATE_AI its delta) and DCTCP (on the rate, DCTCP_RATE_AI).
 *
 * The window by hand: H1 -- S4 -- S5 -- H3 has delays 2 + 0.5 + 1 = 3.5 us,
 * one 1000-byte payload's serialisation 0.2 + 0.08 + 0.2 = 0.48 us, the
 * slowest link 40 Gb/s: (2 x 3.5 + 0.48) us x 40 Gb/s / 8 = 37 400 B, the
 * largest of the six host pairs (H1 -- H2: 36 250; H2 -- H3: 26 625).
 */
class HpccConfigTestCase : public TestCase
{
  public:
    HpccConfigTestCase()
        : TestCase("HPCC config: keys to attributes by hand, files, ECN per rate, refusals")
    {
    }

  private:
    void DoRun() override
    {
        char dirTemplate[] = "/tmp/tagger-hpcc-config-XXXXXX";
        std::string dir = mkdtemp(dirTemplate);
        WriteFile(dir + "/topo.txt", kTopology);
        WriteFile(dir + "/flows.txt", kFlows);
        WriteFile(dir + "/config.txt", kConfig);
        HpccConfigHelper config(dir + "/config.txt");
        NS_TEST_EXPECT_MSG_EQ(config.FindInput("TOPOLOGY_FILE"), dir + "/topo.txt", "folder");
        NS_TEST_EXPECT_MSG_EQ(config.GetOutput("FCT_OUTPUT_FILE"), "fct.txt", "as written");
        NS_TEST_EXPECT_MSG_EQ(config.GetStopTime().value(), MilliSeconds(20), "stop");
        tagger::HpccTopology topo = ReadTopology(kTopology);
        config.SetDefaults(topo);
        std::vector<std::pair<std::string, std::string>> expected = {
            {"ns3::RdmaNic::AlphaTimer", "+55000ns"},
            {"ns3::RdmaNic::RateDecreaseInterval", "+50000ns"},
            {"ns3::RdmaNic::RateIncreaseTimer", "+60500ns"},
            {"ns3::RdmaNic::ClampTargetRate", "false"},
            {"ns3::RdmaNic::FastRecoverySteps", "6"},
            {"ns3::RdmaNic::ByteCounter", "0"},
            {"ns3::RdmaNic::AckInterval", "4"},
            {"ns3::RdmaNic::MaxBytesInFlight", "37400"},
            {"ns3::RdmaNic::RateHAI", "80000000bps"},
            {"ns3::RdmaNic::MinRate", "10000000bps"},
            {"ns3::SwitchMmu::BufferSize", "9437184"},
        };
        for (const auto& [name, value] : expected)
        {
            NS_TEST_EXPECT_MSG_EQ(DefaultOf(name), value, name);
        }
        std::vector<std::string> ignored = config.GetIgnored();
        NS_TEST_EXPECT_MSG_EQ((ignored == std::vector<std::string>{"U_TARGET", "TRACE_FILE"}),
                              true,
                              "ignored keys");

        // ECN thresholds per link rate on the built network.
        HpccScenarioHelper scenario(topo, ReadFlows(kFlows, topo));
        scenario.Build();
        config.Configure(scenario);
        const tagger::Topology& t = topo.topo;
        uint32_t checked = 0;
        for (tagger::NodeId v : t.GetSwitches())
        {
            for (tagger::PortNo p = 0; p < t.GetNode(v).ports; ++p)
            {
                Ptr<PfcNetDevice> dev = scenario.GetNetwork().GetDevice(v, p);
                uint64_t gbps = dev->GetDataRate().GetBitRate() / 1000000000;
                UintegerValue kmin;
                UintegerValue kmax;
                DoubleValue pmax;
                dev->GetAttribute("EcnKmin", kmin);
                dev->GetAttribute("EcnKmax", kmax);
                dev->GetAttribute("EcnPmax", pmax);
                // The maps give Kmin = rate in Gb/s (KB), Kmax = 10 x that (40G: 400),
                // Pmax = rate / 100 Gb/s.
                uint64_t kmaxKb = gbps == 10 ? 200 : gbps == 25 ? 250 : gbps == 40 ? 400 : 1000;
                NS_TEST_EXPECT_MSG_EQ(kmin.Get(), gbps * 1000, "Kmin at " << gbps << "G");
                NS_TEST_EXPECT_MSG_EQ(kmax.Get(), kmaxKb * 1000, "Kmax at " << gbps << "G");
                NS_TEST_EXPECT_MSG_EQ_TOL(pmax.Get(), gbps / 100.0, 1e-12, "Pmax");
                ++checked;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(checked, 6, "switch ports (S4: 3, S5: 3)");
        Simulator::Destroy();
        Config::Reset();

        // Refusals, each naming the line.
        std::vector<std::pair<std::string, std::string>> bad = {
            {"CC_MODE 10\n", "config.txt:1: CC_MODE: 10 (HPCC-PINT) is not implemented"},
            {"CC_MODE 5\n", "5 is not a congestion control of the HPCC family"},
            {"KMIN_MAP 1 40Gb/s 40\n", "config.txt:1: KMIN_MAP: no value for 10Gbps"},
            {"LINK_DOWN 10 0 1\n", "config.txt:1: LINK_DOWN: nodes 0 and 1 are not linked"},
            {"RP_TIMER 0\n", "config.txt:1: RP_TIMER: '0' is not a number"},
            {"FLOW_FILE nowhere.txt\n", "'nowhere.txt' is not a readable file in " + dir},
        };
        for (const auto& [text, message] : bad)
        {
            WriteFile(dir + "/config.txt", text);
            std::string error;
            try
            {
                HpccConfigHelper c(dir + "/config.txt");
                c.SetDefaults(topo);
            }
            catch (const tagger::TaggerError& e)
            {
                error = e.what();
            }
            NS_TEST_EXPECT_MSG_NE(error.find(message), std::string::npos, text << ": " << error);
        }
        Config::Reset();

        // The congestion controls by CC_MODE.
        const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>
            modes = {
                {"CC_MODE 1\n", {{"ns3::RdmaNic::CongestionControl", "ns3::RdmaDcqcn"}}},
                {"CC_MODE 3\nU_TARGET 0.9\nMI_THRESH 3\nRATE_AI 20Mb/s\n",
                 {{"ns3::RdmaNic::CongestionControl", "ns3::RdmaHpcc"},
                  {"ns3::PfcSwitchNetDevice::Int", "true"},
                  {"ns3::RdmaHpcc::BaseRtt", "+11600ns"},
                  {"ns3::RdmaHpcc::Eta", "0.9"},
                  {"ns3::RdmaHpcc::MaxStage", "3"},
                  {"ns3::RdmaHpcc::RateAI", "20000000bps"}}},
                {"CC_MODE 7\nRATE_AI 20Mb/s\n",
                 {{"ns3::RdmaNic::CongestionControl", "ns3::RdmaTimely"},
                  {"ns3::RdmaTimely::Delta", "20000000bps"}}},
                {"CC_MODE 8\nDCTCP_RATE_AI 2Gb/s\n",
                 {{"ns3::RdmaNic::CongestionControl", "ns3::RdmaDctcp"},
                  {"ns3::RdmaDctcp::RateBased", "true"},
                  {"ns3::RdmaDctcp::RateAI", "2000000000bps"}}},
            };
        for (const auto& [text, attributes] : modes)
        {
            WriteFile(dir + "/config.txt", text);
            HpccConfigHelper c(dir + "/config.txt");
            c.SetDefaults(topo);
            for (const auto& [name, value] : attributes)
            {
                NS_TEST_EXPECT_MSG_EQ(DefaultOf(name), value, text << name);
            }
            NS_TEST_EXPECT_MSG_EQ(c.GetIgnored().empty(), true, text << " ignored keys");
            Config::Reset();
        }
        for (const char* f : {"/topo.txt", "/flows.txt", "/config.txt"})
        {
            std::remove((dir + f).c_str());
        }
        rmdir(dir.c_str());
    }
};

/**
 * \ingroup tagger-tests
 * Small helpers of the config, by hand: the family's ACK interval in packets
 * (HpccConfigHelper::AckIntervalPackets) and source ports
 * (HpccScenarioHelper::HpccSourcePorts).
 */
class HpccConfigArithmeticTestCase : public TestCase
{
  public:
    HpccConfigArithmeticTestCase()
        : TestCase("HPCC config: ACK interval in packets and source ports, by hand")
    {
    }

  private:
    void DoRun() override
    {
        // Chunks of 4000 B of 1000-B payloads: every 4th packet; a milestone
        // at or below one payload: every packet; 4500 B: from the 5th packet.
        NS_TEST_EXPECT_MSG_EQ(HpccConfigHelper::AckIntervalPackets(2000000000, 4000, 1000),
                              4,
                              "chunk");
        NS_TEST_EXPECT_MSG_EQ(HpccConfigHelper::AckIntervalPackets(1, 4000, 1000), 1, "HPCC's 1");
        NS_TEST_EXPECT_MSG_EQ(HpccConfigHelper::AckIntervalPackets(4500, 0, 1000), 5, "4500 B");
        NS_TEST_EXPECT_MSG_EQ(HpccConfigHelper::AckIntervalPackets(8000, 3000, 1000),
                              3,
                              "chunk first");
        // Flows 3->0, 5->0, 3->0, 3->1, 5->0, 3->0: each pair counts from 10000.
        std::vector<std::pair<tagger::NodeId, tagger::NodeId>> pairs =
            {{3, 0}, {5, 0}, {3, 0}, {3, 1}, {5, 0}, {3, 0}};
        std::vector<tagger::HpccFlow> flows(pairs.size());
        for (std::size_t i = 0; i < flows.size(); ++i)
        {
            flows[i].src = pairs[i].first;
            flows[i].dst = pairs[i].second;
        }
        std::vector<uint32_t> ports = HpccScenarioHelper::HpccSourcePorts(flows);
        NS_TEST_EXPECT_MSG_EQ(
            (ports == std::vector<uint32_t>{10000, 10000, 10001, 10000, 10001, 10002}),
            true,
            "source ports");
        // The family's standalone FCT of H1 -> H3 in kTopology (payload 1000,
        // 48 header bytes as theirs): rtt 2 x 3500 + (200 + 80 + 200) = 7480 ns;
        // 10,000 B = 10 packets, 10,480 B at 40 Gb/s = 2096 ns; 9576 ns.
        tagger::HpccTopology topo = ReadTopology(kTopology);
        std::vector<tagger::HpccPairPath> paths = tagger::HpccPathsFrom(topo, 1, 1000);
        NS_TEST_EXPECT_MSG_EQ(paths[3].GetRttNs(), 7480, "rtt");
        NS_TEST_EXPECT_MSG_EQ(paths[3].bottleneckBps, 40000000000ULL, "bottleneck");
        NS_TEST_EXPECT_MSG_EQ(tagger::HpccStandaloneFctNs(paths[3], 10000, 1000, 48),
                              9576,
                              "standalone");
        // H0 -> H2: 2 x 4500 + (800 + 80 + 320) = 10,200 ns; 10,480 B at 10 Gb/s.
        paths = tagger::HpccPathsFrom(topo, 0, 1000);
        NS_TEST_EXPECT_MSG_EQ(tagger::HpccStandaloneFctNs(paths[2], 10000, 1000, 48),
                              10200 + 8384,
                              "standalone at 10 Gb/s");
    }
};

/// Counts lines of a pfc.txt and checks each against the topology (HpccPfcFileTestCase).
struct PfcFileCheck
{
    uint64_t lines = 0;    //!< lines read
    uint64_t pauses = 0;   //!< type 1
    uint64_t resumes = 0;  //!< type 0
    uint64_t bad = 0;      //!< lines whose fields do not fit the topology
    uint64_t unsorted = 0; //!< lines earlier than the line before
};

/**
 * \ingroup tagger-tests
 * PFC frames in the layout of the family's pfc.txt (HpccScenarioHelper::
 * EnablePfcFile): a 3-to-1 incast over kTopology with DCQCN off and a small
 * buffer, so switches pause.  Every line has five fields: a time in ns (not
 * decreasing), a node id, its type (1 for S4 and S5, 0 for hosts, from the
 * topology), an interface index 1..ports of that node, and 1 or 0; there is
 * one line per PFC frame received (each frame here names one class), the
 * sum of the devices' GetPfcRxFrames(), and pauses and resumes both occur.
 */
class HpccPfcFileTestCase : public TestCase
{
  public:
    HpccPfcFileTestCase()
        : TestCase("HPCC pfc.txt: one line per PFC frame received, fields from the topology")
    {
    }

  private:
    void DoRun() override
    {
        tagger::HpccTopology topo = ReadTopology(kTopology);
        std::vector<tagger::HpccFlow> flows = ReadFlows("3\n"
                                                        "0 3 3 100 400000 0\n"
                                                        "1 3 3 100 400000 0\n"
                                                        "2 3 3 100 400000 0\n",
                                                        topo);
        HpccScenarioHelper scenario(topo, flows);
        scenario.GetRdma().SetNicAttribute("Dcqcn", BooleanValue(false));
        scenario.GetNetwork().GetPfcHelper().SetMmuAttribute("BufferSize",
                                                             UintegerValue(600 * 1024));
        scenario.GetNetwork().GetPfcHelper().SetMmuAttribute("LossyPoolSize",
                                                             UintegerValue(64 * 1024));
        scenario.Build();
        std::ostringstream out;
        scenario.EnablePfcFile(out);
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();
        uint64_t frames = 0;
        const tagger::Topology& t = topo.topo;
        for (tagger::NodeId v = 0; v < t.GetNNodes(); ++v)
        {
            for (tagger::PortNo p = 0; p < t.GetNode(v).ports; ++p)
            {
                frames += scenario.GetNetwork().GetDevice(v, p)->GetPfcRxFrames();
            }
        }
        NS_TEST_EXPECT_MSG_EQ(scenario.GetCompletedFlows(), 3, "flows done");
        Simulator::Destroy();

        PfcFileCheck c;
        std::istringstream in(out.str());
        std::string line;
        uint64_t previous = 0;
        while (std::getline(in, line))
        {
            ++c.lines;
            std::istringstream fields(line);
            uint64_t time = 0;
            uint32_t node = 0;
            uint32_t type = 0;
            uint32_t ifIndex = 0;
            uint32_t pause = 0;
            std::string extra;
            bool five =
                bool(fields >> time >> node >> type >> ifIndex >> pause) && !(fields >> extra);
            bool fits = five && node < t.GetNNodes() &&
                        type == (t.GetNode(node).kind == tagger::NodeKind::SWITCH ? 1u : 0u) &&
                        ifIndex >= 1 && ifIndex <= t.GetNode(node).ports && pause <= 1;
            c.bad += !fits;
            c.unsorted += time < previous;
            previous = time;
            (pause ? c.pauses : c.resumes) += 1;
        }
        NS_TEST_EXPECT_MSG_GT(c.pauses, 0, "no pause: the incast should fill the buffer");
        NS_TEST_EXPECT_MSG_GT(c.resumes, 0, "no resume");
        NS_TEST_EXPECT_MSG_EQ(c.lines, frames, "one line per PFC frame received");
        NS_TEST_EXPECT_MSG_EQ(c.bad, 0, "lines that do not fit the topology");
        NS_TEST_EXPECT_MSG_EQ(c.unsorted, 0, "lines out of time order");
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
        AddTestCase(new HpccConfigTestCase);
        AddTestCase(new HpccConfigArithmeticTestCase);
        AddTestCase(new HpccPfcFileTestCase);
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerHpccTestSuite g_taggerHpccTestSuite;
