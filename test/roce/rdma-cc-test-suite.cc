/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Tests of the RoCE NIC's congestion control policies (RdmaCongestionControl),
 * added to the ns-3 TestSuite "tagger-roce" through MakeRdmaCcTestCases():
 *
 *  1. The policy the attributes ask for: CongestionControl picks the type,
 *     Dcqcn false turns DCQCN (only) off, the receiver's CNPs and ECN echo
 *     follow the policy.
 *  2. DCTCP (Alizadeh et al., SIGCOMM 2010) with one marking threshold K:
 *     N long flows through one 10 Gbps port keep its queue oscillating
 *     around K (Sec. 3.3: the queue's swing about K is bounded and the link
 *     stays busy), where without congestion control it grows to the PFC
 *     threshold.
 *  3. TIMELY (Mittal et al., SIGCOMM 2015): the same flows push their RTT
 *     up to T_low and keep it far below T_high once the rates settle.
 *  4. HPCC (Li et al., SIGCOMM 2019): the link near eta, the queue near
 *     empty, the flows fair, far fewer pauses than DCQCN.
 *
 * The network of 2 and 3: one leaf switch, hosts 1..N send to host 0 at 10
 * Gbps over 1 us links, class 3 lossless; the bottleneck is the leaf's port
 * to host 0, sampled every microsecond from 2 ms to 10 ms (the flows, 100 MB
 * each, are still running at the stop).
 */

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-stats-helper.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-dcqcn.h"
#include "ns3/rdma-dctcp.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-timely.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint8_t kClass = 3;                      //!< the flows' lossless class (DSCP 24)
constexpr double kLineRate = 10e9;                 //!< bit/s
constexpr uint64_t kFlowBytes = 100 * 1000 * 1000; //!< longer than the run

/// How one run went, from kLateFrom to kStop.
struct CcRun
{
    std::vector<uint64_t> queue; //!< bottleneck queue samples (B), one per us
    std::vector<double> rttUs;   //!< RTT samples of every flow (us)
    double utilization = 0;      //!< payload delivered to host 0 over the line rate
    std::string policy;          //!< the policy host 1's NIC ran
    std::vector<double> shares;  //!< each flow's payload bytes acknowledged in the window
    uint64_t pauses = 0;         //!< PAUSE decisions of the switch (whole run)

    /// \return Jain's fairness index of the flows' shares (1: all equal)
    double Fairness() const
    {
        double sum = 0;
        double squares = 0;
        for (double x : shares)
        {
            sum += x;
            squares += x * x;
        }
        return squares > 0 ? sum * sum / (shares.size() * squares) : 0;
    }

    uint64_t cnps = 0; //!< CNPs host 0 sent

    /// \return the mean queue (B)
    double MeanQueue() const
    {
        double sum = 0;
        for (uint64_t q : queue)
        {
            sum += q;
        }
        return queue.empty() ? 0 : sum / queue.size();
    }

    /// \param k bytes \return the share of queue samples above k
    double ShareAbove(uint64_t k) const
    {
        return queue.empty() ? 0
                             : double(std::count_if(queue.begin(),
                                                    queue.end(),
                                                    [k](uint64_t q) { return q > k; })) /
                                   queue.size();
    }

    /// \param lo us \param hi us \return the share of RTT samples within [lo, hi]
    double RttShareWithin(double lo, double hi) const
    {
        return rttUs.empty()
                   ? 0
                   : double(std::count_if(rttUs.begin(),
                                          rttUs.end(),
                                          [lo, hi](double r) { return r >= lo && r <= hi; })) /
                         rttUs.size();
    }

    /// \return a one-line summary for messages
    std::string Summary() const
    {
        std::ostringstream os;
        os << policy << ": mean queue " << MeanQueue() << " B, max "
           << (queue.empty() ? 0 : *std::max_element(queue.begin(), queue.end()))
           << " B, utilization " << utilization << ", RTT samples " << rttUs.size() << ", CNPs "
           << cnps << ", pauses " << pauses << ", fairness " << Fairness();
        return os.str();
    }
};

/// Trace sinks and the sampler of one run.
struct CcProbe
{
    Ptr<PfcNetDevice> bottleneck; //!< the leaf's port to host 0
    CcRun* out;                   //!< where samples go
    Time lateFrom;                //!< start of the measured window
    uint64_t deliveredEarly = 0;  //!< bytes host 0 had at lateFrom

    std::vector<uint64_t> ackedEarly; //!< each sender's acknowledged bytes at lateFrom

    /// \param rdma the NICs: what host 0 had, and each sender had acknowledged, by lateFrom
    void Mark(const RdmaHelper* rdma)
    {
        deliveredEarly = rdma->GetNic(0)->GetBytesDelivered();
        for (uint32_t h = 1; h < rdma->GetNHosts(); ++h)
        {
            ackedEarly.push_back(rdma->GetNic(h)->GetAckedBytes(0));
        }
    }

    /// Take a queue sample; the next one 1 us later.
    void Sample()
    {
        if (Simulator::Now() >= lateFrom)
        {
            out->queue.push_back(bottleneck->GetQueueBytes(kClass));
        }
        Simulator::Schedule(MicroSeconds(1), &CcProbe::Sample, this);
    }

    /// RttSample sink. \param flow flow \param rtt its RTT
    void Rtt(uint32_t /* flow */, Time rtt)
    {
        if (Simulator::Now() >= lateFrom)
        {
            out->rttUs.push_back(rtt.GetSeconds() * 1e6);
        }
    }
};

/**
 * N long flows into host 0 on one leaf (see the file comment).
 * \param cc RdmaHelper's name of the policy \param senders N
 * \param kmin EcnKmin \param kmax EcnKmax \param pmax EcnPmax (the switch ports' marking)
 * \param lateFrom start of the measured window \param stop end of the run
 * \return what the run measured
 */
CcRun
RunLongFlows(const std::string& cc,
             uint32_t senders,
             uint64_t kmin,
             uint64_t kmax,
             double pmax,
             Time lateFrom,
             Time stop,
             uint64_t buffer = 12 * 1024 * 1024)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    PfcTopologyHelper net(tagger::MakeLeafSpine(1, 1, senders + 1));
    PfcHelper& pfc = net.GetPfcHelper();
    pfc.SetDeviceAttribute("DataRate", StringValue("10Gbps"));
    pfc.SetDeviceAttribute("EcnKmin", UintegerValue(kmin));
    pfc.SetDeviceAttribute("EcnKmax", UintegerValue(kmax));
    pfc.SetDeviceAttribute("EcnPmax", DoubleValue(pmax));
    pfc.SetChannelAttribute("Delay", TimeValue(MicroSeconds(1)));
    pfc.SetMmuAttribute("LosslessClasses", UintegerValue(1u << kClass));
    pfc.SetMmuAttribute("BufferSize", UintegerValue(buffer));
    pfc.SetMmuAttribute("LossyPoolSize", UintegerValue(buffer / 4));
    // HPCC: RdmaHelper::Install turns INT on in the switch
    net.Build();
    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    rdma.Install(net);
    CcRun out;
    CcProbe probe{nullptr, &out, lateFrom};
    const tagger::Topology& topo = net.GetTopology();
    tagger::PortRef tor = topo.GetPeer(topo.GetHosts()[0], 0);
    probe.bottleneck = net.GetDevice(tor.node, tor.port);
    for (uint32_t i = 1; i <= senders; ++i)
    {
        rdma.AddFlow(i, 0, kFlowBytes, MicroSeconds(1) + NanoSeconds(37 * i));
        rdma.GetNic(i)->TraceConnectWithoutContext("RttSample",
                                                   MakeCallback(&CcProbe::Rtt, &probe));
    }
    Simulator::Schedule(Time(0), &CcProbe::Sample, &probe);
    Simulator::Schedule(lateFrom, &CcProbe::Mark, &probe, &rdma);
    Simulator::Stop(stop);
    Simulator::Run();
    const double bits = 8.0 * (rdma.GetNic(0)->GetBytesDelivered() - probe.deliveredEarly);
    out.utilization = bits / ((stop - lateFrom).GetSeconds() * kLineRate);
    out.policy = rdma.GetNic(1)->GetCongestionControl()->GetName();
    out.cnps = rdma.GetNic(0)->GetCnpsSent();
    out.pauses = PfcStatsHelper(net).GetPauseCount();
    for (uint32_t h = 1; h <= senders; ++h)
    {
        out.shares.push_back(double(rdma.GetNic(h)->GetAckedBytes(0) - probe.ackedEarly[h - 1]));
    }
    Simulator::Destroy();
    return out;
}

/**
 * \ingroup tagger-tests
 * Test 1: the policy the attributes ask for, and what the receiver sends.
 */
class RdmaCcSelectionTestCase : public TestCase
{
  public:
    RdmaCcSelectionTestCase()
        : TestCase("RDMA CC: CongestionControl and Dcqcn pick the policy; CNPs and ECN echo "
                   "follow it")
    {
    }

  private:
    void DoRun() override
    {
        struct Row
        {
            std::string cc;     // RdmaHelper name
            bool dcqcn;         // Dcqcn attribute
            std::string policy; // expected GetName()
            bool cnps;          // the receiver sends CNPs
            bool echo;          // the receiver sets BECN on ACKs
        };

        for (const Row& row : {Row{"dcqcn", true, "dcqcn", true, false},
                               Row{"dcqcn", false, "none", true, false},
                               Row{"hpcc", true, "hpcc", false, false},
                               Row{"dctcp", false, "dctcp", false, true},
                               Row{"timely", true, "timely", false, false},
                               Row{"none", true, "none", true, false}})
        {
            // 2 senders at line rate through a port that marks above 5 KB: CE marks for sure
            PfcTopologyHelper net(tagger::MakeLeafSpine(1, 1, 3));
            net.GetPfcHelper().SetDeviceAttribute("DataRate", StringValue("10Gbps"));
            net.GetPfcHelper().SetDeviceAttribute("EcnKmax", UintegerValue(5000));
            net.GetPfcHelper().SetDeviceAttribute("EcnPmax", DoubleValue(1.0));
            net.Build();
            RdmaHelper rdma;
            rdma.SetCongestionControl(row.cc);
            rdma.SetNicAttribute("Dcqcn", BooleanValue(row.dcqcn));
            rdma.Install(net);
            rdma.AddFlow(1, 0, 1000000, MicroSeconds(1));
            rdma.AddFlow(2, 0, 1000000, MicroSeconds(1));
            Simulator::Stop(MilliSeconds(20));
            Simulator::Run();
            const std::string what = row.cc + (row.dcqcn ? "" : " with Dcqcn false");
            NS_TEST_EXPECT_MSG_EQ(rdma.GetNic(1)->GetCongestionControl()->GetName(),
                                  row.policy,
                                  what);
            const bool cnps = rdma.GetNic(0)->GetCnpsSent() > 0;
            const uint64_t becn = rdma.GetNic(1)->GetEcnEchoesReceived();
            const bool echo = becn > 0;
            NS_TEST_EXPECT_MSG_EQ(cnps, row.cnps, what << ": CNPs");
            NS_TEST_EXPECT_MSG_EQ(echo, row.echo, what << ": ACKs with BECN " << becn);
            NS_TEST_EXPECT_MSG_EQ(rdma.GetActiveFlows(), 0, what << ": flows finished");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup tagger-tests
 * Test 2: DCTCP with one marking threshold K = 65 packets (the DCTCP
 * paper's K at 10 Gbps; EcnKmin = EcnKmax = K, EcnPmax 1), N = 2 and 8
 * long flows.  The DCTCP paper (Sec. 3.3) derives for N synchronized
 * window-based flows a sawtooth of the queue with its top at Q_max = K + N
 * packets and amplitude A = (1/2) sqrt(2 N (C RTT + K)) packets (C RTT: the
 * bandwidth-delay product, about 10 packets here: 10 Gbps x 8.5 us).  So
 * the queue's mean lies within [K - A, K + N], no sample far above K + N (at
 * most A more: ACKs come every 4 packets, not every packet), and the link
 * stays busy (every payload byte the link can carry: 1,000 of every 1,082
 * wire bytes).  Without congestion control the same flows' queue stands far
 * above K.
 */
class RdmaDctcpQueueTestCase : public TestCase
{
  public:
    RdmaDctcpQueueTestCase()
        : TestCase("RDMA CC: DCTCP holds the queue about its marking threshold K (DCTCP's "
                   "sawtooth: within [K - A, K + N], the link busy)")
    {
    }

  private:
    void DoRun() override
    {
        const double packet = 1058;                    // frame bytes in the queue
        const double k = 65;                           // packets
        const double bdp = 10e9 * 8.5e-6 / 8 / packet; // C RTT, packets
        const double payloadShare = 1000.0 / 1082.0;   // the most utilization can be
        const uint64_t kBytes = uint64_t(k * packet);
        for (uint32_t n : {2u, 8u})
        {
            CcRun r =
                RunLongFlows("dctcp", n, kBytes, kBytes, 1.0, MilliSeconds(2), MilliSeconds(10));
            const double a = 0.5 * std::sqrt(2.0 * n * (bdp + k));
            const std::string what =
                "N " + std::to_string(n) + ", A " + std::to_string(a) + " packets: " + r.Summary();
            NS_TEST_EXPECT_MSG_GT(r.MeanQueue(), (k - a) * packet, what);
            NS_TEST_EXPECT_MSG_LT(r.MeanQueue(), (k + n) * packet, what);
            NS_TEST_EXPECT_MSG_LT(double(*std::max_element(r.queue.begin(), r.queue.end())),
                                  (k + n + a) * packet,
                                  what);
            NS_TEST_EXPECT_MSG_GT(r.ShareAbove(kBytes),
                                  0.01,
                                  "the queue never reached K; " << what);
            NS_TEST_EXPECT_MSG_GT(r.utilization, 0.99 * payloadShare, what);
            CcRun none =
                RunLongFlows("none", n, kBytes, kBytes, 1.0, MilliSeconds(2), MilliSeconds(10));
            NS_TEST_EXPECT_MSG_GT(none.MeanQueue(),
                                  10 * k * packet,
                                  "without CC: " << none.Summary());
        }
    }
};

/**
 * \ingroup tagger-tests
 * Test 3: TIMELY at its paper's parameters (T_low 50 us, T_high 500 us,
 * minRTT 20 us, beta 0.8, delta 10 Mb/s), N = 2 and 8 long flows, measured
 * from 25 to 50 ms.  Below T_low the rate only grows, so the flows push the
 * RTT up to T_low (the 99th percentile of the samples at least 0.8 T_low);
 * above it a positive gradient cuts, so the RTT stays near T_low and never
 * reaches T_high (every sample below 1.5 T_low); the link carries at least 85
 * % of what it can (1,000 payload bytes of every 1,082).
 */
class RdmaTimelyRttTestCase : public TestCase
{
  public:
    RdmaTimelyRttTestCase()
        : TestCase("RDMA CC: TIMELY holds the RTT at T_low, far below T_high, the link busy")
    {
    }

  private:
    void DoRun() override
    {
        const double tLow = 50;
        const double tHigh = 500;
        for (uint32_t n : {2u, 8u})
        {
            CcRun r =
                RunLongFlows("timely", n, 5000, 200000, 0.01, MilliSeconds(25), MilliSeconds(50));
            std::vector<double> rtt = r.rttUs;
            std::sort(rtt.begin(), rtt.end());
            const std::string what = "N " + std::to_string(n) + ": " + r.Summary();
            NS_TEST_ASSERT_MSG_GT(rtt.size(), 500, what);
            const double p99 = rtt[rtt.size() * 99 / 100];
            NS_TEST_EXPECT_MSG_GT(p99, 0.8 * tLow, what << ", RTT p99 " << p99 << " us");
            NS_TEST_EXPECT_MSG_LT(rtt.back(), 1.5 * tLow, what << ", RTT max " << rtt.back());
            NS_TEST_EXPECT_MSG_LT(rtt.back(), tHigh, what);
            NS_TEST_EXPECT_MSG_GT(r.utilization, 0.85 * 1000.0 / 1082.0, what);
        }
    }
};

/**
 * \ingroup tagger-tests
 * Test 4: HPCC (Li et al., SIGCOMM 2019) with INT on the switch, N = 2 and
 * 16 long flows, measured from 2 to 10 ms, a 1 MiB switch buffer (so that
 * DCQCN's queue reaches the PFC thresholds).  HPCC's claims (Sec. 3): the
 * link runs at about eta = 95 % (the wire's utilization within 4 points of
 * it: the payload share of a data frame is 1,000 of 1,126 wire bytes, 44 of
 * them INT), the queue stays near zero (a mean below 5 packets), the flows
 * share fairly (Jain's index at least 0.99), and PFC pauses at most a tenth
 * as often as DCQCN's on the same run (which must pause).
 */
class RdmaHpccTestCase : public TestCase
{
  public:
    RdmaHpccTestCase()
        : TestCase("RDMA CC: HPCC runs the link at eta with a near-empty queue, fair, and "
                   "pauses far less than DCQCN")
    {
    }

  private:
    void DoRun() override
    {
        // 1,000 payload + IPv4 20 + UDP 8 + BTH 12 + INT 44 + ICRC 4 + Ethernet 14 + FCS 4
        // + preamble 8 + gap 12
        const double wire = 1000 + 20 + 8 + 12 + 44 + 4 + 14 + 4 + 8 + 12;
        const double frame = wire - 20; // in the queue: no preamble, no gap
        for (uint32_t n : {2u, 16u})
        {
            const uint64_t buffer = 1024 * 1024;
            CcRun h = RunLongFlows("hpcc",
                                   n,
                                   5000,
                                   200000,
                                   0.01,
                                   MilliSeconds(2),
                                   MilliSeconds(10),
                                   buffer);
            CcRun d = RunLongFlows("dcqcn",
                                   n,
                                   5000,
                                   200000,
                                   0.01,
                                   MilliSeconds(2),
                                   MilliSeconds(10),
                                   buffer);
            const std::string what =
                "N " + std::to_string(n) + ": " + h.Summary() + "; " + d.Summary();
            const double onWire = h.utilization * wire / 1000;
            NS_TEST_EXPECT_MSG_GT(onWire, 0.95 - 0.04, what);
            NS_TEST_EXPECT_MSG_LT(onWire, 0.95 + 0.04, what);
            NS_TEST_EXPECT_MSG_LT(h.MeanQueue(), 5 * frame, what);
            NS_TEST_EXPECT_MSG_GT(h.Fairness(), 0.99, what);
            NS_TEST_EXPECT_MSG_GT(d.pauses, 0, "DCQCN did not pause: " << what);
            NS_TEST_EXPECT_MSG_LT(10 * h.pauses, d.pauses, what);
        }
    }
};

} // namespace

/// \return the congestion control test cases
std::vector<TestCase*>
MakeRdmaCcTestCases()
{
    return {new RdmaCcSelectionTestCase,
            new RdmaHpccTestCase,
            new RdmaDctcpQueueTestCase,
            new RdmaTimelyRttTestCase};
}
