/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger data plane (ns-3).
 */

#ifndef PFC_BOUNCE_TRACKER_H
#define PFC_BOUNCE_TRACKER_H

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/tagger-topology.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * Per-flow DOWN-then-UP bounces measured in the data plane.
 */

namespace ns3
{

class PfcTopologyHelper;

/**
 * \ingroup tagger
 * Counts, per flow (IPv4 source, destination, UDP/TCP ports), the
 * DOWN-then-UP bounces its packets take, from every forwarder's Forward
 * trace source: a bounce is a forwarder that sends a packet up (to a higher
 * layer) after it came down (from a higher layer), the turn at which Tagger
 * raises the tag (Tagger (ToN), Sec. IV-B).  A flow's bounces are the
 * distinct forwarders where its packets turned so; packets of a flow follow
 * one path while the routes stay put, so with routes that change during
 * the run a flow's count covers all its paths.  A flow is known from its
 * first packet through a forwarder that came from a host.  The topology
 * must be layered (a Clos or fat tree; NS_FATAL_ERROR otherwise).  Nothing
 * runs per packet unless a tracker is connected.
 *
 * \code
 *   PfcBounceTracker bounces(net); // after net.Build()
 *   Simulator::Run();
 *   uint32_t b = bounces.GetBounces(src, dst, sport, 4791);
 * \endcode
 */
class PfcBounceTracker
{
  public:
    /// \param net a built layered network (kept by reference); connects the traces
    explicit PfcBounceTracker(const PfcTopologyHelper& net);
    PfcBounceTracker(const PfcBounceTracker&) = delete;
    PfcBounceTracker& operator=(const PfcBounceTracker&) = delete;

    /**
     * \param src source \param dst destination \param sport source port \param dport
     * destination port \return whether a packet of the flow entered the network
     */
    bool HasFlow(Ipv4Address src, Ipv4Address dst, uint16_t sport, uint16_t dport) const;
    /**
     * \param src source \param dst destination \param sport source port \param dport
     * destination port \return the flow's bounces (0 for a flow never seen)
     */
    uint32_t GetBounces(Ipv4Address src, Ipv4Address dst, uint16_t sport, uint16_t dport) const;

    /**
     * Trace sink of one forwarder's Forward source (bound to the tracker and the node).
     * \param tracker the tracker \param node the forwarder's node id \param payload IP payload
     * \param ip header \param inPort ingress port \param outPort egress port
     */
    static void Forwarded(PfcBounceTracker* tracker,
                          tagger::NodeId node,
                          Ptr<const Packet> payload,
                          const Ipv4Header& ip,
                          uint32_t inPort,
                          uint32_t outPort);

  private:
    /// \return the flow key of a 5-tuple \param src source \param dst destination
    /// \param sport source port \param dport destination port
    static std::pair<uint64_t, uint32_t> Key(uint32_t src,
                                             uint32_t dst,
                                             uint16_t sport,
                                             uint16_t dport);

    /// Hash of a flow key.
    struct KeyHash
    {
        /// \param k key \return hash
        std::size_t operator()(const std::pair<uint64_t, uint32_t>& k) const
        {
            return std::hash<uint64_t>()(k.first * 0x9e3779b97f4a7c15ULL ^ k.second);
        }
    };

    const PfcTopologyHelper& m_net;                //!< the network
    std::vector<std::vector<int32_t>> m_peerLayer; //!< per node, per switch port: peer's layer
    /// per flow: the forwarders where it bounced
    std::unordered_map<std::pair<uint64_t, uint32_t>, std::vector<tagger::NodeId>, KeyHash> m_flows;
};

} // namespace ns3

#endif /* PFC_BOUNCE_TRACKER_H */
