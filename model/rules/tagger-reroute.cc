/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "tagger-reroute.h"

#include <algorithm>

namespace ns3
{
namespace tagger
{

std::vector<PortNo>
RerouteCandidates(const Topology& topo, const PortUpFn& isUp, NodeId sw, PortNo failed)
{
    std::vector<PortNo> candidates;
    for (PortNo p = 0; p < topo.GetNode(sw).ports; ++p)
    {
        NodeId peer = topo.GetPeer(sw, p).node;
        if (p != failed && peer != kNone && topo.IsForwarder(peer) && isUp(p))
        {
            candidates.push_back(p);
        }
    }
    return candidates;
}

bool
ApplyLocalReroute(std::vector<uint32_t>& set,
                  uint32_t failed,
                  const std::vector<uint32_t>& candidates,
                  const PickFn& pick)
{
    auto it = std::find(set.begin(), set.end(), failed);
    if (it == set.end())
    {
        return false;
    }
    set.erase(it);
    if (set.empty() && !candidates.empty())
    {
        set.push_back(candidates[pick(uint32_t(candidates.size()))]);
    }
    return true;
}

} // namespace tagger
} // namespace ns3
