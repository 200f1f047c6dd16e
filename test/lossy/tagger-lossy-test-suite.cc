/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup tagger-tests
 * The ns-3 TestSuite "tagger-lossy": the lossy queue as last resort
 * (Tagger (ToN), Sec. VIII-D) at packet level.  The bounces that RoCE flows
 * take in a simulated failed fat tree (PfcBounceTracker) equal those of the
 * flow-level model walked over the same routes (tagger::WalkFlow over
 * PfcRouteHelper::ExportRoutes); and a scaled-down cell of Table VI
 * (TaggerLossExperiment on FatTree(4)).
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-bounce-tracker.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-workload.h"
#include "ns3/roce-header.h"
#include "ns3/tagger-bounce-model.h"
#include "ns3/tagger-loss-experiment.h"
#include "ns3/tagger-topology-generators.h"
#include "ns3/test.h"

#include <map>

using namespace ns3;

namespace
{

/**
 * \ingroup tagger-tests
 * FatTree(4) with 30 % of its switch links failed (local reroute), a small
 * RoCE flow between every ordered pair of hosts, every class lossy (so
 * looping packets die by TTL instead of deadlocking PFC).  Every flow the
 * model delivers takes the model's bounce count in the simulation; a flow
 * completes exactly when the model delivers both its data and its ACKs
 * (same UDP ports, reverse direction); some flows bounce, some loop (the
 * case would prove nothing otherwise).
 */
class BounceAgreementTestCase : public TestCase
{
  public:
    BounceAgreementTestCase()
        : TestCase("packet-level bounces per flow equal the flow-level model's")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        PfcTopologyHelper net(tagger::MakeFatTree(4));
        // Every class lossy: looping packets die (TTL) instead of deadlocking PFC.
        net.GetPfcHelper().SetMmuAttribute("LosslessClasses", UintegerValue(0));
        net.Build();
        const tagger::Topology& topo = net.GetTopology();
        net.GetRouteHelper().AssignStreams(5);
        for (uint32_t l : tagger::DrawLinkFailures(topo, 0.3, 11))
        {
            const tagger::TopoLink& link = topo.GetLinks()[l];
            net.GetRouteHelper().FailLink(topo.GetNode(link.a.node).name,
                                          topo.GetNode(link.b.node).name);
        }
        PfcBounceTracker tracker(net);
        RdmaHelper rdma;
        rdma.Install(net);
        for (uint32_t s = 0; s < net.GetNHosts(); ++s)
        {
            for (uint32_t d = 0; d < net.GetNHosts(); ++d)
            {
                if (s != d)
                {
                    rdma.AddFlow(s, d, 20000, MicroSeconds(10));
                }
            }
        }
        Simulator::Stop(MilliSeconds(5));
        Simulator::Run();

        tagger::TableRoutes routes = net.GetRouteHelper().ExportRoutes();
        std::map<std::string, uint32_t> outcome; // "delivered-<bounces>", "looped", ...
        for (const RdmaFlowRecord& r : rdma.GetFlowRecords())
        {
            uint32_t s = HostIndex(net, r.src);
            uint32_t d = HostIndex(net, r.dst);
            auto walk = [&](uint32_t from, uint32_t to, Ipv4Address a, Ipv4Address b) {
                return tagger::WalkFlow(
                    topo,
                    routes,
                    topo.GetHosts()[from],
                    topo.GetHosts()[to],
                    net.GetRouteHelper().GetFlowChooser(a, b, 17, r.sport, kRoceUdpPort));
            };
            tagger::FlowWalk w = walk(s, d, r.src, r.dst);
            tagger::FlowWalk ack = walk(d, s, r.dst, r.src); // ACKs reuse the flow's ports
            bool delivered = w.outcome == tagger::WalkOutcome::DELIVERED;
            NS_TEST_EXPECT_MSG_EQ(r.finished,
                                  delivered && ack.outcome == tagger::WalkOutcome::DELIVERED,
                                  "flow " << s << "->" << d << " completes iff both ways arrive");
            if (delivered)
            {
                ++outcome["delivered-" + std::to_string(w.bounces)];
                NS_TEST_EXPECT_MSG_EQ(tracker.GetBounces(r.src, r.dst, r.sport, kRoceUdpPort),
                                      w.bounces,
                                      "bounces of flow " << s << "->" << d);
            }
            else
            {
                ++outcome[w.outcome == tagger::WalkOutcome::LOOPED ? "looped" : "unreachable"];
            }
            // Packets the first switch has no route for are never forwarded.
            NS_TEST_EXPECT_MSG_EQ(tracker.HasFlow(r.src, r.dst, r.sport, kRoceUdpPort),
                                  (w.nodes.size() > 2),
                                  "the tracker saw flow " << s << "->" << d);
        }
        NS_TEST_EXPECT_MSG_GT(outcome["delivered-0"], 0u, "flows without bounce");
        NS_TEST_EXPECT_MSG_GT(outcome["delivered-1"], 0u, "flows with one bounce");
        NS_TEST_EXPECT_MSG_GT(outcome["looped"], 0u, "looping flows");
        NS_TEST_EXPECT_MSG_GT(outcome["unreachable"], 0u, "flows without route");
        Simulator::Destroy();
    }

    /// \param net the network \param a a host address \return its host index
    static uint32_t HostIndex(const PfcTopologyHelper& net, Ipv4Address a)
    {
        for (uint32_t h = 0; h < net.GetNHosts(); ++h)
        {
            if (net.GetHostAddress(h) == a)
            {
                return h;
            }
        }
        NS_FATAL_ERROR("no host " << a);
    }
};

/**
 * \ingroup tagger-tests
 * A scaled-down Table VI cell: FatTree(4), 20 % failures, 6-to-1 web-search
 * traffic, a 100 KB lossy pool so that the baseline overflows in a short
 * run.  RoCE without PFC loses packets, and the loss rate it reports is the
 * lossy drops over the data packets counted independently on the switches'
 * Drop and Forward traces; Tagger with 2 lossless queues drops nothing
 * lossless and does not deadlock; in both, the measured bounces per flow
 * equal the model's.
 */
class LossCellTestCase : public TestCase
{
  public:
    LossCellTestCase()
        : TestCase("Table VI cell on FatTree(4): baseline loses, Tagger 2 queues lossless")
    {
    }

  private:
    void DoRun() override
    {
        TaggerLossConfig cfg;
        cfg.k = 4;
        cfg.senders = 6;
        cfg.packets = 30000;
        cfg.lossyPool = 100000;
        // A 1 ms timeout: every baseline flow recovers its losses within the
        // short run, so no data packet is on a wire at the end.
        cfg.rto = MilliSeconds(1);
        cfg.cdf = FindTaggerDataFile("websearch.cdf");
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        cfg.mode = TaggerLossMode::ROCE;
        TaggerLossResult roce = TaggerLossExperiment::Run(cfg);
        NS_TEST_EXPECT_MSG_GT(roce.lossyDrops, 0u, "the baseline loses packets");
        NS_TEST_EXPECT_MSG_EQ(roce.completed, roce.flows, "every baseline flow completes");
        NS_TEST_EXPECT_MSG_EQ(roce.lossyDrops, roce.traceLossyDrops, "drops: counters = traces");
        NS_TEST_EXPECT_MSG_EQ(roce.dataPackets, roce.traceDataPackets, "packets: NICs = traces");
        NS_TEST_EXPECT_MSG_EQ_TOL(roce.GetLossRate(),
                                  double(roce.traceLossyDrops) / roce.traceDataPackets,
                                  1e-12,
                                  "loss rate from the traces");
        NS_TEST_EXPECT_MSG_EQ(roce.bounceMismatches, 0u, "bounces: data plane = model");
        RngSeedManager::SetRun(1);
        cfg.mode = TaggerLossMode::TAGGER2;
        TaggerLossResult tagger = TaggerLossExperiment::Run(cfg);
        NS_TEST_EXPECT_MSG_EQ(tagger.losslessDrops, 0u, "no lossless drop");
        NS_TEST_EXPECT_MSG_EQ(tagger.deadlock, false, "no deadlock");
        NS_TEST_EXPECT_MSG_EQ(tagger.otherDrops, 0u, "no drop for another reason");
        NS_TEST_EXPECT_MSG_EQ(tagger.completed, tagger.flows, "every flow completes");
        NS_TEST_EXPECT_MSG_EQ(tagger.bounceMismatches, 0u, "bounces: data plane = model");
        NS_TEST_EXPECT_MSG_EQ(tagger.flows, roce.flows, "same flows in both runs");
    }
};

} // namespace

/**
 * \ingroup tagger-tests
 * The suite.
 */
class TaggerLossyTestSuite : public TestSuite
{
  public:
    TaggerLossyTestSuite()
        : TestSuite("tagger-lossy", Type::UNIT)
    {
        AddTestCase(new BounceAgreementTestCase);
        AddTestCase(new LossCellTestCase);
    }
};

/// The suite's instance.
static TaggerLossyTestSuite g_taggerLossyTestSuite;
