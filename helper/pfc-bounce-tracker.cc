/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-bounce-tracker.h"

#include "pfc-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/callback.h"

#include <algorithm>

namespace ns3
{

PfcBounceTracker::PfcBounceTracker(const PfcTopologyHelper& net)
    : m_net(net)
{
    const tagger::Topology& topo = net.GetTopology();
    NS_ABORT_MSG_IF(!topo.IsLayered(), "PfcBounceTracker: the topology has no layers");
    m_peerLayer.resize(topo.GetNNodes());
    for (tagger::NodeId v = 0; v < topo.GetNNodes(); ++v)
    {
        Ptr<PfcSwitchNetDevice> sw = net.GetSwitch(v);
        if (!sw)
        {
            continue;
        }
        m_peerLayer[v].assign(sw->GetNPorts(), -1);
        for (tagger::PortNo p = 0; p < topo.GetNode(v).ports; ++p)
        {
            tagger::NodeId peer = topo.GetPeer(v, p).node;
            if (peer != tagger::kNone && net.GetDevice(v, p))
            {
                m_peerLayer[v][net.GetSwitchPort(v, p)] = topo.GetNode(peer).layer;
            }
        }
        sw->TraceConnectWithoutContext("Forward",
                                       MakeBoundCallback(&PfcBounceTracker::Forwarded, this, v));
    }
}

std::pair<uint64_t, uint32_t>
PfcBounceTracker::Key(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
    return {uint64_t(src) << 32 | dst, uint32_t(sport) << 16 | dport};
}

void
PfcBounceTracker::Forwarded(PfcBounceTracker* tracker,
                            tagger::NodeId node,
                            Ptr<const Packet> payload,
                            const Ipv4Header& ip,
                            uint32_t inPort,
                            uint32_t outPort)
{
    const std::vector<int32_t>& peer = tracker->m_peerLayer[node];
    int32_t layer = tracker->m_net.GetTopology().GetNode(node).layer;
    bool fromHost = peer[inPort] == 0;
    bool bounce = peer[inPort] > layer && peer[outPort] > layer;
    if (!fromHost && !bounce)
    {
        return; // most hops: nothing to record
    }
    uint8_t l4[4] = {0, 0, 0, 0};
    if (payload->GetSize() >= 4)
    {
        payload->CopyData(l4, 4);
    }
    auto key = Key(ip.GetSource().Get(),
                   ip.GetDestination().Get(),
                   uint16_t(l4[0] << 8 | l4[1]),
                   uint16_t(l4[2] << 8 | l4[3]));
    std::vector<tagger::NodeId>& at = tracker->m_flows[key];
    if (bounce && std::find(at.begin(), at.end(), node) == at.end())
    {
        at.push_back(node);
    }
}

bool
PfcBounceTracker::HasFlow(Ipv4Address src, Ipv4Address dst, uint16_t sport, uint16_t dport) const
{
    return m_flows.count(Key(src.Get(), dst.Get(), sport, dport)) != 0;
}

uint32_t
PfcBounceTracker::GetBounces(Ipv4Address src, Ipv4Address dst, uint16_t sport, uint16_t dport) const
{
    auto it = m_flows.find(Key(src.Get(), dst.Get(), sport, dport));
    return it == m_flows.end() ? 0 : uint32_t(it->second.size());
}

} // namespace ns3
