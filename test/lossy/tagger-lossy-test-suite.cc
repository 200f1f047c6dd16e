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
 * PfcRouteHelper::ExportRoutes); more cases are added from
 * tagger-loss-test.cc.
 */

#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-bounce-tracker.h"
#include "ns3/pfc-topology-helper.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-header.h"
#include "ns3/tagger-bounce-model.h"
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
            NS_TEST_EXPECT_MSG_EQ(r.finish.IsStrictlyPositive(),
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

} // namespace

/**
 * \ingroup tagger-tests
 * The suite.
 */
class TaggerLossyTestSuite : public TestSuite
{
  public:
    TaggerLossyTestSuite()
        : TestSuite("tagger-lossy", UNIT)
    {
        AddTestCase(new BounceAgreementTestCase, TestCase::QUICK);
    }
};

/// The suite's instance.
static TaggerLossyTestSuite g_taggerLossyTestSuite;
