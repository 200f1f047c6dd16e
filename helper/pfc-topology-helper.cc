/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-control-layer.h"

#include <deque>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcTopologyHelper");

PfcTopologyHelper::PfcTopologyHelper(const tagger::Topology& topology)
    : m_topo(topology),
      m_built(false)
{
}

PfcHelper&
PfcTopologyHelper::GetPfcHelper()
{
    return m_pfc;
}

void
PfcTopologyHelper::Build()
{
    NS_ABORT_MSG_IF(m_built, "PfcTopologyHelper::Build: called twice");
    m_built = true;
    const uint32_t n = m_topo.GetNNodes();
    m_nodes.Create(n);
    m_switches.assign(n, nullptr);
    m_devices.assign(m_topo.GetNPorts(), nullptr);
    m_switchPort.assign(m_topo.GetNPorts(), kPfcNoPort);
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        const tagger::TopoNode& node = m_topo.GetNode(v);
        NS_ABORT_MSG_IF(m_topo.IsHost(v) && node.relay,
                        "PfcTopologyHelper: relay host " << node.name
                                                         << " (BCube) is not supported yet");
        if (!m_topo.IsHost(v))
        {
            m_switches[v] = m_pfc.InstallSwitch(m_nodes.Get(v));
        }
        else
        {
            m_hosts.push_back(v);
        }
    }
    // One channel per link; ports join their switch afterwards, in port order.
    for (const tagger::TopoLink& link : m_topo.GetLinks())
    {
        NetDeviceContainer d =
            m_pfc.Connect(m_nodes.Get(link.a.node), m_nodes.Get(link.b.node), false);
        m_devices[m_topo.GetPortIndex(link.a.node, link.a.port)] = DynamicCast<PfcNetDevice>(d.Get(0));
        m_devices[m_topo.GetPortIndex(link.b.node, link.b.port)] = DynamicCast<PfcNetDevice>(d.Get(1));
    }
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (!m_switches[v])
        {
            continue;
        }
        for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
        {
            tagger::PortIndex idx = m_topo.GetPortIndex(v, p);
            if (m_devices[idx])
            {
                m_switchPort[idx] = m_switches[v]->AddPort(m_devices[idx]);
            }
        }
    }
    // Hosts: Internet stack, one address each, mq traffic control.
    InternetStackHelper internet;
    NetDeviceContainer hostDevices;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        tagger::NodeId v = m_hosts[h];
        NS_ABORT_MSG_IF(m_topo.GetNode(v).ports != 1 || !GetDevice(v, 0),
                        "PfcTopologyHelper: host " << m_topo.GetNode(v).name
                                                   << " must have exactly one connected port");
        Ptr<Node> node = m_nodes.Get(v);
        internet.Install(node);
        uint32_t id = h + 1;
        NS_ABORT_MSG_IF(id >= (1u << 24), "PfcTopologyHelper: more than 2^24 - 2 hosts");
        Ipv4Address address((10u << 24) | id);
        Ptr<PfcNetDevice> device = GetDevice(v, 0);
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        int32_t itf = ipv4->AddInterface(device);
        ipv4->AddAddress(itf, Ipv4InterfaceAddress(address, Ipv4Mask("255.0.0.0")));
        ipv4->SetUp(itf);
        m_hostAddress.push_back(address);
        hostDevices.Add(device);
    }
    PfcHelper::InstallHostTrafficControl(hostDevices);
    PopulateRoutes();
}

void
PfcTopologyHelper::PopulateRoutes()
{
    const uint32_t n = m_topo.GetNNodes();
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (m_switches[v])
        {
            m_switches[v]->ClearRoutes();
        }
    }
    std::vector<uint32_t> dist(n);
    std::deque<tagger::NodeId> queue;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        // Breadth-first from the host over links that are up, through switches only.
        std::fill(dist.begin(), dist.end(), tagger::kNone);
        dist[m_hosts[h]] = 0;
        queue.assign(1, m_hosts[h]);
        while (!queue.empty())
        {
            tagger::NodeId u = queue.front();
            queue.pop_front();
            if (u != m_hosts[h] && !m_switches[u])
            {
                continue; // hosts do not relay
            }
            for (tagger::PortNo p = 0; p < m_topo.GetNode(u).ports; ++p)
            {
                Ptr<PfcNetDevice> dev = m_devices[m_topo.GetPortIndex(u, p)];
                if (!dev || !dev->IsLinkUp())
                {
                    continue;
                }
                tagger::NodeId w = m_topo.GetPeer(u, p).node;
                if (dist[w] == tagger::kNone)
                {
                    dist[w] = dist[u] + 1;
                    queue.push_back(w);
                }
            }
        }
        for (tagger::NodeId v = 0; v < n; ++v)
        {
            if (!m_switches[v] || dist[v] == tagger::kNone)
            {
                continue;
            }
            std::vector<uint32_t> ports;
            for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
            {
                tagger::PortIndex idx = m_topo.GetPortIndex(v, p);
                if (!m_devices[idx] || !m_devices[idx]->IsLinkUp())
                {
                    continue;
                }
                tagger::NodeId w = m_topo.GetPeer(v, p).node;
                if (dist[w] + 1 == dist[v] && (w == m_hosts[h] || m_switches[w]))
                {
                    ports.push_back(m_switchPort[idx]);
                }
            }
            m_switches[v]->SetRoute(m_hostAddress[h], Ipv4Mask("255.255.255.255"), ports);
        }
    }
}

const tagger::Topology&
PfcTopologyHelper::GetTopology() const
{
    return m_topo;
}

NodeContainer
PfcTopologyHelper::GetNodes() const
{
    return m_nodes;
}

NodeContainer
PfcTopologyHelper::GetHosts() const
{
    NodeContainer c;
    for (tagger::NodeId v : m_hosts)
    {
        c.Add(m_nodes.Get(v));
    }
    return c;
}

NodeContainer
PfcTopologyHelper::GetSwitches() const
{
    NodeContainer c;
    for (uint32_t v = 0; v < m_switches.size(); ++v)
    {
        if (m_switches[v])
        {
            c.Add(m_nodes.Get(v));
        }
    }
    return c;
}

uint32_t
PfcTopologyHelper::GetNHosts() const
{
    return m_hosts.size();
}

Ptr<Node>
PfcTopologyHelper::GetHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return m_nodes.Get(m_hosts[host]);
}

Ipv4Address
PfcTopologyHelper::GetHostAddress(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hostAddress.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return m_hostAddress[host];
}

Ptr<PfcNetDevice>
PfcTopologyHelper::GetHostDevice(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return GetDevice(m_hosts[host], 0);
}

Ptr<Node>
PfcTopologyHelper::GetNode(tagger::NodeId node) const
{
    return m_nodes.Get(node);
}

Ptr<PfcNetDevice>
PfcTopologyHelper::GetDevice(tagger::NodeId node, tagger::PortNo port) const
{
    return m_devices[m_topo.GetPortIndex(node, port)];
}

uint32_t
PfcTopologyHelper::GetSwitchPort(tagger::NodeId node, tagger::PortNo port) const
{
    return m_switchPort[m_topo.GetPortIndex(node, port)];
}

Ptr<PfcChannel>
PfcTopologyHelper::GetChannel(tagger::NodeId a, tagger::NodeId b) const
{
    tagger::PortNo p = m_topo.GetPortTo(a, b);
    if (p == tagger::kNone)
    {
        return nullptr;
    }
    Ptr<PfcNetDevice> dev = GetDevice(a, p);
    return dev ? dev->GetPfcChannel() : nullptr;
}

Ptr<PfcSwitchNetDevice>
PfcTopologyHelper::GetSwitch(tagger::NodeId node) const
{
    return m_switches[node];
}

uint64_t
PfcTopologyHelper::GetDropCount(PfcDropReason reason) const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetDropCount(reason) : 0;
    }
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        total += GetHostDevice(h)->GetDropCount(reason);
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetDropCount() const
{
    uint64_t total = 0;
    for (uint8_t r = 0; r < kPfcDropReasons; ++r)
    {
        total += GetDropCount(static_cast<PfcDropReason>(r));
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetTrafficControlDrops() const
{
    uint64_t total = 0;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        Ptr<TrafficControlLayer> tc = GetHost(h)->GetObject<TrafficControlLayer>();
        Ptr<QueueDisc> root = tc ? tc->GetRootQueueDiscOnDevice(GetHostDevice(h)) : nullptr;
        total += root ? root->GetStats().nTotalDroppedPackets : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetPauseCount() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetPausesSent() : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetResumeCount() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetResumesSent() : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetLosslessBytes() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetMmu()->GetLosslessUsed() : 0;
    }
    return total;
}

uint64_t
PfcTopologyHelper::GetLossyBytes() const
{
    uint64_t total = 0;
    for (const auto& sw : m_switches)
    {
        total += sw ? sw->GetMmu()->GetLossyUsed() : 0;
    }
    return total;
}

void
PfcTopologyHelper::PrintSwitchCounters(std::ostream& os) const
{
    for (uint32_t v = 0; v < m_switches.size(); ++v)
    {
        const auto& sw = m_switches[v];
        if (!sw)
        {
            continue;
        }
        os << m_topo.GetNode(v).name << ": pauses=" << sw->GetPausesSent()
           << " resumes=" << sw->GetResumesSent() << " forwarded=" << sw->GetForwardedCount();
        for (uint8_t r = 0; r < kPfcDropReasons; ++r)
        {
            uint64_t n = sw->GetDropCount(static_cast<PfcDropReason>(r));
            if (n > 0)
            {
                os << " drop[" << static_cast<PfcDropReason>(r) << "]=" << n;
            }
        }
        os << "\n";
    }
}

} // namespace ns3
