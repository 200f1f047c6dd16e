/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * Tests of the RoCEv2 host (RdmaNic through RdmaHelper) on PFC networks,
 * added to the ns-3 TestSuite "tagger-roce" through MakeRdmaTestCases():
 *  1. one flow through one switch: the exact completion time, goodput of
 *     line rate x payload / wire bytes, the flow record; two flows between
 *     one pair of hosts, each to its own receiver QP;
 *  2. PFC incast, DCQCN on and off: lossless, no retransmission, every byte;
 *  3. no PFC, a small lossy pool: drops, go-back-N, every byte exactly once;
 *  4. DCQCN under incast: CNPs, rate cuts, a shorter bottleneck queue and
 *     fewer PAUSEs than without DCQCN; its Mellanox variants (target rate
 *     kept over a train of cuts, cuts on a timer) from the rate trace;
 *  5. go-back-N: a NAK after a link flap mid-flow, and the retransmission
 *     timeout after a tail loss, both with exact completion times; no
 *     timeout after an idle (paused) spell with nothing outstanding;
 *  6. the flow records as CSV;
 *  7. a pcap of the NIC decoded by tshark (skipped when tshark is absent).
 *
 * Every network runs at 10 Gbps with 1 us links.  Arithmetic used by the
 * expected values below (ns-3 Time has a 1 ns resolution):
 *  - a full data packet: payload 1000 + ICRC 4 + BTH 12 + UDP 8 + IPv4 20 =
 *    1044 B of IPv4, + Ethernet 14 + FCS 4 = 1062 B frame, + preamble/SFD 8
 *    + inter-frame gap 12 = 1082 B on the wire = 8656 bit, 865.6 ns at
 *    10 Gbps: a link (PfcNetDevice, PfcTxTime) takes T = 866 ns, rounded
 *    to the nearest ns on every ns-3 release (ns-3.35's own
 *    DataRate::CalculateBytesTxTime would truncate to 865 ns);
 *  - an ACK: ICRC 4 + AETH 4 + BTH 12 + UDP 8 + IPv4 20 = 48 B, frame 66 B,
 *    wire 86 B = 688 bit = 68.8 ns: A = 69 ns;
 *  - a NIC at line rate paces its data packets Seconds(8656 bit / 10 Gbps)
 *    = 866 ns apart, so packets sent back to back leave S = max(T, 866 ns)
 *    = 866 ns apart, one right after the other;
 *  - switches forward store-and-forward with no processing delay, so with
 *    one switch packet k of a message sent back to back at line rate has its
 *    last bit at the receiver k S + 2 T + 2 d after the first bit left
 *    (d = 1 us), and the sender sees the ACK of the last 2 A + 2 d later.
 * The tests take T, A and S from the running ns-3 (LinkNs, SpacingNs); the
 * hand computations in the comments use ns-3.37's T = S = 866 ns and
 * A = 69 ns, and the tests also check those by-hand values, to within 1 ns
 * per frame time they add up.
 */

#include "../tagger-test-helpers.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-switch-net-device.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/pfc-types.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;
using tagger::test::IsInstalled;
using tagger::test::RunCommand;

namespace
{

/// Bytes of a full data packet on the wire (preamble, SFD and gap included): see the file comment.
constexpr uint32_t kDataWireBytes = 1082;
/// Bytes of an ACK on the wire.
constexpr uint32_t kAckWireBytes = 86;
/// Link propagation delay (ns).
constexpr int64_t kD = 1000;
/// The lossless class of the tests (DSCP 24, the NIC's default).
constexpr uint8_t kClass = 3;

/**
 * Time on a 10 Gbps link as the link computes it (PfcNetDevice::GetWireTime:
 * PfcTxTime, which rounds to the nearest ns on every ns-3 release, where
 * DataRate::CalculateBytesTxTime truncates in ns-3.35).
 * \param wireBytes bytes on the wire (preamble, SFD and gap included)
 * \return their time on the link (ns): T for kDataWireBytes, A for kAckWireBytes
 */
int64_t
LinkNs(uint32_t wireBytes)
{
    return PfcTxTime(DataRate("10Gbps"), wireBytes).GetNanoSeconds();
}

/**
 * S of the file comment: how far apart full data packets a NIC sends back to
 * back at line rate leave it, the time of one on the link or the gap of the
 * NIC's pacer (RdmaNic: the next packet Seconds(wire bits / rate) after
 * one), whichever is longer.
 * \return the spacing (ns)
 */
int64_t
SpacingNs()
{
    int64_t pacer = Seconds(8.0 * kDataWireBytes / 10e9).GetNanoSeconds();
    return std::max(LinkNs(kDataWireBytes), pacer);
}

/// How a test network is built.
struct NetConfig
{
    uint32_t leaves = 1;                      //!< leaf switches
    uint32_t spines = 1;                      //!< spine switches
    uint32_t hostsPerLeaf = 2;                //!< hosts per leaf
    bool pfc = true;                          //!< class 3 lossless (else every class lossy)
    bool dcqcn = true;                        //!< RdmaNic Dcqcn
    uint64_t bufferSize = 12 * 1024 * 1024;   //!< SwitchMmu BufferSize (B)
    uint64_t lossyPoolSize = 3 * 1024 * 1024; //!< SwitchMmu LossyPoolSize (B)
};

/**
 * \ingroup tagger-tests
 * A leaf-spine of PFC switches at 10 Gbps with 1 us links and an RdmaNic on
 * every host.  Not copyable (the RdmaHelper points at the topology helper).
 */
class RdmaNet
{
  public:
    /// \param cfg the network
    explicit RdmaNet(const NetConfig& cfg)
        : net(tagger::MakeLeafSpine(cfg.leaves, cfg.spines, cfg.hostsPerLeaf))
    {
        PfcHelper& pfc = net.GetPfcHelper();
        pfc.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
        pfc.SetChannelAttribute("Delay", TimeValue(NanoSeconds(kD)));
        pfc.SetMmuAttribute("LosslessClasses", UintegerValue(cfg.pfc ? 1u << kClass : 0));
        pfc.SetMmuAttribute("BufferSize", UintegerValue(cfg.bufferSize));
        pfc.SetMmuAttribute("LossyPoolSize", UintegerValue(cfg.lossyPoolSize));
        net.Build();
        rdma.SetNicAttribute("Dcqcn", BooleanValue(cfg.dcqcn));
        rdma.Install(net);
    }

    RdmaNet(const RdmaNet&) = delete;
    RdmaNet& operator=(const RdmaNet&) = delete;

    /// \return ECN marks of every switch
    uint64_t GetEcnMarks() const
    {
        uint64_t n = 0;
        NodeContainer switches = net.GetSwitches();
        for (uint32_t i = 0; i < switches.GetN(); ++i)
        {
            n += PfcHelper::GetSwitch(switches.Get(i))->GetEcnMarkedCount();
        }
        return n;
    }

    /// \return NAKs sent by every NIC
    uint64_t GetNaks() const
    {
        uint64_t n = 0;
        for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
        {
            n += rdma.GetNic(h)->GetNaksSent();
        }
        return n;
    }

    /// \return out-of-order or duplicate data packets of every NIC
    uint64_t GetDuplicates() const
    {
        uint64_t n = 0;
        for (uint32_t h = 0; h < rdma.GetNHosts(); ++h)
        {
            n += rdma.GetNic(h)->GetDuplicatePackets();
        }
        return n;
    }

    /// \param host a host \return the switch port device that sends to it
    Ptr<PfcNetDevice> GetDownlinkTo(uint32_t host) const
    {
        const tagger::Topology& topo = net.GetTopology();
        tagger::PortRef tor = topo.GetPeer(topo.GetHosts()[host], 0);
        return net.GetDevice(tor.node, tor.port);
    }

    PfcTopologyHelper net; //!< the network
    RdmaHelper rdma;       //!< the NICs
};

/**
 * Sample RdmaNic::GetBytesDelivered (an event).
 * \param[out] bytes the answer \param nic the NIC
 */
void
SampleBytesDelivered(uint64_t* bytes, Ptr<RdmaNic> nic)
{
    *bytes = nic->GetBytesDelivered();
}

// ---------------------------------------------------------------------------
// Test 1: one flow at line rate
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * One 5 MB flow from host 1 to host 0 through one switch (MakeLeafSpine(1,
 * 1, 2)), DCQCN on but no congestion.
 *
 * By hand (T = S = 866 ns, A = 69 ns, d = 1000 ns, file comment): 5000
 * packets sent back to back, the last (k = 4999) at the receiver
 * 4999 S + 2 T + 2 d after the first left, FCT = 4999 S + 2 T + 2 A + 4 d =
 * 5001 x 866 + 138 + 4000 = 4 335 004 ns exactly (4 335 000 in ns-3.35).
 * The helper's ideal FCT is the serialisation, one store-and-forward and two
 * propagation delays: 5000 T + T + 2 d = 4 332 866 ns (4 327 865), so the
 * slowdown is 4 335 004 / 4 332 866 = 1.000493 (1.001649 in ns-3.35, where
 * the pacer's 1 ns between packets adds 4999 ns).
 *
 * Goodput: the line rate times payload / wire bytes = 10 Gbps x 1000 / 1082
 * = 9.2421 Gbps (9.2379 Gbps with packets 866 ns apart); measured as
 * bytes / (FCT minus the latency of one packet, T + 2 A + 4 d), and as the
 * in-order bytes delivered between 1 ms and 4 ms: 3 ms / 866 ns = 3464.2
 * packets, i.e. 3 464 203 B +- one packet.  Both within 0.1 % of 9.2421 Gbps.
 */
class RdmaLineRateTestCase : public TestCase
{
  public:
    RdmaLineRateTestCase()
        : TestCase("RDMA: one 5 MB flow reaches line rate x payload over wire bytes, exact FCT")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        NetConfig cfg;
        RdmaNet n(cfg);
        const uint64_t bytes = 5000000;
        const Time start = MicroSeconds(10);
        n.rdma.AddFlow(1, 0, bytes, start);
        Ptr<RdmaNic> rx = n.rdma.GetNic(0);
        uint64_t at1ms = 0;
        uint64_t at4ms = 0;
        Simulator::Schedule(MilliSeconds(1), &SampleBytesDelivered, &at1ms, rx);
        Simulator::Schedule(MilliSeconds(4), &SampleBytesDelivered, &at4ms, rx);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();

        std::vector<RdmaFlowRecord> records = n.rdma.GetFlowRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1, "one flow");
        const RdmaFlowRecord& r = records[0];
        const int64_t frame = LinkNs(kDataWireBytes); // T
        const int64_t spacing = SpacingNs();          // S
        const int64_t ack = LinkNs(kAckWireBytes);    // A
        const int64_t fct = 4999 * spacing + 2 * frame + 2 * ack + 4 * kD;
        const int64_t ideal = 5001 * frame + 2 * kD;
        // The by-hand values, to within 1 ns per frame time in them.
        NS_TEST_EXPECT_MSG_EQ_TOL(fct, int64_t(4335004), int64_t(5003), "FCT by hand");
        NS_TEST_EXPECT_MSG_EQ_TOL(ideal, int64_t(4332866), int64_t(5001), "ideal FCT by hand");
        NS_TEST_EXPECT_MSG_EQ(r.finished, true, "the flow did not finish");
        NS_TEST_EXPECT_MSG_EQ(r.fct.GetNanoSeconds(), fct, "FCT");
        NS_TEST_EXPECT_MSG_EQ(r.finish.GetNanoSeconds(), start.GetNanoSeconds() + fct, "finish");
        NS_TEST_EXPECT_MSG_EQ(r.idealFct.GetNanoSeconds(), ideal, "ideal FCT");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.slowdown, double(fct) / double(ideal), 1e-9, "slowdown");
        // Below 1.001 when packets leave one right after the other; the
        // pacer's gaps (S - T each, ns-3.35) add 4999 (S - T) / ideal.
        NS_TEST_EXPECT_MSG_LT(r.slowdown,
                              1.001 + 4999.0 * (spacing - frame) / ideal,
                              "slowdown not close to 1");
        NS_TEST_EXPECT_MSG_EQ(r.packets, 5000, "packets: 5 MB / 1000 B");
        NS_TEST_EXPECT_MSG_EQ(r.retransmitted, 0, "retransmitted");
        NS_TEST_EXPECT_MSG_EQ(r.timeouts, 0, "timeouts");
        NS_TEST_EXPECT_MSG_EQ(r.cnps, 0, "CNPs without congestion");
        NS_TEST_EXPECT_MSG_EQ(r.bytes, bytes, "bytes");
        NS_TEST_EXPECT_MSG_EQ(int(r.dscp), 24, "DSCP");
        NS_TEST_EXPECT_MSG_EQ(r.src, n.net.GetHostAddress(1), "source");
        NS_TEST_EXPECT_MSG_EQ(r.dst, n.net.GetHostAddress(0), "destination");
        NS_TEST_EXPECT_MSG_EQ(rx->GetBytesDelivered(), bytes, "bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(n.GetDuplicates(), 0, "duplicates");
        NS_TEST_EXPECT_MSG_EQ(n.GetEcnMarks(), 0, "ECN marks");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(n.net).GetDropCount(), 0, "drops");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(n.net).GetPauseCount(), 0, "pauses");
        NS_TEST_EXPECT_MSG_EQ(n.rdma.GetNic(1)->GetRate(0).GetBitRate(),
                              10000000000ULL,
                              "DCQCN rate without CNPs");

        // 10 Gbps x 1000 / 1082 = 9.24214 Gbps.
        const double ideal_gbps = 10.0 * 1000 / 1082;
        double goodput = bytes * 8.0 / double(fct - (frame + 2 * ack + 4 * kD)); // bit/ns = Gbps
        NS_TEST_EXPECT_MSG_EQ_TOL(goodput, ideal_gbps, ideal_gbps * 1e-3, "goodput (FCT)");
        NS_TEST_EXPECT_MSG_EQ_TOL(double(at4ms - at1ms),
                                  3e6 * 1000 / spacing,
                                  1000.0,
                                  "bytes delivered in [1 ms, 4 ms]");
        double steady = double(at4ms - at1ms) * 8 / 3e6; // bit/ns
        NS_TEST_EXPECT_MSG_EQ_TOL(steady, ideal_gbps, ideal_gbps * 1e-3, "goodput (steady)");
        Simulator::Destroy();
    }
};

/**
 * \ingroup tagger-tests
 * Test 1c: MaxBytesInFlight.  Test 1's flow with a window of 4,000 bytes (4
 * packets), below the path's bandwidth-delay product: each window of 4
 * packets leaves S apart, the receiver ACKs the 4th (AckInterval 4), and
 * the next window leaves when that ACK arrives.  By hand, a window every
 * P = 3 S + 2 T + 2 A + 4 d, so FCT = 1250 P (5000 packets; T, S, A, d as
 * in test 1), about 2.4 times the line-rate FCT; nothing is resent, and
 * without the attribute the FCT is test 1's.
 */
class RdmaWindowTestCase : public TestCase
{
  public:
    RdmaWindowTestCase()
        : TestCase(
              "RDMA: MaxBytesInFlight holds a flow to one window per ACK round trip, exact FCT")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        NetConfig cfg;
        RdmaNet n(cfg);
        n.rdma.GetNic(1)->SetAttribute("MaxBytesInFlight", UintegerValue(4000));
        n.rdma.AddFlow(1, 0, 5000000, MicroSeconds(10));
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        std::vector<RdmaFlowRecord> records = n.rdma.GetFlowRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1, "one flow");
        const RdmaFlowRecord& r = records[0];
        const int64_t frame = LinkNs(kDataWireBytes); // T
        const int64_t spacing = SpacingNs();          // S
        const int64_t ack = LinkNs(kAckWireBytes);    // A
        const int64_t period = 3 * spacing + 2 * frame + 2 * ack + 4 * kD;
        NS_TEST_EXPECT_MSG_EQ(r.finished, true, "the flow finished");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.fct.GetNanoSeconds(),
                                  1250 * period,
                                  int64_t(1250 * 2),
                                  "FCT: one window per round trip");
        NS_TEST_EXPECT_MSG_GT(r.fct.GetNanoSeconds(),
                              2 * (4999 * spacing + 2 * frame + 2 * ack + 4 * kD),
                              "over twice the line-rate FCT");
        NS_TEST_EXPECT_MSG_EQ(r.retransmitted, 0, "nothing resent");
        NS_TEST_EXPECT_MSG_EQ(r.timeouts, 0, "no timeout");
        Simulator::Destroy();
    }
};

/**
 * \ingroup tagger-tests
 * Test 1b: two 200 KB flows from host 1 to host 0 at once, two queue pairs
 * between one pair of hosts: the sender's NIC takes turns between them, so
 * at host 0 the packets of the two QPs alternate, and each must go to its
 * own receiver QP (the NIC remembers the last one it used; a packet of the
 * other QP taken as the remembered one's would be out of sequence there:
 * a NAK, a retransmission).  Both complete, every byte once, nothing
 * retransmitted; sharing the line, neither finishes before 398 packet
 * spacings (its 200 packets and at least 198 of the other's), and both by
 * 400 spacings plus one packet's latency (test 1's 2 T + 2 A + 4 d).
 */
class RdmaSamePairTestCase : public TestCase
{
  public:
    RdmaSamePairTestCase()
        : TestCase("RDMA: two flows between one pair of hosts alternate, each to its own QP")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        NetConfig cfg;
        RdmaNet n(cfg);
        const uint64_t bytes = 200000;
        const Time start = MicroSeconds(10);
        n.rdma.AddFlow(1, 0, bytes, start);
        n.rdma.AddFlow(1, 0, bytes, start);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();

        std::vector<RdmaFlowRecord> records = n.rdma.GetFlowRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 2, "two flows");
        const int64_t spacing = SpacingNs();
        const int64_t latency = 2 * LinkNs(kDataWireBytes) + 2 * LinkNs(kAckWireBytes) + 4 * kD;
        for (const RdmaFlowRecord& r : records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.finished, true, "a flow did not finish");
            NS_TEST_EXPECT_MSG_EQ(r.bytes, bytes, "bytes");
            NS_TEST_EXPECT_MSG_EQ(r.packets, 200, "packets: 200 KB / 1000 B");
            NS_TEST_EXPECT_MSG_EQ(r.retransmitted, 0, "retransmitted");
            NS_TEST_EXPECT_MSG_EQ(r.timeouts, 0, "timeouts");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.fct.GetNanoSeconds(),
                                        398 * spacing,
                                        "finished before sharing the line");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(r.fct.GetNanoSeconds(),
                                        400 * spacing + latency,
                                        "later than two flows' packets back to back");
        }
        NS_TEST_EXPECT_MSG_EQ(n.rdma.GetNic(0)->GetBytesDelivered(), 2 * bytes, "bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(n.GetDuplicates(), 0, "duplicates");
        NS_TEST_EXPECT_MSG_EQ(PfcStatsHelper(n.net).GetDropCount(), 0, "drops");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
// Incasts (tests 2-4)
// ---------------------------------------------------------------------------

/// One incast: hosts 1..senders of MakeLeafSpine(2, 2, 9) send to host 0.
struct IncastConfig
{
    bool pfc = true;                     //!< class 3 lossless
    bool dcqcn = true;                   //!< DCQCN
    uint32_t senders = 16;               //!< hosts 1..senders (1..8 on host 0's leaf)
    uint64_t bytes = 200000;             //!< per sender
    uint64_t lossyPoolSize = 256 * 1024; //!< LossyPoolSize (B)
    Time lateFrom = MicroSeconds(500);   //!< start of the late window (queue, pauses)
};

/// What an incast did.
struct IncastResult
{
    std::vector<RdmaFlowRecord> records; //!< every flow
    uint32_t active = 0;                 //!< flows not finished
    uint64_t delivered = 0;              //!< in-order payload bytes at host 0
    uint64_t drops = 0;                  //!< data-plane drops, every reason
    uint64_t lossyDrops = 0;             //!< LOSSY_OVERFLOW
    uint64_t tcDrops = 0;                //!< traffic-control drops
    uint64_t pauses = 0;                 //!< PAUSE decisions
    uint64_t retransmitted = 0;          //!< data packets sent again
    uint64_t timeouts = 0;               //!< RTOs
    uint64_t naks = 0;                   //!< NAKs
    uint64_t duplicates = 0;             //!< out-of-order / duplicate data packets
    uint64_t cnps = 0;                   //!< CNPs received
    uint64_t ecnMarks = 0;               //!< CE marks
    uint64_t maxQueue = 0;               //!< bottleneck queue maximum (B), whole run
    uint64_t maxQueueLate = 0;           //!< bottleneck queue maximum (B) from lateFrom
    uint64_t pausesLate = 0;             //!< PAUSE decisions from lateFrom
    double meanQueueLate = 0;            //!< bottleneck queue mean (B) from lateFrom
    uint64_t lowestRate = 0;             //!< lowest DCQCN rate of any flow (bit/s)
    Time lastFinish;                     //!< last flow finished
};

/// Lowest rate seen on RateChange traces.
struct RateWatch
{
    uint64_t lowest = ~uint64_t(0); //!< bit/s

    /// RateChange sink. \param flowId flow \param bps new rate
    void Change(uint32_t flowId, uint64_t bps)
    {
        lowest = std::min(lowest, bps);
    }
};

/// Samples an incast's bottleneck queue every 1 us while flows are active (RunIncast).
struct QueueSampler
{
    Ptr<PfcNetDevice> bottleneck; //!< the port sampled (its class kClass)
    Time lateFrom;                //!< start of the late window
    const RdmaHelper* rdma;       //!< the NICs: sampling stops when no flow is active
    IncastResult* out;            //!< maxQueue and maxQueueLate are updated
    double lateSum = 0;           //!< sum of the samples from lateFrom (B)
    uint64_t lateSamples = 0;     //!< samples from lateFrom

    /// Take a sample; schedule the next one 1 us later (always in the first 10 us).
    void Sample()
    {
        uint64_t q = bottleneck->GetQueueBytes(kClass);
        out->maxQueue = std::max(out->maxQueue, q);
        if (Simulator::Now() >= lateFrom)
        {
            out->maxQueueLate = std::max(out->maxQueueLate, q);
            lateSum += q;
            ++lateSamples;
        }
        if (Simulator::Now() < MicroSeconds(10) || rdma->GetActiveFlows() > 0)
        {
            Simulator::Schedule(MicroSeconds(1), &QueueSampler::Sample, this);
        }
    }
};

/**
 * Sample the PAUSE decisions of a network (an event).
 * \param[out] pauses PfcStatsHelper::GetPauseCount \param net the network
 */
void
SamplePauseCount(uint64_t* pauses, const PfcTopologyHelper* net)
{
    *pauses = PfcStatsHelper(*net).GetPauseCount();
}

/**
 * The network of RunIncast (see there), RngRun 1.
 * \param c the incast \return its configuration
 */
NetConfig
IncastNet(const IncastConfig& c)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    NetConfig cfg;
    cfg.leaves = 2;
    cfg.spines = 2;
    cfg.hostsPerLeaf = 9;
    cfg.pfc = c.pfc;
    cfg.dcqcn = c.dcqcn;
    cfg.bufferSize = 1024 * 1024;
    cfg.lossyPoolSize = c.lossyPoolSize;
    return cfg;
}

/**
 * Run one incast to completion (stop at 50 ms).  Network: MakeLeafSpine(2,
 * 2, 9) at 10 Gbps, 1 us links; senders 1..8 share host 0's leaf, 9..16 come
 * over the spines.  Sender i starts at 1 us + 37 (i - 1) ns.  MMU: class 3
 * lossless (or none), BufferSize 1 MiB, LossyPoolSize as given: on a leaf
 * (11 ports) with a 256 KiB lossy pool, Bs = 1048576 - 262144 - 11 (phi 3072
 * + eta 9340) = 649 900 B, where eta = 2 (C d + MTU) + 3840 = 2 (1250 + 1500)
 * + 3840 = 9340 B; a queue's Dynamic Threshold is then at most 0.125 Bs =
 * 81 KB, far below the 200 KB a local sender pushes into its ingress queue
 * at line rate, so PFC must pause when DCQCN does not cut rates.
 * The bottleneck (host 0's leaf port, class 3) is sampled every 1 us.
 * \param c the incast \return the outcome
 */
IncastResult
RunIncast(const IncastConfig& c)
{
    RdmaNet n(IncastNet(c));
    RateWatch rates;
    for (uint32_t i = 1; i <= c.senders; ++i)
    {
        n.rdma.AddFlow(i, 0, c.bytes, NanoSeconds(1000 + 37 * (i - 1)));
        n.rdma.GetNic(i)->TraceConnectWithoutContext("RateChange",
                                                     MakeCallback(&RateWatch::Change, &rates));
    }
    IncastResult out;
    Ptr<PfcNetDevice> bottleneck = n.GetDownlinkTo(0);
    QueueSampler sampler{bottleneck, c.lateFrom, &n.rdma, &out};
    Simulator::Schedule(Time(0), &QueueSampler::Sample, &sampler);
    uint64_t pausesEarly = 0;
    Simulator::Schedule(c.lateFrom, &SamplePauseCount, &pausesEarly, &n.net);
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();

    out.records = n.rdma.GetFlowRecords();
    out.active = n.rdma.GetActiveFlows();
    out.delivered = n.rdma.GetNic(0)->GetBytesDelivered();
    out.drops = PfcStatsHelper(n.net).GetDropCount();
    out.lossyDrops = PfcStatsHelper(n.net).GetDropCount(PfcDropReason::LOSSY_OVERFLOW);
    out.tcDrops = PfcStatsHelper(n.net).GetTrafficControlDrops();
    out.pauses = PfcStatsHelper(n.net).GetPauseCount();
    out.pausesLate = out.pauses - pausesEarly;
    out.meanQueueLate = sampler.lateSamples > 0 ? sampler.lateSum / sampler.lateSamples : 0;
    out.retransmitted = n.rdma.GetRetransmittedPackets();
    out.timeouts = n.rdma.GetTimeouts();
    out.naks = n.GetNaks();
    out.duplicates = n.GetDuplicates();
    out.cnps = n.rdma.GetCnps();
    out.ecnMarks = n.GetEcnMarks();
    out.lowestRate = rates.lowest;
    for (const RdmaFlowRecord& r : out.records)
    {
        out.lastFinish = std::max(out.lastFinish, r.finish);
    }
    Simulator::Destroy();
    return out;
}

/// \param r an outcome \return a one-line summary for messages and logs
std::string
Summary(const IncastResult& r)
{
    std::ostringstream os;
    os << "last finish " << r.lastFinish.As(Time::US) << ", drops " << r.drops << ", pauses "
       << r.pauses << ", retransmitted " << r.retransmitted << ", timeouts " << r.timeouts
       << ", NAKs " << r.naks << ", duplicates " << r.duplicates << ", ECN marks " << r.ecnMarks
       << ", CNPs " << r.cnps << ", lowest rate " << r.lowestRate << " bit/s, max queue "
       << r.maxQueue << " B; late: max queue " << r.maxQueueLate << " B, mean queue "
       << r.meanQueueLate << " B, pauses " << r.pausesLate;
    return os.str();
}

/**
 * \ingroup tagger-tests
 * Test 2: a PFC incast of 16 senders x 200 KB, DCQCN on or off: every flow
 * completes, no drop of any reason, no retransmission, timeout or NAK, and
 * host 0 receives 16 x 200 000 = 3 200 000 B in order; without DCQCN the
 * switches must pause (see RunIncast: the threshold is far below the
 * backlog).
 */
class RdmaPfcIncastTestCase : public TestCase
{
  public:
    /// \param dcqcn DCQCN on
    explicit RdmaPfcIncastTestCase(bool dcqcn)
        : TestCase(std::string("RDMA: PFC incast 16 x 200 KB, DCQCN ") + (dcqcn ? "on" : "off") +
                   ": lossless, no retransmission, every byte"),
          m_dcqcn(dcqcn)
    {
    }

  private:
    void DoRun() override
    {
        IncastConfig c;
        c.dcqcn = m_dcqcn;
        IncastResult r = RunIncast(c);
        std::string what = std::string("DCQCN ") + (m_dcqcn ? "on" : "off") + ": " + Summary(r);
        NS_TEST_EXPECT_MSG_EQ(r.records.size(), 16, what);
        NS_TEST_EXPECT_MSG_EQ(r.active, 0, "flows not finished; " << what);
        for (const RdmaFlowRecord& f : r.records)
        {
            NS_TEST_EXPECT_MSG_EQ(f.finished,
                                  true,
                                  "flow from " << f.src << " not finished; " << what);
            NS_TEST_EXPECT_MSG_EQ(f.packets, 200, "packets of 200 KB");
        }
        NS_TEST_EXPECT_MSG_EQ(r.delivered, 16 * c.bytes, "bytes delivered; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0, "drops; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.tcDrops, 0, "traffic-control drops; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.retransmitted, 0, "retransmissions; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.timeouts, 0, "timeouts; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.naks, 0, "NAKs; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.duplicates, 0, "duplicates; " << what);
        if (!m_dcqcn)
        {
            NS_TEST_EXPECT_MSG_GT(r.pauses, 0, "no PAUSE; " << what);
        }
    }

    bool m_dcqcn; //!< DCQCN on
};

/**
 * \ingroup tagger-tests
 * Test 3: the incast without PFC (LosslessClasses 0) and a 32 KiB lossy
 * pool, DCQCN on: 16 line-rate senders overflow it at once (8 local senders
 * alone bring 8 x 10 Gbps to a 10 Gbps port), so the switches drop; the NICs
 * recover by go-back-N: every flow completes and host 0's NIC delivers
 * exactly 3 200 000 B in order, each byte once (it counts in-order payload
 * only); no PAUSE.  (Seen: 14 781 drops, 14 987 packets sent again, 73
 * timeouts, 9 NAKs, last flow done at 9.3 ms: a NAK is sent once per gap, so
 * when the resent packet is dropped again only the 1 ms timeout recovers.)
 */
class RdmaLossyIncastTestCase : public TestCase
{
  public:
    RdmaLossyIncastTestCase()
        : TestCase("RDMA: lossy incast (no PFC, 32 KiB pool), DCQCN on: drops, go-back-N, every "
                   "byte exactly once")
    {
    }

  private:
    void DoRun() override
    {
        IncastConfig c;
        c.pfc = false;
        c.lossyPoolSize = 32 * 1024;
        IncastResult r = RunIncast(c);
        std::string what = Summary(r);
        NS_TEST_EXPECT_MSG_EQ(r.active, 0, "flows not finished; " << what);
        for (const RdmaFlowRecord& f : r.records)
        {
            NS_TEST_EXPECT_MSG_EQ(f.finished,
                                  true,
                                  "flow from " << f.src << " not finished; " << what);
        }
        NS_TEST_EXPECT_MSG_GT(r.lossyDrops, 0, "no lossy drop; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.drops, r.lossyDrops, "drops other than LOSSY_OVERFLOW; " << what);
        NS_TEST_EXPECT_MSG_GT(r.retransmitted, 0, "no retransmission; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.delivered, 16 * c.bytes, "bytes delivered; " << what);
        NS_TEST_EXPECT_MSG_EQ(r.pauses, 0, "PAUSE without lossless classes; " << what);
    }
};

/**
 * \ingroup tagger-tests
 * Test 4: DCQCN under the PFC incast of RunIncast, 16 senders x 500 KB (8 MB
 * at 10 Gbps x 1000 / 1082: 6.9 ms of traffic), DCQCN on and off.  With DCQCN the switches mark
 * (RED at enqueue on the egress class queue: EcnKmin 5 KB, EcnKmax 200 KB, EcnPmax 1 %), host 0
 * sends CNPs and the senders cut their rates.  Without DCQCN 16 line-rate senders keep the
 * bottleneck queue (host 0's leaf port, class 3, sampled every 1 us) at the
 * level PFC allows and the switches keep pausing.  The first 1 ms (the
 * initial burst, which fills the queue to ~460 KB within 50 us either way,
 * and the rates' first fall) is left out.
 *
 * Assertions, chosen from the numbers seen (DCQCN on / off, Release and
 * Debug alike: the runs are deterministic): CNPs 501 / (sent, no effect),
 * marks 2108 / 5027, lowest rate 10 Mb/s (MinRate) / never changed; from
 * 1 ms: mean queue 78 KB / 298 KB, max queue 287 KB / 461 KB, PAUSEs 108 /
 * 662.  So: ECN marks > 0, CNPs > 0, some flow's rate below half line rate
 * (the first cut, alpha = 1, halves the rate), and from 1 ms on with DCQCN
 * the mean queue at most half, the max queue at most 3/4 and PAUSEs at most
 * half of those without.  No drop, retransmission or timeout either way.
 *
 * DCQCN as configured (the paper's 40 Gb/s parameters at 10 Gb/s, marking
 * at enqueue behind deep PFC queues) oscillates here: the rates collapse to
 * MinRate, the queue empties, then they recover slowly (R_AI 40 Mb/s per
 * 55 us) and the incast ends later than without DCQCN (8.56 ms vs 6.94 ms);
 * the test does not check completion times.
 */
class RdmaDcqcnTestCase : public TestCase
{
  public:
    RdmaDcqcnTestCase()
        : TestCase("RDMA: DCQCN cuts rates under incast, shortens the bottleneck queue, fewer "
                   "PAUSEs")
    {
    }

  private:
    void DoRun() override
    {
        IncastConfig c;
        c.bytes = 500000;
        c.lateFrom = MilliSeconds(1);
        c.dcqcn = true;
        IncastResult on = RunIncast(c);
        c.dcqcn = false;
        IncastResult off = RunIncast(c);
        std::string what = "DCQCN on: " + Summary(on) + "; off: " + Summary(off);
        NS_TEST_EXPECT_MSG_EQ(on.active + off.active, 0, "flows not finished; " << what);
        NS_TEST_EXPECT_MSG_EQ(on.delivered, 16 * c.bytes, "bytes delivered (on); " << what);
        NS_TEST_EXPECT_MSG_EQ(off.delivered, 16 * c.bytes, "bytes delivered (off); " << what);
        NS_TEST_EXPECT_MSG_EQ(on.drops + off.drops, 0, "drops; " << what);
        NS_TEST_EXPECT_MSG_EQ(on.retransmitted + off.retransmitted, 0, "retransmissions; " << what);
        NS_TEST_EXPECT_MSG_EQ(on.timeouts + off.timeouts, 0, "timeouts; " << what);
        NS_TEST_EXPECT_MSG_GT(on.ecnMarks, 0, "no ECN mark; " << what);
        NS_TEST_EXPECT_MSG_GT(on.cnps, 0, "no CNP; " << what);
        NS_TEST_EXPECT_MSG_LT(on.lowestRate, 5000000000ULL, "no rate cut; " << what);
        NS_TEST_EXPECT_MSG_EQ(off.lowestRate, ~uint64_t(0), "a rate changed without DCQCN");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(2 * on.meanQueueLate,
                                    off.meanQueueLate,
                                    "mean queue from 1 ms not halved; " << what);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(4 * on.maxQueueLate,
                                    3 * off.maxQueueLate,
                                    "max queue from 1 ms not below 3/4; " << what);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(2 * on.pausesLate,
                                    off.pausesLate,
                                    "PAUSEs from 1 ms not halved; " << what);
    }
};

// ---------------------------------------------------------------------------
// Test 5: go-back-N after a link flap
// ---------------------------------------------------------------------------

/// What a flow over a flapping link did.
struct FlapResult
{
    RdmaFlowRecord record;      //!< the flow
    uint64_t delivered = 0;     //!< in-order payload bytes at host 0
    uint64_t naks = 0;          //!< NAKs host 0 sent
    uint64_t duplicates = 0;    //!< out-of-order / duplicate packets at host 0
    uint64_t retransmitted = 0; //!< packets host 1 sent again
    uint64_t timeouts = 0;      //!< RTOs of host 1
    uint64_t highPsns = 0;      //!< data packets host 1 sent with a PSN of 0xffff00 or more
    uint64_t lowPsns = 0;       //!< data packets host 1 sent with a PSN below 0x100
    uint64_t dataSent = 0;      //!< DataSent trace calls of host 1
    std::vector<uint32_t> resentPackets; //!< packet numbers DataSent flagged as resent

    /// DataSent sink of host 1. \param out the counts \param flowId flow \param packet its
    /// number in the flow \param resent sent before
    static void DataSent(FlapResult* out, uint32_t flowId, uint32_t packet, bool resent)
    {
        ++out->dataSent;
        if (resent)
        {
            out->resentPackets.push_back(packet);
        }
    }

    /// PhyTxBegin sink of host 1: count the PSNs of data frames near both
    /// ends of the 24-bit range, read from the frame's bytes (Ethernet,
    /// optional 802.1Q tag, IPv4, UDP to 4791, BTH: opcode, then PSN in
    /// bytes 9..11). \param out the counts \param frame the frame sent
    static void CountPsn(FlapResult* out, Ptr<const Packet> frame)
    {
        std::vector<uint8_t> b = tagger::test::BytesOf(frame);
        std::size_t ip = (b.size() > 13 && b[12] == 0x81 && b[13] == 0x00) ? 18 : 14;
        std::size_t bth = ip + 20 + 8;
        if (b.size() < bth + 12 || b[ip - 2] != 0x08 || b[ip - 1] != 0x00 || b[ip + 9] != 17 ||
            (b[ip + 22] << 8 | b[ip + 23]) != 4791 || b[bth] > RoceBthHeader::RC_SEND_ONLY)
        {
            return; // not a RoCEv2 data frame
        }
        uint32_t psn = uint32_t(b[bth + 9]) << 16 | uint32_t(b[bth + 10]) << 8 | b[bth + 11];
        out->highPsns += psn >= 0xffff00;
        out->lowPsns += psn < 0x100;
    }
};

/**
 * One flow host 1 -> host 0 through one switch, started at 10 us; host 1's
 * link goes down at \p down and up 2 us later.
 * \param bytes flow size \param down when the link goes down (absolute)
 * \return the outcome
 */
FlapResult
RunFlap(uint64_t bytes, Time down, uint32_t initialPsn)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    NetConfig cfg;
    RdmaNet n(cfg);
    FlapResult out;
    for (uint32_t h : {0u, 1u})
    {
        n.rdma.GetNic(h)->SetAttribute("InitialPsn", UintegerValue(initialPsn));
    }
    n.net.GetHostDevice(1)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeBoundCallback(&FlapResult::CountPsn, &out));
    n.rdma.GetNic(1)->TraceConnectWithoutContext("DataSent",
                                                 MakeBoundCallback(&FlapResult::DataSent, &out));
    n.rdma.AddFlow(1, 0, bytes, MicroSeconds(10));
    Ptr<PfcChannel> link = n.net.GetHostDevice(1)->GetPfcChannel();
    Simulator::Schedule(down, &PfcChannel::SetLinkUp, link, false);
    Simulator::Schedule(down + MicroSeconds(2), &PfcChannel::SetLinkUp, link, true);
    Simulator::Stop(MilliSeconds(10));
    Simulator::Run();
    out.record = n.rdma.GetFlowRecords().at(0);
    out.delivered = n.rdma.GetNic(0)->GetBytesDelivered();
    out.naks = n.rdma.GetNic(0)->GetNaksSent();
    out.duplicates = n.rdma.GetNic(0)->GetDuplicatePackets();
    out.retransmitted = n.rdma.GetNic(1)->GetRetransmittedPackets();
    out.timeouts = n.rdma.GetNic(1)->GetTimeouts();
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup tagger-tests
 * Go-back-N, twice, times relative to the flow start (10 us), T = S =
 * 866 ns, A = 69 ns, d = 1000 ns (file comment); packet k leaves host 1 in
 * [k S, k S + T] and reaches host 0 at k S + 2 T + 2 d.
 *
 * (a) NAK: 1 MB (1000 packets), host 1's link down at 100 000 ns, up at
 * 102 000.  Packet 115 is on the wire (99 590..100 456) and 114 in flight
 * (left 99 590, due at the switch 100 590): both lost; 113 reached the
 * switch at 99 724.  At 102 000 the NIC sends 116; it reaches host 0 at
 * 105 732, a gap: one NAK for 114, at host 1 2 A + 2 d later = 107 870.
 * By then 116..122 have left (122 started at 102 000 + 6 S = 107 196 and
 * ends at 108 062), so host 1 goes back to 114 at 102 000 + 7 S = 108 062:
 * 9 packets (114..122) sent again, 7 out of order at host 0 (116..122), no
 * timeout.  Then 886 packets back to back: the last leaves at
 * 108 062 + 885 S, reaches host 0 2 T + 2 d later = 878 204, its ACK is
 * back at + 2 A + 2 d: FCT = 102 000 + 892 S + 2 T + 2 A + 4 d =
 * 880 342 ns (871 004 without the flap; 880 338 in ns-3.35).
 *
 * (b) RTO: 100 KB (100 packets), down at 86 000 (absolute 96 000), up at
 * 88 000.  Packet 99 (85 734..86 600) and 98 (due at the switch 86 734) are
 * lost: the tail, nothing follows to reveal the gap, so no NAK.  Host 0 got
 * 0..97; its ACK for 95 (sent at 95 S + 2 T + 2 d = 86 002) meets the
 * switch's port to host 1 down at 87 071 and is lost; the delayed ACK
 * (AckDelay 10 us after 96 arrived at 96 S + 2 T + 2 d = 86 868) for 97
 * leaves at 96 868 and reaches host 1 at + 2 A + 2 d = 99 006: the last ACK
 * progress, so the RTO (1 ms) fires at 1 099 006 and host 1 resends 98 and
 * 99 (2 retransmissions, 1 timeout); 99 leaves S later, reaches host 0 at
 * + 2 T + 2 d = 1 103 604, the ACK is back at + 2 A + 2 d: FCT =
 * 97 S + 4 T + 4 A + 8 d + 1 010 000 = 1 105 742 ns (1 105 734 in ns-3.35).
 *
 * In both, every byte arrives exactly once: host 0 delivers exactly the
 * flow's bytes.
 */
class RdmaGoBackNTestCase : public TestCase
{
  public:
    /// \param initialPsn the NICs' InitialPsn
    RdmaGoBackNTestCase(uint32_t initialPsn)
        : TestCase(initialPsn == 0
                       ? "RDMA: go-back-N by NAK after a link flap and by RTO after a tail loss, "
                         "exact FCTs"
                       : "RDMA: the same with the PSN wrapping between the two packets lost "
                         "(InitialPsn 2^24 - 115): the same counts and FCTs"),
          m_initialPsn(initialPsn)
    {
    }

  private:
    uint32_t m_initialPsn; //!< InitialPsn of both NICs

    void DoRun() override
    {
        FlapResult a = RunFlap(1000000, MicroSeconds(10) + NanoSeconds(100000), m_initialPsn);
        // 1000 packets from PSN m_initialPsn: with 2^24 - 115, packet 115 has PSN 0.
        const bool wrapped = a.lowPsns > 0 && a.highPsns > 0;
        NS_TEST_EXPECT_MSG_EQ(wrapped,
                              (m_initialPsn != 0),
                              "(a) PSNs on the wire: " << a.highPsns << " high, " << a.lowPsns
                                                       << " low");
        NS_TEST_EXPECT_MSG_EQ(a.record.finished, true, "(a) not finished");
        NS_TEST_EXPECT_MSG_EQ(a.delivered, 1000000, "(a) bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(a.naks, 1, "(a) NAKs");
        NS_TEST_EXPECT_MSG_EQ(a.retransmitted, 9, "(a) retransmitted (114..122)");
        NS_TEST_EXPECT_MSG_EQ(a.record.retransmitted, 9, "(a) record: retransmitted");
        NS_TEST_EXPECT_MSG_EQ(a.duplicates, 7, "(a) out of order at host 0 (116..122)");
        NS_TEST_EXPECT_MSG_EQ(a.timeouts, 0, "(a) timeouts");
        // DataSent: once per data packet, 1 MB / 1000 B = 1000 first sends and the 9 again,
        // each flagged with its number in the flow whatever the PSN (114..122 in order).
        NS_TEST_EXPECT_MSG_EQ(a.dataSent, 1000 + 9, "(a) DataSent calls");
        std::vector<uint32_t> again(9);
        std::iota(again.begin(), again.end(), 114);
        NS_TEST_EXPECT_MSG_EQ((a.resentPackets == again), true, "(a) DataSent: resent 114..122");
        const int64_t frame = LinkNs(kDataWireBytes); // T
        const int64_t spacing = SpacingNs();          // S
        const int64_t ack = LinkNs(kAckWireBytes);    // A
        const int64_t fctA = 102000 + 892 * spacing + 2 * frame + 2 * ack + 4 * kD;
        NS_TEST_EXPECT_MSG_EQ_TOL(fctA, int64_t(880342), int64_t(896), "(a) FCT by hand");
        NS_TEST_EXPECT_MSG_EQ(a.record.fct.GetNanoSeconds(), fctA, "(a) FCT");

        FlapResult b = RunFlap(100000, MicroSeconds(10) + NanoSeconds(86000), m_initialPsn);
        NS_TEST_EXPECT_MSG_EQ(b.record.finished, true, "(b) not finished");
        NS_TEST_EXPECT_MSG_EQ(b.delivered, 100000, "(b) bytes delivered");
        NS_TEST_EXPECT_MSG_EQ(b.naks, 0, "(b) NAKs: nothing follows the lost tail");
        NS_TEST_EXPECT_MSG_EQ(b.timeouts, 1, "(b) timeouts");
        NS_TEST_EXPECT_MSG_EQ(b.record.timeouts, 1, "(b) record: timeouts");
        NS_TEST_EXPECT_MSG_EQ(b.retransmitted, 2, "(b) retransmitted (98, 99)");
        NS_TEST_EXPECT_MSG_EQ(b.duplicates, 0, "(b) duplicates");
        NS_TEST_EXPECT_MSG_EQ(b.dataSent, 100 + 2, "(b) DataSent calls");
        NS_TEST_EXPECT_MSG_EQ((b.resentPackets == std::vector<uint32_t>{98, 99}),
                              true,
                              "(b) DataSent: resent 98, 99");
        const int64_t fctB = 97 * spacing + 4 * frame + 4 * ack + 8 * kD + 1010000;
        NS_TEST_EXPECT_MSG_EQ_TOL(fctB, int64_t(1105742), int64_t(105), "(b) FCT by hand");
        NS_TEST_EXPECT_MSG_EQ(b.record.fct.GetNanoSeconds(), fctB, "(b) FCT");
    }
};

/// Time of the last frame a device handed up (MacRx sink).
struct LastRx
{
    Time at; //!< when

    /// MacRx sink. \param p the packet
    void Rx(Ptr<const Packet> p)
    {
        at = Simulator::Now();
    }
};

/**
 * The end of the pause of RdmaRtoIdleTestCase: what the NICs did while
 * paused, and the resume 990 us after the last ACK.
 */
struct PauseEnd
{
    Ptr<RdmaNic> tx;                   //!< the sender's NIC (host 1)
    Ptr<RdmaNic> rx;                   //!< the receiver's NIC (host 0)
    const LastRx* lastAck;             //!< the last frame host 1 received
    Ptr<PfcNetDevice> toHost1;         //!< the switch port that pauses host 1
    uint64_t sentWhilePaused = 0;      //!< data packets host 1 sent before the sample
    uint64_t deliveredWhilePaused = 0; //!< bytes host 0 delivered before it
    Time lastAckPaused;                //!< when the last ACK reached host 1
    Time resume;                       //!< when the switch resumes host 1

    /// Sample the NICs while paused and schedule the resume.
    void Sample()
    {
        sentWhilePaused = tx->GetDataPacketsSent();
        deliveredWhilePaused = rx->GetBytesDelivered();
        lastAckPaused = lastAck->at;
        resume = lastAck->at + MicroSeconds(990);
        Simulator::Schedule(resume - Simulator::Now(), &PfcNetDevice::StopPausing, toHost1, kClass);
    }
};

/**
 * \ingroup tagger-tests
 * No retransmission timeout after an idle period: one 100 KB flow host 1 ->
 * host 0 through one switch from 10 us; at 30 us the switch PAUSEs host 1's
 * class 3 (StartPausing, refreshed), so host 1 stops, and every packet it
 * sent is acknowledged (the last ACK, a delayed one, arrives at some L
 * < 50 us: AckDelay 10 us).  Nothing is outstanding from L on; the RTO must
 * not run from L.  The switch resumes host 1 at L + 990 us: the RESUME takes
 * 67 ns on the wire, 1 us on the link and the PFC processing delay (3840 B
 * at 10 Gbps = 3.072 us), so host 1 sends again at about L + 994.1 us; the
 * first ACK of the new packets (4 packets, AckInterval) is back 4 T + T + 2 d
 * + 2 A + 2 d = 8.47 us later, at about L + 1002.6 us.  A timer left
 * running from L would fire at L + 1000 us with packets outstanding that are
 * not lost: a spurious timeout and a go-back-N resend.  Expected: no
 * timeout, no retransmission, no duplicate, every byte, and an FCT above
 * the ~1 ms pause.
 */
class RdmaRtoIdleTestCase : public TestCase
{
  public:
    RdmaRtoIdleTestCase()
        : TestCase("RDMA: no retransmission timeout after an idle (paused) period with nothing "
                   "outstanding")
    {
    }

  private:
    void DoRun() override
    {
        NetConfig cfg;
        RdmaNet n(cfg);
        n.rdma.AddFlow(1, 0, 100000, MicroSeconds(10));
        Ptr<PfcNetDevice> toHost1 = n.GetDownlinkTo(1);
        Ptr<RdmaNic> tx = n.rdma.GetNic(1);
        Ptr<RdmaNic> rx = n.rdma.GetNic(0);
        LastRx lastAck;
        n.net.GetHostDevice(1)->TraceConnectWithoutContext("MacRx",
                                                           MakeCallback(&LastRx::Rx, &lastAck));
        Simulator::Schedule(MicroSeconds(30), &PfcNetDevice::StartPausing, toHost1, kClass);
        PauseEnd pauseEnd{tx, rx, &lastAck, toHost1};
        Simulator::Schedule(MicroSeconds(930), &PauseEnd::Sample, &pauseEnd);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        RdmaFlowRecord r = n.rdma.GetFlowRecords().at(0);
        Simulator::Destroy();

        NS_TEST_EXPECT_MSG_GT(pauseEnd.sentWhilePaused, 0, "nothing sent before the pause");
        NS_TEST_EXPECT_MSG_LT(pauseEnd.sentWhilePaused, 100, "all sent before the pause");
        NS_TEST_EXPECT_MSG_EQ(pauseEnd.deliveredWhilePaused,
                              1000 * pauseEnd.sentWhilePaused,
                              "packets outstanding during the pause");
        NS_TEST_EXPECT_MSG_LT(pauseEnd.lastAckPaused,
                              MicroSeconds(50),
                              "last ACK before the pause");
        NS_TEST_EXPECT_MSG_GT(pauseEnd.resume, MicroSeconds(1000), "resume time");
        NS_TEST_EXPECT_MSG_EQ(r.finished, true, "not finished");
        NS_TEST_EXPECT_MSG_GT(r.fct, MilliSeconds(1), "the pause did not hold the flow");
        NS_TEST_EXPECT_MSG_EQ(r.timeouts, 0, "spurious retransmission timeout");
        NS_TEST_EXPECT_MSG_EQ(r.retransmitted, 0, "retransmissions without loss");
        NS_TEST_EXPECT_MSG_EQ(rx->GetDuplicatePackets(), 0, "duplicates");
        NS_TEST_EXPECT_MSG_EQ(rx->GetBytesDelivered(), 100000, "bytes delivered");
    }
};

/**
 * \ingroup tagger-tests
 * A spurious timeout whose packets then arrive: the sender must go on from
 * what they acknowledge.  One 100 KB flow host 1 -> host 0 through one
 * switch from 10 us (RTO 1 ms).  From 1 us host 0 PAUSEs the switch, so
 * every packet host 1 sends waits in the switch; at 30 us the switch
 * PAUSEs host 1 (refreshed), which has then sent the first M < 100 packets
 * (about 27: 20 us at S = 866 ns, plus the PAUSE's way back).  The RTO
 * fires 1 ms after the last of them was sent and again 1 ms later (nothing
 * acknowledged, host 1 paused: go-back-N to 0, nothing can be sent); at
 * 2.5 ms host 0 resumes the switch, the M packets arrive in order and their
 * ACKs (about 2.53 ms) acknowledge all M while host 1 is still paused: its
 * next packet to send must become M, not stay at 0 (a sender left at 0
 * counts the packets in flight as next - una, which wrapped, and waited
 * forever, its RTO off with nothing outstanding).  At 5 ms the switch
 * resumes host 1, which sends M..99 and finishes about 63 us later.
 * Expected: 2 timeouts (the third deadline, 3.03 ms, comes after the ACKs),
 * no packet sent again, no duplicate, every byte, an FCT in [4.99, 5.2] ms.
 */
class RdmaRtoSpuriousTestCase : public TestCase
{
  public:
    RdmaRtoSpuriousTestCase()
        : TestCase("RDMA: after a spurious timeout, the ACKs of the packets held by a pause "
                   "move the sender past them (no resend, no stall)")
    {
    }

  private:
    void DoRun() override
    {
        NetConfig cfg;
        RdmaNet n(cfg);
        n.rdma.AddFlow(1, 0, 100000, MicroSeconds(10));
        Ptr<PfcNetDevice> host0 = n.net.GetHostDevice(0);
        Ptr<PfcNetDevice> toHost1 = n.GetDownlinkTo(1);
        Simulator::Schedule(MicroSeconds(1), &PfcNetDevice::StartPausing, host0, kClass);
        Simulator::Schedule(MicroSeconds(30), &PfcNetDevice::StartPausing, toHost1, kClass);
        Simulator::Schedule(MicroSeconds(2500), &PfcNetDevice::StopPausing, host0, kClass);
        Simulator::Schedule(MilliSeconds(5), &PfcNetDevice::StopPausing, toHost1, kClass);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        RdmaFlowRecord r = n.rdma.GetFlowRecords().at(0);
        Ptr<RdmaNic> rx = n.rdma.GetNic(0);
        NS_TEST_EXPECT_MSG_EQ(r.finished, true, "stalled after the spurious timeout");
        NS_TEST_EXPECT_MSG_EQ(r.timeouts, 2, "timeouts (1.03 and 2.03 ms)");
        NS_TEST_EXPECT_MSG_EQ(r.retransmitted, 0, "sent again what was acknowledged");
        NS_TEST_EXPECT_MSG_EQ(rx->GetDuplicatePackets(), 0, "duplicates");
        NS_TEST_EXPECT_MSG_EQ(rx->GetBytesDelivered(), 100000, "bytes delivered");
        NS_TEST_EXPECT_MSG_GT(r.fct, MicroSeconds(4990), "finished before host 1 resumed");
        NS_TEST_EXPECT_MSG_LT(r.fct, MicroSeconds(5200), "finish long after the resume");
        Simulator::Destroy();
    }
};

// ---------------------------------------------------------------------------
// Test 6: CSV
// ---------------------------------------------------------------------------

/// \param line a CSV line \return its fields
std::vector<std::string>
SplitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::istringstream is(line);
    std::string field;
    while (std::getline(is, field, ','))
    {
        fields.push_back(field);
    }
    return fields;
}

/// \param ns a time in ns \return it as a CSV field
std::string
Ns(int64_t ns)
{
    return std::to_string(ns);
}

/**
 * \param fct an FCT (ns) \param ideal its ideal (ns)
 * \return the slowdown as a CSV field: fct / ideal with 4 decimals
 */
std::string
Slowdown(int64_t fct, int64_t ideal)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(4)
       << NanoSeconds(fct).GetSeconds() / NanoSeconds(ideal).GetSeconds();
    return os.str();
}

/**
 * \ingroup tagger-tests
 * RdmaHelper::WriteFlowRecords: the header is RdmaFlowRecord::CsvHeader(),
 * then one line per flow, host by host.  Two flows through one switch
 * (T = S = 866 ns, A = 69 ns, d = 1000 ns: file comment):
 *  - host 0 -> host 1, 1000 B at 50 us: one packet (Send Only), FCT =
 *    2 T + 2 A + 4 d = 1732 + 138 + 4000 = 5870 ns, ideal T + T + 2 d =
 *    3732 ns, slowdown 5870 / 3732 = 1.57288 -> "1.5729";
 *  - host 1 -> host 0, 2500 B at 10 us: packets of 1000, 1000 and 500 B,
 *    leaving at 0, S and 2 S; the last is 582 B on the wire = 465.6 ns:
 *    L = 466 ns (465 in ns-3.35); the switch's egress is the pipe: the
 *    second packet is in at S + T + d (the first is out by then) and out at
 *    S + 2 T + d, after the last is in (2 S + L + d), so the last bit leaves
 *    the switch at S + 2 T + L + d = 3064 + d, FCT = S + 2 T + L + 2 A + 4 d
 *    = 7202 ns, finish 17 202 ns, ideal 2 T + L + T + 2 d = 5064 ns,
 *    slowdown 7202 / 5064 = 1.42220 -> "1.4222".
 * (In ns-3.35: 5866, 3730, "1.5727"; 7197, 5060, "1.4223".)  Both flows
 * are their NIC's first: flow id 0, UDP source port 49152.
 */
class RdmaCsvTestCase : public TestCase
{
  public:
    RdmaCsvTestCase()
        : TestCase("RDMA: WriteFlowRecords writes the CSV header and one line per flow")
    {
    }

  private:
    void DoRun() override
    {
        NetConfig cfg;
        RdmaNet n(cfg);
        n.rdma.AddFlow(1, 0, 2500, MicroSeconds(10));
        n.rdma.AddFlow(0, 1, 1000, MicroSeconds(50));
        Simulator::Stop(MilliSeconds(1));
        Simulator::Run();
        std::string path = CreateTempDirFilename("rdma-flows.csv");
        n.rdma.WriteFlowRecords(path);
        Simulator::Destroy();

        std::ifstream in(path);
        NS_TEST_ASSERT_MSG_EQ(bool(in), true, "cannot read " << path);
        std::vector<std::string> lines;
        std::string line;
        while (std::getline(in, line))
        {
            lines.push_back(line);
        }
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 3, "header + 2 flows");
        NS_TEST_EXPECT_MSG_EQ(lines[0], RdmaFlowRecord::CsvHeader(), "header");
        NS_TEST_EXPECT_MSG_EQ(lines[0],
                              "flow_id,src,dst,sport,dscp,bytes,start_ns,finish_ns,fct_ns,"
                              "ideal_fct_ns,slowdown,packets,retransmitted,timeouts,cnps",
                              "header columns");
        const int64_t frame = LinkNs(kDataWireBytes); // T
        const int64_t spacing = SpacingNs();          // S
        const int64_t ack = LinkNs(kAckWireBytes);    // A
        const int64_t last = LinkNs(582);             // L
        const int64_t fct0 = 2 * frame + 2 * ack + 4 * kD;
        const int64_t ideal0 = 2 * frame + 2 * kD;
        const int64_t fct1 = spacing + 2 * frame + last + 2 * ack + 4 * kD;
        const int64_t ideal1 = 3 * frame + last + 2 * kD;
        // The by-hand values, to within 1 ns per frame time in them.
        NS_TEST_EXPECT_MSG_EQ_TOL(fct0, int64_t(5870), int64_t(4), "FCT of 0 -> 1 by hand");
        NS_TEST_EXPECT_MSG_EQ_TOL(ideal0, int64_t(3732), int64_t(2), "ideal of 0 -> 1 by hand");
        NS_TEST_EXPECT_MSG_EQ_TOL(fct1, int64_t(7202), int64_t(6), "FCT of 1 -> 0 by hand");
        NS_TEST_EXPECT_MSG_EQ_TOL(ideal1, int64_t(5064), int64_t(4), "ideal of 1 -> 0 by hand");
        const std::vector<std::vector<std::string>> expected{{"0",
                                                              "10.0.0.1",
                                                              "10.0.0.2",
                                                              "49152",
                                                              "24",
                                                              "1000",
                                                              "50000",
                                                              Ns(50000 + fct0),
                                                              Ns(fct0),
                                                              Ns(ideal0),
                                                              Slowdown(fct0, ideal0),
                                                              "1",
                                                              "0",
                                                              "0",
                                                              "0"},
                                                             {"0",
                                                              "10.0.0.2",
                                                              "10.0.0.1",
                                                              "49152",
                                                              "24",
                                                              "2500",
                                                              "10000",
                                                              Ns(10000 + fct1),
                                                              Ns(fct1),
                                                              Ns(ideal1),
                                                              Slowdown(fct1, ideal1),
                                                              "3",
                                                              "0",
                                                              "0",
                                                              "0"}};
        const std::vector<std::string> names = SplitCsv(RdmaFlowRecord::CsvHeader());
        for (uint32_t i = 0; i < 2; ++i)
        {
            std::vector<std::string> fields = SplitCsv(lines[i + 1]);
            NS_TEST_ASSERT_MSG_EQ(fields.size(), names.size(), "fields of line " << i + 2);
            for (uint32_t k = 0; k < names.size(); ++k)
            {
                NS_TEST_EXPECT_MSG_EQ(fields[k],
                                      expected[i][k],
                                      "line " << i + 2 << ", column " << names[k]);
            }
        }
        std::remove(path.c_str());
    }
};

// ---------------------------------------------------------------------------
// Test 7: tshark
// ---------------------------------------------------------------------------

/**
 * \ingroup tagger-tests
 * A pcap of host 0's NIC (PfcHelper::EnablePcap) holding two flows from
 * host 1: 3000 B (QP 0x000100: Send First, Middle, Last) and 500 B (QP
 * 0x000101: Send Only), and host 0's ACKs, decoded by Wireshark's RoCE
 * dissector: "RRoCE", the opcodes, "Destination Queue Pair: 0x000100" and
 * 0x000101 in the detail view; 3 + 1 + 2 ACKs = 6 frames.  Skipped (with a
 * line on standard error saying so) when tshark is not installed.
 */
class RdmaTsharkTestCase : public TestCase
{
  public:
    RdmaTsharkTestCase()
        : TestCase("RDMA: tshark decodes a NIC pcap as RoCEv2")
    {
    }

  private:
    void DoRun() override
    {
        if (!IsInstalled("tshark"))
        {
            std::clog << GetName()
                      << ": SKIPPED: tshark is not installed: the Wireshark decoding of a NIC "
                         "pcap is not checked (apt-get install tshark)"
                      << std::endl;
            return;
        }
        std::string path = CreateTempDirFilename("rdma-nic.pcap");
        {
            NetConfig cfg;
            RdmaNet n(cfg);
            n.rdma.AddFlow(1, 0, 3000, MicroSeconds(10));
            n.rdma.AddFlow(1, 0, 500, MicroSeconds(30));
            n.net.GetPfcHelper().EnablePcap(path, n.net.GetHostDevice(0), false, true);
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(n.rdma.GetActiveFlows(), 0, "flows not finished");
            Simulator::Destroy();
        } // the pcap file is closed with the last reference to it

        std::string summary = RunCommand("tshark -r '" + path + "' 2>/dev/null");
        std::string detail = RunCommand("tshark -V -r '" + path + "' 2>/dev/null");
        for (const char* s : {"RRoCE",
                              "RC Send First",
                              "RC Send Middle",
                              "RC Send Last",
                              "RC Send Only",
                              "RC Acknowledge"})
        {
            NS_TEST_EXPECT_MSG_NE(summary.find(s), std::string::npos, "tshark: no \"" << s << "\"");
        }
        for (const char* s :
             {"Destination Queue Pair: 0x000100", "Destination Queue Pair: 0x000101"})
        {
            NS_TEST_EXPECT_MSG_NE(detail.find(s),
                                  std::string::npos,
                                  "tshark -V: no \"" << s << "\"");
        }
        uint32_t frames = std::count(summary.begin(), summary.end(), '\n');
        NS_TEST_EXPECT_MSG_EQ(frames, 6, "frames: 3 + 1 data, 2 ACKs; tshark said:\n" << summary);
        std::remove(path.c_str());
    }
};

} // namespace

/**
 * The RoCEv2 host test cases, for the TestSuite "tagger-roce".
 * \return new test cases (the suite takes ownership)
 */
/**
 * \ingroup tagger-tests
 * A flow that finishes at once is finished: one byte at time 0 over 2 Tbps
 * links of zero delay.  Every frame (83 B of data, an ACK) takes under half a
 * nanosecond, 0 ns at ns-3's 1 ns resolution, so the flow's FCT is exactly 0
 * (by hand); it must still count as finished, not be taken for one that
 * never did (finish time 0).
 */
class RdmaZeroFctTestCase : public TestCase
{
  public:
    RdmaZeroFctTestCase()
        : TestCase("RDMA: a flow finished with FCT 0 (2 Tbps, no delay) counts as finished")
    {
    }

  private:
    void DoRun() override
    {
        PfcTopologyHelper net(tagger::MakeLeafSpine(1, 1, 2));
        net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("2000Gbps"));
        net.GetPfcHelper().SetChannelAttribute("Delay", TimeValue(Time(0)));
        net.Build();
        RdmaHelper rdma;
        rdma.Install(net);
        rdma.AddFlow(1, 0, 1, Time(0));
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();
        std::vector<RdmaFlowRecord> records = rdma.GetFlowRecords();
        NS_TEST_ASSERT_MSG_EQ(records.size(), 1, "one flow");
        NS_TEST_EXPECT_MSG_EQ(records[0].fct, Time(0), "FCT 0: every frame takes 0 ns");
        NS_TEST_EXPECT_MSG_EQ(records[0].finished, true, "finished at FCT 0");
        NS_TEST_EXPECT_MSG_EQ(rdma.GetActiveFlows(), 0, "no flow active");
        std::ostringstream summary;
        RdmaHelper::PrintFctSummary(summary, records);
        const bool listed = summary.str().find("flows completed: 1 of 1") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(listed, true, summary.str());
        Simulator::Destroy();
    }
};

/// Every rate change of every sender, with its time (RunRateTrace).
struct RateTrace
{
    /// One rate change.
    struct Change
    {
        Time at;      //!< when
        uint64_t bps; //!< the new rate
    };

    std::vector<std::vector<Change>> flows; //!< per sender (host index - 1)

    /// RateChange sink. \param site the trace and the sender \param flowId flow \param bps rate
    static void Record(std::pair<RateTrace*, uint32_t>* site, uint32_t flowId, uint64_t bps)
    {
        site->first->flows[site->second].push_back({Simulator::Now(), bps});
    }
};

/**
 * The 16-to-1 incast of RunIncast (500 KB per sender, DCQCN on, byte counter
 * off so only the timer raises rates) with the senders' DCQCN variant set
 * per NIC, recording every rate change.
 * \param clamp ClampTargetRate \param decrease RateDecreaseInterval
 * \param cnpInterval the receiver's CnpInterval \return the trace, per sender
 */
RateTrace
RunRateTrace(bool clamp, Time decrease, Time cnpInterval)
{
    RdmaNet n(IncastNet(IncastConfig{}));
    RateTrace trace;
    trace.flows.resize(16);
    std::vector<std::pair<RateTrace*, uint32_t>> sites;
    sites.reserve(16);
    n.rdma.GetNic(0)->SetAttribute("CnpInterval", TimeValue(cnpInterval));
    for (uint32_t i = 1; i <= 16; ++i)
    {
        Ptr<RdmaNic> nic = n.rdma.GetNic(i);
        nic->SetAttribute("ClampTargetRate", BooleanValue(clamp));
        nic->SetAttribute("RateDecreaseInterval", TimeValue(decrease));
        nic->SetAttribute("ByteCounter", UintegerValue(0));
        nic->SetAttribute("MinRate", DataRateValue(DataRate("1Kbps")));
        n.rdma.AddFlow(i, 0, 500000, NanoSeconds(1000 + 37 * (i - 1)));
        sites.emplace_back(&trace, i - 1);
        nic->TraceConnectWithoutContext("RateChange",
                                        MakeBoundCallback(&RateTrace::Record, &sites.back()));
    }
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    Simulator::Destroy();
    return trace;
}

/// How the first rate increase after each cut agrees with a target-rate rule.
struct ClampCheck
{
    uint32_t clampMatches = 0; //!< increases that fit "every cut sets Rt = Rc"
    uint32_t mlxMatches = 0;   //!< increases that fit "only a cut after an increase does"
    uint32_t differ = 0;       //!< increases where the two rules predict differently
    uint32_t increases = 0;    //!< first increases after a cut, checked
};

/**
 * Replay a trace with both target-rate rules: the first increase after a cut
 * is fast recovery, Rc' = (Rt + Rc) / 2, so each rule predicts it from the
 * rates seen.  A flow is followed until its rate first drops below 1 Mb/s
 * (far above MinRate 1 Kb/s: a cut clamped at MinRate leaves no trace).
 * \param trace the run \param lineBps the line rate \return the counts
 */
ClampCheck
CheckClamp(const RateTrace& trace, double lineBps)
{
    ClampCheck out;
    for (const std::vector<RateTrace::Change>& flow : trace.flows)
    {
        double rc = lineBps;
        double clampRt = lineBps; // every cut: Rt = Rc
        double mlxRt = lineBps;   // only a cut after an increase
        bool increasedSinceCut = true;
        bool firstAfterCut = false;
        for (const RateTrace::Change& c : flow)
        {
            double next = double(c.bps);
            if (next < 1e6)
            {
                break;
            }
            if (next < rc)
            {
                clampRt = rc;
                if (increasedSinceCut)
                {
                    mlxRt = rc;
                }
                increasedSinceCut = false;
                firstAfterCut = true;
            }
            else if (firstAfterCut)
            {
                ++out.increases;
                double byClamp = (clampRt + rc) / 2;
                double byMlx = (mlxRt + rc) / 2;
                out.clampMatches += std::abs(next - byClamp) <= 2;
                out.mlxMatches += std::abs(next - byMlx) <= 2;
                out.differ += std::abs(byClamp - byMlx) > 2;
                firstAfterCut = false;
                increasedSinceCut = true;
            }
            else
            {
                increasedSinceCut = true;
            }
            rc = next;
        }
    }
    return out;
}

/**
 * \param trace a run \param period a decrease interval
 * \return {cuts, cuts whose distance to the flow's first cut is not a
 * multiple of \p period, cuts closer than \p period to the previous one}
 */
std::array<uint32_t, 3>
CheckCutTimes(const RateTrace& trace, Time period)
{
    std::array<uint32_t, 3> out{0, 0, 0};
    for (const std::vector<RateTrace::Change>& flow : trace.flows)
    {
        uint64_t previous = 10000000000ULL; // the line rate, 10 Gb/s
        std::optional<Time> first;
        std::optional<Time> last;
        for (const RateTrace::Change& c : flow)
        {
            if (c.bps < previous)
            {
                ++out[0];
                if (!first)
                {
                    first = c.at;
                }
                out[1] += (c.at - *first).GetTimeStep() % period.GetTimeStep() != 0;
                out[2] += last && c.at - *last < period;
                last = c.at;
            }
            previous = c.bps;
        }
    }
    return out;
}

/**
 * \ingroup tagger-tests
 * DCQCN's two Mellanox variants (ClampTargetRate false, RateDecreaseInterval
 * > 0), checked from the rate trace of a 16-to-1 incast, each against the
 * rule it must follow and the one it must not:
 *  - the first increase after a cut is fast recovery, Rc' = (Rt + Rc) / 2.
 *    Replaying the rates seen, "every cut sets Rt = Rc" (the DCQCN paper)
 *    and "only a cut after an increase does" (Mellanox) predict it; with
 *    ClampTargetRate true every such increase fits the first rule, false
 *    every one the second, and there are increases where they differ;
 *  - with RateDecreaseInterval 50 us the cuts of a flow fall on a 50 us
 *    grid from its first cut; with 0 and a CNP for every marked packet
 *    (CnpInterval 0) some cuts come closer than 50 us.
 */
class RdmaDcqcnVariantTestCase : public TestCase
{
  public:
    RdmaDcqcnVariantTestCase()
        : TestCase("RDMA: DCQCN ClampTargetRate and RateDecreaseInterval, from the rate trace")
    {
    }

  private:
    void DoRun() override
    {
        const double line = 10e9;
        ClampCheck paper = CheckClamp(RunRateTrace(true, Time(0), MicroSeconds(50)), line);
        ClampCheck mlx = CheckClamp(RunRateTrace(false, Time(0), MicroSeconds(50)), line);
        NS_TEST_EXPECT_MSG_GT(paper.increases, 10, "too few increases after a cut to tell");
        NS_TEST_EXPECT_MSG_EQ(paper.clampMatches, paper.increases, "clamp: Rt = Rc at each cut");
        NS_TEST_EXPECT_MSG_GT(mlx.differ, 0, "no increase where the two rules differ");
        NS_TEST_EXPECT_MSG_EQ(mlx.mlxMatches, mlx.increases, "no clamp: Rt kept over a train");
        NS_TEST_EXPECT_MSG_LT(mlx.clampMatches, mlx.increases, "no clamp looks like clamp");

        const Time period = MicroSeconds(50);
        std::array<uint32_t, 3> timed = CheckCutTimes(RunRateTrace(true, period, Time(0)), period);
        NS_TEST_EXPECT_MSG_GT(timed[0], 16, "too few cuts");
        NS_TEST_EXPECT_MSG_EQ(timed[1], 0, "a cut off the 50 us grid");
        NS_TEST_EXPECT_MSG_EQ(timed[2], 0, "two cuts closer than 50 us");
        std::array<uint32_t, 3> each = CheckCutTimes(RunRateTrace(true, Time(0), Time(0)), period);
        NS_TEST_EXPECT_MSG_GT(each[2], 0, "every CNP cuts: some cuts should be closer than 50 us");
    }
};

/**
 * \ingroup tagger-tests
 * A flow far beyond the 24-bit PSN range: 10^12 bytes (10^9 packets, the
 * PSN wraps 59 times over it), as ns3-datacenter's flow files hold, is
 * accepted; the limit is 2^32 - 2 packets, 4,294,967,294,000 bytes with
 * 1000-byte payloads (by hand).  In 200 us at 10 Gb/s it delivers about
 * 200 us / 866 ns = 230 packets, and stays active.
 */
class RdmaHugeFlowTestCase : public TestCase
{
  public:
    RdmaHugeFlowTestCase()
        : TestCase("RDMA: a 10^12-byte flow is accepted (32-bit packet count, PSNs wrap)")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(RdmaNic::GetMaxFlowBytes(), 4294967294000ULL, "limit");
        NetConfig cfg;
        RdmaNet n(cfg);
        n.rdma.AddFlow(1, 0, 1000000000000ULL, MicroSeconds(10));
        Simulator::Stop(MicroSeconds(210));
        Simulator::Run();
        uint64_t delivered = n.rdma.GetNic(0)->GetBytesDelivered();
        NS_TEST_EXPECT_MSG_GT(delivered, 200000, "too little delivered");
        NS_TEST_EXPECT_MSG_LT(delivered, 240000, "too much delivered");
        NS_TEST_EXPECT_MSG_EQ(n.rdma.GetActiveFlows(), 1, "active");
        Simulator::Destroy();
    }
};

std::vector<TestCase*>
MakeRdmaTestCases()
{
    return {new RdmaLineRateTestCase,
            new RdmaWindowTestCase,
            new RdmaSamePairTestCase,
            new RdmaPfcIncastTestCase(true),
            new RdmaPfcIncastTestCase(false),
            new RdmaLossyIncastTestCase,
            new RdmaDcqcnTestCase,
            new RdmaDcqcnVariantTestCase,
            new RdmaGoBackNTestCase(0),
            new RdmaGoBackNTestCase((uint32_t(1) << 24) - 115),
            new RdmaRtoIdleTestCase,
            new RdmaRtoSpuriousTestCase,
            new RdmaCsvTestCase,
            new RdmaTsharkTestCase,
            new RdmaZeroFctTestCase,
            new RdmaHugeFlowTestCase};
}
