/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_ROUTE_HELPER_H
#define PFC_ROUTE_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/tagger-bounce-model.h"
#include "ns3/tagger-topology.h"

#include <string>
#include <utility>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The routes of a PfcTopologyHelper network: ECMP shortest paths, link
 * failures with local reroute, pinned paths and bad routes.
 */

namespace ns3
{

class PfcTopologyHelper;

/**
 * \ingroup tagger
 * Controls the routes of the switches (and relay servers) of one
 * PfcTopologyHelper network.  Each network has exactly one, created with it
 * and reached with PfcTopologyHelper::GetRouteHelper(); Build() calls
 * PopulateRoutes().  Nodes are named as in the topology ("L2", "T1"), hosts
 * by host index.
 *
 * ECMP routes: each forwarder's set for a host is every port, on a link that
 * is up, to a neighbour one hop closer to the host, where the neighbour is
 * the host itself or a forwarder (other hosts never relay).  On a Clos or
 * fat tree these are exactly the up-down paths.  A relay server has no route
 * to its own address (it delivers it locally).
 *
 * Local reroute (FailLink): a set that loses the failed port keeps the rest;
 * a set left empty gets one random port, on a link that is up, to a
 * forwarder (not necessarily closer to the host: that is how bounced paths
 * appear, Tagger (ToN), Section VIII-D).  The rule is
 * tagger::RerouteCandidates and tagger::ApplyLocalReroute (tagger-reroute.h),
 * the one the flow-level bounce model uses too.  The choice comes from one
 * UniformRandomVariable (AssignStreams); when no such port is left the set
 * stays empty and the switch drops the host's packets (no route).
 *
 * \code
 *   PfcTopologyHelper net(tagger::MakeClos(tagger::PaperTestbedClos()));
 *   net.Build();
 *   PfcRouteHelper& routes = net.GetRouteHelper();
 *   routes.ScheduleFailLink(MilliSeconds(1), "L2", "T1");
 *   routes.PinPath({"T3", "L3", "S2", "L2", "S1", "L1", "T1"}, 0);
 * \endcode
 */
class PfcRouteHelper
{
  public:
    PfcRouteHelper(const PfcRouteHelper&) = delete;
    PfcRouteHelper& operator=(const PfcRouteHelper&) = delete;

    /**
     * Replace every forwarder's routes by the ECMP shortest-path sets over
     * the links that are up, then apply the pinned paths (PinPath).  Routes
     * set with SetRoute or by a local reroute are lost.  Call after the
     * network is built (Build() does).
     */
    void PopulateRoutes();

    /**
     * Fail the link between nodes \p a and \p b now: the channel goes down
     * (frames on it are lost) and each forwarding end reroutes locally (see
     * the class comment).  The other forwarders keep their routes.
     * \param a node name \param b node name
     */
    void FailLink(const std::string& a, const std::string& b);
    /**
     * Bring the link back: the channel goes up and every route is computed
     * again (PopulateRoutes), pinned paths included.
     * \param a node name \param b node name
     */
    void RestoreLink(const std::string& a, const std::string& b);
    /**
     * FailLink at time \p at (absolute; the names are checked now).
     * \param at when \param a node name \param b node name
     */
    void ScheduleFailLink(Time at, const std::string& a, const std::string& b);
    /**
     * RestoreLink at time \p at (absolute; the names are checked now).
     * \param at when \param a node name \param b node name
     */
    void ScheduleRestoreLink(Time at, const std::string& a, const std::string& b);

    /**
     * Pin the route to host \p dstHost along \p switches (names of
     * forwarders, in order): each one's ECMP set for the host becomes the
     * one port to the next (the last one: to the host).  Kept across
     * PopulateRoutes and RestoreLink (applied after the ECMP sets, in the
     * order pinned); a later FailLink reroutes it locally like any set.
     * \param switches the switches of the path \param dstHost host index
     */
    void PinPath(const std::vector<std::string>& switches, uint32_t dstHost);
    /**
     * Switch \p sw sends traffic for host \p dstHost to its neighbour
     * \p next, now (e.g. a bad route that loops, Tagger (ToN) Fig. 11).  Not
     * kept across PopulateRoutes.
     * \param sw switch name \param dstHost host index \param next neighbour name
     */
    void SetRoute(const std::string& sw, uint32_t dstHost, const std::string& next);
    /**
     * SetRoute at time \p at (absolute; names and host are checked now).
     * \param at when \param sw switch name \param dstHost host index \param next neighbour name
     */
    void ScheduleRoute(Time at, const std::string& sw, uint32_t dstHost, const std::string& next);

    /**
     * The forwarders' current ECMP sets for every host, in topology port
     * numbers: the data plane's routes as the rule library sees them (walk
     * flows over them with tagger::WalkFlow).
     * \return the sets, keyed by (forwarder node id, host node id)
     */
    tagger::TableRoutes ExportRoutes() const;
    /**
     * The ECMP choices the forwarders make for one 5-tuple
     * (PfcSwitchNetDevice::EcmpIndex), as a tagger::FlowChooser for
     * tagger::WalkFlow (the same at every visit, as the hash).  It refers to
     * this network's switches.
     * \param src source \param dst destination \param proto IP protocol
     * \param sport source port \param dport destination port \return the chooser
     */
    tagger::FlowChooser GetFlowChooser(Ipv4Address src,
                                       Ipv4Address dst,
                                       uint8_t proto,
                                       uint16_t sport,
                                       uint16_t dport) const;

    /**
     * Fix the random stream of the local reroute choices.
     * \param stream first RNG stream \return streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    friend class PfcTopologyHelper;

    /// \param net the network whose routes this controls (it owns this helper)
    explicit PfcRouteHelper(const PfcTopologyHelper& net);

    /**
     * \param v a node \param p one of its ports
     * \return whether the port has a device whose link is up
     */
    bool IsUp(tagger::NodeId v, tagger::PortNo p) const;

    /// A port of a node whose link is up.
    struct UpLink
    {
        tagger::PortNo port; //!< the port (topology numbering)
        tagger::NodeId peer; //!< the node at the other end
    };

    /// Per node id, its ports whose link is up (IsUp), in port order.
    using UpLinks = std::vector<std::vector<UpLink>>;

    /// Distances and ECMP sets towards one root node.
    struct RouteSearch
    {
        tagger::NodeId root;        //!< the node searched from
        std::vector<uint32_t> dist; //!< hops to the root per node id (kNone: unreachable)
        std::vector<std::vector<uint32_t>>
            sets; //!< per forwarder node id: ports (switch numbering)
    };

    /// \return every node's ports whose link is up
    UpLinks GetUpLinks() const;
    /**
     * The node a host's routes are searched from: its ToR (the forwarder at
     * the other end of its one link, when that link is up and the host does
     * not relay), else the host itself.  Hosts of one ToR get the same sets
     * at every other forwarder, as a search from each host would give.
     * \param host a host's node id \param up GetUpLinks() \return the root
     */
    tagger::NodeId GetRoot(tagger::NodeId host, const UpLinks& up) const;
    /**
     * Breadth-first from \p root over links that are up, through forwarders
     * only, then every forwarder's ECMP set: its ports, on a link that is up,
     * to a neighbour one hop closer that is the root or a forwarder.
     * \param root the node \param up GetUpLinks() \param forwarders forwarder node ids
     * \param search filled (its sets vector sized to the node count)
     */
    void Search(tagger::NodeId root,
                const UpLinks& up,
                const std::vector<tagger::NodeId>& forwarders,
                RouteSearch& search) const;
    /**
     * Install every forwarder's ECMP set for one host (the host's ToR, when
     * it is the root: its port to the host).
     * \param host host index \param hostNode its node id
     * \param search Search() from GetRoot(hostNode) \param forwarders forwarder node ids
     */
    void InstallEcmpRoutes(uint32_t host,
                           tagger::NodeId hostNode,
                           const RouteSearch& search,
                           const std::vector<tagger::NodeId>& forwarders) const;
    /// Route host \p dstHost along \p switches. \param switches names \param dstHost host index
    void SetPath(const std::vector<std::string>& switches, uint32_t dstHost);
    /**
     * Reroute around the failed port \p failed of forwarder \p v with the
     * shared rule (tagger::RerouteCandidates, tagger::ApplyLocalReroute).
     * \param v node \param failed its port (topology numbering)
     */
    void LocalReroute(tagger::NodeId v, tagger::PortNo failed);
    /// \param a name \param b name \return the (node, port) ends of their link, \p a's first
    std::pair<tagger::PortRef, tagger::PortRef> LinkEnds(const std::string& a,
                                                         const std::string& b) const;

    const PfcTopologyHelper& m_net;                                    //!< the network
    Ptr<UniformRandomVariable> m_reroute;                              //!< local reroute choices
    std::vector<std::pair<std::vector<std::string>, uint32_t>> m_pins; //!< pinned paths
};

} // namespace ns3

#endif /* PFC_ROUTE_HELPER_H */
