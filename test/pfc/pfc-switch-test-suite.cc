/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-pfc-switch" (./test.py -s tagger-pfc-switch):
 * network-level tests of the PFC switch.  Defined here: seeded incasts over
 * a leaf-spine (no lossless drop, conservation, buffers back to zero),
 * headroom too small (lossless drops), a lossy class (lossy drops, no
 * PAUSE), and a RESUME that waits for the packet leaving by its port.  TTL
 * and routing drops, ECMP spreading and a PFC deadlock on a ring of four
 * switches found by the deadlock oracle are in pfc-switch-routing-test.cc;
 * TTL classes sharing a PAUSE class and the TTL of a relay server's own
 * packets in pfc-switch-ttl-test.cc; the traffic and topologies these three
 * files share in pfc-switch-test-util.h.  Plus the relay server of
 * pfc-relay-test.cc and the data-plane fuzz in plain PFC mode (it deadlocks,
 * see tagger-dataplane-fuzz-test.cc).
 *
 * Traffic uses UDP sockets directly (the module does not depend on ns-3's
 * applications module): a paced sender per flow and a counting sink per
 * destination host.
 */

#include "pfc-switch-test-util.h"
#include "pfc-test-util.h"

#include "ns3/boolean.h"
#include "ns3/ipv4.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/pfc-deadlock-oracle.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-helper.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/tagger-topology.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::tagger::test;

namespace
{

// ---------------------------------------------------------------------------
// The incast (tests 1-3)
// ---------------------------------------------------------------------------

/// Headroom of the PFC buffer background at 40 Gbps, by hand: 2 (C * Dprop + L_MTU) + 3840 B.
/// \param delayNs the propagation delay (ns) \return eta in bytes
uint64_t
HandHeadroom(uint64_t delayNs)
{
    return 2 * (kBytesPerNs * delayNs + 1500) + 3840;
}

/// Leaf-spine of the incasts: 4 leaves x 9 hosts, 2 spines, 40 Gbps.
constexpr uint32_t kIncastLeaves = 4;
constexpr uint32_t kIncastSpines = 2;       //!< spines
constexpr uint32_t kIncastHostsPerLeaf = 9; //!< hosts per leaf
/// Shared buffer Bs of every switch in the incasts (BufferSize is sized per switch for it).
constexpr uint64_t kIncastShared = 64 * 1024;

/// One incast: hosts chosen at random send to host 0.
struct IncastParams
{
    uint32_t run = 1;                    //!< RngRun
    uint32_t senders = 8;                //!< N
    uint64_t minFlowBytes = 20000;       //!< per sender, uniform in [min, max]
    uint64_t maxFlowBytes = 100000;      //!< per sender
    uint8_t cls = kLosslessClass;        //!< the flows' class
    uint64_t fixedHeadroom = 0;          //!< HeadroomMode Fixed with this eta (0: FixedResponse)
    uint64_t lossyPoolSize = 128 * 1024; //!< LossyPoolSize
};

/// What an incast did.
struct IncastOutcome
{
    uint64_t sent = 0;                               //!< packets the sockets accepted
    uint64_t sendErrors = 0;                         //!< packets the sockets refused
    uint64_t delivered = 0;                          //!< packets host 0 received
    uint64_t drops = 0;                              //!< data-plane drops, every reason
    uint64_t tcDrops = 0;                            //!< host traffic-control drops
    uint64_t losslessDrops = 0;                      //!< LOSSLESS_OVERFLOW
    uint64_t lossyDrops = 0;                         //!< LOSSY_OVERFLOW
    uint64_t pauses = 0;                             //!< PAUSE decisions of all MMUs
    std::array<uint64_t, kPfcClasses> pauseFrames{}; //!< PFC frames sent pausing each class
    bool deadlock = false;                           //!< the oracle saw a cycle
    uint64_t losslessBytes = 0;                      //!< lossless bytes still held (all MMUs)
    uint64_t lossyBytes = 0;                         //!< lossy bytes still held (all MMUs)
    uint32_t busyIngressQueues = 0;                  //!< ingress queues with bytes after the drain
    uint32_t offIngressQueues = 0;                   //!< ingress queues still OFF after the drain
    uint32_t busyLossyQueues = 0;  //!< lossy egress queues with bytes after the drain
    uint64_t portQueueBytes = 0;   //!< bytes still in switch port queues
    uint32_t wrongSharedPools = 0; //!< switches whose Bs is not kIncastShared
    uint64_t totalFrameBytes = 0;  //!< frame bytes of all the flows
    uint64_t noPauseBound = 0;     //!< frame bytes the network can take without any PAUSE
};

/// Counts PFC frames that pause each class (trace sink of PfcNetDevice PfcTx).
struct PfcFrameCounter
{
    std::array<uint64_t, kPfcClasses> pausing{}; //!< per class

    /// \param pfc a PFC frame sent
    void Tx(const PfcHeader& pfc)
    {
        for (uint8_t c = 0; c < kPfcClasses; ++c)
        {
            if (pfc.IsClassEnabled(c) && pfc.GetQuanta(c) > 0)
            {
                ++pausing[c];
            }
        }
    }
};

/**
 * Run one incast to completion and collect its outcome.
 *
 * Network: LeafSpine(4, 2, 9) at 40 Gbps, each link's delay drawn in
 * [500, 5000] ns (set on the channels after Build; the MMUs read them at
 * start).  MMU: class 3 the only lossless class, Dynamic threshold (Alpha
 * 0.125, phi 3072 B), and BufferSize set per switch to LossyPoolSize + sum
 * over its ports of (phi + eta_port) + 64 KiB, so that every switch has
 * Bs = 64 KiB: a shallow buffer that makes PFC work hard.
 *
 * Traffic: N hosts drawn from 1..35 each send one flow of a size drawn in
 * [min, max] (whole 1000 B packets) to host 0, starting in the first 10 us,
 * at 40 Gbps.  The simulation runs 3 ms, far beyond the drain time (3.2 MB
 * at 40 Gbps is 0.64 ms).
 *
 * \param p the parameters \return the outcome
 */
IncastOutcome
RunIncast(const IncastParams& p)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(p.run);
    Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();

    LeafSpine ls(kIncastLeaves, kIncastSpines, kIncastHostsPerLeaf);
    PfcTopologyHelper net(ls.topo);
    PfcHelper& pfc = net.GetPfcHelper();
    pfc.SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    pfc.SetMmuAttribute("LosslessClasses", UintegerValue(kLosslessMask));
    pfc.SetMmuAttribute("LossyPoolSize", UintegerValue(p.lossyPoolSize));
    if (p.fixedHeadroom > 0)
    {
        pfc.SetMmuAttribute("HeadroomMode", StringValue("Fixed"));
        pfc.SetMmuAttribute("Headroom", UintegerValue(p.fixedHeadroom));
    }
    net.Build();

    // Mixed link delays, and the BufferSize that leaves Bs = 64 KiB on each switch.
    const tagger::Topology& topo = net.GetTopology();
    std::map<std::pair<tagger::NodeId, tagger::NodeId>, uint64_t> delayNs;
    std::map<tagger::NodeId, uint64_t> reserved; // per switch: sum of (phi + eta)
    for (const tagger::TopoLink& link : topo.GetLinks())
    {
        uint64_t d = rng->GetInteger(500, 5000);
        net.GetChannel(link.a.node, link.b.node)->SetAttribute("Delay", TimeValue(NanoSeconds(d)));
        delayNs[{link.a.node, link.b.node}] = d;
        delayNs[{link.b.node, link.a.node}] = d;
        uint64_t eta = p.fixedHeadroom > 0 ? p.fixedHeadroom : HandHeadroom(d);
        for (tagger::NodeId v : {link.a.node, link.b.node})
        {
            if (net.GetSwitch(v))
            {
                reserved[v] += kPhi + eta;
            }
        }
    }
    for (const auto& [v, bytes] : reserved)
    {
        net.GetSwitch(v)->GetMmu()->SetAttribute(
            "BufferSize",
            UintegerValue(p.lossyPoolSize + bytes + kIncastShared));
    }

    // N distinct senders among hosts 1..35, flow sizes, start times.
    const uint32_t nHosts = net.GetNHosts();
    std::vector<uint32_t> candidates;
    for (uint32_t h = 1; h < nHosts; ++h)
    {
        candidates.push_back(h);
    }
    for (uint32_t i = 0; i < p.senders; ++i) // partial Fisher-Yates
    {
        uint32_t j = rng->GetInteger(i, candidates.size() - 1);
        std::swap(candidates[i], candidates[j]);
    }
    Traffic traffic(net);
    IncastOutcome out;
    uint64_t lastNs = 0; // when the last NIC would finish if no host were ever paused
    std::set<uint32_t> senderLeaves;
    uint64_t wireBytes = 0; // bytes that can be on the wires of the flows' links
    for (uint32_t i = 0; i < p.senders; ++i)
    {
        uint32_t host = candidates[i];
        FlowSpec f;
        f.cls = p.cls;
        f.bytes = kPayload * rng->GetInteger(p.minFlowBytes / kPayload, p.maxFlowBytes / kPayload);
        uint64_t startNs = rng->GetInteger(0, 10000);
        f.start = NanoSeconds(startNs);
        traffic.AddFlow(host, 0, f);
        uint64_t packets = f.bytes / kPayload;
        out.totalFrameBytes += packets * kFrame;
        // A host NIC sends back to back (the sender paces at 200 ns, a frame takes
        // 1066 B / 5 B/ns = 213.2 ns on the wire), so unpaused it ends at
        // start + packets * 213.2 ns.
        lastNs = std::max<uint64_t>(lastNs, startNs + (packets * kWireFrame + 4) / kBytesPerNs);
        uint32_t leaf = host / kIncastHostsPerLeaf;
        senderLeaves.insert(leaf);
        tagger::NodeId hostId = topo.GetPeer(ls.leaves[leaf], host % kIncastHostsPerLeaf).node;
        wireBytes += kBytesPerNs * delayNs[{hostId, ls.leaves[leaf]}] + kWireFrame;
    }
    // Links the incast uses besides the senders' own: uplinks of remote sender
    // leaves, spine -> leaf 0, leaf 0 -> host 0.
    bool remote = false;
    for (uint32_t leaf : senderLeaves)
    {
        if (leaf == 0)
        {
            continue;
        }
        remote = true;
        for (tagger::NodeId s : ls.spines)
        {
            wireBytes += kBytesPerNs * delayNs[{ls.leaves[leaf], s}] + kWireFrame;
        }
    }
    if (remote)
    {
        for (tagger::NodeId s : ls.spines)
        {
            wireBytes += kBytesPerNs * delayNs[{s, ls.leaves[0]}] + kWireFrame;
        }
    }
    tagger::NodeId host0 = topo.GetPeer(ls.leaves[0], 0).node;
    wireBytes += kBytesPerNs * delayNs[{ls.leaves[0], host0}] + kWireFrame;
    // Without any PAUSE, at the time lastNs every frame has left its host and is
    // (a) delivered: at most 5 B/ns * lastNs through host 0's 40 Gbps link,
    // (b) on a wire: at most wireBytes, or
    // (c) in a switch: an ingress queue takes a frame into its private segment
    //     only below phi, and into the shared one only while T = Alpha (Bs - sum w)
    //     > 0, i.e. sum w < Bs; headroom is used only after a PAUSE.  So a switch
    //     with k ports holds at most k (phi + frame) + Bs + frame:
    //     leaf (k = 11): 11 * 4114 + 65536 + 1042 = 111832 B,
    //     spine (k = 4):  4 * 4114 + 65536 + 1042 =  83034 B; all: 4 * 111832 + 2 * 83034.
    const uint64_t leafMax =
        (kIncastHostsPerLeaf + kIncastSpines) * (kPhi + kFrame) + kIncastShared + kFrame;
    const uint64_t spineMax = kIncastLeaves * (kPhi + kFrame) + kIncastShared + kFrame;
    out.noPauseBound =
        kIncastLeaves * leafMax + kIncastSpines * spineMax + wireBytes + kBytesPerNs * lastNs;

    Ptr<PfcDeadlockOracle> oracle = CreateObject<PfcDeadlockOracle>();
    oracle->AddSwitches(net.GetSwitches());
    const Time stop = MilliSeconds(3);
    oracle->Start(MicroSeconds(10), stop);

    PfcFrameCounter pfcFrames;
    NodeContainer switches = net.GetSwitches();
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<PfcSwitchNetDevice> sw = PfcHelper::GetSwitch(switches.Get(i));
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            sw->GetPort(port)->TraceConnectWithoutContext(
                "PfcTx",
                MakeCallback(&PfcFrameCounter::Tx, &pfcFrames));
        }
    }

    Simulator::Stop(stop);
    Simulator::Run();

    out.sent = traffic.GetSent();
    out.sendErrors = traffic.GetSendErrors();
    out.delivered = traffic.GetReceived();
    out.drops = PfcStatsHelper(net).GetDropCount();
    out.tcDrops = PfcStatsHelper(net).GetTrafficControlDrops();
    out.losslessDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW);
    out.lossyDrops = PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSY_OVERFLOW);
    out.pauses = PfcStatsHelper(net).GetPauseCount();
    out.pauseFrames = pfcFrames.pausing;
    out.deadlock = oracle->HasDeadlock();
    out.losslessBytes = PfcStatsHelper(net).GetLosslessBytes();
    out.lossyBytes = PfcStatsHelper(net).GetLossyBytes();
    for (uint32_t i = 0; i < switches.GetN(); ++i)
    {
        Ptr<PfcSwitchNetDevice> sw = PfcHelper::GetSwitch(switches.Get(i));
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        out.wrongSharedPools += mmu->GetSharedPoolSize() != kIncastShared ? 1 : 0;
        for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
        {
            for (uint8_t c = 0; c < kPfcClasses; ++c)
            {
                out.busyIngressQueues += mmu->GetIngressBytes(port, c) != 0 ? 1 : 0;
                out.offIngressQueues += mmu->IsOff(port, c) ? 1 : 0;
                out.busyLossyQueues += mmu->GetLossyBytes(port, c) != 0 ? 1 : 0;
                out.portQueueBytes += sw->GetPort(port)->GetQueueBytes(c);
            }
        }
    }
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup tagger-tests
 * Base of the incast tests: the checks every incast must pass.
 */
class IncastTestCaseBase : public TestCase
{
  protected:
    /// \param name the test's name
    explicit IncastTestCaseBase(std::string name)
        : TestCase(name)
    {
    }

    /**
     * Conservation and a drained network: sent = delivered + dropped, no
     * socket refused a packet, every MMU counter and port queue back to zero.
     * \param o the outcome \param what the run, for messages
     */
    void CheckConservedAndDrained(const IncastOutcome& o, const std::string& what)
    {
        NS_TEST_EXPECT_MSG_EQ(o.sendErrors, 0, what << ": a socket refused a packet");
        NS_TEST_EXPECT_MSG_GT(o.sent, 0, what << ": nothing sent");
        NS_TEST_EXPECT_MSG_EQ(o.sent,
                              o.delivered + o.drops + o.tcDrops,
                              what << ": sent != delivered " << o.delivered << " + dropped "
                                   << o.drops << " + traffic-control dropped " << o.tcDrops);
        NS_TEST_EXPECT_MSG_EQ(o.losslessBytes, 0, what << ": lossless bytes left in the MMUs");
        NS_TEST_EXPECT_MSG_EQ(o.lossyBytes, 0, what << ": lossy bytes left in the MMUs");
        NS_TEST_EXPECT_MSG_EQ(o.busyIngressQueues, 0, what << ": ingress queues not empty");
        NS_TEST_EXPECT_MSG_EQ(o.offIngressQueues, 0, what << ": ingress queues still OFF");
        NS_TEST_EXPECT_MSG_EQ(o.busyLossyQueues, 0, what << ": lossy egress queues not empty");
        NS_TEST_EXPECT_MSG_EQ(o.portQueueBytes, 0, what << ": bytes left in port queues");
        NS_TEST_EXPECT_MSG_EQ(o.wrongSharedPools,
                              0,
                              what << ": a switch's Bs is not the 64 KiB its BufferSize was "
                                      "sized for (headroom not computed from the link delay "
                                      "set after Build?)");
    }
};

// ---------------------------------------------------------------------------
// Test 1: seeded incasts, no lossless drop
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * 50 seeded incasts (runs 1..50, N = 2 + (run - 1) mod 31 senders, so every N
 * in 2..32 occurs) with mixed link delays and the FixedResponse headroom computed
 * from each link: no LOSSLESS_OVERFLOW drop, no deadlock, conservation and a
 * drained network in every run; every run whose flows exceed the no-PAUSE
 * bound of RunIncast pauses, and at least 10 runs are that large.
 */
class IncastLosslessTestCase : public IncastTestCaseBase
{
  public:
    IncastLosslessTestCase()
        : IncastTestCaseBase("PFC incast: 50 seeded leaf-spine incasts, mixed delays, no "
                             "lossless drop, conservation, buffers drain")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t mustPause = 0;
        for (uint32_t run = 1; run <= 50; ++run)
        {
            IncastParams p;
            p.run = run;
            p.senders = 2 + (run - 1) % 31;
            IncastOutcome o = RunIncast(p);
            std::string what =
                "run " + std::to_string(run) + " (" + std::to_string(p.senders) + " senders)";
            NS_TEST_EXPECT_MSG_EQ(o.losslessDrops, 0, what << ": lossless drops");
            NS_TEST_EXPECT_MSG_EQ(o.drops, 0, what << ": drops of any reason");
            NS_TEST_EXPECT_MSG_EQ(o.deadlock, false, what << ": the oracle saw a deadlock");
            CheckConservedAndDrained(o, what);
            if (o.totalFrameBytes > o.noPauseBound)
            {
                ++mustPause;
                NS_TEST_EXPECT_MSG_GT(o.pauses,
                                      0,
                                      what << ": " << o.totalFrameBytes << " B exceed the "
                                           << o.noPauseBound
                                           << " B the network holds without PAUSE");
                NS_TEST_EXPECT_MSG_GT(o.pauseFrames[kLosslessClass],
                                      0,
                                      what << ": no PFC frame paused class 3");
            }
        }
        NS_TEST_EXPECT_MSG_GT_OR_EQ(mustPause, 10, "too few incasts large enough to need PFC");
    }
};

// ---------------------------------------------------------------------------
// Test 2: headroom far below eta
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * The incast of test 1 with 32 senders of 100 KB each and HeadroomMode Fixed,
 * Headroom 2000 B, against an FixedResponse eta of at least
 * 2 (5 B/ns * 500 ns + 1500) + 3840 = 11840 B per port: after a PAUSE the
 * upstream keeps sending for at least the PFC processing time (3840 B at
 * 40 Gbps) plus a round trip, so a queue that takes more than 2000 B after
 * its PAUSE drops.  32 * 100 frames * 1042 B = 3.33 MB exceed the no-PAUSE
 * bound, so queues do pause.  Expect LOSSLESS_OVERFLOW > 0, and conservation.
 */
class IncastSmallHeadroomTestCase : public IncastTestCaseBase
{
  public:
    IncastSmallHeadroomTestCase()
        : IncastTestCaseBase("PFC incast: fixed headroom of 2000 B (far below eta) drops "
                             "lossless packets, conservation holds")
    {
    }

  private:
    void DoRun() override
    {
        IncastParams p;
        p.run = 7;
        p.senders = 32;
        p.minFlowBytes = 100000;
        p.maxFlowBytes = 100000;
        p.fixedHeadroom = 2000;
        IncastOutcome o = RunIncast(p);
        NS_TEST_EXPECT_MSG_GT(o.totalFrameBytes, o.noPauseBound, "the incast is too small");
        NS_TEST_EXPECT_MSG_GT(o.pauses, 0, "no PAUSE");
        NS_TEST_EXPECT_MSG_GT(o.losslessDrops, 0, "2000 B of headroom dropped nothing");
        NS_TEST_EXPECT_MSG_EQ(o.drops, o.losslessDrops, "drops other than lossless overflow");
        CheckConservedAndDrained(o, "headroom 2000 B");
    }
};

// ---------------------------------------------------------------------------
// Test 3: a lossy class
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * The incast with class 0 (lossy: LosslessClasses 0x08) and LossyPoolSize
 * 32 KiB: 32 senders x 100 frames x 1042 B = 3.33 MB.  Lossy traffic is never
 * paused, so without a drop every frame is, when the last NIC finishes
 * (< 10 us + 100 * 213.2 ns = 31.4 us), delivered (< 5 B/ns * 31.4 us =
 * 157 KB), on a wire (< 41 links * (25000 + 1066) B = 1.07 MB) or in a lossy
 * pool (6 switches * 32 KiB = 197 KB): 1.42 MB in all, less than 3.33 MB, so
 * LOSSY_OVERFLOW > 0.  No PAUSE decision, no PFC frame for class 0.
 */
class IncastLossyTestCase : public IncastTestCaseBase
{
  public:
    IncastLossyTestCase()
        : IncastTestCaseBase("PFC incast: lossy class 0 with a 32 KiB lossy pool drops "
                             "(lossy overflow), never pauses, conservation holds")
    {
    }

  private:
    void DoRun() override
    {
        IncastParams p;
        p.run = 3;
        p.senders = 32;
        p.minFlowBytes = 100000;
        p.maxFlowBytes = 100000;
        p.cls = 0;
        p.lossyPoolSize = 32 * 1024;
        IncastOutcome o = RunIncast(p);
        NS_TEST_EXPECT_MSG_GT(o.lossyDrops, 0, "no lossy overflow");
        NS_TEST_EXPECT_MSG_EQ(o.losslessDrops, 0, "lossless overflow of a lossy class");
        NS_TEST_EXPECT_MSG_EQ(o.drops, o.lossyDrops, "drops other than lossy overflow");
        NS_TEST_EXPECT_MSG_EQ(o.pauses, 0, "a PAUSE decision for lossy traffic");
        NS_TEST_EXPECT_MSG_EQ(o.pauseFrames[0], 0, "a PFC frame paused class 0");
        uint64_t anyPause = 0;
        for (uint64_t n : o.pauseFrames)
        {
            anyPause += n;
        }
        NS_TEST_EXPECT_MSG_EQ(anyPause, 0, "a PFC frame paused some class");
        NS_TEST_EXPECT_MSG_EQ(o.deadlock, false, "deadlock");
        CheckConservedAndDrained(o, "lossy class 0");
    }
};

// ---------------------------------------------------------------------------
// Tests 7 and 8: a RESUME out of the port a packet is leaving by; transmit
// timing without a transmit-done event per frame
// ---------------------------------------------------------------------------

/**
 * Build the one-leaf network of three hosts (H1..H3 on L1) with 40 Gbps
 * links of 1 us and static PFC thresholds: Xoff 20 KB, Xon 10 KB.
 * \param net the helper, on tagger::MakeLeafSpine(1, 1, 3)
 */
void
BuildStaticXoffLeaf(PfcTopologyHelper& net)
{
    net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("40Gbps"));
    net.GetPfcHelper().SetChannelAttribute("Delay", StringValue("1us"));
    net.GetPfcHelper().SetMmuAttribute("ThresholdMode", StringValue("Static"));
    net.GetPfcHelper().SetMmuAttribute("StaticXoff", UintegerValue(20000));
    net.GetPfcHelper().SetMmuAttribute("StaticXon", UintegerValue(10000));
    net.Build();
}

/**
 * \ingroup tagger-tests
 * Regression: a switch forwarding a packet out of the port it came in on
 * (a bad route, a routing loop) releases that port's ingress buffer when
 * the packet leaves; when that release ends a PAUSE, the RESUME goes out of
 * the very port that is just starting the packet.  It must wait for the
 * packet (once re-entered, the device put both frames on the wire at once).
 * One leaf L1 with H1, H2, H3 (MakeLeafSpine(1, 1, 3)); L1 routes H3 back to
 * H1 (whose IP stack drops what is not its own); H1 and H2 send to H3 at
 * 40 Gbps, so 80 Gbps meet at L1's port to H1: L1 pauses both (static Xoff
 * 20 KB) and resumes them (Xon 10 KB) as the port drains - H1's packets
 * release H1's ingress queue while leaving by H1's port.  Expected: PAUSE
 * and RESUME frames go to H1, and that port never starts a frame while one
 * is on the wire.
 */
class SamePortResumeTestCase : public TestCase
{
  public:
    SamePortResumeTestCase()
        : TestCase("PFC switch: a RESUME for the port a packet is leaving by waits for it")
    {
    }

  private:
    /// PhyTxBegin. \param p the frame
    void TxBegin(Ptr<const Packet> p)
    {
        m_overlaps += m_onWire ? 1 : 0;
        m_onWire = true;
        ++m_frames;
    }

    /// PhyTxEnd. \param p the frame
    void TxEnd(Ptr<const Packet> p)
    {
        m_onWire = false;
    }

    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeLeafSpine(1, 1, 3);
        PfcTopologyHelper net(topo);
        BuildStaticXoffLeaf(net);
        const uint32_t h1 = 0;
        const uint32_t h2 = 1;
        const uint32_t h3 = 2;
        net.GetRouteHelper().SetRoute("L1", h3, "H1");
        net.GetHost(h1)->GetObject<Ipv4>()->SetAttribute("IpForward", BooleanValue(false));

        tagger::NodeId l1 = net.GetNodeId("L1");
        tagger::NodeId hostH1 = net.GetNodeId("H1");
        Ptr<PfcNetDevice> port = net.GetDevice(l1, topo.GetPortTo(l1, hostH1));
        NS_TEST_ASSERT_MSG_NE(port, nullptr, "L1's port to H1");
        m_onWire = false;
        m_overlaps = 0;
        m_frames = 0;
        port->TraceConnectWithoutContext("PhyTxBegin",
                                         MakeCallback(&SamePortResumeTestCase::TxBegin, this));
        port->TraceConnectWithoutContext("PhyTxEnd",
                                         MakeCallback(&SamePortResumeTestCase::TxEnd, this));

        RdmaHelper rdma;
        rdma.Install(net);
        rdma.AddFlow(h1, h3, 10000000, MicroSeconds(1));
        rdma.AddFlow(h2, h3, 10000000, MicroSeconds(1));
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();

        // 300 us at 40 Gbps: about 1380 frames of ~1080 B out of the port.
        NS_TEST_EXPECT_MSG_GT(m_frames, 1000u, "the port to H1 is busy");
        NS_TEST_EXPECT_MSG_GT(port->GetPauseTxFrames(), 0u, "L1 pauses H1");
        NS_TEST_EXPECT_MSG_GT(port->GetResumeTxFrames(), 0u, "L1 resumes H1");
        NS_TEST_EXPECT_MSG_EQ(m_overlaps, 0u, "a frame started while another was on the wire");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(net).GetDropCount(PfcDropReason::LOSSLESS_OVERFLOW),
                              0u,
                              "lossless");
        Simulator::Destroy();
    }

    bool m_onWire;       //!< a frame is on the wire
    uint32_t m_overlaps; //!< frames started while another was on the wire
    uint32_t m_frames;   //!< frames started
};

/**
 * Transmit timing without a transmit-done event per frame: a switch port
 * schedules none for a frame that nothing waits behind (PfcNetDevice::WireBusy).
 * H1 and H2 send RoCE flows to H3 through L1 (40 Gbps, 1 us); L1 pauses them
 * (static Xoff 20 KB).  Only PhyTxBegin and PhyRxEnd are traced (a PhyTxEnd
 * sink would make the port schedule the event for every frame).  Expected,
 * by hand: a frame's wire time is (max(bytes + 4, 64) + 20) x 8 bits at
 * 40 Gbps, rounded to the ns; the port to H3 is work-conserving and FIFO
 * (one class): frame i starts at max(its arrival at L1, the end of frame
 * i - 1); the port to H1 (ACKs, PAUSE and RESUME frames, mostly idle) never
 * starts a frame before the previous one ended.
 */
class DeferredTxDoneTestCase : public TestCase
{
  public:
    DeferredTxDoneTestCase()
        : TestCase("PFC switch: frames start when the wire frees, with transmit-done events "
                   "only where a frame waits")
    {
    }

  private:
    /// A frame seen by a trace.
    struct Seen
    {
        Time at;        //!< when
        uint32_t bytes; //!< frame bytes (Ethernet header on, no FCS)
    };

    /// \param log where \param p the frame
    static void Record(std::vector<Seen>* log, Ptr<const Packet> p)
    {
        log->push_back({Simulator::Now(), p->GetSize()});
    }

    /// \param bytes frame bytes \return its wire time at 40 Gbps, by hand (5 bytes a ns)
    static Time Wire(uint32_t bytes)
    {
        uint64_t wire = std::max<uint64_t>(bytes + 4, 64) + 20;
        return NanoSeconds((wire + 2) / 5); // rounded to the nearest ns
    }

    void DoRun() override
    {
        tagger::Topology topo = tagger::MakeLeafSpine(1, 1, 3);
        PfcTopologyHelper net(topo);
        BuildStaticXoffLeaf(net);
        tagger::NodeId l1 = net.GetNodeId("L1");
        auto port = [&](const std::string& host) {
            return net.GetDevice(l1, topo.GetPortTo(l1, net.GetNodeId(host)));
        };
        std::vector<Seen> arrived; // data at L1 from H1 and H2, in arrival order
        std::vector<Seen> toH3;    // frames started on L1's port to H3
        std::vector<Seen> toH1;    // frames started on L1's port to H1
        for (const char* h : {"H1", "H2"})
        {
            port(h)->TraceConnectWithoutContext("PhyRxEnd", MakeBoundCallback(&Record, &arrived));
        }
        port("H3")->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Record, &toH3));
        port("H1")->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Record, &toH1));

        RdmaHelper rdma;
        rdma.Install(net);
        rdma.AddFlow(0, 2, 2000000, MicroSeconds(1));
        rdma.AddFlow(1, 2, 2000000, MicroSeconds(3));
        Simulator::Stop(MicroSeconds(300));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(toH3.size(), 1000u, "the port to H3 is busy");
        NS_TEST_ASSERT_MSG_GT(port("H1")->GetPauseTxFrames(), 0u, "L1 pauses H1");
        NS_TEST_ASSERT_MSG_GT(toH1.size(), 100u, "ACKs and PFC frames to H1");
        NS_TEST_ASSERT_MSG_GT(arrived.size() + 1, toH3.size(), "every frame sent arrived first");
        uint32_t late = 0;
        uint32_t early = 0;
        uint32_t atArrival = 0;
        Time freeAt(0);
        for (size_t i = 0; i < toH3.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(toH3[i].bytes, arrived[i].bytes, "FIFO, frame " << i);
            Time expected = std::max(arrived[i].at, freeAt);
            late += toH3[i].at > expected ? 1 : 0;
            early += toH3[i].at < expected ? 1 : 0;
            atArrival += arrived[i].at >= freeAt ? 1 : 0;
            freeAt = toH3[i].at + Wire(toH3[i].bytes);
        }
        NS_TEST_EXPECT_MSG_EQ(late, 0u, "frames started after the wire was free");
        NS_TEST_EXPECT_MSG_EQ(early, 0u, "frames started before the wire was free");
        // Both kinds happen: frames that found the wire idle, and frames
        // that waited behind one whose transmit-done was scheduled late.
        NS_TEST_EXPECT_MSG_GT(atArrival, 0u, "frames sent on arrival");
        NS_TEST_EXPECT_MSG_GT(toH3.size() - atArrival, 0u, "frames that waited");
        uint32_t overlaps = 0;
        for (size_t i = 1; i < toH1.size(); ++i)
        {
            overlaps += toH1[i].at < toH1[i - 1].at + Wire(toH1[i - 1].bytes) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(overlaps, 0u, "a frame to H1 started while another was on the wire");
        Simulator::Destroy();
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The TestSuite "tagger-pfc-switch": PfcSwitchNetDevice and SwitchMmu in
 * networks, the deadlock oracle, a relay server, and the FIB (PfcRouteTable).
 */
class TaggerPfcSwitchTestSuite : public TestSuite
{
  public:
    TaggerPfcSwitchTestSuite()
        : TestSuite("tagger-pfc-switch", Type::UNIT)
    {
        AddTestCase(new IncastLosslessTestCase);
        AddTestCase(new IncastSmallHeadroomTestCase);
        AddTestCase(new IncastLossyTestCase);
        for (TestCase* tc : MakePfcSwitchRoutingTestCases())
        {
            AddTestCase(tc);
        }
        AddTestCase(new SamePortResumeTestCase);
        AddTestCase(new DeferredTxDoneTestCase);
        for (TestCase* tc : MakePfcSwitchTtlTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakePfcRelayTestCases())
        {
            AddTestCase(tc);
        }
        for (TestCase* tc : MakePfcRouteTableTestCases())
        {
            AddTestCase(tc);
        }
        AddTestCase(MakeDataplaneFuzzTestCase(DataplaneFuzzMode::PFC));
    }
};

/// Static instance: registers the suite with the test runner.
static TaggerPfcSwitchTestSuite g_taggerPfcSwitchTestSuite;
