/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the HPCC-family topology and flow files (tagger-io-hpcc.h):
 * hand-written files give the nodes, ports, rates, delays and flows worked
 * out by hand; export then import gives the same network; the shipped
 * examples in data/ read as a k=4 fat tree and a 15-to-1 incast; every bad
 * line is refused with one message naming the file, the line and the fault.
 */

#include "tagger-io-hpcc-config.h"
#include "tagger-io-hpcc.h"
#include "tagger-io.h"
#include "tagger-topology-generators.h"
#include "tagger-topology.h"
#include "test-util.h"

#include <gtest/gtest.h>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3::tagger;
using ns3::tagger::test::ErrorOf;
using ns3::tagger::test::HasSubstr;

namespace
{

/// The data/ directory of the module (next to test/data).
std::string
ModuleDataDir()
{
#ifdef TAGGER_TEST_DATA_DIR
    return std::string(TAGGER_TEST_DATA_DIR) + "/../../data";
#else
    std::string f = __FILE__; // .../test/rules/hpcc-io-test.cc
    return f.substr(0, f.rfind("test/rules/")) + "data";
#endif
}

HpccTopology
ReadTopoText(const std::string& text, bool strict = false)
{
    std::istringstream in(text);
    HpccReadOptions options;
    options.strict = strict;
    return ReadHpccTopology(in, "topo.txt", options);
}

std::vector<HpccFlow>
ReadFlowText(const std::string& text,
             const Topology& topo,
             bool strict = false,
             std::string* warning = nullptr)
{
    std::istringstream in(text);
    HpccReadOptions options;
    options.strict = strict;
    return ReadHpccFlows(in, "flow.txt", topo, options, warning);
}

/// "name:port" of the far end of (node, port), or "-".
std::string
PeerOf(const Topology& t, NodeId n, PortNo port)
{
    PortRef r = t.GetPeer(n, port);
    return r.node == kNone ? "-" : t.GetNode(r.node).name + ":" + std::to_string(r.port);
}

/// Each link as ((a, aPort), (b, bPort)) -> (rate, delay, error rate), ends in a fixed order.
std::map<std::tuple<NodeId, PortNo, NodeId, PortNo>, std::tuple<uint64_t, double, double>>
Network(const Topology& t, const std::vector<HpccLink>& links)
{
    std::map<std::tuple<NodeId, PortNo, NodeId, PortNo>, std::tuple<uint64_t, double, double>> m;
    for (size_t i = 0; i < t.GetLinks().size(); ++i)
    {
        PortRef a = t.GetLinks()[i].a;
        PortRef b = t.GetLinks()[i].b;
        if (std::tie(b.node, b.port) < std::tie(a.node, a.port))
        {
            std::swap(a, b);
        }
        m[{a.node, a.port, b.node, b.port}] = {links[i].rateBps,
                                               links[i].delaySeconds,
                                               links[i].errorRate};
    }
    return m;
}

/// Write, read back, and expect the same kinds, port counts and links (with their properties).
void
ExpectRoundTrip(const Topology& topo, const std::vector<HpccLink>& links)
{
    std::ostringstream out;
    WriteHpccTopology(topo, links, out);
    HpccTopology back = ReadTopoText(out.str());
    ASSERT_EQ(back.topo.GetNNodes(), topo.GetNNodes());
    for (NodeId n = 0; n < topo.GetNNodes(); ++n)
    {
        EXPECT_EQ(back.topo.GetNode(n).kind, topo.GetNode(n).kind) << n;
        EXPECT_EQ(back.topo.GetNode(n).ports, topo.GetNode(n).ports) << n;
    }
    EXPECT_EQ(Network(back.topo, back.links), Network(topo, links)) << out.str();
}

// Two switches (3, 4) with a parallel pair of links, three hosts; a blank
// line and a CRLF line end.
const char* kSmall = "5 2 5\n"
                     "3 4\n"
                     "0 3 100Gbps 0.001ms 0\n"
                     "\n"
                     "1 3 25Gbps 1us 0.01\r\n"
                     "3 4 40Gbps 2ns 0\n"
                     "2 4 10Mbps 0.5ms 1e-3\n"
                     "4 3 1.5Kbps 2s 1\n";

} // namespace

TEST(HpccTopologyTest, SmallFileByHand)
{
    HpccTopology h = ReadTopoText(kSmall);
    const Topology& t = h.topo;
    ASSERT_EQ(t.GetNNodes(), 5u);
    EXPECT_FALSE(h.torCount.has_value());
    EXPECT_EQ(t.GetHosts(), (std::vector<NodeId>{0, 1, 2}));
    EXPECT_EQ(t.GetSwitches(), (std::vector<NodeId>{3, 4}));
    EXPECT_EQ(t.GetNode(3).name, "S3");
    EXPECT_EQ(t.GetNode(0).name, "H0");
    // Ports in the order of each node's links in the file.
    EXPECT_EQ(t.GetNode(3).ports, 4u);
    EXPECT_EQ(t.GetNode(4).ports, 3u);
    EXPECT_EQ(PeerOf(t, 3, 0), "H0:0");
    EXPECT_EQ(PeerOf(t, 3, 1), "H1:0");
    EXPECT_EQ(PeerOf(t, 3, 2), "S4:0");
    EXPECT_EQ(PeerOf(t, 3, 3), "S4:2");
    EXPECT_EQ(PeerOf(t, 4, 1), "H2:0");
    ASSERT_EQ(t.GetLinks().size(), 5u);
    EXPECT_EQ(t.GetLinks()[4].a, (PortRef{4, 2})); // "4 3": a is the file's src
    EXPECT_EQ(t.GetLinks()[4].b, (PortRef{3, 3}));
    ASSERT_EQ(h.links.size(), 5u);
    const uint64_t rates[] = {100000000000, 25000000000, 40000000000, 10000000, 1500};
    const double delays[] = {1e-6, 1e-6, 2e-9, 5e-4, 2};
    const double losses[] = {0, 0.01, 0, 0.001, 1};
    for (size_t i = 0; i < 5; ++i)
    {
        EXPECT_EQ(h.links[i].rateBps, rates[i]) << i;
        EXPECT_DOUBLE_EQ(h.links[i].delaySeconds, delays[i]) << i;
        EXPECT_DOUBLE_EQ(h.links[i].errorRate, losses[i]) << i;
    }
}

TEST(HpccTopologyTest, TorCountAndNoSwitches)
{
    // "3 1 2 1": a ToR count of 2 is above the 1 switch, so only the
    // module's older N S L T reading fits (2 links, 1 ToR).
    HpccTopology h = ReadTopoText("3 1 2 1\n2\n0 2 1Gbps 1ms 0\n1 2 1Gbps 1ms 0\n");
    EXPECT_EQ(h.header, HpccHeader::NSLT);
    ASSERT_TRUE(h.torCount.has_value());
    EXPECT_EQ(*h.torCount, 1u);
    std::ostringstream out;
    WriteHpccTopology(h, out); // as read
    EXPECT_EQ(out.str(), "3 1 2 1\n2\n0 2 1Gbps 1ms 0\n1 2 1Gbps 1ms 0\n");
    std::ostringstream family;
    WriteHpccTopology(h.topo, h.links, family, h.torCount); // ns3-datacenter's N S T L
    EXPECT_EQ(family.str(), "3 1 1 2\n2\n0 2 1Gbps 1ms 0\n1 2 1Gbps 1ms 0\n");
    EXPECT_EQ(ReadTopoText(family.str()).header, HpccHeader::NSTL);

    // No switch: no switch line (an empty one is skipped).
    for (const char* text : {"2 0 1\n0 1 1Gbps 1ms 0\n", "2 0 1\n\n0 1 1Gbps 1ms 0\n"})
    {
        HpccTopology hosts = ReadTopoText(text);
        EXPECT_EQ(hosts.topo.GetHosts().size(), 2u);
        std::ostringstream again;
        WriteHpccTopology(hosts.topo, hosts.links, again);
        EXPECT_EQ(again.str(), "2 0 1\n\n0 1 1Gbps 1ms 0\n");
    }
}

TEST(HpccTopologyTest, RatesAndTimes)
{
    const std::vector<std::pair<std::string, uint64_t>> rates = {{"100Gbps", 100000000000},
                                                                 {"2.5Gbps", 2500000000},
                                                                 {"1Kbps", 1000},
                                                                 {"1kbps", 1000},
                                                                 {"5Mbps", 5000000},
                                                                 {"123bps", 123},
                                                                 {"123", 123},
                                                                 {"0.6bps", 1}};
    for (const auto& [text, bps] : rates)
    {
        uint64_t got = 0;
        EXPECT_EQ(ParseHpccRate(text, got), "") << text;
        EXPECT_EQ(got, bps) << text;
    }
    for (const char* bad :
         {"", "Gbps", "-1Gbps", "1e9bps", "1GBps", "0bps", "0.1bps", "1.2.3Gbps", "1 Gbps", "fast"})
    {
        uint64_t got = 0;
        EXPECT_TRUE(HasSubstr(ParseHpccRate(bad, got), "rate '" + std::string(bad) + "'"));
    }
    const std::vector<std::pair<std::string, double>> times =
        {{"0.001ms", 1e-6}, {"1us", 1e-6}, {"10ns", 1e-8}, {"2s", 2}, {"2", 2}, {"1e-3s", 1e-3}};
    for (const auto& [text, seconds] : times)
    {
        double got = -1;
        EXPECT_EQ(ParseHpccTime(text, got), "") << text;
        EXPECT_DOUBLE_EQ(got, seconds) << text;
    }
    for (const char* bad : {"", "ms", "-1ms", "+1ms", "1min", "nan", "inf", "1e10s", "1..2s"})
    {
        double got = 0;
        EXPECT_TRUE(HasSubstr(ParseHpccTime(bad, got), "time '" + std::string(bad) + "'"));
    }
    EXPECT_EQ(FormatHpccRate(40000000000), "40Gbps");
    EXPECT_EQ(FormatHpccRate(2500000000), "2500Mbps");
    EXPECT_EQ(FormatHpccRate(1500), "1500bps");
    EXPECT_EQ(FormatHpccTime(1e-6), "1us");
    EXPECT_EQ(FormatHpccTime(0), "0s");
    // Every written time reads back exactly (random values over 15 decades).
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> exponent(-12, 3);
    for (int i = 0; i < 2000; ++i)
    {
        double v = std::pow(10.0, exponent(rng));
        double back = -1;
        std::string text = FormatHpccTime(v);
        ASSERT_EQ(ParseHpccTime(text, back), "") << text;
        ASSERT_EQ(back, v) << text;
    }
}

TEST(HpccTopologyTest, RoundTrip)
{
    HpccTopology small = ReadTopoText(kSmall);
    ExpectRoundTrip(small.topo, small.links);

    // A generated fat tree (its ports were numbered in link order).
    Topology fat = MakeFatTree(4);
    std::vector<HpccLink> links;
    for (size_t i = 0; i < fat.GetLinks().size(); ++i)
    {
        links.push_back({(i % 3 + 1) * 10000000000ull, double(i + 1) * 1e-7, i % 2 ? 1e-5 : 0});
    }
    ExpectRoundTrip(fat, links);

    // Links added out of port order are written in port order: S0's port 0
    // comes before its port 1, whose link was added first.
    Topology t;
    NodeId s0 = t.AddNode("A", NodeKind::SWITCH, 2);
    NodeId s1 = t.AddNode("B", NodeKind::SWITCH, 2);
    NodeId h0 = t.AddNode("X", NodeKind::HOST, 1);
    NodeId h1 = t.AddNode("Y", NodeKind::HOST, 1);
    t.AddLink(s0, 1, s1, 0);
    t.AddLink(s0, 0, h0, 0);
    t.AddLink(s1, 1, h1, 0);
    std::vector<HpccLink> three = {{1000, 1, 0}, {2000, 2, 0}, {3000, 3, 0}};
    std::ostringstream out;
    WriteHpccTopology(t, three, out);
    EXPECT_EQ(out.str(), "4 2 3\n0 1\n0 2 2Kbps 2s 0\n0 1 1Kbps 1s 0\n1 3 3Kbps 3s 0\n");
    ExpectRoundTrip(t, three);
}

TEST(HpccTopologyTest, WriteRefusesWhatTheFormatCannotHold)
{
    Topology t;
    NodeId a = t.AddNode("A", NodeKind::SWITCH, 2);
    NodeId b = t.AddNode("B", NodeKind::SWITCH, 2);
    t.AddLink(a, 0, b, 1);
    std::vector<HpccLink> one = {{1000, 0, 0}};
    std::ostringstream out;
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { WriteHpccTopology(t, one, out); }),
                          "port 1 of node A is not connected"));
    t.AddLink(a, 1, b, 0); // parallel links crossing: no order numbers both ends
    std::vector<HpccLink> two = {{1000, 0, 0}, {1000, 0, 0}};
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { WriteHpccTopology(t, two, out); }), "no link order"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { WriteHpccTopology(t, one, out); }),
                          "1 link properties for 2 links"));
    std::vector<HpccLink> bad = {{0, 0, 0}, {1000, 0, 0}};
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { WriteHpccTopology(t, bad, out); }), "link 0"));
}

TEST(HpccTopologyTest, BadLinesNamed)
{
    const std::string ok = "0 2 1Gbps 1ms 0\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "topo.txt:1: the file ends before the first line"},
        {"\n\n", "topo.txt:3: the file ends before the first line"},
        {"3 1\n", "topo.txt:1: the first line must be"},
        {"3 1 1 1 1\n", "topo.txt:1: the first line must be"},
        {"x 1 1\n", "topo.txt:1: node count 'x' is not a whole number"},
        {"-3 1 1\n", "topo.txt:1: node count '-3' is negative"},
        {"0 0 0\n", "topo.txt:1: node count '0' is out of range"},
        {"3 4 1\n",
         "topo.txt:1: switch count '4' is out of range: expected a whole number in [0, 3]"},
        {"3 1 9 9\n",
         "topo.txt:1: the first line '3 1 9 9' reads neither as N S T L (ns3-datacenter: "
         "the ToR count 9 is above the switch count 1) nor as N S L T"},
        {"3 1 1 2 5 x\n", "topo.txt:1: capacity C2 'x' is not a whole number"},
        {"3 1 2 1 5 5\n", "topo.txt:1: ToR count '2' is out of range"},
        {"3 1 1\n", "topo.txt:2: the file ends before the line of switch ids"},
        {"3 2 1\n2\n" + ok,
         "topo.txt:2: switch count mismatch: 1 switch ids, the first line says 2"},
        {"3 2 1\n2 2\n" + ok, "topo.txt:2: duplicate switch id 2"},
        {"3 1 1\n3\n" + ok, "topo.txt:2: switch id '3' is out of range"},
        {"3 1 1\n2\n0 2 1Gbps 1ms\n", "topo.txt:3: missing fields: 4 fields, expected 5"},
        {"3 1 1\n2\n0 2 1Gbps 1ms 0 7\n", "topo.txt:3: extra fields: 6 fields, expected 5"},
        {"3 1 1\n2\n0 5 1Gbps 1ms 0\n", "topo.txt:3: dst '5' is out of range"},
        {"\n3 1 1\n2\n0 2 1Gbps 1ms 0\n", "topo.txt:2: node 1 has no link: the node count 3"},
        {"16777216 0 0\n", "topo.txt:1: node 0 has no link"},
        {"3 1 1\n2\n1.5 2 1Gbps 1ms 0\n", "topo.txt:3: src '1.5' is not a whole number"},
        {"3 1 1\n2\n2 2 1Gbps 1ms 0\n", "topo.txt:3: self link: node 2"},
        {"3 1 1\n2\n0 2 fast 1ms 0\n", "topo.txt:3: rate 'fast' is not a number"},
        {"3 1 1\n2\n0 2 1Gbps -1ms 0\n", "topo.txt:3: time '-1ms' is not a number"},
        {"3 1 1\n2\n0 2 1Gbps 1ms 2\n", "topo.txt:3: error rate '2' is not a probability"},
        {"3 1 1\n2\n0 2 1Gbps 1ms x\n", "topo.txt:3: error rate 'x' is not a probability"},
        {"3 1 2\n2\n" + ok,
         "topo.txt:4: the file ends before link 2 of the 2 the first line "
         "announces (link count mismatch)"},
        {"3 1 1\n\n2\n\n0 9 1Gbps 1ms 0\n", "topo.txt:5: dst '9'"},
        {"3 1 1\n2\n" + std::string(kMaxLineBytes + 1, '0') + "\n", "topo.txt:3: line longer"},
    };
    for (const auto& [text, message] : cases)
    {
        std::string err = ErrorOf([&] { ReadTopoText(text); });
        EXPECT_TRUE(HasSubstr(err, message)) << text.substr(0, 80);
        EXPECT_EQ(err.find('\n'), std::string::npos) << err; // one line
    }
    EXPECT_TRUE(HasSubstr(ErrorOf([] { ReadHpccTopologyFile("/nonexistent/topo.txt"); }),
                          "cannot open HPCC topology file '/nonexistent/topo.txt'"));
}

// Fixtures in each layout of the family's first line, written by hand: host
// 0, switches 1..3 in a line, host 4 on switch 3.
const char* const kLinks = "0 1 40Gbps 1us 0\n1 2 40Gbps 1us 0\n2 3 40Gbps 1us 0\n"
                           "3 4 40Gbps 1us 0\n";

TEST(HpccHeaderTest, EveryLayoutReadAndWrittenBack)
{
    struct Case
    {
        std::string first;
        HpccHeader header;
        std::optional<uint32_t> tors;
        std::array<uint64_t, 2> capacities;
    };

    const std::vector<Case> cases = {
        {"5 3 4", HpccHeader::NSL, std::nullopt, {0, 0}}, // HPCC, ConWeave
        {"5 3 2 4", HpccHeader::NSTL, 2, {0, 0}},         // ns3-datacenter
        {"5 3 2 4 25000000000 100000000000", HpccHeader::NSTLCC, 2, {25000000000, 100000000000}},
        {"5 3 4 2", HpccHeader::NSLT, 2, {0, 0}}, // 4 ToRs would be above the 3 switches
    };
    for (const Case& c : cases)
    {
        const std::string text = c.first + "\n1 2 3\n" + kLinks;
        HpccTopology h = ReadTopoText(text);
        EXPECT_EQ(h.header, c.header) << c.first;
        EXPECT_EQ(h.torCount, c.tors) << c.first;
        EXPECT_EQ(h.capacities, c.capacities) << c.first;
        EXPECT_EQ(h.topo.GetSwitches().size(), 3u) << c.first;
        EXPECT_EQ(h.links.size(), 4u) << c.first;
        EXPECT_EQ(h.warning, "") << c.first;
        std::ostringstream out;
        WriteHpccTopology(h, out);
        EXPECT_EQ(out.str(), text) << c.first; // the layout that was read
    }
    EXPECT_EQ(GetHpccHeaderName(HpccHeader::NSTLCC), "N S T L C1 C2");
}

TEST(HpccHeaderTest, FourNumbersThatFitBothDecidedByTheLines)
{
    // "5 3 3 4": N S T L (3 ToRs, 4 links) or N S L T (3 links, 4 ToRs: no,
    // above the 3 switches): one reading.  "5 3 3 2": 3 ToRs and 2 links,
    // or 3 links and 2 ToRs; the lines decide.
    EXPECT_EQ(ReadTopoText(std::string("5 3 3 4\n1 2 3\n") + kLinks).header, HpccHeader::NSTL);
    const std::string threeLinks = "0 1 40Gbps 1us 0\n1 2 40Gbps 1us 0\n1 3 40Gbps 1us 0\n";
    const std::string twoLinks = "0 1 40Gbps 1us 0\n2 3 40Gbps 1us 0\n";
    // N = 4 (host 0, switches 1..3): exactly 3 link lines -> L = 3 (N S L T).
    HpccTopology three = ReadTopoText("4 3 3 2\n1 2 3\n" + threeLinks);
    EXPECT_EQ(three.header, HpccHeader::NSLT);
    EXPECT_EQ(three.links.size(), 3u);
    EXPECT_EQ(three.torCount, 2u);
    // Exactly 2 -> L = 2 (N S T L, 3 ToRs).
    HpccTopology two = ReadTopoText("4 3 3 2\n1 2 3\n" + twoLinks);
    EXPECT_EQ(two.header, HpccHeader::NSTL);
    EXPECT_EQ(two.links.size(), 2u);
    EXPECT_EQ(two.torCount, 3u);
    // 4 link-shaped lines: both readings leave lines over; refused, naming both.
    std::string err = ErrorOf([&] { ReadTopoText("4 3 3 2\n1 2 3\n" + threeLinks + twoLinks); });
    EXPECT_TRUE(HasSubstr(err,
                          "topo.txt:1: the first line reads as N S T L (ns3-datacenter: 3 ToRs, 2 "
                          "links) and as N S L T (3 links, 2 ToRs), and the 5 link lines that "
                          "follow do not tell which"))
        << err;
    // Errors in the link lines keep their line numbers after the decision.
    err = ErrorOf([&] { ReadTopoText("4 3 3 2\n1 2 3\n0 1 40Gbps 1us 0\n2 9 40Gbps 1us 0\n"); });
    EXPECT_TRUE(HasSubstr(err, "topo.txt:4: dst '9' is out of range")) << err;
}

TEST(HpccHeaderTest, LinesAfterTheAnnouncedRecordsIgnoredOrRefused)
{
    // As HPCC's own sample: the announced links, then more link lines and a
    // line describing the format.
    const std::string text = "2 1 1\n1\n0 1 1Gbps 1ms 0\n\n0 1 1Gbps 1ms 0\n"
                             "src1 dst1 rate delay error_rate\n...\n";
    HpccTopology h = ReadTopoText(text);
    EXPECT_EQ(h.links.size(), 1u);
    EXPECT_EQ(h.warning,
              "topo.txt:5: 3 lines after the 1 links the first line announces ignored, as "
              "the HPCC family's simulators ignore them (strict reading refuses them)");
    std::string err = ErrorOf([&] { ReadTopoText(text, true); });
    EXPECT_TRUE(HasSubstr(err,
                          "topo.txt:5: link count mismatch: more lines than the 1 links the "
                          "first line announces (strict"))
        << err;

    HpccTopology net = ReadTopoText("3 1 2\n2\n0 2 1Gbps 1ms 0\n1 2 1Gbps 1ms 0\n");
    const std::string flows = "1\n0 1 3 100 1000 1.0\n1 0 3 100 1000 1.0\n";
    std::string warning = "not set";
    EXPECT_EQ(ReadFlowText(flows, net.topo, false, &warning).size(), 1u);
    EXPECT_EQ(warning,
              "flow.txt:3: 1 line after the 1 flows the first line announces ignored, as the "
              "HPCC family's simulators ignore them (strict reading refuses them)");
    ReadFlowText("1\n0 1 3 100 1000 1.0\n", net.topo, false, &warning);
    EXPECT_EQ(warning, "");
    err = ErrorOf([&] { ReadFlowText(flows, net.topo, true); });
    EXPECT_TRUE(HasSubstr(err, "flow.txt:3: flow count mismatch: more lines than the 1 flows"))
        << err;
}

TEST(HpccFlowTest, FlowsByHandAndRoundTrip)
{
    HpccTopology h = ReadTopoText(kSmall);
    std::vector<HpccFlow> flows =
        ReadFlowText("3\n0 1 3 100 1000000 2.0\n\n2 0 0 65535 1 0.5\n1 2 7 0 64 1e-3\n", h.topo);
    ASSERT_EQ(flows.size(), 3u);
    EXPECT_EQ(flows[0].src, 0u);
    EXPECT_EQ(flows[0].dst, 1u);
    EXPECT_EQ(flows[0].priority, 3u);
    EXPECT_EQ(flows[0].dport, 100u);
    EXPECT_EQ(flows[0].sizeBytes, 1000000u);
    EXPECT_EQ(flows[0].startSeconds, 2.0);
    EXPECT_EQ(flows[1].src, 2u); // file order kept, though not sorted by start time
    EXPECT_EQ(flows[1].dport, 65535u);
    EXPECT_EQ(flows[1].startSeconds, 0.5);
    EXPECT_EQ(flows[2].priority, 7u);
    EXPECT_EQ(flows[2].startSeconds, 1e-3);
    std::ostringstream out;
    WriteHpccFlows(flows, out);
    EXPECT_EQ(out.str(), "3\n0 1 3 100 1000000 2\n2 0 0 65535 1 0.5\n1 2 7 0 64 0.001\n");
    std::vector<HpccFlow> back = ReadFlowText(out.str(), h.topo);
    ASSERT_EQ(back.size(), 3u);
    for (size_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(std::tie(back[i].src,
                           back[i].dst,
                           back[i].priority,
                           back[i].dport,
                           back[i].sizeBytes,
                           back[i].startSeconds),
                  std::tie(flows[i].src,
                           flows[i].dst,
                           flows[i].priority,
                           flows[i].dport,
                           flows[i].sizeBytes,
                           flows[i].startSeconds));
    }
    EXPECT_TRUE(ReadFlowText("0\n", h.topo).empty());
    flows[0].priority = 8;
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { WriteHpccFlows(flows, out); }), "flow 0"));
}

TEST(HpccFlowTest, BadLinesNamed)
{
    HpccTopology h = ReadTopoText("3 1 2\n2\n0 2 1Gbps 1ms 0\n1 2 1Gbps 1ms 0\n");
    const std::string ok = "0 1 3 100 1000 1.0\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "flow.txt:1: the file ends before the first line"},
        {"2 3\n", "flow.txt:1: extra fields"},
        {"x\n", "flow.txt:1: flow count 'x' is not a whole number"},
        // 2^22 + 1 flows: one more than kMaxHpccFlows (about 5 GB of flows).
        {"4194305\n",
         "flow.txt:1: flow count '4194305' is out of range: expected a whole "
         "number in [0, 4194304]"},
        {"1\n0 1 3 100 1000\n", "flow.txt:2: missing fields: 5 fields, expected 6"},
        {"1\n0 2 3 100 1000 1.0\n", "flow.txt:2: node 2 is a switch"},
        {"1\n0 5 3 100 1000 1.0\n",
         "flow.txt:2: dst '5' is out of range: expected a whole number "
         "in [0, 2]"},
        {"1\n1 1 3 100 1000 1.0\n", "flow.txt:2: src and dst are the same host 1"},
        {"1\n0 1 8 100 1000 1.0\n", "flow.txt:2: priority '8' is out of range"},
        {"1\n0 1 3 70000 1000 1.0\n", "flow.txt:2: dport '70000' is out of range"},
        {"1\n0 1 3 100 -5 1.0\n", "flow.txt:2: size '-5' is negative"},
        {"1\n0 1 3 100 0 1.0\n", "flow.txt:2: size '0' is out of range"},
        {"1\n0 1 3 100 1e6 1.0\n", "flow.txt:2: size '1e6' is not a whole number"},
        {"1\n0 1 3 100 1000 -1\n",
         "flow.txt:2: start_time '-1' is not a number of seconds in "
         "[0, 1e9] (negative)"},
        {"1\n0 1 3 100 1000 soon\n", "flow.txt:2: start_time 'soon'"},
        {"2\n" + ok,
         "flow.txt:3: the file ends before flow 2 of the 2 the first line announces "
         "(flow count mismatch)"},
    };
    for (const auto& [text, message] : cases)
    {
        std::string err = ErrorOf([&] { ReadFlowText(text, h.topo); });
        EXPECT_TRUE(HasSubstr(err, message)) << text;
        EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    }
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { ReadHpccFlowFile("/nonexistent/flow.txt", h.topo); }),
                          "cannot open HPCC flow file '/nonexistent/flow.txt'"));
}

TEST(HpccDataTest, ShippedFatTreeAndIncast)
{
    HpccTopology h = ReadHpccTopologyFile(ModuleDataDir() + "/hpcc-fat-tree-k4.txt");
    const Topology& t = h.topo;
    // k = 4: 16 hosts (ids 0..15), 8 edge (16..23), 8 aggregation (24..31), 4 core (32..35).
    ASSERT_EQ(t.GetNNodes(), 36u);
    ASSERT_EQ(t.GetHosts().size(), 16u);
    EXPECT_EQ(t.GetHosts().back(), 15u);
    ASSERT_EQ(t.GetLinks().size(), 48u);
    for (NodeId s = 16; s < 36; ++s)
    {
        EXPECT_EQ(t.GetNode(s).ports, 4u) << s;
    }
    // Edge 16 (pod 0): hosts 0, 1 on ports 0, 1, aggregation 24, 25 on ports 2, 3.
    EXPECT_EQ(PeerOf(t, 16, 0), "H0:0");
    EXPECT_EQ(PeerOf(t, 16, 1), "H1:0");
    EXPECT_EQ(PeerOf(t, 16, 2), "S24:0");
    EXPECT_EQ(PeerOf(t, 16, 3), "S25:0");
    // Aggregation 27 (pod 1, second): edges 18, 19, then cores 34, 35.
    EXPECT_EQ(PeerOf(t, 27, 0), "S18:3");
    EXPECT_EQ(PeerOf(t, 27, 1), "S19:3");
    EXPECT_EQ(PeerOf(t, 27, 2), "S34:1");
    EXPECT_EQ(PeerOf(t, 27, 3), "S35:1");
    // Core 32: the first aggregation switch of pods 0..3, in pod order.
    for (PortNo p = 0; p < 4; ++p)
    {
        EXPECT_EQ(PeerOf(t, 32, p), "S" + std::to_string(24 + 2 * p) + ":2");
    }
    EXPECT_TRUE(t.IsConnected());
    for (const HpccLink& l : h.links)
    {
        EXPECT_EQ(l.rateBps, 40000000000u);
        EXPECT_DOUBLE_EQ(l.delaySeconds, 1e-6);
        EXPECT_EQ(l.errorRate, 0.0);
    }
    ExpectRoundTrip(t, h.links);

    std::vector<HpccFlow> flows = ReadHpccFlowFile(ModuleDataDir() + "/hpcc-incast-flows.txt", t);
    ASSERT_EQ(flows.size(), 15u);
    for (size_t i = 0; i < flows.size(); ++i)
    {
        EXPECT_EQ(flows[i].src, i + 1);
        EXPECT_EQ(flows[i].dst, 0u);
        EXPECT_EQ(flows[i].priority, 3u);
        EXPECT_EQ(flows[i].sizeBytes, 10000000u);
        EXPECT_EQ(flows[i].startSeconds, 2.0);
    }
}

// ---------------------------------------------------------------------------
// Config files (tagger-io-hpcc-config.h)
// ---------------------------------------------------------------------------

namespace
{

/// \param text a config file's text \return it read, as "cfg"
HpccConfig
Config(const std::string& text)
{
    std::istringstream in(text);
    return HpccConfig(in, "cfg");
}

} // namespace

TEST(HpccConfigTest, ValuesByHand)
{
    HpccConfig c = Config("ENABLE_QCN 1\n"
                          "\n"
                          "RP_TIMER 900 \n"
                          "EWMA_GAIN 0.00390625\n"
                          "RATE_AI 40Mb/s\n"
                          "MIN_RATE 1Gbps\n"
                          "FLOW_FILE mix/flow.txt\n"
                          "KMIN_MAP 3 25000000000 100 50Gb/s 200 100000000000 400\n"
                          "LINK_DOWN 5 1 2\n"
                          "SOME_NEW_KEY a b c\n");
    ASSERT_EQ(c.GetLines().size(), 9u);
    EXPECT_EQ(c.GetLines()[1].key, "RP_TIMER");
    EXPECT_EQ(c.GetLines()[1].line, 3u);
    EXPECT_EQ(c.GetUnsigned("ENABLE_QCN", 0, 1), 1u);
    EXPECT_DOUBLE_EQ(c.GetNumber("RP_TIMER", 0, 1e6), 900);
    EXPECT_DOUBLE_EQ(c.GetNumber("EWMA_GAIN", 0, 1), 1.0 / 256);
    EXPECT_EQ(c.GetRate("RATE_AI"), 40000000u);
    EXPECT_EQ(c.GetRate("MIN_RATE"), 1000000000u);
    EXPECT_EQ(c.GetString("FLOW_FILE"), "mix/flow.txt");
    std::vector<std::pair<uint64_t, double>> kmin = c.GetRateMap("KMIN_MAP", 0, 1e6);
    ASSERT_EQ(kmin.size(), 3u);
    EXPECT_EQ(kmin[0], std::make_pair(uint64_t(25000000000), 100.0));
    EXPECT_EQ(kmin[1], std::make_pair(uint64_t(50000000000), 200.0));
    EXPECT_EQ(kmin[2], std::make_pair(uint64_t(100000000000), 400.0));
    EXPECT_EQ(c.GetUnsignedList("LINK_DOWN", 3), (std::vector<uint64_t>{5, 1, 2}));
    EXPECT_TRUE(c.Has("SOME_NEW_KEY"));
    EXPECT_FALSE(c.Has("CC_MODE"));
    EXPECT_EQ(c.Where("LINK_DOWN"), "cfg:9: LINK_DOWN");
    EXPECT_EQ(c.GetWarning(), "");
}

TEST(HpccConfigTest, RepeatedKeyLastWinsWithAWarning)
{
    HpccConfig c = Config("CC_MODE 3\nRP_TIMER 55\nCC_MODE 1\n");
    ASSERT_EQ(c.GetLines().size(), 2u);
    EXPECT_EQ(c.GetUnsigned("CC_MODE", 0, 100), 1u);
    EXPECT_EQ(c.Where("CC_MODE"), "cfg:3: CC_MODE");
    EXPECT_TRUE(HasSubstr(c.GetWarning(), "cfg:3: CC_MODE repeats line 1"));
}

TEST(HpccConfigTest, BadValuesNamed)
{
    EXPECT_TRUE(
        HasSubstr(ErrorOf([] { Config("RP_TIMER 55\n12 34\n"); }), "cfg:2: '12' is not a KEY"));
    EXPECT_TRUE(HasSubstr(ErrorOf([] { Config("rp_timer 55\n"); }), "cfg:1: 'rp_timer'"));
    HpccConfig c = Config("RP_TIMER abc\n"
                          "EWMA_GAIN 2\n"
                          "BUFFER_SIZE 1 2\n"
                          "RATE_AI fast\n"
                          "KMAX_MAP 2 40000000000 200\n"
                          "PMAX_MAP 2 40000000000 0.1 40Gbps 0.2\n"
                          "LINK_DOWN 1 x 2\n"
                          "HAS_WIN 99999999999999999999999\n"
                          "KMIN_MAP 1 40000000000 -5\n");
    EXPECT_EQ(ErrorOf([&] { c.GetNumber("RP_TIMER", 0, 10); }),
              "cfg:1: RP_TIMER: 'abc' is not a number in [0, 10]");
    EXPECT_EQ(ErrorOf([&] { c.GetNumber("EWMA_GAIN", 0, 1); }),
              "cfg:2: EWMA_GAIN: '2' is not a number in [0, 1]");
    EXPECT_EQ(ErrorOf([&] { c.GetUnsigned("BUFFER_SIZE", 1, 100); }),
              "cfg:3: BUFFER_SIZE: expected 1 value, found 2");
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { c.GetRate("RATE_AI"); }), "cfg:4: RATE_AI: rate 'fast'"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { c.GetRateMap("KMAX_MAP", 0, 1e6); }),
                          "cfg:5: KMAX_MAP: expected a count n >= 1 and n (link rate, value) "
                          "pairs, found 3 values"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { c.GetRateMap("PMAX_MAP", 0, 1); }),
                          "cfg:6: PMAX_MAP: pair 2: rate 40Gbps is given twice"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { c.GetUnsignedList("LINK_DOWN", 3); }),
                          "cfg:7: LINK_DOWN: 'x' is not a whole number"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { c.GetUnsigned("HAS_WIN", 0, ~uint64_t(0)); }),
                          "cfg:8: HAS_WIN: '99999999999999999999999' is not a whole number"));
    EXPECT_TRUE(HasSubstr(ErrorOf([&] { c.GetRateMap("KMIN_MAP", 0, 1e6); }),
                          "cfg:9: KMIN_MAP: pair 1: '-5' is not a number in [0, 1e+06]"));
    EXPECT_EQ(ErrorOf([&] { c.GetString("CC_MODE"); }), "cfg: no CC_MODE line");
    EXPECT_TRUE(HasSubstr(ErrorOf([] { HpccConfig::ReadFile("/nonexistent/config.txt"); }),
                          "cannot open HPCC config file '/nonexistent/config.txt'"));
}

TEST(HpccConfigTest, CcModeNames)
{
    EXPECT_EQ(GetHpccCcModeName(1), "DCQCN");
    EXPECT_EQ(GetHpccCcModeName(3), "HPCC");
    EXPECT_EQ(GetHpccCcModeName(7), "TIMELY");
    EXPECT_EQ(GetHpccCcModeName(8), "DCTCP");
    EXPECT_EQ(GetHpccCcModeName(10), "HPCC-PINT");
    EXPECT_EQ(GetHpccCcModeName(2), "");
}
