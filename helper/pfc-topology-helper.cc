/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/error-model.h"
#include "ns3/fatal-error.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcTopologyHelper");

PfcTopologyHelper::PfcTopologyHelper(const tagger::Topology& topology)
    : m_topo(topology),
      m_routes(*this),
      m_built(false)
{
}

PfcHelper&
PfcTopologyHelper::GetPfcHelper()
{
    return m_pfc;
}

PfcRouteHelper&
PfcTopologyHelper::GetRouteHelper()
{
    return m_routes;
}

void
PfcTopologyHelper::SetLinkProperties(const std::vector<PfcLinkProperties>& links)
{
    NS_ABORT_MSG_IF(m_built, "PfcTopologyHelper::SetLinkProperties: call it before Build()");
    const std::size_t n = m_topo.GetLinks().size();
    if (links.size() != n)
    {
        NS_FATAL_ERROR("PfcTopologyHelper::SetLinkProperties: "
                       << links.size() << " link properties for " << n << " topology links");
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        const PfcLinkProperties& p = links[i];
        if (p.rate.GetBitRate() == 0 || p.delay.IsStrictlyNegative() || !(p.errorRate >= 0) ||
            !(p.errorRate <= 1))
        {
            NS_FATAL_ERROR("PfcTopologyHelper::SetLinkProperties: link "
                           << i << " (" << m_topo.GetNode(m_topo.GetLinks()[i].a.node).name << "-"
                           << m_topo.GetNode(m_topo.GetLinks()[i].b.node).name << "): rate "
                           << p.rate << ", delay " << p.delay << ", error rate " << p.errorRate
                           << " (need a rate > 0, a delay >= 0, an error rate "
                           << "in [0, 1])");
        }
    }
    m_links = links;
}

void
PfcTopologyHelper::SetNodeRanks(const std::vector<uint32_t>& ranks)
{
    NS_ABORT_MSG_IF(m_built, "PfcTopologyHelper::SetNodeRanks: call it before Build()");
    NS_ABORT_MSG_IF(ranks.size() != m_topo.GetNNodes(),
                    "PfcTopologyHelper::SetNodeRanks: " << ranks.size() << " ranks for "
                                                        << m_topo.GetNNodes() << " nodes");
    m_ranks = ranks;
}

std::vector<uint32_t>
PfcTopologyHelper::GetNodeRanks() const
{
    return m_ranks.empty() ? std::vector<uint32_t>(m_topo.GetNNodes(), 0) : m_ranks;
}

std::vector<uint32_t>
PfcTopologyHelper::RanksByPod(const tagger::Topology& topology, uint32_t ranks)
{
    NS_ABORT_MSG_IF(ranks == 0, "PfcTopologyHelper::RanksByPod: 0 ranks");
    NS_ABORT_MSG_IF(!topology.IsLayered(),
                    "PfcTopologyHelper::RanksByPod: the topology has no layers, so no pods "
                    "(give SetNodeRanks a map of nodes to ranks)");
    const uint32_t n = topology.GetNNodes();
    int32_t top = 0;
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        top = std::max(top, topology.GetNode(v).layer);
    }
    // Pods: connected components without the top layer, numbered in order
    // of their lowest node id; top-layer switches numbered in id order.
    const uint32_t none = UINT32_MAX;
    std::vector<std::vector<tagger::NodeId>> adjacent(n);
    for (const tagger::TopoLink& l : topology.GetLinks())
    {
        adjacent[l.a.node].push_back(l.b.node);
        adjacent[l.b.node].push_back(l.a.node);
    }
    std::vector<uint32_t> pod(n, none);
    uint32_t pods = 0;
    std::vector<tagger::NodeId> tops;
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (topology.GetNode(v).layer == top)
        {
            tops.push_back(v);
            continue;
        }
        if (pod[v] != none)
        {
            continue;
        }
        std::vector<tagger::NodeId> stack{v};
        pod[v] = pods;
        while (!stack.empty())
        {
            tagger::NodeId u = stack.back();
            stack.pop_back();
            for (tagger::NodeId w : adjacent[u])
            {
                if (topology.GetNode(w).layer != top && pod[w] == none)
                {
                    pod[w] = pods;
                    stack.push_back(w);
                }
            }
        }
        ++pods;
    }
    std::vector<uint32_t> rank(n, 0);
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (pod[v] != none)
        {
            rank[v] = uint32_t(uint64_t(pod[v]) * ranks / pods);
        }
    }
    for (std::size_t c = 0; c < tops.size(); ++c)
    {
        rank[tops[c]] = uint32_t(uint64_t(c) * ranks / tops.size());
    }
    return rank;
}

std::vector<PfcLinkProperties>
PfcTopologyHelper::GetLinkProperties() const
{
    NS_ABORT_MSG_IF(!m_built, "PfcTopologyHelper::GetLinkProperties: call it after Build()");
    std::vector<PfcLinkProperties> links;
    for (uint32_t i = 0; i < m_topo.GetLinks().size(); ++i)
    {
        const tagger::TopoLink& link = m_topo.GetLinks()[i];
        Ptr<PfcNetDevice> dev = GetDevice(link.a.node, link.a.port);
        PfcLinkProperties p;
        p.rate = dev->GetDataRate();
        p.delay = dev->GetPfcChannel()->GetDelay();
        p.errorRate = m_links.empty() ? 0 : m_links[i].errorRate;
        links.push_back(p);
    }
    return links;
}

void
PfcTopologyHelper::ApplyLinkProperties(uint32_t i, const NetDeviceContainer& devices) const
{
    if (m_links.empty())
    {
        return;
    }
    const PfcLinkProperties& p = m_links[i];
    for (uint32_t end = 0; end < 2; ++end)
    {
        Ptr<PfcNetDevice> dev = DynamicCast<PfcNetDevice>(devices.Get(end));
        dev->SetAttribute("DataRate", DataRateValue(p.rate));
        if (p.errorRate > 0)
        {
            Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
            loss->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            loss->SetRate(p.errorRate);
            dev->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        }
    }
    DynamicCast<PfcNetDevice>(devices.Get(0))
        ->GetPfcChannel()
        ->SetAttribute("Delay", TimeValue(p.delay));
}

void
PfcTopologyHelper::Build()
{
    NS_ABORT_MSG_IF(m_built, "PfcTopologyHelper::Build: called twice");
    m_built = true;
    CreateDevices();
    AddNames();
    InstallHosts();
    m_routes.PopulateRoutes();
}

void
PfcTopologyHelper::CreateDevices()
{
    const uint32_t n = m_topo.GetNNodes();
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        m_nodes.Add(CreateObject<Node>(m_ranks.empty() ? 0 : m_ranks[v]));
    }
    m_switches.assign(n, nullptr);
    m_devices.assign(m_topo.GetNPorts(), nullptr);
    m_switchPort.assign(m_topo.GetNPorts(), kPfcNoPort);
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        // Switches and relay servers get the forwarding engine.
        if (m_topo.IsForwarder(v))
        {
            m_switches[v] = m_pfc.InstallSwitch(m_nodes.Get(v));
        }
        if (m_topo.IsHost(v))
        {
            m_hosts.push_back(v);
        }
    }
    // One channel per link; ports join their switch afterwards, in port order.
    for (uint32_t i = 0; i < m_topo.GetLinks().size(); ++i)
    {
        const tagger::TopoLink& link = m_topo.GetLinks()[i];
        NetDeviceContainer d =
            m_pfc.Connect(m_nodes.Get(link.a.node), m_nodes.Get(link.b.node), false);
        ApplyLinkProperties(i, d);
        m_devices[m_topo.GetPortIndex(link.a.node, link.a.port)] =
            DynamicCast<PfcNetDevice>(d.Get(0));
        m_devices[m_topo.GetPortIndex(link.b.node, link.b.port)] =
            DynamicCast<PfcNetDevice>(d.Get(1));
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
}

void
PfcTopologyHelper::AddNames()
{
    const uint32_t n = m_topo.GetNNodes();
    // Names: the topology's node names, "port<n>" for devices.  Names holds
    // references to the nodes: clear it when the simulation is destroyed, so
    // nodes, devices and their trace files (pcap) are released then.  Names an
    // earlier network left are cleared first (all of them, before any is
    // added, so that a partial overlap cannot drop names of this network).
    Simulator::ScheduleDestroy(&Names::Clear);
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        if (Names::Find<Object>(m_topo.GetNode(v).name))
        {
            Names::Clear();
            break;
        }
    }
    for (tagger::NodeId v = 0; v < n; ++v)
    {
        const std::string& name = m_topo.GetNode(v).name;
        Names::Add(name, m_nodes.Get(v));
        for (tagger::PortNo p = 0; p < m_topo.GetNode(v).ports; ++p)
        {
            Ptr<PfcNetDevice> dev = m_devices[m_topo.GetPortIndex(v, p)];
            if (dev)
            {
                Names::Add(m_nodes.Get(v), "port" + std::to_string(p), dev);
            }
        }
    }
}

void
PfcTopologyHelper::InstallHosts()
{
    // Hosts: Internet stack, one address each, mq traffic control; a relay
    // server's interface is its switch device.
    InternetStackHelper internet;
    NetDeviceContainer hostDevices;
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        tagger::NodeId v = m_hosts[h];
        Ptr<NetDevice> device;
        if (m_switches[v])
        {
            NS_ABORT_MSG_IF(m_switches[v]->GetNPorts() == 0,
                            "PfcTopologyHelper: relay server " << m_topo.GetNode(v).name
                                                               << " has no connected port");
            device = m_switches[v];
        }
        else
        {
            NS_ABORT_MSG_IF(m_topo.GetNode(v).ports != 1 || !GetDevice(v, 0),
                            "PfcTopologyHelper: host "
                                << m_topo.GetNode(v).name
                                << " must have exactly one connected port (or relay)");
            device = GetDevice(v, 0);
            hostDevices.Add(device);
        }
        Ptr<Node> node = m_nodes.Get(v);
        internet.Install(node);
        uint32_t id = h + 1;
        NS_ABORT_MSG_IF(id >= (1u << 24), "PfcTopologyHelper: more than 2^24 - 2 hosts");
        Ipv4Address address((10u << 24) | id);
        if (m_switches[v])
        {
            m_switches[v]->AddLocalAddress(address);
        }
        Ptr<Ipv4> ipv4 = node->GetObject<Ipv4>();
        int32_t itf = ipv4->AddInterface(device);
        ipv4->AddAddress(itf, Ipv4InterfaceAddress(address, Ipv4Mask("255.0.0.0")));
        ipv4->SetUp(itf);
        m_hostAddress.push_back(address);
    }
    PfcHelper::InstallHostTrafficControl(hostDevices);
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
        if (m_switches[v] && !m_topo.IsHost(v))
        {
            c.Add(m_nodes.Get(v));
        }
    }
    return c;
}

NodeContainer
PfcTopologyHelper::GetForwarders() const
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
    return m_switches[m_hosts[host]] ? nullptr : GetDevice(m_hosts[host], 0);
}

Ptr<PfcSwitchNetDevice>
PfcTopologyHelper::GetHostSwitch(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.size(),
                    "PfcTopologyHelper: no host " << host << " (" << m_hosts.size() << " hosts)");
    return m_switches[m_hosts[host]];
}

Ptr<NetDevice>
PfcTopologyHelper::GetHostInterface(uint32_t host) const
{
    Ptr<PfcSwitchNetDevice> sw = GetHostSwitch(host);
    if (sw)
    {
        return sw;
    }
    return GetHostDevice(host);
}

bool
PfcTopologyHelper::IsRelayHost(uint32_t host) const
{
    return GetHostSwitch(host) != nullptr;
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

tagger::NodeId
PfcTopologyHelper::GetNodeId(const std::string& name) const
{
    tagger::NodeId v = m_topo.FindNode(name);
    NS_ABORT_MSG_IF(v == tagger::kNone, "PfcTopologyHelper: no node named '" << name << "'");
    return v;
}

uint64_t
PfcTopologyHelper::EstimateMemory(const tagger::Topology& topology, uint64_t flows)
{
    uint64_t hosts = 0;
    uint64_t switchPorts = 0;
    for (tagger::NodeId v = 0; v < topology.GetNNodes(); ++v)
    {
        if (topology.IsForwarder(v))
        {
            switchPorts += topology.GetNode(v).ports;
        }
        if (topology.IsHost(v))
        {
            ++hosts;
        }
    }
    return kBytesBase + hosts * kBytesPerHost + switchPorts * kBytesPerSwitchPort +
           flows * kBytesPerFlow;
}

std::string
PfcTopologyHelper::CheckMemory(const tagger::Topology& topology, uint64_t flows)
{
    std::ifstream meminfo("/proc/meminfo");
    uint64_t availableKb = 0;
    for (std::string key; meminfo >> key;)
    {
        if (key == "MemAvailable:")
        {
            meminfo >> availableKb;
            break;
        }
        meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    const uint64_t needed = EstimateMemory(topology, flows);
    if (availableKb == 0 || needed / 1024 <= availableKb)
    {
        return "";
    }
    std::ostringstream why;
    why << std::fixed << std::setprecision(1) << "needs about " << needed / 1e9 << " GB ("
        << topology.GetNNodes() << " nodes, " << flows
        << " flows: PfcTopologyHelper::EstimateMemory), more than the " << availableKb * 1024 / 1e9
        << " GB this machine has available";
    return why.str();
}

} // namespace ns3
