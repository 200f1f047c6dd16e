/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger helpers (ns-3).
 */

#ifndef TAGGER_MPI_HELPER_H
#define TAGGER_MPI_HELPER_H

#include "ns3/node.h"
#include "ns3/ptr.h"
#include "ns3/rdma-nic.h"

#include <cstdint>
#include <string>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Distributed runs on ns-3's MPI engine: start and stop it, split a
 * network across ranks, gather counters and flow records on rank 0.
 */

namespace ns3
{

class PfcTopologyHelper;
class RdmaHelper;

/**
 * \ingroup tagger
 * Runs a network of this module on ns-3's distributed simulator (src/mpi)
 * when ns-3 was built with MPI (NS3_MPI), and as one process otherwise:
 * every function then acts as rank 0 of 1, so a program written with it
 * runs unchanged in both builds.
 *
 * A distributed program:
 * \code
 *   TaggerMpiHelper::Enable(&argc, &argv); // first: MPI_Init, the simulator
 *   ... parse the command line (every rank) ...
 *   PfcTopologyHelper net(tagger::MakeFatTree(8));
 *   TaggerMpiHelper::SplitByPod(net);      // node ranks, before Build
 *   net.Build();
 *   ... flows: RdmaHelper starts only those of the rank's own hosts ...
 *   Simulator::Stop(stop);                 // a fixed time: no StopWhenDone
 *   Simulator::Run();
 *   uint64_t pauses = TaggerMpiHelper::Sum(stats.GetPauseCount());
 *   auto records = TaggerMpiHelper::GatherFlowRecords(rdma); // all on rank 0
 *   if (TaggerMpiHelper::GetRank() == 0) { ... print ... }
 *   Simulator::Destroy();
 *   TaggerMpiHelper::Disable();
 * \endcode
 *
 * Every rank builds the whole network (same objects, same random streams);
 * only the nodes of the rank have events, so a counter of a device or NIC
 * of another rank stays 0 on this rank and the sum over ranks is the
 * network's.  Enable also turns on PfcChannel's OrderArrivals (in every
 * build, so a program's one-process run is the reference its MPI runs
 * match): frames that reach a node in the same nanosecond as its other
 * events are then handled in an order that does not depend on the ranks.  The synchroniser is
 * ns-3's granted-time-window one (ns3::DistributedSimulatorImpl) unless SimulatorImplementationType
 * is already a distributed one (NS_GLOBAL_VALUE=
 * "SimulatorImplementationType=ns3::NullMessageSimulatorImpl" picks the
 * null-message one).
 *
 * Per rank, not across ranks: PfcDeadlockOracle, ItsyDetector and
 * PfcWatchdog look at the switches of their own rank (a pause cycle that
 * crosses ranks is not seen as one), trace sinks fire on the rank of the
 * device, and RdmaHelper::StopWhenDone refuses a split network.
 */
class TaggerMpiHelper
{
  public:
    /**
     * Start MPI and the distributed simulator (call first, before any node
     * exists), and make PfcChannel::OrderArrivals the default.  Without MPI
     * in the build: only the latter.
     * \param argc main's argc \param argv main's argv
     */
    static void Enable(int* argc, char*** argv);
    /// Stop MPI (after Simulator::Destroy).  Without MPI, or when not enabled: nothing.
    static void Disable();

    static uint32_t GetRank(); //!< \return this process's rank (0 without MPI)
    static uint32_t GetSize(); //!< \return the number of ranks (1 without MPI)

    /**
     * Put the network's pods on the ranks running (PfcTopologyHelper::RanksByPod
     * with GetSize() ranks).  One rank: every node on rank 0, local channels.
     * \param net the network, not built yet
     */
    static void SplitByPod(PfcTopologyHelper& net);
    /**
     * Put node v of the network on rank ranks[v].  NS_FATAL_ERROR when a rank
     * is not running (>= GetSize()) or the map has the wrong size.
     * \param net the network, not built yet \param ranks one rank per topology node
     */
    static void Split(PfcTopologyHelper& net, const std::vector<uint32_t>& ranks);

    /// \param node a node \return whether its events run on this rank
    static bool IsLocal(Ptr<const Node> node);

    /// \param value this rank's part \return the sum over all ranks (on every rank)
    static uint64_t Sum(uint64_t value);

    /**
     * Frames that crossed ranks (PfcRemoteChannel::GetFramesSent of every
     * link of the network, summed over ranks): the MPI messages of the run.
     * \param net the network \return the count (0 in one process)
     */
    static uint64_t CountCrossRankFrames(const PfcTopologyHelper& net);

    /**
     * Each rank's text, on rank 0.
     * \param mine this rank's text
     * \return on rank 0 one string per rank, in rank order; an empty list on the others
     */
    static std::vector<std::string> GatherText(const std::string& mine);

    /**
     * The flow records of every NIC, in host order then flow order as
     * RdmaHelper::GetFlowRecords gives them in one process, each taken from
     * the rank of its host.
     * \param rdma the NICs
     * \return all records on rank 0; an empty list on the other ranks
     */
    static std::vector<RdmaFlowRecord> GatherFlowRecords(const RdmaHelper& rdma);
};

} // namespace ns3

#endif /* TAGGER_MPI_HELPER_H */
