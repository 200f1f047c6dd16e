/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Part of the tagger algorithm library: plain C++17, no ns-3 header.
 */

#ifndef TAGGER_REROUTE_H
#define TAGGER_REROUTE_H

#include "tagger-topology.h"

#include <cstdint>
#include <functional>
#include <vector>

/**
 * \file
 * \ingroup tagger
 * The local-reroute rule after a link failure, shared by the data plane
 * (PfcRouteHelper::FailLink) and the flow-level bounce model (BounceRoutes).
 */

namespace ns3
{
namespace tagger
{

/// Whether port \p p of the switch being rerouted is on a link that is up.
using PortUpFn = std::function<bool(PortNo p)>;
/// Picks an index in [0, n) (n >= 1): the random choice of a local reroute.
using PickFn = std::function<uint32_t(uint32_t n)>;

/**
 * The candidate next hops of forwarder \p sw after the link on its port
 * \p failed went down: every other port of \p sw whose link is up
 * (\p isUp) and whose peer is a forwarder (a switch or a relay server),
 * in port order.  The candidates are not required to be closer to any
 * destination: that is how bounced paths appear (Tagger (ToN), Sec. VIII-D).
 * Ports to hosts are never candidates (a host does not relay).  Empty when
 * no such port is left.
 * \param topo the topology \param isUp link state of \p sw's ports
 * \param sw the switch next to the failure \param failed its failed port
 * \return the candidate ports, ascending
 */
std::vector<PortNo> RerouteCandidates(const Topology& topo,
                                      const PortUpFn& isUp,
                                      NodeId sw,
                                      PortNo failed);

/**
 * Apply a failure to one ECMP set: when \p set holds \p failed, remove it;
 * when that leaves the set empty and \p candidates is not, the set becomes
 * the one candidate at index \p pick(candidates.size()).  \p pick is called
 * exactly once per set emptied with candidates, never otherwise (so a
 * sequential random stream draws the same numbers in both users).  A set
 * emptied without candidates stays empty (the destination is unreachable
 * from this switch).
 * \param set an ECMP set (port numbers, any numbering shared with the
 *        other arguments) \param failed the failed port
 * \param candidates RerouteCandidates in the same numbering \param pick the choice
 * \return whether \p set held \p failed (it changed)
 */
bool ApplyLocalReroute(std::vector<uint32_t>& set,
                       uint32_t failed,
                       const std::vector<uint32_t>& candidates,
                       const PickFn& pick);

} // namespace tagger
} // namespace ns3

#endif /* TAGGER_REROUTE_H */
