/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_BOUNCE_MODEL_H
#define TAGGER_BOUNCE_MODEL_H

#include "tagger-topology.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The flow-level bounce model of Tagger (ToN), Sec. VIII-D (Fig. 14): ECMP
 * routes, random link failures with local reroute, and flows walked hop by
 * hop, counting their DOWN-then-UP bounces.  Route computation (RouteView,
 * BounceRoutes) is separate from the walk (WalkFlow), so the walk also runs
 * over routes read from a simulated data plane.
 */

namespace ns3
{
namespace tagger
{

/**
 * The per-destination ECMP sets of the forwarders of a network, in topology
 * port numbers.
 */
class RouteView
{
  public:
    virtual ~RouteView() = default;
    /**
     * \param sw a forwarder \param dstHost a host's node id
     * \param set out: \p sw's ECMP set for \p dstHost (empty: no route)
     */
    virtual void GetEcmpSet(NodeId sw, NodeId dstHost, std::vector<PortNo>& set) const = 0;

    /**
     * The set a flow finds at its \p visit-th visit (0: the first) of \p sw,
     * for walks that draw anew at every visit (WalkFlow's \p redraw).  Routes
     * that stay put between visits, as a data plane's, give GetEcmpSet.
     * \param sw a forwarder \param dstHost a host \param visit earlier visits
     * \param set out: the ECMP set
     */
    virtual void GetEcmpSetOnVisit(NodeId sw,
                                   NodeId dstHost,
                                   uint32_t visit,
                                   std::vector<PortNo>& set) const
    {
        GetEcmpSet(sw, dstHost, set);
    }
};

/**
 * Explicit ECMP sets, e.g. written by hand or read from a simulated data
 * plane's forwarding tables.  A (forwarder, host) pair never set has no route.
 */
class TableRoutes : public RouteView
{
  public:
    /// \param sw a forwarder \param dstHost a host \param set its ECMP set (topology ports)
    void SetEcmpSet(NodeId sw, NodeId dstHost, const std::vector<PortNo>& set);
    void GetEcmpSet(NodeId sw, NodeId dstHost, std::vector<PortNo>& set) const override;

  private:
    std::map<std::pair<NodeId, NodeId>, std::vector<PortNo>> m_sets; //!< (sw, host) -> set
};

/**
 * One flow's ECMP choice at forwarder \p sw among \p n >= 2 ports, at its
 * \p visit-th visit there (0: the first; only WalkFlow's redraw mode visits
 * a switch again): an index in [0, n).
 */
using FlowChooser = std::function<uint32_t(NodeId sw, uint32_t n, uint32_t visit)>;

/// How a flow's walk ended.
enum class WalkOutcome
{
    DELIVERED,  //!< reached the destination host
    LOOPED,     //!< came back to a switch it had left (a loop), or ran out of TTL
    UNREACHABLE //!< met a switch with an empty ECMP set (no route)
};

/// The path of one flow and its bounces.
struct FlowWalk
{
    WalkOutcome outcome{WalkOutcome::DELIVERED}; //!< how it ended
    uint32_t bounces{0};                         //!< DOWN-then-UP turns taken
    std::vector<NodeId> nodes;                   //!< source host, forwarders, (destination)
};

/**
 * Walk one flow from host \p src to host \p dst.  The source sends on its
 * port 0; each forwarder takes its ECMP set for \p dst from \p routes and,
 * when it has two ports or more, the one \p choose names.  Routes and
 * choices are functions of (forwarder, flow), as in a data plane that hashes
 * the 5-tuple, so a flow that comes back to a forwarder loops forever: the
 * walk stops there (LOOPED), as it does after \p maxSwitches forwarders (the
 * TTL: a packet sent with TTL 64 crosses at most 63 switches).  A bounce is a
 * forwarder entered from a higher layer and left to a higher layer (the
 * turn at which TagClos raises the tag); the topology must be layered.
 * Throws TaggerError when it is not, or when \p src or \p dst is not a host.
 *
 * With \p redraw (a sensitivity variant, not the data plane's behaviour) a
 * switch visited again draws anew: its set (GetEcmpSetOnVisit) and choice
 * depend on the visit, so a flow that comes back may leave another way; it
 * is LOOPED only when it runs out of TTL.
 * \param topo the topology \param routes the ECMP sets \param src source host
 * \param dst destination host \param choose the flow's ECMP choices
 * \param maxSwitches forwarders a flow may cross \param redraw draw anew at each visit
 * \return the walk
 */
FlowWalk WalkFlow(const Topology& topo,
                  const RouteView& routes,
                  NodeId src,
                  NodeId dst,
                  const FlowChooser& choose,
                  uint32_t maxSwitches = 63,
                  bool redraw = false);

/**
 * Shortest hop counts from every forwarder to every host's access switch on
 * the whole topology (all links up), through forwarders only: the ECMP sets
 * before any failure.  Hosts must be single-homed and not relay (a fat tree
 * or Clos); throws TaggerError naming the host otherwise.  Memory: one byte
 * per (access switch, forwarder).
 */
class EcmpDistances
{
  public:
    /// \param topo the topology (kept by reference) \param threads worker threads (>= 1)
    EcmpDistances(const Topology& topo, unsigned threads = 1);

    /// \param host a host \return the switch it hangs off
    NodeId GetAccess(NodeId host) const
    {
        return m_access[host];
    }

    /**
     * \param fwd a forwarder \param access an access switch
     * \return hops from \p fwd to \p access (kUnreachable when none)
     */
    uint8_t Get(NodeId fwd, NodeId access) const
    {
        return m_dist[std::size_t(m_row[access]) * m_nFwd + m_col[fwd]];
    }

    /// The topology.
    const Topology& GetTopology() const
    {
        return m_topo;
    }

    static constexpr uint8_t kUnreachable = 255; //!< no path

  private:
    /// Fill the row of access switch \p a by breadth-first search. \param a its node id
    void Bfs(NodeId a);

    const Topology& m_topo;       //!< the topology
    std::vector<NodeId> m_access; //!< per node id: a host's access switch
    std::vector<uint32_t> m_row;  //!< per node id: row of an access switch
    std::vector<uint32_t> m_col;  //!< per node id: column of a forwarder
    std::size_t m_nFwd{0};        //!< forwarders (columns)
    std::vector<uint8_t> m_dist;  //!< rows x columns hop counts
};

/**
 * The routes of a network after link failures with local reroute, as
 * PfcRouteHelper builds them in the data plane: ECMP shortest-path sets on
 * the whole topology, then the failed links in the order given, each end
 * applying tagger::RerouteCandidates / tagger::ApplyLocalReroute
 * (tagger-reroute.h) to every destination.  Sets are computed on demand
 * per (forwarder, destination host), so a 64-port fat tree needs no table
 * per host.  The random reroute choice of forwarder v for host d at
 * failure number s is a hash of (seed, v, d, s), not a sequential stream:
 * results do not depend on the order sets are asked for (nor on threads),
 * but they differ from the data plane's draws for the same failures.
 */
class BounceRoutes : public RouteView
{
  public:
    /**
     * \param dist the distances of the topology (kept by reference)
     * \param failedLinks indices into Topology::GetLinks(), in failure order
     * \param seed seed of the reroute choices
     */
    BounceRoutes(const EcmpDistances& dist,
                 const std::vector<uint32_t>& failedLinks,
                 uint64_t seed);
    void GetEcmpSet(NodeId sw, NodeId dstHost, std::vector<PortNo>& set) const override;
    /// The reroute choices of a later visit are hashes salted with \p visit.
    /// \param sw forwarder \param dstHost host \param visit earlier visits \param set out: the set
    void GetEcmpSetOnVisit(NodeId sw,
                           NodeId dstHost,
                           uint32_t visit,
                           std::vector<PortNo>& set) const override;

  private:
    /// One failed port of a forwarder.
    struct Failure
    {
        PortNo port;                    //!< the port
        uint32_t step;                  //!< its place in the failure order
        std::vector<PortNo> candidates; //!< RerouteCandidates at that moment
    };

    const EcmpDistances& m_dist;                  //!< the distances
    std::vector<std::vector<Failure>> m_failures; //!< per node id, in failure order
    uint64_t m_seed;                              //!< reroute choices
};

/**
 * Each switch-to-switch link of \p topo fails with probability \p rate,
 * independently (std::mt19937_64 seeded with \p seed, one draw per such link
 * in link order).
 * \param topo the topology \param rate in [0, 1] \param seed the seed
 * \return indices of the failed links, in link order (the failure order)
 */
std::vector<uint32_t> DrawLinkFailures(const Topology& topo, double rate, uint64_t seed);

/// Flow counts of one run of the model.
struct BounceCounts
{
    uint64_t flows{0};                 //!< flows walked
    std::array<uint64_t, 4> bounced{}; //!< delivered flows with 0, 1, 2, more bounces
    uint64_t looped{0};                //!< LOOPED flows
    uint64_t unreachable{0};           //!< UNREACHABLE flows
    /// Add \p o's counts. \param o other counts
    void Add(const BounceCounts& o);
};

/**
 * Walk \p flows flows between random distinct hosts (source and
 * destination drawn uniformly, possibly under one switch).  Flow i's
 * hosts and ECMP choices are hashes of (seed, i), so the counts do not
 * depend on \p threads.
 * \param routes the routes \param dist their distances (topology, hosts)
 * \param flows flows \param seed the seed \param threads worker threads (>= 1)
 * \param redraw WalkFlow's redraw variant
 * \return the counts
 */
BounceCounts RunBounceFlows(const RouteView& routes,
                            const EcmpDistances& dist,
                            uint64_t flows,
                            uint64_t seed,
                            unsigned threads = 1,
                            bool redraw = false);

/// A sample mean and the half-width of its 95 % confidence interval.
struct MeanCi
{
    double mean{0}; //!< the mean
    double half{0}; //!< Student-t half width (0 for one sample)
};

/// \param x samples (at least one) \return their mean and 95 % CI (Student t)
MeanCi MeanCi95(const std::vector<double>& x);

/// A 64-bit mix of \p a and \p b (SplitMix64 finaliser). \param a value \param b value \return hash
uint64_t HashMix(uint64_t a, uint64_t b);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_BOUNCE_MODEL_H */
